// SQL entry points of the uuid_v7 family: uuid_v7(), uuid_v7(interval),
// uuid_v7_at(), uuid_v7_boundary() and uuid_v7_time().
#include "core/uuidv7.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

using core::Uuidv7Tick;

// The tick of a PostgreSQL timestamp plus extra_ns (0..999) below its microsecond.
Uuidv7Tick tick_of_timestamp(TimestampTz ts, std::int64_t extra_ns) {
    if (TIMESTAMP_NOT_FINITE(ts)) report_infinite_time("uuid_v7", "timestamp");
    std::int64_t unix_us = ts + kUnixToPgEpochUs;
    std::int64_t unix_ms = floor_div(unix_us, kUsPerMs);
    std::int64_t ns_within_ms = (unix_us - unix_ms * kUsPerMs) * kNsPerUs + extra_ns;
    std::optional<Uuidv7Tick> tick =
        core::uuidv7_tick(unix_ms, static_cast<std::uint32_t>(ns_within_ms));
    if (!tick) report_time_out_of_range(ts, "uuid_v7");
    return *tick;
}

std::int64_t tick_unix_ns(Uuidv7Tick tick) {
    return core::uuidv7_tick_unix_ms(tick) * kNsPerMs +
           core::uuidv7_tick_ns_within_ms(tick);
}

// The clock as a tick.
Uuidv7Tick clock_tick() {
    std::int64_t now_ns = clock_unix_ns();
    std::optional<Uuidv7Tick> now =
        core::uuidv7_tick(now_ns / kNsPerMs, static_cast<std::uint32_t>(now_ns % kNsPerMs));
    if (unlikely(!now))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("system clock is outside the range of uuid_v7")));
    return *now;
}

// Waits until the clock has advanced by ticks (at most kUuidv7WaitWindow, 1 ms).
void wait_ticks(Uuidv7Tick now, Uuidv7Tick ticks) {
    clock_wait_until(tick_unix_ns(now), tick_unix_ns(now + ticks));
}

// Next tick of this backend, strictly above its previous one (and, under
// 'server' order, above every tick issued under 'server' by any backend), with
// shared memory above every tick issued before the server started, and at most
// idgen.max_clock_regression ahead of the clock: a faster burst waits.
Uuidv7Tick issue_tick() {
    SharedState *state = shared_state();
    BackendSlot *slot = my_slot();
    bool server = server_order(uuid_v7_order, state, "idgen.uuid_v7_order");
    lease_origin_check(state);
    Uuidv7Tick max_lead = static_cast<Uuidv7Tick>(max_clock_regression_ms)
                          << core::kUuidv7SubmsBits;
    // A clock set back across a restart must not issue below the clock lease's
    // floor: ticks stay above the floor as above another backend's tick, while
    // the lead is still measured from the clock itself.
    auto lease_floor = static_cast<Uuidv7Tick>(clock_floor_ms(state)) << core::kUuidv7SubmsBits;
    Uuidv7Tick below_lease = lease_floor > 0 ? lease_floor - 1 : 0;
    // The server counter is read before the clock, so that a tick another
    // backend issued within the bound of an earlier clock reading never looks
    // like a clock set back past the bound.
    std::uint64_t server_last = server ? pg_atomic_read_u64(&state->uuid_v7_server_last) : 0;
    bool waited = false;
    for (;;) {
        core::Uuidv7Sequence candidate = slot->uuid_v7;
        Uuidv7Tick now = clock_tick();
        Uuidv7Tick floor = server_last > below_lease ? server_last : below_lease;
        core::Uuidv7Issue issue = core::uuidv7_issue(candidate, now, floor, max_lead);
        if (likely(issue.step == core::Uuidv7Step::issue)) {
            // On failure server_last is refreshed with the winner's tick; retry above it.
            if (server && !pg_atomic_compare_exchange_u64(&state->uuid_v7_server_last,
                                                          &server_last, issue.tick))
                continue;
            slot->uuid_v7 = candidate;
            if (state != nullptr)
                lease_cover(state, LeaseKind::clock, core::uuidv7_tick_unix_ms(issue.tick));
            count_issue(slot, Family::uuid_v7, tick_unix_ns(issue.tick) / kNsPerUs,
                        issue.clock_regressed, issue.ran_ahead);
            return issue.tick;
        }
        if (issue.step == core::Uuidv7Step::exhausted)
            ereport(ERROR,
                    (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                     errmsg("uuid_v7 timestamps are exhausted"),
                     errdetail("The last issued value already holds the largest timestamp.")));
        // One wait per call, however many rounds it takes.
        if (!waited) {
            count_wait(slot, Family::uuid_v7);
            waited = true;
        }
        wait_ticks(now, issue.wait_ticks);
        if (server) server_last = pg_atomic_read_u64(&state->uuid_v7_server_last);
    }
}

}  // namespace

