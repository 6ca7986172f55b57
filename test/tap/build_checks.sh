#!/usr/bin/env bash
# Build-level checks on the compiled library and the release metadata.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh

lib=idgen.so
undefined=$(nm -D --undefined-only "$lib")
for sym in __cxa_throw __cxa_allocate_exception __cxa_begin_catch __gxx_personality_v0 _Znwm _Znam _ZdlPv _ZdaPv _Unwind_Resume; do
    check "idgen.so does not import $sym" bash -c "! grep -qw '$sym' <<<\"\$0\"" "$undefined"
done
# A server built without ICU does not load libstdc++ for us, so any C++ runtime
# symbol (mangled _Z..., __cxa_* but glibc's __cxa_finalize, the personality
# routine) would stop the server from starting with shared_preload_libraries.
cxx_runtime=$(awk '{print $2}' <<<"$undefined" | grep -E '^_Z|^__cxa|__gxx_personality' | grep -v '^__cxa_finalize')
is "idgen.so imports no C++ runtime symbol" "$cxx_runtime" ""
# The servers built by test/pg-build.sh have no ICU, so nothing loads libstdc++
# for us there: the suite's preloaded cluster on them proves that idgen.so loads.
pg_config=${PG_CONFIG:-pg_config}
if "$pg_config" --configure | grep -q -- "--without-icu"; then
    check "this server is built without ICU and does not link libstdc++ itself" \
        bash -c "! ldd '$("$pg_config" --bindir)/postgres' | grep -q 'libstdc++'"
fi
check "idgen.so has no dynamic static initialisers (_GLOBAL__sub_I_)" bash -c "! nm '$lib' | grep -q _GLOBAL__sub_I_"
check "idgen.so needs no libstdc++" bash -c "! readelf -d '$lib' | grep -q 'libstdc++'"
# Every C symbol the install and upgrade scripts name, plus the module's own.
symbols=$(sed -n "s/.*'MODULE_PATHNAME', '\([a-z_0-9]*\)'.*/\1/p" sql/idgen--*.sql | sort -u)
check "the SQL scripts name C functions" test -n "$symbols"
for fn in $symbols Pg_magic_func _PG_init; do
    check "idgen.so exports $fn unmangled" bash -c "nm -D --defined-only '$lib' | grep -qw '$fn'"
done

version=$(make -s print-version)
is "idgen.control default_version matches the Makefile" \
    "$(sed -n "s/^default_version = '\(.*\)'/\1/p" idgen.control)" "$version"
is "META.json version matches the Makefile" \
    "$(python3 -c 'import json; m = json.load(open("META.json")); print(m["version"])')" "$version"
is "META.json provides idgen at the same version" \
    "$(python3 -c 'import json; m = json.load(open("META.json")); print(m["provides"]["idgen"]["version"])')" "$version"
# Databases created on 0.1.0 reach the default version through upgrade scripts,
# so every version must be reachable from idgen--0.1.0.sql.
reachable() {
    local v=$1
    while [[ $v != 0.1.0 ]]; do
        local step
        step=$(ls sql/idgen--*--"$v".sql 2>/dev/null | head -n 1)
        [[ -n $step ]] || return 1
        v=$(sed 's/^sql\/idgen--\(.*\)--.*\.sql$/\1/' <<<"$step")
    done
    test -f sql/idgen--0.1.0.sql
}
check "version $version is reachable from sql/idgen--0.1.0.sql through upgrade scripts" reachable "$version"
# CREATE EXTENSION runs the current full script alone (test/tap/install_matches_upgrade.sh
# checks it defines what the upgrades do).
check "sql/idgen--$version.sql, the current full install script, exists" test -f "sql/idgen--$version.sql"
# Every function states its volatility, null handling and PARALLEL label in
# the text and has a COMMENT (pg_proc cannot tell a default from an explicit
# CALLED ON NULL INPUT, so the script is read; test/lib/sql_labels.py).
labels=$(python3 test/lib/sql_labels.py "sql/idgen--$version.sql")
functions=$(sed -n 's/^functions=//p' <<<"$labels")
check "sql_labels.py read the current script's functions (${functions:-0}, at least 90)" test "${functions:-0}" -ge 90
is "every function of sql/idgen--$version.sql states volatility, STRICT or CALLED ON NULL INPUT, PARALLEL, and has a COMMENT" \
    "$(sed '1d' <<<"$labels")" ""
# prefixed_id_define and typeid_define have one text, sql/define/domain_define.sql.in:
# each copy of them in the scripts is its rendering, byte for byte (sql/define/generate.py).
copies=$(python3 sql/define/generate.py copies)
check "sql/define/generate.py lists the scripts' copies of the two functions ($(grep -c . <<<"$copies"), at least 4)" \
    test "$(grep -c . <<<"$copies")" -ge 4
while read -r script fn; do
    [[ -n $script ]] || continue
    diff=$(python3 sql/define/generate.py check "$script" "$fn" 2>&1)
    status=$?
    check "$script: $fn's body is the template's rendering" test "$status" -eq 0 || sed 's/^/# /' <<<"$diff"
done <<<"$copies"
check "CHANGELOG.md has an entry for $version" grep -q "^## $version" CHANGELOG.md
# The Debian package's version is the Makefile's plus a Debian revision
# (0.5.0-1): a release adds an entry on top of debian/changelog.
is "debian/changelog's newest entry is for version $version" \
    "$(sed -n '1s/^idgen (\([^)]*\)-[0-9][^)-]*).*/\1/p' debian/changelog)" "$version"
check "every install and upgrade script starts with the CREATE EXTENSION guard" \
    bash -c 'for f in sql/idgen--*.sql; do grep -q "^\\\\echo Use \"CREATE EXTENSION idgen\" to load this file. \\\\quit" "$f" || exit 1; done'
tap_done
