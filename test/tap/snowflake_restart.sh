#!/usr/bin/env bash
# snowflake() (and snowflake53(), which shares its lease) when the system clock is set back: under a running server (IDs
# keep counting from the last one, up to idgen.max_clock_regression), across a
# clean restart and a crash restart (the lease file in the data directory keeps
# new IDs above old ones), and with an unreadable lease file (snowflake() stops,
# uuid_v7() goes on). The clock is moved with libfaketime (Debian package
# faketime), preloaded into the server only; the offsets add up to 8 s so that
# the lead of IDs over the clock, lease margin included, stays under the
# default 10 s bound.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-sfrestart.XXXXXX)
trap 'cluster_stop "$dir"' EXIT
lease_file="$dir/data/idgen_snowflake.lease"
# Sets CLUSTER_ENV, so every later pg_ctl start runs under the fake clock too.
if ! use_fake_clock "$dir"; then
    echo "not ok 1 - libfaketime is installed (package faketime)"
    exit 1
fi
cluster_start "$dir" "shared_preload_libraries = 'idgen'" "fsync = off" || exit 1
server_stop() { as_cluster_owner pg_ctl -D "$dir/data" -m fast -w stop >/dev/null; }
server_start() { as_cluster_owner pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null; }

# clock_behind SECONDS: the server's clock is that far behind this shell's (real) one.
clock_behind() {
    [[ $(q "SELECT abs(extract(epoch FROM clock_timestamp()) - $(date +%s.%N) + $1) < 1.5") == t ]]
}

# Every ID the test sees, by phase; n keeps the order they were minted in.
q "CREATE EXTENSION idgen; CREATE TABLE ids (n bigserial, phase text, id bigint PRIMARY KEY)"
# snowflake53 shares the lease: its IDs by phase too.
q "CREATE TABLE ids53 (n bigserial, phase text, id bigint PRIMARY KEY)"
# above_earlier53 PHASE: whether every snowflake53 ID of PHASE is above every earlier one.
above_earlier53() {
    q "SELECT (SELECT min(id) FROM ids53 WHERE phase = '$1') > (SELECT max(id) FROM ids53 WHERE phase <> '$1')"
}

# 1. Clock set back 3 s under one backend: within the 10 s default bound.
output=$(psql -XAtq -v ON_ERROR_STOP=1 2>&1 <<SQL
INSERT INTO ids (phase, id) SELECT 'before', snowflake(1) FROM generate_series(1, 2000);
INSERT INTO ids53 (phase, id) SELECT 'before', snowflake53(1) FROM generate_series(1, 2000);
\! echo "-3" > "$CLOCK_OFFSET_FILE"
INSERT INTO ids53 (phase, id) SELECT 'after', snowflake53(1) FROM generate_series(1, 2000);
INSERT INTO ids (phase, id) SELECT 'after', snowflake(1) FROM generate_series(1, 2000);
SELECT 'ahead=' || (snowflake_time(min(id)) > clock_timestamp() + interval '2 s') FROM ids WHERE phase = 'after';
SELECT 'regressions=' || clock_regressions || ' ran_ahead=' || ran_ahead
FROM idgen_stats WHERE family = 'snowflake' AND pid = pg_backend_pid();
SQL
)
check "snowflake(1) keeps working across a 3 s clock regression" test $? -eq 0
regressions=$(sed -n 's/^regressions=\([0-9]*\) .*/\1/p' <<<"$output")
ran_ahead=$(sed -n 's/.*ran_ahead=\([0-9]*\)$/\1/p' <<<"$output")
check "idgen_stats counted the regression for this backend (got ${regressions:-none})" test "${regressions:-0}" -ge 1
check "idgen_stats counted every ID after it as ahead of the clock (got ${ran_ahead:-none})" test "${ran_ahead:-0}" -ge 2000
shard_regressions=$(q "SELECT clock_regressions FROM idgen_snowflake_shards WHERE family = 'snowflake' AND shard = 1")
check "idgen_snowflake_shards counted the regression for shard 1 (got ${shard_regressions:-none})" \
    test "${shard_regressions:-0}" -ge 1
is "IDs stay strictly increasing within the backend" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM ids) s WHERE bad")" 0
is "snowflake53(1) IDs too" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM ids53) s WHERE bad")" 0
is "IDs after the regression carry a time over 2 s ahead of the clock" "$(grep '^ahead=' <<<"$output")" "ahead=true"
check "the server clock really is 3 s behind" clock_behind 3

