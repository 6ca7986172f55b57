package idgen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"
)

// XID is idgen's rsxid (the XID of github.com/rs/xid): its 12 bytes, most
// significant first, the server's binary form and its bytea cast: 4 bytes of
// Unix seconds, 3 of machine, 2 of process id, 3 of counter. Compared with
// == and usable as a map key; the zero value is 00000000000000000000. Its
// underlying type is rs/xid's, so idgen.XID(id) and xid.ID(x) convert
// between the two.
type XID [12]byte

// base32Hex is the XID alphabet, RFC 4648's base32hex in lowercase.
const base32Hex = "0123456789abcdefghijklmnopqrstuv"

var base32HexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i := 0; i < len(base32Hex); i++ {
		t[base32Hex[i]] = byte(i)
	}
	return
}()

// ParseXID reads 20 lowercase base32hex characters, strictly, as the server's
// rsxid input and rs/xid do: 96 bits and 4 zero bits, so the last character
// is 0 or g.
func ParseXID(s string) (XID, error) {
	for i := 0; i < len(s); i++ {
		if base32HexValue[s[i]] == 0xff {
			return XID{}, parseError("xid", s, fmt.Sprintf("a character outside lowercase base32hex (0-9, a-v) at byte %d", i))
		}
	}
	if len(s) != 20 {
		return XID{}, parseError("xid", s, "not 20 characters")
	}
	var x XID
	var acc uint32
	bits, j := 0, 0
	for i := 0; i < 20; i++ {
		acc = acc<<5 | uint32(base32HexValue[s[i]])
		if bits += 5; bits >= 8 {
			bits -= 8
			x[j] = byte(acc >> bits)
			j++
		}
		acc &= 1<<bits - 1
	}
	if acc != 0 { // the 4 bits after the 96
		return XID{}, parseError("xid", s, "the last character carries bits beyond the 96 (an XID ends in 0 or g)")
	}
	return x, nil
}

// MustParseXID is ParseXID that panics on bad input, for constants.
func MustParseXID(s string) XID {
	x, err := ParseXID(s)
	if err != nil {
		panic(err)
	}
	return x
}

// String is the XID's text: 20 lowercase base32hex characters.
func (x XID) String() string {
	var out [20]byte
	var acc uint32
	bits, j := 0, 0
	for _, b := range x {
		acc = acc<<8 | uint32(b)
		for bits += 8; bits >= 5; j++ {
			bits -= 5
			out[j] = base32Hex[acc>>bits&31]
		}
		acc &= 1<<bits - 1
	}
	out[j] = base32Hex[acc<<(5-bits)&31] // the last bit, then 4 zero bits
	return string(out[:])
}

// Compare orders XIDs as the server's rsxid does: by their bytes, which is
// the order of their text.
func (x XID) Compare(v XID) int { return bytes.Compare(x[:], v[:]) }

// Time is the second in the first 4 bytes (the server's xid_time).
func (x XID) Time() time.Time { return time.Unix(int64(binary.BigEndian.Uint32(x[:4])), 0).UTC() }

// Machine is the 3-byte machine id (the server's xid_machine).
func (x XID) Machine() (m [3]byte) { copy(m[:], x[4:7]); return }

// Pid is the 2-byte big-endian process id, 0 to 65535 (the server's xid_pid).
func (x XID) Pid() int { return int(binary.BigEndian.Uint16(x[7:9])) }

// Counter is the 3-byte big-endian counter, 0 to 16777215 (the server's xid_counter).
func (x XID) Counter() int { return int(x[9])<<16 | int(x[10])<<8 | int(x[11]) }

// MarshalText writes the XID's text.
func (x XID) MarshalText() ([]byte, error) { return []byte(x.String()), nil }

// UnmarshalText reads an XID's text.
func (x *XID) UnmarshalText(b []byte) error {
	v, err := ParseXID(string(b))
	if err != nil {
		return err
	}
	*x = v
	return nil
}
