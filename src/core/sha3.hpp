// SHA3-512 (FIPS 202): the Keccak-f[1600] permutation, the sponge with a rate
// of 72 bytes (1600 - 2 * 512 bits) and the SHA-3 padding (domain bits 01,
// then pad10*1). The hash CUID2 uses (core/cuid2.hpp). Pure C++17: the state
// is the caller's, no heap; absorb any number of pieces, then finish once.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idgen::core {

inline constexpr std::size_t kSha3_512DigestBytes = 64;
inline constexpr std::size_t kSha3_512RateBytes = 72;

// A hash being computed: 25 lanes of 64 bits (lane x + 5 y, each lane
// little-endian, FIPS 202 §3.1.2) and how many bytes of the current block
// have been absorbed.
struct Sha3_512 {
    std::uint64_t lanes[25];
    std::size_t position;
};

// The 24 rounds of Keccak-f[1600] on a state (FIPS 202 §3.3, §3.4).
void keccak_f1600(std::uint64_t lanes[25]) noexcept;

void sha3_512_start(Sha3_512 &hash) noexcept;
void sha3_512_absorb(Sha3_512 &hash, const std::uint8_t *data, std::size_t length) noexcept;
// Pads, permutes and writes the digest; the state must be started again to reuse.
void sha3_512_finish(Sha3_512 &hash, std::uint8_t digest[kSha3_512DigestBytes]) noexcept;

// One-shot: the digest of length bytes at data.
void sha3_512(const std::uint8_t *data, std::size_t length, std::uint8_t digest[kSha3_512DigestBytes]) noexcept;

}  // namespace idgen::core
