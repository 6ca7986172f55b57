#!/usr/bin/env bash
# The whole test suite (docs/development.md, "Running the tests"): installs what it needs, builds with
# -Werror, runs the core unit tests, the core fuzz targets (10 s each), build
# checks, pg_regress and the multi-session tests against a throwaway cluster,
# and the benchmark's quick mode. Ends with a table of the PostgreSQL majors
# run and "N passed, N failed, N skipped"; exits non-zero when anything failed.
#
#   bash test/run-tests.sh                  # PostgreSQL 15 (Debian's package)
#   bash test/run-tests.sh --pg 18          # the same suite on 18, built by test/pg-build.sh
#   bash test/run-tests.sh --pg all         # the matrix: every major we try, one closing line
#   bash test/run-tests.sh --pg 17 --set version   # only the version-dependent part (see below)
#   bash test/run-tests.sh --pg 19          # 19~rc1 in a root of Debian unstable: the server set
#   bash test/run-tests.sh --set version --list-files   # the test files a set runs
#   bash test/run-tests.sh --only 'snowflake_.*'   # only the test files whose name matches
#
# Under --pg all, majors listed in IDGEN_VERSION_SET_MAJORS (default 17) run
# the "version" set: the build, build checks, every pg_regress file and the
# test files listed in version_dependent_tests below; majors tested in a root
# of their own (test/pg-build.sh --root: 19) run the "server" set, their
# only one: the build, build checks, pg_regress, the files of test/tap among
# version_dependent_tests and the integration tests in
# server_integration_tests, which need nothing but PostgreSQL; every other
# major runs everything. A supported major
# (test/pg-build.sh --required) that cannot be built fails the run under
# CI=true and is a counted skip otherwise; an optional one (--optional: 19)
# is a counted skip in and out of CI (docs/development.md, "The test
# matrix"). test/matrix.py prints the table and the closing line.
set -uo pipefail
cd "$(dirname "$0")/.."

pg=15
set_name=''
list_files=no
only=''
while (($#)); do
    case $1 in
        --pg) pg=${2:-}; shift ;;
        --set) set_name=${2:-}; shift ;;
        --list-files) list_files=yes ;;
        --only) only=${2:-}; shift ;;
        *) echo "usage: bash test/run-tests.sh [--pg MAJOR|all] [--set full|version|server] [--only REGEX] [--list-files]" >&2; exit 2 ;;
    esac
    shift
done

# Majors whose tests run in a root of their own, which has PostgreSQL and the
# tools of the server set's tests but none of the clients, the benchmark's or
# the suite's own tools: there the set is server.
root_majors=" 19 "
if [[ $root_majors == *" $pg "* ]]; then
    [[ -z $set_name || $set_name == server ]] ||
        { echo "run-tests: PostgreSQL $pg runs in a root that has only PostgreSQL and the server set's tools: its set is server" >&2; exit 2; }
    set_name=server
fi
set_name=${set_name:-full}
[[ $set_name == full || $set_name == version || $set_name == server ]] ||
    { echo "run-tests: --set is full, version or server, got '$set_name'" >&2; exit 2; }

# Test files that exercise code which differs between majors: WAL and the
# lease's resource manager, shared memory, restarts and standbys, planner
# support, roles and catalogs, dump and restore, the server build itself, and
# Citus (an engine built against each major).
version_dependent_tests=(
    build_checks clock_lease lease_file_unwritable no_preload pg-build prefixed_dump id_columns_dump prefixed_schema_rename
    snowflake_layout_dump snowflake_layout_restart snowflake_layout_standby
    prefixed_stale_registry roles snowflake_epoch snowflake_restart snowflake_standby
    install_matches_upgrade partitioning citus wal_resource_manager backup_sync
    upgrade_stable_decoders secret_key uuidv47_secrecy
)

