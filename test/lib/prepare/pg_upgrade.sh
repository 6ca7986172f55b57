#!/usr/bin/env bash
# Root-only preparation of test/integration/pg_upgrade.pl (test/run-tests.sh
# runs it as root just before the test): the servers the upgrades go between,
# each with this checkout's idgen installed.
#   - PostgreSQL 15.18 built from the vendored source package by
#     `test/pg-build.sh --source 15` (cached like 17 and 18): the old cluster.
#     Debian 12's own 15 package is not the old cluster (it stores a column
#     option, pg_attver, that upstream 17 and 18 reject; the test shows that
#     on its own, with Debian's 15 as it is).
#   - 17 and 18 from test/pg-build.sh's cache (built if absent).
# The old 15 gets idgen 0.6.0, the release users upgrade from: the tree of
# commit 5597542 (the last at EXTVERSION 0.6.0; `git archive`, the checkout is
# only read). 17 and 18 get this checkout's idgen, built from a copy of the
# tree (never `make clean` here). The test runs in the 18 pass of test/run-tests.sh only:
# under any other $PG_CONFIG this exits 3, so the file is one counted skip.
# Prints its plan of no verdict ("plan<TAB>0", test/lib/verdicts.py for
# IdgenTest::prepared_verdicts), then "pg15=PREFIX", "pg17=PREFIX",
# "pg18=PREFIX" for the test. Exit
# status: 0 ready, 3 not here (the reason is the last line), anything else a
# failure.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
repo=$PWD

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
if ((major != 18)); then
    echo "pg_upgrade.pl runs once per suite, in the PostgreSQL 18 pass (it needs 15 built from source, 17 and 18 at once)"
    exit 3
fi
printf 'plan\t0\n'
if [[ $EUID -ne 0 ]]; then
    echo "building the servers and installing idgen into them needs root"
    exit 1
fi

release_060=55975426e3b845fedf3715307667d2372f6eea58

# install_idgen PG_CONFIG [COMMIT]: builds idgen (this checkout's, or COMMIT's
# tree) against that server in a copy of the tree, and installs it there.
install_idgen() {
    local cfg=$1 commit=${2:-} dir
    dir=$(mktemp -d /tmp/idgen-upgrade-build.XXXXXX)
    if [[ -n $commit ]]; then
        git -C "$repo" archive "$commit" | tar -C "$dir" -xf - ||
            { echo "git archive $commit failed: idgen 0.6.0's tree is needed for the old cluster"; return 1; }
    else
        tar -C "$repo" --exclude=./.git --exclude='*.o' --exclude='*.bc' --exclude='*.so' \
            --exclude=./test/integration/clients -cf - . | tar -C "$dir" -xf - || return 1
    fi
    if make -C "$dir" -s clean >/dev/null 2>&1 && make -C "$dir" -s -j"$(nproc)" PG_CONFIG="$cfg" >"$dir/make.log" 2>&1 &&
        make -C "$dir" -s install PG_CONFIG="$cfg" >>"$dir/make.log" 2>&1; then
        rm -rf "$dir"
        return 0
    fi
    tail -n 20 "$dir/make.log"
    echo "idgen does not build against $cfg (log in $dir/make.log)"
    return 1
}

started=$SECONDS
pg15=$(bash test/pg-build.sh --source 15) || { echo "PostgreSQL 15 could not be built from source"; exit 1; }
pg17=$(bash test/pg-build.sh 17) || { echo "PostgreSQL 17 could not be built"; exit 1; }
install_idgen "$pg15" "$release_060" || exit 1
for cfg in "$pg17" "$PG_CONFIG"; do
    install_idgen "$cfg" || exit 1
done
for m in 15:"$pg15" 17:"$pg17" 18:"$PG_CONFIG"; do
    echo "pg${m%%:*}=$(dirname "$(dirname "${m#*:}")")"
done
echo "servers ready in $((SECONDS - started)) s: idgen 0.6.0 in 15.18, this checkout's idgen in 17 and 18"
exit 0
