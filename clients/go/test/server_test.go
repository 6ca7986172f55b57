package test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"strings"
	"testing"

	// README module begins
	idgen "github.com/idgen/idgen/clients/go"
	pgxidgen "github.com/idgen/idgen/clients/go/pgx"
	// README module ends
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	_ "github.com/lib/pq"
)

// The tests below need a server: libpq's environment (PGHOST, PGPORT,
// PGDATABASE, PGUSER) names a database where the user may create idgen (its
// owner: idgen is a trusted extension). IDGEN_TEST_BARE_DATABASE names one
// without idgen, for Register's error, IDGEN_TEST_OLD_DATABASE one with idgen
// 0.7.0, which has no idgen_types(). Without PGDATABASE they skip.

const schema = `
DROP SCHEMA IF EXISTS gotest CASCADE;
CREATE SCHEMA gotest;
SET search_path = gotest, public;
CREATE EXTENSION IF NOT EXISTS idgen SCHEMA public;
SELECT prefixed_id_define('account_id', 'acct');
SELECT typeid_define('user_id', 'user');
CREATE TABLE things (
    u  ulid, p prefixed_id, t typeid,
    a  account_id DEFAULT NULL, us user_id DEFAULT NULL,
    ua ulid[]);
CREATE DOMAIN ulid_ref AS ulid;
CREATE DOMAIN ulid_ref_ref AS ulid_ref;
SELECT typeid_define('member_id', 'member');
CREATE TABLE domain_values (
    r ulid_ref, rr ulid_ref_ref, m member_id DEFAULT typeid_new('member'),
    rra ulid_ref_ref[], ma member_id[]);
INSERT INTO domain_values (r, rr) SELECT ulid(), ulid() FROM generate_series(1, 3);
UPDATE domain_values SET rra = ARRAY[rr, NULL], ma = ARRAY[m];
CREATE DOMAIN doc_ref AS objectid;
CREATE DOMAIN trace_ref AS rsxid;`

func connect(t testing.TB) *pgx.Conn {
	t.Helper()
	if os.Getenv("PGDATABASE") == "" {
		t.Skip("no server: PGDATABASE is not set")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "search_path=gotest,public")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	return conn
}

// registered: a connection with idgen's codecs registered.
func registered(t testing.TB) *pgx.Conn {
	t.Helper()
	conn := connect(t)
	if err := pgxidgen.Register(context.Background(), conn); err != nil {
		t.Fatal(err)
	}
	return conn
}

func TestMain(m *testing.M) {
	if os.Getenv("PGDATABASE") != "" {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, "")
		if err == nil {
			_, err = conn.Exec(ctx, schema)
			conn.Close(ctx)
		}
		if err != nil {
			os.Stderr.WriteString("setting up the schema: " + err.Error() + "\n")
			os.Exit(2)
		}
	}
	os.Exit(m.Run())
}

// registerIn: Register's error on the database named by the environment variable.
func registerIn(t *testing.T, variable string) error {
	t.Helper()
	dbname := os.Getenv(variable)
	if dbname == "" {
		t.Skip(variable + " is not set")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "dbname="+dbname)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	return pgxidgen.Register(ctx, conn)
}

func TestRegisterWithoutExtension(t *testing.T) {
	if err := registerIn(t, "IDGEN_TEST_BARE_DATABASE"); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Errorf("Register without the extension: %v", err)
	}
}

func TestRegisterOlderExtension(t *testing.T) {
	err := registerIn(t, "IDGEN_TEST_OLD_DATABASE")
	if err == nil || !strings.Contains(err.Error(), "idgen 0.7.0 is installed") || !strings.Contains(err.Error(), "ALTER EXTENSION idgen UPDATE") {
		t.Errorf("Register with idgen 0.7.0: %v", err)
	}
}

