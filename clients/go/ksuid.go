package idgen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"
)

// KSUID is idgen's ksuid (Segment's K-Sortable Unique IDentifier): its 20
// bytes, most significant first, the server's binary form and its bytea
// cast: 4 bytes of seconds since KSUIDEpoch, then 16 of payload. Compared
// with == and usable as a map key. The zero value is the nil KSUID
// 000000000000000000000000000. Its underlying type is segmentio/ksuid's, so
// idgen.KSUID(k) and ksuid.KSUID(v) convert between the two.
type KSUID [20]byte

// KSUIDEpoch is the second a KSUID's timestamp counts from, 1,400,000,000
// (2014-05-13 16:53:20 UTC).
var KSUIDEpoch = time.Unix(ksuidEpochUnix, 0).UTC()

const ksuidEpochUnix = 1_400_000_000

// base62 is the KSUID alphabet: digits, then uppercase, then lowercase, so
// that text order under C collation is byte order.
const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// ksuidMax is the text of the largest KSUID, all 160 bits set.
const ksuidMax = "aWgEPTl1tmebfsQzFP4bxwgy80V"

var base62Value = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i := 0; i < len(base62); i++ {
		t[base62[i]] = byte(i)
	}
	return
}()

// ParseKSUID reads 27 base62 characters, case-sensitive, as the server's
// ksuid input does: a character outside the alphabet is refused
// (segmentio/ksuid's Parse reads any byte), so is a value above
// aWgEPTl1tmebfsQzFP4bxwgy80V.
func ParseKSUID(s string) (KSUID, error) {
	for i := 0; i < len(s); i++ {
		if base62Value[s[i]] == 0xff {
			return KSUID{}, parseError("ksuid", s, fmt.Sprintf("a character outside the base62 alphabet at byte %d", i))
		}
	}
	if len(s) != 27 {
		return KSUID{}, parseError("ksuid", s, "not 27 characters")
	}
	// five 32-bit words, most significant first: w = w*62 + digit
	var w [5]uint32
	for i := 0; i < 27; i++ {
		carry := uint64(base62Value[s[i]])
		for j := 4; j >= 0; j-- {
			v := uint64(w[j])*62 + carry
			w[j], carry = uint32(v), v>>32
		}
		if carry != 0 {
			return KSUID{}, parseError("ksuid", s, "above "+ksuidMax+", the largest KSUID (2^160 - 1)")
		}
	}
	var k KSUID
	for j := range w {
		binary.BigEndian.PutUint32(k[4*j:], w[j])
	}
	return k, nil
}

// MustParseKSUID is ParseKSUID that panics on bad input, for constants.
func MustParseKSUID(s string) KSUID {
	k, err := ParseKSUID(s)
	if err != nil {
		panic(err)
	}
	return k
}

// String is the KSUID's text: 27 base62 characters, left-padded with 0.
func (k KSUID) String() string {
	var w [5]uint32
	for j := range w {
		w[j] = binary.BigEndian.Uint32(k[4*j:])
	}
	var out [27]byte
	for i := 26; i >= 0; i-- {
		var rem uint64
		for j := 0; j < 5; j++ {
			v := rem<<32 | uint64(w[j])
			w[j], rem = uint32(v/62), v%62
		}
		out[i] = base62[rem]
	}
	return string(out[:])
}

// Compare orders KSUIDs as the server's ksuid does: by their bytes, which
// is the order of their text and, to the second, of their time.
func (k KSUID) Compare(v KSUID) int { return bytes.Compare(k[:], v[:]) }

// Timestamp is the first 4 bytes: seconds since KSUIDEpoch.
func (k KSUID) Timestamp() uint32 { return binary.BigEndian.Uint32(k[:4]) }

// Time is the second the KSUID carries (the server's ksuid_time).
func (k KSUID) Time() time.Time { return time.Unix(ksuidEpochUnix+int64(k.Timestamp()), 0).UTC() }

// Payload is the 16 bytes after the timestamp (the server's ksuid_payload).
func (k KSUID) Payload() (p [16]byte) { copy(p[:], k[4:]); return }

// MarshalText writes the KSUID's text.
func (k KSUID) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a KSUID's text.
func (k *KSUID) UnmarshalText(b []byte) error {
	v, err := ParseKSUID(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}
