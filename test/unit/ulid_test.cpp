// ULID layout (48-bit ms, 80 random bits), the boundary of a millisecond, and
// the monotonic issue policy: fresh random in a new ms, +1 otherwise, carry
// into the next ms, clock regression and exhaustion; server-wide order above
// another generator's last ID, the clock lease's floor and the lead bound.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "core/base32.hpp"
#include "core/ulid.hpp"
#include "random_values.hpp"

using namespace idgen::core;
using idgen::test::SplitMix64;
using idgen::test::u128;

namespace {

// 2^80 - 1 and 2^48 - 1 written out, not taken from the header under test.
const Uint128 kAllRandomBits = u128(0xFFFF, ~0ull);
constexpr std::int64_t kLargestMs = 0xFFFFFFFFFFFF;

std::string text_of(Uint128 id) {
    char out[kBase32Digits128];
    base32_encode128(id, out);
    return std::string(out, sizeof out);
}

// No bound: a lead as large as the range never waits.
constexpr std::int64_t kUnbounded = kLargestMs;

// Issues with no other generator, no floor and no bound.
UlidIssue issue_at(UlidSequence &seq, std::int64_t now_ms, Uint128 random) {
    return ulid_issue(seq, now_ms, 0, 0, kUnbounded, random);
}

UlidIssue issue_ok(UlidSequence &seq, std::int64_t now_ms, Uint128 random) {
    UlidIssue issue = issue_at(seq, now_ms, random);
    EXPECT_EQ(issue.step, IssueStep::issue) << "now_ms " << now_ms;
    return issue;
}

}  // namespace

// The constants are the spec's field widths.
TEST(UlidLayout, Constants) {
    EXPECT_EQ(kUlidRandomBits, 80);
    EXPECT_EQ(kUlidMaxUnixMs, kLargestMs);
    EXPECT_EQ(kUlidRandomMask, kAllRandomBits);
}

// The millisecond fills the top 48 bits, the random part the low 80.
TEST(UlidLayout, MillisecondOnTopRandomBelow) {
    EXPECT_EQ(ulid_make(0, 0), Uint128{0});
    EXPECT_EQ(ulid_make(0, 1), Uint128{1});
    EXPECT_EQ(ulid_make(1, 0), Uint128{1} << 80);
    EXPECT_EQ(ulid_make(0x010203040506, u128(0x0708, 0x090A0B0C0D0E0F10ull)),
              u128(0x0102030405060708ull, 0x090A0B0C0D0E0F10ull));
    EXPECT_EQ(ulid_make(kLargestMs, kAllRandomBits), kUint128Max);
    EXPECT_EQ(ulid_unix_ms(kUint128Max), kLargestMs);
    EXPECT_EQ(ulid_unix_ms(u128(0x0102030405060708ull, 0x090A0B0C0D0E0F10ull)), 0x010203040506);
}

// Random bits above the 80th never leak into the millisecond.
TEST(UlidLayout, RandomIsMaskedTo80Bits) {
    EXPECT_EQ(ulid_make(5, kUint128Max), ulid_make(5, kAllRandomBits));
    EXPECT_EQ(ulid_unix_ms(ulid_make(5, kUint128Max)), 5);
    EXPECT_EQ(ulid_make(0, Uint128{1} << 80), Uint128{0});
    SplitMix64 rng{1};
    for (int i = 0; i < 1000; ++i) {
        const std::int64_t ms = static_cast<std::int64_t>(rng.next() & 0xFFFFFFFFFFFF);
        const Uint128 random = rng.next128();
        const Uint128 id = ulid_make(ms, random);
        ASSERT_EQ(ulid_unix_ms(id), ms);
        ASSERT_EQ(id & kAllRandomBits, random & kAllRandomBits);
    }
}

// The spec's seed-time example: ulid(1469918176385) -> 01ARYZ6S41..., and
// its random part (worked out by hand) gives back the whole example.
TEST(UlidLayout, SpecExampleThroughBase32) {
    const Uint128 id = ulid_make(1469918176385, u128(0xD676, 0x4C61EFB99302BD5Bull));
    EXPECT_EQ(text_of(id), "01ARYZ6S41TSV4RRFFQ69G5FAV");
    EXPECT_EQ(text_of(ulid_boundary(1469918176385)), "01ARYZ6S410000000000000000");
    EXPECT_EQ(ulid_unix_ms(base32_decode128("01ARZ3NDEKTSV4RRFFQ69G5FAV").value), 1469922850259);
}

