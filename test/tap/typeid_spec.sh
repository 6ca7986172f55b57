#!/usr/bin/env bash
# The TypeID specification's test files (test/data/typeid, from
# jetify-com/typeid) through SQL: test/lib/typeid_spec.py. Needs a server with
# idgen (PG* env).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh

fresh_database idgen_typeid_spec >/dev/null || { echo "not ok 1 - create database idgen_typeid_spec"; exit 1; }
/usr/bin/python3 test/lib/typeid_spec.py
status=$?
export PGDATABASE=postgres
dropdb --if-exists idgen_typeid_spec
exit $status
