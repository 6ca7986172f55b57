#!/usr/bin/env bash
# idgen.snowflake_epoch: IDs that ran out (sql/snowflake_exhausted.sql through
# pg_regress, on a server whose epoch is 1990-01-01), an epoch moved one day
# later after IDs were issued (refused by the lease high-water mark, with an
# error and a start-up warning that give the way through: the former epoch),
# one day earlier (accepted, new IDs above the old ones), an epoch less than
# 2^30 ms ago (snowflake() refuses, snowflake53() mints), invalid or session-level
# settings, and both splits minting up to the exhaustion date. Every cluster is its own, under a mktemp directory.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

repo=$PWD
pg_regress=${PG_REGRESS:-$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress}

top=$(mktemp -d /tmp/idgen-epoch.XXXXXX)
chmod 755 "$top"  # the clusters inside are run by an unprivileged user
cleanup() {
    cluster_stop "$top/exhausted"
    cluster_stop "$top/moved"
    rm -rf "$top"
}
trap cleanup EXIT

# set_epoch DIR VALUE: stop the server, set the epoch in postgresql.conf (the
# last line wins), start it again.
set_epoch() {
    as_cluster_owner pg_ctl -D "$1/data" -m fast -w stop >/dev/null || return 1
    echo "idgen.snowflake_epoch = '$2'" >>"$1/data/postgresql.conf"
    as_cluster_owner pg_ctl -D "$1/data" -l "$1/server.log" -w -t 60 start >/dev/null || {
        tail -n 20 "$1/server.log" >&2
        return 1
    }
}

lease_file() {
    cat "$1/data/idgen_snowflake.lease" 2>/dev/null
}

# 1. Exhausted IDs: pg_regress runs sql/snowflake_exhausted.sql against a
#    server whose epoch is so early that 2^40 ms after it is already past.
cluster_start "$top/exhausted" "shared_preload_libraries = 'idgen'" "fsync = off" \
    "idgen.snowflake_epoch = '1990-01-01'" || exit 1
# Inputs come from the repository's sql/ and expected/; results/, regression.out
# and regression.diffs go to the output directory, outside the repository.
regress_out="$top/regress"
run_regress() {
    mkdir -p "$regress_out"
    "$pg_regress" --inputdir="$repo" --outputdir="$regress_out" --bindir="$PG_BIN" \
        --host="$PGHOST" --port="$PGPORT" --user=postgres --dbname=idgen_exhausted \
        --load-extension=idgen snowflake_exhausted >"$regress_out/pg_regress.log" 2>&1 &&
        # 15 prints "test NAME ... ok", 16 and later TAP's "ok N - NAME".
        grep -qE '^(test snowflake_exhausted +\.\.\. ok|ok [0-9]+ +- snowflake_exhausted )' \
            "$regress_out/pg_regress.log" && return 0
    sed 's/^/# /' "$regress_out/pg_regress.log"
    [[ -f $regress_out/regression.diffs ]] && sed 's/^/# /' "$regress_out/regression.diffs"
    return 1
}
check "pg_regress snowflake_exhausted passes (epoch 1990-01-01: IDs ran out)" run_regress
is "pg_regress wrote nothing into the repository" \
    "$(find "$repo" -path "$repo/.git" -prune -o -name '*snowflake_exhausted*' -print |
        grep -vxE "$repo/(sql/snowflake_exhausted\.sql|expected/snowflake_exhausted\.out)")" ""
cluster_stop "$top/exhausted"

# 2. The epoch moved after IDs were issued (default epoch 2024-01-01 first).
dir="$top/moved"
cluster_start "$dir" "shared_preload_libraries = 'idgen'" "fsync = off" || exit 1
q "CREATE EXTENSION idgen;
   CREATE TABLE ids (n bigserial, phase text, id bigint, minted_at timestamptz)" || exit 1
q "INSERT INTO ids (phase, id, minted_at)
   SELECT 'old', snowflake(1), clock_timestamp() FROM generate_series(1, 5000)" || exit 1
is "default epoch: old IDs decode to the time they were minted" \
    "$(q "SELECT bool_and(abs(extract(epoch FROM snowflake_time(id) - minted_at)) < 5) FROM ids")" t
lease_before=$(lease_file "$dir")
check "the lease file was written while minting" test -n "$lease_before"

