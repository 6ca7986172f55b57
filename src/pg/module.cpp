// _PG_init, settings, idgen's shared-memory region and the per-backend slots.
#include "pg/state.hpp"

extern "C" {
#if PG_VERSION_NUM >= 180000
// 18 added the name and version fields; plain PG_MODULE_MAGIC leaves them out,
// which -Wmissing-field-initializers turns into an error under -Werror.
PG_MODULE_MAGIC_EXT(.name = "idgen", .version = IDGEN_VERSION);
#else
PG_MODULE_MAGIC;
#endif
void _PG_init(void);
}

namespace idgen::pg {

int uuid_v7_order = static_cast<int>(IdOrder::backend);
int ulid_order = static_cast<int>(IdOrder::backend);
int uuid_v6_order = static_cast<int>(IdOrder::backend);
int ksuid_order = static_cast<int>(IdOrder::backend);
int snowflake_shard_id = -1;
int max_clock_regression_ms = 10'000;
std::int64_t snowflake_epoch_unix_ms = 0;
int max_snowflake_layouts = 16;
char *snowflake_allowed_shards_text = nullptr;
const core::SnowflakeShardSet *snowflake_allowed_shards = nullptr;

namespace {

const struct config_enum_entry kOrderOptions[] = {
    {"backend", static_cast<int>(IdOrder::backend), false},
    {"server", static_cast<int>(IdOrder::server), false},
    {nullptr, 0, false},
};

shmem_request_hook_type prev_shmem_request_hook = nullptr;
shmem_startup_hook_type prev_shmem_startup_hook = nullptr;

SharedState *shared = nullptr;
char *snowflake_epoch_text = nullptr;

// Used when idgen is not preloaded, and by processes without a backend id.
BackendSlot local_slot;
BackendSlot *claimed_slot = nullptr;

constexpr std::size_t kCacheLine = 64;

std::size_t header_size() {
    return TYPEALIGN(kCacheLine, sizeof(SharedState));
}

std::size_t slot_stride() {
    return TYPEALIGN(kCacheLine, sizeof(BackendSlot));
}

std::size_t shard_stride() {
    return TYPEALIGN(kCacheLine, sizeof(SnowflakeShard));
}

std::size_t layout_slot_stride() {
    return TYPEALIGN(kCacheLine, sizeof(SnowflakeLayoutSlot));
}

// Layout: header, one slot per backend, one line per snowflake shard of each
// split, then the snowflake layout slots.
std::size_t region_size(int slot_count, int layout_slot_count) {
    std::size_t size = add_size(header_size(), mul_size(slot_stride(), slot_count));
    size = add_size(size, mul_size(shard_stride(), kSnowflakeShardLines));
    size = add_size(size, mul_size(layout_slot_stride(), layout_slot_count));
    // Extra cache line so that the region can start on a line boundary.
    return add_size(size, kCacheLine);
}

BackendSlot *slot_at(int index) {
    auto *base = reinterpret_cast<char *>(shared) + header_size();
    return reinterpret_cast<BackendSlot *>(base + static_cast<std::size_t>(index) * slot_stride());
}

SnowflakeShard *shard_at(int index) {
    auto *base = reinterpret_cast<char *>(shared) + header_size() +
                 static_cast<std::size_t>(shared->slot_count) * slot_stride();
    return reinterpret_cast<SnowflakeShard *>(base +
                                              static_cast<std::size_t>(index) * shard_stride());
}

SnowflakeLayoutSlot *layout_slot_at(int index) {
    auto *base = reinterpret_cast<char *>(shard_at(kSnowflakeShardLines));
    return reinterpret_cast<SnowflakeLayoutSlot *>(
        base + static_cast<std::size_t>(index) * layout_slot_stride());
}

void init_slot(BackendSlot *slot, std::uint32_t pid) {
    pg_atomic_init_u32(&slot->pid, pid);
    slot->uuid_v7 = core::Uuidv7Sequence{0, 0};
    for (std::int64_t &ms : slot->snowflake_last_clock_ms) ms = 0;
    slot->snowflake_layout_last_clock_ms = 0;
    slot->ulid = core::UlidSequence{0, 0};
    for (FamilyCounters &c : slot->counters) {
        pg_atomic_init_u64(&c.minted, 0);
        pg_atomic_init_u64(&c.last_issued_unix_us, 0);
        pg_atomic_init_u64(&c.clock_regressions, 0);
        pg_atomic_init_u64(&c.ran_ahead, 0);
        pg_atomic_init_u64(&c.waits, 0);
    }
    slot->uuid_v6 = core::Uuidv6Sequence{0, 0};
    slot->ksuid = core::KsuidSequence{core::kKsuidNil, 0};
}

void idgen_shmem_request() {
    if (prev_shmem_request_hook) prev_shmem_request_hook();
    RequestAddinShmemSpace(region_size(MaxBackends, max_snowflake_layouts));
    RequestNamedLWLockTranche("idgen", kLeaseKinds);
}

void idgen_shmem_startup() {
    if (prev_shmem_startup_hook) prev_shmem_startup_hook();
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    bool found = false;
    void *raw = ShmemInitStruct("idgen", region_size(MaxBackends, max_snowflake_layouts), &found);
    auto *aligned = reinterpret_cast<SharedState *>(TYPEALIGN(kCacheLine, raw));
    shared = aligned;
    if (!found) {
        pg_atomic_init_u64(&shared->uuid_v7_server_last, 0);
        SpinLockInit(&shared->ulid_server_last.mutex);
        shared->ulid_server_last.value = 0;
        pg_atomic_init_u64(&shared->uuid_v6_server_last, 0);
        SpinLockInit(&shared->ksuid_server_last.mutex);
        shared->ksuid_server_last.value = core::kKsuidNil;
        shared->slot_count = MaxBackends;
        shared->layout_slot_count = max_snowflake_layouts;
        SpinLockInit(&shared->layout_slots_mutex);
        snowflake_layout_slots_startup();
        for (int i = 0; i < shared->slot_count; ++i) init_slot(slot_at(i), 0);
        leases_startup(shared, GetNamedLWLockTranche("idgen"));
        // Every shard resumes just below the lease: above any ID issued before.
        Lease &lease = shared->leases[static_cast<int>(LeaseKind::snowflake)];
        snowflake_shards_startup(static_cast<std::int64_t>(pg_atomic_read_u64(&lease.floor_ms)));
        id96_generators_startup(shared->id96);
    }
    LWLockRelease(AddinShmemInitLock);
}

int my_backend_index() {
#if PG_VERSION_NUM >= 170000
    return MyProcNumber;
#else
    return MyBackendId - 1;
#endif
}

// Frees the slot at backend exit so that idgen_stats stops listing it, and
// hands its last clock-lease IDs to the shutdown's lease lowering.
void release_slot(int, Datum) {
    if (claimed_slot != nullptr && claimed_slot != &local_slot) {
        std::int64_t below = std::max(core::uuidv7_tick_unix_ms(claimed_slot->uuid_v7.last_issued),
                                      core::ulid_unix_ms(claimed_slot->ulid.last_issued));
        below = std::max(below, core::uuidv6_tick_unix_ms(claimed_slot->uuid_v6.last_issued)) + 1;
        below = std::max(below, ksuid_clock_issued_below_ms(claimed_slot));
        lease_note_clock_issued(shared, below);
        pg_atomic_write_u32(&claimed_slot->pid, 0);
    }
    claimed_slot = nullptr;
}

bool check_snowflake_epoch(char **newval, void **, GucSource) {
    if (*newval != nullptr && core::snowflake_parse_epoch(*newval)) return true;
    GUC_check_errdetail(
        "The epoch is a UTC date or time from 1970 on, such as '2024-01-01' or "
        "'2024-01-01 12:00:00'.");
    return false;
}

void assign_snowflake_epoch(const char *newval, void *) {
    snowflake_epoch_unix_ms = core::snowflake_parse_epoch(newval).value_or(0);
}

// idgen.allowed_shards: parsed once here into a set that the assign hook
// installs, so that snowflake(shard) tests one bit.
bool check_allowed_shards(char **newval, void **extra, GucSource) {
    std::string_view text = *newval != nullptr ? std::string_view(*newval) : std::string_view();
    core::SnowflakeShardSet set;
    core::ShardListParse parsed = core::snowflake_parse_shard_list(text, set);
    int item_length = static_cast<int>(parsed.item_length);
    const char *item = text.data() + parsed.item_begin;
    switch (parsed.error) {
        case core::ShardListError::none:
            break;
        case core::ShardListError::empty_item:
            GUC_check_errdetail("The list has an empty item: separate shards and ranges with "
                                "single commas, as in '0-15,100'.");
            return false;
        case core::ShardListError::syntax:
            GUC_check_errdetail("\"%.*s\" is neither a shard nor a range of shards such as "
                                "0-15.",
                                item_length, item);
            return false;
        case core::ShardListError::out_of_range:
            GUC_check_errdetail("\"%.*s\" is outside the shards 0 to %d.", item_length, item,
                                core::kSnowflakeMaxShard);
            return false;
        case core::ShardListError::descending:
            GUC_check_errdetail("The range \"%.*s\" ends below its start.", item_length, item);
            return false;
    }
    // GUC frees extra data with free() before 16 and with guc_free() from 16 on.
#if PG_VERSION_NUM >= 160000
    void *copy = guc_malloc(LOG, sizeof set);
#else
    void *copy = malloc(sizeof set);
#endif
    if (copy == nullptr) {
        GUC_check_errcode(ERRCODE_OUT_OF_MEMORY);
        GUC_check_errmsg("out of memory");
        return false;
    }
    memcpy(copy, &set, sizeof set);
    *extra = copy;
    return true;
}

void assign_allowed_shards(const char *, void *extra) {
    snowflake_allowed_shards = static_cast<const core::SnowflakeShardSet *>(extra);
}

}  // namespace

SharedState *shared_state() {
    return shared;
}

BackendSlot *shared_slot(int index) {
    return slot_at(index);
}

SnowflakeLayoutSlot *shared_layout_slot(int index) {
    return layout_slot_at(index);
}

SnowflakeShard *shared_shard_line(int index) {
    return shard_at(index);
}

BackendSlot *my_slot() {
    if (likely(claimed_slot != nullptr)) return claimed_slot;
    int index = my_backend_index();
    if (shared != nullptr && index >= 0 && index < shared->slot_count) {
        BackendSlot *slot = slot_at(index);
        init_slot(slot, static_cast<std::uint32_t>(MyProcPid));
        before_shmem_exit(release_slot, 0);
        claimed_slot = slot;
    } else {
        init_slot(&local_slot, static_cast<std::uint32_t>(MyProcPid));
        claimed_slot = &local_slot;
    }
    return claimed_slot;
}

void count_issue(BackendSlot *slot, Family family, std::int64_t unix_us, bool clock_regressed,
                 bool ran_ahead) {
    FamilyCounters &c = slot->counters[static_cast<int>(family)];
    pg_atomic_write_u64(&c.minted, pg_atomic_read_u64(&c.minted) + 1);
    pg_atomic_write_u64(&c.last_issued_unix_us, static_cast<std::uint64_t>(unix_us));
    if (unlikely(clock_regressed))
        pg_atomic_write_u64(&c.clock_regressions, pg_atomic_read_u64(&c.clock_regressions) + 1);
    if (ran_ahead) pg_atomic_write_u64(&c.ran_ahead, pg_atomic_read_u64(&c.ran_ahead) + 1);
}

}  // namespace idgen::pg

