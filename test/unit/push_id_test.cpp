// Firebase push IDs (core/push_id.hpp): the two computed prefixes of
// ../shared/data/timeflake-pushid/pushid_prefix.json, the encoder against a
// base-64 digit writer written here, strict decoding and every refusal, text
// order, and the issue rule: a new millisecond takes random bits, the same one
// or a clock set back takes the last + 1 with carry, and an overflow of the
// 72 random bits carries into the time.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "core/push_id.hpp"
#include "random_values.hpp"
#include "shared_data.hpp"

using namespace idgen::core;
using idgen::test::Json;
using idgen::test::SplitMix64;

namespace idgen::core {
void PrintTo(PushIdStatus status, std::ostream *os) {
    static const char *names[] = {"ok", "bad_character", "wrong_length"};
    *os << names[static_cast<int>(status)];
}
}  // namespace idgen::core

namespace {

// The alphabet as specs.md states it, spelled out rather than taken from the header.
constexpr std::string_view kAlphabet = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

std::string encode(Uint128 id) {
    char out[kPushIdLength];
    push_id_encode(id, out);
    return std::string(out, kPushIdLength);
}

// n digits of value in base 64, most significant first, a second way.
std::string digits(Uint128 value, int n) {
    std::string s(n, '?');
    for (int i = n - 1; i >= 0; --i) {
        s[i] = kAlphabet[static_cast<std::size_t>(value % 64)];
        value /= 64;
    }
    return s;
}

Uint128 decoded_ok(std::string_view text) {
    PushIdDecoded d = push_id_decode(text);
    EXPECT_EQ(d.status, PushIdStatus::ok) << text;
    return d.id;
}

}  // namespace

TEST(PushId, SharedPrefixes) {
    IDGEN_SHARED_JSON(data, "timeflake-pushid/pushid_prefix.json");
    EXPECT_EQ(data["alphabet"].text, kAlphabet);
    EXPECT_EQ(data["alphabet"].text, kPushIdAlphabet);
    EXPECT_EQ(std::stoul(data["prefix_length"].text), kPushIdTimeChars);
    int cases = 0;
    for (const Json &c : data["cases"].items) {
        ++cases;
        std::int64_t ms = std::stoll(c["timestamp_ms"].text);
        const std::string &prefix = c["prefix"].text;
        SCOPED_TRACE(prefix);
        // Any random part: the prefix is the time's alone.
        for (Uint128 random : {Uint128{0}, kPushIdRandomMask, Uint128{12345}}) {
            std::string id = encode(push_id_make(ms, random));
            EXPECT_EQ(id.substr(0, kPushIdTimeChars), prefix);
            EXPECT_EQ(push_id_unix_ms(decoded_ok(id)), ms);
        }
        EXPECT_EQ(push_id_unix_ms(decoded_ok(prefix + "------------")), ms);
        EXPECT_EQ(push_id_unix_ms(decoded_ok(prefix + "zzzzzzzzzzzz")), ms);
    }
    EXPECT_EQ(cases, 2);
}

TEST(PushId, Layout) {
    EXPECT_EQ(kPushIdLength, 20u);
    EXPECT_EQ(kPushIdRandomChars, 12u);
    EXPECT_EQ(kPushIdRandomBits, 72);
    EXPECT_EQ(kPushIdRandomBytes, 9u);
    EXPECT_EQ(kPushIdMaxUnixMs, (std::int64_t{1} << 48) - 1);
    EXPECT_EQ(encode(0), "--------------------");
    EXPECT_EQ(encode(kPushIdMax), "zzzzzzzzzzzzzzzzzzzz");
    EXPECT_EQ(push_id_unix_ms(kPushIdMax), kPushIdMaxUnixMs);
    EXPECT_EQ(encode(push_id_make(1, 0)), "-------0------------");
    EXPECT_EQ(encode(push_id_make(0, 1)), "-------------------0");
    // Random bits above the 72 are dropped, not carried into the time.
    EXPECT_EQ(push_id_make(3, kUint128Max), push_id_make(3, kPushIdRandomMask));
}

TEST(PushId, EncodeDecodeAgainstDigitWriter) {
    SplitMix64 rng{120};
    for (int i = 0; i < 20000; ++i) {
        Uint128 id = rng.next128() & kPushIdMax;
        std::string text = encode(id);
        ASSERT_EQ(text, digits(id, 20));
        ASSERT_EQ(decoded_ok(text), id);
        ASSERT_TRUE(push_id_valid(text));
    }
}

TEST(PushId, TextOrderIsValueOrder) {
    SplitMix64 rng{2015};
    for (int i = 0; i < 20000; ++i) {
        Uint128 a = rng.next128() & kPushIdMax, b = rng.next128() & kPushIdMax;
        if (i % 3 == 0) b = a + 1 <= kPushIdMax ? a + 1 : a;
        EXPECT_EQ(a < b, encode(a) < encode(b));
    }
    for (std::size_t i = 1; i < kAlphabet.size(); ++i) EXPECT_LT(kAlphabet[i - 1], kAlphabet[i]);
}

TEST(PushId, EveryCharacterInEveryPlace) {
    for (std::size_t place = 0; place < kPushIdLength; ++place)
        for (std::size_t d = 0; d < 64; ++d) {
            std::string text(kPushIdLength, '-');
            text[place] = kAlphabet[d];
            EXPECT_EQ(decoded_ok(text), Uint128{d} << (6 * (kPushIdLength - 1 - place)));
        }
}

