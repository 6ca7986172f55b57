#!/usr/bin/env bash
# idgen under Patroni (issue 24): one etcd member and three Patroni members on
# 127.0.0.1 (Debian 12's patroni 3.0.2 and etcd-server 3.4.23, PostgreSQL 15),
# idgen in shared_preload_libraries through Patroni's configuration,
# synchronous_mode, use_pg_rewind. Clients (test/lib/ha_patroni.py load) insert
# rows keyed by snowflake(), snowflake53(), uuid_v7(), ulid() and a prefixed
# type through a multi-host connection string with
# target_session_attrs=read-write, reconnecting when their connection breaks.
# Under that load:
#  1. a planned switchover (patronictl switchover);
#  2. a failover: kill -9 of the leader's postmaster (primary_start_timeout: 0,
#     so Patroni fails over instead of restarting it in place);
#  3. a failover to a member whose clock runs 40 s behind (libfaketime, more
#     than the whole load lasts).
# After each: a new leader within the bound, every client committing on it,
# and (test/lib/ha_patroni.py judge, at the end) every committed row present
# once, no duplicate ID in any family, every snowflake minted after the event
# above every one minted before it; the old leader rejoins as a streaming
# replica (rewound by pg_rewind where it had diverged) without a manual step.
# Before the load: a fourth member whose configuration lacks idgen in
# shared_preload_libraries stops at the first lease record it replays.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

if [[ $PG_MAJOR != 15 || $("$PG_CONFIG" --version) != *"(Debian "* ]]; then
    echo "ok 1 # skip measured on Debian's PostgreSQL 15 only: Debian 12's patroni 3.0.2 is not tried with PostgreSQL $PG_MAJOR ($PG_CONFIG)"
    exit 0
fi
if [[ $EUID -ne 0 ]]; then
    echo "ok 1 # skip needs root (to install patroni and etcd-server and to run the servers as postgres)"
    exit 0
fi

# --- packages, and no system service of theirs -------------------------------
if ! command -v patroni >/dev/null || ! [[ -x /usr/bin/etcd ]]; then
    bash test/setup.sh patroni etcd-server >/dev/null || { echo "not ok 1 - test/setup.sh patroni etcd-server"; exit 1; }
fi
# The packages enable (and where services may start, start) etcd and patroni
# as system services: this test runs its own on ports of its own, and leaves
# none behind.
for service in etcd patroni; do
    if [[ -d /run/systemd/system ]]; then
        systemctl disable --now "$service.service" >/dev/null 2>&1
    else
        [[ -x /etc/init.d/$service ]] && /etc/init.d/$service stop >/dev/null 2>&1
        command -v deb-systemd-helper >/dev/null && deb-systemd-helper disable "$service.service" >/dev/null 2>&1
    fi
    [[ -x /etc/init.d/$service ]] && update-rc.d "$service" disable >/dev/null 2>&1
done
faketime_lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1)
if [[ -z $faketime_lib ]]; then
    echo "not ok 1 - libfaketime is installed (package faketime)"
    exit 1
