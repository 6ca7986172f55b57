#!/usr/bin/env bash
# Routing by snowflake shard (issue 15): three writer servers own 16 logical
# shards between them, unevenly and not in runs (the shard map); a router
# server sends each call to the owner of its shard with PL/Proxy (RUN ON from
# snowflake_shard(id)) and reads every writer at once through postgres_fdw
# (foreign tables as list partitions on snowflake_shard(id)). Checks that
# every routed insert lands on the owner and only there, that every lookup by
# ID finds its row on the right server, that IDs outside the map fail clearly,
# what postgres_fdw ships to the writers, and a shard move between servers.
# A deliberately wrong map makes the same checks report the misrouted rows.
# Runs where PL/Proxy and postgres_fdw are installed (Debian packages them for
# PostgreSQL 15 only).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

ext_dir="$("$PG_CONFIG" --sharedir)/extension"
if [[ ! -f $ext_dir/plproxy.control || ! -f $ext_dir/postgres_fdw.control ]]; then
    echo "ok 1 # skip PL/Proxy and postgres_fdw are packaged for PostgreSQL 15 only"
    exit 0
fi

dir=$(mktemp -d /tmp/idgen-routing.XXXXXX)
chmod 755 "$dir"
trap 'for s in router w1 w2 w3; do cluster_stop "$dir/$s"; done; rm -rf "$dir"' EXIT

PER_SHARD=50
declare -A port
for w in w1 w2 w3; do
    cluster_start "$dir/$w" "shared_preload_libraries = 'idgen'" "cluster_name = '$w'" "fsync = off" || exit 1
    port[$w]=$PGPORT
done
# The router mints nothing: idgen is there for its decoders, without preloading.
cluster_start "$dir/router" "cluster_name = 'router'" "fsync = off" || exit 1
port[router]=$PGPORT

# on SERVER COMMAND...: runs COMMAND against SERVER's postgres database.
on() {
    local s=$1
    shift
    PGHOST=$dir/$s PGPORT=${port[$s]} "$@"
}

# sql_err SERVER SQL: the error psql prints (verbose: with the SQLSTATE), or "no error".
sql_err() {
    on "$1" psql -XAtq -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -c "$2" >/dev/null 2>"$dir/err" && echo "no error"
    grep -E '^(ERROR|HINT)' "$dir/err"
}

