// SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
// 2012): a keyed pseudorandom function of a byte string to 64 bits, with 2
// compression and 4 finalization rounds. The PRF of idgen's keyed
// constructions (core/feistel63.hpp; UUIDv47's mask). Pure C++17: the key is
// the caller's, no heap.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idgen::core {

inline constexpr std::size_t kSipKeyBytes = 16;

// The 128-bit key as the paper's two words: k0 is bytes 0-7 and k1 bytes
// 8-15 of the key, each read little-endian.
struct SipKey {
    std::uint64_t k0;
    std::uint64_t k1;
};

// The key of 16 bytes, in the paper's byte order.
SipKey sip_key(const std::uint8_t bytes[kSipKeyBytes]) noexcept;

// SipHash-2-4 of length bytes at message under key; the paper's 64-bit output
// (its 8 output bytes are this value little-endian).
std::uint64_t siphash24(const SipKey &key, const std::uint8_t *message, std::size_t length) noexcept;

// SipHash-2-4 of the 8-byte message that is word little-endian: the same
// value as siphash24() of those 8 bytes, without the byte loop.
std::uint64_t siphash24_u64(const SipKey &key, std::uint64_t word) noexcept;

}  // namespace idgen::core
