#include "core/short_text.hpp"

#include <array>

#include "core/base32.hpp"

namespace idgen::core {
namespace {

constexpr std::uint8_t kNotADigit = 0xFF;

constexpr std::size_t length_of(const char *text) {
    std::size_t n = 0;
    while (text[n] != '\0') ++n;
    return n;
}

// Digit value of every byte; kNotADigit outside the alphabet.
constexpr std::array<std::uint8_t, 256> make_digit_values(const char *alphabet) {
    std::array<std::uint8_t, 256> values{};
    for (auto &v : values) v = kNotADigit;
    for (std::size_t d = 0; alphabet[d] != '\0'; ++d)
        values[static_cast<unsigned char>(alphabet[d])] = static_cast<std::uint8_t>(d);
    return values;
}

constexpr std::array<std::uint8_t, 256> kBase62Values = make_digit_values(kBase62Alphabet);
constexpr std::array<std::uint8_t, 256> kBase58Values = make_digit_values(kBase58Alphabet);
constexpr std::array<std::uint8_t, 256> kFlickrValues = make_digit_values(kFlickrAlphabet);
constexpr std::array<std::uint8_t, 256> kBase57Values = make_digit_values(kBase57Alphabet);
constexpr std::array<std::uint8_t, 256> kBase64UrlValues = make_digit_values(kBase64UrlAlphabet);

static_assert(length_of(kBase62Alphabet) == 62 && length_of(kBase58Alphabet) == 58 &&
              length_of(kFlickrAlphabet) == 58 && length_of(kBase57Alphabet) == 57 &&
              length_of(kBase64UrlAlphabet) == 64);

// The 128-bit value as four 32-bit words, most significant first, handled
// five digits at a time (57^5, 58^5 and 62^5 are below 2^32), so each step is
// one 64-bit multiplication or division a word. 22 = 2 + 4 * 5: after four
// chunks what is left is below base^2 (base^22 > 2^128 for all three).
constexpr int kWords = 4;
constexpr int kDigitsPerChunk = 5;
constexpr int kChunks = 4;
constexpr int kLeadDigits = 2;
static_assert(kLeadDigits + kChunks * kDigitsPerChunk == kShortTextLength);

using Words = std::array<std::uint32_t, kWords>;

// The base is a template argument: every division and remainder below is by
// a constant, which compilers turn into a multiplication.
template <std::uint32_t Base>
constexpr std::uint32_t kPower5 = Base * Base * Base * Base * Base;

template <std::uint32_t Base>
void write_digits(const char *alphabet, std::uint32_t value, char *out, int count) {
    for (int i = count; i-- > 0;) {
        out[i] = alphabet[value % Base];
        value /= Base;
    }
}

template <std::uint32_t Base>
std::uint32_t read_digits(const std::array<std::uint8_t, 256> &values, const char *text, int count) {
    std::uint32_t value = 0;
    for (int i = 0; i < count; ++i) value = value * Base + values[static_cast<unsigned char>(text[i])];
    return value;
}

template <std::uint32_t Base>
void encode_positional(const char *alphabet, Uint128 value, char *out) {
    Words w = {static_cast<std::uint32_t>(value >> 96), static_cast<std::uint32_t>(value >> 64),
               static_cast<std::uint32_t>(value >> 32), static_cast<std::uint32_t>(value)};
    for (int c = kChunks; c-- > 0;)
        write_digits<Base>(alphabet, words_divide(w, kPower5<Base>), out + kLeadDigits + c * kDigitsPerChunk,
                           kDigitsPerChunk);
    write_digits<Base>(alphabet, w[kWords - 1], out, kLeadDigits);
}

template <std::uint32_t Base>
ShortTextDecoded decode_positional(const std::array<std::uint8_t, 256> &values, std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i)
        if (values[static_cast<unsigned char>(text[i])] == kNotADigit) return {ShortTextStatus::bad_character, i, 0};
    if (text.size() != kShortTextLength) return {ShortTextStatus::wrong_length, 0, 0};
    Words w{};
    w[kWords - 1] = read_digits<Base>(values, text.data(), kLeadDigits);
    for (int c = 0; c < kChunks; ++c)
        if (!words_multiply_add(w, kPower5<Base>,
                                read_digits<Base>(values, text.data() + kLeadDigits + c * kDigitsPerChunk,
                                                  kDigitsPerChunk)))
            return {ShortTextStatus::too_large, 0, 0};
    Uint128 value = (Uint128{w[0]} << 96) | (Uint128{w[1]} << 64) | (Uint128{w[2]} << 32) | w[3];
    return {ShortTextStatus::ok, 0, value};
}

// base64url: five groups of 3 bytes as 4 characters, then the last byte as 2
// characters, the second holding its low 2 bits and 4 zero bits.
void encode_base64url(Uint128 value, char *out) {
    std::uint8_t bytes[kUint128Bytes];
    store_be128(value, bytes);
    for (int g = 0; g < 5; ++g) {
        std::uint32_t group = (std::uint32_t{bytes[3 * g]} << 16) | (std::uint32_t{bytes[3 * g + 1]} << 8) |
                              bytes[3 * g + 2];
        for (int k = 0; k < 4; ++k) out[4 * g + k] = kBase64UrlAlphabet[(group >> (18 - 6 * k)) & 63];
    }
    out[20] = kBase64UrlAlphabet[bytes[15] >> 2];
    out[21] = kBase64UrlAlphabet[(bytes[15] & 3) << 4];
}

ShortTextDecoded decode_base64url(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i)
        if (kBase64UrlValues[static_cast<unsigned char>(text[i])] == kNotADigit)
            return {ShortTextStatus::bad_character, i, 0};
    if (text.size() != kShortTextLength) return {ShortTextStatus::wrong_length, 0, 0};
    constexpr std::size_t kLast = kShortTextLength - 1;
    std::uint8_t last = kBase64UrlValues[static_cast<unsigned char>(text[kLast])];
    if ((last & 15) != 0) return {ShortTextStatus::trailing_bits, kLast, 0};
    Uint128 value = 0;
    for (std::size_t i = 0; i < kLast; ++i)
        value = (value << 6) | kBase64UrlValues[static_cast<unsigned char>(text[i])];
    value = (value << 2) | (last >> 4);
    return {ShortTextStatus::ok, 0, value};
}

