package idgen

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/idgen/idgen/clients/go/internal/vectors"
)

// TestVectorsLayoutsAndBinary: the decoders' layout, the default epoch, the
// alphabets, the prefix rule and the family names are the extension's
// vectors file's, and the binary forms of its cases decode to the cores'
// answers, and are written back the same, or are refused where they are.
func TestVectorsLayoutsAndBinary(t *testing.T) {
	v := vectors.Load(t)
	for family, want := range map[string][4]int{
		"snowflake":   {64 - snowflakeTimeBits - sf63ShardBits - sf63SeqBits, snowflakeTimeBits, sf63ShardBits, sf63SeqBits},
		"snowflake53": {64 - snowflakeTimeBits - sf53ShardBits - sf53SeqBits, snowflakeTimeBits, sf53ShardBits, sf53SeqBits},
	} {
		f := v.Families[family]
		var got [4]int
		for i, field := range f.Fields {
			if i < 4 {
				got[i] = field.Bits
			}
		}
		if len(f.Fields) != 4 || got != want {
			t.Errorf("%s: the file's fields %v, the package's %v", family, f.Fields, want)
		}
		if DefaultSnowflakeEpoch.UnixMilli() != f.EpochUnixMs {
			t.Errorf("%s: DefaultSnowflakeEpoch %v, the file's %d", family, DefaultSnowflakeEpoch, f.EpochUnixMs)
		}
	}
	if min := strconv.FormatInt(limit53, 10); v.Families["snowflake"].MinID != min {
		t.Errorf("the smallest snowflake() ID: the file's %s, the package's %s", v.Families["snowflake"].MinID, min)
	}
	if v.Families["ulid"].Alphabet != crockford || v.Families["typeid"].Alphabet != crockfordLower ||
		v.Families["prefixed_id"].Alphabet != base36Digits {
		t.Error("an alphabet is not the file's")
	}
	// the three fixed-size types: the alphabet, the digits, the largest text
	// (KSUID), the epoch, and the fields as the decoders cut them (the time's
	// 4 bytes, then each decoder's bytes, a counter 3)
	payload, process, machine := KSUID{}.Payload(), ObjectID{}.Process(), XID{}.Machine()
	for family, want := range map[string]struct {
		alphabet string
		digits   int
		epoch    int64
		bits     []int
		size     int
	}{
		"ksuid":    {base62, len(KSUID{}.String()), ksuidEpochUnix, []int{32, 8 * len(payload)}, len(KSUID{})},
		"objectid": {"0123456789abcdef", len(ObjectID{}.String()), 0, []int{32, 8 * len(process), 24}, len(ObjectID{})},
		"xid":      {base32Hex, len(XID{}.String()), 0, []int{32, 8 * len(machine), 16, 24}, len(XID{})},
	} {
		f := v.Families[family]
		var bits []int
		total := 0
		for _, field := range f.Fields {
			bits = append(bits, field.Bits)
			total += field.Bits
		}
		if f.Alphabet != want.alphabet || f.Digits != want.digits || f.EpochUnixS != want.epoch ||
			fmt.Sprint(bits) != fmt.Sprint(want.bits) || total != 8*want.size {
			t.Errorf("%s: the file's alphabet %q, %d digits, epoch %d, fields %v; the package's %+v",
				family, f.Alphabet, f.Digits, f.EpochUnixS, bits, want)
		}
	}
	if v.Families["ksuid"].MaxText != ksuidMax {
		t.Errorf("the largest KSUID: the file's %s, the package's %s", v.Families["ksuid"].MaxText, ksuidMax)
	}
	for _, k := range []Kind{KindULID, KindPrefixedID, KindTypeID, KindKSUID, KindObjectID, KindXID} {
		if _, ok := v.Families[k.String()]; !ok {
			t.Errorf("%s is no family of the file", k)
		}
		if back, ok := KindOf(k.String()); !ok || back != k {
			t.Errorf("KindOf(%q): %v %v", k, back, ok)
		}
	}
	if _, ok := KindOf("uuid_v7"); ok {
		t.Error("KindOf knows uuid_v7, which has no type of idgen's")
	}
	for _, c := range v.Families["prefix"].Cases["check"] {
		if validPrefix(c.Str("prefix")) != c.OK() {
			t.Errorf("validPrefix(%q) (%s): %v, the cores' %v", c.Str("prefix"), c["what"], !c.OK(), c.OK())
		}
	}
	// the two prefixed forms through UnmarshalBinary and AppendBinary
	type binaryForm interface {
		UnmarshalBinary([]byte) error
		AppendBinary([]byte) ([]byte, error)
	}
	for family, fresh := range map[string]func() (binaryForm, func() (string, [16]byte)){
		"prefixed_id": func() (binaryForm, func() (string, [16]byte)) {
			p := new(PrefixedID)
			return p, func() (string, [16]byte) { return p.Prefix, p.Bits }
		},
		"typeid": func() (binaryForm, func() (string, [16]byte)) {
			p := new(TypeID)
			return p, func() (string, [16]byte) { return p.Prefix, p.Bits }
		},
	} {
		for _, c := range v.Families[family].Cases["binary"] {
			value, parts := fresh()
			err := value.UnmarshalBinary(c.Bytes("binary"))
			prefix, bits := parts()
			back, backErr := value.AppendBinary(nil)
			switch {
			case !c.OK() && err == nil:
				t.Errorf("%s binary %s (%s): accepted", family, c.Str("binary"), c["what"])
			case c.OK() && (err != nil || prefix != c.Str("prefix") || bits != c.Bits("bits")):
				t.Errorf("%s binary %s (%s): %q %x %v", family, c.Str("binary"), c["what"], prefix, bits, err)
			case c.OK() && (backErr != nil || string(back) != string(c.Bytes("binary"))):
				t.Errorf("%s binary %s (%s): written back as % x, %v", family, c.Str("binary"), c["what"], back, backErr)
			}
		}
	}
}
