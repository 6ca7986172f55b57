package test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	idgen "github.com/idgen/idgen/clients/go"
	"github.com/sony/sonyflake/v2"
)

// Snowflake layouts against the server and against sony/sonyflake/v2, the
// Go library that mints Sonyflake IDs: the server composes IDs in the
// sonyflake and pgedge layouts (snowflake_layout_compose() over random times
// and fields: idgen does not mint in these layouts), and sonyflake's
// Decompose and ToTime, the server's snowflake_layout_decompose() and the
// package's SnowflakeLayout.Decompose read the same fields; sonyflake's
// Compose and the package's Compose make the same IDs; and the compositions
// of sonyflake's own tests (../shared/data/snowflake-layouts/sonyflake_v2_compose.json)
// come out the same in a layout of those settings, errors included.

// sonyflakeAt is a sonyflake.Sonyflake of the given start and unit, 8 bits of
// sequence and 16 of machine (its defaults), machine 1.
func sonyflakeAt(t *testing.T, start time.Time, unit time.Duration) *sonyflake.Sonyflake {
	t.Helper()
	sf, err := sonyflake.New(sonyflake.Settings{StartTime: start, TimeUnit: unit, BitsSequence: 8, BitsMachineID: 16,
		MachineID: func() (int, error) { return 1, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return sf
}

type composedID struct {
	id     int64
	ms     int64
	fields map[string]int64
	server map[string]any
}

// composeOnServer: n IDs the server composes in a layout at random times up
// to its end or 2200, with random values of the named fields of those widths.
func composeOnServer(t *testing.T, layout string, n int, widths map[string]int) []composedID {
	t.Helper()
	l, err := idgen.PredefinedSnowflakeLayout(layout)
	if err != nil {
		t.Fatal(err)
	}
	end := min(l.End().UnixMilli(), time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
	fields := ""
	for name, bits := range widths {
		if fields != "" {
			fields += ", "
		}
		fields += "'" + name + "', floor(random() * 2 ^ " + itoa(bits) + ")::int8"
	}
	rows, err := connect(t).Query(context.Background(), `WITH given AS (
			SELECT ($2::int8 + floor(random() * ($3::int8 - $2::int8)))::int8 AS ms, jsonb_build_object(`+fields+`) AS fields
			FROM generate_series(1, $4::int))
		SELECT id, ms, fields::text, snowflake_layout_decompose(id, $1::text)::text
		FROM (SELECT ms, fields, snowflake_layout_compose($1::text, timestamptz 'epoch' + ms * interval '1 ms', fields) AS id FROM given) c`,
		layout, l.Epoch().UnixMilli(), end, n)
	if err != nil {
		t.Fatal(err)
	}
	var out []composedID
	for rows.Next() {
		var c composedID
		var fields, server string
		if err := rows.Scan(&c.id, &c.ms, &fields, &server); err != nil {
			t.Fatal(err)
		}
		if json.Unmarshal([]byte(fields), &c.fields) != nil || json.Unmarshal([]byte(server), &c.server) != nil {
			t.Fatalf("%s %s", fields, server)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil || len(out) != n {
		t.Fatalf("%d of %d rows: %v", len(out), n, err)
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestSonyflakeServerIDsDecomposeInSonyflake(t *testing.T) {
	n := differentialCount(t)
	l, _ := idgen.PredefinedSnowflakeLayout("sonyflake")
	sf := sonyflakeAt(t, l.Epoch(), l.Unit())
	bad := 0
	for _, c := range composeOnServer(t, "sonyflake", n, map[string]int{"sequence": 8, "machine": 16}) {
		theirs := sf.Decompose(c.id)
		ours, err := l.Decompose(c.id)
		composed, cerr := sf.Compose(time.UnixMilli(c.ms), int(c.fields["sequence"]), int(c.fields["machine"]))
		mine, merr := l.Compose(time.UnixMilli(c.ms), c.fields)
		same := err == nil && cerr == nil && merr == nil && theirs["id"] == c.id && composed == c.id && mine == c.id
		for _, f := range []string{"time", "sequence", "machine"} {
			same = same && theirs[f] == ours.Fields[f] && float64(theirs[f]) == c.server[f]
		}
		same = same && sf.ToTime(c.id).UnixMilli() == ours.UnixMs && float64(ours.UnixMs) == c.server["unix_ms"]
		if !same && bad < 5 {
			t.Errorf("%d: sonyflake %v %v (compose %d %v), idgen %+v %v (compose %d %v), server %v",
				c.id, theirs, sf.ToTime(c.id), composed, cerr, ours, err, mine, merr, c.server)
		}
		if !same {
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, n)
	}
}

func TestSonyflakeV2ComposeCases(t *testing.T) {
	var cases []struct {
		Test, Case string
		Settings   struct {
			TimeUnitMs    int64 `json:"TimeUnit_ms"`
			BitsSequence  int
			BitsMachineID int
		}
		ElapsedUnits      int64 `json:"elapsed_units"`
		Sequence          int64
		MachineID         int64          `json:"machine_id"`
		ExpectedID        string         `json:"expected_id"`
		ExpectedDecompose map[string]any `json:"expected_decompose"`
		ExpectedError     string         `json:"expected_error"`
	}
	readShared(t, "snowflake-layouts/sonyflake_v2_compose.json", &cases)
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	// sonyflake's default start (v2), and its errors as the core's reasons
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	reasons := map[error]string{sonyflake.ErrStartTimeAhead: "before_epoch", sonyflake.ErrOverTimeLimit: "after_end",
		sonyflake.ErrInvalidSequence: "field_range", sonyflake.ErrInvalidMachineID: "field_range"}
	for _, c := range cases {
		unit := time.Duration(c.Settings.TimeUnitMs) * time.Millisecond
		l, err := idgen.NewSnowflakeLayout(start, unit, idgen.SnowflakeLayoutField{Name: "time", Bits: 63 - c.Settings.BitsSequence - c.Settings.BitsMachineID},
			idgen.SnowflakeLayoutField{Name: "sequence", Bits: c.Settings.BitsSequence}, idgen.SnowflakeLayoutField{Name: "machine", Bits: c.Settings.BitsMachineID})
		if err != nil {
			t.Fatalf("%s: %v", c.Case, err)
		}
		at := start.Add(time.Duration(c.ElapsedUnits) * unit)
		id, err := l.Compose(at, map[string]int64{"sequence": c.Sequence, "machine": c.MachineID})
		theirs, theirErr := sonyflakeAt(t, start, unit).Compose(at, int(c.Sequence), int(c.MachineID))
		if c.ExpectedError != "" {
			var e *idgen.SnowflakeLayoutError
			if !errors.As(err, &e) || theirErr == nil || theirErr.Error() != c.ExpectedError || e.Reason != reasons[theirErr] {
				t.Errorf("%s %s: idgen %v, sonyflake %v, expected %q", c.Test, c.Case, err, theirErr, c.ExpectedError)
			}
			continue
		}
		parts, derr := l.Decompose(id)
		if err != nil || derr != nil || itoa64(id) != c.ExpectedID || theirErr != nil || theirs != id ||
			float64(parts.Fields["time"]) != c.ExpectedDecompose["time"] || float64(parts.Fields["sequence"]) != c.ExpectedDecompose["sequence"] ||
			float64(parts.Fields["machine"]) != c.ExpectedDecompose["machine"] {
			t.Errorf("%s %s: idgen %d %v %+v, sonyflake %d %v, expected %s %v", c.Test, c.Case, id, err, parts, theirs, theirErr, c.ExpectedID, c.ExpectedDecompose)
		}
	}
}

func itoa64(n int64) string { b, _ := json.Marshal(n); return string(b) }

// The pgEdge layout: the decomposed examples of ../shared/data/snowflake-layouts
// (pgEdge snowflake's docs' IDs, read by its code's layout: msec | node |
// count) by the package and by the server, and server-composed IDs read back.
func TestPgedgeLayoutExamples(t *testing.T) {
	var examples []struct {
		Scheme string
		ID     string
		Fields map[string]int64
		UnixMs int64 `json:"unix_ms"`
	}
	readShared(t, "snowflake-layouts/examples.json", &examples)
	l, _ := idgen.PredefinedSnowflakeLayout("pgedge")
	conn := connect(t)
	seen := 0
	for _, e := range examples {
		if e.Scheme != "pgedge-snowflake" {
			continue
		}
		seen++
		id, err := strconv.ParseInt(e.ID, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		var server string
		if err := conn.QueryRow(context.Background(), `SELECT snowflake_layout_decompose($1::int8, 'pgedge')::text`, id).Scan(&server); err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		_ = json.Unmarshal([]byte(server), &s)
		p, err := l.Decompose(id)
		want := []int64{e.Fields["msec"], e.Fields["node"], e.Fields["count"], e.UnixMs}
		if err != nil || [4]int64{p.Fields["time"], p.Fields["node"], p.Fields["sequence"], p.UnixMs} != [4]int64(want) ||
			s["time"] != float64(want[0]) || s["node"] != float64(want[1]) || s["sequence"] != float64(want[2]) || s["unix_ms"] != float64(want[3]) {
			t.Errorf("pgEdge %s: idgen %+v %v, server %s, pgEdge's code's layout %v", e.ID, p, err, server, want)
		}
	}
	if seen == 0 {
		t.Fatal("no pgEdge examples")
	}
	bad := 0
	for _, c := range composeOnServer(t, "pgedge", differentialCount(t)/10, map[string]int{"node": 10, "sequence": 12}) {
		p, err := l.Decompose(c.id)
		mine, merr := l.Compose(time.UnixMilli(c.ms), c.fields)
		if err != nil || merr != nil || mine != c.id || p.Fields["node"] != c.fields["node"] || p.Fields["sequence"] != c.fields["sequence"] ||
			float64(p.Fields["time"]) != c.server["time"] || float64(p.UnixMs) != c.server["unix_ms"] {
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d server-composed pgEdge IDs differ", bad)
	}
}
