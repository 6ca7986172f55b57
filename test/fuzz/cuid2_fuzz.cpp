// CUID2 validation (core/cuid2.hpp), as cuid2_is_valid() and the CHECK of a
// cuid2_define() domain use it, and the ID maker fed arbitrary parts.
//
// The input is two bytes, a minimum and a maximum length (each % 40), then a
// text. cuid2_valid(text) and cuid2_valid(text, min, max) are judged against
// isCuid's rule spelled out here through strchr over the allowed characters:
// the length within the bounds (2 to 32 by default), at least 2 characters,
// the first one of a-z, the rest of 0-9a-z. Then the text's bytes become a
// CUID2's parts (time, counter, salt and fingerprint of any bytes up to 32,
// a letter, a length): cuid2_make writes 0 for a length outside 2 to 32,
// otherwise exactly length characters (a shorter digest text takes 2^-330
// luck) that cuid2_valid accepts, and the same again for the same parts.
// Last, the input's first 64 bytes as a digest: base36_leading512's digits
// (what cuid2_make reads) are the start of base36_encode512's full text.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/cuid2.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

bool is_cuid(std::string_view text, std::size_t min, std::size_t max) {
    if (text.size() < min || text.size() > max || text.size() < 2) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char *allowed = i == 0 ? "abcdefghijklmnopqrstuvwxyz" : "0123456789abcdefghijklmnopqrstuvwxyz";
        if (text[i] == '\0' || std::strchr(allowed, text[i]) == nullptr) return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    Input in{data, size};
    std::size_t min = in.byte() % 40, max = in.byte() % 40;
    std::string_view text = text_of(data + in.pos, size - in.pos);
    FUZZ_CHECK(cuid2_valid(text) == is_cuid(text, 2, 32));
    FUZZ_CHECK(cuid2_valid(text, min, max) == is_cuid(text, min, max));

    std::size_t length = in.byte() % 40;
    std::size_t salt_length = in.byte() % 34, fingerprint_length = in.byte() % 34;
    char letter = static_cast<char>('a' + in.byte() % 26);
    std::int64_t unix_ms = static_cast<std::int64_t>(in.u64());
    std::uint64_t counter = in.u64();
    char salt[33] = {}, fingerprint[33] = {};
    for (std::size_t i = 0; i < salt_length; ++i) salt[i] = static_cast<char>(in.byte());
    for (std::size_t i = 0; i < fingerprint_length; ++i) fingerprint[i] = static_cast<char>(in.byte());
    Cuid2Parts parts{unix_ms, counter, std::string_view(salt, salt_length),
                     std::string_view(fingerprint, fingerprint_length), letter};
    char out[kCuid2MaxLength], again[kCuid2MaxLength];
    std::size_t written = cuid2_make(parts, length, out);
    bool makes = length >= 2 && length <= 32 && salt_length <= 32 && fingerprint_length <= 32;
    FUZZ_CHECK(written == (makes ? length : 0));
    if (makes) {
        FUZZ_CHECK(out[0] == letter);
        FUZZ_CHECK(is_cuid(std::string_view(out, written), length, length));
        FUZZ_CHECK(cuid2_make(parts, length, again) == written && std::memcmp(out, again, written) == 0);
    }

    std::uint8_t digest[64] = {};
    std::memcpy(digest, data, size < sizeof digest ? size : sizeof digest);
    char full[kBase36MaxDigits512], leading[kBase36MaxLeading512];
    std::size_t full_length = base36_encode512(digest, full);
    std::size_t count = size % (kBase36MaxLeading512 + 1);
    FUZZ_CHECK(base36_leading512(digest, count, leading) == full_length);
    FUZZ_CHECK(std::memcmp(leading, full, count < full_length ? count : full_length) == 0);
    return 0;
}
