#!/usr/bin/env bash
# Root-only preparation of test/integration/pgxn_dist_reinstall.pl
# (test/run-tests.sh runs it as root just before the test, after
# pgxn_dist.pl): the route of a PGXN user, Debian's pgxnclient reading the
# zip's META.json, building it and installing it on Debian's PostgreSQL 15.
# Only after pgxn_dist.sh installed the zip (it saved the suite's own idgen
# files): those are put back first, so that the server holds the suite's files
# while pgxn builds, and the zip's files again only once pgxn installs them.
# A failed install puts the suite's files back at once;
# pgxn_dist_restore.sh (the next file's) puts them back in any case.
#
# Prints its plan and verdict line (test/lib/verdicts.py); other lines are log
# text. Exit status: 0 pgxn installed the zip, 3 nothing to reinstall here (the
# reason is the last line), anything else a failure.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source test/lib/lib.sh

# Shared with pgxn_dist.sh, pgxn_dist_restore.sh and the three tests.
state=/var/tmp/idgen-pgxn-dist

prepare_needs_debian_15_root "the unpacked zip is built and tested on Debian's PostgreSQL 15" "pgxn install into Debian's PostgreSQL 15"
version=$(make -s print-version)
zip=$state/idgen-$version.zip
if [[ ! -e $state/saved.tar || ! -s $zip ]]; then
    echo "test/lib/prepare/pgxn_dist.sh did not install the zip (skipped, or failed and undone; its log says which): nothing to reinstall"
    exit 3
fi
printf 'plan\t1\n'  # pgxn install
if ! restore_idgen_files "$debian_pg_config" "$state/saved.tar"; then
    echo "the suite's idgen files could not be put back from $state/saved.tar"
    exit 1
fi
if ! command -v pgxn >/dev/null; then
    echo "pgxnclient is not installed (bash test/setup.sh): nothing reinstalled"
    exit 1
fi

started=$SECONDS
pgxn install --make make --pg_config "$debian_pg_config" "$zip" >"$state/pgxn-install.log" 2>&1
installed=$?
printf '#\tpgxn install took %d s\n' $((SECONDS - started))
if ((installed == 0)); then
    printf 'ok\tpgxn install takes the zip (META.json read by the PGXN client), builds and installs it\n'
    exit 0
fi
printf 'not ok\tpgxn install takes the zip (META.json read by the PGXN client), builds and installs it\n'
tail -n 40 "$state/pgxn-install.log" | sed 's/^/  /'
# A failed install puts the suite's files back at once.
restore_idgen_files "$debian_pg_config" "$state/saved.tar"
echo "pgxn install failed: the suite's idgen files are back"
exit 1