// A CREATE DOMAIN over ulid, a domain over that domain and typeid_define()'s
// domain (idgen_types() lists them), and their arrays, decode in binary and in
// text (the simple protocol); Register finds them with the extension's schema
// off the search_path too.
func TestPgxDomainsOverDomains(t *testing.T) {
	conn := registered(t)
	ctx := context.Background()
	const query = `SELECT r, rr, m, rra, ma, r::text, rr::text, m::text FROM domain_values`
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		rows, err := conn.Query(ctx, query, mode)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
			if mode == pgx.QueryExecModeCacheStatement {
				for i, fd := range rows.FieldDescriptions()[:5] {
					if fd.Format != pgx.BinaryFormatCode {
						t.Errorf("column %d (%s) came in format %d", i, fd.Name, fd.Format)
					}
				}
			}
			values, err := rows.Values()
			if err != nil {
				t.Fatal(err)
			}
			if got := []string{fmtType(values[0]), fmtType(values[1]), fmtType(values[2])}; strings.Join(got, " ") != "idgen.ULID idgen.ULID idgen.TypeID" {
				t.Errorf("mode %v: the domains' values are %v", mode, got)
			}
			var r, rr idgen.ULID
			var m idgen.TypeID
			var rra []*idgen.ULID
			var ma []idgen.TypeID
			var rt, rrt, mt string
			if err := rows.Scan(&r, &rr, &m, &rra, &ma, &rt, &rrt, &mt); err != nil {
				t.Fatalf("mode %v: %v", mode, err)
			}
			if r.String() != rt || rr.String() != rrt || m.String() != mt || m.Prefix != "member" {
				t.Errorf("mode %v: %s %s %s, the server's text %s %s %s", mode, r, rr, m, rt, rrt, mt)
			}
			if len(rra) != 2 || rra[0] == nil || *rra[0] != rr || rra[1] != nil || len(ma) != 1 || ma[0] != m {
				t.Errorf("mode %v: the arrays %v %v", mode, rra, ma)
			}
		}
		if err := rows.Err(); err != nil || n != 3 {
			t.Errorf("mode %v: %d rows, %v", mode, n, err)
		}
	}
	var rr idgen.ULID
	if err := conn.QueryRow(ctx, `SELECT rr FROM domain_values LIMIT 1`).Scan(&rr); err != nil {
		t.Fatal(err)
	}
	var count int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM domain_values WHERE rr = $1::ulid_ref_ref AND rr = ANY($2::ulid_ref_ref[])`,
		rr, []idgen.ULID{rr}).Scan(&count); err != nil || count != 1 {
		t.Errorf("a ULID parameter into the domain and its array: %d, %v", count, err)
	}
	// the extension's schema (public) off the search_path: idgen_types() is found qualified
	off, err := pgx.Connect(ctx, "search_path=gotest")
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close(ctx)
	if err := pgxidgen.Register(ctx, off); err != nil {
		t.Fatalf("Register with idgen off the search_path: %v", err)
	}
	var back []idgen.ULID
	if err := off.QueryRow(ctx, `SELECT rra[1:1] FROM domain_values LIMIT 1`).Scan(&back); err != nil || len(back) != 1 {
		t.Errorf("a domain array with idgen off the search_path: %v %v", err, back)
	}
}

// Every type and domain comes back in binary and decodes to the server's text.
func TestPgxBinaryResults(t *testing.T) {
	conn := registered(t)
	ctx := context.Background()
	rows, err := conn.Query(ctx, `SELECT ulid(), prefixed_id_new('acct'), typeid_new('user'), typeid_new(''),
	        prefixed_id_new('acct')::account_id, typeid_new('user')::user_id`)
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
	rows.Close()
	want := []string{"idgen.ULID", "idgen.PrefixedID", "idgen.TypeID", "idgen.TypeID", "idgen.PrefixedID", "idgen.TypeID"}
	for i, v := range values {
		if got := fmtType(v); got != want[i] {
			t.Errorf("value %d is a %s, want %s", i, got, want[i])
		}
		var text string
		if err := conn.QueryRow(ctx, `SELECT $1::text::`+[]string{"ulid", "prefixed_id", "typeid", "typeid", "account_id", "user_id"}[i]+`::text`,
			v.(interface{ String() string }).String()).Scan(&text); err != nil || text != v.(interface{ String() string }).String() {
			t.Errorf("value %d: %v, the server reads it as %q", i, err, text)
		}
	}
}

func fmtType(v any) string {
	switch v.(type) {
	case idgen.ULID:
		return "idgen.ULID"
	case idgen.PrefixedID:
		return "idgen.PrefixedID"
	case idgen.TypeID:
		return "idgen.TypeID"
	}
	return "other"
}

// Parameters in binary: the package's types, and strings, into each type and domain.
func TestPgxParameters(t *testing.T) {
	conn := registered(t)
	ctx := context.Background()
	var u idgen.ULID
	var p idgen.PrefixedID
	var ti, empty idgen.TypeID
	if err := conn.QueryRow(ctx, `SELECT ulid(), prefixed_id_new('acct')::account_id, typeid_new('user')::user_id, typeid_new('')`).
		Scan(&u, &p, &ti, &empty); err != nil {
		t.Fatal(err)
	}
	var same bool
	var ut, pt, tt, et string
	if err := conn.QueryRow(ctx, `SELECT $1::ulid::text, $2::account_id::text, $3::user_id::text, $4::typeid::text,
	        $1::ulid = ANY($5::ulid[])`, u, p, ti, empty, []idgen.ULID{u}).Scan(&ut, &pt, &tt, &et, &same); err != nil {
		t.Fatal(err)
	}
	if ut != u.String() || pt != p.String() || tt != ti.String() || et != empty.String() || !same {
		t.Errorf("round trip: %s %s %s %s %v", ut, pt, tt, et, same)
	}
	// a domain's CHECK still holds for a binary parameter
	_, err := conn.Exec(ctx, `SELECT $1::account_id`, idgen.PrefixedID{Prefix: "user", Bits: p.Bits})
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23514" {
		t.Errorf("another prefix into account_id: %v", err)
	}
	// strings are sent in text and the server parses them
	var back idgen.ULID
	if err := conn.QueryRow(ctx, `SELECT $1::ulid`, strings.ToLower(u.String())).Scan(&back); err != nil || back != u {
		t.Errorf("a lower-case string parameter: %v %s", err, back)
	}
	_, err = conn.Exec(ctx, `SELECT $1::ulid`, "not a ulid")
	if !errors.As(err, &pgErr) || pgErr.Code != "22P02" {
		t.Errorf("an invalid string parameter: %v", err)
	}
	// a value of another idgen type is no ulid
	if _, err := conn.Exec(ctx, `SELECT $1::ulid`, ti); err == nil {
		t.Error("a TypeID parameter accepted as a ulid")
	}
	var arr []idgen.ULID
	if err := conn.QueryRow(ctx, `SELECT ARRAY[$1::ulid, ulid_boundary('2026-01-01+00')]`, u).Scan(&arr); err != nil || len(arr) != 2 || arr[0] != u {
		t.Errorf("a ulid[]: %v %v", err, arr)
	}
}

func TestPgxNull(t *testing.T) {
	conn := registered(t)
	ctx := context.Background()
	var u *idgen.ULID
	var p *idgen.PrefixedID
	var s *string
	if err := conn.QueryRow(ctx, `SELECT NULL::ulid, NULL::account_id, NULL::typeid`).Scan(&u, &p, &s); err != nil || u != nil || p != nil || s != nil {
		t.Errorf("NULLs into pointers: %v", err)
	}
	var v idgen.ULID
	if err := conn.QueryRow(ctx, `SELECT NULL::ulid`).Scan(&v); err == nil {
		t.Error("NULL scanned into a ULID")
	}
	var back *string
	if err := conn.QueryRow(ctx, `SELECT $1::ulid::text`, (*idgen.ULID)(nil)).Scan(&back); err != nil || back != nil {
		t.Errorf("a nil *ULID parameter: %v", err)
	}
}

// Binary COPY of every type and domain, from the package's types and from strings.
func TestPgxCopyFrom(t *testing.T) {
	conn := registered(t)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, `TRUNCATE things`); err != nil {
		t.Fatal(err)
	}
	var u idgen.ULID
	var p, a idgen.PrefixedID
	var ti, us idgen.TypeID
	if err := conn.QueryRow(ctx, `SELECT ulid(), prefixed_id_new('ord'), typeid_new(''), prefixed_id_new('acct'), typeid_new('user')`).
		Scan(&u, &p, &ti, &a, &us); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{
		{u, p, ti, a, us, []idgen.ULID{u, u}},
		{u.String(), p.String(), ti.String(), a.String(), us.String(), []string{u.String()}},
	}
	// README snippet begins
	// README module begins
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"things"}, []string{"u", "p", "t", "a", "us", "ua"}, pgx.CopyFromRows(rows))
	// README module ends
	// README snippet ends
	if err != nil || n != 2 {
		t.Fatalf("CopyFrom: %d rows, %v", n, err)
	}
	var same int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM things WHERE u::text = $1 AND p::text = $2 AND t::text = $3
	        AND a::text = $4 AND us::text = $5 AND ua[1]::text = $1`, u.String(), p.String(), ti.String(), a.String(), us.String()).Scan(&same); err != nil || same != 2 {
		t.Errorf("the copied rows: %d of 2, %v", same, err)
	}
	// an invalid string is refused by the codec before it is sent
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"things"}, []string{"p"}, pgx.CopyFromRows([][]any{{"acct_nope"}}))
	if err == nil {
		t.Error("CopyFrom of an invalid prefixed_id string")
	}
	// the domain's CHECK holds in COPY too
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"things"}, []string{"a"}, pgx.CopyFromRows([][]any{{p}}))
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23514" {
		t.Errorf("CopyFrom of another prefix into account_id: %v", err)
	}
}

