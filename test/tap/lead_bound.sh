#!/usr/bin/env bash
# Shared counters stay within idgen.max_clock_regression of the clock, whatever
# other sessions do. uuid_v7: sessions hammering 'server' order cannot push the
# shared counter further ahead (their calls wait for the clock instead, and
# idgen_stats counts the waits), and neither can one session in 'backend'
# order. snowflake: sessions hammering one shard at its bound wait, and never
# make each other fail with "system clock is N ms behind". Needs a preloaded
# server (PG* env).
#
# The bound is 0 ms by default, so that a call waits as soon as it would take
# a tick (1/4096 ms, or for snowflake a millisecond) ahead of the clock:
# without the bound, sessions calling faster than the clock run ahead within
# microseconds.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh

BOUND_MS=${BOUND_MS:-0}
HAMMERS=${HAMMERS:-4}
PER_HAMMER=${PER_HAMMER:-1000000}
# A tick is ~0.244 us and clock_timestamp() truncates to the microsecond.
TOLERANCE_US=2

fresh_database idgen_lead || exit 1
q "ALTER DATABASE idgen_lead SET idgen.max_clock_regression = '${BOUND_MS}ms'"
q "ALTER DATABASE idgen_lead SET idgen.uuid_v7_order = 'server'"
# lead_us(id, t): microseconds from t to the 60-bit time (ms and 1/4096 ms) of a UUIDv7.
q "CREATE FUNCTION lead_us(id uuid, t timestamptz) RETURNS numeric LANGUAGE sql IMMUTABLE AS \$\$
       SELECT ('x' || substr(h, 1, 12) || substr(h, 14, 3))::bit(60)::bigint * 1000 / 4096.0
              - extract(epoch FROM t) * 1000000
       FROM replace(id::text, '-', '') AS h \$\$"

# hammer ORDER: mints PER_HAMMER values as fast as it can; every 64th call is
# followed by a clock reading, and the largest lead of those values over the
# clock read after them is printed, then the session's uuid_v7 waits.
hammer() {
    PGOPTIONS="-c idgen.uuid_v7_order=$1" psql -XAtq -v ON_ERROR_STOP=1 <<SQL
SELECT 'lead=' || coalesce(max(lead_us(id, t1)) FILTER (WHERE t1 IS NOT NULL), 0) FROM (
    SELECT uuid_v7() AS id, CASE WHEN n % 64 = 0 THEN clock_timestamp() END AS t1
    FROM (SELECT generate_series(1, $PER_HAMMER) AS n) g) minted;
SELECT 'waits=' || waits FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'uuid_v7';
SQL
}

# field NAME FILES...: the values of NAME=... lines.
field() {
    local name=$1
    shift
    sed -n "s/^$name=//p" "$@"
}

out=$(mktemp -d /tmp/idgen-lead.XXXXXX)
trap 'rm -rf "$out"' EXIT

pids=()
for s in $(seq 1 "$HAMMERS"); do
    hammer server >"$out/hammer$s" 2>&1 &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
check "server order: $HAMMERS sessions x $PER_HAMMER calls succeed" test $status -eq 0
max_lead=$(field lead "$out"/hammer* | sort -g | tail -n 1)
check "server order: no value ran more than ${BOUND_MS} ms ahead of the clock (largest lead ${max_lead:-none} us)" \
    awk -v lead="${max_lead:-inf}" -v bound=$((BOUND_MS * 1000 + TOLERANCE_US)) 'BEGIN { exit !(lead <= bound) }'
waits=$(field waits "$out"/hammer* | awk '{ s += $1 } END { print s + 0 }')
check "server order: the sessions waited for the clock, and idgen_stats counted it (waits $waits)" \
    test "$waits" -gt 0
# The shared counter itself: the next server-order value, against the clock after it.
after=$(q "SELECT lead_us(id, t1) FROM (SELECT uuid_v7() AS id, clock_timestamp() AS t1) s")
check "server order: afterwards the shared counter is within ${BOUND_MS} ms of the clock (lead $after us)" \
    awk -v lead="$after" -v bound=$((BOUND_MS * 1000 + TOLERANCE_US)) 'BEGIN { exit !(lead <= bound) }'

hammer backend >"$out/backend" 2>&1
check "backend order: one session x $PER_HAMMER calls succeeds" grep -q '^waits=' "$out/backend"
backend_lead=$(field lead "$out/backend")
check "backend order: no value ran more than ${BOUND_MS} ms ahead of the clock (largest lead ${backend_lead:-none} us)" \
    awk -v lead="${backend_lead:-inf}" -v bound=$((BOUND_MS * 1000 + TOLERANCE_US)) 'BEGIN { exit !(lead <= bound) }'

# snowflake: HAMMERS sessions minting on one shard as fast as they can, at a
# bound of BOUND_MS. A session whose clock reading is older than the shard's
# last stamp must not take it for a clock set back: to make such readings
# likely rather than left to the scheduler, the backends are paused in turn
# for 2 ms (SIGSTOP, SIGCONT), wherever they happen to be.
SHARD=${SHARD:-8101}
PER_SNOWFLAKE_HAMMER=${PER_SNOWFLAKE_HAMMER:-2000000}
shard_waits="SELECT coalesce((SELECT waits FROM idgen_snowflake_shards WHERE shard = $SHARD), 0)"
waits_before=$(q "$shard_waits")
pids=()
for s in $(seq 1 "$HAMMERS"); do
    psql -XAtq -v ON_ERROR_STOP=1 -c "SELECT count(snowflake($SHARD))
        FROM (SELECT generate_series(1, $PER_SNOWFLAKE_HAMMER)) g" >"$out/snowflake$s" 2>&1 &
    pids+=($!)
done
sleep 0.3
backends=($(q "SELECT pid FROM pg_stat_activity WHERE query LIKE '%snowflake($SHARD)%' AND pid <> pg_backend_pid()"))
# Pauses each running backend in turn for 2 ms, until they have all exited.
pauses=$(/usr/bin/python3 - "${backends[@]}" <<'PY'
import os, signal, sys, time
live, pauses = [int(p) for p in sys.argv[1:]], 0
while live:
    for pid in list(live):
        try:
            # Only a backend that is running, not one sleeping in a wait.
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] != "R":
                    continue
            os.kill(pid, signal.SIGSTOP)
        except (ProcessLookupError, FileNotFoundError):
            live.remove(pid)
            continue
        try:
            time.sleep(0.002)
        finally:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:  # it had exited: a zombie takes signals
                pass
        pauses += 1
        time.sleep(0.001)
print(pauses)
PY
)
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
errors=$(cat "$out"/snowflake* | grep -c '^ERROR')
check "snowflake: $HAMMERS sessions x $PER_SNOWFLAKE_HAMMER calls on shard $SHARD all succeed at a ${BOUND_MS} ms bound, ${pauses:-no} pauses of 2 ms ($errors errors)" \
    test $status -eq 0 -a "${#backends[@]}" -eq "$HAMMERS"
grep -h '^ERROR' "$out"/snowflake* | sort | uniq -c | sed 's/^/# /'
waits_after=$(q "$shard_waits")
check "snowflake: the sessions waited for the clock ($((waits_after - waits_before)) waits on shard $SHARD)" \
    test "$waits_after" -gt "$waits_before"

export PGDATABASE=postgres
dropdb idgen_lead
tap_done
