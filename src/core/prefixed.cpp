#include "core/prefixed.hpp"

namespace idgen::core {

PrefixCheck prefix_check(std::string_view prefix) noexcept {
    if (prefix.empty()) return {PrefixStatus::empty, 0};
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        char c = prefix[i];
        if (!((c >= 'a' && c <= 'z') || c == '_')) return {PrefixStatus::bad_character, i};
    }
    if (prefix.size() > kPrefixMaxLength) return {PrefixStatus::too_long, 0};
    if (prefix.front() == '_' || prefix.back() == '_')
        return {PrefixStatus::starts_or_ends_with_underscore, 0};
    return {PrefixStatus::ok, 0};
}

PrefixedParts prefixed_split(std::string_view text) noexcept {
    std::size_t separator = text.rfind('_');
    if (separator == std::string_view::npos) return {false, {}, text};
    // Built from pointers, not substr(): substr() can throw, which would make
    // the library import libstdc++'s __throw_out_of_range_fmt.
    return {true, std::string_view(text.data(), separator),
            std::string_view(text.data() + separator + 1, text.size() - separator - 1)};
}

}  // namespace idgen::core
