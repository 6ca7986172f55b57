-- snowflake family: every error, with its SQLSTATE
SET TimeZone = 'UTC';
\set VERBOSITY default

-- shards outside 0..8191: 22003; a NULL shard: 22004 (never a NULL ID)
SELECT snowflake(-1);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake(8192);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake(NULL);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_boundary('2025-01-01+00', 8192);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_boundary('2025-01-01+00', -1);
\echo :LAST_ERROR_SQLSTATE

-- snowflake() without idgen.shard_id: 55000 with a hint
SHOW idgen.shard_id;
SELECT snowflake();
\echo :LAST_ERROR_SQLSTATE

-- negative IDs are not snowflakes: 22003
SELECT snowflake_time(-1);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_shard(-9223372036854775808);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_seq(-5);
\echo :LAST_ERROR_SQLSTATE

-- boundaries before the epoch or from the exhaustion instant on: 22008; infinity: 22023
SELECT snowflake_boundary('2023-12-31 23:59:59.999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_boundary('2058-11-03 19:53:47.776+00');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_boundary('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_boundary('-infinity', 1);
\echo :LAST_ERROR_SQLSTATE

-- settings: out of range 22023, the epoch only at server start 55P02
SET idgen.shard_id = 8192;
\echo :LAST_ERROR_SQLSTATE
SET idgen.shard_id = -2;
\echo :LAST_ERROR_SQLSTATE
SET idgen.max_clock_regression = -1;
\echo :LAST_ERROR_SQLSTATE
SET idgen.max_clock_regression = '2h';
\echo :LAST_ERROR_SQLSTATE
SET idgen.snowflake_epoch = '2020-01-01';
\echo :LAST_ERROR_SQLSTATE

-- only a superuser may choose the shard or the clock bound: 42501
CREATE ROLE regress_snowflake_user LOGIN NOSUPERUSER;
SET ROLE regress_snowflake_user;
SET idgen.shard_id = 1;
\echo :LAST_ERROR_SQLSTATE
SET idgen.max_clock_regression = '1min';
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake(1) > 0 AS user_can_mint;
RESET ROLE;
DROP ROLE regress_snowflake_user;

-- an epoch given as an argument is a finite instant from 1970 on: 22023
SELECT snowflake_time(11637205501278089, 'infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_time(11637205501278089, '1969-12-31 23:59:59+00');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_boundary('2025-01-01+00', 0, '-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake53_time(1, 'infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_boundary('2019-12-31 23:59:59.999+00', 0, '2020-01-01+00');
\echo :LAST_ERROR_SQLSTATE

-- the two layouts are told apart by value: a snowflake() ID is at least 2^53,
-- a snowflake53() ID at most 2^53 - 1; each family's decoders refuse the
-- other's IDs (22003), with or without an explicit epoch
SELECT snowflake_time(9007199254740991);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_shard(1);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_seq(0);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_time(9007199254740991, '2024-01-01+00');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake53_time(9007199254740992);
\echo :LAST_ERROR_SQLSTATE
DO $$
BEGIN
    PERFORM snowflake_time(snowflake53(1));
    RAISE NOTICE 'snowflake_time() decoded a snowflake53() ID';
EXCEPTION WHEN numeric_value_out_of_range THEN
    RAISE NOTICE 'snowflake_time() refuses a snowflake53() ID: %', SQLSTATE;
END
$$;
DO $$
BEGIN
    PERFORM snowflake53_time(snowflake(1));
    RAISE NOTICE 'snowflake53_time() decoded a snowflake() ID';
EXCEPTION WHEN numeric_value_out_of_range THEN
    RAISE NOTICE 'snowflake53_time() refuses a snowflake() ID: %', SQLSTATE;
END
$$;
