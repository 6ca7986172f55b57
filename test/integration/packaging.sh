#!/usr/bin/env bash
# The Debian package (debian/, issue 26): dpkg-buildpackage -us -uc in a
# temporary copy of the working files (the checkout gets no build droppings),
# with the build-time regression tests of debian/rules; then the .deb is
# installed on Debian's PostgreSQL 15, the regression tests run against the
# installed files on a cluster with idgen preloaded (and, with
# IDGEN_AUTOPKGTEST=1, under debian/tests, the autopkgtest), and dpkg --purge must
# leave no idgen file behind. Whatever idgen files were installed before (the
# suite's `make install`) are put back at the end, pass or fail.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh

debian_pg_config=/usr/lib/postgresql/15/bin/pg_config
if [[ ${PG_CONFIG:-$debian_pg_config} != "$debian_pg_config" ]]; then
    echo "ok 1 # skip the .deb installs into Debian's PostgreSQL 15; this run uses $PG_CONFIG"
    exit 0
fi
if [[ $EUID -ne 0 ]]; then
    echo "ok 1 # skip needs root (dpkg -i and dpkg --purge)"
    exit 0
fi
if dpkg-query -W -f='${Status}' postgresql-15-idgen 2>/dev/null | grep -q "install ok installed"; then
    echo "ok 1 # skip postgresql-15-idgen is installed on this machine; the test would remove it"
    exit 0
fi
export PG_CONFIG=$debian_pg_config
source test/lib/cluster.sh

version=$(make -s print-version)
package=postgresql-15-idgen
tmp=$(mktemp -d /tmp/idgen-packaging.XXXXXX)
chmod 755 "$tmp"
save_idgen_files "$PG_CONFIG" "$tmp/saved.tar" || { echo "not ok 1 - save the installed idgen files"; exit 1; }
# dpkg_waiting ARGS...: dpkg ARGS, waiting up to 2 minutes for the dpkg lock
# when another apt-get or dpkg holds it.
dpkg_waiting() {
    local try out
    for ((try = 0; try < 60; try++)); do
        out=$(dpkg "$@" 2>&1) && { echo "$out"; return 0; }
        echo "$out"
        grep -qE '(is|was) locked' <<<"$out" || return 1
        sleep 2
    done
    return 1
}
cleanup() {
    cluster_stop "$tmp/cluster"
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q installed && dpkg_waiting --purge "$package" >/dev/null 2>&1
    restore_idgen_files "$PG_CONFIG" "$tmp/saved.tar"
    rm -rf "$tmp"
}
trap cleanup EXIT

# quiet COMMAND...: COMMAND without its output.
quiet() { "$@" >/dev/null 2>&1; }
for tool in dpkg-buildpackage dh pg_buildext; do
    check "$tool is installed (bash test/setup.sh)" quiet command -v "$tool"
done

# The working files git knows of (tracked, and new files not ignored) as the
# upstream tarball idgen_<version>.orig.tar.gz, unpacked beside it.
checkout_state() { git status --porcelain --ignored --untracked-files=all; }
before=$(checkout_state)
src=$tmp/idgen-$version
git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
    tar --null -T - --transform "s,^,idgen-$version/," -czf "$tmp/idgen_$version.orig.tar.gz"
tar -C "$tmp" -xzf "$tmp/idgen_$version.orig.tar.gz"

# Without the suite's PG* settings: pg_virtualenv, which runs the build-time
# tests, takes PGPORT as its cluster's port, and under test/run-tests.sh that
# port belongs to the suite's own cluster (seen failing: "could not bind").
build() {
    (cd "$src" && env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE \
        DEB_BUILD_OPTIONS="parallel=2" dpkg-buildpackage -us -uc) >"$tmp/build.log" 2>&1
}
# (check itself always returns 0: the build's status decides.)
timed build
built=$?
check "dpkg-buildpackage -us -uc builds idgen $version" test "$built" -eq 0
if ((built != 0)); then
    grep -E 'FAILED|[Ee]rror|error:|diff ' "$tmp/build.log" | head -n 20 | sed 's/^/# /'
    tail -n 40 "$tmp/build.log" | sed 's/^/# /'
    find "$tmp" -name regression.diffs -exec head -n 60 {} + 2>/dev/null | sed 's/^/# /'
    tap_done
fi
is "the build-time regression tests (dh_pgxs_test, idgen preloaded) passed on every major" \
    "$(grep -c '^### End [0-9]* installcheck ###$' "$tmp/build.log")" \
    "$(cd "$src" && pg_buildext supported-versions | wc -l)"
