#!/bin/sh
# pack.sh WORK: packs the package as npm publishes it, from a copy of its
# sources in WORK/package built with the development dependencies that
# test/setup.sh installed, into WORK/idgen-VERSION.tgz; npm's cache and
# settings stay in WORK. For run.sh and the PGlite test's install.sh.
set -e
package=$(cd "$(dirname "$0")/.." && pwd)
work=$1
export npm_config_cache="$work/npm-cache" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
mkdir -p "$work/package"
cp -R "$package/package.json" "$package/package-lock.json" "$package/tsconfig.json" "$package/README.md" "$package/scripts" \
    "$package/LICENSE" "$package/src" "$work/package/"
ln -sfn "$package/node_modules" "$work/package/node_modules"
(cd "$work/package" && npm pack --silent --pack-destination "$work" >/dev/null)
