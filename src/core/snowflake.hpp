// Instagram-style 64-bit snowflake IDs ("Sharding & IDs at Instagram", 2011):
// milliseconds since a custom epoch, a logical shard and a per-shard sequence.
// Instagram's time field has 41 bits, whose top bit is the bigint sign bit;
// idgen keeps that bit 0, so IDs never turn negative and stop 2^40 ms after
// the epoch instead. Pure C++17: the clock reading is passed in.
//
//    63 62                                    23 22           10 9          0
//   +--+----------------------------------------+---------------+------------+
//   | 0|      ms since the epoch (40 bits)      | shard (13)    | seq (10)   |
//   +--+----------------------------------------+---------------+------------+
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace idgen::core {

inline constexpr int kSnowflakeSeqBits = 10;
inline constexpr int kSnowflakeShardBits = 13;
inline constexpr int kSnowflakeTimeShift = kSnowflakeSeqBits + kSnowflakeShardBits;
inline constexpr std::int32_t kSnowflakeMaxShard = (1 << kSnowflakeShardBits) - 1;  // 8191
inline constexpr std::int32_t kSnowflakeMaxSeq = (1 << kSnowflakeSeqBits) - 1;      // 1023
inline constexpr std::int64_t kSnowflakeMaxMs = (std::int64_t{1} << 40) - 1;

// A stamp is ms << 10 | seq: one shard's position. A shard's IDs order as
// their stamps do; 0 means nothing was issued yet.
using SnowflakeStamp = std::uint64_t;

inline constexpr std::int64_t snowflake_stamp_ms(SnowflakeStamp stamp) noexcept {
    return static_cast<std::int64_t>(stamp >> kSnowflakeSeqBits);
}

inline constexpr std::int32_t snowflake_stamp_seq(SnowflakeStamp stamp) noexcept {
    return static_cast<std::int32_t>(stamp & kSnowflakeMaxSeq);
}

inline constexpr bool snowflake_shard_valid(std::int64_t shard) noexcept {
    return shard >= 0 && shard <= kSnowflakeMaxShard;
}

// The ID of a stamp on a shard. Preconditions: stamp ms <= kSnowflakeMaxMs,
// snowflake_shard_valid(shard).
inline constexpr std::int64_t snowflake_id(SnowflakeStamp stamp, std::int32_t shard) noexcept {
    return static_cast<std::int64_t>(
        ((stamp >> kSnowflakeSeqBits) << kSnowflakeTimeShift) |
        (static_cast<std::uint64_t>(shard) << kSnowflakeSeqBits) | (stamp & kSnowflakeMaxSeq));
}

// The smallest ID of a millisecond and shard, for range predicates.
// Preconditions: 0 <= ms <= kSnowflakeMaxMs, snowflake_shard_valid(shard).
inline constexpr std::int64_t snowflake_boundary(std::int64_t ms, std::int32_t shard) noexcept {
    return (ms << kSnowflakeTimeShift) | (std::int64_t{shard} << kSnowflakeSeqBits);
}

// Decoders of an ID. Precondition: id >= 0.
inline constexpr std::int64_t snowflake_id_ms(std::int64_t id) noexcept {
    return id >> kSnowflakeTimeShift;
}
inline constexpr std::int32_t snowflake_id_shard(std::int64_t id) noexcept {
    return static_cast<std::int32_t>((id >> kSnowflakeSeqBits) & kSnowflakeMaxShard);
}
inline constexpr std::int32_t snowflake_id_seq(std::int64_t id) noexcept {
    return static_cast<std::int32_t>(id & kSnowflakeMaxSeq);
}

enum class SnowflakeStep {
    issue,         // stamp is the next one
    wait,          // the shard is max_lead_ms ahead of the clock: wait for the next millisecond
    clock_behind,  // the clock is further behind the shard than a wait can mend
    exhausted,     // the next stamp would pass kSnowflakeMaxMs (the sign bit)
    before_epoch,  // the clock reads before the epoch
};

struct SnowflakeNext {
    SnowflakeStep step;
    SnowflakeStamp stamp;  // with issue: the stamp to publish
    std::int64_t lead_ms;  // ms of the next stamp minus now_ms (> 0: ahead of the clock)
};

// The step after stamp last for a clock reading now_ms (ms since the epoch).
// The next stamp is the larger of (now_ms, 0) and last + 1, so a shard never
// repeats: more than 1024 IDs in a millisecond borrow the next millisecond, and
// a clock that went back keeps counting from last. Either way the shard may run
// at most max_lead_ms ahead of the clock; one millisecond further is a wait
// (a burst), anything beyond that means the clock went back too far.
SnowflakeNext snowflake_next(SnowflakeStamp last, std::int64_t now_ms,
                             std::int64_t max_lead_ms) noexcept;

// The stamp issued last before a lease ending at lease_ms (exclusive): every
// stamp issued after it has ms >= lease_ms. 0 when lease_ms is 0.
inline constexpr SnowflakeStamp snowflake_stamp_below(std::int64_t lease_ms) noexcept {
    return lease_ms <= 0 ? 0 : (static_cast<SnowflakeStamp>(lease_ms) << kSnowflakeSeqBits) - 1;
}

// A set of shards, one bit per shard (1 KiB): what idgen.allowed_shards holds.
inline constexpr int kSnowflakeShardCount = kSnowflakeMaxShard + 1;  // 8192
struct SnowflakeShardSet {
    std::uint64_t words[kSnowflakeShardCount / 64];
};

inline constexpr bool snowflake_shard_set_contains(const SnowflakeShardSet &set,
                                                   std::int64_t shard) noexcept {
    return snowflake_shard_valid(shard) &&
           ((set.words[shard / 64] >> (shard % 64)) & 1) != 0;
}

enum class ShardListError {
    none,
    empty_item,    // nothing between two commas, or a trailing comma
    syntax,        // an item that is neither N nor N-M
    out_of_range,  // a number above kSnowflakeMaxShard
    descending,    // a range N-M with M < N
};

// The outcome of parsing a shard list; on an error, the offending item is
// text.substr(item_begin, item_length) (empty for empty_item).
struct ShardListParse {
    ShardListError error;
    std::size_t item_begin;
    std::size_t item_length;
};

// Parses a comma-separated list of shards and inclusive ranges, such as
// '0-15, 100', into out (every bit written; only the listed shards set).
// Spaces and tabs may surround numbers, commas and dashes; an empty or blank
// text is the empty set. On an error out holds no meaningful set.
ShardListParse snowflake_parse_shard_list(std::string_view text, SnowflakeShardSet &out) noexcept;

// Parses an epoch setting, 'YYYY-MM-DD' optionally followed by ' HH:MM[:SS[.fff]]'
// (or 'T' as separator) and 'Z' or '+00[:00]', always UTC, into Unix
// milliseconds; nullopt for anything else or a date before 1970 or after 9999.
std::optional<std::int64_t> snowflake_parse_epoch(std::string_view text) noexcept;

// Days from 1970-01-01 to a proleptic Gregorian date. Precondition: valid date.
std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day) noexcept;

}  // namespace idgen::core
