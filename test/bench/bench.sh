#!/usr/bin/env bash
# idgen benchmark: per-call cost of ID generators (uuid_v7, ulid,
# prefixed_id_new, snowflake and references), the cost of the text output of
# ulid and prefixed_id and of building an index on a ulid column (each next to
# uuid holding the same bytes), bulk-load cost of the keys they produce, and
# single-row insert throughput under pgbench. It prints figures and ratios; it
# never fails on a timing threshold. Only a broken run (failed query, missing
# figure) exits non-zero.
#
# Usage: bash test/bench/bench.sh [--quick] [--scratch] [--calls N] [--rows N] [--reps N]
#                                 [--index-rows N] [--clients N] [--pgbench-seconds N]
#                                 [--scale-rows N] [--scale-seconds N] [--scale-shared-buffers SIZE]
#                                 [--scale-memory SIZE|off]
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
# shellcheck source=SCRIPTDIR/memory_cap.sh
source "$BENCH_DIR/memory_cap.sh"

# The idgen targets the report evaluates. Informational only.
TARGET_CALL_RATIO=0.20   # uuid_v7(), ulid(), prefixed_id_new() ns/call <= this x gen_random_uuid()
TARGET_SF_NEXTVAL=0.6    # snowflake(n) ns/call <= this x nextval()
TARGET_SF_CLOCK=1.3      # snowflake(n) ns/call <= this x clock_timestamp()
TARGET_TEXT_RATIO=1.5    # ulid and prefixed_id text output ns/value (net of the scan) <= this x uuid's
TARGET_ULID_INDEX=1.1    # CREATE INDEX on ulid <= this x on uuid (same bytes)
TARGET_BULK_RATIO=1.25   # uuid_v7, ulid and prefixed_id bulk insert <= this x bigserial
TARGET_SF_BULK=1.05      # snowflake bulk insert <= this x bigserial
TARGET_LEAF_DENSITY=88   # every idgen key's pkey avg_leaf_density >= this %
TARGET_TPS_RATIO=0.97    # every idgen key's pgbench TPS (synchronous_commit off) >= this x bigserial
TARGET_SF_TPS=1.0        # snowflake's, which has no UUID to build, >= this x bigserial
TARGET_SCALE_RATIO=2     # uuid_v7 TPS >= this x gen_random_uuid() at part 6's largest size

CALLS=5000000
ROWS=2000000
REPS=5
INDEX_ROWS=5000000
CLIENTS=2
PGBENCH_SECONDS=10
SCALE_ROWS=4000000
SCALE_SECONDS=10
SCALE_SHARED_BUFFERS=16MB
SCALE_MEMORY=128MB
QUICK=0
SCRATCH=0
CLUSTER_DIR=""
WORK_DIR=""
SF_STATE_BEFORE=""
PGBENCH="$PG_BIN/pgbench"

# Part 1 gives snowflake(n) a fresh shard every rep, so no rep starts on a
# shard that an earlier rep left running ahead of the clock. Parts 4 and 5 use
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
        "[--index-rows N] [--clients N] [--pgbench-seconds N]" \
        "[--scale-rows N] [--scale-seconds N] [--scale-shared-buffers SIZE] [--scale-memory SIZE|off]" >&2
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
            --quick)
                QUICK=1; SCRATCH=1; CALLS=20000; ROWS=20000; REPS=2; INDEX_ROWS=20000; PGBENCH_SECONDS=2
                SCALE_ROWS=20000; SCALE_SECONDS=1 ;;
            --scratch) SCRATCH=1 ;;
            --calls) CALLS=$(positive_int "$1" "${2:-}"); shift ;;
            --rows) ROWS=$(positive_int "$1" "${2:-}"); shift ;;
            --reps) REPS=$(positive_int "$1" "${2:-}"); shift ;;
            --index-rows) INDEX_ROWS=$(positive_int "$1" "${2:-}"); shift ;;
            --clients) CLIENTS=$(positive_int "$1" "${2:-}"); shift ;;
            --pgbench-seconds) PGBENCH_SECONDS=$(positive_int "$1" "${2:-}"); shift ;;
            --scale-rows) SCALE_ROWS=$(positive_int "$1" "${2:-}"); shift ;;
            --scale-seconds) SCALE_SECONDS=$(positive_int "$1" "${2:-}"); shift ;;
            --scale-shared-buffers)
                [[ ${2:-} =~ ^[1-9][0-9]*(kB|MB|GB)$ ]] || die "$1 needs a size such as 16MB, got '${2:-}'"
                SCALE_SHARED_BUFFERS=$2; shift ;;
            --scale-memory)
                [[ ${2:-} =~ ^([1-9][0-9]*(MB|GB)|off)$ ]] || die "$1 needs a size such as 128MB, or off, got '${2:-}'"
                SCALE_MEMORY=$2; shift ;;
            -h | --help) usage ;;
            *) echo "bench: unknown argument '$1'" >&2; usage ;;
        esac
        shift
    done
    # Part 5 needs pgbench of the same major version as the server.
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
    memory_cap_remove || true
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
    sql -c "CREATE EXTENSION IF NOT EXISTS idgen" -c "CREATE EXTENSION IF NOT EXISTS pgstattuple"
    # An idgen created before 0.4.0 has no prefixed_id; say so rather than
    # fail on the first query that needs it.
    [[ $(sql -c "SELECT to_regtype('prefixed_id') IS NOT NULL") == t ]] ||
        die "idgen $(sql -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'") has no prefixed_id type" \
            "(0.4.0 or later has it: ALTER EXTENSION idgen UPDATE)"
    sql <<'SQL'
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

-- bench_text (part 2) and bench_index (part 3) are made by their parts;
-- these drops only clear what a failed earlier run left behind.
DROP TABLE IF EXISTS bench_uuid_v7, bench_uuid_v4, bench_bigserial, bench_snowflake,
    bench_ulid, bench_prefixed, bench_text, bench_index;
CREATE TABLE bench_uuid_v7 (id uuid PRIMARY KEY DEFAULT uuid_v7(), n int);
CREATE TABLE bench_uuid_v4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
CREATE TABLE bench_bigserial (id bigserial PRIMARY KEY, n int);
CREATE TABLE bench_ulid (id ulid PRIMARY KEY DEFAULT ulid(), n int);
CREATE TABLE bench_prefixed (id prefixed_id PRIMARY KEY DEFAULT prefixed_id_new('acct'), n int);
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
DROP TABLE IF EXISTS bench_uuid_v7, bench_uuid_v4, bench_bigserial, bench_snowflake,
    bench_ulid, bench_prefixed, bench_text, bench_index;
DROP SEQUENCE IF EXISTS bench_seq;
DROP FUNCTION IF EXISTS bench_time(text);
SQL
}

# time_query ORDER QUERY: seconds QUERY takes with idgen.uuid_v7_order=ORDER.
# The order is set explicitly every time so a server default cannot leak in.
time_query() {
    time_with "SET idgen.uuid_v7_order = '$1';" "$2"
}

# time_with SETTINGS QUERY: seconds QUERY takes after SETTINGS (SET commands
# written in this script, never user input) in the same session.
time_with() {
    local settings=$1 query=$2
    sql -v query="$query" <<SQL
$settings
SELECT bench_time(:'query');
SQL
}

# ---------------------------------------------------------------------------
# Arithmetic helpers (bash has no floating point)

# medians SAMPLES RESULTS SCALE KEYS...: for each key, RESULTS[key] = the
# median of the space-separated SAMPLES[key] times SCALE (both arrays named).
medians() {
    local -n samples=$1 results=$2
    local scale=$3 key
    shift 3
    for key in "$@"; do
        # SC2086: word splitting of the list is intended; SC2034 and SC2004:
        # results is a nameref to an associative array, keyed by strings.
        # shellcheck disable=SC2086,SC2034,SC2004
        results[$key]=$(calc "$(median ${samples[$key]}) * $scale")
    done
}

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

