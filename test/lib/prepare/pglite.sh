#!/usr/bin/env bash
# Root-only preparation of test/integration/clients/pglite.pl (test/run-tests.sh
# runs it as root just before the test): the npm package clients/node packed
# as a user gets it (npm pack: its build, the SQL edition generated into it),
# and the tarball installed into the test project
# test/integration/clients/pglite, which test/setup.sh installed with npm ci,
# without touching its package.json or lock file. Node is the one test/setup.sh
# chose for the npm tests (20.19 or later). Exit status: 0 done, anything else
# a failure (the reason is in the output).
set -uo pipefail
cd "$(dirname "$0")/../../.."

dir=test/integration/clients/pglite
bin=$PWD/test/integration/clients/orm/node_modules/.idgen-bin
if ! [[ -d $dir/node_modules/playwright-core && -d clients/node/node_modules/typescript && -x $bin/node && -x /usr/bin/chromium ]]; then
    bash test/setup.sh >&2 || { echo "test/setup.sh failed"; exit 1; }
fi
export PATH="$bin:$PATH"
pack=$(mktemp -d)
trap 'rm -rf "$pack"' EXIT
(cd clients/node && npm pack --silent --pack-destination "$pack" >/dev/null) || { echo "npm pack in clients/node failed"; exit 1; }
tarball=$(ls "$pack"/idgen-*.tgz 2>/dev/null)
[[ -n $tarball ]] || { echo "npm pack wrote no idgen-*.tgz"; exit 1; }
(cd "$dir" && npm install --no-save --no-audit --no-fund --offline --loglevel=error "$tarball") ||
    { echo "npm install of $(basename "$tarball") into $dir failed"; exit 1; }
echo "installed $(basename "$tarball") into $dir"
exit 0
