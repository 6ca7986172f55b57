// The prefixed_id type ("acct_" + 25 base36 digits of 128 bits) and its SQL
// entry points, and the base36 helpers for other IDs in URLs.
//
// Stored form: a varlena holding the prefix's characters and then the 16
// payload bytes, so a value carries its own prefix (a dump restores without
// any registry) and a 4-letter prefix takes 1 + 4 + 16 = 21 bytes on disk.
// The binary (send/recv) form adds a length byte before the prefix
// (core/prefixed.hpp), so that a misframed field cannot pass for a value.
#include <algorithm>
#include <cstring>
#include <string_view>

#include "core/base36.hpp"
#include "core/prefixed.hpp"
#include "core/uuidv7.hpp"
#include "pg/prefixed_sql.hpp"
#include "pg/state.hpp"

namespace idgen::pg {

constexpr std::size_t kPayloadBytes = core::kUuidBytes;
static_assert(kPayloadBytes == core::kPrefixedPayloadBytes);

PrefixedView view_of(const varlena *value) {
    std::size_t length = VARSIZE_ANY_EXHDR(value);
    const char *data = VARDATA_ANY(value);
    return {std::string_view(data, length - kPayloadBytes),
            reinterpret_cast<const std::uint8_t *>(data + length - kPayloadBytes)};
}

Datum make_prefixed(std::string_view prefix, const std::uint8_t payload[kPayloadBytes]) {
    std::size_t size = VARHDRSZ + prefix.size() + kPayloadBytes;
    auto *value = static_cast<varlena *>(palloc(size));
    SET_VARSIZE(value, size);
    std::memcpy(VARDATA(value), prefix.data(), prefix.size());
    std::memcpy(VARDATA(value) + prefix.size(), payload, kPayloadBytes);
    return PointerGetDatum(value);
}

namespace {

constexpr const char *kTypeError = "invalid input syntax for type prefixed_id: \"%s\"";

// By prefix, then by payload: within a prefix, ordered IDs sort by time.
int compare_views(const PrefixedView &a, const PrefixedView &b) {
    std::size_t common = std::min(a.prefix.size(), b.prefix.size());
    int order = std::memcmp(a.prefix.data(), b.prefix.data(), common);
    if (order != 0) return order;
    if (a.prefix.size() != b.prefix.size()) return a.prefix.size() < b.prefix.size() ? -1 : 1;
    return std::memcmp(a.payload, b.payload, kPayloadBytes);
}

// Compares two datums without copying them unless they are toasted.
int compare_datums(Datum a, Datum b) {
    varlena *left = PG_DETOAST_DATUM_PACKED(a);
    varlena *right = PG_DETOAST_DATUM_PACKED(b);
    int order = compare_views(view_of(left), view_of(right));
    if (reinterpret_cast<Pointer>(left) != DatumGetPointer(a)) pfree(left);
    if (reinterpret_cast<Pointer>(right) != DatumGetPointer(b)) pfree(right);
    return order;
}

}  // namespace

const char *describe_prefix_problem(const core::PrefixCheck &check, std::string_view prefix) {
    switch (check.status) {
        case core::PrefixStatus::empty:
            return "The prefix is empty.";
        case core::PrefixStatus::too_long:
            return psprintf("The prefix has %zu characters; at most %zu are allowed.",
                            prefix.size(), core::kPrefixMaxLength);
        case core::PrefixStatus::starts_or_ends_with_underscore:
            return "The prefix must start and end with a letter.";
        case core::PrefixStatus::bad_character:
        default:
            return psprintf("The prefix may only hold lowercase letters a-z and underscores; "
                            "character %zu is not one.",
                            check.position + 1);
    }
}

namespace {

// Checks a prefix given as a function argument (22023 when it is invalid).
std::string_view checked_prefix_argument(const text *argument) {
    std::string_view prefix(VARDATA_ANY(argument), VARSIZE_ANY_EXHDR(argument));
    core::PrefixCheck check = core::prefix_check(prefix);
    if (check.status != core::PrefixStatus::ok)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid prefix for prefixed_id: \"%s\"", text_to_cstring(argument)),
                        errdetail_internal("%s", describe_prefix_problem(check, prefix)),
                        errhint("Use lowercase letters and underscores, such as \"acct\" or "
                                "\"user_session\".")));
    return prefix;
}

