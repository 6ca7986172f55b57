// The typeid type (jetify-com/typeid spec v0.3.0: "user_" + 26 lowercase
// Crockford base32 digits of 128 bits) and its SQL entry points.
//
// Stored exactly as prefixed_id (pg/prefixed_sql.hpp), so the two sort the
// same way and the SQL script points typeid's comparison, hashing, min/max
// and accessor functions at prefixed_id's C functions. Only the text, the
// binary form's empty prefix and the argument checks differ: a typeid's
// prefix may be empty (then the text is the suffix alone).
#include <cstring>
#include <string_view>

#include "core/typeid.hpp"
#include "core/uuidv7.hpp"
#include "pg/prefixed_sql.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

constexpr std::size_t kPayloadBytes = core::kPrefixedPayloadBytes;
constexpr const char *kTypeError = "invalid input syntax for type typeid: \"%s\"";

// Checks a prefix given as a function argument, where "" is allowed (22023
// when it is invalid).
std::string_view checked_prefix_argument(const text *argument) {
    std::string_view prefix(VARDATA_ANY(argument), VARSIZE_ANY_EXHDR(argument));
    if (prefix.empty()) return prefix;
    core::PrefixCheck check = core::prefix_check(prefix);
    if (check.status != core::PrefixStatus::ok)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid prefix for typeid: \"%s\"", text_to_cstring(argument)),
                        errdetail_internal("%s", describe_prefix_problem(check, prefix)),
                        errhint("Use lowercase letters and underscores, such as \"user\" or "
                                "\"user_session\", or \"\" for no prefix.")));
    return prefix;
}

// Text that typeid_parse refused: 22P02, saying why; soft where the caller
// asks (IDGEN_ERRSAVE): the caller then returns.
void report_bad_text(const char *input, const core::TypeidParsed &parsed, Node *escontext) {
    switch (parsed.status) {
        case core::TypeidStatus::empty_prefix_with_separator:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                           errdetail("The prefix before the last \"_\" is empty; a TypeID "
                                     "without a prefix is the 26 characters alone, without "
                                     "\"_\".")));
            return;
        case core::TypeidStatus::bad_prefix:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                           errdetail_internal("%s", describe_prefix_problem(parsed.prefix_check,
                                                                            parsed.prefix))));
            return;
        case core::TypeidStatus::missing_separator:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                           errdetail("The text has no \"_\" and %zu characters; a TypeID is a "
                                     "prefix, \"_\" and 26 characters, or the 26 characters "
                                     "alone.",
                                     parsed.suffix.size()),
                           errhint("Put \"_\" between the prefix and the 26-character suffix.")));
            return;
        case core::TypeidStatus::prefixed_id_text:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                           errdetail("The suffix has 25 characters; a TypeID's has 26 "
                                     "(Crockford base32). 25 base36 digits are the text of a "
                                     "prefixed_id."),
                           errhint("If it is a prefixed_id, read it as one and cast the value: "
                                   "'%s'::prefixed_id::typeid.",
                                   input)));
            return;
        default:
            break;
    }
    switch (parsed.suffix_decoded.status) {
        case core::Base32Status::wrong_length:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                           errdetail("The suffix (the part after the last \"_\", or the whole "
                                     "value without one) must be 26 characters; it has %zu.",
                                     parsed.suffix.size())));
            break;
        case core::Base32Status::too_large:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                           errdetail("The suffix starts with a character above 7, so it holds "
                                     "more than 128 bits; the largest is "
                                     "7zzzzzzzzzzzzzzzzzzzzzzzzz.")));
            break;
        default: {
            const char *bad = parsed.suffix.data() + parsed.suffix_decoded.position;
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(kTypeError, input),
                           errdetail("Character \"%.*s\" of the suffix is not a TypeID digit "
                                     "(0-9 and lowercase a-z without i, l, o and u).",
                                     pg_mblen(bad), bad)));
        }
    }
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_typeid_in);
PG_FUNCTION_INFO_V1(idgen_typeid_out);
PG_FUNCTION_INFO_V1(idgen_typeid_recv);
PG_FUNCTION_INFO_V1(idgen_typeid_send);
PG_FUNCTION_INFO_V1(idgen_typeid_new);
PG_FUNCTION_INFO_V1(idgen_typeid_from_uuid);
PG_FUNCTION_INFO_V1(idgen_typeid_boundary);
PG_FUNCTION_INFO_V1(idgen_typeid_to_prefixed_id);