# One day later: the lease says IDs up to about now (old epoch) were issued, so
# every new ID would have to be a day ahead of the clock.
set_epoch "$dir" "2024-01-02" || exit 1
lease_at_start=$(lease_file "$dir")  # the clean stop lowered it to the last ID issued
is "the server runs with the later epoch" "$(q "SHOW idgen.snowflake_epoch")" "2024-01-02"
later=$(psql -Xq -v VERBOSITY=verbose 2>&1 <<'SQL'
INSERT INTO ids (phase, id, minted_at) SELECT 'later', snowflake(1), clock_timestamp() FROM generate_series(1, 10);
\echo sqlstate=:LAST_ERROR_SQLSTATE
SET idgen.max_clock_regression = '1h';
SELECT snowflake(1);
\echo sqlstate_1h=:LAST_ERROR_SQLSTATE
\pset tuples_only on
\pset format unaligned
SELECT 'minted=' || count(*) FROM idgen_stats WHERE family = 'snowflake';
SELECT 'shard_rows=' || count(*) FROM idgen_snowflake_shards WHERE last_id IS NOT NULL;
SQL
)
check "epoch moved later: snowflake(1) fails with SQLSTATE 55000" grep -qx "sqlstate=55000" <<<"$later"
lead=$(sed -n 's/^ERROR:  55000: system clock is \([0-9]*\) ms behind snowflake shard 1$/\1/p' <<<"$later" | head -n 1)
check "the error says the clock is about one day (86400000 ms) behind shard 1 (got ${lead:-no such message})" \
    test "${lead:-0}" -ge 86340000 -a "${lead:-0}" -le 86402000
# A day is beyond what any idgen.max_clock_regression covers (1 h at most):
# the error says what happened and the way through, the old epoch.
check "the detail says the epoch was moved later (new IDs would repeat issued ones) or the clock set back" \
    grep -qE "^DETAIL:  The shard has issued IDs up to [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]+\\+00 counted from idgen.snowflake_epoch \(2024-01-02 00:00:00\+00\)\. Either idgen.snowflake_epoch was moved later after IDs were issued, so that new IDs would repeat issued ones, or the system clock was set back\.$" <<<"$later"
check "the hint gives the way through (the old epoch, or an earlier one) and says raising idgen.max_clock_regression cannot help" \
    grep -q "^HINT:  Set idgen.snowflake_epoch back to the value the issued IDs count from (an earlier epoch is safe too) and restart the server, or correct the system clock. Raising idgen.max_clock_regression cannot help: it is at most 1 h.$" <<<"$later"
check "the server warned at start that issued IDs are ahead of the clock under the new epoch" \
    grep -q "WARNING:  idgen: snowflake IDs were issued up to [0-9]* ms ahead of the clock counted from idgen.snowflake_epoch" "$dir/server.log"
check "even with idgen.max_clock_regression = 1h it fails with 55000" grep -qx "sqlstate_1h=55000" <<<"$later"
check "the session minted no snowflake ID" grep -qx "minted=0" <<<"$later"
check "no shard issued an ID since the restart" grep -qx "shard_rows=0" <<<"$later"
is "no ID was stored under the later epoch" "$(q "SELECT count(*) FROM ids WHERE phase = 'later'")" 0
is "refused calls did not renew the lease" "$(lease_file "$dir")" "$lease_at_start"

# The documented way through: the former epoch again. IDs flow, above the old ones.
set_epoch "$dir" "2024-01-01" || exit 1
check "back on the former epoch: snowflake(1) works again" \
    q "INSERT INTO ids (phase, id, minted_at) SELECT 'restored', snowflake(1), clock_timestamp() FROM generate_series(1, 10)"
is "the restored epoch's IDs are above the old ones" \
    "$(q "SELECT (SELECT min(id) FROM ids WHERE phase = 'restored') > (SELECT max(id) FROM ids WHERE phase = 'old')")" t

# One day earlier: the clock is a day ahead of every issued ID, so IDs flow again.
set_epoch "$dir" "2023-12-31" || exit 1
is "the server runs with the earlier epoch" "$(q "SHOW idgen.snowflake_epoch")" "2023-12-31"
check "epoch moved earlier: snowflake(1) works" \
    q "INSERT INTO ids (phase, id, minted_at)
       SELECT 'earlier', snowflake(1), clock_timestamp() FROM generate_series(1, 5000)"
is "5000 new IDs, all of shard 1" \
    "$(q "SELECT count(*) || ' ' || min(snowflake_shard(id)) || '-' || max(snowflake_shard(id)) FROM ids WHERE phase = 'earlier'")" "5000 1-1"
