// _PG_init, settings, idgen's shared-memory region and the per-backend slots.
#include <time.h>

#include "pg/state.hpp"

extern "C" {
PG_MODULE_MAGIC;
void _PG_init(void);
}

namespace idgen::pg {

int uuid_v7_order = static_cast<int>(Uuidv7Order::backend);

namespace {

const struct config_enum_entry kUuidv7OrderOptions[] = {
    {"backend", static_cast<int>(Uuidv7Order::backend), false},
    {"server", static_cast<int>(Uuidv7Order::server), false},
    {nullptr, 0, false},
};

shmem_request_hook_type prev_shmem_request_hook = nullptr;
shmem_startup_hook_type prev_shmem_startup_hook = nullptr;

SharedState *shared = nullptr;

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

std::size_t region_size(int slot_count) {
    // Extra cache line so that the slots can start on a line boundary.
    return add_size(add_size(header_size(), mul_size(slot_stride(), slot_count)), kCacheLine);
}

BackendSlot *slot_at(int index) {
    auto *base = reinterpret_cast<char *>(shared) + header_size();
    return reinterpret_cast<BackendSlot *>(base + static_cast<std::size_t>(index) * slot_stride());
}

void init_slot(BackendSlot *slot, std::uint32_t pid) {
    pg_atomic_init_u32(&slot->pid, pid);
    slot->uuid_v7 = core::Uuidv7Sequence{0, 0};
    for (FamilyCounters &c : slot->counters) {
        pg_atomic_init_u64(&c.minted, 0);
        pg_atomic_init_u64(&c.last_issued_unix_us, 0);
        pg_atomic_init_u64(&c.clock_regressions, 0);
        pg_atomic_init_u64(&c.ran_ahead, 0);
        pg_atomic_init_u64(&c.waits, 0);
    }
}

void idgen_shmem_request() {
    if (prev_shmem_request_hook) prev_shmem_request_hook();
    RequestAddinShmemSpace(region_size(MaxBackends));
}

void idgen_shmem_startup() {
    if (prev_shmem_startup_hook) prev_shmem_startup_hook();
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    bool found = false;
    void *raw = ShmemInitStruct("idgen", region_size(MaxBackends), &found);
    auto *aligned = reinterpret_cast<SharedState *>(TYPEALIGN(kCacheLine, raw));
    shared = aligned;
    if (!found) {
        pg_atomic_init_u64(&shared->uuid_v7_server_last, 0);
        shared->slot_count = MaxBackends;
        for (int i = 0; i < shared->slot_count; ++i) init_slot(slot_at(i), 0);
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

// Frees the slot at backend exit so that idgen_stats stops listing it.
void release_slot(int, Datum) {
    if (claimed_slot != nullptr && claimed_slot != &local_slot)
        pg_atomic_write_u32(&claimed_slot->pid, 0);
    claimed_slot = nullptr;
}

}  // namespace

SharedState *shared_state() {
    return shared;
}

BackendSlot *shared_slot(int index) {
    return slot_at(index);
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

std::int64_t clock_unix_ns() {
    struct timespec now;
    if (unlikely(clock_gettime(CLOCK_REALTIME, &now) != 0))
        ereport(ERROR, (errcode_for_file_access(), errmsg("could not read the system clock: %m")));
    return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
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
        &uuid_v7_order, static_cast<int>(Uuidv7Order::backend), kUuidv7OrderOptions, PGC_USERSET,
        0, nullptr, nullptr, nullptr);
    MarkGUCPrefixReserved("idgen");

    if (!process_shared_preload_libraries_in_progress) return;
    prev_shmem_request_hook = shmem_request_hook;
    shmem_request_hook = idgen_shmem_request;
    prev_shmem_startup_hook = shmem_startup_hook;
    shmem_startup_hook = idgen_shmem_startup;
}
