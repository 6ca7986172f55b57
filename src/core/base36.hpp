// Base36 text (digits 0-9 then a-z) of 128-bit and 64-bit values, for
// prefixed IDs and for IDs in URLs. 128-bit values are always 25 digits,
// zero-padded, so that text order equals numeric order; the largest is
// f5lxx1zz5pnorynqglhzmsp33 (2^128 - 1). 64-bit values have no padding.
// Decoding reads both cases. 512-bit values (CUID2's SHA3-512 digests, read
// as big-endian numbers) are encoded only, with no padding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/uint128.hpp"

namespace idgen::core {

inline constexpr std::size_t kBase36Digits128 = 25;
inline constexpr std::size_t kBase36MaxDigits64 = 13;  // 2^64 - 1 is 3w5e11264sgsf
inline constexpr std::size_t kBase36MaxDigits512 = 100;  // 36^99 < 2^512 - 1 < 36^100

enum class Base36Status { ok, wrong_length, bad_digit, too_large };

template <typename Value>
struct Base36Decoded {
    Base36Status status;
    std::size_t position;  // of the offending character for bad_digit
    Value value;           // valid when status == ok
};

// Writes the 25 lowercase digits of value (no terminator).
void base36_encode128(Uint128 value, char out[kBase36Digits128]) noexcept;

// Reads exactly 25 digits, either case, at most 2^128 - 1. A character outside
// the alphabet is reported before a wrong length.
Base36Decoded<Uint128> base36_decode128(std::string_view text) noexcept;

// Writes the shortest lowercase digits of value ("0" for 0), returns how many.
std::size_t base36_encode64(std::uint64_t value, char out[kBase36MaxDigits64]) noexcept;

// Reads 1 to 13 digits, either case, at most max.
Base36Decoded<std::uint64_t> base36_decode64(std::string_view text, std::uint64_t max) noexcept;

// Writes the shortest lowercase digits of the 64-byte big-endian number
// value ("0" for 0), as JavaScript's BigInt or bignumber.js toString(36)
// writes them; returns how many.
std::size_t base36_encode512(const std::uint8_t value[64], char out[kBase36MaxDigits512]) noexcept;

// The most leading digits base36_leading512 writes: CUID2's longest ID reads
// 33 of the digest's text (cuid2.hpp).
inline constexpr std::size_t kBase36MaxLeading512 = 33;

// The first count digits (count at most 33) of base36_encode512's text of
// value, or all of them when the text is shorter; returns the full text's
// length. A fraction of base36_encode512's cost: only the top digits are
// worked out.
std::size_t base36_leading512(const std::uint8_t value[64], std::size_t count,
                              char out[kBase36MaxLeading512]) noexcept;

}  // namespace idgen::core
