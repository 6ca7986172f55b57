// The cores' answers for sql/edition/vectors.py, which writes them into
// test/data/id_vectors.json: one case a line on stdin, an operation and its
// inputs, each input in hex (its bytes: text of any encoding passes
// unchanged), separated by tabs; one JSON object a line on stdout, the
// answer (test/unit/vector_answers.hpp). Not a unit test: the Makefile's
// unit binary takes *_test.cpp only.
#include <iostream>
#include <string>
#include <vector>

#include "vector_answers.hpp"

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::vector<std::string> fields;
        std::size_t start = 0;
        while (true) {
            std::size_t tab = line.find('\t', start);
            fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) break;
            start = tab + 1;
        }
        std::vector<std::string> inputs;
        for (std::size_t i = 1; i < fields.size(); ++i) {
            std::string bytes;
            if (!idgen::test::bytes_of_hex(fields[i], bytes)) return 2;
            inputs.push_back(bytes);
        }
        std::cout << idgen::test::answer_json(idgen::test::vector_answer(fields[0], inputs)) << '\n';
    }
    return 0;
}
