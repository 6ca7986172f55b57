#!/usr/bin/env bash
# uuid_v7 across concurrent sessions: uniqueness, per-session order, server-wide
# order under idgen.uuid_v7_order = 'server', per-backend random streams,
# idgen_stats listing live backends only, and flat backend memory over one long
# statement in either order. Sizes from lib.sh (IDGEN_SOAK=1: the long mode).
# Needs a preloaded server (PG* env).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/t/lib.sh


fresh_database idgen_sessions || exit 1
q "CREATE UNLOGGED TABLE session_ids (
       id uuid PRIMARY KEY, session int, n int, t0 timestamptz, t1 timestamptz)"

# Runs SESSIONS concurrent inserts with the given order; fails if any insert fails
# (a duplicate would violate the primary key).
mint_concurrently() {
    local order=$1 pids=() status=0
    q "TRUNCATE session_ids"
    for s in $(seq 1 "$SESSIONS"); do
        PGOPTIONS="-c idgen.uuid_v7_order=$order" psql -XAtq -v ON_ERROR_STOP=1 -c "
            INSERT INTO session_ids
            SELECT id, $s, n, t0, t1 FROM (
                SELECT n, clock_timestamp() AS t0, uuid_v7() AS id, clock_timestamp() AS t1
                FROM generate_series(1, $PER_SESSION) n) minted" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    return $status
}

check "backend order: $SESSIONS sessions x $PER_SESSION inserts into a primary key all succeed" timed mint_concurrently backend
is "backend order: every value stored, none duplicated" "$(q "SELECT count(DISTINCT id) FROM session_ids")" $((SESSIONS * PER_SESSION))
is "backend order: each session strictly increasing" "$(not_increasing_per_session)" 0
is "random bits differ between backends for the same call number" \
    "$(q "SELECT count(*) FROM (SELECT n FROM session_ids WHERE n <= 1000 GROUP BY n
                                HAVING count(DISTINCT substr(id::text, 21)) < $SESSIONS) s")" 0

check "server order: $SESSIONS sessions x $PER_SESSION inserts into a primary key all succeed" timed mint_concurrently server
is "server order: every value stored, none duplicated" "$(q "SELECT count(DISTINCT id) FROM session_ids")" $((SESSIONS * PER_SESSION))
is "server order: each session strictly increasing" "$(not_increasing_per_session)" 0
is "server order: no value is below one returned before it was requested" "$(out_of_real_time_order)" 0

check_memory_flat uuid_v7 "uuid_v7()"
check_memory_flat uuid_v7 "uuid_v7()" "SET idgen.uuid_v7_order = 'server'"

check_stats_follow_live_sessions uuid_v7 "uuid_v7()"

export PGDATABASE=postgres
dropdb idgen_sessions
tap_done
