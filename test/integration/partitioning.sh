#!/usr/bin/env bash
# Time partitioning by idgen keys (docs/multi-server.md, "Partitioning by time"): its
# recipes, run verbatim on a server whose clock libfaketime sets to noon UTC and
# later moves two days on. Native range partitions of uuid_v7(), ulid() and
# snowflake() keys kept by the manual's procedure (every major), and pg_partman
# 4.7 managing a snowflake() table by ID ranges (PostgreSQL 15 only, the major
# it is packaged for). For every table: the partitions ahead exist, rows land in
# the partition of the UTC day their key decodes to, the default partition stays
# empty, and EXPLAIN shows which time-range predicates prune at plan time, which
# at executor start-up and which not at all.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-partitioning.XXXXXX)
chmod 755 "$dir"
trap 'cluster_stop "$dir/c"; rm -rf "$dir"' EXIT
if ! use_fake_clock "$dir"; then
    echo "not ok 1 - libfaketime is installed (package faketime)"
    exit 1
fi
# The server's clock starts at the next noon UTC, far from midnight, so that no
# day ends under the test. Its TimeZone is 14 h ahead of UTC: there the date is
# already the next day, which a recipe using the local date would get wrong.
now=$(date +%s)
offset=$(((43200 - now % 86400 + 86400) % 86400))
set_clock_offset "+$offset"
cluster_start "$dir/c" "shared_preload_libraries = 'idgen'" "fsync = off" \
    "timezone = 'Pacific/Kiritimati'" || exit 1
q "CREATE EXTENSION idgen; ALTER DATABASE postgres SET idgen.shard_id = 3" || exit 1
# The procedure's "already exists, skipping" notices are expected.
export PGOPTIONS="-c client_min_messages=warning"
day0=$(q "SELECT (now() AT TIME ZONE 'UTC')::date")
echo "# server clock: $(q "SELECT now() AT TIME ZONE 'UTC'") UTC"

