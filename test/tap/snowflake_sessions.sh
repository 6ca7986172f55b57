#!/usr/bin/env bash
# snowflake() and snowflake53() across concurrent sessions: uniqueness,
# per-session and real-time order within a shard, bursts that borrow future milliseconds, the wait path
# under idgen.max_clock_regression = 0, independent shards, and idgen.shard_id
# from ALTER DATABASE, and flat backend memory over one long statement. Sizes
# from lib.sh (IDGEN_SOAK=1: the long mode). Needs a preloaded server (PG* env).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh


fresh_database idgen_snowflake || exit 1
q "CREATE UNLOGGED TABLE session_ids (
       id bigint PRIMARY KEY, shard int, session int, n int, t0 timestamptz, t1 timestamptz)"

# mint_concurrently COUNT SHARD... : one session per SHARD argument inserts COUNT
# $fn(SHARD) values, all at once; fails if any insert fails (a duplicate
# would violate the primary key).
mint_concurrently() {
    local count=$1 pids=() status=0 s=0
    shift
    q "TRUNCATE session_ids"
    for shard in "$@"; do
        s=$((s + 1))
        psql -XAtq -v ON_ERROR_STOP=1 -c "
            INSERT INTO session_ids
            SELECT id, $shard, $s, n, t0, t1 FROM (
                SELECT n, clock_timestamp() AS t0, $fn($shard) AS id, clock_timestamp() AS t1
                FROM generate_series(1, $count) n) minted" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    return $status
}

# IDs that do not decode to the shard that minted them, or are not positive.
badly_decoded() {
    q "SELECT count(*) FROM session_ids
       WHERE id <= 0 OR id > $max_id OR ${fn}_shard(id) <> shard OR ${fn}_seq(id) NOT BETWEEN 0 AND $max_seq"
}

# IDs whose millisecond is before the clock reading taken before they were requested.
behind_the_clock() {
    q "SELECT count(*) FROM session_ids WHERE ${fn}_time(id) < date_trunc('milliseconds', t0)"
}

# shard_stat SHARD COLUMN: one column of idgen_snowflake_shards (0 if the shard has no row).
shard_stat() {
    q "SELECT coalesce((SELECT $2 FROM idgen_snowflake_shards WHERE family = '$fn' AND shard = $1), 0)"
}

# split_checks FUNCTION MAX_SEQ TIME_SHIFT MAX_ID: every check below for one bit
# split (snowflake: 1024 IDs a millisecond, time above bit 23; snowflake53:
# 512, above bit 13, at most 2^53 - 1). The splits share the machinery, so
# they must pass the same checks.
split_checks() {
    fn=$1 max_seq=$2 time_shift=$3 max_id=$4
    per_ms=$((max_seq + 1))
total=$((SESSIONS * PER_SESSION))
shards=()
for _ in $(seq 1 "$SESSIONS"); do shards+=(7); done
check "$fn shard 7: $SESSIONS sessions x $PER_SESSION inserts into a primary key all succeed" \
    timed mint_concurrently "$PER_SESSION" "${shards[@]}"
is "$fn shard 7: every ID stored, none duplicated" "$(q "SELECT count(DISTINCT id) FROM session_ids")" $total
is "$fn shard 7: each session strictly increasing" "$(not_increasing_per_session)" 0
is "$fn shard 7: no ID is below one returned before it was requested" "$(out_of_real_time_order shard)" 0
is "$fn shard 7: every ID is positive, at most $max_id and decodes to shard 7, seq 0..$max_seq" "$(badly_decoded)" 0
is "$fn shard 7: no ID's millisecond is before the clock when it was requested" "$(behind_the_clock)" 0
is "$fn shard 7: idgen_snowflake_shards.last_id is the largest ID stored" \
    "$(shard_stat 7 last_id)" "$(q "SELECT max(id) FROM session_ids")"

# A burst in one statement: over $per_ms IDs per millisecond borrow future milliseconds.
q "SET client_min_messages = warning; DROP TABLE IF EXISTS burst; CREATE UNLOGGED TABLE burst (n int, id bigint)"
borrowed_before=$(shard_stat 11 borrowed_ms)
output=$(psql -XAtq -v ON_ERROR_STOP=1 2>&1 <<SQL
INSERT INTO burst SELECT n, $fn(11) FROM generate_series(1, 100000) n;
SELECT 'minted=' || ids_minted || ' ran_ahead=' || ran_ahead
FROM idgen_stats WHERE pid = pg_backend_pid() AND family = '$fn';
SQL
)
status=$?
check "$fn burst: 100000 $fn(11) in one statement succeed" test $status -eq 0
((status == 0)) || sed 's/^/# /' <<<"$output"
minted=$(sed -n 's/^minted=\([0-9]*\) .*/\1/p' <<<"$output")
ran_ahead=$(sed -n 's/.*ran_ahead=\([0-9]*\)$/\1/p' <<<"$output")
borrowed=$(($(shard_stat 11 borrowed_ms) - borrowed_before))
is "$fn burst: 100000 distinct IDs" "$(q "SELECT count(DISTINCT id) FROM burst")" 100000
is "$fn burst: strictly increasing in generation order" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM burst) s WHERE bad")" 0
is "$fn burst: all decode to shard 11" "$(q "SELECT count(*) FROM burst WHERE ${fn}_shard(id) <> 11")" 0
burst_span=$(q "SELECT max(id >> $time_shift) - min(id >> $time_shift) FROM burst")
need_ms=$((100000 / per_ms - 1))
check "$fn burst: the IDs span at least $need_ms ms, as 100000 / $per_ms needs (got ${burst_span:-none} ms)" \
    test "${burst_span:-0}" -ge $need_ms
