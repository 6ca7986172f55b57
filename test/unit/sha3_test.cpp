// SHA3-512 (core/sha3.hpp) against FIPS 202's published digests: the empty
// message, "abc" and the 1600-bit message of 200 bytes 0xA3 (NIST's SHA3-512
// example values, also hashlib.sha3_512's); the rate boundary (71, 72 and
// 73 bytes, where the padding bytes meet or a block is added, from hashlib);
// and that absorbing in pieces of any size gives the one-shot digest.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/sha3.hpp"
#include "vector_answers.hpp"

using namespace idgen::core;
using idgen::test::hex_of;

namespace {

std::string digest_of(const std::vector<std::uint8_t> &message) {
    std::uint8_t digest[kSha3_512DigestBytes];
    sha3_512(message.data(), message.size(), digest);
    return hex_of(digest, sizeof digest);
}

std::vector<std::uint8_t> bytes(const std::string &text) {
    return std::vector<std::uint8_t>(text.begin(), text.end());
}

}  // namespace

TEST(Sha3_512, Fips202Vectors) {
    EXPECT_EQ(digest_of({}),
              "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
              "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26");
    EXPECT_EQ(digest_of(bytes("abc")),
              "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
              "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0");
    EXPECT_EQ(digest_of(std::vector<std::uint8_t>(200, 0xA3)),
              "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca8"
              "1b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00");
}

TEST(Sha3_512, RateBoundary) {
    // 71 bytes: the suffix and the final bit share the last byte (0x86).
    EXPECT_EQ(digest_of(std::vector<std::uint8_t>(71, 'a')),
              "070faf98d2a8fddf8ed886408744dc06456096c2e045f26f3c7b010530e6bbb3"
              "db535a54d636856f4e0e1e982461cb9a7e8e57ff8895cff1619af9f0e486e28c");
    // 72 bytes: a full block, then a block of padding alone.
    EXPECT_EQ(digest_of(std::vector<std::uint8_t>(72, 'a')),
              "a8ae722a78e10cbbc413886c02eb5b369a03f6560084aff566bd597bb7ad8c1c"
              "cd86e81296852359bf2faddb5153c0a7445722987875e74287adac21adebe952");
    EXPECT_EQ(digest_of(std::vector<std::uint8_t>(73, 'a')),
              "23e6a8815f8201dbbf6a5463be8dcadb1acea9df5f8998954e59ac9565cf6d29"
              "b17aa27a5e8b0fc06343db6122d6e544d27583ddc78504d08203217e7e65b6bd");
}

TEST(Sha3_512, PiecesMatchOneShot) {
    std::vector<std::uint8_t> message(500);
    for (std::size_t i = 0; i < message.size(); ++i) message[i] = static_cast<std::uint8_t>(i * 7 + 3);
    for (std::size_t piece = 1; piece <= 150; ++piece) {
        Sha3_512 hash;
        sha3_512_start(hash);
        for (std::size_t at = 0; at < message.size(); at += piece)
            sha3_512_absorb(hash, message.data() + at, std::min(piece, message.size() - at));
        std::uint8_t digest[kSha3_512DigestBytes];
        sha3_512_finish(hash, digest);
        EXPECT_EQ(hex_of(digest, sizeof digest), digest_of(message)) << "pieces of " << piece;
    }
}
