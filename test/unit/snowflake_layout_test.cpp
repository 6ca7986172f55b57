// Snowflake layouts as data: the predefined layouts against the published
// ones (../shared/data/snowflake-layouts/), their examples, Sonyflake v2's
// compose tests, validation's every refusal, run-out dates, boundaries.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <string_view>

#include "core/snowflake.hpp"
#include "core/snowflake_layout.hpp"
#include "shared_data.hpp"

using namespace idgen::core;

namespace {

constexpr std::int64_t kEpoch2025 = 1735689600000;

LayoutField make_field(const char *name, LayoutFieldKind kind, int bits) {
    LayoutField f{};
    std::strncpy(f.name, name, kLayoutMaxName);
    f.kind = kind;
    f.bits = static_cast<std::uint8_t>(bits);
    return f;
}

Layout sonyflake_v2(std::int64_t unit_ms, int seq_bits, int machine_bits) {
    Layout l{};
    l.epoch_ms = kEpoch2025;
    l.unit_ms = unit_ms;
    l.field_count = 3;
    l.fields[0] = make_field("time", LayoutFieldKind::time, 63 - seq_bits - machine_bits);
    l.fields[1] = make_field("sequence", LayoutFieldKind::sequence, seq_bits);
    l.fields[2] = make_field("machine", LayoutFieldKind::node, machine_bits);
    return l;
}

// The shared data's scheme names for idgen's predefined layouts.
const std::map<std::string, std::string> kSchemes = {
    {"twitter-snowflake-2010", "twitter"},
    {"discord", "discord"},
    {"sonyflake-v1", "sonyflake"},
    {"pgedge-snowflake", "pgedge"},
};

std::int64_t num(const idgen::test::Json &j) {
    return std::stoll(j.text);
}

std::string formatted(std::int64_t ms) {
    char buf[24];
    layout_format_ms(ms, buf);
    return buf;
}

// The data's field names of a scheme, sign excluded, in order (index = ours).
std::map<std::string, int> field_positions(const idgen::test::Json &layouts,
                                           const std::string &scheme) {
    std::map<std::string, int> out;
    for (const auto &l : layouts.items) {
        if (l["scheme"].text != scheme) continue;
        int i = 0;
        for (const auto &f : l["fields"].items)
            if (f["name"].text != "sign") out[f["name"].text] = i++;
    }
    return out;
}

}  // namespace

TEST(SnowflakeLayouts, PredefinedAreValid) {
    for (int i = 0; i < kPredefinedLayoutCount; ++i) {
        std::string_view name = predefined_layout_name(i);
        auto l = predefined_layout(name, 1704067200000);
        ASSERT_TRUE(l) << name;
        EXPECT_EQ(layout_validate(*l, name == "discord"), LayoutError::none) << name;
        EXPECT_EQ(layout_total_bits(*l), name == "discord" ? 64 : 63) << name;
    }
    EXPECT_FALSE(predefined_layout("baidu", 0));
    // Discord needs the 64-bit exception; no user layout gets it.
    EXPECT_EQ(layout_validate(*predefined_layout("discord", 0), false), LayoutError::too_wide);
}

// instagram is snowflake()'s split under idgen.snowflake_epoch.
TEST(SnowflakeLayouts, InstagramIsSnowflake) {
    auto l = *predefined_layout("instagram", 1314220021721);
    EXPECT_EQ(l.epoch_ms, 1314220021721);
    std::int64_t id = snowflake_id(kSnowflake63, (std::uint64_t{123456789} << 10) | 77, 4321);
    LayoutValues v{};
    ASSERT_EQ(layout_decompose(l, id, v), LayoutIdError::none);
    EXPECT_EQ(v.values[0], snowflake_id_ms(kSnowflake63, id));
    EXPECT_EQ(v.values[1], snowflake_id_shard(kSnowflake63, id));
    EXPECT_EQ(v.values[2], snowflake_id_seq(kSnowflake63, id));
    std::int64_t b = 0;
    ASSERT_EQ(layout_boundary(l, 1314220021721 + 123456789, false, b), LayoutIdError::none);
    EXPECT_EQ(b, snowflake_boundary(kSnowflake63, 123456789, 0));
    EXPECT_EQ(layout_end_ms(l), 1314220021721 + kSnowflakeMaxMs + 1);
}

