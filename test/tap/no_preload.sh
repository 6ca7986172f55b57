#!/usr/bin/env bash
# Without shared_preload_libraries: uuid_v7 and ulid work with backend-local state,
# idgen_stats says shared memory is missing, 'server' order and snowflake()
# refuse clearly (never a per-backend counter), snowflake decoders still work.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-nopreload.XXXXXX)
trap 'cluster_stop "$dir"' EXIT
cluster_start "$dir" "fsync = off" || exit 1

check "CREATE EXTENSION idgen works without preloading" q "CREATE EXTENSION idgen"
is "uuid_v7() is strictly increasing with backend-local state" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad
                                FROM (SELECT n, uuid_v7() AS id FROM generate_series(1, 50000) n) s) t WHERE bad")" 0
stats=$(psql -XAtq -c "SELECT uuid_v7() IS NOT NULL" -c "SELECT family, ids_minted, shared_memory, pid = pg_backend_pid() FROM idgen_stats" 2>&1)
check "idgen_stats notices that shared memory is not available" grep -q "NOTICE:  idgen shared memory is not available" <<<"$stats"
check "idgen_stats hints at shared_preload_libraries" grep -q "HINT:  Add idgen to shared_preload_libraries" <<<"$stats"
check "idgen_stats shows this backend's local state, marked not shared" grep -qx "uuid_v7|1|f|t" <<<"$stats"
# ulid() keeps its sequence in the backend too, so it needs no shared memory.
is "ulid() is strictly increasing with backend-local state" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad
                                FROM (SELECT n, ulid() AS id FROM generate_series(1, 50000) n) s) t WHERE bad")" 0
stats=$(psql -XAtq -c "SELECT ulid() IS NOT NULL" -c "SELECT family, ids_minted, shared_memory, pid = pg_backend_pid() FROM idgen_stats" 2>&1)
check "idgen_stats shows this backend's local ulid state, marked not shared" grep -qx "ulid|1|f|t" <<<"$stats"
err=$(psql -Xq -v VERBOSITY=verbose -c "SET idgen.uuid_v7_order = 'server'" -c "SELECT uuid_v7()" 2>&1)
check "'server' order without shared memory fails with SQLSTATE 55000" grep -q "ERROR:  55000: idgen.uuid_v7_order = 'server' needs idgen's shared memory" <<<"$err"
check "the 'server' order error hints at shared_preload_libraries" grep -q "HINT:  Add idgen to shared_preload_libraries and restart the server." <<<"$err"
err=$(psql -Xq -v VERBOSITY=verbose -c "SELECT snowflake(1)" 2>&1)
check "snowflake() without shared memory fails with SQLSTATE 55000" grep -q "ERROR:  55000: snowflake() needs idgen's shared memory" <<<"$err"
check "the snowflake error hints at shared_preload_libraries" grep -q "HINT:  Add idgen to shared_preload_libraries and restart the server." <<<"$err"
err=$(psql -Xq -v VERBOSITY=verbose -c "SET idgen.shard_id = 3" -c "SELECT snowflake()" 2>&1)
check "snowflake() with a default shard fails the same way" grep -q "ERROR:  55000: snowflake() needs idgen's shared memory" <<<"$err"
is "snowflake decoders and boundaries work without shared memory" \
    "$(q "SELECT snowflake_shard(snowflake_boundary('2025-01-01+00', 12)) || ' ' || snowflake_time(9007199263129600) AT TIME ZONE 'UTC'")" \
    "12 2024-01-13 10:15:41.825"
is "idgen.snowflake_epoch is defined once the library is loaded" \
    "$(psql -XAtq -c "SELECT snowflake53_seq(1) = 1" -c "SHOW idgen.snowflake_epoch")" $'t\n2024-01-01'
err=$(psql -Xq -v VERBOSITY=verbose -c "SELECT snowflake53_seq(1)" -c "SET idgen.snowflake_epoch = '2020-01-01'" 2>&1)
check "without preloading the epoch still cannot be changed in a session (55P02)" grep -q "ERROR:  55P02" <<<"$err"
shards=$(psql -XAtq -c "SELECT count(*) FROM idgen_snowflake_shards" 2>&1)
check "idgen_snowflake_shards notices that shared memory is not available" grep -q "NOTICE:  idgen shared memory is not available; no shard has state" <<<"$shards"
tap_done
