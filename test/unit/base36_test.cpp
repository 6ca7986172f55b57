// Base36 text of 128-bit values (25 digits, zero-padded) and of 64-bit values
// (shortest digits, decoded up to a caller's maximum): known vectors, a vector
// worked out here by repeated division, every digit in every position in both
// cases, every rejection and its precedence, round trips, and that text order
// is numeric order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/base36.hpp"
#include "random_values.hpp"

using namespace idgen::core;
using idgen::test::SplitMix64;
using idgen::test::u128;

// Readable gtest failures for the status enum (found by argument-dependent lookup).
namespace idgen::core {
void PrintTo(Base36Status status, std::ostream *os) {
    switch (status) {
        case Base36Status::ok: *os << "ok"; return;
        case Base36Status::wrong_length: *os << "wrong_length"; return;
        case Base36Status::bad_digit: *os << "bad_digit"; return;
        case Base36Status::too_large: *os << "too_large"; return;
    }
    *os << "Base36Status(" << static_cast<int>(status) << ")";
}
}  // namespace idgen::core

namespace {

// The alphabet spelled out here, not taken from the code under test.
constexpr std::string_view kLowerDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
constexpr std::string_view kUpperDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

constexpr std::string_view kMax128Text = "f5lxx1zz5pnorynqglhzmsp33";  // 2^128 - 1
constexpr std::string_view kMax64Text = "3w5e11264sgsf";               // 2^64 - 1
constexpr std::string_view kInt64MaxText = "1y2p0ij32e8e7";            // 2^63 - 1

constexpr std::uint64_t kInt64Max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
constexpr std::uint64_t kUint64Max = std::numeric_limits<std::uint64_t>::max();

std::string encode128(Uint128 value) {
    char out[kBase36Digits128];
    base36_encode128(value, out);
    return std::string(out, sizeof out);
}

std::string encode64(std::uint64_t value) {
    char out[kBase36MaxDigits64];
    std::size_t count = base36_encode64(value, out);
    return std::string(out, count);
}

// Reference encoder: repeated division by 36 in unsigned __int128, least
// significant digit first, then zero-padded on the left to width.
std::string reference_digits(Uint128 value, std::size_t width) {
    std::string text;
    do {
        text.insert(text.begin(), kLowerDigits[static_cast<std::size_t>(value % 36)]);
        value /= 36;
    } while (value != 0);
    if (text.size() < width) text.insert(0, width - text.size(), '0');
    return text;
}

// 36^exponent, by repeated multiplication (fits for exponents up to 24).
Uint128 power_of_36(unsigned exponent) {
    Uint128 value = 1;
    for (unsigned i = 0; i < exponent; ++i) value *= 36;
    return value;
}

// 25 copies of background with c at position.
std::string with_char_at(char background, std::size_t position, char c, std::size_t length = kBase36Digits128) {
    std::string text(length, background);
    text[position] = c;
    return text;
}

std::string uppercased(std::string text) {
    for (char &c : text) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return text;
}

bool is_digit_either_case(unsigned char byte) {
    char c = static_cast<char>(byte);
    return kLowerDigits.find(c) != std::string_view::npos || kUpperDigits.find(c) != std::string_view::npos;
}

}  // namespace

// --- 128-bit encoding -------------------------------------------------------

// The header's sizes: 25 digits hold 128 bits (36^25 > 2^128 > 36^24), and
// 13 hold 64 bits (36^13 > 2^64 > 36^12).
TEST(Base36Sizes, DigitCountsFitTheValues) {
    EXPECT_EQ(kBase36Digits128, 25u);
    EXPECT_EQ(kBase36MaxDigits64, 13u);
    EXPECT_EQ(reference_digits(kUint128Max, 0).size(), 25u);
    EXPECT_EQ(reference_digits(kUint64Max, 0).size(), 13u);
}

// Known vectors: zero, one, the last one-digit value, the first carry, and
// the largest value.
TEST(Base36Encode128, KnownVectors) {
    EXPECT_EQ(encode128(0), "0000000000000000000000000");
    EXPECT_EQ(encode128(1), "0000000000000000000000001");
    EXPECT_EQ(encode128(35), "000000000000000000000000z");
    EXPECT_EQ(encode128(36), "0000000000000000000000010");
    EXPECT_EQ(encode128(kUint128Max), kMax128Text);
    EXPECT_EQ(encode128(kUint64Max), "000000000000" + std::string(kMax64Text));
    EXPECT_EQ(encode128(kInt64Max), "000000000000" + std::string(kInt64MaxText));
}

