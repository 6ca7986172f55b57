// Short text forms of 128-bit values (core/short_text.hpp): the third-party
// vectors in ../shared/data/short-uuid-text (shortuuid's base57 cases; base62
// and base64url of five UUIDs), each form against a reference encoder written
// here with 128-bit division (the core works in 32-bit words), round trips,
// text order, and every refusal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/base32.hpp"
#include "core/short_text.hpp"
#include "random_values.hpp"
#include "shared_data.hpp"

using namespace idgen::core;
using idgen::test::Json;
using idgen::test::SplitMix64;
using idgen::test::u128;

namespace idgen::core {
void PrintTo(ShortTextStatus status, std::ostream *os) {
    static const char *names[] = {"ok", "bad_character", "wrong_length", "too_large", "trailing_bits"};
    *os << names[static_cast<int>(status)];
}
}  // namespace idgen::core

namespace {

// The alphabets as specs.md and the forms' references state them, spelled out
// here rather than taken from the header under test.
constexpr std::string_view kBase62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr std::string_view kBitcoin = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
constexpr std::string_view kFlickr = "123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
constexpr std::string_view kShortuuid = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
constexpr std::string_view kBase64Url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

constexpr ShortTextForm kAllForms[] = {ShortTextForm::base62,    ShortTextForm::base58,
                                       ShortTextForm::flickr,    ShortTextForm::base57,
                                       ShortTextForm::base64url, ShortTextForm::base32};
constexpr ShortTextForm kPositional[] = {ShortTextForm::base62, ShortTextForm::base58,
                                         ShortTextForm::flickr, ShortTextForm::base57};

std::string_view alphabet_of(ShortTextForm form) {
    switch (form) {
        case ShortTextForm::base62: return kBase62;
        case ShortTextForm::base58: return kBitcoin;
        case ShortTextForm::flickr: return kFlickr;
        case ShortTextForm::base57: return kShortuuid;
        case ShortTextForm::base64url: return kBase64Url;
        case ShortTextForm::base32: return "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    }
    return "";
}

std::string encode(ShortTextForm form, Uint128 value) {
    char out[kShortTextMaxLength];
    std::size_t n = short_text_encode(form, value, out);
    return std::string(out, n);
}

// A base-N number, most significant digit first, padded to 22 digits.
std::string reference_positional(std::string_view alphabet, Uint128 value) {
    std::string out(22, alphabet[0]);
    for (std::size_t i = 22; i-- > 0 && value != 0;) {
        out[i] = alphabet[static_cast<std::size_t>(value % alphabet.size())];
        value /= alphabet.size();
    }
    return out;
}

// RFC 4648 §5 by bits: 128 bits then 4 zero bits, six at a time.
std::string reference_base64url(Uint128 value) {
    std::string out;
    for (int shift = 122; shift >= -4; shift -= 6) {
        unsigned sextet = shift >= 0 ? static_cast<unsigned>(value >> shift) & 63
                                     : static_cast<unsigned>(value << -shift) & 63;
        out += kBase64Url[sextet];
    }
    return out;
}

std::string reference(ShortTextForm form, Uint128 value) {
    if (form == ShortTextForm::base64url) return reference_base64url(value);
    if (form == ShortTextForm::base32) {
        char out[kBase32Digits128];
        base32_encode128(value, out);
        return std::string(out, sizeof out);
    }
    return reference_positional(alphabet_of(form), value);
}

Uint128 parse_uuid(const std::string &text) {
    Uint128 value = 0;
    for (char c : text) {
        if (c == '-') continue;
        value = (value << 4) | static_cast<unsigned>(std::stoi(std::string(1, c), nullptr, 16));
    }
    return value;
}

Uint128 decoded_ok(ShortTextForm form, std::string_view text) {
    ShortTextDecoded d = short_text_decode(form, text);
    EXPECT_EQ(d.status, ShortTextStatus::ok) << text;
    return d.value;
}

bool ascends(std::string_view alphabet) {
    return std::is_sorted(alphabet.begin(), alphabet.end());
}

}  // namespace

TEST(ShortTextForms, NamesAndAlphabets) {
    for (ShortTextForm form : kAllForms) {
        SCOPED_TRACE(short_text_form_name(form));
        EXPECT_EQ(short_text_alphabet(form), alphabet_of(form));
        EXPECT_EQ(short_text_form_named(short_text_form_name(form)), form);
        std::string upper = short_text_form_name(form);
        for (char &c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        EXPECT_EQ(short_text_form_named(upper), form);
        EXPECT_EQ(short_text_length(form), form == ShortTextForm::base32 ? 26u : 22u);
    }
    for (std::string_view name : {"", "base", "base62 ", " base62", "base58flickr", "base36", "hex", "base6"})
        EXPECT_FALSE(short_text_form_named(name).has_value()) << name;
    // The forms that sort as their values do are those whose alphabet ascends.
    EXPECT_TRUE(ascends(kBase62));
    EXPECT_TRUE(ascends(kBitcoin));
    EXPECT_TRUE(ascends(kShortuuid));
    EXPECT_FALSE(ascends(kFlickr));
    EXPECT_FALSE(ascends(kBase64Url));
}

// shortuuid's own cases, its alphabet, length and padding.
TEST(ShortTextShared, Shortuuid) {
    IDGEN_SHARED_JSON(data, "short-uuid-text/shortuuid.json");
    EXPECT_EQ(data["alphabet"].text, kShortuuid);
    EXPECT_EQ(std::stoul(data["length"].text), kShortTextLength);
    ASSERT_GE(data["cases"].items.size(), 5u);
    int full = 0, short_decodes = 0;
    for (const Json &c : data["cases"].items) {
        SCOPED_TRACE(c["name"].text);
        const std::string &text = c["text"].text;
        Uint128 value = parse_uuid(c["uuid"].text);
        if (text.size() == kShortTextLength) {
            ++full;
            EXPECT_EQ(encode(ShortTextForm::base57, value), text);
            EXPECT_EQ(decoded_ok(ShortTextForm::base57, text), value);
        } else {
            // The reference reads shorter text as the same number; strict
            // decoding refuses it, and reads it once padded with '2'.
            ++short_decodes;
            EXPECT_EQ(short_text_decode(ShortTextForm::base57, text).status, ShortTextStatus::wrong_length);
            std::string padded = std::string(kShortTextLength - text.size(), kShortuuid[0]) + text;
            EXPECT_EQ(decoded_ok(ShortTextForm::base57, padded), value);
        }
    }
    EXPECT_GE(full, 5);
    EXPECT_EQ(short_decodes, 1);
}

TEST(ShortTextShared, Base62AndBase64Url) {
    IDGEN_SHARED_JSON(data, "short-uuid-text/base62_base64url.json");
    EXPECT_EQ(data["base62"]["alphabet"].text, kBase62);
    EXPECT_EQ(data["base64url"]["alphabet"].text, kBase64Url);
    ASSERT_GE(data["cases"].items.size(), 5u);
    for (const Json &c : data["cases"].items) {
        SCOPED_TRACE(c["uuid"].text);
        Uint128 value = parse_uuid(c["uuid"].text);
        EXPECT_EQ(encode(ShortTextForm::base62, value), c["base62"].text);
        EXPECT_EQ(encode(ShortTextForm::base64url, value), c["base64url"].text);
        EXPECT_EQ(decoded_ok(ShortTextForm::base62, c["base62"].text), value);
        EXPECT_EQ(decoded_ok(ShortTextForm::base64url, c["base64url"].text), value);
    }
}

// Every digit in every place, and the ends.
TEST(ShortTextEncode, DigitPlacesAndEnds) {
    for (ShortTextForm form : kPositional) {
        SCOPED_TRACE(short_text_form_name(form));
        std::string_view alphabet = alphabet_of(form);
        Uint128 place = 1;
        for (int k = 0; k < 22; ++k) {
            for (std::size_t d = 0; d < alphabet.size() && d <= kUint128Max / place; ++d) {
                Uint128 value = place * d;
                EXPECT_EQ(encode(form, value), reference(form, value));
                EXPECT_EQ(encode(form, value)[21 - k], alphabet[d]);
            }
            if (k < 21) place *= alphabet.size();
        }
        EXPECT_EQ(encode(form, 0), std::string(22, alphabet[0]));
        EXPECT_EQ(encode(form, kUint128Max), reference(form, kUint128Max));
    }
    EXPECT_EQ(encode(ShortTextForm::base64url, 0), std::string(22, 'A'));
    EXPECT_EQ(encode(ShortTextForm::base64url, kUint128Max), std::string(21, '_') + "w");
}

TEST(ShortTextEncode, RoundTripsAndOrder) {
    SplitMix64 rng{54};
    for (int i = 0; i < 20000; ++i) {
        Uint128 a = rng.next128(), b = rng.next128();
        // Small and large values too: shifted by a random amount.
        if (i % 3 == 1) a >>= rng.next() % 128;
        if (i % 5 == 2) b >>= rng.next() % 128;
        for (ShortTextForm form : kAllForms) {
            std::string ta = encode(form, a), tb = encode(form, b);
            ASSERT_EQ(ta, reference(form, a)) << short_text_form_name(form);
            ASSERT_EQ(decoded_ok(form, ta), a);
            if (ascends(alphabet_of(form))) {
                ASSERT_EQ(ta < tb, a < b) << short_text_form_name(form);
            }
        }
    }
}

TEST(ShortTextDecode, BadCharacterFirstThenLength) {
    for (ShortTextForm form : kAllForms) {
        SCOPED_TRACE(short_text_form_name(form));
        std::string_view alphabet = alphabet_of(form);
        std::string good = encode(form, u128(0x0123456789abcdefull, 0xfedcba9876543210ull));
        for (int byte = 0; byte < 256; ++byte) {
            char c = static_cast<char>(byte);
            bool in = alphabet.find(c) != std::string_view::npos;
            if (form == ShortTextForm::base32 && !in)
                in = alphabet.find(static_cast<char>(std::toupper(byte))) != std::string_view::npos &&
                     std::islower(byte);
            for (std::size_t at : {std::size_t{0}, std::size_t{7}, good.size() - 1}) {
                std::string text = good;
                text[at] = c;
                ShortTextDecoded d = short_text_decode(form, text);
                if (!in) {
                    ASSERT_EQ(d.status, ShortTextStatus::bad_character) << byte;
                    ASSERT_EQ(d.position, at);
                }
            }
            if (!in) {
                // Before the length: a bad byte in text of the wrong length.
                ShortTextDecoded d = short_text_decode(form, std::string(3, alphabet[1]) + c);
                ASSERT_EQ(d.status, ShortTextStatus::bad_character);
                ASSERT_EQ(d.position, 3u);
            }
        }
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, good.size() - 1, good.size() + 1, std::size_t{44}})
            EXPECT_EQ(short_text_decode(form, std::string(n, alphabet[1])).status,
                      ShortTextStatus::wrong_length) << n;
    }
}

