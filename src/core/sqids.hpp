// Sqids (sqids.org, the sqids-spec repository): short, URL-safe text for one
// or more unsigned integers, reversible with the same options. The options are
// an alphabet of at least 3 distinct single-byte characters (shuffled once,
// deterministically), a minimum length of 0 to 255 and a blocklist of words
// that an ID must not contain (kept only when every character of the
// lowercased word is in the lowercased alphabet, and the word has at least 3
// characters); an ID holding a blocked word is re-made with the next
// increment, which fails once the increment passes the alphabet's length.
// Decoding is lenient, as the spec's: text with a character outside the
// alphabet, or the empty text, decodes to no numbers; a value beyond
// kSqidsMaxValue (2^63 - 1, PostgreSQL's bigint) is refused, never wrapped.
// Pure C++17, noexcept, no allocation: the caller provides every buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace idgen::core {

inline constexpr char kSqidsDefaultAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
inline constexpr std::size_t kSqidsMinAlphabet = 3;
// Distinct single-byte characters: a byte from 0x80 up is part of a multibyte
// character (the spec measures characters in UTF-8), so at most 128.
inline constexpr std::size_t kSqidsMaxAlphabet = 128;
inline constexpr std::size_t kSqidsMaxMinLength = 255;
inline constexpr std::size_t kSqidsMinWordLength = 3;
inline constexpr std::uint64_t kSqidsMaxValue = 0x7FFFFFFFFFFFFFFFull;
// The most characters one number takes: 2^63 - 1 in base 2 (a 3-character
// alphabet less its separator).
inline constexpr std::size_t kSqidsMaxNumberChars = 63;

// A blocklist word, lowercased, and whether it holds a decimal digit (such a
// word blocks an ID only at its start or end).
struct SqidsWord {
    std::string_view text;
    bool has_digit;
};

// The coder's options once checked. Plain data; the blocklist's words live in
// the caller's storage.
struct Sqids {
    std::uint8_t length;                       // characters of the alphabet
    char alphabet[kSqidsMaxAlphabet];          // shuffled
    std::int16_t position[256];                // index of a byte in alphabet, or -1
    bool lowercase_member[256];                // a byte of the lowercased alphabet
    std::uint8_t min_length;
    const SqidsWord *blocklist;
    std::size_t blocklist_size;
};

enum class SqidsAlphabetStatus {
    ok,
    multibyte,  // a byte from 0x80 up (at position)
    too_short,  // fewer than 3 characters
    repeated,   // the character at position appeared before, at first
};

struct SqidsAlphabetCheck {
    SqidsAlphabetStatus status;
    std::size_t position;  // 0-based byte positions
    std::size_t first;
};

// Checks the alphabet (multibyte first, then length, then repeats, as the spec
// does) and sets it shuffled, with min_length 0 and no blocklist.
SqidsAlphabetCheck sqids_init(Sqids &sqids, std::string_view alphabet) noexcept;

// Sets the minimum length; false (and unchanged) outside 0 to 255.
bool sqids_set_min_length(Sqids &sqids, std::int64_t min_length) noexcept;

// Whether the spec keeps this word for the coder's alphabet; writes the word
// lowercased (ASCII) into lower, word.size() bytes, either way.
bool sqids_keep_word(const Sqids &sqids, std::string_view word, char *lower) noexcept;

// The word as SqidsWord (text must already be lowercase).
SqidsWord sqids_word(std::string_view lowercase) noexcept;

// Whether the ID contains a blocked word, by the spec's rules (an ID or word of
// up to 3 characters must equal the word; a word with a digit must start or
// end the ID; another word may be anywhere; letters compared lowercased).
bool sqids_blocked(const Sqids &sqids, std::string_view id) noexcept;

enum class SqidsEncodeStatus {
    ok,
    out_of_range,   // a number above kSqidsMaxValue (at index)
    too_small,      // the buffer is below sqids_encoded_capacity
    exhausted,      // every increment up to the alphabet's length was blocked
};

struct SqidsEncodeResult {
    SqidsEncodeStatus status;
    std::size_t length;  // bytes written (ok); no numbers give the empty ID
    std::size_t index;   // out_of_range: the number's 0-based index
};

// The buffer an ID of count numbers needs at most.
std::size_t sqids_encoded_capacity(std::size_t count, std::size_t min_length) noexcept;

// Encodes count numbers into out (capacity bytes, no terminator).
SqidsEncodeResult sqids_encode(const Sqids &sqids, const std::uint64_t *numbers, std::size_t count, char *out,
                               std::size_t capacity) noexcept;

enum class SqidsDecodeStatus {
    ok,         // count numbers (0: the spec's empty answer for invalid text)
    overflow,   // a number above kSqidsMaxValue (the index-th)
    too_many,   // more numbers than capacity
};

struct SqidsDecodeResult {
    SqidsDecodeStatus status;
    std::size_t count;
};

// The most numbers text of this many bytes decodes to.
std::size_t sqids_decoded_capacity(std::size_t id_bytes) noexcept;

// Decodes id leniently, as the spec does, into numbers (capacity entries).
SqidsDecodeResult sqids_decode(const Sqids &sqids, std::string_view id, std::uint64_t *numbers,
                               std::size_t capacity) noexcept;

}  // namespace idgen::core
