// test/data/id_vectors.json against the cores: every case's recorded answer
// is what the cores answer now (test/unit/vector_answers.hpp, the function
// sql/edition/vectors.py recorded it with), and the layouts it states are the
// headers' constants. So a core change, or a hand edit of the file, fails
// here; `make vectors` writes the file afresh (docs/development.md).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/base32.hpp"
#include "core/base36.hpp"
#include "core/ksuid.hpp"
#include "core/objectid.hpp"
#include "core/prefixed.hpp"
#include "core/snowflake.hpp"
#include "core/snowflake_layout.hpp"
#include "core/typeid.hpp"
#include "core/ulid.hpp"
#include "core/uuidv7.hpp"
#include "core/xid.hpp"
#include "json_reader.hpp"
#include "vector_answers.hpp"

using namespace idgen::core;
using idgen::test::Answer;
using idgen::test::AnswerValue;
using idgen::test::Json;

namespace {

const Json &vectors() {
    static const Json doc = [] {
        std::ifstream in(IDGEN_VECTORS_FILE);
        std::stringstream text;
        text << in.rdbuf();
        if (!in) ADD_FAILURE() << "cannot read " << IDGEN_VECTORS_FILE;
        return idgen::test::JsonReader(text.str()).read();
    }();
    return doc;
}

AnswerValue value_of(const Json &v) {
    switch (v.kind) {
        case Json::string: return idgen::test::str(v.text);
        case Json::number: return {AnswerValue::number, v.text};
        case Json::boolean: return idgen::test::boolean(v.text == "true");
        case Json::null: return idgen::test::null();
        default: return {AnswerValue::string, "<array or object>"};
    }
}

std::string shown(const Answer &a) { return idgen::test::answer_json(a); }

// The field widths of a layout, most significant first.
std::vector<int> widths(const Json &layout) {
    std::vector<int> out;
    for (const Json &f : layout["fields"].items) out.push_back(std::stoi(f["bits"].text));
    return out;
}

// A snowflake_layout case's layout, named, as the probe was given it
// (sql/edition/vectors.py's layout_spec): epoch/unit/name:bits,.../allow_64.
std::string layout_spec(const Json &layout) {
    std::string fields;
    for (const Json &f : layout["fields"].items)
        fields += (fields.empty() ? "" : ",") + f["name"].text + ":" + f["bits"].text;
    return layout["epoch_unix_ms"].text + "/" + layout["time_unit_ms"].text + "/" + fields + "/" +
           (layout["predefined"].text == "true" ? "1" : "0");
}

}  // namespace

// Every case of every family and form: the inputs through the cores, the
// answer field by field, in order, and nothing more.
TEST(Vectors, EveryCaseIsTheCoresAnswer) {
    const Json &families = vectors()["families"];
    EXPECT_EQ(families.members.size(), 11u)
        << "uuid_v7, snowflake, snowflake53, ulid, prefix, prefixed_id, ksuid, objectid, xid, typeid, "
           "snowflake_layout";
    for (const auto &[family, body] : families.members) {
        EXPECT_FALSE(body["cases"].members.empty()) << family << " has no cases";
        for (const auto &[form, list] : body["cases"].members) {
            const Json &inputs = body["case_inputs"][form];
            ASSERT_FALSE(list.items.empty()) << family << "." << form << " has no cases";
            for (const Json &c : list.items) {
                std::vector<std::string> in;
                for (const Json &name : inputs.items)
                    in.push_back(family == "snowflake_layout" && name.text == "layout"
                                     ? layout_spec(body["layouts"][c[name.text].text])
                                     : c[name.text].text);
                Answer recorded;
                for (const auto &[key, v] : c.members) {
                    bool input = key == "what" || key == "not_ascii";
                    for (const Json &name : inputs.items) input = input || key == name.text;
                    if (!input) recorded.emplace_back(key, value_of(v));
                }
                Answer now = idgen::test::vector_answer(family + "." + form, in);
                EXPECT_EQ(shown(recorded), shown(now))
                    << family << "." << form << ": " << c["what"].text << " (" << (in.empty() ? "" : in[0]) << ")";
            }
        }
    }
}