TEST(PushId, Refusals) {
    EXPECT_EQ(push_id_decode("").status, PushIdStatus::wrong_length);
    EXPECT_EQ(push_id_decode("-Lyo78-Y").status, PushIdStatus::wrong_length);
    EXPECT_EQ(push_id_decode("-Lyo78-Yabcdefghijk").status, PushIdStatus::wrong_length);    // 19
    EXPECT_EQ(push_id_decode("-Lyo78-Yabcdefghijklm").status, PushIdStatus::wrong_length);  // 21
    for (int b = 0; b < 256; ++b) {
        if (kAlphabet.find(static_cast<char>(b)) != std::string_view::npos) continue;
        std::string text = "-Lyo78-Yabcdefghijkl";
        text[13] = static_cast<char>(b);
        PushIdDecoded d = push_id_decode(text);
        EXPECT_EQ(d.status, PushIdStatus::bad_character) << b;
        EXPECT_EQ(d.position, 13u);
        EXPECT_FALSE(push_id_valid(text));
    }
    // A bad character is reported before a wrong length, at its first place.
    PushIdDecoded d = push_id_decode("ab+c/");
    EXPECT_EQ(d.status, PushIdStatus::bad_character);
    EXPECT_EQ(d.position, 2u);
    EXPECT_EQ(push_id_decode(std::string_view("-Lyo78-Y\0bcdefghijkl", 20)).position, 8u);
}

TEST(PushIdIssue, NewMillisecondTakesRandom) {
    PushIdSequence seq{};
    EXPECT_TRUE(push_id_needs_random(seq, 0));
    PushIdIssue a = push_id_issue(seq, 1579275030563, 77);
    ASSERT_EQ(a.step, PushIdStep::issue);
    EXPECT_EQ(a.id, push_id_make(1579275030563, 77));
    EXPECT_EQ(encode(a.id).substr(0, 8), "-Lyo78-Y");
    EXPECT_FALSE(push_id_needs_random(seq, 1579275030563));
    PushIdIssue b = push_id_issue(seq, 1579275030564, 5);
    EXPECT_EQ(b.id, push_id_make(1579275030564, 5));
    EXPECT_FALSE(b.clock_regressed);
}

TEST(PushIdIssue, SameMillisecondIsPreviousPlusOneWithCarry) {
    PushIdSequence seq{};
    // Random part ...-z (the last digit at 63): + 1 carries into the digit before.
    Uint128 random = (Uint128{5} << 6) | 63;
    PushIdIssue a = push_id_issue(seq, 2000, random);
    PushIdIssue b = push_id_issue(seq, 2000, 999);  // random ignored
    EXPECT_EQ(b.id, a.id + 1);
    std::string ta = encode(a.id), tb = encode(b.id);
    EXPECT_EQ(ta.substr(18), "4z");
    EXPECT_EQ(tb.substr(18), "5-");
    EXPECT_EQ(ta.substr(0, 18), tb.substr(0, 18));
    EXPECT_LT(ta, tb);
}

TEST(PushIdIssue, ClockBackKeepsTheLastTime) {
    PushIdSequence seq{};
    PushIdIssue a = push_id_issue(seq, 3000, 10);
    PushIdIssue b = push_id_issue(seq, 2500, 99);
    EXPECT_EQ(b.id, a.id + 1);
    EXPECT_EQ(push_id_unix_ms(b.id), 3000);
    EXPECT_TRUE(b.clock_regressed);
    PushIdIssue c = push_id_issue(seq, 2600, 99);  // still behind: counts on
    EXPECT_EQ(c.id, a.id + 2);
    EXPECT_FALSE(c.clock_regressed);  // later than the previous reading
    EXPECT_EQ(push_id_issue(seq, 3001, 4).id, push_id_make(3001, 4));
}

TEST(PushIdIssue, RandomOverflowCarriesIntoTheTime) {
    PushIdSequence seq{};
    PushIdIssue a = push_id_issue(seq, 4000, kPushIdRandomMask);
    EXPECT_EQ(encode(a.id).substr(8), "zzzzzzzzzzzz");
    PushIdIssue b = push_id_issue(seq, 4000, 1);
    EXPECT_EQ(b.id, push_id_make(4001, 0));
    EXPECT_EQ(encode(b.id).substr(8), "------------");
    EXPECT_EQ(encode(b.id).substr(0, 8), digits(4001, 8));
    // The clock reaching 4001 counts on: no ID twice.
    EXPECT_EQ(push_id_issue(seq, 4001, 1).id, push_id_make(4001, 1));
}

TEST(PushIdIssue, ExhaustedAfterTheLargest) {
    PushIdSequence seq{};
    EXPECT_EQ(push_id_issue(seq, kPushIdMaxUnixMs, kPushIdRandomMask).id, kPushIdMax);
    EXPECT_EQ(push_id_issue(seq, kPushIdMaxUnixMs, 0).step, PushIdStep::exhausted);
    EXPECT_EQ(seq.last_issued, kPushIdMax);
}

TEST(PushIdIssue, StrictlyIncreasingUnderAJitteringClock) {
    PushIdSequence seq{};
    SplitMix64 rng{9};
    std::string last;
    std::int64_t clock = 1'423'000'000'000;
    for (int i = 0; i < 100000; ++i) {
        clock += static_cast<std::int64_t>(rng.next() % 5) - 2;
        PushIdIssue issue = push_id_issue(seq, clock, rng.next128());
        ASSERT_EQ(issue.step, PushIdStep::issue);
        std::string text = encode(issue.id);
        ASSERT_GT(text, last);
        ASSERT_GE(push_id_unix_ms(issue.id), clock);
        last = text;
    }
}
