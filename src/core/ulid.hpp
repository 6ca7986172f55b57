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

#include "core/lead_bound.hpp"
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

// How far beyond its bound a lead may be and still be a wait (lead_wait): one
// millisecond, as for uuid_v7.
inline constexpr std::int64_t kUlidWaitWindowMs = 1;

struct UlidIssue {
    IssueStep step;
    Uint128 id;            // with issue
    std::int64_t wait_ms;  // with wait: how far the clock must advance
    bool clock_regressed;  // the clock read earlier than at the previous call
    bool ran_ahead;        // the ID's millisecond is ahead of the clock
};

// The ID that the next one must exceed: the sequence's last, or above (the
// last ID another generator issued, for server-wide order) when larger.
inline constexpr Uint128 ulid_last(const UlidSequence &seq, Uint128 above) noexcept {
    return seq.last_issued > above ? seq.last_issued : above;
}

// True when the next ID, issued at millisecond ms (the clock, or the floor
// when that is later), takes fresh random bits: it starts a new millisecond,
// or it is the first (even at Unix millisecond 0, so that no two sequences
// start on the same value); otherwise ulid_issue ignores them, and the caller
// may skip drawing.
inline constexpr bool ulid_needs_random(const UlidSequence &seq, Uint128 above,
                                        std::int64_t ms) noexcept {
    Uint128 last = ulid_last(seq, above);
    return ms > ulid_unix_ms(last) || last == 0;
}

// The spec's monotonic mode, above both seq.last_issued and above, and never
// in a millisecond before floor_ms (the clock lease's floor): in a millisecond
// past the last ID's, that millisecond (the clock's, or floor_ms when later)
// with fresh random bits; otherwise (same millisecond, the clock went back, or
// another generator is ahead) the last ID + 1, carrying into the next
// millisecond when the 80 random bits overflow. The ID may run at most
// max_lead_ms ahead of now_ms (the lead bound, core/lead_bound.hpp): a call
// that would go further by up to kUlidWaitWindowMs waits for the clock
// instead. Records an issued ID in seq; a wait or exhaustion (the last ID is
// the largest ULID) leaves seq untouched. Precondition: 0 <= now_ms <=
// kUlidMaxUnixMs, floor_ms <= kUlidMaxUnixMs, max_lead_ms >= 0.
UlidIssue ulid_issue(UlidSequence &seq, std::int64_t now_ms, Uint128 above, std::int64_t floor_ms,
                     std::int64_t max_lead_ms, Uint128 random) noexcept;

}  // namespace idgen::core
