// Time-ordered 64-bit integer IDs in the style of Instagram's ("Sharding & IDs
// at Instagram", 2011): milliseconds since a custom epoch, a logical shard and a
// per-shard sequence. Two bit splits share everything but the split:
//
// snowflake, 63 bits. Instagram's time field has 41 bits, whose top bit is the
// bigint sign bit; idgen keeps that bit 0, so IDs never turn negative and stop
// 2^40 ms (34.8 years) after the epoch instead.
//
//    63 62                                    23 22           10 9          0
//   +--+----------------------------------------+---------------+------------+
//   | 0|      ms since the epoch (40 bits)      | shard (13)    | seq (10)   |
//   +--+----------------------------------------+---------------+------------+
//
// snowflake53, 53 bits: every ID is at most 2^53 - 1, JavaScript's
// Number.MAX_SAFE_INTEGER (ECMA-262, Number type), so JSON.parse keeps it
// exact. The same 40-bit time field (same epoch, same end), 16 shards and
// 512 IDs per millisecond per shard.
//
//    63      53 52                                   13 12    9 8         0
//   +----------+---------------------------------------+-------+-----------+
//   | 0 (11)   |      ms since the epoch (40 bits)     | shard | seq (9)   |
//   |          |                                       | (4)   |           |
//   +----------+---------------------------------------+-------+-----------+
//
// Pure C++17: the clock reading is passed in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace idgen::core {

// A bit split: the sequence in the low bits, the shard above it, the time above both.
struct SnowflakeLayout {
    int seq_bits;
    int shard_bits;
};

inline constexpr SnowflakeLayout kSnowflake63{10, 13};
inline constexpr SnowflakeLayout kSnowflake53{9, 4};

// Both splits leave 40 bits of milliseconds: the lease and the epoch are shared.
inline constexpr int kSnowflakeTimeBits = 40;
inline constexpr std::int64_t kSnowflakeMaxMs = (std::int64_t{1} << kSnowflakeTimeBits) - 1;

inline constexpr int snowflake_id_bits(SnowflakeLayout layout) noexcept {
    return kSnowflakeTimeBits + layout.shard_bits + layout.seq_bits;
}
static_assert(snowflake_id_bits(kSnowflake63) == 63);
static_assert(snowflake_id_bits(kSnowflake53) == 53);

inline constexpr int snowflake_time_shift(SnowflakeLayout layout) noexcept {
    return layout.seq_bits + layout.shard_bits;
}
inline constexpr std::int32_t snowflake_max_shard(SnowflakeLayout layout) noexcept {
    return (std::int32_t{1} << layout.shard_bits) - 1;
}
inline constexpr std::int32_t snowflake_max_seq(SnowflakeLayout layout) noexcept {
    return (std::int32_t{1} << layout.seq_bits) - 1;
}
inline constexpr std::int64_t snowflake_max_id(SnowflakeLayout layout) noexcept {
    return static_cast<std::int64_t>((std::uint64_t{1} << snowflake_id_bits(layout)) - 1);
}

// The largest shard of any split: what idgen.shard_id and idgen.allowed_shards hold.
inline constexpr std::int32_t kSnowflakeMaxShard = snowflake_max_shard(kSnowflake63);  // 8191

// A stamp is ms << seq_bits | seq: one shard's position. A shard's IDs order
// as their stamps do; 0 means nothing was issued yet.
using SnowflakeStamp = std::uint64_t;

inline constexpr std::int64_t snowflake_stamp_ms(SnowflakeLayout layout,
                                                 SnowflakeStamp stamp) noexcept {
    return static_cast<std::int64_t>(stamp >> layout.seq_bits);
}

inline constexpr std::int32_t snowflake_stamp_seq(SnowflakeLayout layout,
                                                  SnowflakeStamp stamp) noexcept {
    return static_cast<std::int32_t>(stamp & static_cast<std::uint64_t>(snowflake_max_seq(layout)));
}

inline constexpr bool snowflake_shard_valid(SnowflakeLayout layout, std::int64_t shard) noexcept {
    return shard >= 0 && shard <= snowflake_max_shard(layout);
}

// The splits are told apart by value: every 53-bit ID is at most 2^53 - 1,
// and the 63-bit split starts at 2^53, its first 2^30 ms (about 12.4 days
// after the epoch) being unused. So a decoder refuses the other split's IDs.
inline constexpr int kSnowflakeSmallIdBits = 53;
inline constexpr std::int64_t snowflake_min_ms(SnowflakeLayout layout) noexcept {
    return snowflake_id_bits(layout) > kSnowflakeSmallIdBits
               ? std::int64_t{1} << (kSnowflakeSmallIdBits - snowflake_time_shift(layout))
               : 0;
}
inline constexpr std::int64_t snowflake_min_id(SnowflakeLayout layout) noexcept {
    return snowflake_min_ms(layout) << snowflake_time_shift(layout);
}

