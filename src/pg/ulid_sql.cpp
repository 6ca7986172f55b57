// The ulid type (16 bytes, the byte order of the ULID spec) and its SQL entry
// points: text and binary I/O, comparison, hashing, sort support, ulid(),
// ulid_at(), ulid_boundary() and ulid_time().
#include <cstring>

#include "core/base32.hpp"
#include "core/ulid.hpp"
#include "pg/fixed_bytes.hpp"

namespace idgen::pg {
namespace {

using core::Uint128;
using core::kUint128Bytes;

Datum ulid_datum(Uint128 id) {
    auto *bytes = static_cast<std::uint8_t *>(palloc(kUint128Bytes));
    core::store_be128(id, bytes);
    return PointerGetDatum(bytes);
}

constexpr FixedBytesType kUlidType = {"ulid", "ULID", "A ulid", kUint128Bytes, core::kBase32Digits128};

// Positions count characters in the database encoding; lengths are only
// reported for text made of base32 digits, where bytes are characters. The
// error is soft where the caller asks (IDGEN_ERRSAVE): the caller then returns.
void report_bad_text(const char *text, const core::Base32Decoded &decoded, Node *escontext) {
    const char *type_error = "invalid input syntax for type ulid: \"%s\"";
    switch (decoded.status) {
        case core::Base32Status::wrong_length:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                           errdetail("A ULID is 26 characters long; this value has %zu.",
                                     std::strlen(text))));
            break;
        case core::Base32Status::too_large:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                           errdetail("Its first character is above 7; the largest ULID is "
                                     "7ZZZZZZZZZZZZZZZZZZZZZZZZZ.")));
            break;
        default: {
            const char *bad = text + decoded.position;
            auto first_byte = static_cast<unsigned char>(*bad);
            int position = pg_mbstrlen_with_len(text, static_cast<int>(decoded.position)) + 1;
            bool control = first_byte < 0x20 || first_byte == 0x7F;
            bool confusable = std::strchr("ILOUilou", first_byte) != nullptr;
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                           control ? errdetail("Control character 0x%02X at position %d is not a "
                                               "Crockford base32 digit.",
                                               first_byte, position)
                                   : errdetail("Character \"%.*s\" at position %d is not a "
                                               "Crockford base32 digit.",
                                               pg_mblen(bad), bad, position),
                           confusable ? errhint("Crockford base32 has no I, L, O or U; "
                                                "ulid does not read them as 1, 1, 0.")
                                      : 0));
        }
    }
}

// 80 fresh random bits, in the low bytes of a 128-bit value.
Uint128 random_bits() {
    constexpr std::size_t kRandomBytes = core::kUlidRandomBits / 8;
    std::uint8_t bytes[kUint128Bytes] = {};
    random_bytes(bytes + kUint128Bytes - kRandomBytes, kRandomBytes);
    return core::load_be128(bytes);
}

// The clock in Unix milliseconds, and its reading in nanoseconds.
std::int64_t clock_ms(std::int64_t &now_ns) {
    now_ns = clock_unix_ns();
    std::int64_t now_ms = floor_div(now_ns, kNsPerMs);
    if (unlikely(now_ms < 0 || now_ms > core::kUlidMaxUnixMs))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("system clock is outside the range of ulid")));
    return now_ms;
}

// Next ULID of this backend in the spec's monotonic mode, strictly above its
// previous one (and, under 'server' order, above every ULID issued under
// 'server' by any backend), with shared memory never in a millisecond below
// the clock lease's floor, and at most idgen.max_clock_regression ahead of the
// clock, as uuid_v7() (uuidv7_sql.cpp, whose steps this follows).
core::Uint128 issue_ulid() {
    SharedState *state = shared_state();
    BackendSlot *slot = my_slot();
    bool server = server_order(ulid_order, state, "idgen.ulid_order");
    lease_origin_check(state);
    std::int64_t floor_ms = clock_floor_ms(state);
    // What the server's last ULID is believed to be, before the clock is read:
    // this backend's own last, which it is when no other backend issued since.
    // A compare-and-exchange that finds otherwise refreshes it, and the clock
    // is read again, so that a ULID another backend issued at a later clock
    // reading never looks like one running ahead.
    Uint128 server_last = server ? slot->ulid.last_issued : 0;
    Uint128 random = 0;
    bool drawn = false, waited = false;
    for (;;) {
        core::UlidSequence candidate = slot->ulid;
        std::int64_t now_ns;
        std::int64_t now_ms = clock_ms(now_ns);
        // Within a millisecond the ID is the previous + 1: random bits would go unused.
        if (!drawn && core::ulid_needs_random(candidate, server_last, std::max(now_ms, floor_ms))) {
            random = random_bits();
            drawn = true;
        }
        core::UlidIssue issue = core::ulid_issue(candidate, now_ms, server_last, floor_ms,
                                                 max_clock_regression_ms, random);
        if (likely(issue.step == core::IssueStep::issue)) {
            if (server && !shared_u128_compare_exchange(state->ulid_server_last, server_last, issue.id))
                continue;
            slot->ulid = candidate;
            if (state != nullptr) lease_cover(state, LeaseKind::clock, core::ulid_unix_ms(issue.id));
            count_issue(slot, Family::ulid, core::ulid_unix_ms(issue.id) * kUsPerMs,
                        issue.clock_regressed, issue.ran_ahead);
            return issue.id;
        }
        if (issue.step == core::IssueStep::exhausted)
            ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                            errmsg("ulid values are exhausted"),
                            errdetail("The last issued value is the largest ULID.")));
        // One wait per call, however many rounds it takes.
        if (!waited) {
            count_wait(slot, Family::ulid);
            waited = true;
        }
        clock_wait_until(now_ns, (now_ms + issue.wait_ms) * kNsPerMs);
        if (server) server_last = shared_u128_read(state->ulid_server_last);
    }
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