// The reference encoder, checked against the literal vectors above, so that
// the comparisons below against it mean something.
TEST(Base36Encode128, ReferenceEncoderAgreesWithKnownVectors) {
    EXPECT_EQ(reference_digits(0, 25), "0000000000000000000000000");
    EXPECT_EQ(reference_digits(36, 25), "0000000000000000000000010");
    EXPECT_EQ(reference_digits(kUint128Max, 25), kMax128Text);
    EXPECT_EQ(reference_digits(kUint64Max, 0), kMax64Text);
    EXPECT_EQ(reference_digits(kInt64Max, 0), kInt64MaxText);
}

// A value with a known bit pattern, its digits taken by repeated division here
// and, separately, a string worked out by hand (Python) from the same value.
TEST(Base36Encode128, IndependentlyComputedVector) {
    const Uint128 value = u128(0x0123456789ABCDEFull, 0xFEDCBA9876543210ull);
    const std::string expected = reference_digits(value, kBase36Digits128);
    EXPECT_EQ(expected, "02fapl4n1azs9fhghwz46aryo");
    EXPECT_EQ(encode128(value), expected);
    Base36Decoded<Uint128> decoded = base36_decode128(expected);
    ASSERT_EQ(decoded.status, Base36Status::ok);
    EXPECT_EQ(decoded.value, value);
}

// Each power of 36 is a 1 followed by zeros and the value below it is all z:
// every digit boundary, including those between the 12-digit chunks.
TEST(Base36Encode128, PowersOfThirtySixAndTheValuesBelowThem) {
    for (unsigned k = 1; k < kBase36Digits128; ++k) {
        const Uint128 power = power_of_36(k);
        const std::string one_then_zeros = std::string(kBase36Digits128 - 1 - k, '0') + "1" + std::string(k, '0');
        const std::string all_z = std::string(kBase36Digits128 - k, '0') + std::string(k, 'z');
        EXPECT_EQ(encode128(power), one_then_zeros) << "36^" << k;
        EXPECT_EQ(encode128(power - 1), all_z) << "36^" << k << " - 1";
    }
}

// Random values of every size encode as the reference does.
TEST(Base36Encode128, MatchesReferenceOnRandomValues) {
    SplitMix64 rng{36};
    for (int i = 0; i < 20000; ++i) {
        Uint128 value = rng.next128();
        if (i % 4 == 1) value >>= rng.next() % 128;  // short values too, leading zero digits
        ASSERT_EQ(encode128(value), reference_digits(value, kBase36Digits128));
    }
}

// The encoder writes its 25 digits and not one byte more, for small and large values.
TEST(Base36Encode128, WritesExactly25Bytes) {
    for (Uint128 value : {Uint128{0}, Uint128{35}, kUint128Max}) {
        char buffer[kBase36Digits128 + 2];
        std::memset(buffer, '#', sizeof buffer);
        base36_encode128(value, buffer + 1);
        EXPECT_EQ(buffer[0], '#');
        EXPECT_EQ(buffer[kBase36Digits128 + 1], '#');
        EXPECT_EQ(std::string(buffer + 1, kBase36Digits128), reference_digits(value, kBase36Digits128));
    }
}

// --- 128-bit decoding -------------------------------------------------------

// The ends of the range, in both cases.
TEST(Base36Decode128, KnownVectors) {
    struct Case {
        std::string_view text;
        Uint128 value;
    };
    for (const Case &c : {Case{"0000000000000000000000000", 0}, Case{"0000000000000000000000001", 1},
                          Case{"000000000000000000000000z", 35}, Case{"0000000000000000000000010", 36},
                          Case{kMax128Text, kUint128Max}, Case{"0000000000003w5e11264sgsf", kUint64Max},
                          Case{"0000000000001y2p0ij32e8e7", kInt64Max}}) {
        Base36Decoded<Uint128> lower = base36_decode128(c.text);
        ASSERT_EQ(lower.status, Base36Status::ok) << c.text;
        EXPECT_EQ(lower.value, c.value) << c.text;
        Base36Decoded<Uint128> upper = base36_decode128(uppercased(std::string(c.text)));
        ASSERT_EQ(upper.status, Base36Status::ok) << c.text;
        EXPECT_EQ(upper.value, c.value) << c.text;
    }
}

