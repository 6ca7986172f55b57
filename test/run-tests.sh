#!/usr/bin/env bash
# The whole test suite (README command 2): installs what it needs, builds with
# -Werror, runs the core unit tests, the core fuzz targets (20 s each), build
# checks, pg_regress and the multi-session tests against a throwaway cluster,
# and the benchmark's quick mode. Ends with "N passed, N failed"; exits
# non-zero when anything failed.
#
#   bash test/run-tests.sh            # PostgreSQL 15 (Debian's package)
#   bash test/run-tests.sh --pg 18    # the same suite on 18, built by test/pg-build.sh
#   bash test/run-tests.sh --pg all   # every major we can get, one summary line
set -uo pipefail
cd "$(dirname "$0")/.."

pg=15
while (($#)); do
    case $1 in
        --pg) pg=${2:-}; shift ;;
        *) echo "usage: bash test/run-tests.sh [--pg MAJOR|all]" >&2; exit 2 ;;
    esac
    shift
done

bash test/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

# --pg all: the suite once per major, in turn; a major whose source package the
# archive cannot serve is reported as unavailable and skipped.
if [[ $pg == all ]]; then
    total_passed=0
    total_failed=0
    summary=()
    for major in $(bash test/pg-build.sh --known); do
        printf '\n######## PostgreSQL %s\n' "$major"
        bash test/pg-build.sh "$major" >/dev/null
        case $? in
            0) ;;
            3) summary+=("PostgreSQL $major: unavailable (its source package cannot be fetched), not tested")
               continue ;;
            *) summary+=("PostgreSQL $major: server build failed")
               total_failed=$((total_failed + 1))
               continue ;;
        esac
        # Each major's own summary line is relabelled so that only the total
        # below reads as the suite's closing line.
        major_log=$(mktemp /tmp/idgen-tests-pg"$major".XXXXXX)
        bash test/run-tests.sh --pg "$major" 2>&1 |
            sed -u -E "s/^([0-9]+ passed, [0-9]+ failed)$/PostgreSQL $major: \1/" | tee "$major_log"
        # Sections that do not depend on the major (fuzzing) ran in this pass.
        export IDGEN_SKIP_CORE_ONLY=1
        result=$(sed -n -E 's/^PostgreSQL [0-9]+: ([0-9]+ passed, [0-9]+ failed)$/\1/p' "$major_log" | tail -n 1)
        rm -f "$major_log"
        if [[ -z $result ]]; then
            summary+=("PostgreSQL $major: the suite ended without a summary")
            total_failed=$((total_failed + 1))
            continue
        fi
        summary+=("PostgreSQL $major: $result")
        total_passed=$((total_passed + ${result%% passed*}))
        result=${result#*, }
        total_failed=$((total_failed + ${result%% failed}))
    done
    echo
    printf '%s\n' "${summary[@]}"
    echo "$total_passed passed, $total_failed failed"
    ((total_failed == 0))
    exit
fi

[[ $pg =~ ^[0-9]+$ ]] || { echo "run-tests: --pg needs a major version or 'all', got '$pg'" >&2; exit 2; }
PG_CONFIG=$(bash test/pg-build.sh "$pg") || { echo "0 passed, 1 failed"; exit 1; }
export PG_CONFIG
source test/cluster.sh

passed=0
failed=0
log_dir=$(mktemp -d /tmp/idgen-tests.XXXXXX)
chmod 755 "$log_dir"  # the cluster inside is run by an unprivileged user
cluster_dir="$log_dir/cluster"
cleanup() {
    cluster_stop "$cluster_dir"
    rm -rf "$log_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

section() { printf '\n== %s\n' "$*"; }

# count_tap FILE: adds a TAP log's ok / not ok lines to the totals.
count_tap() {
    local ok notok
    ok=$(grep -c '^ok ' "$1")
    notok=$(grep -c '^not ok ' "$1")
    passed=$((passed + ok))
    failed=$((failed + notok))
}

# step NAME COMMAND...: one pass or fail for a command that is a test in itself.
step() {
    local name=$1
    shift
    if "$@" >"$log_dir/step.log" 2>&1; then
        echo "ok - $name"
        passed=$((passed + 1))
        return 0
    fi
    echo "not ok - $name"
    tail -n 40 "$log_dir/step.log"
    failed=$((failed + 1))
    return 1
}

section "build for PostgreSQL $("$PG_CONFIG" --version | cut -d' ' -f2) (-Werror, g++ and, where the server has JIT, clang bitcode)"
make -s clean >/dev/null 2>&1  # objects of another major must not be reused
if ! step "make" make -s WERROR=1; then
    echo "$passed passed, $failed failed"
    exit 1
fi

section "core unit tests"
make -s unit WERROR=1 >"$log_dir/unit.log" 2>&1
unit_status=$?
grep -E '^\[  (PASSED|FAILED)  \]|^\[==========\]' "$log_dir/unit.log"
unit_passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log_dir/unit.log")
unit_failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log_dir/unit.log")
passed=$((passed + ${unit_passed:-0}))
failed=$((failed + ${unit_failed:-0}))
if [[ $unit_status -ne 0 && -z ${unit_failed:-} ]]; then
    tail -n 40 "$log_dir/unit.log"
    failed=$((failed + 1))
fi

section "fuzzing the core parsers (libFuzzer, 20 s a target)"
# The fuzz targets link only src/core, so under --pg all they run in the first
# major's pass alone.
if [[ -n ${IDGEN_SKIP_CORE_ONLY:-} ]]; then
    echo "# skipped: they do not depend on the PostgreSQL major and ran in an earlier pass"
elif step "build the fuzz targets" make -s fuzz-build WERROR=1; then
    bash test/fuzz/run.sh 20 >"$log_dir/fuzz.tap" 2>&1
    cat "$log_dir/fuzz.tap"
    count_tap "$log_dir/fuzz.tap"
fi

section "build checks"
bash test/t/build_checks.sh >"$log_dir/build_checks.tap" 2>&1
cat "$log_dir/build_checks.tap"
count_tap "$log_dir/build_checks.tap"

section "install and start a throwaway cluster"
if ! step "make install" make -s install || \
   ! step "start PostgreSQL with shared_preload_libraries = 'idgen'" \
        cluster_start "$cluster_dir" "shared_preload_libraries = 'idgen'" "fsync = off"; then
    echo "$passed passed, $failed failed"
    exit 1
fi

section "pg_regress"
make -s installcheck >"$log_dir/regress.log" 2>&1
grep -E '^(test | *ok| *FAILED|not ok|ok )' "$log_dir/regress.log" | sed 's/^/  /'
regress_ok=$(grep -cE '^(test .*\.\.\. ok|ok [0-9]+ )' "$log_dir/regress.log")
regress_failed=$(grep -cE '^(test .*\.\.\. FAILED|not ok [0-9]+ )' "$log_dir/regress.log")
passed=$((passed + regress_ok))
failed=$((failed + regress_failed))
if [[ -s regression.diffs ]]; then
    echo "regression.diffs:"
    head -n 80 regression.diffs
fi
if ((regress_ok + regress_failed == 0)); then
    tail -n 40 "$log_dir/regress.log"
    failed=$((failed + 1))
fi

section "multi-session, restart and configuration tests (test/t)"
for t in test/t/*.sh; do
    [[ $t == test/t/lib.sh || $t == test/t/build_checks.sh ]] && continue
    echo "# $t"
    bash "$t" >"$log_dir/t.tap" 2>&1
    status=$?
    cat "$log_dir/t.tap"
    count_tap "$log_dir/t.tap"
    if [[ $status -ne 0 ]] && ! grep -q '^not ok ' "$log_dir/t.tap"; then
        echo "not ok - $t exited with status $status"
        failed=$((failed + 1))
    fi
done

section "client libraries (test/clients: psycopg 3, node-postgres)"
for t in test/clients/*.sh; do
    echo "# $t"
    bash "$t" >"$log_dir/client.tap" 2>&1
    status=$?
    cat "$log_dir/client.tap"
    count_tap "$log_dir/client.tap"
    if [[ $status -ne 0 ]] && ! grep -q '^not ok ' "$log_dir/client.tap"; then
        echo "not ok - $t exited with status $status"
        failed=$((failed + 1))
    fi
done

section "benchmark quick mode (checks that it runs, asserts no timing)"
if [[ -f test/bench/bench.sh ]]; then
    # Its own throwaway cluster (part 6 restarts it in a memory cgroup), then
    # the test cluster as a server of the user's (IDGEN_BENCH_EXISTING=1).
    step "test/bench/bench.sh --quick" bash test/bench/bench.sh --quick
    step "test/bench/bench.sh --quick on an existing server" env IDGEN_BENCH_EXISTING=1 bash test/bench/bench.sh --quick
fi

echo
echo "$passed passed, $failed failed"
((failed == 0))
