// UUIDv47 (core/uuidv47.hpp): the five façades of
// ../shared/data/uuidv47/facade.json (their SipHash message and mask48 too)
// both ways under the file's key bytes, every version and variant refused,
// round trips of random v7s keeping all but the version nibble, a wrong key
// never giving the v7 back, and the ULID mask's frozen outputs (computed by a
// separate implementation written from the header's description), its
// inverse and its independence from the façade under one key.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "core/uuidv47.hpp"
#include "random_values.hpp"
#include "shared_data.hpp"
#include "vector_answers.hpp"

using namespace idgen::core;
using idgen::test::bytes_of_hex;
using idgen::test::hex_of;

namespace {

// The 16 bytes of a UUID's text form (lowercase, with hyphens).
bool uuid_bytes(const std::string &text, std::uint8_t out[kUuidv47Bytes]) {
    std::string hex, bytes;
    for (char c : text)
        if (c != '-') hex += c;
    if (!bytes_of_hex(hex, bytes) || bytes.size() != kUuidv47Bytes) return false;
    std::memcpy(out, bytes.data(), kUuidv47Bytes);
    return true;
}

std::string uuid_text(const std::uint8_t uuid[kUuidv47Bytes]) {
    std::string hex = hex_of(uuid, kUuidv47Bytes);
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) +
           "-" + hex.substr(20);
}

SipKey key_of(std::uint8_t first) {
    std::uint8_t bytes[kSipKeyBytes];
    for (unsigned i = 0; i < kSipKeyBytes; ++i) bytes[i] = static_cast<std::uint8_t>(first + i);
    return sip_key(bytes);
}

// A UUIDv7 of random bits: version 7, variant 10.
void random_v7(idgen::test::SplitMix64 &rng, std::uint8_t out[kUuidv47Bytes]) {
    std::uint64_t hi = rng.next(), lo = rng.next();
    for (int i = 0; i < 8; ++i) {
        out[i] = static_cast<std::uint8_t>(hi >> (56 - 8 * i));
        out[8 + i] = static_cast<std::uint8_t>(lo >> (56 - 8 * i));
    }
    out[6] = static_cast<std::uint8_t>(0x70 | (out[6] & 0x0F));
    out[8] = static_cast<std::uint8_t>(0x80 | (out[8] & 0x3F));
}

std::uint64_t time48(const std::uint8_t uuid[kUuidv47Bytes]) {
    std::uint64_t t = 0;
    for (int i = 0; i < 6; ++i) t = (t << 8) | uuid[i];
    return t;
}

}  // namespace

TEST(Uuidv47, FacadeVectors) {
    IDGEN_SHARED_JSON(file, "uuidv47/facade.json");
    ASSERT_EQ(file.items.size(), 5u);
    for (const auto &v : file.items) {
        SCOPED_TRACE(v["name"].text);
        std::string key_bytes;
        ASSERT_TRUE(bytes_of_hex(v["key"]["key_bytes_hex"].text, key_bytes));
        ASSERT_EQ(key_bytes.size(), kSipKeyBytes);
        SipKey key = sip_key(reinterpret_cast<const std::uint8_t *>(key_bytes.data()));
        EXPECT_EQ(key.k0, std::stoull(v["key"]["k0"].text, nullptr, 16));
        EXPECT_EQ(key.k1, std::stoull(v["key"]["k1"].text, nullptr, 16));
        std::uint8_t v7[kUuidv47Bytes], facade[kUuidv47Bytes], out[kUuidv47Bytes];
        ASSERT_TRUE(uuid_bytes(v["v7"].text, v7));
        ASSERT_TRUE(uuid_bytes(v["facade"].text, facade));
        EXPECT_EQ(time48(v7), std::stoull(v["v7_unix_ts_ms"].text));
        EXPECT_EQ(uuidv47_mask48(key, v7), std::stoull(v["mask48_hex"].text, nullptr, 16));
        // The façade hashes the same message: the mask undoes itself.
        EXPECT_EQ(uuidv47_mask48(key, facade), uuidv47_mask48(key, v7));
        EXPECT_EQ(time48(facade), std::stoull(v["facade_ts_field_hex"].text, nullptr, 16));
        ASSERT_EQ(uuidv47_mask(key, v7, out), Uuidv47Status::ok);
        EXPECT_EQ(uuid_text(out), v["facade"].text);
        ASSERT_EQ(uuidv47_unmask(key, facade, out), Uuidv47Status::ok);
        EXPECT_EQ(uuid_text(out), v["v7"].text);
    }
}

