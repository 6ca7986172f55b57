#!/usr/bin/env bash
# idgen's WAL resource manager: the ID its lease records carry
# (idgen.wal_resource_manager_id, 173 by default), the older IDs it replays
# (idgen.replay_resource_manager_ids, '128' by default: releases up to 0.5.0),
# what the server says when another module holds one of them, the recovery of
# a base backup taken before the ID was changed, and the tools that read WAL:
# pg_walinspect, pg_waldump and logical decoding. The other module is
# test/lib/rmgr_squatter, a test module built here and preloaded by path.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-rmgr.XXXXXX)
chmod 755 "$dir"
trap 'for d in "$dir"/*/; do cluster_stop "${d%/}"; done; rm -rf "$dir"' EXIT

# The test module, built against the server under test, never installed.
cp test/lib/rmgr_squatter/rmgr_squatter.c test/lib/rmgr_squatter/Makefile "$dir/"
if ! make -s -C "$dir" PG_CONFIG="$PG_CONFIG" >"$dir/squatter-build.log" 2>&1; then
    echo "not ok 1 - test/lib/rmgr_squatter builds against $PG_CONFIG"
    cat "$dir/squatter-build.log"
    exit 1
fi
chmod -R a+rX "$dir"
squatter=$dir/rmgr_squatter.so

# start_fails DIR LOG CONF-LINES...: the server in DIR, its settings replaced by
# CONF-LINES for this one start, refuses to start; its log goes to LOG.
start_fails() {
    local data=$1/data log=$2
    shift 2
    cp "$data/postgresql.conf" "$data/postgresql.conf.kept"
    printf '%s\n' "$@" >>"$data/postgresql.conf"
    ! as_cluster_owner pg_ctl -D "$data" -l "$log" -w -t 30 start >/dev/null 2>&1
    local refused=$?
    as_cluster_owner pg_ctl -D "$data" -m immediate -w stop >/dev/null 2>&1
    cp "$data/postgresql.conf.kept" "$data/postgresql.conf"
    return $refused
}
server_start() { as_cluster_owner pg_ctl -D "$1/data" -l "$1/server.log" -w -t 60 start >/dev/null; }
server_stop() { as_cluster_owner pg_ctl -D "$1/data" -m fast -w stop >/dev/null; }

# 1. The defaults, and where the records show.
cluster_start "$dir/main" "shared_preload_libraries = 'idgen'" "fsync = off" "wal_level = logical" \
    "max_replication_slots = 4" || exit 1
is "idgen.wal_resource_manager_id is 173 by default" "$(q "SHOW idgen.wal_resource_manager_id")" 173
is "idgen.replay_resource_manager_ids is '128' by default" \
    "$(q "SHOW idgen.replay_resource_manager_ids")" 128
check "the server log names both registrations" grep -qF \
    'registered custom resource manager "idgen_replay_128" with ID 128' "$dir/main/server.log"
check "... the one idgen writes under 173" grep -qF \
    'registered custom resource manager "idgen" with ID 173' "$dir/main/server.log"

q "CREATE EXTENSION idgen; CREATE EXTENSION pg_walinspect" || exit 1
q "CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake(3), u uuid DEFAULT uuid_v7(), note text)"
start_lsn=$(q "SELECT pg_current_wal_insert_lsn()")
q "SELECT pg_create_logical_replication_slot('idgen_slot', 'test_decoding')" >/dev/null
q "INSERT INTO events (note) SELECT 'row ' || g FROM generate_series(1, 100) g"
end_lsn=$(q "SELECT pg_current_wal_insert_lsn()")

