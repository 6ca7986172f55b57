// Snowflake layout, the next-stamp policy (borrow, wait, regression,
// exhaustion), leases and epoch parsing.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "core/snowflake.hpp"

using namespace idgen::core;

namespace {

constexpr std::int64_t kMaxLead = 10'000;

SnowflakeStamp stamp(std::int64_t ms, std::int32_t seq) {
    return (static_cast<SnowflakeStamp>(ms) << kSnowflakeSeqBits) | static_cast<SnowflakeStamp>(seq);
}

}  // namespace

// Instagram's worked example: 1387263000 ms, shard 1341, sequence 5001 % 1024.
TEST(SnowflakeLayout, InstagramExample) {
    EXPECT_EQ(snowflake_id(stamp(1387263000, 5001 % 1024), 1341), 11637205501278089);
    EXPECT_EQ(snowflake_id_ms(11637205501278089), 1387263000);
    EXPECT_EQ(snowflake_id_shard(11637205501278089), 1341);
    EXPECT_EQ(snowflake_id_seq(11637205501278089), 905);
}

TEST(SnowflakeLayout, FieldsDoNotOverlap) {
    EXPECT_EQ(snowflake_id(stamp(0, 1), 0), 1);
    EXPECT_EQ(snowflake_id(stamp(0, 0), 1), 1024);
    EXPECT_EQ(snowflake_id(stamp(1, 0), 0), 1 << 23);
    EXPECT_EQ(snowflake_id(stamp(0, kSnowflakeMaxSeq), kSnowflakeMaxShard), (1 << 23) - 1);
    std::int64_t largest = snowflake_id(stamp(kSnowflakeMaxMs, kSnowflakeMaxSeq), kSnowflakeMaxShard);
    EXPECT_EQ(largest, std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(snowflake_id_ms(largest), kSnowflakeMaxMs);
    EXPECT_EQ(snowflake_id_shard(largest), kSnowflakeMaxShard);
    EXPECT_EQ(snowflake_id_seq(largest), kSnowflakeMaxSeq);
}

TEST(SnowflakeLayout, BoundaryIsTheSmallestIdOfTheMillisecond) {
    EXPECT_EQ(snowflake_boundary(5, 0), 5 << 23);
    EXPECT_EQ(snowflake_boundary(5, 3), (5 << 23) | (3 << 10));
    EXPECT_EQ(snowflake_boundary(5, 3), snowflake_id(stamp(5, 0), 3));
    EXPECT_LT(snowflake_id(stamp(4, kSnowflakeMaxSeq), kSnowflakeMaxShard), snowflake_boundary(5, 0));
}

TEST(SnowflakeLayout, ShardRange) {
    EXPECT_TRUE(snowflake_shard_valid(0));
    EXPECT_TRUE(snowflake_shard_valid(8191));
    EXPECT_FALSE(snowflake_shard_valid(-1));
    EXPECT_FALSE(snowflake_shard_valid(8192));
}

TEST(SnowflakeNext, FirstIdIsAtLeastOneEvenAtTheEpoch) {
    SnowflakeNext next = snowflake_next(0, 0, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, stamp(0, 1));
    EXPECT_GE(snowflake_id(next.stamp, 0), 1);
}

TEST(SnowflakeNext, NewMillisecondStartsAtSequenceZero) {
    SnowflakeNext next = snowflake_next(stamp(100, 7), 101, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, stamp(101, 0));
    EXPECT_EQ(next.lead_ms, 0);
}

TEST(SnowflakeNext, SameMillisecondCountsUp) {
    SnowflakeNext next = snowflake_next(stamp(100, 7), 100, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, stamp(100, 8));
    EXPECT_EQ(next.lead_ms, 0);
}

// 1025 IDs in one millisecond: the 1025th borrows the next millisecond.
TEST(SnowflakeNext, OverflowBorrowsTheNextMillisecondAndNeverRepeats) {
    SnowflakeStamp last = 0;
    std::int64_t borrowed = 0;
    for (int i = 0; i < 5000; ++i) {
        SnowflakeNext next = snowflake_next(last, 100, kMaxLead);
        ASSERT_EQ(next.step, SnowflakeStep::issue);
        ASSERT_GT(next.stamp, last);
        if (next.lead_ms > 0 && snowflake_stamp_seq(next.stamp) == 0) ++borrowed;
        last = next.stamp;
    }
    EXPECT_EQ(last, stamp(104, 5000 - 4 * 1024 - 1));
    EXPECT_EQ(borrowed, 4);
}

// Borrowing stops max_lead_ms ahead of the clock; one more millisecond is a wait.
TEST(SnowflakeNext, BorrowingUpToTheBoundThenWaits) {
    SnowflakeStamp at_bound = stamp(100 + 3, kSnowflakeMaxSeq);
    SnowflakeNext next = snowflake_next(at_bound, 100, 3);
    EXPECT_EQ(next.step, SnowflakeStep::wait);
    EXPECT_EQ(next.lead_ms, 4);
    // The clock ticks: the same stamp can now be issued.
    next = snowflake_next(at_bound, 101, 3);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, stamp(104, 0));
    EXPECT_EQ(next.lead_ms, 3);
}

