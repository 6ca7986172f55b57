package pgx

import (
	"database/sql/driver"
	"encoding"
	"fmt"

	idgen "github.com/idgen/idgen/clients/go"
	"github.com/jackc/pgx/v5/pgtype"
)

// Codec is the pgx v5 codec of one of idgen's types, text and binary. It
// encodes package idgen's type for it (idgen.ULID, idgen.PrefixedID,
// idgen.TypeID, idgen.KSUID, idgen.ObjectID or idgen.XID) and strings
// (parsed, so binary COPY of a string works too), and scans into that type
// and *string. Other values with a driver.Valuer that gives the text, such
// as rs/xid's xid.ID and segmentio/ksuid's ksuid.KSUID, reach it through
// pgx as that string; a sql.Scanner, theirs too, gets the text.
type Codec struct{ kind idgen.Kind }

// The codecs Register uses, one per type.
var (
	ULIDCodec       = &Codec{idgen.KindULID}
	PrefixedIDCodec = &Codec{idgen.KindPrefixedID}
	TypeIDCodec     = &Codec{idgen.KindTypeID}
	KSUIDCodec      = &Codec{idgen.KindKSUID}
	ObjectIDCodec   = &Codec{idgen.KindObjectID}
	XIDCodec        = &Codec{idgen.KindXID}
)

// codecs are the codecs by kind, for the families idgen_types() lists.
var codecs = map[idgen.Kind]*Codec{
	idgen.KindULID: ULIDCodec, idgen.KindPrefixedID: PrefixedIDCodec, idgen.KindTypeID: TypeIDCodec,
	idgen.KindKSUID: KSUIDCodec, idgen.KindObjectID: ObjectIDCodec, idgen.KindXID: XIDCodec,
}

// value is a value of any of the types.
type value interface {
	encoding.BinaryAppender
	String() string
}

// target is a pointer to one of the types.
type target interface {
	encoding.BinaryUnmarshaler
	encoding.TextUnmarshaler
}

// fresh is a new target of type T and the value it holds once read.
func fresh[T any, P interface {
	*T
	target
}]() (target, func() value) {
	p := P(new(T))
	return p, func() value { return any(*p).(value) }
}

// newTarget is a fresh value of the codec's type and the value it holds once read.
func (c *Codec) newTarget() (target, func() value) {
	switch c.kind {
	case idgen.KindULID:
		return fresh[idgen.ULID]()
	case idgen.KindPrefixedID:
		return fresh[idgen.PrefixedID]()
	case idgen.KindTypeID:
		return fresh[idgen.TypeID]()
	case idgen.KindKSUID:
		return fresh[idgen.KSUID]()
	case idgen.KindObjectID:
		return fresh[idgen.ObjectID]()
	default:
		return fresh[idgen.XID]()
	}
}

// kindOf is the kind of a value of one of the types (ok false for anything
// else, pointers too: pgx dereferences those, NULL for nil).
func kindOf(v any) (k idgen.Kind, ok bool) {
	switch v.(type) {
	case idgen.ULID:
		return idgen.KindULID, true
	case idgen.PrefixedID:
		return idgen.KindPrefixedID, true
	case idgen.TypeID:
		return idgen.KindTypeID, true
	case idgen.KSUID:
		return idgen.KindKSUID, true
	case idgen.ObjectID:
		return idgen.KindObjectID, true
	case idgen.XID:
		return idgen.KindXID, true
	}
	return 0, false
}

// scansInto tells whether dst is a pointer to the codec's type.
func (c *Codec) scansInto(dst any) bool {
	switch dst.(type) {
	case *idgen.ULID:
		return c.kind == idgen.KindULID
	case *idgen.PrefixedID:
		return c.kind == idgen.KindPrefixedID
	case *idgen.TypeID:
		return c.kind == idgen.KindTypeID
	case *idgen.KSUID:
		return c.kind == idgen.KindKSUID
	case *idgen.ObjectID:
		return c.kind == idgen.KindObjectID
	case *idgen.XID:
		return c.kind == idgen.KindXID
	}
	return false
}

// decode reads a field into the codec's type.
func (c *Codec) decode(src []byte, binary bool) (value, error) {
	t, read := c.newTarget()
	var err error
	if binary {
		err = t.UnmarshalBinary(src)
	} else {
		err = t.UnmarshalText(src)
	}
	return read(), err
}

func (c *Codec) FormatSupported(format int16) bool {
	return format == pgtype.TextFormatCode || format == pgtype.BinaryFormatCode
}

func (c *Codec) PreferredFormat() int16 { return pgtype.BinaryFormatCode }

type encodePlan struct {
	c      *Codec
	binary bool
}

func (p encodePlan) Encode(v any, buf []byte) ([]byte, error) {
	s, isString := v.(string)
	if isString && !p.binary {
		return append(buf, s...), nil // the server checks it
	}
	if x, ok := v.(idgen.PrefixedID); ok && x.IsZero() {
		return nil, nil // NULL, as its Value() is
	}
	var val value
	if isString {
		var err error
		if val, err = p.c.decode([]byte(s), false); err != nil {
			return nil, err
		}
	} else {
		val = v.(value)
	}
	if p.binary {
		return val.AppendBinary(buf)
	}
	return append(buf, val.String()...), nil
}

func (c *Codec) PlanEncode(m *pgtype.Map, oid uint32, format int16, v any) pgtype.EncodePlan {
	if _, isString := v.(string); !isString {
		if k, ok := kindOf(v); !ok || k != c.kind {
			return nil
		}
	}
	return encodePlan{c, format == pgtype.BinaryFormatCode}
}

type scanPlan struct {
	c      *Codec
	binary bool
}

func (p scanPlan) Scan(src []byte, dst any) error {
	if src == nil {
		return fmt.Errorf("idgen: cannot scan NULL %s into %T", p.c.kind, dst)
	}
	switch t := dst.(type) {
	case *string:
		if !p.binary {
			if _, err := p.c.decode(src, false); err != nil {
				return err
			}
			*t = string(src)
			return nil
		}
		val, err := p.c.decode(src, true)
		if err != nil {
			return err
		}
		*t = val.String()
		return nil
	case target:
		if p.binary {
			return t.UnmarshalBinary(src)
		}
		return t.UnmarshalText(src)
	}
	return fmt.Errorf("idgen: cannot scan %s into %T", p.c.kind, dst)
}

func (c *Codec) PlanScan(m *pgtype.Map, oid uint32, format int16, dst any) pgtype.ScanPlan {
	if _, isString := dst.(*string); !isString && !c.scansInto(dst) {
		return nil
	}
	return scanPlan{c, format == pgtype.BinaryFormatCode}
}

// DecodeDatabaseSQLValue gives database/sql (pgx's stdlib) the text.
func (c *Codec) DecodeDatabaseSQLValue(m *pgtype.Map, oid uint32, format int16, src []byte) (driver.Value, error) {
	if src == nil {
		return nil, nil
	}
	val, err := c.decode(src, format == pgtype.BinaryFormatCode)
	if err != nil {
		return nil, err
	}
	return val.String(), nil
}

// DecodeValue gives rows.Values() package idgen's type.
func (c *Codec) DecodeValue(m *pgtype.Map, oid uint32, format int16, src []byte) (any, error) {
	if src == nil {
		return nil, nil
	}
	val, err := c.decode(src, format == pgtype.BinaryFormatCode)
	if err != nil {
		return nil, err
	}
	return val, nil
}
