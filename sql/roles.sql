-- roles: which shards a session may mint on (idgen.allowed_shards), and what
-- idgen_stats and idgen_snowflake_shards show to roles without privileges
SET TimeZone = 'UTC';
\set VERBOSITY default

-- the default allows every shard, so existing installs keep working
SHOW idgen.allowed_shards;

-- malformed lists: 22023, with a detail naming the item
SET idgen.allowed_shards = '1,,2';
\echo :LAST_ERROR_SQLSTATE
SET idgen.allowed_shards = '0-15,';
\echo :LAST_ERROR_SQLSTATE
SET idgen.allowed_shards = '0-15, x';
\echo :LAST_ERROR_SQLSTATE
SET idgen.allowed_shards = '5-';
\echo :LAST_ERROR_SQLSTATE
SET idgen.allowed_shards = '-1';
\echo :LAST_ERROR_SQLSTATE
SET idgen.allowed_shards = '1 2';
\echo :LAST_ERROR_SQLSTATE
SET idgen.allowed_shards = '0-8192';
\echo :LAST_ERROR_SQLSTATE
SET idgen.allowed_shards = '100000000000000000000';
\echo :LAST_ERROR_SQLSTATE
SET idgen.allowed_shards = '20-10';
\echo :LAST_ERROR_SQLSTATE
SHOW idgen.allowed_shards;

CREATE ROLE regress_idgen_minter NOSUPERUSER;
CREATE ROLE regress_idgen_other NOSUPERUSER;

-- a non-superuser can neither set nor reset it: 42501
SET ROLE regress_idgen_minter;
SET idgen.allowed_shards = '0-8191';
\echo :LAST_ERROR_SQLSTATE
RESET idgen.allowed_shards;
\echo :LAST_ERROR_SQLSTATE
SELECT set_config('idgen.allowed_shards', '7', false);
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;

-- the session may mint on the listed shards only; elsewhere 42501 with detail and hint
SET idgen.allowed_shards = ' 10 - 11 , 20 ';
SHOW idgen.allowed_shards;
SET ROLE regress_idgen_minter;
SELECT snowflake_shard(snowflake(10)) AS a, snowflake_shard(snowflake(11)) AS b,
       snowflake_shard(snowflake(20)) AS c;
SELECT snowflake(12);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake(9);
\echo :LAST_ERROR_SQLSTATE
-- range and NULL checks come first
SELECT snowflake(8192);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake(NULL);
\echo :LAST_ERROR_SQLSTATE
-- a DEFAULT is evaluated by the inserting session, under its limit
CREATE TEMP TABLE t12 (id bigint DEFAULT snowflake(12), n int);
INSERT INTO t12 (n) VALUES (1);
\echo :LAST_ERROR_SQLSTATE
-- decoders and boundaries take any shard
SELECT snowflake_boundary('2025-01-01+00', 12) > 0 AS boundary_ok;
RESET ROLE;

-- idgen.shard_id (superuser-only too) is always allowed: snowflake() and snowflake(n)
SET idgen.shard_id = 30;
SET ROLE regress_idgen_minter;
SELECT snowflake_shard(snowflake()) AS default_shard, snowflake_shard(snowflake(30)) AS explicit;
RESET ROLE;

-- '' allows no shard but idgen.shard_id; the limit binds superusers' sessions too
SET idgen.allowed_shards = '';
SELECT snowflake(10);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_shard(snowflake()) AS default_shard;
RESET idgen.shard_id;
SELECT snowflake(30);
\echo :LAST_ERROR_SQLSTATE

-- a superuser's SECURITY DEFINER function with a SET clause hands one shard to a role
CREATE FUNCTION regress_mint_40() RETURNS bigint LANGUAGE sql SECURITY DEFINER
    SET idgen.allowed_shards = '40' AS 'SELECT snowflake(40)';
REVOKE ALL ON FUNCTION regress_mint_40() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION regress_mint_40() TO regress_idgen_minter;
SET idgen.allowed_shards = '10-11,20';
SET idgen.shard_id = 30;
SET ROLE regress_idgen_minter;
SELECT snowflake_shard(regress_mint_40()) AS through_function;
SELECT snowflake(40);
\echo :LAST_ERROR_SQLSTATE
SHOW idgen.allowed_shards;
RESET ROLE;
SET ROLE regress_idgen_other;
SELECT regress_mint_40();
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;

-- every role may read the views; idgen_snowflake_shards shows a role the
-- shards its session may mint on, as pg_sequences shows last_value
SET ROLE regress_idgen_minter;
SELECT array_agg(shard ORDER BY shard) AS visible_shards FROM idgen_snowflake_shards;
SELECT array_agg(shard ORDER BY shard) AS visible_shards FROM idgen_snowflake_shard_state();
RESET ROLE;
SELECT count(*) FILTER (WHERE shard IN (10, 11, 20, 30, 40)) AS superuser_sees FROM idgen_snowflake_shards;
-- and every shard to members of pg_read_all_stats
GRANT pg_read_all_stats TO regress_idgen_minter;
SET ROLE regress_idgen_minter;
SELECT count(*) FILTER (WHERE shard IN (10, 11, 20, 30, 40)) AS reader_sees FROM idgen_snowflake_shards;
RESET ROLE;
REVOKE pg_read_all_stats FROM regress_idgen_minter;

-- idgen_stats: a session always sees its own backend, whatever its current role
SELECT count(uuid_v7()) FROM generate_series(1, 10);
SET ROLE regress_idgen_other;
SELECT count(*) > 0 AS own_rows, bool_and(pid = pg_backend_pid()) AS only_own FROM idgen_stats;
RESET ROLE;

RESET idgen.allowed_shards;
RESET idgen.shard_id;
DROP TABLE t12;
DROP FUNCTION regress_mint_40();
DROP ROLE regress_idgen_minter;
DROP ROLE regress_idgen_other;
