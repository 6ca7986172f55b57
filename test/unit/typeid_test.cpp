// TypeID text and the empty-prefix binary form: the spec's own examples
// (worked out from spec/valid.yml by hand), every rejection class of
// spec/invalid.yml, and round trips.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/typeid.hpp"
#include "random_values.hpp"

using namespace idgen::core;
using idgen::test::SplitMix64;

namespace {

std::string encode(std::string_view prefix, const std::uint8_t payload[16]) {
    char out[kTypeidMaxChars];
    std::size_t length = typeid_encode(prefix, payload, out);
    return std::string(out, length);
}

void bytes_of(std::uint64_t hi, std::uint64_t lo, std::uint8_t out[16]) {
    for (int i = 0; i < 8; ++i) {
        out[i] = static_cast<std::uint8_t>(hi >> (56 - 8 * i));
        out[8 + i] = static_cast<std::uint8_t>(lo >> (56 - 8 * i));
    }
}

}  // namespace

TEST(TypeidLimits, LongestTextIs90) { EXPECT_EQ(kTypeidMaxChars, 90u); }

// spec/valid.yml "prefix-underscore": pre_fix_00000000000000000000000000 is
// prefix "pre_fix" and the nil uuid; "valid-alphabet" prefix "prefix" and
// 0110c853-1d09-52d8-d73e-1194e95b5f19.
TEST(TypeidParse, SpecExamples) {
    TypeidParsed parsed = typeid_parse("pre_fix_00000000000000000000000000");
    ASSERT_EQ(parsed.status, TypeidStatus::ok);
    EXPECT_EQ(parsed.prefix, "pre_fix");
    EXPECT_EQ(parsed.suffix_decoded.value, Uint128{0});

    parsed = typeid_parse("prefix_0123456789abcdefghjkmnpqrs");
    ASSERT_EQ(parsed.status, TypeidStatus::ok);
    EXPECT_EQ(parsed.prefix, "prefix");
    std::uint8_t payload[16];
    store_be128(parsed.suffix_decoded.value, payload);
    std::uint8_t expected[16];
    bytes_of(0x0110c8531d0952d8ull, 0xd73e1194e95b5f19ull, expected);
    EXPECT_EQ(std::memcmp(payload, expected, 16), 0);
    EXPECT_EQ(encode("prefix", expected), "prefix_0123456789abcdefghjkmnpqrs");
}

// No underscore: the empty prefix, written without a separator.
TEST(TypeidParse, EmptyPrefix) {
    TypeidParsed parsed = typeid_parse("00000000000000000000000001");
    ASSERT_EQ(parsed.status, TypeidStatus::ok);
    EXPECT_TRUE(parsed.prefix.empty());
    EXPECT_EQ(parsed.suffix_decoded.value, Uint128{1});
    std::uint8_t one[16] = {};
    one[15] = 1;
    EXPECT_EQ(encode("", one), "00000000000000000000000001");
}

TEST(TypeidParse, Rejections) {
    EXPECT_EQ(typeid_parse("_00000000000000000000000000").status,
              TypeidStatus::empty_prefix_with_separator);
    EXPECT_EQ(typeid_parse("_").status, TypeidStatus::empty_prefix_with_separator);
    EXPECT_EQ(typeid_parse("").status, TypeidStatus::bad_suffix);
    EXPECT_EQ(typeid_parse("prefix_").status, TypeidStatus::bad_suffix);
    TypeidParsed parsed = typeid_parse("PREFIX_00000000000000000000000000");
    EXPECT_EQ(parsed.status, TypeidStatus::bad_prefix);
    EXPECT_EQ(parsed.prefix_check.status, PrefixStatus::bad_character);
    parsed = typeid_parse("prefix__00000000000000000000000000");
    EXPECT_EQ(parsed.status, TypeidStatus::bad_prefix);
    EXPECT_EQ(parsed.prefix_check.status, PrefixStatus::starts_or_ends_with_underscore);
    parsed = typeid_parse(std::string(64, 'a') + "_00000000000000000000000000");
    EXPECT_EQ(parsed.prefix_check.status, PrefixStatus::too_long);
    EXPECT_EQ(typeid_parse(std::string(63, 'a') + "_00000000000000000000000000").status,
              TypeidStatus::ok);
    parsed = typeid_parse("prefix_0123456789ABCDEFGHJKMNPQRS");
    EXPECT_EQ(parsed.status, TypeidStatus::bad_suffix);
    EXPECT_EQ(parsed.suffix_decoded.status, Base32Status::bad_digit);
    EXPECT_EQ(parsed.suffix_decoded.position, 10u);
    parsed = typeid_parse("prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz");
    EXPECT_EQ(parsed.suffix_decoded.status, Base32Status::too_large);
    parsed = typeid_parse("prefix_1234567890123456789012345");
    EXPECT_EQ(parsed.suffix_decoded.status, Base32Status::wrong_length);
    parsed = typeid_parse("prefix_i23456789ol23456789oi23456");
    EXPECT_EQ(parsed.suffix_decoded.status, Base32Status::bad_digit);
    EXPECT_EQ(parsed.suffix_decoded.position, 0u);
}

