// NanoID (github.com/ai/nanoid): size characters drawn uniformly and
// independently from an alphabet, by default 21 from the URL-safe 64
// characters below. Each character takes random bytes until one is accepted:
// a byte masked to the smallest 2^k - 1 at or above count - 1, accepted when
// the masked value is below count, so that every character is equally likely
// (never byte % count, which favours the first 256 % count characters). Pure
// C++17: the random bytes are passed in.
//
// A character of an alphabet is a byte string of 1 to 4 bytes, as the caller
// splits the alphabet (the glue: characters of the database encoding, so
// multibyte characters are allowed). The alphabet holds 2 to 256 distinct
// characters, none of them a prefix of another (true of every PostgreSQL
// server encoding, where a character's lead bytes give its length).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace idgen::core {

inline constexpr char kNanoidDefaultAlphabet[] =
    "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict";
inline constexpr std::size_t kNanoidDefaultSize = 21;
inline constexpr std::size_t kNanoidMinSize = 1;
inline constexpr std::size_t kNanoidMaxSize = 1024;
inline constexpr std::size_t kNanoidMinAlphabet = 2;
inline constexpr std::size_t kNanoidMaxAlphabet = 256;
inline constexpr std::size_t kNanoidMaxCharacterBytes = 4;
// The most bytes an alphabet's text can have, and an ID's.
inline constexpr std::size_t kNanoidMaxAlphabetBytes = kNanoidMaxAlphabet * kNanoidMaxCharacterBytes;
inline constexpr std::size_t kNanoidMaxBytes = kNanoidMaxSize * kNanoidMaxCharacterBytes;

// An alphabet being built (nanoid_alphabet_start, _add, _finish) or built.
// Plain data, about 2.3 kB: the caller provides it.
struct NanoidAlphabet {
    std::uint16_t count;
    std::uint8_t mask;                 // 2^k - 1 >= count - 1, at least 1
    bool single_byte;                  // every character is one byte
    std::uint8_t lengths[kNanoidMaxAlphabet];
    char characters[kNanoidMaxAlphabet][kNanoidMaxCharacterBytes];
    std::uint8_t sorted[kNanoidMaxAlphabet];  // indices in byte order of the characters
    std::int16_t byte_index[256];      // single_byte: the index of each byte, or -1
};

enum class NanoidAlphabetStatus {
    ok,
    too_few,          // fewer than 2 characters
    too_many,         // more than 256
    repeated,         // a character appears twice (first and second say where)
    bad_character,    // empty, longer than 4 bytes, or a prefix of another (first, second)
};

struct NanoidAlphabetCheck {
    NanoidAlphabetStatus status;
    std::size_t first;   // 0-based character positions, for repeated and prefix cases
    std::size_t second;
};

void nanoid_alphabet_start(NanoidAlphabet &alphabet) noexcept;

// Appends a character; too_many once 256 are in, bad_character for an empty or
// over-long one (the alphabet is then unusable: the caller stops).
NanoidAlphabetStatus nanoid_alphabet_add(NanoidAlphabet &alphabet, std::string_view character) noexcept;

// Checks the count, sorts the characters and finds a repeated character or
// one that is a prefix of another: the pair whose later position is earliest,
// then whose earlier one is; sets mask.
NanoidAlphabetCheck nanoid_alphabet_finish(NanoidAlphabet &alphabet) noexcept;

// Builds the default alphabet (one byte a character).
void nanoid_default_alphabet(NanoidAlphabet &alphabet) noexcept;

// Progress of one ID: characters and bytes written so far.
struct NanoidProgress {
    std::size_t characters;
    std::size_t bytes;
};

// Draws characters from random bytes (one byte a try, masked, accepted when
// below count) and appends them at out + progress.bytes until
// progress.characters reaches size or the bytes run out; returns the bytes
// used. out holds size * kNanoidMaxCharacterBytes bytes. Precondition: the
// alphabet was finished with status ok.
std::size_t nanoid_fill(const NanoidAlphabet &alphabet, const std::uint8_t *random, std::size_t random_len,
                        char *out, std::size_t size, NanoidProgress &progress) noexcept;

// How many random bytes a draw of the characters still wanted takes on
// average, rounded up: (mask + 1) / count bytes a character.
std::size_t nanoid_expected_bytes(const NanoidAlphabet &alphabet, std::size_t characters) noexcept;

// The index of the alphabet's character that text starts with, or -1.
int nanoid_character_at(const NanoidAlphabet &alphabet, std::string_view text) noexcept;

// Whether text is exactly size characters of the alphabet.
bool nanoid_valid(const NanoidAlphabet &alphabet, std::string_view text, std::size_t size) noexcept;

}  // namespace idgen::core