// The boundary is the smallest ULID of its millisecond and above every ULID
// of the one before, up to the largest millisecond.
TEST(UlidLayout, BoundaryHasZeroRandom) {
    EXPECT_EQ(ulid_boundary(0), Uint128{0});
    EXPECT_EQ(ulid_boundary(1700000000123), Uint128{1700000000123} << 80);
    EXPECT_EQ(ulid_boundary(1700000000123) & kAllRandomBits, Uint128{0});
    EXPECT_EQ(ulid_unix_ms(ulid_boundary(1700000000123)), 1700000000123);
    EXPECT_EQ(ulid_make(1700000000122, kAllRandomBits) + 1, ulid_boundary(1700000000123));
    EXPECT_EQ(ulid_boundary(kLargestMs), u128(0xFFFFFFFFFFFF0000ull, 0));
    EXPECT_EQ(ulid_unix_ms(ulid_boundary(kLargestMs)), kLargestMs);
    EXPECT_EQ(text_of(ulid_boundary(kLargestMs)), "7ZZZZZZZZZ0000000000000000");
}

// The first call, on an empty sequence, takes the clock and the fresh random.
TEST(UlidIssue, FirstCallUsesFreshRandomAtNow) {
    UlidSequence seq{};
    const Uint128 random = u128(0x1234, 0x56789ABCDEF01234ull);
    UlidIssue first = issue_ok(seq, 1700000000000, random);
    EXPECT_EQ(first.id, ulid_make(1700000000000, random));
    EXPECT_FALSE(first.clock_regressed);
    EXPECT_FALSE(first.ran_ahead);
    EXPECT_EQ(seq.last_issued, first.id);
    EXPECT_EQ(seq.last_clock_ms, 1700000000000);
}

// Even at Unix millisecond 0 the first ID takes the random part, so two fresh
// sequences (two backends) do not both start at ...0001.
TEST(UlidIssue, FirstCallAtMillisecondZeroUsesFreshRandom) {
    UlidSequence seq{};
    EXPECT_TRUE(ulid_needs_random(seq, 0, 0));
    const Uint128 random = u128(0xBEEF, 0x0123456789ABCDEFull);
    EXPECT_EQ(issue_ok(seq, 0, random).id, ulid_make(0, random));
    EXPECT_FALSE(ulid_needs_random(seq, 0, 0));
    EXPECT_EQ(issue_ok(seq, 0, 7).id, ulid_make(0, random) + 1);
}

// In the same millisecond each ID is the previous + 1; the new random is unused.
TEST(UlidIssue, SameMillisecondCountsUpFromThePrevious) {
    UlidSequence seq{};
    const std::int64_t now = 1700000000000;
    const Uint128 first = issue_ok(seq, now, 1000).id;
    ASSERT_EQ(first, ulid_make(now, 1000));
    SplitMix64 rng{3};
    for (int i = 1; i <= 5; ++i) {
        UlidIssue next = issue_ok(seq, now, rng.next128());
        EXPECT_EQ(next.id, first + static_cast<Uint128>(i));
        EXPECT_EQ(ulid_unix_ms(next.id), now);
        EXPECT_FALSE(next.clock_regressed);
        EXPECT_FALSE(next.ran_ahead);
    }
}

// A later millisecond starts over with its own fresh random, even a smaller one.
TEST(UlidIssue, ClockForwardTakesFreshRandomAtTheNewMillisecond) {
    UlidSequence seq{};
    issue_ok(seq, 1000, kAllRandomBits - 5);
    UlidIssue later = issue_ok(seq, 1001, 42);
    EXPECT_EQ(later.id, ulid_make(1001, 42));
    EXPECT_FALSE(later.clock_regressed);
    EXPECT_FALSE(later.ran_ahead);
    UlidIssue jump = issue_ok(seq, 5000000, 7);
    EXPECT_EQ(jump.id, ulid_make(5000000, 7));
    EXPECT_EQ(seq.last_clock_ms, 5000000);
}

