#!/usr/bin/env bash
# uuid_v7 benchmark: per-call cost of ID generators and bulk-load cost of the
# keys they produce. It prints figures and ratios; it never fails on a timing
# threshold. Only a broken run (failed query, missing figure) exits non-zero.
#
# Usage: bash test/bench/bench.sh [--quick] [--scratch] [--calls N] [--rows N] [--reps N]
# --scratch writes the report to the git-ignored results/tmp/ (as --quick does),
# for runs that must not replace the published figures (the demo uses it).
# IDGEN_BENCH_EXISTING=1 uses the server named by the PG* variables (it must
# preload idgen); otherwise a throwaway cluster is created and removed.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/../.." && pwd)"
RESULTS_DIR="$BENCH_DIR/results"

# shellcheck source=SCRIPTDIR/../cluster.sh
source "$REPO_DIR/test/cluster.sh"

# The idgen targets the report evaluates. Informational only.
TARGET_CALL_RATIO=0.20   # uuid_v7() ns/call <= this x gen_random_uuid()
TARGET_BULK_RATIO=1.25   # uuid_v7 bulk insert <= this x bigserial
TARGET_LEAF_DENSITY=88   # uuid_v7 pkey avg_leaf_density >= this %

CALLS=5000000
ROWS=2000000
REPS=5
QUICK=0
SCRATCH=0
CLUSTER_DIR=""

die() {
    echo "bench: $*" >&2
    exit 1
}

log() {
    echo "bench: $*" >&2
}

usage() {
    echo "usage: bash test/bench/bench.sh [--quick] [--scratch] [--calls N] [--rows N] [--reps N]" >&2
    exit 2
}

# Checks that an option's value is a positive integer.
positive_int() {
    [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "$1 needs a positive integer, got '${2:-}'"
    echo "$2"
}

parse_args() {
    while (($#)); do
        case $1 in
            --quick) QUICK=1; SCRATCH=1; CALLS=20000; ROWS=20000; REPS=2 ;;
            --scratch) SCRATCH=1 ;;
            --calls) CALLS=$(positive_int "$1" "${2:-}"); shift ;;
            --rows) ROWS=$(positive_int "$1" "${2:-}"); shift ;;
            --reps) REPS=$(positive_int "$1" "${2:-}"); shift ;;
            -h | --help) usage ;;
            *) echo "bench: unknown argument '$1'" >&2; usage ;;
        esac
        shift
    done
}

# ---------------------------------------------------------------------------
# Server

# EXIT trap: psql has already printed the error of a failed query; say once
# that the run is void, and remove the throwaway cluster in every case.
cleanup() {
    local status=$?
    ((status == 0)) || echo "bench: run failed (exit status $status), no valid results" >&2
    if [[ -n $CLUSTER_DIR ]]; then
        cluster_stop "$CLUSTER_DIR"
        CLUSTER_DIR=""
    fi
}

# The throwaway cluster is tuned so that checkpoints and WAL recycling do not
# land in the middle of a timed bulk load, and JIT does not add compile time
# to one expression but not another.
start_server() {
    if [[ ${IDGEN_BENCH_EXISTING:-0} == 1 ]]; then
        log "using the existing server (PGHOST=${PGHOST:-} PGPORT=${PGPORT:-})"
        return
    fi
    CLUSTER_DIR=$(mktemp -d)
    log "starting a throwaway cluster in $CLUSTER_DIR"
    cluster_start "$CLUSTER_DIR" \
        "shared_preload_libraries = 'idgen'" \
        "jit = off" \
        "shared_buffers = '256MB'" \
        "max_wal_size = '4GB'" \
        "checkpoint_timeout = '30min'"
}

# Runs SQL (from -c options or stdin) in one session; prints bare tuples.
# NOTICEs ("does not exist, skipping") would only clutter the progress log.
sql() {
    PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning" \
        psql -X -q -A -t -v ON_ERROR_STOP=1 "$@"
}

