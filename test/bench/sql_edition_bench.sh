#!/usr/bin/env bash
# The SQL edition's figures (issue 25, docs/managed-postgresql.md, "Speed"):
# per-call cost and a bulk load of SQLED_BENCH_ROWS rows (default 2000000) per
# family, SQL edition against the C++ edition and bigserial, on one throwaway
# cluster of $PG_CONFIG where both editions are installed (C++ in schema cpp,
# SQL in schema sqled). Opt-in, not part of test/run-tests.sh. The measuring
# and the report are test/bench/sql_edition_bench.py; this file starts the
# server and installs the editions.
#   PG_CONFIG=... bash test/bench/sql_edition_bench.sh            # writes test/bench/results/sql-edition-YYYYMMDD.md
#   SQLED_BENCH_ROWS=100000 SQLED_BENCH_CALLS=20000 bash test/bench/sql_edition_bench.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/cluster.sh
: "${PG_CONFIG:?set PG_CONFIG to the server to measure}"
make -s sql-edition PG_CONFIG="$PG_CONFIG" >&2
script=build/idgen_sql--$(make -s print-version).sql
dir=$(mktemp -d /tmp/idgen-sqled-bench.XXXXXX)
chmod 755 "$dir"
trap 'cluster_stop "$dir/b"; rm -rf "$dir"' EXIT
cluster_start "$dir/b" "shared_preload_libraries = 'idgen'" "shared_buffers = 256MB" "max_wal_size = 4GB" "synchronous_commit = off"
psql -XAtq -v ON_ERROR_STOP=1 -c "CREATE DATABASE bench" >/dev/null
psql -XAtq -v ON_ERROR_STOP=1 -d bench -c "CREATE SCHEMA cpp" -c "CREATE EXTENSION idgen SCHEMA cpp" -c "CREATE SCHEMA sqled" >/dev/null
PGOPTIONS='-c search_path=sqled' psql -Xq -v ON_ERROR_STOP=1 -d bench -f "$script"
out=${SQLED_BENCH_OUT:-test/bench/results/sql-edition-$(date -u +%Y%m%d).md}
PGDATABASE=bench /usr/bin/python3 test/bench/sql_edition_bench.py "$out"
