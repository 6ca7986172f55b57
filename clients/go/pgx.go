package idgen

import (
	"context"
	"database/sql/driver"
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

// Register looks up ulid, prefixed_id and typeid in the connection's
// database (their OIDs differ from one database to the next), and every
// domain over them (prefixed_id_define()'s and typeid_define()'s), and
// registers them and their arrays in the connection's type map, so that pgx
// reads and writes them in binary. The extension must be installed; call it
// again after creating a domain. Use it as pgxpool.Config's AfterConnect.
func Register(ctx context.Context, conn *pgx.Conn) error {
	rows, err := conn.Query(ctx, `
		SELECT t.oid, t.typname, t.typarray, b.typname
		FROM pg_type t
		JOIN pg_type b ON b.oid = CASE t.typtype WHEN 'd' THEN t.typbasetype ELSE t.oid END
		JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = b.oid AND d.deptype = 'e'
		JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
		WHERE b.typname IN ('ulid', 'prefixed_id', 'typeid')
		ORDER BY t.typtype <> 'b', t.oid`, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return fmt.Errorf("idgen: looking up the types: %w", err)
	}
	type found struct {
		oid, array uint32
		name, base string
	}
	var types []found
	for rows.Next() {
		var f found
		if err := rows.Scan(&f.oid, &f.name, &f.array, &f.base); err != nil {
			rows.Close()
			return err
		}
		types = append(types, f)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("idgen: looking up the types: %w", err)
	}
	if len(types) == 0 {
		return fmt.Errorf("idgen: the extension idgen is not installed in this database")
	}
	m := conn.TypeMap()
	for _, f := range types {
		codec := map[string]*Codec{"ulid": ULIDCodec, "prefixed_id": PrefixedIDCodec, "typeid": TypeIDCodec}[f.base]
		t := &pgtype.Type{Name: f.name, OID: f.oid, Codec: codec}
		m.RegisterType(t)
		if f.array != 0 {
			m.RegisterType(&pgtype.Type{Name: "_" + f.name, OID: f.array, Codec: &pgtype.ArrayCodec{ElementType: t}})
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
