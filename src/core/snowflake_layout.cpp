// Snowflake layouts as data (snowflake_layout.hpp).
#include "core/snowflake_layout.hpp"

namespace idgen::core {
namespace {

constexpr std::int64_t kMsPerDay = 86'400'000;

constexpr LayoutField field(std::string_view name, LayoutFieldKind kind, int bits) noexcept {
    LayoutField f{};
    for (std::size_t i = 0; i < name.size() && i < kLayoutMaxName; ++i) f.name[i] = name[i];
    f.kind = kind;
    f.bits = static_cast<std::uint8_t>(bits);
    return f;
}

constexpr LayoutField time_field(int bits) noexcept {
    return field("time", LayoutFieldKind::time, bits);
}
constexpr LayoutField seq_field(int bits) noexcept {
    return field("sequence", LayoutFieldKind::sequence, bits);
}
constexpr LayoutField node_field(std::string_view name, int bits) noexcept {
    return field(name, LayoutFieldKind::node, bits);
}

struct Named {
    std::string_view name;
    Layout layout;
};

// 2010-11-04 01:42:54.657, 2015-01-01, 2014-09-01, 2023-01-01 (Unix ms).
constexpr std::int64_t kTwitterEpoch = 1288834974657;
constexpr std::int64_t kDiscordEpoch = 1420070400000;
constexpr std::int64_t kSonyflakeEpoch = 1409529600000;
constexpr std::int64_t kPgedgeEpoch = 1672531200000;

constexpr Named kPredefined[kPredefinedLayoutCount] = {
    {"instagram",
     {0, 1, 3,
      {time_field(kSnowflakeTimeBits), node_field("shard", kSnowflake63.shard_bits),
       seq_field(kSnowflake63.seq_bits)}}},
    {"twitter",
     {kTwitterEpoch, 1, 4,
      {time_field(41), node_field("datacenter", 5),
       node_field("worker", 5), seq_field(12)}}},
    {"discord",
     {kDiscordEpoch, 1, 4,
      {time_field(42), node_field("worker", 5),
       node_field("process", 5), seq_field(12)}}},
    {"sonyflake",
     {kSonyflakeEpoch, 10, 3,
      {time_field(39), seq_field(8), node_field("machine", 16)}}},
    {"pgedge",
     {kPgedgeEpoch, 1, 3, {time_field(41), node_field("node", 10), seq_field(12)}}},
};

std::string_view name_of(const LayoutField &f) noexcept {
    std::size_t n = 0;
    while (n <= kLayoutMaxName && f.name[n] != '\0') ++n;
    return std::string_view(f.name, n);
}

}  // namespace

bool layout_name_valid(std::string_view name) noexcept {
    if (name.empty() || name.size() > kLayoutMaxName) return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || c == '_' || (i > 0 && c >= '0' && c <= '9');
        if (!ok) return false;
    }
    return true;
}

int layout_total_bits(const Layout &layout) noexcept {
    int total = 0;
    for (int i = 0; i < layout.field_count && i < kLayoutMaxFields; ++i) total += layout.fields[i].bits;
    return total;
}

int layout_shift(const Layout &layout, int index) noexcept {
    int shift = 0;
    for (int i = layout.field_count - 1; i > index; --i) shift += layout.fields[i].bits;
    return shift;
}

int layout_find(const Layout &layout, std::string_view name) noexcept {
    for (int i = 0; i < layout.field_count; ++i)
        if (name_of(layout.fields[i]) == name) return i;
    return -1;
}

int layout_time_index(const Layout &layout) noexcept {
    for (int i = 0; i < layout.field_count; ++i)
        if (layout.fields[i].kind == LayoutFieldKind::time) return i;
    return -1;
}

int layout_time_value_bits(const Layout &layout) noexcept {
    int bits = layout.fields[layout_time_index(layout)].bits;
    return layout_total_bits(layout) == 64 ? bits - 1 : bits;
}