// typeid_in: "<prefix>_<26 lowercase base32 digits>", or the digits alone.
// Bad text is 22P02, soft where the caller asks (PostgreSQL 16+).
Datum idgen_typeid_in(PG_FUNCTION_ARGS) {
    const char *input = PG_GETARG_CSTRING(0);
    core::TypeidParsed parsed = core::typeid_parse(input);
    if (parsed.status != core::TypeidStatus::ok) {
        report_bad_text(input, parsed, fcinfo->context);
        return static_cast<Datum>(0);  // a soft error, saved for the caller
    }
    std::uint8_t payload[kPayloadBytes];
    core::store_be128(parsed.suffix_decoded.value, payload);
    return make_prefixed(parsed.prefix, payload);
}

// typeid_out: the prefix and "_" (none for the empty prefix), then 26 digits.
Datum idgen_typeid_out(PG_FUNCTION_ARGS) {
    PrefixedView id = view_of(PG_GETARG_VARLENA_PP(0));
    auto *out = static_cast<char *>(palloc(core::kTypeidMaxChars + 1));
    std::size_t length = core::typeid_encode(id.prefix, id.payload, out);
    if (length == 0)  // a stored value's prefix has at most 63 characters
        elog(ERROR, "typeid value with a %zu-byte prefix cannot be written", id.prefix.size());
    out[length] = '\0';
    PG_RETURN_CSTRING(out);
}

// typeid_recv: prefixed_id's binary form, where the prefix's length may be 0.
Datum idgen_typeid_recv(PG_FUNCTION_ARGS) {
    auto *message = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
    const auto *data = reinterpret_cast<const std::uint8_t *>(message->data + message->cursor);
    std::size_t size = static_cast<std::size_t>(message->len - message->cursor);
    core::PrefixedWire wire = core::prefixed_wire_decode(data, size, true);
    if (wire.status != core::WireStatus::ok) report_bad_wire(wire, size, data, "typeid", true);
    message->cursor = message->len;
    return make_prefixed(wire.prefix, wire.payload);
}

// typeid_send: the binary form typeid_recv reads.
Datum idgen_typeid_send(PG_FUNCTION_ARGS) {
    PrefixedView id = view_of(PG_GETARG_VARLENA_PP(0));
    std::uint8_t wire[core::kPrefixedWireMaxBytes];
    std::size_t size = core::prefixed_wire_encode(id.prefix, id.payload, wire, true);
    if (size == 0)  // a stored value's prefix has at most 63 characters
        elog(ERROR, "typeid value with a %zu-byte prefix cannot be sent", id.prefix.size());
    StringInfoData message;
    pq_begintypsend(&message);
    pq_sendbytes(&message, reinterpret_cast<const char *>(wire), static_cast<int>(size));
    PG_RETURN_BYTEA_P(pq_endtypsend(&message));
}

// typeid_new(prefix): a UUIDv7 from uuid_v7()'s per-session generator.
Datum idgen_typeid_new(PG_FUNCTION_ARGS) {
    std::string_view prefix = checked_prefix_argument(PG_GETARG_TEXT_PP(0));
    std::uint8_t payload[kPayloadBytes];
    uuid_v7_mint(payload);
    return make_prefixed(prefix, payload);
}

Datum idgen_typeid_from_uuid(PG_FUNCTION_ARGS) {
    std::string_view prefix = checked_prefix_argument(PG_GETARG_TEXT_PP(0));
    return make_prefixed(prefix, PG_GETARG_UUID_P(1)->data);
}

// typeid_boundary(prefix, ts): the smallest UUIDv7 TypeID of that millisecond.
Datum idgen_typeid_boundary(PG_FUNCTION_ARGS) {
    std::string_view prefix = checked_prefix_argument(PG_GETARG_TEXT_PP(0));
    std::uint8_t payload[kPayloadBytes];
    core::uuidv7_boundary(unix_ms48_of(PG_GETARG_TIMESTAMPTZ(1), "typeid"), payload);
    return make_prefixed(prefix, payload);
}

// The typeid -> prefixed_id cast: the same bytes, unless the prefix is empty,
// which prefixed_id has no form for (22023).
Datum idgen_typeid_to_prefixed_id(PG_FUNCTION_ARGS) {
    varlena *value = PG_GETARG_VARLENA_PP(0);
    PrefixedView id = view_of(value);
    if (id.prefix.empty()) {
        char text[core::kTypeidMaxChars + 1];
        std::size_t length = core::typeid_encode(id.prefix, id.payload, text);
        text[length] = '\0';
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("cannot cast typeid \"%s\" to prefixed_id", text),
                        errdetail("The typeid has the empty prefix; a prefixed_id always has "
                                  "one."),
                        errhint("Give it a prefix with typeid_from_uuid(prefix, "
                                "typeid_uuid(id)).")));
    }
    return make_prefixed(id.prefix, id.payload);
}

}  // extern "C"
