// The idgen.replay_resource_manager_ids list (core/rmgr_ids.hpp): empty and
// blank lists, one and several IDs, blanks, both ends of the range, every ID,
// and every error with the text it points at.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>

#include "core/rmgr_ids.hpp"

using namespace idgen::core;

// Readable gtest failures for the status enum (found by argument-dependent lookup).
namespace idgen::core {
void PrintTo(RmgrIdListError error, std::ostream *os) {
    switch (error) {
        case RmgrIdListError::none: *os << "none"; return;
        case RmgrIdListError::expected_id: *os << "expected_id"; return;
        case RmgrIdListError::out_of_range: *os << "out_of_range"; return;
        case RmgrIdListError::duplicate: *os << "duplicate"; return;
        case RmgrIdListError::expected_comma: *os << "expected_comma"; return;
    }
    *os << "RmgrIdListError(" << static_cast<int>(error) << ")";
}
}  // namespace idgen::core

namespace {

// The IDs of a set, as "a,b,c" text in increasing order, for readable comparisons.
std::string ids_of(const RmgrIdSet &set) {
    std::string text;
    for (int id = 128; id <= 255; ++id) {
        if (!set[static_cast<std::size_t>(id - 128)]) continue;
        if (!text.empty()) text += ',';
        text += std::to_string(id);
    }
    return text;
}

// Parses text into a set that starts full, so that every element must be written.
RmgrIdListParse parse(std::string_view text, RmgrIdSet &set) {
    set.fill(true);
    return rmgr_parse_id_list(text, set);
}

}  // namespace

TEST(RmgrIdList, PostgresCustomRange) {
    // access/rmgr.h: RM_MIN_CUSTOM_ID 128, RM_MAX_CUSTOM_ID UINT8_MAX.
    EXPECT_EQ(kRmgrMinCustomId, 128);
    EXPECT_EQ(kRmgrMaxCustomId, 255);
    EXPECT_EQ(kRmgrCustomIdCount, 128);
    EXPECT_EQ(RmgrIdSet{}.size(), 128u);
}

TEST(RmgrIdList, EmptyOrBlankIsTheEmptySet) {
    for (const char *blank : {"", " ", "   ", "\t", " \t \t"}) {
        RmgrIdSet set;
        ASSERT_EQ(parse(blank, set).error, RmgrIdListError::none) << '"' << blank << '"';
        EXPECT_EQ(ids_of(set), "") << '"' << blank << '"';
    }
}

TEST(RmgrIdList, OneId) {
    RmgrIdSet set;
    ASSERT_EQ(parse("128", set).error, RmgrIdListError::none);  // the GUC's default
    EXPECT_EQ(ids_of(set), "128");
    ASSERT_EQ(parse("173", set).error, RmgrIdListError::none);
    EXPECT_EQ(ids_of(set), "173");
    ASSERT_EQ(parse("255", set).error, RmgrIdListError::none);
    EXPECT_EQ(ids_of(set), "255");
}

TEST(RmgrIdList, SeveralIdsInAnyOrder) {
    RmgrIdSet set;
    ASSERT_EQ(parse("128,173,255", set).error, RmgrIdListError::none);
    EXPECT_EQ(ids_of(set), "128,173,255");
    ASSERT_EQ(parse("200,129,150", set).error, RmgrIdListError::none);
    EXPECT_EQ(ids_of(set), "129,150,200");
}

TEST(RmgrIdList, BlanksAroundIdsAndCommas) {
    for (const char *text : {" 128,129", "128 ,129", "128, 129", "128,129 ", "  128  ,  129  ",
                             "\t128\t,\t129\t", " \t128 \t, \t129 \t"}) {
        RmgrIdSet set;
        ASSERT_EQ(parse(text, set).error, RmgrIdListError::none) << '"' << text << '"';
        EXPECT_EQ(ids_of(set), "128,129") << '"' << text << '"';
    }
}

TEST(RmgrIdList, LeadingZerosReadAsDecimal) {
    RmgrIdSet set;
    ASSERT_EQ(parse("0128, 000000000000000000000255", set).error, RmgrIdListError::none);
    EXPECT_EQ(ids_of(set), "128,255");
}

