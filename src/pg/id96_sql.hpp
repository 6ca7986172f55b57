// What objectid_sql.cpp and xid_sql.cpp share (id96_sql.cpp): both types are
// 12 bytes in their order, seconds first, so comparison, hashing, sort
// support, binary output, the cast to bytea and the time decoder are one set
// of C functions that both types' SQL functions name; the rest are helpers.
#pragma once

#include "core/second_counter.hpp"
#include "pg/state.hpp"

namespace idgen::pg {

inline const std::uint8_t *id96_bytes(Datum datum) {
    return reinterpret_cast<const std::uint8_t *>(DatumGetPointer(datum));
}

// A new 12-byte value, copied from bytes.
Datum id96_datum(const std::uint8_t *bytes);

// The 12 bytes of a binary field. type_name names the SQL type in messages,
// format_name the format in details ("rsxid", "XID"); both formats' names
// take "an".
Datum id96_recv(FunctionCallInfo fcinfo, const char *type_name, const char *format_name);

// The cast from bytea: exactly 12 bytes (22P03, soft where the caller asks);
// text_length, a length that suggests the text form, gets a hint.
Datum id96_from_bytea(FunctionCallInfo fcinfo, const char *type_name, const char *format_name,
                      std::size_t text_length);

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
