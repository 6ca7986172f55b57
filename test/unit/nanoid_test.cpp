// NanoID (core/nanoid.hpp): the default alphabet, how alphabets are built and
// refused, masked rejection byte by byte, multibyte characters, validation,
// and a chi-square test of uniformity on 10 M characters for alphabets of 64,
// 62 and 10 characters (and a multibyte one) from a fixed byte stream,
// which a planted modulo bias fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/nanoid.hpp"
#include "random_values.hpp"

using namespace idgen::core;

namespace {

std::vector<std::string> ascii_characters(std::string_view text) {
    std::vector<std::string> out;
    for (char c : text) out.emplace_back(1, c);
    return out;
}

// The alphabet of these characters; the check's status.
NanoidAlphabetCheck build(NanoidAlphabet &a, const std::vector<std::string> &characters) {
    nanoid_alphabet_start(a);
    for (const auto &c : characters) {
        NanoidAlphabetStatus s = nanoid_alphabet_add(a, c);
        if (s != NanoidAlphabetStatus::ok) return {s, 0, 0};
    }
    return nanoid_alphabet_finish(a);
}

// UTF-8 of a code point (test helper).
std::string utf8(std::uint32_t cp) {
    std::string s;
    if (cp < 0x80) {
        s += static_cast<char>(cp);
    } else if (cp < 0x800) {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (cp >> 18));
        s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return s;
}

std::string draw(const NanoidAlphabet &a, const std::vector<std::uint8_t> &bytes, std::size_t size,
                 std::size_t *used = nullptr) {
    std::string out(size * kNanoidMaxCharacterBytes, '\0');
    NanoidProgress p{0, 0};
    std::size_t n = nanoid_fill(a, bytes.data(), bytes.size(), out.data(), size, p);
    if (used) *used = n;
    out.resize(p.bytes);
    return out;
}

// The regularized upper incomplete gamma function Q(s, x) (Numerical Recipes'
// series and continued fraction): the chi-square p-value is Q(df / 2, x / 2).
double upper_gamma_q(double s, double x) {
    if (x <= 0) return 1.0;
    double log_front = s * std::log(x) - x - std::lgamma(s);
    if (x < s + 1) {
        double term = 1.0 / s, sum = term;
        for (int n = 1; n < 10000 && std::fabs(term) > std::fabs(sum) * 1e-16; ++n) {
            term *= x / (s + n);
            sum += term;
        }
        return 1.0 - sum * std::exp(log_front);
    }
    const double tiny = 1e-300;
    double b = x + 1 - s, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 10000; ++i) {
        double an = -i * (i - s);
        b += 2;
        d = an * d + b;
        if (std::fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1 / d;
        double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1) < 1e-16) break;
    }
    return std::exp(log_front) * h;
}

double chi_square_p(const std::vector<std::uint64_t> &counts) {
    std::uint64_t total = 0;
    for (auto c : counts) total += c;
    double expected = static_cast<double>(total) / counts.size(), x = 0;
    for (auto c : counts) x += (c - expected) * (c - expected) / expected;
    return upper_gamma_q((counts.size() - 1) / 2.0, x / 2);
}

// A fixed stream of bytes (splitmix64): the same bytes on every run, and
// cheap enough for 10 M draws under the sanitizers.
struct FixedStream {
    idgen::test::SplitMix64 rng;
    explicit FixedStream(std::uint8_t tag) : rng{0x4E414E4F00000000ull + tag} {}
    void fill(std::uint8_t *out, std::size_t n) {
        for (std::size_t i = 0; i < n; i += 8) {
            std::uint64_t word = rng.next();
            for (std::size_t k = 0; k < 8 && i + k < n; ++k) out[i + k] = static_cast<std::uint8_t>(word >> (8 * k));
        }
    }
};

