// The ksuid type (20 bytes, segmentio/ksuid's byte order) and its SQL entry
// points: text and binary I/O, comparison, hashing, sort support, ksuid(),
// ksuid_at(), ksuid_boundary(), ksuid_time(), ksuid_payload() and the casts
// to and from bytea.
#include <cstring>

#include "core/ksuid.hpp"
#include "pg/fixed_bytes.hpp"

namespace idgen::pg {
namespace {

using core::Ksuid;
using core::kKsuidBytes;

constexpr std::int64_t kUsPerSecond = 1'000'000;
constexpr std::int64_t kNsPerSecond = 1'000'000'000;
constexpr std::int64_t kMsPerSecond = 1000;

Datum ksuid_datum(Ksuid id) {
    auto *bytes = static_cast<std::uint8_t *>(palloc(kKsuidBytes));
    core::ksuid_store(id, bytes);
    return PointerGetDatum(bytes);
}

constexpr FixedBytesType kKsuidType = {"ksuid", "KSUID", "A ksuid", kKsuidBytes, core::kKsuidTextLength};

// Positions count characters in the database encoding; lengths are only
// reported for text made of base62 digits, where bytes are characters. The
// error is soft where the caller asks (IDGEN_ERRSAVE): the caller then returns.
void report_bad_text(const char *text, const core::KsuidDecoded &decoded, Node *escontext) {
    const char *type_error = "invalid input syntax for type ksuid: \"%s\"";
    switch (decoded.status) {
        case core::KsuidStatus::wrong_length:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                           errdetail("A KSUID is 27 characters long; this value has %zu.",
                                     std::strlen(text))));
            break;
        case core::KsuidStatus::too_large:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                           errdetail("Its value is above 2^160 - 1; the largest KSUID is %s.",
                                     core::kKsuidMaxText)));
            break;
        default: {
            const char *bad = text + decoded.position;
            auto first_byte = static_cast<unsigned char>(*bad);
            int position = pg_mbstrlen_with_len(text, static_cast<int>(decoded.position)) + 1;
            bool control = first_byte < 0x20 || first_byte == 0x7F;
            // segmentio/ksuid reads any byte as a digit: such text may come from it.
            bool lax_length = std::strlen(text) == core::kKsuidTextLength;
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                           control ? errdetail("Control character 0x%02X at position %d is not a "
                                               "base62 digit (0-9, A-Z, a-z).",
                                               first_byte, position)
                                   : errdetail("Character \"%.*s\" at position %d is not a "
                                               "base62 digit (0-9, A-Z, a-z).",
                                               pg_mblen(bad), bad, position),
                           lax_length ? errhint("segmentio/ksuid's parser reads any byte as a "
                                                "digit; ksuid accepts only the 62 digits.")
                                      : 0));
        }
    }
}

// A fresh 128-bit random payload.
core::Uint128 random_payload() {
    std::uint8_t bytes[core::kKsuidPayloadBytes];
    random_bytes(bytes, sizeof bytes);
    return core::load_be128(bytes);
}

// The clock in KSUID seconds, and its reading in nanoseconds.
std::int64_t clock_seconds(std::int64_t &now_ns) {
    now_ns = clock_unix_ns();
    std::int64_t unix_seconds = floor_div(now_ns, kNsPerSecond);
    if (unlikely(!core::ksuid_unix_seconds_valid(unix_seconds)))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("system clock is outside the range of ksuid"),
                        errdetail("A KSUID holds seconds from 2014-05-13 16:53:20 UTC to "
                                  "2150-06-19 23:21:35 UTC.")));
    return unix_seconds - core::kKsuidEpochUnixSeconds;
}

// The KSUID second of a finite timestamp within the format's range, or the
// errors: 22023 for an infinite one, 22008 outside the range.
std::int64_t ksuid_second_of(TimestampTz ts) {
    if (TIMESTAMP_NOT_FINITE(ts)) report_infinite_time("ksuid", "timestamp");
    std::int64_t unix_seconds = floor_div(ts + kUnixToPgEpochUs, kUsPerSecond);
    if (!core::ksuid_unix_seconds_valid(unix_seconds))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("timestamp out of range for ksuid: \"%s\"", timestamptz_to_str(ts)),
                        errdetail("Its 32-bit second field holds instants from "
                                  "2014-05-13 16:53:20 UTC to 2150-06-19 23:21:35 UTC.")));
    return unix_seconds - core::kKsuidEpochUnixSeconds;
}

