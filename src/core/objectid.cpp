#include "core/objectid.hpp"

namespace idgen::core {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// The value of a hex digit of either case, or -1.
constexpr int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

ObjectIdDecoded objectid_decode(std::string_view text, std::uint8_t out[kObjectIdBytes]) noexcept {
    for (std::size_t i = 0; i < text.size(); ++i)
        if (hex_value(text[i]) < 0) return {ObjectIdStatus::bad_character, i};
    if (text.size() != kObjectIdTextLength) return {ObjectIdStatus::wrong_length, 0};
    for (std::size_t i = 0; i < kObjectIdBytes; ++i)
        out[i] = static_cast<std::uint8_t>(hex_value(text[2 * i]) << 4 | hex_value(text[2 * i + 1]));
    return {ObjectIdStatus::ok, 0};
}

void objectid_encode(const std::uint8_t id[kObjectIdBytes], char out[kObjectIdTextLength]) noexcept {
    for (std::size_t i = 0; i < kObjectIdBytes; ++i) {
        out[2 * i] = kHexDigits[id[i] >> 4];
        out[2 * i + 1] = kHexDigits[id[i] & 0xF];
    }
}

void objectid_make(std::uint32_t seconds, const std::uint8_t process[kObjectIdProcessBytes],
                   std::uint32_t counter, std::uint8_t out[kObjectIdBytes]) noexcept {
    store_be32(seconds, out);
    for (std::size_t i = 0; i < kObjectIdProcessBytes; ++i)
        out[kObjectIdProcessOffset + i] = process[i];
    store_be24(counter & kId96CounterMask, out + kObjectIdProcessOffset + kObjectIdProcessBytes);
}

void objectid_boundary(std::uint32_t seconds, std::uint8_t out[kObjectIdBytes]) noexcept {
    constexpr std::uint8_t kZeroProcess[kObjectIdProcessBytes] = {};
    objectid_make(seconds, kZeroProcess, 0, out);
}

}  // namespace idgen::core
