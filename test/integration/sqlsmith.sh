#!/usr/bin/env bash
# SQL fuzzing with sqlsmith (Debian package sqlsmith): random queries against
# a database with idgen and tables of every idgen type and family (uuid_v7(),
# snowflake bigints, ulid, prefixed_id, typeid, domains made by prefixed_id_define
# and typeid_define,
# with indexes and rows), on a throwaway cluster of its own. Errors are fine;
# a backend killed by a signal, a TRAP or PANIC in the log, a lost connection
# or a server that stops answering is not. The checks also read sqlsmith's own
# count of the queries it ran, so a sqlsmith that did nothing fails.
#
# sqlsmith runs as idgen_fuzz, a role that is not a superuser and owns the
# tables: random calls to superuser-only functions (pg_read_file,
# pg_terminate_backend of other roles, pg_reload_conf...) fail instead of
# killing backends or touching files. pg_terminate_backend and
# pg_cancel_backend are also revoked from PUBLIC in that database, so that a
# query cannot end sqlsmith's own session, which would look like a crash.
# sqlsmith runs each query in a transaction it rolls back, with a 1 s
# statement_timeout of its own.
#
#   IDGEN_SQLSMITH_QUERIES   queries to run (default 3000; the long run in docs/development.md: 100000)
#   IDGEN_SQLSMITH_SEED      sqlsmith's --seed (default 14)
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

queries=${IDGEN_SQLSMITH_QUERIES:-3000}
seed=${IDGEN_SQLSMITH_SEED:-14}
db=idgen_sqlsmith
role=idgen_fuzz

if ! command -v sqlsmith >/dev/null; then
    echo "not ok 1 - sqlsmith is installed (Debian package sqlsmith; bash test/setup.sh installs it)"
    exit 1
fi
dir=$(mktemp -d /tmp/idgen-sqlsmith.XXXXXX)
trap 'cluster_stop "$dir"' EXIT
# log_min_messages = log: the query errors stay out of the log, crash reports
# (LOG and above) and TRAP lines stay in. track_functions counts the calls of
# idgen's functions, to show that the queries reached them.
cluster_start "$dir" "shared_preload_libraries = 'idgen'" "fsync = off" "idgen.shard_id = 7" \
    "track_functions = 'all'" "log_min_messages = log" || exit 1

check "a database owned by the non-superuser $role, with idgen and the domains account_id and session_token" \
    psql -XAtq -v ON_ERROR_STOP=1 -o /dev/null <<SQL
CREATE ROLE $role LOGIN;
CREATE DATABASE $db OWNER $role;
\\connect $db
CREATE EXTENSION idgen;
SELECT prefixed_id_define('account_id', 'acct');
SELECT prefixed_id_define('session_token', 'sess', token => true);
ALTER DOMAIN account_id OWNER TO $role;
ALTER DOMAIN session_token OWNER TO $role;
SELECT typeid_define('member_tid', 'mbr');
ALTER DOMAIN member_tid OWNER TO $role;
REVOKE EXECUTE ON FUNCTION pg_terminate_backend(integer, bigint), pg_cancel_backend(integer) FROM PUBLIC;
SQL
export PGDATABASE=$db

# The tables are filled by the superuser (minting needs no grant that a later
# change could take from $role), then handed to $role.
check "tables of every idgen type and family, with indexes, rows, NULLs and extreme values" \
    psql -XAtq -v ON_ERROR_STOP=1 -o /dev/null <<'SQL'
CREATE TABLE uuid_ids (id uuid PRIMARY KEY DEFAULT uuid_v7(), earlier uuid DEFAULT uuid_v7('-1 hour'),
                       minted timestamptz DEFAULT clock_timestamp(), note text);
CREATE INDEX ON uuid_ids (earlier);
CREATE TABLE snowflake_ids (id bigint PRIMARY KEY DEFAULT snowflake(), other bigint, note text);
CREATE INDEX ON snowflake_ids (other);
CREATE TABLE ulid_ids (id ulid PRIMARY KEY DEFAULT ulid(), other ulid, note text);
CREATE INDEX ON ulid_ids USING hash (other);
CREATE INDEX ON ulid_ids USING brin (id);
CREATE TABLE prefixed_ids (id prefixed_id PRIMARY KEY DEFAULT prefixed_id_new('inv'),
                           token prefixed_id DEFAULT prefixed_id_token('tok'), note text);
