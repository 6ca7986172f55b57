#!/usr/bin/env bash
# idgen benchmark: per-call cost of ID generators (uuid_v7, ulid,
# prefixed_id_new, snowflake, ksuid, objectid, xid, uuid_v6, nanoid, timeflake,
# push_id, cuid2 and references, core uuidv7() on PostgreSQL 18 and later; ksuid,
# objectid, xid and uuid_v6 also next to PL/pgSQL written from their specs), the cost of the text output of ulid,
# prefixed_id, ksuid, objectid and rsxid (and of their input) and of
# building an index on a ulid column (each next to uuid holding the same
# bytes), bulk-load cost of the keys they produce, and single-row insert
# throughput under pgbench. It prints figures and ratios; it never fails on a
# timing threshold. Only a broken run (failed query, missing figure) exits
# non-zero.
#
# This script starts the server and runs the measurements; every figure goes
# raw into one TSV file, from which test/bench/report.py computes medians and
# ratios and writes the report, the summary, the targets and the plot data.
#
# Usage: bash test/bench/bench.sh [--pg N] [--quick] [--scratch] [--calls N] [--rows N] [--reps N]
#                                 [--index-rows N] [--clients N] [--pgbench-seconds N]
#                                 [--scale-rows N] [--scale-seconds N] [--scale-shared-buffers SIZE]
#                                 [--scale-memory SIZE|off]
# --pg N benchmarks PostgreSQL major N (test/pg-build.sh finds or builds it);
# without it, the server of an exported PG_CONFIG, else Debian's 15.
# --scratch writes the report to the git-ignored results/tmp/ (as --quick does),
# for runs that must not replace the published figures (the demo uses it).
# IDGEN_BENCH_EXISTING=1 uses the server named by the PG* variables (it must
# preload idgen); otherwise a throwaway cluster is created and removed.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/../.." && pwd)"
RESULTS_DIR="$BENCH_DIR/results"

# shellcheck source=SCRIPTDIR/memory_cap.sh
source "$BENCH_DIR/memory_cap.sh"
# shellcheck source=SCRIPTDIR/peer_pg_uuidv7.sh
source "$BENCH_DIR/peer_pg_uuidv7.sh"

# The generators, one a line: name | SQL expression | column type | first
# PostgreSQL major that has it | part 6 [| extension]. Each becomes the table bench_NAME
# (id TYPE PRIMARY KEY DEFAULT EXPRESSION, n int) of parts 4 and 5 and a row
# of part 1 (count(EXPRESSION)); on an older server the line is skipped.
# The last column says whether part 6 grows its table too ("scale") or not
# ("-"): typeid and snowflake53 keys append at the right edge exactly as
# prefixed_id's and snowflake's do (same storage and order, same bigint), so
# part 6, which shows random against time-ordered keys as the table outgrows
# memory, leaves them out rather than run minutes longer to draw the same
# lines twice. @shard@ stands for a snowflake shard: part 1 gives each rep a
# quiet one, the tables use SF_KEY_SHARD (see shard_for). The order is the
# order of every part and table. A sixth column names an extension other than
# idgen that the expression needs (pg_uuidv7, the registry peer that
# peer_pg_uuidv7.sh installs into the server on 18): created when the
# server has it, else the line is a counted skip. bigserial is a bigint from a sequence, which
# is what the bigserial type makes; part 1 calls the same sequence.
GENERATORS=$(cat <<'TABLE'
uuid_v7     | uuid_v7()               | uuid        | 15 | scale
ulid        | ulid()                  | ulid        | 15 | scale
prefixed    | prefixed_id_new('acct') | prefixed_id | 15 | scale
typeid      | typeid_new('acct')      | typeid      | 15 | -
snowflake   | snowflake(@shard@)      | bigint      | 15 | scale
snowflake53 | snowflake53(@shard@)    | bigint      | 15 | -
core_uuidv7 | uuidv7()                | uuid        | 18 | scale
pg_uuidv7   | uuid_generate_v7()      | uuid        | 18 | -     | pg_uuidv7
ksuid       | ksuid()                 | ksuid       | 15 | -
objectid    | objectid()              | objectid    | 15 | -
xid         | xid()                   | rsxid       | 15 | -
uuid_v6     | uuid_v6()               | uuid        | 15 | -
nanoid      | nanoid()                | text        | 15 | -
timeflake   | timeflake()             | uuid        | 15 | -
push_id     | push_id()               | text        | 15 | -
cuid2       | cuid2()                 | text        | 15 | -
uuid_v4     | gen_random_uuid()       | uuid        | 15 | scale
bigserial   | nextval('bench_seq')    | bigint      | 15 | scale
TABLE
)

# Part 1 also times these, which key no table: label | expression |
# idgen.uuid_v7_order and idgen.ulid_order. "*" is count(*) alone, the cost
# of the loop. @node@ is a layout's node (call_node).
CALL_EXTRAS=$(cat <<'TABLE'
uuid_v7() [server order] | uuid_v7()         | server
ulid() [server order]    | ulid()            | server
snowflake_layout_new('twitter', n) | snowflake_layout_new('twitter', @node@) | backend
clock_timestamp()        | clock_timestamp() | backend
empty loop               | *                 | backend
TABLE
)

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
PG_MAJOR_WANTED=""
CLUSTER_DIR=""
WORK_DIR=""
RAW=""
SF_STATE_BEFORE=""

