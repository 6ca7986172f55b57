// SQL entry points on core uuid for UUIDv6 and UUIDv8 (RFC 9562 §5.6, §5.8):
// uuid_v6(), uuid_v6_at(), uuid_v6_boundary(), uuid_v6_time(),
// uuid_v6_from_v1(), uuid_v1_from_v6(), uuid_v8() and uuid_v8_sha256().
//
// uuid_v6() orders as uuid_v7() does (per backend, or server-wide under
// idgen.uuid_v6_order), at the 100 ns of its timestamp. Its clock sequence and
// node are random for every value (a random node with the multicast bit set,
// §6.10): a v1-style generator keeps them fixed and bumps the clock sequence
// when the clock goes back, but here order and uniqueness come from the
// strictly increasing timestamp, and 61 fresh random bits per value say
// nothing about the host, as a MAC address would.
#include "core/uuidv6.hpp"
#include "core/uuidv8.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

using core::Uuidv6Tick;

constexpr std::int64_t kNsPerTick = 100;

[[noreturn]] void report_v6_time_out_of_range(TimestampTz ts) {
    ereport(ERROR,
            (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
             errmsg("timestamp out of range for uuid_v6: \"%s\"", timestamptz_to_str(ts)),
             errdetail("Its 60-bit count of 100 ns intervals holds instants from "
                       "1582-10-15 00:00:00 UTC to 5236-03-31 21:21:00.684697 UTC.")));
    pg_unreachable();
}

// The tick of a PostgreSQL timestamp (its microsecond's first 100 ns).
Uuidv6Tick tick_of_timestamp(TimestampTz ts) {
    if (TIMESTAMP_NOT_FINITE(ts)) report_infinite_time("uuid_v6", "timestamp");
    std::optional<Uuidv6Tick> tick = core::uuidv6_tick_of_unix_us(ts + kUnixToPgEpochUs, 0);
    if (!tick) report_v6_time_out_of_range(ts);
    return *tick;
}

TimestampTz timestamp_of_tick(Uuidv6Tick tick) {
    return core::uuidv6_tick_unix_us(tick) - kUnixToPgEpochUs;
}

// The clock as a tick.
Uuidv6Tick clock_tick() {
    std::optional<Uuidv6Tick> now = core::uuidv6_tick_of_unix_ns(clock_unix_ns());
    if (unlikely(!now))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("system clock is outside the range of uuid_v6")));
    return *now;
}

std::int64_t tick_unix_ns(Uuidv6Tick tick) {
    return (static_cast<std::int64_t>(tick) - core::kUuidv6UnixEpochTick) * kNsPerTick;
}

// Next tick of this backend, as uuidv7_sql.cpp's issue_tick(): strictly above
// its previous one (and, under 'server' order, above every tick issued under
// 'server' by any backend), above the clock lease's floor, and at most
// idgen.max_clock_regression ahead of the clock: a faster burst waits.
Uuidv6Tick issue_tick() {
    SharedState *state = shared_state();
    BackendSlot *slot = my_slot();
    bool server = server_order(uuid_v6_order, state, "idgen.uuid_v6_order");
    lease_origin_check(state);
    Uuidv6Tick max_lead =
        static_cast<Uuidv6Tick>(max_clock_regression_ms) * core::kUuidv6TicksPerMs;
    std::int64_t lease_floor_ms = clock_floor_ms(state);
    Uuidv6Tick below_lease =
        lease_floor_ms > 0
            ? static_cast<Uuidv6Tick>(lease_floor_ms * core::kUuidv6TicksPerMs +
                                      core::kUuidv6UnixEpochTick - 1)
            : 0;
    // Read before the clock, as uuid_v7's (uuidv7_sql.cpp).
    std::uint64_t server_last = server ? pg_atomic_read_u64(&state->uuid_v6_server_last) : 0;
    bool waited = false;
    for (;;) {
        core::Uuidv6Sequence candidate = slot->uuid_v6;
        Uuidv6Tick now = clock_tick();
        Uuidv6Tick floor = server_last > below_lease ? server_last : below_lease;
        core::Uuidv6Issue issue = core::uuidv6_issue(candidate, now, floor, max_lead);
        if (likely(issue.step == core::IssueStep::issue)) {
            if (server && !pg_atomic_compare_exchange_u64(&state->uuid_v6_server_last,
                                                          &server_last, issue.tick))
                continue;
            slot->uuid_v6 = candidate;
            if (state != nullptr)
                lease_cover(state, LeaseKind::clock, core::uuidv6_tick_unix_ms(issue.tick));
            count_issue(slot, Family::uuid_v6, core::uuidv6_tick_unix_us(issue.tick),
                        issue.clock_regressed, issue.ran_ahead);
            return issue.tick;
        }
        if (issue.step == core::IssueStep::exhausted)
            ereport(ERROR,
                    (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                     errmsg("uuid_v6 timestamps are exhausted"),
                     errdetail("The last issued value already holds the largest timestamp.")));
        if (!waited) {
            count_wait(slot, Family::uuid_v6);
            waited = true;
        }
        clock_wait_until(tick_unix_ns(now), tick_unix_ns(now + issue.wait_ticks));
        if (server) server_last = pg_atomic_read_u64(&state->uuid_v6_server_last);
    }
}

