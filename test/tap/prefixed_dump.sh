#!/usr/bin/env bash
# prefixed IDs through pg_dump and restore: a database with types made by
# prefixed_id_define() (one of them in another schema), tables keyed by them
# and a plain prefixed_id column is dumped in the custom format (restored with
# pg_restore) and as plain SQL (restored with psql). The copies must hold the
# same rows and the same prefixed_id_registry, and their domains must still
# check prefixes, mint IDs by DEFAULT and refuse a prefix that is taken.
# Needs a preloaded server (PG* env).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh  # PG_BIN: pg_dump and pg_restore of the server's major version

src=idgen_prefixed_dump
custom=idgen_prefixed_dump_custom
plain=idgen_prefixed_dump_plain

work=$(mktemp -d /tmp/idgen-dump.XXXXXX)
chmod 700 "$work"  # pg_dump and pg_restore run as this user, over the socket
cleanup() {
    export PGDATABASE=postgres
    dropdb --if-exists "$src" 2>/dev/null
    dropdb --if-exists "$custom" 2>/dev/null
    dropdb --if-exists "$plain" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# qd DB SQL: q in database DB.
qd() {
    PGDATABASE=$1 q "$2"
}

# fails_with DB SQL LINE: SQL fails in DB and its verbose error output has LINE.
fails_with() {
    local out
    out=$(PGDATABASE=$1 psql -XAtq -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -c "$2" 2>&1) && {
        echo "# unexpectedly succeeded: $out"
        return 1
    }
    grep -qxF "$3" <<<"$out" && return 0
    sed 's/^/# /' <<<"$out"
    return 1
}

# fingerprint DB TABLE: row count and md5 of every row's text, in id order.
fingerprint() {
    qd "$1" "SELECT count(*) || ' ' || md5(coalesce(string_agg(t::text, ',' ORDER BY t.id, t.note), ''))
             FROM $2 t"
}

# registry DB: the registry as text; types are named as seen from "$user", public.
registry() {
    qd "$1" "SELECT string_agg(prefix || '|' || type::text || '|' || token, ' ' ORDER BY prefix)
             FROM prefixed_id_registry"
}

# domains DB: each prefixed_id domain with its schema, default and constraint
# (both deparsed in this session, so the search_path they were made under
# does not matter).
domains() {
    qd "$1" "SELECT string_agg(format('%s.%s default %s %s', n.nspname, t.typname,
                                      pg_get_expr(t.typdefaultbin, 0),
                                      pg_get_constraintdef(c.oid)), ' ; ' ORDER BY t.typname)
             FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
             JOIN pg_constraint c ON c.contypid = t.oid
             WHERE t.typtype = 'd' AND t.typbasetype = 'prefixed_id'::regtype"
}

long_prefix=$(printf 'a%.0s' $(seq 1 63))

# 1. The source database (and no copies left over from an interrupted run).
dropdb --if-exists "$custom" 2>/dev/null
dropdb --if-exists "$plain" 2>/dev/null
fresh_database "$src" || exit 1
is "prefixed_id_define('account_id', 'acct') returns the new type" \
    "$(q "SELECT prefixed_id_define('account_id', 'acct')")" account_id
is "prefixed_id_define('session_token', 'sess', token => true) returns the new type" \
    "$(q "SELECT prefixed_id_define('session_token', 'sess', token => true)")" session_token
q "CREATE SCHEMA billing" || exit 1
is "with search_path = billing, public, prefixed_id_define('invoice_id', 'inv') returns the new type" \
    "$(q "SET search_path = billing, public; SELECT prefixed_id_define('invoice_id', 'inv')")" invoice_id
is "the domains are public.account_id, public.session_token and billing.invoice_id" \
    "$(q "SELECT string_agg(name, ' ' ORDER BY name)
          FROM (SELECT typnamespace::regnamespace || '.' || typname AS name FROM pg_type
                WHERE typtype = 'd' AND typbasetype = 'prefixed_id'::regtype) d")" \
    "billing.invoice_id public.account_id public.session_token"
registry_expected="acct|account_id|false inv|billing.invoice_id|false sess|session_token|true"
is "the source registry lists the three types" "$(registry "$src")" "$registry_expected"

check "tables keyed by each domain, and one with a plain prefixed_id column and an index, are created" \
    q "CREATE TABLE accounts (id account_id PRIMARY KEY, note text);
       CREATE TABLE sessions (id session_token PRIMARY KEY, account account_id REFERENCES accounts, note text);
       CREATE TABLE billing.invoices (id billing.invoice_id PRIMARY KEY, account account_id REFERENCES accounts,
                                      note text);
       CREATE TABLE mixed (id prefixed_id, note text NOT NULL);
       CREATE INDEX mixed_id ON mixed (id)"