# --- The writers: the same schema everywhere; owned_shards says what each holds.
writer_sql() {
    cat <<'SQL'
CREATE EXTENSION idgen;
CREATE TABLE owned_shards (shard integer PRIMARY KEY);
CREATE TABLE items (id bigint PRIMARY KEY, payload text NOT NULL);

-- Mints on the shard and stores the row, if this server owns the shard. FOR
-- SHARE: a move that deletes the shard from owned_shards waits for inserts in
-- flight, and inserts after it are refused.
CREATE FUNCTION add_item(shard integer, payload text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    new_id bigint;
BEGIN
    PERFORM FROM owned_shards o WHERE o.shard = add_item.shard FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'shard % is not on server %', shard, current_setting('cluster_name')
            USING ERRCODE = '22023', HINT = 'The router''s shard map is out of date, or the shard is being moved.';
    END IF;
    INSERT INTO items (id, payload) VALUES (snowflake(shard), add_item.payload) RETURNING id INTO new_id;
    RETURN new_id;
END $$;

CREATE FUNCTION get_item(item_id bigint) RETURNS TABLE (id bigint, payload text, server text)
LANGUAGE sql STABLE AS $$
    SELECT i.id, i.payload, current_setting('cluster_name') FROM items i WHERE i.id = item_id
$$;
SQL
}
declare -A owns=([w1]='0,1,2,3,4,5,6,12' [w2]='7,8,9,10,13,14' [w3]='11,15')
for w in w1 w2 w3; do
    { writer_sql; echo "INSERT INTO owned_shards SELECT unnest('{${owns[$w]}}'::int[]);"; } |
        on "$w" psql -XAtq -v ON_ERROR_STOP=1 >/dev/null || exit 1
done

# --- The router: the shard map, PL/Proxy functions, postgres_fdw partitions.
on router psql -XAtq -v ON_ERROR_STOP=1 >/dev/null <<'SQL' || exit 1
CREATE EXTENSION idgen;
CREATE EXTENSION plproxy;
CREATE EXTENSION postgres_fdw;

CREATE TABLE writers (
    server text PRIMARY KEY,
    host   text NOT NULL,
    port   integer NOT NULL,
    dbname text NOT NULL
);
-- Logical shard N is PL/Proxy partition N: 16 of them, a power of two.
CREATE TABLE shard_map (
    shard  integer PRIMARY KEY CHECK (shard BETWEEN 0 AND 15),
    server text NOT NULL REFERENCES writers
);

-- RUN ON for a shard, or a clear error for a shard outside the map (PL/Proxy
-- would otherwise send shard 17 to partition 17 & 15 = 1).
CREATE FUNCTION shard_partition(shard integer) RETURNS integer
LANGUAGE plpgsql STABLE STRICT AS $$
BEGIN
    PERFORM FROM shard_map m WHERE m.shard = shard_partition.shard;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'snowflake shard % is not in the shard map', shard
            USING ERRCODE = '22023', HINT = 'The shard map holds shards 0 to 15.';
    END IF;
    RETURN shard;
END $$;
CREATE FUNCTION id_partition(id bigint) RETURNS integer
LANGUAGE sql STABLE STRICT RETURN shard_partition(snowflake_shard(id));

CREATE FUNCTION add_item(shard integer, payload text) RETURNS bigint
LANGUAGE plproxy AS $$
    CLUSTER 'items_cluster';
    RUN ON shard_partition(shard);
$$;
CREATE FUNCTION get_item(item_id bigint) RETURNS TABLE (id bigint, payload text, server text)
LANGUAGE plproxy STRICT AS $$
    CLUSTER 'items_cluster';
    RUN ON id_partition(item_id);
$$;

-- Every writer's items as one table, partitioned by the shard in the ID.
CREATE TABLE all_items (id bigint NOT NULL, payload text NOT NULL)
    PARTITION BY LIST (snowflake_shard(id));

-- Makes PL/Proxy's partitions and all_items's partitions follow shard_map.
CREATE PROCEDURE shard_map_apply()
LANGUAGE plpgsql AS $$
DECLARE
    parts text;
    r record;
BEGIN
    IF (SELECT count(*) FROM shard_map) <> 16 THEN
        RAISE EXCEPTION 'the shard map must name a server for each of the shards 0 to 15'
            USING ERRCODE = '22023';
    END IF;
    SELECT string_agg(format('p%s %L', m.shard,
                             format('host=%s port=%s dbname=%s', w.host, w.port, w.dbname)),
                      ', ' ORDER BY m.shard)
      INTO parts
      FROM shard_map m JOIN writers w USING (server);
    IF EXISTS (SELECT FROM pg_foreign_server WHERE srvname = 'items_cluster') THEN
        EXECUTE 'ALTER SERVER items_cluster OPTIONS (' || regexp_replace(parts, '(^|, )p', '\1SET p', 'g') || ')';
    ELSE
        EXECUTE 'CREATE SERVER items_cluster FOREIGN DATA WRAPPER plproxy OPTIONS (' || parts || ')';
        CREATE USER MAPPING FOR PUBLIC SERVER items_cluster;
    END IF;

    FOR r IN SELECT inhrelid::regclass AS part FROM pg_inherits
              WHERE inhparent = 'all_items'::regclass LOOP
        EXECUTE format('ALTER TABLE all_items DETACH PARTITION %s', r.part);
    END LOOP;
    FOR r IN SELECT server, string_agg(shard::text, ', ' ORDER BY shard) AS shards
               FROM shard_map GROUP BY server LOOP
        EXECUTE format('ALTER TABLE all_items ATTACH PARTITION %I.items FOR VALUES IN (%s)',
                       r.server, r.shards);
    END LOOP;
END $$;
SQL

for w in w1 w2 w3; do
    on router psql -XAtq -v ON_ERROR_STOP=1 >/dev/null <<SQL || exit 1
INSERT INTO writers VALUES ('$w', '127.0.0.1', ${port[$w]}, 'postgres');
INSERT INTO shard_map SELECT unnest('{${owns[$w]}}'::int[]), '$w';
CREATE SERVER $w FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '127.0.0.1', port '${port[$w]}', dbname 'postgres', extensions 'idgen');
CREATE USER MAPPING FOR CURRENT_USER SERVER $w;
CREATE SCHEMA $w;
IMPORT FOREIGN SCHEMA public LIMIT TO (items) FROM SERVER $w INTO $w;
SQL
done
rq() { on router q "$1"; }
check "the router builds PL/Proxy's cluster and the partitions from the shard map" \
    on router q "CALL shard_map_apply()"