pg_uuid_t *new_uuid() { return static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t))); }

// The error of a reordering that refused its argument (22023).
[[noreturn]] void report_reorder(core::UuidReorder status, const char *function, int wanted,
                                 const pg_uuid_t *in) {
    Datum text = DirectFunctionCall1(uuid_out, UUIDPGetDatum(const_cast<pg_uuid_t *>(in)));
    int version = core::uuid_version(in->data);
    if (status == core::UuidReorder::not_rfc_variant)
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                 errmsg("%s needs a version %d uuid: \"%s\"", function, wanted,
                        DatumGetCString(text)),
                 errdetail("Its variant bits are not RFC 9562's (10), so it has no version.")));
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
             errmsg("%s needs a version %d uuid: \"%s\"", function, wanted, DatumGetCString(text)),
             errdetail("Its version is %d.", version),
             (wanted == 1 ? version == 6 : version == 1) ? errhint("It is already version %d.", version) : 0));
    pg_unreachable();
}

// The name-based UUIDv8 of namespace || name (RFC 9562 Appendix B.2), with
// PostgreSQL's SHA-256 (common/cryptohash.h: OpenSSL's where built with it).
Datum sha256_uuid(const pg_uuid_t *ns, const char *name, std::size_t length) {
    std::uint8_t digest[PG_SHA256_DIGEST_LENGTH];
    static_assert(PG_SHA256_DIGEST_LENGTH == core::kSha256Bytes);
    pg_cryptohash_ctx *ctx = pg_cryptohash_create(PG_SHA256);
    if (ctx == nullptr || pg_cryptohash_init(ctx) < 0 ||
        pg_cryptohash_update(ctx, ns->data, UUID_LEN) < 0 ||
        pg_cryptohash_update(ctx, reinterpret_cast<const std::uint8_t *>(name), length) < 0 ||
        pg_cryptohash_final(ctx, digest, sizeof digest) < 0)
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                        errmsg("could not compute a SHA-256 hash for uuid_v8_sha256: %s",
                               ctx != nullptr ? pg_cryptohash_error(ctx) : "out of memory")));
    pg_cryptohash_free(ctx);
    pg_uuid_t *out = new_uuid();
    core::uuidv8_from_sha256(digest, out->data);
    return UUIDPGetDatum(out);
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_uuid_v6);
PG_FUNCTION_INFO_V1(idgen_uuid_v6_at);
PG_FUNCTION_INFO_V1(idgen_uuid_v6_boundary);
PG_FUNCTION_INFO_V1(idgen_uuid_v6_time);
PG_FUNCTION_INFO_V1(idgen_uuid_v6_from_v1);
PG_FUNCTION_INFO_V1(idgen_uuid_v1_from_v6);
PG_FUNCTION_INFO_V1(idgen_uuid_v8);
PG_FUNCTION_INFO_V1(idgen_uuid_v8_sha256_text);
PG_FUNCTION_INFO_V1(idgen_uuid_v8_sha256_bytea);

// uuid_v6(): a new UUIDv6 from the clock, strictly increasing per backend
// (or server-wide under idgen.uuid_v6_order = 'server').
Datum idgen_uuid_v6(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    Uuidv6Tick tick = issue_tick();
    pg_uuid_t *out = new_uuid();
    idgen::core::uuidv6_encode_random(tick, random_u64(), out->data);
    PG_RETURN_UUID_P(out);
}

// uuid_v6_at(ts): a UUIDv6 for a given instant (random bits, no sequence).
Datum idgen_uuid_v6_at(PG_FUNCTION_ARGS) {
    Uuidv6Tick tick = tick_of_timestamp(PG_GETARG_TIMESTAMPTZ(0));
    pg_uuid_t *out = new_uuid();
    idgen::core::uuidv6_encode_random(tick, random_u64(), out->data);
    PG_RETURN_UUID_P(out);
}

