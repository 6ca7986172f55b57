#include "core/uuidv7.hpp"

namespace idgen::core {

std::optional<Uuidv7Tick> uuidv7_tick(std::int64_t unix_ms, std::uint32_t ns_within_ms) noexcept {
    if (unix_ms < 0 || unix_ms > kUuidv7MaxUnixMs || ns_within_ms >= kNsPerMs) return std::nullopt;
    std::uint64_t submillis = (std::uint64_t{ns_within_ms} << kUuidv7SubmsBits) / kNsPerMs;
    return (static_cast<std::uint64_t>(unix_ms) << kUuidv7SubmsBits) | submillis;
}

std::uint32_t uuidv7_tick_ns_within_ms(Uuidv7Tick tick) noexcept {
    std::uint64_t submillis = tick & ((std::uint64_t{1} << kUuidv7SubmsBits) - 1);
    // ceil(submillis * 1e6 / 4096): the first nanosecond that floors back to submillis.
    std::uint64_t scaled = submillis * kNsPerMs;
    std::uint64_t ns = (scaled + (std::uint64_t{1} << kUuidv7SubmsBits) - 1) >> kUuidv7SubmsBits;
    return static_cast<std::uint32_t>(ns);
}

std::optional<Uuidv7Tick> uuidv7_next_tick(Uuidv7Tick last, Uuidv7Tick now) noexcept {
    if (now > last) return now;
    if (last >= kUuidv7MaxTick) return std::nullopt;
    return last + 1;
}

Uuidv7Issue uuidv7_issue(Uuidv7Sequence &seq, Uuidv7Tick now, Uuidv7Tick floor,
                         Uuidv7Tick max_lead) noexcept {
    Uuidv7Tick last = seq.last_issued > floor ? seq.last_issued : floor;
    std::optional<Uuidv7Tick> next = uuidv7_next_tick(last, now);
    if (!next) return {Uuidv7Step::exhausted, 0, 0, false, false};
    Uuidv7Tick lead = *next - now;  // next >= now
    if (Uuidv7Tick wait = lead_wait(lead, max_lead, kUuidv7WaitWindow); wait > 0)
        return {Uuidv7Step::wait, 0, wait, false, false};
    Uuidv7Issue issue{Uuidv7Step::issue, *next, 0, now < seq.last_clock, lead > 0};
    seq.last_issued = *next;
    seq.last_clock = now;
    return issue;
}

void uuidv7_encode(Uuidv7Tick tick, std::uint64_t random, std::uint8_t out[kUuidBytes]) noexcept {
    std::uint64_t unix_ms = tick >> kUuidv7SubmsBits;
    std::uint64_t rand_a = tick & 0xFFF;
    for (int i = 0; i < 6; ++i) out[i] = static_cast<std::uint8_t>(unix_ms >> (40 - 8 * i));
    out[6] = static_cast<std::uint8_t>(0x70 | (rand_a >> 8));
    out[7] = static_cast<std::uint8_t>(rand_a);
    out[8] = static_cast<std::uint8_t>(0x80 | ((random >> 56) & 0x3F));
    for (int i = 9; i < 16; ++i) out[i] = static_cast<std::uint8_t>(random >> (8 * (15 - i)));
}

void uuidv7_boundary(std::int64_t unix_ms, std::uint8_t out[kUuidBytes]) noexcept {
    uuidv7_encode(static_cast<Uuidv7Tick>(unix_ms) << kUuidv7SubmsBits, 0, out);
}

std::optional<std::int64_t> uuidv7_unix_ms(const std::uint8_t uuid[kUuidBytes]) noexcept {
    bool version7 = (uuid[6] >> 4) == 7;
    bool rfc_variant = (uuid[8] >> 6) == 0b10;
    if (!version7 || !rfc_variant) return std::nullopt;
    std::int64_t unix_ms = 0;
    for (int i = 0; i < 6; ++i) unix_ms = (unix_ms << 8) | uuid[i];
    return unix_ms;
}

}  // namespace idgen::core
