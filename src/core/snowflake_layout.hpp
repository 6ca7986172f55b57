// Snowflake layouts as data: an epoch, a time unit and the fields of a 64-bit
// integer ID from the most significant bit down (the time field, node fields
// such as datacenter, worker or machine, and the sequence), each with a width.
// Decoding, composing and range boundaries in any layout, and the arithmetic
// of minting in one: snowflake.hpp's stamps with a tick of the layout's unit.
//
// The predefined layouts (fields from the most significant bit):
//
//   instagram  0 | time 40 (1 ms, idgen.snowflake_epoch) | shard 13 | sequence 10
//   twitter    0 | time 41 (1 ms, 1288834974657)    | datacenter 5 | worker 5 | sequence 12
//   discord    time 42 (1 ms, 2015-01-01)           | worker 5 | process 5 | sequence 12
//   sonyflake  0 | time 39 (10 ms, 2014-09-01)      | sequence 8 | machine 16
//   pgedge     0 | time 41 (1 ms, 2023-01-01)       | node 10 | sequence 12
//
// Discord's 42 + 5 + 5 + 12 = 64 bits give its time field the sign bit of a
// bigint. A layout may be 64 bits wide only so (the time field first; only
// the predefined discord is): its IDs are read while that bit is 0, which
// holds until epoch + 2^41 units (2084-09-06 for Discord); an ID with the top
// bit set is a negative bigint and refused, and no ID is composed with it.
// Every other layout is at most 63 bits, so its IDs are never negative.
//
// Pure C++17: no allocation, every function noexcept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/snowflake.hpp"

