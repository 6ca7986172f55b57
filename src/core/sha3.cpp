#include "core/sha3.hpp"

#include "core/uint128.hpp"

namespace idgen::core {
namespace {

// ι's round constants RC[i] (FIPS 202 §3.2.5, Algorithm 5 and 6 worked out).
constexpr std::uint64_t kRoundConstants[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808Aull, 0x8000000080008000ull,
    0x000000000000808Bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008Aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000Aull,
    0x000000008000808Bull, 0x800000000000008Bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800Aull, 0x800000008000000Aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

// ρ's offset of lane x + 5 y (FIPS 202 §3.2.2, Table 2).
constexpr unsigned kRhoOffsets[25] = {
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
};

constexpr std::uint64_t rotl(std::uint64_t v, unsigned n) {
    return n == 0 ? v : (v << n) | (v >> (64 - n));
}

// π moves lane (x, y) to (y, 2x + 3y): the lane each lane goes to.
constexpr unsigned pi_target(unsigned lane) {
    return lane / 5 + 5 * ((2 * (lane % 5) + 3 * (lane / 5)) % 5);
}

// XORs a byte into the state at byte offset i of the rate (lanes are little-endian).
void absorb_byte(std::uint64_t lanes[25], std::size_t i, std::uint8_t byte) {
    lanes[i / 8] ^= std::uint64_t{byte} << (8 * (i % 8));
}

}  // namespace

// The loops have constant bounds and indices from constant tables: unrolled,
// every index is a constant. The state is a local copy, and each round writes
// θ, ρ and π into a second array b that χ reads back: with no pointer that
// others may alias and no lane written twice in a step, the compiler keeps
// the lanes in registers.
void keccak_f1600(std::uint64_t lanes[25]) noexcept {
    std::uint64_t a[25];
#pragma GCC unroll 25
    for (unsigned i = 0; i < 25; ++i) a[i] = lanes[i];
    for (std::uint64_t rc : kRoundConstants) {
        // θ: each lane gains the parities of two neighbouring columns.
        std::uint64_t c[5], d[5];
#pragma GCC unroll 5
        for (unsigned x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
#pragma GCC unroll 5
        for (unsigned x = 0; x < 5; ++x) d[x] = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
        // ρ and π: each lane, with θ's parity, rotated and moved.
        std::uint64_t b[25];
#pragma GCC unroll 25
        for (unsigned i = 0; i < 25; ++i) b[pi_target(i)] = rotl(a[i] ^ d[i % 5], kRhoOffsets[i]);
        // χ: the one non-linear step, along each row.
#pragma GCC unroll 5
        for (unsigned y = 0; y < 25; y += 5) {
#pragma GCC unroll 5
            for (unsigned x = 0; x < 5; ++x) a[y + x] = b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]);
        }
        // ι
        a[0] ^= rc;
    }
#pragma GCC unroll 25
    for (unsigned i = 0; i < 25; ++i) lanes[i] = a[i];
}

void sha3_512_start(Sha3_512 &hash) noexcept {
    for (auto &lane : hash.lanes) lane = 0;
    hash.position = 0;
}

void sha3_512_absorb(Sha3_512 &hash, const std::uint8_t *data, std::size_t length) noexcept {
    std::size_t i = 0;
    while (i < length) {
        // Whole lanes at once where the block allows (a lane's bytes are
        // little-endian, so the eight are one load on such machines).
        if (hash.position % 8 == 0 && length - i >= 8) {
            hash.lanes[hash.position / 8] ^= load_le64(data + i);
            hash.position += 8;
            i += 8;
        } else {
            absorb_byte(hash.lanes, hash.position++, data[i++]);
        }
        if (hash.position == kSha3_512RateBytes) {
            keccak_f1600(hash.lanes);
            hash.position = 0;
        }
    }
}

void sha3_512_finish(Sha3_512 &hash, std::uint8_t digest[kSha3_512DigestBytes]) noexcept {
    // SHA-3's suffix 01 then pad10*1 (FIPS 202 §6.1, B.2): 0x06 at the
    // message's end and 0x80 in the rate's last byte (0x86 when they meet).
    absorb_byte(hash.lanes, hash.position, 0x06);
    absorb_byte(hash.lanes, kSha3_512RateBytes - 1, 0x80);
    keccak_f1600(hash.lanes);
    for (std::size_t lane = 0; lane < kSha3_512DigestBytes / 8; ++lane) store_le64(hash.lanes[lane], digest + 8 * lane);
}

void sha3_512(const std::uint8_t *data, std::size_t length, std::uint8_t digest[kSha3_512DigestBytes]) noexcept {
    Sha3_512 hash;
    sha3_512_start(hash);
    sha3_512_absorb(hash, data, length);
    sha3_512_finish(hash, digest);
}

}  // namespace idgen::core
