#!/usr/bin/env bash
# The 0.5.0 -> 0.6.0 update makes the snowflake decoders and boundaries that
# read idgen.snowflake_epoch STABLE. A generated column or an index built on
# them under 0.5.0 keeps working, but a dump of the database no longer
# restores. The update names each such object (a WARNING with a hint); after
# recreating it with the explicit-epoch form, the dump restores with the same
# values. A database without such objects updates without a warning.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-upgrade060.XXXXXX)
chmod 755 "$dir"
trap 'cluster_stop "$dir/c"; rm -rf "$dir"' EXIT
cluster_start "$dir/c" "shared_preload_libraries = 'idgen'" "fsync = off" "idgen.shard_id = 1" || exit 1

in_db() { PGDATABASE=$1 psql -XAtq -v ON_ERROR_STOP=1 -c "$2"; }

createdb old_surface && createdb plain || exit 1
in_db old_surface "CREATE EXTENSION idgen VERSION '0.5.0';
    CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake(),
                         made timestamptz GENERATED ALWAYS AS (snowflake_time(id)) STORED);
    CREATE INDEX events_made_idx ON events (snowflake_time(id));
    CREATE TABLE small (id bigint PRIMARY KEY DEFAULT snowflake53(1));
    CREATE INDEX small_day_idx ON small (id) WHERE id >= snowflake53_boundary('2026-01-01+00');
    INSERT INTO events SELECT FROM generate_series(1, 100);
    INSERT INTO small SELECT FROM generate_series(1, 100)" || exit 1
in_db plain "CREATE EXTENSION idgen VERSION '0.5.0'; CREATE TABLE t (id bigint DEFAULT snowflake(), made timestamptz DEFAULT now())" || exit 1

update=$(PGDATABASE=old_surface psql -Xq -v ON_ERROR_STOP=1 -c "ALTER EXTENSION idgen UPDATE" 2>&1)
check "the update succeeds" test "$(in_db old_surface "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")" = "$(make -s print-version)"
check "it names the generated column" grep -qF \
    'WARNING:  generated column made of table events uses snowflake_time(bigint), which reads idgen.snowflake_epoch and is STABLE from idgen 0.6.0' <<<"$update"
check "it names the index" grep -qF 'WARNING:  index events_made_idx uses snowflake_time(bigint)' <<<"$update"
check "it names the partial index on a snowflake53 boundary" grep -qF \
    'WARNING:  index small_day_idx uses snowflake53_boundary(timestamp with time zone)' <<<"$update"
is "three warnings, one per object" "$(grep -c '^WARNING:' <<<"$update")" 3
check "the hint names the explicit-epoch forms" grep -qF \
    'HINT:  Recreate it with the form that takes the epoch, such as snowflake_time(id, epoch)' <<<"$update"
plain_update=$(PGDATABASE=plain psql -Xq -v ON_ERROR_STOP=1 -c "ALTER EXTENSION idgen UPDATE" 2>&1)
is "a database without such objects updates silently (a DEFAULT may be STABLE)" "$plain_update" ""
is "the old column and index keep working" \
    "$(in_db old_surface "INSERT INTO events DEFAULT VALUES RETURNING made = snowflake_time(id)")" t

# The dump does not restore, as the warning says.
restore_into() {
    createdb "$2" && pg_dump -d "$1" -f "$dir/c/$1.sql" &&
        PGDATABASE=$2 psql -Xq -v ON_ERROR_STOP=1 -f "$dir/c/$1.sql" >"$dir/c/restore-$2.log" 2>&1
}
restore_into old_surface copy1
check "a dump of the updated database does not restore" test $? -ne 0
check "... because of the generation expression" grep -qF 'generation expression is not immutable' "$dir/c/restore-copy1.log"

# Recreated with the explicit epoch, as the hint says: the dump restores, and
# the values are the same.
in_db old_surface "ALTER TABLE events DROP COLUMN made;
    ALTER TABLE events ADD COLUMN made timestamptz GENERATED ALWAYS AS (snowflake_time(id, '2024-01-01+00')) STORED;
    DROP INDEX events_made_idx; CREATE INDEX events_made_idx ON events (snowflake_time(id, '2024-01-01+00'));
    DROP INDEX small_day_idx;
    CREATE INDEX small_day_idx ON small (id) WHERE id >= snowflake53_boundary('2026-01-01+00', 0, '2024-01-01+00')" || exit 1
check "recreated with the epoch form, the dump restores" restore_into old_surface copy2
is "... with the same rows and times" \
    "$(in_db copy2 "SELECT count(*), sum(extract(epoch FROM made)) FROM events")" \
    "$(in_db old_surface "SELECT count(*), sum(extract(epoch FROM made)) FROM events")"

echo "1..$TAP_N"
exit $((TAP_FAILED > 0))
