package idgen

import (
	"bytes"
	"encoding/binary"
	"time"
)

// ULID is idgen's ulid: its 16 bytes, most significant first (the ULID
// spec's byte order, and the bytes of the server's ulid::uuid cast), compared
// with == and usable as a map key. The zero value is the ULID
// 00000000000000000000000000.
type ULID [16]byte

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const crockfordLower = "0123456789abcdefghjkmnpqrstvwxyz"

// crockfordValue maps a character to its 5-bit value, or 0xff. Both cases are
// read; I, L, O and U are not (the server refuses them too).
var crockfordValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i := 0; i < 32; i++ {
		t[crockford[i]] = byte(i)
		t[crockfordLower[i]] = byte(i)
	}
	return
}()

// base32Encode writes the 26 characters of 128 bits (2 zero bits first).
func base32Encode(b *[16]byte, alphabet string, out []byte) {
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	for i := 25; i >= 0; i-- {
		out[i] = alphabet[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
}

// base32Decode reads 26 characters; ok is false for a bad length, a
// character outside the alphabet, or a first character above 7.
func base32Decode(s string, lowerOnly bool) (b [16]byte, reason string) {
	if len(s) != 26 {
		return b, "not 26 characters"
	}
	var hi, lo uint64
	for i := 0; i < 26; i++ {
		c := s[i]
		v := crockfordValue[c]
		if v == 0xff || (lowerOnly && c >= 'A' && c <= 'Z') {
			return b, "a character outside the alphabet"
		}
		if i == 0 && v > 7 {
			return b, "the first character is above 7 (more than 128 bits)"
		}
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(v)
	}
	binary.BigEndian.PutUint64(b[:8], hi)
	binary.BigEndian.PutUint64(b[8:], lo)
	return b, ""
}

// ParseULID reads 26 Crockford base32 characters in either case, as the
// server's ulid input does.
func ParseULID(s string) (ULID, error) {
	b, reason := base32Decode(s, false)
	if reason != "" {
		return ULID{}, parseError("ulid", s, reason)
	}
	return ULID(b), nil
}

// MustParseULID is ParseULID that panics on bad input, for constants.
func MustParseULID(s string) ULID {
	u, err := ParseULID(s)
	if err != nil {
		panic(err)
	}
	return u
}

// String is the ULID's text: 26 uppercase characters, as the server writes it.
func (u ULID) String() string {
	var out [26]byte
	b := [16]byte(u)
	base32Encode(&b, crockford, out[:])
	return string(out[:])
}

// Compare orders ULIDs as the server's ulid does: by their bytes, which is
// the order of their text (-1, 0 or +1, for slices.SortFunc).
func (u ULID) Compare(v ULID) int { return bytes.Compare(u[:], v[:]) }

// UUID is the same 16 bytes as a UUID (the server's ulid::uuid cast).
func (u ULID) UUID() [16]byte { return u }

// ULIDFromUUID is the ULID of a UUID's 16 bytes (the server's uuid::ulid cast).
func ULIDFromUUID(b [16]byte) ULID { return ULID(b) }

// Time is the millisecond in the ULID's first 48 bits (the server's ulid_time).
func (u ULID) Time() time.Time { return msTime(u[:]) }

// msTime reads a 48-bit count of Unix milliseconds from b[0:6].
func msTime(b []byte) time.Time {
	ms := int64(b[0])<<40 | int64(b[1])<<32 | int64(b[2])<<24 | int64(b[3])<<16 | int64(b[4])<<8 | int64(b[5])
	return time.UnixMilli(ms).UTC()
}

// MarshalText writes the ULID's text.
func (u ULID) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText reads a ULID's text.
func (u *ULID) UnmarshalText(b []byte) error {
	v, err := ParseULID(string(b))
	if err != nil {
		return err
	}
	*u = v
	return nil
}