// The body (after the last "_") that base36_decode128 refused: 22P02, soft
// where the caller asks (IDGEN_ERRSAVE): the caller then returns.
void report_bad_body(const char *input, std::string_view body,
                     const core::Base36Decoded<core::Uint128> &decoded, Node *escontext) {
    switch (decoded.status) {
        case core::Base36Status::wrong_length:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                           errdetail("The part after the last \"_\" must be 25 base36 digits; "
                                     "it has %zu.",
                                     body.size())));
            break;
        case core::Base36Status::too_large:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                           errdetail("The value is above the largest 128-bit body, "
                                     "f5lxx1zz5pnorynqglhzmsp33.")));
            break;
        default: {
            const char *bad = body.data() + decoded.position;
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                           errdetail("Character \"%.*s\" of the part after the last \"_\" is "
                                     "not a base36 digit (0-9, a-z).",
                                     pg_mblen(bad), bad)));
        }
    }
}

}  // namespace

// A binary field that prefixed_wire_decode refused: 22P03, saying why.
// type_name is prefixed_id or typeid (whose prefix may be empty).
void report_bad_wire(const core::PrefixedWire &wire, std::size_t size, const std::uint8_t *data,
                     const char *type_name, bool empty_prefix_allowed) {
    const char *detail;
    const char *hint = nullptr;
    switch (wire.status) {
        case core::WireStatus::empty:
            detail = psprintf("The field is empty; a %s is sent as the prefix's length in one "
                              "byte, the prefix and 16 bytes.",
                              type_name);
            break;
        case core::WireStatus::bad_length_byte:
            detail = psprintf("The first byte, the prefix's length, is %zu; a prefix has %d to 63 "
                              "characters.",
                              wire.length_byte, empty_prefix_allowed ? 0 : 1);
            // A prefix character there is most likely the first byte of the
            // layout before 0.5.0, which had no length byte.
            if (!empty_prefix_allowed && ((data[0] >= 'a' && data[0] <= 'z') || data[0] == '_'))
                hint = "Since idgen 0.5.0 the binary form starts with the prefix's length in one "
                       "byte; a field of the prefix and 16 bytes alone is the old form.";
            break;
        case core::WireStatus::short_field:
        case core::WireStatus::trailing_bytes:
            detail = psprintf(size == 1 ? "The field has %zu byte; its length byte, %zu, calls "
                                          "for 1 + %zu + 16 = %zu."
                                        : "The field has %zu bytes; its length byte, %zu, calls "
                                          "for 1 + %zu + 16 = %zu.",
                              size, wire.length_byte, wire.length_byte, wire.expected_size);
            break;
        case core::WireStatus::bad_prefix:
        default:
            detail = describe_prefix_problem(
                wire.prefix_check,
                std::string_view(reinterpret_cast<const char *>(data + 1), wire.length_byte));
    }
    ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                    errmsg("incorrect binary data format for type %s", type_name),
                    errdetail_internal("%s", detail), hint ? errhint("%s", hint) : 0));
    pg_unreachable();
}

namespace {

text *text_of(std::string_view chars) {
    return cstring_to_text_with_len(chars.data(), static_cast<int>(chars.size()));
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_prefixed_id_in);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_out);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_recv);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_send);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_eq);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_ne);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_lt);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_le);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_gt);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_ge);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_cmp);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_smaller);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_larger);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_sortsupport);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_hash);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_hash_extended);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_new);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_token);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_prefix);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_uuid);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_to_bytea);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_time);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_from_uuid);
PG_FUNCTION_INFO_V1(idgen_prefixed_id_boundary);
PG_FUNCTION_INFO_V1(idgen_base36_encode_uuid);
PG_FUNCTION_INFO_V1(idgen_base36_decode_uuid);
PG_FUNCTION_INFO_V1(idgen_base36_encode_bigint);
PG_FUNCTION_INFO_V1(idgen_base36_decode_bigint);

