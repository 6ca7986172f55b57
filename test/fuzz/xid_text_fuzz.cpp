// XID text (core/xid.hpp), as xid_in and xid_out use it.
//
// The whole input is text for xid_decode, judged against rs/xid's rules
// spelled out here: the first byte outside 0-9a-v (uppercase included) is
// reported at its offset, then a length other than 20, then a last character
// other than '0' or 'g'; anything else decodes to the 96 bits the characters
// spell (worked out here through a 128-bit integer, not the core's bit
// buffer) and encodes back to the same text. The first 12 bytes are also an
// XID to encode: 20 characters that decode back to it and sort as the bytes do.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/xid.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::string_view kAlphabet = "0123456789abcdefghijklmnopqrstuv";

int digit_of(char c) {
    std::size_t at = kAlphabet.find(c);
    return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

void check_decode(std::string_view text) {
    std::uint8_t got[kXidBytes];
    std::memset(got, 0x5A, sizeof got);
    XidDecoded decoded = xid_decode(text, got);

    std::size_t first_bad = std::string_view::npos;
    for (std::size_t i = 0; i < text.size() && first_bad == std::string_view::npos; ++i)
        if (digit_of(text[i]) < 0) first_bad = i;
    if (first_bad != std::string_view::npos) {
        FUZZ_CHECK(decoded.status == XidStatus::bad_character);
        FUZZ_CHECK(decoded.position == first_bad);
        for (std::uint8_t b : got) FUZZ_CHECK(b == 0x5A);
        return;
    }
    if (text.size() != kXidTextLength) {
        FUZZ_CHECK(decoded.status == XidStatus::wrong_length);
        return;
    }
    // 20 digits are 100 bits: the 96 of the ID, then 4 that must be zero.
    Uint128 value = 0;
    for (char c : text) value = (value << 5) | static_cast<Uint128>(digit_of(c));
    if ((value & 0xF) != 0) {
        FUZZ_CHECK(decoded.status == XidStatus::bad_last_character);
        FUZZ_CHECK(text.back() != '0' && text.back() != 'g');
        return;
    }
    FUZZ_CHECK(decoded.status == XidStatus::ok);
    value >>= 4;
    for (int i = static_cast<int>(kXidBytes) - 1; i >= 0; --i, value >>= 8)
        FUZZ_CHECK(got[i] == static_cast<std::uint8_t>(value & 0xFF));

    char encoded[kXidTextLength];
    xid_encode(got, encoded);
    FUZZ_CHECK(std::string_view(encoded, sizeof encoded) == text);
}

void check_encode(const std::uint8_t *id, const std::uint8_t *other) {
    char encoded[kXidTextLength], other_encoded[kXidTextLength];
    xid_encode(id, encoded);
    xid_encode(other, other_encoded);
    for (char c : encoded) FUZZ_CHECK(digit_of(c) >= 0);
    FUZZ_CHECK(encoded[kXidTextLength - 1] == '0' || encoded[kXidTextLength - 1] == 'g');
    std::uint8_t back[kXidBytes];
    FUZZ_CHECK(xid_decode(std::string_view(encoded, sizeof encoded), back).status == XidStatus::ok);
    FUZZ_CHECK(std::memcmp(back, id, kXidBytes) == 0);
    int text_order = std::memcmp(encoded, other_encoded, sizeof encoded);
    int byte_order = std::memcmp(id, other, kXidBytes);
    FUZZ_CHECK((text_order < 0) == (byte_order < 0) && (text_order == 0) == (byte_order == 0));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    check_decode(text_of(data, size));
    Input input{data, size};
    std::uint8_t id[kXidBytes], other[kXidBytes];
    for (std::uint8_t &b : id) b = input.byte();
    for (std::uint8_t &b : other) b = input.byte();
    check_encode(id, other);
    return 0;
}
