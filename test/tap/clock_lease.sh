#!/usr/bin/env bash
# The clock lease: uuid_v7 (backend and 'server' order), ulid and
# prefixed_id_new keep their order across a clean restart and a crash restart
# with the clock set back 5 s each time, because new IDs never read the clock
# below the lease (idgen_clock.lease). A clean restart without a clock change
# resumes at the clock, not up to the lease's 2 s span ahead of it. The clock
# is moved with libfaketime (Debian package faketime), preloaded into the
# server only.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-clocklease.XXXXXX)
trap 'cluster_stop "$dir"' EXIT
if ! use_fake_clock "$dir"; then
    echo "not ok 1 - libfaketime is installed (package faketime)"
    exit 1
fi
cluster_start "$dir" "shared_preload_libraries = 'idgen'" "fsync = off" || exit 1
server_start() { as_cluster_owner pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null; }
server_stop() { as_cluster_owner pg_ctl -D "$dir/data" -m fast -w stop >/dev/null; }
restart() {
    as_cluster_owner pg_ctl -D "$dir/data" -m "$1" -w stop >/dev/null && server_start
}

# Every ID by phase, per family, in the order minted; each phase is new sessions.
q "CREATE EXTENSION idgen;
   CREATE TABLE ids (n bigserial, phase int, family text, id text, t timestamptz)"
mint() {
    local phase=$1
    q "INSERT INTO ids (phase, family, id, t)
           SELECT $phase, 'uuid_v7', u::text, uuid_v7_time(u) FROM (SELECT uuid_v7() u FROM generate_series(1, 500)) s;
       INSERT INTO ids (phase, family, id, t)
           SELECT $phase, 'ulid', u::text, ulid_time(u) FROM (SELECT ulid() u FROM generate_series(1, 500)) s;
       INSERT INTO ids (phase, family, id, t)
           SELECT $phase, 'prefixed', p::text, prefixed_id_time(p)
           FROM (SELECT prefixed_id_new('ord') p FROM generate_series(1, 500)) s" &&
    q "SET idgen.uuid_v7_order = 'server';
       INSERT INTO ids (phase, family, id, t)
           SELECT $phase, 'uuid_v7 server', u::text, uuid_v7_time(u) FROM (SELECT uuid_v7() u FROM generate_series(1, 500)) s"
}

# below_earlier PHASE: IDs of PHASE not above every ID of the earlier phases,
# per family. Each family's text is fixed-length and sorts as its bytes do
# under the "C" collation (hex, Crockford base32 and base36 digits are in
# ASCII order), and the prefix is the same throughout.
below_earlier() {
    q "SELECT count(*) FROM ids new
       JOIN (SELECT family, max(id COLLATE \"C\") AS id FROM ids WHERE phase < $1 GROUP BY family) old
         USING (family)
       WHERE new.phase = $1 AND new.id COLLATE \"C\" <= old.id"
}

check "phase 1 mints" mint 1
check "the clock lease file exists" test -s "$dir/data/idgen_clock.lease"

# A clean restart at the same clock: the lease was lowered at shutdown, so
# IDs continue at the clock instead of up to 2 s ahead of it.
check "clean restart" restart fast
check "phase 2 mints" mint 2
is "phase 2: every ID is above phase 1's, per family" "$(below_earlier 2)" 0
is "phase 2: no ID runs more than 500 ms ahead of the clock" \
    "$(q "SELECT count(*) FROM ids WHERE phase = 2 AND t > clock_timestamp() + interval '500 ms'")" 0

# The clock set back 5 s, then a clean restart.
set_clock_offset "-5"
check "clean restart with the clock set back 5 s" restart fast
check "phase 3 mints" mint 3
is "phase 3: every ID is above the earlier phases', per family" "$(below_earlier 3)" 0

# Another 5 s back, then a crash (immediate stop: no shutdown, recovery at start).
set_clock_offset "-10"
check "crash restart with the clock set back 5 s more" restart immediate
check "phase 4 mints" mint 4
is "phase 4: every ID is above the earlier phases', per family" "$(below_earlier 4)" 0
is "phase 4 read the clock 10 s back: its IDs are ahead of it (the lease's floor)" \
    "$(q "SELECT bool_and(t > clock_timestamp() + interval '5 s') FROM ids WHERE phase = 4")" t

# A clean restart without a single ID in between keeps the floor it started
# with (the lowering at shutdown never goes below it); then the clock goes
# back 5 s more across another restart.
check "clean restart with no ID minted" restart fast
set_clock_offset "-15"
check "clean restart with the clock set back 5 s more" restart fast
check "phase 5 mints" mint 5
is "phase 5: every ID is above the earlier phases', per family" "$(below_earlier 5)" 0

# An unwritable lease file: the first ID after a start needs a renewal, which
# fails with the file-access error, and no ID is handed out.
lease_file="$dir/data/idgen_clock.lease"
server_stop
chmod 0444 "$lease_file"
check "the server starts with a read-only clock lease file" server_start
for call in "uuid_v7()" "ulid()" "prefixed_id_new('ord')"; do
    err=$(psql -XAtq -v VERBOSITY=verbose -c "SELECT $call" 2>&1)
    check "$call fails with SQLSTATE 42501 naming idgen_clock.lease" \
        grep -qF 'ERROR:  42501: could not open file "idgen_clock.lease": Permission denied' <<<"$err"
done
chmod 0644 "$lease_file"
is "once the file is writable again, uuid_v7() works" "$(q "SELECT uuid_v7() IS NOT NULL")" t

# A file that holds no lease: logged at start; the clock families go on from
# the clock (they only order; uniqueness rests on random bits) and the next
# renewal writes a good record.
server_stop
echo "not a lease" >"$lease_file"
check "the server starts with a garbage clock lease file" server_start
check "server.log says the file holds no clock lease" \
    grep -qF 'idgen: file "idgen_clock.lease" holds no clock lease' "$dir/server.log"
is "uuid_v7(), ulid() and prefixed_id_new() work" \
    "$(q "SELECT uuid_v7() IS NOT NULL AND ulid() IS NOT NULL AND prefixed_id_new('ord') IS NOT NULL")" t
check "the renewal rewrote the file with a lease" grep -q '^idgen clock lease 1$' "$lease_file"

tap_done
