// Prefixed IDs ("<prefix>_<25 base36 digits>"): which prefixes are valid and
// why each invalid one is refused (every byte, every limit, the order of the
// checks), and that the text splits on its last underscore without copying.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base36.hpp"
#include "core/prefixed.hpp"
#include "core/uuidv7.hpp"
#include "random_values.hpp"

using namespace idgen::core;
using idgen::test::SplitMix64;

// Readable gtest failures for the status enum (found by argument-dependent lookup).
namespace idgen::core {
void PrintTo(PrefixStatus status, std::ostream *os) {
    switch (status) {
        case PrefixStatus::ok: *os << "ok"; return;
        case PrefixStatus::empty: *os << "empty"; return;
        case PrefixStatus::too_long: *os << "too_long"; return;
        case PrefixStatus::bad_character: *os << "bad_character"; return;
        case PrefixStatus::starts_or_ends_with_underscore: *os << "starts_or_ends_with_underscore"; return;
    }
    *os << "PrefixStatus(" << static_cast<int>(status) << ")";
}
}  // namespace idgen::core

namespace {

// The prefix alphabet spelled out here, not taken from the code under test.
constexpr std::string_view kLetters = "abcdefghijklmnopqrstuvwxyz";
constexpr std::size_t kMaxLength = 63;

bool is_prefix_byte(unsigned char byte) { return kLetters.find(static_cast<char>(byte)) != std::string_view::npos || byte == '_'; }

// count letters, cycling through the alphabet.
std::string letters(std::size_t count) {
    std::string text;
    for (std::size_t i = 0; i < count; ++i) text += kLetters[i % kLetters.size()];
    return text;
}

std::string encode128(Uint128 value) {
    char out[kBase36Digits128];
    base36_encode128(value, out);
    return std::string(out, sizeof out);
}

}  // namespace

// --- prefix_check -----------------------------------------------------------

TEST(PrefixLimits, MaxLengthIs63) { EXPECT_EQ(kPrefixMaxLength, kMaxLength); }

// Lowercase letters with underscores inside, up to 63 characters.
TEST(PrefixCheck, AcceptsValidPrefixes) {
    const std::string valid[] = {
        "a",
        "z",
        "acct",
        "user_session",
        "a_b",
        "a__b",
        "a_b_c_d",
        std::string(kLetters),
        letters(kMaxLength),
        std::string(kMaxLength, 'z'),
        "a" + std::string(kMaxLength - 2, '_') + "b",
    };
    for (const std::string &prefix : valid) {
        PrefixCheck check = prefix_check(prefix);
        EXPECT_EQ(check.status, PrefixStatus::ok) << prefix;
    }
    EXPECT_EQ(letters(kMaxLength).size(), 63u);
}

TEST(PrefixCheck, RejectsEmpty) { EXPECT_EQ(prefix_check("").status, PrefixStatus::empty); }

// 64 characters and more are too long, whatever they are made of.
TEST(PrefixCheck, RejectsMoreThan63CharactersAsTooLong) {
    for (std::size_t length : {kMaxLength + 1, kMaxLength + 2, std::size_t{100}, std::size_t{1000}}) {
        EXPECT_EQ(prefix_check(letters(length)).status, PrefixStatus::too_long) << length;
        EXPECT_EQ(prefix_check(std::string(length, 'a')).status, PrefixStatus::too_long) << length;
        EXPECT_EQ(prefix_check("a" + std::string(length - 2, '_') + "b").status, PrefixStatus::too_long) << length;
    }
}

// The examples: an uppercase letter, a digit, a hyphen, and non-ASCII bytes
// (UTF-8 e-acute, a Latin-1 byte), each at its 0-based position.
TEST(PrefixCheck, RejectsBadCharactersAtTheirPosition) {
    struct Case {
        std::string_view prefix;
        std::size_t position;
    };
    for (const Case &c : {Case{"Acct", 0}, Case{"ac1t", 2}, Case{"ac-t", 2}, Case{"acctX", 4}, Case{"ACCT", 0},
                          Case{"caf\xC3\xA9", 3}, Case{"\xE9t\xE9", 0}, Case{"a b", 1}, Case{"a.b", 1},
                          Case{std::string_view("ab\0c", 4), 2}, Case{"user_Session", 5}}) {
        PrefixCheck check = prefix_check(c.prefix);
        EXPECT_EQ(check.status, PrefixStatus::bad_character) << c.prefix;
        EXPECT_EQ(check.position, c.position) << c.prefix;
    }
}

