// Base36 text of 128-bit values (core/base36.hpp), as prefixed_id bodies and
// base36_decode(text) / base36_encode(uuid) use it.
//
// The whole input is text for base36_decode128, judged against rules spelled
// out here: the first character outside 0-9a-z (either case) is reported, then
// a length other than 25, then a value above 2^128 - 1 (for 25 digits, text
// order is numeric order, so that is the text above f5lxx1zz5pnorynqglhzmsp33);
// anything else decodes, encodes back to its lowercase spelling, and decodes
// the same in either case. The first 32 bytes are also two values to encode:
// 25 lowercase digits, at most the largest text, that decode back to the value
// and sort as the values do.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/base36.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::string_view kDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
constexpr std::string_view kMaxText = "f5lxx1zz5pnorynqglhzmsp33";  // 2^128 - 1

bool is_digit36(char c) {
    return kDigits.find(ascii_lower(c)) != std::string_view::npos;
}

void check_decode(std::string_view text) {
    Base36Decoded<Uint128> got = base36_decode128(text);

    std::size_t first_bad = std::string_view::npos;
    for (std::size_t i = 0; i < text.size() && first_bad == std::string_view::npos; ++i)
        if (!is_digit36(text[i])) first_bad = i;

    std::string upper(text.size(), '\0'), lower(text.size(), '\0');
    Base36Decoded<Uint128> got_upper = base36_decode128(with_case(text, upper.data(), true));
    Base36Decoded<Uint128> got_lower = base36_decode128(with_case(text, lower.data(), false));
    FUZZ_CHECK(got_upper.status == got.status && got_lower.status == got.status);
    FUZZ_CHECK(got_upper.position == got.position && got_lower.position == got.position);

    if (first_bad != std::string_view::npos) {
        FUZZ_CHECK(got.status == Base36Status::bad_digit);
        FUZZ_CHECK(got.position == first_bad);
        return;
    }
    if (text.size() != kBase36Digits128) {
        FUZZ_CHECK(got.status == Base36Status::wrong_length);
        return;
    }
    if (lower > kMaxText) {
        FUZZ_CHECK(got.status == Base36Status::too_large);
        return;
    }
    FUZZ_CHECK(got.status == Base36Status::ok);
    FUZZ_CHECK(got_upper.value == got.value && got_lower.value == got.value);

    // Decode then encode: the canonical (lowercase) spelling of the input.
    char encoded[kBase36Digits128];
    base36_encode128(got.value, encoded);
    FUZZ_CHECK(std::string_view(encoded, sizeof encoded) == lower);
}

void check_encode(Uint128 value, Uint128 other) {
    char encoded[kBase36Digits128];
    base36_encode128(value, encoded);
    std::string_view text(encoded, sizeof encoded);
    for (char c : text) FUZZ_CHECK(kDigits.find(c) != std::string_view::npos);
    FUZZ_CHECK(text <= kMaxText);
    FUZZ_CHECK((value == kUint128Max) == (text == kMaxText));

    Base36Decoded<Uint128> back = base36_decode128(text);
    FUZZ_CHECK(back.status == Base36Status::ok && back.value == value);

    char other_encoded[kBase36Digits128];
    base36_encode128(other, other_encoded);
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
