#!/usr/bin/env bash
# idgen on several servers (issue 15): 3 writers whose clocks run at different
# libfaketime offsets (-40 ms, 0, +60 ms) and 1 consolidating server, on
# 127.0.0.1. Each writer claims its own snowflake shards (idgen_claim_shards)
# and mints, under pgbench, into tables keyed by snowflake(), uuid_v7(), ulid()
# and a prefixed_id_define() type; core logical replication brings every row
# to the consolidator. Checks (test/lib/multi_node.py measures and judges):
#  1. steady load: 0 apply errors, every row arrives, every snowflake decodes
#     to a shard its writer owns, no ID repeats across writers, and ORDER BY id
#     inverts real insertion time by at most the writers' clock spread + 50 ms;
#  2. the guard: a 4th writer claims writer 1's shard and mints; its
#     subscription stops at the claim with the trigger's 23505, and none of its
#     rows reaches the consolidator;
#  3. failover: writer 2 is killed with kill -9 under load, restarted with its
#     clock 5 s back; its IDs resume above every ID it issued before (the
#     leases), and replication catches up with no error but the lost connection.
# MULTI_NODE_BREAK breaks one thing on purpose, to show that checks fail:
# trigger (the guard's trigger disabled on the consolidator), noclaim (the 4th
# writer mints without claiming), skew (writer 3's clock runs 400 ms ahead, not
# the 60 ms stated), lease (writer 2's lease files and WAL are thrown away
# before its restart).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-multinode.XXXXXX)
chmod 755 "$dir"
nodes=(w1 w2 w3 w4 c)
trap 'for n in "${nodes[@]}"; do cluster_stop "$dir/$n"; done; rm -rf "$dir"' EXIT

faketime_lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1)
if [[ -z $faketime_lib ]]; then
    echo "not ok 1 - libfaketime is installed (package faketime)"
    exit 1
fi
if ! /usr/bin/python3 -c 'import psycopg' 2>/dev/null; then
    echo "not ok 1 - Debian's python3-psycopg is installed"
    exit 1
fi
break_=${MULTI_NODE_BREAK:-}

# Load: pgbench clients per writer, seconds of steady load, transactions per
# second per writer (5 rows each). IDGEN_SOAK=1 runs longer and faster.
clients=3
if [[ ${IDGEN_SOAK:-0} == 1 ]]; then seconds=120 rate=400; else seconds=30 rate=150; fi
margin_ms=50

declare -A port offset shards
offset=([w1]=-40 [w2]=0 [w3]=60 [w4]=0)
shards=([w1]=10-19 [w2]=20-29 [w3]=30-39 [w4]=10)
actual_offset_w3=${offset[w3]}
[[ $break_ == skew ]] && actual_offset_w3=400

faketime_env() {  # OFFSET_MS: libfaketime's fixed offset, in seconds
    printf 'LD_PRELOAD=%s FAKETIME=%s FAKETIME_DONT_FAKE_MONOTONIC=1' "$faketime_lib" \
        "$(awk -v ms="$1" 'BEGIN { printf "%+.3f", ms / 1000 }')"
}

on() {  # on NODE COMMAND...: runs COMMAND against NODE
    local n=$1
    shift
    PGHOST=$dir/$n PGPORT=${port[$n]} "$@"
}

py() { /usr/bin/python3 test/lib/multi_node.py --dir "$dir" "$@"; }

# judge COMMAND...: the verdicts of test/lib/multi_node.py as TAP lines.
judge() { tap_verdicts multi_node.py py "$@"; }

# ran_clean LOG: pgbench committed transactions and none failed.
ran_clean() {
    grep -qE '^number of failed transactions: 0 ' "$1" &&
        grep -qE '^number of transactions actually processed: [1-9]' "$1"
}

common_conf=("shared_preload_libraries = 'idgen'" "fsync = off" "log_line_prefix = '%m [%p] %b: '")
writer_conf=("wal_level = logical" "max_wal_senders = 10" "max_replication_slots = 10")

# start_writer NAME OFFSET_MS: a writer whose idgen.shard_id is the first of its shards.
start_writer() {
    local n=$1 first=${shards[$1]%%-*}
    CLUSTER_ENV=$(faketime_env "$2") cluster_start "$dir/$n" "${common_conf[@]}" "${writer_conf[@]}" \
        "cluster_name = '$n'" "idgen.shard_id = $first" "idgen.allowed_shards = '${shards[$n]}'" || return 1
    port[$n]=$PGPORT
}

