// Snowflake layouts (core/snowflake_layout.hpp): validation, decomposition,
// composition and boundaries of any layout.
//
// The input is a layout (field count, then per field a kind, a width and a
// name's length and letters; a unit and an epoch), judged against the rules
// written here a second way: it is valid exactly when it has 1 to 8 fields,
// widths 1 to 63 totalling at most 63 (64 with the time field first when
// allowed), one time and one sequence field, names unique, lowercase, not
// reserved for node fields, a unit of 1 ms to a day, an epoch from 1970 and an
// end before 10000. Then two IDs: each decomposes exactly when it is
// non-negative and below 2^total; its fields fit their widths, recompose to
// it and are read back by hand with the shifts written here; a time's smallest
// and largest boundaries bracket every ID of its unit.
#include <cstdint>
#include <cstring>

#include "core/snowflake_layout.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::int64_t kEnd = 253'402'300'800'000;  // 10000-01-01, Unix ms

bool name_ok(const char *n) {
    std::size_t len = std::strlen(n);
    if (len == 0 || len > 63) return false;
    if (!((n[0] >= 'a' && n[0] <= 'z') || n[0] == '_')) return false;
    for (std::size_t i = 1; i < len; ++i)
        if (!((n[i] >= 'a' && n[i] <= 'z') || n[i] == '_' || (n[i] >= '0' && n[i] <= '9')))
            return false;
    return true;
}

bool reserved(const char *n) {
    return !std::strcmp(n, "time") || !std::strcmp(n, "sequence") || !std::strcmp(n, "unix_ms") ||
           !std::strcmp(n, "timestamp");
}

// The rules, a second time.
bool expected_valid(const Layout &l, bool allow_64) {
    if (l.field_count < 0 || l.field_count > 8) return false;
    int total = 0, times = 0, seqs = 0, time_bits = 0;
    for (int i = 0; i < l.field_count; ++i) {
        const LayoutField &f = l.fields[i];
        if (f.bits < 1 || f.bits > 63) return false;
        total += f.bits;
        if (f.kind == LayoutFieldKind::time) ++times, time_bits = f.bits;
        if (f.kind == LayoutFieldKind::sequence) ++seqs;
        if (!name_ok(f.name)) return false;
        if (f.kind == LayoutFieldKind::node && reserved(f.name)) return false;
        for (int j = 0; j < i; ++j)
            if (!std::strcmp(f.name, l.fields[j].name)) return false;
    }
    if (times != 1 || seqs != 1) return false;
    if (total > 64) return false;
    if (total == 64 && !(allow_64 && l.fields[0].kind == LayoutFieldKind::time)) return false;
    if (l.unit_ms < 1 || l.unit_ms > 86'400'000) return false;
    if (l.epoch_ms < 0 || l.epoch_ms >= kEnd) return false;
    int usable = total == 64 ? time_bits - 1 : time_bits;
    if (usable > 50) return false;
    return static_cast<__int128>(l.unit_ms) * (static_cast<__int128>(1) << usable) <=
           kEnd - l.epoch_ms;
}

void check_id(const Layout &l, std::int64_t id) {
    int total = 0;
    for (int i = 0; i < l.field_count; ++i) total += l.fields[i].bits;
    LayoutValues v{};
    LayoutIdError e = layout_decompose(l, id, v);
    bool holds = id >= 0 && (total >= 63 || (static_cast<std::uint64_t>(id) >> total) == 0);
    FUZZ_CHECK((e == LayoutIdError::none) == holds);
    if (!holds) return;
    int shift = total;
    for (int i = 0; i < l.field_count; ++i) {
        shift -= l.fields[i].bits;
        std::uint64_t mask = (std::uint64_t{1} << l.fields[i].bits) - 1;
        FUZZ_CHECK(static_cast<std::uint64_t>(v.values[i]) ==
                   ((static_cast<std::uint64_t>(id) >> shift) & mask));
        FUZZ_CHECK(v.values[i] >= 0 && v.values[i] <= layout_field_max(l, i));
    }
    std::int64_t back = -1;
    int bad = -1;
    FUZZ_CHECK(layout_compose(l, v, back, bad) == LayoutIdError::none && back == id);
    std::int64_t t = v.values[layout_time_index(l)];
    std::int64_t ms = layout_unix_ms(l, t);
    FUZZ_CHECK(ms >= l.epoch_ms && ms < layout_end_ms(l));
    std::int64_t low = 0, high = 0, again = -1;
    FUZZ_CHECK(layout_boundary(l, ms + (l.unit_ms - 1), false, low) == LayoutIdError::none);
    FUZZ_CHECK(layout_boundary(l, ms, true, high) == LayoutIdError::none);
    FUZZ_CHECK(low <= id && id <= high);
    FUZZ_CHECK(layout_time_value(l, ms, again) == LayoutIdError::none && again == t);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    Input in{data, size};
    Layout l{};
    l.field_count = in.byte() % 10;
    for (int i = 0; i < l.field_count && i < kLayoutMaxFields; ++i) {
        std::uint8_t k = in.byte();
        l.fields[i].kind = k % 3 == 0   ? LayoutFieldKind::time
                           : k % 3 == 1 ? LayoutFieldKind::sequence
                                        : LayoutFieldKind::node;
        l.fields[i].bits = in.byte() % 66;
        int len = in.byte() % 66;
        for (int j = 0; j < len && j < static_cast<int>(kLayoutMaxName); ++j) {
            char c = static_cast<char>(in.byte());
            l.fields[i].name[j] = c == '\0' ? 'a' : c;
        }
    }
    bool allow_64 = (in.byte() & 1) != 0;
    l.unit_ms = static_cast<std::int64_t>(in.u64() % 100'000'000) - 1'000;
    l.epoch_ms = static_cast<std::int64_t>(in.u64() % 300'000'000'000'000) - 1'000;
    if (l.field_count > kLayoutMaxFields) {
        FUZZ_CHECK(layout_validate(l, allow_64) == LayoutError::too_many_fields);
        return 0;
    }
    LayoutError e = layout_validate(l, allow_64);
    FUZZ_CHECK((e == LayoutError::none) == expected_valid(l, allow_64));
    if (e != LayoutError::none) return 0;
    check_id(l, static_cast<std::int64_t>(in.u64()));
    int total = layout_total_bits(l);
    std::uint64_t raw = in.u64();
    check_id(l, static_cast<std::int64_t>(total >= 63 ? raw >> 1 : raw >> (64 - total)));
    return 0;
}
