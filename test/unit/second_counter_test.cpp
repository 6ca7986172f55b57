// The seconds-and-counter sequence of objectid() and xid(): +1 per ID mod
// 2^24 from a random start, seconds that never decrease, and at most 2^24
// IDs per second value, the next one borrowing the following second.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/second_counter.hpp"

using namespace idgen::core;

namespace {

// 2^24 written out, not taken from the header under test.
constexpr std::uint32_t kPerSecond = 16'777'216;
constexpr std::int64_t kNow = 1'700'000'000;

SecondCounterIssue issue_ok(SecondCounter &seq, std::int64_t now_s) {
    SecondCounterIssue issue = second_counter_issue(seq, now_s);
    EXPECT_EQ(issue.step, SecondCounterStep::issue) << "now_s " << now_s;
    return issue;
}

}  // namespace

TEST(SecondCounter, Constants) {
    EXPECT_EQ(kId96Bytes, 12u);
    EXPECT_EQ(kId96CounterMask + 1, kPerSecond);
    EXPECT_EQ(kId96MaxUnixSeconds, 4'294'967'295);
}

TEST(SecondCounter, BigEndianFields) {
    std::uint8_t id[12] = {0x56, 0xe1, 0xfc, 0x72, 0, 0, 0, 0, 0, 0x71, 0x41, 0x61};
    EXPECT_EQ(id96_seconds(id), 1457650802u);
    EXPECT_EQ(id96_counter(id), 7422305u);
    std::uint8_t out[4] = {};
    store_be32(0x01020304, out);
    EXPECT_EQ(out[0], 1);
    EXPECT_EQ(out[3], 4);
    EXPECT_EQ(load_be32(out), 0x01020304u);
    store_be24(0xFFABCDEF, out);  // the top byte is dropped
    EXPECT_EQ(load_be24(out), 0xABCDEFu);
}

// The first ID takes the random start + 1 and the clock's second.
TEST(SecondCounter, FirstIdIsStartPlusOne) {
    SecondCounter seq = second_counter_start(0x12345678);  // masked to 24 bits
    SecondCounterIssue first = issue_ok(seq, kNow);
    EXPECT_EQ(first.seconds, kNow);
    EXPECT_EQ(first.counter, 0x345679u);
    EXPECT_FALSE(first.clock_regressed || first.ran_ahead || first.borrowed);
    EXPECT_EQ(issue_ok(seq, kNow).counter, 0x34567Au);
    EXPECT_EQ(issue_ok(seq, kNow + 1).counter, 0x34567Bu);  // the counter runs across seconds
}

// The counter wraps at 2^24, within a second too.
TEST(SecondCounter, CounterWraps) {
    SecondCounter seq = second_counter_start(kPerSecond - 2);
    EXPECT_EQ(issue_ok(seq, kNow).counter, kPerSecond - 1);
    SecondCounterIssue wrapped = issue_ok(seq, kNow);
    EXPECT_EQ(wrapped.counter, 0u);
    EXPECT_EQ(wrapped.seconds, kNow);
    EXPECT_FALSE(wrapped.borrowed);
}

// A clock set back keeps the last second; no (seconds, counter) repeats.
TEST(SecondCounter, ClockSetBackKeepsTheLastSecond) {
    SecondCounter seq = second_counter_start(100);
    issue_ok(seq, kNow);
    SecondCounterIssue back = issue_ok(seq, kNow - 3600);
    EXPECT_EQ(back.seconds, kNow);
    EXPECT_EQ(back.counter, 102u);
    EXPECT_TRUE(back.clock_regressed);
    EXPECT_TRUE(back.ran_ahead);
    EXPECT_FALSE(back.borrowed);
    // Still behind, but not further back than at the previous call.
    SecondCounterIssue still = issue_ok(seq, kNow - 3600);
    EXPECT_FALSE(still.clock_regressed);
    EXPECT_TRUE(still.ran_ahead);
    // The clock catches up, then passes.
    EXPECT_FALSE(issue_ok(seq, kNow).ran_ahead);
    EXPECT_EQ(issue_ok(seq, kNow + 1).seconds, kNow + 1);
}

// Every ID of a second is distinct, and the 2^24 + 1st borrows the next
// second: one whole second of IDs, the only long loop here.
TEST(SecondCounter, NoRepeatWithinASecondThenBorrow) {
    SecondCounter seq = second_counter_start(7);
    std::vector<std::uint64_t> used(kPerSecond / 64, 0);
    std::uint32_t repeats = 0, other_seconds = 0, borrows = 0;
    for (std::uint32_t i = 0; i < kPerSecond; ++i) {
        SecondCounterIssue issue = second_counter_issue(seq, kNow);
        other_seconds += issue.seconds != kNow;
        borrows += issue.borrowed;
        std::uint64_t bit = std::uint64_t{1} << (issue.counter % 64);
        repeats += (used[issue.counter / 64] & bit) != 0;
        used[issue.counter / 64] |= bit;
    }
    EXPECT_EQ(repeats, 0u);
    EXPECT_EQ(other_seconds, 0u);
    EXPECT_EQ(borrows, 0u);
    SecondCounterIssue next = issue_ok(seq, kNow);
    EXPECT_TRUE(next.borrowed);
    EXPECT_TRUE(next.ran_ahead);
    EXPECT_EQ(next.seconds, kNow + 1);
    EXPECT_EQ(next.counter, 8u);  // the counter still runs on by one
}

// The state after 2^24 IDs in a second: the counter is one short of the
// second's first. A borrowed second holds 2^24 IDs in turn, and the clock
// reaching it does not reset its count; a clock past it starts afresh.
TEST(SecondCounter, BorrowedSecondFillsInTurn) {
    const std::uint32_t first = 500;
    SecondCounter full{first - 1, static_cast<std::uint32_t>(kNow), first, kNow, true};
    SecondCounter seq = full;
    SecondCounterIssue borrowed = issue_ok(seq, kNow);
    EXPECT_TRUE(borrowed.borrowed);
    EXPECT_EQ(borrowed.seconds, kNow + 1);
    EXPECT_EQ(borrowed.counter, first);
    EXPECT_EQ(seq.second_first, first);
    // The clock reaches the borrowed second: same second, counting on.
    SecondCounterIssue caught_up = issue_ok(seq, kNow + 1);
    EXPECT_FALSE(caught_up.borrowed || caught_up.ran_ahead);
    EXPECT_EQ(caught_up.seconds, kNow + 1);
    EXPECT_EQ(seq.second_first, first);
    // That second full in turn (counter one short of its first): kNow + 2.
    seq.counter = first - 1;
    SecondCounterIssue again = issue_ok(seq, kNow + 1);
    EXPECT_TRUE(again.borrowed && again.ran_ahead);
    EXPECT_EQ(again.seconds, kNow + 2);
    // The clock well past: its own second, whose first is this ID.
    SecondCounterIssue later = issue_ok(seq, kNow + 10);
    EXPECT_FALSE(later.borrowed || later.ran_ahead);
    EXPECT_EQ(later.seconds, kNow + 10);
    EXPECT_EQ(seq.second_first, later.counter);
    // A full second with the clock set back: still the next second, never an earlier one.
    seq = full;
    SecondCounterIssue back = issue_ok(seq, kNow - 100);
    EXPECT_TRUE(back.borrowed && back.clock_regressed);
    EXPECT_EQ(back.seconds, kNow + 1);
}

// The clock outside 32-bit Unix seconds is refused, and changes nothing.
TEST(SecondCounter, ClockOutOfRange) {
    SecondCounter seq = second_counter_start(1);
    EXPECT_EQ(second_counter_issue(seq, -1).step, SecondCounterStep::clock_out_of_range);
    EXPECT_EQ(second_counter_issue(seq, 4'294'967'296).step, SecondCounterStep::clock_out_of_range);
    EXPECT_FALSE(seq.started);
    EXPECT_EQ(issue_ok(seq, 0).counter, 2u);
    EXPECT_EQ(issue_ok(seq, 4'294'967'295).seconds, 4'294'967'295u);
}

// A full last second: nothing to borrow, so the sequence refuses, and changes nothing.
TEST(SecondCounter, ExhaustedInTheLastSecond) {
    const auto last = static_cast<std::uint32_t>(kId96MaxUnixSeconds);
    SecondCounter seq{41, last, 42, kId96MaxUnixSeconds, true};
    EXPECT_EQ(second_counter_issue(seq, kId96MaxUnixSeconds).step, SecondCounterStep::exhausted);
    EXPECT_EQ(second_counter_issue(seq, 0).step, SecondCounterStep::exhausted);
    EXPECT_EQ(seq.counter, 41u);
    EXPECT_EQ(seq.seconds, last);
    // One short of full: the last ID of the last second.
    seq.counter = 40;
    SecondCounterIssue final_id = issue_ok(seq, kId96MaxUnixSeconds);
    EXPECT_EQ(final_id.seconds, last);
    EXPECT_EQ(final_id.counter, 41u);
}
