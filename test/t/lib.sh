# Tiny TAP helpers for test/t/*.sh: each check prints "ok N - what" or
# "not ok N - what"; test/run-tests.sh counts them.
TAP_N=0
TAP_FAILED=0

# check DESCRIPTION COMMAND...: passes when COMMAND exits 0.
check() {
    local what=$1
    shift
    TAP_N=$((TAP_N + 1))
    if "$@"; then
        echo "ok $TAP_N - $what"
    else
        echo "not ok $TAP_N - $what"
        TAP_FAILED=$((TAP_FAILED + 1))
    fi
}

# is DESCRIPTION GOT EXPECTED: passes when the strings are equal.
is() {
    local what=$1 got=$2 expected=$3
    TAP_N=$((TAP_N + 1))
    if [[ "$got" == "$expected" ]]; then
        echo "ok $TAP_N - $what"
    else
        echo "not ok $TAP_N - $what (got '$got', expected '$expected')"
        TAP_FAILED=$((TAP_FAILED + 1))
    fi
}

# q SQL: one value from psql, unaligned, no headers.
q() {
    psql -XAtq -v ON_ERROR_STOP=1 -c "$1"
}

tap_done() {
    exit $((TAP_FAILED > 0))
}

# fresh_database NAME: (re)creates database NAME with idgen and makes it the default.
fresh_database() {
    dropdb --if-exists "$1" 2>/dev/null && createdb "$1" || return 1
    export PGDATABASE=$1
    q "CREATE EXTENSION idgen"
}

# not_increasing_per_session: rows of session_ids (id, session, n, ...) whose id
# is not above the id the same session got just before.
not_increasing_per_session() {
    q "SELECT count(*) FROM (
           SELECT id <= lag(id) OVER (PARTITION BY session ORDER BY n) AS bad FROM session_ids) s
       WHERE bad"
}

# out_of_real_time_order [GROUP_COLUMN]: rows of session_ids (id, t0, t1 = clock
# before and after the call) with a larger id returned (t1) before this one was
# requested (t0), within each GROUP_COLUMN value: what one shared counter forbids.
out_of_real_time_order() {
    q "SELECT count(*) FROM (
           SELECT t0, min(t1) OVER (${1:+PARTITION BY $1} ORDER BY id DESC
                                    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS min_t1_above
           FROM session_ids) s
       WHERE min_t1_above < t0"
}

# check_stats_follow_live_sessions FAMILY CALL: three sessions each run CALL
# once and stay connected; idgen_stats must list them under FAMILY with one ID
# each, in shared memory, and forget them once they exit.
check_stats_follow_live_sessions() {
    local family=$1 call=$2
    for _ in 1 2 3; do
        psql -XAtq -c "SELECT $call; SELECT pg_sleep(4)" >/dev/null &
    done
    sleep 2
    is "idgen_stats lists the 3 live sessions that minted one $family each" \
        "$(q "SELECT count(*) FROM idgen_stats WHERE pid <> pg_backend_pid() AND family = '$family'
                 AND ids_minted = 1 AND shared_memory")" 3
    wait
    sleep 0.5
    is "idgen_stats forgets sessions once they exit" \
        "$(q "SELECT count(*) FROM idgen_stats WHERE pid <> pg_backend_pid()")" 0
}