// prefixed_id_in: "<prefix>_<25 base36 digits>", the body in either case.
// Bad text is 22P02, soft where the caller asks (PostgreSQL 16+).
Datum idgen_prefixed_id_in(PG_FUNCTION_ARGS) {
    const char *input = PG_GETARG_CSTRING(0);
    core::PrefixedParts parts = core::prefixed_split(input);
    if (!parts.has_separator) {
        IDGEN_ERRSAVE(fcinfo->context,
                      (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                       errdetail("A prefixed ID is a prefix, \"_\" and 25 base36 digits, such "
                                 "as acct_0000000000000000000000001; this value has no \"_\".")));
        return static_cast<Datum>(0);
    }
    core::PrefixCheck check = core::prefix_check(parts.prefix);
    if (check.status != core::PrefixStatus::ok) {
        IDGEN_ERRSAVE(fcinfo->context,
                      (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                       errdetail_internal("%s", describe_prefix_problem(check, parts.prefix))));
        return static_cast<Datum>(0);
    }
    core::Base36Decoded<core::Uint128> body = core::base36_decode128(parts.body);
    if (body.status != core::Base36Status::ok) {
        report_bad_body(input, parts.body, body, fcinfo->context);
        return static_cast<Datum>(0);
    }
    std::uint8_t payload[kPayloadBytes];
    core::store_be128(body.value, payload);
    return make_prefixed(parts.prefix, payload);
}

// prefixed_id_out: the prefix, "_" and 25 lowercase base36 digits.
Datum idgen_prefixed_id_out(PG_FUNCTION_ARGS) {
    PrefixedView id = view_of(PG_GETARG_VARLENA_PP(0));
    std::size_t length = id.prefix.size() + 1 + core::kBase36Digits128;
    auto *out = static_cast<char *>(palloc(length + 1));
    std::memcpy(out, id.prefix.data(), id.prefix.size());
    out[id.prefix.size()] = '_';
    core::base36_encode128(core::load_be128(id.payload), out + id.prefix.size() + 1);
    out[length] = '\0';
    PG_RETURN_CSTRING(out);
}

// prefixed_id_recv: the prefix's length in one byte, its characters, then the
// 16 payload bytes, exactly (22P03 for anything else).
Datum idgen_prefixed_id_recv(PG_FUNCTION_ARGS) {
    auto *message = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
    const auto *data = reinterpret_cast<const std::uint8_t *>(message->data + message->cursor);
    std::size_t size = static_cast<std::size_t>(message->len - message->cursor);
    core::PrefixedWire wire = core::prefixed_wire_decode(data, size);
    if (wire.status != core::WireStatus::ok) report_bad_wire(wire, size, data, "prefixed_id", false);
    message->cursor = message->len;
    return make_prefixed(wire.prefix, wire.payload);
}

// prefixed_id_send: the binary form prefixed_id_recv reads.
Datum idgen_prefixed_id_send(PG_FUNCTION_ARGS) {
    PrefixedView id = view_of(PG_GETARG_VARLENA_PP(0));
    std::uint8_t wire[core::kPrefixedWireMaxBytes];
    std::size_t size = core::prefixed_wire_encode(id.prefix, id.payload, wire);
    if (size == 0)  // a stored value always has a 1 to 63 character prefix
        elog(ERROR, "prefixed_id value with a %zu-byte prefix cannot be sent", id.prefix.size());
    StringInfoData message;
    pq_begintypsend(&message);
    pq_sendbytes(&message, reinterpret_cast<const char *>(wire), static_cast<int>(size));
    PG_RETURN_BYTEA_P(pq_endtypsend(&message));
}

Datum idgen_prefixed_id_eq(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) == 0);
}

Datum idgen_prefixed_id_ne(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) != 0);
}

Datum idgen_prefixed_id_lt(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) < 0);
}

Datum idgen_prefixed_id_le(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) <= 0);
}

Datum idgen_prefixed_id_gt(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) > 0);
}

Datum idgen_prefixed_id_ge(PG_FUNCTION_ARGS) {
    PG_RETURN_BOOL(compare_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) >= 0);
}

