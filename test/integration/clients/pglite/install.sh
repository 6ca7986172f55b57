#!/bin/sh
# install.sh WORK: the npm package clients/node packed as npm publishes it
# (a copy of its sources in WORK/package, built with the development
# dependencies test/setup.sh installed, the way clients/node/test/run.sh packs
# it), and this test project copied to WORK/project (its dependencies as
# test/setup.sh installed them from package-lock.json, and the suite's verdict
# printer test/lib/verdicts.mjs beside the helpers) with the tarball installed
# into it. Writes nothing outside WORK.
set -e
here=$(cd "$(dirname "$0")" && pwd)
package=$(cd "$here/../../../../clients/node" && pwd)
work=$1
export npm_config_cache="$work/npm-cache" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
sh "$package/test/pack.sh" "$work"
rm -rf "$work/project"
mkdir "$work/project"
(cd "$here" && cp -R package.json package-lock.json ./*.mjs page node_modules ../../../lib/verdicts.mjs "$work/project/")
rm -rf "$work/project/node_modules/idgen"
(cd "$work/project" && npm install --no-save --offline --loglevel=error "$work"/idgen-*.tgz)
test -f "$work/project/node_modules/idgen/dist/pglite.js"
