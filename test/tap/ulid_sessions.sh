#!/usr/bin/env bash
# ulid() across concurrent sessions: uniqueness, per-session order, per-backend
# random streams, idgen_stats listing live backends only, and flat backend
# memory over one long statement (and a statement whose memory does grow, to
# show that the memory check can fail). Sizes from lib.sh (IDGEN_SOAK=1: the
# long mode). Needs a preloaded server (PG* env).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh


fresh_database idgen_ulid_sessions || exit 1
q "CREATE UNLOGGED TABLE session_ids (id ulid PRIMARY KEY, session int, n int)"

# Runs SESSIONS concurrent inserts; fails if any insert fails (a duplicate
# would violate the primary key).
mint_concurrently() {
    local pids=() status=0
    for s in $(seq 1 "$SESSIONS"); do
        psql -XAtq -v ON_ERROR_STOP=1 -c "
            INSERT INTO session_ids
            SELECT ulid(), $s, n FROM generate_series(1, $PER_SESSION) n" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    return $status
}

check "$SESSIONS sessions x $PER_SESSION ulid() inserts into a primary key all succeed" timed mint_concurrently
is "every value stored, none duplicated" "$(q "SELECT count(DISTINCT id) FROM session_ids")" $((SESSIONS * PER_SESSION))
is "each session strictly increasing" "$(not_increasing_per_session)" 0

# The last 16 characters are the 80 random bits. Backends that shared a random
# stream would repeat each other's values; in one backend they only step by 1.
is "no 80-bit random part is shared by two sessions among their first 1000 IDs" \
    "$(q "SELECT count(*) FROM (SELECT substr(id::text, 11) AS random_part FROM session_ids
                                WHERE n <= 1000 GROUP BY 1 HAVING count(DISTINCT session) > 1) s")" 0

check_memory_flat ulid "ulid()"
# array_agg keeps every value (about 40 bytes each); 1M calls at every size.
output=$(MEMORY_CALLS=1000000 memory_profile ulid "ulid()" "cardinality(array_agg(id))")
is "the memory check fails a statement whose memory grows: array_agg over 1000000 ulid() calls" "$?" 1
sed 's/^/# /' <<<"$output"

check_stats_follow_live_sessions ulid "ulid()"

export PGDATABASE=postgres
dropdb idgen_ulid_sessions
tap_done