// prefixed_id_cmp: btree support function 1.
Datum idgen_prefixed_id_cmp(PG_FUNCTION_ARGS) {
    int order = compare_datums(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));
    PG_RETURN_INT32(order < 0 ? -1 : order > 0 ? 1 : 0);
}

// prefixed_id_smaller, prefixed_id_larger: transition functions of min() and max().
Datum idgen_prefixed_id_smaller(PG_FUNCTION_ARGS) {
    Datum a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1);
    return compare_datums(a, b) <= 0 ? a : b;
}

Datum idgen_prefixed_id_larger(PG_FUNCTION_ARGS) {
    Datum a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1);
    return compare_datums(a, b) >= 0 ? a : b;
}

static int prefixed_sort_compare(Datum a, Datum b, SortSupport) {
    return compare_datums(a, b);
}

// prefixed_id_sortsupport: btree support function 2 (comparisons without fmgr calls).
Datum idgen_prefixed_id_sortsupport(PG_FUNCTION_ARGS) {
    auto ssup = reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0));
    ssup->comparator = prefixed_sort_compare;
    PG_RETURN_VOID();
}

// prefixed_id_hash: hash support function 1, over prefix and payload.
Datum idgen_prefixed_id_hash(PG_FUNCTION_ARGS) {
    varlena *value = PG_GETARG_VARLENA_PP(0);
    return hash_any(reinterpret_cast<const unsigned char *>(VARDATA_ANY(value)),
                    static_cast<int>(VARSIZE_ANY_EXHDR(value)));
}

// prefixed_id_hash_extended: hash support function 2, for hash partitioning.
Datum idgen_prefixed_id_hash_extended(PG_FUNCTION_ARGS) {
    varlena *value = PG_GETARG_VARLENA_PP(0);
    return hash_any_extended(reinterpret_cast<const unsigned char *>(VARDATA_ANY(value)),
                             static_cast<int>(VARSIZE_ANY_EXHDR(value)), PG_GETARG_INT64(1));
}

// prefixed_id_new(prefix): a UUIDv7 payload from uuid_v7()'s generator.
Datum idgen_prefixed_id_new(PG_FUNCTION_ARGS) {
    std::string_view prefix = checked_prefix_argument(PG_GETARG_TEXT_PP(0));
    std::uint8_t payload[kPayloadBytes];
    uuid_v7_mint(payload);
    return make_prefixed(prefix, payload);
}

// prefixed_id_token(prefix): 122 bits from the CSPRNG in the UUIDv4 layout,
// for unguessable tokens.
Datum idgen_prefixed_id_token(PG_FUNCTION_ARGS) {
    std::string_view prefix = checked_prefix_argument(PG_GETARG_TEXT_PP(0));
    std::uint8_t payload[kPayloadBytes];
    random_bytes(payload, sizeof payload);
    core::prefixed_token_layout(payload);
    return make_prefixed(prefix, payload);
}

Datum idgen_prefixed_id_prefix(PG_FUNCTION_ARGS) {
    PG_RETURN_TEXT_P(text_of(view_of(PG_GETARG_VARLENA_PP(0)).prefix));
}

Datum idgen_prefixed_id_uuid(PG_FUNCTION_ARGS) {
    auto *uuid = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));
    std::memcpy(uuid->data, view_of(PG_GETARG_VARLENA_PP(0)).payload, kPayloadBytes);
    PG_RETURN_UUID_P(uuid);
}

// prefixed_id_to_bytea(id): the cast to bytea, the 16 payload bytes (the bytes
// of the cast to uuid; not the prefix). typeid_to_bytea is this function too.
Datum idgen_prefixed_id_to_bytea(PG_FUNCTION_ARGS) {
    auto *bytes = static_cast<bytea *>(palloc(VARHDRSZ + kPayloadBytes));
    SET_VARSIZE(bytes, VARHDRSZ + kPayloadBytes);
    std::memcpy(VARDATA(bytes), view_of(PG_GETARG_VARLENA_PP(0)).payload, kPayloadBytes);
    PG_RETURN_BYTEA_P(bytes);
}