is "every new ID is greater than every old one" \
    "$(q "SELECT (SELECT min(id) FROM ids WHERE phase = 'earlier') > (SELECT max(id) FROM ids WHERE phase IN ('old', 'restored'))")" t
is "the new IDs increase in the order they were minted" \
    "$(q "SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM ids WHERE phase = 'earlier') s WHERE bad")" 0
is "new IDs decode with the new epoch, close to clock_timestamp()" \
    "$(q "SELECT bool_and(abs(extract(epoch FROM snowflake_time(id) - minted_at)) < 5) FROM ids WHERE phase = 'earlier'")" t
is "old IDs now decode one day before they were minted" \
    "$(q "SELECT bool_and(abs(extract(epoch FROM snowflake_time(id) + interval '1 day' - minted_at)) < 5) FROM ids WHERE phase = 'old'")" t

# 3. Invalid values and session-level changes are refused.
bad=$(psql -Xq -v VERBOSITY=verbose -c "ALTER SYSTEM SET idgen.snowflake_epoch = 'yesterday'" 2>&1)
check "ALTER SYSTEM SET idgen.snowflake_epoch = 'yesterday' fails with SQLSTATE 22023" \
    grep -q '^ERROR:  22023: invalid value for parameter "idgen.snowflake_epoch": "yesterday"$' <<<"$bad"
check "the detail gives the expected format" \
    grep -q "^DETAIL:  The epoch is a UTC date or time from 1970 on, such as '2024-01-01' or '2024-01-01 12:00:00'.$" <<<"$bad"
bad=$(psql -Xq -v VERBOSITY=verbose -c "ALTER SYSTEM SET idgen.snowflake_epoch = '1969-12-31'" 2>&1)
check "an epoch before 1970 fails with SQLSTATE 22023" \
    grep -q '^ERROR:  22023: invalid value for parameter "idgen.snowflake_epoch": "1969-12-31"$' <<<"$bad"
check "ALTER SYSTEM wrote nothing to postgresql.auto.conf" \
    bash -c "! grep -q snowflake_epoch '$dir/data/postgresql.auto.conf'"
bad=$(psql -Xq -v VERBOSITY=verbose -c "SET idgen.snowflake_epoch = '2020-01-01'" 2>&1)
check "SET idgen.snowflake_epoch in a session fails with SQLSTATE 55P02" \
    grep -q '^ERROR:  55P02: parameter "idgen.snowflake_epoch" cannot be changed without restarting the server$' <<<"$bad"
is "the epoch is unchanged" "$(q "SHOW idgen.snowflake_epoch")" "2023-12-31"

# 4. A lease that cannot be written: the clean restart lowered the lease to the
#    last ID, so the next ID must renew it first; without write access it fails
#    and issues nothing.
set_epoch "$dir" "2023-12-31" || exit 1
as_cluster_owner chmod 0444 "$dir/data/idgen_snowflake.lease"
bad=$(psql -Xq -v VERBOSITY=verbose -c "SELECT snowflake(1)" 2>&1)
check "an unwritable lease file fails snowflake() with SQLSTATE 42501 naming the file" \
    grep -q '^ERROR:  42501: could not open file "idgen_snowflake.lease": Permission denied$' <<<"$bad"
is "nothing was issued while the lease could not be written" \
    "$(q "SELECT count(*) FROM idgen_snowflake_shards")" 0
as_cluster_owner chmod 0600 "$dir/data/idgen_snowflake.lease"
check "with the file writable again snowflake(1) works" \
    q "INSERT INTO ids (phase, id) SELECT 'rewritable', snowflake(1) FROM generate_series(1, 10)"
is "and stays above every earlier ID" \
    "$(q "SELECT (SELECT min(id) FROM ids WHERE phase = 'rewritable') > (SELECT max(id) FROM ids WHERE phase <> 'rewritable')")" t

# 5. An epoch in the future: the clock reads before it.
set_epoch "$dir" "2099-01-01" || exit 1
bad=$(psql -Xq -v VERBOSITY=verbose -c "SET TimeZone = 'UTC'" -c "SELECT snowflake(1)" 2>&1)
check "a clock before idgen.snowflake_epoch fails snowflake() with SQLSTATE 22008" \
    grep -q '^ERROR:  22008: system clock is before idgen.snowflake_epoch (2099-01-01 00:00:00+00)$' <<<"$bad"
