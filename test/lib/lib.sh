# Tiny TAP helpers for test/t/*.sh: each check prints "ok N - what" or
# "not ok N - what"; test/run-tests.sh counts them.
TAP_N=0
TAP_FAILED=0

# check DESCRIPTION COMMAND...: passes when COMMAND exits 0; returns 1 when it
# fails, so that a caller can stop or print diagnostics.
check() {
    local what=$1
    shift
    TAP_N=$((TAP_N + 1))
    if "$@"; then
        echo "ok $TAP_N - $what"
    else
        echo "not ok $TAP_N - $what"
        TAP_FAILED=$((TAP_FAILED + 1))
        return 1
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

# Sizes of the multi-session tests: SESSIONS concurrent sessions each mint
# PER_SESSION IDs of one generator, and check_memory_flat makes MEMORY_CALLS
# calls in one statement. IDGEN_SOAK=1 is the long mode (docs/development.md, "Soak run"):
# 8 x 1,250,000 = 10M IDs per generator and 10M calls in one statement.
# SESSIONS, PER_SESSION or MEMORY_CALLS set in the environment win over both.
case ${IDGEN_SOAK:-0} in
    0) SESSIONS=${SESSIONS:-4} PER_SESSION=${PER_SESSION:-250000} MEMORY_CALLS=${MEMORY_CALLS:-1000000} ;;
    1) SESSIONS=${SESSIONS:-8} PER_SESSION=${PER_SESSION:-1250000} MEMORY_CALLS=${MEMORY_CALLS:-10000000} ;;
    *) echo "IDGEN_SOAK must be 0 or 1, got '$IDGEN_SOAK'" >&2; exit 2 ;;
esac

# q SQL: one value from psql, unaligned, no headers.
q() {
    psql -XAtq -v ON_ERROR_STOP=1 -c "$1"
}

# timed COMMAND...: runs COMMAND, then prints how long it took as a TAP comment;
# returns its status.
timed() {
    local start=${EPOCHREALTIME/./} status
    "$@"
    status=$?
    local us=$((${EPOCHREALTIME/./} - start))
    printf '# %s took %d.%03d s\n' "$*" $((us / 1000000)) $((us / 1000 % 1000))
    return $status
}

# wait_until TRIES COMMAND...: retries COMMAND, output discarded, every 0.2 s
# until it succeeds; fails after TRIES tries.
wait_until() {
    local tries=$1 try
    shift
    for ((try = 0; try < tries; try++)); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}

# tap_verdicts NAME COMMAND...: the verdict lines COMMAND prints (test/lib/verdicts.py:
# "ok<TAB>what", "not ok<TAB>what", "#<TAB>note") as TAP lines; any other line
# fails, named after NAME.
tap_verdicts() {
    local name=$1 verdict what
    shift
    while IFS=$'\t' read -r verdict what; do
        case $verdict in
            ok) check "$what" true ;;
            "not ok") check "$what" false ;;
            "#") echo "# $what" ;;
            *) check "$name: $verdict $what" false ;;
        esac
    done < <("$@" 2>&1)
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

# memory_profile FAMILY EXPR AGGREGATE [SETUP]: one session runs the SQL
# command SETUP if given and warms up EXPR, then computes AGGREGATE over "id",
# MEMORY_CALLS calls of EXPR, in one statement, while test/lib/backend_memory.py
# samples its backend's memory and progress (idgen_stats.ids_minted of FAMILY). Prints the aggregate's value and
# the sampler's summary, one a line; returns the sampler's status (0 flat,
# 1 grew, 2 no usable measurement), or 2 if the session failed.
memory_profile() {
    local family=$1 expr=$2 aggregate=$3 setup=${4:-} dir session summary status session_status
    dir=$(mktemp -d /tmp/idgen-memory.XXXXXX) || return 2
    # generate_series in the target list streams its rows (in FROM it would
    # first store all of them); EXPR is volatile, so it runs for every row.
    local series="(SELECT generate_series(1, $MEMORY_CALLS)) g" warmup="(SELECT generate_series(1, 1000)) g"
    psql -XAtq -v ON_ERROR_STOP=1 >"$dir/session.log" 2>&1 <<SQL &
$setup ${setup:+;}
SELECT count(id) FROM (SELECT $expr AS id FROM $warmup) s \g /dev/null
SELECT sum(total_bytes) FROM pg_backend_memory_contexts \g /dev/null
SELECT sum(total_bytes) FROM pg_backend_memory_contexts \g $dir/contexts_before
SELECT pg_backend_pid() \g $dir/pid
\! until [ -e $dir/go ]; do sleep 0.01; done
SELECT $aggregate FROM (SELECT $expr AS id FROM $series) s \g $dir/result
SELECT sum(total_bytes) FROM pg_backend_memory_contexts \g $dir/contexts_after
\! until [ -e $dir/done ]; do sleep 0.01; done
SQL
    session=$!
    summary=$(/usr/bin/python3 test/lib/backend_memory.py --dir "$dir" --family "$family" \
                  --calls "$MEMORY_CALLS" --session-pid "$session" --label "$expr${setup:+ after $setup}" 2>&1)
    status=$?
    touch "$dir/go" "$dir/done"  # an unusable measurement may leave the session waiting
    wait "$session"
    session_status=$?
    cat "$dir/result" 2>/dev/null || echo
    echo "$summary"
    if ((session_status != 0)); then
        sed 's/^/session: /' "$dir/session.log"
        status=2
    fi
    rm -rf "$dir"
    return $status
}