is "$fn burst: idgen_stats counted the backend's 100000 IDs" "${minted:-none}" 100000
check "$fn burst: idgen_stats shows IDs issued ahead of the clock (ran_ahead got ${ran_ahead:-none})" \
    test "${ran_ahead:-0}" -gt 0
check "$fn burst: idgen_snowflake_shards shows borrowed milliseconds for shard 11 (got $borrowed, at most $((need_ms + 1)) possible)" \
    test "$borrowed" -gt 0 -a "$borrowed" -le $((need_ms + 1))

# The wait path: with no lead allowed, a full millisecond waits for the clock.
# Shard 12 may start ahead of the clock (just below the lease after a restart),
# which idgen.max_clock_regression = 0 would refuse: let the clock pass it first.
q "SET client_min_messages = warning; DROP TABLE IF EXISTS waited; CREATE UNLOGGED TABLE waited (n int, id bigint, t1 timestamptz)"
q "SELECT pg_sleep(greatest(0, extract(epoch FROM ${fn}_time($fn(12)) - clock_timestamp())) + 0.002)" >/dev/null
waits_before=$(shard_stat 12 waits)
output=$(psql -XAtq -v ON_ERROR_STOP=1 2>&1 <<SQL
SET idgen.max_clock_regression = 0;
INSERT INTO waited SELECT n, $fn(12), clock_timestamp() FROM generate_series(1, 20000) n;
SELECT 'waits=' || waits || ' ran_ahead=' || ran_ahead
FROM idgen_stats WHERE pid = pg_backend_pid() AND family = '$fn';
SQL
)
status=$?
check "$fn wait path: 20000 $fn(12) with idgen.max_clock_regression = 0 succeed" test $status -eq 0
((status == 0)) || sed 's/^/# /' <<<"$output"
backend_waits=$(sed -n 's/^waits=\([0-9]*\) .*/\1/p' <<<"$output")
ran_ahead=$(sed -n 's/.*ran_ahead=\([0-9]*\)$/\1/p' <<<"$output")
shard_waits=$(($(shard_stat 12 waits) - waits_before))
span=$(q "SELECT (extract(epoch FROM max(${fn}_time(id)) - min(${fn}_time(id))) * 1000)::int FROM waited")
need_ms=$((20000 / per_ms - 1))
is "$fn wait path: 20000 distinct IDs" "$(q "SELECT count(DISTINCT id) FROM waited")" 20000
is "$fn wait path: strictly increasing in generation order" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM waited) s WHERE bad")" 0
check "$fn wait path: idgen_stats shows the backend waited (got ${backend_waits:-none})" test "${backend_waits:-0}" -gt 0
check "$fn wait path: idgen_snowflake_shards shows waits for shard 12 (got $shard_waits)" test "$shard_waits" -gt 0
is "$fn wait path: no ID issued ahead of the clock per idgen_stats" "${ran_ahead:-none}" 0
check "$fn wait path: the IDs span at least $need_ms ms, as 20000 / $per_ms needs (got ${span:-none} ms)" \
    test "${span:-0}" -ge $need_ms