# Part 1 gives snowflake(n) and snowflake53(n) a fresh shard every rep, so no
# rep starts on a shard that an earlier rep left running ahead of the clock.
# Parts 4 to 6 use shard 1 of each (snowflake's and snowflake53's shards are
# separate counters), which part 1 never touches. snowflake's call shards are
# 1001 and up; snowflake53 has only shards 0..15, so its call shards are 2..15
# in turn (a shard comes back 14 reps later, long after it went quiet).
# A tight loop mints faster than a shard's cap (1024 IDs per ms for
# snowflake, 512 for snowflake53), so the shard borrows milliseconds ahead of
# the clock, up to idgen.max_clock_regression (10 s by default), and only then
# waits for the clock. From a fresh shard, snowflake53 reaches that bound after
# 512 x 10000 = 5120000 calls plus 512 for every millisecond the clock advances
# meanwhile, so the default --calls 5000000 never waits (snowflake's bound is
# twice as far) and its ns/call is the call's, not the clock's; a larger
# --calls would time waits for the clock, which the report shows as waits
# counted on these shards (idgen_snowflake_shards). The bench server keeps the
# default bound rather than raise it, so it measures what users run.
SF_CALL_SHARD_BASE=1000
SF53_CALL_SHARD_FIRST=2
SF53_CALL_SHARD_LAST=15
SF_KEY_SHARD=1

die() {
    echo "bench: $*" >&2
    exit 1
}

log() {
    echo "bench: $*" >&2
}

usage() {
    echo "usage: bash test/bench/bench.sh [--pg N] [--quick] [--scratch] [--calls N] [--rows N] [--reps N]" \
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
            --pg)
                [[ ${2:-} =~ ^[1-9][0-9]$ ]] || die "$1 needs a PostgreSQL major such as 18, got '${2:-}'"
                PG_MAJOR_WANTED=$2; shift ;;
            --quick)
                QUICK=1; SCRATCH=1; CALLS=20000; ROWS=20000; REPS=2; INDEX_ROWS=20000; PGBENCH_SECONDS=1
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
}

# Picks the server: --pg N asks test/pg-build.sh for that major's pg_config
# (building it if needed; 15 is Debian's); otherwise an exported PG_CONFIG,
# and cluster.sh's default (Debian's 15) without one. Then cluster.sh derives
# PG_BIN and PG_MAJOR from it.
choose_server() {
    if [[ -n $PG_MAJOR_WANTED ]]; then
        PG_CONFIG=$(bash "$REPO_DIR/test/pg-build.sh" "$PG_MAJOR_WANTED") ||
            die "test/pg-build.sh could not provide PostgreSQL $PG_MAJOR_WANTED"
        export PG_CONFIG
    fi
    # shellcheck source=SCRIPTDIR/../cluster.sh
    source "$REPO_DIR/test/lib/cluster.sh"
    PGBENCH="$PG_BIN/pgbench"
    # Part 5 needs pgbench of the same major version as the server.
    [[ -x $PGBENCH ]] || die "pgbench not found at $PGBENCH (PostgreSQL $PG_MAJOR, from $PG_CONFIG)"
    command -v python3 >/dev/null || die "python3 not found (it writes the report: test/bench/report.py)"
    # Root-only, before the server starts: the registry peer's files.
    peer_pg_uuidv7_prepare "$PG_MAJOR" "$PG_CONFIG"
}

