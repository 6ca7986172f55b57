package idgen_test

import (
	"errors"
	"testing"
	"time"

	idgen "github.com/idgen/idgen/clients/go"
	"github.com/idgen/idgen/clients/go/internal/vectors"
)

// The text forms, the decoders and their refusals on the cases of the
// extension's vectors file (internal/vectors): each answer is the C++ cores'.

// v7Time is the time a case's unix_ms names; ok false for null.
func v7Time(c vectors.Case) (time.Time, bool) {
	ms, ok := c.Int("unix_ms")
	return time.UnixMilli(ms).UTC(), ok
}

func TestTextVectors(t *testing.T) {
	v := vectors.Load(t)
	for _, c := range v.Cases("ulid", "text", true) {
		u, err := idgen.ParseULID(c.Str("text"))
		ms, _ := c.Int("unix_ms")
		if err != nil || u.UUID() != c.Bits("bits") || u.String() != c.Str("canonical") || u.Time().UnixMilli() != ms {
			t.Errorf("ParseULID(%q) (%s): %v %s", c.Str("text"), c["what"], err, u)
		}
	}
	for _, c := range v.Cases("ulid", "bits", true) {
		if got := idgen.ULIDFromUUID(c.Bits("bits")).String(); got != c.Str("text") {
			t.Errorf("ULIDFromUUID(%s) (%s): %s", c.Str("bits"), c["what"], got)
		}
	}
	// a prefixed_id or typeid: its parse, and its text and time from the case's parts
	type parsed struct {
		prefix string
		bits   [16]byte
		text   string
		time   func() (time.Time, bool)
	}
	for family, parse := range map[string]func(c vectors.Case) (got, want parsed, err error){
		"prefixed_id": func(c vectors.Case) (parsed, parsed, error) {
			p, err := idgen.ParsePrefixedID(c.Str("text"))
			w := idgen.PrefixedID{Prefix: c.Str("prefix"), Bits: c.Bits("bits")}
			return parsed{p.Prefix, p.Bits, p.String(), p.Time}, parsed{w.Prefix, w.Bits, w.String(), w.Time}, err
		},
		"typeid": func(c vectors.Case) (parsed, parsed, error) {
			p, err := idgen.ParseTypeID(c.Str("text"))
			w := idgen.TypeID{Prefix: c.Str("prefix"), Bits: c.Bits("bits")}
			return parsed{p.Prefix, p.Bits, p.String(), p.Time}, parsed{w.Prefix, w.Bits, w.String(), w.Time}, err
		},
	} {
		for _, c := range v.Cases(family, "text", true) {
			got, want, err := parse(c)
			tm, ok := got.time()
			wantTime, wantOK := v7Time(c)
			if err != nil || got.prefix != want.prefix || got.bits != want.bits || got.text != c.Str("canonical") ||
				want.text != c.Str("canonical") || ok != wantOK || ok && !tm.Equal(wantTime) {
				t.Errorf("%s %q (%s): %v %+v", family, c.Str("text"), c["what"], err, got)
			}
		}
	}
}

// parsers are the package's text parsers, by family.
var parsers = map[string]func(string) error{
	"ulid":        func(s string) error { _, err := idgen.ParseULID(s); return err },
	"prefixed_id": func(s string) error { _, err := idgen.ParsePrefixedID(s); return err },
	"typeid":      func(s string) error { _, err := idgen.ParseTypeID(s); return err },
	"ksuid":       func(s string) error { _, err := idgen.ParseKSUID(s); return err },
	"objectid":    func(s string) error { _, err := idgen.ParseObjectID(s); return err },
	"xid":         func(s string) error { _, err := idgen.ParseXID(s); return err },
}

// refusedText checks that each refused text case of the families
// (look-alikes or not) fails with a ParseError of its type, and counts them.
func refusedText(t *testing.T, notASCII bool) int {
	v := vectors.Load(t)
	run := 0
	for family, parse := range parsers {
		for _, c := range v.Cases(family, "text", false) {
			if c.NotASCII() != notASCII {
				continue
			}
			run++
			if err := parse(c.Str("text")); err == nil {
				t.Errorf("%s: %q (%s) accepted", family, c.Str("text"), c["what"])
			} else if pe := (*idgen.ParseError)(nil); !errors.As(err, &pe) || pe.Type != family {
				t.Errorf("%s: %q (%s): %v", family, c.Str("text"), c["what"], err)
			}
		}
	}
	return run
}

func TestTextErrors(t *testing.T) {
	if refusedText(t, false) == 0 {
		t.Error("no refused text in the vectors file")
	}
}

func TestDecoderRanges(t *testing.T) {
	v := vectors.Load(t)
	for _, c := range v.Cases("uuid_v7", "bits", true) {
		tm, ok := idgen.UUIDv7Time(c.Bits("bits"))
		want, wantOK := v7Time(c)
		if ok != wantOK || ok && !tm.Equal(want) {
			t.Errorf("UUIDv7Time(%s) (%s): %v %v", c.Str("bits"), c["what"], tm, ok)
		}
	}
	// each time decoder from the Unix epoch (the file's ms) and from the default one
	decoders := map[string][4]func(int64) (int64, error){
		"snowflake": {
			func(id int64) (int64, error) {
				tm, err := idgen.SnowflakeTimeWithEpoch(id, time.UnixMilli(0))
				return tm.UnixMilli(), err
			},
			func(id int64) (int64, error) { n, err := idgen.SnowflakeShard(id); return int64(n), err },
			func(id int64) (int64, error) { n, err := idgen.SnowflakeSeq(id); return int64(n), err },
			func(id int64) (int64, error) { tm, err := idgen.SnowflakeTime(id); return tm.UnixMilli(), err }},
		"snowflake53": {
			func(id int64) (int64, error) {
				tm, err := idgen.Snowflake53TimeWithEpoch(id, time.UnixMilli(0))
				return tm.UnixMilli(), err
			},
			func(id int64) (int64, error) { n, err := idgen.Snowflake53Shard(id); return int64(n), err },
			func(id int64) (int64, error) { n, err := idgen.Snowflake53Seq(id); return int64(n), err },
			func(id int64) (int64, error) { tm, err := idgen.Snowflake53Time(id); return tm.UnixMilli(), err }},
	}
	for family, fns := range decoders {
		epoch := v.Families[family].EpochUnixMs
		for _, ok := range []bool{true, false} {
			for _, c := range v.Cases(family, "id", ok) {
				id, _ := c.Int("id")
				for i, field := range []string{"ms", "shard", "seq", "ms"} {
					got, err := fns[i](id)
					want, _ := c.Int(field)
					if i == 3 {
						want += epoch // SnowflakeTime counts from DefaultSnowflakeEpoch
					}
					if ok && (err != nil || got != want) || !ok && !errors.Is(err, idgen.ErrNotSnowflake) {
						t.Errorf("%s decoder %d (%s) of %d (%s): %d %v", family, i, field, id, c["what"], got, err)
					}
				}
			}
		}
	}
}

// TestNotASCIIRefused: each text parser refuses every non-ASCII look-alike, with
// a ParseError of its type, as the server does (issue 51: the server reads
// bytes, and only ASCII digits and letters are digits). The package parses no
// uuid or snowflake text (it takes [16]byte and int64): the file's server_text
// cases are not run here.
func TestNotASCIIRefused(t *testing.T) {
	if refusedText(t, true) == 0 {
		t.Error("no look-alikes in the vectors file")
	}
}
