#!/usr/bin/env bash
# prefixed_id_new() across concurrent sessions: uniqueness, per-session order
# (its 128 bits come from uuid_v7()'s per-backend sequence), the prefix and a
# UUIDv7 payload on every ID, per-backend random streams, and flat backend
# memory over one long statement. Sizes from lib.sh (IDGEN_SOAK=1: the long
# mode). Needs a preloaded server (PG* env).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh

fresh_database idgen_prefixed_sessions || exit 1
q "CREATE UNLOGGED TABLE session_ids (id prefixed_id PRIMARY KEY, session int, n int)"

# Runs SESSIONS concurrent inserts; fails if any insert fails (a duplicate
# would violate the primary key).
mint_concurrently() {
    local pids=() status=0
    for s in $(seq 1 "$SESSIONS"); do
        psql -XAtq -v ON_ERROR_STOP=1 -c "
            INSERT INTO session_ids
            SELECT prefixed_id_new('acct'), $s, n FROM generate_series(1, $PER_SESSION) n" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    return $status
}

check "$SESSIONS sessions x $PER_SESSION prefixed_id_new('acct') inserts into a primary key all succeed" timed mint_concurrently
is "every value stored, none duplicated" "$(q "SELECT count(DISTINCT id) FROM session_ids")" $((SESSIONS * PER_SESSION))
is "each session strictly increasing" "$(not_increasing_per_session)" 0
is "every ID has the prefix acct and UUIDv7 bits" \
    "$(q "SELECT count(*) FROM session_ids
          WHERE prefixed_id_prefix(id) <> 'acct' OR prefixed_id_time(id) IS NULL")" 0
# Characters 21.. of the uuid text are the variant and 62 random bits.
is "random bits differ between backends for the same call number" \
    "$(q "SELECT count(*) FROM (SELECT n FROM session_ids WHERE n <= 1000 GROUP BY n
                                HAVING count(DISTINCT substr(prefixed_id_uuid(id)::text, 21)) < $SESSIONS) s")" 0

check_memory_flat uuid_v7 "prefixed_id_new('acct')"

export PGDATABASE=postgres
dropdb idgen_prefixed_sessions
tap_done
