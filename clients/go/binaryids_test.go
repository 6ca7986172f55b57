package idgen_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	idgen "github.com/idgen/idgen/clients/go"
	"github.com/idgen/idgen/clients/go/internal/vectors"
)

// KSUID, ObjectID and XID on the vectors file's cases, as TestULIDShape holds
// the ULID: parsed from text (the server's rule) and built from the bytes,
// each to the case's bytes, canonical text, second and fields; the binary
// form both ways and its refusal of another length; equality and map keys by
// value; one order for Compare, the bytes and the text.

// fixedID is what the three value types share, for one table of checks.
type fixedID interface {
	comparable
	fmt.Stringer
	MarshalBinary() ([]byte, error)
	MarshalText() ([]byte, error)
	Time() time.Time
}

// family is one type's functions, and the fields the case names besides the time.
type family[T fixedID] struct {
	name      string
	parse     func(string) (T, error)
	fromBytes func([]byte) T
	fields    func(T) map[string]string
	compare   func(T, T) int
	unmarshal func(*T, []byte) error
	unText    func(*T, []byte) error
}

// caseFields is the case's fields, written as fields() writes them.
func caseFields(c vectors.Case, names []string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		switch v := c[n].(type) {
		case string:
			out[n] = v
		default:
			out[n] = fmt.Sprint(v)
		}
	}
	return out
}

func checkFamily[T fixedID](t *testing.T, f family[T]) {
	v := vectors.Load(t)
	epoch := v.Families[f.name].EpochUnixS
	type parsed struct {
		id   T
		c    vectors.Case
		from string
	}
	var all []parsed
	for _, c := range v.Cases(f.name, "text", true) {
		id, err := f.parse(c.Str("text"))
		if err != nil {
			t.Errorf("%s: %q (%s): %v", f.name, c.Str("text"), c["what"], err)
			continue
		}
		all = append(all, parsed{id, c, "text " + c.Str("text")})
	}
	for _, c := range v.Cases(f.name, "bits", true) {
		all = append(all, parsed{f.fromBytes(c.Bytes("bits")), c, "bits " + c.Str("bits")})
	}
	if len(all) < 4 {
		t.Fatalf("%s: fewer than four cases in the vectors file", f.name)
	}
	byValue := map[T]string{}
	for _, p := range all {
		c, id := p.c, p.id
		var names []string
		for n := range f.fields(id) {
			names = append(names, n)
		}
		bin, err := id.MarshalBinary()
		text, terr := id.MarshalText()
		unixS, _ := c.Int("unix_s")
		if err != nil || !bytes.Equal(bin, c.Bytes("bits")) || id.String() != c.Str("canonical") || terr != nil ||
			string(text) != c.Str("canonical") || id.Time().Unix() != unixS || id.Time().Location() != time.UTC {
			t.Errorf("%s %s (%s): bytes %x %v, text %s, time %v; the case's %s %s %d",
				f.name, p.from, c["what"], bin, err, id, id.Time(), c.Str("bits"), c.Str("canonical"), unixS)
		}
		if got, want := f.fields(id), caseFields(c, names); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s %s (%s): fields %v, the case's %v", f.name, p.from, c["what"], got, want)
		}
		if unixS < epoch {
			t.Errorf("%s %s: a second before the family's epoch", f.name, p.from)
		}
		var back, fromText T
		if err := f.unmarshal(&back, bin); err != nil || back != id {
			t.Errorf("%s %s: UnmarshalBinary(% x): %v %v", f.name, p.from, bin, back, err)
		}
		if err := f.unText(&fromText, text); err != nil || fromText != id {
			t.Errorf("%s %s: UnmarshalText(%s): %v %v", f.name, p.from, text, fromText, err)
		}
		if seen, ok := byValue[f.fromBytes(c.Bytes("bits"))]; ok && seen != c.Str("canonical") {
			t.Errorf("%s %s: the map key of %s", f.name, p.from, seen)
		}
		byValue[id] = c.Str("canonical")
	}
	for _, a := range all {
		for _, b := range all {
			ab, bb := a.c.Bytes("bits"), b.c.Bytes("bits")
			byBytes, byText := bytes.Compare(ab, bb), strings.Compare(a.id.String(), b.id.String())
			if got := f.compare(a.id, b.id); got != byBytes || got != byText || (got == 0) != (a.id == b.id) {
				t.Errorf("%s: %s.Compare(%s) = %d; the bytes' order %d, the text's %d", f.name, a.id, b.id, got, byBytes, byText)
			}
		}
	}
	ids := make([]T, len(all))
	for i, p := range all {
		ids[i] = p.id
	}
	slices.SortFunc(ids, f.compare)
	if !slices.IsSortedFunc(ids, func(a, b T) int { return strings.Compare(a.String(), b.String()) }) {
		t.Errorf("%s: sorted by Compare, not by text: %v", f.name, ids)
	}
	// another length in binary, a ParseError of the family
	size := len(all[0].c.Bytes("bits"))
	for _, n := range []int{0, size - 1, size + 1} {
		var id T
		err := f.unmarshal(&id, make([]byte, n))
		if pe := (*idgen.ParseError)(nil); !errors.As(err, &pe) || pe.Type != f.name {
			t.Errorf("%s: %d bytes in binary: %v", f.name, n, err)
		}
	}
}

