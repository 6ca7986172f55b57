#include "core/chacha20.hpp"

#include <cstring>

namespace idgen::core {
namespace {

// Vector of four 32-bit lanes, one lane per block (GCC and clang extension).
typedef std::uint32_t Lanes __attribute__((vector_size(16)));

// Word is std::uint32_t for one block or Lanes for four blocks side by side.
template <typename Word>
inline Word rotl(Word v, int n) noexcept {
    return (v << n) | (v >> (32 - n));
}

inline std::uint32_t load_le32(const std::uint8_t *p) noexcept {
    return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) |
           (std::uint32_t{p[3]} << 24);
}

inline void store_le32(std::uint8_t *p, std::uint32_t v) noexcept {
    p[0] = static_cast<std::uint8_t>(v);
    p[1] = static_cast<std::uint8_t>(v >> 8);
    p[2] = static_cast<std::uint8_t>(v >> 16);
    p[3] = static_cast<std::uint8_t>(v >> 24);
}

template <typename Word>
inline void quarter_round(Word &a, Word &b, Word &c, Word &d) noexcept {
    a += b; d ^= a; d = rotl(d, 16);
    c += d; b ^= c; b = rotl(b, 12);
    a += b; d ^= a; d = rotl(d, 8);
    c += d; b ^= c; b = rotl(b, 7);
}

// The initial state of RFC 8439 §2.3: constants, key, block counter, nonce.
void load_state(const std::uint8_t key[kChaChaKeyBytes], std::uint32_t counter,
                const std::uint8_t nonce[12], std::uint32_t state[16]) noexcept {
    static constexpr std::uint32_t kSigma[4] = {0x61707865u, 0x3320646eu, 0x79622d32u,
                                                0x6b206574u};  // "expand 32-byte k"
    for (int i = 0; i < 4; ++i) state[i] = kSigma[i];
    for (int i = 0; i < 8; ++i) state[4 + i] = load_le32(key + 4 * i);
    state[12] = counter;
    for (int i = 0; i < 3; ++i) state[13 + i] = load_le32(nonce + 4 * i);
}

// The 20 rounds (10 column + diagonal double rounds) of RFC 8439 §2.3.
template <typename Word>
inline void chacha20_rounds(Word x[16]) noexcept {
    for (int round = 0; round < 10; ++round) {
        quarter_round(x[0], x[4], x[8], x[12]);
        quarter_round(x[1], x[5], x[9], x[13]);
        quarter_round(x[2], x[6], x[10], x[14]);
        quarter_round(x[3], x[7], x[11], x[15]);
        quarter_round(x[0], x[5], x[10], x[15]);
        quarter_round(x[1], x[6], x[11], x[12]);
        quarter_round(x[2], x[7], x[8], x[13]);
        quarter_round(x[3], x[4], x[9], x[14]);
    }
}

// Refills the buffer with fast key erasure: blocks 0..7 under the current key,
// the first 32 bytes become the next key, the other 480 are served.
void refill(ChaChaRng &rng) noexcept {
    static constexpr std::uint8_t kZeroNonce[12] = {};
    for (std::size_t block = 0; block < ChaChaRng::kBlocksPerRefill; block += 4)
        chacha20_blocks4(rng.key, static_cast<std::uint32_t>(block), kZeroNonce,
                         rng.buffer + block * kChaChaBlockBytes);
    std::memcpy(rng.key, rng.buffer, kChaChaKeyBytes);
    std::memset(rng.buffer, 0, kChaChaKeyBytes);
    // Served from the end down, so that 'unread' is also the read limit.
    rng.unread = ChaChaRng::kBufferBytes;
}

}  // namespace

void chacha20_block(const std::uint8_t key[kChaChaKeyBytes], std::uint32_t counter,
                    const std::uint8_t nonce[12], std::uint8_t out[kChaChaBlockBytes]) noexcept {
    std::uint32_t input[16];
    load_state(key, counter, nonce, input);
    std::uint32_t x[16];
    std::memcpy(x, input, sizeof x);
    chacha20_rounds(x);
    for (int i = 0; i < 16; ++i) store_le32(out + 4 * i, x[i] + input[i]);
}

void chacha20_blocks4(const std::uint8_t key[kChaChaKeyBytes], std::uint32_t counter,
                      const std::uint8_t nonce[12], std::uint8_t out[4 * kChaChaBlockBytes]) noexcept {
    std::uint32_t words[16];
    load_state(key, counter, nonce, words);
    Lanes input[16];
    for (int i = 0; i < 16; ++i) input[i] = Lanes{words[i], words[i], words[i], words[i]};
    input[12] = Lanes{counter, counter + 1, counter + 2, counter + 3};
    Lanes x[16];
    for (int i = 0; i < 16; ++i) x[i] = input[i];
    chacha20_rounds(x);
    for (int i = 0; i < 16; ++i) {
        Lanes sum = x[i] + input[i];
        for (int lane = 0; lane < 4; ++lane)
            store_le32(out + lane * kChaChaBlockBytes + 4 * i, sum[lane]);
    }
}

void rng_seed(ChaChaRng &rng, const std::uint8_t seed[kChaChaKeyBytes]) noexcept {
    // Mixing (rather than replacing) means a weak reseed never makes the key weaker.
    static constexpr std::uint8_t kSeedNonce[12] = {'i', 'd', 'g', 'e', 'n', '-',
                                                   's', 'e', 'e', 'd', 0, 0};
    std::uint8_t mixed[kChaChaKeyBytes];
    for (std::size_t i = 0; i < kChaChaKeyBytes; ++i) mixed[i] = rng.key[i] ^ seed[i];
    std::uint8_t block[kChaChaBlockBytes];
    chacha20_block(mixed, 0, kSeedNonce, block);
    std::memcpy(rng.key, block, kChaChaKeyBytes);
    std::memset(block, 0, sizeof block);
    std::memset(mixed, 0, sizeof mixed);
    std::memset(rng.buffer, 0, sizeof rng.buffer);
    rng.unread = 0;  // the next fill refills under the new key
    rng.bytes_since_seed = 0;
    rng.seeded = true;
}

bool rng_wants_seed(const ChaChaRng &rng) noexcept {
    return !rng.seeded || rng.bytes_since_seed >= ChaChaRng::kReseedAfterBytes;
}

void rng_fill(ChaChaRng &rng, std::uint8_t *out, std::size_t len) noexcept {
    rng.bytes_since_seed += len;
    while (len > 0) {
        if (rng.unread == 0) refill(rng);
        std::size_t take = len < rng.unread ? len : rng.unread;
        std::uint8_t *src = rng.buffer + kChaChaKeyBytes + (rng.unread - take);
        std::memcpy(out, src, take);
        std::memset(src, 0, take);
        rng.unread -= take;
        out += take;
        len -= take;
    }
}

}  // namespace idgen::core
