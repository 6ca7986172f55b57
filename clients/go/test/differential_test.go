package test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
)

// Differential tests against the formats' reference libraries (issue 53):
// what the server mints parses in segmentio/ksuid and rs/xid to the same
// bytes, time and fields, and what they mint parses on the server to the same
// bytes and sorts in the same order. IDGEN_DIFFERENTIAL_COUNT overrides how
// many values go each way.
func differentialCount(t *testing.T) int {
	t.Helper()
	if s := os.Getenv("IDGEN_DIFFERENTIAL_COUNT"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("IDGEN_DIFFERENTIAL_COUNT=%q is not a positive count", s)
		}
		return n
	}
	return 100_000
}

// minted: the text, bytes and the time in Unix seconds of n values of a
// generator, as the server gives them, with the fields the query adds.
type mintedRow struct {
	text   string
	raw    []byte
	unix   int64
	fields [3]any
}

func mintOnServer(t *testing.T, conn *pgx.Conn, query string, n int) []mintedRow {
	t.Helper()
	rows, err := conn.Query(context.Background(), query, n)
	if err != nil {
		t.Fatal(err)
	}
	var out []mintedRow
	for rows.Next() {
		var r mintedRow
		if err := rows.Scan(&r.text, &r.raw, &r.unix, &r.fields[0], &r.fields[1], &r.fields[2]); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) != n {
		t.Fatalf("the server gave %d values, not %d", len(out), n)
	}
	return out
}

// parseOnServer: the bytes the server reads from each text under the type,
// and the texts' positions in the server's order of the values.
func parseOnServer(t *testing.T, conn *pgx.Conn, typ string, texts []string) ([][]byte, []int) {
	t.Helper()
	ctx := context.Background()
	var raws [][]byte
	if err := conn.QueryRow(ctx, "SELECT array_agg(t::"+typ+"::bytea ORDER BY i) "+
		"FROM unnest($1::text[]) WITH ORDINALITY AS u (t, i)", texts).Scan(&raws); err != nil {
		t.Fatal(err)
	}
	var order []int
	if err := conn.QueryRow(ctx, "SELECT array_agg(i::int - 1 ORDER BY t::"+typ+", i) "+
		"FROM unnest($1::text[]) WITH ORDINALITY AS u (t, i)", texts).Scan(&order); err != nil {
		t.Fatal(err)
	}
	return raws, order
}

// refusedOnServer: the SQLSTATE the server gives for text under the type.
func refusedOnServer(t *testing.T, conn *pgx.Conn, typ, text string) string {
	t.Helper()
	var ignored []byte
	err := conn.QueryRow(context.Background(), "SELECT $1::text::"+typ+"::bytea", text).Scan(&ignored)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	if err != nil {
		t.Fatal(err)
	}
	return "accepted"
}

