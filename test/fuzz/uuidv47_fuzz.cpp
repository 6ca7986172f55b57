// UUIDv47's mask and unmask (core/uuidv47.hpp), as uuid_v7_mask() and
// uuid_v7_unmask() use them, and the ULID mask. The input is a 16-byte key
// then a 16-byte UUID. Each verdict is judged against the rule written a
// second way (the version as the 13th hex digit, the variant as the 17th):
// mask takes exactly version 7 with variant 10, unmask exactly version 4 with
// variant 10, and a variant other than 10 is reported before the version. An accepted value keeps its 74 random bits, gets the other
// version, has its time XORed with SipHash of a message assembled here from
// a 128-bit integer, and comes back exactly from the other direction; the
// ULID mask keeps the 80 random bits and is its own inverse.
#include <cstdint>
#include <cstring>

#include "core/uuidv47.hpp"
#include "fuzz.hpp"

using namespace idgen::core;

namespace {

constexpr char kHex[] = "0123456789abcdef";

Uint128 load(const std::uint8_t b[16]) {
    Uint128 v = 0;
    for (int i = 0; i < 16; ++i) v = (v << 8) | b[i];
    return v;
}

// The message of the random field: the 128-bit value with its time, version
// and variant cleared, as 10 bytes from bit 79 down.
std::uint64_t expected_mask48(const SipKey &key, Uint128 v) {
    Uint128 random = v & ~((~Uint128{0}) << 80);
    random &= ~(Uint128{0xF} << 76);  // the version nibble
    random &= ~(Uint128{0x3} << 62);  // the variant bits
    std::uint8_t message[10];
    for (int i = 0; i < 10; ++i) message[i] = static_cast<std::uint8_t>(random >> (72 - 8 * i));
    return siphash24(key, message, sizeof message) & ((std::uint64_t{1} << 48) - 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    std::uint8_t key_bytes[kSipKeyBytes] = {}, uuid[16] = {};
    std::memcpy(key_bytes, data, size < 16 ? size : 16);
    if (size > 16) std::memcpy(uuid, data + 16, size - 16 < 16 ? size - 16 : 16);
    const SipKey key = sip_key(key_bytes);
    const char version_digit = kHex[uuid[6] >> 4];
    const char variant_digit = kHex[uuid[8] >> 4];
    const bool rfc_variant = std::strchr("89ab", variant_digit) != nullptr;
    const Uint128 value = load(uuid);

    std::uint8_t out[16], back[16];
    std::memset(out, 0x5A, sizeof out);
    Uuidv47Status mask = uuidv47_mask(key, uuid, out);
    if (!rfc_variant) {
        FUZZ_CHECK(mask == Uuidv47Status::wrong_variant);
    } else if (version_digit != '7') {
        FUZZ_CHECK(mask == Uuidv47Status::wrong_version);
    } else {
        FUZZ_CHECK(mask == Uuidv47Status::ok);
    }
    if (mask == Uuidv47Status::ok) {
        Uint128 facade = load(out);
        FUZZ_CHECK(kHex[out[6] >> 4] == '4');
        FUZZ_CHECK(((facade ^ value) >> 80) == expected_mask48(key, value));
        FUZZ_CHECK(((facade ^ value) & ~((~Uint128{0}) << 80)) == (Uint128{7 ^ 4} << 76));
        FUZZ_CHECK(uuidv47_unmask(key, out, back) == Uuidv47Status::ok);
        FUZZ_CHECK(std::memcmp(back, uuid, 16) == 0);
    } else {
        for (std::uint8_t b : out) FUZZ_CHECK(b == 0x5A);
    }

    std::memset(out, 0x5A, sizeof out);
    Uuidv47Status unmask = uuidv47_unmask(key, uuid, out);
    if (!rfc_variant) {
        FUZZ_CHECK(unmask == Uuidv47Status::wrong_variant);
    } else if (version_digit != '4') {
        FUZZ_CHECK(unmask == Uuidv47Status::wrong_version);
    } else {
        FUZZ_CHECK(unmask == Uuidv47Status::ok);
    }
    if (unmask == Uuidv47Status::ok) {
        Uint128 v7 = load(out);
        FUZZ_CHECK(kHex[out[6] >> 4] == '7');
        FUZZ_CHECK(((v7 ^ value) >> 80) == expected_mask48(key, value));
        FUZZ_CHECK(uuidv47_mask(key, out, back) == Uuidv47Status::ok);
        FUZZ_CHECK(std::memcmp(back, uuid, 16) == 0);
    } else {
        for (std::uint8_t b : out) FUZZ_CHECK(b == 0x5A);
    }

    ulid_mask(key, uuid, out);
    FUZZ_CHECK(std::memcmp(out + 6, uuid + 6, 10) == 0);
    ulid_mask(key, out, back);
    FUZZ_CHECK(std::memcmp(back, uuid, 16) == 0);
    return 0;
}
