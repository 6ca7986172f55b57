// Prefixed IDs: "<prefix>_<body>", a prefix naming the entity and 128 bits
// in 25 base36 digits (core/base36.hpp), e.g. acct_0jz3... The prefix is
// lowercase letters and underscores, starts and ends with a letter and has
// at most 63 characters; the text splits on its last underscore.
#pragma once

#include <cstddef>
#include <string_view>

namespace idgen::core {

inline constexpr std::size_t kPrefixMaxLength = 63;

enum class PrefixStatus { ok, empty, too_long, bad_character, starts_or_ends_with_underscore };

struct PrefixCheck {
    PrefixStatus status;
    std::size_t position;  // of the offending character for bad_character
};

PrefixCheck prefix_check(std::string_view prefix) noexcept;

struct PrefixedParts {
    bool has_separator;  // false: no underscore, so no prefix at all
    std::string_view prefix;
    std::string_view body;
};

// Splits text on its last underscore.
PrefixedParts prefixed_split(std::string_view text) noexcept;

}  // namespace idgen::core