// The clock going back keeps counting from the last ID, which stays in its
// millisecond; the regression is flagged once, running ahead until the clock
// passes the ID's millisecond.
TEST(UlidIssue, ClockBackKeepsCountingFromTheLastId) {
    UlidSequence seq{};
    const Uint128 first = issue_ok(seq, 1000, 500).id;

    UlidIssue back = issue_ok(seq, 990, 77);
    EXPECT_EQ(back.id, first + 1);
    EXPECT_EQ(ulid_unix_ms(back.id), 1000);
    EXPECT_TRUE(back.clock_regressed);
    EXPECT_TRUE(back.ran_ahead);
    EXPECT_EQ(seq.last_clock_ms, 990);

    UlidIssue creeping = issue_ok(seq, 995, 78);  // moving on, still behind the ID
    EXPECT_EQ(creeping.id, first + 2);
    EXPECT_FALSE(creeping.clock_regressed);
    EXPECT_TRUE(creeping.ran_ahead);

    UlidIssue level = issue_ok(seq, 1000, 79);  // back at the ID's millisecond
    EXPECT_EQ(level.id, first + 3);
    EXPECT_FALSE(level.clock_regressed);
    EXPECT_FALSE(level.ran_ahead);

    UlidIssue past = issue_ok(seq, 1001, 80);
    EXPECT_EQ(past.id, ulid_make(1001, 80));
    EXPECT_FALSE(past.ran_ahead);
}

// A regression is measured against the previous clock reading, not the ID.
TEST(UlidIssue, RegressionIsAgainstThePreviousReading) {
    UlidSequence seq{};
    issue_ok(seq, 1000, 1);
    EXPECT_TRUE(issue_ok(seq, 900, 1).clock_regressed);
    EXPECT_TRUE(issue_ok(seq, 800, 1).clock_regressed);
    EXPECT_FALSE(issue_ok(seq, 800, 1).clock_regressed);
    EXPECT_FALSE(issue_ok(seq, 850, 1).clock_regressed);
    EXPECT_TRUE(issue_ok(seq, 849, 1).clock_regressed);
    EXPECT_EQ(ulid_unix_ms(seq.last_issued), 1000);
}

// All 80 random bits set in the same millisecond: +1 carries into the next
// millisecond with random zero, and counting goes on from there.
TEST(UlidIssue, RandomOverflowCarriesIntoTheNextMillisecond) {
    UlidSequence seq{};
    const Uint128 full = issue_ok(seq, 1000, kAllRandomBits).id;
    ASSERT_EQ(full, ulid_make(1000, kAllRandomBits));

    UlidIssue carried = issue_ok(seq, 1000, 123);
    EXPECT_EQ(carried.id, ulid_boundary(1001));
    EXPECT_EQ(ulid_unix_ms(carried.id), 1001);
    EXPECT_EQ(carried.id & kAllRandomBits, Uint128{0});
    EXPECT_FALSE(carried.clock_regressed);
    EXPECT_TRUE(carried.ran_ahead);

    UlidIssue again = issue_ok(seq, 1000, 456);  // real clock still at 1000
    EXPECT_EQ(again.id, ulid_make(1001, 1));
    EXPECT_TRUE(again.ran_ahead);

    UlidIssue caught_up = issue_ok(seq, 1001, 789);  // at the ID's ms: still +1
    EXPECT_EQ(caught_up.id, ulid_make(1001, 2));
    EXPECT_FALSE(caught_up.ran_ahead);

    UlidIssue fresh = issue_ok(seq, 1002, 789);
    EXPECT_EQ(fresh.id, ulid_make(1002, 789));
}

// A fresh random is needed only past the last ID's millisecond, so a caller
// may skip drawing one; the answer agrees with what ulid_issue then does.
TEST(UlidIssue, NeedsRandomOnlyPastTheLastIdsMillisecond) {
    UlidSequence seq{};
    EXPECT_TRUE(ulid_needs_random(seq, 0, 1));
    issue_ok(seq, 1000, kAllRandomBits);
    EXPECT_FALSE(ulid_needs_random(seq, 0, 999));
    EXPECT_FALSE(ulid_needs_random(seq, 0, 1000));
    EXPECT_TRUE(ulid_needs_random(seq, 0, 1001));
    issue_ok(seq, 1000, 0);  // carries into 1001
    EXPECT_FALSE(ulid_needs_random(seq, 0, 1001));
    EXPECT_TRUE(ulid_needs_random(seq, 0, 1002));
    EXPECT_EQ(issue_ok(seq, 1001, 5).id, ulid_make(1001, 1));
    EXPECT_EQ(issue_ok(seq, 1002, 5).id, ulid_make(1002, 5));
}