// Comparison, hashing (hash_any over the 16 bytes: the same hash as the equal
// uuid's), sort support, ulid_send and the cast to bytea.
IDGEN_FIXED_BYTES_FUNCTIONS(ulid, kUint128Bytes)

PG_FUNCTION_INFO_V1(idgen_ulid_in);
PG_FUNCTION_INFO_V1(idgen_ulid_out);
PG_FUNCTION_INFO_V1(idgen_ulid_recv);
PG_FUNCTION_INFO_V1(idgen_ulid);
PG_FUNCTION_INFO_V1(idgen_ulid_at);
PG_FUNCTION_INFO_V1(idgen_ulid_boundary);
PG_FUNCTION_INFO_V1(idgen_ulid_time);
PG_FUNCTION_INFO_V1(idgen_ulid_from_bytea);

// ulid_in: 26 Crockford base32 characters, either case, at most 7ZZZ...Z.
Datum idgen_ulid_in(PG_FUNCTION_ARGS) {
    const char *text = PG_GETARG_CSTRING(0);
    core::Base32Decoded decoded = core::base32_decode128(text);
    if (decoded.status != core::Base32Status::ok) {
        report_bad_text(text, decoded, fcinfo->context);
        return static_cast<Datum>(0);  // a soft error, saved for the caller
    }
    return ulid_datum(decoded.value);
}

// ulid_out: the canonical uppercase text.
Datum idgen_ulid_out(PG_FUNCTION_ARGS) {
    auto *text = static_cast<char *>(palloc(core::kBase32Digits128 + 1));
    core::base32_encode128(core::load_be128(fixed_bytes(PG_GETARG_DATUM(0))), text);
    text[core::kBase32Digits128] = '\0';
    PG_RETURN_CSTRING(text);
}

// ulid_recv: the raw 16 bytes, as ulid_send writes them.
Datum idgen_ulid_recv(PG_FUNCTION_ARGS) {
    return fixed_bytes_recv(fcinfo, kUlidType);
}

// ulid(): a new ULID, monotonic within this backend (the spec's monotonic mode).
Datum idgen_ulid(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    return ulid_datum(issue_ulid());
}

// ulid_at(ts): a ULID of the millisecond holding ts, with fresh random bits.
Datum idgen_ulid_at(PG_FUNCTION_ARGS) {
    std::int64_t unix_ms = unix_ms48_of(PG_GETARG_TIMESTAMPTZ(0), "ulid");
    return ulid_datum(core::ulid_make(unix_ms, random_bits()));
}

// ulid_boundary(ts): the smallest ULID of the millisecond holding ts.
Datum idgen_ulid_boundary(PG_FUNCTION_ARGS) {
    return ulid_datum(core::ulid_boundary(unix_ms48_of(PG_GETARG_TIMESTAMPTZ(0), "ulid")));
}

// ulid_time(id): the millisecond a ULID carries.
Datum idgen_ulid_time(PG_FUNCTION_ARGS) {
    std::int64_t unix_ms = core::ulid_unix_ms(core::load_be128(fixed_bytes(PG_GETARG_DATUM(0))));
    PG_RETURN_TIMESTAMPTZ(unix_ms * kUsPerMs - kUnixToPgEpochUs);
}

// ulid_from_bytea(bytes): the cast from bytea, exactly 16 bytes (22P03, as
// PostgreSQL 19's bytea -> uuid; soft where the caller asks).
Datum idgen_ulid_from_bytea(PG_FUNCTION_ARGS) {
    return fixed_bytes_from_bytea(fcinfo, kUlidType);
}

}  // extern "C"
