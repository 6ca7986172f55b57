package idgen

import (
	"fmt"
	"regexp"
	"time"
)

// Snowflake layouts: other systems' 64-bit IDs (Twitter's, Discord's,
// Sonyflake's, pgEdge's, one's own) decoded, composed and bounded as the
// server's snowflake_layout_* functions do. Minting in these layouts is the
// systems' own libraries' (github.com/sony/sonyflake/v2 for Sonyflake's).

// SnowflakeLayoutField is a field of a layout: "time" (units since the
// epoch), "sequence", or a node field.
type SnowflakeLayoutField struct {
	Name string
	Bits int
}

// SnowflakeLayout is an epoch, a time unit and fields from the most
// significant bit, as snowflake_layout_define() takes them, checked as the
// server checks them.
type SnowflakeLayout struct {
	epochMs, unitMs int64
	fields          []SnowflakeLayoutField
	totalBits       int
	endMs           int64
}

// SnowflakeLayoutError is a refused layout, ID, time or field value. Reason
// is the extension's core's (its vectors file's reason: "too_wide",
// "negative", "above_layout", "field_range", "before_epoch", ...); Field
// names the field concerned, where one is.
type SnowflakeLayoutError struct {
	Reason string
	Field  string
	Detail string
}

func (e *SnowflakeLayoutError) Error() string { return "idgen: snowflake layout: " + e.Detail }

func refuse(reason, field, format string, args ...any) error {
	return &SnowflakeLayoutError{Reason: reason, Field: field, Detail: fmt.Sprintf(format, args...)}
}

// predefinedSnowflakeLayouts are the extension's (its snowflake_layout.hpp),
// fields from the most significant bit; instagram's epoch is
// idgen.snowflake_epoch. TestVectorsSnowflakeLayouts holds them to the
// extension's vectors file.
var predefinedSnowflakeLayouts = []struct {
	name          string
	epochMs, unit int64
	fields        []SnowflakeLayoutField
}{
	{"instagram", 0, 1, []SnowflakeLayoutField{{"time", snowflakeTimeBits}, {"shard", sf63ShardBits}, {"sequence", sf63SeqBits}}},
	{"twitter", 1288834974657, 1, []SnowflakeLayoutField{{"time", 41}, {"datacenter", 5}, {"worker", 5}, {"sequence", 12}}},
	{"discord", 1420070400000, 1, []SnowflakeLayoutField{{"time", 42}, {"worker", 5}, {"process", 5}, {"sequence", 12}}},
	{"sonyflake", 1409529600000, 10, []SnowflakeLayoutField{{"time", 39}, {"sequence", 8}, {"machine", 16}}},
	{"pgedge", 1672531200000, 1, []SnowflakeLayoutField{{"time", 41}, {"node", 10}, {"sequence", 12}}},
}

// PredefinedSnowflakeLayoutNames are the predefined layouts' names.
func PredefinedSnowflakeLayoutNames() []string {
	out := make([]string, len(predefinedSnowflakeLayouts))
	for i, p := range predefinedSnowflakeLayouts {
		out[i] = p.name
	}
	return out
}

// PredefinedSnowflakeLayout is a predefined layout by name (instagram from
// DefaultSnowflakeEpoch); an unknown name is refused ("unknown_layout").
func PredefinedSnowflakeLayout(name string) (*SnowflakeLayout, error) {
	return PredefinedSnowflakeLayoutWithEpoch(name, DefaultSnowflakeEpoch)
}

// PredefinedSnowflakeLayoutWithEpoch is PredefinedSnowflakeLayout with
// instagram's epoch, for a server whose idgen.snowflake_epoch is not the
// default (the other layouts have epochs of their own and ignore it).
func PredefinedSnowflakeLayoutWithEpoch(name string, instagramEpoch time.Time) (*SnowflakeLayout, error) {
	for _, p := range predefinedSnowflakeLayouts {
		if p.name == name {
			epoch := p.epochMs
			if name == "instagram" {
				epoch = instagramEpoch.UnixMilli()
			}
			return checkLayout(epoch, p.unit, p.fields, true)
		}
	}
	return nil, refuse("unknown_layout", "", "no predefined layout %q", name)
}