// The largest ULID is the last: no further ID, and the sequence is untouched.
TEST(UlidIssue, ExhaustionIsReportedAndLeavesTheSequence) {
    UlidSequence seq{};
    issue_ok(seq, kLargestMs, kAllRandomBits - 1);
    UlidIssue last = issue_ok(seq, kLargestMs, 0);
    EXPECT_EQ(last.id, kUint128Max);
    EXPECT_EQ(text_of(last.id), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");

    for (std::int64_t now : {kLargestMs, kLargestMs - 1, std::int64_t{1000}}) {
        EXPECT_EQ(issue_at(seq, now, 5).step, IssueStep::exhausted) << now;
        EXPECT_EQ(seq.last_issued, kUint128Max);
        EXPECT_EQ(seq.last_clock_ms, kLargestMs);
    }
}

// One below the top of the range still issues; so does a sequence whose
// last ID is the largest of an earlier millisecond.
TEST(UlidIssue, NearTheTopOfTheRangeStillIssues) {
    UlidSequence seq{kUint128Max - 1, kLargestMs};
    ASSERT_EQ(issue_at(seq, kLargestMs, 0).step, IssueStep::issue);
    EXPECT_EQ(seq.last_issued, kUint128Max);

    UlidSequence below{ulid_make(kLargestMs - 1, kAllRandomBits), kLargestMs - 1};
    UlidIssue carried = issue_ok(below, kLargestMs - 1, 0);
    EXPECT_EQ(carried.id, ulid_boundary(kLargestMs));
    EXPECT_TRUE(carried.ran_ahead);
}

// A long run of mixed clock readings (forward, equal, backward, jumps) and
// random parts near the top (to force carries): every ID is above the one
// before, and each step matches the spec's rule and flags.
TEST(UlidIssue, StrictlyIncreasingOverMixedClockReadings) {
    UlidSequence seq{};
    SplitMix64 rng{2024};
    std::int64_t clock = 1700000000000;
    std::int64_t previous_clock = 0;
    Uint128 previous = 0;
    int forward = 0, equal = 0, backward = 0, carries = 0, fresh = 0, counted = 0;
    for (int i = 0; i < 200000; ++i) {
        const std::uint64_t r = rng.next();
        switch (r % 8) {
            case 0: case 1: clock += 1; break;
            case 2: case 3: case 4: break;
            case 5: clock -= 1 + static_cast<std::int64_t>((r >> 8) % 5); break;
            case 6: clock += static_cast<std::int64_t>((r >> 8) % 50); break;
            case 7: clock -= static_cast<std::int64_t>((r >> 8) % 40); break;
        }
        Uint128 random = rng.next128();
        if ((r >> 32) % 16 == 0) random = kAllRandomBits - ((r >> 40) % 3);  // near overflow

        if (i > 0) {
            if (clock > previous_clock) ++forward;
            else if (clock == previous_clock) ++equal;
            else ++backward;
        }
        const bool needs_random = ulid_needs_random(seq, 0, clock);
        UlidIssue issue = issue_at(seq, clock, random);
        ASSERT_EQ(issue.step, IssueStep::issue) << "step " << i;
        ASSERT_EQ(needs_random, clock > ulid_unix_ms(previous)) << "step " << i;
        ASSERT_GT(issue.id, previous) << "step " << i;
        if (clock > ulid_unix_ms(previous)) {
            ASSERT_EQ(issue.id, ulid_make(clock, random)) << "step " << i;
            ++fresh;
        } else {
            ASSERT_EQ(issue.id, previous + 1) << "step " << i;
            ++counted;
            if (ulid_unix_ms(issue.id) != ulid_unix_ms(previous)) ++carries;
        }
        ASSERT_EQ(issue.clock_regressed, i > 0 && clock < previous_clock) << "step " << i;
        ASSERT_EQ(issue.ran_ahead, ulid_unix_ms(issue.id) > clock) << "step " << i;
        ASSERT_EQ(seq.last_issued, issue.id);
        ASSERT_EQ(seq.last_clock_ms, clock);
        previous = issue.id;
        previous_clock = clock;
    }
    // The run really covered every kind of step.
    EXPECT_GT(forward, 1000);
    EXPECT_GT(equal, 1000);
    EXPECT_GT(backward, 1000);
    EXPECT_GT(fresh, 1000);
    EXPECT_GT(counted, 1000);
    EXPECT_GT(carries, 10);
}

// Server-wide order: the next ID is above another generator's last (above)
// as above the sequence's own, whichever is larger, by the same rule.
TEST(UlidServerOrder, StaysAboveAnotherGeneratorsLastId) {
    UlidSequence seq{};
    const Uint128 theirs = ulid_make(1000, 500);
    UlidIssue mine = ulid_issue(seq, 1000, theirs, 0, kUnbounded, 77);
    ASSERT_EQ(mine.step, IssueStep::issue);
    EXPECT_EQ(mine.id, theirs + 1);  // their millisecond: +1, the random unused
    EXPECT_FALSE(mine.ran_ahead);
    EXPECT_EQ(seq.last_issued, theirs + 1);

    // Own last above theirs: counting goes on from the own.
    EXPECT_EQ(ulid_issue(seq, 1000, theirs, 0, kUnbounded, 77).id, theirs + 2);
    // Theirs in a later millisecond than the clock read here: +1 in it, ahead.
    const Uint128 later = ulid_make(1003, 9);
    UlidIssue behind = ulid_issue(seq, 1001, later, 0, kUnbounded, 77);
    EXPECT_EQ(behind.id, later + 1);
    EXPECT_TRUE(behind.ran_ahead);
    EXPECT_FALSE(behind.clock_regressed);  // against this sequence's own reading (1000)
    // A clock past every last ID: fresh random at the clock.
    EXPECT_TRUE(ulid_needs_random(seq, later, 1004));
    EXPECT_FALSE(ulid_needs_random(seq, later, 1003));
    EXPECT_EQ(ulid_issue(seq, 1004, later, 0, kUnbounded, 77).id, ulid_make(1004, 77));
}

// Two sequences sharing one "last issued" (as two backends under 'server'
// order share it in shared memory), interleaved with clocks that disagree:
// together they issue strictly increasing IDs.
TEST(UlidServerOrder, InterleavedGeneratorsIssueOneIncreasingSequence) {
    UlidSequence a{}, b{};
    Uint128 shared = 0;
    SplitMix64 rng{42};
    std::int64_t clock = 1700000000000;
    for (int i = 0; i < 100000; ++i) {
        const std::uint64_t r = rng.next();
        if (r % 3 == 0) ++clock;
        UlidSequence &seq = (r >> 8) % 2 == 0 ? a : b;
        // One generator's clock reads up to 2 ms behind the other's.
        const std::int64_t now = &seq == &a ? clock : clock - static_cast<std::int64_t>((r >> 16) % 3);
        UlidIssue issue = ulid_issue(seq, now, shared, 0, kUnbounded, rng.next128());
        ASSERT_EQ(issue.step, IssueStep::issue) << i;
        ASSERT_GT(issue.id, shared) << i;
        shared = issue.id;
    }
}

// The clock lease's floor: a clock behind it issues in the floor's
// millisecond, with fresh random bits, and runs ahead of the clock.
TEST(UlidFloor, AClockBelowTheFloorIssuesAtTheFloor) {
    UlidSequence seq{};
    UlidIssue first = ulid_issue(seq, 1000, 0, 3000, kUnbounded, 42);
    ASSERT_EQ(first.step, IssueStep::issue);
    EXPECT_EQ(first.id, ulid_make(3000, 42));
    EXPECT_TRUE(first.ran_ahead);
    EXPECT_EQ(ulid_issue(seq, 1000, 0, 3000, kUnbounded, 43).id, ulid_make(3000, 42) + 1);
    // A clock past the floor follows the clock.
    EXPECT_EQ(ulid_issue(seq, 3001, 0, 3000, kUnbounded, 44).id, ulid_make(3001, 44));
}

// The lead bound: an ID one millisecond beyond max_lead ahead of the clock
// waits for the clock (the sequence untouched); at the bound it is issued.
TEST(UlidBound, OneMillisecondBeyondTheBoundWaits) {
    UlidSequence seq{ulid_make(1010, 5), 1010};
    UlidIssue at_bound = ulid_issue(seq, 1000, 0, 0, 10, 7);  // lead 10 ms: issued
    ASSERT_EQ(at_bound.step, IssueStep::issue);
    EXPECT_EQ(at_bound.id, ulid_make(1010, 6));
    EXPECT_TRUE(at_bound.ran_ahead);

    UlidSequence beyond{ulid_make(1011, 5), 1011};
    UlidIssue wait = ulid_issue(beyond, 1000, 0, 0, 10, 7);  // lead 11 ms
    EXPECT_EQ(wait.step, IssueStep::wait);
    EXPECT_EQ(wait.wait_ms, 1);
    EXPECT_EQ(beyond.last_issued, ulid_make(1011, 5));
    EXPECT_EQ(beyond.last_clock_ms, 1011);
    // Once the clock has advanced by the wait, it is issued.
    EXPECT_EQ(ulid_issue(beyond, 1001, 0, 0, 10, 7).step, IssueStep::issue);
}

// At a zero bound an ID never runs ahead: a carry into the next millisecond
// (all 80 random bits used) waits until the clock reaches it, as does another
// generator's ID one millisecond ahead, and a floor one millisecond ahead.
TEST(UlidBound, ZeroBoundNeverRunsAhead) {
    UlidSequence full{ulid_make(1000, kAllRandomBits), 1000};
    UlidIssue carry = ulid_issue(full, 1000, 0, 0, 0, 7);
    EXPECT_EQ(carry.step, IssueStep::wait);
    EXPECT_EQ(carry.wait_ms, 1);
    UlidIssue next = ulid_issue(full, 1001, 0, 0, 0, 7);
    ASSERT_EQ(next.step, IssueStep::issue);
    EXPECT_EQ(next.id, ulid_make(1001, 7));  // a new millisecond: fresh random
    EXPECT_FALSE(next.ran_ahead);

    UlidSequence seq{};
    EXPECT_EQ(ulid_issue(seq, 1000, ulid_make(1001, 3), 0, 0, 7).step, IssueStep::wait);
    EXPECT_EQ(ulid_issue(seq, 1000, 0, 1001, 0, 7).step, IssueStep::wait);
    EXPECT_EQ(seq.last_issued, Uint128{0});
    // Within the same millisecond the +1 never leaves it: no wait.
    UlidSequence same{};
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(ulid_issue(same, 1000, 0, 0, 0, 7).step, IssueStep::issue);
}

// A clock set back by more than the bound and its 1 ms window is not waited
// for: the sequence keeps counting from its last ID, as without a bound.
TEST(UlidBound, ClockSetBackBeyondTheBoundKeepsCounting) {
    constexpr std::int64_t kTenSeconds = 10'000;
    const std::int64_t before = 1700000000000;
    UlidSequence seq{};
    const Uint128 first = ulid_issue(seq, before, 0, 0, kTenSeconds, 5).id;
    UlidIssue back = ulid_issue(seq, before - 30'000, 0, 0, kTenSeconds, 6);
    ASSERT_EQ(back.step, IssueStep::issue);
    EXPECT_EQ(back.id, first + 1);
    EXPECT_TRUE(back.ran_ahead);
    EXPECT_TRUE(back.clock_regressed);
    // Just past the window: counting; just inside it: a wait of the excess.
    UlidSequence edge{ulid_make(before, 5), before};
    EXPECT_EQ(ulid_issue(edge, before - kTenSeconds - 2, 0, 0, kTenSeconds, 6).step, IssueStep::issue);
    UlidSequence inside{ulid_make(before, 5), before};
    UlidIssue wait = ulid_issue(inside, before - kTenSeconds - 1, 0, 0, kTenSeconds, 6);
    EXPECT_EQ(wait.step, IssueStep::wait);
    EXPECT_EQ(wait.wait_ms, kUlidWaitWindowMs);
}
