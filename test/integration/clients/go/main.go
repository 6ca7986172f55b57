// idgen from Go, for real: pgx v4 and lib/pq (Debian's golang-github-jackc-pgx-v4-dev and
// golang-github-lib-pq-dev) against a database owned by a plain role. The migration runs in a
// pgx transaction; then every family goes through both drivers: DEFAULTs fire, RETURNING gives
// the values back as natural Go types, and each type filters, updates and deletes; and pgx reads
// and writes ulid in binary through the Ulid type of ulid.go.
//
// Connects with the PG* environment. Prints its plan ("plan<TAB>N"), then one verdict line
// per check ("ok<TAB>what", "not ok<TAB>what", "#<TAB>note"), which go.pl turns into TAP.
package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
	_ "github.com/lib/pq"
)

var failed int

// plan: the plan line, before the first verdict: n verdicts follow
func plan(n int) {
	fmt.Printf("plan\t%d\n", n)
}

func say(ok bool, what string) bool {
	verdict := "ok"
	if !ok {
		verdict = "not ok"
		failed++
	}
	fmt.Printf("%s\t%s\n", verdict, strings.Join(strings.Fields(what), " "))
	return ok
}

func note(format string, args ...interface{}) {
	for _, line := range strings.Split(fmt.Sprintf(format, args...), "\n") {
		fmt.Printf("#\t%s\n", line)
	}
}

// check: a verdict that fails, with the error as a note, when err is not nil
func check(what string, ok bool, err error) bool {
	if err != nil {
		note("%s: %v", what, err)
		ok = false
	}
	return say(ok, what)
}

var (
	uuidV7  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	ulidRe  = regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Z]{25}$`)
	acctRe  = regexp.MustCompile(`^acct_[0-9a-z]{25}$`)
	userRe  = regexp.MustCompile(`^user_[0-7][0-9a-hjkmnp-tv-z]{25}$`)
	errTest = errors.New("the test rolls this migration back on purpose")
)

// README snippet begins
// migrate: the schema, in one transaction, as the database's owner (idgen is a trusted extension)
func migrate(ctx context.Context, tx pgx.Tx) error {
	for _, stmt := range []string{
		`CREATE EXTENSION IF NOT EXISTS idgen`,
		`SELECT prefixed_id_define('account_id', 'acct')`,
		`SELECT typeid_define('user_id', 'user')`,
		`CREATE TABLE accounts (id account_id PRIMARY KEY, name text NOT NULL)`,
		`CREATE TABLE users (id user_id PRIMARY KEY, email text NOT NULL)`,
		`CREATE TABLE orders (
		     id         uuid PRIMARY KEY DEFAULT uuid_v7(),
		     ref        ulid NOT NULL DEFAULT ulid(),
		     account_id account_id NOT NULL REFERENCES accounts,
		     user_id    user_id DEFAULT NULL REFERENCES users,  -- else the domain's DEFAULT mints one
		     note       text)`,
		`CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake(7), kind text)`,
		`CREATE TABLE messages (id bigint PRIMARY KEY DEFAULT snowflake53(3), body text)`,
	} {
		if _, err := tx.Exec(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

// README snippet ends

func main() {
	// main's 3 checks, testPgx's 17, testPgxBinary's 11, testPq's 13
	plan(3 + 17 + 11 + 13)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "") // the PG* environment
	if err != nil {
		note("pgx connect: %v", err)
		os.Exit(1)
	}
	defer conn.Close(ctx)

	var superuser bool
	err = conn.QueryRow(ctx, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user").Scan(&superuser)
	check("pgx: connected as a role that is not a superuser", !superuser, err)

	// A migration that fails leaves nothing behind: the extension and the domains roll back too.
	err = conn.BeginFunc(ctx, func(tx pgx.Tx) error {
		if err := migrate(ctx, tx); err != nil {
			return err
		}
		return errTest
	})
	var left int
	err2 := conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen')
	    + (SELECT count(*) FROM pg_type WHERE typname IN ('account_id', 'user_id'))`).Scan(&left)
	check("pgx: a migration rolled back takes CREATE EXTENSION and the domains with it",
		errors.Is(err, errTest) && left == 0, err2)

	// README snippet begins
	err = conn.BeginFunc(ctx, func(tx pgx.Tx) error { return migrate(ctx, tx) })
	// README snippet ends
	var owner string
	err2 = conn.QueryRow(ctx, "SELECT extowner::regrole::text FROM pg_extension WHERE extname = 'idgen'").Scan(&owner)
	if !check("pgx: the migration commits, idgen owned by the database owner", err == nil && owner == os.Getenv("PGUSER"), firstErr(err, err2)) {
		os.Exit(1)
	}

	testPgx(ctx, conn)
	testPgxBinary(ctx)
	testPq(ctx)
	if failed > 0 {
		note("%d checks failed", failed)
	}
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// serverText: the server's text of one value of SQL (a query with $1)
func serverText(ctx context.Context, conn *pgx.Conn, sql string, args ...interface{}) string {
	var s string
	if err := conn.QueryRow(ctx, sql, args...).Scan(&s); err != nil {
		note("%s: %v", sql, err)
	}
	return s
}