// Without Register, pgx sends a string's bytes as the binary field: the
// server refuses them (22P03), never misreads them. This is what Register fixes.
func TestPgxCopyFromUnregistered(t *testing.T) {
	conn := connect(t)
	ctx := context.Background()
	for _, col := range []string{"u", "p", "t", "a"} {
		text := map[string]string{"u": "01H455VB4PEX5VSKNK084SN02Q", "p": "ord_039srkj01e44uynszf2f2njh3",
			"t": "01h455vb4pex5vsknk084sn02q", "a": "acct_039srkj01e44uynszf2f2njh3"}[col]
		_, err := conn.CopyFrom(ctx, pgx.Identifier{"things"}, []string{col}, pgx.CopyFromRows([][]any{{text}}))
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "22P03" {
			t.Errorf("unregistered CopyFrom into %s: %v", col, err)
		}
	}
}

// Without Register, pgx reads the types in text, and the package's types
// still scan from it: each implements sql.Scanner, which pgx calls with the
// text. (The README said they did not.)
func TestPgxScanUnregistered(t *testing.T) {
	conn := connect(t)
	ctx := context.Background()
	var (
		u   idgen.ULID
		p   idgen.PrefixedID
		tid idgen.TypeID
		k   idgen.KSUID
		o   idgen.ObjectID
		x   idgen.XID
		raw [6]string
	)
	query := `SELECT ulid(), prefixed_id_new('acct'), typeid_new('user'), ksuid(), objectid(), xid()`
	if err := conn.QueryRow(ctx, query).Scan(&u, &p, &tid, &k, &o, &x); err != nil {
		t.Fatalf("unregistered Scan into the package's types: %v", err)
	}
	if err := conn.QueryRow(ctx, `SELECT $1::ulid::text, $2::prefixed_id::text, $3::typeid::text, $4::ksuid::text, $5::objectid::text, $6::rsxid::text`,
		u.String(), p.String(), tid.String(), k.String(), o.String(), x.String()).Scan(&raw[0], &raw[1], &raw[2], &raw[3], &raw[4], &raw[5]); err != nil {
		t.Fatal(err)
	}
	if got := [6]string{u.String(), p.String(), tid.String(), k.String(), o.String(), x.String()}; got != raw || p.Prefix != "acct" || tid.Prefix != "user" {
		t.Errorf("unregistered Scan: %v, the server's text %v", got, raw)
	}
}