is "$fn wait path: no ID's millisecond is after the clock read right after it was minted" \
    "$(q "SELECT count(*) FROM waited WHERE ${fn}_time(id) > t1")" 0

# Two shards, two sessions each, at once: each keeps its own counter.
check "$fn shards 1 and 2: 2 sessions each x 50000 inserts into a primary key all succeed" \
    mint_concurrently 50000 1 1 2 2
is "$fn shards 1 and 2: every ID stored, none duplicated across the table" \
    "$(q "SELECT count(DISTINCT id) FROM session_ids")" 200000
is "$fn shards 1 and 2: each session strictly increasing" "$(not_increasing_per_session)" 0
is "$fn shards 1 and 2: within each shard no ID is below one returned before it was requested" \
    "$(out_of_real_time_order shard)" 0
is "$fn shards 1 and 2: every ID is positive and decodes to its session's shard" "$(badly_decoded)" 0
shared_stamps=$(q "SELECT count(*) FROM (
                       SELECT id >> $time_shift, id & $max_seq FROM session_ids WHERE shard = 1
                       INTERSECT SELECT id >> $time_shift, id & $max_seq FROM session_ids WHERE shard = 2) s")
check "$fn shards 1 and 2: both used the same (ms, seq) pairs, so they do not share a counter (got $shared_stamps)" \
    test "${shared_stamps:-0}" -gt 0
is "$fn shards 1 and 2: idgen_snowflake_shards.last_id is each shard's largest ID" \
    "$(shard_stat 1 last_id) $(shard_stat 2 last_id)" \
    "$(q "SELECT max(id) FILTER (WHERE shard = 1) || ' ' || max(id) FILTER (WHERE shard = 2) FROM session_ids")"

# One long statement on a shard of its own (it may run up to
# idgen.max_clock_regression ahead of the clock and then wait).
check_memory_flat "$fn" "$fn(9)"
}

split_checks snowflake 1023 23 9223372036854775807
split_checks snowflake53 511 13 9007199254740991

# idgen.shard_id from ALTER DATABASE: new sessions of that database use it.
# snowflake_without_shard: prints what SELECT snowflake() gives in a new session
# (the ID, or the error), then "sqlstate=" and psql's LAST_ERROR_SQLSTATE.
snowflake_without_shard() {
    psql -XAtq 2>&1 <<'SQL'
SELECT snowflake();
\echo sqlstate=:LAST_ERROR_SQLSTATE
SQL
}
sqlstate() { sed -n 's/^sqlstate=//p' <<<"$1"; }
q "ALTER DATABASE idgen_snowflake SET idgen.shard_id = 5"
is "ALTER DATABASE SET idgen.shard_id = 5: a new session's snowflake() is from shard 5" \
    "$(q "SELECT snowflake_shard(snowflake())")" 5
other=idgen_snowflake_other
dropdb --if-exists "$other" 2>/dev/null
createdb "$other" && PGDATABASE=$other q "CREATE EXTENSION idgen"
output=$(PGDATABASE=$other snowflake_without_shard)
is "another database without the setting: snowflake() fails with SQLSTATE 55000" "$(sqlstate "$output")" 55000
check "another database without the setting: the error says idgen.shard_id is not set (got: $(head -n 1 <<<"$output"))" \
    grep -q "^ERROR:  idgen.shard_id is not set" <<<"$output"
q "ALTER DATABASE idgen_snowflake RESET idgen.shard_id"
is "after ALTER DATABASE RESET idgen.shard_id a new session's snowflake() fails with SQLSTATE 55000" \
    "$(sqlstate "$(snowflake_without_shard)")" 55000

export PGDATABASE=postgres
dropdb "$other"
dropdb idgen_snowflake
tap_done