is "PL/Proxy's cluster has the 16 partitions p0..p15" \
    "$(rq "SELECT count(*) FROM pg_foreign_server s, pg_options_to_table(s.srvoptions) o
           WHERE s.srvname = 'items_cluster' AND o.option_name ~ '^p([0-9]|1[0-5])$'")" 16
is "shard_map_apply() refuses a map with a shard missing" \
    "$(sql_err router "BEGIN; DELETE FROM shard_map WHERE shard = 9; CALL shard_map_apply()" | head -n 1)" \
    "ERROR:  22023: the shard map must name a server for each of the shards 0 to 15"

# --- 1. Writes routed by shard.
# routed: what the router's add_item() returned. landed: every writer's rows,
# read from each writer directly (neither PL/Proxy nor postgres_fdw).
rq "CREATE TABLE routed (id bigint, shard integer, payload text);
    CREATE TABLE landed (id bigint, payload text, server text)" >/dev/null
rq "INSERT INTO routed
          SELECT add_item(s, format('item %s of shard %s', n, s)), s, format('item %s of shard %s', n, s)
            FROM generate_series(0, 15) s, generate_series(1, $PER_SHARD) n" >/dev/null
collect_landed() {
    rq "TRUNCATE landed" >/dev/null
    for w in w1 w2 w3; do
        on "$w" psql -XAtq -c "COPY (SELECT id, payload, '$w' FROM items) TO STDOUT" |
            on router psql -XAtq -c "COPY landed FROM STDIN"
    done
}
# IDs whose row is missing on its owner or on another server too, and rows on a
# server the map does not give their shard to.
misplaced_rows() {
    rq "SELECT count(*) FROM (
            SELECT r.id FROM routed r JOIN shard_map m USING (shard)
             WHERE (SELECT count(*) FROM landed l WHERE l.id = r.id) <> 1
                OR NOT EXISTS (SELECT FROM landed l WHERE l.id = r.id AND l.server = m.server)
            UNION
            SELECT l.id FROM landed l LEFT JOIN shard_map m ON m.shard = snowflake_shard(l.id)
             WHERE m.server IS DISTINCT FROM l.server) s"
}
# Routed IDs for which get_item() does not return exactly their row, from their owner.
bad_lookups() {
    rq "SELECT count(*) FROM routed r JOIN shard_map m USING (shard)
         WHERE (SELECT count(*) FROM get_item(r.id) g
                 WHERE g.id = r.id AND g.payload = r.payload AND g.server = m.server) <> 1
            OR (SELECT count(*) FROM get_item(r.id)) <> 1"
}
collect_landed
total=$((16 * PER_SHARD))
is "add_item() returned $total distinct IDs" "$(rq "SELECT count(DISTINCT id) FROM routed")" "$total"
is "every ID decodes to the shard it was minted for" \
    "$(rq "SELECT count(*) FROM routed WHERE snowflake_shard(id) IS DISTINCT FROM shard")" 0
is "the writers hold $total rows between them" "$(rq "SELECT count(*) FROM landed")" "$total"
is "every row is on the server that owns its shard, and only there" "$(misplaced_rows)" 0
for w in w1 w2 w3; do
    n=$(($(tr ',' '\n' <<<"${owns[$w]}" | wc -l) * PER_SHARD))
    is "$w holds the $n rows of its shards ${owns[$w]}" "$(on "$w" q "SELECT count(*) FROM items")" "$n"
