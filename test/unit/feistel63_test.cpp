// feistel63 (core/feistel63.hpp): the frozen outputs under two keys (also
// computed by a separate implementation written from the header's
// description), a permutation at every width small enough to check every
// value (2 to 14 bits, with and without the cycle-walk), round trips and no
// collision on 63 bits, the range refused, the cycle-walked value at 63 bits,
// and that the key and every round matter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "core/feistel63.hpp"
#include "random_values.hpp"

using namespace idgen::core;

namespace {

SipKey key_of(std::uint8_t first) {
    std::uint8_t bytes[kSipKeyBytes];
    for (unsigned i = 0; i < kSipKeyBytes; ++i) bytes[i] = static_cast<std::uint8_t>(first + i);
    return sip_key(bytes);
}

// 00 01 .. 0f, the SipHash paper's key.
const SipKey kKey = key_of(0);

}  // namespace

// These outputs are public IDs somewhere: they never change.
TEST(Feistel63, FrozenOutputs) {
    struct Case {
        std::int64_t id, out;
    };
    const Case cases[] = {
        {1, 3669710137412786131},
        {2, 2052241831250306843},
        {3, 6715699968465960232},
        {42, 1820777790500563516},
        {1000, 4531901896722658727},
        {std::int64_t{1} << 31, 1251069661700294877},
        {std::int64_t{1} << 32, 4206459413141734969},
        {std::int64_t{1} << 62, 4919249676136521343},
        {kFeistel63Max, 1322111535346398747},
    };
    for (const Case &c : cases) {
        EXPECT_EQ(feistel63_encode(kKey, c.id), c.out) << c.id;
        EXPECT_EQ(feistel63_decode(kKey, c.out), c.id) << c.out;
    }
    const std::uint8_t other[kSipKeyBytes] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                              0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    const SipKey k2 = sip_key(other);
    EXPECT_EQ(feistel63_encode(k2, 1), 2898239854664853998);
    EXPECT_EQ(feistel63_encode(k2, 2), 491574238704770949);
    EXPECT_EQ(feistel63_encode(k2, 3), 2283926494235397721);
}

TEST(Feistel63, RangeRefused) {
    for (std::int64_t v : {std::int64_t{0}, std::int64_t{-1}, std::numeric_limits<std::int64_t>::min()}) {
        EXPECT_EQ(feistel63_encode(kKey, v), std::nullopt) << v;
        EXPECT_EQ(feistel63_decode(kKey, v), std::nullopt) << v;
    }
}

// Every value of 0 .. 2^w - 1 has one image and comes back, for the network;
// every value of 1 .. 2^w - 1 has one image in that range and comes back, for
// the cycle-walked network (which therefore never gives 0). Widths 2 to 14
// under one key, 2 to 10 under two more.
TEST(Feistel63, PermutationAtEveryWidthUpTo14) {
    for (std::uint8_t k = 0; k < 3; ++k) {
        const SipKey key = key_of(static_cast<std::uint8_t>(k * 16));
        for (unsigned width = 2; width <= (k == 0 ? 14u : 10u); ++width) {
            const std::uint64_t size = std::uint64_t{1} << width;
            std::vector<bool> seen(size), seen_nonzero(size);
            unsigned walked = 0;
            for (std::uint64_t x = 0; x < size; ++x) {
                std::uint64_t y = feistel_forward(key, width, x);
                ASSERT_LT(y, size);
                ASSERT_FALSE(seen[y]) << "width " << width << ": two values map to " << y;
                seen[y] = true;
                ASSERT_EQ(feistel_backward(key, width, y), x);
                if (x == 0) continue;
                std::uint64_t z = feistel_nonzero_forward(key, width, x);
                ASSERT_NE(z, 0u);
                ASSERT_LT(z, size);
                ASSERT_FALSE(seen_nonzero[z]);
                seen_nonzero[z] = true;
                ASSERT_EQ(feistel_nonzero_backward(key, width, z), x);
                walked += z != y;
            }
            // The one value whose network image is 0 walked (unless 0 maps to 0).
            EXPECT_EQ(walked, feistel_forward(key, width, 0) == 0 ? 0u : 1u) << "width " << width;
        }
    }
}

// At 63 bits: the value the network sends to 0 is given the image of 0, and
// that image decodes back to it.
TEST(Feistel63, CycleWalkAt63Bits) {
    for (std::uint8_t k = 0; k < 8; ++k) {
        const SipKey key = key_of(static_cast<std::uint8_t>(k * 7));
        const std::uint64_t to_zero = feistel_backward(key, kFeistel63Bits, 0);
        const std::uint64_t of_zero = feistel_forward(key, kFeistel63Bits, 0);
        ASSERT_NE(to_zero, 0u);
        const auto id = static_cast<std::int64_t>(to_zero);
        EXPECT_EQ(feistel63_encode(key, id), static_cast<std::int64_t>(of_zero));
        EXPECT_EQ(feistel63_decode(key, static_cast<std::int64_t>(of_zero)), id);
    }
}

// Round trips and distinct outputs: the first 100,000 ids (a bigserial's),
// then 100,000 spread over the whole range; every output positive.
TEST(Feistel63, RoundTripsWithoutCollision) {
    std::vector<std::int64_t> outputs;
    idgen::test::SplitMix64 rng{63};
    for (int n = 0; n < 200000; ++n) {
        std::int64_t id = n < 100000 ? n + 1 : static_cast<std::int64_t>(rng.next() >> 1);
        if (id == 0) id = 1;
        std::optional<std::int64_t> out = feistel63_encode(kKey, id);
        ASSERT_TRUE(out.has_value());
        ASSERT_GE(*out, kFeistel63Min);
        ASSERT_EQ(feistel63_decode(kKey, *out), id);
        outputs.push_back(*out);
    }
    std::sort(outputs.begin(), outputs.end());
    EXPECT_EQ(std::adjacent_find(outputs.begin(), outputs.end()), outputs.end());
}

// Consecutive ids give outputs in no order: about half of the steps go up,
// and the outputs spread over the range (the top bit set about half the time).
TEST(Feistel63, ConsecutiveIdsShowNoOrder) {
    int up = 0, high = 0;
    std::int64_t previous = *feistel63_encode(kKey, 1);
    for (std::int64_t id = 2; id <= 10001; ++id) {
        std::int64_t out = *feistel63_encode(kKey, id);
        up += out > previous;
        high += out >= (std::int64_t{1} << 62);
        previous = out;
    }
    EXPECT_NEAR(up, 5000, 300);
    EXPECT_NEAR(high, 5000, 300);
}

// A key one bit away changes every output of the first 50 ids.
TEST(Feistel63, KeyChangesTheOutput) {
    for (unsigned bit = 0; bit < 128; ++bit) {
        SipKey flipped = kKey;
        (bit < 64 ? flipped.k0 : flipped.k1) ^= std::uint64_t{1} << (bit % 64);
        int same = 0;
        for (std::int64_t id = 1; id <= 50; ++id) same += feistel63_encode(flipped, id) == feistel63_encode(kKey, id);
        EXPECT_EQ(same, 0) << "key bit " << bit;
    }
}
