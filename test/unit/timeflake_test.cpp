// Timeflake (core/timeflake.hpp): the README's two flakes in
// ../shared/data/timeflake-pushid/timeflake.json (fields, decimal random,
// base62 text through core/short_text), the monotonic issue (new millisecond,
// same millisecond, clock set back, the carry into the millisecond,
// exhaustion) and the decimal writer against 128-bit arithmetic.
#include <gtest/gtest.h>

#include <string>

#include "core/short_text.hpp"
#include "core/timeflake.hpp"
#include "random_values.hpp"
#include "shared_data.hpp"

using namespace idgen::core;
using idgen::test::Json;
using idgen::test::SplitMix64;

namespace {

Uint128 parse_hex(const std::string &text) {
    Uint128 value = 0;
    for (char c : text) {
        if (c == '-') continue;
        value = (value << 4) | static_cast<unsigned>(std::stoi(std::string(1, c), nullptr, 16));
    }
    return value;
}

// Decimal by 128-bit division, a second way.
std::string decimal(Uint128 v) {
    std::string s;
    do {
        s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
        v /= 10;
    } while (v != 0);
    return s;
}

std::string random_decimal(Uint128 id) {
    char out[kTimeflakeRandomMaxDigits];
    return std::string(out, timeflake_random_decimal(id, out));
}

std::string base62(Uint128 id) {
    char out[kShortTextMaxLength];
    return std::string(out, short_text_encode(ShortTextForm::base62, id, out));
}

}  // namespace

TEST(Timeflake, ReadmeVectors) {
    IDGEN_SHARED_JSON(data, "timeflake-pushid/timeflake.json");
    EXPECT_EQ(data["alphabet"].text, kBase62Alphabet);
    EXPECT_EQ(std::stoul(data["base62_length"].text), kShortTextLength);
    int cases = 0;
    for (const Json &c : data["cases"].items) {
        SCOPED_TRACE(c["name"].text);
        ++cases;
        Uint128 id = parse_hex(c["hex"].text);
        EXPECT_EQ(parse_hex(c["uuid"].text), id);
        EXPECT_EQ(decimal(id), c["int"].text);
        std::int64_t ms = std::stoll(c["timestamp_ms"].text);
        EXPECT_EQ(timeflake_unix_ms(id), ms);
        EXPECT_EQ(random_decimal(id), c["random"].text);
        EXPECT_EQ(decimal(timeflake_random(id)), c["random"].text);
        EXPECT_EQ(timeflake_make(ms, timeflake_random(id)), id);
        EXPECT_EQ(timeflake_boundary(ms), timeflake_make(ms, 0));
        // The base62 text is uuid_encode's base62 form, both ways.
        EXPECT_EQ(base62(id), c["base62"].text);
        ShortTextDecoded back = short_text_decode(ShortTextForm::base62, c["base62"].text);
        EXPECT_EQ(back.status, ShortTextStatus::ok);
        EXPECT_EQ(back.value, id);
    }
    EXPECT_EQ(cases, 2);
}

TEST(Timeflake, Layout) {
    EXPECT_EQ(kTimeflakeRandomBits, 80);
    EXPECT_EQ(kTimeflakeRandomBytes, 10u);
    EXPECT_EQ(kTimeflakeMaxUnixMs, (std::int64_t{1} << 48) - 1);
    Uint128 all = timeflake_make(kTimeflakeMaxUnixMs, kUint128Max);
    EXPECT_EQ(all, kUint128Max);
    EXPECT_EQ(timeflake_unix_ms(all), kTimeflakeMaxUnixMs);
    // Random bits above the 80 are dropped, not carried into the time.
    EXPECT_EQ(timeflake_make(5, kUint128Max), (Uint128{5} << 80) | ((Uint128{1} << 80) - 1));
    EXPECT_EQ(timeflake_random(timeflake_make(7, 0)), 0u);
}

