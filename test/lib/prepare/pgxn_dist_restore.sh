#!/usr/bin/env bash
# Root-only preparation of test/integration/pgxn_dist_restore.pl
# (test/run-tests.sh runs it as root just before the test, after
# pgxn_dist_reinstall.pl): the suite's own idgen files, which
# test/lib/prepare/pgxn_dist.sh saved before it installed the zip, put back on
# Debian's PostgreSQL 15, and the zip and its build removed. Idempotent: with
# nothing saved (pgxn_dist.sh skipped, failed and undid itself, or this ran
# already) it does nothing.
#
# Prints its plan of no verdict ("plan<TAB>0", test/lib/verdicts.py), then
# "saved<TAB>SHA-256<TAB>path" for each file it puts back (the test
# compares the server's files with them); other lines are log text. Exit
# status: 0 done, 3 nothing to do here (the reason is the last line), anything
# else a failure.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source test/lib/lib.sh

# Shared with pgxn_dist.sh, pgxn_dist_reinstall.sh and the three tests.
state=/var/tmp/idgen-pgxn-dist

prepare_needs_debian_15_root "the unpacked zip is built and tested on Debian's PostgreSQL 15" "make install into Debian's PostgreSQL 15"
if [[ ! -e $state/saved.tar ]]; then
    rm -rf "$state"
    echo "test/lib/prepare/pgxn_dist.sh installed nothing to undo (skipped, or failed and undone; its log says which)"
    exit 3
fi
printf 'plan\t0\n'
if ! restore_idgen_files "$debian_pg_config" "$state/saved.tar"; then
    echo "the suite's idgen files could not be put back from $state/saved.tar (kept there)"
    exit 1
fi
saved_idgen_digests "$state/saved.tar"
rm -rf "$state"
exit 0
