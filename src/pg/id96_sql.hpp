// What objectid_sql.cpp and xid_sql.cpp share (id96_sql.cpp): both types are
// 12 bytes in their order, seconds first, so comparison, hashing, sort
// support, binary output, the cast to bytea (fixed_bytes.hpp) and the time
// decoder are one set of C functions, idgen_id96_*, that both types' SQL
// functions name; the rest are helpers.
#pragma once

#include "core/second_counter.hpp"
#include "pg/fixed_bytes.hpp"

namespace idgen::pg {

// A new 12-byte value, copied from bytes.
inline Datum id96_datum(const std::uint8_t *bytes) {
    return fixed_bytes_datum(bytes, core::kId96Bytes);
}

// The Unix second of a finite timestamp within 32 bits (22008 outside, with
// the range as detail; 22023 for an infinite one).
std::uint32_t id96_seconds_of(TimestampTz ts, const char *type_name);

// The next ID's seconds and counter, with the 5 process bytes copied out:
// from shared memory when preloaded (every session's sequence), else from
// this backend's own. Counted in idgen_stats under family.
struct Id96Minted {
    std::uint32_t seconds;
    std::uint32_t counter;
    std::uint8_t process[kId96ProcessBytes];
};
Id96Minted id96_mint(Id96Kind kind, Family family, const char *type_name);

}  // namespace idgen::pg
