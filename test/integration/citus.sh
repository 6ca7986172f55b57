#!/usr/bin/env bash
# idgen on a real Citus cluster (issue 23): a coordinator and two workers on
# 127.0.0.1, each with shared_preload_libraries = 'citus,idgen' and a snowflake
# shard of its own (coordinator 1, worker w1 2, worker w2 3; a third worker w3
# joins later with 4). Citus is built from IDGEN_CITUS_SOURCE (by default the
# vendored tarball beside the checkout, its SHA-256 checked first) against
# $PG_CONFIG, once per PostgreSQL build: it is installed into that server's
# prefix with a stamp (citus-build.env) that later runs reuse.
#
# Checks (docs/multi-server.md, "Citus", says what they show):
#  1. every idgen key as the distribution column (uuid with uuid_v7(), ulid,
#     prefixed_id, a prefixed_id_define() type, typeid, a typeid_define()
#     type, bigint with snowflake() and with snowflake53()): 100,000 rows each,
#     a quarter by multi-row INSERT, INSERT ... SELECT, COPY text (IDs from the
#     DEFAULT) and COPY binary (IDs sent by the client): all present, all
#     distinct, each of the 32 shards within 20 % of the mean;
#  2. WHERE id = constant plans to one task, and the row comes back for the
#     constant as text, as a prepared statement's parameter and through
#     psycopg's extended protocol (test/lib/citus_client.py); on the domains,
#     what Citus 14.0.1 does instead (an uncast constant finds no row: a
#     Citus defect, shown on a core text domain too);
#  3. joins of colocated tables on ulid and on a prefixed type run without
#     repartitioning; a reference table's idgen DEFAULT is evaluated once;
#  4. which node mints a DEFAULT snowflake, per insert form, through the
#     coordinator and directly through a worker (the shard decoded from each ID);
#  5. the shard claim guard: the coordinator gathers every node's claims and
#     refuses a worker configured with another node's shard;
#  6. citus_move_shard_placement (logical and block_writes) and
#     rebalance_table_shards after adding w3, with citus.enable_binary_protocol
#     on and off: row counts and checksums unchanged;
#  7. (run first) ALTER EXTENSION idgen UPDATE from 0.5.0 on the coordinator
#     reaches every node, and the cluster keeps inserting.
#  8. only with CITUS_BENCH_SECONDS=N: pgbench inserts through the
#     coordinator, one table per generator and one keyed by bigserial, medians
#     and ratios by test/lib/citus_bench.py (no time is asserted).
# CITUS_ROWS (default 100000) sets the rows per table of check 1.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
source test/lib/lib.sh
source test/lib/cluster.sh

citus_version=14.0.1
citus_sha256=acfa9a77cd84a8e1edab26cca4a71355f39c910c01586da89560e0240d4b05ba
citus_source=${IDGEN_CITUS_SOURCE:-$(realpath -m "$repo/../shared/vendor/citus/citus-$citus_version.tar.gz")}
rows=${CITUS_ROWS:-100000}
started=$SECONDS

if ((PG_MAJOR < 16 || PG_MAJOR > 18)); then
    echo "ok 1 # skip Citus $citus_version supports PostgreSQL 16 to 18"
    exit 0
fi
if [[ ! -f $citus_source ]]; then
    if [[ ${CI:-} == true ]]; then
        echo "not ok 1 - the Citus source $citus_source is present (required under CI=true)"
        exit 1
    fi
    echo "ok 1 # skip Citus source $citus_source not found (set IDGEN_CITUS_SOURCE)"
    exit 0
fi
got_sha=$(sha256sum "$citus_source" | cut -d' ' -f1)
is "the Citus source $citus_source has the SHA-256 of citus-$citus_version.tar.gz" "$got_sha" "$citus_sha256"
[[ $got_sha == "$citus_sha256" ]] || tap_done

# --- build Citus once per PostgreSQL build ------------------------------------
prefix=$(dirname "$("$PG_CONFIG" --bindir)")
stamp="$prefix/citus-build.env"
want_stamp="citus_version=$citus_version
citus_sha256=$citus_sha256"
pkglibdir=$("$PG_CONFIG" --pkglibdir)
built_now=no
if [[ -f $stamp && $(head -n 2 "$stamp") == "$want_stamp" && -f $pkglibdir/citus.so ]]; then
    echo "# Citus $citus_version: reusing the build recorded in $stamp"
