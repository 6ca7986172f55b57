// SQL entry points of the snowflake family: snowflake(shard), snowflake(),
// the decoders, snowflake_boundary() and the per-shard state.
#include "core/snowflake.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

using core::SnowflakeNext;
using core::SnowflakeStep;

TimestampTz timestamp_of_ms(std::int64_t ms_since_epoch) {
    return (snowflake_epoch_unix_ms + ms_since_epoch) * kUsPerMs - kUnixToPgEpochUs;
}

// A copy: timestamptz_to_str() reuses one static buffer, and messages show several.
const char *timestamp_text(TimestampTz ts) {
    return pstrdup(timestamptz_to_str(ts));
}

const char *epoch_text() {
    return timestamp_text(timestamp_of_ms(0));
}

// The first instant whose IDs would be negative.
const char *exhaustion_text() {
    return timestamp_text(timestamp_of_ms(core::kSnowflakeMaxMs + 1));
}

void check_shard(std::int64_t shard) {
    if (unlikely(!core::snowflake_shard_valid(shard)))
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("snowflake shard %lld is out of range", static_cast<long long>(shard)),
                        errdetail("A shard is between 0 and %d.", core::kSnowflakeMaxShard)));
}

void check_id(std::int64_t id) {
    if (unlikely(id < 0))
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("snowflake id %lld is negative", static_cast<long long>(id)),
                        errdetail("Snowflake IDs are between 0 and 9223372036854775807.")));
}

// The region, once it is certain that snowflake() may mint from it.
SharedState *state_for_minting() {
    SharedState *state = shared_state();
    if (unlikely(state == nullptr))
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("snowflake() needs idgen's shared memory"),
                        errdetail("Each shard's counter lives in shared memory so that no two "
                                  "sessions hand out the same ID."),
                        errhint("Add idgen to shared_preload_libraries and restart the server.")));
    if (unlikely(RecoveryInProgress()))
        ereport(ERROR,
                (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                 errmsg("cannot mint snowflake ids during recovery"),
                 errdetail("A standby's shards are its primary's: IDs minted here could repeat "
                           "the primary's."),
                 errhint("Call snowflake() on the primary; a standby mints once it is promoted.")));
    if (unlikely(state->leases[static_cast<int>(LeaseKind::snowflake)].unreadable))
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("the snowflake lease file \"idgen_snowflake.lease\" is unreadable"),
                        errdetail("Without the high-water mark of issued IDs, snowflake() could "
                                  "repeat an ID, so it is disabled."),
                        errhint("Check the file in the data directory; once the clock is past "
                                "every issued ID, remove it and restart the server.")));
    return state;
}

[[noreturn]] void report_failed_step(const SnowflakeNext &next, int shard) {
    switch (next.step) {
        case SnowflakeStep::exhausted:
            ereport(ERROR,
                    (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                     errmsg("snowflake ids ran out at %s", exhaustion_text()),
                     errdetail("The time field holds 2^40 milliseconds after idgen.snowflake_epoch "
                               "(%s); later IDs would be negative.",
                               epoch_text())));
            break;
        case SnowflakeStep::before_epoch:
            ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                            errmsg("system clock is before idgen.snowflake_epoch (%s)", epoch_text())));
            break;
        default:
            ereport(ERROR,
                    (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                     errmsg("system clock is %lld ms behind snowflake shard %d",
                            static_cast<long long>(next.lead_ms), shard),
                     errdetail("IDs may run ahead of the clock by at most "
                               "idgen.max_clock_regression (%d ms). The clock was set back, "
                               "idgen.snowflake_epoch was moved later, or after a crash the "
                               "shard resumed from the lease, up to 2 s ahead of the clock.",
                               max_clock_regression_ms),
                     errhint("Wait for the clock to catch up, or raise "
                             "idgen.max_clock_regression.")));
    }
    pg_unreachable();
}

// Sleeps until the clock's next millisecond.
void wait_next_ms(std::int64_t now_ns) {
    CHECK_FOR_INTERRUPTS();
    pg_usleep(static_cast<long>((kNsPerMs - now_ns % kNsPerMs) / kNsPerUs + 1));
}

