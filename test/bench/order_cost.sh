#!/usr/bin/env bash
# The cost of 'server' order against 'backend' order, per call, for ulid()
# (idgen.ulid_order) and uuid_v7() (idgen.uuid_v7_order), in one run:
#
# 1. one session: SELECT count(f) FROM generate_series(1, CALLS), timed inside
#    the server (as bench.sh part 1), the expressions interleaved over REPS
#    rounds, medians;
# 2. CLIENTS sessions at once: pgbench -n -c CLIENTS -j CLIENTS -T SECONDS
#    running SELECT count(f) FROM generate_series(1, 1000), the two orders of
#    each family alternating over ROUNDS rounds, median TPS, and the server's
#    throughput as nanoseconds per call.
#
# Ratios are server order over backend order from the same run, never a
# pass/fail on time. It starts its own throwaway cluster with idgen preloaded
# from PG_CONFIG's server (idgen installed there), and prints a markdown
# report; --out FILE writes it there too.
#
#   bash test/bench/order_cost.sh [--calls N] [--reps N] [--clients N]
#                                 [--seconds N] [--rounds N] [--out FILE]
set -euo pipefail
cd "$(dirname "$0")/../.."

CALLS=2000000
REPS=7
CLIENTS=2
SECONDS_PER_ROUND=5
ROUNDS=5
OUT=""
while (($#)); do
    case $1 in
        --calls) CALLS=$2; shift 2 ;;
        --reps) REPS=$2; shift 2 ;;
        --clients) CLIENTS=$2; shift 2 ;;
        --seconds) SECONDS_PER_ROUND=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        *) echo "usage: bash test/bench/order_cost.sh [--calls N] [--reps N] [--clients N] [--seconds N] [--rounds N] [--out FILE]" >&2; exit 2 ;;
    esac
done

# shellcheck source=test/lib/cluster.sh
source test/lib/cluster.sh
CLUSTER_DIR=$(mktemp -d)
trap 'cluster_stop "$CLUSTER_DIR"' EXIT
cluster_start "$CLUSTER_DIR" "shared_preload_libraries = 'idgen'" "jit = off"

sql() { psql -X -q -A -t -v ON_ERROR_STOP=1 "$@"; }
sql -c 'CREATE EXTENSION idgen' -c "
CREATE FUNCTION order_cost_cpu() RETURNS double precision LANGUAGE sql AS \$\$
    -- this backend's user + system CPU time in clock ticks (/proc/self/stat
    -- fields 14 and 15, counted after the command name's closing parenthesis)
    SELECT f[12]::double precision + f[13]::double precision
    FROM regexp_split_to_array(substring(pg_read_file('/proc/self/stat') FROM '\\) (.*)\$'), ' ') AS f \$\$" -c "
CREATE FUNCTION order_cost_time(query text, OUT wall double precision, OUT cpu double precision)
LANGUAGE plpgsql AS \$\$
DECLARE started timestamptz; cpu0 double precision;
BEGIN
    cpu0 := order_cost_cpu();
    started := clock_timestamp();
    EXECUTE query;
    wall := extract(epoch FROM clock_timestamp() - started);
    cpu := (order_cost_cpu() - cpu0) / $(getconf CLK_TCK);
END \$\$"

# label | expression | order
CASES=(
    "ulid() [backend]|ulid()|backend"
    "ulid() [server]|ulid()|server"
    "uuid_v7() [backend]|uuid_v7()|backend"
    "uuid_v7() [server]|uuid_v7()|server"
    "empty loop|*|backend"
)

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A WALL=() CPU=()
for ((rep = 1; rep <= REPS; rep++)); do
    for c in "${CASES[@]}"; do
        IFS='|' read -r label expr order <<<"$c"
        IFS='|' read -r wall cpu < <(sql -c "SET idgen.ulid_order = '$order'" -c "SET idgen.uuid_v7_order = '$order'" \
            -c "SELECT wall, cpu FROM order_cost_time('SELECT count($expr) FROM generate_series(1, $CALLS)')")
        WALL[$label]+="$wall "
        CPU[$label]+="$cpu "
    done
    echo "order_cost: one session, round $rep of $REPS" >&2
done

