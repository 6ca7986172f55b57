// Firebase push IDs (the rule of Firebase's blog post "The 2^120 Ways to
// Ensure Unique Identifiers", February 2015, and its reference generator,
// gist mikelehen/3596a30bd69384624c11): 20 characters of the 64 below, in
// ASCII order, each 6 bits, most significant first:
//
//   characters 1-8    the Unix millisecond, 48 bits
//   characters 9-20   72 random bits
//
// so that a push ID is one 120-bit number, (ms << 72) | random, and text
// order under C collation is that number's order, time order first. Within
// the same millisecond the next ID is the previous + 1 (the random part
// incremented with carry); here the same holds when the clock goes back (the
// last time is kept, where the reference draws fresh random bits at the
// earlier time), and when the 72 random bits overflow the carry goes into the
// time, so that a generator's IDs strictly increase. Any 20 characters of the
// alphabet are a push ID: 8 characters hold exactly the 48-bit time. Pure
// C++17: time and random bits are passed in.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/uint128.hpp"

namespace idgen::core {

inline constexpr char kPushIdAlphabet[] = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";
inline constexpr std::size_t kPushIdLength = 20;
inline constexpr std::size_t kPushIdTimeChars = 8;
inline constexpr std::size_t kPushIdRandomChars = kPushIdLength - kPushIdTimeChars;
inline constexpr int kPushIdBitsPerChar = 6;
inline constexpr int kPushIdRandomBits = kPushIdRandomChars * kPushIdBitsPerChar;  // 72
inline constexpr std::size_t kPushIdRandomBytes = kPushIdRandomBits / 8;            // 9
inline constexpr std::int64_t kPushIdMaxUnixMs = (std::int64_t{1} << (kPushIdTimeChars * kPushIdBitsPerChar)) - 1;
inline constexpr Uint128 kPushIdRandomMask = (Uint128{1} << kPushIdRandomBits) - 1;
// The largest push ID, "zzzzzzzzzzzzzzzzzzzz": 2^120 - 1.
inline constexpr Uint128 kPushIdMax = (Uint128{1} << (kPushIdLength * kPushIdBitsPerChar)) - 1;

// The value of each byte as a digit of the alphabet, or -1.
inline constexpr std::array<std::int8_t, 256> kPushIdDigits = [] {
    std::array<std::int8_t, 256> digits{};
    for (auto &d : digits) d = -1;
    for (int i = 0; i < 64; ++i) digits[static_cast<unsigned char>(kPushIdAlphabet[i])] = static_cast<std::int8_t>(i);
    return digits;
}();

// The push ID of a millisecond with the low 72 bits of random.
// Precondition: 0 <= unix_ms <= kPushIdMaxUnixMs.
inline constexpr Uint128 push_id_make(std::int64_t unix_ms, Uint128 random) noexcept {
    return (static_cast<Uint128>(unix_ms) << kPushIdRandomBits) | (random & kPushIdRandomMask);
}

inline constexpr std::int64_t push_id_unix_ms(Uint128 id) noexcept {
    return static_cast<std::int64_t>(id >> kPushIdRandomBits);
}

// Writes the 20 characters of id (at most kPushIdMax; no terminator).
void push_id_encode(Uint128 id, char out[kPushIdLength]) noexcept;

// bad_character: a byte outside the alphabet, at position (0-based; reported
// before the length, so that a length is only reported for text made of the
// alphabet, where bytes are characters); wrong_length: not 20 characters.
enum class PushIdStatus { ok, bad_character, wrong_length };

struct PushIdDecoded {
    PushIdStatus status;
    std::size_t position;  // with bad_character
    Uint128 id;            // with ok
};

// Strict decoding: exactly 20 characters of the alphabet (case-sensitive).
PushIdDecoded push_id_decode(std::string_view text) noexcept;

inline bool push_id_valid(std::string_view text) noexcept {
    return push_id_decode(text).status == PushIdStatus::ok;
}

// One generator's memory (a session's): all zero before the first ID.
struct PushIdSequence {
    Uint128 last_issued;
    std::int64_t last_clock_ms;  // the clock at the previous ID
};

enum class PushIdStep { issue, exhausted };

struct PushIdIssue {
    PushIdStep step;
    Uint128 id;            // with issue
    bool clock_regressed;  // the clock read earlier than at the previous ID
};

// Whether the next ID at clock now_ms takes fresh random bits: a millisecond
// past the last ID's, or the first ID; otherwise push_id_issue ignores them.
inline constexpr bool push_id_needs_random(const PushIdSequence &seq, std::int64_t now_ms) noexcept {
    return now_ms > push_id_unix_ms(seq.last_issued) || seq.last_issued == 0;
}

// The next ID of seq at clock now_ms: a new millisecond with random, or the
// last + 1 (the same millisecond, or the clock went back), carrying from the
// random part into the time. exhausted (seq untouched) after kPushIdMax.
// Precondition: 0 <= now_ms <= kPushIdMaxUnixMs.
PushIdIssue push_id_issue(PushIdSequence &seq, std::int64_t now_ms, Uint128 random) noexcept;

}  // namespace idgen::core
