// Snowflake layouts (63 and 53 bits), the next-stamp policy (borrow, wait,
// regression, exhaustion) for both, leases and epoch parsing.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "core/snowflake.hpp"

using namespace idgen::core;

namespace {

constexpr std::int64_t kMaxLead = 10'000;
constexpr std::int64_t kMaxSafeInteger = (std::int64_t{1} << 53) - 1;  // JavaScript's

SnowflakeStamp stamp(SnowflakeLayout layout, std::int64_t ms, std::int32_t seq) {
    return (static_cast<SnowflakeStamp>(ms) << layout.seq_bits) | static_cast<SnowflakeStamp>(seq);
}

SnowflakeStamp stamp63(std::int64_t ms, std::int32_t seq) {
    return stamp(kSnowflake63, ms, seq);
}

constexpr SnowflakeLayout k63 = kSnowflake63;
constexpr SnowflakeLayout k53 = kSnowflake53;

}  // namespace

// Instagram's worked example: 1387263000 ms, shard 1341, sequence 5001 % 1024.
TEST(SnowflakeLayout, InstagramExample) {
    EXPECT_EQ(snowflake_id(k63, stamp63(1387263000, 5001 % 1024), 1341), 11637205501278089);
    EXPECT_EQ(snowflake_id_ms(k63, 11637205501278089), 1387263000);
    EXPECT_EQ(snowflake_id_shard(k63, 11637205501278089), 1341);
    EXPECT_EQ(snowflake_id_seq(k63, 11637205501278089), 905);
}