// Every digit in every position, both cases: on a background of zeros it is
// worth digit * 36^(24 - position). The first position only takes 0..f, since
// f followed by zeros is still below the largest value.
TEST(Base36Decode128, EveryDigitInEveryPositionInBothCases) {
    int checked = 0;
    for (std::size_t position = 0; position < kBase36Digits128; ++position) {
        const unsigned max_digit = position == 0 ? 15 : 35;
        const Uint128 weight = power_of_36(static_cast<unsigned>(kBase36Digits128 - 1 - position));
        for (unsigned digit = 0; digit <= max_digit; ++digit) {
            for (std::string_view digits : {kLowerDigits, kUpperDigits}) {
                const char c = digits[digit];
                Base36Decoded<Uint128> decoded = base36_decode128(with_char_at('0', position, c));
                ASSERT_EQ(decoded.status, Base36Status::ok) << "char " << c << " at " << position;
                ASSERT_EQ(decoded.value, weight * digit) << "char " << c << " at " << position;
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 2 * (16 + 24 * 36));
}

// Uppercase text decodes to the same value as its lowercase form.
TEST(Base36Decode128, UppercaseDecodesEqualToLowercase) {
    SplitMix64 rng{1};
    for (int i = 0; i < 5000; ++i) {
        const std::string lower = reference_digits(rng.next128(), kBase36Digits128);
        const std::string upper = uppercased(lower);
        ASSERT_NE(lower, upper);  // every 128-bit value here has a letter digit in practice
        Base36Decoded<Uint128> from_lower = base36_decode128(lower);
        Base36Decoded<Uint128> from_upper = base36_decode128(upper);
        ASSERT_EQ(from_lower.status, Base36Status::ok) << lower;
        ASSERT_EQ(from_upper.status, Base36Status::ok) << upper;
        ASSERT_EQ(from_upper.value, from_lower.value) << upper;
    }
}

// The largest value is accepted; the 25-digit text one above it, every
// 25-digit text with a first digit above f, and all z are too large.
TEST(Base36Decode128, MaxAcceptedAndAboveMaxRejectedAsTooLarge) {
    Base36Decoded<Uint128> max = base36_decode128(kMax128Text);
    ASSERT_EQ(max.status, Base36Status::ok);
    EXPECT_EQ(max.value, kUint128Max);

    // max + 1 (2^128) as text, worked out here: the last digit of max is 3
    // (2^128 - 1 = 3 mod 36, since 2^128 = 4 mod 36), so adding one carries
    // nowhere and only that digit becomes 4.
    EXPECT_EQ(static_cast<unsigned>(kUint128Max % 36), 3u);
    EXPECT_EQ(reference_digits(kUint128Max / 36, 24) + "4", "f5lxx1zz5pnorynqglhzmsp34");
    const std::string above_max[] = {
        "f5lxx1zz5pnorynqglhzmsp34",  "F5LXX1ZZ5PNORYNQGLHZMSP34",   "f5lxx1zz5pnorynqglhzmsp3z",
        "f5lxx1zz5pnorynqglhzmsp40",  "f5lxx1zz5pnorynqglhzmsq00",   "f5lxx1zz6" + std::string(16, '0'),
        "f5lxy" + std::string(20, '0'), "f6" + std::string(23, '0'), "zzzzzzzzzzzzzzzzzzzzzzzzz",
        "ZZZZZZZZZZZZZZZZZZZZZZZZZ",
    };
    for (const std::string &text : above_max) {
        ASSERT_EQ(text.size(), kBase36Digits128) << text;
        EXPECT_EQ(base36_decode128(text).status, Base36Status::too_large) << text;
    }
    for (unsigned digit = 16; digit < 36; ++digit) {
        for (std::string_view digits : {kLowerDigits, kUpperDigits}) {
            for (char background : {'0', 'z'}) {
                Base36Decoded<Uint128> decoded = base36_decode128(with_char_at(background, 0, digits[digit]));
                EXPECT_EQ(decoded.status, Base36Status::too_large) << digits[digit] << " on " << background;
            }
        }
    }
}

// Values just below the largest are accepted; the ones just above it are not.
TEST(Base36Decode128, BoundaryAroundMax) {
    for (Uint128 below = 0; below < 40; ++below) {
        const Uint128 value = kUint128Max - below;
        Base36Decoded<Uint128> decoded = base36_decode128(reference_digits(value, 25));
        ASSERT_EQ(decoded.status, Base36Status::ok);
        ASSERT_EQ(decoded.value, value);
    }
    // Texts for 2^128 + k, by adding to the last digits of max by hand in base 36:
    // max ends in ...p33, so +1..+2 end in p34, p35 and +36 ends in p43.
    for (std::string_view text : {"f5lxx1zz5pnorynqglhzmsp34", "f5lxx1zz5pnorynqglhzmsp35", "f5lxx1zz5pnorynqglhzmsp43"}) {
        EXPECT_EQ(base36_decode128(text).status, Base36Status::too_large) << text;
    }
}

// Every byte that is not a digit of either case is a bad digit, reported at
// its 0-based position; 194 of the 256 byte values are not digits.
TEST(Base36Decode128, RejectsEveryNonDigitByteAtItsPosition) {
    int rejected_bytes = 0;
    for (unsigned byte = 0; byte < 256; ++byte) {
        if (is_digit_either_case(static_cast<unsigned char>(byte))) continue;
        ++rejected_bytes;
        for (std::size_t position : {std::size_t{0}, std::size_t{12}, std::size_t{24}}) {
            const std::string text = with_char_at('0', position, static_cast<char>(byte));
            Base36Decoded<Uint128> decoded = base36_decode128(text);
            ASSERT_EQ(decoded.status, Base36Status::bad_digit) << "byte " << byte << " at " << position;
            ASSERT_EQ(decoded.position, position) << "byte " << byte;
        }
    }
    EXPECT_EQ(rejected_bytes, 256 - 10 - 2 * 26);
}

// The first bad digit is the one reported.
TEST(Base36Decode128, ReportsTheFirstBadDigit) {
    std::string text = with_char_at('0', 20, '-');
    text[4] = ' ';
    Base36Decoded<Uint128> decoded = base36_decode128(text);
    EXPECT_EQ(decoded.status, Base36Status::bad_digit);
    EXPECT_EQ(decoded.position, 4u);
}

// Digit-only text of anything but 25 characters is the wrong length.
TEST(Base36Decode128, RejectsWrongLengths) {
    for (std::size_t length : {0, 1, 24, 26, 50}) {
        for (char digit : {'0', '1', 'a', 'Z'}) {
            Base36Decoded<Uint128> decoded = base36_decode128(std::string(length, digit));
            EXPECT_EQ(decoded.status, Base36Status::wrong_length) << length << " x " << digit;
        }
    }
    EXPECT_EQ(base36_decode128(std::string(kMax128Text) + "0").status, Base36Status::wrong_length);
    EXPECT_EQ(base36_decode128(kMax128Text.substr(1)).status, Base36Status::wrong_length);
    EXPECT_EQ(base36_decode128(kMax64Text).status, Base36Status::wrong_length);
}

// Precedence, as the header states: a non-digit anywhere is reported before a
// wrong length, and a wrong length before a value that is too large.
TEST(Base36Decode128, BadDigitBeforeWrongLengthBeforeTooLarge) {
    Base36Decoded<Uint128> trailing_nul = base36_decode128(std::string_view("0000000000000000000000000\0", 26));
    EXPECT_EQ(trailing_nul.status, Base36Status::bad_digit);
    EXPECT_EQ(trailing_nul.position, 25u);

    Base36Decoded<Uint128> short_with_space = base36_decode128("abc def");
    EXPECT_EQ(short_with_space.status, Base36Status::bad_digit);
    EXPECT_EQ(short_with_space.position, 3u);

    Base36Decoded<Uint128> long_and_bad = base36_decode128(std::string(40, 'z') + "!");
    EXPECT_EQ(long_and_bad.status, Base36Status::bad_digit);
    EXPECT_EQ(long_and_bad.position, 40u);

    Base36Decoded<Uint128> too_large_and_bad = base36_decode128(with_char_at('z', 24, '.'));
    EXPECT_EQ(too_large_and_bad.status, Base36Status::bad_digit);
    EXPECT_EQ(too_large_and_bad.position, 24u);

    // Too large and the wrong length: the length wins.
    EXPECT_EQ(base36_decode128(std::string(26, 'z')).status, Base36Status::wrong_length);
    EXPECT_EQ(base36_decode128(std::string(50, 'z')).status, Base36Status::wrong_length);
    EXPECT_EQ(base36_decode128("f5lxx1zz5pnorynqglhzmsp340").status, Base36Status::wrong_length);
}

// --- 128-bit round trips and order ------------------------------------------

// Random values survive encode -> decode, in lower and upper case.
TEST(Base36RoundTrip128, ValueToTextToValue) {
    SplitMix64 rng{20240601};
    for (int i = 0; i < 20000; ++i) {
        Uint128 value = rng.next128();
        if (i % 4 == 1) value >>= rng.next() % 128;  // short values too, leading zero digits
        const std::string text = encode128(value);
        Base36Decoded<Uint128> lower = base36_decode128(text);
        ASSERT_EQ(lower.status, Base36Status::ok) << text;
        ASSERT_EQ(lower.value, value) << text;
        Base36Decoded<Uint128> upper = base36_decode128(uppercased(text));
        ASSERT_EQ(upper.status, Base36Status::ok) << text;
        ASSERT_EQ(upper.value, value) << text;
    }
}

// Random valid texts, in mixed case, survive decode -> encode (as lowercase).
// A first digit of 0..e keeps every text below the largest value.
TEST(Base36RoundTrip128, TextToValueToText) {
    SplitMix64 rng{7};
    for (int i = 0; i < 20000; ++i) {
        std::string lower, mixed;
        for (std::size_t p = 0; p < kBase36Digits128; ++p) {
            const std::uint64_t r = rng.next();
            const unsigned digit = static_cast<unsigned>(r % (p == 0 ? 15 : 36));
            lower += kLowerDigits[digit];
            mixed += ((r >> 32) & 1) ? kUpperDigits[digit] : kLowerDigits[digit];
        }
        Base36Decoded<Uint128> decoded = base36_decode128(mixed);
        ASSERT_EQ(decoded.status, Base36Status::ok) << mixed;
        ASSERT_EQ(encode128(decoded.value), lower) << mixed;
    }
}

// Text order is numeric order, which is what the zero padding is for.
TEST(Base36RoundTrip128, TextOrderEqualsValueOrder) {
    SplitMix64 rng{99};
    for (int i = 0; i < 20000; ++i) {
        Uint128 a = rng.next128(), b = rng.next128();
        if (i % 3 == 0) b = a ^ (Uint128{1} << (rng.next() % 128));  // differ in one bit
        if (i % 3 == 1) {                                             // different magnitudes
            a >>= rng.next() % 128;
            b >>= rng.next() % 128;
        }
        const int cmp = encode128(a).compare(encode128(b));
        if (a < b) {
            ASSERT_LT(cmp, 0);
        } else if (a > b) {
            ASSERT_GT(cmp, 0);
        } else {
            ASSERT_EQ(cmp, 0);
        }
    }
}

// --- 64-bit encoding --------------------------------------------------------

// Known vectors and their digit counts.
TEST(Base36Encode64, KnownVectorsAndCounts) {
    struct Case {
        std::uint64_t value;
        std::string_view text;
    };
    for (const Case &c : {Case{0, "0"}, Case{1, "1"}, Case{35, "z"}, Case{36, "10"}, Case{1295, "zz"}, Case{1296, "100"},
                          Case{kInt64Max, kInt64MaxText}, Case{kUint64Max, kMax64Text}}) {
        char out[kBase36MaxDigits64];
        const std::size_t count = base36_encode64(c.value, out);
        ASSERT_EQ(count, c.text.size()) << c.text;
        EXPECT_EQ(std::string_view(out, count), c.text);
    }
}

// The count steps up by one at each power of 36.
TEST(Base36Encode64, ShortestDigitsAtEveryPowerOfThirtySix) {
    for (unsigned k = 1; k < kBase36MaxDigits64; ++k) {
        const auto power = static_cast<std::uint64_t>(power_of_36(k));
        EXPECT_EQ(encode64(power - 1), std::string(k, 'z')) << "36^" << k << " - 1";
        EXPECT_EQ(encode64(power), "1" + std::string(k, '0')) << "36^" << k;
    }
}

// The encoder writes exactly the digits it counts: the rest of a 13-byte
// buffer and the guards around it are untouched.
TEST(Base36Encode64, WritesOnlyTheDigitsItCounts) {
    SplitMix64 rng{64};
    for (int i = 0; i < 2000; ++i) {
        std::uint64_t value = rng.next() >> (rng.next() % 64);
        if (i == 0) value = 0;
        if (i == 1) value = kUint64Max;
        char buffer[kBase36MaxDigits64 + 2];
        std::memset(buffer, '#', sizeof buffer);
        const std::size_t count = base36_encode64(value, buffer + 1);
        const std::string expected = reference_digits(value, 0);
        ASSERT_EQ(count, expected.size()) << expected;
        ASSERT_EQ(std::string(buffer + 1, count), expected);
        for (std::size_t j = count + 1; j < sizeof buffer; ++j) ASSERT_EQ(buffer[j], '#') << expected << " byte " << j;
        ASSERT_EQ(buffer[0], '#');
    }
}

// --- 64-bit decoding --------------------------------------------------------

// With the bigint maximum: 2^63 - 1 is accepted, one more and 2^64 - 1 are not.
TEST(Base36Decode64, Int64MaxBoundary) {
    Base36Decoded<std::uint64_t> max = base36_decode64(kInt64MaxText, kInt64Max);
    ASSERT_EQ(max.status, Base36Status::ok);
    EXPECT_EQ(max.value, kInt64Max);

    Base36Decoded<std::uint64_t> max_upper = base36_decode64("1Y2P0IJ32E8E7", kInt64Max);
    ASSERT_EQ(max_upper.status, Base36Status::ok);
    EXPECT_EQ(max_upper.value, kInt64Max);

    EXPECT_EQ(base36_decode64("1y2p0ij32e8e8", kInt64Max).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("1y2p0ij32e8e9", kInt64Max).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("1y2p0ij32e8f0", kInt64Max).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64(kMax64Text, kInt64Max).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("zzzzzzzzzzzzz", kInt64Max).status, Base36Status::too_large);

    Base36Decoded<std::uint64_t> below = base36_decode64("1y2p0ij32e8e6", kInt64Max);
    ASSERT_EQ(below.status, Base36Status::ok);
    EXPECT_EQ(below.value, kInt64Max - 1);
}

// With the full 64-bit maximum: 2^64 - 1 is accepted, 2^64 and above are not,
// even though their value does not fit the 64-bit accumulator.
TEST(Base36Decode64, Uint64MaxBoundary) {
    Base36Decoded<std::uint64_t> max = base36_decode64(kMax64Text, kUint64Max);
    ASSERT_EQ(max.status, Base36Status::ok);
    EXPECT_EQ(max.value, kUint64Max);
    // 2^64 is ...sgsg; the wrapped value 0 must not be mistaken for a valid one.
    EXPECT_EQ(reference_digits(Uint128{1} << 64, 0), "3w5e11264sgsg");
    EXPECT_EQ(base36_decode64("3w5e11264sgsg", kUint64Max).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("3w5e11264sgsh", kUint64Max).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("4000000000000", kUint64Max).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("zzzzzzzzzzzzz", kUint64Max).status, Base36Status::too_large);
}

// A small maximum: 1000 is rs in base36.
TEST(Base36Decode64, SmallMaximum) {
    EXPECT_EQ(reference_digits(1000, 0), "rs");
    Base36Decoded<std::uint64_t> at = base36_decode64("rs", 1000);
    ASSERT_EQ(at.status, Base36Status::ok);
    EXPECT_EQ(at.value, 1000u);
    EXPECT_EQ(base36_decode64("rt", 1000).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("s0", 1000).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("100", 1000).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("0rs", 1000).status, Base36Status::ok);
}

// A maximum below a single digit's value still bounds that digit.
TEST(Base36Decode64, MaximumBelowOneDigit) {
    EXPECT_EQ(base36_decode64("z", 0).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("z", 34).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("5", 5).value, 5u);
    EXPECT_EQ(base36_decode64("6", 5).status, Base36Status::too_large);
    EXPECT_EQ(base36_decode64("0", 0).status, Base36Status::ok);
}

// Leading zeros are accepted, up to 13 digits in all.
TEST(Base36Decode64, LeadingZerosAccepted) {
    struct Case {
        std::string_view text;
        std::uint64_t value;
    };
    for (const Case &c : {Case{"0", 0}, Case{"0000000000000", 0}, Case{"0000000000001", 1}, Case{"000000000000z", 35},
                          Case{"00010", 36}, Case{"0zz", 1295}}) {
        Base36Decoded<std::uint64_t> decoded = base36_decode64(c.text, kInt64Max);
        ASSERT_EQ(decoded.status, Base36Status::ok) << c.text;
        EXPECT_EQ(decoded.value, c.value) << c.text;
    }
}

// Empty text and anything over 13 characters is the wrong length, even when
// the value is small or the digits would be too large.
TEST(Base36Decode64, RejectsWrongLengths) {
    EXPECT_EQ(base36_decode64("", kInt64Max).status, Base36Status::wrong_length);
    EXPECT_EQ(base36_decode64("", kUint64Max).status, Base36Status::wrong_length);
    EXPECT_EQ(base36_decode64("00000000000001", kInt64Max).status, Base36Status::wrong_length);
    EXPECT_EQ(base36_decode64("00000000000000", kUint64Max).status, Base36Status::wrong_length);
    EXPECT_EQ(base36_decode64(std::string(14, 'z'), kUint64Max).status, Base36Status::wrong_length);
    EXPECT_EQ(base36_decode64(std::string(30, '1'), kUint64Max).status, Base36Status::wrong_length);
    EXPECT_EQ(base36_decode64("0" + std::string(kInt64MaxText), kInt64Max).status, Base36Status::wrong_length);
}

// Every non-digit byte is a bad digit at its position, before any length or
// size check.
TEST(Base36Decode64, RejectsEveryNonDigitByteAtItsPosition) {
    int rejected_bytes = 0;
    for (unsigned byte = 0; byte < 256; ++byte) {
        if (is_digit_either_case(static_cast<unsigned char>(byte))) continue;
        ++rejected_bytes;
        for (std::size_t length : {std::size_t{1}, std::size_t{13}, std::size_t{20}}) {
            for (std::size_t position : {std::size_t{0}, length / 2, length - 1}) {
                const std::string text = with_char_at('z', position, static_cast<char>(byte), length);
                Base36Decoded<std::uint64_t> decoded = base36_decode64(text, kInt64Max);
                ASSERT_EQ(decoded.status, Base36Status::bad_digit) << "byte " << byte << " at " << position;
                ASSERT_EQ(decoded.position, position) << "byte " << byte << " length " << length;
            }
        }
    }
    EXPECT_EQ(rejected_bytes, 256 - 10 - 2 * 26);

    Base36Decoded<std::uint64_t> first = base36_decode64("12-4 ", kInt64Max);
    EXPECT_EQ(first.status, Base36Status::bad_digit);
    EXPECT_EQ(first.position, 2u);
    Base36Decoded<std::uint64_t> minus = base36_decode64("-1", kInt64Max);
    EXPECT_EQ(minus.status, Base36Status::bad_digit);
    EXPECT_EQ(minus.position, 0u);
}

// --- 64-bit round trips -----------------------------------------------------

// Random values of every size survive encode -> decode, in both cases, and
// decode against INT64_MAX accepts exactly those not above it.
TEST(Base36RoundTrip64, ValueToTextToValue) {
    SplitMix64 rng{20240602};
    for (int i = 0; i < 20000; ++i) {
        const std::uint64_t value = rng.next() >> (rng.next() % 64);
        const std::string text = encode64(value);
        ASSERT_EQ(text, reference_digits(value, 0));
        for (const std::string &t : {text, uppercased(text)}) {
            Base36Decoded<std::uint64_t> full = base36_decode64(t, kUint64Max);
            ASSERT_EQ(full.status, Base36Status::ok) << t;
            ASSERT_EQ(full.value, value) << t;
        }
        Base36Decoded<std::uint64_t> bigint = base36_decode64(text, kInt64Max);
        if (value <= kInt64Max) {
            ASSERT_EQ(bigint.status, Base36Status::ok) << text;
            ASSERT_EQ(bigint.value, value) << text;
        } else {
            ASSERT_EQ(bigint.status, Base36Status::too_large) << text;
        }
    }
}

// Random texts of 1..13 digits, mixed case, against random maximums of two or
// more digits: ok exactly when the value (worked out here in 128 bits) is at
// most the maximum.
TEST(Base36RoundTrip64, RandomTextsAgainstRandomMaximums) {
    SplitMix64 rng{13};
    int accepted = 0, refused = 0;
    for (int i = 0; i < 20000; ++i) {
        const std::size_t length = 1 + rng.next() % kBase36MaxDigits64;
        std::string text;
        Uint128 expected = 0;
        for (std::size_t p = 0; p < length; ++p) {
            const std::uint64_t r = rng.next();
            const unsigned digit = static_cast<unsigned>(r % 36);
            text += ((r >> 32) & 1) ? kUpperDigits[digit] : kLowerDigits[digit];
            expected = expected * 36 + digit;
        }
        std::uint64_t max = rng.next() >> (rng.next() % 54);
        if (max < 36) max += 36;
        Base36Decoded<std::uint64_t> decoded = base36_decode64(text, max);
        if (expected <= max) {
            ++accepted;
            ASSERT_EQ(decoded.status, Base36Status::ok) << text << " max " << max;
            ASSERT_EQ(decoded.value, static_cast<std::uint64_t>(expected)) << text;
        } else {
            ++refused;
            ASSERT_EQ(decoded.status, Base36Status::too_large) << text << " max " << max;
        }
    }
    // Both outcomes were exercised.
    EXPECT_GT(accepted, 1000);
    EXPECT_GT(refused, 1000);
}

// 512-bit values (CUID2's digests): the shortest digits, against a
// reference long division of the bytes by 36 written here.
namespace {
std::string encode512_reference(std::vector<std::uint8_t> number) {
    std::string digits;
    for (;;) {
        bool zero = true;
        for (auto b : number) zero = zero && b == 0;
        if (zero) break;
        unsigned rest = 0;
        for (auto &b : number) {
            unsigned part = rest * 256 + b;
            b = static_cast<std::uint8_t>(part / 36);
            rest = part % 36;
        }
        digits.insert(digits.begin(), kLowerDigits[rest]);
    }
    return digits.empty() ? "0" : digits;
}

std::string encode512(const std::vector<std::uint8_t> &number) {
    char out[kBase36MaxDigits512];
    return std::string(out, base36_encode512(number.data(), out));
}
}  // namespace

TEST(Base36Encode512, KnownValues) {
    std::vector<std::uint8_t> n(64, 0);
    EXPECT_EQ(encode512(n), "0");
    n[63] = 35;
    EXPECT_EQ(encode512(n), "z");
    n[63] = 36;
    EXPECT_EQ(encode512(n), "10");
    std::vector<std::uint8_t> max(64, 0xFF);
    EXPECT_EQ(encode512(max),
              "14plki42mdv1mt36i2rnak3ginnt5vcx207hpuf9x0vj6i1i7h29nu12wls3ulfv1yyabi94ua3wauamsxz4snwv27fya36hqdj3");
}

TEST(Base36Encode512, AgainstLongDivision) {
    SplitMix64 rng{512};
    for (int round = 0; round < 2000; ++round) {
        std::vector<std::uint8_t> n(64);
        for (auto &b : n) b = static_cast<std::uint8_t>(rng.next());
        // Leading zero bytes in a quarter of the cases: shorter texts.
        for (int i = 0, zeros = (round % 4 == 0) ? round % 64 : 0; i < zeros; ++i) n[i] = 0;
        ASSERT_EQ(encode512(n), encode512_reference(n));
    }
}

// The leading digits alone (CUID2 keeps at most 33): for every count, the
// first count characters of the reference's text and its full length, on
// numbers of every length, the powers of 2 and 36 and their neighbours (where
// a text gains a digit), and all ones.
namespace {
std::vector<std::uint8_t> times36(std::vector<std::uint8_t> number) {
    int carry = 0;
    for (std::size_t i = number.size(); i-- > 0;) {
        int part = number[i] * 36 + carry;
        number[i] = static_cast<std::uint8_t>(part & 0xFF);
        carry = part >> 8;
    }
    return number;
}

void expect_leading_digits(const std::vector<std::uint8_t> &number) {
    std::string full = encode512_reference(number);
    for (std::size_t count = 0; count <= kBase36MaxLeading512 + 2; ++count) {
        char out[kBase36MaxLeading512];
        std::size_t length = base36_leading512(number.data(), count, out);
        ASSERT_EQ(length, full.size()) << full << " count " << count;
        std::size_t kept = std::min({count, kBase36MaxLeading512, full.size()});
        ASSERT_EQ(std::string(out, kept), full.substr(0, kept)) << "count " << count;
    }
}
}  // namespace

TEST(Base36Leading512, AgainstLongDivision) {
    SplitMix64 rng{33};
    for (int round = 0; round < 3000; ++round) {
        std::vector<std::uint8_t> n(64);
        for (auto &b : n) b = static_cast<std::uint8_t>(rng.next());
        for (int i = 0, zeros = round % 65; i < zeros; ++i) n[i] = 0;
        expect_leading_digits(n);
    }
}

TEST(Base36Leading512, WhereTextsGainADigit) {
    std::vector<std::uint8_t> zero(64, 0);
    expect_leading_digits(zero);
    expect_leading_digits(std::vector<std::uint8_t>(64, 0xFF));
    for (unsigned bit = 0; bit < 512; ++bit) {
        std::vector<std::uint8_t> power(64, 0), below(64, 0);
        power[63 - bit / 8] = static_cast<std::uint8_t>(1u << (bit % 8));
        for (unsigned b = 0; b < bit; ++b) below[63 - b / 8] |= static_cast<std::uint8_t>(1u << (b % 8));
        expect_leading_digits(power);
        expect_leading_digits(below);
    }
    // 36^k - 1, 36^k and 36^k + 1 up to 36^99, the largest below 2^512.
    std::vector<std::uint8_t> power(64, 0);
    power[63] = 1;
    for (int k = 0; k <= 99; ++k) {
        std::vector<std::uint8_t> above = power, below = power;
        for (std::size_t i = 64; i-- > 0 && ++above[i] == 0;) {}
        for (std::size_t i = 64; i-- > 0 && below[i]-- == 0;) {}
        expect_leading_digits(below);
        expect_leading_digits(power);
        expect_leading_digits(above);
        power = times36(power);
    }
}