# check_memory_flat FAMILY EXPR [SETUP]: after SETUP, MEMORY_CALLS calls of EXPR
# in one statement all happen, and the backend's memory stays flat after warm-up.
check_memory_flat() {
    local family=$1 expr=$2 setup=${3:-} output status what
    what="$expr${setup:+ after $setup}"
    output=$(memory_profile "$family" "$expr" "count(id)" "$setup")
    status=$?
    is "$what: one statement makes $MEMORY_CALLS calls" "$(head -n 1 <<<"$output")" "$MEMORY_CALLS"
    check "$what: backend memory stays flat over $MEMORY_CALLS calls in one statement" test "$status" -eq 0
    tail -n +2 <<<"$output" | sed 's/^/# /'
}

# idgen_files PG_CONFIG: idgen's installed files and directories under that
# server (library, JIT bitcode, control file and SQL scripts), one a line.
idgen_files() {
    local lib share
    lib=$("$1" --pkglibdir) share=$("$1" --sharedir)/extension
    find "$lib" "$lib/bitcode" "$share" -mindepth 1 -maxdepth 1 -name 'idgen*' 2>/dev/null | sort
}

# save_idgen_files PG_CONFIG TARFILE and restore_idgen_files PG_CONFIG TARFILE:
# a test that installs or removes idgen on a shared server puts back what was
# there (the suite's own `make install`, which later tests need).
save_idgen_files() {
    local files
    mapfile -t files < <(idgen_files "$1")
    if ((${#files[@]})); then tar -cPf "$2" "${files[@]}"; else tar -cPf "$2" -T /dev/null; fi
}
restore_idgen_files() {
    idgen_files "$1" | xargs -r rm -rf --
    tar -xPf "$2"
}

# saved_idgen_digests TARFILE: "saved<TAB>SHA-256<TAB>path" for each file in a
# save_idgen_files TARFILE, for the test that checks the files it put back
# (IdgenTest::idgen_files_digest prints the installed files the same way).
saved_idgen_digests() {
    local dir
    dir=$(mktemp -d /tmp/idgen-saved.XXXXXX) || return 1
    # Without -P the absolute paths land under $dir.
    tar -xf "$1" -C "$dir" 2>/dev/null
    (cd "$dir" && find . -type f -print0 | xargs -0 -r sha256sum) |
        sed -E 's,^([0-9a-f]+)  \./,saved\t\1\t/,' | LC_ALL=C sort -t$'\t' -k3
    rm -rf "$dir"
}

# dpkg_waiting ARGS...: dpkg ARGS, waiting up to 2 minutes for the dpkg lock
# when another apt-get or dpkg holds it (the packaging test's root-only steps).
dpkg_waiting() {
    local try out
    for ((try = 0; try < 60; try++)); do
        out=$(dpkg "$@" 2>&1) && { echo "$out"; return 0; }
        echo "$out"
        grep -qE '(is|was) locked' <<<"$out" || return 1
        sleep 2
    done
    return 1
}

# prepare_needs_debian_15_root WHY_15 WHAT_AS_ROOT: for a root-only preparation
# (test/lib/prepare/) that works on Debian's PostgreSQL 15 as root alone: on
# another server, or as another user, it exits 3 with the reason.
debian_pg_config=/usr/lib/postgresql/15/bin/pg_config
prepare_needs_debian_15_root() {
    if [[ ${PG_CONFIG:-$debian_pg_config} != "$debian_pg_config" ]]; then
        echo "$1; this run uses $PG_CONFIG"
        exit 3
    fi
    if [[ $EUID -ne 0 ]]; then
        echo "needs root ($2)"
        exit 3
    fi
}
