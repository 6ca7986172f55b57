// CUID2 (github.com/paralleldrive/cuid2, src/index.js of v3.0.6, commit
// 21a0e27): a random letter a-z, then base36 of the SHA3-512 digest of
//   time (Unix ms in base36) + salt (length random base36 digits)
//   + counter (base36) + fingerprint (32 base36 characters),
// the digest read as a big-endian number, written with no padding. The
// reference's hash() drops that text's first character ("it will bias the
// histogram"), and createId keeps hash(...).substring(1, length): of the
// digest's full base36 text, characters 2 to length + 1, after the letter,
// length characters in all. Length 2 to 32, by default 24. Pure C++17: the
// time, counter, salt, fingerprint and random bytes are passed in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/base36.hpp"

namespace idgen::core {

inline constexpr std::size_t kCuid2DefaultLength = 24;  // defaultLength
inline constexpr std::size_t kCuid2MinLength = 2;
inline constexpr std::size_t kCuid2MaxLength = 32;  // bigLength
// createFingerprint's hash(...).substring(0, bigLength).
inline constexpr std::size_t kCuid2FingerprintLength = 32;
// createFingerprint's createEntropy(bigLength): the random part of its source.
inline constexpr std::size_t kCuid2FingerprintEntropy = 32;
// The counter starts at floor(random() * initialCountMax).
inline constexpr std::uint32_t kCuid2InitialCountMax = 476782367;

// The per-process inputs: the reference keeps one counter and one
// fingerprint per process (init() runs once, lazily).
struct Cuid2Parts {
    std::int64_t unix_ms;          // Date.now(); negative is read as 0
    std::uint64_t counter;         // counter(): the value before the increment
    std::string_view salt;         // createEntropy(length): length base36 digits
    std::string_view fingerprint;  // 32 characters from cuid2_fingerprint
    char first_letter;             // randomLetter(): a-z
};

// Maps random bytes to characters, each uniform over base36's digits
// (0-9a-z) or, when letters, over a-z: a byte is used when it is below the
// largest multiple of the radix up to 256 (252, 234), as its remainder, and
// skipped otherwise. Appends at out + *written until *written reaches want
// or the bytes run out; returns the bytes read.
std::size_t cuid2_draw(const std::uint8_t *random, std::size_t random_len, bool letters, char *out,
                       std::size_t want, std::size_t *written) noexcept;

// The digest's full base36 text of hash input, before the reference's drops;
// returns its length (at most 100).
std::size_t cuid2_hash_text(std::string_view input, char out[kBase36MaxDigits512]) noexcept;

// createFingerprint: hash(source).substring(0, 32), where source is host
// data followed by 32 random base36 digits; returns the length (32 unless the
// digest's text is improbably short).
std::size_t cuid2_fingerprint(std::string_view source, char out[kCuid2FingerprintLength]) noexcept;

// One CUID2 of length characters (2 to 32) from its parts: writes it and
// returns its length, which is length unless the digest's base36 text has
// fewer than length + 1 digits (probability below 2^-330; the reference
// returns the shorter ID then too), or 0 for a length out of range or a
// salt or fingerprint longer than 32.
std::size_t cuid2_make(const Cuid2Parts &parts, std::size_t length, char out[kCuid2MaxLength]) noexcept;

// isCuid: min_length <= length <= max_length and /^[a-z][0-9a-z]+$/ (so never
// fewer than 2 characters).
bool cuid2_valid(std::string_view text, std::size_t min_length = kCuid2MinLength,
                 std::size_t max_length = kCuid2MaxLength) noexcept;

}  // namespace idgen::core
