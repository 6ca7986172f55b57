#!/usr/bin/env bash
# The PGXN distribution (issue 26): META.json against PGXN Meta Spec 1.0.0
# (test/lib/pgxn_meta.py, which must also refuse broken copies), then `make dist`
# writes idgen-<version>.zip from git archive; unpacked elsewhere, it builds
# with Debian's PostgreSQL 15, installs, and passes make installcheck on a
# cluster with idgen preloaded; and Debian's pgxnclient installs and checks
# the zip the way a PGXN user would. The idgen files installed before (the suite's
# `make install`) are put back at the end, pass or fail.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh

version=$(make -s print-version)
tap_verdicts pgxn_meta.py python3 test/lib/pgxn_meta.py META.json --root . \
    --name idgen --version "$version" --self-test

debian_pg_config=/usr/lib/postgresql/15/bin/pg_config
if [[ ${PG_CONFIG:-$debian_pg_config} != "$debian_pg_config" ]]; then
    echo "ok $((TAP_N + 1)) # skip the unpacked zip is built and tested on Debian's PostgreSQL 15; this run uses $PG_CONFIG"
    tap_done
fi
if [[ $EUID -ne 0 ]]; then
    echo "ok $((TAP_N + 1)) # skip needs root (make install into Debian's PostgreSQL 15)"
    tap_done
fi
export PG_CONFIG=$debian_pg_config
source test/lib/cluster.sh

tmp=$(mktemp -d /tmp/idgen-pgxn.XXXXXX)
chmod 755 "$tmp"
save_idgen_files "$PG_CONFIG" "$tmp/saved.tar" || { echo "not ok $((TAP_N + 1)) - save the installed idgen files"; exit 1; }
cleanup() {
    cluster_stop "$tmp/cluster"
    restore_idgen_files "$PG_CONFIG" "$tmp/saved.tar"
    rm -rf "$tmp"
}
trap cleanup EXIT
# logged COMMAND...: COMMAND with its output in $tmp/cmd.log, the end of it
# shown as notes if it fails.
logged() { "$@" >"$tmp/cmd.log" 2>&1 || { tail -n 40 "$tmp/cmd.log" | sed 's/^/# /'; return 1; }; }

zip=$tmp/idgen-$version.zip
git diff --quiet HEAD -- || echo "# the working tree has uncommitted changes: make dist packs HEAD without them"
check "make dist writes idgen-$version.zip" logged make dist DIST_ZIP="$zip"
[[ -s $zip ]] || tap_done
entries=$(unzip -Z1 "$zip")
is "every file in the zip is under idgen-$version/" "$(grep -vc "^idgen-$version/" <<<"$entries")" 0
is "the zip holds exactly the files of HEAD" \
    "$(grep -v '/$' <<<"$entries" | sed "s,^idgen-$version/,," | LC_ALL=C sort)" \
    "$(git ls-tree -r --name-only HEAD | LC_ALL=C sort)"
for f in META.json Makefile idgen.control README.md LICENSE "sql/idgen--$version.sql"; do
    check "the zip contains $f" grep -qx "idgen-$version/$f" <<<"$entries"
done
is "the zip holds no build products" "$(grep -E '\.(o|so|bc|d)$' <<<"$entries")" ""

mkdir "$tmp/elsewhere"
check "the zip unpacks" logged unzip -q "$zip" -d "$tmp/elsewhere"
dist=$tmp/elsewhere/idgen-$version
tap_verdicts "pgxn_meta.py (the zip)" python3 test/lib/pgxn_meta.py "$dist/META.json" --root "$dist" \
    --name idgen --version "$version" --label "the zip's META.json"
if ! timed check "the unpacked zip builds with make (PostgreSQL 15, -Werror)" \
        logged make -C "$dist" -s -j2 WERROR=1 PG_CONFIG="$PG_CONFIG"; then
    tap_done
fi
idgen_files "$PG_CONFIG" | xargs -r rm -rf --
check "make install from the unpacked zip" logged make -C "$dist" -s install PG_CONFIG="$PG_CONFIG"
check "the installed idgen.so is the one built from the zip" \
    cmp -s "$dist/idgen.so" "$("$PG_CONFIG" --pkglibdir)/idgen.so"
if check "a cluster starts with shared_preload_libraries = 'idgen'" \
        cluster_start "$tmp/cluster" "shared_preload_libraries = 'idgen'" "fsync = off"; then
    make -C "$dist" -s installcheck PG_CONFIG="$PG_CONFIG" >"$tmp/regress.log" 2>&1
    regress_status=$?
    passed=$(grep -cE '^(test .*\.\.\. ok|ok [0-9]+ )' "$tmp/regress.log")
    failed=$(grep -cE '^(test .*\.\.\. FAILED|not ok [0-9]+ )' "$tmp/regress.log")
    regress_count=$(sed -n 's/^REGRESS = //p' Makefile | wc -w)
    is "make installcheck in the unpacked zip: every regression test passes" \
        "$regress_status passed=$passed failed=$failed" "0 passed=$regress_count failed=0"
    ((regress_status == 0)) || { tail -n 30 "$tmp/regress.log"; head -n 60 "$dist/regression.diffs" 2>/dev/null; } | sed 's/^/# /'
    # The route of a PGXN user: Debian's pgxnclient reads the zip's META.json,
    # builds and installs it, then runs its regression tests.
    if check "pgxnclient is installed (bash test/setup.sh)" bash -c "command -v pgxn >/dev/null" &&
        timed check "pgxn install takes the zip (META.json read by the PGXN client), builds and installs it" \
            logged pgxn install --make make --pg_config "$PG_CONFIG" "$zip"; then
        check "pgxn check runs the zip's regression tests and they pass" \
            logged pgxn check --make make --pg_config "$PG_CONFIG" "$zip"
        grep -E '^ *All [0-9]+ tests passed' "$tmp/cmd.log" | sed 's/^ */# pgxn check: /'
    fi
fi
tap_done