// readShared: a file of the third-party vectors, in the directory that
// IDGEN_SHARED_DATA names (../shared/data beside a checkout).
func readShared(t *testing.T, path string, into any) {
	t.Helper()
	dir := os.Getenv("IDGEN_SHARED_DATA")
	if dir == "" {
		t.Skip("IDGEN_SHARED_DATA is not set")
	}
	data, err := os.ReadFile(filepath.Join(dir, path))
	if err != nil {
		t.Fatalf("the third-party vectors: %v", err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestKsuidServerValuesParseInSegmentio(t *testing.T) {
	conn := connect(t)
	n := differentialCount(t)
	minted := mintOnServer(t, conn, `SELECT k::text, k::bytea, extract(epoch FROM ksuid_time(k))::bigint,
		ksuid_payload(k), NULL::int, NULL::int FROM (SELECT ksuid() FROM generate_series(1, $1)) s (k)`, n)
	for i, m := range minted {
		ref, err := ksuid.Parse(m.text)
		if err != nil {
			t.Fatalf("value %d, %s: segmentio refuses it: %v", i, m.text, err)
		}
		if !bytes.Equal(ref.Bytes(), m.raw) || ref.Time().Unix() != m.unix ||
			!bytes.Equal(ref.Payload(), m.fields[0].([]byte)) || ref.String() != m.text {
			t.Fatalf("value %d, %s: segmentio reads bytes %x, time %d, payload %x; the server %x, %d, %x",
				i, m.text, ref.Bytes(), ref.Time().Unix(), ref.Payload(), m.raw, m.unix, m.fields[0])
		}
	}
}

func TestKsuidSegmentioValuesParseOnServer(t *testing.T) {
	conn := connect(t)
	n := differentialCount(t)
	ids, texts := make([]ksuid.KSUID, n), make([]string, n)
	// New() values, and runs of Next() and Prev(), which carry into the timestamp
	for i := range ids {
		switch i % 3 {
		case 0:
			ids[i] = ksuid.New()
		case 1:
			ids[i] = ids[i-1].Next()
		default:
			ids[i] = ids[i-2].Prev()
		}
		texts[i] = ids[i].String()
	}
	raws, order := parseOnServer(t, conn, "ksuid", texts)
	for i := range ids {
		if !bytes.Equal(raws[i], ids[i].Bytes()) {
			t.Fatalf("%s: the server reads %x, segmentio %x", texts[i], raws[i], ids[i].Bytes())
		}
	}
	for j := 1; j < n; j++ {
		if a, b := ids[order[j-1]], ids[order[j]]; ksuid.Compare(a, b) > 0 {
			t.Fatalf("the server sorts %s before %s; segmentio after", a, b)
		}
	}
}

// segmentio's parser maps any byte through its digit table; idgen refuses
// what lies outside the alphabet (../shared/data/ksuid/lax.json).
func TestKsuidSegmentioLaxInputsAreRefused(t *testing.T) {
	conn := connect(t)
	var lax []struct {
		Text             string `json:"text"`
		ReferenceAccepts bool   `json:"reference_accepts"`
		ReferenceRawHex  string `json:"reference_raw_hex"`
	}
	readShared(t, "ksuid/lax.json", &lax)
	if len(lax) == 0 {
		t.Fatal("ksuid/lax.json lists no input")
	}
	for _, c := range lax {
		ref, err := ksuid.Parse(c.Text)
		if c.ReferenceAccepts != (err == nil) {
			t.Errorf("%q: segmentio's answer (%v) is not what lax.json records", c.Text, err)
		}
		if err == nil && hex.EncodeToString(ref.Bytes()) != c.ReferenceRawHex {
			t.Errorf("%q: segmentio reads %x, lax.json records %s", c.Text, ref.Bytes(), c.ReferenceRawHex)
		}
		if got := refusedOnServer(t, conn, "ksuid", c.Text); got != "22P02" {
			t.Errorf("%q: the server gives %s, not 22P02", c.Text, got)
		}
	}
}

func TestXidServerValuesParseInRsXid(t *testing.T) {
	conn := connect(t)
	n := differentialCount(t)
	minted := mintOnServer(t, conn, `SELECT x::text, x::bytea, extract(epoch FROM xid_time(x))::bigint,
		xid_machine(x), xid_pid(x), xid_counter(x) FROM (SELECT xid() FROM generate_series(1, $1)) s (x)`, n)
	for i, m := range minted {
		ref, err := xid.FromString(m.text)
		if err != nil {
			t.Fatalf("value %d, %s: rs/xid refuses it: %v", i, m.text, err)
		}
		if !bytes.Equal(ref.Bytes(), m.raw) || ref.Time().Unix() != m.unix ||
			!bytes.Equal(ref.Machine(), m.fields[0].([]byte)) ||
			int64(ref.Pid()) != int64(m.fields[1].(int32)) || int64(ref.Counter()) != int64(m.fields[2].(int32)) {
			t.Fatalf("value %d, %s: rs/xid reads %x, time %d, machine %x, pid %d, counter %d; the server %x, %d, %v",
				i, m.text, ref.Bytes(), ref.Time().Unix(), ref.Machine(), ref.Pid(), ref.Counter(), m.raw, m.unix, m.fields)
		}
	}
}

func TestXidRsXidValuesParseOnServer(t *testing.T) {
	conn := connect(t)
	n := differentialCount(t)
	ids, texts := make([]xid.ID, n), make([]string, n)
	for i := range ids {
		ids[i] = xid.New()
		texts[i] = ids[i].String()
	}
	raws, order := parseOnServer(t, conn, "rsxid", texts)
	for i := range ids {
		if !bytes.Equal(raws[i], ids[i].Bytes()) {
			t.Fatalf("%s: the server reads %x, rs/xid %x", texts[i], raws[i], ids[i].Bytes())
		}
	}
	for j := 1; j < n; j++ {
		if a, b := ids[order[j-1]], ids[order[j]]; a.Compare(b) > 0 {
			t.Fatalf("the server sorts %s before %s; rs/xid after", a, b)
		}
	}
}

// rs/xid is strict: what it refuses, the server refuses (../shared/data/xid/invalid.json).
func TestXidRefusedByBoth(t *testing.T) {
	conn := connect(t)
	var invalid []struct {
		Text string `json:"text"`
	}
	readShared(t, "xid/invalid.json", &invalid)
	if len(invalid) == 0 {
		t.Fatal("xid/invalid.json lists no input")
	}
	for _, c := range invalid {
		if _, err := xid.FromString(c.Text); err == nil {
			t.Errorf("%q: rs/xid accepts it, invalid.json says it refuses", c.Text)
		}
		if got := refusedOnServer(t, conn, "rsxid", c.Text); got != "22P02" {
			t.Errorf("%q: the server gives %s, not 22P02", c.Text, got)
		}
	}
}
