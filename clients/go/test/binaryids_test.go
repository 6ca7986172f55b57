package test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	idgen "github.com/idgen/idgen/clients/go"
	"github.com/idgen/idgen/clients/go/internal/vectors"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ksuid, objectid and rsxid (issue 53) through pgx: the vectors file's cases
// against the server, both ways and in both formats; results in binary;
// parameters, arrays, NULL and binary COPY; and the decoders against the
// server's on 100,000 values each.

// fixedTypes are the SQL type of each family of the vectors file.
var fixedTypes = map[string]string{"ksuid": "ksuid", "objectid": "objectid", "xid": "rsxid"}

// parseFixed is the package's value of a family's text (the type of the family's codec).
func parseFixed(family, s string) (fmt.Stringer, error) {
	switch family {
	case "ksuid":
		return idgen.ParseKSUID(s)
	case "objectid":
		return idgen.ParseObjectID(s)
	}
	return idgen.ParseXID(s)
}

// newFixed is a pointer to a zero value of a family's type, and its value once scanned.
func newFixed(family string) (any, func() fmt.Stringer) {
	switch family {
	case "ksuid":
		k := new(idgen.KSUID)
		return k, func() fmt.Stringer { return *k }
	case "objectid":
		o := new(idgen.ObjectID)
		return o, func() fmt.Stringer { return *o }
	}
	x := new(idgen.XID)
	return x, func() fmt.Stringer { return *x }
}

func TestPgxVectorsFixedSize(t *testing.T) {
	conn := registered(t)
	ctx := context.Background()
	v := vectors.Load(t)
	for family, typ := range fixedTypes {
		for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
			// each valid text: the package's value as the parameter (binary in the
			// extended protocol), and the text itself, read by the server
			for _, c := range v.Cases(family, "text", true) {
				id, err := parseFixed(family, c.Str("text"))
				if err != nil {
					t.Fatalf("%s %q: %v", family, c.Str("text"), err)
				}
				dst, got := newFixed(family)
				var text, fromString string
				var raw []byte
				err = conn.QueryRow(ctx, `SELECT $1::`+typ+`, $1::`+typ+`::text, $1::`+typ+`::bytea, $2::text::`+typ+`::text`,
					mode, id, c.Str("text")).Scan(dst, &text, &raw, &fromString)
				if err != nil || got() != id || text != c.Str("canonical") || fromString != c.Str("canonical") ||
					!bytes.Equal(raw, c.Bytes("bits")) {
					t.Errorf("%s %q (%s), mode %v: %v %v %s %x %s", family, c.Str("text"), c["what"], mode, err, got(), text, raw, fromString)
				}
			}
			// each refused text: refused by the server (22P02), as by the package;
			// a text with a NUL byte cannot reach the server (PostgreSQL's text
			// holds none), so only the package is asked
			for _, c := range v.Cases(family, "text", false) {
				if strings.IndexByte(c.Str("text"), 0) >= 0 {
					if _, perr := parseFixed(family, c.Str("text")); perr == nil {
						t.Errorf("%s %q (%s): accepted by the package", family, c.Str("text"), c["what"])
					}
					continue
				}
				_, err := conn.Exec(ctx, `SELECT $1::text::`+typ, mode, c.Str("text"))
				var pgErr *pgconn.PgError
				if _, perr := parseFixed(family, c.Str("text")); !errors.As(err, &pgErr) || pgErr.Code != "22P02" || perr == nil {
					t.Errorf("%s %q (%s), mode %v: the server %v, the package %v", family, c.Str("text"), c["what"], mode, err, perr)
				}
			}
			// each bits case: the bytes through the bytea cast, read as the value
			for _, c := range v.Cases(family, "bits", true) {
				dst, got := newFixed(family)
				var text string
				if err := conn.QueryRow(ctx, `SELECT $1::bytea::`+typ+`, $1::bytea::`+typ+`::text`, mode, c.Bytes("bits")).
					Scan(dst, &text); err != nil || got().String() != c.Str("canonical") || text != c.Str("canonical") {
					t.Errorf("%s bits %s (%s), mode %v: %v %v %s", family, c.Str("bits"), c["what"], mode, err, got(), text)
				}
			}
		}
	}
}

