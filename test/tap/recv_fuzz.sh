#!/usr/bin/env bash
# Binary input fuzzing: random byte strings of every length 0-64 and near
# misses of valid values go to every recv function of idgen's types (ulid,
# prefixed_id, typeid, domains made by prefixed_id_define and typeid_define,
# and arrays of the three), one
# COPY ... FROM (FORMAT binary) per value; test/lib/recv_fuzz.py generates the
# inputs and checks the outcomes. Only clean errors may come back, no backend
# may die, and every accepted value must round-trip through COPY TO and its
# text form. Starts its own cluster, so that its log holds only this test.
# IDGEN_RECV_FUZZ_SEED and IDGEN_RECV_FUZZ_PER_LENGTH change the inputs.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

seed=${IDGEN_RECV_FUZZ_SEED:-20141}
per_length=${IDGEN_RECV_FUZZ_PER_LENGTH:-6}
dir=$(mktemp -d /tmp/idgen-recvfuzz.XXXXXX)
trap 'cluster_stop "$dir"' EXIT
cluster_start "$dir" "shared_preload_libraries = 'idgen'" "fsync = off" || exit 1
io="$dir/io"  # inputs written here, COPY TO outputs written by the server
mkdir "$io"
[[ $EUID -eq 0 ]] && chown postgres: "$io"

check "a database with idgen, the domain account_id and one table per recv function" \
    psql -XAtq -v ON_ERROR_STOP=1 -o /dev/null -c "CREATE EXTENSION idgen;
       SELECT prefixed_id_define('account_id', 'acct');
       CREATE TABLE recv_ulid (v ulid);
       CREATE TABLE recv_prefixed (v prefixed_id);
       CREATE TABLE recv_domain (v account_id);
       CREATE TABLE recv_ulid_array (v ulid[]);
       CREATE TABLE recv_prefixed_array (v prefixed_id[]);
       SELECT typeid_define('user_tid', 'user');
       CREATE TABLE recv_typeid (v typeid);
       CREATE TABLE recv_typeid_domain (v user_tid);
       CREATE TABLE recv_typeid_array (v typeid[])"
# A type added to idgen later must be added to recv_fuzz.py too (array types are
# extension members on 18, not on 15; they are left out here).
is "idgen's base types with a binary input function are ulid, prefixed_id and typeid (all covered)" \
    "$(q "SELECT string_agg(t.typname || ':' || t.typreceive::text, ' ' ORDER BY t.typname)
          FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
          JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
          WHERE e.extname = 'idgen' AND d.deptype = 'e' AND t.typtype = 'b' AND t.typcategory <> 'A'")" \
    "prefixed_id:prefixed_id_recv typeid:typeid_recv ulid:ulid_recv"

echo "# seed $seed, $per_length random inputs per length and type"
out=$(/usr/bin/python3 test/lib/recv_fuzz.py --dir "$io" --seed "$seed" --per-length "$per_length")
status=$?
grep '^#' <<<"$out"
check "recv_fuzz.py ran to its end" test "$status" -eq 0
while IFS=$'\t' read -r result what; do
    check "$what" test "$result" = ok
done < <(grep -E $'^(ok|not ok)\t' <<<"$out")

# A backend that dies by a signal makes the postmaster log it and restart all.
crashes=$(grep -E 'TRAP:|PANIC:|terminated by signal|terminated by exception|exited with exit code|terminating any other active server processes' "$dir/server.log")
is "the server log has no TRAP, PANIC or backend killed by a signal" "$crashes" ""
is "the server still accepts connections and mints IDs" \
    "$(q "SELECT ulid() IS NOT NULL AND prefixed_id_new('acct') IS NOT NULL")" t

tap_done