TEST(SnowflakeNext, ZeroLeadWaitsForEveryOverflow) {
    SnowflakeNext next = snowflake_next(stamp(100, kSnowflakeMaxSeq), 100, 0);
    EXPECT_EQ(next.step, SnowflakeStep::wait);
}

// The clock goes back 5 s under a 10 s bound: keep counting from the last stamp.
TEST(SnowflakeNext, RegressionWithinTheBoundKeepsCounting) {
    SnowflakeStamp last = stamp(50'000, 17);
    SnowflakeNext next = snowflake_next(last, 45'000, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, stamp(50'000, 18));
    EXPECT_EQ(next.lead_ms, 5'000);
}

TEST(SnowflakeNext, RegressionBeyondTheBoundFails) {
    SnowflakeStamp last = stamp(50'000, 17);
    SnowflakeNext next = snowflake_next(last, 50'000 - kMaxLead - 2, kMaxLead);
    EXPECT_EQ(next.step, SnowflakeStep::clock_behind);
    EXPECT_EQ(next.lead_ms, kMaxLead + 2);
    // Exactly at the bound it still issues.
    EXPECT_EQ(snowflake_next(last, 50'000 - kMaxLead, kMaxLead).step, SnowflakeStep::issue);
}

TEST(SnowflakeNext, ClockBeforeTheEpoch) {
    EXPECT_EQ(snowflake_next(0, -1, kMaxLead).step, SnowflakeStep::before_epoch);
}

// 2^40 ms after the epoch the time field would reach the sign bit.
TEST(SnowflakeNext, ExhaustionAtTwoToTheFortyMilliseconds) {
    SnowflakeNext next = snowflake_next(0, kSnowflakeMaxMs, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(snowflake_id(next.stamp, kSnowflakeMaxShard) > 0, true);
    // The last stamp of the last millisecond: nothing follows it.
    SnowflakeStamp final_stamp = stamp(kSnowflakeMaxMs, kSnowflakeMaxSeq);
    EXPECT_EQ(snowflake_next(final_stamp, kSnowflakeMaxMs, kMaxLead).step, SnowflakeStep::exhausted);
    EXPECT_EQ(snowflake_next(0, kSnowflakeMaxMs + 1, kMaxLead).step, SnowflakeStep::exhausted);
    EXPECT_EQ(snowflake_next(0, std::numeric_limits<std::int64_t>::max(), kMaxLead).step,
              SnowflakeStep::exhausted);
}

TEST(SnowflakeLease, StampBelowALeaseIsJustUnderIt) {
    EXPECT_EQ(snowflake_stamp_below(0), 0u);
    EXPECT_EQ(snowflake_stamp_below(1), stamp(0, kSnowflakeMaxSeq));
    EXPECT_EQ(snowflake_stamp_below(2000), stamp(1999, kSnowflakeMaxSeq));
    // After a restart from the lease the first ID lies in the lease's millisecond or later.
    SnowflakeNext next = snowflake_next(snowflake_stamp_below(2000), 500, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, stamp(2000, 0));
}

TEST(SnowflakeEpoch, ParsesDatesAndTimesInUtc) {
    EXPECT_EQ(snowflake_parse_epoch("1970-01-01"), std::optional<std::int64_t>{0});
    EXPECT_EQ(snowflake_parse_epoch("2024-01-01"), std::optional<std::int64_t>{1704067200000});
    EXPECT_EQ(snowflake_parse_epoch("2011-01-01 00:00:00"), std::optional<std::int64_t>{1293840000000});
    EXPECT_EQ(snowflake_parse_epoch("2024-02-29T12:34:56.789Z"),
              std::optional<std::int64_t>{1709210096789});
    EXPECT_EQ(snowflake_parse_epoch("2024-01-01 00:01"), std::optional<std::int64_t>{1704067260000});
    EXPECT_EQ(snowflake_parse_epoch("2024-01-01 00:00:00.5+00"),
              std::optional<std::int64_t>{1704067200500});
    EXPECT_EQ(snowflake_parse_epoch("2024-01-01 00:00:00+00:00"),
              std::optional<std::int64_t>{1704067200000});
    EXPECT_EQ(snowflake_parse_epoch("9999-12-31"), std::optional<std::int64_t>{253402214400000});
}

TEST(SnowflakeEpoch, RejectsEverythingElse) {
    for (const char *bad : {"", "2024", "2024-1-01", "2024-01-01 ", "2024-13-01", "2023-02-29",
                            "2024-04-31", "1969-12-31", "2024-01-01 24:00", "2024-01-01 00:60",
                            "2024-01-01 00:00:60", "2024-01-01 00:00:00.", "2024-01-01 00:00:00.1234",
                            "2024-01-01+01", "2024-01-01 00:00+00:30", "2024-01-01x", "yesterday",
                            "2024-01-01 00:00:00 UTC"}) {
        EXPECT_FALSE(snowflake_parse_epoch(bad).has_value()) << bad;
    }
}

TEST(SnowflakeEpoch, DaysFromCivilAcrossLeapRules) {
    EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
    EXPECT_EQ(days_from_civil(2000, 3, 1), 11017);
    EXPECT_EQ(days_from_civil(2100, 3, 1) - days_from_civil(2100, 2, 28), 1);
    EXPECT_EQ(days_from_civil(2000, 3, 1) - days_from_civil(2000, 2, 28), 2);
}

namespace {

// The shards of a set, as "a-b,c" text, for readable comparisons.
std::string shards_of(const SnowflakeShardSet &set) {
    std::string text;
    for (int shard = 0; shard < kSnowflakeShardCount; ++shard) {
        if (!snowflake_shard_set_contains(set, shard)) continue;
        int last = shard;
        while (last + 1 < kSnowflakeShardCount && snowflake_shard_set_contains(set, last + 1)) ++last;
        if (!text.empty()) text += ',';
        text += std::to_string(shard);
        if (last > shard) text += '-' + std::to_string(last);
        shard = last;
    }
    return text;
}

// Parses text into a set that starts full, so that every bit must be written.
ShardListParse parse(std::string_view text, SnowflakeShardSet &set) {
    for (std::uint64_t &word : set.words) word = ~std::uint64_t{0};
    return snowflake_parse_shard_list(text, set);
}

}  // namespace

TEST(SnowflakeShardList, ShardsAndRanges) {
    SnowflakeShardSet set;
    ASSERT_EQ(parse("0-15,100", set).error, ShardListError::none);
    EXPECT_EQ(shards_of(set), "0-15,100");
    ASSERT_EQ(parse(" 7 , 3 - 5,\t8191 ", set).error, ShardListError::none);
    EXPECT_EQ(shards_of(set), "3-5,7,8191");
    ASSERT_EQ(parse("12", set).error, ShardListError::none);
    EXPECT_EQ(shards_of(set), "12");
    EXPECT_TRUE(snowflake_shard_set_contains(set, 12));
    EXPECT_FALSE(snowflake_shard_set_contains(set, 11));
    EXPECT_FALSE(snowflake_shard_set_contains(set, 13));
}

TEST(SnowflakeShardList, EveryShardAndOverlaps) {
    SnowflakeShardSet set;
    ASSERT_EQ(parse("0-8191", set).error, ShardListError::none);
    EXPECT_EQ(shards_of(set), "0-8191");
    for (std::uint64_t word : set.words) EXPECT_EQ(word, ~std::uint64_t{0});
    ASSERT_EQ(parse("10-20,15-30,30,0007", set).error, ShardListError::none);
    EXPECT_EQ(shards_of(set), "7,10-30");
}

// Ranges that start, end or stay inside one 64-bit word, and cross several.
TEST(SnowflakeShardList, RangesAcrossWordEdges) {
    SnowflakeShardSet set;
    for (auto [first, last] : {std::pair{0, 0}, {63, 63}, {63, 64}, {64, 127}, {1, 62},
                               {60, 200}, {8128, 8191}, {8190, 8191}, {5, 8190}}) {
        std::string text = std::to_string(first) + "-" + std::to_string(last);
        ASSERT_EQ(parse(text, set).error, ShardListError::none) << text;
        std::string expected =
            first == last ? std::to_string(first) : text;
        EXPECT_EQ(shards_of(set), expected);
    }
}

TEST(SnowflakeShardList, BlankIsTheEmptySet) {
    SnowflakeShardSet set;
    for (const char *blank : {"", " ", "\t  "}) {
        ASSERT_EQ(parse(blank, set).error, ShardListError::none) << '"' << blank << '"';
        EXPECT_EQ(shards_of(set), "");
        EXPECT_FALSE(snowflake_shard_set_contains(set, 0));
    }
}

TEST(SnowflakeShardList, ContainsRejectsShardsOutsideTheRange) {
    SnowflakeShardSet set;
    ASSERT_EQ(parse("0-8191", set).error, ShardListError::none);
    EXPECT_FALSE(snowflake_shard_set_contains(set, -1));
    EXPECT_FALSE(snowflake_shard_set_contains(set, 8192));
    EXPECT_FALSE(snowflake_shard_set_contains(set, std::numeric_limits<std::int64_t>::min()));
}

TEST(SnowflakeShardList, ErrorsNameTheItem) {
    struct Case {
        const char *text;
        ShardListError error;
        const char *item;
    };
    for (const Case &c : {
             Case{"1,,2", ShardListError::empty_item, ""},
             Case{"1, ", ShardListError::empty_item, ""},
             Case{",5", ShardListError::empty_item, ""},
             Case{"1,x", ShardListError::syntax, "x"},
             Case{"1, -5", ShardListError::syntax, "-5"},
             Case{"5-", ShardListError::syntax, "5-"},
             Case{"3 4", ShardListError::syntax, "3 4"},
             Case{"1-2-3", ShardListError::syntax, "1-2-3"},
             Case{"0x10", ShardListError::syntax, "0x10"},
             Case{"+5", ShardListError::syntax, "+5"},
             Case{"1;2", ShardListError::syntax, "1;2"},
             Case{"all", ShardListError::syntax, "all"},
             Case{"0-8191, 8192", ShardListError::out_of_range, "8192"},
             Case{"100-9000", ShardListError::out_of_range, "100-9000"},
             Case{"99999999999999999999999", ShardListError::out_of_range, "99999999999999999999999"},
             Case{" 20 - 10 ", ShardListError::descending, "20 - 10"},
         }) {
        SnowflakeShardSet set;
        std::string_view text = c.text;
        ShardListParse parsed = parse(text, set);
        EXPECT_EQ(parsed.error, c.error) << c.text;
        ASSERT_LE(parsed.item_begin + parsed.item_length, text.size()) << c.text;
        EXPECT_EQ(text.substr(parsed.item_begin, parsed.item_length), c.item) << c.text;
    }
}