CREATE INDEX ON prefixed_ids USING hash (token);
CREATE TABLE typeid_ids (id typeid PRIMARY KEY DEFAULT typeid_new('usr'), bare typeid DEFAULT typeid_new(''),
                         member member_tid DEFAULT typeid_new('mbr'), note text);
CREATE INDEX ON typeid_ids USING hash (bare);
CREATE TABLE accounts (id account_id PRIMARY KEY, session session_token UNIQUE, note text);
CREATE TABLE everything (u uuid, s bigint, l ulid, p prefixed_id, a account_id, t session_token,
                         at timestamptz, n integer, txt text);
CREATE INDEX ON everything (l, p);
CREATE INDEX ON everything (s);
CREATE VIEW fresh_ids AS
    SELECT uuid_v7() AS u, snowflake() AS s, ulid() AS l, prefixed_id_new('view') AS p;

INSERT INTO uuid_ids (note) SELECT 'u' || n FROM generate_series(1, 200) n;
INSERT INTO snowflake_ids (other, note)
    SELECT CASE WHEN n % 10 <> 0 THEN snowflake(n % 1024) END, 's' || n FROM generate_series(1, 200) n;
INSERT INTO ulid_ids (other, note)
    SELECT CASE WHEN n % 10 <> 0 THEN ulid_at(now() - n * interval '1 day') END, 'l' || n
    FROM generate_series(1, 200) n;
INSERT INTO prefixed_ids (note) SELECT 'p' || n FROM generate_series(1, 200) n;
INSERT INTO accounts (note) SELECT 'a' || n FROM generate_series(1, 200) n;
INSERT INTO typeid_ids (note) SELECT 't' || n FROM generate_series(1, 200) n;
INSERT INTO typeid_ids (id, bare, member, note) VALUES
    ('usr_00000000000000000000000000', '7zzzzzzzzzzzzzzzzzzzzzzzzz', NULL, 'extremes'),
    ((repeat('z', 63) || '_7zzzzzzzzzzzzzzzzzzzzzzzzz')::typeid, NULL,
     typeid_boundary('mbr', '2024-01-01+00'), 'longest');
UPDATE accounts SET session = DEFAULT WHERE note <> 'a1';
INSERT INTO everything
    SELECT u.id, s.id, l.id, p.id, a.id, a.session, u.minted, n, 'row ' || n
    FROM generate_series(1, 200) n
    JOIN uuid_ids u ON u.note = 'u' || n JOIN snowflake_ids s ON s.note = 's' || n
    JOIN ulid_ids l ON l.note = 'l' || n JOIN prefixed_ids p ON p.note = 'p' || n
    JOIN accounts a ON a.note = 'a' || n;
INSERT INTO everything VALUES
    (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'all NULL'),
    ('00000000-0000-0000-0000-000000000000', 0, '00000000000000000000000000',
     'acct_0000000000000000000000000', 'acct_0000000000000000000000000', 'sess_0000000000000000000000000',
     '-infinity', 0, 'smallest'),
    ('ffffffff-ffff-ffff-ffff-ffffffffffff', 9223372036854775807, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
     (repeat('z', 63) || '_f5lxx1zz5pnorynqglhzmsp33')::prefixed_id, 'acct_f5lxx1zz5pnorynqglhzmsp33',
     'sess_f5lxx1zz5pnorynqglhzmsp33', 'infinity', 2147483647, 'largest'),
    (uuid_v7_boundary('2024-01-01+00'), snowflake_boundary('2024-01-01+00', 1023),
     ulid_boundary('1970-01-01+00'), prefixed_id_boundary('x', '2024-01-01+00'), NULL, NULL,
     '2024-01-01+00', -1, 'boundaries');
ANALYZE;

ALTER TABLE uuid_ids OWNER TO idgen_fuzz;
ALTER TABLE snowflake_ids OWNER TO idgen_fuzz;
ALTER TABLE ulid_ids OWNER TO idgen_fuzz;
ALTER TABLE prefixed_ids OWNER TO idgen_fuzz;
ALTER TABLE accounts OWNER TO idgen_fuzz;
ALTER TABLE typeid_ids OWNER TO idgen_fuzz;
ALTER TABLE everything OWNER TO idgen_fuzz;
ALTER VIEW fresh_ids OWNER TO idgen_fuzz;
SQL
is "$role is not a superuser and owns the 7 tables and the view" \
    "$(q "SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = '$role') || ' '
                 || (SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace
                     AND relkind IN ('r', 'v') AND relowner = '$role'::regrole)")" "false 8"
