# Throwaway PostgreSQL clusters for tests, the demo and benchmarks. Source it,
# then: cluster_start DIR [postgresql.conf lines...]; cluster_stop DIR.
# As root, the server runs as the unprivileged 'postgres' user (initdb refuses
# root). Sets PGHOST, PGPORT, PGUSER and PGDATABASE for psql and friends.
# CLUSTER_ENV, if set, holds VAR=value words for the server's environment
# (the clock tests preload libfaketime this way).

# PG_CONFIG names the server to use (test/run-tests.sh --pg N sets it from
# test/pg-build.sh); Debian's PostgreSQL 15 otherwise.
export PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"
PG_BIN=$("$PG_CONFIG" --bindir)
PG_MAJOR=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
export PATH="$PG_BIN:$PATH"

# Runs a command as the user who owns clusters.
as_cluster_owner() {
    # shellcheck disable=SC2086 # CLUSTER_ENV is a list of words on purpose
    if [[ $EUID -eq 0 ]]; then
        runuser -u postgres -- env ${CLUSTER_ENV:-} "$@"
    else
        env ${CLUSTER_ENV:-} "$@"
    fi
}

# Prints a TCP port on 127.0.0.1 that nothing listens on.
free_port() {
    local port
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 20000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    echo "no free port found" >&2
    return 1
}

# cluster_start DIR [conf lines]: initdb in DIR/data, start on a free port.
cluster_start() {
    local dir=$1
    shift
    mkdir -p "$dir"
    [[ $EUID -eq 0 ]] && chown postgres: "$dir"
    as_cluster_owner initdb -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        return 1
    }
    local port
    port=$(free_port)
    {
        echo "port = $port"
        echo "listen_addresses = '127.0.0.1'"
        echo "unix_socket_directories = '$dir'"
        echo "max_connections = 40"
        for line in "$@"; do echo "$line"; done
    } >>"$dir/data/postgresql.conf"
    as_cluster_owner pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null || {
        cat "$dir/server.log" >&2
        return 1
    }
    export PGHOST="$dir" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
}

# cluster_restart DIR [pg_ctl stop mode]: stop (fast or immediate) and start again.
cluster_restart() {
    local dir=$1 mode=${2:-fast}
    as_cluster_owner pg_ctl -D "$dir/data" -m "$mode" -w stop >/dev/null
    as_cluster_owner pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
}

# cluster_stop DIR: stop the server if it runs, and remove DIR.
cluster_stop() {
    local dir=$1
    [[ -n $dir && -d $dir ]] || return 0
    if [[ -f $dir/data/postmaster.pid ]]; then
        as_cluster_owner pg_ctl -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
}

# use_fake_clock DIR: servers started from now on read a clock that
# set_clock_offset moves (libfaketime from the Debian package faketime,
# preloaded into the server only; the offset file lives in DIR).
use_fake_clock() {
    local lib
    lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1)
    [[ -n $lib ]] || return 1
    CLOCK_OFFSET_FILE="$1/clock-offset"
    set_clock_offset "+0"
    CLUSTER_ENV="LD_PRELOAD=$lib FAKETIME_TIMESTAMP_FILE=$CLOCK_OFFSET_FILE FAKETIME_NO_CACHE=1 FAKETIME_DONT_FAKE_MONOTONIC=1"
}

# set_clock_offset OFFSET: moves the fake clock, e.g. "-30" (seconds) or "+0".
# Renamed into place: the server reads the file at every clock call, and a
# process that reads it empty mid-rewrite can exit (IdgenTest's set_clock_offset).
set_clock_offset() {
    echo "$1" >"$CLOCK_OFFSET_FILE.new"
    chmod 644 "$CLOCK_OFFSET_FILE.new"
    mv -f "$CLOCK_OFFSET_FILE.new" "$CLOCK_OFFSET_FILE"
}
