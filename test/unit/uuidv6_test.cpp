// UUIDv6 and UUIDv8 (RFC 9562 §5.6, §5.8): the layout against Appendix A.1/A.5,
// the v1 <-> v6 pairs and B.1/B.2 from ../shared/data/rfc9562, the sequence's
// order and bound at 100 ns, and the name-based UUIDv8 from a SHA-256 digest
// (computed here by a small SHA-256 of the test's own, FIPS 180-4).
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "core/uuidv6.hpp"
#include "core/uuidv8.hpp"
#include "random_values.hpp"
#include "shared_data.hpp"

using namespace idgen::core;
using idgen::test::Json;

namespace {

using Bytes = std::array<std::uint8_t, 16>;

std::vector<std::uint8_t> hex_bytes(const std::string &text) {
    std::vector<std::uint8_t> out;
    std::string hex;
    for (char c : text)
        if (std::isxdigit(static_cast<unsigned char>(c))) hex += c;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        out.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    return out;
}

Bytes uuid(const std::string &text) {
    std::vector<std::uint8_t> v = hex_bytes(text);
    Bytes out{};
    EXPECT_EQ(v.size(), 16u) << text;
    for (std::size_t i = 0; i < 16 && i < v.size(); ++i) out[i] = v[i];
    return out;
}

std::uint64_t hex_number(const std::string &text) {
    std::string t = text.rfind("0x", 0) == 0 ? text.substr(2) : text;
    return std::stoull(t, nullptr, 16);
}

Bytes encode(Uuidv6Tick tick, std::uint16_t clock_seq, std::uint64_t node) {
    Bytes out{};
    uuidv6_encode(tick, clock_seq, node, out.data());
    return out;
}

const Json *named(const Json &examples, const std::string &section) {
    for (const Json &e : examples.items)
        if (e["section"].text == section) return &e;
    return nullptr;
}

// SHA-256 (FIPS 180-4), for the B.2 digest; the extension uses PostgreSQL's.
std::array<std::uint8_t, 32> sha256(const std::vector<std::uint8_t> &message) {
    static constexpr std::uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::vector<std::uint8_t> m = message;
    std::uint64_t bits = static_cast<std::uint64_t>(message.size()) * 8;
    m.push_back(0x80);
    while (m.size() % 64 != 56) m.push_back(0);
    for (int i = 7; i >= 0; --i) m.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
    auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
    for (std::size_t block = 0; block < m.size(); block += 64) {
        std::uint32_t w[64];
        for (int t = 0; t < 16; ++t)
            w[t] = std::uint32_t{m[block + 4 * t]} << 24 | std::uint32_t{m[block + 4 * t + 1]} << 16 |
                   std::uint32_t{m[block + 4 * t + 2]} << 8 | m[block + 4 * t + 3];
        for (int t = 16; t < 64; ++t) {
            std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int t = 0; t < 64; ++t) {
            std::uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                               k[t] + w[t];
            std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    std::array<std::uint8_t, 32> out{};
    for (int i = 0; i < 32; ++i) out[i] = static_cast<std::uint8_t>(h[i / 4] >> (24 - 8 * (i % 4)));
    return out;
}

}  // namespace

// The test's SHA-256 against FIPS 180-4's "abc" example, so that B.2 below
// checks the core and not a broken hash.
TEST(Uuidv8Sha256, TestHashMatchesFips180Example) {
    std::vector<std::uint8_t> abc = {'a', 'b', 'c'};
    std::array<std::uint8_t, 32> d = sha256(abc);
    std::vector<std::uint8_t> want =
        hex_bytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_TRUE(std::equal(d.begin(), d.end(), want.begin()));
}

// RFC 9562 Appendix A.1 and A.5: the same instant, clock sequence and node.
TEST(Uuidv6Rfc9562, AppendixA1AndA5) {
    IDGEN_SHARED_JSON(examples, "rfc9562/examples.json");
    const Json *a1 = named(examples, "A.1");
    const Json *a5 = named(examples, "A.5");
    ASSERT_TRUE(a1 && a5);
    Uuidv6Tick tick = std::stoull((*a5)["timestamp"]["gregorian_100ns"].text);
    EXPECT_EQ(tick, hex_number((*a5)["timestamp"]["gregorian_100ns_hex"].text));
    auto clock_seq = static_cast<std::uint16_t>(std::stoul((*a5)["clock_seq"].text));
    std::uint64_t node = hex_number((*a5)["node"].text);
    Bytes v6 = uuid((*a5)["uuid"].text);
    Bytes v1 = uuid((*a1)["uuid"].text);
    EXPECT_EQ(encode(tick, clock_seq, node), v6);
    EXPECT_EQ(uuidv1_or_v6_tick(v6.data()), std::optional<Uuidv6Tick>{tick});
    EXPECT_EQ(uuidv1_or_v6_tick(v1.data()), std::optional<Uuidv6Tick>{tick});
    // The node is random-looking: its multicast bit is set, so the random
    // encoding of the same 61 bits gives the same UUID.
    std::uint64_t random = clock_seq | ((node & 0xFFFFFFFFFFFFull) << 14);
    Bytes random_form{};
    uuidv6_encode_random(tick, random, random_form.data());
    EXPECT_EQ(random_form, v6);
    // The Unix time the file states.
    std::int64_t unix_ns = std::stoll((*a5)["timestamp"]["unix_ns"].text);
    EXPECT_EQ(uuidv6_tick_of_unix_ns(unix_ns), std::optional<Uuidv6Tick>{tick});
    EXPECT_EQ(uuidv6_tick_unix_us(tick), unix_ns / 1000);
    Bytes out{};
    ASSERT_EQ(uuidv6_from_v1(v1.data(), out.data()), UuidReorder::ok);
    EXPECT_EQ(out, v6);
    ASSERT_EQ(uuidv1_from_v6(v6.data(), out.data()), UuidReorder::ok);
    EXPECT_EQ(out, v1);
}

// Every pair of v1_v6_pairs.json, both ways, with its time, clock sequence and node.
TEST(Uuidv6Rfc9562, V1V6Pairs) {
    IDGEN_SHARED_JSON(pairs, "rfc9562/v1_v6_pairs.json");
    ASSERT_FALSE(pairs.items.empty());
    for (const Json &p : pairs.items) {
        SCOPED_TRACE(p["name"].text);
        Bytes v1 = uuid(p["v1"].text), v6 = uuid(p["v6"].text), out{};
        ASSERT_EQ(uuidv6_from_v1(v1.data(), out.data()), UuidReorder::ok);
        EXPECT_EQ(out, v6);
        ASSERT_EQ(uuidv1_from_v6(v6.data(), out.data()), UuidReorder::ok);
        EXPECT_EQ(out, v1);
        Uuidv6Tick tick = std::stoull(p["gregorian_100ns"].text);
        EXPECT_EQ(uuidv1_or_v6_tick(v1.data()), std::optional<Uuidv6Tick>{tick});
        EXPECT_EQ(uuidv1_or_v6_tick(v6.data()), std::optional<Uuidv6Tick>{tick});
        auto clock_seq = static_cast<std::uint16_t>(std::stoul(p["clock_seq"].text));
        EXPECT_EQ(encode(tick, clock_seq, hex_number(p["node"].text)), v6);
        if (const Json *bytes = p.find("v6_bytes_hex")) {
            EXPECT_EQ(uuid(bytes->text), v6);
        }
    }
}

// B.1: a time-based UUIDv8 whose custom fields are kept, version and variant set.
TEST(Uuidv8Rfc9562, AppendixB1KeepsTheCustomFields) {
    IDGEN_SHARED_JSON(examples, "rfc9562/examples.json");
    const Json *b1 = named(examples, "B.1");
    ASSERT_TRUE(b1);
    const Json &fields = (*b1)["fields"];
    std::uint64_t a = hex_number(fields.items[0]["value"].text);
    std::uint64_t b = hex_number(fields.items[2]["value"].text);
    std::uint64_t c = hex_number(fields.items[4]["value"].text);
    // custom_a and custom_b are the 60 low bits of the 10 ns count (the file's layout).
    EXPECT_EQ((a << 12) | b, hex_number((*b1)["inputs"]["unix_10ns_hex"].text));
    Bytes raw{};  // the fields with the version and variant bits zero
    for (int i = 0; i < 6; ++i) raw[i] = static_cast<std::uint8_t>(a >> (40 - 8 * i));
    raw[6] = static_cast<std::uint8_t>(b >> 8);
    raw[7] = static_cast<std::uint8_t>(b);
    for (int i = 8; i < 16; ++i) raw[i] = static_cast<std::uint8_t>(c >> (8 * (15 - i)));
    Bytes out{};
    uuidv8_from_bytes(raw.data(), out.data());
    EXPECT_EQ(out, uuid((*b1)["uuid"].text));
    Bytes again{};
    uuidv8_from_bytes(out.data(), again.data());  // idempotent
    EXPECT_EQ(again, out);
}

// B.2: SHA-256 of the DNS namespace's octets and "www.example.com".
TEST(Uuidv8Rfc9562, AppendixB2NameBasedSha256) {
    IDGEN_SHARED_JSON(examples, "rfc9562/examples.json");
    const Json *b2 = named(examples, "B.2");
    ASSERT_TRUE(b2);
    const Json &in = (*b2)["inputs"];
    std::vector<std::uint8_t> message = hex_bytes(in["namespace"].text);
    ASSERT_EQ(message.size(), 16u);
    for (char c : in["name"].text) message.push_back(static_cast<std::uint8_t>(c));
    std::array<std::uint8_t, 32> digest = sha256(message);
    std::vector<std::uint8_t> want = hex_bytes(in["hash_hex"].text);
    ASSERT_TRUE(std::equal(digest.begin(), digest.end(), want.begin()));
    Bytes out{};
    uuidv8_from_sha256(digest.data(), out.data());
    EXPECT_EQ(out, uuid((*b2)["uuid"].text));
    EXPECT_EQ(uuid_version(out.data()), 8);
    EXPECT_TRUE(uuid_rfc_variant(out.data()));
}

TEST(Uuidv8Layout, VersionAndVariantWhateverTheInput) {
    for (std::uint8_t fill : {0x00, 0xFF, 0x55, 0xAA}) {
        Bytes in{}, out{};
        in.fill(fill);
        uuidv8_from_bytes(in.data(), out.data());
        EXPECT_EQ(out[6] >> 4, 8);
        EXPECT_EQ(out[8] >> 6, 0b10);
        for (int i : {0, 1, 2, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14, 15}) EXPECT_EQ(out[i], fill);
        EXPECT_EQ(out[6] & 0x0F, fill & 0x0F);
        EXPECT_EQ(out[8] & 0x3F, fill & 0x3F);
    }
}

TEST(Uuidv6Layout, VersionVariantAndMulticastWhateverTheRandomBits) {
    for (std::uint64_t random : {0ull, ~0ull, 0x5555555555555555ull, 0xC000000000000000ull}) {
        Bytes b{};
        uuidv6_encode_random(kUuidv6MaxTick, random, b.data());
        EXPECT_EQ(b[6] >> 4, 6);
        EXPECT_EQ(b[8] >> 6, 0b10);
        EXPECT_EQ(b[10] & 1, 1);
    }
    EXPECT_EQ(encode(0, 0, 0), uuid("00000000-0000-6000-8000-000000000000"));
    EXPECT_EQ(encode(kUuidv6MaxTick, 0xFFFF, ~0ull), uuid("ffffffff-ffff-6fff-bfff-ffffffffffff"));
}

TEST(Uuidv6Layout, ByteOrderEqualsTickOrder) {
    idgen::test::SplitMix64 gen{42};
    for (int i = 0; i < 10000; ++i) {
        Uuidv6Tick a = gen.next() & kUuidv6MaxTick, b = gen.next() & kUuidv6MaxTick;
        Bytes x{}, y{};
        uuidv6_encode_random(a, gen.next(), x.data());
        uuidv6_encode_random(b, gen.next(), y.data());
        int cmp = std::memcmp(x.data(), y.data(), 16);
        if (a < b) {
            EXPECT_LT(cmp, 0);
        } else if (a > b) {
            EXPECT_GT(cmp, 0);
        }
        ASSERT_EQ(uuidv1_or_v6_tick(x.data()), std::optional<Uuidv6Tick>{a});
        Bytes v1{}, back{};
        ASSERT_EQ(uuidv1_from_v6(x.data(), v1.data()), UuidReorder::ok);
        ASSERT_EQ(uuidv1_or_v6_tick(v1.data()), std::optional<Uuidv6Tick>{a});
        ASSERT_EQ(uuidv6_from_v1(v1.data(), back.data()), UuidReorder::ok);
        ASSERT_EQ(back, x);
    }
}

TEST(Uuidv6Boundary, SmallestValueOfItsTick) {
    const Uuidv6Tick tick = 0x1EC9414C232AB00;
    Bytes bound{}, next_bound{};
    uuidv6_boundary(tick, bound.data());
    uuidv6_boundary(tick + 1, next_bound.data());
    EXPECT_EQ(bound, uuid("1ec9414c-232a-6b00-8000-000000000000"));
    idgen::test::SplitMix64 gen{7};
    for (int i = 0; i < 1000; ++i) {
        Bytes id{};
        uuidv6_encode_random(tick, gen.next(), id.data());
        EXPECT_LT(std::memcmp(bound.data(), id.data(), 16), 0);
        EXPECT_LT(std::memcmp(id.data(), next_bound.data(), 16), 0);
    }
}

TEST(Uuidv6Tick, RangeLimits) {
    EXPECT_EQ(uuidv6_tick_of_unix_us(0, 0), std::optional<Uuidv6Tick>{kUuidv6UnixEpochTick});
    EXPECT_EQ(uuidv6_tick_of_unix_us(0, 9), std::optional<Uuidv6Tick>{kUuidv6UnixEpochTick + 9});
    EXPECT_FALSE(uuidv6_tick_of_unix_us(0, 10));
    EXPECT_EQ(uuidv6_tick_of_unix_us(kUuidv6MinUnixUs, 0), std::optional<Uuidv6Tick>{0});
    EXPECT_FALSE(uuidv6_tick_of_unix_us(kUuidv6MinUnixUs - 1, 9));
    EXPECT_EQ(uuidv6_tick_of_unix_us(kUuidv6MaxUnixUs, 5), std::optional<Uuidv6Tick>{kUuidv6MaxTick});
    EXPECT_FALSE(uuidv6_tick_of_unix_us(kUuidv6MaxUnixUs, 6));
    EXPECT_FALSE(uuidv6_tick_of_unix_us(kUuidv6MaxUnixUs + 1, 0));
    EXPECT_EQ(uuidv6_tick_of_unix_ns(1645557742000000199), std::optional<Uuidv6Tick>{0x1EC9414C232AB01});
    EXPECT_EQ(uuidv6_tick_of_unix_ns(-1), std::optional<Uuidv6Tick>{kUuidv6UnixEpochTick - 1});
    EXPECT_EQ(uuidv6_tick_unix_us(kUuidv6UnixEpochTick - 1), -1);
    EXPECT_EQ(uuidv6_tick_unix_us(0), kUuidv6MinUnixUs);
    EXPECT_EQ(uuidv6_tick_unix_ms(kUuidv6UnixEpochTick - 1), -1);
    EXPECT_EQ(uuidv6_tick_unix_ms(kUuidv6UnixEpochTick + 10'000), 1);
}

TEST(Uuidv6Decode, RefusesOtherVersionsAndVariants) {
    Bytes v4 = uuid("919108f7-52d1-4320-b4e1-6e2bd8d7d0e6");
    Bytes v7 = uuid("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    Bytes v6_other_variant = uuid("1ec9414c-232a-6b00-f3c8-9f6bdeced846");
    Bytes v1_ncs_variant = uuid("c232ab00-9414-11ec-33c8-9f6bdeced846");
    Bytes v6 = uuid("1ec9414c-232a-6b00-b3c8-9f6bdeced846");
    Bytes v1 = uuid("c232ab00-9414-11ec-b3c8-9f6bdeced846");
    for (const Bytes *b : {&v4, &v7, &v6_other_variant, &v1_ncs_variant})
        EXPECT_FALSE(uuidv1_or_v6_tick(b->data()));
    Bytes out{};
    out.fill(0xEE);
    const Bytes untouched = out;
    EXPECT_EQ(uuidv6_from_v1(v6.data(), out.data()), UuidReorder::wrong_version);
    EXPECT_EQ(uuidv6_from_v1(v4.data(), out.data()), UuidReorder::wrong_version);
    EXPECT_EQ(uuidv6_from_v1(v1_ncs_variant.data(), out.data()), UuidReorder::not_rfc_variant);
    EXPECT_EQ(uuidv1_from_v6(v1.data(), out.data()), UuidReorder::wrong_version);
    EXPECT_EQ(uuidv1_from_v6(v7.data(), out.data()), UuidReorder::wrong_version);
    EXPECT_EQ(uuidv1_from_v6(v6_other_variant.data(), out.data()), UuidReorder::not_rfc_variant);
    EXPECT_EQ(out, untouched);
}

namespace {

constexpr Uuidv6Tick kUnbounded = kUuidv6MaxTick;
constexpr Uuidv6Tick kTenSeconds = 10'000 * kUuidv6TicksPerMs;
const Uuidv6Tick kNow = *uuidv6_tick_of_unix_us(1'700'000'000'000'000, 0);

Uuidv6Issue issue_at(Uuidv6Sequence &seq, Uuidv6Tick now, Uuidv6Tick floor = 0) {
    Uuidv6Issue issue = uuidv6_issue(seq, now, floor, kUnbounded);
    EXPECT_EQ(issue.step, IssueStep::issue);
    return issue;
}

}  // namespace

TEST(Uuidv6Sequence, FollowsTheClockAndRunsAheadWhenItGoesBack) {
    Uuidv6Sequence seq{};
    EXPECT_EQ(issue_at(seq, kNow).tick, kNow);
    auto later = issue_at(seq, kNow + 50);
    EXPECT_EQ(later.tick, kNow + 50);
    EXPECT_FALSE(later.clock_regressed || later.ran_ahead);
    auto back = issue_at(seq, kNow - 10 * kUuidv6TicksPerMs);
    EXPECT_EQ(back.tick, kNow + 51);
    EXPECT_TRUE(back.clock_regressed);
    EXPECT_TRUE(back.ran_ahead);
    auto creeping = issue_at(seq, kNow - 10 * kUuidv6TicksPerMs + 3);
    EXPECT_EQ(creeping.tick, kNow + 52);
    EXPECT_FALSE(creeping.clock_regressed);
    auto caught_up = issue_at(seq, kNow + 100);
    EXPECT_EQ(caught_up.tick, kNow + 100);
    EXPECT_FALSE(caught_up.ran_ahead);
}

TEST(Uuidv6Sequence, StaysAboveAFloorAndNeverRepeats) {
    Uuidv6Sequence seq{};
    EXPECT_EQ(issue_at(seq, 100, 500).tick, 501u);
    EXPECT_EQ(issue_at(seq, 100, 200).tick, 502u);
    Uuidv6Sequence burst{};
    Uuidv6Tick previous = 0;
    for (int i = 0; i < 100000; ++i) {
        auto issue = uuidv6_issue(burst, kNow, 0, kTenSeconds);
        ASSERT_EQ(issue.step, IssueStep::issue);
        ASSERT_GT(issue.tick, previous);
        previous = issue.tick;
    }
    EXPECT_EQ(previous, kNow + 99999);  // 100,000 calls in one 100 ns: 10 ms ahead
}

TEST(Uuidv6Sequence, ExhaustionIsReportedAndLeavesStateUntouched) {
    Uuidv6Sequence seq{kUuidv6MaxTick, kUuidv6MaxTick};
    EXPECT_EQ(uuidv6_issue(seq, kUuidv6MaxTick, 0, kUnbounded).step, IssueStep::exhausted);
    EXPECT_EQ(uuidv6_issue(seq, 5, kUuidv6MaxTick, kUnbounded).step, IssueStep::exhausted);
    EXPECT_EQ(seq.last_issued, kUuidv6MaxTick);
    Uuidv6Sequence almost{kUuidv6MaxTick - 1, 0};
    EXPECT_EQ(uuidv6_issue(almost, 0, 0, kUnbounded).tick, kUuidv6MaxTick);
}

TEST(Uuidv6Bound, BurstRunsAheadUpToTheBoundThenWaits) {
    constexpr Uuidv6Tick kMaxLead = 3 * kUuidv6TicksPerMs;
    Uuidv6Sequence seq{};
    Uuidv6Tick issued = 0;
    for (;;) {
        auto issue = uuidv6_issue(seq, kNow, 0, kMaxLead);
        if (issue.step != IssueStep::issue) {
            EXPECT_EQ(issue.step, IssueStep::wait);
            EXPECT_EQ(issue.wait_ticks, 1u);
            break;
        }
        ++issued;
        ASSERT_LE(issue.tick, kNow + kMaxLead);
    }
    EXPECT_EQ(issued, kMaxLead + 1);
    EXPECT_EQ(seq.last_clock, kNow);
    for (int i = 0; i < 10; ++i) ASSERT_EQ(uuidv6_issue(seq, kNow + 10, 0, kMaxLead).step, IssueStep::issue);
    EXPECT_EQ(uuidv6_issue(seq, kNow + 10, 0, kMaxLead).step, IssueStep::wait);
    // A floor up to the 1 ms window beyond the bound waits for as long as it takes.
    Uuidv6Sequence other{};
    auto wait = uuidv6_issue(other, kNow, kNow + kMaxLead + 99, kMaxLead);
    EXPECT_EQ(wait.step, IssueStep::wait);
    EXPECT_EQ(wait.wait_ticks, 100u);
}

TEST(Uuidv6Bound, ClockSetBackBeyondTheBoundKeepsCounting) {
    Uuidv6Sequence seq{};
    ASSERT_EQ(uuidv6_issue(seq, kNow, 0, kTenSeconds).step, IssueStep::issue);
    const Uuidv6Tick back = kNow - 30'000 * kUuidv6TicksPerMs;
    for (Uuidv6Tick i = 1; i <= 3; ++i) {
        auto issue = uuidv6_issue(seq, back, 0, kTenSeconds);
        ASSERT_EQ(issue.step, IssueStep::issue);
        EXPECT_EQ(issue.tick, kNow + i);
        EXPECT_TRUE(issue.ran_ahead);
    }
    Uuidv6Sequence edge{kNow, kNow};
    EXPECT_EQ(uuidv6_issue(edge, kNow + 1 - kTenSeconds - kUuidv6WaitWindow - 1, 0, kTenSeconds).step,
              IssueStep::issue);
    Uuidv6Sequence inside{kNow, kNow};
    auto wait = uuidv6_issue(inside, kNow + 1 - kTenSeconds - kUuidv6WaitWindow, 0, kTenSeconds);
    EXPECT_EQ(wait.step, IssueStep::wait);
    EXPECT_EQ(wait.wait_ticks, kUuidv6WaitWindow);
}
