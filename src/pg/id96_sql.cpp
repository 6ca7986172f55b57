// The 12-byte types' shared glue (id96_sql.hpp): the generators' state and
// minting, and the C functions that objectid's and rsxid's comparison,
// hashing, sort support, send, to-bytea and time functions both name.
#include <cstring>

#include "pg/id96_sql.hpp"

namespace idgen::pg {
namespace {

using core::kId96Bytes;

int compare_id96(Datum a, Datum b) {
    return std::memcmp(id96_bytes(a), id96_bytes(b), kId96Bytes);
}

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

// Sort support: comparisons by memcmp, and abbreviated keys made of the first
// 8 bytes (the seconds, then 4 process bytes), compared as unsigned integers.
struct AbbreviationState {
    hyperLogLogState distinct_keys;
    std::int64_t keys_seen;
    bool estimating;
};

int sort_compare(Datum a, Datum b, SortSupport) {
    return compare_id96(a, b);
}

Datum abbreviate(Datum original, SortSupport ssup) {
    const std::uint8_t *bytes = id96_bytes(original);
    std::uint64_t key = 0;
    for (int i = 0; i < 8; ++i) key = (key << 8) | bytes[i];
    auto *state = static_cast<AbbreviationState *>(ssup->ssup_extra);
    ++state->keys_seen;
    if (state->estimating) {
        auto folded = static_cast<std::uint32_t>(key ^ (key >> 32));
        addHyperLogLog(&state->distinct_keys, DatumGetUInt32(hash_uint32(folded)));
    }
    return static_cast<Datum>(key);
}

// IDs of one server in one second share their first 8 bytes: a sort of many
// such (few distinct keys) gives up abbreviating, as for ulid.
bool abandon_abbreviation(int, SortSupport ssup) {
    auto *state = static_cast<AbbreviationState *>(ssup->ssup_extra);
    constexpr std::int64_t kSampleBeforeJudging = 10'000;
    constexpr double kClearlyVaried = 100'000;
    constexpr double kRowsPerDistinctKeyToAbandon = 1'000;
    if (!state->estimating || state->keys_seen < kSampleBeforeJudging) return false;
    double distinct = estimateHyperLogLog(&state->distinct_keys);
    if (distinct > kClearlyVaried) {
        state->estimating = false;
        return false;
    }
    return distinct < static_cast<double>(state->keys_seen) / kRowsPerDistinctKeyToAbandon;
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

Datum id96_datum(const std::uint8_t *bytes) {
    auto *copy = static_cast<std::uint8_t *>(palloc(kId96Bytes));
    std::memcpy(copy, bytes, kId96Bytes);
    return PointerGetDatum(copy);
}

Datum id96_recv(FunctionCallInfo fcinfo, const char *type_name, const char *format_name) {
    auto *message = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
    int length = message->len - message->cursor;
    if (length != static_cast<int>(kId96Bytes))
        ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                        errmsg("incorrect binary data format for type %s", type_name),
                        errdetail("A binary %s is 12 bytes; this value has %d.",
                                  format_name, length)));
    return id96_datum(reinterpret_cast<const std::uint8_t *>(pq_getmsgbytes(message, kId96Bytes)));
}

Datum id96_from_bytea(FunctionCallInfo fcinfo, const char *type_name, const char *format_name,
                      std::size_t text_length) {
    bytea *bytes = PG_GETARG_BYTEA_PP(0);
    std::size_t length = VARSIZE_ANY_EXHDR(bytes);
    if (length != kId96Bytes) {
        IDGEN_ERRSAVE(fcinfo->context,
                      (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                       errmsg("invalid input length for type %s", type_name),
                       errdetail("An %s is 12 bytes; this bytea has %zu.", format_name, length),
                       length == text_length
                           ? errhint("%zu bytes may be %s text, which a cast from text reads: "
                                     "convert_from(bytes, 'UTF8')::%s.",
                                     text_length, format_name,
                                     type_name)
                           : 0));
        return static_cast<Datum>(0);
    }
    return id96_datum(reinterpret_cast<const std::uint8_t *>(VARDATA_ANY(bytes)));
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

PG_FUNCTION_INFO_V1(idgen_id96_eq);
PG_FUNCTION_INFO_V1(idgen_id96_ne);
PG_FUNCTION_INFO_V1(idgen_id96_lt);
PG_FUNCTION_INFO_V1(idgen_id96_le);
PG_FUNCTION_INFO_V1(idgen_id96_gt);
PG_FUNCTION_INFO_V1(idgen_id96_ge);
PG_FUNCTION_INFO_V1(idgen_id96_cmp);
PG_FUNCTION_INFO_V1(idgen_id96_smaller);
PG_FUNCTION_INFO_V1(idgen_id96_larger);
PG_FUNCTION_INFO_V1(idgen_id96_sortsupport);
PG_FUNCTION_INFO_V1(idgen_id96_hash);
PG_FUNCTION_INFO_V1(idgen_id96_hash_extended);
PG_FUNCTION_INFO_V1(idgen_id96_send);
PG_FUNCTION_INFO_V1(idgen_id96_to_bytea);
PG_FUNCTION_INFO_V1(idgen_id96_time);

Datum idgen_id96_eq(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_id96(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) == 0);
}

Datum idgen_id96_ne(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_id96(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) != 0);
}

