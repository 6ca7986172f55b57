// The XID type, rsxid in SQL (12 bytes, rs/xid's order; `xid` is PostgreSQL's
// transaction ID type, which every search path finds first), and its SQL
// entry points of its own: text and binary input, xid(), xid_boundary() and
// the field decoders. Comparison, hashing, sort support, binary output, the
// cast to bytea and xid_time() are the 12-byte types' shared functions
// (id96_sql.cpp).
#include <cstring>

#include "core/objectid.hpp"
#include "core/xid.hpp"
#include "pg/id96_sql.hpp"

namespace idgen::pg {
namespace {

// Positions count characters in the database encoding; lengths are only
// reported for text made of base32hex digits, where bytes are characters.
// Soft where the caller asks (IDGEN_ERRSAVE): the caller then returns.
void report_bad_text(const char *text, const core::XidDecoded &decoded, Node *escontext) {
    const char *type_error = "invalid input syntax for type rsxid: \"%s\"";
    switch (decoded.status) {
        case core::XidStatus::wrong_length: {
            // Digits 0-9 and a-f only, 24 of them: an ObjectId's text.
            bool objectid_text = std::strlen(text) == core::kObjectIdTextLength &&
                                 std::strspn(text, "0123456789abcdef") == core::kObjectIdTextLength;
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                           errdetail("An XID is 20 characters long; this value has %zu.",
                                     std::strlen(text)),
                           objectid_text ? errhint("24 hexadecimal digits are an ObjectId's text, "
                                                   "which the objectid type reads.")
                                         : 0));
            break;
        }
        case core::XidStatus::bad_last_character:
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                           errdetail("Its last character is \"%c\"; an XID ends in 0 or g, as the "
                                     "4 bits after its 96 are zero.",
                                     text[decoded.position])));
            break;
        default: {
            const char *bad = text + decoded.position;
            auto first_byte = static_cast<unsigned char>(*bad);
            int position = pg_mbstrlen_with_len(text, static_cast<int>(decoded.position)) + 1;
            bool control = first_byte < 0x20 || first_byte == 0x7F;
            bool upper = first_byte >= 'A' && first_byte <= 'V';
            IDGEN_ERRSAVE(escontext,
                          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(type_error, text),
                           control ? errdetail("Control character 0x%02X at position %d is not a "
                                               "base32hex digit (0-9, a-v).",
                                               first_byte, position)
                                   : errdetail("Character \"%.*s\" at position %d is not a "
                                               "base32hex digit (0-9, a-v).",
                                               pg_mblen(bad), bad, position),
                           upper ? errhint("XID text is lowercase; rs/xid refuses uppercase too.")
                                 : 0));
        }
    }
}

constexpr FixedBytesType kXidType = {"rsxid", "XID", "An XID", core::kXidBytes, core::kXidTextLength};

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_xid_in);
PG_FUNCTION_INFO_V1(idgen_xid_out);
PG_FUNCTION_INFO_V1(idgen_xid_recv);
PG_FUNCTION_INFO_V1(idgen_xid);
PG_FUNCTION_INFO_V1(idgen_xid_boundary);
PG_FUNCTION_INFO_V1(idgen_xid_machine);
PG_FUNCTION_INFO_V1(idgen_xid_pid);
PG_FUNCTION_INFO_V1(idgen_xid_counter);
PG_FUNCTION_INFO_V1(idgen_xid_from_bytea);

// rsxid_in: 20 lowercase base32hex characters, the last 0 or g.
Datum idgen_xid_in(PG_FUNCTION_ARGS) {
    const char *text = PG_GETARG_CSTRING(0);
    std::uint8_t id[core::kXidBytes];
    core::XidDecoded decoded = core::xid_decode(text, id);
    if (decoded.status != core::XidStatus::ok) {
        report_bad_text(text, decoded, fcinfo->context);
        return static_cast<Datum>(0);  // a soft error, saved for the caller
    }
    return id96_datum(id);
}

// rsxid_out: the 20 characters.
Datum idgen_xid_out(PG_FUNCTION_ARGS) {
    auto *text = static_cast<char *>(palloc(core::kXidTextLength + 1));
    core::xid_encode(fixed_bytes(PG_GETARG_DATUM(0)), text);
    text[core::kXidTextLength] = '\0';
    PG_RETURN_CSTRING(text);
}

// rsxid_recv: the raw 12 bytes, as rsxid_send writes them.
Datum idgen_xid_recv(PG_FUNCTION_ARGS) {
    return fixed_bytes_recv(fcinfo, kXidType);
}

// xid(): the second, this server start's machine id and pid (random) and the
// next of the server-wide counter (without preloading, this backend's).
Datum idgen_xid(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    Id96Minted minted = id96_mint(Id96Kind::xid, Family::xid, "rsxid");
    std::uint8_t id[core::kXidBytes];
    core::xid_make(minted.seconds, minted.process, minted.counter, id);
    return id96_datum(id);
}

// xid_boundary(ts): the second holding ts and 8 zero bytes.
Datum idgen_xid_boundary(PG_FUNCTION_ARGS) {
    std::uint8_t id[core::kXidBytes];
    core::xid_boundary(id96_seconds_of(PG_GETARG_TIMESTAMPTZ(0), "rsxid"), id);
    return id96_datum(id);
}

// xid_machine(id): the 3 bytes of the machine id.
Datum idgen_xid_machine(PG_FUNCTION_ARGS) {
    return fixed_bytes_field(PG_GETARG_DATUM(0), core::kXidMachineOffset, core::kXidMachineBytes);
}

// xid_pid(id): the 16-bit process id, 0 to 65535.
Datum idgen_xid_pid(PG_FUNCTION_ARGS) {
    PG_RETURN_INT32(static_cast<std::int32_t>(core::xid_pid(fixed_bytes(PG_GETARG_DATUM(0)))));
}

// xid_counter(id): the 24-bit counter, 0 to 16777215.
Datum idgen_xid_counter(PG_FUNCTION_ARGS) {
    PG_RETURN_INT32(static_cast<std::int32_t>(core::id96_counter(fixed_bytes(PG_GETARG_DATUM(0)))));
}

// rsxid_from_bytea(bytes): the cast from bytea, exactly 12 bytes (22P03).
Datum idgen_xid_from_bytea(PG_FUNCTION_ARGS) {
    return fixed_bytes_from_bytea(fcinfo, kXidType);
}

}  // extern "C"