# Test files whose outcome does not depend on the server's major: they run
# once, on the newest supported major, so that a pass of an older full major
# (15, Debian's own, for the tests that need its packages) runs what differs.
# - client packages whose codecs and frameworks speak the same protocol to
#   every major (Python's and Node's, whose drivers differ in catalog
#   lookups, run on each full major);
# - TAP tests of code with no PG_VERSION_NUM branch on their path (the
#   generators, the text and binary forms, the README's SQL, a renewal held
#   in I/O); snowflake_sessions stays on each major for the backend index,
#   which differs from 17 on, and the lease and origin tests for the wait
#   events, the synchronous standbys' flags and the catalog reads that differ;
# - the suite's own tools (pg-build, which builds each major, is among
#   version_dependent_tests) and the benchmark's quick mode.
newest_major_only_tests=(
    go_package rust_package java_package ruby_package pglite
    busy_machine clock_regression lead_bound lease_renewer_in_io prefixed_sessions readme_sql
    recv_fuzz typeid_spec ulid_sessions uuid_v7_sessions uuid_v6_sessions ksuid_sessions objectid_sessions
    bench_memory_cap bench_peer_skips inventory matrix multi_node_log verdicts
)
newest_major=$(bash test/pg-build.sh --required | tail -n 1)

# The integration tests that need nothing but a PostgreSQL server (and the
# tools every root has: pgbench, libfaketime, Python's psycopg): what the
# server set runs of test/integration, beside the TAP tests among
# version_dependent_tests. The others need another system
# (Citus, Patroni, PL/Proxy, sqlsmith, several majors for pg_upgrade) or
# Debian's 15 (the .deb, PGXN).
server_integration_tests=(multi_node partitioning)

# test_name FILE: the name a test file goes by in the lists above.
test_name() {
    local name
    name=$(basename "$1" .pl)
    echo "${name%.test}"
}

