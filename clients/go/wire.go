package idgen

import "fmt"

// The binary forms, those of the server's send and receive functions
// (docs/internals.md, "Binary formats"): ulid is its 16 bytes, ksuid its 20,
// objectid and rsxid their 12; prefixed_id and typeid are one byte L (the
// prefix's length: 1 to 63, typeid also 0), the L prefix characters, then
// the 16 bytes. Each type writes its form with AppendBinary and
// MarshalBinary and reads it with UnmarshalBinary, refusing what the server
// refuses, for a driver's codec (clients/go/pgx).

// Kind is one of idgen's base types: the family the server's idgen_types()
// gives each type and each domain over one.
type Kind int

const (
	KindULID Kind = iota
	KindPrefixedID
	KindTypeID
	KindKSUID
	KindObjectID
	KindXID // the type rsxid, whose family is xid
)

var kindNames = [...]string{"ulid", "prefixed_id", "typeid", "ksuid", "objectid", "xid"}

// String is the base type's name, as idgen_types() writes the family.
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// KindOf is the Kind of an idgen_types() family; ok is false for a family
// this package does not know (a newer idgen's).
func KindOf(family string) (k Kind, ok bool) {
	for i, name := range kindNames {
		if name == family {
			return Kind(i), true
		}
	}
	return 0, false
}

func binaryError(k Kind, src []byte, reason string) error {
	return parseError(k.String(), fmt.Sprintf("binary %x", src), reason)
}

// AppendBinary appends the ULID's binary form, its 16 bytes (encoding.BinaryAppender).
func (u ULID) AppendBinary(b []byte) ([]byte, error) { return append(b, u[:]...), nil }

// MarshalBinary is the ULID's binary form, its 16 bytes.
func (u ULID) MarshalBinary() ([]byte, error) { return u.AppendBinary(nil) }

// UnmarshalBinary reads a binary ulid: exactly 16 bytes.
func (u *ULID) UnmarshalBinary(src []byte) error {
	if len(src) != 16 {
		return binaryError(KindULID, src, fmt.Sprintf("%d bytes, want 16", len(src)))
	}
	copy(u[:], src)
	return nil
}

// unmarshalFixed reads a binary form of exactly len(dst) bytes.
func unmarshalFixed(k Kind, dst, src []byte) error {
	if len(src) != len(dst) {
		return binaryError(k, src, fmt.Sprintf("%d bytes, want %d", len(src), len(dst)))
	}
	copy(dst, src)
	return nil
}

// AppendBinary appends the KSUID's binary form, its 20 bytes (encoding.BinaryAppender).
func (k KSUID) AppendBinary(b []byte) ([]byte, error) { return append(b, k[:]...), nil }

// MarshalBinary is the KSUID's binary form, its 20 bytes.
func (k KSUID) MarshalBinary() ([]byte, error) { return k.AppendBinary(nil) }

// UnmarshalBinary reads a binary ksuid: exactly 20 bytes.
func (k *KSUID) UnmarshalBinary(src []byte) error { return unmarshalFixed(KindKSUID, k[:], src) }

// AppendBinary appends the ObjectID's binary form, its 12 bytes (encoding.BinaryAppender).
func (o ObjectID) AppendBinary(b []byte) ([]byte, error) { return append(b, o[:]...), nil }

// MarshalBinary is the ObjectID's binary form, its 12 bytes.
func (o ObjectID) MarshalBinary() ([]byte, error) { return o.AppendBinary(nil) }

// UnmarshalBinary reads a binary objectid: exactly 12 bytes.
func (o *ObjectID) UnmarshalBinary(src []byte) error { return unmarshalFixed(KindObjectID, o[:], src) }

// AppendBinary appends the XID's binary form, its 12 bytes (encoding.BinaryAppender).
func (x XID) AppendBinary(b []byte) ([]byte, error) { return append(b, x[:]...), nil }

// MarshalBinary is the XID's binary form, its 12 bytes.
func (x XID) MarshalBinary() ([]byte, error) { return x.AppendBinary(nil) }

// UnmarshalBinary reads a binary rsxid: exactly 12 bytes.
func (x *XID) UnmarshalBinary(src []byte) error { return unmarshalFixed(KindXID, x[:], src) }

// appendWithPrefix writes the form of prefixed_id and typeid, refusing a
// prefix the server would refuse (a zero PrefixedID's too).
func appendWithPrefix(k Kind, b []byte, prefix string, bits *[16]byte) ([]byte, error) {
	if (prefix != "" || k == KindPrefixedID) && !validPrefix(prefix) {
		return b, parseError(k.String(), prefix, "cannot write it in binary: the prefix is not 1 to 63 of a-z and _,"+
			" starting and ending with a letter")
	}
	b = append(b, byte(len(prefix)))
	b = append(b, prefix...)
	return append(b, bits[:]...), nil
}

// readWithPrefix reads the form of prefixed_id and typeid.
func readWithPrefix(k Kind, src []byte) (prefix string, bits [16]byte, err error) {
	if len(src) < 17 {
		return "", bits, binaryError(k, src, fmt.Sprintf("%d bytes, want 17 or more", len(src)))
	}
	n := int(src[0])
	if len(src) != 1+n+16 {
		return "", bits, binaryError(k, src, fmt.Sprintf("%d bytes with a prefix of %d", len(src), n))
	}
	prefix = string(src[1 : 1+n])
	if (n != 0 || k == KindPrefixedID) && !validPrefix(prefix) {
		return "", bits, binaryError(k, src, fmt.Sprintf("the invalid prefix %q", prefix))
	}
	copy(bits[:], src[1+n:])
	return prefix, bits, nil
}

// AppendBinary appends the ID's binary form (encoding.BinaryAppender); a
// prefix the server refuses, or the zero value's, is an error.
func (p PrefixedID) AppendBinary(b []byte) ([]byte, error) {
	return appendWithPrefix(KindPrefixedID, b, p.Prefix, &p.Bits)
}

// MarshalBinary is the ID's binary form.
func (p PrefixedID) MarshalBinary() ([]byte, error) { return p.AppendBinary(nil) }

// UnmarshalBinary reads a binary prefixed_id.
func (p *PrefixedID) UnmarshalBinary(src []byte) error {
	prefix, bits, err := readWithPrefix(KindPrefixedID, src)
	if err == nil {
		*p = PrefixedID{prefix, bits}
	}
	return err
}

// AppendBinary appends the TypeID's binary form (encoding.BinaryAppender); a
// prefix the server refuses is an error.
func (t TypeID) AppendBinary(b []byte) ([]byte, error) {
	return appendWithPrefix(KindTypeID, b, t.Prefix, &t.Bits)
}

// MarshalBinary is the TypeID's binary form.
func (t TypeID) MarshalBinary() ([]byte, error) { return t.AppendBinary(nil) }

// UnmarshalBinary reads a binary typeid.
func (t *TypeID) UnmarshalBinary(src []byte) error {
	prefix, bits, err := readWithPrefix(KindTypeID, src)
	if err == nil {
		*t = TypeID{prefix, bits}
	}
	return err
}
