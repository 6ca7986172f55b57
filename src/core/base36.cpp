#include "core/base36.hpp"

#include <array>

#include "core/words.hpp"

namespace idgen::core {
namespace {

constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
constexpr std::uint8_t kNotADigit = 0xFF;
constexpr unsigned kBase = 36;
// 36^12, the largest power of 36 below 2^64: 128-bit values are converted
// twelve digits at a time, so only two divisions are 128-bit wide.
constexpr std::uint64_t kBase36Pow12 = 4738381338321616896ull;
// 36^6, the largest power of 36 below 2^32: 512-bit values are divided as
// 32-bit words (words.hpp), six digits a division.
constexpr std::uint32_t kBase36Pow6 = 2176782336u;
constexpr std::size_t kWords512 = 16;

constexpr std::array<std::uint8_t, 256> make_digit_values() {
    std::array<std::uint8_t, 256> values{};
    for (auto &v : values) v = kNotADigit;
    for (std::uint8_t d = 0; d < kBase; ++d) {
        auto lower = static_cast<unsigned char>(kDigits[d]);
        values[lower] = d;
        if (lower >= 'a') values[lower - 'a' + 'A'] = d;
    }
    return values;
}

constexpr std::array<std::uint8_t, 256> kDigitValues = make_digit_values();

// Writes the count low digits of value, most significant first.
void write_digits(std::uint64_t value, char *out, std::size_t count) {
    for (std::size_t i = count; i-- > 0;) {
        out[i] = kDigits[value % kBase];
        value /= kBase;
    }
}

}  // namespace

void base36_encode128(Uint128 value, char out[kBase36Digits128]) noexcept {
    // 25 digits = 1 + 12 + 12: the top one is below 36 for every 128-bit value.
    auto low = static_cast<std::uint64_t>(value % kBase36Pow12);
    value /= kBase36Pow12;
    auto middle = static_cast<std::uint64_t>(value % kBase36Pow12);
    auto top = static_cast<std::uint64_t>(value / kBase36Pow12);
    write_digits(top, out, 1);
    write_digits(middle, out + 1, 12);
    write_digits(low, out + 13, 12);
}

Base36Decoded<Uint128> base36_decode128(std::string_view text) noexcept {
    Uint128 value = 0;
    bool overflow = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        std::uint8_t digit = kDigitValues[static_cast<unsigned char>(text[i])];
        if (digit == kNotADigit) return {Base36Status::bad_digit, i, 0};
        if (value > (kUint128Max - digit) / kBase) overflow = true;
        value = value * kBase + digit;
    }
    if (text.size() != kBase36Digits128) return {Base36Status::wrong_length, 0, 0};
    if (overflow) return {Base36Status::too_large, 0, 0};
    return {Base36Status::ok, 0, value};
}

std::size_t base36_encode64(std::uint64_t value, char out[kBase36MaxDigits64]) noexcept {
    std::size_t count = 1;
    for (std::uint64_t rest = value / kBase; rest != 0; rest /= kBase) ++count;
    write_digits(value, out, count);
    return count;
}

Base36Decoded<std::uint64_t> base36_decode64(std::string_view text, std::uint64_t max) noexcept {
    std::uint64_t value = 0;
    bool overflow = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        std::uint8_t digit = kDigitValues[static_cast<unsigned char>(text[i])];
        if (digit == kNotADigit) return {Base36Status::bad_digit, i, 0};
        if (digit > max || value > (max - digit) / kBase) overflow = true;
        value = value * kBase + digit;
    }
    if (text.empty() || text.size() > kBase36MaxDigits64) return {Base36Status::wrong_length, 0, 0};
    if (overflow) return {Base36Status::too_large, 0, 0};
    return {Base36Status::ok, 0, value};
}

std::size_t base36_encode512(const std::uint8_t value[64], char out[kBase36MaxDigits512]) noexcept {
    std::array<std::uint32_t, kWords512> words{};
    for (std::size_t i = 0; i < 64; ++i) words[i / 4] = (words[i / 4] << 8) | value[i];
    // 17 groups of six digits cover 100; filled from the right, then the
    // leading zeros are dropped. first: the first word that is not zero.
    constexpr std::size_t kGroups = (kBase36MaxDigits512 + 5) / 6;
    char digits[kGroups * 6];
    std::size_t start = sizeof digits;
    std::size_t first = 0;
    while (first < kWords512 && words[first] == 0) ++first;
    while (first < kWords512) {
        std::uint32_t group = words_divide(words, kBase36Pow6, first);
        start -= 6;
        write_digits(group, digits + start, 6);
        while (first < kWords512 && words[first] == 0) ++first;
    }
    while (start < sizeof digits - 1 && digits[start] == '0') ++start;
    if (start == sizeof digits) digits[--start] = '0';
    std::size_t count = sizeof digits - start;
    for (std::size_t i = 0; i < count; ++i) out[i] = digits[start + i];
    return count;
}

}  // namespace idgen::core