// NewSnowflakeLayout is a layout of one's own: an epoch and a unit of whole
// milliseconds, the fields from the most significant bit, one named "time"
// and one "sequence", refused where snowflake_layout_define() refuses it.
func NewSnowflakeLayout(epoch time.Time, unit time.Duration, fields ...SnowflakeLayoutField) (*SnowflakeLayout, error) {
	if unit%time.Millisecond != 0 {
		return nil, refuse("bad_unit", "", "a time unit of %v is not whole milliseconds", unit)
	}
	if epoch.Nanosecond()%int(time.Millisecond) != 0 {
		return nil, refuse("bad_epoch", "", "the epoch %v is not a whole millisecond", epoch)
	}
	return checkLayout(epoch.UnixMilli(), unit.Milliseconds(), fields, false)
}

var layoutName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

const (
	layoutMaxFields = 8
	layoutMaxUnitMs = 86_400_000
	layoutEndOfTime = 253_402_300_800_000 // 10000-01-01 in Unix ms
)

// checkLayout is the core's layout_validate, in its order; allow64 admits
// discord's 64 bits (the time field first).
func checkLayout(epochMs, unitMs int64, fields []SnowflakeLayoutField, allow64 bool) (*SnowflakeLayout, error) {
	if len(fields) > layoutMaxFields {
		return nil, refuse("too_many_fields", "", "%d fields: time, sequence and up to 6 node fields", len(fields))
	}
	for _, f := range fields {
		if len(f.Name) > 63 {
			return nil, refuse("bad_name", f.Name, "field name %q is longer than 63 bytes", f.Name)
		}
		if f.Bits < 1 || f.Bits > 63 {
			return nil, refuse("bad_width", f.Name, "field %q is %d bits wide: 1 to 63", f.Name, f.Bits)
		}
	}
	seen := map[string]bool{}
	total, timeIndex := 0, -1
	for i, f := range fields {
		if !layoutName.MatchString(f.Name) {
			return nil, refuse("bad_name", f.Name, "field name %q is not lowercase letters, digits and underscores", f.Name)
		}
		if f.Name == "unix_ms" || f.Name == "timestamp" {
			return nil, refuse("reserved_name", f.Name, "a node field cannot be named %q", f.Name)
		}
		if seen[f.Name] {
			return nil, refuse("duplicate_name", f.Name, "two fields are named %q", f.Name)
		}
		seen[f.Name] = true
		total += f.Bits
		if f.Name == "time" {
			timeIndex = i
		}
	}
	if timeIndex < 0 {
		return nil, refuse("no_time", "", `a layout has one field named "time"`)
	}
	if !seen["sequence"] {
		return nil, refuse("no_sequence", "", `a layout has one field named "sequence"`)
	}
	if total > 64 || (total == 64 && !(allow64 && timeIndex == 0)) {
		return nil, refuse("too_wide", "", "the fields take %d bits: 63 at most", total)
	}
	if unitMs < 1 || unitMs > layoutMaxUnitMs {
		return nil, refuse("bad_unit", "", "a time unit of %d ms: 1 ms to a day", unitMs)
	}
	if epochMs < 0 || epochMs >= layoutEndOfTime {
		return nil, refuse("bad_epoch", "", "an epoch of %d ms: from 1970 to 9999", epochMs)
	}
	bits := fields[timeIndex].Bits
	if total == 64 {
		bits-- // the sign bit
	}
	if bits > 48 || int64(1)<<bits > (layoutEndOfTime-epochMs)/unitMs {
		return nil, refuse("outlasts_year_9999", "time", "the time field would hold times from the year 10000 on")
	}
	own := append([]SnowflakeLayoutField(nil), fields...)
	return &SnowflakeLayout{epochMs, unitMs, own, total, epochMs + unitMs<<bits}, nil
}

// Epoch is the layout's epoch.
func (l *SnowflakeLayout) Epoch() time.Time { return time.UnixMilli(l.epochMs).UTC() }

// Unit is the length of one unit of the time field.
func (l *SnowflakeLayout) Unit() time.Duration { return time.Duration(l.unitMs) * time.Millisecond }

// Fields are the layout's fields from the most significant bit.
func (l *SnowflakeLayout) Fields() []SnowflakeLayoutField {
	return append([]SnowflakeLayoutField(nil), l.fields...)
}

// TotalBits is the bits its fields take (63 or fewer; discord's 64).
func (l *SnowflakeLayout) TotalBits() int { return l.totalBits }

// End is the first instant the time field cannot hold, as snowflake_layout_end().
func (l *SnowflakeLayout) End() time.Time { return time.UnixMilli(l.endMs).UTC() }