fi
# enabled_services: the etcd or patroni system services still enabled, one a line.
enabled_services() {
    ls /etc/rc[2-5].d/ 2>/dev/null | grep -E '^S[0-9]+(etcd|patroni)$'
    ls /etc/systemd/system/*.wants/ 2>/dev/null | grep -E '^(etcd|patroni)(@.*)?\.service$'
}
is "no etcd or patroni system service is left enabled by the packages" "$(enabled_services | sort -u | tr '\n' ' ')" ""

dir=$(mktemp -d /tmp/idgen-ha.XXXXXX)
chmod 755 "$dir"
chown postgres: "$dir"
started=()  # pids (each its own process group) of etcd, Patroni and the load

teardown() {
    local pid n
    touch "$dir/stop" 2>/dev/null
    # HA_PATRONI_KEEP_LOGS=DIR keeps every log for a look after the run.
    if [[ -n ${HA_PATRONI_KEEP_LOGS:-} ]]; then
        mkdir -p "$HA_PATRONI_KEEP_LOGS"
        (cd "$dir" && cp --parents -r etcd.log load.log events.tsv client-*.log n?/patroni.log n?/log "$HA_PATRONI_KEEP_LOGS/") 2>/dev/null
    fi
    # Patroni first, so that it restarts nothing; then each PostgreSQL by its
    # postmaster.pid; etcd last.
    for pid in "${started[@]:1}"; do kill -9 -- "-$pid" 2>/dev/null || kill -9 "$pid" 2>/dev/null; done
    for n in n1 n2 n3 n4; do
        [[ -f $dir/$n/data/postmaster.pid ]] &&
            runuser -u postgres -- pg_ctl -D "$dir/$n/data" -m immediate -w -t 10 stop >/dev/null 2>&1
    done
    [[ -n ${started[0]:-} ]] && kill -9 -- "-${started[0]}" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$dir"
}
trap teardown EXIT
trap 'exit 130' INT TERM

# run_as_postgres LOG COMMAND...: COMMAND as postgres, in a process group of
# its own (setsid execs it, so $! is its pid and its group), in the background.
run_as_postgres() {
    local log=$1
    shift
    setsid setpriv --reuid=postgres --regid=postgres --init-groups env HOME="$dir" "$@" >"$log" 2>&1 &
    started+=($!)
    disown $!  # killed by teardown, without a notice
}

py() { /usr/bin/python3 test/lib/ha_patroni.py "$@"; }
judge() { tap_verdicts ha_patroni.py py "$@"; }  # the verdicts of test/lib/ha_patroni.py as TAP lines
now() { echo "${EPOCHREALTIME}"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# --- etcd --------------------------------------------------------------------
etcd_client=$(free_port) && etcd_peer=$(free_port) || exit 1
run_as_postgres "$dir/etcd.log" /usr/bin/etcd --name e1 --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
    --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
    --initial-cluster "e1=http://127.0.0.1:$etcd_peer"
etcd_up() { curl -fsS "http://127.0.0.1:$etcd_client/health" | grep -q '"health":"true"'; }
check "etcd answers on 127.0.0.1:$etcd_client" wait_until 100 etcd_up || { cat "$dir/etcd.log"; exit 1; }

# --- Patroni -----------------------------------------------------------------
# Each member's bin_dir holds links to the server's programs, but "postgres"
# starts the server under libfaketime, reading the member's own offset file
# (cached 1 s); Patroni itself keeps the real clock.
declare -A pg_port rest_port
members=(n1 n2 n3)
# write_member NAME [PRELOAD [TAGS]]: NAME's directory, bin_dir and patroni.yml;
# PRELOAD, if given, overrides the cluster's shared_preload_libraries in the
# member's own file.
write_member() {
    local n=$1 preload_line="" tags=${3:-} f
    [[ -n ${2+set} ]] && preload_line="shared_preload_libraries: '$2'"
    pg_port[$n]=$(free_port) && rest_port[$n]=$(free_port) || return 1
    mkdir -p "$dir/$n/bin" "$dir/$n/log"
    for f in "$PG_BIN"/*; do ln -sf "$f" "$dir/$n/bin/"; done
    rm -f "$dir/$n/bin/postgres"
    echo "+0" >"$dir/$n/clock-offset"
    cat >"$dir/$n/bin/postgres" <<SH
#!/bin/sh
LD_PRELOAD=$faketime_lib FAKETIME_TIMESTAMP_FILE=$dir/$n/clock-offset FAKETIME_CACHE_DURATION=1 \\
FAKETIME_DONT_FAKE_MONOTONIC=1 exec $PG_BIN/postgres "\$@"
SH
    chmod 755 "$dir/$n/bin/postgres"
    chmod 644 "$dir/$n/clock-offset"
    cat >"$dir/$n/patroni.yml" <<YAML
scope: idgen-ha
name: $n
restapi:
  listen: 127.0.0.1:${rest_port[$n]}
  connect_address: 127.0.0.1:${rest_port[$n]}
etcd3:
  hosts: 127.0.0.1:$etcd_client
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 3
    primary_start_timeout: 0
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        shared_preload_libraries: idgen
        idgen.shard_id: 1
        idgen.max_clock_regression: 90s
        wal_log_hints: 'on'
        fsync: 'off'
        max_connections: 40
        wal_keep_size: 256MB
  initdb:
  - encoding: UTF8
  - auth: trust
  pg_hba:
  - local all all trust
  - host all all 127.0.0.1/32 trust
  - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${pg_port[$n]}
  connect_address: 127.0.0.1:${pg_port[$n]}
  data_dir: $dir/$n/data
  bin_dir: $dir/$n/bin
  pgpass: $dir/$n/pgpass
  authentication:
    superuser:
      username: postgres
    replication:
      username: postgres
    rewind:
      username: postgres
  basebackup:
  - checkpoint: fast
  parameters:
    unix_socket_directories: $dir/$n
    $preload_line
    logging_collector: 'on'
    log_directory: $dir/$n/log
    log_filename: postgresql.log
    log_line_prefix: '%m [%p] '
tags: {$tags}
YAML
    chown -R postgres: "$dir/$n"
}
start_member() { run_as_postgres "$dir/$1/patroni.log" patroni "$dir/$1/patroni.yml"; }

for n in "${members[@]}"; do write_member "$n" || exit 1; done
rest_ports=$(IFS=,; echo "${rest_port[*]}")
conninfo="host=127.0.0.1,127.0.0.1,127.0.0.1 port=${pg_port[n1]},${pg_port[n2]},${pg_port[n3]} user=postgres dbname=postgres target_session_attrs=read-write connect_timeout=2"
for n in "${members[@]}"; do start_member "$n"; done

members_now() { py cluster --rest-ports "$rest_ports"; }
leader() { members_now | awk -F'\t' '$2 == "leader" && $3 == "running" { print $1 }'; }
sync_standby() { members_now | awk -F'\t' '$2 == "sync_standby" { print $1 }'; }
on() { local n=$1; shift; PGHOST=127.0.0.1 PGPORT=${pg_port[$n]} PGUSER=postgres PGDATABASE=postgres "$@"; }
# streaming NAME LEADER: NAME is in recovery, its WAL receiver streams, and
# LEADER lists it in pg_stat_replication as streaming.
streaming() {
    [[ $(on "$1" q "SELECT pg_is_in_recovery() AND status = 'streaming' FROM pg_stat_wal_receiver") == t ]] &&
        [[ $(on "$2" q "SELECT count(*) FROM pg_stat_replication WHERE application_name = '$1' AND state = 'streaming'") == 1 ]]
}
# cluster_ready: a leader that accepts writes, and the other two streaming from it.
cluster_ready() {
    local l m
    l=$(leader)
    [[ -n $l ]] && [[ $(on "$l" q "SELECT NOT pg_is_in_recovery()") == t ]] || return 1
    for m in "${members[@]}"; do
        [[ $m == "$l" ]] || streaming "$m" "$l" || return 1
    done
}
setup_start=$(now)
if ! check "a leader and two streaming replicas within 120 s" wait_until 600 cluster_ready; then
    for n in "${members[@]}"; do echo "# $n:"; tail -n 20 "$dir/$n/patroni.log" | sed 's/^/#   /'; done
    exit 1
fi
echo "# the cluster was ready $(elapsed "$setup_start" "$(now)") s after Patroni started"
members_now | sed 's/^/# member: /'
l0=$(leader)
is "shared_preload_libraries from Patroni's configuration includes idgen on the leader" \
    "$(on "$l0" q "SHOW shared_preload_libraries")" idgen
on "$l0" psql -XAtq -v ON_ERROR_STOP=1 >/dev/null <<'SQL' || { echo "not ok - schema"; exit 1; }
CREATE EXTENSION idgen;
SELECT prefixed_id_define('order_id', 'ord');
CREATE TABLE ha_rows (client int NOT NULL, seq int NOT NULL, tli int NOT NULL, sf bigint NOT NULL,
    sf53 bigint NOT NULL, u uuid NOT NULL, l ulid NOT NULL, p order_id NOT NULL,
    t timestamptz NOT NULL DEFAULT clock_timestamp());
SQL

# --- a replica configured without idgen in shared_preload_libraries -----------
# The operator's likely mistake: one member's own patroni.yml overrides the
# parameter and leaves idgen out. It clones and streams until the leader writes
# its first lease record (the first snowflake), then stops at that record.
write_member n4 "" "nofailover: true, nosync: true, noloadbalance: true" || exit 1
start_member n4
n4_patroni=${started[-1]}
check "n4 (shared_preload_libraries = '' in its patroni.yml) clones and streams" wait_until 300 streaming n4 "$l0"
is "n4 runs without idgen" "$(on n4 q "SHOW shared_preload_libraries")" ""
on "$l0" q "SELECT snowflake()" >/dev/null
n4_stopped() { grep -q 'FATAL:  resource manager with ID 173 not registered' "$dir/n4/log/postgresql.log"; }
check "n4 stops at the first lease record: 'FATAL:  resource manager with ID 173 not registered'" wait_until 100 n4_stopped
grep -m 4 -E 'ID 173|HINT|CONTEXT|shutting down due' "$dir/n4/log/postgresql.log" | sed 's/^/# n4: /'
check "the log says what to do: include the module in shared_preload_libraries" \
    grep -q 'HINT:  Include the extension module that implements this resource manager in shared_preload_libraries.' \
    "$dir/n4/log/postgresql.log"
check "n4's server shuts down: 'shutting down due to startup process failure'" \
    grep -q 'LOG:  shutting down due to startup process failure' "$dir/n4/log/postgresql.log"
check "the leader and the two other replicas are unaffected" cluster_ready
# The cure: idgen in n4's shared_preload_libraries, and its Patroni restarted
# (stopped with whatever server it was restarting, then started).
stop_n4() {
    kill -9 -- "-$n4_patroni" 2>/dev/null
    runuser -u postgres -- pg_ctl -D "$dir/n4/data" -m immediate -w -t 10 stop >/dev/null 2>&1
}
stop_n4
sed -i "s/shared_preload_libraries: ''/shared_preload_libraries: 'idgen'/" "$dir/n4/patroni.yml"
start_member n4
n4_patroni=${started[-1]}
check "with idgen added to its patroni.yml and its Patroni restarted, n4 replays the lease record and streams again" \
    wait_until 300 streaming n4 "$l0"
stop_n4

# --- load and events -----------------------------------------------------------
clients=4
phase=6        # seconds of load before the first event, between events, after the last
bound=30       # seconds within which a new leader must accept writes
setback=40     # seconds the third event's new leader's clock runs behind (the whole load lasts less)
: >"$dir/events.tsv"
chown postgres: "$dir/events.tsv"
load_start=$(now)
/usr/bin/python3 test/lib/ha_patroni.py load --dir "$dir" --conninfo "$conninfo" --clients "$clients" \
    --seconds 200 --stop "$dir/stop" >"$dir/load.log" 2>&1 &
load_pid=$!
started+=("$load_pid")

# writable NAME: NAME is Patroni's leader and accepts writes.
writable() { [[ $(leader) == "$1" && $(on "$1" q "SELECT NOT pg_is_in_recovery()") == t ]]; }

# has_sync_standby: Patroni names a synchronous standby, and the leader's
# pg_stat_replication shows it as one.
has_sync_standby() {
    local l s
    l=$(leader) s=$(sync_standby)
    [[ -n $l && -n $s ]] &&
        [[ $(on "$l" q "SELECT sync_state FROM pg_stat_replication WHERE application_name = '$s'") == sync ]]
}

# event NAME ACTION: runs ACTION (a function of OLD and NEW) against the
# leader and its synchronous standby, then checks that the standby became the
# leader within the bound and that the old leader streams from it again.
event() {
    local name=$1 action=$2 old new t0 t1 line
    wait_until 100 has_sync_standby
    old=$(leader) new=$(sync_standby)
    event_old=$old
    if [[ -z $old || -z $new ]]; then
        check "$name: a leader and a synchronous standby before the event (got '$old', '$new')" false
        return 1
    fi
    line=$(($(wc -l <"$dir/$old/patroni.log") + 1))
    event_line=$line
    t0=$(now)
    printf '%s\t%s\t%s\t%s\n' "$name" "$t0" "$old" "$new" >>"$dir/events.tsv"
    "$action" "$old" "$new"
    if check "$name: $new (the synchronous standby) leads and accepts writes within $bound s" \
        wait_until $((bound * 5)) writable "$new"; then
        t1=$(now)
        echo "# FIGURE $name: $old -> $new, Patroni's new leader accepted writes $(elapsed "$t0" "$t1") s after the event"
        echo "# $name: synchronous_standby_names on $new then: '$(on "$new" q "SHOW synchronous_standby_names")'"
    fi
    check "$name: $old, the old leader, streams from $new again without a manual step" \
        wait_until 600 streaming "$old" "$new"
    echo "# $name: $old is streaming again $(elapsed "$t0" "$(now)") s after the event"
    tail -n +"$line" "$dir/$old/patroni.log" | grep -E 'pg_rewind|crash recovery|Local timeline' |
        sed -E "s/^[0-9-]+ [0-9:,]+ INFO: //; s/^/# $name: $old's Patroni: /" | sort -u
    sleep "$phase"
}

do_switchover() {
    patronictl -c "$dir/$1/patroni.yml" switchover --leader "$1" --candidate "$2" --force >"$dir/switchover.log" 2>&1 ||
        sed 's/^/# patronictl: /' "$dir/switchover.log"
}
kill_postmaster() { kill -9 "$(head -n 1 "$dir/$1/data/postmaster.pid")"; }
# diverge_and_kill OLD: OLD's WAL senders are stopped (SIGSTOP), OLD commits a
# transaction with synchronous_commit = local that no replica receives, and then
# its postmaster and WAL senders are killed: OLD's WAL has gone past the point
# where the new leader's timeline begins, so it can only rejoin through pg_rewind.
# Every other process of OLD is killed with them, as in a machine failure: a
# WAL sender stopped while it held SyncRepLock would otherwise leave the
# backends waiting for synchronous replication blocked on that lock for good,
# attached to OLD's shared memory, and OLD could never start again (seen once:
# "pre-existing shared memory block ... is still in use").
diverge_and_kill() {
    local senders postmaster children
    senders=$(on "$1" q "SELECT pid FROM pg_stat_replication")
    postmaster=$(head -n 1 "$dir/$1/data/postmaster.pid")
    # shellcheck disable=SC2086 # one pid a word
    kill -STOP $senders
    on "$1" q "SET synchronous_commit = local; CREATE TABLE diverged AS SELECT g FROM generate_series(1, 1000) g"
    children=$(pgrep -P "$postmaster")
    kill -9 "$postmaster"
    # shellcheck disable=SC2086
    kill -9 $senders $children 2>/dev/null
}
# clock_behind NAME SECONDS: NAME's server clock is that far behind this shell's.
clock_behind() {
    [[ $(on "$1" q "SELECT abs(extract(epoch FROM clock_timestamp()) - $(date +%s.%N) + $2) < 1.5") == t ]]
}
set_back_and_kill() {
    echo "-$setback" >"$dir/$2/clock-offset"
    check "$2's server clock runs $setback s behind" wait_until 25 clock_behind "$2" "$setback"
    kill_postmaster "$1"
}

sleep "$phase"
event "switchover" do_switchover
rewind_event="failover (kill -9 of the leader's postmaster, its last WAL never sent)"
event "$rewind_event" diverge_and_kill
rewound=$event_old
check "$rewind_event: Patroni ran pg_rewind on $rewound, with success" \
    sh -c "tail -n +$event_line '$dir/$rewound/patroni.log' | grep -q 'pg_rewind exit code=0'"
is "$rewind_event: the transaction $rewound alone had committed is gone from it" \
    "$(on "$rewound" q "SELECT to_regclass('diverged') IS NULL")" t
event "failover to a server whose clock runs $setback s behind" set_back_and_kill
touch "$dir/stop"
# A client whose statement never returns (a server wedged after a failure)
# would hold the run forever: the load gets 60 s to stop, then it is killed.
load_stopped() { ! kill -0 "$load_pid" 2>/dev/null; }
check "every load client stops within 60 s of the stop file" wait_until 300 load_stopped ||
    kill -9 "$load_pid" 2>/dev/null
wait "$load_pid"
echo "# the load ran $(elapsed "$load_start" "$(now)") s"
final=$(leader)
on "$final" q "COPY (SELECT client, seq, tli, sf, sf53, u, l, p FROM ha_rows) TO STDOUT" >"$dir/table.tsv"
judge judge --dir "$dir" --clients "$clients" --bound "$bound" --window 4
lead=$(on "$final" q "SELECT round(extract(epoch FROM snowflake_time(sf) - t)) FROM ha_rows
                     WHERE tli = (SELECT max(tli) FROM ha_rows) ORDER BY sf LIMIT 1")
echo "# FIGURE the last leader's first snowflake carries a time $lead s ahead of its own clock (set $setback s back)"
members_now | sed 's/^/# member at the end: /'
echo "# ha_patroni.sh ran $SECONDS s before its teardown"

tap_done
