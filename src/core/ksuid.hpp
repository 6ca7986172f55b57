// KSUID (github.com/segmentio/ksuid): 20 bytes, a 32-bit big-endian count of
// seconds since 1,400,000,000 (2014-05-13 16:53:20 UTC), then a 128-bit
// random payload, so that byte order is time order. Text is 27 base62 digits
// (0-9A-Za-z, in ASCII order), most significant first, left-padded with '0':
// then text order under C collation is byte order too. Pure C++17: time and
// random bits are passed in.
//
//   0                   1                   2                   3
//   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |          32_bit_uint_seconds_since_1400000000 (timestamp)     |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                  128_bit_payload (4 words)                    |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//
// Decoding is strict where the reference (segmentio's Parse) is lax: it maps
// every byte through a digit table and refuses only a wrong length or a value
// above 2^160 - 1; here a byte outside the 62 digits is refused too, so every
// value has exactly one spelling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/lead_bound.hpp"
#include "core/uint128.hpp"
#include "core/words.hpp"

namespace idgen::core {

inline constexpr std::size_t kKsuidBytes = 20;
inline constexpr std::size_t kKsuidTimestampBytes = 4;
inline constexpr std::size_t kKsuidPayloadBytes = 16;
inline constexpr std::size_t kKsuidTextLength = 27;
inline constexpr std::int64_t kKsuidEpochUnixSeconds = 1'400'000'000;
inline constexpr std::int64_t kKsuidMaxTimestamp = 0xFFFFFFFF;  // 2150-06-19 23:21:35 UTC
inline constexpr const char (&kKsuidAlphabet)[sizeof kBase62Alphabet] = kBase62Alphabet;
inline constexpr char kKsuidMinText[] = "000000000000000000000000000";
inline constexpr char kKsuidMaxText[] = "aWgEPTl1tmebfsQzFP4bxwgy80V";

// A KSUID as its two fields; compared as the 160-bit value (the byte order).
struct Ksuid {
    std::uint32_t timestamp;  // seconds since kKsuidEpochUnixSeconds
    Uint128 payload;
};

inline constexpr bool operator==(Ksuid a, Ksuid b) noexcept {
    return a.timestamp == b.timestamp && a.payload == b.payload;
}
inline constexpr bool operator!=(Ksuid a, Ksuid b) noexcept { return !(a == b); }
inline constexpr bool operator<(Ksuid a, Ksuid b) noexcept {
    return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.payload < b.payload;
}

inline constexpr Ksuid kKsuidNil{0, 0};
inline constexpr Ksuid kKsuidMax{0xFFFFFFFF, kUint128Max};

// The KSUID of a timestamp (seconds since the KSUID epoch) and a payload.
inline constexpr Ksuid ksuid_make(std::uint32_t timestamp, Uint128 payload) noexcept {
    return Ksuid{timestamp, payload};
}

// The Unix second a KSUID carries.
inline constexpr std::int64_t ksuid_unix_seconds(Ksuid id) noexcept {
    return std::int64_t{id.timestamp} + kKsuidEpochUnixSeconds;
}

// Whether a Unix second is one a KSUID can hold.
inline constexpr bool ksuid_unix_seconds_valid(std::int64_t unix_seconds) noexcept {
    return unix_seconds >= kKsuidEpochUnixSeconds &&
           unix_seconds - kKsuidEpochUnixSeconds <= kKsuidMaxTimestamp;
}

// The smallest KSUID of a second (payload zero). Precondition:
// 0 <= timestamp <= kKsuidMaxTimestamp.
inline constexpr Ksuid ksuid_boundary(std::int64_t timestamp) noexcept {
    return Ksuid{static_cast<std::uint32_t>(timestamp), 0};
}

// The 160-bit value + 1 and - 1, wrapping at the ends, as segmentio's Next()
// and Prev(): the payload carries into (borrows from) the timestamp.
inline constexpr Ksuid ksuid_next(Ksuid id) noexcept {
    Uint128 payload = id.payload + 1;
    return Ksuid{payload == 0 ? id.timestamp + 1 : id.timestamp, payload};
}
inline constexpr Ksuid ksuid_prev(Ksuid id) noexcept {
    return Ksuid{id.payload == 0 ? id.timestamp - 1 : id.timestamp, id.payload - 1};
}

// The 20 bytes, most significant first, and back.
void ksuid_store(Ksuid id, std::uint8_t out[kKsuidBytes]) noexcept;
Ksuid ksuid_load(const std::uint8_t in[kKsuidBytes]) noexcept;

enum class KsuidStatus { ok, wrong_length, bad_character, too_large };

struct KsuidDecoded {
    KsuidStatus status;
    std::size_t position;  // of the offending character for bad_character
    Ksuid value;           // valid when status == ok
};

// Writes the 27 base62 digits of id (no terminator).
void ksuid_encode(Ksuid id, char out[kKsuidTextLength]) noexcept;

// Reads exactly 27 base62 digits whose value fits 160 bits (at most
// kKsuidMaxText). A byte outside the alphabet is reported first (the first
// one), then a wrong length, so that a length is only ever reported for text
// made of digits (where bytes are characters); then a value too large.
KsuidDecoded ksuid_decode(std::string_view text) noexcept;

// Per-generator memory for monotonic KSUIDs; all zero before the first ID.
struct KsuidSequence {
    Ksuid last_issued;
    std::int64_t last_clock;  // clock reading (KSUID seconds) at the previous call
};

// How far beyond its bound a lead may be and still be a wait (lead_wait): one
// second, the unit of the timestamp.
inline constexpr std::int64_t kKsuidWaitWindowSeconds = 1;

struct KsuidIssue {
    IssueStep step;
    Ksuid id;               // with issue
    std::int64_t wait;      // with wait: how many seconds the clock must advance
    bool clock_regressed;   // the clock read earlier than at the previous call
    bool ran_ahead;         // the ID's second is ahead of the clock
};

// The ID that the next one must exceed: the sequence's last, or above (the
// last ID another generator issued, for server-wide order) when larger.
inline constexpr Ksuid ksuid_last(const KsuidSequence &seq, Ksuid above) noexcept {
    return above < seq.last_issued ? seq.last_issued : above;
}

// True when the next ID, issued at second now (the clock, or the floor when
// that is later; KSUID seconds), takes a fresh random payload: it starts a
// new second, or it is the first; otherwise ksuid_issue ignores the payload,
// and the caller may skip drawing.
inline constexpr bool ksuid_needs_random(const KsuidSequence &seq, Ksuid above,
                                         std::int64_t now) noexcept {
    Ksuid last = ksuid_last(seq, above);
    return now > std::int64_t{last.timestamp} || last == kKsuidNil;
}

// Monotonic issue, above both seq.last_issued and above, and never in a second
// before floor (the clock lease's floor, in KSUID seconds; may be negative):
// in a second past the last ID's, that second (the clock's, or the floor's
// when later) with the fresh payload; otherwise (same second, the clock went
// back, or another generator is ahead) ksuid_next(last), which carries into
// the next second when the payload overflows. The ID may run at most max_lead
// seconds ahead of now (core/lead_bound.hpp): a call that would go further by
// up to kKsuidWaitWindowSeconds waits for the clock instead. Records an issued
// ID in seq; a wait or exhaustion (the last ID is the largest KSUID) leaves
// seq untouched. Precondition: 0 <= now <= kKsuidMaxTimestamp, floor <=
// kKsuidMaxTimestamp, max_lead >= 0; all in seconds since the KSUID epoch.
KsuidIssue ksuid_issue(KsuidSequence &seq, std::int64_t now, Ksuid above, std::int64_t floor,
                       std::int64_t max_lead, Uint128 payload) noexcept;

}  // namespace idgen::core
