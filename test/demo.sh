#!/usr/bin/env bash
# The main job (docs/development.md, "Running the tests"): installs what it needs, builds and installs
# idgen, starts a throwaway PostgreSQL with idgen preloaded, creates a table
# keyed by each of uuid_v7(), snowflake(), ulid() and a prefixed ID type,
# inserts rows and shows the IDs, their decoded times, the generator state and
# a short speed comparison (the benchmark at small sizes). IDGEN_DEMO_KEEP=1 leaves the
# server running and prints how to connect.
#
#   bash test/demo.sh            # on Debian's PostgreSQL 15
#   bash test/demo.sh --pg 18    # on 18, built once by test/pg-build.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${IDGEN_DEMO_ROWS:-200000}
pg=15
if [[ ${1:-} == --pg && ${2:-} =~ ^[0-9]+$ ]]; then
    pg=$2
elif (($#)); then
    echo "usage: bash test/demo.sh [--pg MAJOR]" >&2
    exit 2
fi

bash test/setup.sh
PG_CONFIG=$(bash test/pg-build.sh "$pg")
export PG_CONFIG
source test/lib/cluster.sh
echo "== building and installing idgen for PostgreSQL $PG_MAJOR"
make -s clean  # objects built for another major must not be reused
make -s
make -s install

dir=$(mktemp -d /tmp/idgen-demo.XXXXXX)
if [[ ${IDGEN_DEMO_KEEP:-0} == 1 ]]; then
    trap 'echo; echo "server left running: psql -h $dir -p $PGPORT -U postgres  (stop: pg_ctl -D $dir/data stop)"' EXIT
else
    trap 'cluster_stop "$dir"' EXIT
fi
echo "== starting a throwaway PostgreSQL $PG_MAJOR cluster in $dir (shared_preload_libraries = 'idgen')"
cluster_start "$dir" "shared_preload_libraries = 'idgen'" "jit = off"

psql -X -v ON_ERROR_STOP=1 -v rows="$ROWS" <<'SQL'
\pset footer off
\set QUIET on
SET TimeZone = 'UTC';
\echo
\echo == CREATE EXTENSION idgen and a table keyed by uuid_v7()
CREATE EXTENSION idgen;
CREATE TABLE orders (
    id uuid PRIMARY KEY DEFAULT uuid_v7(),
    item text NOT NULL,
    created_at timestamptz GENERATED ALWAYS AS (uuid_v7_time(id)) STORED
);
\echo
\echo == INSERT rows with DEFAULT ids, RETURNING the first three
INSERT INTO orders (item) VALUES ('coffee'), ('tea'), ('cake') RETURNING id, created_at;
INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, :rows) g;
SELECT count(*) AS rows_in_orders, count(DISTINCT id) AS distinct_ids FROM orders;
\echo
\echo == the IDs sort by creation time; uuid_v7_time() decodes the millisecond
SELECT id, uuid_v7_time(id) AS decoded, item FROM orders ORDER BY id DESC LIMIT 3;
\echo
\echo == backfill and time ranges: uuid_v7_at() and uuid_v7_boundary()
SELECT uuid_v7_at('2024-02-29 12:00:00+00') AS backfilled_id,
       uuid_v7_boundary('2024-03-01 00:00:00+00') AS march_2024_starts_at;
SELECT count(*) AS orders_in_the_last_hour FROM orders
WHERE id >= uuid_v7_boundary(now() - interval '1 hour') AND id < uuid_v7_boundary(now() + interval '1 hour');
\echo
\echo == a shifted ID hides the real creation time
SELECT uuid_v7(interval '-7 days') AS shifted_id, uuid_v7_time(uuid_v7(interval '-7 days')) AS claims_to_be_from;
\echo
\echo == snowflake(): 64-bit IDs from a per-shard counter in shared memory (shard 12 for this database)
SELECT current_database() AS db \gset
ALTER DATABASE :"db" SET idgen.shard_id = 12;
SET idgen.shard_id = 12;
CREATE TABLE posts (id bigint PRIMARY KEY DEFAULT snowflake(), body text);
INSERT INTO posts (body) SELECT 'post ' || g FROM generate_series(1, :rows) g;
SELECT count(*) AS rows_in_posts, count(DISTINCT id) AS distinct_ids, min(id) > 0 AS all_positive FROM posts;
SELECT id, snowflake_time(id) AS decoded, snowflake_shard(id) AS shard, snowflake_seq(id) AS seq
FROM posts ORDER BY id DESC LIMIT 3;
SELECT shard, last_id, last_issued, borrowed_ms, waits, clock_regressions FROM idgen_snowflake_shards;
\echo
\echo == ulid: a 16-byte ULID type, monotonic ulid() in each session, strict Crockford base32 text
CREATE TABLE events (id ulid PRIMARY KEY DEFAULT ulid(), kind text);
INSERT INTO events (kind) SELECT 'event ' || g FROM generate_series(1, :rows) g;
SELECT count(*) AS rows_in_events, count(DISTINCT id) AS distinct_ids,
       pg_column_size(min(id)) AS bytes_per_id FROM events;
SELECT id, ulid_time(id) AS decoded, id::uuid AS same_bytes_as_uuid FROM events ORDER BY id DESC LIMIT 3;
SELECT '01arz3ndektsv4rrffq69g5fav'::ulid AS lower_case_in_canonical_out,
       ulid_boundary('2026-01-01 00:00:00+00') AS year_2026_starts_at;
\echo == (I, L, O and U are refused, not read as 1, 1, 0:)
\set ON_ERROR_STOP off
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAL'::ulid;
\set ON_ERROR_STOP on
\echo
\echo == prefixed IDs: a type per entity (acct_..., sess_...), 128 bits in 25 base36 digits
SELECT prefixed_id_define('account_id', 'acct') AS ordered_type,
       prefixed_id_define('session_token', 'sess', token => true) AS token_type;
CREATE TABLE accounts (id account_id PRIMARY KEY, email text NOT NULL);
CREATE TABLE sessions (token session_token PRIMARY KEY, account account_id NOT NULL REFERENCES accounts);
INSERT INTO accounts (email) SELECT 'user' || g || '@example.com' FROM generate_series(1, :rows) g;
INSERT INTO sessions (account) SELECT id FROM accounts ORDER BY id DESC LIMIT 3;
SELECT count(*) AS rows_in_accounts, count(DISTINCT id) AS distinct_ids,
       pg_column_size(min(id)) AS bytes_per_id, min(length(id::text)) AS characters FROM accounts;
SELECT id, prefixed_id_time(id) AS decoded, prefixed_id_uuid(id) AS as_uuid FROM accounts ORDER BY id DESC LIMIT 3;
SELECT token, prefixed_id_type(token::text) AS type_of_token, account FROM sessions;
SELECT prefixed_id_type('acct_039srkj01e44uynszf2f2njh3') AS resolved,
       base36_encode(uuid_v7()) AS uuid_v7_in_base36, base36_encode(snowflake()) AS snowflake_in_base36;
\echo == (a sess_ token does not go into an account_id column:)
\set ON_ERROR_STOP off
INSERT INTO accounts (id, email) SELECT token, 'x@example.com' FROM sessions LIMIT 1;
\set ON_ERROR_STOP on
\echo
\echo == generator state of this backend (idgen_stats)
SELECT pid, family, ids_minted, last_issued, clock_regressions, ran_ahead, waits, shared_memory
FROM idgen_stats;
SQL

# The speed comparison is the project's benchmark, at demo sizes, on a
# throwaway cluster of its own (part 6 restarts its server with a small
# shared_buffers, which this demo's server should not suffer).
echo
echo "== speed: test/bench/bench.sh at demo sizes (1M calls, 200k rows, 500k-row index builds, 3 interleaved reps," \
    "3 s pgbench runs, tables grown to 500k rows on 16MB of shared_buffers; at this size they stay under" \
    "part 6's 128MB memory cap, so random keys fall off only in the full run's 4M-row tables)"
bash test/bench/bench.sh --scratch --calls 1000000 --rows 200000 --index-rows 500000 --reps 3 \
    --pgbench-seconds 3 --scale-rows 500000 --scale-seconds 3
echo "(plot of insert throughput against table size: test/bench/results/tmp/latest.png)"
echo
echo "== done: idgen generated, decoded and indexed IDs in a real PostgreSQL $PG_MAJOR"
