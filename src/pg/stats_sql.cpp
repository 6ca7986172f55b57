// idgen_backend_state(): one row per live backend and ID family it minted.
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

constexpr int kStatColumns = 9;

void put_slot_rows(ReturnSetInfo *rsinfo, int backend_index, BackendSlot *slot, bool shared) {
    std::uint32_t pid = pg_atomic_read_u32(&slot->pid);
    for (int f = 0; f < kFamilyCount; ++f) {
        FamilyCounters &c = slot->counters[f];
        std::uint64_t minted = pg_atomic_read_u64(&c.minted);
        if (minted == 0) continue;
        auto last_us = static_cast<std::int64_t>(pg_atomic_read_u64(&c.last_issued_unix_us));
        Datum values[kStatColumns] = {
            Int32GetDatum(static_cast<std::int32_t>(pid)),
            Int32GetDatum(backend_index),
            CStringGetTextDatum(kFamilyNames[f]),
            Int64GetDatum(static_cast<std::int64_t>(minted)),
            TimestampTzGetDatum(last_us - kUnixToPgEpochUs),
            Int64GetDatum(static_cast<std::int64_t>(pg_atomic_read_u64(&c.clock_regressions))),
            Int64GetDatum(static_cast<std::int64_t>(pg_atomic_read_u64(&c.ran_ahead))),
            Int64GetDatum(static_cast<std::int64_t>(pg_atomic_read_u64(&c.waits))),
            BoolGetDatum(shared),
        };
        bool nulls[kStatColumns] = {};
        nulls[1] = backend_index < 0;
        tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
    }
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_backend_state);

// Lists the slots of the live backends this role may see; without shared
// memory, only this backend.
Datum idgen_backend_state(PG_FUNCTION_ARGS) {
    InitMaterializedSRF(fcinfo, 0);
    auto *rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);
    SharedState *state = shared_state();
    if (state == nullptr) {
        ereport(NOTICE,
                (errmsg("idgen shared memory is not available; showing this backend only"),
                 errhint("Add idgen to shared_preload_libraries and restart the server to see "
                         "every backend.")));
        put_slot_rows(rsinfo, -1, my_slot(), false);
        return static_cast<Datum>(0);
    }
    // As pg_stat_activity: a backend's activity is shown to roles with the
    // privileges of its session user and to members of pg_read_all_stats;
    // other backends are left out altogether. A session always sees its own.
    bool all_backends = has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_STATS);
    for (int i = 0; i < state->slot_count; ++i) {
        BackendSlot *slot = shared_slot(i);
        std::uint32_t pid = pg_atomic_read_u32(&slot->pid);
        if (pid == 0) continue;
        PGPROC *proc = BackendPidGetProc(static_cast<int>(pid));
        if (proc == nullptr) continue;
        if (!all_backends && pid != static_cast<std::uint32_t>(MyProcPid) &&
            !has_privs_of_role(GetUserId(), proc->roleId))
            continue;
        put_slot_rows(rsinfo, i, slot, true);
    }
    return static_cast<Datum>(0);
}

}  // extern "C"