std::int64_t layout_field_max(const Layout &layout, int index) noexcept {
    int bits = layout.fields[index].kind == LayoutFieldKind::time ? layout_time_value_bits(layout)
                                                                   : layout.fields[index].bits;
    return static_cast<std::int64_t>((std::uint64_t{1} << bits) - 1);
}

std::int64_t layout_end_ms(const Layout &layout) noexcept {
    // Validation keeps this below kLayoutEndOfTimeMs: no overflow.
    return layout.epoch_ms + layout.unit_ms * (layout_field_max(layout, layout_time_index(layout)) + 1);
}

LayoutError layout_validate(const Layout &layout, bool allow_64) noexcept {
    if (layout.field_count < 0 || layout.field_count > kLayoutMaxFields)
        return LayoutError::too_many_fields;
    int times = 0, sequences = 0, total = 0;
    for (int i = 0; i < layout.field_count; ++i) {
        const LayoutField &f = layout.fields[i];
        if (f.bits < 1 || f.bits > 63) return LayoutError::bad_width;
        total += f.bits;
        if (f.kind == LayoutFieldKind::time) ++times;
        if (f.kind == LayoutFieldKind::sequence) ++sequences;
    }
    for (int i = 0; i < layout.field_count; ++i) {
        std::string_view name = name_of(layout.fields[i]);
        if (!layout_name_valid(name)) return LayoutError::bad_name;
        if (layout.fields[i].kind == LayoutFieldKind::node &&
            (name == "time" || name == "sequence" || name == "unix_ms" || name == "timestamp"))
            return LayoutError::reserved_name;
        for (int j = 0; j < i; ++j)
            if (name == name_of(layout.fields[j]))
                return LayoutError::duplicate_name;
    }
    if (times == 0) return LayoutError::no_time;
    if (times > 1) return LayoutError::two_times;
    if (sequences == 0) return LayoutError::no_sequence;
    if (sequences > 1) return LayoutError::two_sequences;
    if (total > 64 || (total == 64 && !(allow_64 && layout.fields[0].kind == LayoutFieldKind::time)))
        return LayoutError::too_wide;
    if (layout.unit_ms < 1 || layout.unit_ms > kLayoutMaxUnitMs) return LayoutError::bad_unit;
    if (layout.epoch_ms < 0 || layout.epoch_ms >= kLayoutEndOfTimeMs) return LayoutError::bad_epoch;
    // The end, epoch + unit * 2^bits, must not pass the year 10000; with a
    // unit of at most 2^27 ms, 2^48 units are enough to pass it from 1970.
    int bits = layout_time_value_bits(layout);
    if (bits > 48) return LayoutError::outlasts_year_9999;
    // unit * 2^bits <= room, without the product (which may overflow).
    if ((std::int64_t{1} << bits) > (kLayoutEndOfTimeMs - layout.epoch_ms) / layout.unit_ms)
        return LayoutError::outlasts_year_9999;
    return LayoutError::none;
}

std::int64_t layout_unix_ms(const Layout &layout, std::int64_t time_value) noexcept {
    return layout.epoch_ms + time_value * layout.unit_ms;
}

LayoutIdError layout_decompose(const Layout &layout, std::int64_t id, LayoutValues &out) noexcept {
    if (id < 0) return LayoutIdError::negative;
    int total = layout_total_bits(layout);
    if (total < 63 && (static_cast<std::uint64_t>(id) >> total) != 0)
        return LayoutIdError::above_layout;
    std::uint64_t u = static_cast<std::uint64_t>(id);
    for (int i = 0; i < layout.field_count; ++i) {
        int bits = layout.fields[i].bits;
        std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
        out.values[i] = static_cast<std::int64_t>((u >> layout_shift(layout, i)) & mask);
    }
    return LayoutIdError::none;
}

LayoutIdError layout_time_value(const Layout &layout, std::int64_t unix_ms,
                                std::int64_t &out) noexcept {
    if (unix_ms < layout.epoch_ms) return LayoutIdError::before_epoch;
    if (unix_ms >= layout_end_ms(layout)) return LayoutIdError::after_end;
    out = (unix_ms - layout.epoch_ms) / layout.unit_ms;
    return LayoutIdError::none;
}

