// Crockford base32 of 128-bit values (ULID text): known vectors, every digit
// in every position in both cases, every rejection, and round trips.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/base32.hpp"
#include "random_values.hpp"

using namespace idgen::core;
using idgen::test::SplitMix64;
using idgen::test::u128;

// Readable gtest failures for the status enum (found by argument-dependent lookup).
namespace idgen::core {
void PrintTo(Base32Status status, std::ostream *os) {
    switch (status) {
        case Base32Status::ok: *os << "ok"; return;
        case Base32Status::wrong_length: *os << "wrong_length"; return;
        case Base32Status::bad_digit: *os << "bad_digit"; return;
        case Base32Status::too_large: *os << "too_large"; return;
    }
    *os << "Base32Status(" << static_cast<int>(status) << ")";
}
}  // namespace idgen::core

namespace {

// The alphabet spelled out here, not taken from the header under test.
constexpr std::string_view kUpperDigits = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
constexpr std::string_view kLowerDigits = "0123456789abcdefghjkmnpqrstvwxyz";

std::string encode(Uint128 value) {
    char out[kBase32Digits128];
    base32_encode128(value, out);
    return std::string(out, sizeof out);
}

// 26 copies of background with c at position.
std::string with_char_at(char background, std::size_t position, char c) {
    std::string text(kBase32Digits128, background);
    text[position] = c;
    return text;
}

std::string lowercased(std::string text) {
    for (char &c : text) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return text;
}

bool is_digit_either_case(unsigned char byte) {
    char c = static_cast<char>(byte);
    return kUpperDigits.find(c) != std::string_view::npos || kLowerDigits.find(c) != std::string_view::npos;
}

// Bits of the digit at a position: position 0 holds bits 127..125, position 25 bits 4..0.
int shift_of(std::size_t position) { return static_cast<int>(5 * (kBase32Digits128 - 1 - position)); }

}  // namespace

// The header's alphabet is the ULID spec's, in value order.
TEST(Base32Alphabet, IsCrockfordInValueOrder) {
    EXPECT_EQ(std::string_view(kBase32Alphabet), kUpperDigits);
    EXPECT_EQ(kBase32Digits128, 26u);
}

