// Generator state shared by the SQL-facing files: the settings, idgen's
// shared-memory region and each backend's slot in it.
#pragma once

#include "core/ksuid.hpp"
#include "core/second_counter.hpp"
#include "core/snowflake.hpp"
#include "core/snowflake_layout.hpp"
#include "core/ulid.hpp"
#include "core/uuidv6.hpp"
#include "core/uuidv7.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// ID families with per-backend counters; the names appear in idgen_stats.
// snowflake_layout counts snowflake_layout_new() in every layout but
// instagram, whose IDs are snowflake()'s and count as such.
enum class Family : int { uuid_v7 = 0, snowflake = 1, ulid = 2, snowflake53 = 3, uuid_v6 = 4, ksuid = 5,
                          objectid = 6, xid = 7, snowflake_layout = 8 };
inline constexpr int kFamilyCount = 9;
inline constexpr const char *kFamilyNames[kFamilyCount] = {"uuid_v7", "snowflake", "ulid", "snowflake53",
                                                           "uuid_v6", "ksuid",   "objectid", "xid",
                                                           "snowflake_layout"};

// Scope of strict order of a clock family (idgen.uuid_v7_order, idgen.ulid_order,
// idgen.uuid_v6_order, idgen.ksuid_order).
enum class IdOrder : int { backend = 0, server = 1 };

// Counters of one family in one backend. Only the owning backend writes them;
// atomics make idgen_stats' concurrent reads tear-free, not the writes ordered.
struct FamilyCounters {
    pg_atomic_uint64 minted;
    pg_atomic_uint64 last_issued_unix_us;
    pg_atomic_uint64 clock_regressions;
    pg_atomic_uint64 ran_ahead;
    pg_atomic_uint64 waits;
};

// The snowflake bit splits (core/snowflake.hpp). Each has shards of its own in
// shared memory; everything else (the lease, the epoch, the clock bound, the
// shard settings) they share.
enum class SnowflakeSplit : int { bits63 = 0, bits53 = 1 };
inline constexpr int kSnowflakeSplits = 2;
inline constexpr core::SnowflakeLayout kSplitLayouts[kSnowflakeSplits] = {core::kSnowflake63,
                                                                          core::kSnowflake53};

inline constexpr core::SnowflakeLayout layout_of(SnowflakeSplit split) {
    return kSplitLayouts[static_cast<int>(split)];
}

// Shards of a split; the region holds a line for every shard of each split.
inline constexpr int shard_count(SnowflakeSplit split) {
    return core::snowflake_max_shard(layout_of(split)) + 1;
}
inline constexpr int kSnowflakeShardLines =
    shard_count(SnowflakeSplit::bits63) + shard_count(SnowflakeSplit::bits53);

