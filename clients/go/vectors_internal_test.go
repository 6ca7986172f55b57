package idgen

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// The extension's vectors file, test/data/id_vectors.json (docs/development.md
// of the extension): every family's layout and its valid and refused cases,
// as the C++ cores answer them. IDGEN_VECTORS names it (go_package.pl sets it:
// the module is tested as a proxy serves it, away from the checkout); without
// it, ../../test/data/id_vectors.json from the package's directory. Exported
// here, in a test file, for the tests of package idgen_test.

// VectorCase is one case: its inputs and the cores' answer.
type VectorCase map[string]any

// VectorFamily is one family's layout and cases.
type VectorFamily struct {
	Fields []struct {
		Name string
		Bits int
	}
	EpochUnixMs int64  `json:"epoch_unix_ms"`
	MinID       string `json:"min_id"`
	Alphabet    string `json:"alphabet"`
	MaxBody     string `json:"max_body"`
	Cases       map[string][]VectorCase
}

// VectorFile is the file.
type VectorFile struct {
	Families map[string]VectorFamily
}

var (
	vectorsOnce sync.Once
	vectorsFile VectorFile
	vectorsErr  error
)

// Vectors is the vectors file, read once; a test without it fails.
func Vectors(t testing.TB) *VectorFile {
	t.Helper()
	vectorsOnce.Do(func() {
		path := os.Getenv("IDGEN_VECTORS")
		if path == "" {
			path = filepath.Join("..", "..", "test", "data", "id_vectors.json")
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			vectorsErr = err
			return
		}
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		vectorsErr = d.Decode(&vectorsFile)
	})
	if vectorsErr != nil {
		t.Fatalf("the vectors file (set IDGEN_VECTORS): %v", vectorsErr)
	}
	return &vectorsFile
}

// Cases are a family's cases of one form, those with ok as given.
func (v *VectorFile) Cases(family, form string, ok bool) []VectorCase {
	var out []VectorCase
	for _, c := range v.Families[family].Cases[form] {
		if c.OK() == ok {
			out = append(out, c)
		}
	}
	return out
}

// Str is a string field ("" when absent or not a string).
func (c VectorCase) Str(key string) string { s, _ := c[key].(string); return s }

// OK is the case's ok (true where the form has no refusals).
func (c VectorCase) OK() bool { ok, has := c["ok"].(bool); return !has || ok }

// NotASCII tells a non-ASCII look-alike.
func (c VectorCase) NotASCII() bool { b, _ := c["not_ascii"].(bool); return b }

// Int is a number field, or a decimal string one (64-bit IDs); has is false for null.
func (c VectorCase) Int(key string) (n int64, has bool) {
	switch v := c[key].(type) {
	case json.Number:
		n, err := v.Int64()
		return n, err == nil
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// Bytes is a hex field's bytes.
func (c VectorCase) Bytes(key string) []byte { b, _ := hex.DecodeString(c.Str(key)); return b }

// Bits is a 32-hex-digit field's 16 bytes.
func (c VectorCase) Bits(key string) (b [16]byte) { copy(b[:], c.Bytes(key)); return }

// TestVectorsLayoutsAndBinary: the decoders' layout, the default epoch, the
// alphabets and the prefix rule are the file's, and the binary forms of its
// cases decode to the cores' answers or are refused where they are.
func TestVectorsLayoutsAndBinary(t *testing.T) {
	v := Vectors(t)
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
	for _, c := range v.Families["prefix"].Cases["check"] {
		if validPrefix(c.Str("prefix")) != c.OK() {
			t.Errorf("validPrefix(%q) (%s): %v, the cores' %v", c.Str("prefix"), c["what"], !c.OK(), c.OK())
		}
	}
	for _, k := range []kind{kindPrefixed, kindTypeID} {
		for _, c := range v.Families[k.String()].Cases["binary"] {
			got, err := k.decodeBinary(c.Bytes("binary"))
			switch {
			case !c.OK() && err == nil:
				t.Errorf("%s binary %s (%s): accepted", k, c.Str("binary"), c["what"])
			case c.OK() && (err != nil || got.prefix != c.Str("prefix") || got.bits != c.Bits("bits")):
				t.Errorf("%s binary %s (%s): %+v %v", k, c.Str("binary"), c["what"], got, err)
			case c.OK() && string(k.appendBinary(nil, got)) != string(c.Bytes("binary")):
				t.Errorf("%s binary %s (%s): written back as % x", k, c.Str("binary"), c["what"], k.appendBinary(nil, got))
			}
		}
	}
}