// Known vectors: the ends of the range and the digit carry from Z to 10.
TEST(Base32Encode, KnownVectors) {
    EXPECT_EQ(encode(0), "00000000000000000000000000");
    EXPECT_EQ(encode(kUint128Max), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    EXPECT_EQ(encode(1), "00000000000000000000000001");
    EXPECT_EQ(encode(31), "0000000000000000000000000Z");
    EXPECT_EQ(encode(32), "00000000000000000000000010");
    EXPECT_EQ(encode(Uint128{1} << 127), "40000000000000000000000000");
}

// The encoder writes its 26 digits and not one byte more.
TEST(Base32Encode, WritesExactly26Bytes) {
    char buffer[kBase32Digits128 + 2];
    std::memset(buffer, '#', sizeof buffer);
    base32_encode128(kUint128Max, buffer + 1);
    EXPECT_EQ(buffer[0], '#');
    EXPECT_EQ(buffer[kBase32Digits128 + 1], '#');
    EXPECT_EQ(std::string(buffer + 1, kBase32Digits128), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
}

// A value with a known bit pattern, its digits taken by shifts here and,
// separately, a string worked out by hand (Python) from the same value.
TEST(Base32Encode, IndependentlyComputedVector) {
    const Uint128 value = u128(0x0123456789ABCDEFull, 0xFEDCBA9876543210ull);
    std::string expected;
    for (std::size_t i = 0; i < kBase32Digits128; ++i) {
        expected += kUpperDigits[static_cast<unsigned>(value >> shift_of(i)) & 31];
    }
    EXPECT_EQ(expected, "014D2PF2DBSQQZXQ5TK1V58CGG");
    EXPECT_EQ(encode(value), expected);
    Base32Decoded decoded = base32_decode128(expected);
    EXPECT_EQ(decoded.status, Base32Status::ok);
    EXPECT_EQ(decoded.value, value);
}

// The spec's ULID examples: the seed-time example ulid(1469918176385) is
// 01ARYZ6S41TSV4RRFFQ69G5FAV; the canonical 01ARZ3NDEKTSV4RRFFQ69G5FAV shares
// its random part and has time 1469922850259 (both worked out by hand).
TEST(Base32Decode, SpecExamples) {
    const Uint128 random_part = u128(0xD676, 0x4C61EFB99302BD5Bull);

    Base32Decoded seeded = base32_decode128("01ARYZ6S41TSV4RRFFQ69G5FAV");
    ASSERT_EQ(seeded.status, Base32Status::ok);
    EXPECT_EQ(static_cast<std::uint64_t>(seeded.value >> 80), 1469918176385u);
    EXPECT_EQ(seeded.value & ((Uint128{1} << 80) - 1), random_part);
    EXPECT_EQ(encode(seeded.value), "01ARYZ6S41TSV4RRFFQ69G5FAV");

    Base32Decoded canonical = base32_decode128("01ARZ3NDEKTSV4RRFFQ69G5FAV");
    ASSERT_EQ(canonical.status, Base32Status::ok);
    EXPECT_EQ(static_cast<std::uint64_t>(canonical.value >> 80), 1469922850259u);
    EXPECT_EQ(canonical.value & ((Uint128{1} << 80) - 1), random_part);
    EXPECT_EQ(encode(canonical.value), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
}

// Every digit in every position, both cases, on a background of all-zero
// digits and of all-one bits (so a digit must replace, not OR into, its bits).
TEST(Base32Decode, EveryDigitInEveryPositionInBothCases) {
    int checked = 0;
    for (std::size_t position = 0; position < kBase32Digits128; ++position) {
        const unsigned max_digit = position == 0 ? 7 : 31;
        const int shift = shift_of(position);
        for (unsigned digit = 0; digit <= max_digit; ++digit) {
            for (std::string_view digits : {kUpperDigits, kLowerDigits}) {
                const char c = digits[digit];
                Base32Decoded on_zeros = base32_decode128(with_char_at('0', position, c));
                ASSERT_EQ(on_zeros.status, Base32Status::ok) << "char " << c << " at " << position;
                ASSERT_EQ(on_zeros.value, Uint128{digit} << shift) << "char " << c << " at " << position;

                std::string ones = with_char_at('Z', position, c);
                if (position != 0) ones[0] = '7';
                const Uint128 expected = (kUint128Max & ~(Uint128{31} << shift)) | (Uint128{digit} << shift);
                Base32Decoded on_ones = base32_decode128(ones);
                ASSERT_EQ(on_ones.status, Base32Status::ok) << ones;
                ASSERT_EQ(on_ones.value, expected) << ones;
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 2 * (8 + 25 * 32));
}

// Every byte that is not a digit of either case is a bad digit, reported at
// its 0-based position; 202 of the 256 byte values are not digits.
TEST(Base32Decode, RejectsEveryNonDigitByteAtItsPosition) {
    int rejected_bytes = 0;
    for (unsigned byte = 0; byte < 256; ++byte) {
        if (is_digit_either_case(static_cast<unsigned char>(byte))) continue;
        ++rejected_bytes;
        for (std::size_t position : {std::size_t{0}, std::size_t{13}, std::size_t{25}}) {
            std::string text = with_char_at('0', position, static_cast<char>(byte));
            Base32Decoded decoded = base32_decode128(text);
            ASSERT_EQ(decoded.status, Base32Status::bad_digit) << "byte " << byte << " at " << position;
            ASSERT_EQ(decoded.position, position) << "byte " << byte;
        }
    }
    EXPECT_EQ(rejected_bytes, 256 - 10 - 2 * 22);
}

// Crockford's aliases are not read: I, L, O, U in either case are bad digits.
TEST(Base32Decode, RejectsILOUInBothCases) {
    for (char c : {'I', 'L', 'O', 'U', 'i', 'l', 'o', 'u'}) {
        for (std::size_t position : {std::size_t{0}, std::size_t{7}, std::size_t{25}}) {
            Base32Decoded decoded = base32_decode128(with_char_at('0', position, c));
            EXPECT_EQ(decoded.status, Base32Status::bad_digit) << c << " at " << position;
            EXPECT_EQ(decoded.position, position) << c;
        }
    }
}

// The first bad digit is the one reported.
TEST(Base32Decode, ReportsTheFirstBadDigit) {
    std::string text = with_char_at('0', 20, 'U');
    text[4] = '-';
    Base32Decoded decoded = base32_decode128(text);
    EXPECT_EQ(decoded.status, Base32Status::bad_digit);
    EXPECT_EQ(decoded.position, 4u);
}

// Digit-only text of anything but 26 characters is the wrong length.
TEST(Base32Decode, RejectsWrongLengths) {
    for (std::size_t length : {0, 1, 25, 27, 52}) {
        Base32Decoded decoded = base32_decode128(std::string(length, '0'));
        EXPECT_EQ(decoded.status, Base32Status::wrong_length) << length;
    }
    EXPECT_EQ(base32_decode128("7ZZZZZZZZZZZZZZZZZZZZZZZZZZ").status, Base32Status::wrong_length);
    EXPECT_EQ(base32_decode128("01ARZ3NDEKTSV4RRFFQ69G5FA").status, Base32Status::wrong_length);
}

// Precedence, as the header states: a non-digit anywhere is reported before a
// wrong length, and a wrong length before a first digit above 7.
TEST(Base32Decode, BadDigitBeforeWrongLengthBeforeTooLarge) {
    Base32Decoded trailing_nul = base32_decode128(std::string_view("00000000000000000000000000\0", 27));
    EXPECT_EQ(trailing_nul.status, Base32Status::bad_digit);
    EXPECT_EQ(trailing_nul.position, 26u);

    Base32Decoded long_with_u = base32_decode128(with_char_at('0', 20, 'U') + "0000000U");
    EXPECT_EQ(long_with_u.status, Base32Status::bad_digit);
    EXPECT_EQ(long_with_u.position, 20u);

    Base32Decoded short_with_space = base32_decode128("01ARZ3NDEK TSV4");
    EXPECT_EQ(short_with_space.status, Base32Status::bad_digit);
    EXPECT_EQ(short_with_space.position, 10u);

    Base32Decoded too_large_and_bad = base32_decode128(with_char_at('Z', 25, '!'));
    EXPECT_EQ(too_large_and_bad.status, Base32Status::bad_digit);
    EXPECT_EQ(too_large_and_bad.position, 25u);

    EXPECT_EQ(base32_decode128(std::string(25, 'Z')).status, Base32Status::wrong_length);
    EXPECT_EQ(base32_decode128(std::string(27, 'Z')).status, Base32Status::wrong_length);
}

// A first digit of 8..31 (either case) needs a 129th bit.
TEST(Base32Decode, RejectsFirstDigitAboveSevenAsTooLarge) {
    for (unsigned digit = 8; digit < 32; ++digit) {
        for (std::string_view digits : {kUpperDigits, kLowerDigits}) {
            for (char background : {'0', 'Z'}) {
                Base32Decoded decoded = base32_decode128(with_char_at(background, 0, digits[digit]));
                EXPECT_EQ(decoded.status, Base32Status::too_large) << digits[digit];
                EXPECT_EQ(decoded.position, 0u) << digits[digit];
            }
        }
    }
}

// The largest value is accepted; one past it in text is not.
TEST(Base32Decode, MaxValueAcceptedAndOnePastRejected) {
    Base32Decoded max = base32_decode128("7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    ASSERT_EQ(max.status, Base32Status::ok);
    EXPECT_EQ(max.value, kUint128Max);
    Base32Decoded max_lower = base32_decode128("7zzzzzzzzzzzzzzzzzzzzzzzzz");
    ASSERT_EQ(max_lower.status, Base32Status::ok);
    EXPECT_EQ(max_lower.value, kUint128Max);
    EXPECT_EQ(base32_decode128("80000000000000000000000000").status, Base32Status::too_large);
}

// Random values survive encode -> decode, in upper and lower case.
TEST(Base32RoundTrip, ValueToTextToValue) {
    SplitMix64 rng{20240601};
    for (int i = 0; i < 20000; ++i) {
        Uint128 value = rng.next128();
        if (i % 4 == 1) value >>= rng.next() % 128;  // short values too, leading zero digits
        const std::string text = encode(value);
        Base32Decoded upper = base32_decode128(text);
        ASSERT_EQ(upper.status, Base32Status::ok) << text;
        ASSERT_EQ(upper.value, value) << text;
        Base32Decoded lower = base32_decode128(lowercased(text));
        ASSERT_EQ(lower.status, Base32Status::ok) << text;
        ASSERT_EQ(lower.value, value) << text;
    }
}

// Random valid texts, in mixed case, survive decode -> encode (as uppercase).
TEST(Base32RoundTrip, TextToValueToText) {
    SplitMix64 rng{7};
    for (int i = 0; i < 20000; ++i) {
        std::string upper, mixed;
        for (std::size_t p = 0; p < kBase32Digits128; ++p) {
            std::uint64_t r = rng.next();
            unsigned digit = static_cast<unsigned>(r % (p == 0 ? 8 : 32));
            upper += kUpperDigits[digit];
            mixed += ((r >> 32) & 1) ? kLowerDigits[digit] : kUpperDigits[digit];
        }
        Base32Decoded decoded = base32_decode128(mixed);
        ASSERT_EQ(decoded.status, Base32Status::ok) << mixed;
        ASSERT_EQ(encode(decoded.value), upper) << mixed;
    }
}

// Text order is numeric order, which is what makes ULID text sortable.
TEST(Base32RoundTrip, TextOrderEqualsValueOrder) {
    SplitMix64 rng{99};
    for (int i = 0; i < 20000; ++i) {
        Uint128 a = rng.next128(), b = rng.next128();
        if (i % 3 == 0) b = a ^ (Uint128{1} << (rng.next() % 128));  // differ in one bit
        int cmp = encode(a).compare(encode(b));
        if (a < b) {
            ASSERT_LT(cmp, 0);
        } else if (a > b) {
            ASSERT_GT(cmp, 0);
        } else {
            ASSERT_EQ(cmp, 0);
        }
    }
}

// Lowercase mode (TypeID suffixes) ------------------------------------------

// The lowercase alphabet is the uppercase one with letters lowered.
TEST(Base32Lower, AlphabetIsTheLowercaseCrockfordAlphabet) {
    EXPECT_EQ(std::string_view(kBase32LowerAlphabet), kLowerDigits);
}

// The encoder writes the same digits, lowercase, and nothing past 26 bytes.
TEST(Base32Lower, EncodesLowercase) {
    char buffer[kBase32Digits128 + 2];
    std::memset(buffer, '#', sizeof buffer);
    const Uint128 value = u128(0x0123456789ABCDEFull, 0xFEDCBA9876543210ull);
    base32_encode128(value, buffer + 1, Base32Case::lower);
    EXPECT_EQ(buffer[0], '#');
    EXPECT_EQ(buffer[kBase32Digits128 + 1], '#');
    EXPECT_EQ(std::string(buffer + 1, kBase32Digits128), "014d2pf2dbsqqzxq5tk1v58cgg");
    base32_encode128(kUint128Max, buffer + 1, Base32Case::lower);
    EXPECT_EQ(std::string(buffer + 1, kBase32Digits128), "7zzzzzzzzzzzzzzzzzzzzzzzzz");
}

// The TypeID spec's README example: 01h455vb4pex5vsknk084sn02q is the UUID
// 01890a5d-ac96-774b-bcce-b302099a8057.
TEST(Base32Lower, TypeidSpecExample) {
    Base32Decoded decoded = base32_decode128("01h455vb4pex5vsknk084sn02q", Base32Case::lower);
    ASSERT_EQ(decoded.status, Base32Status::ok);
    EXPECT_EQ(decoded.value, u128(0x01890a5dac96774bull, 0xbcceb302099a8057ull));
}

// Every lowercase digit in every position reads; its uppercase twin is a bad
// digit at that position in lowercase mode (and reads in either-case mode).
TEST(Base32Lower, EveryDigitInEveryPositionLowercaseOnly) {
    for (std::size_t position = 0; position < kBase32Digits128; ++position) {
        for (std::size_t d = 0; d < 32; ++d) {
            if (position == 0 && d > 7) continue;
            std::string lower = with_char_at('0', position, kLowerDigits[d]);
            Base32Decoded ok = base32_decode128(lower, Base32Case::lower);
            ASSERT_EQ(ok.status, Base32Status::ok) << lower;
            EXPECT_EQ(ok.value, Uint128{d} << shift_of(position)) << lower;
            std::string upper = with_char_at('0', position, kUpperDigits[d]);
            Base32Decoded bad = base32_decode128(upper, Base32Case::lower);
            if (kUpperDigits[d] >= 'A') {
                EXPECT_EQ(bad.status, Base32Status::bad_digit) << upper;
                EXPECT_EQ(bad.position, position) << upper;
                EXPECT_EQ(base32_decode128(upper).status, Base32Status::ok) << upper;
            } else {
                EXPECT_EQ(bad.status, Base32Status::ok) << upper;
            }
        }
    }
}

// No aliases (i, l, o, u), no other byte; length and first-digit rules as in
// either-case mode.
TEST(Base32Lower, RejectsAliasesOtherBytesLengthsAndLargeFirstDigit) {
    for (int byte = 0; byte < 256; ++byte) {
        char c = static_cast<char>(byte);
        bool digit = kLowerDigits.find(c) != std::string_view::npos;
        Base32Decoded decoded = base32_decode128(with_char_at('0', 5, c), Base32Case::lower);
        if (digit) {
            EXPECT_EQ(decoded.status, Base32Status::ok) << byte;
        } else {
            EXPECT_EQ(decoded.status, Base32Status::bad_digit) << byte;
            EXPECT_EQ(decoded.position, 5u) << byte;
        }
    }
    EXPECT_EQ(base32_decode128(std::string(25, '0'), Base32Case::lower).status,
              Base32Status::wrong_length);
    EXPECT_EQ(base32_decode128(std::string(27, '0'), Base32Case::lower).status,
              Base32Status::wrong_length);
    EXPECT_EQ(base32_decode128("", Base32Case::lower).status, Base32Status::wrong_length);
    EXPECT_EQ(base32_decode128("80000000000000000000000000", Base32Case::lower).status,
              Base32Status::too_large);
    EXPECT_EQ(base32_decode128("zzzzzzzzzzzzzzzzzzzzzzzzzz", Base32Case::lower).status,
              Base32Status::too_large);
}

// Lowercase text of random values reads back to the value.
TEST(Base32Lower, RoundTrip) {
    SplitMix64 rng;
    for (int i = 0; i < 10000; ++i) {
        Uint128 value = rng.next128();
        char out[kBase32Digits128];
        base32_encode128(value, out, Base32Case::lower);
        Base32Decoded decoded =
            base32_decode128(std::string_view(out, sizeof out), Base32Case::lower);
        ASSERT_EQ(decoded.status, Base32Status::ok);
        EXPECT_EQ(decoded.value, value);
        EXPECT_EQ(std::string(out, sizeof out), lowercased(encode(value)));
    }
}
