// CUID2 (core/cuid2.hpp): the hash-to-base36 step and whole IDs for fixed
// inputs against values computed in Python from the reference's steps
// (hashlib.sha3_512, int.from_bytes(..., 'big'), base36 with no padding,
// then [1:] and [1:length], see the header), digests whose text is 98, 99
// and 100 digits (the drops count from the top, so no padding may creep in),
// every length, the refusals, the rejection draws and their uniformity, and
// isCuid's rule.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/cuid2.hpp"
#include "random_values.hpp"

using namespace idgen::core;

namespace {

std::string hash_text(std::string_view input) {
    char out[kBase36MaxDigits512];
    return std::string(out, cuid2_hash_text(input, out));
}

// The fixed parts of the Python computation: time 1700000000000 ms
// ("loyw3v28"), counter 123456789 ("21i3v9"), the fingerprint below.
constexpr std::string_view kFingerprintSource = "pid=4242,system=7300000000000000001,0123456789abcdefghijklmnopqrstuv";
constexpr std::string_view kFingerprint = "0ukpi4jwtatq24862ki3hylyza01hcc8";
constexpr std::string_view kSalts = "abcdefghijklmnopqrstuvwxyz0123456789";

std::string make(std::size_t length, std::uint64_t counter = 123456789, char letter = 'k') {
    Cuid2Parts parts{1700000000000, counter, kSalts.substr(0, length), kFingerprint, letter};
    char out[kCuid2MaxLength];
    return std::string(out, cuid2_make(parts, length, out));
}

}  // namespace

TEST(Cuid2Hash, Base36OfTheDigest) {
    // hashlib.sha3_512(b"abc"): 99 digits.
    EXPECT_EQ(hash_text("abc"),
              "t5hwonfuv75sid4792afmgodujwvqwiaurx0uynkgfengrsp48nx9fbdeznmjivmormkhvkuksgrwfsg92kq66ksh6f7trlr20g");
    // A digest above 36^99 (100 digits) and one below 36^97 (98 digits).
    EXPECT_EQ(hash_text("8"),
              "12nhyir9x2x5h33wvcjqwuc5smff73ux9hgky5f1iv3kky94u8snwuw220b7kvat39pc258spp6a9m9ywd80tlype4tnuk3ffy3n");
    EXPECT_EQ(hash_text("63"),
              "sks2lt4k1dvyxtpha1xagns1ql25skl2uwliqb7r6ho3w6n5jo0sp8zquqbv8yxwg088dg396x3nofhr69vda6jvnn4o2z0hpg");
}

TEST(Cuid2Hash, Fingerprint) {
    char out[kCuid2FingerprintLength];
    ASSERT_EQ(cuid2_fingerprint(kFingerprintSource, out), kCuid2FingerprintLength);
    EXPECT_EQ(std::string_view(out, sizeof out), kFingerprint);
}

TEST(Cuid2Make, PythonValues) {
    // hash input "loyw3v28" + salt + "21i3v9" + fingerprint.
    EXPECT_EQ(make(2), "kc");
    EXPECT_EQ(make(24), "kwbmicppg9wu1fmzex93m9eu");
    EXPECT_EQ(make(32), "kzhqi7nt0jrdu70ym4pwnm58wcu4465s");
}

TEST(Cuid2Make, EveryLength) {
    for (std::size_t length = kCuid2MinLength; length <= kCuid2MaxLength; ++length) {
        for (char letter = 'a'; letter <= 'z'; ++letter) {
            std::string id = make(length, 1000 + length, letter);
            ASSERT_EQ(id.size(), length);
            EXPECT_EQ(id[0], letter);
            EXPECT_TRUE(cuid2_valid(id)) << id;
            EXPECT_EQ(id, make(length, 1000 + length, letter)) << "the same parts, the same ID";
        }
        EXPECT_NE(make(length, 7), make(length, 8)) << "the counter is hashed";
    }
    // The ID is the letter and characters 2 .. length of the digest's text.
    Cuid2Parts parts{1700000000000, 123456789, kSalts.substr(0, 24), kFingerprint, 'k'};
    std::string input = "loyw3v28" + std::string(kSalts.substr(0, 24)) + "21i3v9" + std::string(kFingerprint);
    EXPECT_EQ(make(24).substr(1), hash_text(input).substr(2, 23));
    char out[kCuid2MaxLength];
    EXPECT_EQ(cuid2_make(parts, 24, out), 24u);
}