# fmt_list DECIMALS "VALUES": each value with fmt, separated by " / ".
fmt_list() {
    local value out=""
    for value in $2; do out+="${out:+ / }$(fmt "$1" "$value")"; done
    echo "$out"
}

# fmt DECIMALS VALUE
fmt() {
    awk -v d="$1" -v v="$2" 'BEGIN { printf "%.*f\n", d, v }'
}

# verdict VALUE OP TARGET: "met" or "missed", for the report only; "n/a"
# when VALUE is not a number (a ratio that could not be formed).
verdict() {
    if [[ $1 == n/a ]]; then
        echo n/a
    elif awk -v v="$1" -v t="$3" "BEGIN { exit !(v $2 t) }"; then
        echo met
    else
        echo missed
    fi
}

# x_of VALUE BASE: VALUE / BASE to 2 decimals, for "ratio to" columns.
x_of() {
    fmt 2 "$(calc "$1 / $2")"
}

# ratio_if_positive NUM DEN: NUM / DEN to 2 decimals, or "n/a" unless both
# are above zero (a net figure can be zero or negative in a noisy small run).
ratio_if_positive() {
    if awk -v n="$1" -v d="$2" 'BEGIN { exit !(n > 0 && d > 0) }'; then
        x_of "$1" "$2"
    else
        echo n/a
    fi
}

# ---------------------------------------------------------------------------
# Part 1: per-call cost

# Labels, in the order they run each rep and appear in the report.
CALL_LABELS=(
    "uuid_v7()"
    "uuid_v7() [server order]"
    "ulid()"
    "prefixed_id_new('acct')"
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
    ["ulid()"]="count(ulid())"
    ["prefixed_id_new('acct')"]="count(prefixed_id_new('acct'))"
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
    medians CALL_SECONDS CALL_NS "1e9 / $CALLS" "${CALL_LABELS[@]}"
}

# ---------------------------------------------------------------------------
# Tables of ulid and uuid holding the same bytes (parts 2 and 3)

