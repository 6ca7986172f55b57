// KSUID (core/ksuid.hpp): the 20-byte layout, strict base62 text, Next() and
// Prev(), and the monotonic issue policy (fresh payload in a new second, +1
// otherwise with the carry into the timestamp, clock regression, exhaustion,
// another generator's last ID, the clock lease's floor and the lead bound).
// segmentio/ksuid's own cases are read from ../shared/data/ksuid (third-party
// data, not committed): a missing file is a skip naming it, a failure under
// CI=true.
#include <gtest/gtest.h>

#include <string>

#include "core/ksuid.hpp"
#include "json_reader.hpp"
#include "random_values.hpp"
#include "shared_data.hpp"

using namespace idgen::core;
using idgen::test::Json;
using idgen::test::SplitMix64;
using idgen::test::u128;

namespace {

// The alphabet written out, not taken from the header under test.
const std::string kDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

std::string text_of(Ksuid id) {
    char out[kKsuidTextLength];
    ksuid_encode(id, out);
    return std::string(out, sizeof out);
}

std::string hex_of(Ksuid id) {
    std::uint8_t bytes[kKsuidBytes];
    ksuid_store(id, bytes);
    static const char *kHex = "0123456789abcdef";
    std::string out;
    for (std::uint8_t b : bytes) {
        out += kHex[b >> 4];
        out += kHex[b & 15];
    }
    return out;
}

Ksuid from_hex(const std::string &hex) {
    EXPECT_EQ(hex.size(), 2 * kKsuidBytes) << hex;
    std::uint8_t bytes[kKsuidBytes] = {};
    for (std::size_t i = 0; i < kKsuidBytes && 2 * i + 1 < hex.size(); ++i)
        bytes[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return ksuid_load(bytes);
}

Ksuid decoded_ok(const std::string &text) {
    KsuidDecoded d = ksuid_decode(text);
    EXPECT_EQ(d.status, KsuidStatus::ok) << text;
    return d.value;
}

// No bound: a lead as large as the range never waits.
constexpr std::int64_t kUnbounded = 0xFFFFFFFF;

KsuidIssue issue_at(KsuidSequence &seq, std::int64_t now, Uint128 payload) {
    return ksuid_issue(seq, now, kKsuidNil, 0, kUnbounded, payload);
}

KsuidIssue issue_ok(KsuidSequence &seq, std::int64_t now, Uint128 payload) {
    KsuidIssue issue = issue_at(seq, now, payload);
    EXPECT_EQ(issue.step, IssueStep::issue) << "now " << now;
    return issue;
}

}  // namespace

// The header's constants are the format's (the layout written out here).
TEST(KsuidLayout, Constants) {
    EXPECT_EQ(kKsuidBytes, 20u);
    EXPECT_EQ(kKsuidTimestampBytes + kKsuidPayloadBytes, kKsuidBytes);
    EXPECT_EQ(kKsuidTextLength, 27u);
    EXPECT_EQ(kKsuidEpochUnixSeconds, 1400000000);
    EXPECT_EQ(kKsuidMaxTimestamp, 4294967295);
    EXPECT_EQ(std::string(kKsuidAlphabet), kDigits);
    EXPECT_EQ(std::string(kKsuidMaxText), "aWgEPTl1tmebfsQzFP4bxwgy80V");
    EXPECT_EQ(std::string(kKsuidMinText), std::string(27, '0'));
}

// The spec's constants file agrees with the header.
TEST(KsuidShared, Constants) {
    IDGEN_SHARED_JSON(c, "ksuid/constants.json");
    EXPECT_EQ(std::stoll(c["epoch_unix_seconds"].text), kKsuidEpochUnixSeconds);
    EXPECT_EQ(std::stoul(c["byte_length"].text), kKsuidBytes);
    EXPECT_EQ(std::stoul(c["timestamp_bytes"].text), kKsuidTimestampBytes);
    EXPECT_EQ(std::stoul(c["payload_bytes"].text), kKsuidPayloadBytes);
    EXPECT_EQ(std::stoul(c["text_length"].text), kKsuidTextLength);
    EXPECT_EQ(c["alphabet"].text, kKsuidAlphabet);
    EXPECT_EQ(c["min_text"].text, kKsuidMinText);
    EXPECT_EQ(c["max_text"].text, kKsuidMaxText);
    EXPECT_EQ(std::stoll(c["max_unix_seconds"].text), ksuid_unix_seconds(kKsuidMax));
    EXPECT_EQ(text_of(kKsuidNil), c["min_text"].text);
    EXPECT_EQ(text_of(kKsuidMax), c["max_text"].text);
}

// Every valid case: text <-> bytes, timestamp, Unix second and payload.
TEST(KsuidShared, Valid) {
    IDGEN_SHARED_JSON(cases, "ksuid/valid.json");
    ASSERT_GE(cases.items.size(), 2u);
    for (const Json &v : cases.items) {
        SCOPED_TRACE(v["name"].text);
        Ksuid id = decoded_ok(v["text"].text);
        EXPECT_EQ(hex_of(id), v["raw_hex"].text);
        EXPECT_EQ(text_of(from_hex(v["raw_hex"].text)), v["text"].text);
        EXPECT_EQ(std::to_string(id.timestamp), v["timestamp"].text);
        EXPECT_EQ(std::to_string(ksuid_unix_seconds(id)), v["unix_seconds"].text);
        EXPECT_EQ(hex_of(id).substr(8), v["payload_hex"].text);
    }
}

// Every refused case, for its reason; a character outside the alphabet is
// refused as such before the value is looked at (the reference reads it).
TEST(KsuidShared, Invalid) {
    IDGEN_SHARED_JSON(cases, "ksuid/invalid.json");
    ASSERT_GE(cases.items.size(), 3u);
    for (const Json &v : cases.items) {
        const std::string &text = v["text"].text;
        SCOPED_TRACE(v["name"].text);
        KsuidDecoded d = ksuid_decode(text);
        std::size_t odd = text.find_first_not_of(kDigits);
        if (odd != std::string::npos) {
            EXPECT_EQ(d.status, KsuidStatus::bad_character);
            EXPECT_EQ(d.position, odd);
        } else if (v["reason"].text == "size") {
            EXPECT_EQ(d.status, KsuidStatus::wrong_length);
        } else {
            EXPECT_EQ(v["reason"].text, "value-overflow");
            EXPECT_EQ(d.status, KsuidStatus::too_large);
        }
    }
}

// What the lax reference accepts, refused here at the first odd character;
// the value the reference made of it has a spelling of its own that is read.
TEST(KsuidShared, LaxInputsAreRefused) {
    IDGEN_SHARED_JSON(cases, "ksuid/lax.json");
    ASSERT_GE(cases.items.size(), 1u);
    for (const Json &v : cases.items) {
        const std::string &text = v["text"].text;
        SCOPED_TRACE(text);
        EXPECT_EQ(v["reference_accepts"].text, "true");
        KsuidDecoded d = ksuid_decode(text);
        EXPECT_EQ(d.status, KsuidStatus::bad_character);
        EXPECT_EQ(d.position, text.find(v["characters_outside_alphabet"].items.at(0).text));
        Ksuid reference = from_hex(v["reference_raw_hex"].text);
        EXPECT_EQ(text_of(reference), v["reference_reencoded_text"].text);
        EXPECT_EQ(decoded_ok(v["reference_reencoded_text"].text), reference);
    }
}

// Next() and Prev() of nil and max, wrapping at both ends.
TEST(KsuidShared, NextPrev) {
    IDGEN_SHARED_JSON(cases, "ksuid/next_prev.json");
    ASSERT_EQ(cases.items.size(), 2u);
    for (const Json &v : cases.items) {
        SCOPED_TRACE(v["name"].text);
        Ksuid id = decoded_ok(v["text"].text);
        EXPECT_EQ(hex_of(id), v["raw_hex"].text);
        EXPECT_EQ(hex_of(ksuid_next(id)), v["next_raw_hex"].text);
        EXPECT_EQ(text_of(ksuid_next(id)), v["next_text"].text);
        EXPECT_EQ(hex_of(ksuid_prev(id)), v["prev_raw_hex"].text);
        EXPECT_EQ(text_of(ksuid_prev(id)), v["prev_text"].text);
    }
}

// The bytes: the timestamp big-endian first, then the payload.
TEST(KsuidLayout, Bytes) {
    Ksuid id = ksuid_make(0x01020304, u128(0x05060708090A0B0Cull, 0x0D0E0F1011121314ull));
    EXPECT_EQ(hex_of(id), "0102030405060708090a0b0c0d0e0f1011121314");
    EXPECT_EQ(from_hex("0102030405060708090a0b0c0d0e0f1011121314"), id);
    EXPECT_EQ(hex_of(kKsuidMax), std::string(40, 'f'));
    EXPECT_EQ(ksuid_unix_seconds(ksuid_make(0, 0)), 1400000000);
    EXPECT_EQ(ksuid_boundary(107608047), ksuid_make(107608047, 0));
}

// The representable seconds: the epoch to 2^32 - 1 seconds after it.
TEST(KsuidLayout, UnixSecondsRange) {
    EXPECT_FALSE(ksuid_unix_seconds_valid(1399999999));
    EXPECT_TRUE(ksuid_unix_seconds_valid(1400000000));
    EXPECT_TRUE(ksuid_unix_seconds_valid(5694967295));
    EXPECT_FALSE(ksuid_unix_seconds_valid(5694967296));
    EXPECT_FALSE(ksuid_unix_seconds_valid(-1));
}

// Carries and borrows between the payload and the timestamp.
TEST(KsuidNextPrev, CarryIntoTheTimestamp) {
    Ksuid full = ksuid_make(7, kUint128Max);
    EXPECT_EQ(ksuid_next(full), ksuid_make(8, 0));
    EXPECT_EQ(ksuid_prev(ksuid_make(8, 0)), full);
    EXPECT_EQ(ksuid_next(ksuid_make(7, 41)), ksuid_make(7, 42));
    EXPECT_EQ(ksuid_prev(ksuid_make(7, 42)), ksuid_make(7, 41));
    EXPECT_EQ(ksuid_next(kKsuidMax), kKsuidNil);
    EXPECT_EQ(ksuid_prev(kKsuidNil), kKsuidMax);
}

// Text, each digit's place: the last digit counts ones, the one before 62s.
TEST(KsuidText, DigitPlaces) {
    EXPECT_EQ(text_of(ksuid_make(0, 1)), std::string(26, '0') + "1");
    EXPECT_EQ(text_of(ksuid_make(0, 61)), std::string(26, '0') + "z");
    EXPECT_EQ(text_of(ksuid_make(0, 62)), std::string(25, '0') + "10");
    EXPECT_EQ(text_of(ksuid_make(0, 62 * 62 - 1)), std::string(25, '0') + "zz");
    // 2^128 (the timestamp's lowest bit) and (2^32 - 1) * 2^128, in base62 by
    // Python's integers.
    EXPECT_EQ(text_of(ksuid_make(1, 0)), "000007n42DGM5Tflk9n8mt7Fhc8");
    EXPECT_EQ(text_of(ksuid_make(0xFFFFFFFF, 0)), "aWgEPLxxrZOFaOlDVFHTB3ZiQOO");
    EXPECT_EQ(decoded_ok("aWgEPLxxrZOFaOlDVFHTB3ZiQOO"), ksuid_make(0xFFFFFFFF, 0));
}

// Round trips and order: decode(encode(x)) = x; text order = value order.
TEST(KsuidText, RoundTripAndOrder) {
    SplitMix64 rng{53};
    Ksuid previous = kKsuidNil;
    std::string previous_text = text_of(previous);
    for (int i = 0; i < 20000; ++i) {
        auto timestamp = static_cast<std::uint32_t>(i % 3 == 0 ? rng.next() & 0xF : rng.next());
        Uint128 payload = i % 5 == 0 ? Uint128{rng.next() & 0xFF} : rng.next128();
        Ksuid id = ksuid_make(timestamp, payload);
        std::string text = text_of(id);
        ASSERT_EQ(text.size(), 27u);
        ASSERT_EQ(text.find_first_not_of(kDigits), std::string::npos);
        KsuidDecoded d = ksuid_decode(text);
        ASSERT_EQ(d.status, KsuidStatus::ok);
        ASSERT_EQ(d.value, id);
        ASSERT_EQ(id < previous, text < previous_text) << text << " " << previous_text;
        ASSERT_EQ(id == previous, text == previous_text);
        std::uint8_t a[kKsuidBytes], b[kKsuidBytes];
        ksuid_store(id, a);
        ksuid_store(previous, b);
        ASSERT_EQ(id < previous, std::memcmp(a, b, kKsuidBytes) < 0);
        previous = id;
        previous_text = text;
    }
}

// The refusals: length, character (the first, before the length), value.
TEST(KsuidText, Refusals) {
    EXPECT_EQ(ksuid_decode("").status, KsuidStatus::wrong_length);
    EXPECT_EQ(ksuid_decode(std::string(26, '0')).status, KsuidStatus::wrong_length);
    EXPECT_EQ(ksuid_decode(std::string(28, '0')).status, KsuidStatus::wrong_length);
    KsuidDecoded hyphen = ksuid_decode("0ujtsYcgvSTl8PAuAdqW-SMnLOv");
    EXPECT_EQ(hyphen.status, KsuidStatus::bad_character);
    EXPECT_EQ(hyphen.position, 20u);
    KsuidDecoded short_bad = ksuid_decode("12-");
    EXPECT_EQ(short_bad.status, KsuidStatus::bad_character);
    EXPECT_EQ(short_bad.position, 2u);
    EXPECT_EQ(ksuid_decode(std::string("0000000000000\0" "0000000000000", 27)).status,
              KsuidStatus::bad_character);
    EXPECT_EQ(ksuid_decode("\xC3\xA9").status, KsuidStatus::bad_character);
    EXPECT_EQ(ksuid_decode("aWgEPTl1tmebfsQzFP4bxwgy80W").status, KsuidStatus::too_large);
    EXPECT_EQ(ksuid_decode("aWgEPTl1tmebfsQzFP4bxwgy81A").status, KsuidStatus::too_large);
    EXPECT_EQ(ksuid_decode("b00000000000000000000000000").status, KsuidStatus::too_large);
    EXPECT_EQ(ksuid_decode(std::string(27, 'z')).status, KsuidStatus::too_large);
    EXPECT_EQ(decoded_ok("aWgEPTl1tmebfsQzFP4bxwgy80V"), kKsuidMax);
    EXPECT_EQ(decoded_ok("aWgEPTl1tmebfsQzFP4bxwgy80U"), ksuid_prev(kKsuidMax));
    EXPECT_EQ(decoded_ok("aWgEPTl1tmebfsQzFP4bxwgy7zz").timestamp, 0xFFFFFFFFu);
}

// A new second takes the fresh payload; within it, the last + 1.
TEST(KsuidIssue, FreshPayloadPerSecondPlusOneWithin) {
    KsuidSequence seq{};
    KsuidIssue a = issue_ok(seq, 100, 5000);
    EXPECT_EQ(a.id, ksuid_make(100, 5000));
    EXPECT_FALSE(a.ran_ahead);
    EXPECT_FALSE(a.clock_regressed);
    KsuidIssue b = issue_ok(seq, 100, 1);
    EXPECT_EQ(b.id, ksuid_make(100, 5001));
    KsuidIssue c = issue_ok(seq, 101, 3);
    EXPECT_EQ(c.id, ksuid_make(101, 3));
    EXPECT_FALSE(ksuid_needs_random(seq, kKsuidNil, 101));
    EXPECT_TRUE(ksuid_needs_random(seq, kKsuidNil, 102));
    KsuidSequence fresh{};
    EXPECT_TRUE(ksuid_needs_random(fresh, kKsuidNil, 0));
}

// A full payload carries into the next second, which then runs ahead.
TEST(KsuidIssue, CarryRunsAhead) {
    KsuidSequence seq{};
    issue_ok(seq, 100, kUint128Max);
    KsuidIssue carried = issue_ok(seq, 100, 9);
    EXPECT_EQ(carried.id, ksuid_make(101, 0));
    EXPECT_TRUE(carried.ran_ahead);
    // The clock reaching 101 continues from there.
    EXPECT_EQ(issue_ok(seq, 101, 9).id, ksuid_make(101, 1));
}

// A clock set back keeps counting from the last ID, and says so.
TEST(KsuidIssue, ClockRegression) {
    KsuidSequence seq{};
    issue_ok(seq, 200, 10);
    KsuidIssue back = issue_ok(seq, 150, 99);
    EXPECT_EQ(back.id, ksuid_make(200, 11));
    EXPECT_TRUE(back.clock_regressed);
    EXPECT_TRUE(back.ran_ahead);
    KsuidIssue again = issue_ok(seq, 150, 99);
    EXPECT_FALSE(again.clock_regressed);
}

// The largest KSUID is the last: after it, exhaustion, and seq untouched.
TEST(KsuidIssue, Exhausted) {
    KsuidSequence seq{};
    EXPECT_EQ(issue_ok(seq, kKsuidMaxTimestamp, kUint128Max).id, kKsuidMax);
    KsuidIssue none = issue_at(seq, kKsuidMaxTimestamp, 1);
    EXPECT_EQ(none.step, IssueStep::exhausted);
    EXPECT_EQ(seq.last_issued, kKsuidMax);
}

// Server order: above another generator's last ID, in its second or later.
TEST(KsuidIssue, AboveAnotherGeneratorsLastId) {
    KsuidSequence seq{};
    KsuidIssue a = ksuid_issue(seq, 100, ksuid_make(100, 70), 0, kUnbounded, 3);
    EXPECT_EQ(a.id, ksuid_make(100, 71));
    KsuidIssue b = ksuid_issue(seq, 100, ksuid_make(102, 70), 0, kUnbounded, 3);
    EXPECT_EQ(b.id, ksuid_make(102, 71));
    EXPECT_TRUE(b.ran_ahead);
    KsuidIssue c = ksuid_issue(seq, 103, ksuid_make(102, 80), 0, kUnbounded, 3);
    EXPECT_EQ(c.id, ksuid_make(103, 3));
}

// A clock below the floor issues at the floor's second, fresh.
TEST(KsuidIssue, Floor) {
    KsuidSequence seq{};
    KsuidIssue a = ksuid_issue(seq, 100, kKsuidNil, 105, kUnbounded, 8);
    EXPECT_EQ(a.id, ksuid_make(105, 8));
    EXPECT_TRUE(a.ran_ahead);
    KsuidIssue b = ksuid_issue(seq, 100, kKsuidNil, 105, kUnbounded, 8);
    EXPECT_EQ(b.id, ksuid_make(105, 9));
    // A negative floor (an unset lease) is no floor.
    KsuidSequence other{};
    EXPECT_EQ(ksuid_issue(other, 100, kKsuidNil, -1400000000, kUnbounded, 8).id,
              ksuid_make(100, 8));
}

// Beyond the bound by up to one second: a wait, seq untouched; further
// (a clock set back past the bound): counting on.
TEST(KsuidIssue, LeadBound) {
    KsuidSequence seq{};
    issue_ok(seq, 100, kUint128Max);
    KsuidSequence before = seq;
    KsuidIssue wait = ksuid_issue(seq, 100, kKsuidNil, 0, 0, 4);  // carry to 101: lead 1 > 0
    EXPECT_EQ(wait.step, IssueStep::wait);
    EXPECT_EQ(wait.wait, 1);
    EXPECT_EQ(seq.last_issued, before.last_issued);
    EXPECT_EQ(ksuid_issue(seq, 100, kKsuidNil, 0, 1, 4).step, IssueStep::issue);
    KsuidSequence far{};
    issue_ok(far, 200, 1);
    EXPECT_EQ(ksuid_issue(far, 188, kKsuidNil, 0, 10, 4).step, IssueStep::issue);  // lead 12
    KsuidSequence near{};
    issue_ok(near, 200, 1);
    KsuidIssue w = ksuid_issue(near, 189, kKsuidNil, 0, 10, 4);  // lead 11
    EXPECT_EQ(w.step, IssueStep::wait);
    EXPECT_EQ(w.wait, kKsuidWaitWindowSeconds);
    // Within the clock's second the +1 never leaves it: no wait at bound 0.
    KsuidSequence same{};
    issue_ok(same, 300, 1);
    EXPECT_EQ(ksuid_issue(same, 300, kKsuidNil, 0, 0, 4).id, ksuid_make(300, 2));
}