TEST(Cuid2Make, Refusals) {
    char out[kCuid2MaxLength];
    Cuid2Parts parts{0, 0, "abc", kFingerprint, 'a'};
    EXPECT_EQ(cuid2_make(parts, 0, out), 0u);
    EXPECT_EQ(cuid2_make(parts, 1, out), 0u);
    EXPECT_EQ(cuid2_make(parts, 33, out), 0u);
    EXPECT_EQ(cuid2_make(parts, 2, out), 2u);
    std::string long_salt(33, 'a');
    parts.salt = long_salt;
    EXPECT_EQ(cuid2_make(parts, 2, out), 0u);
    parts.salt = "abc";
    std::string long_fingerprint(33, 'a');
    parts.fingerprint = long_fingerprint;
    EXPECT_EQ(cuid2_make(parts, 2, out), 0u);
    // A time before 1970 is hashed as 0: "0" + salt + "0" + fingerprint.
    parts = Cuid2Parts{-5, 0, "abc", kFingerprint, 'a'};
    Cuid2Parts zero{0, 0, "abc", kFingerprint, 'a'};
    char other[kCuid2MaxLength];
    ASSERT_EQ(cuid2_make(parts, 32, out), 32u);
    ASSERT_EQ(cuid2_make(zero, 32, other), 32u);
    EXPECT_EQ(std::string(out, 32), std::string(other, 32));
}

TEST(Cuid2Draw, Rejection) {
    const std::uint8_t bytes[] = {0, 35, 36, 251, 252, 255, 233, 234, 25, 26};
    char out[16];
    std::size_t written = 0;
    EXPECT_EQ(cuid2_draw(bytes, sizeof bytes, false, out, sizeof out, &written), sizeof bytes);
    EXPECT_EQ(std::string(out, written), "0z0zhipq");  // 252 and 255 skipped
    written = 0;
    EXPECT_EQ(cuid2_draw(bytes, sizeof bytes, true, out, sizeof out, &written), sizeof bytes);
    EXPECT_EQ(std::string(out, written), "ajkzza");  // 251, 252, 255 and 234 skipped
    // Stops at want, and resumes.
    written = 0;
    EXPECT_EQ(cuid2_draw(bytes, sizeof bytes, false, out, 3, &written), 3u);
    EXPECT_EQ(written, 3u);
    EXPECT_EQ(cuid2_draw(bytes + 3, sizeof bytes - 3, false, out, 5, &written), 4u);
    EXPECT_EQ(std::string(out, written), "0z0zh");
}

// The chi-square of 2.6 M letters (and 3.6 M digits) drawn from a fixed
// byte stream stays below the quantile of upper-tail probability 1e-6
// (df 25: 73.9; df 35: 90.0, each rounded up); a plain byte % 26 (which
// favours a-v) fails it.
TEST(Cuid2Draw, Uniform) {
    idgen::test::SplitMix64 rng{0xC0D2};
    for (bool letters : {true, false}) {
        std::size_t radix = letters ? 26 : 36;
        double bound = letters ? 73.9 : 90.0;
        std::vector<std::uint64_t> counts(radix, 0), biased(radix, 0);
        std::size_t draws = radix * 100000;
        std::vector<char> out(draws);
        std::size_t written = 0;
        while (written < draws) {
            std::uint8_t bytes[64];
            for (auto &b : bytes) {
                b = static_cast<std::uint8_t>(rng.next());
                biased[b % radix]++;
            }
            cuid2_draw(bytes, sizeof bytes, letters, out.data(), draws, &written);
        }
        for (char c : out) counts[c <= '9' ? c - '0' : c - 'a' + (letters ? 0 : 10)]++;
        auto chi = [](const std::vector<std::uint64_t> &n) {
            double total = 0, x = 0;
            for (auto c : n) total += c;
            for (auto c : n) x += (c - total / n.size()) * (c - total / n.size()) / (total / n.size());
            return x;
        };
        EXPECT_LT(chi(counts), bound) << (letters ? "letters" : "digits");
        EXPECT_GT(chi(biased), bound) << "the planted modulo bias is seen";
    }
}

TEST(Cuid2Valid, IsCuidRule) {
    for (std::string_view ok : {"ab", "a0", "z9", "kwbmicppg9wu1fmzex93m9eu", "kzhqi7nt0jrdu70ym4pwnm58wcu4465s",
                                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
        EXPECT_TRUE(cuid2_valid(ok)) << ok;
    for (std::string_view bad : {"", "a", "0a", "Ab", "aB", "a-b", "a b", "ab\n", "\nab", "a\xc3\xa9",
                                 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
        EXPECT_FALSE(cuid2_valid(bad)) << bad;
    EXPECT_FALSE(cuid2_valid(std::string_view("ab\0c", 4)));
    // With bounds (isCuid's minLength and maxLength), and exact lengths.
    EXPECT_TRUE(cuid2_valid("abc", 3, 3));
    EXPECT_FALSE(cuid2_valid("abcd", 3, 3));
    EXPECT_FALSE(cuid2_valid("ab", 3, 3));
    EXPECT_FALSE(cuid2_valid("a", 1, 32)) << "the regex wants two characters";
    EXPECT_TRUE(cuid2_valid(std::string(40, 'a'), 2, 40));
}
