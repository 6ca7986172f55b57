// UUIDv47 (stateless-me/uuidv47): a UUIDv7 shown as a v4-looking façade whose
// 48 time bits are masked under a 128-bit key, and undone exactly with the
// same key; and idgen's own construction of the same kind for a ULID. Pure
// C++17: the key is the caller's, no heap. The layout is frozen: a façade
// must unmask with the same key forever.
//
// The UUIDv7 façade (byte-compatible with UUIDv47's other implementations;
// vectors in ../shared/data/uuidv47/facade.json):
//
//   - message: the 10 bytes of the v7's random field, version and variant
//     bits cleared: b6 & 0x0F, b7, b8 & 0x3F, b9 .. b15;
//   - mask48: the low 48 bits of SipHash-2-4 (core/siphash.hpp) of that
//     message under the key (the key's 16 bytes in SipHash's byte order);
//   - façade: bytes 0-5 (unix_ts_ms, big-endian) XOR mask48, version nibble
//     4; the variant (10) and the 74 random bits unchanged. Unmasking reads
//     the same message from the façade (those bits did not change), XORs the
//     same mask48 and sets the version nibble back to 7.
//
// The ULID mask (idgen's own, no published peer): bytes 0-5 (the 48-bit
// time) XOR the low 48 bits of SipHash-2-4 of the 12-byte message: the 80
// random bits (bytes 6-15) then 'U' 'L' (0x55 0x4c). The length differs
// from the façade's 10 bytes and feistel63's 8, so one key used by several
// constructions gives unrelated masks. A ULID has no version bits to mark a
// masked one: the mask is its own inverse, and any 128 bits are a ULID.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/siphash.hpp"
#include "core/uuidv6.hpp"

namespace idgen::core {

inline constexpr std::size_t kUuidv47Bytes = kUuidBytes;
inline constexpr int kUuidv47FacadeVersion = 4;
inline constexpr int kUuidv47StoredVersion = 7;
inline constexpr std::size_t kUuidv47MessageBytes = 10;
inline constexpr std::size_t kUlidMaskMessageBytes = 12;

enum class Uuidv47Status {
    ok,
    wrong_variant,  // not the RFC 9562 variant (10): the version field means nothing
    wrong_version,  // mask: not version 7; unmask: not version 4
};

// The low 48 bits of SipHash-2-4 of a v7's or a façade's random field.
std::uint64_t uuidv47_mask48(const SipKey &key, const std::uint8_t uuid[kUuidv47Bytes]) noexcept;

// The façade of a UUIDv7; wrong_variant for a variant other than 10, else
// wrong_version for any other version (out is then untouched). The version
// and variant are read with uuid_version() and uuid_rfc_variant().
Uuidv47Status uuidv47_mask(const SipKey &key, const std::uint8_t v7[kUuidv47Bytes],
                           std::uint8_t facade[kUuidv47Bytes]) noexcept;

// The UUIDv7 of a façade; wrong_variant, or wrong_version for a UUID of
// another version than 4. Any version 4 UUID unmasks to some v7: the façade
// carries no authentication, and a wrong key gives a wrong time.
Uuidv47Status uuidv47_unmask(const SipKey &key, const std::uint8_t facade[kUuidv47Bytes],
                             std::uint8_t v7[kUuidv47Bytes]) noexcept;

// The ULID with its time masked (or a masked one unmasked: the same
// function). in and out may be the same buffer.
void ulid_mask(const SipKey &key, const std::uint8_t in[kUuidv47Bytes], std::uint8_t out[kUuidv47Bytes]) noexcept;

}  // namespace idgen::core