// Every byte other than a-z and _ is a bad character, at the start, in the
// middle and at the end; 229 of the 256 byte values are refused.
TEST(PrefixCheck, RejectsEveryOtherByteAtItsPosition) {
    int rejected_bytes = 0;
    for (unsigned byte = 0; byte < 256; ++byte) {
        if (is_prefix_byte(static_cast<unsigned char>(byte))) continue;
        ++rejected_bytes;
        for (std::size_t position : {std::size_t{0}, std::size_t{3}, std::size_t{6}}) {
            std::string prefix = "acct_ab";
            prefix[position] = static_cast<char>(byte);
            PrefixCheck check = prefix_check(prefix);
            ASSERT_EQ(check.status, PrefixStatus::bad_character) << "byte " << byte << " at " << position;
            ASSERT_EQ(check.position, position) << "byte " << byte;
        }
    }
    EXPECT_EQ(rejected_bytes, 256 - 26 - 1);
}

// The first bad character is the one reported.
TEST(PrefixCheck, ReportsTheFirstBadCharacter) {
    PrefixCheck check = prefix_check("abC1-");
    EXPECT_EQ(check.status, PrefixStatus::bad_character);
    EXPECT_EQ(check.position, 2u);
}

// An underscore first or last is refused; inside it is fine (see above).
TEST(PrefixCheck, RejectsUnderscoreAtEitherEnd) {
    for (std::string_view prefix : {"_acct", "acct_", "_", "__", "_a_", "_user_session", "user_session_"}) {
        EXPECT_EQ(prefix_check(prefix).status, PrefixStatus::starts_or_ends_with_underscore) << prefix;
    }
}

// The order of the checks: empty, bad character, too long, underscore ends.
TEST(PrefixCheck, BadCharacterBeforeTooLongBeforeUnderscoreEnds) {
    // Bad character and too long: the character, even when it comes after the 63rd.
    std::string long_bad = letters(70);
    long_bad[65] = 'A';
    PrefixCheck check = prefix_check(long_bad);
    EXPECT_EQ(check.status, PrefixStatus::bad_character);
    EXPECT_EQ(check.position, 65u);

    // Bad character and an underscore at an end: the character.
    check = prefix_check("_A");
    EXPECT_EQ(check.status, PrefixStatus::bad_character);
    EXPECT_EQ(check.position, 1u);
    check = prefix_check("acct1_");
    EXPECT_EQ(check.status, PrefixStatus::bad_character);
    EXPECT_EQ(check.position, 4u);

    // Too long and an underscore at an end: too long.
    EXPECT_EQ(prefix_check("_" + letters(kMaxLength)).status, PrefixStatus::too_long);
    EXPECT_EQ(prefix_check(letters(kMaxLength) + "_").status, PrefixStatus::too_long);
    EXPECT_EQ(prefix_check(std::string(kMaxLength + 1, '_')).status, PrefixStatus::too_long);

    // At exactly 63 an underscore at an end is what is wrong.
    EXPECT_EQ(prefix_check("_" + letters(kMaxLength - 1)).status, PrefixStatus::starts_or_ends_with_underscore);
}

// Random prefixes built here from letters and underscores: the expected
// status is worked out from the rules, independently of the code.
TEST(PrefixCheck, RandomPrefixesFollowTheRules) {
    SplitMix64 rng{63};
    int counts[5] = {};
    for (int i = 0; i < 20000; ++i) {
        const std::size_t length = 1 + rng.next() % 70;
        std::string prefix;
        for (std::size_t p = 0; p < length; ++p) {
            const std::uint64_t r = rng.next();
            prefix += (r % 5 == 0) ? '_' : kLetters[(r >> 8) % 26];
        }
        PrefixStatus expected = PrefixStatus::ok;
        if (length > kMaxLength) {
            expected = PrefixStatus::too_long;
        } else if (prefix.front() == '_' || prefix.back() == '_') {
            expected = PrefixStatus::starts_or_ends_with_underscore;
        }
        ASSERT_EQ(prefix_check(prefix).status, expected) << prefix;
        ++counts[static_cast<int>(expected)];
    }
    EXPECT_GT(counts[static_cast<int>(PrefixStatus::ok)], 1000);
    EXPECT_GT(counts[static_cast<int>(PrefixStatus::too_long)], 1000);
    EXPECT_GT(counts[static_cast<int>(PrefixStatus::starts_or_ends_with_underscore)], 1000);
}