setup_database() {
    sql -c "SHOW shared_preload_libraries" | grep -qw idgen ||
        die "the server does not preload idgen (shared_preload_libraries), 'server' order cannot be measured"
    sql <<'SQL'
CREATE EXTENSION IF NOT EXISTS idgen;
CREATE EXTENSION IF NOT EXISTS pgstattuple;
DROP SEQUENCE IF EXISTS bench_seq;
CREATE SEQUENCE bench_seq;

-- Times a query inside the server, so client round trips and result
-- transfer are not part of the figure. Returns elapsed seconds.
CREATE OR REPLACE FUNCTION bench_time(query text) RETURNS double precision
LANGUAGE plpgsql AS $$
DECLARE
    started timestamptz;
BEGIN
    started := clock_timestamp();
    EXECUTE query;
    RETURN extract(epoch FROM clock_timestamp() - started);
END
$$;

DROP TABLE IF EXISTS bench_uuid_v7, bench_uuid_v4, bench_bigserial;
CREATE TABLE bench_uuid_v7 (id uuid PRIMARY KEY DEFAULT uuid_v7(), n int);
CREATE TABLE bench_uuid_v4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
CREATE TABLE bench_bigserial (id bigserial PRIMARY KEY, n int);
SQL
}

# Removes what setup_database made, so an existing server is left as found
# (apart from the two extensions, which may have been there before).
drop_bench_objects() {
    sql <<'SQL'
DROP TABLE IF EXISTS bench_uuid_v7, bench_uuid_v4, bench_bigserial;
DROP SEQUENCE IF EXISTS bench_seq;
DROP FUNCTION IF EXISTS bench_time(text);
SQL
}

# time_query ORDER QUERY: seconds QUERY takes with idgen.uuid_v7_order=ORDER.
# The order is set explicitly every time so a server default cannot leak in.
time_query() {
    local order=$1 query=$2
    sql -v order="$order" -v query="$query" <<'SQL'
SET idgen.uuid_v7_order = :'order';
SELECT bench_time(:'query');
SQL
}

# ---------------------------------------------------------------------------
# Arithmetic helpers (bash has no floating point)

