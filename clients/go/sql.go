package idgen

import (
	"database/sql/driver"
	"fmt"
)

// database/sql: each type is a Scanner (from the text that lib/pq and pgx's
// stdlib give) and a Valuer (its text, which the server casts). Scan a
// nullable column into a pointer (*ULID) or sql.Null[ULID].

func scanText(typ string, src any) (string, error) {
	switch s := src.(type) {
	case string:
		return s, nil
	case []byte:
		return string(s), nil
	case nil:
		return "", fmt.Errorf("idgen: cannot scan NULL into a %s; scan into a pointer or sql.Null", typ)
	}
	return "", fmt.Errorf("idgen: cannot scan %T into a %s", src, typ)
}

// Scan implements sql.Scanner.
func (u *ULID) Scan(src any) error {
	s, err := scanText("ulid", src)
	if err == nil {
		*u, err = ParseULID(s)
	}
	return err
}

// Value implements driver.Valuer: the text.
func (u ULID) Value() (driver.Value, error) { return u.String(), nil }

// Scan implements sql.Scanner.
func (p *PrefixedID) Scan(src any) error {
	s, err := scanText("prefixed_id", src)
	if err == nil {
		*p, err = ParsePrefixedID(s)
	}
	return err
}

// Value implements driver.Valuer: the text, or NULL for the zero value.
func (p PrefixedID) Value() (driver.Value, error) {
	if p.IsZero() {
		return nil, nil
	}
	return p.String(), nil
}

// Scan implements sql.Scanner.
func (t *TypeID) Scan(src any) error {
	s, err := scanText("typeid", src)
	if err == nil {
		*t, err = ParseTypeID(s)
	}
	return err
}

// Value implements driver.Valuer: the text.
func (t TypeID) Value() (driver.Value, error) { return t.String(), nil }

// Scan implements sql.Scanner.
func (k *KSUID) Scan(src any) error {
	s, err := scanText("ksuid", src)
	if err == nil {
		*k, err = ParseKSUID(s)
	}
	return err
}

// Value implements driver.Valuer: the text (the nil KSUID's too, where
// segmentio/ksuid's Value gives NULL).
func (k KSUID) Value() (driver.Value, error) { return k.String(), nil }

// Scan implements sql.Scanner.
func (o *ObjectID) Scan(src any) error {
	s, err := scanText("objectid", src)
	if err == nil {
		*o, err = ParseObjectID(s)
	}
	return err
}

// Value implements driver.Valuer: the text.
func (o ObjectID) Value() (driver.Value, error) { return o.String(), nil }

// Scan implements sql.Scanner.
func (x *XID) Scan(src any) error {
	s, err := scanText("rsxid", src)
	if err == nil {
		*x, err = ParseXID(s)
	}
	return err
}

// Value implements driver.Valuer: the text (the zero XID's too, where
// rs/xid's Value gives NULL).
func (x XID) Value() (driver.Value, error) { return x.String(), nil }

// GORM: the column type its migrator writes (a domain column names its domain
// in the field's tag, `gorm:"type:account_id"`).

// GormDataType is the column type for GORM.
func (ULID) GormDataType() string { return "ulid" }

// GormDataType is the column type for GORM.
func (PrefixedID) GormDataType() string { return "prefixed_id" }

// GormDataType is the column type for GORM.
func (TypeID) GormDataType() string { return "typeid" }

// GormDataType is the column type for GORM.
func (KSUID) GormDataType() string { return "ksuid" }

// GormDataType is the column type for GORM.
func (ObjectID) GormDataType() string { return "objectid" }

// GormDataType is the column type for GORM: rsxid, the SQL name of idgen's XID
// (the name xid is PostgreSQL's transaction id).
func (XID) GormDataType() string { return "rsxid" }
