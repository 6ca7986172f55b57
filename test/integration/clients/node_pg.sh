#!/usr/bin/env bash
# node-postgres (npm pg, pinned in node/package-lock.json, installed there by
# test/setup.sh with npm ci) against the running test cluster (node/pg_test.js).
source "$(dirname "$0")/../../lib/lib.sh"
dir=$(dirname "$0")/node
if [[ ! -d $dir/node_modules/pg ]]; then
    echo "not ok 1 - node-postgres is not installed in $dir (run bash test/setup.sh)"
    exit 1
fi
fresh_database idgen_clients_node || { echo "not ok 1 - create the database"; exit 1; }
node "$dir/pg_test.js"