// rowsAffected: how many rows an UPDATE or DELETE touched, -1 on an error
func rowsAffected(ctx context.Context, conn *pgx.Conn, sql string, args ...interface{}) int64 {
	tag, err := conn.Exec(ctx, sql, args...)
	if err != nil {
		note("%s: %v", sql, err)
		return -1
	}
	return tag.RowsAffected()
}

// testPgx: every family through pgx without any registration: strings, int64, [16]byte
func testPgx(ctx context.Context, conn *pgx.Conn) {
	// README snippet begins
	var accountID, userID string // prefixed_id and typeid domains: their text
	err := conn.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ($1) RETURNING id`, "Ada Ltd").Scan(&accountID)
	// README snippet ends
	check("pgx prefixed_id: the domain's DEFAULT fires, RETURNING scans into a string",
		acctRe.MatchString(accountID) &&
			serverText(ctx, conn, "SELECT id::text FROM accounts WHERE name = 'Ada Ltd'") == accountID, err)
	err = conn.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`, "ada@example.com").Scan(&userID)
	check("pgx typeid: the domain's DEFAULT fires, RETURNING scans into a string",
		userRe.MatchString(userID) &&
			serverText(ctx, conn, "SELECT id::text FROM users WHERE email = 'ada@example.com'") == userID, err)

	// README snippet begins
	var orderID [16]byte // uuid: also pgtype.UUID or string
	var ref string       // ulid: its text, unless a Ulid type is registered (ulid.go)
	err = conn.QueryRow(ctx, `INSERT INTO orders (account_id, user_id) VALUES ($1, $2) RETURNING id, ref`,
		accountID, userID).Scan(&orderID, &ref)
	// README snippet ends
	orderText := pgtype.UUID{Bytes: orderID, Status: pgtype.Present}
	var orderString string
	orderText.AssignTo(&orderString)
	check("pgx uuid_v7(): the DEFAULT fires, RETURNING scans the UUIDv7 into [16]byte",
		uuidV7.MatchString(orderString) &&
			serverText(ctx, conn, "SELECT id::text FROM orders WHERE ref = $1", ref) == orderString, err)
	check("pgx ulid: the DEFAULT fires, RETURNING scans the ULID into a string (text format)",
		ulidRe.MatchString(ref) && serverText(ctx, conn, "SELECT ref::text FROM orders WHERE id = $1", orderID) == ref, nil)
	var asUUID pgtype.UUID
	var asString string
	err = conn.QueryRow(ctx, `SELECT id, id FROM orders WHERE id = $1`, orderString).Scan(&asUUID, &asString)
	check("pgx uuid: a string parameter filters, and the key scans into pgtype.UUID and string",
		err == nil && asUUID.Bytes == orderID && asString == orderString, err)

	var eventID, messageID int64
	err = conn.QueryRow(ctx, `INSERT INTO events (kind) VALUES ($1) RETURNING id`, "signup").Scan(&eventID)
	check("pgx snowflake(7): the DEFAULT fires, RETURNING scans into int64",
		eventID >= 1<<53 && serverText(ctx, conn, "SELECT snowflake_shard($1)::text", eventID) == "7", err)
	err = conn.QueryRow(ctx, `INSERT INTO messages (body) VALUES ($1) RETURNING id`, "hi").Scan(&messageID)
	check("pgx snowflake53(3): the DEFAULT fires, RETURNING scans into int64 below 2^53",
		messageID > 0 && messageID < 1<<53 && serverText(ctx, conn, "SELECT snowflake53_shard($1)::text", messageID) == "3", err)

	// filter by each type, parameters as strings (or int64)
	var n int
	err = conn.QueryRow(ctx, `SELECT count(*) FROM orders o JOIN accounts a ON a.id = o.account_id
	    JOIN users u ON u.id = o.user_id WHERE o.ref = $1 AND a.id = $2 AND u.id = $3 AND o.id = $4`,
		ref, accountID, userID, orderString).Scan(&n)
	check("pgx: filter by ulid, prefixed_id, typeid and uuid with string parameters", n == 1, err)
	err = conn.QueryRow(ctx, `SELECT count(*) FROM orders WHERE ref = $1`, strings.ToLower(ref)).Scan(&n)
	check("pgx ulid: a lowercase string parameter finds the same row", n == 1, err)
	err = conn.QueryRow(ctx, `SELECT count(*) FROM events e, messages m WHERE e.id = $1 AND m.id = $2`, eventID, messageID).Scan(&n)
	check("pgx: filter by snowflake and snowflake53 with int64 parameters", n == 1, err)
	// README snippet begins
	refs := []string{ref, "01ARZ3NDEKTSV4RRFFQ69G5FAV"}
	err = conn.QueryRow(ctx, `SELECT count(*) FROM orders WHERE ref = ANY($1::text[]::ulid[])`, refs).Scan(&n)
	// README snippet ends
	check("pgx ulid: a []string parameter as $1::text[]::ulid[]", n == 1, err)

	// update by each type; a string parameter into a ulid column
	newRef := serverText(ctx, conn, "SELECT ulid()::text")
	check("pgx: UPDATE by uuid sets the ulid column from a string parameter",
		rowsAffected(ctx, conn, `UPDATE orders SET ref = $2 WHERE id = $1`, orderString, newRef) == 1 &&
			serverText(ctx, conn, "SELECT ref::text FROM orders WHERE id = $1", orderString) == newRef, nil)
	ref = newRef
	check("pgx: UPDATE by ulid, prefixed_id, typeid, snowflake, snowflake53",
		rowsAffected(ctx, conn, `UPDATE orders SET note = 'by ref' WHERE ref = $1`, ref) == 1 &&
			rowsAffected(ctx, conn, `UPDATE accounts SET name = 'Ada Limited' WHERE id = $1`, accountID) == 1 &&
			rowsAffected(ctx, conn, `UPDATE users SET email = 'ada@example.org' WHERE id = $1`, userID) == 1 &&
			rowsAffected(ctx, conn, `UPDATE events SET kind = 'login' WHERE id = $1`, eventID) == 1 &&
			rowsAffected(ctx, conn, `UPDATE messages SET body = 'hello' WHERE id = $1`, messageID) == 1 &&
			serverText(ctx, conn, `SELECT string_agg(x, ',') FROM (SELECT note AS x FROM orders UNION ALL
			    SELECT name FROM accounts UNION ALL SELECT email FROM users UNION ALL SELECT kind FROM events
			    UNION ALL SELECT body FROM messages) s`) == "by ref,Ada Limited,ada@example.org,login,hello", nil)
	var wrong error
	_, wrong = conn.Exec(ctx, `UPDATE orders SET account_id = $1 WHERE id = $2`, strings.Replace(accountID, "acct_", "acca_", 1), orderString)
	check("pgx prefixed_id: the domain refuses a string of another prefix (23514)",
		wrong != nil && strings.Contains(wrong.Error(), "23514"), nil)

	// delete by each type
	check("pgx: DELETE by ulid, prefixed_id, typeid, snowflake, snowflake53",
		rowsAffected(ctx, conn, `DELETE FROM orders WHERE ref = $1`, ref) == 1 &&
			rowsAffected(ctx, conn, `DELETE FROM accounts WHERE id = $1`, accountID) == 1 &&
			rowsAffected(ctx, conn, `DELETE FROM users WHERE id = $1`, userID) == 1 &&
			rowsAffected(ctx, conn, `DELETE FROM events WHERE id = $1`, eventID) == 1 &&
			rowsAffected(ctx, conn, `DELETE FROM messages WHERE id = $1`, messageID) == 1, nil)
	err = conn.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('x') RETURNING id`).Scan(&accountID)
	err = firstErr(err, conn.QueryRow(ctx, `INSERT INTO orders (account_id) VALUES ($1) RETURNING id`, accountID).Scan(&orderID))
	check("pgx uuid: DELETE by a [16]byte parameter",
		err == nil && rowsAffected(ctx, conn, `DELETE FROM orders WHERE id = $1`, orderID) == 1, err)

	// without registration, pgx asks for ulid results in text
	rows, err := conn.Query(ctx, `SELECT ulid()`)
	format := int16(-1)
	if err == nil {
		format = rows.FieldDescriptions()[0].Format
		rows.Close()
	}
	check("pgx: without a registered type, a ulid result comes in text format", format == pgx.TextFormatCode, err)
}

// README snippet begins
// connectIdgen: a pgx connection that reads and writes ulid in binary through Ulid
func connectIdgen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, "")
	if err != nil {
		return nil, err
	}
	var oid uint32 // differs from one database to the next
	if err := conn.QueryRow(ctx, "SELECT 'ulid'::regtype::oid").Scan(&oid); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	conn.ConnInfo().RegisterDataType(pgtype.DataType{Value: &Ulid{}, Name: "ulid", OID: oid})
	return conn, nil
}

// README snippet ends

// testPgxBinary: ulid in binary through the registered Ulid, checked against the server's text
func testPgxBinary(ctx context.Context) {
	conn, err := connectIdgen(ctx)
	if !check("pgx: connect and register Ulid for the ulid OID", err == nil, err) {
		return
	}
	defer conn.Close(ctx)

	var accountID string
	err = conn.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ('binary') RETURNING id`).Scan(&accountID)
	check("pgx binary connection: insert an account", err == nil, err)

	// README snippet begins
	var ref Ulid
	err = conn.QueryRow(ctx, `INSERT INTO orders (account_id) VALUES ($1) RETURNING ref`, accountID).Scan(&ref)
	// README snippet ends
	var text string
	var send []byte
	err2 := conn.QueryRow(ctx, `SELECT ref::text, uuid_send(ref::uuid) FROM orders WHERE ref = $1`, ref).Scan(&text, &send)
	check("pgx binary ulid: RETURNING decodes 16 bytes that print as the server's text",
		err == nil && ref.Status == pgtype.Present && ref.String() == text && ulidRe.MatchString(text), firstErr(err, err2))
	check("pgx binary ulid: the bytes are the server's send bytes",
		len(send) == 16 && string(send) == string(ref.Bytes[:]), nil)

	rows, err := conn.Query(ctx, `SELECT ref FROM orders WHERE ref = $1`, ref)
	format := int16(-1)
	var count int
	if err == nil {
		format = rows.FieldDescriptions()[0].Format
		for rows.Next() {
			count++
		}
		rows.Close()
		err = rows.Err()
	}
	check("pgx binary ulid: with Ulid registered the result comes in binary format, and a Ulid parameter filters",
		format == pgx.BinaryFormatCode && count == 1, err)

	var back string
	err = conn.QueryRow(ctx, `SELECT $1::ulid::text`, ref).Scan(&back)
	check("pgx binary ulid: a Ulid parameter round-trips to the same server text", back == text, err)
	var asString string
	err = conn.QueryRow(ctx, `SELECT ref FROM orders WHERE ref = $1`, text).Scan(&asString)
	check("pgx binary ulid: a binary result still scans into a string, and a string parameter still works",
		asString == text, err)

	// many values: the codec against the server's text and bytes
	rows, err = conn.Query(ctx, `SELECT u, u::text, uuid_send(u::uuid) FROM (SELECT ulid() AS u FROM generate_series(1, 200)
	    UNION ALL SELECT '00000000000000000000000000' UNION ALL SELECT '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'
	    UNION ALL SELECT ulid_boundary(now())) s`)
	bad, seen := 0, 0
	if err == nil {
		for rows.Next() {
			var u Ulid
			var t string
			var b []byte
			if err := rows.Scan(&u, &t, &b); err != nil {
				bad++
				continue
			}
			seen++
			parsed, perr := ParseUlid(t)
			if u.String() != t || string(b) != string(u.Bytes[:]) || perr != nil || parsed.Bytes != u.Bytes {
				bad++
			}
		}
		rows.Close()
		err = rows.Err()
	}
	check("pgx binary ulid: 203 values (with the smallest and largest) decode and parse as the server prints them",
		seen == 203 && bad == 0, err)

	_, err = conn.Exec(ctx, `CREATE TEMP TABLE imported (ref ulid PRIMARY KEY, note text)`)
	// README snippet begins
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"imported"}, []string{"ref", "note"},
		pgx.CopyFromRows([][]interface{}{{ref2(), "copied"}}))
	// README snippet ends
	check("pgx binary COPY: CopyFrom writes a Ulid in binary",
		n == 1 && serverText(ctx, conn, `SELECT ref::text FROM imported`) == ref2().String(), err)
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"orders"}, []string{"ref", "account_id"},
		pgx.CopyFromRows([][]interface{}{{ref2(), accountID}}))
	note("CopyFrom with a string into a prefixed_id domain: %v", err)
	check("pgx binary COPY: CopyFrom of a string into a prefixed_id domain (no codec) is refused with 22P03",
		err != nil && strings.Contains(err.Error(), "22P03"), nil)

	plain, err := pgx.Connect(ctx, "")
	if err == nil {
		defer plain.Close(ctx)
		_, err = plain.CopyFrom(ctx, pgx.Identifier{"orders"}, []string{"ref", "account_id"},
			pgx.CopyFromRows([][]interface{}{{"01ARZ3NDEKTSV4RRFFQ69G5FAV", accountID}}))
		note("CopyFrom with a string into ulid without Ulid registered: %v", err)
		check("pgx binary COPY: without Ulid registered, CopyFrom of a string into ulid is refused with 22P03",
			err != nil && strings.Contains(err.Error(), "22P03"), nil)
	}
}