// Near misses have statuses of their own: a prefixed_id's text, and no "_".
TEST(TypeidParse, NearMisses) {
    TypeidParsed parsed = typeid_parse("acct_03hav05z19nhlpj50emq4uvdm");
    EXPECT_EQ(parsed.status, TypeidStatus::prefixed_id_text);
    EXPECT_EQ(typeid_parse("acct_1234567890123456789012345").status, TypeidStatus::prefixed_id_text);
    // 25 characters that are no base36 number stay a bad suffix
    EXPECT_EQ(typeid_parse("acct_12345678901234567890123-5").status, TypeidStatus::bad_suffix);
    EXPECT_EQ(typeid_parse("acct_1234567890123456789012").status, TypeidStatus::bad_suffix);
    parsed = typeid_parse("user01h455vb4pex5vsknk084sn02q");
    EXPECT_EQ(parsed.status, TypeidStatus::missing_separator);
    EXPECT_EQ(parsed.suffix.size(), 30u);
    // the 26 digits alone are a TypeID; fewer without "_" are a short suffix
    EXPECT_EQ(typeid_parse("01h455vb4pex5vsknk084sn02q").status, TypeidStatus::ok);
    EXPECT_EQ(typeid_parse("01h455vb4pex5vsknk084sn02").status, TypeidStatus::bad_suffix);
}

TEST(TypeidEncode, RefusesTooLongPrefixAndWritesAtMost90) {
    std::uint8_t payload[16] = {};
    char out[kTypeidMaxChars];
    EXPECT_EQ(typeid_encode(std::string(64, 'a'), payload, out), 0u);
    EXPECT_EQ(typeid_encode(std::string(63, 'a'), payload, out), 90u);
}

TEST(TypeidRoundTrip, RandomValuesAndPrefixes) {
    SplitMix64 rng;
    const std::string_view prefixes[] = {"", "a", "user", "user_session", "a_b"};
    for (int i = 0; i < 5000; ++i) {
        std::uint8_t payload[16];
        store_be128(rng.next128(), payload);
        std::string_view prefix = prefixes[i % 5];
        std::string text = encode(prefix, payload);
        TypeidParsed parsed = typeid_parse(text);
        ASSERT_EQ(parsed.status, TypeidStatus::ok) << text;
        EXPECT_EQ(parsed.prefix, prefix);
        std::uint8_t back[16];
        store_be128(parsed.suffix_decoded.value, back);
        EXPECT_EQ(std::memcmp(back, payload, 16), 0) << text;
    }
}

// The binary form with the empty prefix: L = 0 is read and written only when allowed.
TEST(TypeidWire, EmptyPrefixOnlyWhenAllowed) {
    std::uint8_t payload[16];
    for (int i = 0; i < 16; ++i) payload[i] = static_cast<std::uint8_t>(i * 7);
    std::uint8_t wire[kPrefixedWireMaxBytes];
    EXPECT_EQ(prefixed_wire_encode("", payload, wire), 0u);
    ASSERT_EQ(prefixed_wire_encode("", payload, wire, true), 17u);
    EXPECT_EQ(wire[0], 0);
    EXPECT_EQ(prefixed_wire_decode(wire, 17).status, WireStatus::bad_length_byte);
    PrefixedWire decoded = prefixed_wire_decode(wire, 17, true);
    ASSERT_EQ(decoded.status, WireStatus::ok);
    EXPECT_TRUE(decoded.prefix.empty());
    EXPECT_EQ(std::memcmp(decoded.payload, payload, 16), 0);
    EXPECT_EQ(prefixed_wire_decode(wire, 16, true).status, WireStatus::short_field);
    EXPECT_EQ(prefixed_wire_decode(wire, 18, true).status, WireStatus::trailing_bytes);
    ASSERT_EQ(prefixed_wire_encode("user", payload, wire, true), 21u);
    EXPECT_EQ(prefixed_wire_decode(wire, 21, true).prefix, "user");
    wire[1] = 'U';
    EXPECT_EQ(prefixed_wire_decode(wire, 21, true).status, WireStatus::bad_prefix);
}
