// The decoders of stored IDs: uuidv7_unix_ms and the tick conversions
// (core/uuidv7.hpp, behind uuid_v7_time and prefixed_id_time), the snowflake
// field decoders (core/snowflake.hpp) and ulid_unix_ms (core/ulid.hpp).
//
// The input's first 16 bytes are a UUID: uuidv7_unix_ms gives its first 48
// bits exactly when the version nibble is 7 and the variant bits are 10, and
// nothing otherwise. The same bytes, as a tick and random bits, encode to a
// UUIDv7 that decodes back to the tick's millisecond, sorts as the tick does
// and is at least its millisecond's boundary; a tick's first nanosecond maps
// back to the tick. The first 8 bytes, sign bit cleared, are a snowflake whose
// fields stay within their widths and recompose the ID (and their low 53 bits
// a snowflake53, the same); the first 16 bytes
// are a ULID whose millisecond fits 48 bits and whose boundary is its
// millisecond with the random bits cleared.
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

#include "core/snowflake.hpp"
#include "core/ulid.hpp"
#include "core/uuidv7.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

void check_uuid(const std::uint8_t uuid[kUuidBytes]) {
    std::optional<std::int64_t> got = uuidv7_unix_ms(uuid);
    bool is_v7 = (uuid[6] & 0xF0) == 0x70 && (uuid[8] & 0xC0) == 0x80;
    FUZZ_CHECK(got.has_value() == is_v7);
    if (!got) return;
    std::int64_t first48 = 0;
    for (int i = 0; i < 6; ++i) first48 = first48 * 256 + uuid[i];
    FUZZ_CHECK(*got == first48 && *got >= 0 && *got <= kUuidv7MaxUnixMs);
}

void check_tick(Uuidv7Tick tick, std::uint64_t random, Uuidv7Tick other) {
    std::uint8_t uuid[kUuidBytes], other_uuid[kUuidBytes], boundary[kUuidBytes];
    uuidv7_encode(tick, random, uuid);
    std::optional<std::int64_t> ms = uuidv7_unix_ms(uuid);
    FUZZ_CHECK(ms.has_value() && *ms == uuidv7_tick_unix_ms(tick));
    FUZZ_CHECK(((uuid[6] & 0x0F) << 8 | uuid[7]) == static_cast<int>(tick & 0xFFF));

    // Ticks order as their UUIDs do, whatever the random bits.
    uuidv7_encode(other, ~random, other_uuid);
    int order = std::memcmp(uuid, other_uuid, 8);
    FUZZ_CHECK((order < 0) == (tick < other) && (order == 0) == (tick == other));

    uuidv7_boundary(*ms, boundary);
    FUZZ_CHECK(uuidv7_unix_ms(boundary) == ms);
    FUZZ_CHECK(std::memcmp(boundary, uuid, kUuidBytes) <= 0);

    // The first nanosecond of a tick maps back to it, the one before to the tick before.
    std::uint32_t ns = uuidv7_tick_ns_within_ms(tick);
    FUZZ_CHECK(ns < kNsPerMs);
    FUZZ_CHECK(uuidv7_tick(*ms, ns) == tick);
    if (ns > 0) FUZZ_CHECK(uuidv7_tick(*ms, ns - 1) == tick - 1);
}

void check_snowflake(SnowflakeLayout layout, std::int64_t id) {
    FUZZ_CHECK(snowflake_id_valid(layout, id));
    std::int64_t ms = snowflake_id_ms(layout, id);
    std::int32_t shard = snowflake_id_shard(layout, id);
    std::int32_t seq = snowflake_id_seq(layout, id);
    FUZZ_CHECK(ms >= 0 && ms <= kSnowflakeMaxMs);
    FUZZ_CHECK(snowflake_shard_valid(layout, shard));
    FUZZ_CHECK(seq >= 0 && seq <= snowflake_max_seq(layout));
    SnowflakeStamp stamp =
        static_cast<SnowflakeStamp>(ms) << layout.seq_bits | static_cast<SnowflakeStamp>(seq);
    FUZZ_CHECK(snowflake_stamp_ms(layout, stamp) == ms && snowflake_stamp_seq(layout, stamp) == seq);
    FUZZ_CHECK(snowflake_id(layout, stamp, shard) == id);
    std::int64_t boundary = snowflake_boundary(layout, ms, shard);
    FUZZ_CHECK(boundary <= id && id - boundary == seq);
}

void check_ulid(Uint128 id) {
    std::int64_t ms = ulid_unix_ms(id);
    FUZZ_CHECK(ms >= 0 && ms <= kUlidMaxUnixMs);
    FUZZ_CHECK(ulid_make(ms, id) == id);
    FUZZ_CHECK(ulid_boundary(ms) == (id & ~kUlidRandomMask));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    std::uint8_t uuid[kUuidBytes] = {};
    if (size > 0) std::memcpy(uuid, data, size < kUuidBytes ? size : kUuidBytes);
    check_uuid(uuid);

    Input input{data, size};
    std::uint64_t first = input.u64();
    std::uint64_t second = input.u64();
    std::uint64_t third = input.u64();
    check_tick(first & kUuidv7MaxTick, second, third & kUuidv7MaxTick);
    // 63-bit IDs start at 2^53 (below is the 53-bit split's range).
    std::int64_t id63 = static_cast<std::int64_t>(first & std::numeric_limits<std::int64_t>::max());
    check_snowflake(kSnowflake63, id63 < snowflake_min_id(kSnowflake63)
                                      ? id63 + snowflake_min_id(kSnowflake63)
                                      : id63);
    check_snowflake(kSnowflake53, static_cast<std::int64_t>(first) & snowflake_max_id(kSnowflake53));
    check_ulid(static_cast<Uint128>(first) << 64 | second);
    return 0;
}