done

# --- 2. Reads by ID.
is "get_item(id) returns each of the $total rows from its owner" "$(bad_lookups)" 0
is "get_item() of an unused ID on a mapped shard returns no row" \
    "$(rq "SELECT count(*) FROM get_item(snowflake_boundary(now(), 9))")" 0
is "get_item(NULL) returns no row" "$(rq "SELECT count(*) FROM get_item(NULL)")" 0
is "get_item() of an ID of shard 17 fails clearly (PL/Proxy alone would send it to partition 1)" \
    "$(sql_err router "SELECT * FROM get_item(snowflake_boundary(now(), 17))")" \
    "ERROR:  22023: snowflake shard 17 is not in the shard map
HINT:  The shard map holds shards 0 to 15."
# Without shard_partition(), PL/Proxy masks the hash: shard 17 would go to partition 1 (w1), 23 to 7 (w2).
rq "CREATE FUNCTION naive_server_of(item_id bigint) RETURNS text LANGUAGE plproxy AS \$\$
        CLUSTER 'items_cluster';
        RUN ON snowflake_shard(item_id);
        SELECT current_setting('cluster_name') AS naive_server_of;
    \$\$" >/dev/null
is "(RUN ON snowflake_shard(id) alone sends IDs of shards 17 and 23 to w1 and w2 without an error)" \
    "$(rq "SELECT naive_server_of(snowflake_boundary(now(), 17)) || ' ' || naive_server_of(snowflake_boundary(now(), 23))")" "w1 w2"
is "get_item() of a negative ID fails clearly" \
    "$(sql_err router "SELECT * FROM get_item(-1)" | head -n 1)" "ERROR:  22003: snowflake id -1 is negative"
is "add_item() on shard 100 fails clearly" \
    "$(sql_err router "SELECT add_item(100, 'x')" | head -n 1)" \
    "ERROR:  22023: snowflake shard 100 is not in the shard map"
is "nothing else was written" "$(on w1 q "SELECT count(*) FROM items") $(on w2 q "SELECT count(*) FROM items")" \
    "$((8 * PER_SHARD)) $((6 * PER_SHARD))"

# --- 3. Consolidated reads through postgres_fdw.
is "all_items counts the rows of every writer" "$(rq "SELECT count(*) FROM all_items")" "$total"
rq "SELECT id FROM all_items ORDER BY id" >"$dir/fdw_order"
rq "SELECT id FROM landed ORDER BY id" >"$dir/landed_order"
is "all_items ORDER BY id lists the writers' $total IDs in order" \
    "$(cmp -s "$dir/fdw_order" "$dir/landed_order" && wc -l <"$dir/fdw_order")" "$total"
is "all_items cannot have a primary key (its partition key is an expression)" \
    "$(sql_err router "ALTER TABLE all_items ADD PRIMARY KEY (id)" | head -n 1)" \
    "ERROR:  0A000: unsupported PRIMARY KEY constraint with partition key definition"
is "the rows of shard 7 through all_items" \
    "$(rq "SELECT count(*) FROM all_items WHERE snowflake_shard(id) = 7")" "$PER_SHARD"

explain() { rq "EXPLAIN (VERBOSE, COSTS OFF) $1"; }
comment() { sed 's/^/# /' <<<"$1"; }
mid=$(rq "SELECT snowflake_time(id) FROM routed ORDER BY id OFFSET $((total / 2)) LIMIT 1")
# The epoch every server here uses (the default idgen.snowflake_epoch), for the
# IMMUTABLE forms that take it as an argument.
epoch="'2024-01-01 00:00:00+00'"
# A constant boundary with an explicit epoch is IMMUTABLE: folded on the router and shipped as a number.
plan=$(explain "SELECT * FROM all_items WHERE id >= snowflake_boundary('$mid', 0, $epoch)")
comment "$plan"
is "id >= snowflake_boundary(constant, 0, epoch): each of the 3 writers gets WHERE id >= <number>" \
    "$(grep -cE "Remote SQL: .* WHERE \(\(id >= [0-9]+::bigint\)\)" <<<"$plan")" 3
