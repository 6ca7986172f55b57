#!/usr/bin/env bash
# The extension's schema renamed by its non-superuser owner (issue 14, defect 3):
# idgen is installed into a schema owned by an ordinary role, which defines
# prefixed types and then renames the schema (twice). Other users' DROP TYPE of
# an unrelated type, a DROP of a defined type and a superuser's DROP SCHEMA ...
# CASCADE must work, the registry must stay right, and prefixed_id_define and
# prefixed_id_type must keep working whatever the caller's search_path. The
# domains' CHECKs hold without the extension's schema in the search_path, and
# a CHECK written under a search_path that puts a schema with its own
# =(text, text) before pg_catalog still compares with pg_catalog's.
# Own cluster: it creates roles.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

dir=$(mktemp -d /tmp/idgen-rename.XXXXXX)
trap 'cluster_stop "$dir"' EXIT
cluster_start "$dir" "shared_preload_libraries = 'idgen'" "fsync = off" || exit 1
export PGDATABASE=rename

# as ROLE SQL...: each SQL as one psql -c, as ROLE; the output, errors included.
as() {
    local role=$1 args=()
    shift
    for sql in "$@"; do args+=(-c "$sql"); done
    psql -XAtq -v ON_ERROR_STOP=1 -v VERBOSITY=default -U "$role" "${args[@]}" 2>&1
}

# fails_as ROLE SQL ERROR_LINE: SQL fails for ROLE, printing ERROR_LINE (verbose, so with the SQLSTATE).
fails_as() {
    local out
    out=$(psql -XAtq -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -U "$1" -c "$2" 2>&1) && {
        echo "# unexpectedly succeeded: $out"
        return 1
    }
    grep -qxF "$3" <<<"$out" && return 0
    sed 's/^/# /' <<<"$out"
    return 1
}

# runs_as ROLE SQL...: SQL succeeds for ROLE; its output is shown (as comments) only on failure.
runs_as() {
    local out
    out=$(as "$@") && return 0
    sed 's/^/# /' <<<"$out"
    return 1
}

registry() {
    q "SELECT string_agg(prefix || '=' || type::text, ' ' ORDER BY prefix)
       FROM ${1}.prefixed_id_registry"
}

# 1. An ordinary role installs idgen into its own schema and defines a type in
#    its application schema; another role defines types in its own schema.
check "setup: roles idgen_owner and idgen_user, database rename" \
    bash -c 'psql -XAtq -v ON_ERROR_STOP=1 -d postgres -c "CREATE ROLE idgen_owner LOGIN" \
                  -c "CREATE ROLE idgen_user LOGIN" -c "CREATE DATABASE rename" &&
             psql -XAtq -v ON_ERROR_STOP=1 -c "GRANT CREATE ON DATABASE rename TO idgen_owner"'
is "idgen_owner creates schema ids and installs idgen (a trusted extension) into it" \
    "$(as idgen_owner "CREATE SCHEMA ids" "CREATE EXTENSION idgen SCHEMA ids" \
          "SELECT extnamespace::regnamespace || ' ' || extowner::regrole || ' '
                  || (SELECT rolsuper FROM pg_roles WHERE oid = extowner)
           FROM pg_extension WHERE extname = 'idgen'")" "ids idgen_owner false"
is "idgen_owner defines app.account_id with search_path = app (without ids)" \
    "$(as idgen_owner "CREATE SCHEMA app" "GRANT USAGE ON SCHEMA app TO idgen_user" \
          "SET search_path = app; SELECT ids.prefixed_id_define('account_id', 'acct')" \
          "CREATE TABLE app.accounts (id app.account_id PRIMARY KEY, note text)" \
          "GRANT USAGE ON SCHEMA ids TO idgen_user")" "account_id"
check "setup: schema other owned by idgen_user, which may define types" \
    q "CREATE SCHEMA other AUTHORIZATION idgen_user;
       GRANT INSERT, DELETE ON ids.prefixed_id_registry TO idgen_user"
is "idgen_user defines other.order_id and other.line_id, and creates unrelated types" \
    "$(as idgen_user "SET search_path = other; SELECT ids.prefixed_id_define('order_id', 'ord')" \
          "SET search_path = other; SELECT ids.prefixed_id_define('line_id', 'line', true)" \
          "CREATE TYPE other.mood AS ENUM ('ok')" "CREATE TYPE other.mood2 AS ENUM ('ok')" \
          "CREATE TYPE other.mood3 AS ENUM ('ok')" "CREATE DOMAIN other.plain AS int")" $'order_id\nline_id'
