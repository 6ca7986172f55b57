#!/usr/bin/env bash
# idgen benchmark: per-call cost of ID generators (uuid_v7, snowflake and
# references), bulk-load cost of the keys they produce, and single-row insert
# throughput under pgbench. It prints figures and ratios; it never fails on a
# timing threshold. Only a broken run (failed query, missing figure) exits
# non-zero.
#
# Usage: bash test/bench/bench.sh [--quick] [--scratch] [--calls N] [--rows N] [--reps N]
#                                 [--clients N] [--pgbench-seconds N]
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
TARGET_LEAF_DENSITY=88   # uuid_v7 and snowflake pkey avg_leaf_density >= this %
TARGET_SF_NEXTVAL=0.6    # snowflake(n) ns/call <= this x nextval()
TARGET_SF_CLOCK=1.3      # snowflake(n) ns/call <= this x clock_timestamp()
TARGET_SF_BULK=1.05      # snowflake bulk insert <= this x bigserial
TARGET_SF_TPS=1.0        # snowflake pgbench TPS >= this x bigserial

CALLS=5000000
ROWS=2000000
REPS=5
CLIENTS=2
PGBENCH_SECONDS=15
QUICK=0
SCRATCH=0
CLUSTER_DIR=""
WORK_DIR=""
SF_STATE_BEFORE=""
PGBENCH="$PG_BIN/pgbench"

# Part 1 gives snowflake(n) a fresh shard every rep, so no rep starts on a
# shard that an earlier rep left running ahead of the clock. Parts 2 and 3 use
# shard 1, which part 1 never touches.
SF_CALL_SHARD_BASE=1000
SF_KEY_SHARD=1

die() {
    echo "bench: $*" >&2
    exit 1
}

log() {
    echo "bench: $*" >&2
}

usage() {
    echo "usage: bash test/bench/bench.sh [--quick] [--scratch] [--calls N] [--rows N] [--reps N]" \
        "[--clients N] [--pgbench-seconds N]" >&2
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
            --quick) QUICK=1; SCRATCH=1; CALLS=20000; ROWS=20000; REPS=2; PGBENCH_SECONDS=2 ;;
            --scratch) SCRATCH=1 ;;
            --calls) CALLS=$(positive_int "$1" "${2:-}"); shift ;;
            --rows) ROWS=$(positive_int "$1" "${2:-}"); shift ;;
            --reps) REPS=$(positive_int "$1" "${2:-}"); shift ;;
            --clients) CLIENTS=$(positive_int "$1" "${2:-}"); shift ;;
            --pgbench-seconds) PGBENCH_SECONDS=$(positive_int "$1" "${2:-}"); shift ;;
            -h | --help) usage ;;
            *) echo "bench: unknown argument '$1'" >&2; usage ;;
        esac
        shift
    done
    # Part 3 needs pgbench of the same major version as the server.
    [[ -x $PGBENCH ]] || die "pgbench not found at $PGBENCH (it comes with postgresql-$PG_MAJOR)"
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
    if [[ -n $WORK_DIR ]]; then
        rm -rf "$WORK_DIR"
        WORK_DIR=""
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

DROP TABLE IF EXISTS bench_uuid_v7, bench_uuid_v4, bench_bigserial, bench_snowflake;
CREATE TABLE bench_uuid_v7 (id uuid PRIMARY KEY DEFAULT uuid_v7(), n int);
CREATE TABLE bench_uuid_v4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
CREATE TABLE bench_bigserial (id bigserial PRIMARY KEY, n int);
SQL
    sql -c "CREATE TABLE bench_snowflake (id bigint PRIMARY KEY DEFAULT snowflake($SF_KEY_SHARD), n int)"
    SF_STATE_BEFORE=$(snowflake_state)
}

# Prints "waits borrowed_ms clock_regressions" summed over the shards the
# benchmark uses, from idgen_snowflake_shards (counters since server start).
snowflake_state() {
    sql -F ' ' -c "SELECT coalesce(sum(waits), 0), coalesce(sum(borrowed_ms), 0),
                          coalesce(sum(clock_regressions), 0)
                   FROM idgen_snowflake_shards
                   WHERE shard = $SF_KEY_SHARD OR shard > $SF_CALL_SHARD_BASE"
}

