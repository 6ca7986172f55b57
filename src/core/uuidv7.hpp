// UUID version 7 (RFC 9562 §5.7) with 12 bits of sub-millisecond clock
// precision in rand_a (§6.2 Method 3), bit-compatible with PostgreSQL 18's
// uuidv7(). Pure C++17: time and random bits are passed in.
//
//   0                   1                   2                   3
//   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                           unix_ts_ms                          |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |          unix_ts_ms           |  ver  |  rand_a (sub-ms/4096) |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |var|                        rand_b                             |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                            rand_b                             |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/lead_bound.hpp"

namespace idgen::core {

inline constexpr std::size_t kUuidBytes = 16;
inline constexpr int kUuidv7SubmsBits = 12;
inline constexpr std::uint64_t kNsPerMs = 1'000'000;
inline constexpr std::int64_t kUuidv7MaxUnixMs = (std::int64_t{1} << 48) - 1;

// A tick is unix_ts_ms << 12 | rand_a: the 60 timestamp bits of a UUIDv7, in
// units of 1/4096 ms (about 244 ns). Ticks order exactly as the UUIDs do.
using Uuidv7Tick = std::uint64_t;
inline constexpr Uuidv7Tick kUuidv7MaxTick = (Uuidv7Tick{1} << 60) - 1;

// The tick of an instant, rand_a = floor(ns_within_ms * 4096 / 1e6); nullopt
// when unix_ms is before 1970 or beyond 48 bits. Precondition: ns_within_ms < 1e6.
std::optional<Uuidv7Tick> uuidv7_tick(std::int64_t unix_ms, std::uint32_t ns_within_ms) noexcept;

inline constexpr std::int64_t uuidv7_tick_unix_ms(Uuidv7Tick tick) noexcept {
    return static_cast<std::int64_t>(tick >> kUuidv7SubmsBits);
}

// The smallest nanosecond offset within the millisecond that maps back to tick.
std::uint32_t uuidv7_tick_ns_within_ms(Uuidv7Tick tick) noexcept;

// Smallest tick that is >= now and > last; nullopt once last is the largest tick.
std::optional<Uuidv7Tick> uuidv7_next_tick(Uuidv7Tick last, Uuidv7Tick now) noexcept;

// Per-generator memory for strictly increasing ticks.
struct Uuidv7Sequence {
    Uuidv7Tick last_issued;  // 0 before the first ID
    Uuidv7Tick last_clock;   // clock reading at the previous call
};

// How far beyond its bound a lead may be and still be a wait (lead_wait):
// a burst waits at most 1 ms.
inline constexpr Uuidv7Tick kUuidv7WaitWindow = Uuidv7Tick{1} << kUuidv7SubmsBits;

using Uuidv7Step = IssueStep;

struct Uuidv7Issue {
    Uuidv7Step step;
    Uuidv7Tick tick;        // with issue
    Uuidv7Tick wait_ticks;  // with wait: how far the clock must advance
    bool clock_regressed;   // the clock read earlier than at the previous call
    bool ran_ahead;         // tick is ahead of the clock, to stay above last_issued
};

// Issues the next tick for a clock reading, above both seq.last_issued and
// floor (another generator's last tick, for server-wide order), and records it
// in seq. The tick may run at most max_lead ticks ahead of now: a call that
// would go further waits for the clock instead (seq untouched), so calls that
// come faster than the clock cannot push the sequence further ahead. A clock
// set back by more than max_lead + kUuidv7WaitWindow is not waited for: the
// sequence keeps counting up from its last tick. Exhausted leaves seq untouched.
Uuidv7Issue uuidv7_issue(Uuidv7Sequence &seq, Uuidv7Tick now, Uuidv7Tick floor,
                         Uuidv7Tick max_lead) noexcept;

// Writes the UUID for tick with the low 62 bits of random as rand_b.
void uuidv7_encode(Uuidv7Tick tick, std::uint64_t random, std::uint8_t out[kUuidBytes]) noexcept;

// The smallest UUIDv7 of the millisecond unix_ms: rand_a and rand_b all zero.
// Precondition: 0 <= unix_ms <= kUuidv7MaxUnixMs.
void uuidv7_boundary(std::int64_t unix_ms, std::uint8_t out[kUuidBytes]) noexcept;

// unix_ts_ms of a UUID whose version is 7 and variant is 0b10, else nullopt.
std::optional<std::int64_t> uuidv7_unix_ms(const std::uint8_t uuid[kUuidBytes]) noexcept;

}  // namespace idgen::core
