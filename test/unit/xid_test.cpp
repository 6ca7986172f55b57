// XID text and layout (core/xid.hpp) against rs/xid's test values
// (../shared/data/xid), and hand-written cases.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "core/xid.hpp"
#include "random_values.hpp"
#include "shared_data.hpp"

using namespace idgen::core;
using idgen::test::Json;
using idgen::test::SplitMix64;

namespace {

std::string text_of(const std::uint8_t *id) {
    char out[20];
    xid_encode(id, out);
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

void from_hex(const std::string &hex, std::uint8_t *out) {
    for (std::size_t i = 0; i < hex.size() / 2; ++i)
        out[i] = static_cast<std::uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
}

XidDecoded decode(const std::string &text, std::uint8_t *out) {
    return xid_decode(text, out);
}

}  // namespace

TEST(Xid, Constants) {
    EXPECT_EQ(kXidBytes, 12u);
    EXPECT_EQ(kXidTextLength, 20u);
    EXPECT_EQ(kXidAlphabet, "0123456789abcdefghijklmnopqrstuv");
}

TEST(Xid, MakeAndFields) {
    const std::uint8_t process[5] = {0x60, 0xf4, 0x86, 0xe4, 0x28};
    std::uint8_t id[12];
    xid_make(1300816219, process, 0xFF412dc9, id);
    EXPECT_EQ(hex_of(id, 12), "4d88e15b60f486e428412dc9");
    EXPECT_EQ(text_of(id), "9m4e2mr0ui3e8a215n4g");
    EXPECT_EQ(xid_pid(id), 58408u);
    EXPECT_EQ(id96_counter(id), 4271561u);
    xid_boundary(1300816219, id);
    EXPECT_EQ(hex_of(id, 12), "4d88e15b0000000000000000");
}

// Every value round-trips, the last character is '0' or 'g', and text order
// is byte order.
TEST(Xid, RoundTripAndOrder) {
    SplitMix64 rng{53};
    std::uint8_t a[12], b[12], back[12];
    for (int i = 0; i < 20000; ++i) {
        for (auto &x : a) x = static_cast<std::uint8_t>(rng.next());
        for (auto &x : b) x = static_cast<std::uint8_t>(rng.next());
        if (i % 7 == 0) std::memcpy(b, a, 6);
        std::string ta = text_of(a), tb = text_of(b);
        ASSERT_TRUE(ta.back() == '0' || ta.back() == 'g') << ta;
        ASSERT_EQ(decode(ta, back).status, XidStatus::ok) << ta;
        ASSERT_EQ(std::memcmp(back, a, 12), 0) << ta;
        int bytes = std::memcmp(a, b, 12), text = ta.compare(tb);
        ASSERT_EQ(bytes < 0, text < 0);
        ASSERT_EQ(bytes == 0, text == 0);
    }
}

TEST(Xid, Refusals) {
    std::uint8_t id[12] = {0xAA};
    EXPECT_EQ(decode("", id).status, XidStatus::wrong_length);
    EXPECT_EQ(decode("9m4e2mr0ui3e8a215n4", id).status, XidStatus::wrong_length);
    EXPECT_EQ(decode("9m4e2mr0ui3e8a215n4g0", id).status, XidStatus::wrong_length);
    XidDecoded bad = decode("9m4e2mr0ui3e8a215n4w", id);  // w is past v
    EXPECT_EQ(bad.status, XidStatus::bad_character);
    EXPECT_EQ(bad.position, 19u);
    bad = decode("9M4E2MR0UI3E8A215N4G", id);
    EXPECT_EQ(bad.status, XidStatus::bad_character);
    EXPECT_EQ(bad.position, 1u);
    bad = decode("9m4e2mr0ui3e8a215n4h", id);
    EXPECT_EQ(bad.status, XidStatus::bad_last_character);
    EXPECT_EQ(bad.position, 19u);
    // Of the 32 digits, only 0 and g are a last character.
    std::string text = "9m4e2mr0ui3e8a215n4g";
    for (char c : kXidAlphabet) {
        text.back() = c;
        EXPECT_EQ(decode(text, id).status == XidStatus::ok, c == '0' || c == 'g') << c;
    }
    EXPECT_EQ(id[0], 0x4d);  // the last ok decode
    EXPECT_EQ(decode("9m4e2mr0ui3e8a215n4=", id).status, XidStatus::bad_character);
}

// rs/xid's IDs with their fields, and TestPadding's text.
TEST(XidReference, Valid) {
    auto data = idgen::test::shared_json("xid/valid.json");
    if (!data) return;
    ASSERT_EQ(data->items.size(), 4u);
    for (const Json &c : data->items) {
        const std::string text = c["text"].text;
        std::uint8_t id[12], raw[12];
        ASSERT_EQ(decode(text, id).status, XidStatus::ok) << text;
        EXPECT_EQ(hex_of(id, 12), c["raw_hex"].text);
        from_hex(c["raw_hex"].text, raw);
        EXPECT_EQ(text_of(raw), text);
        EXPECT_EQ(std::to_string(id96_seconds(id)), c["time_unix_seconds"].text) << text;
        EXPECT_EQ(hex_of(id + kXidMachineOffset, kXidMachineBytes), c["machine_hex"].text);
        EXPECT_EQ(std::to_string(xid_pid(id)), c["pid"].text) << text;
        EXPECT_EQ(std::to_string(id96_counter(id)), c["counter"].text) << text;
    }
}

// rs/xid's refusals, each for the reason it gives.
TEST(XidReference, Invalid) {
    auto data = idgen::test::shared_json("xid/invalid.json");
    if (!data) return;
    ASSERT_FALSE(data->items.empty());
    for (const Json &c : data->items) {
        const std::string text = c["text"].text, reason = c["reason"].text;
        std::uint8_t id[12];
        XidStatus status = decode(text, id).status;
        if (reason == "length") {
            // Length is checked after the characters: "invalid" has none outside 0-9a-v.
            EXPECT_TRUE(status == XidStatus::wrong_length || status == XidStatus::bad_character)
                << text;
        } else if (reason == "character") {
            EXPECT_EQ(status, XidStatus::bad_character) << text;
        } else if (reason == "non-canonical last character") {
            EXPECT_EQ(status, XidStatus::bad_last_character) << text;
        } else {
            ADD_FAILURE() << "unknown reason " << reason;
        }
    }
}

// TestID_Compare: byte order.
TEST(XidReference, Compare) {
    auto data = idgen::test::shared_json("xid/compare.json");
    if (!data) return;
    for (const Json &c : data->items) {
        std::uint8_t left[12], right[12];
        from_hex(c["left_hex"].text, left);
        from_hex(c["right_hex"].text, right);
        int order = std::memcmp(left, right, 12);
        EXPECT_EQ(std::to_string(order < 0 ? -1 : order > 0 ? 1 : 0), c["expected"].text);
        int text = text_of(left).compare(text_of(right));
        EXPECT_EQ(text < 0 ? -1 : text > 0 ? 1 : 0, order < 0 ? -1 : order > 0 ? 1 : 0);
    }
}
