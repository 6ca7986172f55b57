package idgen

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"
)

// ObjectID is idgen's objectid (the BSON ObjectId): its 12 bytes, most
// significant first, the server's binary form and its bytea cast: 4 bytes of
// Unix seconds, 5 of a per-process random value, 3 of a counter. Compared
// with == and usable as a map key; the zero value is
// 000000000000000000000000. Its underlying type is that of the MongoDB
// driver's ObjectID, so a conversion takes one to the other.
type ObjectID [12]byte

// ParseObjectID reads 24 hexadecimal digits in either case, as the server's
// objectid input does.
func ParseObjectID(s string) (ObjectID, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return ObjectID{}, parseError("objectid", s, fmt.Sprintf("a character that is no hexadecimal digit at byte %d", i))
		}
	}
	if len(s) != 24 {
		return ObjectID{}, parseError("objectid", s, "not 24 hexadecimal digits")
	}
	var o ObjectID
	hex.Decode(o[:], []byte(s)) // every digit checked above
	return o, nil
}

// MustParseObjectID is ParseObjectID that panics on bad input, for constants.
func MustParseObjectID(s string) ObjectID {
	o, err := ParseObjectID(s)
	if err != nil {
		panic(err)
	}
	return o
}

// String is the ObjectID's text: 24 lowercase hexadecimal digits.
func (o ObjectID) String() string { return hex.EncodeToString(o[:]) }

// Compare orders ObjectIDs as the server's objectid does: by their bytes,
// which is the order of their text.
func (o ObjectID) Compare(v ObjectID) int { return bytes.Compare(o[:], v[:]) }

// Time is the second in the first 4 bytes (the server's objectid_time).
func (o ObjectID) Time() time.Time { return time.Unix(int64(binary.BigEndian.Uint32(o[:4])), 0).UTC() }

// Process is the 5-byte per-process value (the server's objectid_process).
func (o ObjectID) Process() (p [5]byte) { copy(p[:], o[4:9]); return }

// Counter is the 3-byte big-endian counter, 0 to 16777215 (the server's objectid_counter).
func (o ObjectID) Counter() int { return int(o[9])<<16 | int(o[10])<<8 | int(o[11]) }

// MarshalText writes the ObjectID's text.
func (o ObjectID) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an ObjectID's text.
func (o *ObjectID) UnmarshalText(b []byte) error {
	v, err := ParseObjectID(string(b))
	if err != nil {
		return err
	}
	*o = v
	return nil
}
