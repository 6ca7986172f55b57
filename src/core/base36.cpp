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
constexpr std::size_t kLimbs512 = 8;
// 9^20, the largest power of 9 below 2^64, and 9^0 to 9^19: 36^m = 2^2m 9^m,
// so a division by 36^m is a shift and divisions by these.
constexpr unsigned kPow9MaxExponent = 20;
constexpr std::array<std::uint64_t, kPow9MaxExponent + 1> make_powers_of_9() {
    std::array<std::uint64_t, kPow9MaxExponent + 1> powers{};
    powers[0] = 1;
    for (unsigned i = 1; i <= kPow9MaxExponent; ++i) powers[i] = powers[i - 1] * 9;
    return powers;
}
constexpr std::array<std::uint64_t, kPow9MaxExponent + 1> kPowersOf9 = make_powers_of_9();
// A lower bound of log36(2) = 0.19342640..., as a 16-bit fraction (0.19342041):
// for a bit length up to 512 it errs by less than 0.004 digits.
constexpr std::uint64_t kLog36Of2Q16 = 12676;

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

// limbs = limbs / divisor, least significant limb first, for the top count
// limbs (the others are zero); returns the remainder. Each limb is one
// 128-by-64-bit division whose quotient fits 64 bits (the remainder carried
// in is below the divisor).
std::uint64_t limbs_divide(std::uint64_t *limbs, std::size_t count, std::uint64_t divisor) {
    std::uint64_t rest = 0;
    for (std::size_t i = count; i-- > 0;) {
        Uint128 part = (Uint128{rest} << 64) | limbs[i];
        auto quotient = static_cast<std::uint64_t>(part / divisor);
        rest = limbs[i] - quotient * divisor;
        limbs[i] = quotient;
    }
    return rest;
}

// The limbs below the first zero one from the top, at least 1.
std::size_t limbs_used(const std::uint64_t *limbs, std::size_t count) {
    while (count > 1 && limbs[count - 1] == 0) --count;
    return count;
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

namespace idgen::core {

std::size_t base36_leading512(const std::uint8_t value[64], std::size_t count,
                              char out[kBase36MaxLeading512]) noexcept {
    if (count > kBase36MaxLeading512) count = kBase36MaxLeading512;
    std::uint64_t n[kLimbs512];
    for (std::size_t limb = 0; limb < kLimbs512; ++limb) n[kLimbs512 - 1 - limb] = load_be64(value + 8 * limb);
    std::size_t used = limbs_used(n, kLimbs512);
    std::size_t bits = 64 * used - static_cast<std::size_t>(n[used - 1] == 0 ? 64 : __builtin_clzll(n[used - 1]));
    // The text has D digits, D - 1 = floor(log36(value)), and low = floor((bits
    // - 1) log36(2)) by the lower bound is D - 1, D - 2 or D - 3. Dropping the
    // last drop = low + 1 - keep digits leaves keep to keep + 2 of them
    // (or, with none dropped, at most 35): below 36^35 < 2^181, three limbs.
    std::size_t low = bits == 0 ? 0 : ((bits - 1) * kLog36Of2Q16) >> 16;
    std::size_t keep = count == 0 ? 1 : count;  // with none kept, D is still worked out
    std::size_t drop = low + 1 > keep ? low + 1 - keep : 0;
    // value / 36^drop = (value >> 2 drop) / 9^drop.
    std::size_t shift = 2 * drop;
    for (std::size_t i = 0; i < kLimbs512; ++i) {
        std::size_t from = i + shift / 64;
        std::uint64_t limb = from < kLimbs512 ? n[from] >> (shift % 64) : 0;
        if (shift % 64 != 0 && from + 1 < kLimbs512) limb |= n[from + 1] << (64 - shift % 64);
        n[i] = limb;
    }
    used = limbs_used(n, kLimbs512);
    for (std::size_t left = drop; left > 0;) {
        unsigned exponent = left < kPow9MaxExponent ? static_cast<unsigned>(left) : kPow9MaxExponent;
        limbs_divide(n, used, kPowersOf9[exponent]);
        used = limbs_used(n, used);
        left -= exponent;
    }
    // What is left, below 36^35: 11 + 12 + 12 digits, then its leading zeros dropped.
    std::uint64_t low12 = limbs_divide(n, used, kBase36Pow12);
    std::uint64_t middle12 = limbs_divide(n, limbs_used(n, used), kBase36Pow12);
    char digits[35];
    write_digits(n[0], digits, 11);
    write_digits(middle12, digits + 11, 12);
    write_digits(low12, digits + 23, 12);
    std::size_t start = 0;
    while (start < sizeof digits - 1 && digits[start] == '0') ++start;
    std::size_t kept = sizeof digits - start;
    for (std::size_t i = 0; i < count && i < kept; ++i) out[i] = digits[start + i];
    return drop + kept;
}

}  // namespace idgen::core
