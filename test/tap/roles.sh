#!/usr/bin/env bash
# Several login roles on one server: idgen.allowed_shards set with ALTER ROLE
# and ALTER DATABASE limits snowflake(shard) at login and cannot be lifted by
# the client; idgen_stats shows another role's backends only to members of
# that role and of pg_read_all_stats; idgen_snowflake_shards shows a session
# only the shards it may mint on. Needs a preloaded server (PG* env).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh

db=idgen_roles
roles=(idgen_t_alice idgen_t_bob idgen_t_carol idgen_t_dave)
background=

cleanup() {
    [[ -n $background ]] && kill "$background" 2>/dev/null
    dropdb --if-exists --force "$db" 2>/dev/null
    for r in "${roles[@]}"; do psql -XAtq -d postgres -c "DROP ROLE IF EXISTS $r" 2>/dev/null; done
}
trap cleanup EXIT
cleanup

fresh_database "$db" || exit 1
q "CREATE ROLE idgen_t_alice LOGIN;
   CREATE ROLE idgen_t_bob LOGIN;
   CREATE ROLE idgen_t_carol LOGIN IN ROLE pg_read_all_stats;
   CREATE ROLE idgen_t_dave LOGIN IN ROLE idgen_t_alice"
q "ALTER ROLE idgen_t_alice SET idgen.allowed_shards = '5';
   ALTER DATABASE $db SET idgen.allowed_shards = '7';
   ALTER DATABASE $db SET idgen.shard_id = 9"

# as ROLE SQL: runs SQL as a login role in the test database; errors print as
# "ERROR:  SQLSTATE".
as() {
    psql -XAtq -U "$1" -c '\set VERBOSITY sqlstate' -c "$2" 2>&1
}

# Settings from ALTER ROLE (more specific) and ALTER DATABASE, applied at login.
is "alice (ALTER ROLE ... SET idgen.allowed_shards = '5') mints on shard 5" \
    "$(as idgen_t_alice "SELECT snowflake_shard(snowflake(5))")" 5
is "alice is refused shard 7 (her role's setting wins over the database's) with 42501" \
    "$(as idgen_t_alice "SELECT snowflake(7)")" "ERROR:  42501"
is "alice mints on the database's idgen.shard_id (9) with snowflake()" \
    "$(as idgen_t_alice "SELECT snowflake_shard(snowflake())")" 9
is "bob (ALTER DATABASE ... SET idgen.allowed_shards = '7') mints on shard 7" \
    "$(as idgen_t_bob "SELECT snowflake_shard(snowflake(7))")" 7
is "bob is refused shard 5 with 42501" "$(as idgen_t_bob "SELECT snowflake(5)")" "ERROR:  42501"
is "bob is refused shard 0 with 42501" "$(as idgen_t_bob "SELECT snowflake(0)")" "ERROR:  42501"
is "bob mints on idgen.shard_id (9) also as snowflake(9)" \
    "$(as idgen_t_bob "SELECT snowflake_shard(snowflake(9))")" 9

# The client cannot lift the limit: not in the connection options, not with
# SET, not with ALTER ROLE on itself.
output=$(PGOPTIONS="-c idgen.allowed_shards=0-8191" psql -XAtq -U idgen_t_bob -c "SELECT snowflake(5)" 2>&1)
check "bob cannot connect with PGOPTIONS='-c idgen.allowed_shards=0-8191' (got: $output)" \
    grep -q 'permission denied to set parameter "idgen.allowed_shards"' <<<"$output"
is "bob cannot SET idgen.allowed_shards (42501)" \
    "$(as idgen_t_bob "SET idgen.allowed_shards = '0-8191'")" "ERROR:  42501"
is "bob cannot ALTER ROLE himself SET idgen.allowed_shards (42501)" \
    "$(as idgen_t_bob "ALTER ROLE idgen_t_bob SET idgen.allowed_shards = '0-8191'")" "ERROR:  42501"
is "bob cannot ALTER ROLE himself SET idgen.shard_id (42501)" \
    "$(as idgen_t_bob "ALTER ROLE idgen_t_bob SET idgen.shard_id = 5")" "ERROR:  42501"
is "bob's setting is still the database's" "$(as idgen_t_bob "SHOW idgen.allowed_shards")" 7

# A session of alice's that minted and stays connected.
psql -XAtq -U idgen_t_alice -c "SELECT snowflake(5), uuid_v7(); SELECT pg_sleep(120)" >/dev/null 2>&1 &
background=$!
alice_pid=
for _ in $(seq 1 100); do
    alice_pid=$(q "SELECT pid FROM idgen_stats s JOIN pg_stat_activity a USING (pid)
                   WHERE a.usename = 'idgen_t_alice' AND s.family = 'uuid_v7' LIMIT 1")
    [[ -n $alice_pid ]] && break
    sleep 0.1
done
check "alice's background session shows in idgen_stats for a superuser (pid ${alice_pid:-none})" \
    test -n "$alice_pid"
alice_pid=${alice_pid:-0}

count_alice_rows="SELECT count(*) FROM idgen_stats WHERE pid = $alice_pid"
is "bob does not see alice's backend in idgen_stats" "$(as idgen_t_bob "$count_alice_rows")" 0
is "bob sees no backend but his own" \
    "$(as idgen_t_bob "SELECT uuid_v7() IS NOT NULL; SELECT count(*) FILTER (WHERE pid = pg_backend_pid()) || ' own, ' || count(*) FILTER (WHERE pid <> pg_backend_pid()) || ' other' FROM idgen_stats")" \
    "t
1 own, 0 other"
is "bob does not see it through idgen_backend_state() either" \
    "$(as idgen_t_bob "SELECT count(*) FROM idgen_backend_state() WHERE pid = $alice_pid")" 0
is "carol (pg_read_all_stats) sees both of alice's rows" "$(as idgen_t_carol "$count_alice_rows")" 2
is "dave (a member of alice) sees both of alice's rows" "$(as idgen_t_dave "$count_alice_rows")" 2
is "alice sees her other session's rows" "$(as idgen_t_alice "$count_alice_rows")" 2
is "a superuser sees them" "$(q "$count_alice_rows")" 2

# idgen_snowflake_shards: the shards a session may mint on (allowed plus shard_id).
shards="SELECT coalesce(string_agg(shard::text, ',' ORDER BY shard), '') FROM idgen_snowflake_shards
        WHERE family = 'snowflake'"
is "bob sees shards 7 and 9 only" "$(as idgen_t_bob "$shards")" "7,9"
is "alice sees shards 5 and 9 only" "$(as idgen_t_alice "$shards")" "5,9"
is "carol (pg_read_all_stats) sees every shard, including 5 and 7" \
    "$(as idgen_t_carol "SELECT count(*) FROM idgen_snowflake_shards WHERE family = 'snowflake' AND shard IN (5, 7, 9)")" 3

q "SELECT pg_terminate_backend($alice_pid)" >/dev/null
wait "$background"
background=
export PGDATABASE=postgres
tap_done
