package idgen

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
)

// Binary fields the server could never send, and values of another type:
// each refused by the codecs, none misread.
func TestCodecRefusals(t *testing.T) {
	m := pgtype.NewMap()
	bin := int16(pgtype.BinaryFormatCode)
	good := append([]byte{4}, "acct0123456789abcdef"...)
	for _, c := range []struct {
		codec *Codec
		src   []byte
	}{
		{ULIDCodec, make([]byte, 15)},
		{ULIDCodec, make([]byte, 17)},
		{PrefixedIDCodec, append([]byte{0}, make([]byte, 16)...)},         // no prefix
		{PrefixedIDCodec, good[:20]},                                      // one byte short
		{PrefixedIDCodec, append(append([]byte{}, good...), 0)},           // one byte long
		{PrefixedIDCodec, append([]byte{4}, "Acct0123456789abcdef"...)},   // bad prefix
		{PrefixedIDCodec, append([]byte{0x61}, "cct0123456789abcdef"...)}, // the form before 0.5.0
		{TypeIDCodec, append([]byte{64}, make([]byte, 80)...)},
		{TypeIDCodec, make([]byte, 3)},
	} {
		if _, err := c.codec.DecodeValue(m, 0, bin, c.src); err == nil {
			t.Errorf("%s accepted % x", c.codec.kind, c.src)
		}
	}
	if v, err := PrefixedIDCodec.DecodeValue(m, 0, bin, good); err != nil || v.(PrefixedID).Prefix != "acct" {
		t.Errorf("a good prefixed_id field: %v %v", v, err)
	}
	if v, err := TypeIDCodec.DecodeValue(m, 0, bin, make([]byte, 17)); err != nil || v.(TypeID).String() != strings.Repeat("0", 26) {
		t.Errorf("an empty-prefix typeid field: %v %v", v, err)
	}
	if p := ULIDCodec.PlanEncode(m, 0, bin, PrefixedID{}); p != nil {
		t.Error("the ulid codec plans to encode a PrefixedID")
	}
	if p := PrefixedIDCodec.PlanEncode(m, 0, bin, PrefixedID{}); p == nil {
		t.Error("no plan for a PrefixedID")
	} else if buf, err := p.Encode(PrefixedID{}, nil); err != nil || buf != nil {
		t.Errorf("a zero PrefixedID is not NULL: % x %v", buf, err)
	}
	if p := TypeIDCodec.PlanEncode(m, 0, bin, "user_8zzzzzzzzzzzzzzzzzzzzzzzzz"); p == nil {
		t.Error("no plan for a string")
	} else if _, err := p.Encode("user_8zzzzzzzzzzzzzzzzzzzzzzzzz", nil); err == nil {
		t.Error("an invalid typeid string encoded in binary")
	}
	var s string
	if err := ULIDCodec.PlanScan(m, 0, bin, &s).Scan(nil, &s); err == nil {
		t.Error("NULL scanned into a string")
	}
	var n int
	if ULIDCodec.PlanScan(m, 0, bin, &n) != nil {
		t.Error("the ulid codec plans to scan into an int")
	}
}