# test_files SET: the test files one major runs in SET, one a line (the count
# of a major that could not be built is its number of skipped files), tier by
# tier (docs/development.md, "The test tiers"); with --only, those whose name
# matches (client tests included).
test_files() {
    local t name
    [[ $1 == server ]] || echo test/unit
    for name in $(sed -n 's/^REGRESS = //p' Makefile); do echo "sql/$name.sql"; done
    for t in $(ls test/{tap,integration,tooling}/*.pl | sort) $(ls test/integration/clients/*.pl); do
        name=$(test_name "$t")
        [[ $name == build_checks ]] && continue
        [[ -n $only && ! $name =~ ^($only)$ ]] && continue
        [[ $pg != "$newest_major" && " ${newest_major_only_tests[*]} " == *" $name "* ]] && continue
        if [[ $t == test/integration/clients/* ]]; then
            [[ $1 == full ]] || continue
            echo "$t"
        elif [[ $1 == server ]]; then
            if [[ $t == test/tap/* ]]; then
                [[ " ${version_dependent_tests[*]} " == *" $name "* ]] && echo "$t"
            else
                [[ " ${server_integration_tests[*]} " == *" $name "* ]] && echo "$t"
            fi
        elif [[ $1 == full ]] || [[ " ${version_dependent_tests[*]} " == *" $name "* ]]; then
            echo "$t"
        fi
    done
    [[ $1 == full && -z $only && $pg == "$newest_major" ]] && echo test/bench/bench.sh
    return 0
}

# --list-files: the test files of --set, without running anything.
if [[ $list_files == yes ]]; then
    test_files "$set_name"
    exit
fi

# The set-up (test/setup.sh); under --pg all it runs below, beside the
# servers' builds.
if [[ $pg != all ]]; then
    bash test/setup.sh || { echo "0 passed, 1 failed"; exit 1; }
fi

ci=no
[[ ${CI:-} == true ]] && ci=yes

# --pg all: the suite once per major, in turn, each writing a record that
# test/matrix.py sums up.
if [[ $pg == all ]]; then
    records=$(mktemp -d /tmp/idgen-matrix.XXXXXX)
    trap 'rm -rf "$records"' EXIT
    version_set_majors=" ${IDGEN_VERSION_SET_MAJORS-17} "
    majors=$(bash test/pg-build.sh --known)
    # The servers of the later passes (in the order they are needed:
    # pg_upgrade.pl's 15 from source in the 18 pass, then the roots), made in
    # the background at a lower priority while the first pass runs:
    # cold, each build takes minutes. A pass that needs one still being made
    # waits for it (pg-build.sh's lock); a failure is the pass's own to
    # report, as it tries again. The build dependencies are installed first,
    # here; the builds then install nothing (test/setup.sh --only), and the
    # suite's own set-up runs beside them: cold, its apt-get, npm, Maven and
    # PyPI downloads wait on the network more than on a core.
    if [[ $EUID -eq 0 && ${IDGEN_NO_BACKGROUND_BUILDS:-0} != 1 ]]; then
        bash test/pg-build.sh --build-deps >/dev/null
        (
            later=$(tail -n +2 <<<"$majors")
            for major in $later; do
                [[ $root_majors == *" $major "* ]] || nice -n 10 bash test/pg-build.sh "$major" || true
            done
            nice -n 10 bash test/pg-build.sh --source 15 || true
            for major in $later; do
                [[ $root_majors != *" $major "* ]] || nice -n 10 bash test/pg-build.sh "$major" || true
            done
        ) >"$records/background-builds.log" 2>&1 &
        background_builds=$!
        trap 'kill "$background_builds" 2>/dev/null; wait "$background_builds" 2>/dev/null; rm -rf "$records"' EXIT
    fi
    bash test/setup.sh || { echo "0 passed, 1 failed"; exit 1; }
    for major in $majors; do
        printf '\n######## PostgreSQL %s\n' "$major"
        major_set=full
        [[ $root_majors == *" $major "* ]] && major_set=server
        [[ $version_set_majors == *" $major "* ]] && major_set=version
        IDGEN_RESULT_FILE="$records/$major.env" bash test/run-tests.sh --pg "$major" --set "$major_set" ${only:+--only "$only"}
        # Sections that do not depend on the major (unit tests, fuzzing) ran in this pass.
        [[ -s $records/$major.env ]] && grep -q '^status=tested' "$records/$major.env" && export IDGEN_SKIP_CORE_ONLY=1
        [[ -s $records/$major.env ]] || printf 'major=%s\nstatus=aborted\n' "$major" >"$records/$major.env"
    done
    echo
    python3 test/matrix.py --ci "$ci" "$records"/*.env
    exit
fi

[[ $pg =~ ^[0-9]+$ ]] || { echo "run-tests: --pg needs a major version or 'all', got '$pg'" >&2; exit 2; }

log_dir=$(mktemp -d /tmp/idgen-tests.XXXXXX)
chmod 755 "$log_dir"  # the cluster inside is run by an unprivileged user
cluster_dir="$log_dir/cluster"
record=${IDGEN_RESULT_FILE:-$log_dir/record.env}
required=no
# (Not a pipe into grep -q: under pipefail its early exit can fail the pipe.)
[[ $'\n'$(bash test/pg-build.sh --required)$'\n' == *$'\n'$pg$'\n'* ]] && required=yes
[[ $'\n'$(bash test/pg-build.sh --optional)$'\n' == *$'\n'$pg$'\n'* ]] && required=optional
printf 'major=%s\nrequired=%s\nset=%s\nfiles=%s\n' "$pg" "$required" "$set_name" \
    "$(test_files "$set_name" | wc -l)" >"$record"

# finish: writes the counts to the record and prints the closing line (under
# --pg all, a line for this major; the matrix prints the closing line).
finish() {
    printf 'passed=%s\nfailed=%s\nskipped=%s\n' "$passed" "$failed" "$skipped" >>"$record"
    if [[ -n ${IDGEN_RESULT_FILE:-} ]]; then
        printf 'PostgreSQL %s: %s passed, %s failed, %s skipped\n' "$pg" "$passed" "$failed" "$skipped"
        return $((failed > 0))
    fi
    echo
    python3 test/matrix.py --ci "$ci" "$record"
}

# The server: built (or found in the cache) by test/pg-build.sh, which exits 3
# when no source of it can be had.
phase_start=$SECONDS
passed=0 failed=0 skipped=0
pg_status=0
PG_CONFIG=$(bash test/pg-build.sh "$pg" 2>"$log_dir/pg-build.err") || pg_status=$?
cat "$log_dir/pg-build.err" >&2
echo "phase=server $((SECONDS - phase_start))" >>"$record"
if ((pg_status != 0)); then
    if ((pg_status == 3)); then
        echo "status=unavailable" >>"$record"
        sed -n 's/^  /tried=/p' "$log_dir/pg-build.err" >>"$record"
    else
        echo "status=build_failed" >>"$record"
        grep -v '^  ' "$log_dir/pg-build.err" | tail -n 3 | sed 's/^/why=/' >>"$record"
    fi
    finish
    status=$?
    rm -rf "$log_dir"
    exit $status
fi

# A major tested in a root of its own (test/pg-build.sh --root): this pass
# runs again in there (test/lib/pg-root.sh), on the same checkout (and
# ../shared beside it) at the same path; the root's /tmp is a directory of
# $log_dir. Its record joins this one's: the header and the root's making
# stay ours.
if root=$(bash test/pg-build.sh --root "$pg"); then
    mkdir -m 1777 "$log_dir/root-tmp"
    root_env=(--env "CI=${CI:-}" --env IDGEN_RESULT_FILE=/tmp/record.env)
    while IFS= read -r var; do
        [[ $var =~ ^IDGEN_(RESULT_FILE|PG_CACHE|PG_SOURCES|APT_ETC)= ]] || root_env+=(--env "$var")
    done < <(env | grep -E '^IDGEN_[A-Z0-9_]*=')
    root_bind=(--bind "$PWD")
    [[ -d ../shared ]] && root_bind+=(--bind ../shared)
    echo "# PostgreSQL $pg runs in the root $root (test/lib/pg-root.sh)"
    bash test/lib/pg-root.sh "$root" "${root_bind[@]}" --tmp "$log_dir/root-tmp" --cwd "$PWD" \
        "${root_env[@]}" -- bash test/run-tests.sh --pg "$pg" --set "$set_name" ${only:+--only "$only"}
    status=$?
    [[ -f $log_dir/root-tmp/record.env ]] &&
        grep -vE '^(major|required|set|files)=|^phase=server ' "$log_dir/root-tmp/record.env" >>"$record"
    if [[ -z ${IDGEN_RESULT_FILE:-} ]]; then
        echo
        python3 test/matrix.py --ci "$ci" "$record"
        status=$?
    fi
    rm -rf "$log_dir"
    exit $status
fi
export PG_CONFIG
bash test/pg-build.sh --info "$pg" >"$log_dir/server.env" 2>&1
sed 's/^/# server: /' "$log_dir/server.env"
cat "$log_dir/server.env" >>"$record"
echo "status=tested" >>"$record"
source test/lib/cluster.sh
source test/lib/lib.sh

cleanup() {
    cluster_stop "$cluster_dir"
    rm -rf "$log_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# section NAME [HEADING]: starts phase NAME, timed until the next one.
phase_name=""
section() {
    end_phase
    phase_name=$1
    phase_start=$SECONDS
    printf '\n== %s\n' "${2:-$1}"
}

# end_phase: records the wall time of the phase that is running.
end_phase() {
    [[ -n $phase_name ]] && echo "phase=$phase_name $((SECONDS - phase_start))" >>"$record"
    phase_name=""
}

# count_tap FILE LABEL: adds a TAP log's ok / not ok / skip lines to the totals;
# each skip is recorded with LABEL and its reason.
# A log that cannot be counted is one failure.
count_tap() {
    local ok notok skips
    read -r ok notok skips < <(python3 test/matrix.py --count-tap "$1" --label "$2" --record "$record") ||
        { ok=0 notok=1 skips=0; }
    passed=$((passed + ok))
    failed=$((failed + notok))
    skipped=$((skipped + skips))
}

# The check inventory (test/inventory.py) that each test file is held to: a
# file that counts fewer checks on this major than the inventory holds for it
# (it stopped early, lost checks, or skipped for a reason the inventory does
# not allow it) fails by the difference (hold_to_inventory, test/lib/lib.sh).
inventory=${IDGEN_CHECK_INVENTORY:-test/data/check-inventory.tsv}

# Test files run side by side, one a core by default (IDGEN_TEST_JOBS), at
# most 4: most of a file's time is its servers starting, stopping and waiting
# out a lease or a timeout. They share one port-reservation directory
# (PostgreSQL::Test::Cluster's PG_TEST_PORT_DIR). These run alone:
# - the pairs that swap idgen's files in Debian's 15 for a package's and put
#   them back (every other file on 15 uses those files);
# - busy_machine, which loads every core on purpose.
test_jobs=${IDGEN_TEST_JOBS:-$(nproc)}
((test_jobs > 4)) && test_jobs=4
exclusive_tests=(packaging packaging_purge pgxn_dist pgxn_dist_reinstall pgxn_dist_restore busy_machine)
mkdir -p "$log_dir/portlock"
chown postgres: "$log_dir/portlock" 2>/dev/null

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

# run_tap_files FILE...: each a Perl TAP test of its own; a non-zero exit
# without a failed check is a failure too. Each starts its own servers through
# PostgreSQL::Test::Cluster and test/lib/IdgenTest.pm, as the unprivileged
# cluster owner (initdb refuses root). The files that must have the machine
# to themselves (exclusive_tests) run first, one at a time, in their order;
# then the others, up to $test_jobs at once, each printed whole when it ends.
run_tap_files() {
    local t
    local -a alone=() pooled=()
    local -A running=() started=()
    for t in "$@"; do
        if [[ " ${exclusive_tests[*]} " == *" $(test_name "$t") "* ]] || ((test_jobs < 2)); then
            alone+=("$t")
        else
            pooled+=("$t")
        fi
    done
    for t in "${alone[@]}"; do
        start_tap_file "$t"
        reap_tap_file
    done
    for t in "${pooled[@]}"; do
        while ((${#running[@]} >= test_jobs)); do reap_tap_file; done
        start_tap_file "$t"
    done
    while ((${#running[@]})); do reap_tap_file; done
}

# start_tap_file FILE: runs FILE in the background (run_tap_files' running
# and started).
start_tap_file() {
    mkdir -p "$log_dir/tap-out"
    started[$1]=$SECONDS
    run_perl_tap "$1" >"$log_dir/tap-out/$(test_name "$1").tap" 2>&1 &
    running[$!]=$1
}

# reap_tap_file: waits for one file of run_tap_files' running to end, prints
# its output and counts its checks.
reap_tap_file() {
    local pid status t out
    wait -n -p pid "${!running[@]}"
    status=$?
    t=${running[$pid]}
    unset "running[$pid]"
    out=$log_dir/tap-out/$(test_name "$t")
    echo "# $t"
    cat "$out.tap"
    echo "# $t took $((SECONDS - ${started[$t]})) s"
    count_tap "$out.tap" "$t"
    if [[ $status -ne 0 ]] && ! grep -q '^not ok ' "$out.tap"; then
        echo "not ok - $t exited with status $status"
        failed=$((failed + 1))
    fi
    hold_to_inventory "$inventory" "$pg" "$t" "$out.tap"
    failed=$((failed + held_missing))
}

# run_perl_tap FILE: one Perl TAP test, its servers' data and logs under
# $log_dir/tap (printed when it fails). What only root may do for it (dpkg,
# make install into Debian's 15, an old server built from ../shared/vendor's
# PostgreSQL) is test/lib/prepare/NAME.sh, run as root first;
# the test reads its exit status and log (IdgenTest::prepared) and reports
# them as checks. A preparation may print verdict lines (test/lib/verdicts.py)
# for what only root could check: IdgenTest::prepared_verdicts makes them
# checks of the test. One that leaves Debian's 15 changed (packaging,
# pgxn_dist) is undone by the preparation of the file that sorts after it
# (packaging_purge, pgxn_dist_restore), so --only must select both.
run_perl_tap() {
    local name tap_dir status prepare_status=none
    name=$(basename "$1" .pl)
    tap_dir=$log_dir/tap/$name
    mkdir -p "$tap_dir"
    if [[ -f test/lib/prepare/$name.sh ]]; then
        prepare_status=0
        bash "test/lib/prepare/$name.sh" >"$tap_dir/prepare.log" 2>&1 || prepare_status=$?
    fi
    chown -R postgres: "$log_dir/tap"
    # The tooling tier tests the suite's own tools and runs as the caller:
    # the server builds and the benchmark's memory cgroup it tests need root
    # (bench_memory_cap starts its server the benchmark's way, as root does).
    local as_owner=(runuser -u postgres --)
    [[ $1 == test/tooling/* ]] && as_owner=()
    "${as_owner[@]}" env PATH="$PATH" TESTDIR="$tap_dir" TESTDATADIR="$tap_dir/data" \
        TESTLOGDIR="$tap_dir/log" PG_CONFIG="$PG_CONFIG" PG_TEST_PORT_DIR="$log_dir/portlock" \
        IDGEN_PREPARE_STATUS="$prepare_status" IDGEN_PREPARE_LOG="$tap_dir/prepare.log" \
        perl -I "$("$PG_CONFIG" --pkglibdir)/pgxs/src/test/perl" -I test/lib "$1"
    status=$?
    if ((status != 0)); then
        for log in "$tap_dir"/log/* "$tap_dir"/tmp_check/log/*; do
            [[ -f $log ]] || continue
            echo "# --- $log (last 40 lines)"
            tail -n 40 "$log" | sed 's/^/# /'
        done
    fi
    return $status
}

section "idgen build" "build for PostgreSQL $("$PG_CONFIG" --version | cut -d' ' -f2) (-Werror, g++ and, where the server has JIT, clang bitcode)"
make -s clean >/dev/null 2>&1  # objects of another major must not be reused
if ! step "make" make -s -j"$test_jobs" WERROR=1; then
    end_phase
    finish
    exit
fi

# The unit tests and the fuzz targets link only src/core, so under --pg all
# they run in the first major's pass alone.
core_only_ran="# not run again: it does not depend on the PostgreSQL major and ran in an earlier pass"

core_only_not_in_set="# not in the server set: it does not depend on the PostgreSQL major"

section "unit tests" "core unit tests"
if [[ $set_name == server ]]; then
    echo "$core_only_not_in_set"
elif [[ -n ${IDGEN_SKIP_CORE_ONLY:-} ]]; then
    echo "$core_only_ran"
else
    make -s -j"$test_jobs" unit WERROR=1 >"$log_dir/unit.log" 2>&1
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
fi

section "fuzzing" "fuzzing the core parsers (libFuzzer, 10 s a target)"
if [[ $set_name == server ]]; then
    echo "$core_only_not_in_set"
elif [[ -n ${IDGEN_SKIP_CORE_ONLY:-} ]]; then
    echo "$core_only_ran"
elif step "build the fuzz targets" make -s -j"$test_jobs" fuzz-build WERROR=1; then
    # A regression run from the seed corpora (a few hundred thousand to a few
    # million inputs a target); `make fuzz`'s longer runs search for new bugs.
    FUZZ_JOBS=$test_jobs perl test/fuzz/run.pl 10 >"$log_dir/fuzz.tap" 2>&1
    cat "$log_dir/fuzz.tap"
    count_tap "$log_dir/fuzz.tap" test/fuzz
fi

section "build checks"
run_tap_files test/tap/build_checks.pl

section "cluster start" "install and start a throwaway cluster"
if ! step "make install" make -s install || \
   ! step "start PostgreSQL with shared_preload_libraries = 'idgen'" \
        cluster_start "$cluster_dir" "shared_preload_libraries = 'idgen'" "fsync = off"; then
    end_phase
    finish
    exit
fi

section "pg_regress"
make -s installcheck TAP_TESTS= >"$log_dir/regress.log" 2>&1
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

# The test files of every tier in one pool, the longest tiers first so that
# the pool ends on short files: integration with other systems, the client
# packages and frameworks, the extension's own TAP tests, the suite's tools.
section "tests" "the test files (test/integration, its clients, test/tap, test/tooling; set $set_name), $test_jobs at a time"
mapfile -t tap_files < <(
    all=$(test_files "$set_name")
    grep -E '^test/integration/[^/]*$' <<<"$all"
    grep '^test/integration/clients/' <<<"$all"
    grep '^test/tap/' <<<"$all"
    grep '^test/tooling/' <<<"$all"
)
run_tap_files "${tap_files[@]}"

if [[ $set_name == full && -z $only && $pg == "$newest_major" ]]; then
    section "benchmark" "benchmark quick mode (checks that it runs, asserts no timing)"
    # Its own throwaway cluster (part 6 restarts it in a memory cgroup), then
    # the test cluster as a server of the user's (IDGEN_BENCH_EXISTING=1).
    step "test/bench/bench.sh --quick" bash test/bench/bench.sh --quick
    # One rep: the run before it already went through every rep loop.
    step "test/bench/bench.sh --quick on an existing server" env IDGEN_BENCH_EXISTING=1 bash test/bench/bench.sh --quick --reps 1
fi
end_phase

finish
