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
	// the fixed-size types: each bits case is the binary field, another
	// length is refused, and the text field is the canonical text
	for codec, family := range map[*pgxidgen.Codec]string{pgxidgen.KSUIDCodec: "ksuid", pgxidgen.ObjectIDCodec: "objectid",
		pgxidgen.XIDCodec: "xid"} {
		cases := vectors.Load(t).Cases(family, "bits", true)
		if len(cases) == 0 {
			t.Fatalf("%s: no bits cases", family)
		}
		for _, c := range cases {
			raw := c.Bytes("bits")
			v, err := codec.DecodeValue(m, 0, bin, raw)
			if err != nil || v.(fmt.Stringer).String() != c.Str("canonical") {
				t.Errorf("%s field %s (%s): %v %v", family, c.Str("bits"), c["what"], v, err)
				continue
			}
			back, err := codec.PlanEncode(m, 0, bin, v).Encode(v, nil)
			if err != nil || string(back) != string(raw) {
				t.Errorf("%s %s written as % x %v", family, c.Str("canonical"), back, err)
			}
			fromString, err := codec.PlanEncode(m, 0, bin, c.Str("canonical")).Encode(c.Str("canonical"), nil)
			if err != nil || string(fromString) != string(raw) {
				t.Errorf("%s string %s written as % x %v", family, c.Str("canonical"), fromString, err)
			}
			if s, err := codec.DecodeDatabaseSQLValue(m, 0, bin, raw); err != nil || s != c.Str("canonical") {
				t.Errorf("%s %s to database/sql: %v %v", family, c.Str("bits"), s, err)
			}
			for _, n := range []int{len(raw) - 1, len(raw) + 1} {
				if _, err := codec.DecodeValue(m, 0, bin, make([]byte, n)); err == nil {
					t.Errorf("%s accepted %d bytes", family, n)
				}
			}
		}
		for _, c := range vectors.Load(t).Cases(family, "text", false) {
			if _, err := codec.PlanEncode(m, 0, bin, c.Str("text")).Encode(c.Str("text"), nil); err == nil {
				t.Errorf("%s: the invalid string %q (%s) encoded in binary", family, c.Str("text"), c["what"])
			}
		}
	}
	for codec, other := range map[*pgxidgen.Codec]any{pgxidgen.KSUIDCodec: idgen.XID{}, pgxidgen.ObjectIDCodec: idgen.XID{},
		pgxidgen.XIDCodec: idgen.ObjectID{}} {
		if codec.PlanEncode(m, 0, bin, other) != nil {
			t.Errorf("a codec plans to encode a %T", other)
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