# 2. Beyond the bound: with 1 s allowed, a lead of about 3 s is refused.
err=$(psql -Xq -v VERBOSITY=verbose -c "SET idgen.max_clock_regression = '1s'" -c "SELECT snowflake(1)" 2>&1)
check "a lead beyond idgen.max_clock_regression fails with SQLSTATE 55000" \
    grep -qE '^ERROR:  55000: system clock is [0-9]+ ms behind snowflake shard 1$' <<<"$err"
behind=$(sed -n 's/^ERROR:  55000: system clock is \([0-9]*\) ms behind.*/\1/p' <<<"$err")
check "the error reports a lead over the 1 s bound (got ${behind:-none} ms)" test "${behind:-0}" -gt 1000
check "with the default bound a new session mints again" \
    q "INSERT INTO ids (phase, id) SELECT 'default bound', snowflake(1) FROM generate_series(1, 100)"

# 3. Clean restart with the clock set back 3 s more: the lease, not the clock,
# decides where the shard resumes.
set_clock_offset "-6"
check "a fast restart with the clock 6 s behind succeeds" cluster_restart "$dir" fast
check "the server clock really is 6 s behind" clock_behind 6
is "the clock is now behind the IDs issued before the restart" \
    "$(q "SELECT snowflake_time(max(id)) > clock_timestamp() FROM ids")" t
check "snowflake(1) mints after the restart" \
    q "INSERT INTO ids (phase, id) SELECT 'restart', snowflake(1) FROM generate_series(1, 2000)"
is "every ID after the restart is above every ID before it" \
    "$(q "SELECT (SELECT min(id) FROM ids WHERE phase = 'restart') > (SELECT max(id) FROM ids WHERE phase <> 'restart')")" t
check "snowflake53(1) mints after the restart" \
    q "INSERT INTO ids53 (phase, id) SELECT 'restart', snowflake53(1) FROM generate_series(1, 2000)"
is "every snowflake53 ID after the restart is above every one before it" "$(above_earlier53 restart)" t
is "the first ID after the restart carries a time ahead of the clock" \
    "$(q "SELECT snowflake_time(min(id)) > clock_timestamp() FROM ids WHERE phase = 'restart'")" t
# A clean shutdown lowers the lease to the last ID issued, so the shard resumes
# in the next millisecond instead of up to 2 s (the lease span) further on.
# One lease serves both splits: it resumes after the last ID of either.
is "after a clean restart the shard resumes in the millisecond after the last ID of either split" \
    "$(q "SELECT snowflake_time((SELECT min(id) FROM ids WHERE phase = 'restart'))
               - greatest(snowflake_time((SELECT max(id) FROM ids WHERE phase <> 'restart')),
                          snowflake53_time((SELECT max(id) FROM ids53 WHERE phase <> 'restart')))")" "00:00:00.001"

# 4. Crash restart while a client streams IDs. First let the clock catch up
# with the shard, so that lease margin and the next step back stay in bounds.
caught_up() { [[ $(q "SELECT bool_and(last_issued < clock_timestamp() + interval '1 s') FROM idgen_snowflake_shards WHERE shard = 1") == t ]]; }
check "the clock catches up to within 1 s of shard 1" wait_until 100 caught_up
stream_file="$dir/streamed.txt"
# generate_series in the select list streams; in FROM it would first be
# materialised whole (seconds and a temporary file for 10^8 rows).
psql -XAtq -c "COPY (SELECT snowflake(1) FROM (SELECT generate_series(1, 100000000)) g) TO STDOUT" \
    >"$stream_file" 2>"$dir/stream.err" &
