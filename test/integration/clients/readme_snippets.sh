#!/usr/bin/env bash
# The client snippets in docs/drivers.md are the code the
# client tests run (readme_snippets.py). Needs no server.
cd "$(dirname "$0")/../../.." || exit 1
/usr/bin/python3 test/integration/clients/readme_snippets.py 1 test/integration/clients/node/pg_test.js:snippet \
    test/integration/clients/psycopg_test.py:usage
