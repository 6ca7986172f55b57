-- snowflake family on a server whose IDs have run out: needs a server started
-- with idgen.snowflake_epoch = '1990-01-01' (2^40 ms later, 2024-11-03
-- 19:53:47.776 UTC, is past), so it is not in the Makefile's REGRESS list;
-- test/tap/snowflake_epoch.pl runs it against a cluster of its own.
SET TimeZone = 'UTC';
\set VERBOSITY default
SHOW idgen.snowflake_epoch;

-- minting past the last millisecond: 22008, for an explicit and the default shard
SELECT snowflake(1);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake(8191);
\echo :LAST_ERROR_SQLSTATE
SET idgen.shard_id = 3;
SELECT snowflake();
\echo :LAST_ERROR_SQLSTATE
-- snowflake53 shares the time field: it ran out at the same instant
SELECT snowflake53();
\echo :LAST_ERROR_SQLSTATE
RESET idgen.shard_id;
SELECT snowflake53(15);
\echo :LAST_ERROR_SQLSTATE

-- boundaries: only instants from the epoch to the last millisecond; now() is past it
-- (the message quotes now(), which moves, so it is masked; the detail is stable)
CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    detail text;
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
    RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, '"[^"]*"', '"<now>"') || E'\n' || detail;
END $$;
SELECT pg_temp.error_of($$SELECT snowflake_boundary(now())$$);
SELECT pg_temp.error_of($$SELECT snowflake_boundary(now(), 1)$$);
SELECT snowflake_boundary('2024-11-03 19:53:47.776+00');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_boundary('1989-12-31 23:59:59.999+00');
\echo :LAST_ERROR_SQLSTATE
-- 2000-01-01 is 3652 days = 315532800000 ms after 1990-01-01: 315532800000 << 23
SELECT snowflake_boundary('2000-01-01') AS boundary_2000,
       snowflake_boundary('2000-01-01') = 2646880970342400000 AS is_expected,
       snowflake_boundary('2000-01-01') = (315532800000::bigint << 23) AS is_ms_shifted,
       snowflake_time(snowflake_boundary('2000-01-01')) AS decoded;
SELECT snowflake_boundary('2000-01-01', 8191) - snowflake_boundary('2000-01-01') AS shard_offset;
-- the first and the last millisecond of this epoch
SELECT snowflake_boundary('1990-01-01+00') AS first_boundary,
       snowflake_boundary('2024-11-03 19:53:47.775+00') AS last_boundary,
       snowflake_boundary('2024-11-03 19:53:47.775999+00', 8191) AS last_boundary_shard_8191;

-- decoding: the first ID (2^53, 2^30 ms after the epoch) and the largest bigint (the last
-- millisecond, shard 8191, sequence 1023)
SELECT snowflake_time(9007199254740992) AS first_id,
       snowflake_time(9223372036854775807) AS last_ms,
       snowflake_shard(9223372036854775807) AS shard,
       snowflake_seq(9223372036854775807) AS seq;

-- the largest snowflake53 ID, 2^53 - 1, is the same last millisecond
SELECT snowflake53_time(9007199254740991) = snowflake_time(9223372036854775807) AS same_end,
       snowflake53_boundary('2024-11-03 19:53:47.775+00', 15) + 511 AS last_snowflake53;

-- nothing was handed out: no shard state, no minted count, no lease file written
SELECT * FROM idgen_snowflake_shards;
SELECT count(*) AS snowflake_stats_rows FROM idgen_stats WHERE family IN ('snowflake', 'snowflake53');
SELECT pg_stat_file('idgen_snowflake.lease', true) IS NULL AS no_lease_file;