// Counts of each character index in `characters` draws through nanoid_fill,
// as 1000-character IDs.
std::vector<std::uint64_t> nanoid_counts(const NanoidAlphabet &a, std::size_t characters, std::uint8_t tag) {
    FixedStream stream(tag);
    std::vector<std::uint64_t> counts(a.count, 0);
    constexpr std::size_t kSize = 1000;
    std::string out(kSize * kNanoidMaxCharacterBytes, '\0');
    std::vector<std::uint8_t> bytes;
    for (std::size_t done = 0; done < characters; done += kSize) {
        NanoidProgress p{0, 0};
        while (p.characters < kSize) {
            bytes.resize(nanoid_expected_bytes(a, kSize - p.characters));
            stream.fill(bytes.data(), bytes.size());
            nanoid_fill(a, bytes.data(), bytes.size(), out.data(), kSize, p);
        }
        std::string_view id(out.data(), p.bytes);
        if (a.single_byte) {
            for (char c : id) ++counts[static_cast<std::size_t>(a.byte_index[static_cast<unsigned char>(c)])];
            continue;
        }
        while (!id.empty()) {
            int index = nanoid_character_at(a, id);
            EXPECT_GE(index, 0);
            if (index < 0) return counts;
            ++counts[static_cast<std::size_t>(index)];
            id.remove_prefix(a.lengths[index]);
        }
    }
    return counts;
}

// byte % count, the bias nanoid avoids, on the same stream.
std::vector<std::uint64_t> modulo_counts(std::size_t count, std::size_t characters, std::uint8_t tag) {
    FixedStream stream(tag);
    std::vector<std::uint64_t> counts(count, 0);
    std::uint8_t bytes[1000];
    for (std::size_t done = 0; done < characters; done += sizeof bytes) {
        stream.fill(bytes, sizeof bytes);
        for (std::uint8_t b : bytes) ++counts[b % count];
    }
    return counts;
}

// A correct generator's p-value is uniform on [0, 1]: a test that fails below
// 1e-9 fails a correct implementation with probability 1e-9 per alphabet
// (over the choice of the fixed stream).
constexpr double kFailBelow = 1e-9;
constexpr std::size_t kDraws = 10'000'000;

}  // namespace

TEST(NanoidAlphabet, Default) {
    std::string sorted = kNanoidDefaultAlphabet;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz");
    NanoidAlphabet a;
    nanoid_default_alphabet(a);
    EXPECT_EQ(a.count, 64);
    EXPECT_EQ(a.mask, 63);
    EXPECT_TRUE(a.single_byte);
    EXPECT_EQ(kNanoidDefaultSize, 21u);
}

TEST(NanoidAlphabet, Masks) {
    NanoidAlphabet a;
    for (std::size_t count = 2; count <= 256; ++count) {
        std::vector<std::string> chars;
        for (std::size_t i = 0; i < count; ++i) chars.push_back(utf8(0x100 + static_cast<std::uint32_t>(i)));
        ASSERT_EQ(build(a, chars).status, NanoidAlphabetStatus::ok);
        unsigned want = 1;
        while (want + 1 < count) want = want * 2 + 1;
        EXPECT_EQ(a.mask, want) << count;
        EXPECT_FALSE(a.single_byte);
    }
    EXPECT_EQ(build(a, ascii_characters("ab")).status, NanoidAlphabetStatus::ok);
    EXPECT_EQ(a.mask, 1);
    EXPECT_EQ(build(a, ascii_characters("abcde")).status, NanoidAlphabetStatus::ok);
    EXPECT_EQ(a.mask, 7);
}

