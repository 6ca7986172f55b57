-- snowflake layouts: the predefined ones, user-defined ones, decoding,
-- composing and boundaries in any layout
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
SET idgen.snowflake_epoch = '2011-08-24 21:07:01.721';
-- Discord's documented example: 2016-04-30 11:18:25.796 UTC, worker 1, process 0, increment 7
SELECT snowflake_layout_decompose(175928847299117063, 'discord');
SELECT snowflake_layout_time(175928847299117063, 'discord');
SELECT snowflake_layout_field(175928847299117063, 'discord', 'sequence') AS increment,
       snowflake_layout_field(175928847299117063, 'discord', 'worker') AS worker,
       snowflake_layout_field(175928847299117063, 'discord', 'time') AS time_units;
SELECT snowflake_layout_compose('discord', '2016-04-30 11:18:25.796+00',
                                '{"worker": 1, "process": 0, "sequence": 7}');
-- Discord's time field holds 2^41 ms in a bigint: the largest id, just before the end
SELECT snowflake_layout_end('discord');
SELECT snowflake_layout_decompose(9223372036854775807, 'discord');
-- pgEdge by its code's layout (node in the middle, count lowest)
SELECT snowflake_layout_decompose(136169504773242881, 'pgedge');
SELECT snowflake_layout_compose('pgedge', '2024-01-01+00', '{"node": 1, "sequence": 3}');
-- twitter and sonyflake
SELECT snowflake_layout_decompose(4329472, 'twitter');
SELECT snowflake_layout_decompose(9223372036854775807, 'twitter');
SELECT snowflake_layout_decompose(16777217, 'sonyflake');
SELECT snowflake_layout_compose('sonyflake', '2014-09-01 00:00:00.019+00', '{"machine": 1}');
-- instagram is snowflake(): the same fields under idgen.snowflake_epoch
SELECT snowflake_layout_field(id, 'instagram', 'shard') = snowflake_shard(id) AS shard,
       snowflake_layout_field(id, 'instagram', 'sequence') = snowflake_seq(id) AS seq,
       snowflake_layout_time(id, 'instagram') = snowflake_time(id) AS time,
       snowflake_layout_boundary('instagram', '2025-06-01+00') = snowflake_boundary('2025-06-01+00') AS boundary
FROM (VALUES (snowflake_boundary('2025-06-01 12:00:00.123+00', 4321) + 77)) v(id);
SELECT snowflake_layout_end('instagram') = snowflake_time(9223372036854775807) + interval '1 ms' AS instagram_end;
-- boundaries: the first id of a unit (sonyflake's unit is 10 ms)
SELECT snowflake_layout_boundary('sonyflake', '2014-09-01 00:00:00.025+00');
SELECT snowflake_layout_boundary('twitter', '2010-11-04 01:42:54.658+00');
-- round trips in every predefined layout
SELECT l, bool_and(snowflake_layout_compose(l, snowflake_layout_time(id, l),
                                            snowflake_layout_decompose(id, l) - 'time' - 'unix_ms' - 'timestamp') = id) AS round_trip
FROM unnest(ARRAY['instagram', 'twitter', 'discord', 'sonyflake', 'pgedge']) l,
     (VALUES (0::bigint), (123456789012345678), (4611686018427387903), (9007199254740993)) v(id)
GROUP BY l ORDER BY l;

-- user-defined layouts
SELECT snowflake_layout_define('shop', '2020-01-01+00', 1,
                               ARRAY['time', 'region', 'worker', 'sequence'], ARRAY[42, 4, 6, 11]);
SELECT snowflake_layout_define('ten_ms', '2025-01-01+00', 10,
                               ARRAY['time', 'sequence', 'machine'], ARRAY[39, 8, 16]);
SELECT name, epoch, time_unit_ms, field_names, field_bits FROM snowflake_layouts ORDER BY name;
SELECT snowflake_layout_end('shop'), snowflake_layout_end('ten_ms');
SELECT snowflake_layout_compose('shop', '2026-12-04 05:00:00.5+00',
                                '{"region": 15, "worker": 63, "sequence": 2047}') AS id \gset
SELECT :id, snowflake_layout_decompose(:id, 'shop');
-- Sonyflake v2's TestComposeAndDecompose at a 1 ms unit: one hour after the start
SELECT snowflake_layout_define('sonyflake_v2_ms', '2025-01-01+00', 1,
                               ARRAY['time', 'sequence', 'machine'], ARRAY[39, 8, 16]);
SELECT snowflake_layout_compose('sonyflake_v2_ms', '2025-01-01 01:00:00+00');
SELECT snowflake_layout_compose('sonyflake_v2_ms', '2025-01-01+00', '{"sequence": 255}'),
       snowflake_layout_compose('sonyflake_v2_ms', '2025-01-01+00', '{"machine": 65535}');
-- time and sequence alone (node fields are optional); a layout read per row
SELECT snowflake_layout_define('plain', '2024-01-01+00', 1000, ARRAY['time', 'sequence'], ARRAY[33, 20]);
SELECT l, snowflake_layout_time(1048577, l) FROM unnest(ARRAY['plain', 'shop', 'plain', 'twitter']) l;
-- range predicates with boundaries
CREATE TEMP TABLE orders AS
SELECT snowflake_layout_compose('shop', '2026-01-01+00'::timestamptz + g * interval '1 hour',
                                jsonb_build_object('worker', g % 64)) AS id
FROM generate_series(0, 99) g;
SELECT count(*) FROM orders
WHERE id >= snowflake_layout_boundary('shop', '2026-01-02+00')
  AND id < snowflake_layout_boundary('shop', '2026-01-03+00');
-- a dump keeps the rows (the table is registered)
SELECT pg_catalog.array_length(extconfig, 1) > 0 AS registered,
       'snowflake_layouts'::regclass = ANY (extconfig) AS layouts_dumped
FROM pg_extension WHERE extname = 'idgen';
-- NULL in, NULL out
SELECT snowflake_layout_define(NULL, '2020-01-01+00', 1, ARRAY['time', 'sequence'], ARRAY[41, 22]) IS NULL AS n1,
       snowflake_layout_decompose(NULL, 'discord') IS NULL AS n2,
       snowflake_layout_time(1, NULL) IS NULL AS n3,
       snowflake_layout_check('x', NULL, 1, ARRAY['time', 'sequence'], ARRAY[41, 22]) IS NULL AS n4;
DELETE FROM snowflake_layouts;
