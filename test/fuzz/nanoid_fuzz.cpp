// NanoID alphabets and validation (core/nanoid.hpp), as nanoid(),
// nanoid_is_valid() and nanoid_define() use them.
//
// The input is an alphabet and a text: a byte n, then n characters, each a
// length byte (1 + b % 5, so that over-long characters occur too) and that
// many bytes, then the text. The alphabet's verdict is judged against rules
// spelled out here (fewer than 2 characters, more than 256, an empty or
// over-long one, two equal, one a prefix of another: the pair with the
// earliest later position), found by comparing every pair. For a good
// alphabet, nanoid_valid is judged by splitting the text by a linear search
// of the alphabet (its split is unique: no character is a prefix of another)
// for every size the text could have, and nanoid_fill, fed the text's bytes,
// writes exactly the characters that masked rejection picks.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/nanoid.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

NanoidAlphabet alphabet;  // large: not on the stack
std::string_view characters[kNanoidMaxAlphabet + 1];
char out[kNanoidMaxBytes];

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() && std::memcmp(text.data(), prefix.data(), prefix.size()) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    std::string_view input = text_of(data, size);
    if (input.empty()) return 0;
    std::size_t n = static_cast<unsigned char>(input[0]) + 1;  // 1 to 256, and 257 below
    if (n == 256 && input.size() > 1 && (input[1] & 1)) n = 257;
    input.remove_prefix(1);
    std::size_t count = 0;
    bool bad_length = false;
    nanoid_alphabet_start(alphabet);
    NanoidAlphabetStatus added = NanoidAlphabetStatus::ok;
    while (count < n && !input.empty() && added == NanoidAlphabetStatus::ok) {
        std::size_t length = static_cast<unsigned char>(input[0]) % 5 + 1;
        input.remove_prefix(1);
        if (length > input.size()) length = input.size();
        std::string_view c = input.substr(0, length);
        input.remove_prefix(length);
        added = nanoid_alphabet_add(alphabet, c);
        if (c.empty() || c.size() > kNanoidMaxCharacterBytes) {
            FUZZ_CHECK(added == NanoidAlphabetStatus::bad_character);
            bad_length = true;
        } else if (count == kNanoidMaxAlphabet) {
            FUZZ_CHECK(added == NanoidAlphabetStatus::too_many);
        } else {
            FUZZ_CHECK(added == NanoidAlphabetStatus::ok);
            characters[count++] = c;
        }
    }
    if (added != NanoidAlphabetStatus::ok || bad_length) return 0;
    NanoidAlphabetCheck check = nanoid_alphabet_finish(alphabet);
    if (count < 2) {
        FUZZ_CHECK(check.status == NanoidAlphabetStatus::too_few);
        return 0;
    }
    // The pair with the earliest later position, then the earliest earlier one.
    std::size_t first = 0, second = 0;
    bool found = false, equal = false;
    for (std::size_t j = 1; j < count && !found; ++j)
        for (std::size_t i = 0; i < j && !found; ++i)
            if (starts_with(characters[i], characters[j]) || starts_with(characters[j], characters[i])) {
                found = true;
                first = i;
                second = j;
                equal = characters[i].size() == characters[j].size();
            }
    if (found) {
        FUZZ_CHECK(check.status == (equal ? NanoidAlphabetStatus::repeated : NanoidAlphabetStatus::bad_character));
        FUZZ_CHECK(check.first == first && check.second == second);
        return 0;
    }
    FUZZ_CHECK(check.status == NanoidAlphabetStatus::ok);
    FUZZ_CHECK(alphabet.count == count);
    FUZZ_CHECK(alphabet.mask >= count - 1 && alphabet.mask / 2 < count - 1);

    // Validation: split the text by linear search.
    std::string_view text = input;
    std::size_t split = 0;
    bool splits = true;
    for (std::string_view rest = text; !rest.empty();) {
        std::size_t k = 0;
        while (k < count && !starts_with(rest, characters[k])) ++k;
        if (k == count) {
            splits = false;
            break;
        }
        FUZZ_CHECK(nanoid_character_at(alphabet, rest) == static_cast<int>(k));
        rest.remove_prefix(characters[k].size());
        ++split;
    }
    for (std::size_t s = 0; s <= split + 1; ++s)
        FUZZ_CHECK(nanoid_valid(alphabet, text, s) == (splits && s == split));

    // Generation from the text's bytes: what masked rejection picks.
    std::size_t want = text.size() < kNanoidMaxSize ? text.size() : kNanoidMaxSize;
    NanoidProgress progress{0, 0};
    std::size_t used = nanoid_fill(alphabet, reinterpret_cast<const std::uint8_t *>(text.data()), text.size(),
                                   out, want, progress);
    std::size_t at = 0, picked = 0, consumed = 0;
    for (; consumed < text.size() && picked < want; ++consumed) {
        unsigned v = static_cast<unsigned char>(text[consumed]) & alphabet.mask;
        if (v >= count) continue;
        FUZZ_CHECK(at + characters[v].size() <= progress.bytes);
        FUZZ_CHECK(std::memcmp(out + at, characters[v].data(), characters[v].size()) == 0);
        at += characters[v].size();
        ++picked;
    }
    FUZZ_CHECK(used == consumed && progress.characters == picked && progress.bytes == at);
    if (picked > 0) FUZZ_CHECK(nanoid_valid(alphabet, std::string_view(out, at), picked));
    return 0;
}