check "1000 rows each get their IDs from the domains' DEFAULT" \
    q "INSERT INTO accounts (note) SELECT 'a' || n FROM generate_series(1, 1000) n;
       INSERT INTO sessions (account, note)
       SELECT id, 's' || row_number() OVER (ORDER BY id) FROM accounts;
       INSERT INTO billing.invoices (account, note)
       SELECT id, 'i' || row_number() OVER (ORDER BY id) FROM accounts"
check "the plain column holds several prefixes, the smallest and largest body, a 63-letter prefix and a NULL" \
    q "INSERT INTO mixed VALUES
           ('acct_0000000000000000000000000', 'zero'),
           ('acct_f5lxx1zz5pnorynqglhzmsp33', 'max'),
           ('user_session_F5LXX1ZZ5PNORYNQGLHZMSP33', 'max upper case'),
           (prefixed_id_from_uuid('sess', 'ffffffff-ffff-ffff-ffff-ffffffffffff'), 'max from uuid'),
           ((repeat('a', 63) || '_0000000000000000000000001')::prefixed_id, 'long prefix'),
           ('x_00000000000000000000000zz', 'one letter'),
           (NULL, 'null');
       INSERT INTO mixed SELECT prefixed_id_new('inv'), 'new ' || n FROM generate_series(1, 100) n;
       INSERT INTO mixed SELECT prefixed_id_token('tok'), 'token ' || n FROM generate_series(1, 100) n"
is "row counts: 1000 accounts, 1000 sessions, 1000 invoices, 207 mixed" \
    "$(q "SELECT (SELECT count(*) FROM accounts) || ' ' || (SELECT count(*) FROM sessions) || ' '
                 || (SELECT count(*) FROM billing.invoices) || ' ' || (SELECT count(*) FROM mixed)")" \
    "1000 1000 1000 207"
is "the DEFAULT IDs carry their prefixes" \
    "$(q "SELECT (SELECT string_agg(DISTINCT prefixed_id_prefix(id), ',') FROM accounts) || ' '
                 || (SELECT string_agg(DISTINCT prefixed_id_prefix(id), ',') FROM sessions) || ' '
                 || (SELECT string_agg(DISTINCT prefixed_id_prefix(id), ',') FROM billing.invoices)")" \
    "acct sess inv"

# 2. Custom format, restored with pg_restore.
check "pg_dump -Fc succeeds" \
    "$PG_BIN/pg_dump" -Fc -d "$src" -f "$work/db.dump"
# pg_dump writes table data with COPY in text form, never binary: the values
# go through prefixed_id_out and back through prefixed_id_in, so the binary
# format (send/recv, changed in 0.5.0) plays no part in a dump.
check "the custom dump holds prefixed_id values as COPY text (pg_restore -f - shows them)" \
    bash -c "'$PG_BIN/pg_restore' -f - '$work/db.dump' |
             grep -qxP 'acct_f5lxx1zz5pnorynqglhzmsp33\tmax'"
check "createdb $custom (without the extension)" createdb "$custom"
check "pg_restore --exit-on-error succeeds" \
    "$PG_BIN/pg_restore" --exit-on-error -d "$custom" "$work/db.dump" 2>"$work/pg_restore.err"
is "pg_restore reported nothing on stderr" "$(cat "$work/pg_restore.err")" ""

