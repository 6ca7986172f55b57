// Generator state shared by the SQL-facing files: the settings, idgen's
// shared-memory region and each backend's slot in it.
#pragma once

#include "core/snowflake.hpp"
#include "core/ulid.hpp"
#include "core/uuidv7.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// ID families with per-backend counters; the names appear in idgen_stats.
enum class Family : int { uuid_v7 = 0, snowflake = 1, ulid = 2 };
inline constexpr int kFamilyCount = 3;
inline constexpr const char *kFamilyNames[kFamilyCount] = {"uuid_v7", "snowflake", "ulid"};

enum class Uuidv7Order : int { backend = 0, server = 1 };

// Counters of one family in one backend. Only the owning backend writes them;
// atomics make idgen_stats' concurrent reads tear-free, not the writes ordered.
struct FamilyCounters {
    pg_atomic_uint64 minted;
    pg_atomic_uint64 last_issued_unix_us;
    pg_atomic_uint64 clock_regressions;
    pg_atomic_uint64 ran_ahead;
    pg_atomic_uint64 waits;
};

// One backend's generator state, indexed by its backend id (procnumber).
struct BackendSlot {
    pg_atomic_uint32 pid;  // 0 while no live backend owns the slot
    core::Uuidv7Sequence uuid_v7;
    std::int64_t snowflake_last_clock_ms;  // clock at this backend's previous snowflake
    core::UlidSequence ulid;
    FamilyCounters counters[kFamilyCount];
};

// One snowflake shard, on a cache line of its own. Every backend minting for
// the shard advances last_stamp with compare-and-swap; the counters record
// rare events only, so the common path touches one word.
struct SnowflakeShard {
    pg_atomic_uint64 last_stamp;  // core::SnowflakeStamp of the shard's last ID
    pg_atomic_uint64 borrowed_ms;
    pg_atomic_uint64 waits;
    pg_atomic_uint64 clock_regressions;
};

// The shared-memory region, created once per server start.
struct SharedState {
    pg_atomic_uint64 uuid_v7_server_last;  // last tick issued under 'server' order
    int slot_count;
    // Snowflake lease: no ID with ms >= snowflake_lease_ms was issued, and the
    // lease file says so before any such ID is (snowflake_lease.cpp).
    pg_atomic_uint64 snowflake_lease_ms;
    std::int64_t snowflake_start_lease_ms;  // the lease read at server start
    bool snowflake_lease_unreadable;        // the file exists but holds no lease
    bool snowflake_lease_file_synced;       // its directory entry is on disk
    LWLock *snowflake_lease_lock;           // serialises renewals
};

// Settings (GUC variables).
extern int uuid_v7_order;
extern int snowflake_shard_id;             // -1: unset
extern int max_clock_regression_ms;
extern std::int64_t snowflake_epoch_unix_ms;
// idgen.allowed_shards: the text as set, and its parsed set (never nullptr
// once _PG_init has defined the setting).
extern char *snowflake_allowed_shards_text;
extern const core::SnowflakeShardSet *snowflake_allowed_shards;

// The region, or nullptr when idgen was not in shared_preload_libraries.
SharedState *shared_state();

// Slot index (0 .. slot_count - 1) of the region. Precondition: shared_state().
BackendSlot *shared_slot(int index);

// The shared state of a snowflake shard. Preconditions: shared_state(),
// core::snowflake_shard_valid(shard).
SnowflakeShard *snowflake_shard(int shard);

// Reads the lease file into a new region's header (in the postmaster, at
// every start and crash restart); the shards then start below
// snowflake_start_lease_ms.
void snowflake_lease_startup(SharedState *state);

// Renews the lease so that it covers ms: blocking when ms is beyond it,
// opportunistic when ms is within kSnowflakeLeaseRenewMs of its end.
void snowflake_lease_extend(SharedState *state, std::int64_t ms);

// How far a lease reaches beyond the ID that renews it, and how close an ID
// may come to its end before a renewal starts.
inline constexpr std::int64_t kSnowflakeLeaseSpanMs = 2000;
inline constexpr std::int64_t kSnowflakeLeaseRenewMs = 1000;

// Makes sure the lease covers ms before an ID of that millisecond is handed out.
inline void snowflake_lease_cover(SharedState *state, std::int64_t ms) {
    auto lease_ms = static_cast<std::int64_t>(pg_atomic_read_u64(&state->snowflake_lease_ms));
    if (likely(ms + kSnowflakeLeaseRenewMs < lease_ms)) return;
    snowflake_lease_extend(state, ms);
}

// This backend's slot: in shared memory when preloaded, else backend-local.
BackendSlot *my_slot();

// Bumps the counters of a family after an ID was issued.
void count_issue(BackendSlot *slot, Family family, std::int64_t unix_us, bool clock_regressed,
                 bool ran_ahead);

// Fills out with bytes from this backend's CSPRNG (seeded after fork).
void random_bytes(std::uint8_t *out, std::size_t len);
std::uint64_t random_u64();

// Wall-clock time in nanoseconds since the Unix epoch.
std::int64_t clock_unix_ns();

// Errors for an instant that a 48-bit Unix-millisecond field (uuid_v7, ulid)
// cannot hold, and for infinite timestamps and intervals; type_name names the ID.
[[noreturn]] void report_time_out_of_range(TimestampTz ts, const char *type_name);
[[noreturn]] void report_infinite_time(const char *type_name, const char *what);

// The Unix millisecond of a finite timestamp within 48 bits, or the errors above.
std::int64_t unix_ms48_of(TimestampTz ts, const char *type_name);

// Writes the next uuid_v7() value (this backend's sequence and idgen.uuid_v7_order).
void uuid_v7_mint(std::uint8_t out[core::kUuidBytes]);

// Rounds a / b towards negative infinity.
inline std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    std::int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

inline constexpr std::int64_t kNsPerUs = 1000;
inline constexpr std::int64_t kUsPerMs = 1000;
inline constexpr std::int64_t kNsPerMs = kNsPerUs * kUsPerMs;

// Microseconds between the Unix epoch and PostgreSQL's (2000-01-01).
inline constexpr std::int64_t kUnixToPgEpochUs =
    std::int64_t{POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE} * SECS_PER_DAY * USECS_PER_SEC;

}  // namespace idgen::pg