TEST(SnowflakeLayout, FieldsDoNotOverlap) {
    EXPECT_EQ(snowflake_id(k63, stamp63(0, 1), 0), 1);
    EXPECT_EQ(snowflake_id(k63, stamp63(0, 0), 1), 1024);
    EXPECT_EQ(snowflake_id(k63, stamp63(1, 0), 0), 1 << 23);
    EXPECT_EQ(snowflake_id(k63, stamp63(0, 1023), 8191), (1 << 23) - 1);
    std::int64_t largest = snowflake_id(k63, stamp63(kSnowflakeMaxMs, 1023), 8191);
    EXPECT_EQ(largest, std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(largest, snowflake_max_id(k63));
    EXPECT_EQ(snowflake_id_ms(k63, largest), kSnowflakeMaxMs);
    EXPECT_EQ(snowflake_id_shard(k63, largest), 8191);
    EXPECT_EQ(snowflake_id_seq(k63, largest), 1023);
}

// The 53-bit split: 40 bits of ms, 4 of shard, 9 of sequence.
TEST(Snowflake53Layout, FieldsDoNotOverlap) {
    EXPECT_EQ(snowflake_max_shard(k53), 15);
    EXPECT_EQ(snowflake_max_seq(k53), 511);
    EXPECT_EQ(snowflake_id(k53, stamp(k53, 0, 1), 0), 1);
    EXPECT_EQ(snowflake_id(k53, stamp(k53, 0, 0), 1), 512);
    EXPECT_EQ(snowflake_id(k53, stamp(k53, 1, 0), 0), 1 << 13);
    EXPECT_EQ(snowflake_id(k53, stamp(k53, 0, 511), 15), (1 << 13) - 1);
    EXPECT_EQ(snowflake_id(k53, stamp(k53, 1387263000, 5001 % 512), 13),
              (std::int64_t{1387263000} << 13) | (13 << 9) | (5001 % 512));
}

// Exhaustion date: the last ID of the last millisecond is exactly 2^53 - 1.
TEST(Snowflake53Layout, LargestIdIsJavaScriptsMaxSafeInteger) {
    std::int64_t largest = snowflake_id(k53, stamp(k53, kSnowflakeMaxMs, 511), 15);
    EXPECT_EQ(largest, kMaxSafeInteger);
    EXPECT_EQ(snowflake_max_id(k53), kMaxSafeInteger);
    EXPECT_EQ(snowflake_id_ms(k53, largest), kSnowflakeMaxMs);
    EXPECT_EQ(snowflake_id_shard(k53, largest), 15);
    EXPECT_EQ(snowflake_id_seq(k53, largest), 511);
    EXPECT_TRUE(snowflake_id_valid(k53, kMaxSafeInteger));
    EXPECT_FALSE(snowflake_id_valid(k53, kMaxSafeInteger + 1));
    EXPECT_FALSE(snowflake_id_valid(k53, -1));
    EXPECT_TRUE(snowflake_id_valid(k63, kMaxSafeInteger + 1));
}

// The splits are told apart by value: the 63-bit split starts where the 53-bit one ends.
TEST(SnowflakeLayouts, DoNotOverlap) {
    EXPECT_EQ(snowflake_min_id(k53), 0);
    EXPECT_EQ(snowflake_min_ms(k63), std::int64_t{1} << 30);
    EXPECT_EQ(snowflake_min_id(k63), kMaxSafeInteger + 1);
    EXPECT_EQ(snowflake_min_id(k63), snowflake_boundary(k63, std::int64_t{1} << 30, 0));
    EXPECT_FALSE(snowflake_id_valid(k63, kMaxSafeInteger));
    EXPECT_FALSE(snowflake_id_valid(k63, 0));
    EXPECT_TRUE(snowflake_id_valid(k53, 0));
    EXPECT_FALSE(snowflake_id_valid(k53, snowflake_min_id(k63)));
}

// Every stamp the policy can issue on the 53-bit split, up to exhaustion, stays
// within 2^53 - 1: walk the last millisecond and the ones before it.
TEST(Snowflake53Layout, EveryIdUpToExhaustionIsSafe) {
    SnowflakeStamp last = stamp(k53, kSnowflakeMaxMs - 3, 0);
    std::int64_t previous = 0;
    int issued = 0;
    for (;;) {
        SnowflakeNext next = snowflake_next(k53, last, kSnowflakeMaxMs, kMaxLead);
        if (next.step == SnowflakeStep::exhausted) break;
        ASSERT_EQ(next.step, SnowflakeStep::issue);
        std::int64_t id = snowflake_id(k53, next.stamp, 15);
        ASSERT_LE(id, kMaxSafeInteger);
        ASSERT_GT(id, previous);
        previous = id;
        last = next.stamp;
        ++issued;
    }
    EXPECT_EQ(previous, kMaxSafeInteger);
    EXPECT_EQ(issued, 512);  // the clock reads the last millisecond: only its 512 remain
}

TEST(SnowflakeLayout, BoundaryIsTheSmallestIdOfTheMillisecond) {
    EXPECT_EQ(snowflake_boundary(k63, 5, 0), 5 << 23);
    EXPECT_EQ(snowflake_boundary(k63, 5, 3), (5 << 23) | (3 << 10));
    EXPECT_EQ(snowflake_boundary(k53, 5, 3), (5 << 13) | (3 << 9));
}

TEST(SnowflakeLayout, ShardRange) {
    EXPECT_TRUE(snowflake_shard_valid(k63, 0));
    EXPECT_TRUE(snowflake_shard_valid(k63, 8191));
    EXPECT_FALSE(snowflake_shard_valid(k63, -1));
    EXPECT_FALSE(snowflake_shard_valid(k63, 8192));
    EXPECT_TRUE(snowflake_shard_valid(k53, 15));
    EXPECT_FALSE(snowflake_shard_valid(k53, 16));
    EXPECT_FALSE(snowflake_shard_valid(k53, -1));
}

// The policy is the same for both splits; only the sequence width differs.
class SnowflakeNextTest : public testing::TestWithParam<SnowflakeLayout> {
protected:
    SnowflakeLayout layout = GetParam();
    std::int32_t max_seq = snowflake_max_seq(GetParam());
    SnowflakeStamp at(std::int64_t ms, std::int32_t seq) const { return stamp(layout, ms, seq); }
    SnowflakeNext next_of(SnowflakeStamp last, std::int64_t now_ms, std::int64_t max_lead) const {
        return snowflake_next(layout, last, now_ms, max_lead);
    }
};

INSTANTIATE_TEST_SUITE_P(BothSplits, SnowflakeNextTest, testing::Values(k63, k53),
                         [](const testing::TestParamInfo<SnowflakeLayout> &info) {
                             return "bits" + std::to_string(snowflake_id_bits(info.param));
                         });

TEST_P(SnowflakeNextTest, BoundaryOrdersAfterThePreviousMillisecond) {
    std::int32_t max_shard = snowflake_max_shard(layout);
    EXPECT_EQ(snowflake_boundary(layout, 5, 3), snowflake_id(layout, at(5, 0), 3));
    EXPECT_LT(snowflake_id(layout, at(4, max_seq), max_shard), snowflake_boundary(layout, 5, 0));
}

TEST_P(SnowflakeNextTest, FirstIdIsAtLeastOneEvenAtTheEpoch) {
    SnowflakeNext next = next_of(0, 0, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, at(0, 1));
    EXPECT_GE(snowflake_id(layout, next.stamp, 0), 1);
}

TEST_P(SnowflakeNextTest, NewMillisecondStartsAtSequenceZero) {
    SnowflakeNext next = next_of(at(100, 7), 101, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, at(101, 0));
    EXPECT_EQ(next.lead_ms, 0);
}

TEST_P(SnowflakeNextTest, SameMillisecondCountsUp) {
    SnowflakeNext next = next_of(at(100, 7), 100, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, at(100, 8));
    EXPECT_EQ(next.lead_ms, 0);
}

// More IDs in one millisecond than the sequence holds borrow the next ones.
TEST_P(SnowflakeNextTest, OverflowBorrowsTheNextMillisecondAndNeverRepeats) {
    SnowflakeStamp last = 0;
    std::int64_t borrowed = 0;
    for (int i = 0; i < 5000; ++i) {
        SnowflakeNext next = next_of(last, 100, kMaxLead);
        ASSERT_EQ(next.step, SnowflakeStep::issue);
        ASSERT_GT(next.stamp, last);
        if (next.lead_ms > 0 && snowflake_stamp_seq(layout, next.stamp) == 0) ++borrowed;
        last = next.stamp;
    }
    // 5000 stamps after stamp 0 of ms 0: the first ms 100 holds max_seq + 1 of them.
    std::int32_t per_ms = max_seq + 1;
    std::int64_t full = 5000 / per_ms;
    EXPECT_EQ(last, at(100 + full, 5000 - full * per_ms - 1));
    EXPECT_EQ(borrowed, full);
}

// Borrowing stops max_lead_ms ahead of the clock; one more millisecond is a wait.
TEST_P(SnowflakeNextTest, BorrowingUpToTheBoundThenWaits) {
    SnowflakeStamp at_bound = at(100 + 3, max_seq);
    SnowflakeNext next = next_of(at_bound, 100, 3);
    EXPECT_EQ(next.step, SnowflakeStep::wait);
    EXPECT_EQ(next.lead_ms, 4);
    // The clock ticks: the same stamp can now be issued.
    next = next_of(at_bound, 101, 3);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, at(104, 0));
    EXPECT_EQ(next.lead_ms, 3);
}