# 5b. An epoch less than 2^30 ms (about 12.4 days) ago: snowflake() leaves
#     those milliseconds unused, so that its IDs stay at least 2^53 and never
#     look like snowflake53() IDs; snowflake53() mints. The lease is removed
#     first (this epoch is later than the IDs issued above).
recent=$(q "SELECT to_char((now() - interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')")
as_cluster_owner pg_ctl -D "$dir/data" -m fast -w stop >/dev/null || exit 1
as_cluster_owner rm -f "$dir/data/idgen_snowflake.lease"
echo "idgen.snowflake_epoch = '$recent'" >>"$dir/data/postgresql.conf"
as_cluster_owner pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null || exit 1
bad=$(psql -Xq -v VERBOSITY=verbose -c "SELECT snowflake(1)" 2>&1)
check "an epoch one day ago: snowflake(1) fails with SQLSTATE 22008" grep -q "^ERROR:  22008: snowflake() mints from " <<<"$bad"
check "the detail says the first 2^30 ms are unused so that IDs stay at least 2^53" \
    grep -q "^DETAIL:  The first 2^30 ms (about 12.4 days) after idgen.snowflake_epoch (.*) are left unused, so that every snowflake() ID is at least 2^53 and never looks like a snowflake53() ID.$" <<<"$bad"
is "snowflake53(1) mints with that epoch, and its ID is below 2^53" \
    "$(q "SELECT snowflake53(1) BETWEEN 1 AND 9007199254740991")" t

# 6. At the exhaustion date. The epoch is 2^40 ms minus 60 s before now, and
#    the lease file says IDs up to the second-to-last millisecond were issued
#    (as a server that minted right up to the end would leave it), so every
#    shard resumes there; idgen.max_clock_regression = 1h lets it run that far
#    ahead of the clock. Each split then mints on its top shard until it runs
#    out: the last ID issued is the largest the split allows (2^63 - 1 and
#    2^53 - 1, JavaScript's Number.MAX_SAFE_INTEGER), then 22008.
epoch=$(q "SELECT to_char((now() - interval '1 ms' * 2^40 + interval '60 s') AT TIME ZONE 'UTC',
                          'YYYY-MM-DD HH24:MI:SS.MS')")
as_cluster_owner pg_ctl -D "$dir/data" -m fast -w stop >/dev/null || exit 1
printf "idgen.snowflake_epoch = '%s'\nidgen.max_clock_regression = '1h'\n" "$epoch" >>"$dir/data/postgresql.conf"
as_cluster_owner bash -c "printf 'idgen snowflake lease 1\n%020d\n' $(((1 << 40) - 2)) >'$dir/data/idgen_snowflake.lease'"
as_cluster_owner pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null || exit 1
# mint_to_the_end FUNCTION SHARD: mints until a call fails; prints "sqlstate
# calls last_id" (last_id from idgen_snowflake_shards).
mint_to_the_end() {
    q "CREATE TEMP TABLE the_end (state text, calls int);
       DO \$\$
       DECLARE
           calls int := 0;
       BEGIN
           LOOP
               PERFORM $1($2);
               calls := calls + 1;
           END LOOP;
       EXCEPTION WHEN OTHERS THEN
           INSERT INTO the_end VALUES (SQLSTATE, calls);
       END \$\$;
       SELECT state || ' ' || calls || ' ' || coalesce((SELECT last_id FROM idgen_snowflake_shards
                                                         WHERE family = '$1' AND shard = $2)::text, 'none')
       FROM the_end"
}
for split in "snowflake 8191 9223372036854775807 2048" "snowflake53 15 9007199254740991 1024"; do
    read -r fn shard max_id stamps <<<"$split"
    read -r state calls last <<<"$(mint_to_the_end "$fn" "$shard")"
    is "$fn($shard) at the exhaustion date: minting ends with SQLSTATE 22008" "${state:-none}" 22008
    is "$fn($shard): every stamp of the last two milliseconds was issued first" "${calls:-none}" "$stamps"
    is "$fn($shard): the last ID issued is the largest one, $max_id" "${last:-none}" "$max_id"
    is "$fn($shard): the last ID decodes to the last millisecond" \
        "$(q "SELECT ${fn}_time($max_id) = '$epoch+00'::timestamptz + interval '1 ms' * (2^40 - 1)")" t
done
is "the split's shard state shows the largest ID of each" \
    "$(q "SELECT string_agg(family || '=' || last_id, ' ' ORDER BY family) FROM idgen_snowflake_shards WHERE last_id IS NOT NULL")" \
    "snowflake=9223372036854775807 snowflake53=9007199254740991"
tap_done
