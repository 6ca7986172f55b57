// KSUID text: strict base62 of 160-bit values (core/ksuid.hpp), as ksuid_in
// and ksuid_out use it.
//
// The whole input is text for ksuid_decode, judged against rules spelled out
// here: the first byte outside 0-9A-Za-z is reported, then a length other
// than 27, then a value above 2^160 - 1, which for 27 digits in ASCII order is
// text above "aWgEPTl1tmebfsQzFP4bxwgy80V" by byte comparison; anything else
// decodes to the bytes that base-256 long multiplication gives, and encodes
// back to the input. The first 40 bytes are also two values to encode: 27
// digits that decode back to the value and sort as the bytes do; Next() and
// Prev() are byte-wise +1 and -1 with wrap-around.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/ksuid.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::string_view kAlphabet =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr std::string_view kLargest = "aWgEPTl1tmebfsQzFP4bxwgy80V";
constexpr std::size_t kLength = 27;
constexpr std::size_t kBytes = 20;

int digit_of(char c) {
    std::size_t at = kAlphabet.find(c);
    return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

// bytes = bytes * 62 + digit, big-endian; returns the carry out of the top.
unsigned multiply_add(std::uint8_t bytes[kBytes], unsigned digit) {
    unsigned carry = digit;
    for (std::size_t i = kBytes; i-- > 0;) {
        unsigned part = bytes[i] * 62u + carry;
        bytes[i] = static_cast<std::uint8_t>(part & 0xFF);
        carry = part >> 8;
    }
    return carry;
}

void check_decode(std::string_view text) {
    KsuidDecoded got = ksuid_decode(text);

    std::size_t first_bad = std::string_view::npos;
    for (std::size_t i = 0; i < text.size() && first_bad == std::string_view::npos; ++i)
        if (digit_of(text[i]) < 0) first_bad = i;
    if (first_bad != std::string_view::npos) {
        FUZZ_CHECK(got.status == KsuidStatus::bad_character);
        FUZZ_CHECK(got.position == first_bad);
        return;
    }
    if (text.size() != kLength) {
        FUZZ_CHECK(got.status == KsuidStatus::wrong_length);
        return;
    }
    if (text > kLargest) {
        FUZZ_CHECK(got.status == KsuidStatus::too_large);
        return;
    }
    FUZZ_CHECK(got.status == KsuidStatus::ok);

    std::uint8_t expected[kBytes] = {};
    unsigned overflow = 0;
    for (char c : text) overflow |= multiply_add(expected, static_cast<unsigned>(digit_of(c)));
    FUZZ_CHECK(overflow == 0);
    std::uint8_t bytes[kBytes];
    ksuid_store(got.value, bytes);
    FUZZ_CHECK(std::memcmp(bytes, expected, kBytes) == 0);

    char encoded[kLength];
    ksuid_encode(got.value, encoded);
    FUZZ_CHECK(std::string_view(encoded, kLength) == text);
}

void add_one(std::uint8_t bytes[kBytes], int delta) {
    for (std::size_t i = kBytes; i-- > 0;) {
        bytes[i] = static_cast<std::uint8_t>(bytes[i] + delta);
        if (bytes[i] != (delta > 0 ? 0x00 : 0xFF)) return;
    }
}

void check_encode(const std::uint8_t bytes[kBytes], const std::uint8_t other_bytes[kBytes]) {
    Ksuid value = ksuid_load(bytes);
    std::uint8_t stored[kBytes];
    ksuid_store(value, stored);
    FUZZ_CHECK(std::memcmp(stored, bytes, kBytes) == 0);

    char encoded[kLength];
    ksuid_encode(value, encoded);
    std::string_view text(encoded, kLength);
    for (char c : text) FUZZ_CHECK(digit_of(c) >= 0);
    FUZZ_CHECK(text <= kLargest);
    KsuidDecoded back = ksuid_decode(text);
    FUZZ_CHECK(back.status == KsuidStatus::ok && back.value == value);

    // Text order is byte order is the struct's order.
    Ksuid other = ksuid_load(other_bytes);
    char other_encoded[kLength];
    ksuid_encode(other, other_encoded);
    int text_order = std::memcmp(encoded, other_encoded, kLength);
    int byte_order = std::memcmp(bytes, other_bytes, kBytes);
    FUZZ_CHECK((text_order < 0) == (byte_order < 0) && (text_order == 0) == (byte_order == 0));
    FUZZ_CHECK((value < other) == (byte_order < 0));

    // Next() and Prev(): the 160-bit value + 1 and - 1, wrapping.
    std::uint8_t up[kBytes], down[kBytes], next[kBytes], prev[kBytes];
    std::memcpy(up, bytes, kBytes);
    std::memcpy(down, bytes, kBytes);
    add_one(up, 1);
    add_one(down, -1);
    ksuid_store(ksuid_next(value), next);
    ksuid_store(ksuid_prev(value), prev);
    FUZZ_CHECK(std::memcmp(up, next, kBytes) == 0 && std::memcmp(down, prev, kBytes) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    check_decode(text_of(data, size));
    Input input{data, size};
    std::uint8_t a[kBytes], b[kBytes];
    for (auto &byte : a) byte = input.byte();
    for (auto &byte : b) byte = input.byte();
    check_encode(a, b);
    return 0;
}