# The schema every node has: the consolidator's copy receives the rows. Each
# row records its writer and clock_timestamp() after its ID.
schema="CREATE EXTENSION idgen;
SELECT prefixed_id_define('order_id', 'ord');
CREATE TABLE sf_ids (id bigint PRIMARY KEY DEFAULT snowflake(), run int NOT NULL,
    writer text NOT NULL DEFAULT current_setting('cluster_name'), t timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE uuid_ids (id uuid PRIMARY KEY DEFAULT uuid_v7(), run int NOT NULL,
    writer text NOT NULL DEFAULT current_setting('cluster_name'), t timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE ulid_ids (id ulid PRIMARY KEY DEFAULT ulid(), run int NOT NULL,
    writer text NOT NULL DEFAULT current_setting('cluster_name'), t timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE order_ids (id order_id PRIMARY KEY, run int NOT NULL,
    writer text NOT NULL DEFAULT current_setting('cluster_name'), t timestamptz NOT NULL DEFAULT clock_timestamp());"
publication="CREATE PUBLICATION idgen_pub FOR TABLE sf_ids, uuid_ids, ulid_ids, order_ids, idgen_shard_claim"

# One pgbench transaction: a row per table, two of them snowflakes (the
# session's idgen.shard_id, and a shard of the writer's list).
cat >"$dir/load.sql" <<'SQL'
\set shard random(:lo, :hi)
BEGIN;
INSERT INTO sf_ids (run) VALUES (:run);
INSERT INTO sf_ids (id, run) VALUES (snowflake(:shard), :run);
INSERT INTO uuid_ids (run) VALUES (:run);
INSERT INTO ulid_ids (run) VALUES (:run);
INSERT INTO order_ids (run) VALUES (:run);
COMMIT;
SQL
chmod 644 "$dir/load.sql"

# load NODE RUN SECONDS: pgbench on NODE in the background, its log in DIR/pgbench-NODE-RUN.log.
load() {
    local n=$1 lo=${shards[$1]%%-*} hi=${shards[$1]##*-}
    on "$n" pgbench -n -c "$clients" -j 1 -T "$3" -R "$rate" -f "$dir/load.sql" -D run="$2" -D lo="$lo" -D hi="$hi" \
        >"$dir/pgbench-$n-$2.log" 2>&1 &
}

subscribe() {  # subscribe WRITER: the consolidator's subscription sub_WRITER
    on c psql -XAtq -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
        -c "CREATE SUBSCRIPTION sub_$1 CONNECTION 'host=127.0.0.1 port=${port[$1]} dbname=postgres user=postgres'
            PUBLICATION idgen_pub"
}
all_ready() { [[ $(on c q "SELECT count(*) FROM pg_subscription_rel WHERE srsubstate <> 'r'") == 0 ]]; }

# --- set-up ------------------------------------------------------------------
start_writer w1 "${offset[w1]}" || exit 1
start_writer w2 "${offset[w2]}" || exit 1
start_writer w3 "$actual_offset_w3" || exit 1
cluster_start "$dir/c" "${common_conf[@]}" "cluster_name = 'c'" "max_logical_replication_workers = 8" \
    "max_worker_processes = 16" "wal_retrieve_retry_interval = '1s'" || exit 1
port[c]=$PGPORT
for n in w1 w2 w3 c; do
    printf '%s\t%s\t%s\t%s\n' "$n" "${port[$n]}" "${offset[$n]:-}" "${shards[$n]:-}" >>"$dir/nodes.tsv"
done
for n in w1 w2 w3 c; do
    on "$n" psql -XAtq -v ON_ERROR_STOP=1 -c "$schema" >/dev/null || { echo "not ok 1 - schema on $n"; exit 1; }
done
judge clock w1 w2 w3 c

# Subscribe first, claim next, then mint: a claim then travels before any row.
for n in w1 w2 w3; do
    on "$n" q "$publication" && subscribe "$n" || { echo "not ok 1 - replication from $n"; exit 1; }
done
check "the consolidator's subscriptions are ready (initial copy done)" wait_until 300 all_ready
for n in w1 w2 w3; do
    is "$n claims its 10 shards ${shards[$n]}" \
        "$(on "$n" q "SELECT count(*) FROM idgen_claim_shards('${shards[$n]}')")" 10
done

# --- 1. steady load ----------------------------------------------------------
for n in w1 w2 w3; do load "$n" 1 "$seconds"; done
wait
for n in w1 w2 w3; do
    check "pgbench on $n ran $seconds s without a failed transaction" ran_clean "$dir/pgbench-$n-1.log"
    grep -E '^(number of transactions actually|tps|latency average)' "$dir/pgbench-$n-1.log" | sed "s/^/# $n: /"
done
judge catchup w1 w2 w3
judge owned w1 w2 w3
judge unique w1 w2 w3
judge inversion w1 w2 w3 --run 1 --margin-ms "$margin_ms"
judge errors --log "$dir/c/server.log" --clean sub_w1 sub_w2 sub_w3

# --- 2. the guard: a 4th writer misconfigured onto writer 1's shard 10 --------
start_writer w4 "${offset[w4]}" || exit 1
printf 'w4\t%s\t0\t10\n' "${port[w4]}" >>"$dir/nodes.tsv"
on w4 psql -XAtq -v ON_ERROR_STOP=1 -c "$schema" -c "$publication" >/dev/null &&
    subscribe w4 || { echo "not ok - replication from w4"; exit 1; }
check "sub_w4 is ready" wait_until 300 all_ready
[[ $break_ == trigger ]] && on c q "ALTER TABLE idgen_shard_claim DISABLE TRIGGER idgen_shard_claim_check"
if [[ $break_ != noclaim ]]; then
    # Locally it succeeds: w4's own table knows nothing of writer 1.
    is "w4 claims shard 10 on itself" "$(on w4 q "SELECT count(*) FROM idgen_claim_shards('10')")" 1
fi
for run in 1 2 3 4 5; do
    on w4 q "INSERT INTO sf_ids (run) SELECT 4 FROM generate_series(1, 40);
             INSERT INTO uuid_ids (run) SELECT 4 FROM generate_series(1, 40);
             INSERT INTO ulid_ids (run) SELECT 4 FROM generate_series(1, 40);
             INSERT INTO order_ids (run) SELECT 4 FROM generate_series(1, 40)"
done
judge guard --log "$dir/c/server.log" --writer w4 --holder w1 --subscription sub_w4 --shard 10 --timeout 30
on c q "ALTER SUBSCRIPTION sub_w4 DISABLE" &&
    on c psql -XAtq -c "SET client_min_messages = warning" -c "DROP SUBSCRIPTION sub_w4" ||
    check "sub_w4 is dropped" false
cluster_stop "$dir/w4"

# --- 3. failover: kill -9 writer 2 under load, restart it 5 s in the past -----
for n in w1 w2 w3; do load "$n" 2 15; done
sleep 5
pre=$(on w2 q "SELECT count(*) FROM sf_ids")
[[ $break_ == lease ]] && on w2 q "CHECKPOINT"  # what pg_resetwal below keeps
kill -9 "$(head -n 1 "$dir/w2/data/postmaster.pid")"
sleep 1
if [[ $break_ == lease ]]; then
    # Crash recovery would rewrite the lease files from WAL: throw both away.
    sleep 2
    rm -f "$dir/w2/data/idgen_snowflake.lease" "$dir/w2/data/idgen_clock.lease" "$dir/w2/data/postmaster.pid"
    as_cluster_owner pg_resetwal -f -D "$dir/w2/data" >/dev/null
fi
# (with its leases thrown away, 30 s back: well below every row that survives)
setback_ms=5000
[[ $break_ == lease ]] && setback_ms=30000
w2_env=$(faketime_env $((offset[w2] - setback_ms)))
# (the killed postmaster's backends exit as they notice; until then, start fails)
start_w2() { CLUSTER_ENV=$w2_env as_cluster_owner pg_ctl -D "$dir/w2/data" -l "$dir/w2/server.log" -w -t 60 start; }
check "w2 restarts (crash recovery) with its clock $((setback_ms / 1000)) s back" wait_until 50 start_w2
judge clock w2 --expect "w2=$((offset[w2] - setback_ms))"
# What idgen.max_clock_regression (default 10 s) decides: the shards resume from
# the lease, up to 2 s ahead of the old clock, so 5 s back leaves a lead of at
# most 7 s: snowflake() mints at once, ahead of the clock. A bound below the
# lead refuses (55000) until the clock catches up.
err=$(on w2 psql -XAtq -c "SET idgen.max_clock_regression = '1s'" -c "SELECT snowflake()" 2>&1)
check "with idgen.max_clock_regression = 1s, snowflake() on w2 refuses: the shard is seconds ahead of its clock" \
    grep -qE 'ERROR:  system clock is [0-9]+ ms behind snowflake shard 20' <<<"$err"
load w2 3 8
wait
check "w2 had committed rows of run 2 before the kill (${pre:-?})" test "${pre:-0}" -gt 0
check "pgbench on w2 after the restart ran without a failed transaction" ran_clean "$dir/pgbench-w2-3.log"
grep -E '^number of transactions actually' "$dir/pgbench-w2-3.log" | sed 's/^/# w2 after the restart: /'
lead=$(on w2 q "SELECT round(extract(epoch FROM snowflake_time(min(id)) - min(t)) * 1000) FROM sf_ids WHERE run = 3")
echo "# w2's first snowflake after the restart ran ${lead} ms ahead of its clock"
# No duplicate: every ID w2 minted after the restart is above every ID it
# minted before (per shard for snowflakes), in all four families.
is "w2's snowflakes after the restart are above its earlier ones on every shard" \
    "$(on w2 q "SELECT count(*) FROM (SELECT snowflake_shard(id) s, min(id) FILTER (WHERE run = 3) a,
                                             max(id) FILTER (WHERE run < 3) b FROM sf_ids GROUP BY 1) x
                WHERE a <= b")" 0
for t in uuid_ids ulid_ids order_ids; do
    is "w2's $t after the restart are above its earlier ones" \
        "$(on w2 q "SELECT (SELECT id FROM $t WHERE run = 3 ORDER BY id LIMIT 1)
                         > (SELECT id FROM $t WHERE run < 3 ORDER BY id DESC LIMIT 1)")" t
done
judge catchup w1 w2 w3
judge owned w1 w2 w3
judge unique w1 w2 w3
judge errors --log "$dir/c/server.log" --clean sub_w1 sub_w3 --connection-only sub_w2 --ignore sub_w4

tap_done