LayoutIdError layout_compose(const Layout &layout, const LayoutValues &values, std::int64_t &out,
                             int &bad_field) noexcept {
    std::uint64_t id = 0;
    for (int i = 0; i < layout.field_count; ++i) {
        std::int64_t v = values.values[i];
        if (v < 0 || v > layout_field_max(layout, i)) {
            bad_field = i;
            return LayoutIdError::field_range;
        }
        id |= static_cast<std::uint64_t>(v) << layout_shift(layout, i);
    }
    out = static_cast<std::int64_t>(id);
    return LayoutIdError::none;
}

LayoutIdError layout_boundary(const Layout &layout, std::int64_t unix_ms, bool largest,
                              std::int64_t &out) noexcept {
    std::int64_t t = 0;
    LayoutIdError e = layout_time_value(layout, unix_ms, t);
    if (e != LayoutIdError::none) return e;
    LayoutValues v{};
    for (int i = 0; i < layout.field_count; ++i)
        v.values[i] = layout.fields[i].kind == LayoutFieldKind::time ? t
                      : largest                                   ? layout_field_max(layout, i)
                                                                  : 0;
    int bad = 0;
    return layout_compose(layout, v, out, bad);
}

std::optional<Layout> predefined_layout(std::string_view name,
                                        std::int64_t instagram_epoch_ms) noexcept {
    for (const Named &n : kPredefined) {
        if (n.name != name) continue;
        Layout l = n.layout;
        if (name == "instagram") l.epoch_ms = instagram_epoch_ms;
        return l;
    }
    return std::nullopt;
}

std::string_view predefined_layout_name(int index) noexcept {
    return kPredefined[index].name;
}

int layout_node_bits(const Layout &layout) noexcept {
    int bits = 0;
    for (int i = 0; i < layout.field_count; ++i)
        if (layout.fields[i].kind == LayoutFieldKind::node) bits += layout.fields[i].bits;
    return bits;
}

LayoutMintKey layout_mint_key(const Layout &layout, std::int64_t node) noexcept {
    LayoutMintKey key{};
    key.epoch_ms = layout.epoch_ms;
    key.unit_ms = layout.unit_ms;
    key.node = node;
    for (int i = 0; i < layout.field_count; ++i) {
        const LayoutField &f = layout.fields[i];
        if (f.kind == LayoutFieldKind::sequence) key.seq_bits = f.bits;
        if (f.kind == LayoutFieldKind::node && key.part_count > 0 &&
            key.kinds[key.part_count - 1] == LayoutFieldKind::node) {
            key.bits[key.part_count - 1] = static_cast<std::uint8_t>(key.bits[key.part_count - 1] + f.bits);
            continue;
        }
        key.kinds[key.part_count] = f.kind;
        key.bits[key.part_count] = f.bits;
        ++key.part_count;
    }
    key.max_tick = layout_field_max(layout, layout_time_index(layout));
    return key;
}

bool layout_mint_key_equal(const LayoutMintKey &a, const LayoutMintKey &b) noexcept {
    if (a.epoch_ms != b.epoch_ms || a.unit_ms != b.unit_ms || a.node != b.node ||
        a.part_count != b.part_count)
        return false;
    for (int i = 0; i < a.part_count; ++i)
        if (a.kinds[i] != b.kinds[i] || a.bits[i] != b.bits[i]) return false;
    return true;
}