func hexOf(b []byte) string { return hex.EncodeToString(b) }

func TestKSUIDShape(t *testing.T) {
	checkFamily(t, family[idgen.KSUID]{
		name:      "ksuid",
		parse:     idgen.ParseKSUID,
		fromBytes: func(b []byte) idgen.KSUID { return idgen.KSUID(b) },
		fields: func(k idgen.KSUID) map[string]string {
			p := k.Payload()
			return map[string]string{"payload": hexOf(p[:])}
		},
		compare:   idgen.KSUID.Compare,
		unmarshal: (*idgen.KSUID).UnmarshalBinary,
		unText:    (*idgen.KSUID).UnmarshalText,
	})
	if got := idgen.KSUIDEpoch.Unix(); got != vectors.Load(t).Families["ksuid"].EpochUnixS {
		t.Errorf("KSUIDEpoch %d, the file's %d", got, vectors.Load(t).Families["ksuid"].EpochUnixS)
	}
}

func TestObjectIDShape(t *testing.T) {
	checkFamily(t, family[idgen.ObjectID]{
		name:      "objectid",
		parse:     idgen.ParseObjectID,
		fromBytes: func(b []byte) idgen.ObjectID { return idgen.ObjectID(b) },
		fields: func(o idgen.ObjectID) map[string]string {
			p := o.Process()
			return map[string]string{"process": hexOf(p[:]), "counter": fmt.Sprint(o.Counter())}
		},
		compare:   idgen.ObjectID.Compare,
		unmarshal: (*idgen.ObjectID).UnmarshalBinary,
		unText:    (*idgen.ObjectID).UnmarshalText,
	})
}

func TestXIDShape(t *testing.T) {
	checkFamily(t, family[idgen.XID]{
		name:      "xid",
		parse:     idgen.ParseXID,
		fromBytes: func(b []byte) idgen.XID { return idgen.XID(b) },
		fields: func(x idgen.XID) map[string]string {
			m := x.Machine()
			return map[string]string{"machine": hexOf(m[:]), "pid": fmt.Sprint(x.Pid()), "counter": fmt.Sprint(x.Counter())}
		},
		compare:   idgen.XID.Compare,
		unmarshal: (*idgen.XID).UnmarshalBinary,
		unText:    (*idgen.XID).UnmarshalText,
	})
}

// MustParse* panic on what Parse* refuse, and give what they accept.
func TestMustParse(t *testing.T) {
	panics := func(f func()) (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return
	}
	for name, f := range map[string]func(string){
		"ksuid":    func(s string) { idgen.MustParseKSUID(s) },
		"objectid": func(s string) { idgen.MustParseObjectID(s) },
		"xid":      func(s string) { idgen.MustParseXID(s) },
	} {
		for _, ok := range []bool{true, false} {
			for _, c := range vectors.Load(t).Cases(name, "text", ok) {
				if panics(func() { f(c.Str("text")) }) == ok {
					t.Errorf("%s: MustParse of %q (%s): panics %v", name, c.Str("text"), c["what"], ok)
				}
			}
		}
	}
}