char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

std::optional<ShortTextForm> short_text_form_named(std::string_view name) noexcept {
    for (std::size_t f = 0; f < kShortTextFormCount; ++f) {
        std::string_view candidate = kShortTextFormNames[f];
        if (candidate.size() != name.size()) continue;
        bool same = true;
        for (std::size_t i = 0; i < name.size() && same; ++i) same = lower(name[i]) == candidate[i];
        if (same) return static_cast<ShortTextForm>(f);
    }
    return std::nullopt;
}

const char *short_text_alphabet(ShortTextForm form) noexcept {
    switch (form) {
        case ShortTextForm::base64url: return kBase64UrlAlphabet;
        case ShortTextForm::base32: return kBase32Alphabet;
        case ShortTextForm::base58: return kBase58Alphabet;
        case ShortTextForm::flickr: return kFlickrAlphabet;
        case ShortTextForm::base57: return kBase57Alphabet;
        default: return kBase62Alphabet;
    }
}

std::size_t short_text_length(ShortTextForm form) noexcept {
    return form == ShortTextForm::base32 ? kBase32Digits128 : kShortTextLength;
}

std::size_t short_text_encode(ShortTextForm form, Uint128 value, char out[kShortTextMaxLength]) noexcept {
    switch (form) {
        case ShortTextForm::base64url: encode_base64url(value, out); break;
        case ShortTextForm::base32: base32_encode128(value, out); break;
        case ShortTextForm::base58: encode_positional<58>(kBase58Alphabet, value, out); break;
        case ShortTextForm::flickr: encode_positional<58>(kFlickrAlphabet, value, out); break;
        case ShortTextForm::base57: encode_positional<57>(kBase57Alphabet, value, out); break;
        default: encode_positional<62>(kBase62Alphabet, value, out);
    }
    return short_text_length(form);
}

ShortTextDecoded short_text_decode(ShortTextForm form, std::string_view text) noexcept {
    switch (form) {
        case ShortTextForm::base64url: return decode_base64url(text);
        case ShortTextForm::base32: {
            Base32Decoded d = base32_decode128(text);
            switch (d.status) {
                case Base32Status::ok: return {ShortTextStatus::ok, 0, d.value};
                case Base32Status::bad_digit: return {ShortTextStatus::bad_character, d.position, 0};
                case Base32Status::wrong_length: return {ShortTextStatus::wrong_length, 0, 0};
                case Base32Status::too_large: return {ShortTextStatus::too_large, 0, 0};
            }
            return {ShortTextStatus::wrong_length, 0, 0};
        }
        case ShortTextForm::base58: return decode_positional<58>(kBase58Values, text);
        case ShortTextForm::flickr: return decode_positional<58>(kFlickrValues, text);
        case ShortTextForm::base57: return decode_positional<57>(kBase57Values, text);
        default: return decode_positional<62>(kBase62Values, text);
    }
}

}  // namespace idgen::core
