// feistel63: a keyed permutation of the positive bigints 1 .. 2^63 - 1, for
// integer keys (bigserial, identity, snowflake) shown outside as numbers that
// do not give away their count or order. The construction, written once here
// (docs/security.md says what it protects):
//
//   - a Feistel network on 63 bits with halves of 31 bits (hi, the top) and
//     32 bits (lo, the bottom), 24 rounds. Round i (0 to 23) changes one
//     half by XOR with the low bits of a round function of the other:
//       even i:  hi ^= F(i, lo) mod 2^31
//       odd i:   lo ^= F(i, hi) mod 2^32
//     Decoding runs the rounds from 23 down to 0 (each is its own inverse);
//   - F(i, v) = SipHash-2-4 (core/siphash.hpp) under the 16-byte key of the
//     8-byte message: v as 4 bytes little-endian, i as 1 byte, the width
//     (63) as 1 byte, then the bytes 'F' 'N' (0x46 0x4e). The round number in
//     the message makes the 24 round functions independent; the length (8
//     bytes; UUIDv47 hashes 10) keeps them apart from other uses of a key;
//   - cycle-walking: the network permutes 0 .. 2^63 - 1, so the one id whose
//     image is 0 is mapped once more (to the network's image of 0), and the
//     decoder likewise. 0 and negative bigints are neither taken nor given.
//
// Why 24 rounds: Luby and Rackoff (1988) proved 4 rounds indistinguishable
// from a random permutation only up to 2^(n/2) queries, n the half's width:
// 2^15.5 here, which is nothing. Patarin (CRYPTO 2003) proved, for any e > 0,
// 10 rounds secure against adaptive chosen plaintexts and ciphertexts up to
// 2^(n(1-e)) queries, and no number of rounds goes past O(2^n) (about 2^31
// here); Maurer and Pietrzak (EUROCRYPT 2003) and Hoang and Rogaway (CRYPTO
// 2010, which covers halves of unequal width) show the bound approaching 2^n
// as the rounds grow. 24 rounds are 2.4 times Patarin's 10 (and NIST FF1's
// 10), at 24 SipHash calls a value.
//
// This layout is frozen: an output must decode with the same key forever. A
// different construction would be a different function, never a change here.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include "core/siphash.hpp"

namespace idgen::core {

inline constexpr unsigned kFeistel63Bits = 63;
inline constexpr unsigned kFeistelRounds = 24;
inline constexpr std::int64_t kFeistel63Min = 1;
inline constexpr std::int64_t kFeistel63Max = std::numeric_limits<std::int64_t>::max();

// The network alone on width bits (2 to 63: hi has width / 2 bits, lo the
// rest), a permutation of 0 .. 2^width - 1; feistel63 is width 63. Other
// widths exist so that tests can check every value of a small domain.
std::uint64_t feistel_forward(const SipKey &key, unsigned width, std::uint64_t x) noexcept;
std::uint64_t feistel_backward(const SipKey &key, unsigned width, std::uint64_t y) noexcept;

// The network cycle-walked on 1 .. 2^width - 1 (x must not be 0): the value
// whose image is 0 takes the image of 0 instead. feistel63 is width 63.
std::uint64_t feistel_nonzero_forward(const SipKey &key, unsigned width, std::uint64_t x) noexcept;
std::uint64_t feistel_nonzero_backward(const SipKey &key, unsigned width, std::uint64_t y) noexcept;

// The permutation of 1 .. 2^63 - 1 and its inverse; nullopt for a value
// outside that range (0 or negative).
std::optional<std::int64_t> feistel63_encode(const SipKey &key, std::int64_t id) noexcept;
std::optional<std::int64_t> feistel63_decode(const SipKey &key, std::int64_t public_id) noexcept;

}  // namespace idgen::core
