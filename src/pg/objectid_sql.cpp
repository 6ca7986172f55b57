// The objectid type (12 bytes, the BSON ObjectId spec's order) and its SQL
// entry points of its own: text and binary input, objectid(),
// objectid_boundary() and the field decoders. Comparison, hashing, sort
// support, binary output, the cast to bytea and objectid_time() are the
// 12-byte types' shared functions (id96_sql.cpp).
#include <cstring>

#include "core/objectid.hpp"
#include "pg/id96_sql.hpp"

namespace idgen::pg {
namespace {

// Positions count characters in the database encoding; lengths are only
// reported for text made of hex digits, where bytes are characters. Soft
// where the caller asks (IDGEN_ERRSAVE): the caller then returns.
void report_bad_text(const char *text, const core::ObjectIdDecoded &decoded, Node *escontext) {
    const char *type_error = "invalid input syntax for type objectid: \"%s\"";
    // MongoDB's shell prints ObjectId("..."), Extended JSON {"$oid": "..."}.
    bool wrapped = std::strstr(text, "ObjectId(") != nullptr || std::strstr(text, "$oid") != nullptr;
    if (decoded.status == core::ObjectIdStatus::wrong_length) {
        IDGEN_ERRSAVE(escontext,
                      (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                       errdetail("An ObjectId is 24 hexadecimal digits; this value has %zu.",
                                 std::strlen(text))));
        return;
    }
    const char *bad = text + decoded.position;
    auto first_byte = static_cast<unsigned char>(*bad);
    int position = pg_mbstrlen_with_len(text, static_cast<int>(decoded.position)) + 1;
    bool control = first_byte < 0x20 || first_byte == 0x7F;
    IDGEN_ERRSAVE(escontext,
                  (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                   control ? errdetail("Control character 0x%02X at position %d is not a "
                                       "hexadecimal digit.",
                                       first_byte, position)
                           : errdetail("Character \"%.*s\" at position %d is not a hexadecimal "
                                       "digit.",
                                       pg_mblen(bad), bad, position),
                   wrapped ? errhint("MongoDB's shell and Extended JSON wrap the digits, as "
                                     "ObjectId(\"...\") and {\"$oid\": \"...\"}; objectid reads "
                                     "the 24 digits alone.")
                           : 0));
}

constexpr FixedBytesType kObjectIdType = {"objectid", "ObjectId", "An ObjectId", core::kObjectIdBytes,
                                          core::kObjectIdTextLength};

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_objectid_in);
PG_FUNCTION_INFO_V1(idgen_objectid_out);
PG_FUNCTION_INFO_V1(idgen_objectid_recv);
PG_FUNCTION_INFO_V1(idgen_objectid);
PG_FUNCTION_INFO_V1(idgen_objectid_boundary);
PG_FUNCTION_INFO_V1(idgen_objectid_process);
PG_FUNCTION_INFO_V1(idgen_objectid_counter);
PG_FUNCTION_INFO_V1(idgen_objectid_from_bytea);

// objectid_in: 24 hex digits, either case.
Datum idgen_objectid_in(PG_FUNCTION_ARGS) {
    const char *text = PG_GETARG_CSTRING(0);
    std::uint8_t id[core::kObjectIdBytes];
    core::ObjectIdDecoded decoded = core::objectid_decode(text, id);
    if (decoded.status != core::ObjectIdStatus::ok) {
        report_bad_text(text, decoded, fcinfo->context);
        return static_cast<Datum>(0);  // a soft error, saved for the caller
    }
    return id96_datum(id);
}

// objectid_out: 24 lowercase hex digits.
Datum idgen_objectid_out(PG_FUNCTION_ARGS) {
    auto *text = static_cast<char *>(palloc(core::kObjectIdTextLength + 1));
    core::objectid_encode(fixed_bytes(PG_GETARG_DATUM(0)), text);
    text[core::kObjectIdTextLength] = '\0';
    PG_RETURN_CSTRING(text);
}

// objectid_recv: the raw 12 bytes, as objectid_send writes them.
Datum idgen_objectid_recv(PG_FUNCTION_ARGS) {
    return fixed_bytes_recv(fcinfo, kObjectIdType);
}

// objectid(): the second, this server start's process value and the next of
// the server-wide counter (without preloading, this backend's).
Datum idgen_objectid(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    Id96Minted minted = id96_mint(Id96Kind::objectid, Family::objectid, "objectid");
    std::uint8_t id[core::kObjectIdBytes];
    core::objectid_make(minted.seconds, minted.process, minted.counter, id);
    return id96_datum(id);
}

// objectid_boundary(ts): createFromTime, the second holding ts and 8 zero bytes.
Datum idgen_objectid_boundary(PG_FUNCTION_ARGS) {
    std::uint8_t id[core::kObjectIdBytes];
    core::objectid_boundary(id96_seconds_of(PG_GETARG_TIMESTAMPTZ(0), "objectid"), id);
    return id96_datum(id);
}

// objectid_process(id): the 5 bytes of the process value.
Datum idgen_objectid_process(PG_FUNCTION_ARGS) {
    return fixed_bytes_field(PG_GETARG_DATUM(0), core::kObjectIdProcessOffset, core::kObjectIdProcessBytes);
}

// objectid_counter(id): the 24-bit counter, 0 to 16777215.
Datum idgen_objectid_counter(PG_FUNCTION_ARGS) {
    PG_RETURN_INT32(static_cast<std::int32_t>(core::id96_counter(fixed_bytes(PG_GETARG_DATUM(0)))));
}

// objectid_from_bytea(bytes): the cast from bytea, exactly 12 bytes (22P03).
Datum idgen_objectid_from_bytea(PG_FUNCTION_ARGS) {
    return fixed_bytes_from_bytea(fcinfo, kObjectIdType);
}

}  // extern "C"
