// ChaCha20 block function (RFC 8439 §2.3) and a buffered, fast-key-erasure
// random generator built on it. Pure C++17: no heap, no exceptions, no clock,
// no entropy source; the caller seeds it with bytes from a strong source.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idgen::core {

inline constexpr std::size_t kChaChaKeyBytes = 32;
inline constexpr std::size_t kChaChaBlockBytes = 64;

// One 64-byte ChaCha20 block for (key, 32-bit block counter, 96-bit nonce), RFC 8439 §2.3.
void chacha20_block(const std::uint8_t key[kChaChaKeyBytes], std::uint32_t counter,
                    const std::uint8_t nonce[12], std::uint8_t out[kChaChaBlockBytes]) noexcept;

// Four consecutive blocks (counter .. counter + 3) computed side by side in
// vector lanes; the same bytes as four chacha20_block calls, about 4x faster.
void chacha20_blocks4(const std::uint8_t key[kChaChaKeyBytes], std::uint32_t counter,
                      const std::uint8_t nonce[12], std::uint8_t out[4 * kChaChaBlockBytes]) noexcept;

// Buffered CSPRNG state. Plain data so that a zero-initialised static needs no
// constructor; "unseeded" is simply seeded == false.
struct ChaChaRng {
    static constexpr std::size_t kBlocksPerRefill = 8;
    // Each refill's first 32 bytes become the next key and are never served.
    static_assert(kBlocksPerRefill % 4 == 0, "refills are computed four blocks at a time");
    static constexpr std::size_t kBufferBytes =
        kBlocksPerRefill * kChaChaBlockBytes - kChaChaKeyBytes;
    // Output after which the owner should mix in fresh seed material.
    static constexpr std::uint64_t kReseedAfterBytes = std::uint64_t{1} << 20;

    std::uint8_t key[kChaChaKeyBytes];
    std::uint8_t buffer[kBlocksPerRefill * kChaChaBlockBytes];  // key material, then kBufferBytes
    std::size_t unread;               // bytes still unused at the end of buffer
    std::uint64_t bytes_since_seed;   // output since the last seed or reseed
    bool seeded;
};

// Replaces the key with one derived from the old key and seed (both 32 bytes),
// drops any buffered output and resets the reseed counter.
void rng_seed(ChaChaRng &rng, const std::uint8_t seed[kChaChaKeyBytes]) noexcept;

// True when the generator has never been seeded or has produced enough output
// since its last seed that fresh entropy should be mixed in.
bool rng_wants_seed(const ChaChaRng &rng) noexcept;

// Fills out with len random bytes. Precondition: rng.seeded. Served bytes are
// wiped from the buffer, and each refill replaces the key with fresh output
// (fast key erasure), so a later memory disclosure cannot reveal past output.
void rng_fill(ChaChaRng &rng, std::uint8_t *out, std::size_t len) noexcept;

}  // namespace idgen::core
