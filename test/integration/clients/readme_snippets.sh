#!/usr/bin/env bash
# The client snippets in docs/drivers.md are the code the
# client tests run (readme_snippets.py). Needs no server.
cd "$(dirname "$0")/../.." || exit 1
/usr/bin/python3 test/clients/readme_snippets.py 1 test/clients/node/pg_test.js:snippet \
    test/clients/psycopg_test.py:usage