TEST(SnowflakeLayouts, MatchPublishedLayouts) {
    IDGEN_SHARED_JSON(layouts, "snowflake-layouts/layouts.json");
    int checked = 0;
    for (const auto &pub : layouts.items) {
        const std::string scheme = pub["scheme"].text;
        Layout l{};
        if (scheme == "sonyflake-v2-defaults") {
            l = sonyflake_v2(10, 8, 16);
        } else {
            ASSERT_TRUE(kSchemes.count(scheme)) << scheme;
            l = *predefined_layout(kSchemes.at(scheme), 0);
        }
        EXPECT_EQ(l.epoch_ms, num(pub["epoch_unix_ms"])) << scheme;
        EXPECT_EQ(l.unit_ms, num(pub["time_unit_ms"])) << scheme;
        int i = 0;
        for (const auto &f : pub["fields"].items) {
            if (f["name"].text == "sign") continue;
            ASSERT_LT(i, l.field_count) << scheme;
            EXPECT_EQ(l.fields[i].bits, num(f["bits"])) << scheme << " " << f["name"].text;
            EXPECT_EQ(layout_shift(l, i), num(f["shift"])) << scheme << " " << f["name"].text;
            EXPECT_EQ(l.fields[i].kind == LayoutFieldKind::time, i == 0) << scheme;
            ++i;
        }
        EXPECT_EQ(i, l.field_count) << scheme;
        ++checked;
    }
    EXPECT_EQ(checked, 5);
}

TEST(SnowflakeLayouts, PublishedExamples) {
    IDGEN_SHARED_JSON(layouts, "snowflake-layouts/layouts.json");
    IDGEN_SHARED_JSON(examples, "snowflake-layouts/examples.json");
    int checked = 0;
    for (const auto &ex : examples.items) {
        const std::string scheme = ex["scheme"].text;
        ASSERT_TRUE(kSchemes.count(scheme)) << scheme;
        Layout l = *predefined_layout(kSchemes.at(scheme), 0);
        if (const auto *settings = ex.find("settings")) {
            ASSERT_EQ((*settings)["StartTime"].text, "2023-01-01T00:00:00Z");
            l.epoch_ms = 1672531200000;
        }
        std::map<std::string, int> pos = field_positions(layouts, scheme);
        std::int64_t id = num(ex["id"]);
        LayoutValues v{};
        ASSERT_EQ(layout_decompose(l, id, v), LayoutIdError::none) << ex["id"].text;
        LayoutValues expected{};
        for (const auto &m : ex["fields"].members) {
            ASSERT_TRUE(pos.count(m.first)) << m.first;
            expected.values[pos[m.first]] = num(m.second);
            EXPECT_EQ(v.values[pos[m.first]], num(m.second)) << ex["id"].text << " " << m.first;
        }
        EXPECT_EQ(layout_unix_ms(l, v.values[0]), num(ex["unix_ms"])) << ex["id"].text;
        // utc is ISO 8601 with a T and a Z; ours has a space and no zone.
        std::string utc = ex["utc"].text;
        utc[10] = ' ';
        utc.pop_back();
        EXPECT_EQ(formatted(layout_unix_ms(l, v.values[0])), utc) << ex["id"].text;
        std::int64_t back = 0;
        int bad = -1;
        ASSERT_EQ(layout_compose(l, expected, back, bad), LayoutIdError::none);
        EXPECT_EQ(back, id);
        ++checked;
    }
    EXPECT_EQ(checked, 9);
}

// Discord's documented example.
TEST(SnowflakeLayouts, DiscordExample) {
    Layout l = *predefined_layout("discord", 0);
    LayoutValues v{};
    ASSERT_EQ(layout_decompose(l, 175928847299117063, v), LayoutIdError::none);
    EXPECT_EQ(v.values[0], 41944705796);
    EXPECT_EQ(v.values[1], 1);
    EXPECT_EQ(v.values[2], 0);
    EXPECT_EQ(v.values[3], 7);
    EXPECT_EQ(formatted(layout_unix_ms(l, v.values[0])), "2016-04-30 11:18:25.796");
    // Its time field holds 2^41 ms in a bigint: to 2084-09-06 15:47:35.552.
    EXPECT_EQ(formatted(layout_end_ms(l)), "2084-09-06 15:47:35.552");
    EXPECT_EQ(layout_decompose(l, -1, v), LayoutIdError::negative);
    EXPECT_EQ(layout_decompose(l, INT64_MIN, v), LayoutIdError::negative);
    std::int64_t id = 0;
    EXPECT_EQ(layout_boundary(l, layout_end_ms(l), false, id), LayoutIdError::after_end);
    ASSERT_EQ(layout_boundary(l, layout_end_ms(l) - 1, true, id), LayoutIdError::none);
    EXPECT_EQ(id, INT64_MAX);
}

