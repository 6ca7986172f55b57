// ULID (github.com/ulid/spec): a 48-bit Unix millisecond timestamp, then 80
// random bits, most significant byte first, so it fills 16 bytes in the same
// order as a UUID and sorts as one. Pure C++17: time and random bits are
// passed in.
//
//   0                   1                   2                   3
//   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                      32_bit_uint_time_high                    |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |     16_bit_uint_time_low      |       16_bit_uint_random      |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                       32_bit_uint_random                      |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                       32_bit_uint_random                      |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
#pragma once

#include <cstdint>
#include <optional>

#include "core/uint128.hpp"

namespace idgen::core {

inline constexpr int kUlidRandomBits = 80;
inline constexpr std::int64_t kUlidMaxUnixMs = (std::int64_t{1} << 48) - 1;
inline constexpr Uint128 kUlidRandomMask = (Uint128{1} << kUlidRandomBits) - 1;

// The ULID of a millisecond with the low 80 bits of random. Precondition:
// 0 <= unix_ms <= kUlidMaxUnixMs.
inline constexpr Uint128 ulid_make(std::int64_t unix_ms, Uint128 random) noexcept {
    return (static_cast<Uint128>(unix_ms) << kUlidRandomBits) | (random & kUlidRandomMask);
}

inline constexpr std::int64_t ulid_unix_ms(Uint128 id) noexcept {
    return static_cast<std::int64_t>(id >> kUlidRandomBits);
}

// The smallest ULID of a millisecond: all random bits zero.
inline constexpr Uint128 ulid_boundary(std::int64_t unix_ms) noexcept {
    return ulid_make(unix_ms, 0);
}

// Per-generator memory for monotonic ULIDs; all zero before the first ID.
struct UlidSequence {
    Uint128 last_issued;
    std::int64_t last_clock_ms;  // clock reading at the previous call
};

struct UlidIssue {
    Uint128 id;
    bool clock_regressed;  // the clock read earlier than at the previous call
    bool ran_ahead;        // the ID's millisecond is ahead of the clock
};

// True when the next ID at now_ms takes fresh random bits: it starts a new
// millisecond, or it is the sequence's first (even at Unix millisecond 0, so
// that no two sequences start on the same value); otherwise ulid_issue ignores
// them, and the caller may skip drawing.
inline constexpr bool ulid_needs_random(const UlidSequence &seq, std::int64_t now_ms) noexcept {
    return now_ms > ulid_unix_ms(seq.last_issued) || seq.last_issued == 0;
}

// The spec's monotonic mode: in a millisecond past the last ID's, that
// millisecond with fresh random bits; otherwise (same millisecond, or the
// clock went back) the last ID + 1, carrying into the next millisecond when
// the 80 random bits overflow. Records the ID in seq; nullopt (seq untouched)
// once the last ID is the largest ULID. Precondition: 0 <= now_ms <= kUlidMaxUnixMs.
std::optional<UlidIssue> ulid_issue(UlidSequence &seq, std::int64_t now_ms, Uint128 random) noexcept;

}  // namespace idgen::core