# raw FIELD...: one tab-separated line of raw measurements for report.py.
raw() {
    local IFS=$'\t'
    echo "$*" >>"$RAW"
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
    log "starting a throwaway cluster of PostgreSQL $PG_MAJOR ($PG_BIN) in $CLUSTER_DIR"
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

# The generators this server has, from GENERATORS: GEN_NAMES in order, and
# their expression and column type by name.
GEN_NAMES=()
SCALE_NAMES=()   # the generators part 6 grows, in GEN_NAMES order
declare -A GEN_EXPR=() GEN_TYPE=()
PEER_SKIPS=()    # "name: reason" of each generator left out for want of its extension

# trim TEXT: TEXT without leading and trailing blanks.
trim() {
    local s=$1
    s=${s#"${s%%[![:space:]]*}"}
    echo "${s%"${s##*[![:space:]]}"}"
}

# load_generators MAJOR: keeps the lines of GENERATORS whose first major is
# at most MAJOR (the server's, so an existing server counts as it is).
load_generators() {
    local major=$1 name expr type first scale extension
    while IFS='|' read -r name expr type first scale extension; do
        name=$(trim "$name")
        [[ -n $name ]] || continue
        expr=$(trim "$expr") type=$(trim "$type") first=$(trim "$first") scale=$(trim "$scale")
        extension=$(trim "${extension:-}")
        [[ $first =~ ^[0-9]+$ && -n $expr && -n $type && $scale =~ ^(scale|-)$ ]] ||
            die "malformed GENERATORS line for '$name'"
        ((major >= first)) || { log "$name ($expr) needs PostgreSQL $first or later; skipped on $major"; continue; }
        if [[ -n $extension ]] && ! generator_extension "$name" "$extension"; then
            continue
        fi
        GEN_NAMES+=("$name")
        [[ $scale == scale ]] && SCALE_NAMES+=("$name")
        GEN_EXPR[$name]=$expr
        GEN_TYPE[$name]=$type
    done <<<"$GENERATORS"
}

# generator_extension NAME EXTENSION: creates EXTENSION for generator NAME;
# fails after a counted skip naming the package when the server lacks it.
generator_extension() {
    local name=$1 extension=$2 reason
    if [[ $extension == pg_uuidv7 && $PEER_PG_UUIDV7 == skipped ]]; then
        reason=$PEER_PG_UUIDV7_NOTE   # peer_pg_uuidv7_prepare has counted it
    elif [[ $(sql -c "SELECT count(*) FROM pg_available_extensions WHERE name = '$extension'") == 1 ]]; then
        sql -c "CREATE EXTENSION IF NOT EXISTS $extension" && return 0
        die "CREATE EXTENSION $extension failed"
    else
        reason="the server has no extension $extension"
        [[ $extension == pg_uuidv7 ]] && reason="$PEER_PG_UUIDV7_PACKAGE: $reason"
        echo "bench: SKIP 1 peer: $reason; $name is not measured" >&2
    fi
    PEER_SKIPS+=("$name: $reason")
    return 1
}

# key_expr NAME: the generator's expression as the tables' DEFAULT uses it.
key_expr() {
    echo "${GEN_EXPR[$1]//@shard@/$SF_KEY_SHARD}"
}

# call_shard NAME REP: the quiet shard part 1's REP gives NAME's @shard@.
# Shards 1001..8191 for snowflake (a 7000th rep would wrap, long after the
# first went quiet), 2..15 for snowflake53 (see SF53_CALL_SHARD_FIRST).
call_shard() {
    local span=$((SF53_CALL_SHARD_LAST - SF53_CALL_SHARD_FIRST + 1))
    if [[ ${GEN_EXPR[$1]:-} == snowflake53\(* ]]; then
        echo $((SF53_CALL_SHARD_FIRST + ($2 - 1) % span))
    else
        echo $((SF_CALL_SHARD_BASE + 1 + ($2 - 1) % 7000))
    fi
}

# call_node REP: the node part 1's REP gives snowflake_layout_new(). Each
# layout and node holds one of idgen.max_snowflake_layouts slots (16 by
# default) until the server stops, so the reps take nodes 1..LAYOUT_NODES in
# turn; a node comes back LAYOUT_NODES reps later, long after it went quiet
# (twitter's 4096 IDs per ms put a rep of --calls 5000000 about 1.2 s ahead).
LAYOUT_NODES=8
call_node() {
    echo $((1 + ($1 - 1) % LAYOUT_NODES))
}

# bench_tables: the tables of parts 4 to 6, comma-separated, for DROP.
bench_tables() {
    local name out=""
    for name in "${GEN_NAMES[@]}"; do out+="${out:+, }bench_$name"; done
    echo "$out"
}

setup_database() {
    local name major expr
    sql -c "SHOW shared_preload_libraries" | grep -qw idgen ||
        die "the server does not preload idgen (shared_preload_libraries), 'server' order cannot be measured"
    sql -c "CREATE EXTENSION IF NOT EXISTS idgen" -c "CREATE EXTENSION IF NOT EXISTS pgstattuple"
    # An idgen created before 0.5.0 has no typeid or snowflake53 (and before
    # 0.4.0 no prefixed_id); say so rather than fail on the first query that
    # needs them.
    [[ $(sql -c "SELECT to_regtype('prefixed_id') IS NOT NULL AND to_regtype('typeid') IS NOT NULL
                        AND to_regprocedure('snowflake53(integer)') IS NOT NULL") == t ]] ||
        die "idgen $(sql -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")" \
            "lacks prefixed_id, typeid or snowflake53 (0.5.0 or later has them: ALTER EXTENSION idgen UPDATE)"
    major=$(sql -c "SELECT current_setting('server_version_num')::int / 10000")
    load_generators "$major"
    # snowflake layouts came in 0.8.0
    if [[ $(sql -c "SELECT to_regprocedure('snowflake_layout_new(text,bigint)') IS NULL") == t ]]; then
        log "this idgen has no snowflake_layout_new (0.8.0 or later has it); its part 1 line is skipped"
        CALL_EXTRAS=$(grep -v snowflake_layout_new <<<"$CALL_EXTRAS")
    fi
    # These drops only clear what a failed earlier run left behind; bench_text
    # (part 2) and bench_index (part 3) are made by their parts.
    sql -c "DROP TABLE IF EXISTS $(bench_tables), bench_text, bench_index"
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
SQL
    for name in "${GEN_NAMES[@]}"; do
        expr=$(key_expr "$name")
        sql -c "CREATE TABLE bench_$name (id ${GEN_TYPE[$name]} PRIMARY KEY DEFAULT $expr, n int)"
        raw generator "$name" "${GEN_EXPR[$name]}" "${GEN_TYPE[$name]}" "$expr"
    done
    raw scale_generators "${SCALE_NAMES[*]}"
    SF_STATE_BEFORE=$(snowflake_state)
    raw snowflake_before "$SF_STATE_BEFORE"
}

# Prints "waits borrowed_ms clock_regressions" summed over the shards the
# benchmark uses, from idgen_snowflake_shards (counters since server start):
# snowflake's key shard and call shards, and all of snowflake53's (its key
# shard and call shards are 1..15 of its 16).
snowflake_state() {
    sql -F ' ' -c "SELECT coalesce(sum(waits), 0), coalesce(sum(borrowed_ms), 0),
                          coalesce(sum(clock_regressions), 0)
                   FROM idgen_snowflake_shards
                   WHERE (family = 'snowflake' AND (shard = $SF_KEY_SHARD OR shard > $SF_CALL_SHARD_BASE))
                      OR (family = 'snowflake53' AND shard BETWEEN $SF_KEY_SHARD AND $SF53_CALL_SHARD_LAST)"
}

# Removes what setup_database made, so an existing server is left as found
# (apart from the two extensions, which may have been there before).
drop_bench_objects() {
    sql -c "DROP TABLE IF EXISTS $(bench_tables), bench_text, bench_index, bench_formats" \
        -c "DROP SCHEMA IF EXISTS format_peers CASCADE" \
        -c "DROP SEQUENCE IF EXISTS bench_seq" \
        -c "DROP FUNCTION IF EXISTS bench_time(text)"
}

# time_query ORDER QUERY: seconds QUERY takes with idgen.uuid_v7_order and
# idgen.ulid_order = ORDER. The order is set explicitly every time so a server
# default cannot leak in.
time_query() {
    time_with "SET idgen.uuid_v7_order = '$1'; SET idgen.ulid_order = '$1';" "$2"
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
# Part 1: per-call cost

# Every rep runs every expression once, in the same order (the generators,
# then CALL_EXTRAS), so slow drift (thermal, other load) hits all of them
# alike instead of one expression. Raw lines: call LABEL REP SECONDS.
run_part1() {
    local rep name label expr order seconds labels=() exprs=() orders=() generators=() i
    for name in "${GEN_NAMES[@]}"; do
        labels+=("${GEN_EXPR[$name]//@shard@/n}")
        exprs+=("${GEN_EXPR[$name]}")
        orders+=(backend)
        generators+=("$name")
    done
    while IFS='|' read -r label expr order; do
        label=$(trim "$label")
        [[ -n $label ]] || continue
        labels+=("$label")
        exprs+=("$(trim "$expr")")
        orders+=("$(trim "$order")")
        generators+=("")
    done <<<"$CALL_EXTRAS"
    for ((rep = 1; rep <= REPS; rep++)); do
        log "part 1: rep $rep/$REPS"
        for i in "${!labels[@]}"; do
            expr=${exprs[$i]}
            [[ $expr == *@shard@* ]] && expr=${expr//@shard@/$(call_shard "${generators[$i]}" "$rep")}
            expr=${expr//@node@/$(call_node "$rep")}
            seconds=$(time_query "${orders[$i]}" "SELECT count($expr) FROM generate_series(1, $CALLS)")
            raw call "${labels[$i]}" "$rep" "$seconds"
        done
    done
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
# Part 2: text output, ulid, prefixed_id and typeid next to uuid

# bench_text has CALLS rows, but at most this many, so it stays near 170 MB.
TEXT_ROWS_CAP=2000000
# The prefix of bench_text's prefixed_id column p and typeid column t, which
# hold the same 128 bits as u: prefixed_id_from_uuid('acct', u) and
# typeid_from_uuid('acct', u).
TEXT_PREFIX=acct
# A parallel scan or JIT would change the cost of the loop, not of the
# conversion, and could differ between queries; both are off for all of them.
TEXT_SETTINGS="SET max_parallel_workers_per_gather = 0; SET jit = off;"

# Every rep runs the scan and the conversions once, in the same order, over
# the same table, so drift hits them all alike. On a server with core
# uuidv7() the table also has a uuid column c filled by it (uuid_out over
# core's values). Raw lines: text LABEL REP SECONDS, text_size LABEL COLUMN
# TYPE STORED_BYTES CHARACTERS.
run_part2() {
    local rep label seconds ok sizes text_rows i extra=()
    # label | expression | column | type, in the order they run each rep;
    # the scan alone, and each column read alone, are the references the
    # conversions are measured net of.
    local labels=("scan only" "ulid_out" "uuid_out" "prefixed_id_out" "typeid_out")
    local exprs=("count(*)" "count(id::text)" "count(u::text)" "count(p::text)" "count(t::text)")
    local columns=("" id u p t) types=("" ulid uuid prefixed_id typeid)
    if [[ -n ${GEN_EXPR[core_uuidv7]:-} ]]; then
        extra=(c uuid "${GEN_EXPR[core_uuidv7]}")
        labels+=("uuid_out, ${GEN_EXPR[core_uuidv7]}")
        exprs+=("count(c::text)")
        columns+=(c)
        types+=(uuid)
    fi
    # Reading each column without converting it: a column after a
    # variable-width one costs more to reach (its offset is found row by row),
    # which is the table's layout, not the output function's cost.
    local column
    for column in "${columns[@]}"; do
        [[ -n $column ]] || continue
        labels+=("read $column")
        exprs+=("count($column)")
        columns+=("")
        types+=("")
    done
    text_rows=$((CALLS < TEXT_ROWS_CAP ? CALLS : TEXT_ROWS_CAP))
    raw meta text_rows "$text_rows"
    log "part 2: filling bench_text with $text_rows rows"
    fill_pair_table bench_text "$text_rows" "ulid()" \
        p prefixed_id "prefixed_id_from_uuid('$TEXT_PREFIX', u)" \
        t typeid "typeid_from_uuid('$TEXT_PREFIX', u)" "${extra[@]}"
    ok=$(sql -c "SELECT count(*) FILTER (WHERE prefixed_id_uuid(p) IS DISTINCT FROM u
                                         OR prefixed_id_prefix(p) IS DISTINCT FROM '$TEXT_PREFIX'
                                         OR typeid_uuid(t) IS DISTINCT FROM u
                                         OR typeid_prefix(t) IS DISTINCT FROM '$TEXT_PREFIX') = 0
                 FROM bench_text")
    [[ $ok == t ]] || die "bench_text does not hold p = prefixed_id_from_uuid('$TEXT_PREFIX', u)" \
        "and t = typeid_from_uuid('$TEXT_PREFIX', u) in every row"
    # Sizes as stored in the table (a datum computed in a query would show a
    # 4-byte header where the column has 1), untimed.
    for i in "${!labels[@]}"; do
        [[ -n ${columns[$i]} ]] || continue
        sizes=$(sql -F $'\t' -c "SELECT avg(pg_column_size(${columns[$i]})), avg(length(${columns[$i]}::text))
                                FROM bench_text")
        raw text_size "${labels[$i]}" "${columns[$i]}" "${types[$i]}" "$sizes"
    done
    # An untimed scan first, so the first timed query is not the only one
    # that reads the table from disk.
    sql -c "SELECT count(*) FROM bench_text" >/dev/null
    for ((rep = 1; rep <= REPS; rep++)); do
        log "part 2: rep $rep/$REPS"
        for i in "${!labels[@]}"; do
            seconds=$(time_with "$TEXT_SETTINGS" "SELECT ${exprs[$i]} FROM bench_text")
            raw text "${labels[$i]}" "$rep" "$seconds" "${exprs[$i]}"
        done
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

# build_index COLUMN REP: times CREATE INDEX on COLUMN after DROP INDEX and
# CHECKPOINT, so that every build starts from the same state, and writes its
# time (unless REP is 0, the warm-up) and the index size.
build_index() {
    local column=$1 rep=$2 seconds mb
    sql -c "DROP INDEX IF EXISTS bench_index_$column" -c "CHECKPOINT"
    seconds=$(time_with "$INDEX_SETTINGS" "CREATE INDEX bench_index_$column ON bench_index ($column)")
    mb=$(sql -c "SELECT pg_relation_size('bench_index_$column') / 1048576.0")
    ((rep == 0)) || raw index "$column" "${INDEX_TYPE[$column]}" "$rep" "$seconds" "$mb"
    sql -c "DROP INDEX bench_index_$column"
}

# One untimed build of each column first, then an even number of reps (at
# most 4) that alternate the order, so neither type always builds first.
run_part3() {
    local index_reps=$((REPS < 4 ? REPS : 4)) rep column order
    log "part 3: filling bench_index with $INDEX_ROWS rows"
    fill_pair_table bench_index "$INDEX_ROWS" "$INDEX_ID_EXPR"
    log "part 3: warm-up builds"
    for column in "${INDEX_COLUMNS[@]}"; do build_index "$column" 0; done
    for ((rep = 1; rep <= index_reps; rep++)); do
        log "part 3: rep $rep/$index_reps"
        order=("${INDEX_COLUMNS[@]}")
        ((rep % 2 == 0)) && order=("${INDEX_COLUMNS[1]}" "${INDEX_COLUMNS[0]}")
        for column in "${order[@]}"; do build_index "$column" "$rep"; done
    done
    sql -c "DROP TABLE bench_index"
}

# ---------------------------------------------------------------------------
# Part 4: bulk load into a primary key

# Empties TABLE and checkpoints, so every load starts from the same state and
# does not pay for the previous load's dirty buffers. RESTART IDENTITY
# restarts what a table owns (nothing here: bench_seq belongs to no table).
reset_table() {
    sql -c "TRUNCATE $1 RESTART IDENTITY" -c "CHECKPOINT"
}

# Each rep (at most 3) loads every table once, interleaved. Raw lines: bulk
# NAME REP SECONDS, then pkey NAME MB LEAF_DENSITY after the last load.
run_part4() {
    local bulk_reps=$((REPS < 3 ? REPS : 3)) rep name seconds figures
    for ((rep = 1; rep <= bulk_reps; rep++)); do
        log "part 4: rep $rep/$bulk_reps"
        for name in "${GEN_NAMES[@]}"; do
            reset_table "bench_$name"
            seconds=$(time_query backend \
                "INSERT INTO bench_$name (n) SELECT g FROM generate_series(1, $ROWS) g")
            raw bulk "$name" "$rep" "$seconds"
        done
    done
    for name in "${GEN_NAMES[@]}"; do
        figures=$(sql -F $'\t' -c "SELECT pg_relation_size('bench_${name}_pkey') / 1048576.0, avg_leaf_density
                                  FROM pgstatindex('bench_${name}_pkey')")
        raw pkey "$name" "$figures"
    done
}

# ---------------------------------------------------------------------------
# Part 5: single-row inserts under pgbench

# The synchronous_commit settings each table runs under.
PGBENCH_COMMIT_MODES=(off on)

# insert_pgbench SYNCHRONOUS_COMMIT SECONDS "NAMES" [OPTIONS...]: runs the
# one-row insert script of each generator's table in NAMES (one -f each,
# equal weights) for SECONDS with CLIENTS clients and prints pgbench's
# output. A failed client (an error from a key's generator, say) fails the
# run with that output.
insert_pgbench() {
    local commit_mode=$1 seconds=$2 names=$3 name out scripts=()
    shift 3
    for name in $names; do
        echo "INSERT INTO bench_$name DEFAULT VALUES;" >"$WORK_DIR/$name.sql"
        scripts+=(-f "$WORK_DIR/$name.sql")
    done
    if ! out=$(PGOPTIONS="${PGOPTIONS:-} -c synchronous_commit=$commit_mode -c client_min_messages=warning" \
        "$PGBENCH" -n -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$seconds" "$@" "${scripts[@]}" 2>&1); then
        printf '%s\n' "$out" >&2
        die "pgbench failed on $names"
    fi
    printf '%s\n' "$out"
}

# pgbench_tps NAME SYNCHRONOUS_COMMIT SECONDS: runs NAME's insert script and
# prints "TPS<tab>TRANSACTIONS" as pgbench printed them. Callers capture the
# output before read splits it: a failure inside read's here-string would not
# stop the run.
pgbench_tps() {
    local name=$1 out tps transactions
    out=$(insert_pgbench "$2" "$3" "$name") || exit 1
    tps=$(awk '$1 == "tps" && $2 == "=" { print $3; exit }' <<<"$out")
    transactions=$(awk -F': ' '/^number of transactions actually processed/ { print $2; exit }' <<<"$out")
    if [[ -z $tps || -z $transactions ]]; then
        printf '%s\n' "$out" >&2
        die "pgbench printed no tps or transaction count for $name"
    fi
    printf '%s\t%s\n' "$tps" "${transactions%%/*}"
}

# Every rep runs every table under each synchronous_commit setting once, after
# TRUNCATE and CHECKPOINT, so each run starts from an empty table and drift
# hits all generators alike. Separate runs on a small VM move by 10% or more
# from one to the next with the scheduler, which is as large as the
# differences between keys; so each rep ends with a mixed run, where all
# keys share every second of it: one pgbench run, synchronous_commit off, in
# which each client picks one table's insert script at random for every
# transaction. Its per-transaction log stays in WORK_DIR for report.py, which
# turns it into each key's mean latency. Raw lines: tps MODE NAME REP TPS
# TRANSACTIONS, mixed REP LOG_DIR NAMES (the script order of the log).
run_part5() {
    local pgbench_reps=$((REPS < 3 ? REPS : 3)) rep name mode result log_dir
    for ((rep = 1; rep <= pgbench_reps; rep++)); do
        for mode in "${PGBENCH_COMMIT_MODES[@]}"; do
            log "part 5: rep $rep/$pgbench_reps, synchronous_commit = $mode" \
                "(pgbench, $CLIENTS clients, ${PGBENCH_SECONDS}s per table)"
            for name in "${GEN_NAMES[@]}"; do
                reset_table "bench_$name"
                result=$(pgbench_tps "$name" "$mode" "$PGBENCH_SECONDS")
                raw tps "$mode" "$name" "$rep" "$result"
            done
        done
        log "part 5: rep $rep/$pgbench_reps, all tables in one run (pgbench, $CLIENTS clients, ${PGBENCH_SECONDS}s)"
        for name in "${GEN_NAMES[@]}"; do reset_table "bench_$name"; done
        log_dir="$WORK_DIR/mixed-$rep"
        mkdir -p "$log_dir"
        # -l writes pgbench_log.PID (and .PID.N per extra thread) under the prefix:
        # "client transaction latency_us script_index epoch us".
        insert_pgbench off "$PGBENCH_SECONDS" "${GEN_NAMES[*]}" -l --log-prefix="$log_dir/pgbench_log" >/dev/null ||
            exit 1
        raw mixed "$rep" "$log_dir" "${GEN_NAMES[*]}"
    done
}

# ---------------------------------------------------------------------------
# Part 6: single-row inserts as the table grows past shared_buffers

# Measurement points, as percentages of SCALE_ROWS: each table is grown to
# that many rows, then measured.
SCALE_PERCENTS=(0 10 25 50 75 100)
SCALE_BUFFERS_SHOWN=""        # SHOW shared_buffers during part 6
SCALE_MEMORY_MB=""            # the memory cap in MB, empty when there is none

# A table outgrows shared_buffers sooner on a small pool, so the throwaway
# cluster restarts with SCALE_SHARED_BUFFERS for this part (the last one). It
# restarts inside a memory cgroup of SCALE_MEMORY, page cache included, so the
# tables also outgrow the memory that could cache them: on a machine with
# gigabytes free, a shared_buffers miss would be a copy from the page cache,
# never the disk read it is once a production index outgrows RAM. Where no
# cgroup can be made, the run goes on uncapped and the report says why. An
# existing server is measured as it is. Raw lines: meta scale_setting,
# scale_memory_setting, scale_memory_mb, scale_buffers_shown, scale_buffers_mb.
use_scale_server() {
    local setting memory_setting buffers_mb
    SCALE_MEMORY_MB=""
    if [[ -z $CLUSTER_DIR ]]; then
        setting="the existing server's own shared_buffers"
        memory_setting="not capped (an existing server is measured as it is)"
    else
        sql -c "ALTER SYSTEM SET shared_buffers = '$SCALE_SHARED_BUFFERS'"
        setting="restarted with shared_buffers = '$SCALE_SHARED_BUFFERS'"
        if [[ $SCALE_MEMORY == off ]]; then
            memory_setting="not capped (--scale-memory off)"
            cluster_restart "$CLUSTER_DIR"
        elif memory_cap_create "idgen-bench-$$" "$(size_bytes "$SCALE_MEMORY")"; then
            memory_cap_run cluster_restart "$CLUSTER_DIR"
            local postmaster
            postmaster=$(head -1 "$CLUSTER_DIR/data/postmaster.pid")
            memory_cap_holds "$postmaster" || die "part 6: the postmaster ($postmaster) is not in $MEMORY_CAP_DIR"
            SCALE_MEMORY_MB=$(($(size_bytes "$SCALE_MEMORY") / 1048576))
            memory_setting="capped at $SCALE_MEMORY, page cache included (cgroup $MEMORY_CAP_KIND memory controller)"
        else
            log "part 6: $MEMORY_CAP_REASON; the server runs without a memory cap"
            memory_setting="not capped ($MEMORY_CAP_REASON)"
            cluster_restart "$CLUSTER_DIR"
        fi
    fi
    SCALE_BUFFERS_SHOWN=$(sql -c "SHOW shared_buffers")
    buffers_mb=$(sql -c "SELECT setting::bigint * current_setting('block_size')::bigint / 1048576.0
                         FROM pg_settings WHERE name = 'shared_buffers'")
    raw meta scale_setting "$setting"
    raw meta scale_memory_setting "$memory_setting"
    raw meta scale_memory_mb "$SCALE_MEMORY_MB"
    raw meta scale_buffers_shown "$SCALE_BUFFERS_SHOWN"
    raw meta scale_buffers_mb "$buffers_mb"
}

# scale_server_words: part 6's memory in a few words, for the log and the plot.
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
# next one, so drift hits them alike. Raw lines: scale NAME POINT TARGET ROWS
# TPS TRANSACTIONS TOTAL_MB WAL_BYTES (the rows the table held when its run
# started, and the WAL the run wrote).
run_part6() {
    local percent target name result tps transactions mb lsn wal point=0
    local -A rows_now=()   # name -> rows its table holds (bulk loads plus pgbench transactions)
    use_scale_server
    for name in "${SCALE_NAMES[@]}"; do
        reset_table "bench_$name"
        rows_now[$name]=0
    done
    for percent in "${SCALE_PERCENTS[@]}"; do
        point=$((point + 1))
        target=$((SCALE_ROWS * percent / 100))
        log "part 6: point $point/${#SCALE_PERCENTS[@]}, tables grown to $target rows" \
            "($(scale_server_words), pgbench ${SCALE_SECONDS}s per table)"
        for name in "${SCALE_NAMES[@]}"; do
            if ((rows_now[$name] < target)); then
                sql -c "INSERT INTO bench_$name (n) SELECT g FROM generate_series(1, $((target - rows_now[$name]))) g"
                rows_now[$name]=$target
            fi
            sql -c "CHECKPOINT"
            lsn=$(sql -c "SELECT pg_current_wal_lsn()")
            result=$(pgbench_tps "$name" off "$SCALE_SECONDS")
            read -r tps transactions <<<"$result"
            # WAL per insert shows what a key costs beyond the buffer pool:
            # the full-page images of the pages it touches for the first time
            # since the checkpoint (nothing else writes WAL meanwhile).
            wal=$(sql -c "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn')")
            mb=$(sql -c "SELECT pg_total_relation_size('bench_$name') / 1048576.0")
            raw scale "$name" "$point" "$target" "${rows_now[$name]}" "$tps" "$transactions" "$mb" "$wal"
            rows_now[$name]=$((rows_now[$name] + transactions))
        done
    done
    # The row counts kept here are what the report and plot show; a mismatch
    # would mean a lost load or a pgbench count misread.
    local count
    for name in "${SCALE_NAMES[@]}"; do
        count=$(sql -c "SELECT count(*) FROM bench_$name")
        [[ $count == "${rows_now[$name]}" ]] ||
            die "part 6: bench_$name holds $count rows, expected ${rows_now[$name]}"
    done
}

# ---------------------------------------------------------------------------
# Report (test/bench/report.py), plot and publication

# write_meta: the run's settings and the server's, as meta lines.
write_meta() {
    local version major extversion icu
    version=$(sql -c "SHOW server_version")
    major=$(sql -c "SELECT current_setting('server_version_num')::int / 10000")
    extversion=$(sql -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")
    # initdb imports ICU's locales as "*-x-icu" collations only on a server
    # built with ICU (the report says when it has none).
    icu=$(sql -c "SELECT count(*) > 0 FROM pg_collation WHERE collprovider = 'i' AND collname LIKE '%-x-icu'")
    raw meta date "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    raw meta server_version "$version"
    raw meta server_major "$major"
    raw meta extversion "$extversion"
    raw meta icu "$icu"
    raw meta nproc "$(nproc)"
    raw meta calls "$CALLS"
    raw meta index_rows "$INDEX_ROWS"
    raw meta rows "$ROWS"
    raw meta reps "$REPS"
    raw meta clients "$CLIENTS"
    raw meta pgbench_seconds "$PGBENCH_SECONDS"
    raw meta scale_rows "$SCALE_ROWS"
    raw meta scale_seconds "$SCALE_SECONDS"
    raw meta scale_percents "${SCALE_PERCENTS[*]}"
    raw meta quick "$QUICK"
    raw meta sf_call_shard_base "$SF_CALL_SHARD_BASE"
    raw meta sf53_call_shards "$SF53_CALL_SHARD_FIRST-$SF53_CALL_SHARD_LAST"
    raw meta sf_key_shard "$SF_KEY_SHARD"
    raw meta text_prefix "$TEXT_PREFIX"
    raw meta index_ids_per_ms "$INDEX_IDS_PER_MS"
    raw meta index_memory "$INDEX_MEMORY"
    # The registry peer: installed (its package, version and SHA-256), or not
    # part of this major's run, and every generator skipped for want of its
    # extension, counted.
    raw meta peer_pg_uuidv7 "$PEER_PG_UUIDV7"
    raw meta peer_pg_uuidv7_note "$PEER_PG_UUIDV7_NOTE"
    local IFS=';'
    raw meta peer_skips "${PEER_SKIPS[*]}"
}

# ---------------------------------------------------------------------------
# Part 7: the formats of issue 53 (ksuid, objectid, rsxid, UUIDv6): their text
# output and input next to uuid's, and each generator (and issue 54's Sqids
# encoder, of one bigint: the generate_series value) next to the PL/pgSQL a
# user would paste instead (test/bench/format_peers.sql, written from the
# formats' specs). Their per-call cost against gen_random_uuid(), bulk load
# and single-row inserts are parts 1, 4 and 5 (GENERATORS).

# label | expression: the text conversions, each rep in this order, over
# bench_formats (k ksuid, o objectid, x rsxid, v uuid from uuid_v6(), u uuid
# from gen_random_uuid(), and the text of k, o, x and u in kt, ot, xt, ut; u62
# is uuid_encode(u, 'base62'), issue 54's short text, timed next to uuid's;
# w a uuid from uuid_v7() and wf its UUIDv47 facade under the key
# bench_uuidv47, which uuid_v7_mask and uuid_v7_unmask are timed with next to
# uuid_out).
FORMAT_TEXT=$(cat <<'TABLE'
scan only     | count(*)
ksuid_out     | count(k::text)
objectid_out  | count(o::text)
rsxid_out     | count(x::text)
uuid_out      | count(u::text)
base62_out    | count(uuid_encode(u, 'base62'))
uuid_v7_mask  | count(uuid_v7_mask(w, 'bench_uuidv47'))
uuid_v7_unmask | count(uuid_v7_unmask(wf, 'bench_uuidv47'))
ksuid_in      | count(kt::ksuid)
objectid_in   | count(ot::objectid)
rsxid_in      | count(xt::rsxid)
uuid_in       | count(ut::uuid)
base62_in     | count(uuid_decode(u62, 'base62'))
TABLE
)
# label | idgen's generator | the peer's: timed over FORMAT_PEER_CALLS calls each.
FORMAT_PEERS=$(cat <<'TABLE'
ksuid    | ksuid()    | format_peers.ksuid()
objectid | objectid() | format_peers.objectid()
xid      | xid()      | format_peers.xid()
uuid_v6  | uuid_v6()  | format_peers.uuid_v6()
sqids    | sqids_encode(generate_series::bigint) | format_peers.sqids_encode(generate_series::bigint, sqids_default_blocklist())
TABLE
)

# bench_formats has CALLS rows, but at most this many: about 52 MB, below a
# quarter of shared_buffers, where a sequential scan stops reading through a
# small ring of buffers. A larger table is read from the page cache at every
# scan, and that copy (some 400 ms for 1,000,000 rows here) varies by more than
# a conversion costs.
FORMAT_ROWS_CAP=200000

# Raw lines: format_text LABEL REP SECONDS EXPRESSION, format_call LABEL
# WHICH REP SECONDS EXPRESSION (WHICH: idgen or peer).
run_part7() {
    local rep label expr peer seconds rows peer_calls
    rows=$((CALLS < FORMAT_ROWS_CAP ? CALLS : FORMAT_ROWS_CAP))
    # PL/pgSQL costs some microseconds a call: a tenth of part 1's calls
    peer_calls=$((CALLS / 10 > 1000 ? CALLS / 10 : 1000))
    raw meta format_rows "$rows"
    raw meta format_peer_calls "$peer_calls"
    log "part 7: filling bench_formats with $rows rows"
    # a key of the benchmark's own, made in the server and removed at the end
    sql -c "DELETE FROM idgen_secret.idgen_secret_key WHERE name = 'bench_uuidv47'" \
        -c "SELECT idgen_key_create('bench_uuidv47')" >/dev/null
    sql -c "DROP TABLE IF EXISTS bench_formats" \
        -c "CREATE TABLE bench_formats AS
            SELECT k, o, x, v, u, k::text AS kt, o::text AS ot, x::text AS xt, u::text AS ut,
                   uuid_encode(u, 'base62') AS u62, w, uuid_v7_mask(w, 'bench_uuidv47') AS wf
            FROM (SELECT ksuid() AS k, objectid() AS o, xid() AS x, uuid_v6() AS v, gen_random_uuid() AS u,
                         uuid_v7() AS w
                  FROM generate_series(1, $rows)) s ORDER BY random()" \
        -c "VACUUM (FREEZE, ANALYZE) bench_formats"
    [[ $(sql -c "SELECT count(*) = $rows AND bool_and(kt::ksuid = k AND ot::objectid = o AND xt::rsxid = x
                        AND uuid_decode(u62, 'base62') = u AND uuid_v7_unmask(wf, 'bench_uuidv47') = w)
                 FROM bench_formats") == t ]] || die "bench_formats' text columns do not read back as its values"
    sql -c "DROP SCHEMA IF EXISTS format_peers CASCADE" -f "$BENCH_DIR/format_peers.sql"
    # the PL/pgSQL Sqids must give idgen's codes, or the comparison is of different work
    [[ $(sql -c "SELECT bool_and(format_peers.sqids_encode(i, sqids_default_blocklist()) = sqids_encode(i))
                 FROM generate_series(0::bigint, 3000) i") == t ]] || die "format_peers.sqids_encode differs from sqids_encode"
    sql -c "SELECT count(*) FROM bench_formats" >/dev/null
    for ((rep = 1; rep <= REPS; rep++)); do
        log "part 7: rep $rep/$REPS"
        while IFS='|' read -r label expr; do
            label=$(trim "$label")
            [[ -n $label ]] || continue
            expr=$(trim "$expr")
            seconds=$(time_with "$TEXT_SETTINGS" "SELECT $expr FROM bench_formats")
            raw format_text "$label" "$rep" "$seconds" "$expr"
        done <<<"$FORMAT_TEXT"
        while IFS='|' read -r label expr peer; do
            label=$(trim "$label")
            [[ -n $label ]] || continue
            expr=$(trim "$expr") peer=$(trim "$peer")
            seconds=$(time_query backend "SELECT count($expr) FROM generate_series(1, $peer_calls)")
            raw format_call "$label" idgen "$rep" "$seconds" "$expr"
            seconds=$(time_query backend "SELECT count($peer) FROM generate_series(1, $peer_calls)")
            raw format_call "$label" peer "$rep" "$seconds" "$peer"
        done <<<"$FORMAT_PEERS"
    done
    sql -c "DROP TABLE bench_formats" -c "DROP SCHEMA format_peers CASCADE" \
        -c "DELETE FROM idgen_secret.idgen_secret_key WHERE name = 'bench_uuidv47'" >/dev/null
}

# results_suffix: "" for Debian's PostgreSQL 15, whose runs are the
# published reference (results/latest.*), "-pgN" for any other major, so
# each major keeps its own latest files and a run on one never replaces
# another's.
results_suffix() {
    local major
    major=$(sql -c "SELECT current_setting('server_version_num')::int / 10000")
    ((major == 15)) || echo "-pg$major"
}

# publish: report.py writes the report (also to stdout) and the data of part
# 6 under results/ (results/tmp/ for scratch runs: CI, the test suite, the
# demo), gnuplot draws the plot; published runs also keep timestamped copies
# so results can be compared over time. Sets PUBLISHED_PNG.
PUBLISHED_PNG=""
publish() {
    local dir=$RESULTS_DIR suffix names version title name
    ((SCRATCH)) && dir="$RESULTS_DIR/tmp"
    mkdir -p "$dir"
    suffix=$(results_suffix)
    names="latest$suffix"
    ((SCRATCH)) || names+=",idgen-$(date '+%Y%m%d-%H%M%S')$suffix"
    python3 "$BENCH_DIR/report.py" --raw "$RAW" --dir "$dir" --names "$names" ||
        die "report.py failed on $RAW"
    command -v gnuplot >/dev/null || die "gnuplot not found (Debian package gnuplot-nox; test/setup.sh installs it)"
    version=$(sql -c "SHOW server_version")
    title="Single-row inserts as the table grows"$'\n'"PostgreSQL ${version%% *}, $(scale_server_words), $CLIENTS clients, synchronous_commit off"
    PUBLISHED_PNG="$dir/latest$suffix.png"
    gnuplot -c "$BENCH_DIR/plot.gp" "$dir/latest$suffix-scale.tsv" "$PUBLISHED_PNG" "$title" ||
        die "gnuplot failed to plot $dir/latest$suffix-scale.tsv"
    IFS=, read -r -a names <<<"$names"
    for name in "${names[@]:1}"; do cp "$PUBLISHED_PNG" "$dir/$name.png"; done
}

main() {
    parse_args "$@"
    choose_server
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM

    start_server
    WORK_DIR=$(mktemp -d)
    RAW="$WORK_DIR/raw.tsv"
    : >"$RAW"
    setup_database
    write_meta
    run_part1
    run_part2
    run_part3
    run_part4
    run_part5
    # Part 7 before part 6, which leaves the server restarted with a small
    # shared_buffers inside a memory cap: there part 7's scans would be
    # copies from a capped page cache, costing more than the conversions.
    run_part7
    run_part6
    local after
    after=$(snowflake_state)
    raw snowflake_after "$after"
    drop_bench_objects
    publish
    # --quick exists for CI to prove the benchmark runs end to end: every
    # figure must be a positive number and every part complete. Timings are
    # never judged.
    if ((QUICK)); then
        python3 "$BENCH_DIR/report.py" --raw "$RAW" --check "$PUBLISHED_PNG" ||
            die "the benchmark itself is broken (see above)"
        log "quick run OK: every measured figure is a positive number"
    fi
    return 0
}

main "$@"
