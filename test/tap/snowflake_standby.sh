#!/usr/bin/env bash
# snowflake() and a streaming hot standby. A standby made with pg_basebackup -R
# gets its primary's idgen.shard_id with the database, so it must refuse to
# mint (25006, as nextval() does). The primary, whose clock runs 3 s ahead of
# the standby's (libfaketime), then mints a burst that borrows ahead of its own
# clock, is killed with kill -9, and the standby is promoted at once: its
# shards must resume above every ID the old primary issued, because each lease
# renewal reached it through WAL (synchronous replication here, so that none
# is lost with the primary).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-standby.XXXXXX)
chmod 755 "$dir"
trap 'cluster_stop "$dir/standby"; cluster_stop "$dir/primary"; rm -rf "$dir"' EXIT

# A fixed offset from the environment: libfaketime then reads no file per clock
# call, which would slow the burst below the clock's pace.
faketime_lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1)
if [[ -z $faketime_lib ]]; then
    echo "not ok 1 - libfaketime is installed (package faketime)"
    exit 1
fi
CLUSTER_ENV="LD_PRELOAD=$faketime_lib FAKETIME=+3s FAKETIME_DONT_FAKE_MONOTONIC=1" \
cluster_start "$dir/primary" "shared_preload_libraries = 'idgen'" "wal_level = replica" \
    "max_wal_senders = 4" "fsync = off" "idgen.max_clock_regression = '5s'" || exit 1
primary_port=$PGPORT
q "CREATE EXTENSION idgen; ALTER DATABASE postgres SET idgen.shard_id = 5" || exit 1

standby_port=$(free_port)
mkdir -p "$dir/standby" && chown postgres: "$dir/standby"
as_cluster_owner pg_basebackup -h "$dir/primary" -p "$primary_port" -U postgres \
    -D "$dir/standby/data" -R -X stream -c fast >"$dir/basebackup.log" 2>&1 || { cat "$dir/basebackup.log"; exit 1; }
cat >>"$dir/standby/data/postgresql.conf" <<CONF
port = $standby_port
unix_socket_directories = '$dir/standby'
hot_standby = on
# After the failover the shard resumes from the lease, up to its 2 s span beyond
# the old primary's lead (at most 5 s): a wider bound than the primary's lets
# it mint at once instead of waiting for the clock.
idgen.max_clock_regression = '10s'
CONF
as_cluster_owner pg_ctl -D "$dir/standby/data" -l "$dir/standby/server.log" -w -t 60 start >/dev/null ||
    { cat "$dir/standby/server.log"; exit 1; }

on_standby() { PGHOST=$dir/standby PGPORT=$standby_port "$@"; }

is "the standby is in recovery" "$(on_standby q "SELECT pg_is_in_recovery()")" t
is "the standby has the primary's idgen.shard_id" "$(on_standby q "SHOW idgen.shard_id")" 5

# 1. A standby refuses to mint, with or without a shard argument.
for call in "snowflake()" "snowflake(7)" "snowflake53()" "snowflake53(7)"; do
    err=$(on_standby psql -Xq -v VERBOSITY=verbose -c "SELECT $call" 2>&1)
    check "$call on the standby fails with 25006" \
        grep -qF 'ERROR:  25006: cannot mint snowflake ids during recovery' <<<"$err"
    check "$call on the standby hints at the primary" grep -qF "HINT:  Call ${call%%(*}() on the primary" <<<"$err"
done
is "uuid_v7() and ulid() still work on the standby" \
    "$(on_standby q "SELECT uuid_v7() IS NOT NULL AND ulid() IS NOT NULL")" t

# 2. Synchronous replication: each lease renewal waits for the standby.
q "ALTER SYSTEM SET synchronous_standby_names = '*'" && q "SELECT pg_reload_conf()" >/dev/null
streams_synchronously() { [[ $(q "SELECT sync_state FROM pg_stat_replication") == sync ]]; }
check "the standby streams synchronously" wait_until 100 streams_synchronously

# 3. The primary's clock runs 3 s ahead of the standby's. A burst on one
# shard: 1024 IDs per millisecond, minted faster than the clock runs, until the
# shard is 2 s ahead of the primary's clock (its bound is 5 s; the promoted
# standby's 10 s covers 3 + 2 s and the lease's 2 s span).
q "CREATE FUNCTION pg_temp.burst() RETURNS bigint LANGUAGE plpgsql AS \$\$
   DECLARE last bigint;
   BEGIN
       FOR round IN 1 .. 60 LOOP
           SELECT max(id) INTO last FROM (SELECT snowflake() AS id FROM generate_series(1, 100000)) s;
           EXIT WHEN snowflake_time(last) > clock_timestamp() + interval '2 s';
       END LOOP;
       RETURN last;
   END \$\$;
   SELECT pg_temp.burst()" >"$dir/burst" 2>&1
old_max=$(cat "$dir/burst")
old_ms=$((old_max >> 23))  # the time field: bits 23 and up
lead_ms=$(on_standby q "SELECT (extract(epoch FROM snowflake_time($old_max) - clock_timestamp()) * 1000)::bigint")
check "the old primary's last ID is at least 2.5 s ahead of the standby's clock (lead $lead_ms ms)" \
    test "${lead_ms:-0}" -ge 2500
is "idgen_snowflake_shards counted borrowed milliseconds on shard 5" \
    "$(q "SELECT borrowed_ms > 0 FROM idgen_snowflake_shards WHERE family = 'snowflake' AND shard = 5")" t
# The 53-bit split shares the lease: a million IDs on its shard 5 (512 a
# millisecond) run it about 2 s ahead too.
old_max53=$(q "SELECT max(snowflake53(5)) FROM generate_series(1, 1000000)")
lease_ms=$(tail -c 21 "$dir/standby/data/idgen_snowflake.lease" | tr -d '\n' | sed 's/^0*//')
check "WAL replay rewrote the standby's lease file past the old primary's last ID (lease $lease_ms ms, ID $old_ms ms)" \
    test "${lease_ms:-0}" -gt "$old_ms"

# 4. kill -9 the primary's postmaster (its children follow), promote the standby.
kill -9 "$(head -n 1 "$dir/primary/data/postmaster.pid")"
promote() { as_cluster_owner pg_ctl -D "$dir/standby/data" -w -t 60 promote >/dev/null; }
check "the standby is promoted" promote
out_of_recovery() { [[ $(on_standby q "SELECT pg_is_in_recovery()") == f ]]; }
check "the promoted standby leaves recovery" wait_until 100 out_of_recovery

# 5. The new primary mints on shard 5 at once (well inside the old primary's
# lead over its clock): above the old primary's last ID.
after=$(on_standby q "SELECT min(id) || ' ' || count(*) FILTER (WHERE id <= $old_max)
                      FROM (SELECT snowflake() AS id FROM generate_series(1, 100000)) s")
check "its first ID on shard 5 is above the old primary's last ($old_max)" test "${after% *}" -gt "$old_max"
is "none of its 100000 IDs is at or below the old primary's last" "${after#* }" 0
is "snowflake(5) agrees" "$(on_standby q "SELECT snowflake(5) > $old_max")" t
after53=$(on_standby q "SELECT count(*) FILTER (WHERE id <= ${old_max53:-0}) || ' ' || count(*)
                        FROM (SELECT snowflake53(5) AS id FROM generate_series(1, 100000)) s")
is "none of its 100000 snowflake53(5) IDs is at or below the old primary's last (${old_max53:-none})" \
    "$after53" "0 100000"

tap_done
