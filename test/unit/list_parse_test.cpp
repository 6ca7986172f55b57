// The readers shared by the list settings' parsers (core/list_parse.hpp):
// blanks, and decimal numbers that stop at a ceiling without overflowing.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include "core/list_parse.hpp"

using namespace idgen::core;

namespace {

struct Read {
    bool ok;
    std::int32_t value;
    std::size_t pos;
};

Read read(std::string_view text, std::size_t pos, std::int32_t max) {
    std::int32_t value = -1;
    bool ok = list_read_number(text, pos, max, value);
    return {ok, value, pos};
}

// Usable in constant expressions, as the header promises.
constexpr std::int32_t kRead255 = [] {
    std::size_t pos = 0;
    std::int32_t value = 0;
    list_read_number("255,", pos, 255, value);
    return value;
}();
static_assert(kRead255 == 255);

}  // namespace

TEST(ListParse, BlanksAreSpacesAndTabs) {
    EXPECT_TRUE(list_is_blank(' '));
    EXPECT_TRUE(list_is_blank('\t'));
    for (char c : {'\n', '\r', '\v', '\f', '\0', ',', '0', 'a'})
        EXPECT_FALSE(list_is_blank(c)) << int(c);
}

TEST(ListParse, SkipBlanksStopsAtTheFirstOther) {
    std::size_t pos = 0;
    list_skip_blanks(" \t \tx ", pos);
    EXPECT_EQ(pos, 4u);
    list_skip_blanks(" \t \tx ", pos);  // not a blank: stays
    EXPECT_EQ(pos, 4u);
    pos = 5;
    list_skip_blanks(" \t \tx ", pos);  // to the end, not past it
    EXPECT_EQ(pos, 6u);
    pos = 0;
    list_skip_blanks("", pos);
    EXPECT_EQ(pos, 0u);
}

TEST(ListParse, ReadNumberReadsEveryDigit) {
    Read r = read("173,", 0, 255);
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.value, 173);
    EXPECT_EQ(r.pos, 3u);
    r = read("x 0042 ", 2, 255);
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.value, 42);
    EXPECT_EQ(r.pos, 6u);
    r = read("255", 0, 255);
    EXPECT_EQ(r.value, 255);
}

TEST(ListParse, ReadNumberWithoutADigit) {
    for (std::string_view text : {"", " 1", "-1", "+1", "x"}) {
        Read r = read(text, 0, 255);
        EXPECT_FALSE(r.ok) << text;
        EXPECT_EQ(r.value, 0) << text;
        EXPECT_EQ(r.pos, 0u) << text;
    }
}

TEST(ListParse, ReadNumberAboveMaxIsMaxPlusOne) {
    for (std::string_view text :
         {"256", "1000", "2560", "4294967296", "99999999999999999999999999"}) {
        Read r = read(text, 0, 255);
        EXPECT_TRUE(r.ok) << text;
        EXPECT_EQ(r.value, 256) << text;
        EXPECT_EQ(r.pos, text.size()) << text;  // however many digits
    }
    EXPECT_EQ(read("8192", 0, 8191).value, 8192);
    EXPECT_EQ(read("8191", 0, 8191).value, 8191);
    // Small ceilings, and the largest one allowed, without overflow.
    EXPECT_EQ(read("9", 0, 5).value, 6);
    EXPECT_EQ(read("5", 0, 5).value, 5);
    EXPECT_EQ(read("1", 0, 0).value, 1);
    EXPECT_EQ(read("0000", 0, 0).value, 0);
    constexpr std::int32_t kBig = std::numeric_limits<std::int32_t>::max() - 1;
    EXPECT_EQ(read("2147483646", 0, kBig).value, kBig);
    EXPECT_EQ(read("2147483647", 0, kBig).value, kBig + 1);
    EXPECT_EQ(read("99999999999999999999", 0, kBig).value, kBig + 1);
}
