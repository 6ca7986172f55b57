// Package idgen reads and writes the types of the idgen PostgreSQL extension
// (ulid, prefixed_id, typeid, ksuid, objectid, rsxid and the domains over
// them) from Go: values with their text and binary forms, database/sql
// Scanner and Valuer for pgx's stdlib and lib/pq, GORM column types, and
// decoders for the time and the other fields that idgen's IDs carry. It needs nothing beyond the standard
// library; the pgx v5 codecs are the module github.com/idgen/idgen/clients/go/pgx.
package idgen

import "fmt"

// Version is the idgen release this package belongs to.
const Version = "0.8.0"

// ParseError is returned for text or binary data that is not a value of the type.
type ParseError struct {
	Type   string // the family: "ulid", "prefixed_id", "typeid", "ksuid", "objectid" or "xid" (the type rsxid)
	Input  string // the text, or "binary " and the field in hex
	Reason string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("idgen: invalid %s %q: %s", e.Type, e.Input, e.Reason)
}

func parseError(typ, input, reason string) error {
	return &ParseError{Type: typ, Input: input, Reason: reason}
}
