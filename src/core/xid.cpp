#include "core/xid.hpp"

namespace idgen::core {
namespace {

// The value of a base32hex digit (lowercase only), or -1.
constexpr int digit_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'v') return c - 'a' + 10;
    return -1;
}

// The 4 bits after the 96 that the last character carries.
constexpr int kPaddingBits = 4;

}  // namespace

XidDecoded xid_decode(std::string_view text, std::uint8_t out[kXidBytes]) noexcept {
    for (std::size_t i = 0; i < text.size(); ++i)
        if (digit_value(text[i]) < 0) return {XidStatus::bad_character, i};
    if (text.size() != kXidTextLength) return {XidStatus::wrong_length, 0};
    if ((digit_value(text[kXidTextLength - 1]) & ((1 << kPaddingBits) - 1)) != 0)
        return {XidStatus::bad_last_character, kXidTextLength - 1};
    std::uint32_t buffer = 0;
    int bits = 0;
    std::size_t written = 0;
    for (char c : text) {
        buffer = (buffer << 5) | static_cast<std::uint32_t>(digit_value(c));
        bits += 5;
        if (bits >= 8 && written < kXidBytes) {
            bits -= 8;
            out[written++] = static_cast<std::uint8_t>(buffer >> bits);
        }
        buffer &= (std::uint32_t{1} << bits) - 1;
    }
    return {XidStatus::ok, 0};
}

void xid_encode(const std::uint8_t id[kXidBytes], char out[kXidTextLength]) noexcept {
    std::uint32_t buffer = 0;
    int bits = 0;
    std::size_t written = 0;
    for (std::size_t i = 0; i < kXidBytes; ++i) {
        buffer = (buffer << 8) | id[i];
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            out[written++] = kXidAlphabet[(buffer >> bits) & 0x1F];
        }
        buffer &= (std::uint32_t{1} << bits) - 1;
    }
    // 96 = 19 * 5 + 1: one bit is left, followed by the 4 zero bits.
    out[written] = kXidAlphabet[(buffer << kPaddingBits) & 0x1F];
}

void xid_make(std::uint32_t seconds, const std::uint8_t process[kXidProcessBytes],
              std::uint32_t counter, std::uint8_t out[kXidBytes]) noexcept {
    store_be32(seconds, out);
    for (std::size_t i = 0; i < kXidProcessBytes; ++i) out[kXidMachineOffset + i] = process[i];
    store_be24(counter & kId96CounterMask, out + kXidMachineOffset + kXidProcessBytes);
}

void xid_boundary(std::uint32_t seconds, std::uint8_t out[kXidBytes]) noexcept {
    constexpr std::uint8_t kZeroProcess[kXidProcessBytes] = {};
    xid_make(seconds, kZeroProcess, 0, out);
}

}  // namespace idgen::core
