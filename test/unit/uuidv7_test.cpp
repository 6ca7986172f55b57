// UUIDv7 layout (RFC 9562 §5.7, Appendix A.6), sub-ms ticks, run-ahead and decoding.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>

#include "core/uuidv7.hpp"

using namespace idgen::core;

namespace {

using Bytes = std::array<std::uint8_t, 16>;

Bytes encode(Uuidv7Tick tick, std::uint64_t random) {
    Bytes out{};
    uuidv7_encode(tick, random, out.data());
    return out;
}

Bytes from_hex(const char *hex) {
    Bytes out{};
    for (std::size_t i = 0; i < out.size(); ++i) {
        unsigned v = 0;
        std::sscanf(hex + 2 * i, "%2x", &v);
        out[i] = static_cast<std::uint8_t>(v);
    }
    return out;
}

}  // namespace

// RFC 9562 Appendix A.6: 017F22E2-79B0-7CC3-98C4-DC0C0C07398F.
TEST(Uuidv7Layout, Rfc9562AppendixExample) {
    Uuidv7Tick tick = (Uuidv7Tick{0x017F22E279B0} << 12) | 0xCC3;
    EXPECT_EQ(encode(tick, 0x18C4DC0C0C07398Full), from_hex("017F22E279B07CC398C4DC0C0C07398F"));
    Bytes rfc = from_hex("017F22E279B07CC398C4DC0C0C07398F");
    EXPECT_EQ(uuidv7_unix_ms(rfc.data()), std::optional<std::int64_t>{0x017F22E279B0});
}

TEST(Uuidv7Layout, VersionAndVariantWhateverTheRandomBits) {
    for (std::uint64_t random : {0ull, ~0ull, 0x5555555555555555ull, 0xC000000000000000ull}) {
        Bytes b = encode(kUuidv7MaxTick, random);
        EXPECT_EQ(b[6] >> 4, 7);
        EXPECT_EQ(b[8] >> 6, 0b10);
    }
    Bytes all_ones = encode(kUuidv7MaxTick, ~0ull);
    EXPECT_EQ(all_ones, from_hex("FFFFFFFFFFFF7FFFBFFFFFFFFFFFFFFF"));
    EXPECT_EQ(encode(0, 0), from_hex("00000000000070008000000000000000"));
}

TEST(Uuidv7Layout, ByteOrderEqualsTickOrder) {
    std::mt19937_64 gen(42);
    for (int i = 0; i < 10000; ++i) {
        Uuidv7Tick a = gen() & kUuidv7MaxTick, b = gen() & kUuidv7MaxTick;
        int cmp = std::memcmp(encode(a, gen()).data(), encode(b, gen()).data(), 16);
        if (a < b) {
            EXPECT_LT(cmp, 0);
        } else if (a > b) {
            EXPECT_GT(cmp, 0);
        }
    }
}

TEST(Uuidv7Tick, SubMillisecondFractionMatchesMethod3) {
    // rand_a = floor(ns_within_ms * 4096 / 1e6), as PostgreSQL 18's uuidv7().
    EXPECT_EQ(uuidv7_tick(5, 0), std::optional<Uuidv7Tick>{5u << 12});
    EXPECT_EQ(uuidv7_tick(5, 244), std::optional<Uuidv7Tick>{(5u << 12) | 0});
    EXPECT_EQ(uuidv7_tick(5, 245), std::optional<Uuidv7Tick>{(5u << 12) | 1});
    EXPECT_EQ(uuidv7_tick(5, 500000), std::optional<Uuidv7Tick>{(5u << 12) | 2048});
    EXPECT_EQ(uuidv7_tick(5, 999999), std::optional<Uuidv7Tick>{(5u << 12) | 4095});
}

TEST(Uuidv7Tick, RangeLimits) {
    EXPECT_FALSE(uuidv7_tick(-1, 0));
    EXPECT_TRUE(uuidv7_tick(0, 0));
    EXPECT_EQ(uuidv7_tick(kUuidv7MaxUnixMs, 999999), std::optional<Uuidv7Tick>{kUuidv7MaxTick});
    EXPECT_FALSE(uuidv7_tick(kUuidv7MaxUnixMs + 1, 0));
    EXPECT_FALSE(uuidv7_tick(0, 1000000));
}

