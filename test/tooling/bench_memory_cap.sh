#!/usr/bin/env bash
# The benchmark's memory cap (test/bench/memory_cap.sh): without a cgroup
# controller it declines with a reason; with one, a server started inside it
# keeps its backends inside, writing a table larger than the cap makes the
# kernel reclaim the server's page cache (the point of the cap), and removal
# leaves no cgroup behind. bench.sh refuses a malformed --scale-memory.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source test/lib/lib.sh
source test/lib/cluster.sh
source test/bench/memory_cap.sh

dir=$(mktemp -d /tmp/idgen-memcap.XXXXXX)
no_cgroups=$(mktemp -d /tmp/idgen-nocgroup.XXXXXX)
trap 'cluster_stop "$dir"; memory_cap_remove; rm -rf "$no_cgroups"' EXIT

# Declines where no memory controller is mounted.
saved_root=$MEMORY_CAP_ROOT
MEMORY_CAP_ROOT=$no_cgroups
memory_cap_create idgen-test 67108864
is "memory_cap_create fails without a memory controller" "$?" 1
is "it gives the reason" "$MEMORY_CAP_REASON" "no cgroup memory controller under $no_cgroups"
is "it leaves no cgroup directory" "$MEMORY_CAP_DIR" ""

# Under cgroup v2 (imitated by plain files, as a v2 mount shows them), the
# controller must be enabled for child cgroups; when it is, the cap becomes
# memory.max of a cgroup made there.
echo "cpu io memory pids" >"$no_cgroups/cgroup.controllers"
echo "cpu io" >"$no_cgroups/cgroup.subtree_control"
memory_cap_create idgen-test 67108864
is "v2: memory_cap_create fails when memory is not enabled for children" "$?" 1
is "v2: it gives the reason" "$MEMORY_CAP_REASON" "the memory controller is not enabled for the cgroups under $no_cgroups"
echo "cpu io memory" >"$no_cgroups/cgroup.subtree_control"
memory_cap_create idgen-test 67108864
is "v2: memory_cap_create succeeds when it is" "$?" 0
is "v2: the cgroup is v2" "$MEMORY_CAP_KIND" v2
is "v2: memory.max is the cap" "$(cat "$no_cgroups/idgen-test/memory.max" 2>&1)" 67108864
MEMORY_CAP_DIR=""  # a plain directory, removed with the rest below
MEMORY_CAP_ROOT=$saved_root

# bench.sh refuses a malformed cap before it starts anything.
for bad in 128 12XB 0MB -1GB ""; do
    out=$(bash test/bench/bench.sh --scale-memory "$bad" 2>&1)
    status=$?
    check "bench.sh --scale-memory '$bad' exits 1" test "$status" -eq 1
    check "bench.sh --scale-memory '$bad' says what it needs" grep -q "needs a size such as 128MB, or off" <<<"$out"
done

cap_bytes=$((64 * 1048576))
if ! memory_cap_create "idgen-test-$$" "$cap_bytes"; then
    echo "# no memory cgroup on this machine ($MEMORY_CAP_REASON): the capped-server checks do not run"
    tap_done
fi

limit_file=$MEMORY_CAP_DIR/memory.limit_in_bytes
[[ $MEMORY_CAP_KIND == v2 ]] && limit_file=$MEMORY_CAP_DIR/memory.max
is "the cgroup's limit is the cap" "$(cat "$limit_file")" "$cap_bytes"

# As bench.sh does: a cluster started as usual, restarted inside the cap.
cluster_start "$dir" "shared_buffers = '16MB'" "fsync = off" || exit 1
memory_cap_run cluster_restart "$dir" || exit 1
postmaster=$(head -1 "$dir/data/postmaster.pid")
check "the postmaster runs inside the cgroup" memory_cap_holds "$postmaster"
# A backend exits with its session, so it reports its own cgroup.
check "a backend it forks runs inside the cgroup" \
    grep -q "/${MEMORY_CAP_DIR##*/}\$" <<<"$(q "SELECT pg_read_file('/proc/self/cgroup')")"
check "this test's own shell does not" test "$(memory_cap_holds "$$" && echo inside)" = ""

# A table of about 100MB passes through the page cache; under a 64MB cap the
# kernel must reclaim as it goes, which it records as the limit being hit.
limit_hits() {
    if [[ $MEMORY_CAP_KIND == v2 ]]; then
        awk '$1 == "max" { print $2 }' "$MEMORY_CAP_DIR/memory.events"
    else
        cat "$MEMORY_CAP_DIR/memory.failcnt"
    fi
}
hits_before=$(limit_hits)
q "CREATE TABLE filler AS SELECT g, repeat('x', 200) AS pad FROM generate_series(1, 400000) g" >/dev/null
q "SELECT count(*) FROM filler" >/dev/null
check "the table is larger than the cap" test "$(q "SELECT pg_total_relation_size('filler')")" -gt "$cap_bytes"
hits=$(($(limit_hits) - hits_before))
check "writing and reading it held the server at the cap ($hits times)" test "$hits" -gt 0
check "the server still answers" test "$(q "SELECT count(*) FROM filler")" -eq 400000

cluster_stop "$dir"
cgroup=$MEMORY_CAP_DIR
check "memory_cap_remove succeeds once the server has stopped" memory_cap_remove
check "the cgroup directory is gone" test ! -e "$cgroup"
tap_done
