// Prefixed IDs ("<prefix>_<25 base36 digits>"): which prefixes are valid and
// why each invalid one is refused (every byte, every limit, the order of the
// checks), and that the text splits on its last underscore without copying.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/base36.hpp"
#include "core/prefixed.hpp"
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
