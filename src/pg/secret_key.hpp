// Named secret keys of 16 bytes, each name with key ids for rotation, kept in
// the extension's table idgen_secret_key (readable by no role without a
// grant) and read by the library alone, for idgen's keyed functions
// (bigint_obfuscate, uuid_v7_mask, ulid_mask; docs/security.md). src/pg/secret_key.cpp.
#pragma once

#include <cstdint>

#include "core/siphash.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

struct SecretKey {
    std::int32_t key_id;
    std::uint8_t bytes[core::kSipKeyBytes];
};

// The key NAME: its newest key id when newest, else key_id; ereports 42704
// when there is none (and never shows the key). From this backend's cache,
// emptied when the table changes; a miss reads the table directly, so the
// caller needs no privilege on it.
void secret_key_get(const text *name, bool newest, std::int32_t key_id, SecretKey *out);

// The SipHash key of a keyed function's call: its argument 1 is the key name
// and argument 2, when given, the key id (else the name's newest). Kept for
// the call site (fn_extra) until an invalidation, so that a scan looks it up
// once; wiped with the call site's memory. The caller clears the key from its
// frame when done (explicit_bzero).
core::SipKey secret_key_of_call(FunctionCallInfo fcinfo);

}  // namespace idgen::pg
