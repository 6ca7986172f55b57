package test

import (
	"context"
	"testing"
	"time"

	idgen "github.com/idgen/idgen/clients/go"
	"github.com/jackc/pgx/v5"
)

// Decoding 1,000,000 rows per family with the binary codec and with text
// (the same query and Go type, results asked for in text: the server's
// output function and the package's parser), in one run. Prints each
// ratio; asserts only that both decode every row to the same values.
func TestSpeedBinaryVsText(t *testing.T) {
	conn := registered(t)
	ctx := context.Background()
	const n = 1000000
	if _, err := conn.Exec(ctx, `SET synchronize_seqscans = off`); err != nil {
		t.Fatal(err)
	}
	for _, family := range []struct{ name, query string }{
		{"ulid", `SELECT ulid() FROM generate_series(1, 1000000)`},
		{"prefixed_id", `SELECT prefixed_id_new('acct') FROM generate_series(1, 1000000)`},
		{"typeid", `SELECT typeid_new('user') FROM generate_series(1, 1000000)`},
		{"ksuid", `SELECT ksuid() FROM generate_series(1, 1000000)`},
		{"objectid", `SELECT objectid() FROM generate_series(1, 1000000)`},
		{"xid", `SELECT xid() FROM generate_series(1, 1000000)`},
	} {
		if _, err := conn.Exec(ctx, `CREATE TEMP TABLE speed_`+family.name+` AS `+family.query); err != nil {
			t.Fatal(err)
		}
		var warm int // the table read once before the timed runs
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM speed_`+family.name).Scan(&warm); err != nil || warm != n {
			t.Fatalf("%s: %d rows, %v", family.name, warm, err)
		}
		var elapsed [2]time.Duration
		var last [2]string
		for i, format := range []int16{pgx.BinaryFormatCode, pgx.TextFormatCode} {
			start := time.Now()
			rows, err := conn.Query(ctx, `SELECT * FROM speed_`+family.name, pgx.QueryResultFormats{format})
			if err != nil {
				t.Fatal(err)
			}
			count := 0
			for rows.Next() {
				var v any
				switch family.name {
				case "ulid":
					var u idgen.ULID
					err = rows.Scan(&u)
					v = u
				case "prefixed_id":
					var p idgen.PrefixedID
					err = rows.Scan(&p)
					v = p
				case "typeid":
					var ti idgen.TypeID
					err = rows.Scan(&ti)
					v = ti
				case "ksuid":
					var k idgen.KSUID
					err = rows.Scan(&k)
					v = k
				case "objectid":
					var o idgen.ObjectID
					err = rows.Scan(&o)
					v = o
				default:
					var x idgen.XID
					err = rows.Scan(&x)
					v = x
				}
				if err != nil {
					t.Fatal(err)
				}
				count++
				last[i] = v.(interface{ String() string }).String()
			}
			if rows.Err() != nil || count != n {
				t.Fatalf("%s: %d rows, %v", family.name, count, rows.Err())
			}
			elapsed[i] = time.Since(start)
		}
		if last[0] != last[1] {
			t.Errorf("%s: binary and text decode the last row differently: %s %s", family.name, last[0], last[1])
		}
		t.Logf("speed: pgx %s, %d rows: binary %v, text %v, text/binary %.2f", family.name, n,
			elapsed[0].Round(time.Millisecond), elapsed[1].Round(time.Millisecond), float64(elapsed[1])/float64(elapsed[0]))
		if _, err := conn.Exec(ctx, `DROP TABLE speed_`+family.name); err != nil {
			t.Fatal(err)
		}
	}
}