stream_client=$!
backend=""
find_backend() {
    backend=$(q "SELECT pid FROM pg_stat_activity WHERE query LIKE 'COPY (SELECT snowflake(1)%' AND pid <> pg_backend_pid()")
    [[ -n $backend ]]
}
wait_until 50 find_backend
sleep 1
received_enough() { (($(wc -l <"$stream_file") > 10000)); }
wait_until 100 received_enough
postmaster=$(head -n 1 "$dir/data/postmaster.pid")
check "the streaming backend (pid ${backend:-none}) is killed with SIGKILL" kill -9 "${backend:-none}"
[[ -n $backend ]] || kill "$stream_client"  # or it would stream for minutes
wait "$stream_client"
check "the streaming client lost its connection" test $? -ne 0
reinitialized() {
    grep -qE "(server process|client backend) \(PID $backend\) was terminated by signal 9" "$dir/server.log" &&
        grep -q "all server processes terminated; reinitializing" "$dir/server.log"
}
check "the postmaster does a crash restart (server.log)" wait_until 100 reinitialized
answers() { [[ $(q "SELECT 1") == 1 ]]; }
check "the server accepts queries again" wait_until 150 answers
is "the same postmaster runs on" "$(head -n 1 "$dir/data/postmaster.pid")" "$postmaster"
set_clock_offset "-8"
check "the server clock really is 8 s behind" clock_behind 8
# Only whole lines: the last one may have been cut off by the crash.
[[ -n $(tail -c 1 "$stream_file") ]] && sed -i '$d' "$stream_file"
streamed_max=$(sort -n "$stream_file" | tail -n 1)
is "the clock is now behind the last streamed ID" "$(q "SELECT snowflake_time(${streamed_max:-0}) > clock_timestamp()")" t
q "CREATE TABLE streamed (n bigserial, id bigint)"
psql -XAtq -v ON_ERROR_STOP=1 -c "\\copy streamed (id) FROM '$stream_file'"
streamed=$(q "SELECT count(*) FROM streamed")
check "the client received many IDs before the crash (got ${streamed:-none})" test "${streamed:-0}" -gt 1000
is "the streamed IDs are strictly increasing" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM streamed) s WHERE bad")" 0
check "snowflake(1) mints after the crash restart" \
    q "INSERT INTO ids (phase, id) SELECT 'crash', snowflake(1) FROM generate_series(1, 2000)"
is "every ID after the crash is above every ID the client received" \
    "$(q "SELECT (SELECT min(id) FROM ids WHERE phase = 'crash') > (SELECT max(id) FROM streamed)")" t
check "no streamed ID repeats any other ID (primary key)" \
    q "INSERT INTO ids (phase, id) SELECT 'streamed', id FROM streamed ORDER BY n"
is "every ID after the crash is above every earlier ID" \
    "$(q "SELECT (SELECT min(id) FROM ids WHERE phase = 'crash') > (SELECT max(id) FROM ids WHERE phase <> 'crash')")" t
check "snowflake53(1) mints after the crash restart" \
    q "INSERT INTO ids53 (phase, id) SELECT 'crash', snowflake53(1) FROM generate_series(1, 2000)"
is "every snowflake53 ID after the crash is above every earlier one" "$(above_earlier53 crash)" t

# 5. The lease file: a fixed 45-byte record whose number no issued ID reaches.
check "the lease file exists" test -f "$lease_file"
is "the lease file is 45 bytes" "$(stat -c %s "$lease_file" 2>/dev/null)" 45
# With the size, these pin the record down byte for byte.
lease_format_ok() {
    [[ $(wc -l <"$lease_file") == 2 && $(sed -n 1p "$lease_file") == "idgen snowflake lease 1" ]] &&
        sed -n 2p "$lease_file" | grep -qxE '[0-9]{20}'
}
check "the lease file holds the header line and a 20-digit number" lease_format_ok
lease_ms=$(sed -n 2p "$lease_file" 2>/dev/null)
is "the lease is above the millisecond of every issued ID" \
    "$(q "SELECT '${lease_ms:-0}'::bigint > max(id) >> 23 FROM ids")" t

# 6. An unreadable lease disables snowflake() until it is fixed.
server_stop
cp -p "$lease_file" "$dir/lease.saved"
echo "not a lease" >"$lease_file"
check "the server starts with a garbage lease file" server_start
err=$(psql -Xq -v VERBOSITY=verbose -c "SELECT snowflake(1)" 2>&1)
check "snowflake(1) fails with SQLSTATE XX001 naming the lease file" \
    grep -qF 'ERROR:  XX001: the snowflake lease file "idgen_snowflake.lease" is unreadable' <<<"$err"
check "server.log says the file holds no lease and snowflake() is disabled" \
    grep -qF -A1 'idgen: file "idgen_snowflake.lease" holds no snowflake lease' "$dir/server.log"
check "server.log's detail says snowflake() is disabled" \
    grep -qF 'DETAIL:  snowflake() is disabled.' "$dir/server.log"
is "uuid_v7() still works" "$(q "SELECT uuid_v7() IS NOT NULL")" t
server_stop
cp -p "$dir/lease.saved" "$lease_file"
check "the server starts with the lease file restored" server_start
check "snowflake(1) works again" q "INSERT INTO ids (phase, id) SELECT 'restored', snowflake(1) FROM generate_series(1, 100)"
is "IDs after the restored lease are above every earlier ID" \
    "$(q "SELECT (SELECT min(id) FROM ids WHERE phase = 'restored') > (SELECT max(id) FROM ids WHERE phase <> 'restored')")" t
tap_done
