// Base36 text (digits 0-9 then a-z) of 128-bit and 64-bit values, for
// prefixed IDs and for IDs in URLs. 128-bit values are always 25 digits,
// zero-padded, so that text order equals numeric order; the largest is
// f5lxx1zz5pnorynqglhzmsp33 (2^128 - 1). 64-bit values have no padding.
// Decoding reads both cases.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/uint128.hpp"

namespace idgen::core {

inline constexpr std::size_t kBase36Digits128 = 25;
inline constexpr std::size_t kBase36MaxDigits64 = 13;  // 2^64 - 1 is 3w5e11264sgsf

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

}  // namespace idgen::core