# median VALUES...: middle value, or the mean of the two middle ones.
median() {
    printf '%s\n' "$@" | sort -g | awk '
        { v[NR] = $1 }
        END { if (NR % 2) m = v[(NR + 1) / 2]; else m = (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "%.9g\n", m }'
}

# calc EXPR: evaluates a floating-point expression with awk.
calc() {
    awk "BEGIN { printf \"%.9g\n\", $1 }"
}

# fmt DECIMALS VALUE
fmt() {
    awk -v d="$1" -v v="$2" 'BEGIN { printf "%.*f\n", d, v }'
}

# verdict VALUE OP TARGET: "met" or "missed", for the report only.
verdict() {
    if awk -v v="$1" -v t="$3" "BEGIN { exit !(v $2 t) }"; then echo met; else echo missed; fi
}

# ---------------------------------------------------------------------------
# Part 1: per-call cost

# Labels, in the order they run each rep and appear in the report.
CALL_LABELS=(
    "uuid_v7()"
    "uuid_v7() [server order]"
    "gen_random_uuid()"
    "nextval('bench_seq')"
    "clock_timestamp()"
    "empty loop"
)
declare -A CALL_EXPR=(
    ["uuid_v7()"]="count(uuid_v7())"
    ["uuid_v7() [server order]"]="count(uuid_v7())"
    ["gen_random_uuid()"]="count(gen_random_uuid())"
    ["nextval('bench_seq')"]="count(nextval('bench_seq'))"
    ["clock_timestamp()"]="count(clock_timestamp())"
    ["empty loop"]="count(*)"
)
declare -A CALL_ORDER=(
    ["uuid_v7() [server order]"]=server
)
declare -A CALL_SECONDS=()   # label -> space-separated seconds, one per rep
declare -A CALL_NS=()        # label -> median ns/call

# Every rep runs every expression once, in the same order, so slow drift
# (thermal, other load) hits all of them alike instead of one expression.
run_part1() {
    local rep label seconds
    for ((rep = 1; rep <= REPS; rep++)); do
        log "part 1: rep $rep/$REPS"
        for label in "${CALL_LABELS[@]}"; do
            seconds=$(time_query "${CALL_ORDER[$label]:-backend}" \
                "SELECT ${CALL_EXPR[$label]} FROM generate_series(1, $CALLS)")
            CALL_SECONDS[$label]+="$seconds "
        done
    done
    for label in "${CALL_LABELS[@]}"; do
        # shellcheck disable=SC2086 # word splitting of the list is intended
        seconds=$(median ${CALL_SECONDS[$label]})
        CALL_NS[$label]=$(calc "$seconds * 1e9 / $CALLS")
    done
}

# ---------------------------------------------------------------------------
# Part 2: bulk load into a primary key

BULK_TABLES=(bench_uuid_v7 bench_uuid_v4 bench_bigserial)
declare -A BULK_SECONDS=()   # table -> space-separated seconds, one per rep
declare -A BULK_MEDIAN=()    # table -> median seconds
declare -A PKEY_MB=()
declare -A LEAF_DENSITY=()

# Empties TABLE and checkpoints, so every load starts from the same state and
# does not pay for the previous load's dirty buffers.
reset_table() {
    local table=$1 restart=""
    [[ $table == bench_bigserial ]] && restart=" RESTART IDENTITY"
    sql -c "TRUNCATE $table$restart" -c "CHECKPOINT"
}

run_part2() {
    local bulk_reps=$((REPS < 3 ? REPS : 3)) rep table seconds
    for ((rep = 1; rep <= bulk_reps; rep++)); do
        log "part 2: rep $rep/$bulk_reps"
        for table in "${BULK_TABLES[@]}"; do
            reset_table "$table"
            seconds=$(time_query backend \
                "INSERT INTO $table (n) SELECT g FROM generate_series(1, $ROWS) g")
            BULK_SECONDS[$table]+="$seconds "
        done
    done
    for table in "${BULK_TABLES[@]}"; do
        # shellcheck disable=SC2086 # word splitting of the list is intended
        BULK_MEDIAN[$table]=$(median ${BULK_SECONDS[$table]})
        PKEY_MB[$table]=$(sql -c "SELECT pg_relation_size('${table}_pkey') / 1048576.0")
        LEAF_DENSITY[$table]=$(sql -c "SELECT avg_leaf_density FROM pgstatindex('${table}_pkey')")
    done
}

# ---------------------------------------------------------------------------
# Report

report() {
    local label table version extversion v7 v4 empty
    version=$(sql -c "SHOW server_version")
    extversion=$(sql -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")
    v4=${CALL_NS["gen_random_uuid()"]}
    v7=${CALL_NS["uuid_v7()"]}
    empty=${CALL_NS["empty loop"]}

    echo "# uuid_v7 benchmark"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M:%S UTC') · PostgreSQL $version · idgen $extversion ·" \
        "nproc $(nproc) · calls $CALLS, rows $ROWS, reps $REPS$( ((QUICK)) && echo ' (--quick)')"
    echo
    echo "## Per-call cost"
    echo
    echo "\`SELECT count(f) FROM generate_series(1, $CALLS)\`, timed inside the server;" \
        "median of $REPS interleaved reps. Figures include the loop itself (see \`empty loop\`)."
    echo
    echo "| function | ns/call (median) | ratio to gen_random_uuid() |"
    echo "|---|---:|---:|"
    for label in "${CALL_LABELS[@]}"; do
        echo "| \`$label\` | $(fmt 1 "${CALL_NS[$label]}") | $(fmt 2 "$(calc "${CALL_NS[$label]} / $v4")") |"
    done
    echo
    echo "Net of the empty loop: uuid_v7() $(fmt 1 "$(calc "$v7 - $empty")") ns," \
        "gen_random_uuid() $(fmt 1 "$(calc "$v4 - $empty")") ns."
    echo
    echo "## Bulk load"
    echo
    echo "\`INSERT INTO t (n) SELECT g FROM generate_series(1, $ROWS) g\` after TRUNCATE and CHECKPOINT," \
        "timed inside the server; median of $((REPS < 3 ? REPS : 3)) interleaved reps." \
        "Index figures are from the last load."
    echo
    echo "| key | insert seconds (median) | ratio to bigserial | pkey MB | leaf density % |"
    echo "|---|---:|---:|---:|---:|"
    local base=${BULK_MEDIAN[bench_bigserial]}
    for table in "${BULK_TABLES[@]}"; do
        echo "| ${table#bench_} | $(fmt 3 "${BULK_MEDIAN[$table]}")" \
            "| $(fmt 2 "$(calc "${BULK_MEDIAN[$table]} / $base")")" \
            "| $(fmt 1 "${PKEY_MB[$table]}") | $(fmt 1 "${LEAF_DENSITY[$table]}") |"
    done
    echo
    echo "## idgen targets"
    echo
    local call_ratio bulk_ratio density
    call_ratio=$(fmt 2 "$(calc "$v7 / $v4")")
    bulk_ratio=$(fmt 2 "$(calc "${BULK_MEDIAN[bench_uuid_v7]} / $base")")
    density=$(fmt 1 "${LEAF_DENSITY[bench_uuid_v7]}")
    echo "- uuid_v7() / gen_random_uuid() = $call_ratio" \
        "(target <= $TARGET_CALL_RATIO: $(verdict "$call_ratio" '<=' "$TARGET_CALL_RATIO"))"
    echo "- uuid_v7 bulk / bigserial = $bulk_ratio" \
        "(target <= $TARGET_BULK_RATIO: $(verdict "$bulk_ratio" '<=' "$TARGET_BULK_RATIO"))"
    echo "- uuid_v7 leaf density = $density%" \
        "(target >= $TARGET_LEAF_DENSITY%: $(verdict "$density" '>=' "$TARGET_LEAF_DENSITY"))"
}

# Writes the report to stdout and results/latest.md; published runs also keep
# a timestamped copy so results can be compared over time. Scratch runs (CI,
# the test suite, the demo) go to the git-ignored results/tmp/ so they never
# replace the published figures.
publish() {
    local text=$1 dir=$RESULTS_DIR
    ((SCRATCH)) && dir="$RESULTS_DIR/tmp"
    mkdir -p "$dir"
    printf '%s\n' "$text" | tee "$dir/latest.md"
    if ((!SCRATCH)); then
        printf '%s\n' "$text" >"$dir/uuid_v7-$(date '+%Y%m%d-%H%M%S').md"
    fi
}

# --quick exists for CI to prove the benchmark runs end to end, so there it
# checks that every figure is a positive number. Timings are never judged.
is_positive_number() {
    [[ $1 =~ ^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]] && awk -v v="$1" 'BEGIN { exit !(v > 0) }'
}

sanity_check() {
    local bad=() name value
    # check NAME VALUE: remembers NAME if VALUE is not a positive number.
    check() {
        is_positive_number "$2" || bad+=("$1='$2'")
    }
    for name in "${CALL_LABELS[@]}"; do
        for value in ${CALL_SECONDS[$name]}; do check "seconds[$name]" "$value"; done
        check "ns/call[$name]" "${CALL_NS[$name]:-}"
    done
    for name in "${BULK_TABLES[@]}"; do
        for value in ${BULK_SECONDS[$name]}; do check "seconds[$name]" "$value"; done
        check "median[$name]" "${BULK_MEDIAN[$name]:-}"
        check "pkey MB[$name]" "${PKEY_MB[$name]:-}"
        check "leaf density[$name]" "${LEAF_DENSITY[$name]:-}"
    done
    ((${#CALL_SECONDS[@]} == ${#CALL_LABELS[@]})) || bad+=("part 1 measured ${#CALL_SECONDS[@]} of ${#CALL_LABELS[@]} functions")
    ((${#BULK_SECONDS[@]} == ${#BULK_TABLES[@]})) || bad+=("part 2 measured ${#BULK_SECONDS[@]} of ${#BULK_TABLES[@]} tables")
    if ((${#bad[@]})); then
        printf 'bench: the benchmark itself is broken, bad figure: %s\n' "${bad[@]}" >&2
        exit 1
    fi
    log "quick run OK: every figure is a positive number"
}

main() {
    parse_args "$@"
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM

    start_server
    setup_database
    run_part1
    run_part2
    local text
    text=$(report)
    drop_bench_objects
    publish "$text"
    ((QUICK)) && sanity_check
    return 0
}

main "$@"
