package idgen

import "fmt"

// The binary forms (docs/internals.md, "Binary formats"): ulid is its 16
// bytes; prefixed_id and typeid are one byte L (the prefix's length: 1 to 63,
// typeid also 0), the L prefix characters, then the 16 bytes.

// kind is one of idgen's three base types.
type kind int

const (
	kindULID kind = iota
	kindPrefixed
	kindTypeID
)

var kindNames = [...]string{"ulid", "prefixed_id", "typeid"}

func (k kind) String() string { return kindNames[k] }

// value is any of the three: ULID has no prefix.
type value struct {
	prefix string
	bits   [16]byte
}

func (k kind) appendBinary(buf []byte, v value) []byte {
	if k != kindULID {
		buf = append(buf, byte(len(v.prefix)))
		buf = append(buf, v.prefix...)
	}
	return append(buf, v.bits[:]...)
}

func (k kind) decodeBinary(src []byte) (value, error) {
	if k == kindULID {
		if len(src) != 16 {
			return value{}, fmt.Errorf("idgen: a binary ulid of %d bytes, want 16", len(src))
		}
		var v value
		copy(v.bits[:], src)
		return v, nil
	}
	if len(src) < 17 {
		return value{}, fmt.Errorf("idgen: a binary %s of %d bytes, want 17 or more", k, len(src))
	}
	n := int(src[0])
	if len(src) != 1+n+16 {
		return value{}, fmt.Errorf("idgen: a binary %s of %d bytes with a prefix of %d", k, len(src), n)
	}
	prefix := string(src[1 : 1+n])
	if (n != 0 || k == kindPrefixed) && !validPrefix(prefix) {
		return value{}, fmt.Errorf("idgen: a binary %s with the invalid prefix %q", k, prefix)
	}
	v := value{prefix: prefix}
	copy(v.bits[:], src[1+n:])
	return v, nil
}

func (k kind) format(v value) string {
	switch k {
	case kindULID:
		return ULID(v.bits).String()
	case kindPrefixed:
		return PrefixedID{v.prefix, v.bits}.String()
	default:
		return TypeID{v.prefix, v.bits}.String()
	}
}

func (k kind) parse(s string) (value, error) {
	switch k {
	case kindULID:
		u, err := ParseULID(s)
		return value{bits: u}, err
	case kindPrefixed:
		p, err := ParsePrefixedID(s)
		return value{p.Prefix, p.Bits}, err
	default:
		t, err := ParseTypeID(s)
		return value{t.Prefix, t.Bits}, err
	}
}

// goValue is the package's own type for a value of kind k.
func (k kind) goValue(v value) any {
	switch k {
	case kindULID:
		return ULID(v.bits)
	case kindPrefixed:
		return PrefixedID{v.prefix, v.bits}
	default:
		return TypeID{v.prefix, v.bits}
	}
}
