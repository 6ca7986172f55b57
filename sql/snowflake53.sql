-- snowflake53: snowflake's machinery in 53 bits (40-bit ms, 4-bit shard,
-- 9-bit sequence), so that every ID is at most 2^53 - 1: generated IDs
-- (properties), decoders, boundaries (golden output) and every error.
SET TimeZone = 'UTC';
\set VERBOSITY default

-- positive, at most 2^53 - 1, the right shard, no duplicates, strictly
-- increasing in one statement (100k calls outrun 512 per ms: the shard borrows)
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id > 0 AND id <= 9007199254740991) AS javascript_safe,
       count(*) FILTER (WHERE snowflake53_shard(id) = 15) AS on_shard_15,
       count(*) FILTER (WHERE snowflake53_seq(id) BETWEEN 0 AND 511) AS seq_in_range,
       count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, snowflake53(15) AS id FROM generate_series(1, 100000) n) s) t;

-- the embedded time is the clock's: no earlier than the clock's millisecond before the call, and
-- at most idgen.max_clock_regression ahead of the clock after it (the lead README states: other
-- sessions' bursts on the shard may have borrowed that far)
SELECT snowflake53_time(id) BETWEEN date_trunc('milliseconds', t0)
                                AND t1 + current_setting('idgen.max_clock_regression')::interval AS time_is_now
FROM (SELECT clock_timestamp() AS t0, snowflake53(3) AS id, clock_timestamp() AS t1) s;

-- the two splits are separate counters: shard 3 of one does not move shard 3 of the other
SELECT snowflake53_shard(snowflake53(3)) AS shard_53, snowflake_shard(snowflake(3)) AS shard_63,
       snowflake53(3) < 9007199254740992 AS small, snowflake(3) > 9007199254740991 AS large;

-- snowflake53() takes its shard from idgen.shard_id, which must be 0..15 for it
SET idgen.shard_id = 7;
SELECT snowflake53_shard(snowflake53()) AS shard_from_setting;
SET idgen.shard_id = 16;
SELECT snowflake_shard(snowflake()) AS snowflake_takes_16;
SELECT snowflake53();
\echo :LAST_ERROR_SQLSTATE
RESET idgen.shard_id;
SELECT snowflake53();
\echo :LAST_ERROR_SQLSTATE

-- decoders at fixed values: 1387263000 ms, shard 13, sequence 5001 % 512 = 393;
-- the largest ID is the last millisecond, shard 15, sequence 511
SELECT (1387263000::bigint << 13) | (13 << 9) | 393 AS id \gset
SELECT snowflake53_time(:id) AS time, snowflake53_shard(:id) AS shard, snowflake53_seq(:id) AS seq;
SELECT snowflake53_time(0) AS epoch, snowflake53_time(9007199254740991) AS last_millisecond,
       snowflake53_shard(9007199254740991) AS max_shard, snowflake53_seq(9007199254740991) AS max_seq,
       snowflake53_time(9007199254740991) = snowflake_time(9223372036854775807) AS ends_with_snowflake;

-- boundaries: the smallest ID of a millisecond (and shard); the last one is
-- 2^53 - 1 minus the last millisecond's sequence
SELECT snowflake53_boundary('2024-01-01 00:00:00+00') AS at_epoch,
       snowflake53_boundary('2024-01-01 00:00:00.001+00') AS one_ms_later,
       snowflake53_boundary('2024-01-01 00:00:00.0019+00') AS same_ms_truncated,
       snowflake53_boundary('2024-01-01 00:00:00.001+00', 3) AS shard_3,
       snowflake53_boundary('2058-11-03 19:53:47.775+00', 15) AS last_ms_last_shard,
       snowflake53_boundary('2058-11-03 19:53:47.775+00', 15) + 511 = 9007199254740991 AS last_is_max_safe;

-- round trips: every generated ID decodes to its boundary plus its sequence
SELECT count(*) FILTER (WHERE snowflake53_boundary(snowflake53_time(id), snowflake53_shard(id))
                              + snowflake53_seq(id) <> id) AS decode_mismatches
FROM (SELECT snowflake53(5) AS id FROM generate_series(1, 10000)) s;

-- as a column default and a range partition bound
CREATE TABLE js_orders (id bigint PRIMARY KEY DEFAULT snowflake53(1), item text)
    PARTITION BY RANGE (id);
CREATE TABLE js_orders_2024 PARTITION OF js_orders
    FOR VALUES FROM (snowflake53_boundary('2024-01-01+00')) TO (snowflake53_boundary('2025-01-01+00'));
CREATE TABLE js_orders_later PARTITION OF js_orders
    FOR VALUES FROM (snowflake53_boundary('2025-01-01+00')) TO (MAXVALUE);
INSERT INTO js_orders (item) VALUES ('a'), ('b') RETURNING snowflake53_shard(id) AS shard;
INSERT INTO js_orders VALUES (snowflake53_boundary('2024-06-01+00', 1) + 5, 'backfill');
SELECT tableoid::regclass AS partition, item FROM js_orders ORDER BY id;
DROP TABLE js_orders;

-- per-shard state and idgen_stats name the split
SELECT family, shard, snowflake53_shard(last_id) = shard AS last_id_on_shard,
       last_issued = snowflake53_time(last_id) AS last_issued_matches,
       last_id <= 9007199254740991 AS safe
FROM idgen_snowflake_shards WHERE family = 'snowflake53' AND shard IN (1, 3, 5, 7, 15) ORDER BY shard;
SELECT borrowed_ms > 0 AS borrowed FROM idgen_snowflake_shards
WHERE family = 'snowflake53' AND shard = 15;
SELECT family, ids_minted >= 100000 AS minted_here FROM idgen_stats
WHERE pid = pg_backend_pid() AND family = 'snowflake53';

-- errors: shards outside 0..15 22003, a NULL shard 22004 (never a NULL ID)
SELECT snowflake53(-1);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake53(16);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake53(NULL);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake53_boundary('2025-01-01+00', 16);
\echo :LAST_ERROR_SQLSTATE
-- IDs outside 0 .. 2^53 - 1 are not snowflake53 IDs: 22003
SELECT snowflake53_time(-1);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake53_shard(9007199254740992);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake53_seq(9223372036854775807);
\echo :LAST_ERROR_SQLSTATE
-- boundaries before the epoch or from the exhaustion instant on: 22008; infinity: 22023
SELECT snowflake53_boundary('2023-12-31 23:59:59.999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake53_boundary('2058-11-03 19:53:47.776+00', 1);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake53_boundary('infinity');
\echo :LAST_ERROR_SQLSTATE
-- idgen.allowed_shards governs both splits by shard number: 42501 elsewhere
SET idgen.allowed_shards = '2';
SELECT snowflake53_shard(snowflake53(2)) AS allowed_shard;
SELECT snowflake53(4);
\echo :LAST_ERROR_SQLSTATE
RESET idgen.allowed_shards;
