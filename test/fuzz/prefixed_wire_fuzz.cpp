// The binary form of prefixed_id and the token layout (core/prefixed.hpp), as
// prefixed_id_recv, prefixed_id_send and prefixed_id_new use them.
//
// The whole input is a binary field for prefixed_wire_decode, judged against
// the framing spelled out here: no byte is empty; a first byte L outside 1..63
// is a bad length byte; a size other than 1 + L + 16 is a short field or
// trailing bytes; then the L prefix bytes must pass the prefix rule; anything
// else decodes to views into the field, and encodes back to exactly the same
// bytes, while one byte less or more is refused. The input's bytes are also a
// valid prefix and a payload, encoded then decoded back; and 16 bytes given
// the token layout, which must read as a version 4 UUID, never as a UUIDv7,
// with the other 122 bits kept.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/prefixed.hpp"
#include "core/uuidv7.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::size_t kPayload = 16;

bool valid_prefix(std::string_view prefix) {
    if (prefix.empty() || prefix.size() > 63) return false;
    for (char c : prefix)
        if (!((c >= 'a' && c <= 'z') || c == '_')) return false;
    return prefix.front() != '_' && prefix.back() != '_';
}

void check_decode(const std::uint8_t *data, std::size_t size) {
    PrefixedWire got = prefixed_wire_decode(size == 0 ? nullptr : data, size);
    if (size == 0) {
        FUZZ_CHECK(got.status == WireStatus::empty);
        return;
    }
    std::size_t length = data[0];
    FUZZ_CHECK(got.length_byte == length);
    if (length == 0 || length > 63) {
        FUZZ_CHECK(got.status == WireStatus::bad_length_byte);
        return;
    }
    std::size_t framed = 1 + length + kPayload;
    FUZZ_CHECK(got.expected_size == framed);
    if (size != framed) {
        FUZZ_CHECK(got.status ==
                   (size < framed ? WireStatus::short_field : WireStatus::trailing_bytes));
        return;
    }
    std::string_view prefix(reinterpret_cast<const char *>(data + 1), length);
    if (!valid_prefix(prefix)) {
        FUZZ_CHECK(got.status == WireStatus::bad_prefix);
        FUZZ_CHECK(got.prefix_check.status != PrefixStatus::ok);
        PrefixCheck direct = prefix_check(prefix);
        FUZZ_CHECK(got.prefix_check.status == direct.status &&
                   got.prefix_check.position == direct.position);
        return;
    }
    FUZZ_CHECK(got.status == WireStatus::ok);
    FUZZ_CHECK(got.prefix.data() == prefix.data() && got.prefix.size() == length);
    FUZZ_CHECK(got.payload == data + 1 + length);

    // Decode then encode: the same bytes; the format has one spelling.
    std::uint8_t out[kPrefixedWireMaxBytes];
    FUZZ_CHECK(prefixed_wire_encode(got.prefix, got.payload, out) == size);
    FUZZ_CHECK(std::memcmp(out, data, size) == 0);

    // One byte short or long never frames.
    FUZZ_CHECK(prefixed_wire_decode(data, size - 1).status == WireStatus::short_field);
    std::uint8_t longer[kPrefixedWireMaxBytes + 1];
    std::memcpy(longer, data, size);
    longer[size] = data[size - 1];
    FUZZ_CHECK(prefixed_wire_decode(longer, size + 1).status == WireStatus::trailing_bytes);
}

void check_encode(Input &input) {
    std::uint8_t payload[kPayload];
    for (auto &b : payload) b = input.byte();
    std::size_t want = 1 + input.byte() % 64;  // 1..64: 64 is one too long
    std::string prefix;
    while (prefix.size() < want) {
        std::uint8_t b = input.byte() % 27;
        prefix += b == 26 ? '_' : static_cast<char>('a' + b);
    }
    if (prefix.front() == '_') prefix.front() = 'a';
    if (prefix.back() == '_') prefix.back() = 'z';

    std::uint8_t out[kPrefixedWireMaxBytes + 1];
    std::memset(out, 0xA5, sizeof out);
    std::size_t size = prefixed_wire_encode(prefix, payload, out);
    if (prefix.size() > kPrefixMaxLength) {
        // Refused, and nothing written.
        FUZZ_CHECK(size == 0);
        for (std::uint8_t b : out) FUZZ_CHECK(b == 0xA5);
        FUZZ_CHECK(prefixed_wire_encode(std::string_view(), payload, out) == 0);
        return;
    }
    FUZZ_CHECK(size == 1 + prefix.size() + kPayload);
    FUZZ_CHECK(out[size] == 0xA5);  // nothing past the end
    PrefixedWire back = prefixed_wire_decode(out, size);
    FUZZ_CHECK(back.status == WireStatus::ok && back.prefix == prefix);
    FUZZ_CHECK(std::memcmp(back.payload, payload, kPayload) == 0);
}

void check_token(Input &input) {
    std::uint8_t bits[kPayload], before[kPayload];
    for (auto &b : bits) b = input.byte();
    std::memcpy(before, bits, kPayload);
    prefixed_token_layout(bits);
    FUZZ_CHECK((bits[6] >> 4) == 4 && (bits[8] >> 6) == 2);
    for (std::size_t i = 0; i < kPayload; ++i) {
        std::uint8_t kept = i == 6 ? 0x0F : i == 8 ? 0x3F : 0xFF;
        FUZZ_CHECK((bits[i] & kept) == (before[i] & kept));
    }
    FUZZ_CHECK(!uuidv7_unix_ms(bits).has_value());
    std::uint8_t again[kPayload];
    std::memcpy(again, bits, kPayload);
    prefixed_token_layout(again);
    FUZZ_CHECK(std::memcmp(again, bits, kPayload) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    check_decode(data, size);
    Input input{data, size};
    check_token(input);
    Input again{data, size};
    check_encode(again);
    return 0;
}
