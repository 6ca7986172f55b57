// ULID text: Crockford base32 of 128-bit values (core/base32.hpp), as ulid_in
// and ulid_out use it.
//
// The whole input is text for base32_decode128, judged against an alphabet
// and rules spelled out here: the first character outside the alphabet is
// reported (either case; I, L, O, U are not digits), then a length other than
// 26, then a first digit above 7; anything else decodes, encodes back to its
// uppercase spelling, and decodes the same in either case. The first 32 bytes
// are also two values to encode: 26 uppercase digits, the first at most '7',
// that decode back to the value and sort as the values do.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/base32.hpp"
#include "core/ulid.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::string_view kAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// The digit value of c in either case, or -1.
int digit_of(char c) {
    std::size_t at = kAlphabet.find(ascii_upper(c));
    return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

void check_decode(std::string_view text) {
    Base32Decoded got = base32_decode128(text);

    std::size_t first_bad = std::string_view::npos;
    for (std::size_t i = 0; i < text.size() && first_bad == std::string_view::npos; ++i)
        if (digit_of(text[i]) < 0) first_bad = i;

    // Case never changes the verdict.
    std::string upper(text.size(), '\0'), lower(text.size(), '\0');
    Base32Decoded got_upper = base32_decode128(with_case(text, upper.data(), true));
    Base32Decoded got_lower = base32_decode128(with_case(text, lower.data(), false));
    FUZZ_CHECK(got_upper.status == got.status && got_lower.status == got.status);
    FUZZ_CHECK(got_upper.position == got.position && got_lower.position == got.position);

    if (first_bad != std::string_view::npos) {
        FUZZ_CHECK(got.status == Base32Status::bad_digit);
        FUZZ_CHECK(got.position == first_bad);
        return;
    }
    if (text.size() != kBase32Digits128) {
        FUZZ_CHECK(got.status == Base32Status::wrong_length);
        return;
    }
    if (digit_of(text[0]) > 7) {
        FUZZ_CHECK(got.status == Base32Status::too_large);
        return;
    }
    FUZZ_CHECK(got.status == Base32Status::ok);
    FUZZ_CHECK(got_upper.value == got.value && got_lower.value == got.value);

    // Decode then encode: the canonical (uppercase) spelling of the input.
    char encoded[kBase32Digits128];
    base32_encode128(got.value, encoded);
    FUZZ_CHECK(std::string_view(encoded, sizeof encoded) == upper);
    FUZZ_CHECK(ulid_unix_ms(got.value) <= kUlidMaxUnixMs);
}

void check_encode(Uint128 value, Uint128 other) {
    char encoded[kBase32Digits128];
    base32_encode128(value, encoded);
    for (char c : encoded) FUZZ_CHECK(digit_of(c) >= 0 && ascii_upper(c) == c);
    FUZZ_CHECK(encoded[0] >= '0' && encoded[0] <= '7');

    Base32Decoded back = base32_decode128(std::string_view(encoded, sizeof encoded));
    FUZZ_CHECK(back.status == Base32Status::ok && back.value == value);

    // Text order is numeric order.
    char other_encoded[kBase32Digits128];
    base32_encode128(other, other_encoded);
    int order = std::memcmp(encoded, other_encoded, sizeof encoded);
    FUZZ_CHECK((order < 0) == (value < other) && (order == 0) == (value == other));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    check_decode(text_of(data, size));
    Input input{data, size};
    Uint128 value = input.u128();
    check_encode(value, input.u128());
    return 0;
}