TEST(SnowflakeLayouts, SonyflakeV2Compose) {
    IDGEN_SHARED_JSON(cases, "snowflake-layouts/sonyflake_v2_compose.json");
    int checked = 0;
    for (const auto &c : cases.items) {
        const auto &s = c["settings"];
        Layout l = sonyflake_v2(num(s["TimeUnit_ms"]), static_cast<int>(num(s["BitsSequence"])),
                                static_cast<int>(num(s["BitsMachineID"])));
        ASSERT_EQ(layout_validate(l, false), LayoutError::none);
        std::int64_t unix_ms = l.epoch_ms + num(c["elapsed_units"]) * l.unit_ms;
        std::int64_t t = 0;
        LayoutIdError e = layout_time_value(l, unix_ms, t);
        LayoutValues v{};
        v.values[0] = t;
        v.values[1] = num(c["sequence"]);
        v.values[2] = num(c["machine_id"]);
        std::int64_t id = 0;
        int bad = -1;
        if (e == LayoutIdError::none) e = layout_compose(l, v, id, bad);
        if (const auto *expected = c.find("expected_id")) {
            ASSERT_EQ(e, LayoutIdError::none) << c["case"].text;
            EXPECT_EQ(id, num(*expected)) << c["case"].text;
            LayoutValues d{};
            ASSERT_EQ(layout_decompose(l, id, d), LayoutIdError::none);
            const auto &dec = c["expected_decompose"];
            EXPECT_EQ(d.values[0], num(dec["time"]));
            EXPECT_EQ(d.values[1], num(dec["sequence"]));
            EXPECT_EQ(d.values[2], num(dec["machine"]));
        } else {
            const std::string err = c["expected_error"].text;
            if (err == "start time is ahead")
                EXPECT_EQ(e, LayoutIdError::before_epoch);
            else if (err == "over the time limit")
                EXPECT_EQ(e, LayoutIdError::after_end);
            else if (err == "invalid sequence number")
                EXPECT_TRUE(e == LayoutIdError::field_range && bad == 1);
            else if (err == "invalid machine id")
                EXPECT_TRUE(e == LayoutIdError::field_range && bad == 2);
            else
                ADD_FAILURE() << "unknown error " << err;
        }
        ++checked;
    }
    EXPECT_EQ(checked, 8);
}

// Baidu uid-generator's default: 28-bit seconds from 2016-05-20, 22-bit
// worker, 13-bit sequence. It ran out on 2024-11-20, 2^28 s after its epoch.
TEST(SnowflakeLayouts, BaiduRanOut) {
    Layout l{};
    l.epoch_ms = days_from_civil(2016, 5, 20) * 86'400'000;
    l.unit_ms = 1000;
    l.field_count = 3;
    l.fields[0] = make_field("time", LayoutFieldKind::time, 28);
    l.fields[1] = make_field("worker", LayoutFieldKind::node, 22);
    l.fields[2] = make_field("sequence", LayoutFieldKind::sequence, 13);
    ASSERT_EQ(layout_validate(l, false), LayoutError::none);
    EXPECT_EQ(formatted(layout_end_ms(l)), "2024-11-20 21:24:16.000");
    EXPECT_FALSE(layout_ran_out(l, days_from_civil(2024, 11, 20) * 86'400'000));
    EXPECT_TRUE(layout_ran_out(l, days_from_civil(2024, 11, 21) * 86'400'000));
    EXPECT_TRUE(layout_ran_out(l, layout_end_ms(l)));
    EXPECT_FALSE(layout_ran_out(l, layout_end_ms(l) - 1));
}