else
    if [[ $EUID -ne 0 ]]; then
        echo "not ok $((TAP_N + 1)) - Citus $citus_version is built into $prefix (building it needs root)"
        exit 1
    fi
    bash test/setup.sh libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev >&2 || {
        echo "not ok $((TAP_N + 1)) - Citus's build dependencies are installed (test/setup.sh)"
        exit 1
    }
    build_dir=$(mktemp -d /tmp/idgen-citus-build.XXXXXX)
    build_start=$SECONDS
    rm -f "$stamp"
    # --without-libcurl: no usage reports from test servers.
    if tar -xzf "$citus_source" -C "$build_dir" &&
        cd "$build_dir"/citus-* &&
        ./configure PG_CONFIG="$PG_CONFIG" --without-libcurl >"$build_dir/configure.log" 2>&1 &&
        make -j"$(nproc)" >"$build_dir/make.log" 2>&1 &&
        make install >"$build_dir/install.log" 2>&1; then
        cd "$repo"
        printf '%s\nbuild_seconds=%d\n' "$want_stamp" $((SECONDS - build_start)) >"$stamp"
        rm -rf "$build_dir"
        built_now=yes
        echo "# Citus $citus_version built into $prefix in $((SECONDS - build_start)) s"
    else
        cd "$repo"
        echo "not ok $((TAP_N + 1)) - Citus $citus_version builds against $PG_CONFIG (logs in $build_dir)"
        tail -n 20 "$build_dir"/*.log | sed 's/^/# /'
        exit 1
    fi
fi
check "Citus $citus_version is installed in $prefix" test -f "$pkglibdir/citus.so"

# --- the cluster ----------------------------------------------------------------
dir=$(mktemp -d /tmp/idgen-citus.XXXXXX)
chmod 755 "$dir"
nodes=(c w1 w2 w3 wx)
trap 'for n in "${nodes[@]}"; do cluster_stop "$dir/$n"; done; rm -rf "$dir"' EXIT
declare -A port shard_of=([c]=1 [w1]=2 [w2]=3 [w3]=4)

on() {  # on NODE COMMAND...: runs COMMAND against NODE
    local n=$1
    shift
    PGHOST=$dir/$n PGPORT=${port[$n]} PGDATABASE=postgres "$@"
}
qc() { on c q "$1"; }

# start_node NAME SHARD: a Citus node whose snowflake shard is SHARD.
start_node() {
    cluster_start "$dir/$1" "shared_preload_libraries = 'citus,idgen'" "fsync = off" \
        "max_connections = 150" "wal_level = logical" "max_replication_slots = 20" \
        "max_wal_senders = 20" "max_worker_processes = 24" "cluster_name = '$1'" \
        "idgen.shard_id = $2" "idgen.allowed_shards = '$2'" "log_line_prefix = '%m [%p] %b: '" ||
        return 1
    port[$1]=$PGPORT
    on "$1" q "CREATE EXTENSION citus" >/dev/null
}
for n in c w1 w2; do
    start_node "$n" "${shard_of[$n]}" || { echo "not ok $((TAP_N + 1)) - node $n starts with Citus"; exit 1; }
done
export PGHOST=$dir/c PGPORT=${port[c]} PGDATABASE=postgres
qc "SELECT citus_set_coordinator_host('127.0.0.1', ${port[c]})" >/dev/null
for n in w1 w2; do qc "SELECT citus_add_node('127.0.0.1', ${port[$n]})" >/dev/null; done
is "the coordinator lists 2 active workers" "$(qc "SELECT count(*) FROM citus_get_active_worker_nodes()")" 2
# --- 7. ALTER EXTENSION idgen UPDATE -------------------------------------------------
# Run first: CREATE EXTENSION idgen VERSION '0.5.0' (the previous release) on
# the coordinator, which Citus propagates to every worker, a distributed table
# keyed by ulid with rows, then the update; everything below runs on the
# current version.
current=$(make -s print-version)
versions="SELECT string_agg(result, ',') FROM run_command_on_all_nodes(\$\$SELECT extversion FROM pg_extension WHERE extname = 'idgen'\$\$)"
qc "CREATE EXTENSION idgen VERSION '0.5.0';
    CREATE TABLE upg (id ulid PRIMARY KEY DEFAULT ulid(), sf bigint DEFAULT snowflake(), n int);
    SELECT create_distributed_table('upg', 'id');
    INSERT INTO upg (n) SELECT g FROM generate_series(1, 1000) g" >/dev/null 2>"$dir/err" || sed 's/^/# /' "$dir/err"
is "CREATE EXTENSION idgen VERSION '0.5.0' on the coordinator reached every node" "$(qc "$versions")" "0.5.0,0.5.0,0.5.0"
qc "ALTER EXTENSION idgen UPDATE" >/dev/null 2>"$dir/err" || sed 's/^/# /' "$dir/err"
is "ALTER EXTENSION idgen UPDATE on the coordinator updates every node to $current" "$(qc "$versions")" "$current,$current,$current"
is "0.6.0's SQL changes reached the workers: snowflake_time(bigint) is STABLE on every node" \
    "$(qc "SELECT string_agg(result, ',') FROM run_command_on_all_nodes(\$\$SELECT provolatile FROM pg_proc WHERE proname = 'snowflake_time' AND pronargs = 1\$\$)")" \
    "s,s,s"
qc "INSERT INTO upg (n) SELECT g FROM generate_series(1001, 2000) g;
    INSERT INTO upg (n) VALUES (2001), (2002)" >/dev/null 2>"$dir/err" || sed 's/^/# /' "$dir/err"
is "after the update the cluster keeps inserting: 2002 rows, 2002 distinct IDs" \
    "$(qc "SELECT count(*) || ' rows, ' || count(DISTINCT id) || ' distinct IDs' FROM upg")" "2002 rows, 2002 distinct IDs"
echo "# $(qc "SELECT citus_version()")"
echo "# cluster up after $((SECONDS - started)) s"

# --- 1. every idgen key as the distribution column ----------------------------------
qc "SELECT prefixed_id_define('order_id', 'ord'); SELECT typeid_define('user_id', 'usr')" >/dev/null
# The registry row is written on the coordinator only (a plain table of the
# extension): prefixed_id_type() knows the prefix there, not on the workers.
is "prefixed_id_registry rows stay on the coordinator (rows per node)" \
    "$(qc "SELECT string_agg(result, ',' ORDER BY nodeid) FROM run_command_on_all_nodes(\$\$SELECT count(*) FROM prefixed_id_registry\$\$)")" \
    "2,0,0"
ord_id=$(qc "SELECT prefixed_id_new('ord')")
is "prefixed_id_type() finds the prefix on the coordinator" "$(qc "SELECT prefixed_id_type('$ord_id')")" order_id
check "prefixed_id_type() on a worker: no prefixed ID type has the prefix \"ord\"" \
    grep -q 'no prefixed ID type has the prefix "ord"' <<<"$(on w1 q "SELECT prefixed_id_type('$ord_id')" 2>&1)"
is "prefixed_id_define() and typeid_define() domains exist on every node" \
    "$(qc "SELECT string_agg(result, ',') FROM run_command_on_all_nodes(
               \$\$SELECT count(*) FROM pg_type WHERE typname IN ('order_id', 'user_id') AND typtype = 'd'\$\$)")" \
    "2,2,2"
# table|column type|the generator that mints its IDs in a client's SELECT
kinds=(
    "k_uuid|uuid DEFAULT uuid_v7()|uuid_v7()"
    "k_ulid|ulid DEFAULT ulid()|ulid()"
    "k_prefixed|prefixed_id DEFAULT prefixed_id_new('acct')|prefixed_id_new('acct')"
    "k_order|order_id|prefixed_id_new('ord')::order_id"
    "k_typeid|typeid DEFAULT typeid_new('user')|typeid_new('user')"
    "k_user|user_id|typeid_new('usr')::user_id"
    "k_snowflake|bigint DEFAULT snowflake()|snowflake()"
    "k_snowflake53|bigint DEFAULT snowflake53()|snowflake53()"
)
quarter=$((rows / 4))
load_start=$SECONDS
for kind in "${kinds[@]}"; do
    IFS='|' read -r t coltype gen <<<"$kind"
    out=$(qc "CREATE TABLE $t (id $coltype NOT NULL, n int NOT NULL);
              SELECT create_distributed_table('$t', 'id')" 2>&1)
    method=$(qc "SELECT partmethod FROM pg_dist_partition WHERE logicalrelid = '$t'::regclass")
    is "$t: create_distributed_table on id ($coltype) makes a hash-distributed table" "$method" h
    [[ $method == h ]] || sed 's/^/# /' <<<"$out"
    # multi-row INSERT: statements of 1000 rows
    for ((s = 0; s < quarter; s += 1000)); do
        printf 'INSERT INTO %s (n) VALUES ' "$t"
        seq -s '),(' $((s + 1)) $((s + 1000 > quarter ? quarter : s + 1000)) | sed 's/^/(/; s/$/);/'
    done >"$dir/multi.sql"
    on c psql -XAtq -v ON_ERROR_STOP=1 -f "$dir/multi.sql" >/dev/null 2>"$dir/err" ||
        sed 's/^/# /' "$dir/err"
    qc "INSERT INTO $t (n) SELECT g FROM generate_series($((quarter + 1)), $((2 * quarter))) g" >/dev/null
    seq $((2 * quarter + 1)) $((3 * quarter)) >"$dir/copy.txt"
    on c psql -XAtq -v ON_ERROR_STOP=1 -c "\\copy $t (n) FROM '$dir/copy.txt'" >/dev/null
    on c psql -XAtq -v ON_ERROR_STOP=1 \
        -c "\\copy (SELECT $gen, g FROM generate_series($((3 * quarter + 1)), $((4 * quarter))) g) TO '$dir/copy.bin' (FORMAT binary)" \
        -c "\\copy $t (id, n) FROM '$dir/copy.bin' (FORMAT binary)" >/dev/null
    is "$t: every row present (multi-row INSERT, INSERT ... SELECT, COPY text, COPY binary)" \
        "$(qc "SELECT count(*) || ' rows, n ' || count(DISTINCT n) || ' distinct from ' || min(n) || ' to ' || max(n) FROM $t")" \
        "$((4 * quarter)) rows, n $((4 * quarter)) distinct from 1 to $((4 * quarter))"
    is "$t: every ID distinct" "$(qc "SELECT count(DISTINCT id) FROM $t")" $((4 * quarter))
    # rows per shard, counted in the shards themselves
    spread=$(qc "SELECT count(*) || ' shards, ' || min(c) || ' to ' || max(c) || ' rows, mean ' || round(avg(c))
                        || CASE WHEN min(c) >= 0.8 * avg(c) AND max(c) <= 1.2 * avg(c) THEN ' (within 20 %)' ELSE ' (UNEVEN)' END
                 FROM (SELECT result::bigint c FROM run_command_on_shards('$t', 'SELECT count(*) FROM %s')) s")
    check "$t: rows spread over the shards: $spread" grep -q '^32 shards, .*(within 20 %)$' <<<"$spread"
    # every row is in the shard whose hash range holds its ID's hash, whichever
    # way it came in (DEFAULT on the coordinator, or sent by the client)
    is "$t: every row is stored in the shard its ID hashes to" \
        "$(qc "SELECT count(*) FILTER (WHERE split_part(r.result, ' ', 1)::int >= s.shardminvalue::int
                                          AND split_part(r.result, ' ', 2)::int <= s.shardmaxvalue::int) || ' of ' || count(*)
               FROM run_command_on_shards('$t', 'SELECT min(worker_hash(id)) || '' '' || max(worker_hash(id)) FROM %s') r
               JOIN pg_dist_shard s USING (shardid)")" "32 of 32"
done
echo "# check 1 loaded $((8 * 4 * quarter)) rows in $((SECONDS - load_start)) s"

# --- 2. router queries ----------------------------------------------------------------
: >"$dir/client.tsv"
for kind in "${kinds[@]}"; do
    IFS='|' read -r t coltype gen <<<"$kind"
    type=${coltype%% *}
    const=$(qc "SELECT id FROM $t WHERE n = 777")
    printf '%s\t%s\t%s\n' "$t" "$type" "$const" >>"$dir/client.tsv"
    # On a domain with a CHECK (order_id, user_id), Citus 14.0.1 prunes every
    # shard for an uncast constant and returns no row; a constant cast to the
    # domain finds the row, but in all 32 shards; a parameter typed as the
    # domain routes to one.
    lit="'$const'" tasks=1
    if [[ $type == order_id || $type == user_id ]]; then
        lit="'$const'::$type" tasks=32
        is "$t: KNOWN CITUS LIMITATION: WHERE id = '<constant>' not cast to the domain $type returns no row" \
            "$(qc "SELECT count(*) FROM $t WHERE id = '$const'")" 0
    fi
    plan=$(qc "EXPLAIN (COSTS OFF) SELECT n FROM $t WHERE id = $lit")
    is "$t: WHERE id = $lit plans to $tasks task(s)" "$(grep -oE 'Task Count: [0-9]+' <<<"$plan")" "Task Count: $tasks"
    is "$t: the row comes back for the constant as text" "$(qc "SELECT n FROM $t WHERE id = $lit")" 777
    # six executions: the plan cache switches to a generic plan after five
    got=$(on c psql -XAtq -v ON_ERROR_STOP=1 2>&1 <<SQL
PREPARE p($type) AS SELECT n FROM $t WHERE id = \$1;
EXECUTE p('$const');
EXECUTE p('$const');
EXECUTE p('$const');
EXECUTE p('$const');
EXECUTE p('$const');
EXECUTE p('$const');
EXPLAIN (COSTS OFF) EXECUTE p('$const');
SQL
)
    is "$t: a prepared statement with the ID as parameter returns the row on each of 6 executions" \
        "$(grep -cx 777 <<<"$got")" 6
    is "$t: the prepared statement's 7th execution (generic plan) plans to one task" \
        "$(grep -oE 'Task Count: [0-9]+' <<<"$got")" "Task Count: 1"
done
# The same with a domain that has nothing to do with idgen: Citus's, not idgen's.
qc "CREATE DOMAIN plain_code AS text CHECK (VALUE <> '');
    CREATE TABLE k_plain (id plain_code NOT NULL, n int NOT NULL);
    SELECT create_distributed_table('k_plain', 'id');
    INSERT INTO k_plain SELECT 'x' || g, g FROM generate_series(1, 1000) g" >/dev/null 2>"$dir/err" || sed 's/^/# /' "$dir/err"
is "KNOWN CITUS LIMITATION, not idgen's: on a core text domain with a CHECK, WHERE id = 'x777' returns no row either" \
    "$(qc "SELECT count(*) FROM k_plain WHERE id = 'x777'")" 0
is "... and with the constant cast to that domain, the row comes back" \
    "$(qc "SELECT n FROM k_plain WHERE id = 'x777'::plain_code")" 777
while IFS=$'\t' read -r verdict what; do
    case $verdict in
        ok) check "$what" true ;;
        "not ok") check "$what" false ;;
        *) check "citus_client.py: $verdict $what" false ;;
    esac
done < <(on c /usr/bin/python3 test/lib/citus_client.py "$dir/client.tsv" 2>&1)


# --- 3. colocation and a reference table ----------------------------------------------
# Two tables on a ulid key and two on a prefixed_id_define() type, each pair
# colocated; with repartition joins switched off, a join that needed one fails.
qc "CREATE TABLE co_orders (id ulid PRIMARY KEY DEFAULT ulid(), n int);
    CREATE TABLE co_items (order_id ulid NOT NULL, qty int);
    SELECT create_distributed_table('co_orders', 'id');
    SELECT create_distributed_table('co_items', 'order_id', colocate_with => 'co_orders');
    INSERT INTO co_orders (n) SELECT g FROM generate_series(1, 2000) g;
    INSERT INTO co_items SELECT id, q FROM co_orders, generate_series(1, 3) q;
    CREATE TABLE co_accounts (id order_id PRIMARY KEY, n int);
    CREATE TABLE co_events (account order_id NOT NULL, e int);
    SELECT create_distributed_table('co_accounts', 'id');
    SELECT create_distributed_table('co_events', 'account', colocate_with => 'co_accounts');
    INSERT INTO co_accounts (n) SELECT g FROM generate_series(1, 2000) g;
    INSERT INTO co_events SELECT id, e FROM co_accounts, generate_series(1, 3) e" >/dev/null 2>"$dir/err" ||
    sed 's/^/# /' "$dir/err"
for pair in "co_orders co_items order_id ulid" "co_accounts co_events account order_id"; do
    read -r a b col type <<<"$pair"
    join="SELECT count(*) FROM $a a JOIN $b b ON b.$col = a.id"
    is "$a and $b ($type keys) are in one colocation group" \
        "$(qc "SELECT count(DISTINCT colocationid) FROM pg_dist_partition WHERE logicalrelid IN ('$a'::regclass, '$b'::regclass)")" 1
    plan=$(on c psql -XAtq -c "SET citus.enable_repartition_joins = off" -c "EXPLAIN (COSTS OFF) $join" 2>&1)
    check "$a JOIN $b on the $type key: one task per shard, no repartition ($(grep -oE 'Task Count: [0-9]+' <<<"$plan" | head -n 1))" \
        bash -c '[[ $1 == *"Task Count: 32"* && $1 != *MapMergeJob* && $1 != *epartition* ]]' _ "$plan"
    is "$a JOIN $b on the $type key, repartition joins off, finds every pair" \
        "$(on c psql -XAtq -c "SET citus.enable_repartition_joins = off" -c "$join" 2>&1)" 6000
done
qc "CREATE TABLE ref_countries (id ulid PRIMARY KEY DEFAULT ulid(), code typeid DEFAULT typeid_new('cty'),
                                sf bigint DEFAULT snowflake(), name text);
    SELECT create_reference_table('ref_countries');
    INSERT INTO ref_countries (name) VALUES ('a'), ('b'), ('c');
    INSERT INTO ref_countries (name) SELECT 'n' || g FROM generate_series(1, 97) g" >/dev/null 2>"$dir/err" ||
    sed 's/^/# /' "$dir/err"
is "the reference table's rows, DEFAULT ulid(), typeid_new() and snowflake() alike, are identical on all 3 nodes" \
    "$(qc "SELECT count(DISTINCT result) || ' distinct of ' || count(*) || ', ' || min(result) FROM run_command_on_all_nodes(
               \$\$SELECT count(*) || ' rows ' || md5(string_agg(id::text || code::text || sf, ',' ORDER BY id)) FROM ref_countries\$\$)" |
       sed -E 's/ [0-9a-f]{32}$//')" "1 distinct of 3, 100 rows"
is "the reference table's snowflakes were all minted on the coordinator (shard 1)" \
    "$(qc "SELECT string_agg(DISTINCT snowflake_shard(sf)::text, ',') FROM ref_countries")" 1

# --- 4. which node mints a DEFAULT -----------------------------------------------------
# mint is distributed by tenant, colocated with mint_src; its snowflake() and
# snowflake53() columns are DEFAULTs, so each ID's shard names the node that
# evaluated them. The coordinator's shard is 1, w1's 2, w2's 3.
qc "CREATE TABLE mint_src (tenant int NOT NULL, k int);
    SELECT create_distributed_table('mint_src', 'tenant');
    INSERT INTO mint_src SELECT g % 64, g FROM generate_series(0, 639) g;
    CREATE TABLE mint (tenant int NOT NULL, via text NOT NULL, form text NOT NULL,
                       id bigint NOT NULL DEFAULT snowflake(), id53 bigint NOT NULL DEFAULT snowflake53());
    SELECT create_distributed_table('mint', 'tenant', colocate_with => 'mint_src')" >/dev/null
for via in c w1; do
    {
        for t in $(seq 0 63); do echo "INSERT INTO mint (tenant, via, form) VALUES ($t, '$via', 'single-row');"; done
        echo "INSERT INTO mint (tenant, via, form) VALUES $(seq 0 63 | sed "s/.*/(&, '$via', 'multi-row')/" | paste -sd,);"
        echo "INSERT INTO mint (tenant, via, form) SELECT tenant, '$via', 'INSERT ... SELECT from a colocated table' FROM mint_src;"
        echo "INSERT INTO mint (tenant, via, form) SELECT g % 64, '$via', 'INSERT ... SELECT from generate_series' FROM generate_series(0, 639) g;"
        echo "\\copy mint (tenant, via, form) FROM '$dir/copy-$via.txt'"
    } >"$dir/mint-$via.sql"
    seq 0 639 | awk -v via="$via" '{ printf "%d\t%s\tCOPY\n", $1 % 64, via }' >"$dir/copy-$via.txt"
