#!/usr/bin/env bash
# Base backups and synchronous replication, with snowflake() under way.
# 1. pg_basebackup of a primary while sessions mint and insert: the backup
#    carries the lease files, and a server started from it, as a streaming
#    replica later promoted and as a copy promoted at once, mints above every
#    snowflake the primary minted before the backup ended (each row records
#    the WAL position after its ID was minted, so "before" is exact).
# 2. synchronous_standby_names naming a standby that is stopped: a session
#    whose snowflake() has to renew the lease waits (wait event SyncRep), as a
#    commit would; a cancel ends the call with an error and no ID (the renewal
#    was not confirmed); uuid_v7(), whose lease only orders, returns after a
#    cancel with PostgreSQL's warning; a terminate ends the session; and once
#    the standby is back, snowflake() returns.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-backup.XXXXXX)
chmod 755 "$dir"
load_pids=()
trap 'kill "${load_pids[@]}" 2>/dev/null; for d in "$dir"/*/; do cluster_stop "${d%/}"; done; rm -rf "$dir"' EXIT

server_start() { as_cluster_owner pg_ctl -D "$1/data" -l "$1/server.log" -w -t 60 start >/dev/null; }

cluster_start "$dir/primary" "shared_preload_libraries = 'idgen'" "fsync = off" "wal_level = replica" \
    "max_wal_senders = 6" || exit 1
primary_port=$PGPORT
q "CREATE EXTENSION idgen;
   CREATE TABLE minted (id bigint PRIMARY KEY, u uuid NOT NULL, lsn pg_lsn NOT NULL)" || exit 1

# 1. Load: three sessions, each inserting snowflakes on shard 4 and uuid_v7
# values with the WAL
# insert position read after the ID was minted, until the stop file appears.
for _ in 1 2 3; do
    (
        while [[ ! -e $dir/stop ]]; do
            q "INSERT INTO minted SELECT id, u, pg_current_wal_insert_lsn()
               FROM (SELECT snowflake(4) AS id, uuid_v7() AS u FROM generate_series(1, 200)) s" >/dev/null 2>&1
        done
    ) &
    load_pids+=($!)
done
sleep 2
mkdir -p "$dir/replica" && chown postgres: "$dir/replica"
as_cluster_owner pg_basebackup -h "$dir/primary" -p "$primary_port" -U postgres \
    -D "$dir/replica/data" -R -X stream -c fast >"$dir/primary/basebackup.log" 2>&1
check "pg_basebackup of the primary under load succeeds" test $? -eq 0
sleep 1
touch "$dir/stop"
wait "${load_pids[@]}"
load_pids=()
end_lsn=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["WAL-Ranges"][-1]["End-LSN"])' \
    "$dir/replica/data/backup_manifest")
before_end=$(q "SELECT count(*) || ' ' || max(id) FROM minted WHERE lsn <= '$end_lsn'")
read -r rows_before highest_before <<<"$before_end"
read -r rows_all highest_all <<<"$(q "SELECT count(*) || ' ' || max(id) FROM minted")"
check "the load minted before the backup ended ($rows_before rows) and after it ($((rows_all - rows_before)))" \
    test "$rows_before" -gt 0 -a "$rows_all" -gt "$rows_before"
for f in idgen_snowflake.lease idgen_clock.lease; do
    check "the backup carries $f" test -s "$dir/replica/data/$f"
done

# The copy promoted at once: no standby.signal, so it recovers to the end of
# the backup and opens as a primary.
mkdir -p "$dir/promoted" && cp -a "$dir/replica/data" "$dir/promoted/data"
rm -f "$dir/promoted/data/standby.signal"
promoted_port=$(free_port)
printf '%s\n' "port = $promoted_port" "unix_socket_directories = '$dir/promoted'" \
    >>"$dir/promoted/data/postgresql.conf"
chown -R postgres: "$dir/promoted"
server_start "$dir/promoted" || { cat "$dir/promoted/server.log"; exit 1; }
on_promoted() { PGHOST=$dir/promoted PGPORT=$promoted_port "$@"; }
is "the copy opens as a primary" "$(on_promoted q "SELECT pg_is_in_recovery()")" f
first=$(on_promoted q "SELECT snowflake(4)")
is "its first snowflake on shard 4 lies above every one minted before the backup ended" \
    "$(on_promoted q "SELECT $first > $highest_before")" t
latest_before=$(q "SELECT u FROM minted WHERE lsn <= '$end_lsn' ORDER BY u DESC LIMIT 1")
is "its first uuid_v7() lies above every one minted before the backup ended (the clock lease)" \
    "$(on_promoted q "SELECT uuid_v7() > '$latest_before'")" t
echo "# promoted at once: first ID $first, highest before the backup ended $highest_before, highest of all $highest_all"
as_cluster_owner pg_ctl -D "$dir/promoted/data" -m fast -w stop >/dev/null