// The message is the random field with the version and variant bits cleared
// (the vectors' sip_message_hex): changing one of its 74 bits changes the
// mask; the version and variant bits do not enter it.
TEST(Uuidv47, MessageIsTheRandomField) {
    IDGEN_SHARED_JSON(file, "uuidv47/facade.json");
    const auto &v = file.items.at(0);
    std::string key_bytes, message;
    ASSERT_TRUE(bytes_of_hex(v["key"]["key_bytes_hex"].text, key_bytes));
    ASSERT_TRUE(bytes_of_hex(v["sip_message_hex"].text, message));
    ASSERT_EQ(message.size(), kUuidv47MessageBytes);
    SipKey key = sip_key(reinterpret_cast<const std::uint8_t *>(key_bytes.data()));
    std::uint8_t v7[kUuidv47Bytes];
    ASSERT_TRUE(uuid_bytes(v["v7"].text, v7));
    EXPECT_EQ(siphash24(key, reinterpret_cast<const std::uint8_t *>(message.data()), message.size()) &
                  ((std::uint64_t{1} << 48) - 1),
              uuidv47_mask48(key, v7));
    const std::uint64_t mask = uuidv47_mask48(key, v7);
    int changed = 0;
    for (unsigned bit = 48; bit < 128; ++bit) {
        std::uint8_t flipped[kUuidv47Bytes];
        std::memcpy(flipped, v7, sizeof flipped);
        flipped[bit / 8] ^= static_cast<std::uint8_t>(0x80 >> (bit % 8));
        bool version_or_variant = (bit >= 48 && bit < 52) || bit == 64 || bit == 65;
        if (version_or_variant) {
            EXPECT_EQ(uuidv47_mask48(key, flipped), mask) << "bit " << bit;
        } else {
            changed += uuidv47_mask48(key, flipped) != mask;
        }
    }
    EXPECT_EQ(changed, 74);
    // The time bits are not hashed either.
    std::uint8_t other_time[kUuidv47Bytes];
    std::memcpy(other_time, v7, sizeof other_time);
    other_time[0] ^= 0xFF;
    EXPECT_EQ(uuidv47_mask48(key, other_time), mask);
}

TEST(Uuidv47, RefusesOtherVersionsAndVariants) {
    const SipKey key = key_of(0);
    idgen::test::SplitMix64 rng{47};
    std::uint8_t uuid[kUuidv47Bytes], out[kUuidv47Bytes];
    random_v7(rng, uuid);
    for (unsigned version = 0; version < 16; ++version) {
        uuid[6] = static_cast<std::uint8_t>((version << 4) | (uuid[6] & 0x0F));
        std::memset(out, 0xAA, sizeof out);
        Uuidv47Status mask = uuidv47_mask(key, uuid, out);
        EXPECT_EQ(mask, version == 7 ? Uuidv47Status::ok : Uuidv47Status::wrong_version) << version;
        if (mask != Uuidv47Status::ok) {
            for (std::uint8_t b : out) EXPECT_EQ(b, 0xAA) << "out is untouched";
        }
        EXPECT_EQ(uuidv47_unmask(key, uuid, out), version == 4 ? Uuidv47Status::ok : Uuidv47Status::wrong_version)
            << version;
    }
    for (unsigned version : {4u, 7u}) {
        uuid[6] = static_cast<std::uint8_t>((version << 4) | (uuid[6] & 0x0F));
        for (unsigned variant = 0; variant < 4; ++variant) {
            uuid[8] = static_cast<std::uint8_t>((variant << 6) | (uuid[8] & 0x3F));
            Uuidv47Status want = variant == 2 ? Uuidv47Status::ok : Uuidv47Status::wrong_variant;
            EXPECT_EQ(version == 7 ? uuidv47_mask(key, uuid, out) : uuidv47_unmask(key, uuid, out), want)
                << version << " " << variant;
        }
    }
}

