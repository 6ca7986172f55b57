-- snowflake_layout_new(layout[, node]): minting in any snowflake layout, with the
-- guarantees of snowflake(); IDs move with the clock, so their properties
-- are shown, not their values
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
-- twitter: the node's high five bits are the datacenter, its low five the worker
SELECT snowflake_layout_decompose(snowflake_layout_new('twitter', 101), 'twitter')
       - 'time' - 'unix_ms' - 'timestamp' - 'sequence' AS node_fields;
-- sonyflake: the machine in the lowest 16 bits
SELECT snowflake_layout_new('sonyflake', 101) & 65535 AS machine;
-- an ID's time is the clock's tick (10 ms for sonyflake)
SELECT l, abs(extract(epoch FROM snowflake_layout_time(snowflake_layout_new(l, 101), l) - clock_timestamp())) < 1 AS at_the_clock
FROM unnest(ARRAY['twitter', 'discord', 'sonyflake', 'pgedge']) l ORDER BY l;
SELECT snowflake_layout_field(snowflake_layout_new('sonyflake', 101), 'sonyflake', 'time')
       = floor(extract(epoch FROM clock_timestamp() - '2014-09-01+00') * 100) AS sonyflake_tick;

-- 20,000 twitter IDs in one statement: distinct and increasing; each
-- millisecond's sequence counts from 0 without a gap (the first may have begun before)
CREATE TEMP TABLE tw AS SELECT g, snowflake_layout_new('twitter', 101) AS id FROM generate_series(1, 20000) g;
SELECT count(DISTINCT id) AS distinct_ids FROM tw;
SELECT bool_and(id > prev) AS increasing FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM tw) s
WHERE prev IS NOT NULL;
SELECT bool_and(n = max_seq + 1 AND min_seq = 0) AS sequences_from_zero
FROM (SELECT id >> 22 AS ms, count(*) AS n, min(id & 4095) AS min_seq, max(id & 4095) AS max_seq
      FROM tw GROUP BY 1 ORDER BY 1 OFFSET 1) s;
-- 50,000 sonyflake IDs: 256 a tick, so each full tick borrows the next and
-- the IDs run ahead of the clock (within idgen.max_clock_regression, 10 s)
CREATE TEMP TABLE sf AS SELECT g, snowflake_layout_new('sonyflake', 101) AS id FROM generate_series(1, 50000) g;
SELECT count(DISTINCT id) AS distinct_ids FROM sf;
SELECT bool_and(id > prev) AS increasing FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM sf) s
WHERE prev IS NOT NULL;
SELECT count(*) >= 190 AS ticks_borrowed, bool_and(n = 256) AS every_middle_tick_full
FROM (SELECT id >> 24 AS tick, count(*) AS n FROM sf GROUP BY 1 ORDER BY 1 OFFSET 1) s
WHERE tick < (SELECT max(id >> 24) FROM sf);
SELECT max(snowflake_layout_time(id, 'sonyflake')) > clock_timestamp() + interval '100 ms' AS ran_ahead FROM sf;
-- the next call continues above the borrowed ticks
SELECT snowflake_layout_new('sonyflake', 101) > max(id) AS above FROM sf;

-- instagram is snowflake(): the same shards, one sequence
SELECT a < b AND b < c AS one_sequence, snowflake_shard(b) AS shard
FROM (SELECT snowflake(5) AS a, snowflake_layout_new('instagram', 5) AS b, snowflake(5) AS c) s;
SET idgen.shard_id = 101;
SELECT a < b AND b < c AS one_sequence, snowflake_shard(b) AS shard
FROM (SELECT snowflake() AS a, snowflake_layout_new('instagram') AS b, snowflake() AS c) s;
-- without a node: idgen.shard_id's, in any layout
SELECT snowflake_layout_field(snowflake_layout_new('pgedge'), 'pgedge', 'node') AS node;
RESET idgen.shard_id;
-- two names for one ID space share its counter (and its slot): a layout is its
-- epoch, unit and widths, not its names; one of snowflake()'s space mints from
-- its shards
SELECT snowflake_layout_define('twitter_renamed', '2010-11-04 01:42:54.657+00', 1,
                               ARRAY['time', 'region', 'host', 'sequence'], ARRAY[41, 5, 5, 12]);
SELECT a < b AND b < c AS one_sequence
FROM (SELECT snowflake_layout_new('twitter', 101) AS a, snowflake_layout_new('twitter_renamed', 101) AS b,
             snowflake_layout_new('twitter', 101) AS c) s;
SELECT snowflake_layout_define('instagram_copy', current_setting('idgen.snowflake_epoch')::timestamptz, 1,
                               ARRAY['time', 'shard', 'sequence'], ARRAY[40, 13, 10]);
SELECT a < b AND b < c AS one_sequence
FROM (SELECT snowflake(8) AS a, snowflake_layout_new('instagram_copy', 8) AS b, snowflake(8) AS c) s;
-- a layout of one's own, its node split by the sequence
SELECT snowflake_layout_define('split_node', '2025-01-01+00', 1,
                               ARRAY['time', 'high', 'sequence', 'low'], ARRAY[41, 3, 10, 4]);
SELECT snowflake_layout_decompose(snowflake_layout_new('split_node', 86), 'split_node')
       - 'time' - 'unix_ms' - 'timestamp' - 'sequence' AS node_fields;
-- the rights of snowflake(shard): a node is a shard of idgen.allowed_shards
SET idgen.allowed_shards = '100-110';
SELECT snowflake_layout_field(snowflake_layout_new('twitter', 101), 'twitter', 'worker') AS worker;
RESET idgen.allowed_shards;