TEST(SnowflakeLayouts, Refusals) {
    Layout good = sonyflake_v2(10, 8, 16);
    ASSERT_EQ(layout_validate(good, false), LayoutError::none);
    auto with = [&](auto change) {
        Layout l = good;
        change(l);
        return layout_validate(l, false);
    };
    EXPECT_EQ(with([](Layout &l) { l.field_count = 9; }), LayoutError::too_many_fields);
    EXPECT_EQ(with([](Layout &l) { l.fields[1].bits = 0; }), LayoutError::bad_width);
    EXPECT_EQ(with([](Layout &l) { l.fields[1].bits = 64; }), LayoutError::bad_width);
    EXPECT_EQ(with([](Layout &l) { l.fields[1].bits = 9; }), LayoutError::too_wide);
    EXPECT_EQ(with([](Layout &l) { l.fields[1].kind = LayoutFieldKind::time; }),
              LayoutError::two_times);
    EXPECT_EQ(with([](Layout &l) {
                  l.fields[0].kind = LayoutFieldKind::node;
                  std::strcpy(l.fields[0].name, "clock");
              }),
              LayoutError::no_time);
    EXPECT_EQ(with([](Layout &l) {
                  l.fields[1].kind = LayoutFieldKind::node;
                  std::strcpy(l.fields[1].name, "counter");
              }),
              LayoutError::no_sequence);
    EXPECT_EQ(with([](Layout &l) { l.fields[1].kind = LayoutFieldKind::node; }),
              LayoutError::reserved_name);
    EXPECT_EQ(with([](Layout &l) { l.fields[2].kind = LayoutFieldKind::sequence; }),
              LayoutError::two_sequences);
    EXPECT_EQ(with([](Layout &l) { std::strcpy(l.fields[2].name, "Machine"); }),
              LayoutError::bad_name);
    EXPECT_EQ(with([](Layout &l) { std::strcpy(l.fields[2].name, "9m"); }), LayoutError::bad_name);
    EXPECT_EQ(with([](Layout &l) { l.fields[2].name[0] = '\0'; }), LayoutError::bad_name);
    EXPECT_EQ(with([](Layout &l) {
                  l.fields[2].bits = 8;
                  l.fields[3] = l.fields[2];
                  l.field_count = 4;
              }),
              LayoutError::duplicate_name);
    EXPECT_EQ(with([](Layout &l) { std::strcpy(l.fields[2].name, "sequence"); }),
              LayoutError::reserved_name);
    EXPECT_EQ(with([](Layout &l) { std::strcpy(l.fields[2].name, "unix_ms"); }),
              LayoutError::reserved_name);
    EXPECT_EQ(with([](Layout &l) { std::strcpy(l.fields[2].name, "timestamp"); }),
              LayoutError::reserved_name);
    EXPECT_EQ(with([](Layout &l) { l.unit_ms = 0; }), LayoutError::bad_unit);
    EXPECT_EQ(with([](Layout &l) { l.unit_ms = kLayoutMaxUnitMs + 1; }), LayoutError::bad_unit);
    EXPECT_EQ(with([](Layout &l) { l.epoch_ms = -1; }), LayoutError::bad_epoch);
    EXPECT_EQ(with([](Layout &l) { l.epoch_ms = kLayoutEndOfTimeMs; }), LayoutError::bad_epoch);
    // 39 bits of 10 ms hold 174 years; 39 bits of a second do not fit before 10000.
    EXPECT_EQ(with([](Layout &l) { l.unit_ms = 1000; }), LayoutError::outlasts_year_9999);
    EXPECT_EQ(with([](Layout &l) { l.epoch_ms = kLayoutEndOfTimeMs - 1000; }),
              LayoutError::outlasts_year_9999);
    // A long unit times 2^41 overflows an int64 (found by the fuzz target).
    EXPECT_EQ(with([](Layout &l) {
                  l.unit_ms = 60724288;
                  l.fields[0].bits = 41;
                  l.fields[2].bits = 14;
              }),
              LayoutError::outlasts_year_9999);
    // Node fields are optional: time and sequence alone.
    EXPECT_EQ(with([](Layout &l) { l.field_count = 2; }), LayoutError::none);
    EXPECT_TRUE(layout_name_valid("datacenter_2"));
    EXPECT_FALSE(layout_name_valid(std::string(64, 'a')));
    EXPECT_TRUE(layout_name_valid(std::string(63, 'a')));
}