TEST(Timeflake, RandomDecimal) {
    EXPECT_EQ(random_decimal(0), "0");
    EXPECT_EQ(random_decimal(timeflake_make(123, 9)), "9");
    EXPECT_EQ(random_decimal(timeflake_make(1, kUint128Max)), "1208925819614629174706175");
    EXPECT_EQ(random_decimal(timeflake_make(1, kUint128Max)).size(), kTimeflakeRandomMaxDigits);
    SplitMix64 rng{54};
    for (int i = 0; i < 10000; ++i) {
        Uint128 id = rng.next128();
        EXPECT_EQ(random_decimal(id), decimal(timeflake_random(id)));
    }
}

TEST(TimeflakeIssue, NewMillisecondTakesRandom) {
    TimeflakeSequence seq{};
    EXPECT_TRUE(timeflake_needs_random(seq, 0));  // the first, even at ms 0
    UlidIssue a = timeflake_issue(seq, 1000, 42);
    ASSERT_EQ(a.step, IssueStep::issue);
    EXPECT_EQ(a.id, timeflake_make(1000, 42));
    EXPECT_FALSE(timeflake_needs_random(seq, 1000));
    EXPECT_TRUE(timeflake_needs_random(seq, 1001));
    UlidIssue b = timeflake_issue(seq, 1001, 7);
    EXPECT_EQ(b.id, timeflake_make(1001, 7));
    EXPECT_FALSE(b.clock_regressed);
    EXPECT_FALSE(b.ran_ahead);
}

TEST(TimeflakeIssue, SameMillisecondAndClockBackCountOn) {
    TimeflakeSequence seq{};
    Uint128 first = timeflake_issue(seq, 5000, 100).id;
    UlidIssue same = timeflake_issue(seq, 5000, 1);  // random ignored
    EXPECT_EQ(same.id, first + 1);
    UlidIssue back = timeflake_issue(seq, 4000, 1);
    EXPECT_EQ(back.id, first + 2);
    EXPECT_EQ(timeflake_unix_ms(back.id), 5000);
    EXPECT_TRUE(back.clock_regressed);
    EXPECT_TRUE(back.ran_ahead);
    UlidIssue later = timeflake_issue(seq, 5001, 3);
    EXPECT_EQ(later.id, timeflake_make(5001, 3));
    EXPECT_FALSE(later.clock_regressed);
}

TEST(TimeflakeIssue, CarryIntoTheMillisecond) {
    TimeflakeSequence seq{};
    Uint128 top = (Uint128{1} << 80) - 1;
    EXPECT_EQ(timeflake_issue(seq, 9000, top).id, timeflake_make(9000, top));
    UlidIssue carried = timeflake_issue(seq, 9000, 5);
    EXPECT_EQ(carried.id, timeflake_make(9001, 0));
    EXPECT_TRUE(carried.ran_ahead);
    // The clock reaching 9001 counts on from there: no value twice.
    EXPECT_EQ(timeflake_issue(seq, 9001, 5).id, timeflake_make(9001, 1));
}

TEST(TimeflakeIssue, ExhaustedAfterTheLargest) {
    TimeflakeSequence seq{};
    EXPECT_EQ(timeflake_issue(seq, kTimeflakeMaxUnixMs, kUint128Max).id, kUint128Max);
    TimeflakeSequence before = seq;
    EXPECT_EQ(timeflake_issue(seq, kTimeflakeMaxUnixMs, 0).step, IssueStep::exhausted);
    EXPECT_EQ(seq.last_issued, before.last_issued);
    EXPECT_EQ(timeflake_issue(seq, 0, 0).step, IssueStep::exhausted);
}

TEST(TimeflakeIssue, StrictlyIncreasingUnderAJitteringClock) {
    TimeflakeSequence seq{};
    SplitMix64 rng{7};
    Uint128 last = 0;
    std::int64_t clock = 1'600'000'000'000;
    for (int i = 0; i < 100000; ++i) {
        clock += static_cast<std::int64_t>(rng.next() % 5) - 2;  // back, still, forward
        UlidIssue issue = timeflake_issue(seq, clock, rng.next128());
        ASSERT_EQ(issue.step, IssueStep::issue);
        ASSERT_GT(issue.id, last);
        ASSERT_GE(timeflake_unix_ms(issue.id), clock);
        last = issue.id;
    }
}
