// The wall clock, and the errors shared by the families whose IDs carry
// 48 bits of Unix milliseconds (uuid_v7, ulid, timeflake, push_id).
#include <time.h>

#include "pg/state.hpp"

namespace idgen::pg {

namespace {
std::int64_t clock_ns(clockid_t clock) {
    struct timespec now;
    if (unlikely(clock_gettime(clock, &now) != 0))
        ereport(ERROR, (errcode_for_file_access(), errmsg("could not read the system clock: %m")));
    return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

// What a 48-bit Unix-millisecond field holds, for the detail of its range errors.
constexpr char kMs48Range[] =
    "Its 48-bit millisecond field holds instants from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.";
}  // namespace

std::int64_t clock_unix_ns() { return clock_ns(CLOCK_REALTIME); }

std::int64_t clock_monotonic_ns() { return clock_ns(CLOCK_MONOTONIC); }

void report_time_out_of_range(TimestampTz ts, const char *type_name) {
    ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                    errmsg("timestamp out of range for %s: \"%s\"", type_name, timestamptz_to_str(ts)),
                    errdetail("%s", kMs48Range)));
    pg_unreachable();
}

void report_infinite_time(const char *type_name, const char *what) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("cannot build a %s from an infinite %s", type_name, what)));
    pg_unreachable();
}

std::int64_t clock_unix_ms48(const char *type_name) {
    std::int64_t now_ms = floor_div(clock_unix_ns(), kNsPerMs);
    if (unlikely(now_ms < 0 || now_ms > core::kUuidv7MaxUnixMs))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("system clock is outside the range of %s", type_name),
                        errdetail("%s", kMs48Range)));
    return now_ms;
}

std::int64_t unix_ms48_of(TimestampTz ts, const char *type_name) {
    if (TIMESTAMP_NOT_FINITE(ts)) report_infinite_time(type_name, "timestamp");
    std::int64_t unix_ms = floor_div(ts + kUnixToPgEpochUs, kUsPerMs);
    if (unix_ms < 0 || unix_ms > core::kUuidv7MaxUnixMs) report_time_out_of_range(ts, type_name);
    return unix_ms;
}

}  // namespace idgen::pg