done
# A volatile DEFAULT keeps Citus from pushing an INSERT ... SELECT down as is:
# it repartitions instead; with the IDs given explicitly the same statement is
# pushed down.
plan=$(qc "EXPLAIN (COSTS OFF) INSERT INTO mint (tenant, via, form) SELECT tenant, 'c', 'x' FROM mint_src")
is "INSERT ... SELECT from the colocated mint_src, IDs from the DEFAULT: Citus repartitions (volatile DEFAULT)" \
    "$(grep -m1 -oE 'INSERT/SELECT method: .*' <<<"$plan")" "INSERT/SELECT method: repartition"
plan=$(qc "EXPLAIN (COSTS OFF) INSERT INTO mint (tenant, via, form, id, id53) SELECT tenant, 'c', 'x', k, k FROM mint_src")
check "the same INSERT ... SELECT with the ID columns given is pushed down (32 tasks, no INSERT/SELECT method)" \
    bash -c '[[ $1 == *"Task Count: 32"* && $1 != *"INSERT/SELECT method"* ]]' _ "$plan"
for via in c w1; do
    on "$via" psql -XAtq -v ON_ERROR_STOP=1 -f "$dir/mint-$via.sql" >/dev/null 2>"$dir/err" ||
        { check "the insert forms run through $via" false; sed 's/^/# /' "$dir/err"; }
