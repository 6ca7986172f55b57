// What the types held as a fixed number of bytes in their own order share:
// ulid (16), ksuid (20), objectid and rsxid (12). Their byte order is their
// order, so comparison, hashing, sort support, binary I/O and the casts to
// and from bytea are written here once. IDGEN_FIXED_BYTES_FUNCTIONS defines a
// type's C entry points for them; the messages of its input errors come from
// its FixedBytesType.
#pragma once

#include <cstring>

#include "pg/state.hpp"

namespace idgen::pg {

// The words a fixed-width type's errors use, as in "incorrect binary data
// format for type ksuid", "A binary KSUID is 20 bytes", "A ksuid is 20 bytes;
// this bytea has 27." and "27 bytes may be KSUID text".
struct FixedBytesType {
    const char *type_name;       // the SQL type
    const char *format_name;     // the format, as its spec writes it
    const char *bytea_subject;   // the subject of the bytea cast's detail, with its article
    std::size_t size;            // bytes
    std::size_t text_length;     // characters of its text form
};

inline const std::uint8_t *fixed_bytes(Datum datum) {
    return reinterpret_cast<const std::uint8_t *>(DatumGetPointer(datum));
}

// A new value of size bytes, copied from bytes.
Datum fixed_bytes_datum(const std::uint8_t *bytes, std::size_t size);

template <std::size_t N>
int fixed_bytes_compare(Datum a, Datum b) {
    return std::memcmp(DatumGetPointer(a), DatumGetPointer(b), N);
}

// The binary input: exactly size bytes (08P01 otherwise).
Datum fixed_bytes_recv(FunctionCallInfo fcinfo, const FixedBytesType &type);
Datum fixed_bytes_send(Datum value, std::size_t size);
Datum fixed_bytes_to_bytea(Datum value, std::size_t size);
// A field of a value as bytea: length bytes from offset (a payload, a process value).
Datum fixed_bytes_field(Datum value, std::size_t offset, std::size_t length);
// The cast from bytea: exactly size bytes (22P03, soft where the caller asks;
// a length that suggests the text form gets a hint).
Datum fixed_bytes_from_bytea(FunctionCallInfo fcinfo, const FixedBytesType &type);

// Sort support: comparisons by memcmp, and abbreviated keys made of the first
// 8 bytes (the time, then what follows it), compared as unsigned integers.
void fixed_bytes_sortsupport(SortSupport ssup, int (*compare)(Datum, Datum, SortSupport));

template <std::size_t N>
int fixed_bytes_sort_compare(Datum a, Datum b, SortSupport) {
    return fixed_bytes_compare<N>(a, b);
}

}  // namespace idgen::pg

// The C functions named by a fixed-width type's operators, btree and hash
// operator classes, min()/max(), send and cast to bytea:
// idgen_PREFIX_eq ... _ge, _cmp, _smaller, _larger, _sortsupport, _hash,
// _hash_extended, _send and _to_bytea, for values of N bytes. Used inside
// extern "C".
#define IDGEN_FIXED_BYTES_FUNCTIONS(prefix, N)                                                   \
    IDGEN_FIXED_BYTES_COMPARISON(prefix, eq, ==, N)                                              \
    IDGEN_FIXED_BYTES_COMPARISON(prefix, ne, !=, N)                                              \
    IDGEN_FIXED_BYTES_COMPARISON(prefix, lt, <, N)                                               \
    IDGEN_FIXED_BYTES_COMPARISON(prefix, le, <=, N)                                              \
    IDGEN_FIXED_BYTES_COMPARISON(prefix, gt, >, N)                                               \
    IDGEN_FIXED_BYTES_COMPARISON(prefix, ge, >=, N)                                              \
    /* btree support function 1: byte order, which is time order first */                        \
    PG_FUNCTION_INFO_V1(idgen_##prefix##_cmp);                                                   \
    Datum idgen_##prefix##_cmp(PG_FUNCTION_ARGS) {                                               \
        int order = idgen::pg::fixed_bytes_compare<N>(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));   \
        PG_RETURN_INT32(order < 0 ? -1 : order > 0 ? 1 : 0);                                     \
    }                                                                                            \
    /* the transition functions of min() and max() */                                           \
    PG_FUNCTION_INFO_V1(idgen_##prefix##_smaller);                                               \
    Datum idgen_##prefix##_smaller(PG_FUNCTION_ARGS) {                                           \
        Datum a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1);                                    \
        return idgen::pg::fixed_bytes_compare<N>(a, b) <= 0 ? a : b;                             \
    }                                                                                            \
    PG_FUNCTION_INFO_V1(idgen_##prefix##_larger);                                                \
    Datum idgen_##prefix##_larger(PG_FUNCTION_ARGS) {                                            \
        Datum a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1);                                    \
        return idgen::pg::fixed_bytes_compare<N>(a, b) >= 0 ? a : b;                             \
    }                                                                                            \
    /* btree support function 2, for sorts and CREATE INDEX */                                   \
    PG_FUNCTION_INFO_V1(idgen_##prefix##_sortsupport);                                           \
    Datum idgen_##prefix##_sortsupport(PG_FUNCTION_ARGS) {                                       \
        idgen::pg::fixed_bytes_sortsupport(reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0)),  \
                                           idgen::pg::fixed_bytes_sort_compare<N>);              \
        PG_RETURN_VOID();                                                                        \
    }                                                                                            \
    /* hash support functions 1 and 2 (the seeded 64-bit hash of hash partitioning) */           \
    PG_FUNCTION_INFO_V1(idgen_##prefix##_hash);                                                  \
    Datum idgen_##prefix##_hash(PG_FUNCTION_ARGS) {                                              \
        return hash_any(idgen::pg::fixed_bytes(PG_GETARG_DATUM(0)), N);                          \
    }                                                                                            \
    PG_FUNCTION_INFO_V1(idgen_##prefix##_hash_extended);                                         \
    Datum idgen_##prefix##_hash_extended(PG_FUNCTION_ARGS) {                                     \
        return hash_any_extended(idgen::pg::fixed_bytes(PG_GETARG_DATUM(0)), N,                  \
                                 PG_GETARG_INT64(1));                                            \
    }                                                                                            \
    /* binary output and the cast to bytea: the N bytes */                                       \
    PG_FUNCTION_INFO_V1(idgen_##prefix##_send);                                                  \
    Datum idgen_##prefix##_send(PG_FUNCTION_ARGS) {                                              \
        return idgen::pg::fixed_bytes_send(PG_GETARG_DATUM(0), N);                               \
    }                                                                                            \
    PG_FUNCTION_INFO_V1(idgen_##prefix##_to_bytea);                                              \
    Datum idgen_##prefix##_to_bytea(PG_FUNCTION_ARGS) {                                          \
        return idgen::pg::fixed_bytes_to_bytea(PG_GETARG_DATUM(0), N);                           \
    }

#define IDGEN_FIXED_BYTES_COMPARISON(prefix, name, op, N)                                       \
    PG_FUNCTION_INFO_V1(idgen_##prefix##_##name);                                                \
    Datum idgen_##prefix##_##name(PG_FUNCTION_ARGS) {                                            \
        PG_RETURN_BOOL(idgen::pg::fixed_bytes_compare<N>(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) \
                       op 0);                                                                    \
    }