# other.= compares any two texts as equal; with search_path = other, pg_catalog it comes first.
check "idgen_user creates an operator other.=(text, text) that is always true" \
    runs_as idgen_user "CREATE FUNCTION other.always(text, text) RETURNS boolean LANGUAGE sql AS 'SELECT true'" \
                    "CREATE OPERATOR other.= (LEFTARG = text, RIGHTARG = text, FUNCTION = other.always)"
is "with search_path = other, pg_catalog, 'a' = 'b' is other.= (true)" \
    "$(as idgen_user "SET search_path = other, pg_catalog; SELECT 'a'::text = 'b'::text")" t
is "idgen_user defines other.evil_id with search_path = other, pg_catalog" \
    "$(as idgen_user "SET search_path = other, pg_catalog; SELECT ids.prefixed_id_define('evil_id', 'evil')")" evil_id
check "other.evil_id refuses an acct_ value (its CHECK uses pg_catalog.=, not other.=)" \
    fails_as idgen_user "SET search_path = other, pg_catalog; SELECT 'acct_0000000000000000000000001'::other.evil_id" \
    'ERROR:  23514: value for domain evil_id violates check constraint "evil_id_prefix"'
is "the registry has acct, evil, line and ord" "$(registry ids)" \
    "acct=app.account_id evil=other.evil_id line=other.line_id ord=other.order_id"

# 2. The owner renames the schema.
check "idgen_owner renames schema ids to ids_renamed" runs_as idgen_owner "ALTER SCHEMA ids RENAME TO ids_renamed"

check "idgen_user's DROP TYPE of an unrelated enum works" runs_as idgen_user "DROP TYPE other.mood"
check "idgen_user's DROP DOMAIN of an unrelated domain works, with search_path = other, pg_catalog" \
    runs_as idgen_user "SET search_path = other, pg_catalog; DROP DOMAIN other.plain"
check "idgen_user's DROP DOMAIN other.order_id (a defined type) works" runs_as idgen_user "DROP DOMAIN other.order_id"
is "the drop freed ord: the registry has acct, evil and line" "$(registry ids_renamed)" \
    "acct=app.account_id evil=other.evil_id line=other.line_id"

is "prefixed_id_type resolves acct_ and line_ for idgen_user (search_path = other)" \
    "$(as idgen_user "SET search_path = other; SELECT ids_renamed.prefixed_id_type('acct_0000000000000000000000001')" \
                     "SET search_path = other; SELECT ids_renamed.prefixed_id_type('line_0000000000000000000000001')")" \
    $'app.account_id\nline_id'
check "prefixed_id_type of the freed prefix ord fails with 42704" \
    fails_as idgen_user "SELECT ids_renamed.prefixed_id_type('ord_0000000000000000000000001')" \
    'ERROR:  42704: no prefixed ID type has the prefix "ord"'

is "idgen_user defines other.invoice_id after the rename (search_path = other)" \
    "$(as idgen_user "SET search_path = other; SELECT ids_renamed.prefixed_id_define('invoice_id', 'inv')")" invoice_id
is "idgen_user defines other.order_id again: the freed prefix ord is available" \
    "$(as idgen_user "SET search_path = other; SELECT ids_renamed.prefixed_id_define('order_id', 'ord')")" order_id
check "a taken prefix is still refused after the rename (42710)" \
    fails_as idgen_user "SET search_path = other; SELECT ids_renamed.prefixed_id_define('acct2_id', 'acct')" \
    'ERROR:  42710: prefix "acct" is already used by type app.account_id'
is "the new domain's DEFAULT and CHECK name the renamed schema" \
    "$(as idgen_user "SET search_path = ''; SELECT pg_get_expr(typdefaultbin, 0) || ' ' || pg_get_constraintdef(c.oid)
                      FROM pg_type t JOIN pg_constraint c ON c.contypid = t.oid WHERE t.oid = 'other.invoice_id'::regtype")" \
    "ids_renamed.prefixed_id_new('inv'::text) CHECK ((ids_renamed.prefixed_id_prefix(VALUE) = 'inv'::text))"

# 3. The domains without the extension's schema in the search_path, before and after the rename
#    (an error names a domain with its schema when the schema is not in the search_path).
check "idgen_user creates other.invoices keyed by other.invoice_id" \
    runs_as idgen_user "CREATE TABLE other.invoices (id other.invoice_id PRIMARY KEY)"