// 1,000,000 random v7s: the façade is version 4 with everything but the time
// and the version nibble kept, and unmasks to the v7; a key one bit away
// never gives the v7's time back.
TEST(Uuidv47, RoundTripAndWrongKey) {
    idgen::test::SplitMix64 rng{4747};
    const SipKey key{rng.next(), rng.next()};
    int same_time = 0, wrong_key_hits = 0;
    for (int n = 0; n < 1000000; ++n) {
        std::uint8_t v7[kUuidv47Bytes], facade[kUuidv47Bytes], back[kUuidv47Bytes];
        random_v7(rng, v7);
        ASSERT_EQ(uuidv47_mask(key, v7, facade), Uuidv47Status::ok);
        ASSERT_EQ(uuid_version(facade), 4);
        ASSERT_TRUE(uuid_rfc_variant(facade));
        ASSERT_EQ(facade[6] & 0x0F, v7[6] & 0x0F);
        ASSERT_EQ(std::memcmp(facade + 7, v7 + 7, 9), 0);
        same_time += time48(facade) == time48(v7);
        ASSERT_EQ(uuidv47_unmask(key, facade, back), Uuidv47Status::ok);
        ASSERT_EQ(std::memcmp(back, v7, sizeof v7), 0);
        SipKey wrong = key;
        unsigned bit = static_cast<unsigned>(n % 128);
        (bit < 64 ? wrong.k0 : wrong.k1) ^= std::uint64_t{1} << (bit % 64);
        ASSERT_EQ(uuidv47_unmask(wrong, facade, back), Uuidv47Status::ok);
        wrong_key_hits += std::memcmp(back, v7, sizeof v7) == 0;
    }
    EXPECT_EQ(same_time, 0);
    EXPECT_EQ(wrong_key_hits, 0);
}

// These masked ULIDs are public IDs somewhere: they never change. Computed
// under the key 00 01 .. 0f by a separate implementation of the header's
// description (and of SipHash, checked against siphash24.json).
TEST(UlidMask, FrozenOutputs) {
    const SipKey key = key_of(0);
    struct Case {
        const char *ulid, *masked;
    };
    const Case cases[] = {
        {"00000000000000000000000000000000", "400f2f378dbd00000000000000000000"},
        {"01890a5d8a4e7f3c2b1a09f8e7d6c5b4", "3a055f9e505f7f3c2b1a09f8e7d6c5b4"},
        {"7fffffffffffffffffffffffffffffff", "dd4e202abf78ffffffffffffffffffff"},
        {"ffffffffffffffffffffffffffffffff", "5d4e202abf78ffffffffffffffffffff"},
        {"0193f1a2b3c4d5e6f708192a3b4c5d6e", "75a11a702e7bd5e6f708192a3b4c5d6e"},
    };
    for (const Case &c : cases) {
        std::string in;
        ASSERT_TRUE(bytes_of_hex(c.ulid, in));
        std::uint8_t out[kUuidv47Bytes], back[kUuidv47Bytes];
        ulid_mask(key, reinterpret_cast<const std::uint8_t *>(in.data()), out);
        EXPECT_EQ(hex_of(out, sizeof out), c.masked);
        ulid_mask(key, out, back);
        EXPECT_EQ(hex_of(back, sizeof back), c.ulid);
    }
}

// 1,000,000 random ULIDs: the mask keeps the 80 random bits, moves the time,
// is its own inverse (also in place); a key one bit away never unmasks; the
// ULID mask and the façade of the same bits under one key differ.
TEST(UlidMask, RoundTripWrongKeyAndSeparation) {
    idgen::test::SplitMix64 rng{1128};
    const SipKey key{rng.next(), rng.next()};
    int same_time = 0, wrong_key_hits = 0, same_as_facade = 0;
    for (int n = 0; n < 1000000; ++n) {
        std::uint8_t ulid[kUuidv47Bytes], masked[kUuidv47Bytes], back[kUuidv47Bytes];
        random_v7(rng, ulid);
        ulid_mask(key, ulid, masked);
        ASSERT_EQ(std::memcmp(masked + 6, ulid + 6, 10), 0);
        same_time += time48(masked) == time48(ulid);
        std::memcpy(back, masked, sizeof back);
        ulid_mask(key, back, back);
        ASSERT_EQ(std::memcmp(back, ulid, sizeof ulid), 0);
        SipKey wrong = key;
        (n % 2 ? wrong.k0 : wrong.k1) ^= std::uint64_t{1} << (n % 64);
        ulid_mask(wrong, masked, back);
        wrong_key_hits += std::memcmp(back, ulid, sizeof ulid) == 0;
        std::uint8_t facade[kUuidv47Bytes];
        ASSERT_EQ(uuidv47_mask(key, ulid, facade), Uuidv47Status::ok);
        same_as_facade += std::memcmp(facade, masked, 6) == 0;
    }
    EXPECT_EQ(same_time, 0);
    EXPECT_EQ(wrong_key_hits, 0);
    EXPECT_EQ(same_as_facade, 0);
}