is "... and the router filters nothing itself" "$(grep -c 'Filter:' <<<"$plan")" 0
is "... and the answer agrees with the writers" \
    "$(rq "SELECT count(*) FROM all_items WHERE id >= snowflake_boundary('$mid', 0, $epoch)")" \
    "$(rq "SELECT count(*) FROM landed WHERE id >= snowflake_boundary('$mid')")"
# The form that reads idgen.snowflake_epoch is STABLE: postgres_fdw ships no
# mutable expression, so each writer sends all its rows and the router filters.
plan=$(explain "SELECT * FROM all_items WHERE id >= snowflake_boundary('$mid')")
comment "$plan"
is "id >= snowflake_boundary(constant) without an epoch (STABLE): not shipped, the router filters all 3 writers' rows" \
    "$(grep -c "Filter: (all_items_.*id >= snowflake_boundary('" <<<"$plan") $(grep -c 'Remote SQL: .* WHERE' <<<"$plan")" "3 0"
# now() is STABLE too.
plan=$(explain "SELECT * FROM all_items WHERE id >= snowflake_boundary(now() - interval '1 hour', 0, $epoch)")
comment "$plan"
is "id >= snowflake_boundary(now() - ..., 0, epoch): not shipped, the router filters all 3 writers' rows" \
    "$(grep -c "Filter: (all_items_.*id >= snowflake_boundary((now() - '01:00:00'::interval), 0, " <<<"$plan") $(grep -c 'Remote SQL: .* WHERE' <<<"$plan")" "3 0"
# A parameter is shipped: compute the boundary first, pass it as $1.
plan=$(rq "SET plan_cache_mode = force_generic_plan;
           PREPARE since(bigint) AS SELECT * FROM all_items WHERE id >= \$1;
           EXPLAIN (VERBOSE, COSTS OFF) EXECUTE since(snowflake_boundary(now() - interval '1 hour'))")
comment "$plan"
is "id >= \$1 (a prepared statement's parameter): shipped to the 3 writers" \
    "$(grep -cE 'Remote SQL: .* WHERE \(\(id >= \$1::bigint\)\)' <<<"$plan")" 3
# snowflake_shard(id) = 7: pruned to one writer on the router; shipped only
# because the servers list idgen in their extensions option.
plan=$(explain "SELECT * FROM all_items WHERE snowflake_shard(id) = 7")
comment "$plan"
is "snowflake_shard(id) = 7: one foreign scan, of w2 (partition pruning)" \
    "$(grep -cE 'Foreign Scan' <<<"$plan") $(grep -c 'w2.items' <<<"$plan")" "1 1"
check "... and with extensions 'idgen' the writer evaluates snowflake_shard()" \
    grep -qF 'WHERE ((public.snowflake_shard(id) = 7))' <<<"$plan"
rq "ALTER SERVER w2 OPTIONS (DROP extensions)" >/dev/null
plan=$(explain "SELECT * FROM all_items WHERE snowflake_shard(id) = 7")
comment "$plan"
check "without extensions 'idgen' the router fetches all of w2's rows and filters" \
    grep -qF 'Filter: (snowflake_shard(all_items.id) = 7)' <<<"$plan"
is "... with the same answer" "$(rq "SELECT count(*) FROM all_items WHERE snowflake_shard(id) = 7")" "$PER_SHARD"
rq "ALTER SERVER w2 OPTIONS (ADD extensions 'idgen')" >/dev/null
# snowflake_time(id, epoch) is shipped too (IMMUTABLE), and evaluated on the writer;
# snowflake_time(id) reads the epoch setting (STABLE) and is evaluated on the router.
plan=$(explain "SELECT * FROM all_items WHERE snowflake_time(id, $epoch) >= '$mid'")
comment "$plan"
is "snowflake_time(id, epoch) >= constant: shipped to the 3 writers" \
    "$(grep -cF "WHERE ((public.snowflake_time(id, '2024-01-01 00:00:00+00'::timestamp with time zone) >= '" <<<"$plan")" 3
plan=$(explain "SELECT * FROM all_items WHERE snowflake_time(id) >= '$mid'")
comment "$plan"
is "snowflake_time(id) >= constant (STABLE): not shipped, the router decodes all 3 writers' rows" \
    "$(grep -c "Filter: (snowflake_time(all_items_.*id) >= '" <<<"$plan") $(grep -c 'Remote SQL: .* WHERE' <<<"$plan")" "3 0"
# One ID through all_items: the shard predicate, folded on the router, prunes to the owner.
one=$(rq "SELECT id FROM routed WHERE shard = 13 LIMIT 1")
plan=$(explain "SELECT * FROM all_items WHERE id = $one AND snowflake_shard(id) = snowflake_shard($one)")
comment "$plan"
is "id = X AND snowflake_shard(id) = snowflake_shard(X): one foreign scan, of the owner w2" \
    "$(grep -cE 'Foreign Scan' <<<"$plan") $(grep -c 'w2.items' <<<"$plan")" "1 1"
plan=$(explain "SELECT id FROM all_items ORDER BY id")
comment "$plan"
is "ORDER BY id: a Merge Append of the 3 writers, each sorting remotely" \
    "$(grep -c '^Merge Append' <<<"$plan") $(grep -cF 'Remote SQL: SELECT id FROM public.items ORDER BY id ASC NULLS LAST' <<<"$plan")" "1 3"

# --- 4. The checks can fail: a wrong map sends shard 3 (on w1) to w2.
one=$(rq "SELECT id FROM routed WHERE shard = 3 LIMIT 1")
is "a session that used the map sees the change at its next call" \
    "$(rq "SELECT count(*) FROM get_item($one);
           UPDATE shard_map SET server = 'w2' WHERE shard = 3; CALL shard_map_apply();
           SELECT count(*) FROM get_item($one)" | tr '\n' ' ')" "1 0 "
is "with shard 3 mapped to w2, the lookup check misses its $PER_SHARD rows" "$(bad_lookups)" "$PER_SHARD"
is "... the placement check reports its $PER_SHARD rows on w1" "$(misplaced_rows)" "$PER_SHARD"
is "... w2 refuses to mint for shard 3" "$(sql_err router "SELECT add_item(3, 'x')" | head -n 1)" \
    "ERROR:  22023: public.add_item(2): [postgres] REMOTE ERROR: shard 3 is not on server w2"
is "... and all_items finds no row of shard 3" \
    "$(rq "SELECT count(*) FROM all_items WHERE snowflake_shard(id) = 3")" 0
rq "UPDATE shard_map SET server = 'w1' WHERE shard = 3; CALL shard_map_apply()" >/dev/null
is "the map put right, the lookup check passes again" "$(bad_lookups)" 0

# --- 5. Moving shard 12 from w1 to w3, in order.
# An insert in flight on shard 12: a transaction on w1 that has not committed yet.
on w1 psql -XAtq -c "BEGIN" -c "SELECT add_item(12, 'in flight')" -c "SELECT pg_sleep(2)" -c "COMMIT" >/dev/null &
in_flight=$!
for _ in $(seq 1 100); do
    [[ $(on w1 q "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(2)'") == 1 ]] && break
    sleep 0.05
done
# (1) The old owner stops minting for it; inserts in flight finish first.
is "(1) deleting shard 12 from w1's owned_shards waits for the insert in flight" \
    "$(on w1 q "DELETE FROM owned_shards WHERE shard = 12;
                SELECT count(*) FROM items WHERE payload = 'in flight'")" 1
wait "$in_flight"
rq "INSERT INTO routed SELECT id, 12, payload FROM w1.items WHERE payload = 'in flight'" >/dev/null
max12=$(rq "SELECT max(id) FROM routed WHERE shard = 12")
is "(1) during the move, writes to shard 12 are refused" \
    "$(sql_err router "SELECT add_item(12, 'x')" | head -n 1)" "ERROR:  22023: public.add_item(2): [postgres] REMOTE ERROR: shard 12 is not on server w1"
# (2) Copy its rows to the new owner.
rq "INSERT INTO w3.items SELECT * FROM w1.items WHERE snowflake_shard(id) = 12" >/dev/null
# (3) The new owner takes the shard once its clock is past the last copied ID.
on w3 q "DO \$\$
BEGIN
    WHILE snowflake_boundary(clock_timestamp(), 12)
          <= (SELECT max(id) FROM items WHERE snowflake_shard(id) = 12) LOOP
        PERFORM pg_sleep(0.01);
    END LOOP;
    INSERT INTO owned_shards VALUES (12);
END \$\$" >/dev/null
# (4) The router sends shard 12 to w3.
rq "UPDATE shard_map SET server = 'w3' WHERE shard = 12; CALL shard_map_apply()" >/dev/null
is "(4) before the old copy is deleted, a full read through all_items counts shard 12 twice" \
    "$(rq "SELECT count(*) FROM all_items")" "$((total + 1 + PER_SHARD + 1))"
# (5) Delete the old copy.
on w1 q "DELETE FROM items WHERE snowflake_shard(id) = 12" >/dev/null
new12=$(rq "SELECT add_item(12, 'after the move')")
rq "INSERT INTO routed VALUES ($new12, 12, 'after the move')" >/dev/null
collect_landed
total=$((total + 2))
check "after the move, shard 12's next ID ($new12) is above its last on w1 ($max12)" test "$new12" -gt "$max12"
is "... it is on w3" "$(on w3 q "SELECT count(*) FROM items WHERE id = $new12")" 1
is "... no row of shard 12 is left on w1" "$(on w1 q "SELECT count(*) FROM items WHERE snowflake_shard(id) = 12")" 0
is "... every row is on its owner, and only there" "$(misplaced_rows)" 0
is "... get_item(id) finds all $total rows on their owners" "$(bad_lookups)" 0
is "... all_items counts each row once" "$(rq "SELECT count(*) FROM all_items")" "$total"

# --- 6. A limit: PL/Proxy's remote calls commit on their own.
rq "BEGIN; SELECT add_item(7, 'rolled back on the router'); ROLLBACK" >/dev/null
is "a router transaction rolled back does not undo add_item() on the writer" \
    "$(on w2 q "SELECT count(*) FROM items WHERE payload = 'rolled back on the router'")" 1

# --- 7. The epoch: the forms without an epoch argument run on the router, with
# the router's idgen.snowflake_epoch; the explicit-epoch forms do not depend on it.
writers_since_mid=$(($(for w in w1 w2 w3; do on "$w" q "SELECT count(*) FROM items WHERE snowflake_time(id) >= '$mid'"; done |
    paste -sd+)))
check "the writers hold rows minted at or after $mid ($writers_since_mid)" test "$writers_since_mid" -gt 0
echo "idgen.snowflake_epoch = '2023-12-31'" >>"$dir/router/data/postgresql.conf"
cluster_restart "$dir/router"
is "with the router's epoch a day earlier, id >= snowflake_boundary('$mid') finds no row" \
    "$(rq "SELECT count(*) FROM all_items WHERE id >= snowflake_boundary('$mid')")" 0
is "... nor does snowflake_time(id) >= '$mid', decoded on the router" \
    "$(rq "SELECT count(*) FROM all_items WHERE snowflake_time(id) >= '$mid'")" 0
is "... while id >= snowflake_boundary('$mid', 0, epoch) agrees with the writers ($writers_since_mid rows)" \
    "$(rq "SELECT count(*) FROM all_items WHERE id >= snowflake_boundary('$mid', 0, $epoch)")" "$writers_since_mid"
is "... and so does snowflake_time(id, epoch) >= '$mid', shipped" \
    "$(rq "SELECT count(*) FROM all_items WHERE snowflake_time(id, $epoch) >= '$mid'")" "$writers_since_mid"

tap_done
