package idgen

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// Codec is the pgx v5 codec of one of idgen's types, text and binary. It
// encodes the package's type for it (ULID, PrefixedID or TypeID) and strings
// (parsed, so binary COPY of a string works too), and scans into the
// package's type, *string and anything with a sql.Scanner.
type Codec struct{ kind kind }

// ULIDCodec, PrefixedIDCodec and TypeIDCodec are the codecs Register uses.
var (
	ULIDCodec       = &Codec{kindULID}
	PrefixedIDCodec = &Codec{kindPrefixed}
	TypeIDCodec     = &Codec{kindTypeID}
)

// typesFunctionSQL finds the extension's idgen_types() (docs/reference.md) in
// whatever schema idgen lives: the name to call it by (qualified when its
// schema is not on the search_path; NULL before idgen 0.8.0, which added it)
// and the extension's version; no row without idgen.
const typesFunctionSQL = `
	SELECT pg_catalog.to_regprocedure(e.extnamespace::pg_catalog.regnamespace::pg_catalog.text
	                                  OPERATOR(pg_catalog.||) '.idgen_types()')::pg_catalog.text,
	       e.extversion
	FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'`

// typesSQL is the statement that lists the types and every domain over them
// (base types first, then domains over them, then domains over those), for
// typesFunctionSQL's row, or the error of a database without idgen 0.8.0.
func typesSQL(found bool, function *string, version string) (string, error) {
	if !found {
		return "", fmt.Errorf("idgen: the extension idgen is not installed in this database (CREATE EXTENSION idgen)")
	}
	if function == nil {
		return "", fmt.Errorf("idgen: idgen %s is installed, and this package needs idgen 0.8.0 or later,"+
			" whose idgen_types() lists the types (ALTER EXTENSION idgen UPDATE)", version)
	}
	return "SELECT t.oid, t.name::text, t.array_oid, t.family FROM " + *function + " t", nil
}

// Register looks up ulid, prefixed_id and typeid in the connection's
// database (their OIDs differ from one database to the next), and every
// domain over them (prefixed_id_define()'s and typeid_define()'s, a CREATE
// DOMAIN over one, a domain over such a domain), through the extension's
// idgen_types(), and registers them and their arrays in the connection's
// type map, so that pgx reads and writes them in binary. It needs idgen
// 0.8.0 or later, installed in any schema; call it again after creating a
// domain. Use it as pgxpool.Config's AfterConnect.
func Register(ctx context.Context, conn *pgx.Conn) error {
	var function *string
	var version string
	found := true
	err := conn.QueryRow(ctx, typesFunctionSQL, pgx.QueryExecModeSimpleProtocol).Scan(&function, &version)
	if errors.Is(err, pgx.ErrNoRows) {
		found, err = false, nil
	}
	if err != nil {
		return fmt.Errorf("idgen: looking up idgen_types(): %w", err)
	}
	query, err := typesSQL(found, function, version)
	if err != nil {
		return err
	}
	rows, err := conn.Query(ctx, query, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return fmt.Errorf("idgen: looking up the types: %w", err)
	}
	type row struct {
		oid, array   uint32
		name, family string
	}
	var types []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.oid, &r.name, &r.array, &r.family); err != nil {
			rows.Close()
			return err
		}
		types = append(types, r)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("idgen: looking up the types: %w", err)
	}
	m := conn.TypeMap()
	for _, r := range types {
		codec := map[string]*Codec{"ulid": ULIDCodec, "prefixed_id": PrefixedIDCodec, "typeid": TypeIDCodec}[r.family]
		if codec == nil {
			continue // a family this version of the package does not know
		}
		t := &pgtype.Type{Name: r.name, OID: r.oid, Codec: codec}
		m.RegisterType(t)
		if r.array != 0 {
			m.RegisterType(&pgtype.Type{Name: "_" + r.name, OID: r.array, Codec: &pgtype.ArrayCodec{ElementType: t}})
		}
	}
	return nil
}