for ts in "search_path = other" "search_path = ''"; do
    [[ $ts == *other ]] && shown=invoice_id || shown=other.invoice_id
    is "with $ts, other.invoices gets inv_ IDs by DEFAULT" \
        "$(as idgen_user "SET $ts; INSERT INTO other.invoices DEFAULT VALUES RETURNING left(id::text, 4)")" "inv_"
    check "with $ts, other.invoice_id refuses an acct_ value (23514)" \
        fails_as idgen_user "SET $ts; INSERT INTO other.invoices VALUES ('acct_0000000000000000000000001')" \
        "ERROR:  23514: value for domain $shown violates check constraint \"invoice_id_prefix\""
    is "with $ts, app.accounts (defined before the rename) gets acct_ IDs by DEFAULT" \
        "$(as idgen_owner "SET $ts; INSERT INTO app.accounts (note) VALUES ('x') RETURNING left(id::text, 5)")" "acct_"
    check "with $ts, app.account_id refuses an inv_ value (23514)" \
        fails_as idgen_owner "SET $ts; INSERT INTO app.accounts VALUES ('inv_0000000000000000000000001')" \
        'ERROR:  23514: value for domain app.account_id violates check constraint "account_id_prefix"'
done
check "after the rename, other.evil_id still refuses an acct_ value under search_path = other, pg_catalog" \
    fails_as idgen_user "SET search_path = other, pg_catalog; SELECT 'acct_0000000000000000000000001'::other.evil_id" \
    'ERROR:  23514: value for domain evil_id violates check constraint "evil_id_prefix"'
is "other.evil_id takes an evil_ value" \
    "$(as idgen_user "SET search_path = other, pg_catalog;
                      SELECT ids_renamed.prefixed_id_prefix('evil_0000000000000000000000001'::other.evil_id)")" evil

# 4. A second rename, a lock the trigger cannot get, and a superuser's DROP SCHEMA ... CASCADE.
check "idgen_owner renames the schema again, to \"ids again\"" runs_as idgen_owner 'ALTER SCHEMA ids_renamed RENAME TO "ids again"'
check "idgen_user's DROP TYPE of another unrelated enum works" runs_as idgen_user "DROP TYPE other.mood2"
check "idgen_user's DROP DOMAIN other.line_id works" runs_as idgen_user "DROP DOMAIN other.line_id"
is "the drop freed line" "$(registry '"ids again"')" \
    "acct=app.account_id evil=other.evil_id inv=other.invoice_id ord=other.order_id"
is "prefixed_id_define and prefixed_id_type work in \"ids again\"" \
    "$(as idgen_user "SET search_path = other; SELECT \"ids again\".prefixed_id_define('line_id', 'line')" \
                     "SELECT \"ids again\".prefixed_id_type('line_0000000000000000000000001')")" $'line_id\nline_id'

# While another session holds the registry locked, a DROP with lock_timeout
# set still succeeds: the trigger gives up on the registry with a warning.
psql -XAtq -c 'BEGIN; LOCK TABLE "ids again".prefixed_id_registry IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(4); COMMIT' \
    >/dev/null 2>&1 &
locker=$!
sleep 1
out=$(as idgen_user "SET lock_timeout = '200ms'; DROP TYPE other.mood3; SELECT 'dropped'")
wait "$locker"
check "a DROP TYPE succeeds while the registry is locked (lock_timeout 200ms)" grep -qx dropped <<<"$out"
check "... with a warning that the registry could not be updated" \
    grep -q '^WARNING:  could not update prefixed_id_registry for the dropped objects' <<<"$out"
sed 's/^/# /' <<<"$out"

check "the superuser's DROP SCHEMA app CASCADE works" q "DROP SCHEMA app CASCADE"
is "the drop freed acct" "$(registry '"ids again"')" \
    "evil=other.evil_id inv=other.invoice_id line=other.line_id ord=other.order_id"
check "the superuser's DROP SCHEMA \"ids again\" CASCADE (the extension and the domains over its type) works" \
    q 'DROP SCHEMA "ids again" CASCADE'
is "the extension is gone, and so are the domains" \
    "$(q "SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen') || ' '
                 || (SELECT count(*) FROM pg_type WHERE typnamespace = 'other'::regnamespace AND typtype = 'd')")" "0 0"
check "DROP SCHEMA other CASCADE works without the extension" q "DROP SCHEMA other CASCADE"
tap_done
