// MongoDB's ObjectId (the BSON ObjectId specification, bson-objectid/objectid.md):
// 12 bytes, most significant first. Text is 24 hexadecimal digits, written in
// lowercase and read in either case. Pure C++17.
//
//   0                   1                   2                   3
//   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |               32-bit unsigned Unix seconds (to 2106)          |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |              5-byte random value, one per process ...          |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |  ... process  |         24-bit counter, random start          |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/second_counter.hpp"

namespace idgen::core {

inline constexpr std::size_t kObjectIdBytes = kId96Bytes;
inline constexpr std::size_t kObjectIdTextLength = 24;
inline constexpr std::size_t kObjectIdProcessOffset = 4;
inline constexpr std::size_t kObjectIdProcessBytes = 5;

// Why text is not an ObjectId. A character outside 0-9, a-f, A-F is reported
// before a wrong length, at its byte offset.
enum class ObjectIdStatus { ok, wrong_length, bad_character };

struct ObjectIdDecoded {
    ObjectIdStatus status;
    std::size_t position;  // with bad_character: the byte offset of the first one
};

// Reads 24 hex digits of either case into out (written only when ok).
ObjectIdDecoded objectid_decode(std::string_view text, std::uint8_t out[kObjectIdBytes]) noexcept;

// Writes the 24 lowercase hex digits of id (no terminator).
void objectid_encode(const std::uint8_t id[kObjectIdBytes], char out[kObjectIdTextLength]) noexcept;

// The ObjectId of seconds, a 5-byte process value and the low 24 bits of counter.
void objectid_make(std::uint32_t seconds, const std::uint8_t process[kObjectIdProcessBytes],
                   std::uint32_t counter, std::uint8_t out[kObjectIdBytes]) noexcept;

// createFromTime(seconds): the seconds, then 8 zero bytes; the smallest
// ObjectId of that second, for range predicates and partition bounds.
void objectid_boundary(std::uint32_t seconds, std::uint8_t out[kObjectIdBytes]) noexcept;

}  // namespace idgen::core
