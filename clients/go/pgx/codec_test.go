package pgx_test

import (
	"fmt"
	"testing"

	idgen "github.com/idgen/idgen/clients/go"
	"github.com/idgen/idgen/clients/go/internal/vectors"
	pgxidgen "github.com/idgen/idgen/clients/go/pgx"
	"github.com/jackc/pgx/v5/pgtype"
)

// Binary fields the server could never send, and values of another type:
// each refused by the codecs, none misread.
func TestCodecRefusals(t *testing.T) {
	m := pgtype.NewMap()
	bin := int16(pgtype.BinaryFormatCode)
	for _, src := range [][]byte{make([]byte, 15), make([]byte, 17)} {
		if _, err := pgxidgen.ULIDCodec.DecodeValue(m, 0, bin, src); err == nil {
			t.Errorf("ulid accepted % x", src)
		}
	}
	// the vectors file's binary cases through the codecs
	for codec, family := range map[*pgxidgen.Codec]string{pgxidgen.PrefixedIDCodec: "prefixed_id", pgxidgen.TypeIDCodec: "typeid"} {
		for _, c := range vectors.Load(t).Families[family].Cases["binary"] {
			v, err := codec.DecodeValue(m, 0, bin, c.Bytes("binary"))
			if !c.OK() && err == nil {
				t.Errorf("%s accepted %s (%s)", family, c.Str("binary"), c["what"])
			} else if c.OK() && (err != nil || v.(fmt.Stringer).String() != c.Str("canonical")) {
				t.Errorf("%s field %s (%s): %v %v", family, c.Str("binary"), c["what"], v, err)
			}
		}
	}
	if p := pgxidgen.ULIDCodec.PlanEncode(m, 0, bin, idgen.PrefixedID{}); p != nil {
		t.Error("the ulid codec plans to encode a PrefixedID")
	}
	if p := pgxidgen.PrefixedIDCodec.PlanEncode(m, 0, bin, idgen.PrefixedID{}); p == nil {
		t.Error("no plan for a PrefixedID")
	} else if buf, err := p.Encode(idgen.PrefixedID{}, nil); err != nil || buf != nil {
		t.Errorf("a zero PrefixedID is not NULL: % x %v", buf, err)
	}
	if p := pgxidgen.TypeIDCodec.PlanEncode(m, 0, bin, "user_8zzzzzzzzzzzzzzzzzzzzzzzzz"); p == nil {
		t.Error("no plan for a string")
	} else if _, err := p.Encode("user_8zzzzzzzzzzzzzzzzzzzzzzzzz", nil); err == nil {
		t.Error("an invalid typeid string encoded in binary")
	}
	var s string
	if err := pgxidgen.ULIDCodec.PlanScan(m, 0, bin, &s).Scan(nil, &s); err == nil {
		t.Error("NULL scanned into a string")
	}
	var n int
	if pgxidgen.ULIDCodec.PlanScan(m, 0, bin, &n) != nil {
		t.Error("the ulid codec plans to scan into an int")
	}
}
