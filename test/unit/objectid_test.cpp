// ObjectId text and layout (core/objectid.hpp) against the BSON spec's values
// and js-bson's (../shared/data/objectid), and hand-written cases.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/objectid.hpp"
#include "shared_data.hpp"

using namespace idgen::core;
using idgen::test::Json;

namespace {

std::string text_of(const std::uint8_t *id) {
    char out[24];
    objectid_encode(id, out);
    return std::string(out, sizeof out);
}

std::string hex_of(const std::uint8_t *bytes, std::size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        s += digits[bytes[i] >> 4];
        s += digits[bytes[i] & 15];
    }
    return s;
}

ObjectIdDecoded decode(const std::string &text, std::uint8_t *out) {
    return objectid_decode(text, out);
}

}  // namespace

TEST(ObjectId, Constants) {
    EXPECT_EQ(kObjectIdBytes, 12u);
    EXPECT_EQ(kObjectIdTextLength, 24u);
    EXPECT_EQ(kObjectIdProcessOffset, 4u);
    EXPECT_EQ(kObjectIdProcessBytes, 5u);
}

TEST(ObjectId, MakeAndFields) {
    const std::uint8_t process[5] = {0xe0, 0xc9, 0x17, 0xe9, 0xc4};
    std::uint8_t id[12];
    objectid_make(1457650802, process, 0x12714161, id);  // the counter is masked to 24 bits
    EXPECT_EQ(text_of(id), "56e1fc72e0c917e9c4714161");
    EXPECT_EQ(id96_seconds(id), 1457650802u);
    EXPECT_EQ(id96_counter(id), 7422305u);
    objectid_boundary(1457650802, id);
    EXPECT_EQ(text_of(id), "56e1fc720000000000000000");
}

TEST(ObjectId, EitherCaseInLowercaseOut) {
    std::uint8_t id[12];
    ASSERT_EQ(decode("56E1FC72e0c917E9C4714161", id).status, ObjectIdStatus::ok);
    EXPECT_EQ(text_of(id), "56e1fc72e0c917e9c4714161");
}

TEST(ObjectId, Refusals) {
    std::uint8_t id[12] = {0xAA};
    EXPECT_EQ(decode("", id).status, ObjectIdStatus::wrong_length);
    EXPECT_EQ(decode("56e1fc72e0c917e9c471416", id).status, ObjectIdStatus::wrong_length);
    EXPECT_EQ(decode("56e1fc72e0c917e9c47141610", id).status, ObjectIdStatus::wrong_length);
    ObjectIdDecoded bad = decode("56e1fc72e0c917e9c471416g", id);
    EXPECT_EQ(bad.status, ObjectIdStatus::bad_character);
    EXPECT_EQ(bad.position, 23u);
    // A bad character is reported before a wrong length, at the first one.
    bad = decode("x6e1-c72", id);
    EXPECT_EQ(bad.status, ObjectIdStatus::bad_character);
    EXPECT_EQ(bad.position, 0u);
    EXPECT_EQ(decode(std::string("56e1fc72e0c917e9c471416\0", 24), id).status,
              ObjectIdStatus::bad_character);
    EXPECT_EQ(decode(" 56e1fc72e0c917e9c4714161", id).position, 0u);
    EXPECT_EQ(id[0], 0xAA);  // untouched by a refusal
}

// The three ObjectIds of the BSON corpus, with their fields.
TEST(ObjectIdSpec, Valid) {
    auto data = idgen::test::shared_json("objectid/spec_valid.json");
    if (!data) return;
    ASSERT_EQ(data->items.size(), 3u);
    for (const Json &c : data->items) {
        std::uint8_t id[12];
        const std::string hex = c["hex"].text;
        ASSERT_EQ(decode(hex, id).status, ObjectIdStatus::ok) << hex;
        EXPECT_EQ(text_of(id), hex);
        EXPECT_EQ(std::to_string(id96_seconds(id)), c["timestamp_seconds"].text) << hex;
        EXPECT_EQ(hex_of(id + kObjectIdProcessOffset, kObjectIdProcessBytes),
                  c["process_unique_hex"].text);
        EXPECT_EQ(std::to_string(id96_counter(id)), c["counter"].text) << hex;
    }
}

