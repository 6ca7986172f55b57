package idgen

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"time"
)

// PrefixedID is idgen's prefixed_id: a prefix (lowercase letters and
// underscores, starting and ending with a letter, at most 63) and 128 bits,
// written "acct_" and 25 base36 digits. The zero value (no prefix) is no
// valid ID; it is written to the database as NULL.
type PrefixedID struct {
	Prefix string
	Bits   [16]byte
}

// TypeID is idgen's typeid (TypeID specification 0.3.0): a prefix, which
// may be empty, and 128 bits, written "user_" and 26 lowercase Crockford
// base32 characters (the suffix alone for the empty prefix).
type TypeID struct {
	Prefix string
	Bits   [16]byte
}

const base36Digits = "0123456789abcdefghijklmnopqrstuvwxyz"

// validPrefix: 1 to 63 of a-z and _, first and last a letter.
func validPrefix(p string) bool {
	if len(p) == 0 || len(p) > 63 || p[0] == '_' || p[len(p)-1] == '_' {
		return false
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; !(c >= 'a' && c <= 'z') && c != '_' {
			return false
		}
	}
	return true
}

// base36Encode writes 128 bits as 25 base36 digits, zero-padded.
func base36Encode(b *[16]byte, out []byte) {
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	for i := 24; i >= 0; i-- {
		var r uint64
		hi, r = bits.Div64(0, hi, 36)
		lo, r = bits.Div64(r, lo, 36)
		out[i] = base36Digits[r]
	}
}

// base36Decode reads 25 base36 digits, either case, at most 2^128 - 1.
func base36Decode(s string) (b [16]byte, reason string) {
	if len(s) != 25 {
		return b, "the body is not 25 base36 digits"
	}
	var hi, lo uint64
	for i := 0; i < 25; i++ {
		c := s[i]
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'z':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = uint64(c-'A') + 10
		default:
			return b, "the body holds a character that is not a base36 digit"
		}
		// (hi, lo) = (hi, lo) * 36 + d, refusing a carry out of 128 bits
		h1, h0 := bits.Mul64(hi, 36)
		l1, l0 := bits.Mul64(lo, 36)
		var c1, c2 uint64
		lo, c1 = bits.Add64(l0, d, 0)
		hi, c2 = bits.Add64(h0, l1, c1)
		if h1 != 0 || c2 != 0 {
			return b, "the body is above 2^128 - 1"
		}
	}
	binary.BigEndian.PutUint64(b[:8], hi)
	binary.BigEndian.PutUint64(b[8:], lo)
	return b, ""
}

// ParsePrefixedID reads "<prefix>_<25 base36 digits>", split on the last
// underscore, as the server's prefixed_id input does.
func ParsePrefixedID(s string) (PrefixedID, error) {
	at := strings.LastIndexByte(s, '_')
	if at < 0 {
		return PrefixedID{}, parseError("prefixed_id", s, "no underscore between prefix and body")
	}
	if !validPrefix(s[:at]) {
		return PrefixedID{}, parseError("prefixed_id", s, "the prefix is not 1 to 63 of a-z and _, starting and ending with a letter")
	}
	b, reason := base36Decode(s[at+1:])
	if reason != "" {
		return PrefixedID{}, parseError("prefixed_id", s, reason)
	}
	return PrefixedID{Prefix: s[:at], Bits: b}, nil
}

// String is the ID's text, as the server writes it.
func (p PrefixedID) String() string {
	out := make([]byte, len(p.Prefix)+26)
	copy(out, p.Prefix)
	out[len(p.Prefix)] = '_'
	base36Encode(&p.Bits, out[len(p.Prefix)+1:])
	return string(out)
}

// IsZero tells whether p is the zero value (no prefix), which is no ID.
func (p PrefixedID) IsZero() bool { return p.Prefix == "" && p.Bits == [16]byte{} }

// UUID is the 128 bits as a UUID (the server's prefixed_id_uuid).
func (p PrefixedID) UUID() [16]byte { return p.Bits }

// Time is the millisecond of UUIDv7 bits (the server's prefixed_id_time);
// ok is false for other bits, such as a token's.
func (p PrefixedID) Time() (t time.Time, ok bool) { return UUIDv7Time(p.Bits) }

// MarshalText writes the ID's text.
func (p PrefixedID) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads an ID's text.
func (p *PrefixedID) UnmarshalText(b []byte) error {
	v, err := ParsePrefixedID(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// ParseTypeID reads "<prefix>_<26 lowercase base32>" or the 26 characters
// alone, strictly, as the server's typeid input does.
func ParseTypeID(s string) (TypeID, error) {
	prefix, suffix := "", s
	if at := strings.LastIndexByte(s, '_'); at >= 0 {
		prefix, suffix = s[:at], s[at+1:]
		if !validPrefix(prefix) {
			return TypeID{}, parseError("typeid", s, "the prefix is not 1 to 63 of a-z and _, starting and ending with a letter")
		}
	}
	b, reason := base32Decode(suffix, true)
	if reason != "" {
		return TypeID{}, parseError("typeid", s, "the suffix: "+reason)
	}
	return TypeID{Prefix: prefix, Bits: b}, nil
}

// String is the TypeID's text, as the server writes it.
func (t TypeID) String() string {
	n := 0
	if t.Prefix != "" {
		n = len(t.Prefix) + 1
	}
	out := make([]byte, n+26)
	if n > 0 {
		copy(out, t.Prefix)
		out[n-1] = '_'
	}
	base32Encode(&t.Bits, crockfordLower, out[n:])
	return string(out)
}

// UUID is the 128 bits as a UUID (the server's typeid_uuid).
func (t TypeID) UUID() [16]byte { return t.Bits }

// Time is the millisecond of UUIDv7 bits (the server's typeid_time); ok is
// false for other bits.
func (t TypeID) Time() (time.Time, bool) { return UUIDv7Time(t.Bits) }

// MarshalText writes the TypeID's text.
func (t TypeID) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a TypeID's text.
func (t *TypeID) UnmarshalText(b []byte) error {
	v, err := ParseTypeID(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
