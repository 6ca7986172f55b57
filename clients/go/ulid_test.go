package idgen_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	idgen "github.com/idgen/idgen/clients/go"
	"github.com/idgen/idgen/clients/go/internal/vectors"
)

// The ULID value type's shape, the same in every idgen client, on the vectors
// file's ulid cases: parsed from text (the server's rule), to and from a
// UUID, its 16 bytes (the array itself, and the binary form), its time, its
// canonical text as String, equality and map keys by value, and one order for
// Compare, the bytes and the text.
func TestULIDShape(t *testing.T) {
	v := vectors.Load(t)
	type ulidCase struct {
		ulid      idgen.ULID
		bits      [16]byte
		canonical string
		unixMs    int64
		what      any
	}
	var cases []ulidCase
	for _, c := range v.Cases("ulid", "text", true) {
		u, err := idgen.ParseULID(c.Str("text"))
		if err != nil {
			t.Errorf("ParseULID(%q) (%s): %v", c.Str("text"), c["what"], err)
			continue
		}
		ms, _ := c.Int("unix_ms")
		cases = append(cases, ulidCase{u, c.Bits("bits"), c.Str("canonical"), ms, c["what"]})
	}
	for _, c := range v.Cases("ulid", "bits", true) {
		ms, _ := c.Int("unix_ms")
		cases = append(cases, ulidCase{idgen.ULIDFromUUID(c.Bits("bits")), c.Bits("bits"), c.Str("text"), ms, c["what"]})
	}
	if len(cases) < 2 {
		t.Fatal("fewer than two ulid cases in the vectors file")
	}
	byValue := map[idgen.ULID]string{}
	for _, c := range cases {
		u := c.ulid
		bin, err := u.MarshalBinary()
		var back idgen.ULID
		backErr := back.UnmarshalBinary(c.bits[:])
		if [16]byte(u) != c.bits || u.UUID() != c.bits || idgen.ULIDFromUUID(c.bits) != u || u.String() != c.canonical ||
			u.Time().UnixMilli() != c.unixMs || err != nil || !bytes.Equal(bin, c.bits[:]) || backErr != nil || back != u {
			t.Errorf("ulid %s (%s): %x %s %v %x %v %v", c.canonical, c.what, u.UUID(), u, u.Time(), bin, err, backErr)
		}
		if seen, ok := byValue[idgen.ULIDFromUUID(c.bits)]; ok && seen != c.canonical {
			t.Errorf("ulid %s (%s): the map key of %s", c.canonical, c.what, seen)
		}
		byValue[u] = c.canonical
		if lower, err := idgen.ParseULID(strings.ToLower(c.canonical)); err != nil || lower != u {
			t.Errorf("ulid %s (%s): in lowercase %s %v", c.canonical, c.what, lower, err)
		}
	}
	for _, a := range cases {
		for _, b := range cases {
			byBytes, byText := bytes.Compare(a.bits[:], b.bits[:]), strings.Compare(a.canonical, b.canonical)
			if got := a.ulid.Compare(b.ulid); got != byBytes || got != byText || (got == 0) != (a.ulid == b.ulid) {
				t.Errorf("%s.Compare(%s) = %d; the bytes' order %d, the text's %d", a.canonical, b.canonical, got, byBytes, byText)
			}
		}
	}
	sorted := make([]idgen.ULID, len(cases))
	for i, c := range cases {
		sorted[i] = c.ulid
	}
	slices.SortFunc(sorted, idgen.ULID.Compare)
	if !slices.IsSortedFunc(sorted, func(a, b idgen.ULID) int { return strings.Compare(a.String(), b.String()) }) {
		t.Errorf("sorted by Compare, not by text: %v", sorted)
	}
	var short idgen.ULID
	if err := short.UnmarshalBinary(make([]byte, 15)); err == nil {
		t.Error("a binary ulid of 15 bytes accepted")
	} else if pe := (*idgen.ParseError)(nil); !errors.As(err, &pe) || pe.Type != "ulid" {
		t.Errorf("a binary ulid of 15 bytes: %v", err)
	}
}

// A prefix the server refuses is not written in binary, the zero PrefixedID's
// either (the codecs write it as NULL).
func TestBinaryRefusesBadPrefix(t *testing.T) {
	for _, c := range vectors.Load(t).Families["prefix"].Cases["check"] {
		if c.OK() || c.Str("prefix") == "" {
			continue
		}
		if b, err := (idgen.PrefixedID{Prefix: c.Str("prefix")}).AppendBinary(nil); err == nil {
			t.Errorf("PrefixedID with prefix %q (%s) written as % x", c.Str("prefix"), c["what"], b)
		}
		if b, err := (idgen.TypeID{Prefix: c.Str("prefix")}).AppendBinary(nil); err == nil {
			t.Errorf("TypeID with prefix %q (%s) written as % x", c.Str("prefix"), c["what"], b)
		}
	}
	if _, err := (idgen.PrefixedID{}).MarshalBinary(); err == nil {
		t.Error("the zero PrefixedID written in binary")
	}
	if b, err := (idgen.TypeID{}).MarshalBinary(); err != nil || len(b) != 17 || b[0] != 0 {
		t.Errorf("the TypeID with the empty prefix: % x %v", b, err)
	}
}
