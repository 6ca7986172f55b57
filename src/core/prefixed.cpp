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

PrefixedWire prefixed_wire_decode(const std::uint8_t *data, std::size_t size,
                                  bool empty_prefix_allowed) noexcept {
    PrefixedWire wire{WireStatus::empty, 0, 0, {PrefixStatus::ok, 0}, {}, nullptr};
    if (size == 0) return wire;
    wire.length_byte = data[0];
    if ((wire.length_byte == 0 && !empty_prefix_allowed) || wire.length_byte > kPrefixMaxLength) {
        wire.status = WireStatus::bad_length_byte;
        return wire;
    }
    wire.expected_size = 1 + wire.length_byte + kPrefixedPayloadBytes;
    if (size != wire.expected_size) {
        wire.status =
            size < wire.expected_size ? WireStatus::short_field : WireStatus::trailing_bytes;
        return wire;
    }
    std::string_view prefix(reinterpret_cast<const char *>(data + 1), wire.length_byte);
    if (!prefix.empty()) wire.prefix_check = prefix_check(prefix);
    if (wire.prefix_check.status != PrefixStatus::ok) {
        wire.status = WireStatus::bad_prefix;
        return wire;
    }
    wire.status = WireStatus::ok;
    wire.prefix = prefix;
    wire.payload = data + 1 + wire.length_byte;
    return wire;
}

std::size_t prefixed_wire_encode(std::string_view prefix,
                                 const std::uint8_t payload[kPrefixedPayloadBytes],
                                 std::uint8_t out[kPrefixedWireMaxBytes],
                                 bool empty_prefix_allowed) noexcept {
    if ((prefix.empty() && !empty_prefix_allowed) || prefix.size() > kPrefixMaxLength) return 0;
    out[0] = static_cast<std::uint8_t>(prefix.size());
    for (std::size_t i = 0; i < prefix.size(); ++i)
        out[1 + i] = static_cast<std::uint8_t>(prefix[i]);
    for (std::size_t i = 0; i < kPrefixedPayloadBytes; ++i) out[1 + prefix.size() + i] = payload[i];
    return 1 + prefix.size() + kPrefixedPayloadBytes;
}

void prefixed_token_layout(std::uint8_t bits[kPrefixedPayloadBytes]) noexcept {
    bits[6] = static_cast<std::uint8_t>((bits[6] & 0x0F) | 0x40);  // version 4
    bits[8] = static_cast<std::uint8_t>((bits[8] & 0x3F) | 0x80);  // variant 10
}

}  // namespace idgen::core
