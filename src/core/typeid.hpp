// TypeID text (jetify-com/typeid, spec v0.3.0): "<prefix>_<suffix>", or the
// suffix alone when the prefix is empty. The prefix follows prefixed_id's
// rules (core/prefixed.hpp); the suffix is the 128 bits as 26 lowercase
// Crockford base32 digits (core/base32.hpp, Base32Case::lower), which is the
// ULID text of the same 16 bytes in lowercase. The text splits on its last
// underscore.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/base32.hpp"
#include "core/prefixed.hpp"

namespace idgen::core {

// The longest TypeID: a 63-character prefix, "_" and 26 digits.
inline constexpr std::size_t kTypeidMaxChars = kPrefixMaxLength + 1 + kBase32Digits128;

enum class TypeidStatus {
    ok,
    empty_prefix_with_separator,  // "_" with nothing before it
    bad_prefix,                   // see prefix_check
    bad_suffix,                   // see suffix
    missing_separator,            // no "_", and longer than a suffix alone
    prefixed_id_text,             // "_" then 25 base36 digits: a prefixed_id's text
};

struct TypeidParsed {
    TypeidStatus status;
    std::string_view prefix;  // empty when the text has no "_"
    std::string_view suffix;  // the text after the last "_"
    PrefixCheck prefix_check; // for bad_prefix
    Base32Decoded suffix_decoded;  // for bad_suffix, and the value when ok
};

// Parses TypeID text strictly: prefix first, then the suffix.
TypeidParsed typeid_parse(std::string_view text) noexcept;

// Writes the TypeID text of prefix and payload (no terminator) and returns
// its length; 0 (nothing written) when the prefix is longer than 63.
std::size_t typeid_encode(std::string_view prefix, const std::uint8_t payload[kPrefixedPayloadBytes],
                          char out[kTypeidMaxChars]) noexcept;

}  // namespace idgen::core
