#!/usr/bin/env bash
# psycopg 3 (Debian's python3-psycopg) against the running test cluster: every
# idgen type in text and binary, arrays and binary COPY (psycopg_test.py).
source "$(dirname "$0")/../../lib/lib.sh"
fresh_database idgen_clients_psycopg || { echo "not ok 1 - create the database"; exit 1; }
/usr/bin/python3 "$(dirname "$0")/psycopg_test.py"
