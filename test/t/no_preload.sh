#!/usr/bin/env bash
# Without shared_preload_libraries: uuid_v7 works with backend-local state,
# idgen_stats says shared memory is missing, 'server' order refuses clearly.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/t/lib.sh
source test/cluster.sh

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
err=$(psql -Xq -v VERBOSITY=verbose -c "SET idgen.uuid_v7_order = 'server'" -c "SELECT uuid_v7()" 2>&1)
check "'server' order without shared memory fails with SQLSTATE 55000" grep -q "ERROR:  55000: idgen.uuid_v7_order = 'server' needs idgen's shared memory" <<<"$err"
check "the 'server' order error hints at shared_preload_libraries" grep -q "HINT:  Add idgen to shared_preload_libraries and restart the server." <<<"$err"
tap_done