// --- prefixed_split ---------------------------------------------------------

// The examples: the split is on the last underscore.
TEST(PrefixedSplit, SplitsOnTheLastUnderscore) {
    struct Case {
        std::string_view text;
        std::string_view prefix;
        std::string_view body;
    };
    for (const Case &c : {Case{"acct_0000000000000000000000001", "acct", "0000000000000000000000001"},
                          Case{"user_session_xyz", "user_session", "xyz"}, Case{"_x", "", "x"}, Case{"x_", "x", ""},
                          Case{"_", "", ""}, Case{"a__b", "a_", "b"}, Case{"a_b_c", "a_b", "c"}}) {
        PrefixedParts parts = prefixed_split(c.text);
        EXPECT_TRUE(parts.has_separator) << c.text;
        EXPECT_EQ(parts.prefix, c.prefix) << c.text;
        EXPECT_EQ(parts.body, c.body) << c.text;
    }
}

// Without an underscore there is no prefix and the body is the whole text.
TEST(PrefixedSplit, NoSeparatorMeansNoPrefix) {
    for (std::string_view text : {"noseparator", "", "0000000000000000000000001", "ACCT-123"}) {
        PrefixedParts parts = prefixed_split(text);
        EXPECT_FALSE(parts.has_separator) << text;
        EXPECT_TRUE(parts.prefix.empty()) << text;
        EXPECT_EQ(parts.body, text);
    }
}

// The parts are views into the input, on either side of the separator.
TEST(PrefixedSplit, PartsPointIntoTheInput) {
    const std::string text = "user_session_0jz3";
    PrefixedParts parts = prefixed_split(text);
    ASSERT_TRUE(parts.has_separator);
    EXPECT_EQ(parts.prefix.data(), text.data());
    EXPECT_EQ(parts.prefix.size(), 12u);
    EXPECT_EQ(parts.body.data(), text.data() + 13);
    EXPECT_EQ(parts.body.size(), 4u);

    PrefixedParts none = prefixed_split(std::string_view(text).substr(13));
    ASSERT_FALSE(none.has_separator);
    EXPECT_EQ(none.body.data(), text.data() + 13);
}

// A whole prefixed ID, built here from a random valid prefix and a random
// value, splits back into that prefix (which checks ok) and a body that
// decodes to that value.
TEST(PrefixedSplit, RandomIdsSplitBackIntoPrefixAndValue) {
    SplitMix64 rng{5};
    for (int i = 0; i < 5000; ++i) {
        const std::size_t length = 1 + rng.next() % kMaxLength;
        std::string prefix;
        for (std::size_t p = 0; p < length; ++p) {
            const std::uint64_t r = rng.next();
            const bool at_end = p == 0 || p + 1 == length;
            prefix += (!at_end && r % 4 == 0) ? '_' : kLetters[(r >> 8) % 26];
        }
        const Uint128 value = rng.next128();
        const std::string id = prefix + "_" + encode128(value);

        PrefixedParts parts = prefixed_split(id);
        ASSERT_TRUE(parts.has_separator) << id;
        ASSERT_EQ(parts.prefix, prefix) << id;
        ASSERT_EQ(prefix_check(parts.prefix).status, PrefixStatus::ok) << id;
        Base36Decoded<Uint128> body = base36_decode128(parts.body);
        ASSERT_EQ(body.status, Base36Status::ok) << id;
        ASSERT_EQ(body.value, value) << id;
    }
}

// --- prefixed_wire_encode / prefixed_wire_decode ----------------------------

namespace {

// The 16 bytes of a 128-bit value, most significant first.
void bytes_of(Uint128 value, std::uint8_t out[16]) {
    for (int i = 15; i >= 0; --i) {
        out[i] = static_cast<std::uint8_t>(value);
        value >>= 8;
    }
}

// The binary form spelled out here: length byte, prefix, payload.
std::vector<std::uint8_t> wire_of(const std::string &prefix, const std::uint8_t payload[16]) {
    std::vector<std::uint8_t> out{static_cast<std::uint8_t>(prefix.size())};
    out.insert(out.end(), prefix.begin(), prefix.end());
    out.insert(out.end(), payload, payload + 16);
    return out;
}

// A random valid prefix of the given length.
std::string random_prefix(SplitMix64 &rng, std::size_t length) {
    std::string prefix;
    for (std::size_t p = 0; p < length; ++p) {
        const std::uint64_t r = rng.next();
        const bool at_end = p == 0 || p + 1 == length;
        prefix += (!at_end && r % 4 == 0) ? '_' : kLetters[(r >> 8) % 26];
    }
    return prefix;
}

}  // namespace