// Defines the settings and, when preloaded, hooks into shared-memory set-up.
void _PG_init(void) {
    using namespace idgen::pg;
    DefineCustomEnumVariable(
        "idgen.uuid_v7_order",
        "Scope within which uuid_v7() values are strictly increasing.",
        "'backend': each session's values increase (no shared state). 'server': every value is "
        "greater than every value issued before it under 'server' by any session; needs idgen in "
        "shared_preload_libraries.",
        &uuid_v7_order, static_cast<int>(IdOrder::backend), kOrderOptions, PGC_USERSET,
        0, nullptr, nullptr, nullptr);
    DefineCustomEnumVariable(
        "idgen.ulid_order",
        "Scope within which ulid() values are strictly increasing.",
        "'backend': each session's values increase (no shared state). 'server': every value is "
        "greater than every value issued before it under 'server' by any session; needs idgen in "
        "shared_preload_libraries.",
        &ulid_order, static_cast<int>(IdOrder::backend), kOrderOptions, PGC_USERSET, 0, nullptr,
        nullptr, nullptr);
    DefineCustomIntVariable(
        "idgen.shard_id", "Shard of snowflake() without an argument; -1 means unset.",
        "A logical shard from 0 to 8191, unique per writing database or server.",
        &snowflake_shard_id, -1, -1, idgen::core::kSnowflakeMaxShard, PGC_SUSET, 0, nullptr,
        nullptr, nullptr);
    // Server-start only when preloaded. A library loaded later may not define
    // such settings; then only the decoders use the epoch (snowflake() refuses).
    GucContext epoch_context =
        process_shared_preload_libraries_in_progress ? PGC_POSTMASTER : PGC_SIGHUP;
    DefineCustomStringVariable(
        "idgen.snowflake_epoch", "Epoch of snowflake IDs (UTC).",
        "IDs count milliseconds from this instant and run out 2^40 ms (about 34.8 years) after "
        "it. Set before the first ID; moving it later is refused by the issued-ID high-water mark.",
        &snowflake_epoch_text, "2024-01-01", epoch_context, 0, check_snowflake_epoch,
        assign_snowflake_epoch, nullptr);
    DefineCustomIntVariable(
        "idgen.max_clock_regression",
        "How far snowflake IDs, uuid_v7 and ulid values may run ahead of the clock.",
        "Covers the clock being set back and bursts over 1024 snowflakes per millisecond and "
        "shard or 4096 uuid_v7 values per millisecond. Beyond it, a burst waits for the clock; "
        "a clock set back further fails snowflake(), and uuid_v7() and ulid() keep counting.",
        &max_clock_regression_ms, 10'000, 0, kMaxClockRegressionCapMs, PGC_SUSET, GUC_UNIT_MS, nullptr, nullptr,
        nullptr);
    DefineCustomStringVariable(
        "idgen.allowed_shards", "Shards on which snowflake(shard) may mint in this session.",
        "A comma-separated list of shards and ranges, such as '0-15,100'; '' allows none. "
        "The shard in idgen.shard_id is always allowed. Set per role or database with ALTER "
        "ROLE/DATABASE ... SET.",
        &snowflake_allowed_shards_text, "0-8191", PGC_SUSET, 0, check_allowed_shards,
        assign_allowed_shards, nullptr);
    DefineCustomEnumVariable(
        "idgen.uuid_v6_order",
        "Scope within which uuid_v6() values are strictly increasing.",
        "'backend': each session's values increase (no shared state). 'server': every value is "
        "greater than every value issued before it under 'server' by any session; needs idgen in "
        "shared_preload_libraries.",
        &uuid_v6_order, static_cast<int>(IdOrder::backend), kOrderOptions, PGC_USERSET, 0, nullptr,
        nullptr, nullptr);
    DefineCustomEnumVariable(
        "idgen.ksuid_order",
        "Scope within which ksuid() values are strictly increasing.",
        "'backend': each session's values increase (no shared state). 'server': every value is "
        "greater than every value issued before it under 'server' by any session; needs idgen in "
        "shared_preload_libraries.",
        &ksuid_order, static_cast<int>(IdOrder::backend), kOrderOptions, PGC_USERSET, 0, nullptr,
        nullptr, nullptr);
    // Defines its own server-start settings, which only preloading may do.
    if (process_shared_preload_libraries_in_progress) {
        lease_register_wal();
        DefineCustomIntVariable(
            "idgen.max_snowflake_layouts",
            "How many layout and node pairs snowflake_layout_new() can mint for until the server "
            "restarts.",
            "Each pair of a layout (its epoch, unit and field widths) and a node takes a slot "
            "of shared memory (192 bytes) at its first ID; the instagram layout is snowflake()'s "
            "and takes none.",
            &max_snowflake_layouts, 16, 1, 1024, PGC_POSTMASTER, 0, nullptr, nullptr, nullptr);
    }
    MarkGUCPrefixReserved("idgen");

    if (!process_shared_preload_libraries_in_progress) return;
    prev_shmem_request_hook = shmem_request_hook;
    shmem_request_hook = idgen_shmem_request;
    prev_shmem_startup_hook = shmem_startup_hook;
    shmem_startup_hook = idgen_shmem_startup;
}