# check_copy DB: the restored database DB against the source.
check_copy() {
    local db=$1 t
    is "$db: the registry equals the source's" "$(registry "$db")" "$(registry "$src")"
    is "$db: the registry is still a configuration table of the extension (a later dump keeps it)" \
        "$(qd "$db" "SELECT 'prefixed_id_registry'::regclass = ANY (extconfig) FROM pg_extension
                     WHERE extname = 'idgen'")" t
    is "$db: every registry row names a prefixed_id domain" \
        "$(qd "$db" "SELECT count(*) FROM prefixed_id_registry r JOIN pg_type t ON t.oid = r.type
                     WHERE t.typtype = 'd' AND t.typbasetype = 'prefixed_id'::regtype")" 3
    is "$db: the domains, their DEFAULTs and CHECKs equal the source's" "$(domains "$db")" "$(domains "$src")"
    for t in accounts sessions billing.invoices mixed; do
        is "$db: $t has the same rows ($(fingerprint "$src" "$t"))" \
            "$(fingerprint "$db" "$t")" "$(fingerprint "$src" "$t")"
    done
    is "$db: the largest body in upper case came back as lowercase text" \
        "$(qd "$db" "SELECT id FROM mixed WHERE note = 'max upper case'")" \
        "user_session_f5lxx1zz5pnorynqglhzmsp33"
    is "$db: the NULL is still NULL" "$(qd "$db" "SELECT id IS NULL FROM mixed WHERE note = 'null'")" t
    is "$db: the index on mixed.id is valid" \
        "$(qd "$db" "SELECT indisvalid FROM pg_index WHERE indexrelid = 'mixed_id'::regclass")" t
    # Lookups through the index (sequential and bitmap scans disabled): the
    # largest acct body, the zero body and the 63-letter prefix; then the NULL.
    local by_value="SELECT string_agg(note, ',' ORDER BY note) FROM mixed
                    WHERE id IN ('acct_f5lxx1zz5pnorynqglhzmsp33', 'acct_0000000000000000000000000',
                                 '${long_prefix}_0000000000000000000000001')"
    local by_null="SELECT string_agg(note, ',') FROM mixed WHERE id IS NULL"
    local no_scan="SET enable_seqscan = off; SET enable_bitmapscan = off;"
    check "$db: lookups by value and by NULL are planned as index scans of mixed_id" \
        test "$(qd "$db" "$no_scan EXPLAIN (COSTS OFF) $by_value; EXPLAIN (COSTS OFF) $by_null" |
                grep -cE 'Index (Only )?Scan using mixed_id')" -eq 2
    is "$db: the index scan by value finds the three rows" \
        "$(qd "$db" "$no_scan $by_value")" "long prefix,max,zero"
    is "$db: the index scan for NULL finds the NULL row" "$(qd "$db" "$no_scan $by_null")" null
    check "$db: inserting a sess_ ID into accounts fails on the account_id check" \
        fails_with "$db" "INSERT INTO accounts VALUES ('sess_0000000000000000000000001', 'wrong')" \
        'ERROR:  23514: value for domain account_id violates check constraint "account_id_prefix"'
    check "$db: inserting an acct_ ID into billing.invoices fails on the invoice_id check" \
        fails_with "$db" "INSERT INTO billing.invoices (id) VALUES ('acct_0000000000000000000000001')" \
        'ERROR:  23514: value for domain billing.invoice_id violates check constraint "invoice_id_prefix"'
    is "$db: DEFAULT mints an acct_ ID above every restored one" \
        "$(qd "$db" "WITH new AS (INSERT INTO accounts (note) VALUES ('after restore') RETURNING id)
                     SELECT prefixed_id_prefix(id) || ' ' || (id > (SELECT id FROM accounts WHERE note <> 'after restore'
                                                                    ORDER BY id DESC LIMIT 1))
                     FROM new")" "acct true"
    is "$db: DEFAULT mints sess_ and inv_ IDs" \
        "$(qd "$db" "WITH a AS (SELECT id FROM accounts WHERE note = 'after restore'),
                          s AS (INSERT INTO sessions (account) SELECT id FROM a RETURNING id),
                          i AS (INSERT INTO billing.invoices (account) SELECT id FROM a RETURNING id)
                     SELECT (SELECT prefixed_id_prefix(id) FROM s) || ' ' || (SELECT prefixed_id_prefix(id) FROM i)")" \
        "sess inv"
    is "$db: prefixed_id_type resolves a restored ID of each type" \
        "$(qd "$db" "SELECT prefixed_id_type((SELECT id FROM accounts ORDER BY id LIMIT 1)::text) || ' '
                     || prefixed_id_type((SELECT id FROM sessions ORDER BY id LIMIT 1)::text) || ' '
                     || prefixed_id_type((SELECT id FROM billing.invoices ORDER BY id LIMIT 1)::text)")" \
        "account_id session_token billing.invoice_id"
    is "$db: prefixed_id_type gives the restored domain itself" \
        "$(qd "$db" "SELECT prefixed_id_type('inv_0000000000000000000000001') = 'billing.invoice_id'::regtype")" t
    check "$db: defining another type with the restored prefix acct fails with 42710" \
        fails_with "$db" "SELECT prefixed_id_define('other_account_id', 'acct')" \
        'ERROR:  42710: prefix "acct" is already used by type public.account_id'
    check "$db: defining another type with the restored token prefix sess fails with 42710" \
        fails_with "$db" "SELECT prefixed_id_define('other_session', 'sess', true)" \
        'ERROR:  42710: prefix "sess" is already used by type public.session_token'
    is "$db: a new prefix can still be defined" \
        "$(qd "$db" "SELECT prefixed_id_define('user_id', 'user')")" user_id
}
check_copy "$custom"

# 3. Plain SQL, restored with psql: the text form of every value goes through
#    prefixed_id_in again.
check "pg_dump -Fp succeeds" \
    "$PG_BIN/pg_dump" -Fp -d "$src" -f "$work/db.sql"
check "the plain dump restores the registry rows with COPY" \
    grep -qx 'COPY public.prefixed_id_registry (prefix, type, token) FROM stdin;' "$work/db.sql"
check "the plain dump holds prefixed_id values as COPY text" \
    bash -c "grep -qx 'COPY public.mixed (id, note) FROM stdin;' '$work/db.sql' &&
             grep -qxP 'user_session_f5lxx1zz5pnorynqglhzmsp33\tmax upper case' '$work/db.sql'"
check "createdb $plain (without the extension)" createdb "$plain"
check "psql -v ON_ERROR_STOP=1 restores the plain dump" \
    psql -Xq -v ON_ERROR_STOP=1 -d "$plain" -f "$work/db.sql" -o /dev/null
check_copy "$plain"

tap_done
