#!/usr/bin/env bash
# uuid_v7 when the system clock is set back under a running server: values keep
# increasing within a backend, 'server' order keeps new backends above old
# values, and idgen_stats counts the regression. The clock is moved with
# libfaketime (Debian package faketime), preloaded into the server only.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-clock.XXXXXX)
trap 'cluster_stop "$dir"' EXIT
if ! use_fake_clock "$dir"; then
    echo "not ok 1 - libfaketime is installed (package faketime)"
    exit 1
fi
offset_file=$CLOCK_OFFSET_FILE
cluster_start "$dir" "shared_preload_libraries = 'idgen'" "fsync = off" || exit 1
q "CREATE EXTENSION idgen; CREATE TABLE ids (n serial, phase text, id uuid)"

# One backend across the regression, in backend order.
output=$(psql -XAtq -v ON_ERROR_STOP=1 2>&1 <<SQL
INSERT INTO ids (phase, id) SELECT 'before', uuid_v7() FROM generate_series(1, 2000);
\! echo "-30" > "$offset_file"
INSERT INTO ids (phase, id) SELECT 'after', uuid_v7() FROM generate_series(1, 2000);
SELECT 'regressions=' || clock_regressions || ' ran_ahead=' || ran_ahead FROM idgen_stats WHERE pid = pg_backend_pid();
SQL
)
check "minting across a 30 s clock regression succeeds" test $? -eq 0
regressions=$(sed -n 's/^regressions=\([0-9]*\) .*/\1/p' <<<"$output")
ran_ahead=$(sed -n 's/.*ran_ahead=\([0-9]*\)$/\1/p' <<<"$output")
check "idgen_stats counted the clock regression (got ${regressions:-none})" test "${regressions:-0}" -ge 1
check "every value after the regression ran ahead of the clock (got ${ran_ahead:-none})" test "${ran_ahead:-0}" -ge 2000
is "values stay strictly increasing within the backend" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM ids) s WHERE bad")" 0
is "the embedded time did not go back with the clock" \
    "$(q "SELECT (SELECT min(uuid_v7_time(id)) FROM ids WHERE phase = 'after') >= (SELECT max(uuid_v7_time(id)) FROM ids WHERE phase = 'before')")" t

# Server order: a new backend after the clock went back stays above older values.
set_clock_offset "+0"
PGOPTIONS="-c idgen.uuid_v7_order=server" q "INSERT INTO ids (phase, id) SELECT 'server-before', uuid_v7() FROM generate_series(1, 2000)"
set_clock_offset "-30"
PGOPTIONS="-c idgen.uuid_v7_order=server" q "INSERT INTO ids (phase, id) SELECT 'server-after', uuid_v7() FROM generate_series(1, 2000)"
is "server order: a new backend after the regression issues only larger values" \
    "$(q "SELECT (SELECT id FROM ids WHERE phase = 'server-after' ORDER BY id LIMIT 1) > (SELECT id FROM ids WHERE phase = 'server-before' ORDER BY id DESC LIMIT 1)")" t
is "the server clock really is 30 s behind during the test" \
    "$(q "SELECT abs(extract(epoch FROM clock_timestamp()) - $(date +%s) + 30) < 10")" t
tap_done
