#!/usr/bin/env bash
# Root-only preparation of test/integration/packaging.pl (test/run-tests.sh
# runs it as root just before the test): the Debian package (debian/, issue
# 26) built with dpkg-buildpackage -us -uc in a temporary copy of the working
# files (the checkout gets no build droppings), with the build-time regression
# tests of debian/rules, then installed with dpkg -i on Debian's PostgreSQL 15
# in place of the suite's own idgen files, which are saved first.
# test/lib/prepare/packaging_purge.sh (before packaging_purge.pl, the next
# file) purges the package and puts the saved files back; a failed step here
# puts them back at once. Run both, or neither: an earlier run's package found
# installed here is purged first.
#
# Prints its plan, then verdict lines (test/lib/verdicts.py: "plan<TAB>N",
# "ok<TAB>what", "not ok<TAB>what", "#<TAB>note") for what only root can
# check, which the test turns into checks (IdgenTest::prepared_verdicts);
# other lines are log text. Leaves the build
# (the .deb, the .dsc, build.log, the upstream tarball) in $state/build for the
# test. Exit status: 0 the package is installed, 3 it cannot be here (the
# reason is the last line), anything else a failure.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source test/lib/lib.sh

package=postgresql-15-idgen
# Shared with packaging_purge.sh and the two tests.
state=/var/tmp/idgen-packaging

prepare_needs_debian_15_root "the .deb installs into Debian's PostgreSQL 15" "dpkg -i and dpkg --purge"
if [[ -e $state/saved.tar ]]; then
    echo "an earlier run left $package installed in place of the suite's idgen files: undoing that first"
    bash test/lib/prepare/packaging_purge.sh 2>&1 | grep -v $'^saved\t' | sed 's/^/  earlier run: /'
fi
if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    echo "postgresql-15-idgen is installed on this machine; the test would remove it"
    exit 3
fi

# verdict OK WHAT: one verdict line; returns OK's status.
verdict() {
    if (($1 == 0)); then printf 'ok\t%s\n' "$2"; else printf 'not ok\t%s\n' "$2"; fi
    return "$1"
}
# indented FILE [LINES]: the end of FILE as log text (never a verdict line).
indented() { tail -n "${2:-40}" "$1" 2>/dev/null | sed 's/^/  /'; }

# The build, the clean checkout, the install (or the failed save in its place).
printf 'plan\t3\n'

rm -rf "$state"
mkdir -p "$state/build"
chmod 755 "$state" "$state/build"
version=$(make -s print-version)
build_dir=$state/build

# The working files git knows of (tracked, and new files not ignored) as the
# upstream tarball idgen_<version>.orig.tar.gz, unpacked beside it. (No
# optional locks: reading the checkout's state must not rewrite its index.)
checkout_state() { git --no-optional-locks status --porcelain --ignored --untracked-files=all; }
before=$(checkout_state)
src=$build_dir/idgen-$version
git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
    tar --null -T - --transform "s,^,idgen-$version/," -czf "$build_dir/idgen_$version.orig.tar.gz"
tar -C "$build_dir" -xzf "$build_dir/idgen_$version.orig.tar.gz"

# Without the suite's PG* settings: pg_virtualenv, which runs the build-time
# tests, takes PGPORT as its cluster's port, and under test/run-tests.sh that
# port belongs to the suite's own cluster (seen failing: "could not bind").
started=$SECONDS
(cd "$src" && env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE \
    DEB_BUILD_OPTIONS="parallel=2" dpkg-buildpackage -us -uc) >"$build_dir/build.log" 2>&1
built=$?
printf '#\tdpkg-buildpackage took %d s\n' $((SECONDS - started))
verdict "$built" "dpkg-buildpackage -us -uc builds idgen $version"
after=$(checkout_state)
verdict "$([[ $after == "$before" ]]; echo $?)" "the checkout has no new or changed files" ||
    diff <(echo "$before") <(echo "$after") | sed 's/^/#\t/'
if ((built != 0)); then
    # (prove's lines: make installcheck runs the TAP tier after pg_regress.)
    grep -E "^Can't locate|^Bailout called|^Dubious|^Result: |^Files=|^test/tap/.*(Failed|Dubious)" "$build_dir/build.log" |
        head -n 10 | sed 's/^/  /'
    grep -E 'FAILED|[Ee]rror|error:|diff ' "$build_dir/build.log" | head -n 20 | sed 's/^/  /'
    indented "$build_dir/build.log"
    find "$build_dir" -name regression.diffs -exec head -n 60 {} + 2>/dev/null | sed 's/^/  /'
    echo "dpkg-buildpackage failed: nothing installed"
    exit 1
fi
deb=$(compgen -G "$build_dir/${package}_$version-*_*.deb" | head -n 1)
if [[ -z $deb ]]; then
    echo "no ${package}_$version-*.deb was built: nothing installed"
    exit 1
fi

# Install on Debian's server; the suite's own copy of the files is saved, then
# removed, so that every idgen file there comes from the package.
if ! save_idgen_files "$debian_pg_config" "$state/saved.tar"; then
    rm -f "$state/saved.tar"
    printf 'not ok\tsave the installed idgen files\n'
    exit 1
fi
idgen_files "$debian_pg_config" | xargs -r rm -rf --
if dpkg_waiting -i "$deb" >"$state/dpkg.log" 2>&1; then
    verdict 0 "dpkg -i installs $package"
    exit 0
fi
verdict 1 "dpkg -i installs $package"
indented "$state/dpkg.log"
# A failed install puts the suite's files back at once.
dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q installed &&
    dpkg_waiting --purge "$package" >/dev/null 2>&1
restore_idgen_files "$debian_pg_config" "$state/saved.tar" && rm -f "$state/saved.tar"
echo "dpkg -i failed: the suite's idgen files are back"
exit 1
