// ObjectId text (core/objectid.hpp), as objectid_in and objectid_out use it.
//
// The whole input is text for objectid_decode, judged against rules spelled
// out here: the first byte that is no hex digit (either case) is reported at
// its offset, then a length other than 24; anything else decodes to the bytes
// the digits spell, encodes back to its lowercase spelling and decodes the
// same in either case. The first 12 bytes are also an ObjectId to encode: 24
// lowercase hex digits that decode back to it and sort as the bytes do.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/objectid.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::string_view kLowerHex = "0123456789abcdef";

int digit_of(char c) {
    std::size_t at = kLowerHex.find(ascii_lower(c));
    return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

void check_decode(std::string_view text) {
    std::uint8_t got[kObjectIdBytes];
    std::memset(got, 0x5A, sizeof got);
    ObjectIdDecoded decoded = objectid_decode(text, got);

    std::size_t first_bad = std::string_view::npos;
    for (std::size_t i = 0; i < text.size() && first_bad == std::string_view::npos; ++i)
        if (digit_of(text[i]) < 0) first_bad = i;

    std::string upper(text.size(), '\0'), lower(text.size(), '\0');
    std::uint8_t got_upper[kObjectIdBytes], got_lower[kObjectIdBytes];
    ObjectIdDecoded u = objectid_decode(with_case(text, upper.data(), true), got_upper);
    ObjectIdDecoded l = objectid_decode(with_case(text, lower.data(), false), got_lower);
    FUZZ_CHECK(u.status == decoded.status && l.status == decoded.status);
    FUZZ_CHECK(u.position == decoded.position && l.position == decoded.position);

    if (first_bad != std::string_view::npos) {
        FUZZ_CHECK(decoded.status == ObjectIdStatus::bad_character);
        FUZZ_CHECK(decoded.position == first_bad);
        for (std::uint8_t b : got) FUZZ_CHECK(b == 0x5A);  // nothing written
        return;
    }
    if (text.size() != kObjectIdTextLength) {
        FUZZ_CHECK(decoded.status == ObjectIdStatus::wrong_length);
        return;
    }
    FUZZ_CHECK(decoded.status == ObjectIdStatus::ok);
    for (std::size_t i = 0; i < kObjectIdBytes; ++i)
        FUZZ_CHECK(got[i] == (digit_of(text[2 * i]) << 4 | digit_of(text[2 * i + 1])));
    FUZZ_CHECK(std::memcmp(got, got_upper, sizeof got) == 0);
    FUZZ_CHECK(std::memcmp(got, got_lower, sizeof got) == 0);

    char encoded[kObjectIdTextLength];
    objectid_encode(got, encoded);
    FUZZ_CHECK(std::string_view(encoded, sizeof encoded) == lower);
}

void check_encode(const std::uint8_t *id, const std::uint8_t *other) {
    char encoded[kObjectIdTextLength], other_encoded[kObjectIdTextLength];
    objectid_encode(id, encoded);
    objectid_encode(other, other_encoded);
    for (char c : encoded) FUZZ_CHECK(digit_of(c) >= 0 && ascii_lower(c) == c);
    std::uint8_t back[kObjectIdBytes];
    ObjectIdDecoded decoded = objectid_decode(std::string_view(encoded, sizeof encoded), back);
    FUZZ_CHECK(decoded.status == ObjectIdStatus::ok);
    FUZZ_CHECK(std::memcmp(back, id, kObjectIdBytes) == 0);
    int text_order = std::memcmp(encoded, other_encoded, sizeof encoded);
    int byte_order = std::memcmp(id, other, kObjectIdBytes);
    FUZZ_CHECK((text_order < 0) == (byte_order < 0) && (text_order == 0) == (byte_order == 0));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    check_decode(text_of(data, size));
    Input input{data, size};
    std::uint8_t id[kObjectIdBytes], other[kObjectIdBytes];
    for (std::uint8_t &b : id) b = input.byte();
    for (std::uint8_t &b : other) b = input.byte();
    check_encode(id, other);
    return 0;
}