# Removes what setup_database made, so an existing server is left as found
# (apart from the two extensions, which may have been there before).
drop_bench_objects() {
    sql <<'SQL'
DROP TABLE IF EXISTS bench_uuid_v7, bench_uuid_v4, bench_bigserial, bench_snowflake;
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
    "snowflake(n)"
    "empty loop"
)
# @shard@ is replaced by the rep's own shard (see SF_CALL_SHARD_BASE).
declare -A CALL_EXPR=(
    ["uuid_v7()"]="count(uuid_v7())"
    ["uuid_v7() [server order]"]="count(uuid_v7())"
    ["gen_random_uuid()"]="count(gen_random_uuid())"
    ["nextval('bench_seq')"]="count(nextval('bench_seq'))"
    ["clock_timestamp()"]="count(clock_timestamp())"
    ["snowflake(n)"]="count(snowflake(@shard@))"
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
    local rep label seconds expr
    for ((rep = 1; rep <= REPS; rep++)); do
        log "part 1: rep $rep/$REPS"
        for label in "${CALL_LABELS[@]}"; do
            # Shards 1001..8191; a 7000th rep would wrap, long after the first went quiet.
            expr=${CALL_EXPR[$label]//@shard@/$((SF_CALL_SHARD_BASE + 1 + (rep - 1) % 7000))}
            seconds=$(time_query "${CALL_ORDER[$label]:-backend}" \
                "SELECT $expr FROM generate_series(1, $CALLS)")
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

BULK_TABLES=(bench_uuid_v7 bench_uuid_v4 bench_bigserial bench_snowflake)
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
# Part 3: single-row inserts under pgbench

# The same tables as part 2, in the order they run each rep.
PGBENCH_TABLES=(bench_bigserial bench_snowflake bench_uuid_v7 bench_uuid_v4)
declare -A PGBENCH_TPS=()      # table -> space-separated TPS, one per rep
declare -A PGBENCH_MEDIAN=()   # table -> median TPS

# pgbench_tps TABLE: runs the one-row insert script on TABLE for
# PGBENCH_SECONDS with CLIENTS clients and prints the TPS. A failed client
# (an error from the key's generator, say) fails the run with pgbench's output.
pgbench_tps() {
    local table=$1 script="$WORK_DIR/$1.sql" out tps
    echo "INSERT INTO $table DEFAULT VALUES;" >"$script"
    if ! out=$(PGOPTIONS="${PGOPTIONS:-} -c synchronous_commit=off -c client_min_messages=warning" \
        "$PGBENCH" -n -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$PGBENCH_SECONDS" -f "$script" 2>&1); then
        printf '%s\n' "$out" >&2
        die "pgbench failed on $table"
    fi
    tps=$(awk '$1 == "tps" && $2 == "=" { print $3; exit }' <<<"$out")
    if [[ -z $tps ]]; then
        printf '%s\n' "$out" >&2
        die "pgbench printed no tps for $table"
    fi
    echo "$tps"
}

# Every rep runs every table once, after TRUNCATE and CHECKPOINT, so each run
# starts from an empty table and drift hits all generators alike.
run_part3() {
    local pgbench_reps=$((REPS < 3 ? REPS : 3)) rep table tps
    WORK_DIR=$(mktemp -d)
    for ((rep = 1; rep <= pgbench_reps; rep++)); do
        log "part 3: rep $rep/$pgbench_reps (pgbench, $CLIENTS clients, ${PGBENCH_SECONDS}s per table)"
        for table in "${PGBENCH_TABLES[@]}"; do
            reset_table "$table"
            tps=$(pgbench_tps "$table")
            PGBENCH_TPS[$table]+="$tps "
        done
    done
    for table in "${PGBENCH_TABLES[@]}"; do
        # shellcheck disable=SC2086 # word splitting of the list is intended
        PGBENCH_MEDIAN[$table]=$(median ${PGBENCH_TPS[$table]})
    done
}

# ---------------------------------------------------------------------------
# Report

report() {
    local label table version extversion v7 v4 empty nextval clock sf
    version=$(sql -c "SHOW server_version")
    extversion=$(sql -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")
    v4=${CALL_NS["gen_random_uuid()"]}
    v7=${CALL_NS["uuid_v7()"]}
    nextval=${CALL_NS["nextval('bench_seq')"]}
    clock=${CALL_NS["clock_timestamp()"]}
    sf=${CALL_NS["snowflake(n)"]}
    empty=${CALL_NS["empty loop"]}
    local capped_reps=$((REPS < 3 ? REPS : 3))   # parts 2 and 3

    echo "# idgen benchmark"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M:%S UTC') · PostgreSQL $version · idgen $extversion ·" \
        "nproc $(nproc) · calls $CALLS, rows $ROWS, reps $REPS," \
        "pgbench $CLIENTS clients x ${PGBENCH_SECONDS}s$( ((QUICK)) && echo ' (--quick)')"
    echo
    echo "## Per-call cost"
    echo
    echo "\`SELECT count(f) FROM generate_series(1, $CALLS)\`, timed inside the server;" \
        "median of $REPS interleaved reps. Figures include the loop itself (see \`empty loop\`)." \
        "\`snowflake(n)\` uses shard n = $((SF_CALL_SHARD_BASE + 1)), $((SF_CALL_SHARD_BASE + 2)), ..." \
        "(a quiet shard each rep)."
    echo
    echo "| function | ns/call (median) | ratio to gen_random_uuid() | ratio to nextval() | ratio to clock_timestamp() |"
    echo "|---|---:|---:|---:|---:|"
    for label in "${CALL_LABELS[@]}"; do
        echo "| \`$label\` | $(fmt 1 "${CALL_NS[$label]}")" \
            "| $(fmt 2 "$(calc "${CALL_NS[$label]} / $v4")")" \
            "| $(fmt 2 "$(calc "${CALL_NS[$label]} / $nextval")")" \
            "| $(fmt 2 "$(calc "${CALL_NS[$label]} / $clock")") |"
    done
    echo
    echo "Net of the empty loop: uuid_v7() $(fmt 1 "$(calc "$v7 - $empty")") ns," \
        "gen_random_uuid() $(fmt 1 "$(calc "$v4 - $empty")") ns," \
        "snowflake(n) $(fmt 1 "$(calc "$sf - $empty")") ns," \
        "nextval() $(fmt 1 "$(calc "$nextval - $empty")") ns," \
        "clock_timestamp() $(fmt 1 "$(calc "$clock - $empty")") ns."
    echo
    echo "## Bulk load"
    echo
    echo "\`INSERT INTO t (n) SELECT g FROM generate_series(1, $ROWS) g\` after TRUNCATE and CHECKPOINT," \
        "timed inside the server; median of $capped_reps interleaved reps." \
        "Index figures are from the last load. The snowflake key is \`bigint DEFAULT snowflake($SF_KEY_SHARD)\`."
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
    echo "## Single-row inserts (pgbench)"
    echo
    echo "\`INSERT INTO t DEFAULT VALUES\` into the bulk-load tables, \`pgbench -n -M prepared" \
        "-c $CLIENTS -j $CLIENTS -T $PGBENCH_SECONDS\` with \`synchronous_commit = off\`," \
        "each run after TRUNCATE and CHECKPOINT; median of $capped_reps interleaved reps."
    echo
    echo "| key | TPS (median) | ratio to bigserial |"
    echo "|---|---:|---:|"
    local tps_base=${PGBENCH_MEDIAN[bench_bigserial]}
    for table in "${PGBENCH_TABLES[@]}"; do
        echo "| ${table#bench_} | $(fmt 0 "${PGBENCH_MEDIAN[$table]}")" \
            "| $(fmt 2 "$(calc "${PGBENCH_MEDIAN[$table]} / $tps_base")") |"
    done
    echo
    local before after
    read -r -a before <<<"$SF_STATE_BEFORE"
    read -r -a after <<<"$(snowflake_state)"
    echo "Snowflake shards used by this run (idgen_snowflake_shards): $((after[0] - before[0])) waits" \
        "for the clock, $((after[1] - before[1])) ms borrowed ahead of the clock," \
        "$((after[2] - before[2])) clock regressions."
    echo
    echo "## idgen targets"
    echo
    local call_ratio bulk_ratio density sf_nextval sf_clock sf_bulk sf_density sf_tps
    call_ratio=$(fmt 2 "$(calc "$v7 / $v4")")
    bulk_ratio=$(fmt 2 "$(calc "${BULK_MEDIAN[bench_uuid_v7]} / $base")")
    density=$(fmt 1 "${LEAF_DENSITY[bench_uuid_v7]}")
    sf_nextval=$(fmt 2 "$(calc "$sf / $nextval")")
    sf_clock=$(fmt 2 "$(calc "$sf / $clock")")
    sf_bulk=$(fmt 2 "$(calc "${BULK_MEDIAN[bench_snowflake]} / $base")")
    sf_density=$(fmt 1 "${LEAF_DENSITY[bench_snowflake]}")
    sf_tps=$(fmt 2 "$(calc "${PGBENCH_MEDIAN[bench_snowflake]} / $tps_base")")
    echo "- uuid_v7() / gen_random_uuid() = $call_ratio" \
        "(target <= $TARGET_CALL_RATIO: $(verdict "$call_ratio" '<=' "$TARGET_CALL_RATIO"))"
    echo "- uuid_v7 bulk / bigserial = $bulk_ratio" \
        "(target <= $TARGET_BULK_RATIO: $(verdict "$bulk_ratio" '<=' "$TARGET_BULK_RATIO"))"
    echo "- uuid_v7 leaf density = $density%" \
        "(target >= $TARGET_LEAF_DENSITY%: $(verdict "$density" '>=' "$TARGET_LEAF_DENSITY"))"
    echo "- snowflake(n) / nextval() = $sf_nextval" \
        "(target <= $TARGET_SF_NEXTVAL: $(verdict "$sf_nextval" '<=' "$TARGET_SF_NEXTVAL"))"
    echo "- snowflake(n) / clock_timestamp() = $sf_clock" \
        "(target <= $TARGET_SF_CLOCK: $(verdict "$sf_clock" '<=' "$TARGET_SF_CLOCK"))"
    echo "- snowflake bulk / bigserial = $sf_bulk" \
        "(target <= $TARGET_SF_BULK: $(verdict "$sf_bulk" '<=' "$TARGET_SF_BULK"))"
    echo "- snowflake leaf density = $sf_density%" \
        "(target >= $TARGET_LEAF_DENSITY%: $(verdict "$sf_density" '>=' "$TARGET_LEAF_DENSITY"))"
    echo "- snowflake pgbench TPS / bigserial = $sf_tps" \
        "(target >= $TARGET_SF_TPS: $(verdict "$sf_tps" '>=' "$TARGET_SF_TPS"))"
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
        printf '%s\n' "$text" >"$dir/idgen-$(date '+%Y%m%d-%H%M%S').md"
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
    for name in "${PGBENCH_TABLES[@]}"; do
        for value in ${PGBENCH_TPS[$name]}; do check "tps[$name]" "$value"; done
        check "median tps[$name]" "${PGBENCH_MEDIAN[$name]:-}"
    done
    ((${#CALL_SECONDS[@]} == ${#CALL_LABELS[@]})) || bad+=("part 1 measured ${#CALL_SECONDS[@]} of ${#CALL_LABELS[@]} functions")
    ((${#BULK_SECONDS[@]} == ${#BULK_TABLES[@]})) || bad+=("part 2 measured ${#BULK_SECONDS[@]} of ${#BULK_TABLES[@]} tables")
    ((${#PGBENCH_TPS[@]} == ${#PGBENCH_TABLES[@]})) || bad+=("part 3 measured ${#PGBENCH_TPS[@]} of ${#PGBENCH_TABLES[@]} tables")
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
    run_part3
    local text
    text=$(report)
    drop_bench_objects
    publish "$text"
    ((QUICK)) && sanity_check
    return 0
}

main "$@"