// Whether a bigint can be an ID of the split (decoders refuse the others).
inline constexpr bool snowflake_id_valid(SnowflakeLayout layout, std::int64_t id) noexcept {
    return id >= snowflake_min_id(layout) && id <= snowflake_max_id(layout);
}

// The ID of a stamp on a shard. Preconditions: stamp ms <= kSnowflakeMaxMs,
// snowflake_shard_valid(layout, shard).
inline constexpr std::int64_t snowflake_id(SnowflakeLayout layout, SnowflakeStamp stamp,
                                           std::int32_t shard) noexcept {
    return static_cast<std::int64_t>(
        (static_cast<std::uint64_t>(snowflake_stamp_ms(layout, stamp))
         << snowflake_time_shift(layout)) |
        (static_cast<std::uint64_t>(shard) << layout.seq_bits) |
        static_cast<std::uint64_t>(snowflake_stamp_seq(layout, stamp)));
}

// The smallest ID of a millisecond and shard, for range predicates.
// Preconditions: 0 <= ms <= kSnowflakeMaxMs, snowflake_shard_valid(layout, shard).
inline constexpr std::int64_t snowflake_boundary(SnowflakeLayout layout, std::int64_t ms,
                                                 std::int32_t shard) noexcept {
    return (ms << snowflake_time_shift(layout)) | (std::int64_t{shard} << layout.seq_bits);
}

// Decoders of an ID. Precondition: snowflake_id_valid(layout, id).
inline constexpr std::int64_t snowflake_id_ms(SnowflakeLayout layout, std::int64_t id) noexcept {
    return id >> snowflake_time_shift(layout);
}
inline constexpr std::int32_t snowflake_id_shard(SnowflakeLayout layout, std::int64_t id) noexcept {
    return static_cast<std::int32_t>((id >> layout.seq_bits) & snowflake_max_shard(layout));
}
inline constexpr std::int32_t snowflake_id_seq(SnowflakeLayout layout, std::int64_t id) noexcept {
    return static_cast<std::int32_t>(id & snowflake_max_seq(layout));
}

enum class SnowflakeStep {
    issue,         // stamp is the next one
    wait,          // the shard is max_lead_ms ahead of the clock: wait for the next millisecond
    clock_behind,  // the clock is further behind the shard than a wait can mend
    exhausted,     // the next stamp would pass kSnowflakeMaxMs (the sign bit, or 2^53)
    before_epoch,  // the clock reads before the epoch
};

struct SnowflakeNext {
    SnowflakeStep step;
    SnowflakeStamp stamp;  // with issue: the stamp to publish
    std::int64_t lead_ms;  // ms of the next stamp minus now_ms (> 0: ahead of the clock)
};

// The step after stamp last for a clock reading now_ms (ms since the epoch).
// The next stamp is the larger of (now_ms, 0) and last + 1, so a shard never
// repeats: more IDs in a millisecond than the sequence holds (1024 or 512)
// borrow the next millisecond, and
// a clock that went back keeps counting from last. Either way the shard may run
// at most max_lead_ms ahead of the clock; one millisecond further is a wait
// (a burst), anything beyond that means the clock went back too far.
SnowflakeNext snowflake_next(SnowflakeLayout layout, SnowflakeStamp last, std::int64_t now_ms,
                             std::int64_t max_lead_ms) noexcept;

// The stamp issued last before a lease ending at lease_ms (exclusive): every
// stamp issued after it has ms >= lease_ms. 0 when lease_ms is 0.
inline constexpr SnowflakeStamp snowflake_stamp_below(SnowflakeLayout layout,
                                                      std::int64_t lease_ms) noexcept {
    return lease_ms <= 0 ? 0 : (static_cast<SnowflakeStamp>(lease_ms) << layout.seq_bits) - 1;
}

// A set of shards, one bit per shard (1 KiB): what idgen.allowed_shards holds.
inline constexpr int kSnowflakeShardCount = kSnowflakeMaxShard + 1;  // 8192
struct SnowflakeShardSet {
    std::uint64_t words[kSnowflakeShardCount / 64];
};

inline constexpr bool snowflake_shard_set_contains(const SnowflakeShardSet &set,
                                                   std::int64_t shard) noexcept {
    return snowflake_shard_valid(kSnowflake63, shard) &&
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