func (l *SnowflakeLayout) shift(i int) uint {
	s := 0
	for _, f := range l.fields[i+1:] {
		s += f.Bits
	}
	return uint(s)
}

// max is a field's largest value (the time field's usable bits in discord's 64).
func (l *SnowflakeLayout) max(i int) int64 {
	bits := l.fields[i].Bits
	if l.fields[i].Name == "time" && l.totalBits == 64 {
		bits--
	}
	return int64(1)<<bits - 1
}

// SnowflakeParts is an ID's decomposition: each field by name ("time" as
// the count of units) and the start of its time unit.
type SnowflakeParts struct {
	Fields map[string]int64
	UnixMs int64
	Time   time.Time
}

// Decompose is an ID's fields, as snowflake_layout_decompose(id, layout); a
// negative ID ("negative") or one with bits above the layout
// ("above_layout") is refused.
func (l *SnowflakeLayout) Decompose(id int64) (SnowflakeParts, error) {
	if id < 0 {
		return SnowflakeParts{}, refuse("negative", "", "snowflake id %d is negative", id)
	}
	if l.totalBits < 63 && uint64(id)>>l.totalBits != 0 {
		return SnowflakeParts{}, refuse("above_layout", "", "snowflake id %d is out of range for a layout of %d bits", id, l.totalBits)
	}
	p := SnowflakeParts{Fields: make(map[string]int64, len(l.fields))}
	for i, f := range l.fields {
		p.Fields[f.Name] = int64(uint64(id) >> l.shift(i) & (uint64(1)<<f.Bits - 1))
	}
	p.UnixMs = l.epochMs + p.Fields["time"]*l.unitMs
	p.Time = time.UnixMilli(p.UnixMs).UTC()
	return p, nil
}

// timeValue is the time field's value of the unit holding t.
func (l *SnowflakeLayout) timeValue(t time.Time) (int64, error) {
	ms := t.UnixMilli()
	if ms < l.epochMs {
		return 0, refuse("before_epoch", "time", "%v is before the layout's epoch", t)
	}
	if ms >= l.endMs {
		return 0, refuse("after_end", "time", "%v is at or after the layout's end", t)
	}
	return (ms - l.epochMs) / l.unitMs, nil
}

// Compose is the ID of the time unit holding t with the node fields and
// sequence given (missing ones 0), as snowflake_layout_compose(): for
// backfills and tests. A name the layout has not ("unknown_field"), the time
// field ("time_field") or a value beyond a field's bits ("field_range") is
// refused.
func (l *SnowflakeLayout) Compose(t time.Time, fields map[string]int64) (int64, error) {
	tv, err := l.timeValue(t)
	if err != nil {
		return 0, err
	}
	index := make(map[string]int, len(l.fields))
	for i, f := range l.fields {
		index[f.Name] = i
	}
	for name, v := range fields {
		i, ok := index[name]
		switch {
		case !ok:
			return 0, refuse("unknown_field", name, "the layout has no field %q to set", name)
		case name == "time":
			return 0, refuse("time_field", name, "the time field is set by the time argument")
		case v < 0 || v > l.max(i):
			return 0, refuse("field_range", name, "field %q is out of range: %d (its %d bits hold 0 to %d)", name, v, l.fields[i].Bits, l.max(i))
		}
	}
	var id uint64
	for i, f := range l.fields {
		v := fields[f.Name]
		if f.Name == "time" {
			v = tv
		}
		id |= uint64(v) << l.shift(i)
	}
	return int64(id), nil
}

// Boundary is the smallest ID of the time unit holding t, as
// snowflake_layout_boundary(), for range predicates: id >= Boundary(t1) AND
// id < Boundary(t2).
func (l *SnowflakeLayout) Boundary(t time.Time) (int64, error) { return l.boundary(t, false) }

// BoundaryLargest is the largest ID of the time unit holding t.
func (l *SnowflakeLayout) BoundaryLargest(t time.Time) (int64, error) { return l.boundary(t, true) }

func (l *SnowflakeLayout) boundary(t time.Time, largest bool) (int64, error) {
	tv, err := l.timeValue(t)
	if err != nil {
		return 0, err
	}
	var id uint64
	for i, f := range l.fields {
		v := int64(0)
		if f.Name == "time" {
			v = tv
		} else if largest {
			v = l.max(i)
		}
		id |= uint64(v) << l.shift(i)
	}
	return int64(id), nil
}
