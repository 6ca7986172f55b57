// The 12-byte types' shared glue (id96_sql.hpp): the generators' state and
// minting, and the C functions that objectid's and rsxid's comparison,
// hashing, sort support, send, to-bytea and time functions both name.
#include <cstring>

#include "pg/id96_sql.hpp"

namespace idgen::pg {
namespace {

using core::kId96Bytes;

// The process bytes and the counter's random start of a new generator.
void draw_generator(Id96Generator &generator, const std::uint8_t random[kId96ProcessBytes + 3]) {
    std::memcpy(generator.process, random, kId96ProcessBytes);
    generator.seq = core::second_counter_start(core::load_be24(random + kId96ProcessBytes));
}

// Without shared memory: this backend's generators, drawn at its first ID
// (and again should the process id change).
Id96Generator local_generators[kId96Kinds];
int local_generators_pid[kId96Kinds];

Id96Generator &local_generator(Id96Kind kind) {
    int k = static_cast<int>(kind);
    if (unlikely(local_generators_pid[k] != MyProcPid)) {
        std::uint8_t random[kId96ProcessBytes + 3];
        random_bytes(random, sizeof random);
        draw_generator(local_generators[k], random);
        local_generators_pid[k] = MyProcPid;
    }
    return local_generators[k];
}

constexpr std::int64_t kUnixToPgEpochSeconds = kUnixToPgEpochUs / USECS_PER_SEC;

}  // namespace

void id96_generators_startup(Id96Generator *generators) {
    for (int k = 0; k < kId96Kinds; ++k) {
        std::uint8_t random[kId96ProcessBytes + 3];
        if (!pg_strong_random(random, sizeof random))
            ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                            errmsg("could not generate random values for idgen")));
        SpinLockInit(&generators[k].mutex);
        draw_generator(generators[k], random);
    }
}

std::uint32_t id96_seconds_of(TimestampTz ts, const char *type_name) {
    if (TIMESTAMP_NOT_FINITE(ts))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("cannot build an %s from an infinite timestamp", type_name)));
    // In seconds first: ts + the epoch offset in microseconds can overflow.
    std::int64_t unix_s = floor_div(ts, USECS_PER_SEC) + kUnixToPgEpochSeconds;
    if (unix_s < 0 || unix_s > core::kId96MaxUnixSeconds)
        ereport(ERROR,
                (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                 errmsg("timestamp out of range for %s: \"%s\"", type_name, timestamptz_to_str(ts)),
                 errdetail("Its 32-bit seconds field holds instants from 1970-01-01 00:00:00 UTC "
                           "to 2106-02-07 06:28:15 UTC.")));
    return static_cast<std::uint32_t>(unix_s);
}

Id96Minted id96_mint(Id96Kind kind, Family family, const char *type_name) {
    SharedState *state = shared_state();
    std::int64_t now_s = floor_div(clock_unix_ns(), kNsPerMs * 1000);
    Id96Minted minted;
    core::SecondCounterIssue issue;
    if (state != nullptr) {
        Id96Generator &generator = state->id96[static_cast<int>(kind)];
        SpinLockAcquire(&generator.mutex);
        issue = core::second_counter_issue(generator.seq, now_s);
        std::memcpy(minted.process, generator.process, kId96ProcessBytes);
        SpinLockRelease(&generator.mutex);
    } else {
        Id96Generator &generator = local_generator(kind);
        issue = core::second_counter_issue(generator.seq, now_s);
        std::memcpy(minted.process, generator.process, kId96ProcessBytes);
    }
    if (unlikely(issue.step == core::SecondCounterStep::clock_out_of_range))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("system clock is outside the range of %s", type_name),
                        errdetail("Its 32-bit seconds field holds instants from 1970-01-01 "
                                  "00:00:00 UTC to 2106-02-07 06:28:15 UTC.")));
    if (unlikely(issue.step == core::SecondCounterStep::exhausted))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("%s values are exhausted", type_name),
                        errdetail("2^24 values were issued in its last second, "
                                  "2106-02-07 06:28:15 UTC.")));
    count_issue(my_slot(), family, std::int64_t{issue.seconds} * USECS_PER_SEC,
                issue.clock_regressed, issue.ran_ahead);
    minted.seconds = issue.seconds;
    minted.counter = issue.counter;
    return minted;
}

}  // namespace idgen::pg

using namespace idgen::pg;

extern "C" {

IDGEN_FIXED_BYTES_FUNCTIONS(id96, idgen::core::kId96Bytes)

PG_FUNCTION_INFO_V1(idgen_id96_time);

// The second an ID carries (unsigned 32-bit, as the BSON spec reads it).
Datum idgen_id96_time(PG_FUNCTION_ARGS) {
    std::int64_t unix_s = idgen::core::id96_seconds(fixed_bytes(PG_GETARG_DATUM(0)));
    PG_RETURN_TIMESTAMPTZ((unix_s - kUnixToPgEpochSeconds) * USECS_PER_SEC);
}

}  // extern "C"