// The next ID of a shard: above every ID the shard issued, in any backend and
// (through the lease) before any restart.
std::int64_t mint(int shard) {
    SharedState *shared = state_for_minting();
    SnowflakeShard *state = snowflake_shard(shard);
    BackendSlot *slot = my_slot();
    FamilyCounters &counters = slot->counters[static_cast<int>(Family::snowflake)];
    for (;;) {
        std::int64_t now_ns = clock_unix_ns();
        std::int64_t now_ms = now_ns / kNsPerMs - snowflake_epoch_unix_ms;
        bool regressed = now_ms < slot->snowflake_last_clock_ms;
        slot->snowflake_last_clock_ms = now_ms;
        if (unlikely(regressed)) pg_atomic_fetch_add_u64(&state->clock_regressions, 1);
        std::uint64_t last = pg_atomic_read_u64(&state->last_stamp);
        SnowflakeNext next;
        for (;;) {
            next = core::snowflake_next(last, now_ms, max_clock_regression_ms);
            if (next.step != SnowflakeStep::issue) break;
            lease_cover(shared, LeaseKind::snowflake, core::snowflake_stamp_ms(next.stamp));
            // On failure last is refreshed with the winner's stamp; retry above it.
            if (pg_atomic_compare_exchange_u64(&state->last_stamp, &last, next.stamp)) break;
        }
        if (likely(next.step == SnowflakeStep::issue)) {
            bool borrowed = next.lead_ms > 0;
            if (borrowed && core::snowflake_stamp_seq(next.stamp) == 0)
                pg_atomic_fetch_add_u64(&state->borrowed_ms, 1);
            std::int64_t unix_ms = snowflake_epoch_unix_ms + core::snowflake_stamp_ms(next.stamp);
            count_issue(slot, Family::snowflake, unix_ms * kUsPerMs, regressed, borrowed);
            return core::snowflake_id(next.stamp, shard);
        }
        if (next.step != SnowflakeStep::wait) report_failed_step(next, shard);
        pg_atomic_fetch_add_u64(&state->waits, 1);
        pg_atomic_write_u64(&counters.waits, pg_atomic_read_u64(&counters.waits) + 1);
        wait_next_ms(now_ns);
    }
}

// Milliseconds since the epoch of a finite timestamp that IDs can hold.
std::int64_t ms_of_timestamp(TimestampTz ts) {
    if (TIMESTAMP_NOT_FINITE(ts))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("cannot build a snowflake boundary from an infinite timestamp")));
    std::int64_t ms = floor_div(ts + kUnixToPgEpochUs, kUsPerMs) - snowflake_epoch_unix_ms;
    if (ms < 0 || ms > core::kSnowflakeMaxMs)
        ereport(ERROR,
                (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                 errmsg("timestamp out of range for snowflake: \"%s\"", timestamp_text(ts)),
                 errdetail("Snowflake IDs hold instants from idgen.snowflake_epoch (%s) up to "
                           "%s, exclusive.",
                           epoch_text(), exhaustion_text())));
    return ms;
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_snowflake);
PG_FUNCTION_INFO_V1(idgen_snowflake_default_shard);
PG_FUNCTION_INFO_V1(idgen_snowflake_time);
PG_FUNCTION_INFO_V1(idgen_snowflake_shard);
PG_FUNCTION_INFO_V1(idgen_snowflake_seq);
PG_FUNCTION_INFO_V1(idgen_snowflake_boundary);
PG_FUNCTION_INFO_V1(idgen_snowflake_boundary_shard);
PG_FUNCTION_INFO_V1(idgen_snowflake_shard_state);

// snowflake(shard): the shard's next ID. NULL is an error, not a NULL ID.
Datum idgen_snowflake(PG_FUNCTION_ARGS) {
    if (PG_ARGISNULL(0))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                        errmsg("snowflake shard must not be null")));
    std::int32_t shard = PG_GETARG_INT32(0);
    check_shard(shard);
    PG_RETURN_INT64(mint(shard));
}