grep -E '^ *All [0-9]+ tests passed' "$tmp/build.log" | sed 's/^ */# build-time installcheck: /'
is "the checkout has no new or changed files" "$(checkout_state)" "$before"
check "the source package idgen_$version-*.dsc is built" quiet compgen -G "$tmp/idgen_$version-*.dsc"
for major in $(cd "$src" && pg_buildext supported-versions); do
    check "a postgresql-$major-idgen package is built for $major, a major pg_buildext finds" \
        quiet compgen -G "$tmp/postgresql-$major-idgen_$version-*_*.deb"
done
deb=$(compgen -G "$tmp/${package}_$version-*_*.deb" | head -n 1)
[[ -n $deb ]] || tap_done
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in lib/idgen.so extension/idgen.control "extension/idgen--$version.sql"; do
    check "$package contains $f" grep -q "/15/$f\$" <<<"$contents"
done
check "$package depends on postgresql-15" bash -c "dpkg-deb -f '$deb' Depends | grep -qw postgresql-15"

# Install on Debian's server; the suite's own copy of the files is replaced.
idgen_files "$PG_CONFIG" | xargs -r rm -rf --
# logged COMMAND...: COMMAND with its output in $tmp/cmd.log, shown as notes if it fails.
logged() { "$@" >"$tmp/cmd.log" 2>&1 || { sed 's/^/# /' "$tmp/cmd.log"; return 1; }; }
check "dpkg -i installs $package" logged dpkg_waiting -i "$deb" || tap_done
is "dpkg lists $package as installed" "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" "install ok installed"
check "dpkg --verify finds the installed files unchanged" bash -c "[[ -z \$(dpkg --verify $package) ]]"
mapfile -t owned < <(dpkg -L "$package" | grep -E '/idgen[^/]*$|/idgen/')
is "every idgen file on the server belongs to $package" \
    "$(LC_ALL=C comm -23 <(idgen_files "$PG_CONFIG" | LC_ALL=C sort) <(dpkg -L "$package" | LC_ALL=C sort))" ""

if check "a cluster starts with shared_preload_libraries = 'idgen' from the package" \
        cluster_start "$tmp/cluster" "shared_preload_libraries = 'idgen'" "fsync = off"; then
    (cd "$src" && make -s installcheck PG_CONFIG="$PG_CONFIG") >"$tmp/regress.log" 2>&1
    regress_status=$?
    passed=$(grep -cE '^(test .*\.\.\. ok|ok [0-9]+ )' "$tmp/regress.log")
    failed=$(grep -cE '^(test .*\.\.\. FAILED|not ok [0-9]+ )' "$tmp/regress.log")
    regress_count=$(sed -n 's/^REGRESS = //p' Makefile | wc -w)
    is "make installcheck against the installed package: every regression test passes" \
        "$regress_status passed=$passed failed=$failed" "0 passed=$regress_count failed=0"
    ((regress_status == 0)) || { sed 's/^/# /' "$tmp/regress.log" | tail -n 30; head -n 60 "$src/regression.diffs" 2>/dev/null | sed 's/^/# /'; }
    is "the packaged extension is at version $version" \
        "$(q "CREATE EXTENSION IF NOT EXISTS idgen; SELECT extversion FROM pg_extension WHERE extname = 'idgen'")" "$version"
    is "the packaged library makes version 7 UUIDs" "$(q "SELECT substr(uuid_v7()::text, 15, 1)")" 7
    as_cluster_owner pg_ctl -D "$tmp/cluster/data" -m fast -w stop >/dev/null
fi

# debian/tests/installcheck, the autopkgtest: pg_buildext finds the installed
# package and runs the regression tests on a temporary cluster of its own. A
# third run of the same tests (about a minute on a busy machine), so only with
# IDGEN_AUTOPKGTEST=1.
if [[ ${IDGEN_AUTOPKGTEST:-0} == 1 ]]; then
    if timed check "debian/tests/installcheck (the autopkgtest) passes against the installed package" \
            logged env -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE bash -c "cd '$src' && debian/tests/installcheck"; then
        grep -E '^ *All [0-9]+ tests passed' "$tmp/cmd.log" | sed 's/^ */# autopkgtest: /'
    fi
else
    echo "ok $((TAP_N += 1)) # skip debian/tests/installcheck (the autopkgtest) runs with IDGEN_AUTOPKGTEST=1"
fi

check "dpkg --purge removes $package" logged dpkg_waiting --purge "$package"
is "dpkg no longer lists $package" "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -c installed)" 0
left=$(for f in "${owned[@]}"; do [[ -e $f ]] && echo "$f"; done; idgen_files "$PG_CONFIG")
is "no idgen file is left on the server after the purge" "$left" ""
tap_done