// One backend's generator state, indexed by its backend id (procnumber).
struct BackendSlot {
    pg_atomic_uint32 pid;  // 0 while no live backend owns the slot
    core::Uuidv7Sequence uuid_v7;
    std::int64_t snowflake_last_clock_ms[kSnowflakeSplits];  // clock at its previous ID of each split
    std::int64_t snowflake_layout_last_clock_ms;  // Unix ms of the clock at its previous layout ID
    core::UlidSequence ulid;
    FamilyCounters counters[kFamilyCount];
    core::Uuidv6Sequence uuid_v6;
    core::KsuidSequence ksuid;
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

// One (layout, node) that snowflake_layout_new(layout[, node]) mints for, on lines of its
// own (snowflake_sql.cpp). Slots are claimed in order under the region's
// layout_slots_mutex and kept until the server stops; claimed is written
// after the key, so a lock-free reader that sees it set sees the key.
struct alignas(64) SnowflakeLayoutSlot {
    pg_atomic_uint32 claimed;
    core::LayoutMintKey key;
    alignas(64) pg_atomic_uint64 last_stamp;  // core::SnowflakeStamp of the last ID
};

// Kinds of lease (lease.cpp). The snowflake lease counts milliseconds of the
// IDs' time field; the clock lease counts Unix milliseconds and covers
// uuid_v7, ulid and prefixed_id_new; the layout lease counts Unix
// milliseconds of the start of the ticks that snowflake_layout_new() issued, in
// every layout but instagram (snowflake()'s own), and is kept as strictly as
// the snowflake lease.
enum class LeaseKind : int { snowflake = 0, clock = 1, layout = 2 };
inline constexpr int kLeaseKinds = 3;

// A lease is kept in up to kLeaseSlots files (lease.cpp): its name, then .1,
// .2 and .3. Each write takes a slot no other writer holds and writes it
// without the lease's lock, so that a writer stuck in I/O blocks no one; the
// lease is the largest end any slot holds. The last slot is WAL replay's
// alone, so that replay never waits for a stuck renewal.
inline constexpr int kLeaseSlots = 4;

// The name of a lease's slot file, relative to the data directory.
const char *lease_file_name(LeaseKind kind, int slot);

// A high-water mark of issued IDs, kept in files and in WAL (lease.cpp).
struct Lease {
    pg_atomic_uint64 end_ms;    // no ID with ms >= end_ms was issued, and disk and WAL say so
    pg_atomic_uint64 floor_ms;  // every ID issued before this server started is below it;
                                // the lease at start, raised by WAL replay
    std::uint8_t bad_slots;     // bit per slot found holding no lease at start, until rewritten:
                                // while any is, snowflake() refuses (snowflake_lease_unreadable)
    std::uint8_t busy_slots;    // bit per slot: a writer holds it (under the lock)
    std::uint8_t synced_slots;  // bit per slot: its directory entry is on disk (under the lock)
    bool renewing;              // a session writes a renewal and waits for WAL and the
                                // synchronous standbys, without the lock (under the lock)
    std::uint32_t renewal;      // numbers the renewals: one that another session took over
                                // no longer ends renewing (under the lock)
    std::int64_t renewal_started_ns;  // when the current renewal started (under the lock)
    LWLock *lock;               // guards the fields above; held for no wait on I/O, WAL, a
                                // standby or another session
    ConditionVariable renewed;  // broadcast when a renewal ends, confirmed or not
};

// A 128-bit value in shared memory with the contract of pg_atomic_uint64's
// read and compare-and-exchange (order.cpp). PostgreSQL has no 128-bit
// atomics: a spinlock guards the value, held for a compare and a store only.
struct SharedU128 {
    slock_t mutex;
    core::Uint128 value;
};

// The last KSUID of 'server' order, as SharedU128 (ksuid_sql.cpp has its
// read and compare-and-exchange).
struct SharedKsuid {
    slock_t mutex;
    core::Ksuid value;
};

// The generators of the 12-byte IDs, objectid() and xid() (id96_sql.cpp).
enum class Id96Kind : int { objectid = 0, xid = 1 };
inline constexpr int kId96Kinds = 2;
inline constexpr std::size_t kId96ProcessBytes = 5;

// One 12-byte generator: the 5 bytes fixed for the run (ObjectId's process
// value; XID's machine id and pid), drawn at every server start, and the
// seconds-and-counter sequence. In shared memory when preloaded, shared by
// every session; otherwise each backend has its own.
struct alignas(64) Id96Generator {
    slock_t mutex;  // held for core::second_counter_issue's arithmetic and a copy, nothing else
    std::uint8_t process[kId96ProcessBytes];
    core::SecondCounter seq;
};

// Draws a new region's generators (in the postmaster, at every start and
// crash restart).
void id96_generators_startup(Id96Generator *generators);

// Databases without idgen_lease_origin that the region remembers (origin.cpp).
inline constexpr int kRaisedDatabaseSlots = 64;
// Origin tables found naming this cluster alone that the region remembers
// (origin.cpp): each slot holds a database and its table's OID, or 0.
inline constexpr int kVerifiedOriginSlots = 64;

// The shared-memory region, created once per server start.
struct SharedState {
    pg_atomic_uint64 uuid_v7_server_last;  // last tick issued under 'server' order
    int slot_count;
    // Read on every call, written about once a second: kept off the line of
    // uuid_v7_server_last, which 'server' order writes on every call.
    alignas(64) Lease leases[kLeaseKinds];
    pg_atomic_uint64 clock_issued_below_ms;  // above every exited backend's clock-lease IDs
    // Databases without idgen_lease_origin (idgen 0.6.0 and earlier) whose
    // first ID since the start raised the leases (origin.cpp); under the
    // clock lease's lock. When full, their first IDs raise the leases again.
    int raised_database_count;
    Oid raised_databases[kRaisedDatabaseSlots];
    pg_atomic_uint64 verified_origins[kVerifiedOriginSlots];
    // Last ULID issued under 'server' order, written on every such call: on a
    // line of its own.
    alignas(64) SharedU128 ulid_server_last;
    // Last UUIDv6 tick issued under 'server' order: a line of its own too.
    alignas(64) pg_atomic_uint64 uuid_v6_server_last;
    // Last KSUID issued under 'server' order (ksuid_sql.cpp), likewise.
    alignas(64) SharedKsuid ksuid_server_last;
    // objectid() and xid() (id96_sql.cpp), each on lines of its own.
    Id96Generator id96[kId96Kinds];
    // The snowflake layout slots (idgen.max_snowflake_layouts of them, after
    // the shard lines): the mutex guards claiming one, held for the compare
    // of the claimed keys and the write of a new one only.
    slock_t layout_slots_mutex;
    int layout_slot_count;
};

// Whether a slot file of the snowflake lease held no lease at start and has
// not been rewritten since: without its lease snowflake() could repeat an ID,
// so it refuses (the clock families only order, and go on).
inline bool snowflake_lease_unreadable(const SharedState *state) {
    return state->leases[static_cast<int>(LeaseKind::snowflake)].bad_slots != 0;
}

// The same for a lease of any kind; the clock lease is never refused for it.
inline bool lease_unreadable(const SharedState *state, LeaseKind kind) {
    return kind != LeaseKind::clock && state->leases[static_cast<int>(kind)].bad_slots != 0;
}

// Settings (GUC variables).
extern int uuid_v7_order;
extern int ulid_order;
extern int uuid_v6_order;
extern int ksuid_order;
extern int snowflake_shard_id;             // -1: unset
extern int max_clock_regression_ms;
// The largest idgen.max_clock_regression: a lead beyond it is no clock drift.
inline constexpr int kMaxClockRegressionCapMs = 3'600'000;
extern std::int64_t snowflake_epoch_unix_ms;
// idgen.max_snowflake_layouts: the layout slots of the region (server start).
extern int max_snowflake_layouts;
// idgen.allowed_shards: the text as set, and its parsed set (never nullptr
// once _PG_init has defined the setting).
extern char *snowflake_allowed_shards_text;
extern const core::SnowflakeShardSet *snowflake_allowed_shards;

// The region, or nullptr when idgen was not in shared_preload_libraries.
SharedState *shared_state();

// Slot index (0 .. slot_count - 1) of the region. Precondition: shared_state().
BackendSlot *shared_slot(int index);

// Shard line index (0 .. kSnowflakeShardLines - 1) of the region; which line
// is which split's shard is snowflake_sql.cpp's. Precondition: shared_state().
SnowflakeShard *shared_shard_line(int index);

// Layout slot index (0 .. layout_slot_count - 1) of the region.
// Precondition: shared_state().
SnowflakeLayoutSlot *shared_layout_slot(int index);

// Marks every layout slot of a new region free (module.cpp, at every start).
void snowflake_layout_slots_startup();

// Above the start of every tick that snowflake_layout_new() issued since the server
// started, in Unix ms (0 when none was): the layout lease's shutdown lowering.
std::int64_t snowflake_layout_slots_issued_below();

// The next ID of snowflake_layout_new(layout[, node]) (snowflake_sql.cpp): name is the
// layout's name for messages, node nullptr for the node in idgen.shard_id.
// Every check of snowflake(shard) and snowflake() applies; the instagram
// layout's ID space is snowflake()'s own shards. key_memo is the call site's:
// the key of its last node in this layout (part_count 0 when it has none),
// kept so that a row costs no key.
std::int64_t snowflake_layout_mint(const char *name, const core::Layout &layout,
                                   const std::int64_t *node, core::LayoutMintKey &key_memo);

// The shared state of a snowflake shard of a split (snowflake_sql.cpp, as are
// the next three). Preconditions: shared_state(),
// core::snowflake_shard_valid(layout_of(split), shard).
SnowflakeShard *snowflake_shard(SnowflakeSplit split, int shard);

// Sets up every shard of a new region, each just below the snowflake lease
// read at start (lease_ms), so that no ID issued before the start comes again.
void snowflake_shards_startup(std::int64_t lease_ms);

// Raises every shard of every split to just below a snowflake lease ending at
// lease_ms, so that each shard's next ID lies in lease_ms or later.
void snowflake_shards_raise(std::int64_t lease_ms);

// Above every snowflake ID of any split issued since the server started, in ms
// since the epoch (0 when none was).
std::int64_t snowflake_shards_issued_below();

// Registers idgen's WAL resource manager (lease records); in _PG_init while
// shared_preload_libraries loads.
void lease_register_wal();

// Reads the lease files into a new region's header (in the postmaster, at
// every start and crash restart), taking one lock per lease from locks.
void leases_startup(SharedState *state, LWLockPadded *locks);

// Renews a lease so that it covers ms: waiting when ms is beyond it (for a
// renewal another session writes: interruptibly, on a condition variable),
// opportunistic when ms is within kLeaseRenewMs of its end.
void lease_extend(SharedState *state, LeaseKind kind, std::int64_t ms);

// Raises a lease and its floor to end_ms, durably as a renewal is (the file,
// and WAL that standbys replay); the shards too for the snowflake lease.
void lease_raise(SharedState *state, LeaseKind kind, std::int64_t end_ms);

// Whether the leases were raised for a database without idgen_lease_origin
// since the server started, and the note that they were.
bool lease_database_raised(SharedState *state, Oid database);
void lease_note_database_raised(SharedState *state, Oid database);

// The database whose lease origin this backend has checked (origin.cpp), and
// the check: at the first ID minted in a database that idgen_lease_origin
// says came from another cluster (pg_upgrade, a restore), the leases are
// raised above every ID that cluster issued. Called by every minting path
// before it reads a lease's floor or a shard. state may be nullptr.
extern Oid lease_origin_checked_db;
void lease_origin_adopt(SharedState *state);
inline void lease_origin_check(SharedState *state) {
    if (likely(lease_origin_checked_db == MyDatabaseId)) return;
    lease_origin_adopt(state);
}

// Whether a session found the origin table relid of database naming this
// cluster alone since the server started, and the note that it did (lock-free:
// read on a path that must not wait).
bool lease_origin_verified(SharedState *state, Oid database, Oid relid);
void lease_note_origin_verified(SharedState *state, Oid database, Oid relid);

// Records, at backend exit, that the backend's clock-lease IDs lie below below_ms.
void lease_note_clock_issued(SharedState *state, std::int64_t below_ms);

// How far a lease reaches beyond the ID that renews it, and how close an ID
// may come to its end before a renewal starts.
inline constexpr std::int64_t kLeaseSpanMs = 2000;
inline constexpr std::int64_t kLeaseRenewMs = 1000;
// How long a session that needs a renewal waits for another session's before
// it renews too, in another slot: a renewer stopped (SIGSTOP) or stuck in I/O
// must not stop minting for good.
inline constexpr std::int64_t kRenewalHandOverMs = 5000;

// Makes sure a lease covers ms before an ID of that millisecond is handed out.
inline void lease_cover(SharedState *state, LeaseKind kind, std::int64_t ms) {
    Lease &lease = state->leases[static_cast<int>(kind)];
    auto end_ms = static_cast<std::int64_t>(pg_atomic_read_u64(&lease.end_ms));
    if (likely(ms + kLeaseRenewMs < end_ms)) return;
    lease_extend(state, kind, ms);
}

// The Unix millisecond that the clock families never issue below: the clock
// lease's floor, or 0 without shared memory.
inline std::int64_t clock_floor_ms(SharedState *state) {
    if (state == nullptr) return 0;
    Lease &lease = state->leases[static_cast<int>(LeaseKind::clock)];
    return static_cast<std::int64_t>(pg_atomic_read_u64(&lease.floor_ms));
}

// This backend's slot: in shared memory when preloaded, else backend-local.
BackendSlot *my_slot();

// Bumps the counters of a family after an ID was issued.
void count_issue(BackendSlot *slot, Family family, std::int64_t unix_us, bool clock_regressed,
                 bool ran_ahead);

// Fills out with bytes from this backend's CSPRNG (seeded after fork).
void random_bytes(std::uint8_t *out, std::size_t len);
std::uint64_t random_u64();
// len (at most 16) fresh random bytes as the low bytes of a 128-bit value, the
// high ones zero: the random part of a timeflake or a push ID.
core::Uint128 random_low_bytes128(std::size_t len);

// Wall-clock time in nanoseconds since the Unix epoch.
std::int64_t clock_unix_ns();

// A clock that is never set: nanoseconds since some moment, for durations.
std::int64_t clock_monotonic_ns();

// Errors for an instant that a 48-bit Unix-millisecond field (uuid_v7, ulid)
// cannot hold, and for infinite timestamps and intervals; type_name names the ID.
[[noreturn]] void report_time_out_of_range(TimestampTz ts, const char *type_name);
[[noreturn]] void report_infinite_time(const char *type_name, const char *what);

// The clock in Unix milliseconds, or an error when it is outside 48 bits
// (timeflake, push_id: the families without a lead bound or a wait).
std::int64_t clock_unix_ms48(const char *type_name);

// The Unix millisecond of a finite timestamp within 48 bits, or the errors above.
std::int64_t unix_ms48_of(TimestampTz ts, const char *type_name);

// Server-wide order (order.cpp), shared by the clock families. Whether the
// family's order setting (setting, named guc) asks for 'server' order; an
// error when it does and idgen is not preloaded.
bool server_order(int setting, SharedState *state, const char *guc);

// Counts a call's wait for the clock at the lead bound (once per call).
void count_wait(BackendSlot *slot, Family family);

// Waits, interruptibly, until the clock reads until_ns or later, or reads
// before from_ns (set back: the caller looks again). Spins when the wait is
// short, sleeps otherwise.
void clock_wait_until(std::int64_t from_ns, std::int64_t until_ns);

// Reads a SharedU128; stores desired if it still holds expected, else writes
// what it holds into expected and returns false.
core::Uint128 shared_u128_read(SharedU128 &shared);
bool shared_u128_compare_exchange(SharedU128 &shared, core::Uint128 &expected,
                                  core::Uint128 desired);

// Unix milliseconds above every ksuid() of a backend slot (ksuid_sql.cpp):
// just above the first millisecond of its last KSUID's second, 0 before its
// first (ksuid() rounds the clock lease's floor up to a whole second).
std::int64_t ksuid_clock_issued_below_ms(const BackendSlot *slot);

// Writes the next uuid_v7() value (this backend's sequence and idgen.uuid_v7_order).
void uuid_v7_mint(std::uint8_t out[core::kUuidBytes]);

// The schema an extension was created in, or InvalidOid (origin.cpp; get_extension_schema
// is exported from PostgreSQL 16 only).
Oid extension_schema(Oid extension);

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