// snowflake(): the next ID of the shard in idgen.shard_id.
Datum idgen_snowflake_default_shard(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    if (unlikely(snowflake_shard_id < 0))
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("idgen.shard_id is not set"),
                        errhint("Set idgen.shard_id (0 to 8191) in postgresql.conf or with ALTER "
                                "DATABASE ... SET, or pass the shard: snowflake(shard).")));
    PG_RETURN_INT64(mint(snowflake_shard_id));
}

// snowflake_time(id): the millisecond in which the ID was issued.
Datum idgen_snowflake_time(PG_FUNCTION_ARGS) {
    std::int64_t id = PG_GETARG_INT64(0);
    check_id(id);
    PG_RETURN_TIMESTAMPTZ(timestamp_of_ms(core::snowflake_id_ms(id)));
}

// snowflake_shard(id): the shard that issued the ID.
Datum idgen_snowflake_shard(PG_FUNCTION_ARGS) {
    std::int64_t id = PG_GETARG_INT64(0);
    check_id(id);
    PG_RETURN_INT32(core::snowflake_id_shard(id));
}

// snowflake_seq(id): the ID's sequence number within its millisecond and shard.
Datum idgen_snowflake_seq(PG_FUNCTION_ARGS) {
    std::int64_t id = PG_GETARG_INT64(0);
    check_id(id);
    PG_RETURN_INT32(core::snowflake_id_seq(id));
}

// snowflake_boundary(ts): the smallest ID of the millisecond holding ts.
Datum idgen_snowflake_boundary(PG_FUNCTION_ARGS) {
    PG_RETURN_INT64(core::snowflake_boundary(ms_of_timestamp(PG_GETARG_TIMESTAMPTZ(0)), 0));
}

// snowflake_boundary(ts, shard): the smallest ID of that millisecond and shard.
Datum idgen_snowflake_boundary_shard(PG_FUNCTION_ARGS) {
    std::int64_t ms = ms_of_timestamp(PG_GETARG_TIMESTAMPTZ(0));
    std::int32_t shard = PG_GETARG_INT32(1);
    check_shard(shard);
    PG_RETURN_INT64(core::snowflake_boundary(ms, shard));
}

// idgen_snowflake_shard_state(): shards that issued IDs or saw events since the server started.
Datum idgen_snowflake_shard_state(PG_FUNCTION_ARGS) {
    constexpr int kColumns = 6;
    InitMaterializedSRF(fcinfo, 0);
    auto *rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);
    SharedState *state = shared_state();
    if (state == nullptr) {
        ereport(NOTICE, (errmsg("idgen shared memory is not available; no shard has state"),
                         errhint("Add idgen to shared_preload_libraries and restart the server.")));
        return static_cast<Datum>(0);
    }
    Lease &lease = state->leases[static_cast<int>(LeaseKind::snowflake)];
    core::SnowflakeStamp start = core::snowflake_stamp_below(
        static_cast<std::int64_t>(pg_atomic_read_u64(&lease.floor_ms)));
    for (int shard = 0; shard <= core::kSnowflakeMaxShard; ++shard) {
        SnowflakeShard *s = snowflake_shard(shard);
        core::SnowflakeStamp last = pg_atomic_read_u64(&s->last_stamp);
        std::uint64_t borrowed = pg_atomic_read_u64(&s->borrowed_ms);
        std::uint64_t waits = pg_atomic_read_u64(&s->waits);
        std::uint64_t regressions = pg_atomic_read_u64(&s->clock_regressions);
        bool issued = last != start;
        if (!issued && borrowed == 0 && waits == 0 && regressions == 0) continue;
        Datum values[kColumns] = {
            Int32GetDatum(shard),
            Int64GetDatum(core::snowflake_id(last, shard)),
            TimestampTzGetDatum(timestamp_of_ms(core::snowflake_stamp_ms(last))),
            Int64GetDatum(static_cast<std::int64_t>(borrowed)),
            Int64GetDatum(static_cast<std::int64_t>(waits)),
            Int64GetDatum(static_cast<std::int64_t>(regressions)),
        };
        bool nulls[kColumns] = {false, !issued, !issued, false, false, false};
        tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
    }
    return static_cast<Datum>(0);
}

}  // extern "C"
