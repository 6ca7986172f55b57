#include "core/base32.hpp"

#include <array>

namespace idgen::core {
namespace {

constexpr std::uint8_t kNotADigit = 0xFF;
constexpr int kBitsPerDigit = 5;

// Digit value of every byte, both cases; kNotADigit for the rest.
// With upper false, the lowercase digits only.
constexpr std::array<std::uint8_t, 256> make_digit_values(bool upper_too) {
    std::array<std::uint8_t, 256> values{};
    for (auto &v : values) v = kNotADigit;
    for (std::uint8_t d = 0; d < 32; ++d) {
        auto upper = static_cast<unsigned char>(kBase32Alphabet[d]);
        if (upper_too || !(upper >= 'A' && upper <= 'Z')) values[upper] = d;
        if (upper >= 'A' && upper <= 'Z') values[upper - 'A' + 'a'] = d;
    }
    return values;
}

constexpr std::array<std::uint8_t, 256> kDigitValues = make_digit_values(true);
constexpr std::array<std::uint8_t, 256> kLowerDigitValues = make_digit_values(false);

// The first digit holds bits 127..125: values above 7 need a 129th bit.
constexpr std::uint8_t kMaxFirstDigit = 7;

// Twelve digits hold 60 bits, which fit a 64-bit word.
constexpr int kDigitsPerWord = 12;
constexpr int kBitsPerWord = kDigitsPerWord * kBitsPerDigit;
constexpr std::uint64_t kWordMask = (std::uint64_t{1} << kBitsPerWord) - 1;

// Writes the twelve digits of a 60-bit word, most significant first.
void write_word(std::uint64_t word, char *out, const char *alphabet) {
    for (int i = kDigitsPerWord; i-- > 0;) {
        out[i] = alphabet[word & 31];
        word >>= kBitsPerDigit;
    }
}

}  // namespace

void base32_encode128(Uint128 value, char out[kBase32Digits128], Base32Case letters) noexcept {
    const char *alphabet = letters == Base32Case::lower ? kBase32LowerAlphabet : kBase32Alphabet;
    // 26 digits = 2 + 12 + 12: bits 127..120, then two 60-bit words. 64-bit
    // shifts on two independent words take less than half the time of 26
    // dependent 128-bit shifts, and ulid_out is mostly this.
    auto top = static_cast<unsigned>(value >> (2 * kBitsPerWord));
    out[0] = alphabet[top >> kBitsPerDigit];
    out[1] = alphabet[top & 31];
    write_word(static_cast<std::uint64_t>(value >> kBitsPerWord) & kWordMask, out + 2, alphabet);
    write_word(static_cast<std::uint64_t>(value) & kWordMask, out + 2 + kDigitsPerWord, alphabet);
}

Base32Decoded base32_decode128(std::string_view text, Base32Case letters) noexcept {
    const auto &digit_values = letters == Base32Case::lower ? kLowerDigitValues : kDigitValues;
    Uint128 value = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        std::uint8_t digit = digit_values[static_cast<unsigned char>(text[i])];
        if (digit == kNotADigit) return {Base32Status::bad_digit, i, 0};
        value = (value << kBitsPerDigit) | digit;
    }
    if (text.size() != kBase32Digits128) return {Base32Status::wrong_length, 0, 0};
    if (kDigitValues[static_cast<unsigned char>(text[0])] > kMaxFirstDigit)
        return {Base32Status::too_large, 0, 0};
    return {Base32Status::ok, 0, value};
}

}  // namespace idgen::core
