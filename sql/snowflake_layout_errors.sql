-- snowflake layouts: every error, with its SQLSTATE
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
\set VERBOSITY default
\set SHOW_CONTEXT never
-- unknown layouts and fields: 42704
SELECT snowflake_layout_time(1, 'baidu');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_field(1, 'twitter', 'machine');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_compose('twitter', '2020-01-01+00', '{"machine": 1}');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_compose('twitter', '2020-01-01+00', '{"time": 1}');
\echo :LAST_ERROR_SQLSTATE
-- ids a layout cannot hold: 22003
SELECT snowflake_layout_decompose(-1, 'discord');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('small', '2020-01-01+00', 1, ARRAY['time', 'sequence'], ARRAY[40, 8]);
SELECT snowflake_layout_time(281474976710656, 'small');
\echo :LAST_ERROR_SQLSTATE
-- field values: 22003 out of range, 22023 not an integer or not an object
SELECT snowflake_layout_compose('twitter', '2020-01-01+00', '{"worker": 32}');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_compose('twitter', '2020-01-01+00', '{"sequence": -1}');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_compose('twitter', '2020-01-01+00', '{"sequence": 1.5}');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_compose('twitter', '2020-01-01+00', '{"sequence": "1"}');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_compose('twitter', '2020-01-01+00', '[1, 2]');
\echo :LAST_ERROR_SQLSTATE
-- times a layout cannot hold: 22008; infinity: 22023
SELECT snowflake_layout_compose('twitter', '2010-11-04 01:42:54.656+00');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_boundary('discord', '2084-09-06 15:47:35.552+00');
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_boundary('pgedge', 'infinity');
\echo :LAST_ERROR_SQLSTATE
-- invalid definitions: 22023
SELECT snowflake_layout_define('Bad', '2020-01-01+00', 1, ARRAY['time', 'sequence'], ARRAY[41, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'worker', 'sequence'], ARRAY[41, 10, 13]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'sequence'], ARRAY[42, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'worker', 'sequence'], ARRAY[41, 0, 12]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'worker', 'sequence'], ARRAY[41, 64, 12]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['worker', 'sequence'], ARRAY[41, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'time', 'sequence'], ARRAY[30, 11, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'worker'], ARRAY[41, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'sequence', 'sequence'], ARRAY[41, 11, 11]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'Worker', 'sequence'], ARRAY[41, 10, 12]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'w', 'w', 'sequence'], ARRAY[41, 5, 5, 12]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'unix_ms', 'sequence'], ARRAY[41, 10, 12]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'sequence'],
                               ARRAY[30, 1, 1, 1, 1, 1, 1, 1, 10]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', 'sequence'], ARRAY[41]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY['time', NULL], ARRAY[41, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1, ARRAY[['time', 'sequence']], ARRAY[[41, 22]]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 0, ARRAY['time', 'sequence'], ARRAY[41, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 86400001, ARRAY['time', 'sequence'], ARRAY[20, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '1969-12-31+00', 1, ARRAY['time', 'sequence'], ARRAY[41, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01 00:00:00.0005+00', 1, ARRAY['time', 'sequence'], ARRAY[41, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('x', '2020-01-01+00', 1000, ARRAY['time', 'sequence'], ARRAY[39, 22]);
\echo :LAST_ERROR_SQLSTATE
-- Baidu uid-generator's default (28-bit seconds from 2016-05-20) ran out: 22008 with the date
SELECT snowflake_layout_define('baidu', '2016-05-20+00', 1000,
                               ARRAY['time', 'worker', 'sequence'], ARRAY[28, 22, 13]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_check('baidu', '2016-05-20+00', 1000,
                              ARRAY['time', 'worker', 'sequence'], ARRAY[28, 22, 13], '2024-11-20+00');
-- predefined and taken names: 42710
SELECT snowflake_layout_define('twitter', '2020-01-01+00', 1, ARRAY['time', 'sequence'], ARRAY[41, 22]);
\echo :LAST_ERROR_SQLSTATE
SELECT snowflake_layout_define('small', '2020-01-01+00', 1, ARRAY['time', 'sequence'], ARRAY[41, 22]);
\echo :LAST_ERROR_SQLSTATE
-- the table's CHECK refuses what the function refuses
INSERT INTO snowflake_layouts (name, epoch, time_unit_ms, field_names, field_bits)
VALUES ('direct', '2020-01-01+00', 1, ARRAY['time', 'sequence'], ARRAY[41, 23]);
\echo :LAST_ERROR_SQLSTATE
DELETE FROM snowflake_layouts;
