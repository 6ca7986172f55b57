// SipHash-2-4 (core/siphash.hpp) against the 13 published outputs in
// ../shared/data/uuidv47/siphash24.json (the key 00 01 .. 0f, messages 00 01 ..
// of 0 to 12 bytes: every length within and across the first 8-byte word),
// the key's byte order as the file states it, and siphash24_u64 against
// siphash24 of the same 8 bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/siphash.hpp"
#include "random_values.hpp"
#include "shared_data.hpp"
#include "vector_answers.hpp"

using namespace idgen::core;
using idgen::test::bytes_of_hex;
using idgen::test::hex_of;

namespace {

const std::uint8_t *bytes(const std::string &s) {
    return reinterpret_cast<const std::uint8_t *>(s.data());
}

std::uint64_t hex_u64(const std::string &text) {
    return std::stoull(text, nullptr, 16);
}

}  // namespace

TEST(SipHash, PublishedVectors) {
    IDGEN_SHARED_JSON(file, "uuidv47/siphash24.json");
    ASSERT_EQ(file.items.size(), 13u);
    for (const auto &v : file.items) {
        std::string key, message, expected;
        ASSERT_TRUE(bytes_of_hex(v["key_hex"].text, key));
        ASSERT_EQ(key.size(), kSipKeyBytes);
        ASSERT_TRUE(bytes_of_hex(v["message_hex"].text, message));
        ASSERT_EQ(message.size(), std::stoul(v["message_length"].text));
        SipKey k = sip_key(bytes(key));
        EXPECT_EQ(k.k0, hex_u64(v["k0"].text));
        EXPECT_EQ(k.k1, hex_u64(v["k1"].text));
        std::uint64_t out = siphash24(k, bytes(message), message.size());
        EXPECT_EQ(out, hex_u64(v["expected_u64"].text)) << "length " << message.size();
        std::uint8_t le[8];
        for (int i = 0; i < 8; ++i) le[i] = static_cast<std::uint8_t>(out >> (8 * i));
        EXPECT_EQ(hex_of(le, 8), v["expected_bytes_hex"].text);
        if (message.size() == 8) {
            std::uint64_t word = 0;
            for (int i = 7; i >= 0; --i) word = (word << 8) | bytes(message)[i];
            EXPECT_EQ(siphash24_u64(k, word), out);
        }
    }
}

TEST(SipHash, WordFormIsTheEightByteMessage) {
    idgen::test::SplitMix64 rng{55};
    for (int n = 0; n < 2000; ++n) {
        SipKey key{rng.next(), rng.next()};
        std::uint64_t word = rng.next();
        std::uint8_t message[8];
        for (int i = 0; i < 8; ++i) message[i] = static_cast<std::uint8_t>(word >> (8 * i));
        ASSERT_EQ(siphash24_u64(key, word), siphash24(key, message, 8));
    }
}

// Every bit of the key and of the message changes the output.
TEST(SipHash, KeyAndMessageMatter) {
    const std::uint8_t zero_key[kSipKeyBytes] = {};
    const SipKey base = sip_key(zero_key);
    const std::uint64_t out = siphash24_u64(base, 0);
    for (unsigned bit = 0; bit < 64; ++bit) {
        EXPECT_NE(siphash24_u64(SipKey{base.k0 ^ (std::uint64_t{1} << bit), base.k1}, 0), out);
        EXPECT_NE(siphash24_u64(SipKey{base.k0, base.k1 ^ (std::uint64_t{1} << bit)}, 0), out);
        EXPECT_NE(siphash24_u64(base, std::uint64_t{1} << bit), out);
    }
}
