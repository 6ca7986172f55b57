// Short text forms of a 128-bit value (a uuid or a ulid), for URLs: the
// forms uuid_encode() and uuid_decode() name.
//
//   base62     0-9A-Za-z (ASCII order), as KSUID and Timeflake write it
//   base58     Bitcoin's alphabet (ASCII order; no 0, I, O or l)
//   flickr     Flickr's base58: the same 58 characters, lowercase before
//              uppercase (not ASCII order)
//   base57     shortuuid's alphabet (github.com/skorokithakis/shortuuid,
//              shortuuid/main.py): 2-9A-Za-z without I, O and l (ASCII order)
//   base64url  RFC 4648 §5 over the 16 bytes, without '=' padding, as
//              PostgreSQL 19's encode(..., 'base64url') writes it
//   base32     Crockford base32, the 26 characters of ULID text (core/base32)
//
// The positional forms (base62, base58, flickr, base57) write the value as one
// number, most significant digit first, left-padded with the alphabet's first
// character to 22 digits, the fewest that hold 2^128 - 1 in each of them
// (shortuuid's ceil(log57(2^128)) = 22). Where the alphabet is in ASCII order
// (all but flickr and base64url), text order under C collation is value order.
//
// Decoding is strict: exactly the form's length, only its alphabet (base32 in
// either case, as ulid input reads it; every other form is case-sensitive), no
// value above 2^128 - 1, and for base64url a last character whose 4 unused
// low bits are zero, so every value has exactly one spelling. shortuuid's own
// decode also reads shorter text (as the same number with leading zeros): here
// that is a wrong length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/uint128.hpp"
#include "core/words.hpp"

namespace idgen::core {

enum class ShortTextForm : std::uint8_t { base62, base58, flickr, base57, base64url, base32 };
inline constexpr std::size_t kShortTextFormCount = 6;

inline constexpr char kBase58Alphabet[] =
    "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
inline constexpr char kFlickrAlphabet[] =
    "123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
inline constexpr char kBase57Alphabet[] =
    "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
inline constexpr char kBase64UrlAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// 22 characters for every form but base32 (26).
inline constexpr std::size_t kShortTextLength = 22;
inline constexpr std::size_t kShortTextMaxLength = 26;

// The forms in the order above, by the names SQL uses.
inline constexpr const char *kShortTextFormNames[kShortTextFormCount] = {
    "base62", "base58", "flickr", "base57", "base64url", "base32"};

inline constexpr const char *short_text_form_name(ShortTextForm form) noexcept {
    return kShortTextFormNames[static_cast<std::size_t>(form)];
}

// The form of a name, in either case (as encode() and decode() read theirs).
std::optional<ShortTextForm> short_text_form_named(std::string_view name) noexcept;

// The form's alphabet (base32: Crockford's, uppercase) and text length.
const char *short_text_alphabet(ShortTextForm form) noexcept;
std::size_t short_text_length(ShortTextForm form) noexcept;

// Writes the form's text of value (no terminator); returns its length.
std::size_t short_text_encode(ShortTextForm form, Uint128 value,
                              char out[kShortTextMaxLength]) noexcept;

// bad_character: a byte outside the alphabet (reported first, so that a length
// is only reported for text made of the alphabet, where bytes are characters);
// wrong_length; too_large: above 2^128 - 1 (base32: a first digit above 7);
// trailing_bits: a base64url last character with unused bits set.
enum class ShortTextStatus { ok, bad_character, wrong_length, too_large, trailing_bits };

struct ShortTextDecoded {
    ShortTextStatus status;
    std::size_t position;  // of the offending byte for bad_character and trailing_bits
    Uint128 value;         // valid when status == ok
};

ShortTextDecoded short_text_decode(ShortTextForm form, std::string_view text) noexcept;

}  // namespace idgen::core