void uuid_v7_mint(std::uint8_t out[core::kUuidBytes]) {
    core::uuidv7_encode(issue_tick(), random_u64(), out);
}

namespace {

Datum uuid_datum(Uuidv7Tick tick, std::uint64_t random) {
    auto *uuid = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));
    core::uuidv7_encode(tick, random, uuid->data);
    return UUIDPGetDatum(uuid);
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_uuid_v7);
PG_FUNCTION_INFO_V1(idgen_uuid_v7_shift);
PG_FUNCTION_INFO_V1(idgen_uuid_v7_at);
PG_FUNCTION_INFO_V1(idgen_uuid_v7_boundary);
PG_FUNCTION_INFO_V1(idgen_uuid_v7_time);

// uuid_v7(): a new UUIDv7 from the clock, strictly increasing per backend.
Datum idgen_uuid_v7(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    auto *uuid = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));
    uuid_v7_mint(uuid->data);
    PG_RETURN_UUID_P(uuid);
}

// uuid_v7(shift): as uuid_v7(), with the embedded time moved by an interval.
Datum idgen_uuid_v7_shift(PG_FUNCTION_ARGS) {
    Interval *shift = PG_GETARG_INTERVAL_P(0);
#if PG_VERSION_NUM >= 170000
    if (INTERVAL_NOT_FINITE(shift)) report_infinite_time("uuid_v7", "interval");
#endif
    Uuidv7Tick tick = issue_tick();
    std::int64_t unix_ns = tick_unix_ns(tick);
    TimestampTz now = unix_ns / kNsPerUs - kUnixToPgEpochUs;
    TimestampTz shifted = DatumGetTimestampTz(
        DirectFunctionCall2(timestamptz_pl_interval, TimestampTzGetDatum(now),
                            IntervalPGetDatum(shift)));
    // Keep the sub-microsecond part so that equal shifts preserve the order.
    Uuidv7Tick shifted_tick = tick_of_timestamp(shifted, unix_ns % kNsPerUs);
    return uuid_datum(shifted_tick, random_u64());
}

// uuid_v7_at(ts): a UUIDv7 for a given instant (random bits, no sequence).
Datum idgen_uuid_v7_at(PG_FUNCTION_ARGS) {
    Uuidv7Tick tick = tick_of_timestamp(PG_GETARG_TIMESTAMPTZ(0), 0);
    return uuid_datum(tick, random_u64());
}

// uuid_v7_boundary(ts): the smallest UUIDv7 of the millisecond holding ts.
Datum idgen_uuid_v7_boundary(PG_FUNCTION_ARGS) {
    Uuidv7Tick tick = tick_of_timestamp(PG_GETARG_TIMESTAMPTZ(0), 0);
    auto *uuid = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));
    idgen::core::uuidv7_boundary(idgen::core::uuidv7_tick_unix_ms(tick), uuid->data);
    PG_RETURN_UUID_P(uuid);
}

// uuid_v7_time(id): the millisecond embedded in a UUIDv7; NULL for other UUIDs.
Datum idgen_uuid_v7_time(PG_FUNCTION_ARGS) {
    pg_uuid_t *uuid = PG_GETARG_UUID_P(0);
    std::optional<std::int64_t> unix_ms = idgen::core::uuidv7_unix_ms(uuid->data);
    if (!unix_ms) PG_RETURN_NULL();
    PG_RETURN_TIMESTAMPTZ(*unix_ms * kUsPerMs - kUnixToPgEpochUs);
}

}  // extern "C"
