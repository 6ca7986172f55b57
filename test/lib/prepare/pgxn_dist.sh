#!/usr/bin/env bash
# Root-only preparation of test/integration/pgxn_dist.pl (test/run-tests.sh
# runs it as root just before the test): `make dist` writes
# idgen-<version>.zip from git archive (issue 26); unpacked elsewhere, it
# builds with Debian's PostgreSQL 15 (-Werror) and is installed with make
# install in place of the suite's own idgen files, which are saved first.
# pgxn_dist_reinstall.sh (the next file's) installs the same zip again with
# Debian's pgxnclient, and pgxn_dist_restore.sh (the one after) puts the
# suite's files back; a failed step here puts them back at once. An earlier
# run's install found here (it did not reach the restore) is undone first.
#
# Prints its plan and verdict lines (test/lib/verdicts.py) for what only root
# can do and check; other lines are log text. Leaves the zip and its unpacked,
# built copy in $state for the tests. Exit status: 0 the zip is installed, 3 it
# cannot be here (the reason is the last line), anything else a failure.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source test/lib/lib.sh

# Shared with pgxn_dist_reinstall.sh, pgxn_dist_restore.sh and the three tests.
state=/var/tmp/idgen-pgxn-dist

prepare_needs_debian_15_root "the unpacked zip is built and tested on Debian's PostgreSQL 15" "make install into Debian's PostgreSQL 15"
if [[ -e $state/saved.tar ]]; then
    echo "an earlier run left the zip installed in place of the suite's idgen files: undoing that first"
    bash test/lib/prepare/pgxn_dist_restore.sh 2>&1 | grep -v $'^saved\t' | sed 's/^/  earlier run: /'
fi

# verdict STATUS WHAT: one verdict line; returns STATUS.
verdict() {
    if (($1 == 0)); then printf 'ok\t%s\n' "$2"; else printf 'not ok\t%s\n' "$2"; fi
    return "$1"
}
# logged COMMAND...: COMMAND with its output in $state/cmd.log, the end of it
# shown as log text if it fails; returns its status.
logged() {
    "$@" >"$state/cmd.log" 2>&1 && return 0
    local status=$?
    tail -n 40 "$state/cmd.log" | sed 's/^/  /'
    return $status
}

# make dist, unzip, the build, the install (or the failed save in its place)
printf 'plan\t4\n'
rm -rf "$state"
mkdir -p "$state/elsewhere"
chmod 755 "$state" "$state/elsewhere"
version=$(make -s print-version)
zip=$state/idgen-$version.zip
dist=$state/elsewhere/idgen-$version

# (No optional locks: reading the checkout's state must not rewrite its index.)
export GIT_OPTIONAL_LOCKS=0
git diff --quiet HEAD -- ||
    printf '#\tthe working tree has uncommitted changes: make dist packs HEAD without them\n'
logged make dist DIST_ZIP="$zip"
verdict $? "make dist writes idgen-$version.zip" && [[ -s $zip ]] || exit 1
logged unzip -q "$zip" -d "$state/elsewhere"
verdict $? "the zip unpacks" || exit 1
started=$SECONDS
logged make -C "$dist" -s -j2 WERROR=1 PG_CONFIG="$debian_pg_config"
built=$?
printf '#\tthe build of the unpacked zip took %d s\n' $((SECONDS - started))
verdict $built "the unpacked zip builds with make (PostgreSQL 15, -Werror)" || exit 1

# Install on Debian's server; the suite's own copy of the files is saved, then
# removed, so that every idgen file there comes from the zip.
if ! save_idgen_files "$debian_pg_config" "$state/saved.tar"; then
    rm -f "$state/saved.tar"
    printf 'not ok\tsave the installed idgen files\n'
    exit 1
fi
idgen_files "$debian_pg_config" | xargs -r rm -rf --
logged make -C "$dist" -s install PG_CONFIG="$debian_pg_config"
verdict $? "make install from the unpacked zip" && exit 0
# A failed install puts the suite's files back at once.
restore_idgen_files "$debian_pg_config" "$state/saved.tar" && rm -f "$state/saved.tar"
echo "make install failed: the suite's idgen files are back"
exit 1