TEST(SnowflakeLayouts, IdRefusals) {
    Layout l = *predefined_layout("sonyflake", 0);
    LayoutValues v{};
    EXPECT_EQ(layout_decompose(l, -5, v), LayoutIdError::negative);
    // A 48-bit layout refuses ids with bits above its 48.
    Layout small = sonyflake_v2(10, 8, 16);
    small.fields[0].bits = 24;
    ASSERT_EQ(layout_validate(small, false), LayoutError::none);
    EXPECT_EQ(layout_decompose(small, std::int64_t{1} << 48, v), LayoutIdError::above_layout);
    EXPECT_EQ(layout_decompose(small, (std::int64_t{1} << 48) - 1, v), LayoutIdError::none);
    EXPECT_EQ(v.values[0], (1 << 24) - 1);
    EXPECT_EQ(v.values[1], 255);
    EXPECT_EQ(v.values[2], 65535);
    std::int64_t id = 0;
    EXPECT_EQ(layout_boundary(l, l.epoch_ms - 1, false, id), LayoutIdError::before_epoch);
    ASSERT_EQ(layout_boundary(l, l.epoch_ms + 25, false, id), LayoutIdError::none);
    EXPECT_EQ(id, std::int64_t{2} << 24);
    ASSERT_EQ(layout_boundary(l, l.epoch_ms + 25, true, id), LayoutIdError::none);
    EXPECT_EQ(id, (std::int64_t{3} << 24) - 1);
    LayoutValues c{};
    c.values[0] = -1;
    int bad = -1;
    EXPECT_EQ(layout_compose(l, c, id, bad), LayoutIdError::field_range);
    EXPECT_EQ(bad, 0);
    EXPECT_EQ(layout_find(l, "machine"), 2);
    EXPECT_EQ(layout_find(l, "shard"), -1);
}

TEST(SnowflakeLayouts, FormatMs) {
    EXPECT_EQ(formatted(0), "1970-01-01 00:00:00.000");
    EXPECT_EQ(formatted(951782400000), "2000-02-29 00:00:00.000");
    EXPECT_EQ(formatted(kLayoutEndOfTimeMs - 1), "9999-12-31 23:59:59.999");
    for (std::int64_t d : {0, 59, 60, 365, 10957, 11016, 2932896})
        EXPECT_EQ(formatted(d * 86'400'000).substr(0, 10).size(), 10u);
}

namespace {

// The ID layout_compose() gives for a stamp's fields: minting's other path.
std::int64_t composed(const Layout &l, std::int64_t tick, std::int64_t seq,
                      std::initializer_list<std::int64_t> nodes) {
    LayoutValues v{};
    auto node = nodes.begin();
    for (int i = 0; i < l.field_count; ++i)
        v.values[i] = l.fields[i].kind == LayoutFieldKind::time       ? tick
                      : l.fields[i].kind == LayoutFieldKind::sequence ? seq
                                                                      : *node++;
    std::int64_t id = 0;
    int bad = -1;
    EXPECT_EQ(layout_compose(l, v, id, bad), LayoutIdError::none);
    return id;
}

}  // namespace

// One key per ID space and node: names aside, adjacent node fields merged.
TEST(SnowflakeLayoutMint, KeyIsTheIdSpace) {
    Layout twitter = *predefined_layout("twitter", 0);
    Layout renamed = twitter;
    std::strcpy(renamed.fields[1].name, "region");
    Layout merged = twitter;
    merged.field_count = 3;
    merged.fields[1] = make_field("node", LayoutFieldKind::node, 10);
    merged.fields[2] = twitter.fields[3];
    EXPECT_EQ(layout_node_bits(twitter), 10);
    EXPECT_TRUE(layout_mint_key_equal(layout_mint_key(twitter, 7), layout_mint_key(renamed, 7)));
    EXPECT_TRUE(layout_mint_key_equal(layout_mint_key(twitter, 7), layout_mint_key(merged, 7)));
    EXPECT_FALSE(layout_mint_key_equal(layout_mint_key(twitter, 7), layout_mint_key(twitter, 8)));
    Layout later = twitter;
    later.epoch_ms += 1;
    EXPECT_FALSE(layout_mint_key_equal(layout_mint_key(twitter, 7), layout_mint_key(later, 7)));
    Layout pgedge = *predefined_layout("pgedge", twitter.epoch_ms);
    pgedge.epoch_ms = twitter.epoch_ms;
    EXPECT_TRUE(layout_mint_key_equal(layout_mint_key(twitter, 7), layout_mint_key(pgedge, 7)));
    LayoutMintKey key = layout_mint_key(twitter, 7);
    EXPECT_EQ(key.part_count, 3);
    EXPECT_EQ(key.seq_bits, 12);
    EXPECT_EQ(key.max_tick, (std::int64_t{1} << 41) - 1);
    EXPECT_EQ(layout_mint_key(*predefined_layout("discord", 0), 0).max_tick,
              (std::int64_t{1} << 41) - 1);
}