Datum idgen_id96_lt(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_id96(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) < 0);
}

Datum idgen_id96_le(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_id96(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) <= 0);
}

Datum idgen_id96_gt(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_id96(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) > 0);
}

Datum idgen_id96_ge(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_id96(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) >= 0);
}

// btree support function 1: byte order, which is second order first.
Datum idgen_id96_cmp(PG_FUNCTION_ARGS) {
    int order = compare_id96(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));
    PG_RETURN_INT32(order < 0 ? -1 : order > 0 ? 1 : 0);
}

// Transition functions of min() and max().
Datum idgen_id96_smaller(PG_FUNCTION_ARGS) {
    Datum a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1);
    return compare_id96(a, b) <= 0 ? a : b;
}

Datum idgen_id96_larger(PG_FUNCTION_ARGS) {
    Datum a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1);
    return compare_id96(a, b) >= 0 ? a : b;
}

// btree support function 2, for sorts and CREATE INDEX.
Datum idgen_id96_sortsupport(PG_FUNCTION_ARGS) {
    auto ssup = reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0));
    ssup->comparator = sort_compare;
#if SIZEOF_DATUM >= 8
    if (ssup->abbreviate) {
        MemoryContext caller_context = MemoryContextSwitchTo(ssup->ssup_cxt);
        auto *state = static_cast<AbbreviationState *>(palloc(sizeof(AbbreviationState)));
        initHyperLogLog(&state->distinct_keys, 10);
        state->keys_seen = 0;
        state->estimating = true;
        MemoryContextSwitchTo(caller_context);
        ssup->ssup_extra = state;
        ssup->abbrev_converter = abbreviate;
        ssup->abbrev_abort = abandon_abbreviation;
        ssup->abbrev_full_comparator = sort_compare;
        ssup->comparator = ssup_datum_unsigned_cmp;
    }
#endif
    PG_RETURN_VOID();
}

// hash support function 1.
Datum idgen_id96_hash(PG_FUNCTION_ARGS) {
    return hash_any(id96_bytes(PG_GETARG_DATUM(0)), idgen::core::kId96Bytes);
}

// hash support function 2 (seeded 64-bit hash), used by hash partitioning.
Datum idgen_id96_hash_extended(PG_FUNCTION_ARGS) {
    return hash_any_extended(id96_bytes(PG_GETARG_DATUM(0)), idgen::core::kId96Bytes,
                             PG_GETARG_INT64(1));
}

// Binary output: the 12 bytes.
Datum idgen_id96_send(PG_FUNCTION_ARGS) {
    StringInfoData message;
    pq_begintypsend(&message);
    pq_sendbytes(&message, DatumGetPointer(PG_GETARG_DATUM(0)), idgen::core::kId96Bytes);
    PG_RETURN_BYTEA_P(pq_endtypsend(&message));
}

// The cast to bytea: the 12 bytes in the ID's order.
Datum idgen_id96_to_bytea(PG_FUNCTION_ARGS) {
    constexpr std::size_t n = idgen::core::kId96Bytes;
    auto *bytes = static_cast<bytea *>(palloc(VARHDRSZ + n));
    SET_VARSIZE(bytes, VARHDRSZ + n);
    std::memcpy(VARDATA(bytes), id96_bytes(PG_GETARG_DATUM(0)), n);
    PG_RETURN_BYTEA_P(bytes);
}

// The second an ID carries (unsigned 32-bit, as the BSON spec reads it).
Datum idgen_id96_time(PG_FUNCTION_ARGS) {
    std::int64_t unix_s = idgen::core::id96_seconds(id96_bytes(PG_GETARG_DATUM(0)));
    PG_RETURN_TIMESTAMPTZ((unix_s - kUnixToPgEpochSeconds) * USECS_PER_SEC);
}

}  // extern "C"