done
# Each row's minting node: 'via' when its shard is that of the node the insert
# went through, 'placement' when it is that of the worker holding the row.
qc "CREATE TABLE node_shard (port int, shard int);
    INSERT INTO node_shard VALUES (${port[c]}, 1), (${port[w1]}, 2), (${port[w2]}, 3);
    CREATE TABLE mint_local AS
    SELECT m.*, get_shard_id_for_distribution_column('mint', m.tenant) AS shardid FROM mint m;
    CREATE TABLE minted AS
    SELECT m.via, m.form, count(*) AS n_rows,
           count(*) FILTER (WHERE snowflake_shard(m.id) = CASE m.via WHEN 'c' THEN 1 ELSE 2 END) AS by_via,
           count(*) FILTER (WHERE snowflake_shard(m.id) = ns.shard) AS by_placement,
           count(*) FILTER (WHERE snowflake53_shard(m.id53) = snowflake_shard(m.id)) AS same_53,
           string_agg(DISTINCT snowflake_shard(m.id)::text, ',') AS shards
    FROM mint_local m
    JOIN citus_shards s ON s.table_name = 'mint'::regclass AND s.shardid = m.shardid
    JOIN node_shard ns ON ns.port = s.nodeport
    GROUP BY 1, 2" >/dev/null 2>"$dir/err" || sed 's/^/# /' "$dir/err"
