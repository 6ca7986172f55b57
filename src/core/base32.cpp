#include "core/base32.hpp"

#include <array>

namespace idgen::core {
namespace {

constexpr std::uint8_t kNotADigit = 0xFF;
constexpr int kBitsPerDigit = 5;

// Digit value of every byte, both cases; kNotADigit for the rest.
constexpr std::array<std::uint8_t, 256> make_digit_values() {
    std::array<std::uint8_t, 256> values{};
    for (auto &v : values) v = kNotADigit;
    for (std::uint8_t d = 0; d < 32; ++d) {
        auto upper = static_cast<unsigned char>(kBase32Alphabet[d]);
        values[upper] = d;
        if (upper >= 'A' && upper <= 'Z') values[upper - 'A' + 'a'] = d;
    }
    return values;
}

constexpr std::array<std::uint8_t, 256> kDigitValues = make_digit_values();

// The first digit holds bits 127..125: values above 7 need a 129th bit.
constexpr std::uint8_t kMaxFirstDigit = 7;

}  // namespace

void base32_encode128(Uint128 value, char out[kBase32Digits128]) noexcept {
    for (std::size_t i = kBase32Digits128; i-- > 0;) {
        out[i] = kBase32Alphabet[static_cast<unsigned>(value) & 31];
        value >>= kBitsPerDigit;
    }
}

Base32Decoded base32_decode128(std::string_view text) noexcept {
    Uint128 value = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        std::uint8_t digit = kDigitValues[static_cast<unsigned char>(text[i])];
        if (digit == kNotADigit) return {Base32Status::bad_digit, i, 0};
        value = (value << kBitsPerDigit) | digit;
    }
    if (text.size() != kBase32Digits128) return {Base32Status::wrong_length, 0, 0};
    if (kDigitValues[static_cast<unsigned char>(text[0])] > kMaxFirstDigit)
        return {Base32Status::too_large, 0, 0};
    return {Base32Status::ok, 0, value};
}

}  // namespace idgen::core
