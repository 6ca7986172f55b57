// bigint_obfuscate(id, key_name [, key_id]) and bigint_deobfuscate(public_id,
// key_name [, key_id]): the keyed permutation of 1 .. 2^63 - 1 (core/feistel63.hpp)
// under a named key of idgen_secret_key (secret_key.hpp); without a key id,
// the name's newest.
#include "core/feistel63.hpp"
#include "pg/secret_key.hpp"
#include "pg/state.hpp"

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_bigint_obfuscate);
PG_FUNCTION_INFO_V1(idgen_bigint_deobfuscate);

Datum idgen_bigint_obfuscate(PG_FUNCTION_ARGS) {
    std::int64_t id = PG_GETARG_INT64(0);
    core::SipKey key = secret_key_of_call(fcinfo);
    std::optional<std::int64_t> out = core::feistel63_encode(key, id);
    explicit_bzero(&key, sizeof key);
    if (!out)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("id %lld is out of range for bigint_obfuscate", static_cast<long long>(id)),
                        errdetail("bigint_obfuscate maps the ids 1 to %lld to public ids in the same range.",
                                  static_cast<long long>(core::kFeistel63Max))));
    PG_RETURN_INT64(*out);
}

Datum idgen_bigint_deobfuscate(PG_FUNCTION_ARGS) {
    std::int64_t public_id = PG_GETARG_INT64(0);
    core::SipKey key = secret_key_of_call(fcinfo);
    std::optional<std::int64_t> out = core::feistel63_decode(key, public_id);
    explicit_bzero(&key, sizeof key);
    if (!out)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("public id %lld is out of range for bigint_deobfuscate",
                               static_cast<long long>(public_id)),
                        errdetail("bigint_obfuscate gives public ids from 1 to %lld.",
                                  static_cast<long long>(core::kFeistel63Max))));
    PG_RETURN_INT64(*out);
}

}  // extern "C"