# minting_node VIA FORM: who evaluated the DEFAULTs of these rows.
minting_node() {
    qc "SELECT CASE WHEN n_rows = 0 OR same_53 <> n_rows THEN 'inconsistent'
                    WHEN by_via = n_rows AND by_placement = n_rows THEN 'ambiguous'
                    WHEN by_via = n_rows THEN 'the node the insert went through'
                    WHEN by_placement = n_rows THEN 'the worker holding the row'
                    ELSE 'mixed' END || ' (' || n_rows || ' rows, shards ' || shards || ')'
        FROM minted WHERE via = '$1' AND form = '$2'"
}
declare -A expect_minter=(
    ["c|single-row"]="the node the insert went through"
    ["c|multi-row"]="the node the insert went through"
    ["c|INSERT ... SELECT from a colocated table"]="the worker holding the row"
    ["c|INSERT ... SELECT from generate_series"]="the node the insert went through"
    ["c|COPY"]="the node the insert went through"
    ["w1|single-row"]="the node the insert went through"
    ["w1|multi-row"]="the node the insert went through"
    ["w1|INSERT ... SELECT from a colocated table"]="the worker holding the row"
    ["w1|INSERT ... SELECT from generate_series"]="the node the insert went through"
    ["w1|COPY"]="the node the insert went through"
)
for via in c w1; do
    for form in "single-row" "multi-row" "INSERT ... SELECT from a colocated table" "INSERT ... SELECT from generate_series" "COPY"; do
        got=$(minting_node "$via" "$form")
        echo "# through $via, $form: minted by $got"
        is "through $via, $form: DEFAULT snowflake() evaluated by ${expect_minter[$via|$form]}" \
            "${got%% (*}" "${expect_minter[$via|$form]}"
    done
