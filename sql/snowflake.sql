-- snowflake family: generated IDs (properties), decoders and boundaries (golden output)
SET TimeZone = 'UTC';

-- the epoch in use (the default)
SHOW idgen.snowflake_epoch;

-- positive, the right shard, no duplicates, strictly increasing in one statement
-- (100k calls outrun 1024 per ms: the shard borrows milliseconds)
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id > 0) AS positive,
       count(*) FILTER (WHERE snowflake_shard(id) = 4242) AS on_shard_4242,
       count(*) FILTER (WHERE snowflake_seq(id) BETWEEN 0 AND 1023) AS seq_in_range,
       count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, snowflake(4242) AS id FROM generate_series(1, 100000) n) s) t;

-- and across statements of the session
CREATE TEMP TABLE session_ids (n serial, id bigint);
INSERT INTO session_ids (id) SELECT snowflake(17) FROM generate_series(1, 1000);
INSERT INTO session_ids (id) VALUES (snowflake(17));
INSERT INTO session_ids (id) SELECT snowflake(17) FROM generate_series(1, 1000);
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM session_ids) t;

-- the embedded time is the clock's: no earlier than the clock's millisecond before the call, and
-- at most idgen.max_clock_regression ahead of the clock after it (the lead README states: other
-- sessions' bursts on the shard may have borrowed that far)
SELECT snowflake_time(id) BETWEEN date_trunc('milliseconds', t0)
                              AND t1 + current_setting('idgen.max_clock_regression')::interval AS time_is_now
FROM (SELECT clock_timestamp() AS t0, snowflake(3) AS id, clock_timestamp() AS t1) s;

-- shards are independent: minting on one does not move another
SELECT snowflake_shard(snowflake(0)) AS shard_0, snowflake_shard(snowflake(8191)) AS shard_8191;

-- snowflake() takes its shard from idgen.shard_id
SET idgen.shard_id = 7;
SELECT snowflake_shard(snowflake()) AS shard_from_setting;
RESET idgen.shard_id;

-- decoders at fixed values: Instagram's worked example (1387263000 ms, shard 1341, seq 905)
SELECT snowflake_time(11637205501278089) AS time, snowflake_shard(11637205501278089) AS shard,
       snowflake_seq(11637205501278089) AS seq;
SELECT snowflake_time(9007199254740992) AS first_id, snowflake_time(9223372036854775807) AS last_millisecond,
       snowflake_shard(9223372036854775807) AS max_shard, snowflake_seq(9223372036854775807) AS max_seq;

-- boundaries: the smallest ID of a millisecond (and shard)
SELECT snowflake_boundary('2024-01-01 00:00:00+00') AS at_epoch,
       snowflake_boundary('2024-01-01 00:00:00.001+00') AS one_ms_later,
       snowflake_boundary('2024-01-01 00:00:00.0019+00') AS same_ms_truncated,
       snowflake_boundary('2024-01-01 00:00:00.001+00', 3) AS shard_3,
       snowflake_boundary('2058-11-03 19:53:47.775+00', 8191) AS last_ms_last_shard;
SELECT snowflake_boundary('2026-05-01 12:34:56.789+02') AS with_time_zone;

-- round trips: boundary -> decoders -> boundary
SELECT snowflake_time(b) AS time, snowflake_shard(b) AS shard, snowflake_seq(b) AS seq,
       snowflake_boundary(snowflake_time(b), snowflake_shard(b)) = b AS round_trip
FROM (SELECT snowflake_boundary('2030-06-15 08:00:00.123+00', 99) AS b) s;
SELECT count(*) FILTER (WHERE snowflake_boundary(snowflake_time(id), snowflake_shard(id)) + snowflake_seq(id) <> id)
       AS decode_mismatches
FROM (SELECT snowflake(5) AS id FROM generate_series(1, 10000)) s;

-- generated IDs decode to the boundary of their millisecond and shard
SELECT count(*) FILTER (WHERE id < snowflake_boundary(snowflake_time(id), 21)
                           OR id >= snowflake_boundary(snowflake_time(id) + interval '1 ms', 21))
       AS outside_their_millisecond
FROM (SELECT snowflake(21) AS id FROM generate_series(1, 5000)) s;

-- a time range over a primary key uses the index (boundaries are folded to constants)
CREATE TABLE events (id bigint PRIMARY KEY, note text);
INSERT INTO events
SELECT snowflake_boundary(ts, shard) + seq, 'x'
FROM generate_series('2025-01-01 00:00+00'::timestamptz, '2025-01-01 00:16:39+00', '1 second') ts,
     generate_series(0, 9) shard, generate_series(0, 9) seq;
VACUUM ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events
WHERE id >= snowflake_boundary('2025-01-01 00:10:00+00')
  AND id < snowflake_boundary('2025-01-01 00:10:10+00');
SELECT count(*) AS rows_in_10_seconds, count(DISTINCT snowflake_shard(id)) AS shards
FROM events
WHERE id >= snowflake_boundary('2025-01-01 00:10:00+00')
  AND id < snowflake_boundary('2025-01-01 00:10:10+00');

-- as a column default, with RETURNING and a range partition bound
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT snowflake(1), item text)
    PARTITION BY RANGE (id);
