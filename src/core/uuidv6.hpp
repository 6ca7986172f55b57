// UUID version 6 (RFC 9562 §5.6): UUIDv1's fields reordered so that byte
// order is time order, and the v1 <-> v6 reordering. Pure C++17: time and
// random bits are passed in.
//
//   0                   1                   2                   3
//   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                           time_high                           |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |           time_mid            |  ver  |       time_low        |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |var|         clock_seq         |             node              |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                              node                             |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//
// The 60 time bits (time_high 32, time_mid 16, time_low 12, most significant
// first) count 100 ns intervals since 1582-10-15 00:00:00 UTC. UUIDv1 holds
// the same count as time_low (its low 32 bits) | time_mid (16) | ver 1 |
// time_high (its top 12 bits), with the clock sequence and node unchanged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/lead_bound.hpp"
#include "core/uuidv7.hpp"

namespace idgen::core {

// A tick is the 60-bit count of 100 ns intervals since 1582-10-15 (the
// Gregorian reform). Ticks order exactly as UUIDv6 values do.
using Uuidv6Tick = std::uint64_t;
inline constexpr Uuidv6Tick kUuidv6MaxTick = (Uuidv6Tick{1} << 60) - 1;
inline constexpr std::int64_t kUuidv6TicksPerUs = 10;
inline constexpr std::int64_t kUuidv6TicksPerMs = 10'000;
// Ticks from 1582-10-15 to the Unix epoch (RFC 9562 §5.1): 122,192,928,000,000,000.
inline constexpr std::int64_t kUuidv6UnixEpochTick = 122'192'928'000'000'000;
// The last tick, 2^60 - 1, is 5236-03-31 21:21:00.6846975 UTC: Unix microsecond
// kUuidv6MaxUnixUs and 5 ticks (500 ns) more.
inline constexpr std::int64_t kUuidv6MaxUnixUs =
    (static_cast<std::int64_t>(kUuidv6MaxTick) - kUuidv6UnixEpochTick) / kUuidv6TicksPerUs;
inline constexpr std::int64_t kUuidv6MinUnixUs = -kUuidv6UnixEpochTick / kUuidv6TicksPerUs;

// The tick of a Unix microsecond plus extra_ticks (0..9) of 100 ns below it;
// nullopt before 1582-10-15 or beyond 60 bits.
std::optional<Uuidv6Tick> uuidv6_tick_of_unix_us(std::int64_t unix_us,
                                                 std::uint32_t extra_ticks) noexcept;

// The tick of a Unix nanosecond (floored to 100 ns); nullopt out of range.
std::optional<Uuidv6Tick> uuidv6_tick_of_unix_ns(std::int64_t unix_ns) noexcept;

// The Unix microsecond holding tick (floored).
inline constexpr std::int64_t uuidv6_tick_unix_us(Uuidv6Tick tick) noexcept {
    std::int64_t since_unix = static_cast<std::int64_t>(tick) - kUuidv6UnixEpochTick;
    std::int64_t q = since_unix / kUuidv6TicksPerUs;
    return since_unix % kUuidv6TicksPerUs < 0 ? q - 1 : q;
}

// The Unix millisecond holding tick (floored).
inline constexpr std::int64_t uuidv6_tick_unix_ms(Uuidv6Tick tick) noexcept {
    std::int64_t since_unix = static_cast<std::int64_t>(tick) - kUuidv6UnixEpochTick;
    std::int64_t q = since_unix / kUuidv6TicksPerMs;
    return since_unix % kUuidv6TicksPerMs < 0 ? q - 1 : q;
}

// Per-generator memory for strictly increasing ticks, as Uuidv7Sequence.
struct Uuidv6Sequence {
    Uuidv6Tick last_issued;  // 0 before the first ID
    Uuidv6Tick last_clock;   // clock reading at the previous call
};

// How far beyond its bound a lead may be and still be a wait: 1 ms, as uuid_v7's.
inline constexpr Uuidv6Tick kUuidv6WaitWindow = kUuidv6TicksPerMs;

struct Uuidv6Issue {
    IssueStep step;
    Uuidv6Tick tick;        // with issue
    Uuidv6Tick wait_ticks;  // with wait: how far the clock must advance
    bool clock_regressed;   // the clock read earlier than at the previous call
    bool ran_ahead;         // tick is ahead of the clock, to stay above last_issued
};

// uuidv7_issue's rule at 100 ns: the next tick for a clock reading, above
// seq.last_issued and floor, at most max_lead ticks ahead of now (beyond it,
// up to kUuidv6WaitWindow more, a wait; further, a clock set back: counting
// on). Records the tick in seq; a wait or exhausted leaves seq untouched.
Uuidv6Issue uuidv6_issue(Uuidv6Sequence &seq, Uuidv6Tick now, Uuidv6Tick floor,
                         Uuidv6Tick max_lead) noexcept;

// Writes the UUIDv6 of tick with the low 14 bits of clock_seq and the low 48
// bits of node, as given. Precondition: tick <= kUuidv6MaxTick.
void uuidv6_encode(Uuidv6Tick tick, std::uint16_t clock_seq, std::uint64_t node,
                   std::uint8_t out[kUuidBytes]) noexcept;

// Writes the UUIDv6 of tick with a random clock sequence (14 bits of random)
// and a random node (47 more bits) whose multicast bit, the least significant
// bit of its first octet, is set (RFC 9562 §6.10): no MAC address can equal it.
void uuidv6_encode_random(Uuidv6Tick tick, std::uint64_t random,
                          std::uint8_t out[kUuidBytes]) noexcept;

// The smallest UUIDv6 of a tick: clock sequence and node all zero.
inline void uuidv6_boundary(Uuidv6Tick tick, std::uint8_t out[kUuidBytes]) noexcept {
    uuidv6_encode(tick, 0, 0, out);
}

// The version nibble of a UUID, and whether its variant is RFC 9562's (0b10).
inline constexpr int uuid_version(const std::uint8_t uuid[kUuidBytes]) noexcept {
    return uuid[6] >> 4;
}
inline constexpr bool uuid_rfc_variant(const std::uint8_t uuid[kUuidBytes]) noexcept {
    return (uuid[8] >> 6) == 0b10;
}

// The tick of a UUID of version 1 or 6 with the RFC variant, else nullopt.
std::optional<Uuidv6Tick> uuidv1_or_v6_tick(const std::uint8_t uuid[kUuidBytes]) noexcept;

// Why a reordering refused its input.
enum class UuidReorder {
    ok,
    not_rfc_variant,  // the variant bits are not 0b10: the version field means nothing
    wrong_version,    // an RFC 9562 UUID of another version
};

// The UUIDv6 holding the same time, clock sequence and node as a UUIDv1 (and
// the reverse): writes out only when ok.
UuidReorder uuidv6_from_v1(const std::uint8_t v1[kUuidBytes], std::uint8_t out[kUuidBytes]) noexcept;
UuidReorder uuidv1_from_v6(const std::uint8_t v6[kUuidBytes], std::uint8_t out[kUuidBytes]) noexcept;

}  // namespace idgen::core