// The generators' values come back in binary as the package's types, their
// arrays too; NULL scans into pointers and is refused by the values.
func TestPgxFixedSizeResults(t *testing.T) {
	conn := registered(t)
	ctx := context.Background()
	rows, err := conn.Query(ctx, `SELECT ksuid(), objectid(), xid(), ARRAY[ksuid(), NULL], ARRAY[objectid()], ARRAY[xid(), xid()]`)
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	for i, fd := range rows.FieldDescriptions() {
		if fd.Format != pgx.BinaryFormatCode {
			t.Errorf("column %d (%s) came in format %d", i, fd.Name, fd.Format)
		}
	}
	values, err := rows.Values()
	if err != nil {
		t.Fatal(err)
	}
	var k idgen.KSUID
	var o idgen.ObjectID
	var x idgen.XID
	var ka []*idgen.KSUID
	var oa []idgen.ObjectID
	var xa []idgen.XID
	if err := rows.Scan(&k, &o, &x, &ka, &oa, &xa); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if _, ok := values[0].(idgen.KSUID); !ok {
		t.Errorf("ksuid() is a %T", values[0])
	}
	if _, ok := values[1].(idgen.ObjectID); !ok {
		t.Errorf("objectid() is a %T", values[1])
	}
	if _, ok := values[2].(idgen.XID); !ok {
		t.Errorf("xid() is a %T", values[2])
	}
	if len(ka) != 2 || ka[0] == nil || ka[1] != nil || len(oa) != 1 || len(xa) != 2 || xa[0] == xa[1] {
		t.Errorf("the arrays: %v %v %v", ka, oa, xa)
	}
	// as parameters, one by one and in arrays, compared on the server
	var same bool
	if err := conn.QueryRow(ctx, `SELECT $1::text = $4::ksuid::text AND $2::text = $5::objectid::text AND $3::text = $6::rsxid::text
	        AND $4::ksuid = ALL($7::ksuid[]) AND $5::objectid = ALL($8::objectid[]) AND $6::rsxid = ALL($9::rsxid[])`,
		k.String(), o.String(), x.String(), k, o, x, []idgen.KSUID{k}, []idgen.ObjectID{o, o}, []idgen.XID{x}).Scan(&same); err != nil || !same {
		t.Errorf("the values as parameters: %v %v", same, err)
	}
	// a value of another family is no parameter of the type
	for _, c := range []struct {
		typ string
		v   any
	}{{"ksuid", x}, {"objectid", x}, {"rsxid", o}, {"rsxid", k}} {
		if _, err := conn.Exec(ctx, `SELECT $1::`+c.typ, c.v); err == nil {
			t.Errorf("a %T accepted as a %s", c.v, c.typ)
		}
	}
	// domains over objectid and rsxid, and an array of one, are registered too
	rows, err = conn.Query(ctx, `SELECT $1::objectid::doc_ref, ARRAY[$2::rsxid::trace_ref]`, o, x)
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	var doc idgen.ObjectID
	var traces []idgen.XID
	for i, fd := range rows.FieldDescriptions() {
		if fd.Format != pgx.BinaryFormatCode {
			t.Errorf("domain column %d came in format %d", i, fd.Format)
		}
	}
	if err := rows.Scan(&doc, &traces); err != nil || doc != o || len(traces) != 1 || traces[0] != x {
		t.Errorf("the domains: %v %s %v", err, doc, traces)
	}
	rows.Close()
	var nk *idgen.KSUID
	var no *idgen.ObjectID
	var nx *idgen.XID
	if err := conn.QueryRow(ctx, `SELECT NULL::ksuid, NULL::objectid, NULL::rsxid`).Scan(&nk, &no, &nx); err != nil || nk != nil || no != nil || nx != nil {
		t.Errorf("NULLs into pointers: %v", err)
	}
	if err := conn.QueryRow(ctx, `SELECT NULL::rsxid`).Scan(&x); err == nil {
		t.Error("NULL scanned into an XID")
	}
}

