// Server-wide order, shared by the clock families (uuid_v7 and ulid): the
// order settings' check, the waits at the lead bound, and a 128-bit
// compare-and-exchange for the families whose last ID does not fit an atomic.
#include "pg/state.hpp"

namespace idgen::pg {

bool server_order(int setting, SharedState *state, const char *guc) {
    if (setting != static_cast<int>(IdOrder::server)) return false;
    if (state == nullptr)
        ereport(ERROR,
                (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                 errmsg("%s = 'server' needs idgen's shared memory", guc),
                 errhint("Add idgen to shared_preload_libraries and restart the server.")));
    return true;
}

void count_wait(BackendSlot *slot, Family family) {
    FamilyCounters &counters = slot->counters[static_cast<int>(family)];
    pg_atomic_write_u64(&counters.waits, pg_atomic_read_u64(&counters.waits) + 1);
}

// Waits shorter than this spin on the clock: a sleep lasts tens of
// microseconds at least, and a uuid_v7 burst at the bound waits about one tick.
constexpr std::int64_t kSpinNs = 20'000;

void clock_wait_until(std::int64_t from_ns, std::int64_t until_ns) {
    CHECK_FOR_INTERRUPTS();
    std::int64_t now_ns = clock_unix_ns();
    if (now_ns < from_ns || now_ns >= until_ns) return;
    if (until_ns - now_ns <= kSpinNs) {
        for (; now_ns >= from_ns && now_ns < until_ns; now_ns = clock_unix_ns()) CHECK_FOR_INTERRUPTS();
        return;
    }
    pg_usleep(static_cast<long>((until_ns - now_ns) / kNsPerUs + 1));
}

core::Uint128 shared_u128_read(SharedU128 &shared) {
    SpinLockAcquire(&shared.mutex);
    core::Uint128 value = shared.value;
    SpinLockRelease(&shared.mutex);
    return value;
}

bool shared_u128_compare_exchange(SharedU128 &shared, core::Uint128 &expected,
                                  core::Uint128 desired) {
    SpinLockAcquire(&shared.mutex);
    core::Uint128 current = shared.value;
    bool swapped = current == expected;
    if (swapped) shared.value = desired;
    SpinLockRelease(&shared.mutex);
    expected = current;
    return swapped;
}

}  // namespace idgen::pg