done


# --- 5. the shard claim guard -------------------------------------------------------------
# Each node claims its shard on itself; the coordinator then gathers every
# worker's claims into its own idgen_shard_claim, whose trigger refuses a
# shard that two system identifiers claim.
gather="INSERT INTO idgen_shard_claim
        SELECT c.* FROM run_command_on_workers(\$\$SELECT coalesce(json_agg(c), '[]') FROM idgen_shard_claim c\$\$) w,
                        json_populate_recordset(NULL::idgen_shard_claim, w.result::json) c"
for n in c w1 w2; do
    is "$n claims its shard ${shard_of[$n]}" "$(on "$n" q "SELECT count(*) FROM idgen_claim_shards('${shard_of[$n]}')")" 1
done
qc "$gather" >/dev/null 2>"$dir/err" || sed 's/^/# /' "$dir/err"
is "the coordinator holds the 3 nodes' claims, each under its own server" \
    "$(qc "SELECT string_agg(shard || '=' || server_name, ',' ORDER BY shard) FROM idgen_shard_claim")" "1=c,2=w1,3=w2"
# wx: a new worker configured by mistake with w1's shard 2.
start_node wx 2 || { echo "not ok $((TAP_N + 1)) - node wx starts"; exit 1; }
qc "SELECT citus_add_node('127.0.0.1', ${port[wx]})" >/dev/null
is "wx, misconfigured with w1's shard 2, claims it on itself" "$(on wx q "SELECT count(*) FROM idgen_claim_shards('2')")" 1
err=$(qc "$gather" 2>&1)
check "gathering the claims on the coordinator refuses wx's claim: snowflake shard 2 is already claimed by another server" \
    grep -q 'ERROR:  snowflake shard 2 is already claimed by another server' <<<"$err"