// ref2: a client-made ULID (a fixed one, for the COPY)
func ref2() Ulid {
	u, _ := ParseUlid("01ARZ3NDEKTSV4RRFFQ69G5FAV")
	return u
}

// testPq: every family through lib/pq and database/sql, all in text
func testPq(ctx context.Context) {
	// README snippet begins
	db, err := sql.Open("postgres", "sslmode=disable") // and the PG* environment
	// README snippet ends
	if !check("pq: open", err == nil, err) {
		return
	}
	defer db.Close()
	var superuser bool
	err = db.QueryRow("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").Scan(&superuser)
	check("pq: connected as a role that is not a superuser", err == nil && !superuser, err)

	server := func(query string, args ...interface{}) string {
		var s string
		if err := db.QueryRow(query, args...).Scan(&s); err != nil {
			note("%s: %v", query, err)
		}
		return s
	}
	affected := func(query string, args ...interface{}) int64 {
		res, err := db.Exec(query, args...)
		if err != nil {
			note("%s: %v", query, err)
			return -1
		}
		n, _ := res.RowsAffected()
		return n
	}

	var accountID, userID string
	err = db.QueryRow(`INSERT INTO accounts (name) VALUES ($1) RETURNING id`, "pq Ltd").Scan(&accountID)
	check("pq prefixed_id: the domain's DEFAULT fires, RETURNING scans into a string",
		acctRe.MatchString(accountID) && server("SELECT id::text FROM accounts WHERE name = 'pq Ltd'") == accountID, err)
	err = db.QueryRow(`INSERT INTO users (email) VALUES ($1) RETURNING id`, "pq@example.com").Scan(&userID)
	check("pq typeid: the domain's DEFAULT fires, RETURNING scans into a string",
		userRe.MatchString(userID) && server("SELECT id::text FROM users WHERE email = 'pq@example.com'") == userID, err)

	// README snippet begins
	var orderID pgtype.UUID // a sql.Scanner; or a string
	var ref string
	err = db.QueryRow(`INSERT INTO orders (account_id, user_id) VALUES ($1, $2) RETURNING id, ref`,
		accountID, userID).Scan(&orderID, &ref)
	// README snippet ends
	var orderString string
	orderID.AssignTo(&orderString)
	check("pq uuid_v7(): the DEFAULT fires, RETURNING scans the UUIDv7 into pgtype.UUID",
		err == nil && uuidV7.MatchString(orderString) && server("SELECT id::text FROM orders WHERE ref = $1", ref) == orderString, err)
	check("pq ulid: the DEFAULT fires, RETURNING scans the ULID into a string",
		ulidRe.MatchString(ref) && server("SELECT ref::text FROM orders WHERE id = $1", orderString) == ref, nil)

	var eventID, messageID int64
	err = db.QueryRow(`INSERT INTO events (kind) VALUES ($1) RETURNING id`, "signup").Scan(&eventID)
	check("pq snowflake(7): the DEFAULT fires, RETURNING scans into int64",
		eventID >= 1<<53 && server("SELECT snowflake_shard($1)::text", eventID) == "7", err)
	err = db.QueryRow(`INSERT INTO messages (body) VALUES ($1) RETURNING id`, "hi").Scan(&messageID)
	check("pq snowflake53(3): the DEFAULT fires, RETURNING scans into int64 below 2^53",
		messageID > 0 && messageID < 1<<53 && server("SELECT snowflake53_shard($1)::text", messageID) == "3", err)

	var n int
	err = db.QueryRow(`SELECT count(*) FROM orders o JOIN accounts a ON a.id = o.account_id
	    JOIN users u ON u.id = o.user_id WHERE o.ref = $1 AND a.id = $2 AND u.id = $3 AND o.id = $4`,
		ref, accountID, userID, orderString).Scan(&n)
	check("pq: filter by ulid, prefixed_id, typeid and uuid with string parameters", n == 1, err)
	err = db.QueryRow(`SELECT count(*) FROM events e, messages m WHERE e.id = $1 AND m.id = $2`, eventID, messageID).Scan(&n)
	check("pq: filter by snowflake and snowflake53 with int64 parameters", n == 1, err)

	newRef := server("SELECT ulid()::text")
	check("pq: UPDATE by uuid sets the ulid column from a string parameter",
		affected(`UPDATE orders SET ref = $2 WHERE id = $1`, orderString, newRef) == 1 &&
			server("SELECT ref::text FROM orders WHERE id = $1", orderString) == newRef, nil)
	ref = newRef
	check("pq: UPDATE by ulid, prefixed_id, typeid, snowflake, snowflake53",
		affected(`UPDATE orders SET note = 'pq' WHERE ref = $1`, ref) == 1 &&
			affected(`UPDATE accounts SET name = 'pq Limited' WHERE id = $1`, accountID) == 1 &&
			affected(`UPDATE users SET email = 'pq@example.org' WHERE id = $1`, userID) == 1 &&
			affected(`UPDATE events SET kind = 'login' WHERE id = $1`, eventID) == 1 &&
			affected(`UPDATE messages SET body = 'hello' WHERE id = $1`, messageID) == 1 &&
			server(`SELECT concat_ws(',', (SELECT note FROM orders WHERE ref = $1), (SELECT name FROM accounts WHERE id = $2),
			    (SELECT email FROM users WHERE id = $3), (SELECT kind FROM events WHERE id = $4),
			    (SELECT body FROM messages WHERE id = $5))`, ref, accountID, userID, eventID, messageID) ==
				"pq,pq Limited,pq@example.org,login,hello", nil)
	check("pq: DELETE by ulid, prefixed_id, typeid, snowflake, snowflake53",
		affected(`DELETE FROM orders WHERE ref = $1`, ref) == 1 &&
			affected(`DELETE FROM accounts WHERE id = $1`, accountID) == 1 &&
			affected(`DELETE FROM users WHERE id = $1`, userID) == 1 &&
			affected(`DELETE FROM events WHERE id = $1`, eventID) == 1 &&
			affected(`DELETE FROM messages WHERE id = $1`, messageID) == 1, nil)
}
