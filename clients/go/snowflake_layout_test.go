package idgen

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/idgen/idgen/clients/go/internal/vectors"
)

// pairs are the file's "name:number,..." as fields.
func pairs(text string) []SnowflakeLayoutField {
	var out []SnowflakeLayoutField
	for _, p := range strings.Split(text, ",") {
		if p == "" {
			continue
		}
		at := strings.LastIndex(p, ":")
		n, _ := strconv.Atoi(p[at+1:])
		out = append(out, SnowflakeLayoutField{p[:at], n})
	}
	return out
}

func fieldsText(fields []SnowflakeLayoutField) string {
	var parts []string
	for _, f := range fields {
		parts = append(parts, fmt.Sprintf("%s:%d", f.Name, f.Bits))
	}
	return strings.Join(parts, ",")
}

// fileLayout is a layout of the file as the package makes it.
func fileLayout(t *testing.T, v *vectors.File, name string) *SnowflakeLayout {
	t.Helper()
	l := v.Families["snowflake_layout"].Layouts[name]
	var made *SnowflakeLayout
	var err error
	if l.Predefined {
		made, err = PredefinedSnowflakeLayoutWithEpoch(name, time.UnixMilli(l.EpochUnixMs))
	} else {
		var fields []SnowflakeLayoutField
		for _, f := range l.Fields {
			fields = append(fields, SnowflakeLayoutField{f.Name, f.Bits})
		}
		made, err = NewSnowflakeLayout(time.UnixMilli(l.EpochUnixMs), time.Duration(l.TimeUnitMs)*time.Millisecond, fields...)
	}
	if err != nil {
		t.Fatalf("layout %s: %v", name, err)
	}
	return made
}

// refusedAs tells whether err is a SnowflakeLayoutError of the reason.
func refusedAs(err error, reason string) bool {
	var e *SnowflakeLayoutError
	return errors.As(err, &e) && e.Reason == reason
}

func num(c vectors.Case, key string) int64 { n, _ := c.Int(key); return n }

// TestVectorsSnowflakeLayouts: the predefined layouts are the file's, and
// every snowflake_layout case (definitions, IDs, compositions, boundaries)
// gets the cores' answer, or the cores' refusal.
func TestVectorsSnowflakeLayouts(t *testing.T) {
	v := vectors.Load(t)
	fam := v.Families["snowflake_layout"]
	var predefined []string
	for _, name := range PredefinedSnowflakeLayoutNames() {
		if !fam.Layouts[name].Predefined {
			t.Errorf("%s is no predefined layout of the file", name)
		}
	}
	for name, l := range fam.Layouts {
		if l.Predefined {
			predefined = append(predefined, name)
		}
	}
	if len(predefined) != len(predefinedSnowflakeLayouts) {
		t.Errorf("the file's predefined layouts %v, the package's %v", predefined, PredefinedSnowflakeLayoutNames())
	}
	for _, c := range fam.Cases["predefined"] {
		l, err := PredefinedSnowflakeLayoutWithEpoch(c.Str("name"), time.UnixMilli(num(c, "instagram_epoch_ms")))
		if !c.OK() {
			if !refusedAs(err, c.Str("reason")) {
				t.Errorf("predefined %s: %v, the file's %s", c.Str("what"), err, c.Str("reason"))
			}
			continue
		}
		if err != nil || l.Epoch().UnixMilli() != num(c, "epoch_unix_ms") || l.Unit().Milliseconds() != num(c, "time_unit_ms") ||
			fieldsText(l.Fields()) != c.Str("fields") || int64(l.TotalBits()) != num(c, "total_bits") || l.End().UnixMilli() != num(c, "end_unix_ms") {
			t.Errorf("predefined %s: %v %v, the file's %v", c.Str("what"), l, err, c)
		}
	}
	for _, c := range fam.Cases["define"] {
		l, err := NewSnowflakeLayout(time.UnixMilli(num(c, "epoch_unix_ms")), time.Duration(num(c, "time_unit_ms"))*time.Millisecond, pairs(c.Str("fields"))...)
		if !c.OK() {
			if !refusedAs(err, c.Str("reason")) {
				t.Errorf("define %s: %v, the file's %s", c.Str("what"), err, c.Str("reason"))
			}
		} else if err != nil || int64(l.TotalBits()) != num(c, "total_bits") || l.End().UnixMilli() != num(c, "end_unix_ms") {
			t.Errorf("define %s: %v %v, the file's %v", c.Str("what"), l, err, c)
		}
	}
	for _, c := range fam.Cases["id"] {
		l := fileLayout(t, v, c.Str("layout"))
		p, err := l.Decompose(num(c, "id"))
		what := c.Str("layout") + ": " + c.Str("what")
		if !c.OK() {
			if !refusedAs(err, c.Str("reason")) {
				t.Errorf("id %s: %v, the file's %s", what, err, c.Str("reason"))
			}
			continue
		}
		if err != nil || p.UnixMs != num(c, "unix_ms") || p.Time.UnixMilli() != num(c, "unix_ms") || len(p.Fields) != len(l.Fields()) {
			t.Errorf("id %s: %+v %v, the file's %v", what, p, err, c)
		}
		for _, f := range l.Fields() {
			if p.Fields[f.Name] != num(c, f.Name) {
				t.Errorf("id %s: %s %d, the file's %d", what, f.Name, p.Fields[f.Name], num(c, f.Name))
			}
		}
	}
	for _, c := range fam.Cases["compose"] {
		fields := map[string]int64{}
		for _, f := range pairs(c.Str("fields")) {
			fields[f.Name] = int64(f.Bits)
		}
		id, err := fileLayout(t, v, c.Str("layout")).Compose(time.UnixMilli(num(c, "unix_ms")), fields)
		what := c.Str("layout") + ": " + c.Str("what")
		if !c.OK() {
			if !refusedAs(err, c.Str("reason")) {
				t.Errorf("compose %s: %v, the file's %s", what, err, c.Str("reason"))
			}
		} else if err != nil || id != num(c, "id") {
			t.Errorf("compose %s: %d %v, the file's %s", what, id, err, c.Str("id"))
		}
	}
	for _, c := range fam.Cases["boundary"] {
		l := fileLayout(t, v, c.Str("layout"))
		at := time.UnixMilli(num(c, "unix_ms"))
		smallest, err := l.Boundary(at)
		largest, err2 := l.BoundaryLargest(at)
		what := c.Str("layout") + ": " + c.Str("what")
		if !c.OK() {
			if !refusedAs(err, c.Str("reason")) || !refusedAs(err2, c.Str("reason")) {
				t.Errorf("boundary %s: %v %v, the file's %s", what, err, err2, c.Str("reason"))
			}
		} else if err != nil || err2 != nil || smallest != num(c, "smallest") || largest != num(c, "largest") {
			t.Errorf("boundary %s: %d %d %v %v, the file's %v", what, smallest, largest, err, err2, c)
		}
	}
}