TEST(Uuidv7Tick, NanosecondOffsetRoundTripsForEveryFraction) {
    for (Uuidv7Tick frac = 0; frac < 4096; ++frac) {
        Uuidv7Tick tick = (Uuidv7Tick{1234} << 12) | frac;
        std::uint32_t ns = uuidv7_tick_ns_within_ms(tick);
        ASSERT_EQ(uuidv7_tick(1234, ns), std::optional<Uuidv7Tick>{tick});
        if (frac > 0) {
            ASSERT_EQ(uuidv7_tick(1234, ns - 1), std::optional<Uuidv7Tick>{tick - 1});
        }
    }
}

namespace {

// No bound on the lead, for the tests of order alone; 10 s as in the default.
constexpr Uuidv7Tick kUnbounded = kUuidv7MaxTick;
constexpr Uuidv7Tick kTicksPerMs = Uuidv7Tick{1} << 12;
constexpr Uuidv7Tick kTenSeconds = 10'000 * kTicksPerMs;

// Issues with no floor and no bound; the step must be issue.
Uuidv7Issue issue_at(Uuidv7Sequence &seq, Uuidv7Tick now, Uuidv7Tick floor = 0) {
    Uuidv7Issue issue = uuidv7_issue(seq, now, floor, kUnbounded);
    EXPECT_EQ(issue.step, Uuidv7Step::issue);
    return issue;
}

}  // namespace

TEST(Uuidv7Sequence, FollowsTheClockWhenItAdvances) {
    Uuidv7Sequence seq{};
    auto first = issue_at(seq, 1000);
    auto second = issue_at(seq, 5000);
    EXPECT_EQ(first.tick, 1000u);
    EXPECT_EQ(second.tick, 5000u);
    EXPECT_FALSE(second.clock_regressed || second.ran_ahead);
}

TEST(Uuidv7Sequence, RunsAheadWhenTheClockGoesBackwards) {
    Uuidv7Sequence seq{};
    issue_at(seq, 100 << 12);
    auto back = issue_at(seq, 90 << 12);  // clock set back by 10 ms
    EXPECT_EQ(back.tick, (100u << 12) + 1);
    EXPECT_TRUE(back.clock_regressed);
    EXPECT_TRUE(back.ran_ahead);
    auto creeping = issue_at(seq, (90 << 12) + 5);  // clock moves on, still behind
    EXPECT_EQ(creeping.tick, (100u << 12) + 2);
    EXPECT_FALSE(creeping.clock_regressed);
    EXPECT_TRUE(creeping.ran_ahead);
    auto caught_up = issue_at(seq, 101 << 12);
    EXPECT_EQ(caught_up.tick, 101u << 12);
    EXPECT_FALSE(caught_up.ran_ahead);
}

TEST(Uuidv7Sequence, MoreThan4096InOneMillisecondRunAheadAndNeverRepeat) {
    Uuidv7Sequence seq{};
    const Uuidv7Tick now = Uuidv7Tick{1700000000000} << 12;
    Uuidv7Tick previous = 0;
    for (int i = 0; i < 10000; ++i) {
        auto issue = uuidv7_issue(seq, now, 0, kTenSeconds);
        ASSERT_EQ(issue.step, Uuidv7Step::issue);
        ASSERT_GT(issue.tick, previous);
        previous = issue.tick;
    }
    EXPECT_EQ(previous, now + 9999);
    EXPECT_EQ(uuidv7_tick_unix_ms(previous), 1700000000000 + 2);  // 10000 ticks span 3 ms
}

TEST(Uuidv7Sequence, StaysAboveAFloorFromOtherBackends) {
    Uuidv7Sequence seq{};
    auto issue = issue_at(seq, 100, 500);
    EXPECT_EQ(issue.tick, 501u);
    EXPECT_TRUE(issue.ran_ahead);
    auto own = issue_at(seq, 100, 200);  // own last (501) is above the floor
    EXPECT_EQ(own.tick, 502u);
}

