#!/usr/bin/env bash
# Stale rows of prefixed_id_registry (issue 14, defect 4): a type defined in
# pg_temp vanishes at the end of its session without firing the sql_drop event
# trigger, so its registry row outlives it. prefixed_id_type() must not return
# the dangling OID, nor the type that later reuses it (the OID counter is set
# back with pg_resetwal -o to make that happen), prefixed_id_define() must free
# the stale row (which needs DELETE on the registry), and a dump must leave
# out the rows of temporary and vanished types, whose names or OIDs mean
# nothing in another database (a live temporary type's row made the restore
# of a plain dump fail). Own cluster: it restarts it and creates a role.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-stale.XXXXXX)
chmod 755 "$dir"
trap 'cluster_stop "$dir"' EXIT
cluster_start "$dir" "shared_preload_libraries = 'idgen'" "fsync = off" || exit 1
fresh_database stale || exit 1
dropdb --if-exists restored 2>/dev/null

# fails_with SQL ERROR_LINE: SQL fails, printing ERROR_LINE (verbose, so with the SQLSTATE).
fails_with() {
    local out
    out=$(psql -XAtq -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -c "$1" 2>&1) && {
        echo "# unexpectedly succeeded: $out"
        return 1
    }
    grep -qxF "$2" <<<"$out" && return 0
    sed 's/^/# /' <<<"$out"
    return 1
}

# temp_type NAME PREFIX: defines NAME in a session's pg_temp (set first in the
# search_path, after a temporary table made the schema exist) and ends the
# session; prints the type's OID and its array type's.
temp_type() {
    psql -XAtq -v ON_ERROR_STOP=1 -c "CREATE TEMP TABLE keep_temp_schema ()" \
        -c "SET search_path = pg_temp, public" -c "SELECT prefixed_id_define('$1', '$2') IS NULL" \
        -c "SELECT oid || ' ' || typarray FROM pg_type WHERE oid = '$1'::regtype" | tail -n 1
}

# gone OID: waits (up to 10 s) until the backend that ended has dropped its
# temporary objects, so that no type has OID.
gone() {
    [[ $1 =~ ^[0-9]+$ ]] || return 1
    for _ in $(seq 1 100); do
        [[ $(q "SELECT count(*) FROM pg_type WHERE oid = $1") == 0 ]] && return 0
        sleep 0.1
    done
    return 1
}

# 0. Types defined before 0.5.0 (by 0.4.0's prefixed_id_define, in a database
#    then updated) are live: their CHECKs read as the lookups expect.
check "database upgraded: CREATE EXTENSION idgen VERSION '0.4.0', define account_id and session_token, UPDATE" \
    bash -c "dropdb --if-exists upgraded 2>/dev/null; createdb upgraded &&
             psql -XAtq -v ON_ERROR_STOP=1 -d upgraded -c \"CREATE EXTENSION idgen VERSION '0.4.0'\" \
                  -c \"SELECT prefixed_id_define('account_id', 'acct')\" \
                  -c \"SELECT prefixed_id_define('session_token', 'sess', true)\" \
                  -c 'ALTER EXTENSION idgen UPDATE' >/dev/null"
is "upgraded: prefixed_id_type resolves the types defined before the update" \
    "$(PGDATABASE=upgraded q "SELECT prefixed_id_type('acct_0000000000000000000000001') || ' '
                              || prefixed_id_type('sess_0000000000000000000000001')")" "account_id session_token"
check "upgraded: their prefixes are still taken (42710)" \
    bash -c "PGDATABASE=upgraded psql -XAtq -v VERBOSITY=verbose -c \"SELECT prefixed_id_define('other_id', 'acct')\" 2>&1 |
             grep -qxF 'ERROR:  42710: prefix \"acct\" is already used by type public.account_id'"
is "upgraded: DROP DOMAIN account_id frees acct, which can be defined again" \
    "$(PGDATABASE=upgraded psql -XAtq -v ON_ERROR_STOP=1 -c 'DROP DOMAIN account_id' \
           -c "SELECT prefixed_id_define('account_id', 'acct')" -c "SELECT string_agg(prefix, ' ' ORDER BY prefix) FROM prefixed_id_registry")" \
    $'account_id\nacct sess'
dropdb upgraded

