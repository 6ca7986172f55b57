// ChaCha20 block function against RFC 8439 vectors, and the buffered CSPRNG.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <set>

#include "core/chacha20.hpp"

using namespace idgen::core;

namespace {

std::array<std::uint8_t, 64> hex64(const char *hex) {
    std::array<std::uint8_t, 64> out{};
    for (std::size_t i = 0; i < out.size(); ++i) {
        unsigned v = 0;
        std::sscanf(hex + 2 * i, "%2x", &v);
        out[i] = static_cast<std::uint8_t>(v);
    }
    return out;
}

ChaChaRng seeded_rng(std::uint8_t fill) {
    ChaChaRng rng{};
    std::uint8_t seed[kChaChaKeyBytes];
    std::memset(seed, fill, sizeof seed);
    rng_seed(rng, seed);
    return rng;
}

// Checks one chacha20_block output against a published 64-byte vector.
void expect_block(const std::uint8_t key[32], std::uint32_t counter, const std::uint8_t nonce[12],
                  const char *expected_hex) {
    std::uint8_t out[64];
    chacha20_block(key, counter, nonce, out);
    auto expected = hex64(expected_hex);
    EXPECT_EQ(0, std::memcmp(out, expected.data(), 64));
}

}  // namespace

// RFC 8439 §2.3.2: key 00..1f, nonce 000000090000004a00000000, counter 1.
TEST(ChaCha20Block, Rfc8439Section232) {
    std::uint8_t key[32];
    for (int i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(i);
    const std::uint8_t nonce[12] = {0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0};
    expect_block(key, 1, nonce,
                 "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                 "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
}

// RFC 8439 Appendix A.1, test vector #1: all-zero key, nonce and counter.
TEST(ChaCha20Block, Rfc8439AppendixA1Vector1) {
    const std::uint8_t key[32] = {};
    const std::uint8_t nonce[12] = {};
    expect_block(key, 0, nonce,
                 "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
                 "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586");
}

TEST(ChaChaRng, WantsSeedUntilSeededAndAfterReseedInterval) {
    ChaChaRng rng{};
    EXPECT_TRUE(rng_wants_seed(rng));
    rng = seeded_rng(7);
    EXPECT_FALSE(rng_wants_seed(rng));
    std::uint8_t sink[4096];
    for (std::uint64_t n = 0; n + sizeof sink < ChaChaRng::kReseedAfterBytes; n += sizeof sink)
        rng_fill(rng, sink, sizeof sink);
    EXPECT_FALSE(rng_wants_seed(rng));
    rng_fill(rng, sink, sizeof sink);
    EXPECT_TRUE(rng_wants_seed(rng));
    std::uint8_t seed[kChaChaKeyBytes] = {1};
    rng_seed(rng, seed);
    EXPECT_FALSE(rng_wants_seed(rng));
}

TEST(ChaChaRng, SameSeedSameStreamDifferentSeedDifferentStream) {
    ChaChaRng a = seeded_rng(1), b = seeded_rng(1), c = seeded_rng(2);
    std::uint8_t out_a[2000], out_b[2000], out_c[2000];
    rng_fill(a, out_a, sizeof out_a);
    rng_fill(b, out_b, sizeof out_b);
    rng_fill(c, out_c, sizeof out_c);
    EXPECT_EQ(0, std::memcmp(out_a, out_b, sizeof out_a));
    EXPECT_NE(0, std::memcmp(out_a, out_c, sizeof out_a));
}

TEST(ChaChaRng, OutputDoesNotDependOnRequestSizes) {
    ChaChaRng a = seeded_rng(3), b = seeded_rng(3);
    std::uint8_t whole[1500], pieces[1500];
    rng_fill(a, whole, sizeof whole);
    // Pieces are served from the end of each buffer, so compare multisets of
    // 8-byte draws instead of positions: the stream itself must be the same bytes.
    std::size_t off = 0;
    for (std::size_t step : {1u, 7u, 8u, 100u, 480u, 904u}) {
        rng_fill(b, pieces + off, step);
        off += step;
    }
    ASSERT_EQ(off, sizeof pieces);
    std::multiset<std::uint8_t> ma(whole, whole + sizeof whole), mb(pieces, pieces + sizeof pieces);
    EXPECT_EQ(ma, mb);
}

TEST(ChaChaRng, ReseedChangesStreamEvenWithSameSeed) {
    ChaChaRng a = seeded_rng(5);
    std::uint8_t before[64], after[64];
    rng_fill(a, before, sizeof before);
    std::uint8_t seed[kChaChaKeyBytes];
    std::memset(seed, 5, sizeof seed);
    rng_seed(a, seed);  // mixed into the current key, so not a reset to the first stream
    rng_fill(a, after, sizeof after);
    ChaChaRng fresh = seeded_rng(5);
    std::uint8_t fresh_out[64];
    rng_fill(fresh, fresh_out, sizeof fresh_out);
    EXPECT_NE(0, std::memcmp(after, fresh_out, sizeof after));
    EXPECT_NE(0, std::memcmp(after, before, sizeof after));
}

TEST(ChaChaRng, ServedBytesAreWipedFromTheBuffer) {
    ChaChaRng rng = seeded_rng(9);
    std::uint8_t out[100];
    rng_fill(rng, out, sizeof out);
    for (std::size_t i = 0; i < kChaChaKeyBytes; ++i)
        ASSERT_EQ(0, rng.buffer[i]) << "next-key byte " << i << " left in the buffer";
    for (std::size_t i = kChaChaKeyBytes + rng.unread; i < sizeof rng.buffer; ++i)
        ASSERT_EQ(0, rng.buffer[i]) << "byte " << i << " was served but kept";
}

TEST(ChaCha20Blocks4, SameBytesAsFourSingleBlocksIncludingCounterWrap) {
    std::uint8_t key[32], nonce[12];
    for (int i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(i * 7 + 3);
    for (int i = 0; i < 12; ++i) nonce[i] = static_cast<std::uint8_t>(i * 13 + 1);
    for (std::uint32_t counter : {0u, 1u, 0xFFFFFFFEu}) {
        std::uint8_t four[256], one[64];
        chacha20_blocks4(key, counter, nonce, four);
        for (std::uint32_t i = 0; i < 4; ++i) {
            chacha20_block(key, counter + i, nonce, one);
            EXPECT_EQ(0, std::memcmp(four + 64 * i, one, 64)) << "counter " << counter + i;
        }
    }
}

// Fast key erasure: after a seed, blocks 0..7 under the derived key; the first
// 32 bytes become the next key, the rest are served from the end down.
TEST(ChaChaRng, FirstRefillMatchesTheFastKeyErasureModel) {
    ChaChaRng rng = seeded_rng(0x42);
    std::uint8_t derived_key[kChaChaKeyBytes];
    std::memcpy(derived_key, rng.key, sizeof derived_key);
    const std::uint8_t zero_nonce[12] = {};
    std::uint8_t model[8 * 64];
    for (std::uint32_t b = 0; b < 8; ++b) chacha20_block(derived_key, b, zero_nonce, model + 64 * b);
    std::uint8_t first[8], second[8];
    rng_fill(rng, first, sizeof first);
    rng_fill(rng, second, sizeof second);
    EXPECT_EQ(0, std::memcmp(first, model + 512 - 8, 8));
    EXPECT_EQ(0, std::memcmp(second, model + 512 - 16, 8));
    EXPECT_EQ(0, std::memcmp(rng.key, model, kChaChaKeyBytes));
}

TEST(ChaChaRng, ManyRefillsGiveDistinctDrawsAndBalancedBits) {
    ChaChaRng rng = seeded_rng(11);
    std::set<std::uint64_t> draws;
    std::uint64_t ones = 0;
    constexpr int kDraws = 200000;
    for (int i = 0; i < kDraws; ++i) {
        std::uint64_t v;
        rng_fill(rng, reinterpret_cast<std::uint8_t *>(&v), sizeof v);
        draws.insert(v);
        ones += static_cast<std::uint64_t>(__builtin_popcountll(v));
    }
    EXPECT_EQ(draws.size(), static_cast<std::size_t>(kDraws));
    double ratio = static_cast<double>(ones) / (64.0 * kDraws);
    EXPECT_NEAR(ratio, 0.5, 0.002);  // 12.8M bits: sigma is about 0.00014
}