TEST(Uuidv7Sequence, ExhaustionIsReportedAndLeavesStateUntouched) {
    Uuidv7Sequence seq{kUuidv7MaxTick, kUuidv7MaxTick};
    EXPECT_EQ(uuidv7_issue(seq, kUuidv7MaxTick, 0, kUnbounded).step, Uuidv7Step::exhausted);
    EXPECT_EQ(uuidv7_issue(seq, 5, kUuidv7MaxTick, kUnbounded).step, Uuidv7Step::exhausted);
    EXPECT_EQ(seq.last_issued, kUuidv7MaxTick);
    EXPECT_EQ(seq.last_clock, kUuidv7MaxTick);
    EXPECT_FALSE(uuidv7_next_tick(kUuidv7MaxTick, 0));
    EXPECT_EQ(uuidv7_next_tick(kUuidv7MaxTick - 1, 0), std::optional<Uuidv7Tick>{kUuidv7MaxTick});
}

// A burst faster than the clock runs ahead up to max_lead, then waits for the
// clock: the sequence never gets further ahead, however many calls come.
TEST(Uuidv7Bound, BurstRunsAheadUpToTheBoundThenWaits) {
    constexpr Uuidv7Tick kMaxLead = 3 * kTicksPerMs;
    const Uuidv7Tick now = Uuidv7Tick{1700000000000} << 12;
    Uuidv7Sequence seq{};
    Uuidv7Tick issued = 0;
    for (;;) {
        auto issue = uuidv7_issue(seq, now, 0, kMaxLead);
        if (issue.step != Uuidv7Step::issue) {
            EXPECT_EQ(issue.step, Uuidv7Step::wait);
            EXPECT_EQ(issue.wait_ticks, 1u);  // one more tick of the clock makes room
            break;
        }
        ++issued;
        ASSERT_LE(issue.tick, now + kMaxLead);
    }
    EXPECT_EQ(issued, kMaxLead + 1);  // now .. now + kMaxLead
    EXPECT_EQ(seq.last_issued, now + kMaxLead);
    EXPECT_EQ(seq.last_clock, now);  // the wait left the sequence as it was
    // The clock advances by 10 ticks: exactly 10 more fit.
    for (int i = 0; i < 10; ++i)
        ASSERT_EQ(uuidv7_issue(seq, now + 10, 0, kMaxLead).step, Uuidv7Step::issue);
    EXPECT_EQ(uuidv7_issue(seq, now + 10, 0, kMaxLead).step, Uuidv7Step::wait);
    EXPECT_EQ(seq.last_issued, now + 10 + kMaxLead);
}

// The same bound holds above a floor published by other backends.
TEST(Uuidv7Bound, AFloorAtTheBoundWaits) {
    constexpr Uuidv7Tick kMaxLead = 2 * kTicksPerMs;
    const Uuidv7Tick now = Uuidv7Tick{1700000000000} << 12;
    Uuidv7Sequence seq{};
    auto issue = uuidv7_issue(seq, now, now + kMaxLead - 1, kMaxLead);
    ASSERT_EQ(issue.step, Uuidv7Step::issue);
    EXPECT_EQ(issue.tick, now + kMaxLead);
    issue = uuidv7_issue(seq, now, now + kMaxLead, kMaxLead);
    EXPECT_EQ(issue.step, Uuidv7Step::wait);
    EXPECT_EQ(issue.wait_ticks, 1u);
    // A floor that ran further ahead while this backend read the clock: up to
    // the window it is still a wait, for as long as it takes.
    issue = uuidv7_issue(seq, now, now + kMaxLead + 99, kMaxLead);
    EXPECT_EQ(issue.step, Uuidv7Step::wait);
    EXPECT_EQ(issue.wait_ticks, 100u);
}

TEST(Uuidv7Bound, ZeroBoundNeverRunsAhead) {
    Uuidv7Sequence seq{};
    const Uuidv7Tick now = Uuidv7Tick{1700000000000} << 12;
    ASSERT_EQ(uuidv7_issue(seq, now, 0, 0).step, Uuidv7Step::issue);
    auto again = uuidv7_issue(seq, now, 0, 0);
    EXPECT_EQ(again.step, Uuidv7Step::wait);
    EXPECT_EQ(again.wait_ticks, 1u);
    auto later = uuidv7_issue(seq, now + 1, 0, 0);
    ASSERT_EQ(later.step, Uuidv7Step::issue);
    EXPECT_EQ(later.tick, now + 1);
    EXPECT_FALSE(later.ran_ahead);
}