# The replica streams, then is promoted.
replica_port=$(free_port)
printf '%s\n' "port = $replica_port" "unix_socket_directories = '$dir/replica'" >>"$dir/replica/data/postgresql.conf"
server_start "$dir/replica" || { cat "$dir/replica/server.log"; exit 1; }
on_replica() { PGHOST=$dir/replica PGPORT=$replica_port "$@"; }
primary_lsn=$(q "SELECT pg_current_wal_lsn()")
caught_up() { [[ $(on_replica q "SELECT pg_last_wal_replay_lsn() >= '$primary_lsn'") == t ]]; }
check "the replica streams and replays the primary's WAL" wait_until 150 caught_up
on_replica q "SELECT pg_promote()" >/dev/null
first=$(on_replica q "SELECT snowflake(4)")
is "the replica, promoted, mints above every snowflake the primary minted" \
    "$(on_replica q "SELECT $first > $highest_all")" t
as_cluster_owner pg_ctl -D "$dir/replica/data" -m fast -w stop >/dev/null

# 2. Synchronous replication with the synchronous standby stopped.
mkdir -p "$dir/sync" && chown postgres: "$dir/sync"
as_cluster_owner pg_basebackup -h "$dir/primary" -p "$primary_port" -U postgres \
    -D "$dir/sync/data" -R -X stream -c fast >"$dir/primary/basebackup2.log" 2>&1 || exit 1
sync_port=$(free_port)
printf '%s\n' "port = $sync_port" "unix_socket_directories = '$dir/sync'" "cluster_name = 'sb1'" \
    >>"$dir/sync/data/postgresql.conf"
server_start "$dir/sync" || { cat "$dir/sync/server.log"; exit 1; }
q "ALTER SYSTEM SET synchronous_standby_names = 'sb1'" && q "SELECT pg_reload_conf()" >/dev/null
streams_sync() { [[ $(q "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'sb1'") == sync ]]; }
check "sb1 streams synchronously" wait_until 100 streams_sync
is "with sb1 up, snowflake() returns" "$(q "SELECT snowflake(4) > $highest_all")" t
as_cluster_owner pg_ctl -D "$dir/sync/data" -m fast -w stop >/dev/null

# waiting_in_syncrep TAG: the session whose application_name is TAG waits for
# synchronous replication.
waiting_in_syncrep() {
    [[ $(q "SELECT wait_event FROM pg_stat_activity WHERE application_name = '$1'") == SyncRep ]]
}
# The restart drops the lease to what was issued, so the next snowflake()
# renews it and waits.
cluster_restart "$dir/primary"
PGAPPNAME=minting psql -Xq -v VERBOSITY=verbose -c "SELECT snowflake(4)" >"$dir/minting.out" 2>&1 &
minting=$!
check "snowflake() renewing its lease waits for the stopped synchronous standby" wait_until 50 waiting_in_syncrep minting
sleep 1
check "... and still waits a second later (no ID handed out)" waiting_in_syncrep minting
q "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'minting'" >/dev/null
wait "$minting"
out=$(cat "$dir/minting.out")
check "a cancel ends the call" grep -qF 'WARNING:  01000: canceling wait for synchronous replication due to user request' <<<"$out"
check "... with SQLSTATE 57014 and no ID" grep -qF \
    'ERROR:  57014: snowflake lease renewal was not confirmed by a synchronous standby' <<<"$out"
check "... and a hint that it resumes once the standbys confirm" grep -qF \
    "HINT:  snowflake() waits for the standbys in synchronous_standby_names as a commit does" <<<"$out"

PGAPPNAME=ordering psql -Xq -At -c "SELECT uuid_v7()" >"$dir/ordering.out" 2>&1 &
ordering=$!
check "uuid_v7() renewing the clock lease waits too" wait_until 50 waiting_in_syncrep ordering
q "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'ordering'" >/dev/null
wait "$ordering"
check "a cancel returns its value, with PostgreSQL's warning" \
    grep -qE '^[0-9a-f]{8}-[0-9a-f]{4}-7' "$dir/ordering.out"

PGAPPNAME=terminated psql -Xq -c "SELECT snowflake(4)" >"$dir/terminated.out" 2>&1 &
terminated=$!
check "a later snowflake() that renews the lease waits again" wait_until 50 waiting_in_syncrep terminated
q "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'terminated'" >/dev/null
wait "$terminated"
check "a terminate ends the waiting session" grep -qF 'terminating connection due to administrator command' "$dir/terminated.out"
check "... without an ID" bash -c "! grep -qE '^ *[0-9]{15,}' '$dir/terminated.out'"

out=$(psql -Xq -v VERBOSITY=verbose -c "SET statement_timeout = '1s'" -c "SELECT snowflake(4)" 2>&1)
check "statement_timeout ends a waiting snowflake() the same way" grep -qF \
    'ERROR:  57014: snowflake lease renewal was not confirmed by a synchronous standby' <<<"$out"

server_start "$dir/sync" || { cat "$dir/sync/server.log"; exit 1; }
check "sb1 back: it streams synchronously" wait_until 100 streams_sync
is "snowflake() returns again" "$(q "SELECT snowflake(4) > $highest_all")" t

echo "1..$TAP_N"
exit $((TAP_FAILED > 0))