// prefixed_id_time(id): the millisecond of a UUIDv7 payload; NULL for tokens.
Datum idgen_prefixed_id_time(PG_FUNCTION_ARGS) {
    std::optional<std::int64_t> unix_ms =
        core::uuidv7_unix_ms(view_of(PG_GETARG_VARLENA_PP(0)).payload);
    if (!unix_ms) PG_RETURN_NULL();
    PG_RETURN_TIMESTAMPTZ(*unix_ms * kUsPerMs - kUnixToPgEpochUs);
}

Datum idgen_prefixed_id_from_uuid(PG_FUNCTION_ARGS) {
    std::string_view prefix = checked_prefix_argument(PG_GETARG_TEXT_PP(0));
    return make_prefixed(prefix, PG_GETARG_UUID_P(1)->data);
}

// prefixed_id_boundary(prefix, ts): the smallest ordered ID of that millisecond.
Datum idgen_prefixed_id_boundary(PG_FUNCTION_ARGS) {
    std::string_view prefix = checked_prefix_argument(PG_GETARG_TEXT_PP(0));
    std::uint8_t payload[kPayloadBytes];
    core::uuidv7_boundary(unix_ms48_of(PG_GETARG_TIMESTAMPTZ(1), "prefixed_id"), payload);
    return make_prefixed(prefix, payload);
}

// base36_encode(uuid): 25 lowercase digits.
Datum idgen_base36_encode_uuid(PG_FUNCTION_ARGS) {
    char digits[core::kBase36Digits128];
    core::base36_encode128(core::load_be128(PG_GETARG_UUID_P(0)->data), digits);
    PG_RETURN_TEXT_P(text_of(std::string_view(digits, sizeof digits)));
}

// base36_decode(text): the uuid of 25 base36 digits, either case.
Datum idgen_base36_decode_uuid(PG_FUNCTION_ARGS) {
    text *input = PG_GETARG_TEXT_PP(0);
    std::string_view digits(VARDATA_ANY(input), VARSIZE_ANY_EXHDR(input));
    core::Base36Decoded<core::Uint128> decoded = core::base36_decode128(digits);
    if (decoded.status != core::Base36Status::ok)
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                 errmsg("invalid base36 uuid: \"%s\"", text_to_cstring(input)),
                 errdetail("A uuid in base36 is 25 digits 0-9 and a-z, at most "
                           "f5lxx1zz5pnorynqglhzmsp33.")));
    auto *uuid = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));
    core::store_be128(decoded.value, uuid->data);
    PG_RETURN_UUID_P(uuid);
}

// base36_encode(bigint): the shortest lowercase digits; negative numbers are refused.
Datum idgen_base36_encode_bigint(PG_FUNCTION_ARGS) {
    std::int64_t value = PG_GETARG_INT64(0);
    if (value < 0)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("cannot encode negative number %lld in base36",
                               static_cast<long long>(value)),
                        errhint("IDs such as snowflakes are never negative.")));
    char digits[core::kBase36MaxDigits64];
    std::size_t count = core::base36_encode64(static_cast<std::uint64_t>(value), digits);
    PG_RETURN_TEXT_P(text_of(std::string_view(digits, count)));
}

// base36_decode_bigint(text): 1 to 13 digits, at most 1y2p0ij32e8e7 (2^63 - 1).
Datum idgen_base36_decode_bigint(PG_FUNCTION_ARGS) {
    text *input = PG_GETARG_TEXT_PP(0);
    std::string_view digits(VARDATA_ANY(input), VARSIZE_ANY_EXHDR(input));
    auto decoded = core::base36_decode64(digits, static_cast<std::uint64_t>(PG_INT64_MAX));
    if (decoded.status == core::Base36Status::too_large)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("base36 value \"%s\" is out of range for type bigint",
                               text_to_cstring(input)),
                        errdetail("The largest bigint is 1y2p0ij32e8e7 in base36.")));
    if (decoded.status != core::Base36Status::ok)
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                        errmsg("invalid base36 bigint: \"%s\"", text_to_cstring(input)),
                        errdetail("A bigint in base36 is 1 to 13 digits 0-9 and a-z.")));
    PG_RETURN_INT64(static_cast<std::int64_t>(decoded.value));
}

}  // extern "C"
