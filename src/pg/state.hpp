// Generator state shared by the SQL-facing files: the settings, idgen's
// shared-memory region and each backend's slot in it.
#pragma once

#include "core/uuidv7.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// ID families with per-backend counters; the names appear in idgen_stats.
enum class Family : int { uuid_v7 = 0 };
inline constexpr int kFamilyCount = 1;
inline constexpr const char *kFamilyNames[kFamilyCount] = {"uuid_v7"};

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
    FamilyCounters counters[kFamilyCount];
};

// The shared-memory region, created once per server start.
struct SharedState {
    pg_atomic_uint64 uuid_v7_server_last;  // last tick issued under 'server' order
    int slot_count;
};

// Settings (GUC variables).
extern int uuid_v7_order;

// The region, or nullptr when idgen was not in shared_preload_libraries.
SharedState *shared_state();

// Slot index (0 .. slot_count - 1) of the region. Precondition: shared_state().
BackendSlot *shared_slot(int index);

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

// Microseconds between the Unix epoch and PostgreSQL's (2000-01-01).
inline constexpr std::int64_t kUnixToPgEpochUs =
    std::int64_t{POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE} * SECS_PER_DAY * USECS_PER_SEC;

}  // namespace idgen::pg
