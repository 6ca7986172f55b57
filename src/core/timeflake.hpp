// Timeflake (github.com/anthonynsimon/timeflake, README "Spec"): a 48-bit
// Unix millisecond timestamp, then 80 random bits, most significant byte
// first, in 16 bytes held as a uuid. No version or variant bits are set, so a
// Timeflake is not an RFC 9562 UUID: uuid_extract_version() of one is
// whatever its random bits say. Its base62 text (22 characters 0-9A-Za-z,
// left-padded with '0') is uuid_encode's 'base62' form (core/short_text).
//
// The layout is ULID's bit for bit (core/ulid.hpp), so the helpers and the
// monotonic issue of ulid serve here rather than being written twice: within
// a millisecond, or when the clock goes back, the next Timeflake is the last
// + 1, carrying into the millisecond. Pure C++17: time and random bits are
// passed in.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/ulid.hpp"

namespace idgen::core {

inline constexpr int kTimeflakeRandomBits = kUlidRandomBits;
inline constexpr std::int64_t kTimeflakeMaxUnixMs = kUlidMaxUnixMs;
inline constexpr std::size_t kTimeflakeRandomBytes = kTimeflakeRandomBits / 8;
// The decimal digits of the largest 80-bit value, 2^80 - 1 = 1208925819614629174706175.
inline constexpr std::size_t kTimeflakeRandomMaxDigits = 25;

// The Timeflake of a millisecond with the low 80 bits of random.
// Precondition: 0 <= unix_ms <= kTimeflakeMaxUnixMs.
inline constexpr Uint128 timeflake_make(std::int64_t unix_ms, Uint128 random) noexcept {
    return ulid_make(unix_ms, random);
}

inline constexpr std::int64_t timeflake_unix_ms(Uint128 id) noexcept { return ulid_unix_ms(id); }

inline constexpr Uint128 timeflake_random(Uint128 id) noexcept { return id & kUlidRandomMask; }

// The smallest Timeflake of a millisecond: all random bits zero.
inline constexpr Uint128 timeflake_boundary(std::int64_t unix_ms) noexcept { return ulid_make(unix_ms, 0); }

// One generator's memory (a session's): all zero before the first Timeflake.
using TimeflakeSequence = UlidSequence;

// Whether the next Timeflake at clock now_ms takes fresh random bits (a new
// millisecond, or the first); otherwise timeflake_issue ignores them and the
// caller may skip drawing them.
inline constexpr bool timeflake_needs_random(const TimeflakeSequence &seq, std::int64_t now_ms) noexcept {
    return ulid_needs_random(seq, 0, now_ms);
}

// The next Timeflake of seq at clock now_ms: in a millisecond past the last
// one's, that millisecond with random; otherwise (the same millisecond, or the
// clock went back) the last + 1, carrying into the next millisecond when the 80
// random bits overflow. No floor and no lead bound (ulid's clock lease and
// idgen.max_clock_regression): after the clock went back the sequence counts
// on from its last value until the clock passes it. Returns issue, or
// exhausted (seq untouched) after the largest value. Precondition: 0 <= now_ms
// <= kTimeflakeMaxUnixMs.
inline UlidIssue timeflake_issue(TimeflakeSequence &seq, std::int64_t now_ms, Uint128 random) noexcept {
    return ulid_issue(seq, now_ms, 0, 0, kTimeflakeMaxUnixMs, random);
}

// Writes the 80 random bits of id in decimal, without leading zeros ("0" for
// zero) and without a terminator; returns the number of digits (1 to 25).
std::size_t timeflake_random_decimal(Uint128 id, char out[kTimeflakeRandomMaxDigits]) noexcept;

}  // namespace idgen::core