// The last KSUID issued under 'server' order, read and compare-and-exchanged
// as SharedU128 (order.cpp): a spinlock held for a compare and a store only.
Ksuid shared_ksuid_read(SharedKsuid &shared) {
    SpinLockAcquire(&shared.mutex);
    Ksuid value = shared.value;
    SpinLockRelease(&shared.mutex);
    return value;
}

bool shared_ksuid_compare_exchange(SharedKsuid &shared, Ksuid &expected, Ksuid desired) {
    SpinLockAcquire(&shared.mutex);
    Ksuid current = shared.value;
    bool swapped = current == expected;
    if (swapped) shared.value = desired;
    SpinLockRelease(&shared.mutex);
    expected = current;
    return swapped;
}

// Next KSUID of this backend, strictly above its previous one (and, under
// 'server' order, above every KSUID issued under 'server' by any backend):
// a new second takes a fresh payload, a KSUID in the same second is the
// previous + 1 (segmentio's Next()). Never in a second below the clock
// lease's floor, and at most idgen.max_clock_regression (whole seconds)
// ahead of the clock, as ulid() (ulid_sql.cpp, whose steps this follows).
Ksuid issue_ksuid() {
    SharedState *state = shared_state();
    BackendSlot *slot = my_slot();
    bool server = server_order(ksuid_order, state, "idgen.ksuid_order");
    lease_origin_check(state);
    // Every KSUID before this server started lies in a second below the floor
    // rounded up to a whole second: the lease covers the first millisecond of
    // each KSUID's second. (Covering its last would lift the other clock
    // families' floor up to 1 s above their last IDs at each clean restart.)
    std::int64_t floor =
        -floor_div(-clock_floor_ms(state), kMsPerSecond) - core::kKsuidEpochUnixSeconds;
    std::int64_t max_lead = max_clock_regression_ms / kMsPerSecond;
    // What the server's last KSUID is believed to be, before the clock is
    // read: this backend's own last, as in issue_ulid().
    Ksuid server_last = server ? slot->ksuid.last_issued : core::kKsuidNil;
    core::Uint128 payload = 0;
    bool drawn = false, waited = false;
    for (;;) {
        core::KsuidSequence candidate = slot->ksuid;
        std::int64_t now_ns;
        std::int64_t now = clock_seconds(now_ns);
        // Within a second the ID is the previous + 1: a payload would go unused.
        if (!drawn && core::ksuid_needs_random(candidate, server_last, std::max(now, floor))) {
            payload = random_payload();
            drawn = true;
        }
        core::KsuidIssue issue = core::ksuid_issue(candidate, now, server_last, floor, max_lead, payload);
        if (likely(issue.step == core::IssueStep::issue)) {
            if (server && !shared_ksuid_compare_exchange(state->ksuid_server_last, server_last, issue.id))
                continue;
            slot->ksuid = candidate;
            std::int64_t unix_seconds = core::ksuid_unix_seconds(issue.id);
            if (state != nullptr)
                lease_cover(state, LeaseKind::clock, unix_seconds * kMsPerSecond);
            count_issue(slot, Family::ksuid, unix_seconds * kUsPerSecond, issue.clock_regressed,
                        issue.ran_ahead);
            return issue.id;
        }
        if (issue.step == core::IssueStep::exhausted)
            ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                            errmsg("ksuid values are exhausted"),
                            errdetail("The last issued value is the largest KSUID.")));
        // One wait per call, however many rounds it takes.
        if (!waited) {
            count_wait(slot, Family::ksuid);
            waited = true;
        }
        clock_wait_until(now_ns, (now + core::kKsuidEpochUnixSeconds + issue.wait) * kNsPerSecond);
        if (server) server_last = shared_ksuid_read(state->ksuid_server_last);
    }
}

}  // namespace