func (c *Codec) FormatSupported(format int16) bool {
	return format == pgtype.TextFormatCode || format == pgtype.BinaryFormatCode
}

func (c *Codec) PreferredFormat() int16 { return pgtype.BinaryFormatCode }

// of is the value of v if it is the codec's type, or a string (parsed).
func (c *Codec) of(v any) (value, bool, error) {
	switch x := v.(type) {
	case ULID:
		if c.kind == kindULID {
			return value{bits: x}, true, nil
		}
	case PrefixedID:
		if c.kind == kindPrefixed {
			return value{x.Prefix, x.Bits}, true, nil
		}
	case TypeID:
		if c.kind == kindTypeID {
			return value{x.Prefix, x.Bits}, true, nil
		}
	case string:
		val, err := c.kind.parse(x)
		return val, true, err
	}
	return value{}, false, nil
}

type encodePlan struct {
	c      *Codec
	binary bool
}

func (p encodePlan) Encode(v any, buf []byte) ([]byte, error) {
	if s, ok := v.(string); ok && !p.binary {
		return append(buf, s...), nil // the server checks it
	}
	if x, ok := v.(PrefixedID); ok && x.IsZero() {
		return nil, nil // NULL, as its Value() is
	}
	val, _, err := p.c.of(v)
	if err != nil {
		return nil, err
	}
	if p.binary {
		return p.c.kind.appendBinary(buf, val), nil
	}
	return append(buf, p.c.kind.format(val)...), nil
}

func (c *Codec) PlanEncode(m *pgtype.Map, oid uint32, format int16, v any) pgtype.EncodePlan {
	if _, ok, _ := c.of(v); !ok {
		if _, isString := v.(string); !isString {
			return nil
		}
	}
	return encodePlan{c, format == pgtype.BinaryFormatCode}
}

type scanPlan struct {
	c      *Codec
	binary bool
}

func (p scanPlan) decode(src []byte) (value, error) {
	if p.binary {
		return p.c.kind.decodeBinary(src)
	}
	return p.c.kind.parse(string(src))
}

func (p scanPlan) Scan(src []byte, target any) error {
	if src == nil {
		return fmt.Errorf("idgen: cannot scan NULL %s into %T", p.c.kind, target)
	}
	val, err := p.decode(src)
	if err != nil {
		return err
	}
	switch t := target.(type) {
	case *ULID:
		*t = ULID(val.bits)
	case *PrefixedID:
		*t = PrefixedID{val.prefix, val.bits}
	case *TypeID:
		*t = TypeID{val.prefix, val.bits}
	case *string:
		if p.binary {
			*t = p.c.kind.format(val)
		} else {
			*t = string(src)
		}
	default:
		return fmt.Errorf("idgen: cannot scan %s into %T", p.c.kind, target)
	}
	return nil
}

func (c *Codec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	switch target.(type) {
	case *string:
	case *ULID:
		if c.kind != kindULID {
			return nil
		}
	case *PrefixedID:
		if c.kind != kindPrefixed {
			return nil
		}
	case *TypeID:
		if c.kind != kindTypeID {
			return nil
		}
	default:
		return nil
	}
	return scanPlan{c, format == pgtype.BinaryFormatCode}
}

// DecodeDatabaseSQLValue gives database/sql (pgx's stdlib) the text.
func (c *Codec) DecodeDatabaseSQLValue(m *pgtype.Map, oid uint32, format int16, src []byte) (driver.Value, error) {
	if src == nil {
		return nil, nil
	}
	val, err := scanPlan{c, format == pgtype.BinaryFormatCode}.decode(src)
	if err != nil {
		return nil, err
	}
	return c.kind.format(val), nil
}

// DecodeValue gives rows.Values() the package's type.
func (c *Codec) DecodeValue(m *pgtype.Map, oid uint32, format int16, src []byte) (any, error) {
	if src == nil {
		return nil, nil
	}
	val, err := scanPlan{c, format == pgtype.BinaryFormatCode}.decode(src)
	if err != nil {
		return nil, err
	}
	return c.kind.goValue(val), nil
}
