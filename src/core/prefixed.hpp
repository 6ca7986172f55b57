// Prefixed IDs: "<prefix>_<body>", a prefix naming the entity and 128 bits
// in 25 base36 digits (core/base36.hpp), e.g. acct_0jz3... The prefix is
// lowercase letters and underscores, starts and ends with a letter and has
// at most 63 characters; the text splits on its last underscore. Also the
// binary (send/recv) form and the layout of a token's 128 bits.
#pragma once

#include <cstddef>
#include <cstdint>
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

inline constexpr std::size_t kPrefixedPayloadBytes = 16;

// The binary form, self-framing, so that a field's length alone proves
// nothing (PostgreSQL's send/recv, binary COPY):
//
//   +--------+---------------------------+------------------------+
//   | L (u8) | prefix: L bytes, L 1..63  | payload: 16 bytes      |
//   +--------+---------------------------+------------------------+
//
// A field must be exactly 1 + L + 16 bytes with a valid prefix. TypeID uses
// the same form, where L may also be 0 (the empty prefix). (The layout
// before idgen 0.5.0 had no length byte: its first byte, the prefix's first
// letter, is 0x61 or more and so never a valid L.)
inline constexpr std::size_t kPrefixedWireMaxBytes = 1 + kPrefixMaxLength + kPrefixedPayloadBytes;

enum class WireStatus {
    ok,
    empty,            // no bytes at all
    bad_length_byte,  // L is above 63, or 0 where a prefix is required
    short_field,      // fewer than 1 + L + 16 bytes
    trailing_bytes,   // more than 1 + L + 16 bytes
    bad_prefix,       // framed, but the prefix has a bad character or "_" at an end
};

struct PrefixedWire {
    WireStatus status;
    std::size_t length_byte;      // L, once there is a byte
    std::size_t expected_size;    // 1 + L + 16, once L is valid
    PrefixCheck prefix_check;     // for bad_prefix
    std::string_view prefix;      // when ok
    const std::uint8_t *payload;  // 16 bytes, when ok
};

// Reads a binary field of size bytes (data may be null when size is 0); with
// empty_prefix_allowed (TypeID), L = 0 is a valid length.
PrefixedWire prefixed_wire_decode(const std::uint8_t *data, std::size_t size,
                                  bool empty_prefix_allowed = false) noexcept;

// Writes the binary form into out and returns its size; 0 (nothing written)
// when the prefix's length is not 1..63 (0..63 with empty_prefix_allowed).
std::size_t prefixed_wire_encode(std::string_view prefix,
                                 const std::uint8_t payload[kPrefixedPayloadBytes],
                                 std::uint8_t out[kPrefixedWireMaxBytes],
                                 bool empty_prefix_allowed = false) noexcept;

// A token's 128 bits from 16 random bytes, in place: the UUIDv4 layout of
// RFC 9562 section 5.4, version 0100 in the high half of byte 6 and variant
// 10 in the top bits of byte 8, the other 122 bits kept. So a token is a
// valid version 4 uuid and never reads as a UUIDv7 (no made-up time).
void prefixed_token_layout(std::uint8_t bits[kPrefixedPayloadBytes]) noexcept;

}  // namespace idgen::core