check "the refusal names both servers (w1 holds it, wx claims it too)" \
    grep -qE 'DETAIL:  Server "w1" .* server "wx" .* claims it too' <<<"$err"
is "the coordinator's claim on shard 2 is still w1's" \
    "$(qc "SELECT server_name FROM idgen_shard_claim WHERE family = 'snowflake' AND shard = 2")" w1
# Citus itself does not stop wx from minting on shard 2: the guard is a declaration.
is "nothing in Citus stops wx from minting on shard 2 meanwhile" \
    "$(on wx q "SELECT snowflake_shard(snowflake())")" 2
qc "SELECT citus_remove_node('127.0.0.1', ${port[wx]})" >/dev/null
cluster_stop "$dir/wx"

# --- 6. moving shards -------------------------------------------------------------------
start_node w3 "${shard_of[w3]}" || { echo "not ok $((TAP_N + 1)) - node w3 starts"; exit 1; }
qc "SELECT citus_add_node('127.0.0.1', ${port[w3]})" >/dev/null
qc "SELECT replicate_reference_tables()" >/dev/null
on w3 q "SELECT count(*) FROM idgen_claim_shards('4')" >/dev/null
qc "$gather" >/dev/null 2>"$dir/err" || sed 's/^/# /' "$dir/err"
is "w3 joins with shard 4, and its claim reaches the coordinator" \
    "$(qc "SELECT string_agg(shard || '=' || server_name, ',' ORDER BY shard) FROM idgen_shard_claim")" "1=c,2=w1,3=w2,4=w3"
moved_tables=(k_uuid k_ulid k_prefixed k_order k_typeid k_user k_snowflake k_snowflake53 co_orders co_items co_accounts co_events mint)
checksums() {
    local t
    for t in "${moved_tables[@]}"; do
        echo "$t $(qc "SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id::text)) FROM
                       (SELECT $( [[ $t == co_items ]] && echo order_id || { [[ $t == co_events ]] && echo account; } || echo id) AS id FROM $t) s")"
    done
}
checksums >"$dir/before.txt"
binary_protocol() {  # on|off on every node, for new sessions
    local n
    for n in c w1 w2 w3; do
        on "$n" psql -XAtq -c "ALTER SYSTEM SET citus.enable_binary_protocol = $1" -c "SELECT pg_reload_conf()" >/dev/null
    done
}
# move_one TABLE MODE: moves the first shard of TABLE that is on w1 to w3.
move_one() {
    local shard
    shard=$(qc "SELECT shardid FROM citus_shards WHERE table_name = '$1'::regclass AND nodeport = ${port[w1]} ORDER BY shardid LIMIT 1")
    qc "SELECT citus_move_shard_placement($shard, '127.0.0.1', ${port[w1]}, '127.0.0.1', ${port[w3]}, shard_transfer_mode => '$2')" \
        >/dev/null 2>"$dir/err" || sed 's/^/# /' "$dir/err"
    is "citus_move_shard_placement of $1's shard $shard w1 -> w3 ($2, citus.enable_binary_protocol $3)" \
        "$(qc "SELECT nodeport FROM citus_shards WHERE shardid = $shard")" "${port[w3]}"
}
move_start=$SECONDS
binary_protocol on
move_one k_ulid force_logical on
move_one k_order block_writes on
binary_protocol off
move_one k_user force_logical off
move_one k_typeid block_writes off
binary_protocol on
echo "# 4 moves took $((SECONDS - move_start)) s"
rebalance_start=$SECONDS
# Two colocation groups (a whole cluster's rebalance moves about 10 shards of
# each of its 8 groups, over 2 minutes here), with block_writes: the ulid
# group with the binary protocol on, the int group (mint) with it off. (The
# logical transfer is covered by the moves above.)
qc "SELECT rebalance_table_shards('k_ulid', shard_transfer_mode => 'block_writes')" >/dev/null 2>"$dir/err" ||
    sed 's/^/# /' "$dir/err"