namespace idgen::core {

enum class LayoutFieldKind : std::uint8_t { time, node, sequence };

inline constexpr int kLayoutMaxFields = 8;        // time, sequence and up to 6 node fields
inline constexpr std::size_t kLayoutMaxName = 63;  // a field or layout name's bytes
inline constexpr std::int64_t kLayoutMaxUnitMs = 86'400'000;  // one day
// Epochs and every time a layout can hold lie in [1970-01-01, 10000-01-01).
inline constexpr std::int64_t kLayoutEndOfTimeMs = 253'402'300'800'000;

struct LayoutField {
    char name[kLayoutMaxName + 1];  // NUL-terminated
    LayoutFieldKind kind;
    std::uint8_t bits;
};

struct Layout {
    std::int64_t epoch_ms;  // Unix milliseconds
    std::int64_t unit_ms;   // length of one unit of the time field
    int field_count;
    LayoutField fields[kLayoutMaxFields];  // from the most significant bit down
};

enum class LayoutError {
    none,
    too_many_fields,     // more than kLayoutMaxFields
    bad_width,           // a width below 1 or above 63
    too_wide,            // more than 63 bits (64 only with the time field first, if allowed)
    no_time,             // no time field
    two_times,           // more than one time field
    no_sequence,         // no sequence field
    two_sequences,       // more than one sequence field
    bad_name,            // empty, too long, or not [a-z_][a-z0-9_]*
    duplicate_name,      // two fields share a name
    reserved_name,       // a node field named time, sequence, unix_ms or timestamp
    bad_unit,            // unit below 1 ms or above a day
    bad_epoch,           // epoch before 1970 or from the year 10000
    outlasts_year_9999,  // the time field would hold times from the year 10000 on
};

// Whether a name is [a-z_][a-z0-9_]*, 1 to kLayoutMaxName bytes.
bool layout_name_valid(std::string_view name) noexcept;

// Checks a layout. allow_64 admits 64 bits when the time field is the first
// (the predefined discord); user layouts pass false.
LayoutError layout_validate(const Layout &layout, bool allow_64) noexcept;

// The layout's total width in bits (63 or less, or 64 for discord).
int layout_total_bits(const Layout &layout) noexcept;

// The shift of field i (its lowest bit's position).
int layout_shift(const Layout &layout, int index) noexcept;

// Index of the field named name, or -1.
int layout_find(const Layout &layout, std::string_view name) noexcept;

// Index of the time field (a valid layout has one).
int layout_time_index(const Layout &layout) noexcept;

// The usable bits of the time field: its width, less one when the layout is
// 64 bits wide (the sign bit).
int layout_time_value_bits(const Layout &layout) noexcept;

// The largest value a field can hold in a bigint ID.
std::int64_t layout_field_max(const Layout &layout, int index) noexcept;

// The Unix ms at which the time field runs out: epoch + unit * 2^time bits
// (the first instant it cannot hold). Precondition: a valid layout.
std::int64_t layout_end_ms(const Layout &layout) noexcept;

// Whether the layout's time field had run out at Unix ms now_ms.
inline bool layout_ran_out(const Layout &layout, std::int64_t now_ms) noexcept {
    return now_ms >= layout_end_ms(layout);
}

enum class LayoutIdError {
    none,
    negative,         // a negative bigint (in discord: the top bit set)
    above_layout,     // bits set above the layout's total width
    field_range,      // a field's value below 0 or above its width
    before_epoch,     // a time before the layout's epoch
    after_end,        // a time at or after the layout's end
};

// The values of an ID's fields, in the layout's order.
struct LayoutValues {
    std::int64_t values[kLayoutMaxFields];
};

// An ID's fields. Preconditions: a valid layout.
LayoutIdError layout_decompose(const Layout &layout, std::int64_t id, LayoutValues &out) noexcept;

// The Unix ms of a time field's value (epoch + value * unit).
std::int64_t layout_unix_ms(const Layout &layout, std::int64_t time_value) noexcept;

// The time field's value of the unit holding Unix ms unix_ms, or an error
// (before_epoch, after_end) when the layout cannot hold it.
LayoutIdError layout_time_value(const Layout &layout, std::int64_t unix_ms,
                                std::int64_t &out) noexcept;

// The ID of the given field values (each range-checked; out written on none).
// On field_range, bad_field is the index of the field refused.
LayoutIdError layout_compose(const Layout &layout, const LayoutValues &values, std::int64_t &out,
                             int &bad_field) noexcept;

// The smallest and the largest ID of the unit holding unix_ms (every other
// field 0, or every other field at its largest), for range predicates.
LayoutIdError layout_boundary(const Layout &layout, std::int64_t unix_ms, bool largest,
                              std::int64_t &out) noexcept;

enum class PredefinedLayout { instagram, twitter, discord, sonyflake, pgedge };
inline constexpr int kPredefinedLayoutCount = 5;

// A predefined layout by name, or nullopt. The instagram layout's epoch is
// the caller's (idgen.snowflake_epoch): instagram_epoch_ms.
std::optional<Layout> predefined_layout(std::string_view name,
                                        std::int64_t instagram_epoch_ms) noexcept;

// The name of the i-th predefined layout (0 <= i < kPredefinedLayoutCount).
std::string_view predefined_layout_name(int index) noexcept;

// Minting. What one (layout, node) mints from: the layout's ID space, its
// epoch, unit and field widths from the most significant bit, adjacent node
// fields merged into one part, names aside (two names for one definition must
// share one counter, or they would issue the same IDs), and the node, the node
// fields read as one integer, most significant field first.
struct LayoutMintKey {
    std::int64_t epoch_ms;
    std::int64_t unit_ms;
    std::int64_t node;
    int part_count;
    LayoutFieldKind kinds[kLayoutMaxFields];
    std::uint8_t bits[kLayoutMaxFields];
    int seq_bits;           // derived from the parts, kept for the minting path
    std::int64_t max_tick;  // the time field's largest value
};

// The node fields' width taken together (0 when the layout has none).
int layout_node_bits(const Layout &layout) noexcept;

// The key of a layout and node. Preconditions: a valid layout, 0 <= node <
// 2^layout_node_bits(layout).
LayoutMintKey layout_mint_key(const Layout &layout, std::int64_t node) noexcept;

// Whether two keys name one ID space and node (the derived members aside).
bool layout_mint_key_equal(const LayoutMintKey &a, const LayoutMintKey &b) noexcept;

// A stamp is tick << seq_bits | sequence, a (layout, node)'s position, ordered
// as its IDs are; 0 means nothing was issued yet.
inline std::int64_t layout_stamp_tick(const LayoutMintKey &key, SnowflakeStamp stamp) noexcept {
    return static_cast<std::int64_t>(stamp >> key.seq_bits);
}

// The Unix ms at which a stamp's tick starts.
inline std::int64_t layout_stamp_unix_ms(const LayoutMintKey &key, SnowflakeStamp stamp) noexcept {
    return key.epoch_ms + layout_stamp_tick(key, stamp) * key.unit_ms;
}

// The step after stamp last for a clock reading now_ms (Unix ms), as
// snowflake_next() does it in ticks of unit_ms: the next stamp is the larger
// of the clock's tick and last + 1, so a sequence exhausted within a tick
// borrows the next tick and a clock set back counts on from last. The lead
// bound max_lead_ms holds whole ticks (max_lead_ms / unit_ms): one tick beyond
// it is a wait, more is clock_behind; lead_ms is the lead in ticks times
// unit_ms. exhausted: the next tick is past the time field (the layout ran
// out); before_epoch: the clock reads before the layout's epoch.
SnowflakeNext layout_mint_next(const LayoutMintKey &key, SnowflakeStamp last, std::int64_t now_ms,
                               std::int64_t max_lead_ms) noexcept;

// The stamp issued last before a lease ending at Unix ms lease_ms
// (exclusive): every stamp after it has a tick starting at lease_ms or later.
SnowflakeStamp layout_stamp_below(const LayoutMintKey &key, std::int64_t lease_ms) noexcept;

// The ID of a stamp for the key's node. Precondition: the stamp's tick is at
// most key.max_tick.
std::int64_t layout_mint_id(const LayoutMintKey &key, SnowflakeStamp stamp) noexcept;

// Unix ms as "YYYY-MM-DD HH:MM:SS.mmm" (24 bytes with the NUL) for messages
// and the decomposition. Precondition: 0 <= unix_ms < kLayoutEndOfTimeMs.
void layout_format_ms(std::int64_t unix_ms, char (&out)[24]) noexcept;

}  // namespace idgen::core
