-- snowflake_layout_new(layout[, node]): every error of minting in a layout, with its SQLSTATE
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
\set VERBOSITY default
\set SHOW_CONTEXT never
-- a NULL layout or node: 22004 (never a NULL ID)
SELECT snowflake_layout_new(NULL);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_new('twitter', NULL);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_new(NULL, 1);
\echo :LAST_ERROR_SQLSTATE
-- an unknown layout: 42704
SELECT snowflake_layout_new('baidu', 1);
\echo :LAST_ERROR_SQLSTATE
-- a node the layout's node fields cannot hold: 22003
SELECT snowflake_layout_new('twitter', 1024);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_new('sonyflake', -1);
\echo :LAST_ERROR_SQLSTATE
-- a layout without node fields holds node 0 alone
SELECT snowflake_layout_define('nodeless', '2024-01-01+00', 1000, ARRAY['time', 'sequence'], ARRAY[33, 20]);
SELECT snowflake_layout_new('nodeless', 1);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_new('nodeless', 0) > 0 AS node_zero;
-- no node and no idgen.shard_id: 55000; one the layout cannot hold: 22003
SELECT snowflake_layout_new('twitter');
\echo :LAST_ERROR_SQLSTATE
SET idgen.shard_id = 1024;
SELECT snowflake_layout_new('twitter');
\echo :LAST_ERROR_SQLSTATE
-- a node outside idgen.allowed_shards: 42501 (idgen.shard_id is always allowed)
SET idgen.allowed_shards = '10-20';
SELECT snowflake_layout_new('twitter', 21);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_new('sonyflake', 1024) & 65535 AS own_shard;
-- a node above every shard (8191) is never allowed
RESET idgen.allowed_shards;
SELECT snowflake_layout_new('sonyflake', 8192);
\echo :LAST_ERROR_SQLSTATE
RESET idgen.shard_id;
-- a layout whose time field ran out: 22008 with the date. snowflake_layout_define()
-- refuses one, so this is Baidu's default (28-bit seconds from 2016-05-20) as a row
-- written directly
INSERT INTO snowflake_layouts (name, epoch, time_unit_ms, field_names, field_bits)
VALUES ('baidu_default', '2016-05-20+00', 1000, ARRAY['time', 'worker', 'sequence'], ARRAY[28, 22, 13]);
SELECT snowflake_layout_new('baidu_default', 1);
\echo :LAST_ERROR_SQLSTATE
-- a layout whose epoch is still to come: 22008
INSERT INTO snowflake_layouts (name, epoch, time_unit_ms, field_names, field_bits)
VALUES ('future', '2200-01-01+00', 1, ARRAY['time', 'node', 'sequence'], ARRAY[41, 10, 12]);
SELECT snowflake_layout_new('future', 1);
\echo :LAST_ERROR_SQLSTATE