// pgxpool: Register as AfterConnect, and a domain created later found by a new connection.
func TestPgxPool(t *testing.T) {
	connect(t) // skips without a server
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig("search_path=gotest,public")
	if err != nil {
		t.Fatal(err)
	}
	// README snippet begins
	// README module begins
	cfg.AfterConnect = pgxidgen.Register
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	// README module ends
	// README snippet ends
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	// README module begins
	var account idgen.PrefixedID // an account_id column: prefixed_id_define('account_id', 'acct')
	err = pool.QueryRow(ctx, `SELECT prefixed_id_new('acct')::account_id`).Scan(&account)
	// README module ends
	if err != nil || account.Prefix != "acct" {
		t.Errorf("through the pool: %v %v", err, account)
	}
	// README module begins
	var text string
	err = pool.QueryRow(ctx, `SELECT $1::account_id::text`, account).Scan(&text)
	// README module ends
	if err != nil || text != account.String() {
		t.Errorf("a parameter through the pool: %v %s", err, text)
	}
}

// database/sql through pgx's stdlib (with Register) and through lib/pq (text).
func TestDatabaseSQL(t *testing.T) {
	connect(t)
	cfg, err := pgx.ParseConfig("search_path=gotest,public")
	if err != nil {
		t.Fatal(err)
	}
	pq := "sslmode=disable search_path=gotest,public"
	if host := os.Getenv("PGHOST"); host != "" {
		pq += " host=" + host
	}
	// README snippet begins
	// README module begins
	pgxDB := stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(pgxidgen.Register))
	// README module ends
	// README snippet ends
	dbs := map[string]*sql.DB{"pgx stdlib": pgxDB, "lib/pq": mustOpen(t, "postgres", pq)}
	for name, db := range dbs {
		defer db.Close()
		// README module begins
		var u idgen.ULID
		var p idgen.PrefixedID
		var ti idgen.TypeID
		var nu *idgen.ULID            // NULL: nil
		var nt sql.Null[idgen.TypeID] // NULL: not Valid
		err := db.QueryRow(`SELECT ulid(), prefixed_id_new('acct')::account_id, typeid_new('user')::user_id, NULL::ulid, NULL::typeid`).
			Scan(&u, &p, &ti, &nu, &nt)
		// README module ends
		if err != nil || p.Prefix != "acct" || ti.Prefix != "user" || nu != nil || nt.Valid {
			t.Errorf("%s: scan: %v", name, err)
			continue
		}
		var ok bool
		if err := db.QueryRow(`SELECT $1::ulid::text = $4 AND $2::account_id::text = $5 AND $3::user_id::text = $6`,
			u, p, ti, u.String(), p.String(), ti.String()).Scan(&ok); err != nil || !ok {
			t.Errorf("%s: Valuer parameters: %v %v", name, err, ok)
		}
		var bad idgen.ULID
		if err := db.QueryRow(`SELECT 42`).Scan(&bad); err == nil {
			t.Errorf("%s: an integer scanned into a ULID", name)
		}
		if err := db.QueryRow(`SELECT NULL::ulid`).Scan(&bad); err == nil {
			t.Errorf("%s: NULL scanned into a ULID", name)
		}
		var zero idgen.PrefixedID
		var isNull bool
		if err := db.QueryRow(`SELECT $1::prefixed_id IS NULL`, zero).Scan(&isNull); err != nil || !isNull {
			t.Errorf("%s: a zero PrefixedID is not NULL: %v", name, err)
		}
	}
}

func mustOpen(t *testing.T, driver, dsn string) *sql.DB {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	return db
}
