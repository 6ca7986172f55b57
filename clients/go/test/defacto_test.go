package test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"testing"

	idgen "github.com/idgen/idgen/clients/go"
	pgxidgen "github.com/idgen/idgen/clients/go/pgx"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
)

// The formats' de-facto Go types, rs/xid's xid.ID and segmentio/ksuid's
// ksuid.KSUID, which neither published module requires: both are a
// driver.Valuer (their text; NULL for the zero value) and a sql.Scanner
// (from the text; NULL gives the zero value), so pgx hands the codecs their
// text, which goes in binary, and database/sql sends the text; and their
// underlying types are idgen.XID's and idgen.KSUID's, so a conversion takes
// one to the other.

// sqlDBs are database/sql handles through pgx's stdlib (with Register) and lib/pq.
func sqlDBs(t *testing.T) map[string]*sql.DB {
	t.Helper()
	connect(t)
	cfg, err := pgx.ParseConfig("search_path=gotest,public")
	if err != nil {
		t.Fatal(err)
	}
	pq := "sslmode=disable search_path=gotest,public"
	if host := os.Getenv("PGHOST"); host != "" {
		pq += " host=" + host
	}
	dbs := map[string]*sql.DB{"pgx stdlib": stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(pgxidgen.Register)),
		"lib/pq": mustOpen(t, "postgres", pq)}
	for _, db := range dbs {
		t.Cleanup(func() { db.Close() })
	}
	return dbs
}

func TestDeFactoTypesPgx(t *testing.T) {
	ctx := context.Background()
	setup := connect(t)
	if _, err := setup.Exec(ctx, `DROP TABLE IF EXISTS defacto_things; CREATE TABLE defacto_things (x rsxid, k ksuid)`); err != nil {
		t.Fatal(err)
	}
	for name, conn := range map[string]*pgx.Conn{"registered": registered(t), "unregistered": setup} {
		// README module begins
		id, k := xid.New(), ksuid.New()
		var backID xid.ID
		var backK ksuid.KSUID
		err := conn.QueryRow(ctx, `SELECT $1::rsxid, $2::ksuid`, id, k).Scan(&backID, &backK)
		// README module ends
		if err != nil || backID != id || backK != k {
			t.Errorf("%s: round trip: %v %s %s", name, err, backID, backK)
		}
		var text string
		if err := conn.QueryRow(ctx, `SELECT $1::rsxid::text || ' ' || $2::ksuid::text`, id, k).Scan(&text); err != nil ||
			text != id.String()+" "+k.String() {
			t.Errorf("%s: the server's text: %v %q", name, err, text)
		}
		// arrays need Register: pgx knows no array type of an OID it has not been given
		if name == "registered" {
			var ids []xid.ID
			var ks []ksuid.KSUID
			if err := conn.QueryRow(ctx, `SELECT $1::rsxid[], $2::ksuid[]`, []xid.ID{id, id}, []ksuid.KSUID{k, k.Next()}).
				Scan(&ids, &ks); err != nil || len(ids) != 2 || ids[1] != id || len(ks) != 2 || ks[1] != k.Next() {
				t.Errorf("the arrays: %v %v %v", err, ids, ks)
			}
		} else {
			// and binary COPY: pgx sends the text as the binary field, which the server refuses
			_, err := conn.CopyFrom(ctx, pgx.Identifier{"defacto_things"}, []string{"x"}, pgx.CopyFromRows([][]any{{id}}))
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != "22P03" {
				t.Errorf("unregistered CopyFrom of an xid.ID: %v", err)
			}
		}
		// the libraries' Valuer writes their zero value as NULL; their Scanner reads NULL as the zero value
		var isNull bool
		var fromNull xid.ID = id
		if err := conn.QueryRow(ctx, `SELECT $1::rsxid IS NULL AND $2::ksuid IS NULL, NULL::rsxid`, xid.NilID(), ksuid.Nil).
			Scan(&isNull, &fromNull); err != nil || !isNull || !fromNull.IsNil() {
			t.Errorf("%s: the zero values: NULL %v, NULL read as %s, %v", name, isNull, fromNull, err)
		}
		// an xid.ID is no ksuid, a ksuid.KSUID no rsxid
		if _, err := conn.Exec(ctx, `SELECT $1::ksuid`, id); err == nil {
			t.Errorf("%s: an xid.ID accepted as a ksuid", name)
		}
		if _, err := conn.Exec(ctx, `SELECT $1::rsxid`, k); err == nil {
			t.Errorf("%s: a ksuid.KSUID accepted as an rsxid", name)
		}
	}
	// the conversions, both ways, agree with the server's decoders
	conn := registered(t)
	// README module begins
	id := xid.New()
	x := idgen.XID(id) // and back: xid.ID(x)
	var k idgen.KSUID
	err := conn.QueryRow(ctx, `SELECT ksuid()`).Scan(&k)
	fromK := ksuid.KSUID(k)
	// README module ends
	if err != nil || x.String() != id.String() || xid.ID(x) != id || fromK.String() != k.String() || !fromK.Time().Equal(k.Time()) {
		t.Errorf("the conversions: %v %s %s %s %s", err, x, id, fromK, k)
	}
	var pid int
	if err := conn.QueryRow(ctx, `SELECT xid_pid($1)`, x).Scan(&pid); err != nil || pid != int(id.Pid()) || x.Pid() != pid {
		t.Errorf("the pid: the server %d, rs/xid %d, idgen %d, %v", pid, id.Pid(), x.Pid(), err)
	}
	// binary COPY from the libraries' values
	if n, err := conn.CopyFrom(ctx, pgx.Identifier{"defacto_things"}, []string{"x", "k"},
		pgx.CopyFromRows([][]any{{id, fromK}})); err != nil || n != 1 {
		t.Errorf("CopyFrom of xid.ID and ksuid.KSUID: %d %v", n, err)
	}
	var copied int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM defacto_things WHERE x = $1 AND k = $2`, x, k).Scan(&copied); err != nil || copied != 1 {
		t.Errorf("the copied row: %d %v", copied, err)
	}
}

func TestDeFactoTypesDatabaseSQL(t *testing.T) {
	for name, db := range sqlDBs(t) {
		id, k := xid.New(), ksuid.New()
		var backID xid.ID
		var backK ksuid.KSUID
		var text string
		if err := db.QueryRow(`SELECT $1::rsxid, $2::ksuid, $1::rsxid::text || $2::ksuid::text`, id, k).
			Scan(&backID, &backK, &text); err != nil || backID != id || backK != k || text != id.String()+k.String() {
			t.Errorf("%s: round trip: %v %s %s %q", name, err, backID, backK, text)
		}
		var minted xid.ID
		var mintedK ksuid.KSUID
		if err := db.QueryRow(`SELECT xid(), ksuid()`).Scan(&minted, &mintedK); err != nil || minted.IsNil() || mintedK.IsNil() {
			t.Errorf("%s: the generators' values: %v %s %s", name, err, minted, mintedK)
		}
		var isNull bool
		if err := db.QueryRow(`SELECT $1::rsxid IS NULL AND $2::ksuid IS NULL`, xid.NilID(), ksuid.Nil).Scan(&isNull); err != nil || !isNull {
			t.Errorf("%s: the zero values are not NULL: %v", name, err)
		}
	}
}