// Binary COPY of the three types and an array, from the package's values and from strings.
func TestPgxCopyFromFixedSize(t *testing.T) {
	conn := registered(t)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, `DROP TABLE IF EXISTS fixed_things;
	        CREATE TABLE fixed_things (k ksuid, o objectid, x rsxid, xa rsxid[])`); err != nil {
		t.Fatal(err)
	}
	var k idgen.KSUID
	var o idgen.ObjectID
	var x idgen.XID
	if err := conn.QueryRow(ctx, `SELECT ksuid(), objectid(), xid()`).Scan(&k, &o, &x); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{{k, o, x, []idgen.XID{x, x}}, {k.String(), o.String(), x.String(), []string{x.String()}}}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"fixed_things"}, []string{"k", "o", "x", "xa"}, pgx.CopyFromRows(rows))
	if err != nil || n != 2 {
		t.Fatalf("CopyFrom: %d rows, %v", n, err)
	}
	var same int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM fixed_things WHERE k::text = $1 AND o::text = $2 AND x::text = $3 AND xa[1]::text = $3`,
		k.String(), o.String(), x.String()).Scan(&same); err != nil || same != 2 {
		t.Errorf("the copied rows: %d of 2, %v", same, err)
	}
	for col, bad := range map[string]string{"k": "0ujtsYcgvSTl8PAuAdqWYSMnLO-", "o": "56e1fc72e0c917e9c471416g", "x": "9M4E2MR0UI3E8A215N4G"} {
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{"fixed_things"}, []string{col}, pgx.CopyFromRows([][]any{{bad}})); err == nil {
			t.Errorf("CopyFrom of the invalid %s string %q", col, bad)
		}
	}
}

// fixedCheck compares a value read in binary with the server's text, bytes,
// time and fields (fields: the Go decoders' answers, in the query's order).
func fixedCheck[T interface {
	comparable
	fmt.Stringer
	Time() time.Time
	MarshalBinary() ([]byte, error)
}](family string, parse func(string) (T, error), fields func(T) []any, nfields int) func(pgx.Rows) error {
	return func(r pgx.Rows) error {
		var v T
		var text string
		var raw []byte
		var tm time.Time
		want := make([]any, nfields)
		dst := []any{&v, &text, &raw, &tm}
		for i := range want {
			dst = append(dst, &want[i])
		}
		if err := r.Scan(dst...); err != nil {
			return err
		}
		parsed, err := parse(text)
		got := fields(v)
		bin, _ := v.MarshalBinary()
		if v.String() != text || err != nil || parsed != v || !bytes.Equal(bin, raw) || !v.Time().Equal(tm) ||
			fmt.Sprint(got) != fmt.Sprint(want) {
			return errorf("%s %s: %x %v %v, the server says %x %v %v", family, text, bin, v.Time(), got, raw, tm, want)
		}
		return nil
	}
}

// randomBytes is SQL for n random-looking bytes (md5 of random(), so the
// whole range of each field, not only what the generators mint).
func randomBytes(n int) string {
	return fmt.Sprintf(`substring(decode(md5(random()::text) || md5(random()::text), 'hex') FROM 1 FOR %d)`, n)
}

func TestDecodersKSUID(t *testing.T) {
	conn := registered(t)
	each(t, conn, `SELECT v, v::text, v::bytea, ksuid_time(v), ksuid_payload(v) FROM (
	    SELECT CASE WHEN i % 2 = 0 THEN ksuid() ELSE `+randomBytes(20)+`::ksuid END AS v FROM generate_series(1, 100000) i) s`,
		fixedCheck("ksuid", idgen.ParseKSUID, func(k idgen.KSUID) []any { p := k.Payload(); return []any{p[:]} }, 1))
}

func TestDecodersObjectID(t *testing.T) {
	conn := registered(t)
	each(t, conn, `SELECT v, v::text, v::bytea, objectid_time(v), objectid_process(v), objectid_counter(v) FROM (
	    SELECT CASE WHEN i % 2 = 0 THEN objectid() ELSE `+randomBytes(12)+`::objectid END AS v FROM generate_series(1, 100000) i) s`,
		fixedCheck("objectid", idgen.ParseObjectID, func(o idgen.ObjectID) []any {
			p := o.Process()
			return []any{p[:], int32(o.Counter())}
		}, 2))
}

func TestDecodersXID(t *testing.T) {
	conn := registered(t)
	each(t, conn, `SELECT v, v::text, v::bytea, xid_time(v), xid_machine(v), xid_pid(v), xid_counter(v) FROM (
	    SELECT CASE WHEN i % 2 = 0 THEN xid() ELSE `+randomBytes(12)+`::rsxid END AS v FROM generate_series(1, 100000) i) s`,
		fixedCheck("xid", idgen.ParseXID, func(x idgen.XID) []any {
			m := x.Machine()
			return []any{m[:], int32(x.Pid()), int32(x.Counter())}
		}, 3))
}

// database/sql through pgx's stdlib (with Register) and lib/pq: the three
// types scan from the text and bind as their text.
func TestDatabaseSQLFixedSize(t *testing.T) {
	for name, db := range sqlDBs(t) {
		// README module begins
		var k idgen.KSUID
		var o idgen.ObjectID
		var x idgen.XID
		var nx *idgen.XID // NULL: nil
		err := db.QueryRow(`SELECT ksuid(), objectid(), xid(), NULL::rsxid`).Scan(&k, &o, &x, &nx)
		// README module ends
		if err != nil || k == (idgen.KSUID{}) || o == (idgen.ObjectID{}) || x == (idgen.XID{}) || nx != nil {
			t.Errorf("%s: scan: %v", name, err)
			continue
		}
		var ok bool
		if err := db.QueryRow(`SELECT $1::ksuid::text = $4 AND $2::objectid::text = $5 AND $3::rsxid::text = $6`,
			k, o, x, k.String(), o.String(), x.String()).Scan(&ok); err != nil || !ok {
			t.Errorf("%s: Valuer parameters: %v %v", name, err, ok)
		}
		// the zero values are values, not NULL
		var zeros string
		if err := db.QueryRow(`SELECT $1::ksuid::text || $2::objectid::text || $3::rsxid::text`,
			idgen.KSUID{}, idgen.ObjectID{}, idgen.XID{}).Scan(&zeros); err != nil || zeros != strings.Repeat("0", 27+24+20) {
			t.Errorf("%s: the zero values: %q %v", name, zeros, err)
		}
		if err := db.QueryRow(`SELECT NULL::ksuid`).Scan(&k); err == nil {
			t.Errorf("%s: NULL scanned into a KSUID", name)
		}
		if err := db.QueryRow(`SELECT 'aWgEPTl1tmebfsQzFP4bxwgy80V'::text`).Scan(&o); err == nil {
			t.Errorf("%s: a KSUID's text scanned into an ObjectID", name)
		}
	}
}

// The decoders of one value of each type, as the README shows them, against
// the server's functions.
func TestFixedSizeDecodersExample(t *testing.T) {
	conn := registered(t)
	ctx := context.Background()
	// README module begins
	var k idgen.KSUID
	var o idgen.ObjectID
	var x idgen.XID
	err := conn.QueryRow(ctx, `SELECT ksuid(), objectid(), xid()`).Scan(&k, &o, &x)
	kTime, payload := k.Time(), k.Payload()                       // ksuid_time, ksuid_payload
	oTime, process, counter := o.Time(), o.Process(), o.Counter() // objectid_time, _process, _counter
	xTime, machine, pid, xCounter := x.Time(), x.Machine(), x.Pid(), x.Counter()
	// README module ends
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		kTime, oTime, xTime    time.Time
		payload, process, mach []byte
		counter, pid, xCounter int
	}
	if err := conn.QueryRow(ctx, `SELECT ksuid_time($1), ksuid_payload($1), objectid_time($2), objectid_process($2), objectid_counter($2),
	        xid_time($3), xid_machine($3), xid_pid($3), xid_counter($3)`, k, o, x).Scan(&want.kTime, &want.payload,
		&want.oTime, &want.process, &want.counter, &want.xTime, &want.mach, &want.pid, &want.xCounter); err != nil {
		t.Fatal(err)
	}
	if !kTime.Equal(want.kTime) || !bytes.Equal(payload[:], want.payload) || !oTime.Equal(want.oTime) ||
		!bytes.Equal(process[:], want.process) || counter != want.counter || !xTime.Equal(want.xTime) ||
		!bytes.Equal(machine[:], want.mach) || pid != want.pid || xCounter != want.xCounter {
		t.Errorf("the decoders %v %x %v %x %d %v %x %d %d, the server %+v", kTime, payload, oTime, process, counter,
			xTime, machine, pid, xCounter, want)
	}
}
