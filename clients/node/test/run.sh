#!/bin/sh
# run.sh WORK JUNIT: builds and packs the package as npm publishes it (a copy
# of its sources in WORK/package, with the development dependencies that
# test/setup.sh installed in ../node_modules), installs the tarball into a
# copy of this test project (WORK/project, its dependencies as setup.sh
# installed them from package-lock.json), then runs the tests there with
# the junit reporter into JUNIT and the spec reporter on stdout (with a copy of
# the extension's test/data/id_vectors.json in the project). Then
# `npm publish --dry-run` of the same package. Writes nothing outside WORK.
set -e
here=$(cd "$(dirname "$0")" && pwd)
package=$(dirname "$here")
work=$1
junit=$2
export npm_config_cache="$work/npm-cache" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
sh "$here/pack.sh" "$work"
rm -rf "$work/project"
mkdir "$work/project"
(cd "$here" && cp -R package.json package-lock.json drizzle kysely typecheck tests node_modules "$work/project/")
# the extension's vectors file, which tests/vectors.mjs reads from the project
cp "$package/../../test/data/id_vectors.json" "$work/project/id_vectors.json"
rm -rf "$work/project/node_modules/idgen"
(cd "$work/project" && npm install --no-save --offline --loglevel=error "$work"/idgen-*.tgz)
cd "$work/project"
# the package's sources, for pack_checkout.test.mjs
export IDGEN_NODE_PACKAGE="$package"
node --test --test-concurrency=1 --test-timeout=300000 --test-reporter=junit --test-reporter-destination="$junit" \
    --test-reporter=spec --test-reporter-destination=stdout tests/*.test.mjs || true
