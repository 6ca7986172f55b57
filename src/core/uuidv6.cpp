#include "core/uuidv6.hpp"

namespace idgen::core {

std::optional<Uuidv6Tick> uuidv6_tick_of_unix_us(std::int64_t unix_us,
                                                 std::uint32_t extra_ticks) noexcept {
    if (unix_us < kUuidv6MinUnixUs || unix_us > kUuidv6MaxUnixUs ||
        extra_ticks >= static_cast<std::uint32_t>(kUuidv6TicksPerUs))
        return std::nullopt;
    std::int64_t tick = unix_us * kUuidv6TicksPerUs + kUuidv6UnixEpochTick + extra_ticks;
    if (tick < 0 || static_cast<Uuidv6Tick>(tick) > kUuidv6MaxTick) return std::nullopt;
    return static_cast<Uuidv6Tick>(tick);
}

std::optional<Uuidv6Tick> uuidv6_tick_of_unix_ns(std::int64_t unix_ns) noexcept {
    constexpr std::int64_t kNsPerTick = 100;
    std::int64_t ticks = unix_ns / kNsPerTick;
    if (unix_ns % kNsPerTick < 0) --ticks;
    std::int64_t us = ticks / kUuidv6TicksPerUs;
    std::int64_t extra = ticks % kUuidv6TicksPerUs;
    if (extra < 0) {
        --us;
        extra += kUuidv6TicksPerUs;
    }
    return uuidv6_tick_of_unix_us(us, static_cast<std::uint32_t>(extra));
}

Uuidv6Issue uuidv6_issue(Uuidv6Sequence &seq, Uuidv6Tick now, Uuidv6Tick floor,
                         Uuidv6Tick max_lead) noexcept {
    Uuidv6Tick last = seq.last_issued > floor ? seq.last_issued : floor;
    Uuidv6Tick next = now;
    if (now <= last) {
        if (last >= kUuidv6MaxTick) return {IssueStep::exhausted, 0, 0, false, false};
        next = last + 1;
    }
    Uuidv6Tick lead = next - now;
    if (Uuidv6Tick wait = lead_wait(lead, max_lead, kUuidv6WaitWindow); wait > 0)
        return {IssueStep::wait, 0, wait, false, false};
    Uuidv6Issue issue{IssueStep::issue, next, 0, now < seq.last_clock, lead > 0};
    seq.last_issued = next;
    seq.last_clock = now;
    return issue;
}

void uuidv6_encode(Uuidv6Tick tick, std::uint16_t clock_seq, std::uint64_t node,
                   std::uint8_t out[kUuidBytes]) noexcept {
    std::uint64_t high48 = tick >> 12;
    for (int i = 0; i < 6; ++i) out[i] = static_cast<std::uint8_t>(high48 >> (40 - 8 * i));
    out[6] = static_cast<std::uint8_t>(0x60 | ((tick >> 8) & 0x0F));
    out[7] = static_cast<std::uint8_t>(tick);
    out[8] = static_cast<std::uint8_t>(0x80 | ((clock_seq >> 8) & 0x3F));
    out[9] = static_cast<std::uint8_t>(clock_seq);
    for (int i = 10; i < 16; ++i) out[i] = static_cast<std::uint8_t>(node >> (8 * (15 - i)));
}

void uuidv6_encode_random(Uuidv6Tick tick, std::uint64_t random,
                          std::uint8_t out[kUuidBytes]) noexcept {
    auto clock_seq = static_cast<std::uint16_t>(random & 0x3FFF);
    std::uint64_t node = (random >> 14) & 0xFFFFFFFFFFFFull;
    node |= std::uint64_t{1} << 40;  // multicast: the low bit of the first octet
    uuidv6_encode(tick, clock_seq, node, out);
}

namespace {

std::uint64_t be_bits(const std::uint8_t *bytes, int count) noexcept {
    std::uint64_t v = 0;
    for (int i = 0; i < count; ++i) v = (v << 8) | bytes[i];
    return v;
}

// time_high (12 bits), time_mid (16), time_low (32) of a UUIDv1.
Uuidv6Tick v1_tick(const std::uint8_t v1[kUuidBytes]) noexcept {
    std::uint64_t time_low = be_bits(v1, 4);
    std::uint64_t time_mid = be_bits(v1 + 4, 2);
    std::uint64_t time_high = be_bits(v1 + 6, 2) & 0x0FFF;
    return (time_high << 48) | (time_mid << 32) | time_low;
}

// time_high (32 bits), time_mid (16), time_low (12) of a UUIDv6.
Uuidv6Tick v6_tick(const std::uint8_t v6[kUuidBytes]) noexcept {
    return (be_bits(v6, 6) << 12) | (be_bits(v6 + 6, 2) & 0x0FFF);
}

UuidReorder check(const std::uint8_t uuid[kUuidBytes], int version) noexcept {
    if (!uuid_rfc_variant(uuid)) return UuidReorder::not_rfc_variant;
    if (uuid_version(uuid) != version) return UuidReorder::wrong_version;
    return UuidReorder::ok;
}

}  // namespace

std::optional<Uuidv6Tick> uuidv1_or_v6_tick(const std::uint8_t uuid[kUuidBytes]) noexcept {
    if (!uuid_rfc_variant(uuid)) return std::nullopt;
    if (uuid_version(uuid) == 1) return v1_tick(uuid);
    if (uuid_version(uuid) == 6) return v6_tick(uuid);
    return std::nullopt;
}

UuidReorder uuidv6_from_v1(const std::uint8_t v1[kUuidBytes], std::uint8_t out[kUuidBytes]) noexcept {
    UuidReorder status = check(v1, 1);
    if (status != UuidReorder::ok) return status;
    Uuidv6Tick tick = v1_tick(v1);
    std::uint8_t tail[8];
    for (int i = 0; i < 8; ++i) tail[i] = v1[8 + i];
    std::uint64_t high48 = tick >> 12;
    for (int i = 0; i < 6; ++i) out[i] = static_cast<std::uint8_t>(high48 >> (40 - 8 * i));
    out[6] = static_cast<std::uint8_t>(0x60 | ((tick >> 8) & 0x0F));
    out[7] = static_cast<std::uint8_t>(tick);
    for (int i = 0; i < 8; ++i) out[8 + i] = tail[i];
    return UuidReorder::ok;
}

UuidReorder uuidv1_from_v6(const std::uint8_t v6[kUuidBytes], std::uint8_t out[kUuidBytes]) noexcept {
    UuidReorder status = check(v6, 6);
    if (status != UuidReorder::ok) return status;
    Uuidv6Tick tick = v6_tick(v6);
    std::uint8_t tail[8];
    for (int i = 0; i < 8; ++i) tail[i] = v6[8 + i];
    auto time_low = static_cast<std::uint32_t>(tick);
    auto time_mid = static_cast<std::uint16_t>(tick >> 32);
    auto time_high = static_cast<std::uint16_t>((tick >> 48) & 0x0FFF);
    for (int i = 0; i < 4; ++i) out[i] = static_cast<std::uint8_t>(time_low >> (24 - 8 * i));
    out[4] = static_cast<std::uint8_t>(time_mid >> 8);
    out[5] = static_cast<std::uint8_t>(time_mid);
    out[6] = static_cast<std::uint8_t>(0x10 | (time_high >> 8));
    out[7] = static_cast<std::uint8_t>(time_high);
    for (int i = 0; i < 8; ++i) out[8 + i] = tail[i];
    return UuidReorder::ok;
}

}  // namespace idgen::core
