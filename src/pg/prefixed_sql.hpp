// The stored form of prefixed_id, shared with typeid (typeid_sql.cpp): a
// varlena holding the prefix's characters (none for a typeid with the empty
// prefix) and then the 16 payload bytes. Both types use prefixed_id's C
// functions for comparison, hashing, min/max and the accessors.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/prefixed.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// A stored value, read in place (short or long header, never copied).
struct PrefixedView {
    std::string_view prefix;
    const std::uint8_t *payload;
};

PrefixedView view_of(const varlena *value);

// A new stored value of prefix and 16 payload bytes.
Datum make_prefixed(std::string_view prefix, const std::uint8_t payload[core::kPrefixedPayloadBytes]);

// The detail sentence for a prefix that prefix_check refused.
const char *describe_prefix_problem(const core::PrefixCheck &check, std::string_view prefix);

// A binary field that prefixed_wire_decode refused: 22P03, saying why, for
// type_name (prefixed_id, or typeid whose prefix may be empty).
[[noreturn]] void report_bad_wire(const core::PrefixedWire &wire, std::size_t size,
                                  const std::uint8_t *data, const char *type_name,
                                  bool empty_prefix_allowed);

}  // namespace idgen::pg