namespace idgen::core {
void PrintTo(WireStatus status, std::ostream *os) {
    switch (status) {
        case WireStatus::ok: *os << "ok"; return;
        case WireStatus::empty: *os << "empty"; return;
        case WireStatus::bad_length_byte: *os << "bad_length_byte"; return;
        case WireStatus::short_field: *os << "short_field"; return;
        case WireStatus::trailing_bytes: *os << "trailing_bytes"; return;
        case WireStatus::bad_prefix: *os << "bad_prefix"; return;
    }
    *os << "WireStatus(" << static_cast<int>(status) << ")";
}
}  // namespace idgen::core

TEST(PrefixedWire, MaxSizeIs80) { EXPECT_EQ(kPrefixedWireMaxBytes, 1u + 63u + 16u); }

// The golden example: acct and the bytes 01..10.
TEST(PrefixedWire, EncodesLengthBytePrefixAndPayload) {
    std::uint8_t payload[16];
    for (int i = 0; i < 16; ++i) payload[i] = static_cast<std::uint8_t>(i + 1);
    std::uint8_t out[kPrefixedWireMaxBytes];
    ASSERT_EQ(prefixed_wire_encode("acct", payload, out), 21u);
    const std::uint8_t expected[21] = {4, 'a', 'c', 'c', 't', 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    for (int i = 0; i < 21; ++i) EXPECT_EQ(out[i], expected[i]) << i;

    PrefixedWire wire = prefixed_wire_decode(expected, sizeof expected);
    ASSERT_EQ(wire.status, WireStatus::ok);
    EXPECT_EQ(wire.prefix, "acct");
    EXPECT_EQ(wire.prefix.data(), reinterpret_cast<const char *>(expected + 1));
    EXPECT_EQ(wire.payload, expected + 5);
}

// Every prefix length, random prefixes and payloads: encode gives the layout
// built here, and decode gives back the prefix and payload, in place.
TEST(PrefixedWire, RoundTripsEveryPrefixLength) {
    SplitMix64 rng{80};
    for (std::size_t length = 1; length <= kMaxLength; ++length) {
        for (int i = 0; i < 50; ++i) {
            const std::string prefix = random_prefix(rng, length);
            std::uint8_t payload[16];
            bytes_of(rng.next128(), payload);
            std::uint8_t out[kPrefixedWireMaxBytes];
            const std::size_t size = prefixed_wire_encode(prefix, payload, out);
            const std::vector<std::uint8_t> expected = wire_of(prefix, payload);
            ASSERT_EQ(std::vector<std::uint8_t>(out, out + size), expected) << prefix;
            PrefixedWire wire = prefixed_wire_decode(out, size);
            ASSERT_EQ(wire.status, WireStatus::ok) << prefix;
            ASSERT_EQ(wire.prefix, prefix);
            ASSERT_EQ(wire.payload, out + 1 + length);
            ASSERT_EQ(wire.length_byte, length);
            ASSERT_EQ(wire.expected_size, size);
        }
    }
}

// encode refuses (0, nothing written) a prefix it could not frame.
TEST(PrefixedWire, EncodeRefusesEmptyAndTooLongPrefixes) {
    std::uint8_t payload[16] = {};
    std::uint8_t out[kPrefixedWireMaxBytes + 8];
    for (std::uint8_t &b : out) b = 0xAA;
    EXPECT_EQ(prefixed_wire_encode("", payload, out), 0u);
    EXPECT_EQ(prefixed_wire_encode(letters(kMaxLength + 1), payload, out), 0u);
    EXPECT_EQ(prefixed_wire_encode(letters(300), payload, out), 0u);
    for (std::uint8_t b : out) EXPECT_EQ(b, 0xAA);
}

TEST(PrefixedWire, EmptyFieldIsEmpty) {
    EXPECT_EQ(prefixed_wire_decode(nullptr, 0).status, WireStatus::empty);
    const std::uint8_t one[1] = {4};
    EXPECT_EQ(prefixed_wire_decode(one, 0).status, WireStatus::empty);
}

// A length byte of 0 or 64..255 is refused whatever follows (and whatever
// the field's size, even one that a valid length would fit).
TEST(PrefixedWire, LengthByteOutside1To63IsRefused) {
    std::vector<std::uint8_t> field(1 + 255 + 16, 'a');
    for (unsigned length : {0u, 64u, 65u, 97u, 127u, 128u, 255u}) {
        field[0] = static_cast<std::uint8_t>(length);
        for (std::size_t size : {std::size_t{1}, std::size_t{17}, 1 + length + std::size_t{16}, field.size()}) {
            PrefixedWire wire = prefixed_wire_decode(field.data(), std::min(size, field.size()));
            ASSERT_EQ(wire.status, WireStatus::bad_length_byte) << length << " " << size;
            ASSERT_EQ(wire.length_byte, length);
        }
    }
}

// With a valid length byte, every size but 1 + L + 16 is refused: short or
// trailing, with the size the length byte calls for.
TEST(PrefixedWire, EverySizeButTheFramedOneIsRefused) {
    std::vector<std::uint8_t> field(1 + 63 + 16 + 10, 'q');
    for (std::size_t length = 1; length <= kMaxLength; ++length) {
        field[0] = static_cast<std::uint8_t>(length);
        const std::size_t framed = 1 + length + 16;
        for (std::size_t size = 1; size <= field.size(); ++size) {
            PrefixedWire wire = prefixed_wire_decode(field.data(), size);
            const WireStatus expected = size < framed   ? WireStatus::short_field
                                        : size > framed ? WireStatus::trailing_bytes
                                                        : WireStatus::ok;
            ASSERT_EQ(wire.status, expected) << length << " " << size;
            ASSERT_EQ(wire.expected_size, framed);
        }
    }
}

// The layout before 0.5.0 (prefix, then 16 bytes, no length byte) never
// decodes, with any number of bytes after the prefix; its first byte, a
// letter, is no valid length.
TEST(PrefixedWire, OldLayoutIsAlwaysRefused) {
    SplitMix64 rng{15};
    for (int i = 0; i < 20000; ++i) {
        const std::string prefix = random_prefix(rng, 1 + rng.next() % kMaxLength);
        std::vector<std::uint8_t> field(prefix.begin(), prefix.end());
        const std::size_t tail = 14 + rng.next() % 5;  // 14 to 18 bytes, 16 being the old layout's
        for (std::size_t t = 0; t < tail; ++t) field.push_back(static_cast<std::uint8_t>(rng.next()));
        PrefixedWire wire = prefixed_wire_decode(field.data(), field.size());
        ASSERT_EQ(wire.status, WireStatus::bad_length_byte) << prefix;
    }
}

// A framed field with a bad prefix: the prefix check's status and position.
TEST(PrefixedWire, BadPrefixCharactersAreRefusedWithTheirPosition) {
    struct Case {
        std::string prefix;
        PrefixStatus status;
        std::size_t position;
    };
    const std::uint8_t payload[16] = {};
    for (const Case &c : {Case{"ACCT", PrefixStatus::bad_character, 0}, Case{"a1", PrefixStatus::bad_character, 1},
                          Case{std::string("ac\0t", 4), PrefixStatus::bad_character, 2},
                          Case{"ac\xE9t", PrefixStatus::bad_character, 2},
                          Case{"_ab", PrefixStatus::starts_or_ends_with_underscore, 0},
                          Case{"ab_", PrefixStatus::starts_or_ends_with_underscore, 0}}) {
        const std::vector<std::uint8_t> field = wire_of(c.prefix, payload);
        PrefixedWire wire = prefixed_wire_decode(field.data(), field.size());
        ASSERT_EQ(wire.status, WireStatus::bad_prefix) << c.prefix;
        EXPECT_EQ(wire.prefix_check.status, c.status) << c.prefix;
        EXPECT_EQ(wire.prefix_check.position, c.position) << c.prefix;
    }
}

// Every byte value at every position of a framed 3-letter field: only a-z
// and an inner _ in the prefix, and anything in the payload, decode.
TEST(PrefixedWire, EveryByteAtEveryPosition) {
    std::uint8_t payload[16] = {};
    const std::vector<std::uint8_t> good = wire_of("abc", payload);
    for (std::size_t position = 0; position < good.size(); ++position) {
        for (unsigned byte = 0; byte < 256; ++byte) {
            std::vector<std::uint8_t> field = good;
            field[position] = static_cast<std::uint8_t>(byte);
            const WireStatus status = prefixed_wire_decode(field.data(), field.size()).status;
            WireStatus expected = WireStatus::ok;
            if (position == 0) {
                expected = byte == 3 ? WireStatus::ok
                           : byte == 0 || byte > 63 ? WireStatus::bad_length_byte
                           : byte < 3               ? WireStatus::trailing_bytes
                                                    : WireStatus::short_field;
            } else if (position <= 3) {
                const bool letter = byte >= 'a' && byte <= 'z';
                expected = letter || (byte == '_' && position == 2) ? WireStatus::ok : WireStatus::bad_prefix;
            }
            ASSERT_EQ(status, expected) << position << " " << byte;
        }
    }
}

// --- prefixed_token_layout --------------------------------------------------

namespace {

// A token from these random bits, through the code under test.
std::array<std::uint8_t, 16> token_of(Uint128 random) {
    std::array<std::uint8_t, 16> bits{};
    bytes_of(random, bits.data());
    prefixed_token_layout(bits.data());
    return bits;
}

}  // namespace

// RFC 9562 section 5.4 (UUIDv4): the version nibble (the high half of byte 6)
// is 0100 and the variant (the top two bits of byte 8) is 10; the other 122
// bits are the random input's, unchanged.
TEST(PrefixedToken, HasTheUuidv4LayoutAndKeeps122RandomBits) {
    SplitMix64 rng{4};
    for (int i = 0; i < 100000; ++i) {
        const Uint128 random = rng.next128();
        std::uint8_t in[16];
        bytes_of(random, in);
        const std::array<std::uint8_t, 16> token = token_of(random);
        ASSERT_EQ(token[6] >> 4, 0x4) << i;
        ASSERT_EQ(token[8] >> 6, 0x2) << i;
        for (int b = 0; b < 16; ++b) {
            const std::uint8_t kept = b == 6 ? 0x0F : b == 8 ? 0x3F : 0xFF;
            ASSERT_EQ(token[b] & kept, in[b] & kept) << i << " byte " << b;
        }
    }
}

// The input bits a token keeps all vary: over random inputs each of the 122
// free bits is seen as 0 and as 1, and the 6 fixed bits never change.
TEST(PrefixedToken, ExactlySixBitsAreFixed) {
    SplitMix64 rng{46};
    std::array<std::uint8_t, 16> seen_one{}, seen_zero{};
    for (int i = 0; i < 4096; ++i) {
        const std::array<std::uint8_t, 16> token = token_of(rng.next128());
        for (int b = 0; b < 16; ++b) {
            seen_one[b] |= token[b];
            seen_zero[b] |= static_cast<std::uint8_t>(~token[b]);
        }
    }
    int varying = 0;
    for (int b = 0; b < 16; ++b)
        for (int bit = 0; bit < 8; ++bit) varying += ((seen_one[b] & seen_zero[b]) >> bit) & 1;
    EXPECT_EQ(varying, 122);
    EXPECT_EQ(seen_one[6] & 0xF0, 0x40);
    EXPECT_EQ(seen_zero[6] & 0xF0, 0xB0);
    EXPECT_EQ(seen_one[8] & 0xC0, 0x80);
    EXPECT_EQ(seen_zero[8] & 0xC0, 0x40);
}

// No token reads as a UUIDv7: before tokens had a layout, 1 random input in
// 64 carried UUIDv7's version and variant and decoded to a made-up time.
// Inputs that have exactly those bits, and all-zero and all-one inputs, too.
TEST(PrefixedToken, NeverDecodesAsUuidv7) {
    SplitMix64 rng{7};
    int v7_inputs = 0;
    for (int i = 0; i < 200000; ++i) {
        Uint128 random = rng.next128();
        if (i % 2 == 0) {
            // version 7 and variant 10, the rest random
            random &= ~((Uint128{0xF} << 76) | (Uint128{0x3} << 62));
            random |= (Uint128{0x7} << 76) | (Uint128{0x2} << 62);
        }
        std::uint8_t in[16];
        bytes_of(random, in);
        v7_inputs += uuidv7_unix_ms(in).has_value();
        const std::array<std::uint8_t, 16> token = token_of(random);
        ASSERT_FALSE(uuidv7_unix_ms(token.data()).has_value()) << i;
    }
    EXPECT_GE(v7_inputs, 100000);  // the crafted half, plus about 1 in 64 of the others
    for (Uint128 edge : {Uint128{0}, ~Uint128{0}}) {
        const std::array<std::uint8_t, 16> token = token_of(edge);
        EXPECT_FALSE(uuidv7_unix_ms(token.data()).has_value());
        EXPECT_EQ(token[6] >> 4, 0x4);
        EXPECT_EQ(token[8] >> 6, 0x2);
    }
}
