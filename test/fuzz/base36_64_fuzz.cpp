// Base36 text of 64-bit values (core/base36.hpp), as base36_decode_bigint and
// base36_encode(bigint) use it.
//
// The whole input is text for base36_decode64, under three maximums: 2^64 - 1,
// 2^63 - 1 (what the SQL function passes) and one taken from the input. It is
// judged against rules spelled out here: the first character outside 0-9a-z
// (either case) is reported, then a length outside 1..13, then a value above
// the maximum (worked out here in 128 bits); anything else decodes to that
// value and encodes back to its lowercase spelling without leading zeros. The
// first 16 bytes are also two values to encode: the shortest lowercase digits,
// which decode back to the value under any maximum from the value up, are too
// large under any maximum below it, and sort as the values do (shorter first,
// then by text).
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "core/base36.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::string_view kDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kI64Max =
    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

int digit_of(char c) {
    std::size_t at = kDigits.find(ascii_lower(c));
    return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

void check_decode(std::string_view text, std::uint64_t max) {
    Base36Decoded<std::uint64_t> got = base36_decode64(text, max);

    std::string upper(text.size(), '\0');
    Base36Decoded<std::uint64_t> got_upper =
        base36_decode64(with_case(text, upper.data(), true), max);
    FUZZ_CHECK(got_upper.status == got.status && got_upper.position == got.position);

    for (std::size_t i = 0; i < text.size(); ++i) {
        if (digit_of(text[i]) < 0) {
            FUZZ_CHECK(got.status == Base36Status::bad_digit);
            FUZZ_CHECK(got.position == i);
            return;
        }
    }
    if (text.empty() || text.size() > kBase36MaxDigits64) {
        FUZZ_CHECK(got.status == Base36Status::wrong_length);
        return;
    }
    // 13 digits stay below 36^13 < 2^68: no overflow in 128 bits.
    Uint128 exact = 0;
    for (char c : text) exact = exact * 36 + static_cast<unsigned>(digit_of(c));
    if (exact > max) {
        FUZZ_CHECK(got.status == Base36Status::too_large);
        return;
    }
    FUZZ_CHECK(got.status == Base36Status::ok);
    FUZZ_CHECK(got.value == exact && got_upper.value == exact);

    // Decode then encode: lowercase, leading zeros dropped ("0" stays).
    std::string canonical(text.size(), '\0');
    with_case(text, canonical.data(), false);
    std::size_t zeros = canonical.find_first_not_of('0');
    canonical.erase(0, zeros == std::string::npos ? canonical.size() - 1 : zeros);
    char encoded[kBase36MaxDigits64];
    std::size_t count = base36_encode64(got.value, encoded);
    FUZZ_CHECK(std::string_view(encoded, count) == canonical);
}

void check_encode(std::uint64_t value, std::uint64_t other) {
    char encoded[kBase36MaxDigits64];
    std::size_t count = base36_encode64(value, encoded);
    std::string_view text(encoded, count);
    FUZZ_CHECK(count >= 1 && count <= kBase36MaxDigits64);
    for (char c : text) FUZZ_CHECK(kDigits.find(c) != std::string_view::npos);
    FUZZ_CHECK(count == 1 || text[0] != '0');

    Base36Decoded<std::uint64_t> back = base36_decode64(text, kU64Max);
    FUZZ_CHECK(back.status == Base36Status::ok && back.value == value);
    back = base36_decode64(text, value);
    FUZZ_CHECK(back.status == Base36Status::ok && back.value == value);
    if (value > 0) FUZZ_CHECK(base36_decode64(text, value - 1).status == Base36Status::too_large);

    char other_encoded[kBase36MaxDigits64];
    std::size_t other_count = base36_encode64(other, other_encoded);
    std::string_view other_text(other_encoded, other_count);
    bool text_less = count != other_count ? count < other_count : text < other_text;
    FUZZ_CHECK(text_less == (value < other) && (text == other_text) == (value == other));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    std::string_view text = text_of(data, size);
    Input input{data, size};
    std::uint64_t value = input.u64();
    std::uint64_t other = input.u64();
    // A maximum of any size: the first 8 bytes, shifted right by the last byte.
    std::uint64_t max = size == 0 ? 0 : value >> (data[size - 1] % 64);
    check_decode(text, kU64Max);
    check_decode(text, kI64Max);
    check_decode(text, max);
    check_encode(value, other);
    return 0;
}
