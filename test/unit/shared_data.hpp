// Third-party test data for the unit tests: ../shared/data beside the
// checkout (IDGEN_SHARED_DATA_DIR, from the Makefile), where the project keeps
// no copy of it, as test/lib/IdgenTest.pm's shared_data does for the TAP
// tests. A missing file is a skip that names its path, or a failure under
// CI=true.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "json_reader.hpp"

namespace idgen::test {

inline std::string shared_data_path(const std::string &name) {
    return std::string(IDGEN_SHARED_DATA_DIR) + "/" + name;
}

// The JSON of shared/data/NAME, or nothing after recording the skip (the
// failure under CI=true): the caller returns at once.
inline std::optional<Json> shared_json(const std::string &name) {
    std::string path = shared_data_path(name);
    std::ifstream in(path);
    if (!in) {
        const char *ci = std::getenv("CI");
        if (ci != nullptr && std::strcmp(ci, "true") == 0)
            ADD_FAILURE() << "test data " << path << " is missing: required under CI=true";
        else
            [&] {
                GTEST_SKIP() << "test data " << path
                             << " is missing (third-party data, kept beside the checkout)";
            }();
        return std::nullopt;
    }
    std::stringstream text;
    text << in.rdbuf();
    return JsonReader(text.str()).read();
}

}  // namespace idgen::test
