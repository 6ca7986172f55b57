#!/usr/bin/env bash
# The test matrix's own logic: test/matrix.py's table and closing line over
# simulated runs (a required major unavailable, in and out of CI; majors that
# are tried but not required; a failed server build; a major that stopped),
# then test/run-tests.sh itself on a major whose every source is blocked.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh

work=$(mktemp -d /tmp/idgen-matrix-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

# rec NAME LINES...: writes a record of one major.
rec() {
    local name=$1
    shift
    printf '%s\n' "$@" >"$work/$name.env"
}

rec 15 major=15 required=yes set=full files=40 status=tested version=15.20-0+deb12u1 source=debian-12 \
    "phase=server 0" "phase=pg_regress 61" passed=1100 failed=0 skipped=1 \
    "skip=test/integration/partitioning.sh: pg_partman is packaged for PostgreSQL 15 only"
rec 16 major=16 required=no set=full files=40 status=unavailable \
    "tried=vendored (/v): no postgresql-16_*.dsc there" "phase=server 3" passed=0 failed=0 skipped=0
rec 17 major=17 required=yes set=version files=32 status=unavailable \
    "tried=vendored (/v): no postgresql-17_*.dsc there" \
    "tried=archive: apt-get source postgresql-17/trixie: E: 404 Not Found" "phase=server 7" \
    passed=0 failed=0 skipped=0
rec 18 major=18 required=yes set=full files=40 status=tested version=18.6-3 source=vendored \
    orig_sha256=555610c2 "phase=server 300" "phase=test/t 420" passed=1200 failed=2 skipped=0
rec 19 major=19 required=no set=full files=40 status=tested version=19~rc1-1 source=archive \
    passed=500 failed=7 skipped=0

# matrix ARGS...: the matrix's output in $work/out, its status in $status.
matrix() {
    python3 test/matrix.py "$@" >"$work/out" 2>&1
    status=$?
}

matrix --ci no "$work/15.env" "$work/16.env" "$work/17.env"
is "outside CI, a required major that is unavailable is a skip: exit status 0" "$status" 0
is "its test files are the skipped count, with the self-skipped file of 15" \
    "$(tail -n 1 "$work/out")" "1100 passed, 0 failed, 33 skipped"
check "its row says UNAVAILABLE and how many files did not run" \
    grep -qE '^  17 +- +- +- +- +- +32 +0m07s +UNAVAILABLE: 32 test files not run$' "$work/out"
check "what each source answered is listed" \
    grep -qx '  17 tried: archive: apt-get source postgresql-17/trixie: E: 404 Not Found' "$work/out"
check "a file that skipped itself is listed with its reason" \
    grep -qx '  15 skipped: test/integration/partitioning.sh: pg_partman is packaged for PostgreSQL 15 only' "$work/out"
check "16 is tried, not required, and adds nothing" \
    grep -qE '^  16 .*tried, not required: no source could be had$' "$work/out"
check "each phase's wall time is printed" grep -qx '  15 phases: server 0 s, pg_regress 61 s' "$work/out"

matrix --ci yes "$work/15.env" "$work/16.env" "$work/17.env"
is "under CI, a required major that is unavailable fails the run: exit status 1" "$status" 1
is "and counts as one failure besides its skipped files" \
    "$(tail -n 1 "$work/out")" "1100 passed, 1 failed, 33 skipped"
check "its row says it fails under CI" grep -qE '^  17 .*required and unavailable: fails under CI' "$work/out"

matrix --ci yes "$work/15.env" "$work/16.env"
is "16 unavailable under CI fails nothing: exit status 0" "$status" 0

matrix --ci no "$work/15.env" "$work/18.env" "$work/19.env"
is "a tested major's failures fail the run" "$status" 1
is "the closing line sums the required majors only" "$(tail -n 1 "$work/out")" "2300 passed, 2 failed, 1 skipped"
check "a tested major that is not required is shown apart" \
    grep -qE '^  19 +19~rc1-1 +archive +full +500 +7 .*not required: its counts are not in the closing line$' "$work/out"
check "where each tested server's source came from, with its checksum" \
    grep -q '^  18 source: .*SHA-256 555610c2' "$work/out"

rec 17f major=17 required=yes set=version files=32 status=build_failed "why=pg-build: PostgreSQL 17: make failed"
rec 18a major=18 required=yes set=full files=40 status=tested version=18.6-3
rec 19a major=19
matrix --ci no "$work/17f.env" "$work/18a.env" "$work/19a.env"
is "a failed server build, a suite that stopped and a lost record each fail once" \
    "$(tail -n 1 "$work/out")" "0 passed, 3 failed, 32 skipped"
check "the build's failure is shown" grep -qx '  17 build: pg-build: PostgreSQL 17: make failed' "$work/out"

# Counting one TAP log: skips are neither passed nor failed, and each one's
# reason is recorded under the file's name.
cat >"$work/t.tap" <<'EOF'
ok 1 - a check
not ok 2 - a failed check
ok 3 # skip pg_partman is packaged for PostgreSQL 15 only
ok 4 - a check # SKIP: Citus needs 16 or later
ok 5 - a check whose text says # skipping is no directive
# ok 6 - a comment
EOF
: >"$work/counted.env"
is "a TAP log counts ok, not ok and skip lines apart" \
    "$(python3 test/matrix.py --count-tap "$work/t.tap" --label test/t/x.sh --record "$work/counted.env")" "2 1 2"
is "each skip's reason is recorded under the file's name" "$(cat "$work/counted.env")" \
"skip=test/t/x.sh: pg_partman is packaged for PostgreSQL 15 only
skip=test/t/x.sh: Citus needs 16 or later"

# The real entry point on a major with no source: nothing vendored, an
# archive that refuses connections, an empty cache.
mkdir -p "$work/apt/sources.list.d" "$work/no-sources" "$work/cache"
echo "deb http://127.0.0.1:1/debian bookworm main" >"$work/apt/sources.list"
blocked=(env -u IDGEN_RESULT_FILE -u IDGEN_SKIP_CORE_ONLY IDGEN_PG_SOURCES="$work/no-sources"
         IDGEN_APT_ETC="$work/apt" IDGEN_PG_CACHE="$work/cache")
files=$(bash test/run-tests.sh --set full --list-files | wc -l)
check "the full set lists every pg_regress file, test/t and client test, the unit tests and the benchmark" \
    test "$files" -eq $(($(sed -n 's/^REGRESS = //p' Makefile | wc -w) + $(ls test/t/*.sh | grep -vc '/lib\.sh$') +
                         $(ls test/integration/clients/*.sh | wc -l) + 2))
"${blocked[@]}" CI=true bash test/run-tests.sh --pg 17 --set full >"$work/ci.out" 2>&1
is "CI=true, a required major with no source: run-tests.sh exits non-zero" "$?" 1
is "its closing line counts one failure and every test file as skipped" \
    "$(tail -n 1 "$work/ci.out")" "0 passed, 1 failed, $files skipped"
check "it names each source tried" bash -c "grep -q '17 tried: vendored' '$work/ci.out' &&
    grep -q '17 tried: archive' '$work/ci.out' && grep -q '17 tried: pinned' '$work/ci.out'"
"${blocked[@]}" CI=false bash test/run-tests.sh --pg 17 --set full >"$work/local.out" 2>&1
is "outside CI the same run exits 0" "$?" 0
is "and ends in N skipped" "$(tail -n 1 "$work/local.out")" "0 passed, 0 failed, $files skipped"
tap_done