is "row counts: 204 in everything, 202 in typeid_ids, 200 in each other table" \
    "$(q "SELECT (SELECT count(*) FROM everything) || ' ' || (SELECT count(*) FROM uuid_ids) || ' '
                 || (SELECT count(*) FROM snowflake_ids) || ' ' || (SELECT count(*) FROM ulid_ids) || ' '
                 || (SELECT count(*) FROM prefixed_ids) || ' ' || (SELECT count(*) FROM accounts) || ' '
                 || (SELECT count(*) FROM typeid_ids)")" \
    "204 200 200 200 200 200 202"
q "SELECT pg_stat_reset()" >/dev/null  # count only the calls that sqlsmith's queries make

echo "# sqlsmith --seed=$seed --max-queries=$queries, as $role, PostgreSQL $PG_MAJOR"
started=$(date +%s)
# The bound on the whole run: a query that ignored its statement timeout would hang here.
timeout $((300 + queries / 10)) sqlsmith --target="host=$PGHOST port=$PGPORT dbname=$db user=$role" \
    --seed="$seed" --max-queries="$queries" --exclude-catalog --verbose >/dev/null 2>"$dir/sqlsmith.log"
status=$?
elapsed=$(($(date +%s) - started))
report=$(/usr/bin/python3 test/lib/sqlsmith_report.py "$dir/sqlsmith.log")
value() { sed -n "s/^$1=//p" <<<"$report"; }
grep '^#' <<<"$report"
echo "# $elapsed s"

if [[ $(value schema_loaded) != 1 && $PG_MAJOR != 15 ]]; then
    # Debian's sqlsmith reads the catalog of the server it tests; a major whose
    # catalog it does not know is skipped, saying why.
    echo "ok $((TAP_N + 1)) # skip sqlsmith could not read PostgreSQL $PG_MAJOR's catalog: $(tail -n 1 "$dir/sqlsmith.log" | sed 's/^Loading [^.]*\.\.\.//')"
    TAP_N=$((TAP_N + 1))
else
    is "sqlsmith read the schema and exited normally" "$(value schema_loaded) $status" "1 0"
    is "sqlsmith reports $queries queries generated" "$(value queries)" "$queries"
    is "sqlsmith reports an outcome for each of the $queries queries" "$(value outcomes)" "$queries"
    check "some queries ran without error ($(value ok)) and some failed ($(value errors))" \
        test "$(value ok)" -gt 0 -a "$(value errors)" -gt 0
    is "no query lost its connection" "$(value broken)" 0
    # Backends flush their function counts when they exit; sqlsmith's may lag.
    calls="SELECT count(*) || ' ' || coalesce(sum(calls), 0) || ' ' || coalesce(string_agg(funcname, ' ' ORDER BY funcname), '')
           FROM pg_stat_user_functions f JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = f.funcid
           JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
           WHERE e.extname = 'idgen' AND d.deptype = 'e' AND f.calls > 0"
    for _ in $(seq 1 20); do
        called=$(q "$calls")
        [[ ${called%% *} -ge 10 ]] && break
        sleep 0.5
    done
    echo "# idgen functions called by the queries (count, calls, names): $called"
    check "the queries called at least 10 of idgen's functions" test "${called%% *}" -ge 10
fi

# A backend that dies by a signal makes the postmaster log it and restart all.
crashes=$(grep -E 'TRAP:|PANIC:|terminated by signal|terminated by exception|exited with exit code|terminating any other active server processes' "$dir/server.log")
is "the server log has no TRAP, PANIC or backend killed by a signal" "$crashes" ""
is "the server still accepts connections from $role and mints every kind of ID" \
    "$(psql -XAtq -U "$role" -c "SELECT uuid_v7() IS NOT NULL AND snowflake() IS NOT NULL AND ulid() IS NOT NULL
                                        AND prefixed_id_new('acct')::account_id IS NOT NULL")" t
is "the tables still hold their rows" "$(q "SELECT count(*) FROM everything")" 204

tap_done