TEST(RmgrIdList, EveryId) {
    std::string text;
    for (int id = 255; id >= 128; --id) {
        RmgrIdSet set;
        ASSERT_EQ(parse(std::to_string(id), set).error, RmgrIdListError::none) << id;
        ASSERT_TRUE(set[static_cast<std::size_t>(id - 128)]) << id;
        ASSERT_EQ(ids_of(set), std::to_string(id));
        if (!text.empty()) text += ", ";
        text += std::to_string(id);
    }
    RmgrIdSet set;
    ASSERT_EQ(parse(text, set).error, RmgrIdListError::none);
    for (bool listed : set) EXPECT_TRUE(listed);
}

TEST(RmgrIdList, ErrorsPointAtTheText) {
    struct Case {
        const char *text;
        RmgrIdListError error;
        std::size_t begin;
        const char *found;
    };
    for (const Case &c : {
             // No ID where one belongs.
             Case{"x", RmgrIdListError::expected_id, 0, "x"},
             Case{"  abc", RmgrIdListError::expected_id, 2, "a"},
             Case{"-1", RmgrIdListError::expected_id, 0, "-"},
             Case{"+128", RmgrIdListError::expected_id, 0, "+"},
             Case{",128", RmgrIdListError::expected_id, 0, ","},
             Case{" , ", RmgrIdListError::expected_id, 1, ","},
             Case{"128,", RmgrIdListError::expected_id, 4, ""},  // a trailing comma
             Case{"128, \t", RmgrIdListError::expected_id, 6, ""},
             Case{"128,,129", RmgrIdListError::expected_id, 4, ","},
             Case{"128, x", RmgrIdListError::expected_id, 5, "x"},
             Case{"128,-129", RmgrIdListError::expected_id, 4, "-"},
             // Outside 128..255, whatever the number of digits.
             Case{"127", RmgrIdListError::out_of_range, 0, "127"},
             Case{"256", RmgrIdListError::out_of_range, 0, "256"},
             Case{"0", RmgrIdListError::out_of_range, 0, "0"},
             Case{"128, 1", RmgrIdListError::out_of_range, 5, "1"},
             Case{"128,2560", RmgrIdListError::out_of_range, 4, "2560"},
             Case{"4294967424", RmgrIdListError::out_of_range, 0, "4294967424"},  // 2^32 + 128
             Case{"99999999999999999999999999", RmgrIdListError::out_of_range, 0,
                  "99999999999999999999999999"},
             Case{"300x", RmgrIdListError::out_of_range, 0, "300"},  // range before what follows
             Case{"0x80", RmgrIdListError::out_of_range, 0, "0"},
             // Listed twice.
             Case{"128,128", RmgrIdListError::duplicate, 4, "128"},
             Case{"130, 140, 0130", RmgrIdListError::duplicate, 10, "0130"},
             // After an ID, neither a comma nor the end.
             Case{"128 129", RmgrIdListError::expected_comma, 4, "1"},
             Case{"128;129", RmgrIdListError::expected_comma, 3, ";"},
             Case{"128x", RmgrIdListError::expected_comma, 3, "x"},
             Case{"128-129", RmgrIdListError::expected_comma, 3, "-"},
             Case{"128.5", RmgrIdListError::expected_comma, 3, "."},
             Case{"128, 129 130", RmgrIdListError::expected_comma, 9, "1"},
             // Only spaces and tabs are blanks.
             Case{"128\n", RmgrIdListError::expected_comma, 3, "\n"},
             Case{"128\r,129", RmgrIdListError::expected_comma, 3, "\r"},
         }) {
        RmgrIdSet set;
        std::string_view text = c.text;
        RmgrIdListParse parsed = parse(text, set);
        EXPECT_EQ(parsed.error, c.error) << '"' << c.text << '"';
        EXPECT_EQ(parsed.begin, c.begin) << '"' << c.text << '"';
        ASSERT_LE(parsed.begin + parsed.length, text.size()) << '"' << c.text << '"';
        EXPECT_EQ(text.substr(parsed.begin, parsed.length), c.found) << '"' << c.text << '"';
    }
}

TEST(RmgrIdList, NulIsNotBlank) {
    RmgrIdSet set;
    using namespace std::string_view_literals;
    EXPECT_EQ(parse("128\0"sv, set).error, RmgrIdListError::expected_comma);
    EXPECT_EQ(parse("\0"sv, set).error, RmgrIdListError::expected_id);
}