binary_protocol off
qc "SELECT rebalance_table_shards('mint', shard_transfer_mode => 'block_writes')" >/dev/null 2>"$dir/err" ||
    sed 's/^/# /' "$dir/err"
binary_protocol on
echo "# rebalance_table_shards of 2 colocation groups took $((SECONDS - rebalance_start)) s"
is "after rebalance_table_shards, w3 holds 10 or 11 of the 32 shards of k_ulid, co_orders, co_items, mint_src and mint" \
    "$(qc "SELECT string_agg(table_name || '=' || (n BETWEEN 10 AND 11), ',' ORDER BY table_name::text) FROM (
               SELECT table_name, count(*) FILTER (WHERE nodeport = ${port[w3]}) n FROM citus_shards
               WHERE table_name IN ('k_ulid'::regclass, 'co_orders'::regclass, 'co_items'::regclass, 'mint_src'::regclass, 'mint'::regclass)
               GROUP BY 1) s")" "co_items=true,co_orders=true,k_ulid=true,mint=true,mint_src=true"
checksums >"$dir/after.txt"
is "row counts and ID checksums of the ${#moved_tables[@]} tables are unchanged by the moves and the rebalance" \
    "$(diff "$dir/before.txt" "$dir/after.txt" | wc -l)" 0
diff "$dir/before.txt" "$dir/after.txt" | sed 's/^/# /'
for kind in "${kinds[@]}"; do
    IFS='|' read -r t _ _ <<<"$kind"
    const=$(grep "^$t"$'\t' "$dir/client.tsv" | cut -f3)
    lit="'$const'"
    [[ $t == k_order ]] && lit="'$const'::order_id"
    [[ $t == k_user ]] && lit="'$const'::user_id"
    is "$t: after the moves, the row with ID $const comes back by ID" "$(qc "SELECT n FROM $t WHERE id = $lit")" 777
done
# rows inserted after the rebalance by INSERT ... SELECT (repartitioned) are minted on w3 too
qc "INSERT INTO mint (tenant, via, form) SELECT tenant, 'c', 'after rebalance' FROM mint_src" >/dev/null
is "after the rebalance, INSERT ... SELECT from mint_src mints on the 3 workers' shards" \
    "$(qc "SELECT string_agg(DISTINCT snowflake_shard(id)::text, ',') FROM mint WHERE form = 'after rebalance'")" "2,3,4"

# --- 8. a distributed insert benchmark (CITUS_BENCH_SECONDS=N to run it) ----------
# pgbench against the coordinator, one table per generator and one keyed by
# bigserial, each distributed by its key; every rep runs every table once
# (interleaved, after TRUNCATE), and test/lib/citus_bench.py prints the median
# TPS and the ratio to bigserial. Only "no failed transaction" is asserted.
echo "# checks 1 to 7 done after $((SECONDS - started)) s"
bench_seconds=${CITUS_BENCH_SECONDS:-0}
if ((bench_seconds > 0)); then
    benches=("bigserial|bigserial" "uuid_v7|uuid DEFAULT uuid_v7()" "ulid|ulid DEFAULT ulid()"
             "prefixed|prefixed_id DEFAULT prefixed_id_new('acct')" "typeid|typeid DEFAULT typeid_new('user')"
             "snowflake|bigint DEFAULT snowflake()" "snowflake53|bigint DEFAULT snowflake53()")
    for b in "${benches[@]}"; do
        qc "CREATE TABLE bench_${b%%|*} (id ${b#*|} PRIMARY KEY, n int);
            SELECT create_distributed_table('bench_${b%%|*}', 'id')" >/dev/null
        echo "INSERT INTO bench_${b%%|*} (n) VALUES (1);" >"$dir/bench_${b%%|*}.sql"
    done
    chmod 644 "$dir"/bench_*.sql
    : >"$dir/bench.tsv"
    bench_failed=0
    for rep in 1 2 3; do
        for b in "${benches[@]}"; do
            name=${b%%|*}
            qc "TRUNCATE bench_$name" >/dev/null
            out=$(on c pgbench -n -M prepared -c 4 -j 2 -T "$bench_seconds" -f "$dir/bench_$name.sql" 2>&1)
            grep -qE '^number of failed transactions: 0 ' <<<"$out" || { bench_failed=1; sed 's/^/# /' <<<"$out"; }
            printf '%s\t%s\t%s\n' "$name" "$rep" "$(awk '$1 == "tps" { print $3; exit }' <<<"$out")" >>"$dir/bench.tsv"
        done
    done
    check "pgbench: 3 interleaved runs of ${bench_seconds} s per table, no failed transaction" test "$bench_failed" -eq 0
    /usr/bin/python3 test/lib/citus_bench.py "$dir/bench.tsv"
else
    echo "# distributed insert benchmark not run (CITUS_BENCH_SECONDS=N runs it)"
fi

echo "# citus.sh ran $((SECONDS - started)) s (Citus built this run: $built_now)"
tap_done