// The corpus's decode error: an element carrying 10 bytes is no ObjectId; as
// text, 20 hex digits are the wrong length.
TEST(ObjectIdSpec, Invalid) {
    auto data = idgen::test::shared_json("objectid/spec_invalid.json");
    if (!data) return;
    ASSERT_EQ(data->items.size(), 1u);
    const Json &c = data->items[0];
    EXPECT_EQ(c["oid_byte_length"].text, "10");
    std::uint8_t id[12];
    EXPECT_EQ(decode(c["oid_bytes_hex"].text, id).status, ObjectIdStatus::wrong_length);
}

// The spec's four timestamps: unsigned 32-bit, and createFromTime's zero tail.
TEST(ObjectIdSpec, Timestamps) {
    auto data = idgen::test::shared_json("objectid/spec_timestamps.json");
    if (!data) return;
    ASSERT_EQ(data->items.size(), 4u);
    for (const Json &c : data->items) {
        std::uint32_t seconds = static_cast<std::uint32_t>(std::stoul(c["timestamp_seconds"].text));
        std::uint8_t id[12];
        objectid_boundary(seconds, id);
        EXPECT_EQ(text_of(id), c["oid_hex_with_zero_tail"].text);
        EXPECT_EQ(hex_of(id, 4), c["timestamp_field_hex"].text);
        std::uint8_t back[12];
        ASSERT_EQ(decode(c["oid_hex_with_zero_tail"].text, back).status, ObjectIdStatus::ok);
        EXPECT_EQ(id96_seconds(back), seconds);
    }
}

// js-bson's cases: createFromTime, getTimestamp, parsing in either case.
TEST(ObjectIdJsBson, Valid) {
    auto data = idgen::test::shared_json("objectid/js_bson_valid.json");
    if (!data) return;
    int checked = 0;
    for (const Json &c : data->items) {
        const std::string op = c["op"].text;
        std::uint8_t id[12];
        if (op == "createFromTime") {
            objectid_boundary(static_cast<std::uint32_t>(std::stoul(c["seconds"].text)), id);
            EXPECT_EQ(hex_of(id, 4), c["expected_first4_hex"].text);
            EXPECT_EQ(std::to_string(id96_seconds(id) * 1000ull), c["expected_getTimestamp_ms"].text);
        } else if (op == "getTimestamp") {
            ASSERT_EQ(decode(c["hex"].text, id).status, ObjectIdStatus::ok);
            EXPECT_EQ(std::to_string(id96_seconds(id) * 1000ull), c["expected_getTimestamp_ms"].text);
        } else if (op == "parse") {
            ASSERT_EQ(decode(c["hex"].text, id).status, ObjectIdStatus::ok) << c["hex"].text;
            EXPECT_EQ(text_of(id), c["expected_hex"].text);
        } else if (op == "isValid") {
            EXPECT_EQ(decode(c["hex"].text, id).status == ObjectIdStatus::ok,
                      c["expected"].text == "true");
        } else {
            ADD_FAILURE() << "unknown op " << op;
            continue;
        }
        ++checked;
    }
    EXPECT_EQ(checked, static_cast<int>(data->items.size()));
}

// js-bson's refusals (and 12-character strings, which js-bson would take as
// raw bytes but text never is here).
TEST(ObjectIdJsBson, Invalid) {
    auto data = idgen::test::shared_json("objectid/js_bson_invalid.json");
    if (!data) return;
    ASSERT_FALSE(data->items.empty());
    for (const Json &c : data->items) {
        std::uint8_t id[12];
        EXPECT_NE(decode(c["text"].text, id).status, ObjectIdStatus::ok) << c["text"].text;
    }
}