// A clock set back by more than the bound (and the 1 ms window) is not waited
// for: the sequence keeps counting, one tick per call, as without a bound.
TEST(Uuidv7Bound, ClockSetBackBeyondTheBoundKeepsCounting) {
    const Uuidv7Tick before = Uuidv7Tick{1700000000000} << 12;
    Uuidv7Sequence seq{};
    ASSERT_EQ(uuidv7_issue(seq, before, 0, kTenSeconds).step, Uuidv7Step::issue);
    const Uuidv7Tick back = before - 30'000 * kTicksPerMs;  // 30 s back
    for (Uuidv7Tick i = 1; i <= 3; ++i) {
        auto issue = uuidv7_issue(seq, back, 0, kTenSeconds);
        ASSERT_EQ(issue.step, Uuidv7Step::issue);
        EXPECT_EQ(issue.tick, before + i);
        EXPECT_TRUE(issue.ran_ahead);
    }
    // Just past the window: counting; just inside it: a wait of the excess.
    Uuidv7Sequence edge{before, before};
    auto beyond = uuidv7_issue(edge, before + 1 - kTenSeconds - kUuidv7WaitWindow - 1, 0, kTenSeconds);
    EXPECT_EQ(beyond.step, Uuidv7Step::issue);
    Uuidv7Sequence inside{before, before};
    auto wait = uuidv7_issue(inside, before + 1 - kTenSeconds - kUuidv7WaitWindow, 0, kTenSeconds);
    EXPECT_EQ(wait.step, Uuidv7Step::wait);
    EXPECT_EQ(wait.wait_ticks, kUuidv7WaitWindow);
}

// A bound as large as the tick range neither overflows nor waits.
TEST(Uuidv7Bound, LargestBoundNeverWaits) {
    Uuidv7Sequence seq{kUuidv7MaxTick - 1, 0};
    auto issue = uuidv7_issue(seq, 0, 0, kUuidv7MaxTick);
    ASSERT_EQ(issue.step, Uuidv7Step::issue);
    EXPECT_EQ(issue.tick, kUuidv7MaxTick);
}

TEST(Uuidv7Boundary, SmallestValueOfItsMillisecond) {
    Bytes bound{}, next_bound{};
    uuidv7_boundary(1700000000123, bound.data());
    uuidv7_boundary(1700000000124, next_bound.data());
    EXPECT_EQ(bound[6], 0x70);
    EXPECT_EQ(bound[8], 0x80);
    EXPECT_EQ(uuidv7_unix_ms(bound.data()), std::optional<std::int64_t>{1700000000123});
    std::mt19937_64 gen(7);
    for (int i = 0; i < 1000; ++i) {
        Uuidv7Tick tick = (Uuidv7Tick{1700000000123} << 12) | (gen() & 0xFFF);
        Bytes id = encode(tick, gen());
        EXPECT_LE(std::memcmp(bound.data(), id.data(), 16), 0);
        EXPECT_LT(std::memcmp(id.data(), next_bound.data(), 16), 0);
    }
}

TEST(Uuidv7Decode, RejectsOtherVersionsAndVariants) {
    Bytes v4 = from_hex("919108F752D14320B4E16E2BD8D7D0E6");
    EXPECT_FALSE(uuidv7_unix_ms(v4.data()));
    Bytes v7_wrong_variant = from_hex("017F22E279B07CC3C8C4DC0C0C07398F");  // variant 0b11
    EXPECT_FALSE(uuidv7_unix_ms(v7_wrong_variant.data()));
    Bytes max = encode(kUuidv7MaxTick, ~0ull);
    EXPECT_EQ(uuidv7_unix_ms(max.data()), std::optional<std::int64_t>{kUuidv7MaxUnixMs});
}

// The lead rule both clock families share (core/lead_bound.hpp).
TEST(LeadBound, WaitsOnlyWithinTheWindowBeyondTheBound) {
    EXPECT_EQ(lead_wait(0, 0, 4096), 0u);
    EXPECT_EQ(lead_wait(10, 10, 4096), 0u);
    EXPECT_EQ(lead_wait(11, 10, 4096), 1u);
    EXPECT_EQ(lead_wait(10 + 4096, 10, 4096), 4096u);
    EXPECT_EQ(lead_wait(10 + 4097, 10, 4096), 0u);  // the clock went back past the bound
    EXPECT_EQ(lead_wait(~std::uint64_t{0}, 0, 1), 0u);
}