walinspect=$(q "SELECT resource_manager || ' ' || record_type || ' ' || description
                FROM pg_get_wal_records_info('$start_lsn', '$end_lsn')
                WHERE resource_manager LIKE 'idgen%' ORDER BY start_lsn")
check "pg_walinspect names a snowflake lease record of resource manager idgen" \
    grep -qE '^idgen SNOWFLAKE_LEASE end [0-9]+ ms$' <<<"$walinspect"
check "... and a clock lease record" grep -qE '^idgen CLOCK_LEASE end [0-9]+ ms$' <<<"$walinspect"
snowflake_end=$(sed -n 's/^idgen SNOWFLAKE_LEASE end \([0-9]*\) ms$/\1/p' <<<"$walinspect" | tail -n 1)
is "the snowflake lease record's end lies above every ID minted under it" \
    "$(q "SELECT max(id) >> 23 < $snowflake_end FROM events")" t

# pg_waldump cannot load idgen, so it prints the records as custom173.
segment=$(q "SELECT pg_walfile_name('$start_lsn')")
waldump=$(as_cluster_owner pg_waldump -p "$dir/main/data/pg_wal" -s "$start_lsn" -e "$end_lsn" 2>&1)
check "pg_waldump reads the WAL holding idgen's records and prints them as custom173" \
    grep -qE '^rmgr: custom173 .*rmid: 173' <<<"$waldump"
echo "# pg_waldump, segment $segment: $(grep -m1 custom173 <<<"$waldump")"

# Logical decoding skips idgen's records and decodes the rows around them.
decoded=$(q "SELECT count(*) FROM pg_logical_slot_get_changes('idgen_slot', NULL, NULL)
             WHERE data LIKE 'table public.events: INSERT:%'")
is "logical decoding over idgen's records decodes every inserted row" "$decoded" 100
q "SELECT pg_drop_replication_slot('idgen_slot')" >/dev/null

# 2. Settings the server refuses at start.
server_stop "$dir/main"
start_fails "$dir/main" "$dir/main/bad1.log" "idgen.replay_resource_manager_ids = '128, x'"
check "a malformed idgen.replay_resource_manager_ids stops the start" grep -qF \
    'invalid value for parameter "idgen.replay_resource_manager_ids": "128, x"' "$dir/main/bad1.log"
check "... saying what an ID is" grep -qF 'expected a resource manager ID from 128 to 255' "$dir/main/bad1.log"
start_fails "$dir/main" "$dir/main/bad2.log" "idgen.replay_resource_manager_ids = '300'"
check "an ID above 255 is refused" grep -qF 'resource manager IDs for extensions run from 128 to 255' "$dir/main/bad2.log"
start_fails "$dir/main" "$dir/main/bad3.log" "idgen.replay_resource_manager_ids = '130,130'"
check "an ID listed twice is refused" grep -qF 'an ID is listed twice' "$dir/main/bad3.log"
start_fails "$dir/main" "$dir/main/bad4.log" "idgen.wal_resource_manager_id = 127"
check "idgen.wal_resource_manager_id 127 (a core ID) is refused" grep -qF \
    '127 is outside the valid range for parameter "idgen.wal_resource_manager_id" (128 .. 255)' "$dir/main/bad4.log"

# 3. Another module holding idgen's ID, preloaded before and after idgen.
start_fails "$dir/main" "$dir/main/clash1.log" "shared_preload_libraries = '$squatter, idgen'" "rmgr_squatter.id = 173"
check "a module holding 173, loaded first: idgen stops the start naming it" grep -qF \
    'FATAL:  idgen cannot use WAL resource manager ID 173: resource manager "rmgr_squatter" of another module in shared_preload_libraries holds it' \
    "$dir/main/clash1.log"
check "... and hints at idgen.wal_resource_manager_id" grep -qF \
    'HINT:  Set idgen.wal_resource_manager_id to a free ID from 129 to 255' "$dir/main/clash1.log"
start_fails "$dir/main" "$dir/main/clash2.log" "shared_preload_libraries = 'idgen, $squatter'" "rmgr_squatter.id = 173"
check "loaded after idgen: PostgreSQL stops the start naming idgen" grep -qF \
    'DETAIL:  Custom resource manager "idgen" already registered with the same ID.' "$dir/main/clash2.log"
check "... and the other module" grep -qF \
    'FATAL:  failed to register custom resource manager "rmgr_squatter" with ID 173' "$dir/main/clash2.log"
start_fails "$dir/main" "$dir/main/clash3.log" "shared_preload_libraries = '$squatter, idgen'" "rmgr_squatter.id = 128"
check "a module holding 128 clashes with the default replay list" grep -qF \
    'FATAL:  idgen cannot replay WAL resource manager ID 128: resource manager "rmgr_squatter"' "$dir/main/clash3.log"
check "... and the hint says when 128 can go" grep -qF \
    'HINT:  Remove 128 from idgen.replay_resource_manager_ids once no WAL' "$dir/main/clash3.log"
printf '%s\n' "shared_preload_libraries = '$squatter, idgen'" "rmgr_squatter.id = 128" \
    "idgen.replay_resource_manager_ids = ''" >>"$dir/main/data/postgresql.conf"
check "with 128 out of the replay list, both modules start together" server_start "$dir/main"
is "... and idgen mints" "$(q "SELECT snowflake(3) > 0")" t
server_stop "$dir/main"

# 4. Changing the ID. A server writes under 128 (as idgen 0.5.0 did) and
# archives its WAL; a base backup is taken; it mints, then moves to ID 200 with
# 128 in the replay list and mints again. The backup, restored from the archive
# with the new settings, replays both kinds of records and, promoted, mints
# above everything; without 128 in the list it stops at the first old record.
mkdir -p "$dir/archive" && chown postgres: "$dir/archive"
cluster_start "$dir/old" "shared_preload_libraries = 'idgen'" "fsync = off" \
    "idgen.wal_resource_manager_id = 128" "idgen.replay_resource_manager_ids = ''" \
    "archive_mode = on" "archive_command = 'cp %p $dir/archive/%f'" || exit 1
old_port=$PGPORT
q "CREATE EXTENSION idgen; CREATE TABLE ids (id bigint, phase text)" || exit 1
mkdir -p "$dir/backup" && chown postgres: "$dir/backup"
as_cluster_owner pg_basebackup -h "$dir/old" -p "$old_port" -U postgres -D "$dir/backup/data" \
    -X stream -c fast >"$dir/basebackup.log" 2>&1 || { cat "$dir/basebackup.log"; exit 1; }
# mint PHASE: snowflakes on shard 3 for about 3 s, so that the lease is renewed
# (written to WAL) a few times.
mint() {
    q "DO \$\$ BEGIN FOR i IN 1 .. 30 LOOP
         INSERT INTO ids SELECT snowflake(3), '$1' FROM generate_series(1, 1000);
         PERFORM pg_sleep(0.1);
       END LOOP; END \$\$"
}
mint under-128
server_stop "$dir/old"
printf '%s\n' "idgen.wal_resource_manager_id = 200" "idgen.replay_resource_manager_ids = '128'" \
    >>"$dir/old/data/postgresql.conf"
server_start "$dir/old" || { cat "$dir/old/server.log"; exit 1; }
is "after the change the server writes under 200" "$(q "SHOW idgen.wal_resource_manager_id")" 200
mint under-200
highest=$(q "SELECT max(id) FROM ids")
# The segment that pg_switch_wal() closes is fixed when it returns; the
# current insert position is not (anything the server writes after the switch
# moves it on), so the wait compares the archiver with that segment. The
# archiver is signalled at the switch and otherwise wakes every 60 s
# (PGARCH_AUTOWAKE_INTERVAL), so 90 s bounds the wait.
switched=$(q "SELECT pg_walfile_name(pg_switch_wal())")
archived() { [[ $(q "SELECT coalesce(last_archived_wal >= '$switched', false) FROM pg_stat_archiver") == t ]]; }
echo "# waiting for the archiver to reach $switched"
check "the WAL is archived" wait_until 450 archived
server_stop "$dir/old"
old_records=$(as_cluster_owner pg_waldump -p "$dir/archive" -r custom128 \
    "$(ls "$dir/archive" | head -n 1)" "$(ls "$dir/archive" | tail -n 1)" 2>/dev/null | grep -c '^rmgr: custom128')
new_records=$(as_cluster_owner pg_waldump -p "$dir/archive" -r custom200 \
    "$(ls "$dir/archive" | head -n 1)" "$(ls "$dir/archive" | tail -n 1)" 2>/dev/null | grep -c '^rmgr: custom200')
check "the archive holds lease records under 128 ($old_records) and under 200 ($new_records)" \
    test "$old_records" -gt 0 -a "$new_records" -gt 0

# restore NAME REPLAY-IDS: a copy of the backup set to recover from the archive.
restore() {
    mkdir -p "$dir/$1" && cp -a "$dir/backup/data" "$dir/$1/data"
    local port
    port=$(free_port)
    cat >>"$dir/$1/data/postgresql.conf" <<CONF
port = $port
unix_socket_directories = '$dir/$1'
archive_mode = off
idgen.wal_resource_manager_id = 200
idgen.replay_resource_manager_ids = '$2'
restore_command = 'cp $dir/archive/%f %p'
CONF
    touch "$dir/$1/data/recovery.signal"
    chown -R postgres: "$dir/$1"
    echo "$port"
}
port=$(restore restored 128)
server_start "$dir/restored"
promoted() { [[ $(PGHOST=$dir/restored PGPORT=$port q "SELECT NOT pg_is_in_recovery()") == t ]]; }
check "the backup from before the change recovers through both IDs and is promoted" wait_until 300 promoted
first=$(PGHOST=$dir/restored PGPORT=$port q "SELECT snowflake(3)")
is "its first snowflake on shard 3 lies above every one the old server minted" \
    "$(PGHOST=$dir/restored PGPORT=$port q "SELECT $first > $highest")" t
is "it holds every row the old server inserted, under both IDs" \
    "$(PGHOST=$dir/restored PGPORT=$port q "SELECT count(*) FILTER (WHERE phase = 'under-128') || ' ' || count(*) FILTER (WHERE phase = 'under-200') FROM ids")" \
    "30000 30000"

port=$(restore unreplayable '')
as_cluster_owner pg_ctl -D "$dir/unreplayable/data" -l "$dir/unreplayable/server.log" -w -t 60 start >/dev/null 2>&1
stopped() { ! as_cluster_owner pg_ctl -D "$dir/unreplayable/data" status >/dev/null; }
check "without 128 in the replay list the recovery stops" wait_until 300 stopped
check "... at the first old record, with PostgreSQL's message" grep -qF \
    'FATAL:  resource manager with ID 128 not registered' "$dir/unreplayable/server.log"

echo "1..$TAP_N"
exit $((TAP_FAILED > 0))
