// Readers shared by the parsers of comma-separated list settings
// (snowflake_parse_shard_list, rmgr_parse_id_list): blanks and decimal numbers
// with a ceiling. Each advances pos through text and never reads past its end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace idgen::core {

// A blank around list items, commas and dashes: a space or a tab.
inline constexpr bool list_is_blank(char c) noexcept {
    return c == ' ' || c == '\t';
}

// Moves pos past any blanks.
inline constexpr void list_skip_blanks(std::string_view text, std::size_t &pos) noexcept {
    while (pos < text.size() && list_is_blank(text[pos])) ++pos;
}

// Reads every decimal digit at pos into value; a number above max comes back
// as max + 1, however many digits it has. False (pos unmoved) without a digit.
// Precondition: 0 <= max < INT32_MAX.
inline constexpr bool list_read_number(std::string_view text, std::size_t &pos, std::int32_t max,
                                       std::int32_t &value) noexcept {
    std::size_t start = pos;
    value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        std::int32_t digit = text[pos] - '0';
        // Once above max, value stays max + 1 (which is above max / 10).
        value = value > max / 10 || value * 10 > max - digit ? max + 1 : value * 10 + digit;
        ++pos;
    }
    return pos > start;
}

}  // namespace idgen::core
