// uuid_v7_mask(id, key_name [, key_id]) and uuid_v7_unmask(facade, key_name
// [, key_id]): UUIDv47's façade of a UUIDv7 and back (core/uuidv47.hpp);
// ulid_mask(id, key_name [, key_id]) and ulid_unmask: idgen's mask of a
// ULID's time. Under a named key of idgen_secret_key (secret_key.hpp);
// without a key id, the name's newest.
#include "core/uuidv47.hpp"
#include "pg/fixed_bytes.hpp"
#include "pg/secret_key.hpp"

namespace idgen::pg {
namespace {

// The error of a UUID that the direction refuses (22023); the key has been
// cleared already.
[[noreturn]] void report_refused(core::Uuidv47Status status, const char *function, int wanted,
                                 const pg_uuid_t *in) {
    Datum text = DirectFunctionCall1(uuid_out, UUIDPGetDatum(const_cast<pg_uuid_t *>(in)));
    int version = core::uuid_version(in->data);
    if (status == core::Uuidv47Status::wrong_variant)
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                 errmsg("%s needs a version %d uuid: \"%s\"", function, wanted, DatumGetCString(text)),
                 errdetail("Its variant bits are not RFC 9562's (10), so it has no version.")));
    bool masking = wanted == core::kUuidv47StoredVersion;
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
             errmsg("%s needs a version %d uuid: \"%s\"", function, wanted, DatumGetCString(text)),
             errdetail("Its version is %d.", version),
             masking && version == core::kUuidv47FacadeVersion
                 ? errhint("A facade is version 4: uuid_v7_unmask() gives its UUIDv7 back.")
             : !masking && version == core::kUuidv47StoredVersion
                 ? errhint("It is a UUIDv7, not a facade: uuid_v7_mask() makes its facade.")
                 : 0));
    pg_unreachable();
}

Datum uuid_transformed(FunctionCallInfo fcinfo, bool mask) {
    const pg_uuid_t *in = PG_GETARG_UUID_P(0);
    core::SipKey key = secret_key_of_call(fcinfo);
    auto *out = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));
    core::Uuidv47Status status =
        mask ? core::uuidv47_mask(key, in->data, out->data) : core::uuidv47_unmask(key, in->data, out->data);
    explicit_bzero(&key, sizeof key);
    if (status != core::Uuidv47Status::ok)
        report_refused(status, mask ? "uuid_v7_mask" : "uuid_v7_unmask",
                       mask ? core::kUuidv47StoredVersion : core::kUuidv47FacadeVersion, in);
    PG_RETURN_UUID_P(out);
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_uuid_v7_mask);
PG_FUNCTION_INFO_V1(idgen_uuid_v7_unmask);
PG_FUNCTION_INFO_V1(idgen_ulid_mask);

Datum idgen_uuid_v7_mask(PG_FUNCTION_ARGS) {
    return uuid_transformed(fcinfo, true);
}

Datum idgen_uuid_v7_unmask(PG_FUNCTION_ARGS) {
    return uuid_transformed(fcinfo, false);
}

// ulid_mask and ulid_unmask: the mask is its own inverse.
Datum idgen_ulid_mask(PG_FUNCTION_ARGS) {
    const std::uint8_t *in = fixed_bytes(PG_GETARG_DATUM(0));
    core::SipKey key = secret_key_of_call(fcinfo);
    auto *out = static_cast<std::uint8_t *>(palloc(core::kUuidv47Bytes));
    core::ulid_mask(key, in, out);
    explicit_bzero(&key, sizeof key);
    return PointerGetDatum(out);
}

}  // extern "C"