SnowflakeNext layout_mint_next(const LayoutMintKey &key, SnowflakeStamp last, std::int64_t now_ms,
                               std::int64_t max_lead_ms) noexcept {
    if (now_ms < key.epoch_ms) return {SnowflakeStep::before_epoch, 0, 0};
    // Past the last tick nothing can be issued; clamping keeps the shift in range.
    // Most layouts tick in milliseconds: no division on their minting path.
    std::int64_t since_epoch = now_ms - key.epoch_ms;
    std::int64_t now_tick = key.unit_ms == 1 ? since_epoch : since_epoch / key.unit_ms;
    if (now_tick > key.max_tick) now_tick = key.max_tick + 1;
    SnowflakeStamp from_clock = static_cast<SnowflakeStamp>(now_tick) << key.seq_bits;
    SnowflakeStamp next = from_clock > last ? from_clock : last + 1;
    std::int64_t next_tick = layout_stamp_tick(key, next);
    if (next_tick > key.max_tick) return {SnowflakeStep::exhausted, 0, 0};
    std::int64_t lead = next_tick - now_tick;
    std::int64_t max_lead = key.unit_ms == 1 ? max_lead_ms : max_lead_ms / key.unit_ms;
    if (lead <= max_lead) return {SnowflakeStep::issue, next, lead * key.unit_ms};
    if (lead == max_lead + 1) return {SnowflakeStep::wait, 0, lead * key.unit_ms};
    return {SnowflakeStep::clock_behind, 0, lead * key.unit_ms};
}

SnowflakeStamp layout_stamp_below(const LayoutMintKey &key, std::int64_t lease_ms) noexcept {
    if (lease_ms <= key.epoch_ms) return 0;
    // The first tick starting at lease_ms or later.
    std::int64_t tick = (lease_ms - key.epoch_ms + key.unit_ms - 1) / key.unit_ms;
    if (tick > key.max_tick + 1) tick = key.max_tick + 1;
    return (static_cast<SnowflakeStamp>(tick) << key.seq_bits) - 1;
}

std::int64_t layout_mint_id(const LayoutMintKey &key, SnowflakeStamp stamp) noexcept {
    std::uint64_t seq_mask = (std::uint64_t{1} << key.seq_bits) - 1;
    int node_bits = 0;
    for (int i = 0; i < key.part_count; ++i)
        if (key.kinds[i] == LayoutFieldKind::node) node_bits += key.bits[i];
    std::uint64_t id = 0;
    for (int i = 0; i < key.part_count; ++i) {
        std::uint64_t value = 0;
        int bits = key.bits[i];
        switch (key.kinds[i]) {
            case LayoutFieldKind::time: value = stamp >> key.seq_bits; break;
            case LayoutFieldKind::sequence: value = stamp & seq_mask; break;
            case LayoutFieldKind::node:
                // A node split by the time or the sequence: the higher part holds its high bits.
                node_bits -= bits;
                value = (static_cast<std::uint64_t>(key.node) >> node_bits) &
                        ((std::uint64_t{1} << bits) - 1);
                break;
        }
        // bits < 64: even discord's 42-bit time field leaves 22 bits below it.
        id = (id << bits) | value;
    }
    return static_cast<std::int64_t>(id);
}

void layout_format_ms(std::int64_t unix_ms, char (&out)[24]) noexcept {
    std::int64_t days = unix_ms / kMsPerDay;
    std::int64_t rem = unix_ms % kMsPerDay;
    // Civil date of a day count (the inverse of days_from_civil), by 400-year eras.
    std::int64_t z = days + 719468;
    std::int64_t era = z / 146097;
    std::int64_t doe = z - era * 146097;
    std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    std::int64_t y = yoe + era * 400;
    std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    std::int64_t mp = (5 * doy + 2) / 153;
    std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
    std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2) ++y;
    std::int64_t parts[7] = {y, m, d, rem / 3'600'000, rem / 60'000 % 60, rem / 1000 % 60,
                             rem % 1000};
    const int widths[7] = {4, 2, 2, 2, 2, 2, 3};
    const char seps[7] = {'-', '-', ' ', ':', ':', '.', '\0'};
    int pos = 0;
    for (int i = 0; i < 7; ++i) {
        std::int64_t v = parts[i];
        for (int k = widths[i] - 1; k >= 0; --k) {
            out[pos + k] = static_cast<char>('0' + v % 10);
            v /= 10;
        }
        pos += widths[i];
        out[pos++] = seps[i];
    }
}

}  // namespace idgen::core