TEST(NanoidAlphabet, Refusals) {
    NanoidAlphabet a;
    EXPECT_EQ(build(a, {}).status, NanoidAlphabetStatus::too_few);
    EXPECT_EQ(build(a, {"a"}).status, NanoidAlphabetStatus::too_few);
    std::vector<std::string> many;
    for (std::uint32_t i = 0; i < 257; ++i) many.push_back(utf8(0x400 + i));
    EXPECT_EQ(build(a, many).status, NanoidAlphabetStatus::too_many);
    many.pop_back();
    EXPECT_EQ(build(a, many).status, NanoidAlphabetStatus::ok);
    EXPECT_EQ(build(a, {"a", ""}).status, NanoidAlphabetStatus::bad_character);
    EXPECT_EQ(build(a, {"a", "abcde"}).status, NanoidAlphabetStatus::bad_character);

    NanoidAlphabetCheck c = build(a, ascii_characters("abcdbefa"));
    EXPECT_EQ(c.status, NanoidAlphabetStatus::repeated);
    EXPECT_EQ(c.first, 1u);  // b at 1 and 4: the earlier second occurrence
    EXPECT_EQ(c.second, 4u);
    c = build(a, ascii_characters("xyzz"));
    EXPECT_EQ(c.status, NanoidAlphabetStatus::repeated);
    EXPECT_EQ(c.first, 2u);
    EXPECT_EQ(c.second, 3u);
    c = build(a, {utf8(0xE9), "a", utf8(0xE9)});
    EXPECT_EQ(c.status, NanoidAlphabetStatus::repeated);
    EXPECT_EQ(c.first, 0u);
    EXPECT_EQ(c.second, 2u);
    // A prefix of another character (no server encoding has one).
    c = build(a, {"q", "ab", "a"});
    EXPECT_EQ(c.status, NanoidAlphabetStatus::bad_character);
    EXPECT_EQ(c.first, 1u);
    EXPECT_EQ(c.second, 2u);
    // The earliest pair by its later position, whether a prefix or a repeat.
    c = build(a, {"ab", "a", "a"});
    EXPECT_EQ(c.status, NanoidAlphabetStatus::bad_character);
    EXPECT_EQ(c.first, 0u);
    EXPECT_EQ(c.second, 1u);
}

// Each byte masked; kept when below the count, else skipped.
TEST(NanoidFill, MaskedRejection) {
    NanoidAlphabet a;
    ASSERT_EQ(build(a, ascii_characters("abc")).status, NanoidAlphabetStatus::ok);
    std::size_t used = 0;
    EXPECT_EQ(draw(a, {0, 1, 2, 3, 7, 4, 0xFE, 0xFF, 0x41}, 5, &used), "abcac");
    EXPECT_EQ(used, 7u);  // stops once 5 are drawn
    EXPECT_EQ(draw(a, {3, 3, 3}, 5, &used), "");
    EXPECT_EQ(used, 3u);

    NanoidAlphabet d;
    nanoid_default_alphabet(d);
    std::vector<std::uint8_t> bytes;
    for (int b = 0; b < 256; ++b) bytes.push_back(static_cast<std::uint8_t>(b));
    std::string all = draw(d, bytes, 256);
    for (int b = 0; b < 256; ++b) EXPECT_EQ(all[b], kNanoidDefaultAlphabet[b & 63]);
    EXPECT_EQ(nanoid_expected_bytes(d, 21), 21u);
    EXPECT_EQ(nanoid_expected_bytes(a, 3), 4u);
}

// Draws continue where they stopped, across calls.
TEST(NanoidFill, Resumes) {
    NanoidAlphabet a;
    ASSERT_EQ(build(a, {utf8(0x3B1), "b", utf8(0x1F600)}).status, NanoidAlphabetStatus::ok);
    std::string out(4 * kNanoidMaxCharacterBytes, '\0');
    NanoidProgress p{0, 0};
    std::uint8_t first[] = {0, 3};
    std::uint8_t second[] = {1, 2, 2, 0};
    EXPECT_EQ(nanoid_fill(a, first, 2, out.data(), 4, p), 2u);
    EXPECT_EQ(p.characters, 1u);
    EXPECT_EQ(nanoid_fill(a, second, 4, out.data(), 4, p), 3u);
    EXPECT_EQ(p.characters, 4u);
    EXPECT_EQ(std::string(out.data(), p.bytes), utf8(0x3B1) + "b" + utf8(0x1F600) + utf8(0x1F600));
}

