// Package vectors reads the extension's vectors file, test/data/id_vectors.json
// (docs/development.md of the extension): every family's layout and its valid
// and refused cases, as the C++ cores answer them, for the tests of this
// module and of clients/go/pgx and clients/go/test. IDGEN_VECTORS names it
// (go_package.pl sets it: the modules are tested as a proxy serves them, away
// from the checkout); without it, the file in the checkout this source is in.
package vectors

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// Case is one case: its inputs and the cores' answer.
type Case map[string]any

// Family is one family's layout and cases.
type Family struct {
	Fields []struct {
		Name string
		Bits int
	}
	EpochUnixMs int64  `json:"epoch_unix_ms"`
	EpochUnixS  int64  `json:"epoch_unix_s"`
	MinID       string `json:"min_id"`
	Alphabet    string `json:"alphabet"`
	MaxBody     string `json:"max_body"`
	MaxText     string `json:"max_text"`
	Digits      int    `json:"digits"`
	Cases       map[string][]Case
	// the snowflake_layout family's layouts by name
	Layouts map[string]Layout
}

// Layout is a snowflake layout of the file: predefined (the extension's) or
// one of the cases' own.
type Layout struct {
	Predefined  bool
	EpochUnixMs int64 `json:"epoch_unix_ms"`
	TimeUnitMs  int64 `json:"time_unit_ms"`
	Fields      []struct {
		Name string
		Kind string
		Bits int
	}
	TotalBits int   `json:"total_bits"`
	EndUnixMs int64 `json:"end_unix_ms"`
}

// File is the file.
type File struct {
	Families map[string]Family
}

var (
	once     sync.Once
	file     File
	errWhole error
)

// Load is the vectors file, read once; a test without it fails.
func Load(t testing.TB) *File {
	t.Helper()
	once.Do(func() {
		path := os.Getenv("IDGEN_VECTORS")
		if path == "" {
			_, here, _, _ := runtime.Caller(0) // clients/go/internal/vectors/vectors.go
			path = filepath.Join(filepath.Dir(here), "..", "..", "..", "..", "test", "data", "id_vectors.json")
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			errWhole = err
			return
		}
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		errWhole = d.Decode(&file)
	})
	if errWhole != nil {
		t.Fatalf("the vectors file (set IDGEN_VECTORS): %v", errWhole)
	}
	return &file
}

// Cases are a family's cases of one form, those with ok as given.
func (v *File) Cases(family, form string, ok bool) []Case {
	var out []Case
	for _, c := range v.Families[family].Cases[form] {
		if c.OK() == ok {
			out = append(out, c)
		}
	}
	return out
}

// Str is a string field ("" when absent or not a string).
func (c Case) Str(key string) string { s, _ := c[key].(string); return s }

// OK is the case's ok (true where the form has no refusals).
func (c Case) OK() bool { ok, has := c["ok"].(bool); return !has || ok }

// NotASCII tells a non-ASCII look-alike.
func (c Case) NotASCII() bool { b, _ := c["not_ascii"].(bool); return b }

// Int is a number field, or a decimal string one (64-bit IDs); has is false for null.
func (c Case) Int(key string) (n int64, has bool) {
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
func (c Case) Bytes(key string) []byte { b, _ := hex.DecodeString(c.Str(key)); return b }

// Bits is a 32-hex-digit field's 16 bytes.
func (c Case) Bits(key string) (b [16]byte) { copy(b[:], c.Bytes(key)); return }
