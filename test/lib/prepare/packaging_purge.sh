#!/usr/bin/env bash
# Root-only preparation of test/integration/packaging_purge.pl (test/run-tests.sh
# runs it as root just before the test, right after packaging.pl): dpkg --purge
# of the postgresql-15-idgen that test/lib/prepare/packaging.sh installed, what
# is left of idgen on the server at that moment, and then, at once, the suite's
# own idgen files put back from what packaging.sh saved. Idempotent: with
# nothing saved (packaging.sh skipped, failed and undid itself, or this ran
# already) it does nothing.
#
# Prints its plan and verdict lines (test/lib/verdicts.py) for what only root
# can check, and "saved<TAB>SHA-256<TAB>path" for each file it puts back (the
# test compares the server's files with them). Exit status: 0 done, 3 nothing to do here (the
# reason is the last line), anything else a failure.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source test/lib/lib.sh

package=postgresql-15-idgen
# Shared with packaging.sh and the two tests.
state=/var/tmp/idgen-packaging

prepare_needs_debian_15_root "the .deb installs into Debian's PostgreSQL 15" "dpkg -i and dpkg --purge"
if [[ ! -e $state/saved.tar ]]; then
    rm -rf "$state"
    echo "test/lib/prepare/packaging.sh installed nothing to purge (skipped, or failed and undone; its log says which)"
    exit 3
fi

# The package's idgen files, while it is installed; then the purge, and what
# is left on the server before anything is put back.
mapfile -t owned < <(dpkg -L "$package" 2>/dev/null | grep -E '/idgen[^/]*$|/idgen/')
purged=1
if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q installed; then
    dpkg_waiting --purge "$package" >"$state/purge.log" 2>&1 && purged=0
else
    echo "$package is not installed" >"$state/purge.log"
fi
left=$(for f in "${owned[@]}"; do [[ -e $f ]] && echo "$f"; done; idgen_files "$debian_pg_config")
restore_idgen_files "$debian_pg_config" "$state/saved.tar"
restored=$?
printf 'plan\t2\n'  # the purge, and nothing left

if ((purged == 0)); then
    printf 'ok\tdpkg --purge removes %s\n' "$package"
else
    printf 'not ok\tdpkg --purge removes %s\n' "$package"
    tail -n 40 "$state/purge.log" | sed 's/^/  /'
fi
if [[ -z $left ]]; then
    printf 'ok\tno idgen file is left on the server after the purge\n'
else
    printf 'not ok\tno idgen file is left on the server after the purge\n'
    sed 's/^/#\tleft: /' <<<"$left"
fi
printf '#\tthe package owned %d idgen files and directories\n' "${#owned[@]}"
saved_idgen_digests "$state/saved.tar"
if ((restored != 0)); then
    echo "the suite's idgen files could not be put back from $state/saved.tar (kept there)"
    exit 1
fi
rm -rf "$state"
exit 0
