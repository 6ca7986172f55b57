// UUID version 8 (RFC 9562 §5.8): 122 bits of the application's own, with
// version 0b1000 and variant 0b10 set. Name-based UUIDs with SHA-256 are
// version 8 (§5.5, Appendix B.2): SHA-256 over the 16 namespace octets and
// then the name, its first 16 octets kept. The hash is the glue's (the core
// takes the digest). Pure C++17.
//
//   0                   1                   2                   3
//   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                           custom_a                            |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |          custom_a             |  ver  |       custom_b        |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |var|                       custom_c                            |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                           custom_c                            |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/uuidv7.hpp"

namespace idgen::core {

inline constexpr std::size_t kSha256Bytes = 32;

// The UUIDv8 of 16 bytes: the same bytes with the high nibble of octet 6 set
// to 8 and the two high bits of octet 8 to 0b10 (6 bits of the input are lost).
inline void uuidv8_from_bytes(const std::uint8_t in[kUuidBytes],
                              std::uint8_t out[kUuidBytes]) noexcept {
    for (std::size_t i = 0; i < kUuidBytes; ++i) out[i] = in[i];
    out[6] = static_cast<std::uint8_t>(0x80 | (out[6] & 0x0F));
    out[8] = static_cast<std::uint8_t>(0x80 | (out[8] & 0x3F));
}

// The name-based UUIDv8 of a SHA-256 digest of namespace || name (RFC 9562
// Appendix B.2): its first 16 octets, version and variant set.
inline void uuidv8_from_sha256(const std::uint8_t digest[kSha256Bytes],
                               std::uint8_t out[kUuidBytes]) noexcept {
    uuidv8_from_bytes(digest, out);
}

}  // namespace idgen::core
