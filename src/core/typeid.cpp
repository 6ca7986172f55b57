#include "core/typeid.hpp"

#include "core/base36.hpp"

namespace idgen::core {

TypeidParsed typeid_parse(std::string_view text) noexcept {
    TypeidParsed parsed{TypeidStatus::ok, {}, {}, {PrefixStatus::ok, 0},
                        {Base32Status::ok, 0, 0}};
    PrefixedParts parts = prefixed_split(text);
    parsed.prefix = parts.prefix;
    parsed.suffix = parts.body;
    if (parts.has_separator) {
        if (parts.prefix.empty()) {
            parsed.status = TypeidStatus::empty_prefix_with_separator;
            return parsed;
        }
        parsed.prefix_check = prefix_check(parts.prefix);
        if (parsed.prefix_check.status != PrefixStatus::ok) {
            parsed.status = TypeidStatus::bad_prefix;
            return parsed;
        }
    }
    parsed.suffix_decoded = base32_decode128(parts.body, Base32Case::lower);
    if (parsed.suffix_decoded.status == Base32Status::ok) return parsed;
    parsed.status = TypeidStatus::bad_suffix;
    // Two near misses get a status of their own, so that messages say what is wrong.
    if (!parts.has_separator && parts.body.size() > kBase32Digits128)
        parsed.status = TypeidStatus::missing_separator;
    else if (parts.has_separator && parts.body.size() == kBase36Digits128 &&
             base36_decode128(parts.body).status == Base36Status::ok)
        parsed.status = TypeidStatus::prefixed_id_text;
    return parsed;
}

std::size_t typeid_encode(std::string_view prefix, const std::uint8_t payload[kPrefixedPayloadBytes],
                          char out[kTypeidMaxChars]) noexcept {
    if (prefix.size() > kPrefixMaxLength) return 0;
    std::size_t length = 0;
    for (char c : prefix) out[length++] = c;
    if (!prefix.empty()) out[length++] = '_';
    base32_encode128(load_be128(payload), out + length, Base32Case::lower);
    return length + kBase32Digits128;
}

}  // namespace idgen::core
