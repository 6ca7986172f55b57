# Caps the memory of a throwaway server, the OS page cache of its files
# included, with a Linux memory cgroup (v2, or v1's memory controller). A
# machine with gigabytes of RAM keeps a few hundred MB of tables in the page
# cache, so a read that misses shared_buffers costs a memory copy; under a cap
# smaller than the tables it costs a disk read, as on a server whose indexes
# have outgrown its RAM. Source it, then:
#   memory_cap_create NAME BYTES   make the cgroup (returns 1 and sets
#                                  MEMORY_CAP_REASON when it cannot)
#   memory_cap_run COMMAND...      run COMMAND inside it; what COMMAND starts
#                                  (a postmaster and its backends) stays inside
#   memory_cap_holds PID           whether PID is inside it
#   memory_cap_remove              remove it once its processes have ended
# MEMORY_CAP_ROOT (default /sys/fs/cgroup) is where cgroups are mounted.
# shellcheck shell=bash disable=SC2034 # the MEMORY_CAP_* results are read by the sourcing script

MEMORY_CAP_ROOT="${MEMORY_CAP_ROOT:-/sys/fs/cgroup}"
MEMORY_CAP_DIR=""     # the cgroup's directory, once created
MEMORY_CAP_KIND=""    # v1 or v2
MEMORY_CAP_REASON=""  # why no cgroup could be made

# memory_cap_create NAME BYTES: a cgroup NAME limited to BYTES, without swap.
# It is made inside the cgroup this shell runs in, so whatever limits the
# machine already puts on the caller still hold for the server. Under v2 a
# cgroup that holds processes cannot pass the memory controller on (v2's "no
# internal processes" rule), so there it is made under the root of the
# hierarchy this shell sees, as systemd-run makes its transient scopes.
memory_cap_create() {
    local name=$1 bytes=$2 parent own
    MEMORY_CAP_DIR="" MEMORY_CAP_KIND="" MEMORY_CAP_REASON=""
    if [[ -f $MEMORY_CAP_ROOT/cgroup.controllers ]]; then
        MEMORY_CAP_KIND=v2
        own=$MEMORY_CAP_ROOT$(sed -n 's/^0:://p' /proc/self/cgroup)
        for parent in "$own" "$MEMORY_CAP_ROOT"; do
            grep -qw memory "$parent/cgroup.subtree_control" 2>/dev/null && break
            parent=""
        done
        if [[ -z $parent ]]; then
            MEMORY_CAP_REASON="the memory controller is not enabled for the cgroups under $MEMORY_CAP_ROOT"
            return 1
        fi
    elif [[ -f $MEMORY_CAP_ROOT/memory/memory.limit_in_bytes ]]; then
        MEMORY_CAP_KIND=v1
        parent=$MEMORY_CAP_ROOT/memory$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
    else
        MEMORY_CAP_REASON="no cgroup memory controller under $MEMORY_CAP_ROOT"
        return 1
    fi
    parent=${parent%/}
    if ! mkdir "$parent/$name" 2>/dev/null; then
        MEMORY_CAP_REASON="cannot create the cgroup $parent/$name (creating cgroups needs root)"
        return 1
    fi
    MEMORY_CAP_DIR=$parent/$name
    # Without swap off, the cap would push shared_buffers out to swap instead
    # of limiting the page cache; a machine without swap refuses neither.
    if [[ $MEMORY_CAP_KIND == v2 ]]; then
        echo "$bytes" >"$MEMORY_CAP_DIR/memory.max" &&
            { [[ ! -f $MEMORY_CAP_DIR/memory.swap.max ]] || echo 0 >"$MEMORY_CAP_DIR/memory.swap.max"; }
    else
        echo "$bytes" >"$MEMORY_CAP_DIR/memory.limit_in_bytes" &&
            echo 0 >"$MEMORY_CAP_DIR/memory.swappiness"
    fi 2>/dev/null || {
        MEMORY_CAP_REASON="cannot set the limit of $MEMORY_CAP_DIR"
        memory_cap_remove
        return 1
    }
    memory_cap_run true 2>/dev/null || {
        MEMORY_CAP_REASON="cannot move a process into $MEMORY_CAP_DIR"
        memory_cap_remove
        return 1
    }
}

# memory_cap_run COMMAND...: runs COMMAND (a function or a program) in a
# subshell that first moves itself into the cgroup; children inherit it.
memory_cap_run() {
    (
        echo "$BASHPID" >"$MEMORY_CAP_DIR/cgroup.procs" || exit 1
        "$@"
    )
}

# memory_cap_holds PID: true when PID is a member of the cgroup.
memory_cap_holds() {
    [[ -n $MEMORY_CAP_DIR ]] && grep -qx "$1" "$MEMORY_CAP_DIR/cgroup.procs"
}

# memory_cap_remove: removes the cgroup. Its processes exit a moment after a
# server stops, so an empty cgroup is waited for (5 s at most); the page cache
# it charged passes to the parent.
memory_cap_remove() {
    [[ -n $MEMORY_CAP_DIR ]] || return 0
    local tries
    for tries in $(seq 50); do
        rmdir "$MEMORY_CAP_DIR" 2>/dev/null && { MEMORY_CAP_DIR=""; return 0; }
        sleep 0.1
    done
    echo "memory_cap: could not remove $MEMORY_CAP_DIR after $tries tries" >&2
    return 1
}