TEST(NanoidValid, Texts) {
    NanoidAlphabet d;
    nanoid_default_alphabet(d);
    EXPECT_TRUE(nanoid_valid(d, "V1StGXR8_Z5jdHi6B-myT", 21));
    EXPECT_FALSE(nanoid_valid(d, "V1StGXR8_Z5jdHi6B-myT", 20));
    EXPECT_FALSE(nanoid_valid(d, "V1StGXR8_Z5jdHi6B-my", 21));
    EXPECT_FALSE(nanoid_valid(d, "V1StGXR8_Z5jdHi6B-my.", 21));
    EXPECT_FALSE(nanoid_valid(d, "", 1));
    EXPECT_FALSE(nanoid_valid(d, std::string_view("V1StGXR8_Z5jdHi6B-my\0", 21), 21));

    NanoidAlphabet m;
    std::string alpha = utf8(0x3B1), beta = utf8(0x3B2), smile = utf8(0x1F600);
    ASSERT_EQ(build(m, {alpha, beta, "a", smile}).status, NanoidAlphabetStatus::ok);
    EXPECT_TRUE(nanoid_valid(m, alpha + "a" + smile + beta, 4));
    EXPECT_FALSE(nanoid_valid(m, alpha + "a" + smile + beta, 5));
    EXPECT_FALSE(nanoid_valid(m, alpha + "a" + smile + beta, 3));
    EXPECT_FALSE(nanoid_valid(m, alpha + "b", 2));
    EXPECT_FALSE(nanoid_valid(m, alpha + utf8(0x3B3), 2));            // a neighbour of alpha and beta
    EXPECT_FALSE(nanoid_valid(m, alpha + beta.substr(0, 1), 2));      // a cut character
    EXPECT_FALSE(nanoid_valid(m, smile.substr(0, 3) + "a", 2));
    EXPECT_EQ(nanoid_character_at(m, smile + "x"), 3);
    EXPECT_EQ(nanoid_character_at(m, "\x01"), -1);
    EXPECT_EQ(nanoid_character_at(m, "\xFF"), -1);
    EXPECT_EQ(nanoid_character_at(m, ""), -1);
}

// The chi-square p-value of 10 M drawn characters is not below 1e-9 for
// alphabets of 64, 62 and 10 characters, and of 1 M for 3 multibyte ones.
TEST(NanoidUniformity, ChiSquare) {
    struct Case {
        const char *name;
        std::vector<std::string> characters;
        std::size_t draws;
    };
    std::vector<std::string> greek;
    for (std::uint32_t cp : {0x3B1u, 0x3B2u, 0x3B3u}) greek.push_back(utf8(cp));
    std::vector<Case> cases = {
        {"default (64)", ascii_characters(kNanoidDefaultAlphabet), kDraws},
        {"base62", ascii_characters("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"), kDraws},
        {"digits", ascii_characters("0123456789"), kDraws},
        {"greek (3, multibyte)", greek, kDraws / 10},
    };
    std::uint8_t tag = 1;
    for (const Case &c : cases) {
        SCOPED_TRACE(c.name);
        NanoidAlphabet a;
        ASSERT_EQ(build(a, c.characters).status, NanoidAlphabetStatus::ok);
        std::vector<std::uint64_t> counts = nanoid_counts(a, c.draws, tag++);
        std::uint64_t total = 0;
        for (auto n : counts) total += n;
        EXPECT_EQ(total, c.draws);
        double p = chi_square_p(counts);
        EXPECT_GE(p, kFailBelow);
    }
}

// The same test rejects byte % count (for 62 and 10 characters; 256 % 64 == 0
// leaves 64 unbiased), on the same streams.
TEST(NanoidUniformity, PlantedModuloBiasIsRejected) {
    EXPECT_LT(chi_square_p(modulo_counts(62, kDraws, 2)), kFailBelow);
    EXPECT_LT(chi_square_p(modulo_counts(10, kDraws, 3)), kFailBelow);
    EXPECT_GE(chi_square_p(modulo_counts(64, kDraws, 1)), kFailBelow);
}

// The p-value function against known chi-square quantiles.
TEST(NanoidUniformity, PValues) {
    EXPECT_NEAR(upper_gamma_q(0.5, 3.841459 / 2), 0.05, 1e-6);       // df 1
    EXPECT_NEAR(upper_gamma_q(4.5, 21.66599 / 2), 0.01, 1e-6);       // df 9
    EXPECT_NEAR(upper_gamma_q(31.5, 82.52873 / 2), 0.05, 1e-5);      // df 63
    EXPECT_NEAR(upper_gamma_q(30.5, 61.0 / 2), 0.47, 0.02);          // df 61 at its mean
}