// Twitter: 1 ms ticks, the node's high five bits the datacenter.
TEST(SnowflakeLayoutMint, Twitter) {
    Layout l = *predefined_layout("twitter", 0);
    LayoutMintKey key = layout_mint_key(l, (3 << 5) | 5);
    std::int64_t now = l.epoch_ms + 1000;
    SnowflakeNext n = layout_mint_next(key, 0, now, 0);
    ASSERT_EQ(n.step, SnowflakeStep::issue);
    EXPECT_EQ(n.stamp, SnowflakeStamp{1000} << 12);
    EXPECT_EQ(n.lead_ms, 0);
    EXPECT_EQ(layout_stamp_unix_ms(key, n.stamp), now);
    EXPECT_EQ(layout_mint_id(key, n.stamp), composed(l, 1000, 0, {3, 5}));
    n = layout_mint_next(key, n.stamp, now, 0);
    ASSERT_EQ(n.step, SnowflakeStep::issue);
    EXPECT_EQ(layout_mint_id(key, n.stamp), composed(l, 1000, 1, {3, 5}));
    // The tick's 4096th ID exhausts its sequence: the next borrows the next tick.
    SnowflakeStamp full = (SnowflakeStamp{1000} << 12) | 4095;
    EXPECT_EQ(layout_mint_id(key, full), composed(l, 1000, 4095, {3, 5}));
    n = layout_mint_next(key, full, now, 1);
    ASSERT_EQ(n.step, SnowflakeStep::issue);
    EXPECT_EQ(n.stamp, SnowflakeStamp{1001} << 12);
    EXPECT_EQ(n.lead_ms, 1);
    EXPECT_EQ(layout_mint_id(key, n.stamp), composed(l, 1001, 0, {3, 5}));
    EXPECT_EQ(layout_mint_next(key, full, now, 0).step, SnowflakeStep::wait);
    // The clock moves on: the tick's own first stamp.
    n = layout_mint_next(key, full, now + 5, 0);
    ASSERT_EQ(n.step, SnowflakeStep::issue);
    EXPECT_EQ(n.stamp, SnowflakeStamp{1005} << 12);
}

// Sonyflake: 10 ms ticks, the lead bound in whole ticks, the machine lowest.
TEST(SnowflakeLayoutMint, SonyflakeTicks) {
    Layout l = *predefined_layout("sonyflake", 0);
    LayoutMintKey key = layout_mint_key(l, 0xbeef);
    std::int64_t now = l.epoch_ms + 1009;  // tick 100
    SnowflakeNext n = layout_mint_next(key, 0, now, 0);
    ASSERT_EQ(n.step, SnowflakeStep::issue);
    EXPECT_EQ(n.stamp, SnowflakeStamp{100} << 8);
    EXPECT_EQ(layout_stamp_unix_ms(key, n.stamp), l.epoch_ms + 1000);
    EXPECT_EQ(layout_mint_id(key, n.stamp), (std::int64_t{100} << 24) | 0xbeef);
    EXPECT_EQ(layout_mint_id(key, n.stamp + 7), composed(l, 100, 7, {0xbeef}));
    SnowflakeStamp full = (SnowflakeStamp{100} << 8) | 255;
    // A borrowed tick is 10 ms ahead: within a bound of 10 ms, a wait under 9 ms.
    n = layout_mint_next(key, full, now, 10);
    ASSERT_EQ(n.step, SnowflakeStep::issue);
    EXPECT_EQ(n.stamp, SnowflakeStamp{101} << 8);
    EXPECT_EQ(n.lead_ms, 10);
    EXPECT_EQ(layout_mint_next(key, full, now, 9).step, SnowflakeStep::wait);
    // A clock set back 1 s: within a bound of 1 s, one tick more is a wait, two clock_behind.
    SnowflakeStamp later = SnowflakeStamp{200} << 8;
    n = layout_mint_next(key, later, now, 1000);
    ASSERT_EQ(n.step, SnowflakeStep::issue);
    EXPECT_EQ(n.stamp, later + 1);
    EXPECT_EQ(n.lead_ms, 1000);
    n = layout_mint_next(key, SnowflakeStamp{201} << 8, now, 1000);
    EXPECT_EQ(n.step, SnowflakeStep::wait);
    EXPECT_EQ(n.lead_ms, 1010);
    n = layout_mint_next(key, SnowflakeStamp{202} << 8, now, 1000);
    EXPECT_EQ(n.step, SnowflakeStep::clock_behind);
    EXPECT_EQ(n.lead_ms, 1020);
}

