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
    return {true, text.substr(0, separator), text.substr(separator + 1)};
}

}  // namespace idgen::core
