#!/bin/sh
# Packs the package (its build included) and installs the tarball here, into
# the test project that test/setup.sh installed with npm ci; then runs the
# tests with the junit reporter into $1 (default: junit.xml) and the spec
# reporter on stdout.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/junit.xml}
pack=$(mktemp -d)
(cd "$here/.." && npm pack --silent --pack-destination "$pack" >/dev/null)
(cd "$here" && npm install --no-save --no-audit --no-fund --offline --loglevel=error "$pack"/idgen-*.tgz)
rm -rf "$pack"
cd "$here"
exec node --test --test-concurrency=1 --test-reporter=junit --test-reporter-destination="$out" \
    --test-reporter=spec --test-reporter-destination=stdout tests/*.test.mjs