# scanned(QUERY): the relations EXPLAIN's plan of QUERY reads, sorted, then
# "| removed N" with the plan's Subplans Removed (partitions pruned at executor
# start-up; those pruned at plan time do not appear at all).
q "CREATE FUNCTION scanned(query text) RETURNS text LANGUAGE plpgsql AS \$\$
   DECLARE plan jsonb;
   BEGIN
       EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
       RETURN coalesce((SELECT string_agg(r, ' ' ORDER BY r COLLATE \"C\")
                        FROM (SELECT DISTINCT r #>> '{}' AS r
                              FROM jsonb_path_query(plan, 'strict \$.**.\"Relation Name\"') r) s), '')
           || ' | removed ' || coalesce((SELECT sum((s #>> '{}')::int)
                        FROM jsonb_path_query(plan, 'strict \$.**.\"Subplans Removed\"') s), 0);
   END \$\$" || exit 1

# readme_block NAME: the SQL block of docs/multi-server.md after the line
# "<!-- test/integration/partitioning.sh runs this block verbatim: NAME -->".
readme_block() {
    awk -v marker="<!-- test/integration/partitioning.sh runs this block verbatim: $1 -->" '
        $0 == marker { found = 1; next }
        found && /^```sql$/ { inside = 1; next }
        inside && /^```$/ { exit }
        inside { print }' docs/multi-server.md
}

# run_readme_block NAME: runs it in one psql session, stopping at the first error.
run_readme_block() {
    local sql
    sql=$(readme_block "$1")
    [[ -n $sql ]] || { echo "# docs/multi-server.md has no block '$1'"; return 1; }
    psql -Xq -v ON_ERROR_STOP=1 <<<"$sql" >"$dir/block.log" 2>&1 || { sed 's/^/# /' "$dir/block.log"; return 1; }
}

# partitions TABLE: its partitions except the default one, in name order.
partitions() {
    q "SELECT string_agg(c.relname, ' ' ORDER BY c.relname COLLATE \"C\")
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = '$1'::regclass AND c.relname <> '$1_default'"
}

# days_named NAME_OF_DAY FIRST LAST: the partition names NAME_OF_DAY (an SQL
# expression of the date d) gives days day0 + FIRST .. day0 + LAST.
days_named() {
    q "SELECT string_agg($1, ' ' ORDER BY d)
       FROM (SELECT '$day0'::date + k AS d FROM generate_series($2, $3) k) s"
}

# utc_day EXPR: the UTC date of the timestamptz EXPR, as SQL.
utc_day() { echo "(($1) AT TIME ZONE 'UTC')::date"; }
# utc_midnight EXPR: midnight UTC of the date EXPR, as SQL.
utc_midnight() { echo "(($1)::timestamp AT TIME ZONE 'UTC')"; }

# placement TABLE DECODE NAME_OF_DAY: "misplaced|in default|total" for the rows
# of TABLE, where a row is misplaced unless its partition is the one
# NAME_OF_DAY names for the UTC day DECODE(id) returns.
placement() {
    local table=$1 decode=$2 name_of_day=$3
    q "SELECT count(*) FILTER (WHERE tableoid::regclass::text <>
                                   (SELECT $name_of_day FROM (SELECT $(utc_day "$decode(id)") AS d) s)),
              count(*) FILTER (WHERE tableoid = '${table}_default'::regclass),
              count(*)
       FROM $table"
}

# bad_bounds TABLE BOUNDARY DAY_OF_PARTITION: partitions (default aside) whose
# bounds are not BOUNDARY of the start of their UTC day and of the next one;
# DAY_OF_PARTITION is an SQL expression of relname giving the day it should hold.
bad_bounds() {
    local table=$1 boundary=$2 day_of=$3
    q "SELECT count(*) FROM (
           SELECT pg_get_expr(c.relpartbound, c.oid) AS bound, $day_of AS d
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = '$table'::regclass AND c.relname <> '${table}_default') p
       WHERE bound IS DISTINCT FROM format('FOR VALUES FROM (%L) TO (%L)',
                 $boundary($(utc_midnight d)), $boundary($(utc_midnight "d + 1")))"
}

# The server's idgen.snowflake_epoch (the default), for the explicit-epoch forms.
EPOCH="'2024-01-01 00:00:00+00'"

# check_pruning TABLE BOUNDARY DECODE NAME_OF_DAY: EXPLAIN of five time-range
# predicates on TABLE's key (six for snowflake keys), over tomorrow (UTC) or the
# coming hour.
check_pruning() {
    local table=$1 boundary=$2 decode=$3 name_of_day=$4 today tomorrow d1 d2 all n
    today=$(q "SELECT $name_of_day FROM (SELECT $(utc_day "now()") AS d) s")
    tomorrow=$(q "SELECT $name_of_day FROM (SELECT $(utc_day "now()") + 1 AS d) s")
    d1=$(q "SELECT $(utc_day "now()") + 1")
    d2=$(q "SELECT $(utc_day "now()") + 2")
    all=$(q "SELECT string_agg(c.relname, ' ' ORDER BY c.relname COLLATE \"C\")
             FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '$table'::regclass")
    n=$(q "SELECT count(*) FROM pg_inherits WHERE inhparent = '$table'::regclass")
    # snowflake_boundary() is IMMUTABLE only with the epoch as an argument (shard
    # 0: the smallest ID of the millisecond on any shard); it reads
    # idgen.snowflake_epoch, and is STABLE, without it.
    local epoch_args=""
    [[ $boundary == snowflake_boundary ]] && epoch_args=", 0, $EPOCH"
    is "$table: a range of $boundary(${epoch_args:+…, 0, epoch}) of timestamptz constants is pruned at plan time to tomorrow's partition" \
        "$(q "SELECT scanned(\$q\$SELECT * FROM $table
                  WHERE id >= $boundary('$d1 00:00+00'$epoch_args) AND id < $boundary('$d2 00:00+00'$epoch_args)\$q\$)")" \
        "$tomorrow | removed 0"
    if [[ -n $epoch_args ]]; then
        is "$table: the same range of $boundary() without an epoch (STABLE) is pruned at executor start-up" \
            "$(q "SELECT scanned(\$q\$SELECT * FROM $table
                      WHERE id >= $boundary('$d1 00:00+00') AND id < $boundary('$d2 00:00+00')\$q\$)")" \
            "$tomorrow | removed $((n - 1))"
    fi
    is "$table: a range of $boundary() of now() is pruned at executor start-up (Subplans Removed) to today's" \
        "$(q "SELECT scanned(\$q\$SELECT * FROM $table
                  WHERE id >= $boundary(now()) AND id < $boundary(now() + interval '1 hour')\$q\$)")" \
        "$today | removed $((n - 1))"
    is "$table: a generic plan with $boundary(\$1) is pruned at executor start-up" \
        "$(q "SET plan_cache_mode = force_generic_plan;
              PREPARE r(timestamptz, timestamptz) AS
                  SELECT * FROM $table WHERE id >= $boundary(\$1) AND id < $boundary(\$2);
              SELECT scanned(\$q\$EXECUTE r('$d1 00:00+00', '$d2 00:00+00')\$q\$)")" \
        "$tomorrow | removed $((n - 1))"
    is "$table: $boundary() of a date (a STABLE cast) is pruned at executor start-up" \
        "$(q "SET TimeZone = 'UTC';
              SELECT scanned(\$q\$SELECT * FROM $table
                  WHERE id >= $boundary('$d1'::date) AND id < $boundary('$d2'::date)\$q\$)")" \
        "$tomorrow | removed $((n - 1))"
    is "$table: $decode(id) >= a constant is not pruned: every partition is scanned" \
        "$(q "SELECT scanned(\$q\$SELECT * FROM $table WHERE $decode(id) >= '$d1 00:00+00'\$q\$)")" \
        "$all | removed 0"
}

# native TABLE: the partition name of date d, as SQL, for the manual's procedure.
native_name() { echo "'$1_' || to_char(d, 'YYYYMMDD')"; }
native_day() { echo "to_date(right(c.relname, 8), 'YYYYMMDD')"; }

# 1. Native partitions, kept by the manual's procedure.
check "the manual's native recipe runs (procedure, orders, sessions, posts)" run_readme_block native
native_tables=(orders:uuid_v7_boundary:uuid_v7_time:total
               sessions:ulid_boundary:ulid_time:user_id
               posts:snowflake_boundary:snowflake_time:body)
for spec in "${native_tables[@]}"; do
    IFS=: read -r table boundary decode column <<<"$spec"
    is "$table: partitions of today through today + 7 (UTC days)" \
        "$(partitions "$table")" "$(days_named "$(native_name "$table")" 0 7)"
    is "$table: each partition runs from $boundary() of its UTC midnight to the next" \
        "$(bad_bounds "$table" "$boundary" "$(native_day)")" 0
    q "INSERT INTO $table ($column) SELECT NULL FROM generate_series(1, 1000)"
    is "$table: 1,000 new rows land in the partition of their $decode() day, none in the default" \
        "$(placement "$table" "$decode" "$(native_name "$table")")" "0|0|1000"
    check_pruning "$table" "$boundary" "$decode" "$(native_name "$table")"
done

err=$(psql -Xq -v VERBOSITY=verbose -c "CREATE TABLE by_int (id integer) PARTITION BY RANGE (id)" \
          -c "CALL premake_daily_partitions('by_int', 1)" 2>&1)
check "premake_daily_partitions refuses a table not keyed by uuid, ulid or bigint (22023)" \
    grep -qF 'ERROR:  22023: by_int is not range-partitioned on one uuid, ulid or bigint column' <<<"$err"

# 2. pg_partman 4.7 on a snowflake() key (PostgreSQL 15).
partman_name="'events_p' || snowflake_boundary($(utc_midnight d))"
partman_day="$(utc_day "snowflake_time(substring(c.relname from '_p([0-9]+)\$')::bigint)")"
have_partman=0
if [[ -e $("$PG_CONFIG" --sharedir)/extension/pg_partman.control ]]; then
    have_partman=1
elif [[ $PG_MAJOR == 15 ]]; then
    echo "not ok $((TAP_N + 1)) - pg_partman is installed for PostgreSQL 15 (bash test/setup.sh)"
    TAP_N=$((TAP_N + 1)) TAP_FAILED=$((TAP_FAILED + 1))
else
    TAP_N=$((TAP_N + 1))
    echo "ok $TAP_N # skip pg_partman is packaged for PostgreSQL 15 only"
fi
if ((have_partman)); then
    check "the manual's pg_partman recipe runs" run_readme_block partman
    is "events: create_parent made the partitions of today through today + 4" \
        "$(partitions events)" "$(days_named "$partman_name" 0 4)"
    is "events: the interval is one day of snowflake IDs, 86400000 << 23" \
        "$(q "SELECT partition_interval FROM partman.part_config WHERE parent_table = 'public.events'")" \
        "$(q "SELECT 86400000::bigint << 23")"
    is "events: each partition runs from the snowflake_boundary() of a UTC midnight to the next" \
        "$(bad_bounds events snowflake_boundary "$partman_day")" 0
    q "INSERT INTO events (body) SELECT NULL FROM generate_series(1, 1000)"
    is "events: 1,000 new rows land in the partition of their snowflake_time() day, none in the default" \
        "$(placement events snowflake_time "$partman_name")" "0|0|1000"
    check_pruning events snowflake_boundary snowflake_time "$partman_name"
    q "CREATE TABLE events_nostart (id bigint PRIMARY KEY DEFAULT snowflake()) PARTITION BY RANGE (id);
       SELECT partman.create_parent('public.events_nostart', 'id', 'native', (86400000::bigint << 23)::text)" >/dev/null
    is "without p_start_partition, create_parent on an empty table starts at ID 0 (the epoch's day)" \
        "$(q "SELECT min(substring(c.relname from '_p([0-9]+)\$')::bigint) FROM pg_inherits i
              JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events_nostart'::regclass")" 0
fi

# 3. Two days later.
set_clock_offset "+$((offset + 2 * 86400))"
is "the server's clock is two days on" "$(q "SELECT $(utc_day "now()") - '$day0'::date")" 2
for spec in "${native_tables[@]}"; do
    IFS=: read -r table boundary decode column <<<"$spec"
    q "CALL premake_daily_partitions('$table', 7)"
    is "$table: two days later, the same CALL adds the two missing days ahead" \
        "$(partitions "$table")" "$(days_named "$(native_name "$table")" 0 9)"
    q "INSERT INTO $table ($column) SELECT NULL FROM generate_series(1, 1000)"
    is "$table: the new rows land in their day's partition, none in the default" \
        "$(placement "$table" "$decode" "$(native_name "$table")")" "0|0|2000"
    is "$table: today's partition holds the 1,000 new rows" \
        "$(q "SELECT count(*) FROM ${table}_$(q "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD')")")" 1000
done
if ((have_partman)); then
    check "the manual's run_maintenance() runs" run_readme_block "partman maintenance"
    is "events: with no new row, run_maintenance() creates nothing (it goes by the largest ID, not the clock)" \
        "$(partitions events)" "$(days_named "$partman_name" 0 4)"
    q "INSERT INTO events (body) SELECT NULL FROM generate_series(1, 1000)"
    run_readme_block "partman maintenance"
    is "events: after new rows, run_maintenance() keeps 4 partitions beyond today's" \
        "$(partitions events)" "$(days_named "$partman_name" 0 6)"
    is "events: the new rows land in their day's partition, none in the default" \
        "$(placement events snowflake_time "$partman_name")" "0|0|2000"
fi

# 4. A row beyond the partitions made ahead goes to the default partition, and
# then blocks the creation of its day's partition until it is moved out.
q "INSERT INTO orders (id) VALUES (uuid_v7_at(now() + interval '30 days'))"
is "orders: a row 30 days ahead lands in the default partition" \
    "$(q "SELECT count(*) FROM orders_default")" 1
err=$(psql -Xq -v VERBOSITY=verbose -c "CALL premake_daily_partitions('orders', 31)" 2>&1)
check "orders: creating its day's partition then fails with 23514, naming the default partition" \
    grep -qF 'ERROR:  23514: updated partition constraint for default partition "orders_default" would be violated by some row' <<<"$err"
check "orders: moving the row out, the CALL and moving it back succeed" \
    q "CREATE TABLE orders_holding (LIKE orders);
       WITH moved AS (DELETE FROM orders_default RETURNING *) INSERT INTO orders_holding SELECT * FROM moved;
       CALL premake_daily_partitions('orders', 31);
       INSERT INTO orders SELECT * FROM orders_holding"
is "orders: the row is now in its day's partition, the default is empty" \
    "$(placement orders uuid_v7_time "$(native_name orders)")" "0|0|2001"

tap_done