// The clock before the epoch, and the layout's last tick.
TEST(SnowflakeLayoutMint, EpochAndEnd) {
    Layout l = *predefined_layout("sonyflake", 0);
    LayoutMintKey key = layout_mint_key(l, 1);
    EXPECT_EQ(layout_mint_next(key, 0, l.epoch_ms - 1, 1000).step, SnowflakeStep::before_epoch);
    std::int64_t end = layout_end_ms(l);
    SnowflakeNext n = layout_mint_next(key, 0, end - 1, 0);
    ASSERT_EQ(n.step, SnowflakeStep::issue);
    EXPECT_EQ(layout_stamp_tick(key, n.stamp), key.max_tick);
    EXPECT_EQ(layout_mint_id(key, n.stamp | 255), composed(l, key.max_tick, 255, {1}));
    EXPECT_EQ(layout_mint_next(key, n.stamp | 255, end - 1, 1000).step, SnowflakeStep::exhausted);
    EXPECT_EQ(layout_mint_next(key, 0, end, 1000).step, SnowflakeStep::exhausted);
    EXPECT_EQ(layout_mint_next(key, 0, kLayoutEndOfTimeMs, 1000).step, SnowflakeStep::exhausted);
}

// After a lease ending at lease_ms, the first tick starting there or later.
TEST(SnowflakeLayoutMint, StampBelowLease) {
    Layout l = *predefined_layout("sonyflake", 0);
    LayoutMintKey key = layout_mint_key(l, 1);
    EXPECT_EQ(layout_stamp_below(key, 0), 0u);
    EXPECT_EQ(layout_stamp_below(key, l.epoch_ms), 0u);
    EXPECT_EQ(layout_stamp_below(key, l.epoch_ms + 1), (SnowflakeStamp{1} << 8) - 1);
    EXPECT_EQ(layout_stamp_below(key, l.epoch_ms + 1005), (SnowflakeStamp{101} << 8) - 1);
    EXPECT_EQ(layout_stamp_below(key, l.epoch_ms + 1010), (SnowflakeStamp{101} << 8) - 1);
    SnowflakeNext n = layout_mint_next(key, layout_stamp_below(key, l.epoch_ms + 1005),
                                       l.epoch_ms + 990, 1000);
    ASSERT_EQ(n.step, SnowflakeStep::issue);
    EXPECT_EQ(layout_stamp_unix_ms(key, n.stamp), l.epoch_ms + 1010);
    Layout twitter = *predefined_layout("twitter", 0);
    LayoutMintKey t = layout_mint_key(twitter, 1);
    EXPECT_EQ(layout_stamp_below(t, twitter.epoch_ms + 2000), (SnowflakeStamp{2000} << 12) - 1);
}

// A node split by the sequence: its higher part holds its high bits.
TEST(SnowflakeLayoutMint, SplitNode) {
    Layout l{};
    l.epoch_ms = kEpoch2025;
    l.unit_ms = 1;
    l.field_count = 4;
    l.fields[0] = make_field("time", LayoutFieldKind::time, 41);
    l.fields[1] = make_field("high", LayoutFieldKind::node, 3);
    l.fields[2] = make_field("sequence", LayoutFieldKind::sequence, 10);
    l.fields[3] = make_field("low", LayoutFieldKind::node, 4);
    ASSERT_EQ(layout_validate(l, false), LayoutError::none);
    EXPECT_EQ(layout_node_bits(l), 7);
    LayoutMintKey key = layout_mint_key(l, 0b101'0110);
    EXPECT_EQ(key.part_count, 4);
    EXPECT_EQ(layout_mint_id(key, (SnowflakeStamp{77} << 10) | 9), composed(l, 77, 9, {5, 6}));
}
