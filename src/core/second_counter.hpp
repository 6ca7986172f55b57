// The sequence behind objectid() and xid() (core/objectid.hpp, core/xid.hpp):
// 12-byte IDs whose first 4 bytes are big-endian Unix seconds and whose last 3
// are a big-endian 24-bit counter that starts at a random value and adds one
// per ID, wrapping at 2^24 (the BSON ObjectId spec; rs/xid does the same).
//
// The wrap alone would repeat an ID after 2^24 IDs in one second, and a clock
// set back would repeat the seconds of earlier IDs. So the seconds never
// decrease (a clock set back keeps the last second), and a second value holds
// at most 2^24 IDs: the next one borrows the following second, ahead of the
// clock, as a snowflake shard borrows the next millisecond. With the process
// bytes fixed, no two IDs of one sequence are then equal. Pure C++17: the
// clock and the random start are passed in.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idgen::core {

// Both formats are 12 bytes: seconds in bytes 0-3, the counter in bytes 9-11.
inline constexpr std::size_t kId96Bytes = 12;
inline constexpr int kId96CounterBits = 24;
inline constexpr std::uint32_t kId96CounterMask = (std::uint32_t{1} << kId96CounterBits) - 1;
inline constexpr std::int64_t kId96MaxUnixSeconds = 0xFFFFFFFF;  // 2106-02-07 06:28:15 UTC

inline constexpr void store_be32(std::uint32_t value, std::uint8_t *out) noexcept {
    out[0] = static_cast<std::uint8_t>(value >> 24);
    out[1] = static_cast<std::uint8_t>(value >> 16);
    out[2] = static_cast<std::uint8_t>(value >> 8);
    out[3] = static_cast<std::uint8_t>(value);
}

inline constexpr std::uint32_t load_be32(const std::uint8_t *in) noexcept {
    return std::uint32_t{in[0]} << 24 | std::uint32_t{in[1]} << 16 | std::uint32_t{in[2]} << 8 |
           in[3];
}

inline constexpr void store_be24(std::uint32_t value, std::uint8_t *out) noexcept {
    out[0] = static_cast<std::uint8_t>(value >> 16);
    out[1] = static_cast<std::uint8_t>(value >> 8);
    out[2] = static_cast<std::uint8_t>(value);
}

inline constexpr std::uint32_t load_be24(const std::uint8_t *in) noexcept {
    return std::uint32_t{in[0]} << 16 | std::uint32_t{in[1]} << 8 | in[2];
}

// The seconds of a 12-byte ID (both formats), and its counter.
inline constexpr std::uint32_t id96_seconds(const std::uint8_t *id) noexcept {
    return load_be32(id);
}
inline constexpr std::uint32_t id96_counter(const std::uint8_t *id) noexcept {
    return load_be24(id + kId96Bytes - 3);
}

// One generator's memory. second_counter_start gives the first.
struct SecondCounter {
    std::uint32_t counter;       // the last ID's counter (the random start before the first)
    std::uint32_t seconds;       // the last ID's seconds
    std::uint32_t second_first;  // the counter of the first ID in `seconds`
    std::int64_t last_clock_s;   // the clock at the previous call
    bool started;                // an ID was issued
};

// A sequence whose first ID takes the counter random_start + 1 (mod 2^24).
inline constexpr SecondCounter second_counter_start(std::uint32_t random_start) noexcept {
    return SecondCounter{random_start & kId96CounterMask, 0, 0, 0, false};
}

enum class SecondCounterStep {
    issue,
    clock_out_of_range,  // the clock reads before 1970 or after kId96MaxUnixSeconds
    exhausted,           // 2^24 IDs in second kId96MaxUnixSeconds: no second left to borrow
};

struct SecondCounterIssue {
    SecondCounterStep step;
    std::uint32_t seconds;  // with issue
    std::uint32_t counter;  // with issue
    bool clock_regressed;   // the clock read earlier than at the previous call
    bool ran_ahead;         // the ID's second is ahead of the clock (kept, or borrowed)
    bool borrowed;          // the ID starts a second beyond the last, the last being full
};

// The next ID's seconds and counter at clock second now_s, recorded in seq; a
// refusal leaves seq untouched. The seconds are the clock's, or the last ID's
// when the clock is behind it; when that second already holds 2^24 IDs (the
// counter came round to the second's first), the next second.
inline constexpr SecondCounterIssue second_counter_issue(SecondCounter &seq,
                                                         std::int64_t now_s) noexcept {
    if (now_s < 0 || now_s > kId96MaxUnixSeconds)
        return {SecondCounterStep::clock_out_of_range, 0, 0, false, false, false};
    std::uint32_t counter = (seq.counter + 1) & kId96CounterMask;
    auto seconds = static_cast<std::uint32_t>(now_s);
    bool borrowed = false;
    if (seq.started && seconds <= seq.seconds) {
        seconds = seq.seconds;
        if (counter == seq.second_first) {
            if (seconds == kId96MaxUnixSeconds)
                return {SecondCounterStep::exhausted, 0, 0, false, false, false};
            ++seconds;
            borrowed = true;
        }
    }
    bool new_second = !seq.started || seconds != seq.seconds;
    SecondCounterIssue issue{SecondCounterStep::issue,
                             seconds,
                             counter,
                             seq.started && now_s < seq.last_clock_s,
                             seconds > now_s,
                             borrowed};
    if (new_second) seq.second_first = counter;
    seq.counter = counter;
    seq.seconds = seconds;
    seq.last_clock_s = now_s;
    seq.started = true;
    return issue;
}

}  // namespace idgen::core