// Lowercase base32 is read, as ulid input reads it; the other forms are case-sensitive.
TEST(ShortTextDecode, Case) {
    Uint128 value = u128(0x017f22e279b07cc3ull, 0x98c4dc0c0c07398full);
    std::string upper = encode(ShortTextForm::base32, value), lower = upper;
    for (char &c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(decoded_ok(ShortTextForm::base32, lower), value);
    std::string b62 = encode(ShortTextForm::base62, value), swapped = b62;
    for (char &c : swapped)
        c = std::isupper(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c))
                                                        : static_cast<char>(std::toupper(c));
    EXPECT_NE(short_text_decode(ShortTextForm::base62, swapped).value, value);
}

// One past 2^128 - 1 and the largest texts are too large; the largest value is read.
TEST(ShortTextDecode, Overflow) {
    for (ShortTextForm form : kPositional) {
        SCOPED_TRACE(short_text_form_name(form));
        std::string_view alphabet = alphabet_of(form);
        std::string max = encode(form, kUint128Max);
        EXPECT_EQ(decoded_ok(form, max), kUint128Max);
        // max + 1: increment the last digit with carry.
        std::string next = max;
        for (std::size_t i = next.size(); i-- > 0;) {
            std::size_t d = alphabet.find(next[i]);
            if (d + 1 < alphabet.size()) {
                next[i] = alphabet[d + 1];
                break;
            }
            next[i] = alphabet[0];
        }
        EXPECT_EQ(short_text_decode(form, next).status, ShortTextStatus::too_large) << next;
        EXPECT_EQ(short_text_decode(form, std::string(22, alphabet.back())).status,
                  ShortTextStatus::too_large);
        std::string first_up = max;
        first_up[0] = alphabet[alphabet.find(max[0]) + 1];
        EXPECT_EQ(short_text_decode(form, first_up).status, ShortTextStatus::too_large);
    }
    EXPECT_EQ(short_text_decode(ShortTextForm::base32, "80000000000000000000000000").status,
              ShortTextStatus::too_large);
    EXPECT_EQ(decoded_ok(ShortTextForm::base32, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"), kUint128Max);
}

// The last base64url character holds 2 bits: with any of the 4 others set it is refused.
TEST(ShortTextDecode, Base64UrlTrailingBits) {
    std::string text = encode(ShortTextForm::base64url, u128(1, 2));
    for (unsigned sextet = 0; sextet < 64; ++sextet) {
        text[21] = kBase64Url[sextet];
        ShortTextDecoded d = short_text_decode(ShortTextForm::base64url, text);
        if (sextet % 16 == 0) {
            EXPECT_EQ(d.status, ShortTextStatus::ok);
            EXPECT_EQ(static_cast<unsigned>(d.value & 3), sextet >> 4);
        } else {
            EXPECT_EQ(d.status, ShortTextStatus::trailing_bits) << sextet;
            EXPECT_EQ(d.position, 21u);
        }
    }
}