# per_call SECONDS-LIST: the median as nanoseconds per call.
per_call() { tr ' ' '\n' <<<"$1" | grep . | median | awk -v n="$CALLS" '{ printf "%.1f", $1 * 1e9 / n }'; }
declare -A NS=() NS_CPU=()
for c in "${CASES[@]}"; do
    IFS='|' read -r label _ _ <<<"$c"
    NS[$label]=$(per_call "${WALL[$label]}")
    NS_CPU[$label]=$(per_call "${CPU[$label]}")
done

PGBENCH_DIR=$(mktemp -d)
chmod 755 "$PGBENCH_DIR"
declare -A TPS=()
for family in ulid uuid_v7; do
    echo "SELECT count($family()) FROM generate_series(1, 1000);" >"$PGBENCH_DIR/$family.sql"
done
for ((round = 1; round <= ROUNDS; round++)); do
    # The order within a round alternates, so neither setting always runs first.
    if ((round % 2)); then orders=(backend server); else orders=(server backend); fi
    for family in ulid uuid_v7; do
        for order in "${orders[@]}"; do
            tps=$(PGOPTIONS="-c idgen.${family}_order=$order" pgbench -n -c "$CLIENTS" -j "$CLIENTS" \
                -T "$SECONDS_PER_ROUND" -f "$PGBENCH_DIR/$family.sql" postgres 2>/dev/null |
                sed -nE 's/^tps = ([0-9.]+).*/\1/p')
            TPS["$family $order"]+="$tps "
        done
    done
    echo "order_cost: $CLIENTS sessions, round $round of $ROUNDS" >&2
done
rm -rf "$PGBENCH_DIR"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
net() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }
report() {
    local version load
    version=$(sql -c 'SHOW server_version')
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "# 'server' order against 'backend' order"
    echo
    echo "\`bash test/bench/order_cost.sh --calls $CALLS --reps $REPS --clients $CLIENTS --seconds $SECONDS_PER_ROUND --rounds $ROUNDS\`"
    echo "on PostgreSQL ${version%% *}, $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC'), load average at the end $load."
    echo
    echo "## One session"
    echo
    echo "\`SELECT count(f) FROM generate_series(1, $CALLS)\` timed inside the server, median of $REPS interleaved rounds:"
    echo "wall-clock time, and the backend's CPU time (user + system, /proc/self/stat), which a loaded machine"
    echo "disturbs less (time spent waiting for a CPU is not in it)."
    echo
    echo "| function | ns/call, wall | server / backend | ns/call, CPU | net of the loop, CPU | server / backend, CPU | net, server / backend, CPU |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    local empty=${NS[empty loop]} empty_cpu=${NS_CPU[empty loop]} family b s bc sc
    for family in ulid uuid_v7; do
        b=${NS[$family() [backend]]}
        s=${NS[$family() [server]]}
        bc=${NS_CPU[$family() [backend]]}
        sc=${NS_CPU[$family() [server]]}
        echo "| \`$family()\`, backend order | $b | | $bc | $(net "$bc" "$empty_cpu") | | |"
        echo "| \`$family()\`, server order | $s | $(ratio "$s" "$b") | $sc | $(net "$sc" "$empty_cpu") | **$(ratio "$sc" "$bc")** | $(ratio "$(net "$sc" "$empty_cpu")" "$(net "$bc" "$empty_cpu")") |"
    done
    echo "| empty loop | $empty | | $empty_cpu | | | |"
    echo
    echo "## $CLIENTS sessions at once"
    echo
    echo "\`pgbench -n -c $CLIENTS -j $CLIENTS -T $SECONDS_PER_ROUND\` running \`SELECT count(f) FROM generate_series(1, 1000)\`, the orders alternating over $ROUNDS rounds, median TPS; ns/call is the server's throughput (10^9 / (TPS x 1000))."
    echo
    echo "| function | order | TPS | ns/call | server / backend |"
    echo "|---|---|---:|---:|---:|"
    local tb ts
    for family in ulid uuid_v7; do
        tb=$(tr ' ' '\n' <<<"${TPS[$family backend]}" | grep . | median)
        ts=$(tr ' ' '\n' <<<"${TPS[$family server]}" | grep . | median)
        echo "| \`$family()\` | backend | $tb | $(awk -v t="$tb" 'BEGIN { printf "%.1f", 1e6 / t }') | |"
        echo "| \`$family()\` | server | $ts | $(awk -v t="$ts" 'BEGIN { printf "%.1f", 1e6 / t }') | **$(ratio "$tb" "$ts")** |"
    done
}
if [[ -n $OUT ]]; then report | tee "$OUT"; else report; fi