std::int64_t ksuid_clock_issued_below_ms(const BackendSlot *slot) {
    if (slot->ksuid.last_issued == core::kKsuidNil) return 0;
    return core::ksuid_unix_seconds(slot->ksuid.last_issued) * kMsPerSecond + 1;
}

}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

// Comparison, hashing, sort support, ksuid_send and the cast to bytea.
IDGEN_FIXED_BYTES_FUNCTIONS(ksuid, kKsuidBytes)

PG_FUNCTION_INFO_V1(idgen_ksuid_in);
PG_FUNCTION_INFO_V1(idgen_ksuid_out);
PG_FUNCTION_INFO_V1(idgen_ksuid_recv);
PG_FUNCTION_INFO_V1(idgen_ksuid);
PG_FUNCTION_INFO_V1(idgen_ksuid_at);
PG_FUNCTION_INFO_V1(idgen_ksuid_boundary);
PG_FUNCTION_INFO_V1(idgen_ksuid_time);
PG_FUNCTION_INFO_V1(idgen_ksuid_payload);
PG_FUNCTION_INFO_V1(idgen_ksuid_from_bytea);

// ksuid_in: 27 base62 characters (0-9A-Za-z), at most aWgEPTl1tmebfsQzFP4bxwgy80V.
Datum idgen_ksuid_in(PG_FUNCTION_ARGS) {
    const char *text = PG_GETARG_CSTRING(0);
    core::KsuidDecoded decoded = core::ksuid_decode(text);
    if (decoded.status != core::KsuidStatus::ok) {
        report_bad_text(text, decoded, fcinfo->context);
        return static_cast<Datum>(0);  // a soft error, saved for the caller
    }
    return ksuid_datum(decoded.value);
}

// ksuid_out: the 27 base62 characters.
Datum idgen_ksuid_out(PG_FUNCTION_ARGS) {
    auto *text = static_cast<char *>(palloc(core::kKsuidTextLength + 1));
    core::ksuid_encode(core::ksuid_load(fixed_bytes(PG_GETARG_DATUM(0))), text);
    text[core::kKsuidTextLength] = '\0';
    PG_RETURN_CSTRING(text);
}

// ksuid_recv: the raw 20 bytes, as ksuid_send writes them.
Datum idgen_ksuid_recv(PG_FUNCTION_ARGS) {
    return fixed_bytes_recv(fcinfo, kKsuidType);
}

// ksuid(): a new KSUID, strictly increasing within this backend (or the server).
Datum idgen_ksuid(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    return ksuid_datum(issue_ksuid());
}

// ksuid_at(ts): a KSUID of the second holding ts, with a fresh random payload.
Datum idgen_ksuid_at(PG_FUNCTION_ARGS) {
    std::int64_t second = ksuid_second_of(PG_GETARG_TIMESTAMPTZ(0));
    return ksuid_datum(core::ksuid_make(static_cast<std::uint32_t>(second), random_payload()));
}

// ksuid_boundary(ts): the smallest KSUID of the second holding ts.
Datum idgen_ksuid_boundary(PG_FUNCTION_ARGS) {
    return ksuid_datum(core::ksuid_boundary(ksuid_second_of(PG_GETARG_TIMESTAMPTZ(0))));
}

// ksuid_time(id): the second a KSUID carries.
Datum idgen_ksuid_time(PG_FUNCTION_ARGS) {
    std::int64_t unix_seconds = core::ksuid_unix_seconds(core::ksuid_load(fixed_bytes(PG_GETARG_DATUM(0))));
    PG_RETURN_TIMESTAMPTZ(unix_seconds * kUsPerSecond - kUnixToPgEpochUs);
}

// ksuid_payload(id): the 16 bytes after the timestamp.
Datum idgen_ksuid_payload(PG_FUNCTION_ARGS) {
    return fixed_bytes_field(PG_GETARG_DATUM(0), core::kKsuidTimestampBytes, core::kKsuidPayloadBytes);
}

// ksuid_from_bytea(bytes): the cast from bytea, exactly 20 bytes (22P03, as
// ulid's; soft where the caller asks).
Datum idgen_ksuid_from_bytea(PG_FUNCTION_ARGS) {
    return fixed_bytes_from_bytea(fcinfo, kKsuidType);
}

}  // extern "C"