// uuid_v6_boundary(ts): the smallest UUIDv6 of the microsecond holding ts.
Datum idgen_uuid_v6_boundary(PG_FUNCTION_ARGS) {
    Uuidv6Tick tick = tick_of_timestamp(PG_GETARG_TIMESTAMPTZ(0));
    pg_uuid_t *out = new_uuid();
    idgen::core::uuidv6_boundary(tick, out->data);
    PG_RETURN_UUID_P(out);
}

// uuid_v6_time(id): the instant of a UUIDv6 or UUIDv1, floored to the
// microsecond; NULL for other UUIDs (as uuid_v7_time for a non-v7).
Datum idgen_uuid_v6_time(PG_FUNCTION_ARGS) {
    std::optional<Uuidv6Tick> tick = idgen::core::uuidv1_or_v6_tick(PG_GETARG_UUID_P(0)->data);
    if (!tick) PG_RETURN_NULL();
    PG_RETURN_TIMESTAMPTZ(timestamp_of_tick(*tick));
}

// uuid_v6_from_v1(id): the same time, clock sequence and node in v6's order.
Datum idgen_uuid_v6_from_v1(PG_FUNCTION_ARGS) {
    pg_uuid_t *in = PG_GETARG_UUID_P(0);
    pg_uuid_t *out = new_uuid();
    idgen::core::UuidReorder status = idgen::core::uuidv6_from_v1(in->data, out->data);
    if (status != idgen::core::UuidReorder::ok) report_reorder(status, "uuid_v6_from_v1", 1, in);
    PG_RETURN_UUID_P(out);
}

// uuid_v1_from_v6(id): the reverse.
Datum idgen_uuid_v1_from_v6(PG_FUNCTION_ARGS) {
    pg_uuid_t *in = PG_GETARG_UUID_P(0);
    pg_uuid_t *out = new_uuid();
    idgen::core::UuidReorder status = idgen::core::uuidv1_from_v6(in->data, out->data);
    if (status != idgen::core::UuidReorder::ok) report_reorder(status, "uuid_v1_from_v6", 6, in);
    PG_RETURN_UUID_P(out);
}

// uuid_v8(bytes): 16 bytes with version 8 and the RFC variant set; any other
// length is 22P03, as idgen's bytea casts (ulid, prefixed_id) and PostgreSQL
// 19's bytea -> uuid.
Datum idgen_uuid_v8(PG_FUNCTION_ARGS) {
    bytea *bytes = PG_GETARG_BYTEA_PP(0);
    std::size_t length = VARSIZE_ANY_EXHDR(bytes);
    if (length != UUID_LEN)
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                 errmsg("invalid input length for uuid_v8"),
                 errdetail("A UUID is 16 bytes; this bytea has %zu.", length),
                 length == PG_SHA256_DIGEST_LENGTH
                     ? errhint("For a hash, pass its first 16 bytes: substring(digest from 1 for "
                               "16), or use uuid_v8_sha256().")
                     : 0));
    pg_uuid_t *out = new_uuid();
    idgen::core::uuidv8_from_bytes(reinterpret_cast<const std::uint8_t *>(VARDATA_ANY(bytes)),
                                   out->data);
    PG_RETURN_UUID_P(out);
}

// uuid_v8_sha256(namespace, name text): the name's UTF-8 octets, whatever the
// database encoding (as RFC 9562 names are; SQL_ASCII's bytes as they are).
Datum idgen_uuid_v8_sha256_text(PG_FUNCTION_ARGS) {
    pg_uuid_t *ns = PG_GETARG_UUID_P(0);
    text *name = PG_GETARG_TEXT_PP(1);
    int length = VARSIZE_ANY_EXHDR(name);
    char *utf8 = pg_server_to_any(VARDATA_ANY(name), length, PG_UTF8);
    if (utf8 != VARDATA_ANY(name)) length = static_cast<int>(strlen(utf8));
    return sha256_uuid(ns, utf8, static_cast<std::size_t>(length));
}

// uuid_v8_sha256(namespace, name bytea): the name's bytes as they are.
Datum idgen_uuid_v8_sha256_bytea(PG_FUNCTION_ARGS) {
    pg_uuid_t *ns = PG_GETARG_UUID_P(0);
    bytea *name = PG_GETARG_BYTEA_PP(1);
    return sha256_uuid(ns, VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));
}

}  // extern "C"