# 1. A temporary type while its session lives: its prefix is taken.
fifo=$dir/session_a
mkfifo "$fifo"
chmod 666 "$fifo"
# Session A reads its statements from the fifo and stays connected until it is closed.
psql -XAtq -v ON_ERROR_STOP=1 <"$fifo" >"$dir/session_a.out" 2>&1 &
session_a=$!
exec 3>"$fifo"
echo "CREATE TEMP TABLE keep_temp_schema (); SET search_path = pg_temp, public;
      SELECT prefixed_id_define('tmp_id', 'tmp')::oid;" >&3
for _ in $(seq 1 100); do [[ -s $dir/session_a.out ]] && break; sleep 0.1; done
tmp_oid=$(head -n 1 "$dir/session_a.out")
check "session A defines tmp_id in its pg_temp (OID $tmp_oid)" test -n "$tmp_oid"
is "another session's prefixed_id_type resolves tmp_ to session A's temporary type" \
    "$(q "SELECT prefixed_id_type('tmp_0000000000000000000000001')::oid || ' '
                 || ((SELECT nspname FROM pg_namespace n JOIN pg_type t ON t.typnamespace = n.oid
                      WHERE t.oid = prefixed_id_type('tmp_0000000000000000000000001')) ~ '^pg_temp_')")" \
    "$tmp_oid true"
check "another session cannot define the live temporary type's prefix tmp (42710)" \
    fails_with "SELECT prefixed_id_define('tmp_other_id', 'tmp')" \
    "ERROR:  42710: prefix \"tmp\" is already used by type $(q "SELECT '$tmp_oid'::regtype")"

is "a persistent type is defined next to it: account_id, acct" "$(q "SELECT prefixed_id_define('account_id', 'acct')")" account_id
check "pg_dump -Fp while session A lives" pg_dump -Fp -d stale -f "$dir/live.sql"
check "the dump leaves the temporary type's registry row out and keeps acct's" \
    bash -c "sed -n '/^COPY public.prefixed_id_registry/,/^\\\\\\./p' '$dir/live.sql' | cut -f1 | tr '\n' ' ' |
             grep -qx 'COPY public.prefixed_id_registry (prefix, type, token) FROM stdin; acct \\\\. '"
check "the dump restores into a new database with psql -v ON_ERROR_STOP=1" \
    bash -c "createdb restored && psql -Xq -v ON_ERROR_STOP=1 -d restored -f '$dir/live.sql' -o /dev/null"
is "the restored registry has acct only" \
    "$(PGDATABASE=restored q "SELECT string_agg(prefix || '=' || type::text, ' ') FROM prefixed_id_registry")" \
    "acct=account_id"
dropdb restored

# 2. Session A ends: the type goes, the trigger does not fire, the row stays.
exec 3>&-
wait "$session_a"
check "session A's temporary type is dropped when the session ends" gone "$tmp_oid"
is "its registry row is still there (temporary objects are dropped without event triggers)" \
    "$(q "SELECT count(*) FROM prefixed_id_registry WHERE prefix = 'tmp' AND type = '$tmp_oid'::oid")" 1
check "prefixed_id_type does not return the dangling OID: 42704" \
    fails_with "SELECT prefixed_id_type('tmp_0000000000000000000000001')" \
    'ERROR:  42704: no prefixed ID type has the prefix "tmp"'
detail=$(psql -XAtq -c "SELECT prefixed_id_type('tmp_0000000000000000000000001')" 2>&1 | grep '^DETAIL:')
is "... and its detail says that the registered type is gone" "$detail" \
    "DETAIL:  The ID was 'tmp_0000000000000000000000001'. The type registered for \"tmp\" (OID $tmp_oid) no longer exists or no longer checks this prefix, as happens to a type in pg_temp when its session ends."
check "pg_dump -Fp of the stale row's database" pg_dump -Fp -d stale -f "$dir/stale.sql"
check "the dump leaves the stale row out" \
    bash -c "! grep -qP '^tmp\\t' '$dir/stale.sql' && grep -qP '^acct\\t' '$dir/stale.sql'"

# 3. Defining the prefix again frees the stale row; it needs DELETE on the registry.
check "role definer may create in public and insert (not delete) registry rows" \
    q "CREATE ROLE definer LOGIN; GRANT CREATE ON SCHEMA public TO definer;
       GRANT INSERT ON prefixed_id_registry TO definer"
check "definer's prefixed_id_define of the stale prefix fails for want of DELETE (42501)" \
    bash -c "PGUSER=definer psql -XAtq -v ON_ERROR_STOP=1 -v VERBOSITY=verbose \
                 -c \"SELECT prefixed_id_define('tmp2_id', 'tmp')\" 2>&1 |
             grep -qxF 'ERROR:  42501: permission denied for table prefixed_id_registry'"
