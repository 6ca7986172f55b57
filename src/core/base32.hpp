// Crockford base32 text of 128-bit values, as ULIDs are written
// (github.com/ulid/spec, "Encoding"): 26 digits from the alphabet
// 0123456789ABCDEFGHJKMNPQRSTVWXYZ, most significant first. 26 digits hold
// 130 bits, so the first digit carries only 3 and is at most '7'.
//
// Decoding is strict: both cases of the 32 digits are read, and nothing else.
// I, L, O and U are rejected rather than read as 1, 1, 0 (Crockford's
// aliases), so every value has exactly one spelling up to case. The lowercase
// mode is TypeID's suffix (jetify-com/typeid spec v0.3.0): the same digits in
// lowercase only, so every value has exactly one spelling.
#pragma once

#include <cstddef>
#include <string_view>

#include "core/uint128.hpp"

namespace idgen::core {

inline constexpr std::size_t kBase32Digits128 = 26;
inline constexpr char kBase32Alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
inline constexpr char kBase32LowerAlphabet[] = "0123456789abcdefghjkmnpqrstvwxyz";

// Which spellings of a digit are read (upper or lower) and written (upper
// for ulid, lower for TypeID).
enum class Base32Case { either, lower };

enum class Base32Status { ok, wrong_length, bad_digit, too_large };

struct Base32Decoded {
    Base32Status status;
    std::size_t position;  // of the offending character for bad_digit and too_large
    Uint128 value;         // valid when status == ok
};

// Writes the 26 digits of value (no terminator): uppercase, or lowercase
// for Base32Case::lower.
void base32_encode128(Uint128 value, char out[kBase32Digits128],
                      Base32Case letters = Base32Case::either) noexcept;

// Reads exactly 26 digits, either case (Base32Case::either) or lowercase
// only (Base32Case::lower, where an uppercase letter is a bad digit); the
// first must be 0-7. A character outside the alphabet is reported before a
// wrong length, so that a length is only ever reported for text made of
// digits (where bytes are characters).
Base32Decoded base32_decode128(std::string_view text,
                               Base32Case letters = Base32Case::either) noexcept;

}  // namespace idgen::core