# fill_pair_table TABLE ROWS ID_EXPR [COLUMN TYPE EXPR]...: (re)creates
# TABLE (id ulid, u uuid) with ROWS rows, id = ID_EXPR over g = 1..ROWS stored
# in random order, and u = id::uuid, then freezes it so no timed query sets
# hint bits. Dies unless every row holds the same bytes in both columns. Each
# optional triple adds a column COLUMN of type TYPE after u, filled with EXPR,
# which may use id and u (the caller checks what it holds).
fill_pair_table() {
    local table=$1 rows=$2 id_expr=$3 ok defs="" names="" values=""
    shift 3
    while (($# >= 3)); do
        defs+=", $1 $2"
        names+=", $1"
        values+=", $3"
        shift 3
    done
    (($# == 0)) || die "fill_pair_table: extra columns come as COLUMN TYPE EXPR triples"
    sql -c "DROP TABLE IF EXISTS $table" \
        -c "CREATE TABLE $table (id ulid, u uuid$defs)" \
        -c "INSERT INTO $table (id, u$names)
            SELECT id, u$values
            FROM (SELECT id, id::uuid AS u
                  FROM (SELECT $id_expr AS id FROM generate_series(1, $rows) g) s) s
            ORDER BY random()" \
        -c "VACUUM (FREEZE, ANALYZE) $table"
    ok=$(sql -c "SELECT count(*) = $rows AND count(*) FILTER (WHERE u IS DISTINCT FROM id::uuid) = 0
                 FROM $table")
    [[ $ok == t ]] || die "$table does not hold $rows rows with u = id::uuid"
}

# ---------------------------------------------------------------------------
# Part 2: text output, ulid and prefixed_id next to uuid

# bench_text has CALLS rows, but at most this many, so it stays near 170 MB.
TEXT_ROWS_CAP=2000000
TEXT_ROWS=0   # set by run_part2
# The prefix of bench_text's prefixed_id column p, which holds the same 128
# bits as u: prefixed_id_from_uuid('acct', u).
TEXT_PREFIX=acct
# Labels, in the order they run each rep and appear in the report; the scan
# alone is the reference the conversions are measured net of.
TEXT_LABELS=(
    "scan only"
    "ulid_out"
    "uuid_out"
    "prefixed_id_out"
)
declare -A TEXT_EXPR=(
    ["scan only"]="count(*)"
    ["ulid_out"]="count(id::text)"
    ["uuid_out"]="count(u::text)"
    ["prefixed_id_out"]="count(p::text)"
)
# The column each conversion reads, and its type, for the sizes the report
# gives next to the timings.
TEXT_SIZE_LABELS=("ulid_out" "uuid_out" "prefixed_id_out")
declare -A TEXT_COLUMN=(["ulid_out"]=id ["uuid_out"]=u ["prefixed_id_out"]=p)
declare -A TEXT_TYPE=(["ulid_out"]=ulid ["uuid_out"]=uuid ["prefixed_id_out"]=prefixed_id)
declare -A TEXT_STORED_BYTES=()   # label -> avg pg_column_size of the stored column
declare -A TEXT_CHARS=()          # label -> avg length of its text
# A parallel scan or JIT would change the cost of the loop, not of the
# conversion, and could differ between queries; both are off for all of them.
TEXT_SETTINGS="SET max_parallel_workers_per_gather = 0; SET jit = off;"
declare -A TEXT_SECONDS=()   # label -> space-separated seconds, one per rep
declare -A TEXT_NS=()        # label -> median ns/value
declare -A TEXT_NET_NS=()    # label -> median ns/value minus the scan's median

# Every rep runs the scan and the conversions once, in the same order, over
# the same table, so drift hits them all alike.
run_part2() {
    local rep label seconds scan ok column sizes
    TEXT_ROWS=$((CALLS < TEXT_ROWS_CAP ? CALLS : TEXT_ROWS_CAP))
    log "part 2: filling bench_text with $TEXT_ROWS rows"
    fill_pair_table bench_text "$TEXT_ROWS" "ulid()" \
        p prefixed_id "prefixed_id_from_uuid('$TEXT_PREFIX', u)"
    ok=$(sql -c "SELECT count(*) FILTER (WHERE prefixed_id_uuid(p) IS DISTINCT FROM u
                                         OR prefixed_id_prefix(p) IS DISTINCT FROM '$TEXT_PREFIX') = 0
                 FROM bench_text")
    [[ $ok == t ]] || die "bench_text does not hold p = prefixed_id_from_uuid('$TEXT_PREFIX', u) in every row"
    # Sizes as stored in the table (a datum computed in a query would show a
    # 4-byte header where the column has 1), untimed.
    # The query's output is captured before read splits it: a failure inside
    # read's here-string would not stop the run.
    for label in "${TEXT_SIZE_LABELS[@]}"; do
        column=${TEXT_COLUMN[$label]}
        sizes=$(sql -F ' ' -c "SELECT avg(pg_column_size($column)), avg(length($column::text)) FROM bench_text")
        read -r "TEXT_STORED_BYTES[$label]" "TEXT_CHARS[$label]" <<<"$sizes"
    done
    # An untimed scan first, so the first timed query is not the only one
    # that reads the table from disk.
    sql -c "SELECT count(*) FROM bench_text" >/dev/null
    for ((rep = 1; rep <= REPS; rep++)); do
        log "part 2: rep $rep/$REPS"
        for label in "${TEXT_LABELS[@]}"; do
            seconds=$(time_with "$TEXT_SETTINGS" "SELECT ${TEXT_EXPR[$label]} FROM bench_text")
            TEXT_SECONDS[$label]+="$seconds "
        done
    done
    medians TEXT_SECONDS TEXT_NS "1e9 / $TEXT_ROWS" "${TEXT_LABELS[@]}"
    scan=${TEXT_NS["scan only"]}
    for label in "${TEXT_LABELS[@]}"; do
        TEXT_NET_NS[$label]=$(calc "${TEXT_NS[$label]} - $scan")
    done
    sql -c "DROP TABLE bench_text"
}

# ---------------------------------------------------------------------------
# Part 3: CREATE INDEX, ulid next to uuid

# Columns of bench_index: odd reps index them in this order, even reps in the
# reverse order, since a build right after another one runs measurably faster
# (the memory and page cache it needs are already warm).
INDEX_COLUMNS=(id u)
declare -A INDEX_TYPE=([id]=ulid [u]=uuid)
# Keys of 4 IDs per millisecond from a fixed instant, stored in random order.
INDEX_IDS_PER_MS=4
INDEX_ID_EXPR="ulid_at(timestamptz '2025-01-01 00:00:00+00' + (g / $INDEX_IDS_PER_MS) * interval '1 millisecond')"
# The same memory for both builds, enough for the default 5000000 rows to
# sort in memory; no parallel workers, so the figure is the type's, not the
# scheduling of workers.
INDEX_MEMORY=512MB
INDEX_SETTINGS="SET maintenance_work_mem = '$INDEX_MEMORY'; SET max_parallel_maintenance_workers = 0;"
declare -A INDEX_SECONDS=()   # column -> space-separated seconds, one per rep
declare -A INDEX_MEDIAN=()    # column -> median seconds
declare -A INDEX_MB=()        # column -> index size after the last build
BUILD_SECONDS=""              # the last build_index's time

# build_index COLUMN: times CREATE INDEX on COLUMN into BUILD_SECONDS, after
# DROP INDEX and CHECKPOINT so that every build starts from the same state,
# and keeps the index size.
build_index() {
    local column=$1
    sql -c "DROP INDEX IF EXISTS bench_index_$column" -c "CHECKPOINT"
    BUILD_SECONDS=$(time_with "$INDEX_SETTINGS" "CREATE INDEX bench_index_$column ON bench_index ($column)")
    INDEX_MB[$column]=$(sql -c "SELECT pg_relation_size('bench_index_$column') / 1048576.0")
    sql -c "DROP INDEX bench_index_$column"
}

# One untimed build of each column first, then an even number of reps (at
# most 4) that alternate the order, so neither type always builds first.
run_part3() {
    local index_reps=$((REPS < 4 ? REPS : 4)) rep column order
    log "part 3: filling bench_index with $INDEX_ROWS rows"
    fill_pair_table bench_index "$INDEX_ROWS" "$INDEX_ID_EXPR"
    log "part 3: warm-up builds"
    for column in "${INDEX_COLUMNS[@]}"; do build_index "$column"; done
    for ((rep = 1; rep <= index_reps; rep++)); do
        log "part 3: rep $rep/$index_reps"
        order=("${INDEX_COLUMNS[@]}")
        ((rep % 2 == 0)) && order=("${INDEX_COLUMNS[1]}" "${INDEX_COLUMNS[0]}")
        for column in "${order[@]}"; do
            build_index "$column"
            INDEX_SECONDS[$column]+="$BUILD_SECONDS "
        done
    done
    medians INDEX_SECONDS INDEX_MEDIAN 1 "${INDEX_COLUMNS[@]}"
    sql -c "DROP TABLE bench_index"
}

# ---------------------------------------------------------------------------
# Part 4: bulk load into a primary key

BULK_TABLES=(bench_uuid_v7 bench_ulid bench_prefixed bench_uuid_v4 bench_bigserial bench_snowflake)
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

run_part4() {
    local bulk_reps=$((REPS < 3 ? REPS : 3)) rep table seconds
    for ((rep = 1; rep <= bulk_reps; rep++)); do
        log "part 4: rep $rep/$bulk_reps"
        for table in "${BULK_TABLES[@]}"; do
            reset_table "$table"
            seconds=$(time_query backend \
                "INSERT INTO $table (n) SELECT g FROM generate_series(1, $ROWS) g")
            BULK_SECONDS[$table]+="$seconds "
        done
    done
    medians BULK_SECONDS BULK_MEDIAN 1 "${BULK_TABLES[@]}"
    for table in "${BULK_TABLES[@]}"; do
        PKEY_MB[$table]=$(sql -c "SELECT pg_relation_size('${table}_pkey') / 1048576.0")
        LEAF_DENSITY[$table]=$(sql -c "SELECT avg_leaf_density FROM pgstatindex('${table}_pkey')")
    done
}

# ---------------------------------------------------------------------------
# Part 5: single-row inserts under pgbench

# The same tables as part 4, in the order they run each rep, and the
# synchronous_commit settings each of them runs under.
PGBENCH_TABLES=(bench_bigserial bench_snowflake bench_uuid_v7 bench_ulid bench_prefixed bench_uuid_v4)
PGBENCH_COMMIT_MODES=(off on)
declare -A PGBENCH_TPS=()      # "mode table" -> space-separated TPS, one per rep
declare -A PGBENCH_MEDIAN=()   # "mode table" -> median TPS
declare -A MIXED_LATENCY_US=() # table -> space-separated mean latency (µs) in the mixed run, one per rep
declare -A MIXED_RATIO=()      # table -> space-separated bigserial latency / table latency, one per rep
declare -A MIXED_MEDIAN=()     # table -> median of MIXED_RATIO

# insert_pgbench SYNCHRONOUS_COMMIT SECONDS "TABLES" [OPTIONS...]: runs the
# one-row insert script of each of TABLES (one -f each, equal weights) for
# SECONDS with CLIENTS clients and prints pgbench's output. A failed client
# (an error from a key's generator, say) fails the run with that output.
insert_pgbench() {
    local commit_mode=$1 seconds=$2 tables=$3 table out scripts=()
    shift 3
    for table in $tables; do
        echo "INSERT INTO $table DEFAULT VALUES;" >"$WORK_DIR/$table.sql"
        scripts+=(-f "$WORK_DIR/$table.sql")
    done
    if ! out=$(PGOPTIONS="${PGOPTIONS:-} -c synchronous_commit=$commit_mode -c client_min_messages=warning" \
        "$PGBENCH" -n -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$seconds" "$@" "${scripts[@]}" 2>&1); then
        printf '%s\n' "$out" >&2
        die "pgbench failed on $tables"
    fi
    printf '%s\n' "$out"
}

# pgbench_tps TABLE SYNCHRONOUS_COMMIT SECONDS: runs TABLE's insert script and
# prints "TPS TRANSACTIONS". Callers capture the output before read splits it:
# a failure inside read's here-string would not stop the run.
pgbench_tps() {
    local table=$1 out tps transactions
    out=$(insert_pgbench "$2" "$3" "$table") || exit 1
    tps=$(awk '$1 == "tps" && $2 == "=" { print $3; exit }' <<<"$out")
    transactions=$(awk -F': ' '/^number of transactions actually processed/ { print $2; exit }' <<<"$out")
    if [[ -z $tps || -z $transactions ]]; then
        printf '%s\n' "$out" >&2
        die "pgbench printed no tps or transaction count for $table"
    fi
    echo "$tps ${transactions%%/*}"
}

# pgbench_mixed_latency SECONDS: one pgbench run, synchronous_commit off, in
# which each client picks one table's insert script at random for every
# transaction; prints each table's mean transaction latency in µs, in
# PGBENCH_TABLES order, from pgbench's per-transaction log.
pgbench_mixed_latency() {
    local log_dir="$WORK_DIR/mixed"
    rm -rf "$log_dir"
    mkdir -p "$log_dir"
    # -l writes pgbench_log.PID (and .PID.N per extra thread) under the prefix:
    # "client transaction latency_us script_index epoch us".
    insert_pgbench off "$1" "${PGBENCH_TABLES[*]}" -l --log-prefix="$log_dir/pgbench_log" >/dev/null || exit 1
    cat "$log_dir"/pgbench_log.* | awk -v scripts="${#PGBENCH_TABLES[@]}" '
        { count[$4]++; sum[$4] += $3 }
        END {
            for (i = 0; i < scripts; i++) {
                if (!count[i]) { print "no transactions logged for script " i > "/dev/stderr"; exit 1 }
                printf "%.6g\n", sum[i] / count[i]
            }
        }' || die "the mixed run's log is incomplete"
}

# Every rep runs every table under each synchronous_commit setting once, after
# TRUNCATE and CHECKPOINT, so each run starts from an empty table and drift
# hits all generators alike. Separate runs on a small VM move by 10% or more
# from one to the next with the scheduler, which is as large as the
# differences between keys; so each rep ends with a mixed run, where all
# keys share every second of it, and the key's ratio to bigserial is the
# ratio of their mean transaction latencies (its TPS relative to bigserial
# under identical conditions).
run_part5() {
    local pgbench_reps=$((REPS < 3 ? REPS : 3)) rep table mode result tps _ keys=() latencies i base
    for ((rep = 1; rep <= pgbench_reps; rep++)); do
        for mode in "${PGBENCH_COMMIT_MODES[@]}"; do
            log "part 5: rep $rep/$pgbench_reps, synchronous_commit = $mode" \
                "(pgbench, $CLIENTS clients, ${PGBENCH_SECONDS}s per table)"
            for table in "${PGBENCH_TABLES[@]}"; do
                reset_table "$table"
                result=$(pgbench_tps "$table" "$mode" "$PGBENCH_SECONDS")
                read -r tps _ <<<"$result"
                PGBENCH_TPS["$mode $table"]+="$tps "
            done
        done
        log "part 5: rep $rep/$pgbench_reps, all tables in one run (pgbench, $CLIENTS clients, ${PGBENCH_SECONDS}s)"
        for table in "${PGBENCH_TABLES[@]}"; do reset_table "$table"; done
        mapfile -t latencies < <(pgbench_mixed_latency "$PGBENCH_SECONDS")
        ((${#latencies[@]} == ${#PGBENCH_TABLES[@]})) || die "the mixed run gave ${#latencies[@]} latencies"
        for i in "${!PGBENCH_TABLES[@]}"; do
            [[ ${PGBENCH_TABLES[$i]} == bench_bigserial ]] && base=${latencies[$i]}
        done
        for i in "${!PGBENCH_TABLES[@]}"; do
            MIXED_LATENCY_US[${PGBENCH_TABLES[$i]}]+="${latencies[$i]} "
            MIXED_RATIO[${PGBENCH_TABLES[$i]}]+="$(calc "$base / ${latencies[$i]}") "
        done
    done
    for mode in "${PGBENCH_COMMIT_MODES[@]}"; do
        for table in "${PGBENCH_TABLES[@]}"; do keys+=("$mode $table"); done
    done
    medians PGBENCH_TPS PGBENCH_MEDIAN 1 "${keys[@]}"
    medians MIXED_RATIO MIXED_MEDIAN 1 "${PGBENCH_TABLES[@]}"
}

# ---------------------------------------------------------------------------
# Part 6: single-row inserts as the table grows past shared_buffers

# Measurement points, as fractions of SCALE_ROWS: each table is grown to that
# many rows, then measured.
SCALE_FRACTIONS=(0 0.1 0.25 0.5 0.75 1)
SCALE_TABLES=("${PGBENCH_TABLES[@]}")
declare -A SCALE_POINTS=()    # table -> space-separated "rows,tps,total_mb,wal_bytes_per_insert", one per point
declare -A SCALE_ROWS_NOW=()  # table -> rows it holds (bulk loads plus pgbench transactions)
SCALE_BUFFERS_SHOWN=""        # SHOW shared_buffers during part 6
SCALE_SETTING=""              # how shared_buffers was set, for the report
SCALE_MEMORY_SETTING=""       # the memory cap of part 6's server, or why there is none
SCALE_MEMORY_MB=""            # that cap in MB, empty when there is none

# scale_target FRACTION: the rows a point grows each table to.
scale_target() {
    awk -v r="$SCALE_ROWS" -v f="$1" 'BEGIN { printf "%d\n", r * f }'
}

# A table outgrows shared_buffers sooner on a small pool, so the throwaway
# cluster restarts with SCALE_SHARED_BUFFERS for this part (the last one). It
# restarts inside a memory cgroup of SCALE_MEMORY, page cache included, so the
# tables also outgrow the memory that could cache them: on a machine with
# gigabytes free, a shared_buffers miss would be a copy from the page cache,
# never the disk read it is once a production index outgrows RAM. Where no
# cgroup can be made, the run goes on uncapped and the report says why. An
# existing server is measured as it is.
use_scale_server() {
    SCALE_MEMORY_MB=""
    if [[ -z $CLUSTER_DIR ]]; then
        SCALE_SETTING="the existing server's own shared_buffers"
        SCALE_MEMORY_SETTING="not capped (an existing server is measured as it is)"
    else
        sql -c "ALTER SYSTEM SET shared_buffers = '$SCALE_SHARED_BUFFERS'"
        SCALE_SETTING="restarted with shared_buffers = '$SCALE_SHARED_BUFFERS'"
        if [[ $SCALE_MEMORY == off ]]; then
            SCALE_MEMORY_SETTING="not capped (--scale-memory off)"
            cluster_restart "$CLUSTER_DIR"
        elif memory_cap_create "idgen-bench-$$" "$(size_bytes "$SCALE_MEMORY")"; then
            memory_cap_run cluster_restart "$CLUSTER_DIR"
            local postmaster
            postmaster=$(head -1 "$CLUSTER_DIR/data/postmaster.pid")
            memory_cap_holds "$postmaster" || die "part 6: the postmaster ($postmaster) is not in $MEMORY_CAP_DIR"
            SCALE_MEMORY_MB=$(($(size_bytes "$SCALE_MEMORY") / 1048576))
            SCALE_MEMORY_SETTING="capped at $SCALE_MEMORY, page cache included (cgroup $MEMORY_CAP_KIND memory controller)"
        else
            log "part 6: $MEMORY_CAP_REASON; the server runs without a memory cap"
            SCALE_MEMORY_SETTING="not capped ($MEMORY_CAP_REASON)"
            cluster_restart "$CLUSTER_DIR"
        fi
    fi
    SCALE_BUFFERS_SHOWN=$(sql -c "SHOW shared_buffers")
}

# scale_server_words: part 6's memory in a few words, for logs, tables and the plot.
scale_server_words() {
    if [[ -n $SCALE_MEMORY_MB ]]; then
        echo "shared_buffers $SCALE_BUFFERS_SHOWN, server memory capped at ${SCALE_MEMORY_MB}MB"
    else
        echo "shared_buffers $SCALE_BUFFERS_SHOWN, server memory not capped"
    fi
}

# size_bytes SIZE: bytes in a size such as 128MB or 1GB.
size_bytes() {
    local number=${1%[MG]B}
    case $1 in
        *GB) echo $((number * 1073741824)) ;;
        *) echo $((number * 1048576)) ;;
    esac
}

# Each point grows every table by a bulk load to the point's row count
# (untimed), checkpoints, and times one pgbench run with synchronous_commit
# off. The checkpoint puts every table at the same place in the checkpoint
# cycle: the first change to each page after it writes a full-page image, as
# it does in production. All tables are measured at each point before the
# next one, so drift hits them alike.
run_part6() {
    local fraction target table result tps transactions mb lsn wal point=0
    use_scale_server
    for table in "${SCALE_TABLES[@]}"; do
        reset_table "$table"
        SCALE_ROWS_NOW[$table]=0
    done
    for fraction in "${SCALE_FRACTIONS[@]}"; do
        point=$((point + 1))
        target=$(scale_target "$fraction")
        log "part 6: point $point/${#SCALE_FRACTIONS[@]}, tables grown to $target rows" \
            "($(scale_server_words), pgbench ${SCALE_SECONDS}s per table)"
        for table in "${SCALE_TABLES[@]}"; do
            if ((SCALE_ROWS_NOW[$table] < target)); then
                sql -c "INSERT INTO $table (n) SELECT g FROM generate_series(1, $((target - SCALE_ROWS_NOW[$table]))) g"
                SCALE_ROWS_NOW[$table]=$target
            fi
            sql -c "CHECKPOINT"
            lsn=$(sql -c "SELECT pg_current_wal_lsn()")
            result=$(pgbench_tps "$table" off "$SCALE_SECONDS")
            read -r tps transactions <<<"$result"
            # WAL per insert shows what a key costs beyond the buffer pool:
            # the full-page images of the pages it touches for the first time
            # since the checkpoint (nothing else writes WAL meanwhile).
            wal=$(sql -c "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn') / $transactions")
            mb=$(sql -c "SELECT pg_total_relation_size('$table') / 1048576.0")
            SCALE_POINTS[$table]+="${SCALE_ROWS_NOW[$table]},$tps,$mb,$wal "
            SCALE_ROWS_NOW[$table]=$((SCALE_ROWS_NOW[$table] + transactions))
        done
    done
    # The row counts kept in bash are what the report and plot show; a
    # mismatch would mean a lost load or a pgbench count misread.
    for table in "${SCALE_TABLES[@]}"; do
        [[ $(sql -c "SELECT count(*) FROM $table") == "${SCALE_ROWS_NOW[$table]}" ]] ||
            die "part 6: $table holds $(sql -c "SELECT count(*) FROM $table") rows, expected ${SCALE_ROWS_NOW[$table]}"
    done
}

# scale_point TABLE INDEX FIELD: field 1 (rows), 2 (tps), 3 (total MB) or 4
# (WAL bytes per insert) of TABLE's INDEX-th point (0-based).
scale_point() {
    local points
    read -r -a points <<<"${SCALE_POINTS[$1]}"
    cut -d, -f"$3" <<<"${points[$2]}"
}

# write_scale_data FILE: one line per generator and point, tab-separated,
# with a header; the plot reads it.
write_scale_data() {
    local table i
    {
        printf 'generator\trows\ttps\ttotal_mb\twal_bytes_per_insert\n'
        for table in "${SCALE_TABLES[@]}"; do
            for ((i = 0; i < ${#SCALE_FRACTIONS[@]}; i++)); do
                printf '%s\t%s\t%s\t%s\t%s\n' "${PLOT_LABEL[$table]}" "$(scale_point "$table" "$i" 1)" \
                    "$(scale_point "$table" "$i" 2)" "$(scale_point "$table" "$i" 3)" "$(scale_point "$table" "$i" 4)"
            done
        done
    } >"$1"
}

# ---------------------------------------------------------------------------
# Report

# The generators of the summary, by the table they key in parts 4 to 6, with
# their expression in part 1 and their names in the report and the plot.
SUMMARY_TABLES=(bench_uuid_v7 bench_ulid bench_prefixed bench_snowflake bench_uuid_v4 bench_bigserial)
IDGEN_TABLES=(bench_uuid_v7 bench_ulid bench_prefixed bench_snowflake)
declare -A SUMMARY_CALL=(
    [bench_uuid_v7]="uuid_v7()" [bench_ulid]="ulid()" [bench_prefixed]="prefixed_id_new('acct')"
    [bench_snowflake]="snowflake(n)" [bench_uuid_v4]="gen_random_uuid()" [bench_bigserial]="nextval('bench_seq')"
)
declare -A SUMMARY_LABEL=(
    [bench_uuid_v7]="\`uuid_v7()\`" [bench_ulid]="\`ulid()\`" [bench_prefixed]="\`prefixed_id_new('acct')\`"
    [bench_snowflake]="\`snowflake(n)\`" [bench_uuid_v4]="\`gen_random_uuid()\`"
    [bench_bigserial]="bigserial (\`nextval()\`)"
)
declare -A PLOT_LABEL=(
    [bench_uuid_v7]="uuid_v7()" [bench_ulid]="ulid()" [bench_prefixed]="prefixed_id_new()"
    [bench_snowflake]="snowflake(n)" [bench_uuid_v4]="gen_random_uuid()" [bench_bigserial]="bigserial"
)

report() {
    local label table column version extversion v7 v4 ulid prefixed empty nextval clock sf
    version=$(sql -c "SHOW server_version")
    extversion=$(sql -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")
    v4=${CALL_NS["gen_random_uuid()"]}
    v7=${CALL_NS["uuid_v7()"]}
    ulid=${CALL_NS["ulid()"]}
    prefixed=${CALL_NS["prefixed_id_new('acct')"]}
    nextval=${CALL_NS["nextval('bench_seq')"]}
    clock=${CALL_NS["clock_timestamp()"]}
    sf=${CALL_NS["snowflake(n)"]}
    empty=${CALL_NS["empty loop"]}
    local capped_reps=$((REPS < 3 ? REPS : 3))   # parts 3, 4 and 5

    echo "# idgen benchmark"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M:%S UTC') · PostgreSQL $version · idgen $extversion ·" \
        "nproc $(nproc) · calls $CALLS, text rows $TEXT_ROWS, index rows $INDEX_ROWS, rows $ROWS, reps $REPS," \
        "pgbench $CLIENTS clients x ${PGBENCH_SECONDS}s, scale rows $SCALE_ROWS x ${SCALE_SECONDS}s" \
        "$( ((QUICK)) && echo ' (--quick)')"
    echo
    report_summary
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
            "| $(x_of "${CALL_NS[$label]}" "$v4")" \
            "| $(x_of "${CALL_NS[$label]}" "$nextval")" \
            "| $(x_of "${CALL_NS[$label]}" "$clock") |"
    done
    echo
    echo "Net of the empty loop: uuid_v7() $(fmt 1 "$(calc "$v7 - $empty")") ns," \
        "ulid() $(fmt 1 "$(calc "$ulid - $empty")") ns," \
        "prefixed_id_new('acct') $(fmt 1 "$(calc "$prefixed - $empty")") ns," \
        "gen_random_uuid() $(fmt 1 "$(calc "$v4 - $empty")") ns," \
        "snowflake(n) $(fmt 1 "$(calc "$sf - $empty")") ns," \
        "nextval() $(fmt 1 "$(calc "$nextval - $empty")") ns," \
        "clock_timestamp() $(fmt 1 "$(calc "$clock - $empty")") ns."
    echo
    echo "## Text output"
    echo
    echo "\`SELECT count(x::text) FROM bench_text\` over $TEXT_ROWS rows \`(id ulid, u uuid, p prefixed_id)\`" \
        "with ids from \`ulid()\`, \`u = id::uuid\` (the same 16 bytes) and" \
        "\`p = prefixed_id_from_uuid('$TEXT_PREFIX', u)\` (the same 128 bits), timed inside the server" \
        "with \`max_parallel_workers_per_gather = 0\` and \`jit = off\`; median of $REPS interleaved reps." \
        "\`count(*)\` over the same table is the scan alone; \"net\" subtracts its median."
    echo
    echo "| query | ns/value (median) | net of the scan, ns/value |"
    echo "|---|---:|---:|"
    for label in "${TEXT_LABELS[@]}"; do
        echo "| \`${TEXT_EXPR[$label]}\` ($label) | $(fmt 1 "${TEXT_NS[$label]}")" \
            "| $(fmt 1 "${TEXT_NET_NS[$label]}") |"
    done
    local text_net_ratio text_gross_ratio prefixed_net_ratio prefixed_gross_ratio
    text_net_ratio=$(ratio_if_positive "${TEXT_NET_NS["ulid_out"]}" "${TEXT_NET_NS["uuid_out"]}")
    text_gross_ratio=$(x_of "${TEXT_NS["ulid_out"]}" "${TEXT_NS["uuid_out"]}")
    prefixed_net_ratio=$(ratio_if_positive "${TEXT_NET_NS["prefixed_id_out"]}" "${TEXT_NET_NS["uuid_out"]}")
    prefixed_gross_ratio=$(x_of "${TEXT_NS["prefixed_id_out"]}" "${TEXT_NS["uuid_out"]}")
    echo
    echo "ulid_out / uuid_out = $text_net_ratio on the net figures (the scan both share left out);" \
        "$text_gross_ratio on the figures with the scan."
    echo "prefixed_id_out / uuid_out = $prefixed_net_ratio on the net figures;" \
        "$prefixed_gross_ratio on the figures with the scan."
    echo
    echo "Size of a value, averaged over the table: stored (\`pg_column_size\` of the column) and as text" \
        "(\`length\` of \`column::text\`, ASCII, so characters and bytes alike)."
    echo
    echo "| column | stored bytes | text characters |"
    echo "|---|---:|---:|"
    for label in "${TEXT_SIZE_LABELS[@]}"; do
        echo "| ${TEXT_COLUMN[$label]} ${TEXT_TYPE[$label]} | $(fmt 1 "${TEXT_STORED_BYTES[$label]}")" \
            "| $(fmt 1 "${TEXT_CHARS[$label]}") |"
    done
    echo
    echo "## CREATE INDEX"
    echo
    echo "\`CREATE INDEX ON bench_index (column)\` over $INDEX_ROWS rows \`(id ulid, u uuid)\`" \
        "with \`u = id::uuid\` (the same 16 bytes);" \
        "\`id = ulid_at('2025-01-01 00:00:00+00' + (g / $INDEX_IDS_PER_MS) ms)\` for g = 1..$INDEX_ROWS" \
        "($INDEX_IDS_PER_MS IDs per millisecond), stored in random order so that the build sorts for real." \
        "\`maintenance_work_mem = '$INDEX_MEMORY'\`, \`max_parallel_maintenance_workers = 0\`;" \
        "each build after DROP INDEX and CHECKPOINT, timed inside the server;" \
        "one untimed build of each first, then the median of $((REPS < 4 ? REPS : 4)) reps alternating" \
        "which type builds first. Sizes are from the last build."
    echo
    echo "| column | build seconds (median) | ratio to uuid | index MB |"
    echo "|---|---:|---:|---:|"
    for column in "${INDEX_COLUMNS[@]}"; do
        echo "| $column ${INDEX_TYPE[$column]} | $(fmt 3 "${INDEX_MEDIAN[$column]}")" \
            "| $(x_of "${INDEX_MEDIAN[$column]}" "${INDEX_MEDIAN[u]}")" \
            "| $(fmt 1 "${INDEX_MB[$column]}") |"
    done
    echo
    echo "## Bulk load"
    echo
    echo "\`INSERT INTO t (n) SELECT g FROM generate_series(1, $ROWS) g\` after TRUNCATE and CHECKPOINT," \
        "timed inside the server; median of $capped_reps interleaved reps." \
        "Index figures are from the last load. The snowflake key is \`bigint DEFAULT snowflake($SF_KEY_SHARD)\`," \
        "the ulid key \`ulid DEFAULT ulid()\`, the prefixed key \`prefixed_id DEFAULT prefixed_id_new('acct')\`."
    echo
    echo "| key | insert seconds (median) | ratio to bigserial | pkey MB | leaf density % |"
    echo "|---|---:|---:|---:|---:|"
    local base=${BULK_MEDIAN[bench_bigserial]}
    for table in "${BULK_TABLES[@]}"; do
        echo "| ${table#bench_} | $(fmt 3 "${BULK_MEDIAN[$table]}")" \
            "| $(x_of "${BULK_MEDIAN[$table]}" "$base")" \
            "| $(fmt 1 "${PKEY_MB[$table]}") | $(fmt 1 "${LEAF_DENSITY[$table]}") |"
    done
    echo
    report_pgbench
    report_scale
    report_targets
}

# The summary: one row per generator with the headline figure of each part.
report_summary() {
    local table call last=$((${#SCALE_FRACTIONS[@]} - 1))
    local v4=${CALL_NS["gen_random_uuid()"]} bulk_base=${BULK_MEDIAN[bench_bigserial]}
    local off_base=${PGBENCH_MEDIAN["off bench_bigserial"]} on_base=${PGBENCH_MEDIAN["on bench_bigserial"]}
    local scale_v4 scale_rows
    scale_v4=$(scale_point bench_uuid_v4 "$last" 2)
    scale_rows=$(scale_point bench_uuid_v4 "$last" 1)
    echo "## Summary"
    echo
    echo "ns/call: part 1 (median, loop included). Bulk: part 4, $ROWS rows into a primary key." \
        "TPS: part 5, single-row inserts, $CLIENTS clients, \`synchronous_commit\` off and on, separate runs;" \
        "same run: TPS with \`synchronous_commit\` off as a multiple of bigserial's when all keys share one run." \
        "At scale: part 6, TPS once the table holds about $scale_rows rows" \
        "($(scale_server_words))."
    echo
    echo "| generator | ns/call | x gen_random_uuid() | bulk s | x bigserial | pkey MB | leaf density % |" \
        "TPS sync off | x bigserial | x bigserial, same run | TPS sync on | x bigserial | TPS at scale | x gen_random_uuid() |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for table in "${SUMMARY_TABLES[@]}"; do
        call=${CALL_NS[${SUMMARY_CALL[$table]}]}
        echo "| ${SUMMARY_LABEL[$table]} | $(fmt 1 "$call") | $(x_of "$call" "$v4")" \
            "| $(fmt 3 "${BULK_MEDIAN[$table]}") | $(x_of "${BULK_MEDIAN[$table]}" "$bulk_base")" \
            "| $(fmt 1 "${PKEY_MB[$table]}") | $(fmt 1 "${LEAF_DENSITY[$table]}")" \
            "| $(fmt 0 "${PGBENCH_MEDIAN["off $table"]}") | $(x_of "${PGBENCH_MEDIAN["off $table"]}" "$off_base")" \
            "| $(fmt 2 "${MIXED_MEDIAN[$table]}")" \
            "| $(fmt 0 "${PGBENCH_MEDIAN["on $table"]}") | $(x_of "${PGBENCH_MEDIAN["on $table"]}" "$on_base")" \
            "| $(fmt 0 "$(scale_point "$table" "$last" 2)") | $(x_of "$(scale_point "$table" "$last" 2)" "$scale_v4") |"
    done
    echo
    echo "![single-row insert throughput against table size, one line per generator](latest.png)"
    echo
}

report_pgbench() {
    local table mode capped_reps=$((REPS < 3 ? REPS : 3))
    echo "## Single-row inserts (pgbench)"
    echo
    echo "\`INSERT INTO t DEFAULT VALUES\` into the bulk-load tables, \`pgbench -n -M prepared" \
        "-c $CLIENTS -j $CLIENTS -T $PGBENCH_SECONDS\`, with \`synchronous_commit\` off and on;" \
        "each run after TRUNCATE and CHECKPOINT; median of $capped_reps interleaved reps."
    echo
    echo "| key | TPS, sync off (median) | ratio to bigserial | TPS, sync on (median) | ratio to bigserial |"
    echo "|---|---:|---:|---:|---:|"
    for table in "${PGBENCH_TABLES[@]}"; do
        echo -n "| ${table#bench_}"
        for mode in "${PGBENCH_COMMIT_MODES[@]}"; do
            echo -n " | $(fmt 0 "${PGBENCH_MEDIAN["$mode $table"]}")" \
                "| $(x_of "${PGBENCH_MEDIAN["$mode $table"]}" "${PGBENCH_MEDIAN["$mode bench_bigserial"]}")"
        done
        echo " |"
    done
    echo
    echo "Same-run comparison: after each rep's separate runs, one \`pgbench -n -M prepared -c $CLIENTS" \
        "-j $CLIENTS -T $PGBENCH_SECONDS -l\` run with \`synchronous_commit = off\` takes all six insert" \
        "scripts (\`-f\` each, equal weights), so every client picks a table at random for each" \
        "transaction and all keys share the same seconds of the machine. From pgbench's per-transaction" \
        "log: each key's mean latency, and bigserial's mean latency divided by the key's, which is the" \
        "key's TPS as a multiple of bigserial's under identical conditions; median of $capped_reps reps." \
        "Separate runs of the same script move by 10 % or more from one run to the next on a small VM;" \
        "this ratio moves by about 1 %."
    echo
    echo "| key | mean latency µs, per rep | TPS ratio to bigserial, same run (median) |"
    echo "|---|---:|---:|"
    for table in "${PGBENCH_TABLES[@]}"; do
        echo "| ${table#bench_} | $(fmt_list 1 "${MIXED_LATENCY_US[$table]}") | $(fmt 3 "${MIXED_MEDIAN[$table]}") |"
    done
    echo
    local before after
    read -r -a before <<<"$SF_STATE_BEFORE"
    read -r -a after <<<"$(snowflake_state)"
    echo "Snowflake shards used by this run (idgen_snowflake_shards): $((after[0] - before[0])) waits" \
        "for the clock, $((after[1] - before[1])) ms borrowed ahead of the clock," \
        "$((after[2] - before[2])) clock regressions."
    echo
}

# x_of_cap MB: MB as a multiple of part 6's memory cap, or - without one.
x_of_cap() {
    if [[ -n $SCALE_MEMORY_MB ]]; then x_of "$1" "$SCALE_MEMORY_MB"; else echo -; fi
}

report_scale() {
    local table i fraction header="| grown to rows |" rule="|---:|"
    echo "## Single-row inserts as the table grows"
    echo
    echo "Each table (the part 4 tables, emptied) is grown by bulk loads to $SCALE_ROWS x" \
        "(${SCALE_FRACTIONS[*]}) rows; at each point, after a CHECKPOINT, \`pgbench -n -M prepared" \
        "-c $CLIENTS -j $CLIENTS -T $SCALE_SECONDS\` inserts single rows with \`synchronous_commit = off\`" \
        "(which also grows the table). All tables are measured at one point before the next." \
        "Server: $SCALE_SETTING (shows $SCALE_BUFFERS_SHOWN); memory $SCALE_MEMORY_SETTING." \
        "TPS by point (the rows the bulk loads grew each table to; earlier runs may have added more," \
        "which the plot counts):"
    echo
    for table in "${SCALE_TABLES[@]}"; do
        header+=" ${PLOT_LABEL[$table]} |"
        rule+="---:|"
    done
    echo "$header"
    echo "$rule"
    i=0
    for fraction in "${SCALE_FRACTIONS[@]}"; do
        echo -n "| $(scale_target "$fraction")"
        for table in "${SCALE_TABLES[@]}"; do echo -n " | $(fmt 0 "$(scale_point "$table" "$i" 2)")"; done
        echo " |"
        i=$((i + 1))
    done
    echo
    echo "Size of each table (heap and primary key, \`pg_total_relation_size\`) when its last run started," \
        "and the WAL its inserts wrote, per insert, in the first and the last run (from \`pg_current_wal_lsn()\`" \
        "around the run; after the checkpoint, the first change to a page writes its full image):"
    echo
    echo "| generator | rows | MB | x shared_buffers | x memory cap | WAL bytes per insert, first run | last run |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    local last=$((${#SCALE_FRACTIONS[@]} - 1)) buffers_mb
    buffers_mb=$(sql -c "SELECT setting::bigint * current_setting('block_size')::bigint / 1048576.0
                         FROM pg_settings WHERE name = 'shared_buffers'")
    for table in "${SCALE_TABLES[@]}"; do
        echo "| ${PLOT_LABEL[$table]} | $(scale_point "$table" "$last" 1) | $(fmt 1 "$(scale_point "$table" "$last" 3)")" \
            "| $(x_of "$(scale_point "$table" "$last" 3)" "$buffers_mb")" \
            "| $(x_of_cap "$(scale_point "$table" "$last" 3)")" \
            "| $(fmt 0 "$(scale_point "$table" 0 4)")" \
            "| $(fmt 0 "$(scale_point "$table" "$last" 4)") |"
    done
    echo
    echo "The rows and TPS of every point are in \`latest-scale.tsv\`, plotted in \`latest.png\`."
    echo
}

# target_row NAME VALUE OP GOAL: one row of the targets table.
target_row() {
    echo "| $1 | $2 | $3 $4 | $(verdict "$2" "$3" "$4") |"
}

report_targets() {
    local table goal last=$((${#SCALE_FRACTIONS[@]} - 1))
    local v4=${CALL_NS["gen_random_uuid()"]} nextval=${CALL_NS["nextval('bench_seq')"]}
    local clock=${CALL_NS["clock_timestamp()"]} sf=${CALL_NS["snowflake(n)"]}
    local bulk_base=${BULK_MEDIAN[bench_bigserial]}
    echo "## idgen targets"
    echo
    echo "| target | measured | goal | verdict |"
    echo "|---|---:|---:|---|"
    for table in bench_uuid_v7 bench_ulid bench_prefixed; do
        target_row "${SUMMARY_LABEL[$table]} ns/call / gen_random_uuid()" \
            "$(x_of "${CALL_NS[${SUMMARY_CALL[$table]}]}" "$v4")" '<=' "$TARGET_CALL_RATIO"
    done
    target_row "snowflake(n) ns/call / nextval()" "$(x_of "$sf" "$nextval")" '<=' "$TARGET_SF_NEXTVAL"
    target_row "snowflake(n) ns/call / clock_timestamp()" "$(x_of "$sf" "$clock")" '<=' "$TARGET_SF_CLOCK"
    target_row "ulid_out / uuid_out, net of the scan" \
        "$(ratio_if_positive "${TEXT_NET_NS["ulid_out"]}" "${TEXT_NET_NS["uuid_out"]}")" '<=' "$TARGET_TEXT_RATIO"
    target_row "prefixed_id_out / uuid_out, net of the scan" \
        "$(ratio_if_positive "${TEXT_NET_NS["prefixed_id_out"]}" "${TEXT_NET_NS["uuid_out"]}")" '<=' "$TARGET_TEXT_RATIO"
    target_row "CREATE INDEX ulid / uuid" "$(x_of "${INDEX_MEDIAN[id]}" "${INDEX_MEDIAN[u]}")" '<=' "$TARGET_ULID_INDEX"
    for table in bench_uuid_v7 bench_ulid bench_prefixed; do
        target_row "${table#bench_} bulk / bigserial" "$(x_of "${BULK_MEDIAN[$table]}" "$bulk_base")" '<=' "$TARGET_BULK_RATIO"
    done
    target_row "snowflake bulk / bigserial" "$(x_of "${BULK_MEDIAN[bench_snowflake]}" "$bulk_base")" '<=' "$TARGET_SF_BULK"
    for table in "${IDGEN_TABLES[@]}"; do
        target_row "${table#bench_} leaf density %" "$(fmt 1 "${LEAF_DENSITY[$table]}")" '>=' "$TARGET_LEAF_DENSITY"
    done
    for table in "${IDGEN_TABLES[@]}"; do
        goal=$TARGET_TPS_RATIO
        [[ $table == bench_snowflake ]] && goal=$TARGET_SF_TPS
        target_row "${table#bench_} TPS / bigserial, sync off, same run" "$(fmt 2 "${MIXED_MEDIAN[$table]}")" '>=' "$goal"
    done
    target_row "uuid_v7 TPS / gen_random_uuid() at the largest size" \
        "$(x_of "$(scale_point bench_uuid_v7 "$last" 2)" "$(scale_point bench_uuid_v4 "$last" 2)")" '>=' "$TARGET_SCALE_RATIO"
}

# Writes the report to stdout and results/latest.md, the data of part 6 to
# results/latest-scale.tsv and its plot to results/latest.png; published runs
# also keep timestamped copies (the report's copy pointing at its own plot)
# so results can be compared over time. Scratch runs (CI, the test suite, the
# demo) go to the git-ignored results/tmp/ so they never replace the
# published figures.
publish() {
    local text=$1 dir=$RESULTS_DIR stamp
    ((SCRATCH)) && dir="$RESULTS_DIR/tmp"
    mkdir -p "$dir"
    write_scale_data "$dir/latest-scale.tsv"
    plot_scale "$dir/latest-scale.tsv" "$dir/latest.png"
    printf '%s\n' "$text" | tee "$dir/latest.md"
    if ((!SCRATCH)); then
        stamp=idgen-$(date '+%Y%m%d-%H%M%S')
        cp "$dir/latest-scale.tsv" "$dir/$stamp-scale.tsv"
        cp "$dir/latest.png" "$dir/$stamp.png"
        text=${text//latest-scale.tsv/$stamp-scale.tsv}
        printf '%s\n' "${text//latest.png/$stamp.png}" >"$dir/$stamp.md"
    fi
}

# plot_scale DATA PNG: insert throughput against rows, a line per generator.
plot_scale() {
    command -v gnuplot >/dev/null || die "gnuplot not found (Debian package gnuplot-nox; test/setup.sh installs it)"
    local version
    version=$(sql -c "SHOW server_version")
    gnuplot -c "$BENCH_DIR/plot.gp" "$1" "$2" \
        "Single-row inserts as the table grows"$'\n'"PostgreSQL ${version%% *}, $(scale_server_words), $CLIENTS clients, synchronous_commit off" ||
        die "gnuplot failed to plot $1"
}

# --quick exists for CI to prove the benchmark runs end to end, so there it
# checks that every measured figure is a positive number (net figures, which
# are differences, only that they are numbers). Timings are never judged.
is_positive_number() {
    [[ $1 =~ ^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]] && awk -v v="$1" 'BEGIN { exit !(v > 0) }'
}

is_number() {
    [[ $1 =~ ^-?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]]
}

sanity_check() {
    local bad=() name value mode i
    # check NAME VALUE: remembers NAME if VALUE is not a positive number.
    check() {
        is_positive_number "$2" || bad+=("$1='$2'")
    }
    for name in "${CALL_LABELS[@]}"; do
        for value in ${CALL_SECONDS[$name]}; do check "seconds[$name]" "$value"; done
        check "ns/call[$name]" "${CALL_NS[$name]:-}"
    done
    for name in "${TEXT_LABELS[@]}"; do
        for value in ${TEXT_SECONDS[$name]}; do check "seconds[$name]" "$value"; done
        check "ns/value[$name]" "${TEXT_NS[$name]:-}"
        is_number "${TEXT_NET_NS[$name]:-}" || bad+=("net ns/value[$name]='${TEXT_NET_NS[$name]:-}'")
    done
    for name in "${TEXT_SIZE_LABELS[@]}"; do
        check "stored bytes[$name]" "${TEXT_STORED_BYTES[$name]:-}"
        check "text characters[$name]" "${TEXT_CHARS[$name]:-}"
    done
    for name in "${INDEX_COLUMNS[@]}"; do
        for value in ${INDEX_SECONDS[$name]}; do check "seconds[index on $name]" "$value"; done
        check "median[index on $name]" "${INDEX_MEDIAN[$name]:-}"
        check "index MB[$name]" "${INDEX_MB[$name]:-}"
    done
    for name in "${BULK_TABLES[@]}"; do
        for value in ${BULK_SECONDS[$name]}; do check "seconds[$name]" "$value"; done
        check "median[$name]" "${BULK_MEDIAN[$name]:-}"
        check "pkey MB[$name]" "${PKEY_MB[$name]:-}"
        check "leaf density[$name]" "${LEAF_DENSITY[$name]:-}"
    done
    for name in "${PGBENCH_TABLES[@]}"; do
        for mode in "${PGBENCH_COMMIT_MODES[@]}"; do
            for value in ${PGBENCH_TPS["$mode $name"]}; do check "tps[$mode $name]" "$value"; done
            check "median tps[$mode $name]" "${PGBENCH_MEDIAN["$mode $name"]:-}"
        done
    done
    for name in "${PGBENCH_TABLES[@]}"; do
        for value in ${MIXED_LATENCY_US[$name]}; do check "mixed latency[$name]" "$value"; done
        for value in ${MIXED_RATIO[$name]}; do check "mixed ratio[$name]" "$value"; done
        check "median mixed ratio[$name]" "${MIXED_MEDIAN[$name]:-}"
    done
    for name in "${SCALE_TABLES[@]}"; do
        for ((i = 0; i < ${#SCALE_FRACTIONS[@]}; i++)); do
            is_number "$(scale_point "$name" "$i" 1)" || bad+=("rows[$name point $i]")
            check "tps[$name point $i]" "$(scale_point "$name" "$i" 2)"
            check "MB[$name point $i]" "$(scale_point "$name" "$i" 3)"
            check "WAL per insert[$name point $i]" "$(scale_point "$name" "$i" 4)"
        done
    done
    local png="$RESULTS_DIR/tmp/latest.png"
    [[ $(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] ||
        bad+=("plot $png is not a PNG file")
    ((${#CALL_SECONDS[@]} == ${#CALL_LABELS[@]})) || bad+=("part 1 measured ${#CALL_SECONDS[@]} of ${#CALL_LABELS[@]} functions")
    ((${#TEXT_SECONDS[@]} == ${#TEXT_LABELS[@]})) || bad+=("part 2 measured ${#TEXT_SECONDS[@]} of ${#TEXT_LABELS[@]} queries")
    ((${#INDEX_SECONDS[@]} == ${#INDEX_COLUMNS[@]})) || bad+=("part 3 measured ${#INDEX_SECONDS[@]} of ${#INDEX_COLUMNS[@]} indexes")
    ((${#BULK_SECONDS[@]} == ${#BULK_TABLES[@]})) || bad+=("part 4 measured ${#BULK_SECONDS[@]} of ${#BULK_TABLES[@]} tables")
    ((${#PGBENCH_TPS[@]} == ${#PGBENCH_TABLES[@]} * ${#PGBENCH_COMMIT_MODES[@]})) ||
        bad+=("part 5 measured ${#PGBENCH_TPS[@]} of $((${#PGBENCH_TABLES[@]} * ${#PGBENCH_COMMIT_MODES[@]})) runs")
    ((${#SCALE_POINTS[@]} == ${#SCALE_TABLES[@]})) || bad+=("part 6 measured ${#SCALE_POINTS[@]} of ${#SCALE_TABLES[@]} tables")
    if ((${#bad[@]})); then
        printf 'bench: the benchmark itself is broken, bad figure: %s\n' "${bad[@]}" >&2
        exit 1
    fi
    log "quick run OK: every measured figure is a positive number"
}

main() {
    parse_args "$@"
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM

    start_server
    WORK_DIR=$(mktemp -d)
    setup_database
    run_part1
    run_part2
    run_part3
    run_part4
    run_part5
    run_part6
    local text
    text=$(report)
    drop_bench_objects
    publish "$text"
    ((QUICK)) && sanity_check
    return 0
}

main "$@"
