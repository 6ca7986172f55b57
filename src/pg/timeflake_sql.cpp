// Timeflake (core/timeflake.hpp) on core uuid: timeflake(), timeflake_at(),
// timeflake_boundary(), timeflake_time() and timeflake_random(). The base62
// text is uuid_encode(u, 'base62') (short_text_sql.cpp).
#include "core/timeflake.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

using core::Uint128;

// This session's last Timeflake: plain zeroed data, never touched in the
// postmaster, so every backend (and parallel worker: PARALLEL RESTRICTED)
// starts its own sequence. No shared memory: order is per session, as in
// Timeflake's own generator, and the cost is a clock read and, once a
// millisecond, 10 random bytes.
core::TimeflakeSequence session_sequence;

Datum uuid_datum(Uint128 id) {
    auto *uuid = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));
    core::store_be128(id, uuid->data);
    PG_RETURN_UUID_P(uuid);
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_timeflake);
PG_FUNCTION_INFO_V1(idgen_timeflake_at);
PG_FUNCTION_INFO_V1(idgen_timeflake_boundary);
PG_FUNCTION_INFO_V1(idgen_timeflake_time);
PG_FUNCTION_INFO_V1(idgen_timeflake_random);

// timeflake(): strictly above this session's previous one (the same
// millisecond, or a clock set back: the previous + 1).
Datum idgen_timeflake(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    std::int64_t now_ms = clock_unix_ms48("timeflake");
    core::Uint128 random = core::timeflake_needs_random(session_sequence, now_ms)
                               ? random_low_bytes128(core::kTimeflakeRandomBytes)
                               : 0;
    core::UlidIssue issue = core::timeflake_issue(session_sequence, now_ms, random);
    if (unlikely(issue.step != core::IssueStep::issue))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timeflake values are exhausted"),
                        errdetail("This session's last Timeflake is the largest, "
                                  "ffffffff-ffff-ffff-ffff-ffffffffffff.")));
    return uuid_datum(issue.id);
}

// timeflake_at(ts): a Timeflake of the millisecond holding ts, with fresh random bits.
Datum idgen_timeflake_at(PG_FUNCTION_ARGS) {
    std::int64_t unix_ms = unix_ms48_of(PG_GETARG_TIMESTAMPTZ(0), "timeflake");
    return uuid_datum(core::timeflake_make(unix_ms, random_low_bytes128(core::kTimeflakeRandomBytes)));
}

// timeflake_boundary(ts): the smallest Timeflake of the millisecond holding ts.
Datum idgen_timeflake_boundary(PG_FUNCTION_ARGS) {
    return uuid_datum(core::timeflake_boundary(unix_ms48_of(PG_GETARG_TIMESTAMPTZ(0), "timeflake")));
}

// timeflake_time(u): the millisecond in the high 48 bits of any uuid.
Datum idgen_timeflake_time(PG_FUNCTION_ARGS) {
    std::int64_t unix_ms = core::timeflake_unix_ms(core::load_be128(PG_GETARG_UUID_P(0)->data));
    PG_RETURN_TIMESTAMPTZ(unix_ms * kUsPerMs - kUnixToPgEpochUs);
}

// timeflake_random(u): the low 80 bits as a numeric, as Timeflake's own
// libraries give them (an integer of up to 25 digits).
Datum idgen_timeflake_random(PG_FUNCTION_ARGS) {
    char digits[core::kTimeflakeRandomMaxDigits + 1];
    std::size_t n = core::timeflake_random_decimal(core::load_be128(PG_GETARG_UUID_P(0)->data), digits);
    digits[n] = '\0';
    return DirectFunctionCall3(numeric_in, CStringGetDatum(digits), ObjectIdGetDatum(InvalidOid),
                               Int32GetDatum(-1));
}

}  // extern "C"