is "the failed define left no type behind" "$(q "SELECT to_regtype('tmp2_id') IS NULL")" t
check "with DELETE granted, definer defines tmp2_id with the stale prefix tmp" \
    bash -c "psql -XAtq -v ON_ERROR_STOP=1 -c 'GRANT DELETE ON prefixed_id_registry TO definer' &&
             [[ \$(PGUSER=definer psql -XAtq -v ON_ERROR_STOP=1 -c \"SELECT prefixed_id_define('tmp2_id', 'tmp')\") == tmp2_id ]]"
is "the registry's tmp row names tmp2_id, and the stale OID is gone from it" \
    "$(q "SELECT string_agg(type::text, ' ') FROM prefixed_id_registry WHERE prefix = 'tmp'") \
$(q "SELECT count(*) FROM prefixed_id_registry WHERE type = '$tmp_oid'::oid")" "tmp2_id 0"
is "prefixed_id_type resolves tmp_ to tmp2_id" "$(q "SELECT prefixed_id_type('tmp_0000000000000000000000001')")" tmp2_id

# 4. Reused OIDs. Two more temporary types end with their sessions; then the
#    OID counter is set back so that new types take their OIDs.
read -r gone_oid _ <<<"$(temp_type gone_id gone)"
check "gone_id (OID $gone_oid) is defined in pg_temp and dropped when its session ends" gone "$gone_oid"
read -r gone2_oid gone2_array <<<"$(temp_type gone2_id gone_two)"
check "gone2_id (OID $gone2_oid) is defined in pg_temp and dropped when its session ends" gone "$gone2_oid"
# Its array type too. The look-up also lets the index drop the dead entry of
# that OID, which would otherwise make the OID counter skip it below (new OIDs
# are checked against dead entries too), depending on what else read the index.
check "gone2_id's array type (OID $gone2_array) is dropped with it" gone "$gone2_array"

# cluster_set_next_oid OID: restarts the server with its OID counter at OID.
cluster_set_next_oid() {
    as_cluster_owner pg_ctl -D "$dir/data" -m fast -w stop >/dev/null &&
        as_cluster_owner "$PG_BIN/pg_resetwal" -o "$1" "$dir/data" >/dev/null &&
        as_cluster_owner pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
}
check "the server restarts with the next OID set to $gone_oid (pg_resetwal -o)" cluster_set_next_oid "$gone_oid"
check "CREATE DOMAIN reuse_a AS int" q "CREATE DOMAIN reuse_a AS int"
reused=$(q "SELECT '$gone_oid'::regtype")
check "OID $gone_oid, gone_id's, now names $reused" test "$reused" != "$gone_oid"
check "prefixed_id_type does not return the type that reuses the OID: 42704" \
    fails_with "SELECT prefixed_id_type('gone_0000000000000000000000001')" \
    'ERROR:  42704: no prefixed ID type has the prefix "gone"'

# gone2_id's array type (CREATE DOMAIN makes it first) came just before it:
# with the counter there, a new define's array type takes that OID and its
# domain gone2_id's.
check "the server restarts with the next OID set to $gone2_array (pg_resetwal -o)" cluster_set_next_oid "$gone2_array"
is "prefixed_id_define('fresh_id', 'fresh') works although its new OID is in gone_two's stale row" \
    "$(q "SELECT prefixed_id_define('fresh_id', 'fresh')::oid")" "$gone2_oid"
check "prefixed_id_type does not return fresh_id for gone_two (another prefix's type): 42704" \
    fails_with "SELECT prefixed_id_type('gone_two_0000000000000000000000001')" \
    'ERROR:  42704: no prefixed ID type has the prefix "gone_two"'
is "prefixed_id_type resolves fresh_ to fresh_id" "$(q "SELECT prefixed_id_type('fresh_0000000000000000000000001')")" fresh_id
is "the registry: acct, fresh, gone (stale, OID reused), tmp" \
    "$(q "SELECT string_agg(prefix || '=' || type::text, ' ' ORDER BY prefix) FROM prefixed_id_registry")" \
    "acct=account_id fresh=fresh_id gone=$reused tmp=tmp2_id"
is "prefixed_id_define frees gone, whose OID another type took" \
    "$(q "SELECT prefixed_id_define('gone_again_id', 'gone')")" gone_again_id
is "prefixed_id_type resolves gone_ to gone_again_id" \
    "$(q "SELECT prefixed_id_type('gone_0000000000000000000000001')")" gone_again_id
tap_done