// The layouts the file states are the headers' (the epoch is the setting's
// default, in src/pg/module.cpp: vectors.py check holds that one).
TEST(Vectors, LayoutsAreTheHeaders) {
    const Json &f = vectors()["families"];
    EXPECT_EQ(widths(f["uuid_v7"]), (std::vector<int>{48, 4, kUuidv7SubmsBits, 2, 62}));
    EXPECT_EQ(std::stoll(f["uuid_v7"]["fields"].items[0]["bits"].text), 48);
    EXPECT_EQ((std::int64_t{1} << 48) - 1, kUuidv7MaxUnixMs);
    for (const auto &[name, layout] : {std::pair{"snowflake", kSnowflake63}, std::pair{"snowflake53", kSnowflake53}}) {
        const Json &l = f[name];
        EXPECT_EQ(widths(l), (std::vector<int>{64 - snowflake_id_bits(layout), kSnowflakeTimeBits,
                                               layout.shard_bits, layout.seq_bits}))
            << name;
        EXPECT_EQ(l["min_id"].text, std::to_string(snowflake_min_id(layout))) << name;
        EXPECT_EQ(l["max_id"].text, std::to_string(snowflake_max_id(layout))) << name;
        EXPECT_EQ(l["min_ms"].text, std::to_string(snowflake_min_ms(layout))) << name;
        EXPECT_EQ(l["max_shard"].text, std::to_string(snowflake_max_shard(layout))) << name;
        EXPECT_EQ(l["max_seq"].text, std::to_string(snowflake_max_seq(layout))) << name;
    }
    EXPECT_EQ(widths(f["ulid"]), (std::vector<int>{48, kUlidRandomBits}));
    EXPECT_EQ(f["ulid"]["alphabet"].text, kBase32Alphabet);
    EXPECT_EQ(f["ulid"]["digits"].text, std::to_string(kBase32Digits128));
    EXPECT_EQ(widths(f["ksuid"]), (std::vector<int>{8 * kKsuidTimestampBytes, 8 * kKsuidPayloadBytes}));
    EXPECT_EQ(f["ksuid"]["alphabet"].text, kKsuidAlphabet);
    EXPECT_EQ(f["ksuid"]["max_text"].text, kKsuidMaxText);
    EXPECT_EQ(f["ksuid"]["epoch_unix_s"].text, std::to_string(kKsuidEpochUnixSeconds));
    EXPECT_EQ(widths(f["objectid"]), (std::vector<int>{32, 8 * kObjectIdProcessBytes, kId96CounterBits}));
    EXPECT_EQ(f["objectid"]["digits"].text, std::to_string(kObjectIdTextLength));
    EXPECT_EQ(widths(f["xid"]), (std::vector<int>{32, 8 * kXidMachineBytes, 16, kId96CounterBits}));
    EXPECT_EQ(f["xid"]["alphabet"].text, std::string(kXidAlphabet));
    EXPECT_EQ(f["xid"]["digits"].text, std::to_string(kXidTextLength));
    EXPECT_EQ(f["typeid"]["alphabet"].text, kBase32LowerAlphabet);
    EXPECT_EQ(f["typeid"]["max_length"].text, std::to_string(kTypeidMaxChars));
    EXPECT_EQ(f["prefix"]["max_length"].text, std::to_string(kPrefixMaxLength));
    EXPECT_EQ(f["prefixed_id"]["digits"].text, std::to_string(kBase36Digits128));
    EXPECT_EQ(f["prefixed_id"]["max_length"].text, std::to_string(kPrefixMaxLength + 1 + kBase36Digits128));
    char max36[kBase36Digits128];
    base36_encode128(kUint128Max, max36);
    EXPECT_EQ(f["prefixed_id"]["max_body"].text, std::string(max36, sizeof max36));
}

// The snowflake layouts the file states: each predefined one field by field
// as the core defines it (instagram with the file's epoch, the setting's
// default), and every predefined layout of the header's list.
TEST(Vectors, SnowflakeLayoutsAreTheCores) {
    const Json &layouts = vectors()["families"]["snowflake_layout"]["layouts"];
    int predefined = 0;
    for (const auto &[name, l] : layouts.members) {
        if (l["predefined"].text != "true") continue;
        ++predefined;
        std::optional<Layout> core = predefined_layout(name, std::stoll(layouts["instagram"]["epoch_unix_ms"].text));
        ASSERT_TRUE(core.has_value()) << name;
        EXPECT_EQ(l["epoch_unix_ms"].text, std::to_string(core->epoch_ms)) << name;
        EXPECT_EQ(l["time_unit_ms"].text, std::to_string(core->unit_ms)) << name;
        ASSERT_EQ(l["fields"].items.size(), static_cast<std::size_t>(core->field_count)) << name;
        for (int i = 0; i < core->field_count; ++i) {
            const Json &f = l["fields"].items[i];
            EXPECT_EQ(f["name"].text, core->fields[i].name) << name;
            EXPECT_EQ(f["bits"].text, std::to_string(core->fields[i].bits)) << name;
            const char *kind = core->fields[i].kind == LayoutFieldKind::time       ? "time"
                               : core->fields[i].kind == LayoutFieldKind::sequence ? "sequence"
                                                                                   : "node";
            EXPECT_EQ(f["kind"].text, kind) << name << "." << f["name"].text;
        }
        EXPECT_EQ(l["total_bits"].text, std::to_string(layout_total_bits(*core))) << name;
        EXPECT_EQ(l["end_unix_ms"].text, std::to_string(layout_end_ms(*core))) << name;
    }
    EXPECT_EQ(predefined, kPredefinedLayoutCount);
    for (int i = 0; i < kPredefinedLayoutCount; ++i)
        EXPECT_EQ(layouts[std::string(predefined_layout_name(i))]["predefined"].text, "true")
            << predefined_layout_name(i);
}
