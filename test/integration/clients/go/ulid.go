package main

import (
	"fmt"
	"strings"

	"github.com/jackc/pgtype"
)

// Ulid is idgen's ulid for pgx v4: registered with the connection's ConnInfo, it makes pgx read
// and write ulid in binary (16 bytes, most significant first) and still scans into a string.
type Ulid struct {
	Bytes  [16]byte
	Status pgtype.Status
}

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

func (u Ulid) String() string { // 26 Crockford base32 characters, 2 zero bits first
	var out [26]byte
	for i := 25; i >= 0; i-- {
		bit := uint((25 - i) * 5) // the character's lowest bit, counted from the last byte's
		var v uint16
		v = uint16(u.Bytes[15-bit/8]) >> (bit % 8)
		if bit/8 < 15 {
			v |= uint16(u.Bytes[15-bit/8-1]) << (8 - bit%8)
		}
		out[i] = crockford[v&31]
	}
	return string(out[:])
}

// ParseUlid reads 26 Crockford base32 characters, either case, as the server does.
func ParseUlid(text string) (Ulid, error) {
	if len(text) != 26 || text[0] > '7' {
		return Ulid{}, fmt.Errorf("invalid ulid %q", text)
	}
	var u Ulid
	for _, c := range strings.ToUpper(text) {
		d := strings.IndexRune(crockford, c)
		if d < 0 {
			return Ulid{}, fmt.Errorf("invalid ulid %q", text)
		}
		for i := 0; i < 15; i++ { // shift the 128 bits left by 5, then add d
			u.Bytes[i] = u.Bytes[i]<<5 | u.Bytes[i+1]>>3
		}
		u.Bytes[15] = u.Bytes[15]<<5 | byte(d)
	}
	u.Status = pgtype.Present
	return u, nil
}

func (u *Ulid) Set(src interface{}) error {
	switch v := src.(type) {
	case nil:
		*u = Ulid{Status: pgtype.Null}
	case Ulid:
		*u = v
	case [16]byte:
		*u = Ulid{Bytes: v, Status: pgtype.Present}
	case string:
		parsed, err := ParseUlid(v)
		if err != nil {
			return err
		}
		*u = parsed
	default:
		return fmt.Errorf("cannot convert %T to Ulid", src)
	}
	return nil
}

func (u Ulid) Get() interface{} {
	if u.Status != pgtype.Present {
		return nil
	}
	return u
}

func (u *Ulid) AssignTo(dst interface{}) error {
	if u.Status != pgtype.Present {
		return pgtype.NullAssignTo(dst)
	}
	switch v := dst.(type) {
	case *Ulid:
		*v = *u
	case *string:
		*v = u.String()
	case *[16]byte:
		*v = u.Bytes
	default:
		return fmt.Errorf("cannot assign Ulid to %T", dst)
	}
	return nil
}

func (u *Ulid) DecodeBinary(ci *pgtype.ConnInfo, src []byte) error {
	if src == nil {
		*u = Ulid{Status: pgtype.Null}
		return nil
	}
	if len(src) != 16 {
		return fmt.Errorf("ulid: %d bytes, want 16", len(src))
	}
	*u = Ulid{Status: pgtype.Present}
	copy(u.Bytes[:], src)
	return nil
}

func (u *Ulid) DecodeText(ci *pgtype.ConnInfo, src []byte) error {
	if src == nil {
		*u = Ulid{Status: pgtype.Null}
		return nil
	}
	return u.Set(string(src))
}

func (u Ulid) EncodeBinary(ci *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	if u.Status != pgtype.Present {
		return nil, nil
	}
	return append(buf, u.Bytes[:]...), nil
}

func (u Ulid) EncodeText(ci *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	if u.Status != pgtype.Present {
		return nil, nil
	}
	return append(buf, u.String()...), nil
}