CREATE TABLE orders_2024 PARTITION OF orders
    FOR VALUES FROM (snowflake_boundary('2024-01-01+00')) TO (snowflake_boundary('2025-01-01+00'));
CREATE TABLE orders_later PARTITION OF orders
    FOR VALUES FROM (snowflake_boundary('2025-01-01+00')) TO (MAXVALUE);
INSERT INTO orders (item) VALUES ('a'), ('b') RETURNING snowflake_shard(id) AS shard;
INSERT INTO orders VALUES (snowflake_boundary('2024-06-01+00', 1) + 5, 'backfill');
SELECT tableoid::regclass AS partition, item FROM orders ORDER BY id;

-- per-shard state: shards used in this file appear with their last ID
SELECT shard, last_id >= snowflake_boundary(now() - interval '1 minute', shard) AS last_id_recent,
       snowflake_shard(last_id) = shard AS last_id_on_shard, last_issued = snowflake_time(last_id) AS last_issued_matches
FROM idgen_snowflake_shards WHERE family = 'snowflake' AND shard IN (0, 1, 3, 4242, 8191) ORDER BY shard;
SELECT borrowed_ms > 0 AS borrowed FROM idgen_snowflake_shards WHERE family = 'snowflake' AND shard = 4242;
SELECT family, ids_minted >= 100000 AS minted_here FROM idgen_stats
WHERE pid = pg_backend_pid() AND family = 'snowflake';

-- README's migration recipe: a bigserial key switches to snowflake() in place
CREATE TABLE legacy (id bigserial PRIMARY KEY, item text);
INSERT INTO legacy (item) SELECT 'old' FROM generate_series(1, 1000);
SELECT max(id) < snowflake_boundary(now()) AS safe FROM legacy;
ALTER TABLE legacy ALTER COLUMN id SET DEFAULT snowflake(1);
DROP SEQUENCE legacy_id_seq;
INSERT INTO legacy (item) SELECT 'new' FROM generate_series(1, 1000);
SELECT item, count(*), min(id) > 1000 AS above_old
FROM legacy GROUP BY item ORDER BY min(id);
SELECT count(*) FILTER (WHERE item = 'new' AND prev_item = 'old') AS switches
FROM (SELECT item, lag(item) OVER (ORDER BY id) AS prev_item FROM legacy) s;

-- A read-only transaction on a primary mints (it changes no table; the lease
-- is WAL-logged outside the transaction), as core's uuidv7() does and unlike
-- nextval(). On a standby snowflake() refuses: test/tap/snowflake_standby.pl.
BEGIN TRANSACTION READ ONLY;
SELECT snowflake(2) > 0 AS minted_read_only, snowflake(2) > snowflake_boundary(now() - interval '1 minute', 2) AS recent;
COMMIT;

-- the decoders and boundaries that read idgen.snowflake_epoch are STABLE; the
-- forms that take the epoch as an argument are IMMUTABLE (generated columns,
-- index expressions, partition bounds); shard and sequence need no epoch
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel
FROM pg_proc p
WHERE p.proname IN ('snowflake_time', 'snowflake_boundary', 'snowflake53_time', 'snowflake53_boundary',
                    'snowflake_shard', 'snowflake_seq', 'snowflake53_shard', 'snowflake53_seq')
ORDER BY 1::text;
SELECT snowflake_time(11637205501278089, '2024-01-01 00:00:00+00') AS at_default_epoch,
       snowflake_time(11637205501278089, '2020-01-01 00:00:00+00') AS at_2020,
       snowflake_boundary('2024-01-17 01:21:03+00', 1341, '2024-01-01 00:00:00+00') AS bound_default_epoch,
       snowflake_boundary('2020-01-17 01:21:03+00', 1341, '2020-01-01 00:00:00+00') AS bound_2020,
       snowflake53_time(9007199254740991, '2024-01-01 00:00:00+00') AS last_53,
       snowflake53_boundary('2024-01-01 00:00:00.001+00', 3, '2024-01-01 00:00:00+00') AS bound_53;
SELECT count(*) FILTER (WHERE snowflake_time(id, '2024-01-01 00:00:00+00') <> snowflake_time(id)
                           OR snowflake_boundary(snowflake_time(id), snowflake_shard(id), '2024-01-01 00:00:00+00')
                              + snowflake_seq(id) <> id) AS epoch_form_mismatches
FROM (SELECT snowflake(6) AS id FROM generate_series(1, 1000)) s;
CREATE TABLE stamped (
    id bigint PRIMARY KEY DEFAULT snowflake(8),
    minted_at timestamptz GENERATED ALWAYS AS (snowflake_time(id, '2024-01-01 00:00:00+00')) STORED
);
CREATE INDEX stamped_minted ON stamped ((snowflake_time(id, '2024-01-01 00:00:00+00')));
INSERT INTO stamped DEFAULT VALUES;
SELECT minted_at = snowflake_time(id) AS generated_matches FROM stamped;
-- the forms that read the setting cannot be stored: an epoch moved later would change their result
CREATE TABLE stamped_by_setting (id bigint, minted_at timestamptz GENERATED ALWAYS AS (snowflake_time(id)) STORED);
CREATE INDEX stamped_by_setting ON stamped ((snowflake_time(id)));
DROP TABLE stamped;

DROP TABLE events, orders, legacy;