TEST_P(SnowflakeNextTest, ZeroLeadWaitsForEveryOverflow) {
    EXPECT_EQ(next_of(at(100, max_seq), 100, 0).step, SnowflakeStep::wait);
}

// The clock goes back 5 s under a 10 s bound: keep counting from the last stamp.
TEST_P(SnowflakeNextTest, RegressionWithinTheBoundKeepsCounting) {
    SnowflakeNext next = next_of(at(50'000, 17), 45'000, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, at(50'000, 18));
    EXPECT_EQ(next.lead_ms, 5'000);
}

TEST_P(SnowflakeNextTest, RegressionBeyondTheBoundFails) {
    SnowflakeStamp last = at(50'000, 17);
    SnowflakeNext next = next_of(last, 50'000 - kMaxLead - 2, kMaxLead);
    EXPECT_EQ(next.step, SnowflakeStep::clock_behind);
    EXPECT_EQ(next.lead_ms, kMaxLead + 2);
    // Exactly at the bound it still issues.
    EXPECT_EQ(next_of(last, 50'000 - kMaxLead, kMaxLead).step, SnowflakeStep::issue);
}

TEST_P(SnowflakeNextTest, ClockBeforeTheEpoch) {
    EXPECT_EQ(next_of(0, -1, kMaxLead).step, SnowflakeStep::before_epoch);
}

// 2^40 ms after the epoch the time field would pass its 40 bits.
TEST_P(SnowflakeNextTest, ExhaustionAtTwoToTheFortyMilliseconds) {
    SnowflakeNext next = next_of(0, kSnowflakeMaxMs, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    std::int64_t id = snowflake_id(layout, next.stamp, snowflake_max_shard(layout));
    EXPECT_GT(id, 0);
    EXPECT_LE(id, snowflake_max_id(layout));
    // The last stamp of the last millisecond: nothing follows it.
    SnowflakeStamp final_stamp = at(kSnowflakeMaxMs, max_seq);
    EXPECT_EQ(next_of(final_stamp, kSnowflakeMaxMs, kMaxLead).step, SnowflakeStep::exhausted);
    EXPECT_EQ(next_of(0, kSnowflakeMaxMs + 1, kMaxLead).step, SnowflakeStep::exhausted);
    EXPECT_EQ(next_of(0, std::numeric_limits<std::int64_t>::max(), kMaxLead).step,
              SnowflakeStep::exhausted);
}

TEST_P(SnowflakeNextTest, StampBelowALeaseIsJustUnderIt) {
    EXPECT_EQ(snowflake_stamp_below(layout, 0), 0u);
    EXPECT_EQ(snowflake_stamp_below(layout, 1), at(0, max_seq));
    EXPECT_EQ(snowflake_stamp_below(layout, 2000), at(1999, max_seq));
    // After a restart from the lease the first ID lies in the lease's millisecond or later.
    SnowflakeNext next = next_of(snowflake_stamp_below(layout, 2000), 500, kMaxLead);
    ASSERT_EQ(next.step, SnowflakeStep::issue);
    EXPECT_EQ(next.stamp, at(2000, 0));
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
