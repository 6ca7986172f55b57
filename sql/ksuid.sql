-- ksuid type: text and binary I/O, the spec's constants and vectors, order,
-- casts and boundaries (golden output), generated values (properties), and the
-- index, join, partitioning and COPY paths
SET TimeZone = 'UTC';
-- serial plans whatever the server's parallel settings, so that EXPLAIN output is stable
SET max_parallel_workers_per_gather = 0;

-- segmentio/ksuid's README examples: text, the 20 bytes, the second and the payload
SELECT input::ksuid AS id, input::ksuid::bytea AS bytes, ksuid_time(input::ksuid) AS time,
       ksuid_payload(input::ksuid) AS payload
FROM (VALUES ('0ujtsYcgvSTl8PAuAdqWYSMnLOv'), ('0ujzPyRiIAffKhBux4PvQdDqMHY'),
             ('0uk1Hbc9dQ9pxyTqJ93IUrfhdGq'), ('0pN1Own7255s7jwpwy495bAZeEa')) v(input);

-- the constants: nil and max (text and bytes), the epoch and the last second
SELECT '000000000000000000000000000'::ksuid::bytea = '\x0000000000000000000000000000000000000000'::bytea AS nil_bytes,
       'aWgEPTl1tmebfsQzFP4bxwgy80V'::ksuid::bytea = '\xffffffffffffffffffffffffffffffffffffffff'::bytea AS max_bytes,
       ksuid_time('000000000000000000000000000') AS epoch,
       extract(epoch FROM ksuid_time('000000000000000000000000000')) AS epoch_unix_seconds,
       ksuid_time('aWgEPTl1tmebfsQzFP4bxwgy80V') AS last_second,
       extract(epoch FROM ksuid_time('aWgEPTl1tmebfsQzFP4bxwgy80V')) AS last_unix_seconds;
SELECT ksuid_boundary('2014-05-13 16:53:20+00') AS boundary_of_epoch,
       ksuid_boundary('2150-06-19 23:21:35.999999+00') AS boundary_of_last_second,
       '\x00000001'::bytea || '\x00000000000000000000000000000000'::bytea AS second_one_bytes,
       ('\x00000001'::bytea || '\x00000000000000000000000000000000'::bytea)::ksuid AS second_one;

-- text <-> ksuid casts both ways, and a KSUID takes 20 bytes
SELECT '0ujtsYcgvSTl8PAuAdqWYSMnLOv'::text::ksuid::text AS text_round_trip,
       CAST(CAST('0ujtsYcgvSTl8PAuAdqWYSMnLOv'::varchar AS ksuid) AS varchar) AS via_varchar,
       pg_column_size('0ujtsYcgvSTl8PAuAdqWYSMnLOv'::ksuid) AS literal_size,
       pg_column_size(ksuid()) AS generated_size;
SELECT NULL::text::ksuid IS NULL AS null_text;

-- binary send is the 20 bytes, the same as the cast to bytea; the cast from
-- bytea takes them back
SELECT ksuid_send('0ujtsYcgvSTl8PAuAdqWYSMnLOv') AS sent,
       ksuid_send('0ujtsYcgvSTl8PAuAdqWYSMnLOv') = '0ujtsYcgvSTl8PAuAdqWYSMnLOv'::ksuid::bytea AS same_as_bytea,
       '\x0669f7efb5a1cd34b5f99d1154fb6853345c9735'::bytea::ksuid AS from_bytea;

-- text and bytea round trips and the canonical form over random values
CREATE TEMP TABLE random_ksuids AS
SELECT bytes::ksuid AS id
FROM (SELECT decode(md5(random()::text), 'hex') || substr(decode(md5(random()::text), 'hex'), 1, 4) AS bytes
      FROM generate_series(1, 10000)) s;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE id::text::ksuid = id AND id::bytea::ksuid = id) AS round_trips,
       count(*) FILTER (WHERE id::text ~ '^[0-9A-Za-z]{27}$' AND id::text COLLATE "C" <= 'aWgEPTl1tmebfsQzFP4bxwgy80V') AS canonical,
       count(*) FILTER (WHERE ksuid_payload(id) = substr(id::bytea, 5)) AS payload_is_last_16_bytes
FROM random_ksuids;

-- ksuid -> timestamptz is ksuid_time
SELECT '0ujtsYcgvSTl8PAuAdqWYSMnLOv'::ksuid::timestamptz AS readme_time;

-- byte order = text order under C collation = the operators' order, over all pairs of a sample
CREATE TEMP TABLE sample AS
SELECT id FROM random_ksuids LIMIT 150;
INSERT INTO sample SELECT ksuid() FROM generate_series(1, 100);
INSERT INTO sample VALUES ('000000000000000000000000000'), ('aWgEPTl1tmebfsQzFP4bxwgy80V'),
                          ('0ujtsYcgvSTl8PAuAdqWYSMnLOv'), ('0ujtsYcgvSTl8PAuAdqWYSMnLOw'), ('0ujtsYcgvSTl8PAuAdqWYSMnLOu');
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (a.id < b.id) = (a.id::bytea < b.id::bytea)
                          AND (a.id <= b.id) = (a.id::bytea <= b.id::bytea)
                          AND (a.id = b.id) = (a.id::bytea = b.id::bytea)
                          AND (a.id <> b.id) = (a.id::bytea <> b.id::bytea)
                          AND (a.id >= b.id) = (a.id::bytea >= b.id::bytea)
                          AND (a.id > b.id) = (a.id::bytea > b.id::bytea)
                          AND ksuid_cmp(a.id, b.id) = sign(byteacmp(a.id::bytea, b.id::bytea))) AS agree_with_bytes,
       count(*) FILTER (WHERE (a.id < b.id) = (a.id::text COLLATE "C" < b.id::text COLLATE "C")
                          AND (a.id = b.id) = (a.id::text = b.id::text)) AS agree_with_text,
       count(*) FILTER (WHERE ksuid_time(a.id) < ksuid_time(b.id) AND NOT a.id < b.id) AS against_time_order,
       count(*) FILTER (WHERE a.id = b.id) AS equal_pairs
FROM sample a, sample b;

-- sorting (sort support, abbreviated keys) gives byte order, text order in C
-- collation and time order: random values, runs sharing their first 8 bytes,
-- and generated ones
CREATE TEMP TABLE mixed AS
SELECT id FROM random_ksuids
UNION ALL SELECT ksuid_at('2024-01-01 00:00:00+00') FROM generate_series(1, 2000)
UNION ALL SELECT ksuid_at('2014-05-13 16:53:20+00'::timestamptz + random() * interval '136 years') FROM generate_series(1, 2000)
UNION ALL SELECT ksuid() FROM generate_series(1, 2000);
SELECT count(*) AS ids,
       count(*) FILTER (WHERE by_ksuid <> by_bytes) AS byte_order_mismatches,
       count(*) FILTER (WHERE by_ksuid <> by_text) AS text_order_mismatches,
       count(*) FILTER (WHERE by_ksuid <> by_ksuid_desc) AS descending_mismatches,
       count(*) FILTER (WHERE time_before > ksuid_time(id)) AS time_order_mismatches
FROM (SELECT id,
             row_number() OVER (ORDER BY id) AS by_ksuid,
             row_number() OVER (ORDER BY id::bytea) AS by_bytes,
             row_number() OVER (ORDER BY id::text COLLATE "C") AS by_text,
             count(*) OVER () + 1 - row_number() OVER (ORDER BY id DESC) AS by_ksuid_desc,
             lag(ksuid_time(id)) OVER (ORDER BY id) AS time_before
      FROM mixed) s;

-- the hashes: the seeded hash with seed 0 holds the plain one in its low 32
-- bits (PostgreSQL's hash_any_extended contract); another seed changes it
SELECT count(*) AS ids,
       count(*) FILTER (WHERE (ksuid_hash_extended(id, 0) & 4294967295) = (ksuid_hash(id)::bigint & 4294967295)) AS low_bits_equal,
       count(*) FILTER (WHERE ksuid_hash_extended(id, 42) <> ksuid_hash_extended(id, 0)) AS seed_changes_hash,
       count(DISTINCT ksuid_hash(id)) > 9900 AS spread
FROM random_ksuids;

-- ksuid(): 100k values in one statement, in call order: unique, strictly
-- increasing, canonical text, time within the clock readings around the statement
CREATE TEMP TABLE clock_before AS SELECT clock_timestamp() AS t;
CREATE TEMP TABLE generated AS SELECT n, ksuid() AS id FROM generate_series(1, 100000) n;
CREATE TEMP TABLE clock_after AS SELECT clock_timestamp() AS t;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id <= prev) AS not_increasing,
       count(*) FILTER (WHERE id::text ~ '^[0-9A-Za-z]{27}$') AS canonical,
       count(*) FILTER (WHERE ksuid_time(id) BETWEEN date_trunc('second', (SELECT t FROM clock_before))
                                                 AND (SELECT t FROM clock_after)) AS time_in_clock_bounds
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM generated) t;

-- within a second each value is the previous + 1 (segmentio's Next()), and a
-- new second starts from a fresh payload (low 60 bits compared)
SELECT count(*) FILTER (WHERE same_second) > 0 AS has_same_second_runs,
       count(*) FILTER (WHERE same_second AND low_step <> 1) AS same_second_not_plus_one,
       count(*) FILTER (WHERE NOT same_second AND low_step = 1) AS new_second_not_random
FROM (SELECT ksuid_time(id) = ksuid_time(prev) AS same_second,
             (low - lag(low) OVER (ORDER BY n) + (1::bigint << 60)) % (1::bigint << 60) AS low_step, prev
      FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS prev,
                   ('x' || right(encode(ksuid_payload(id), 'hex'), 15))::bit(60)::bigint AS low
            FROM generated) s) t
WHERE prev IS NOT NULL;

-- and increasing across statements of the session, under either order
CREATE TEMP TABLE session_ids (n serial, id ksuid);
INSERT INTO session_ids (id) SELECT ksuid() FROM generate_series(1, 1000);
INSERT INTO session_ids (id) VALUES (ksuid());
SET idgen.ksuid_order = 'server';
INSERT INTO session_ids (id) SELECT ksuid() FROM generate_series(1, 1000);
RESET idgen.ksuid_order;
INSERT INTO session_ids (id) SELECT ksuid() FROM generate_series(1, 1000);
SELECT count(*) AS ids, count(*) FILTER (WHERE id <= prev) AS not_increasing,
       count(*) FILTER (WHERE id <= (SELECT id FROM generated WHERE n = 100000)) AS not_after_earlier_statement
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM session_ids) t;

-- ksuid() is counted in idgen_stats as family ksuid; ksuid_at and ksuid_boundary are not
SELECT ids_minted AS before FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'ksuid' \gset
SELECT count(ksuid()) + count(ksuid_at(now())) + count(ksuid_boundary(now())) AS calls FROM generate_series(1, 1000);
SELECT ids_minted - :before AS minted_now, shared_memory FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'ksuid';

-- ksuid_at: the second of the instant, a fresh payload each call
SELECT ksuid_time(ksuid_at('2024-05-06 07:08:09.123456+00')) AS decoded,
       ksuid_at('2024-05-06 07:08:09.123456+00') >= ksuid_boundary('2024-05-06 07:08:09+00') AS above_boundary,
       ksuid_at('2024-05-06 07:08:09.123456+00') < ksuid_boundary('2024-05-06 07:08:10+00') AS below_next_boundary,
       ksuid_at('2024-05-06 07:08:09.123456+00') <> ksuid_at('2024-05-06 07:08:09.123456+00') AS payload_differs;
SELECT count(DISTINCT ksuid_payload(id)) AS distinct_payloads
FROM (SELECT ksuid_at('2024-05-06 07:08:09+00') AS id FROM generate_series(1, 1000)) s;

-- round trip to second precision over the whole range
SELECT count(*) AS instants,
       count(*) FILTER (WHERE ksuid_time(ksuid_at(ts)) <> date_trunc('second', ts)) AS at_mismatches,
       count(*) FILTER (WHERE ksuid_time(ksuid_boundary(ts)) <> date_trunc('second', ts)) AS boundary_mismatches
FROM generate_series('2014-05-13 16:53:20.5+00'::timestamptz, '2150-06-19 23:21:35+00',
                     interval '97 days 05:06:07.891234') ts;

-- boundaries: the smallest KSUID of the second (golden), payload zero
SELECT ksuid_boundary('2017-10-10 04:00:47+00') AS readme_second,
       ksuid_boundary('2017-10-10 04:00:47.999999+00') AS same_second_truncated,
       ksuid_boundary('2017-10-10 06:00:47.5+02') AS with_time_zone,
       ksuid_payload(ksuid_boundary('2017-10-10 04:00:47+00')) AS zero_payload;
SELECT ksuid_boundary('2017-10-10 04:00:47+00') < '0ujtsYcgvSTl8PAuAdqWYSMnLOv'::ksuid AS readme_above,
       '0ujtsYcgvSTl8PAuAdqWYSMnLOv'::ksuid < ksuid_boundary('2017-10-10 04:00:48+00') AS readme_below_next;

-- btree primary key: a boundary range is an index-only scan, an equality lookup an index scan
CREATE TABLE events (id ksuid PRIMARY KEY, day int);
INSERT INTO events
SELECT ksuid_at('2024-01-01'::timestamptz + d * interval '1 day' + s * interval '1 second'), d
FROM generate_series(0, 99) d, generate_series(1, 1000) s;
INSERT INTO events VALUES ('0ujtsYcgvSTl8PAuAdqWYSMnLOv', -1);
VACUUM ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events
WHERE id >= ksuid_boundary('2024-01-11') AND id < ksuid_boundary('2024-01-12');
SELECT count(*) FROM events
WHERE id >= ksuid_boundary('2024-01-11') AND id < ksuid_boundary('2024-01-12');
EXPLAIN (COSTS OFF)
SELECT day FROM events WHERE id = '0ujtsYcgvSTl8PAuAdqWYSMnLOv';
SELECT day FROM events WHERE id = '0ujtsYcgvSTl8PAuAdqWYSMnLOv';
SELECT day, count(*) FROM events
WHERE id >= ksuid_boundary('2024-02-01') AND id < ksuid_boundary('2024-02-01 00:01')
GROUP BY day;

-- The plan without what PostgreSQL 17 stopped printing: "(returns $0)" after
-- an InitPlan and min/max's redundant "Index Cond: (id IS NOT NULL)".
CREATE FUNCTION pg_temp.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        CONTINUE WHEN line ~ 'Index Cond: \(id IS NOT NULL\)$';
        RETURN NEXT regexp_replace(line, ' \(returns \$\d+\)$', '');
    END LOOP;
END
$$;
-- min() and max() agree with ORDER BY and are read from the index
SELECT pg_temp.plan('SELECT max(id) FROM events');
SELECT min(id) = (SELECT id FROM events ORDER BY id LIMIT 1) AS min_is_first,
       max(id) = (SELECT id FROM events ORDER BY id DESC LIMIT 1) AS max_is_last,
       min(id) AS earliest, ksuid_time(max(id)) AS latest_time
FROM events;
SELECT min(id) IS NULL AS min_of_nothing FROM events WHERE false;

-- btree deduplication is allowed (equal KSUIDs are equal bytes): duplicates pack tightly
CREATE TEMP TABLE repeated AS
SELECT ksuid_boundary('2024-01-01'::timestamptz + (n % 100) * interval '1 second') AS id
FROM generate_series(1, 50000) n;
CREATE INDEX repeated_dedup ON repeated (id);
CREATE INDEX repeated_no_dedup ON repeated (id) WITH (deduplicate_items = off);
SELECT pg_relation_size('repeated_dedup') * 3 < pg_relation_size('repeated_no_dedup') AS deduplicated;

-- merge join and hash join, each forced, find the same rows (half of events, in random order)
CREATE TABLE picked AS SELECT id FROM events WHERE day % 2 = 0 ORDER BY random();
ANALYZE picked;
SET enable_nestloop = off;
SET enable_hashjoin = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events e JOIN picked p ON p.id = e.id;
SELECT count(*) AS merge_join_rows FROM events e JOIN picked p ON p.id = e.id;
RESET enable_hashjoin;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events e JOIN picked p ON p.id = e.id;
SELECT count(*) AS hash_join_rows FROM events e JOIN picked p ON p.id = e.id;
RESET enable_mergejoin;
RESET enable_nestloop;
SELECT count(*) AS bytea_join_rows FROM events e JOIN picked p ON p.id::bytea = e.id::bytea;

-- hash aggregation and sorted grouping agree
SET enable_sort = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM (SELECT id FROM picked UNION SELECT id FROM events) s;
SELECT count(*) AS hashed_union FROM (SELECT id FROM picked UNION SELECT id FROM events) s;
RESET enable_sort;
SET enable_hashagg = off;
SELECT count(*) AS sorted_union FROM (SELECT id FROM picked UNION SELECT id FROM events) s;
RESET enable_hashagg;

-- hash index: equality lookups use it
CREATE TABLE lookups (id ksuid, day int);
INSERT INTO lookups SELECT id, day FROM events;
CREATE INDEX lookups_id_hash ON lookups USING hash (id);
ANALYZE lookups;
EXPLAIN (COSTS OFF)
SELECT day FROM lookups WHERE id = '0ujtsYcgvSTl8PAuAdqWYSMnLOv';
SELECT day FROM lookups WHERE id = '0ujtsYcgvSTl8PAuAdqWYSMnLOv';
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS found_through_hash_index
FROM picked p WHERE EXISTS (SELECT FROM lookups l WHERE l.id = p.id);
RESET enable_seqscan;
RESET enable_bitmapscan;

-- hash partitioning (ksuid_hash_extended): rows spread over all 4 partitions,
-- and an equality lookup is pruned to one partition
CREATE TABLE hashed (id ksuid PRIMARY KEY, day int) PARTITION BY HASH (id);
CREATE TABLE hashed_0 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE hashed_1 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE hashed_2 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE hashed_3 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO hashed SELECT id, day FROM events WHERE day < 10 OR day = -1;
SELECT tableoid::regclass AS partition, count(*) > 1000 AS well_filled FROM hashed GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF)
SELECT day FROM hashed WHERE id = '0ujtsYcgvSTl8PAuAdqWYSMnLOv';
SELECT count(*) AS found FROM hashed WHERE id = '0ujtsYcgvSTl8PAuAdqWYSMnLOv';

-- BRIN on an append-only table in time order: a time range reads only the
-- block ranges it needs, and finds what a sequential scan finds
CREATE TABLE appended (id ksuid, batch int);
INSERT INTO appended
SELECT ksuid_at('2024-01-01'::timestamptz + n * interval '1 second'), CASE WHEN n <= 50000 THEN 1 ELSE 2 END
FROM generate_series(1, 100000) n;
CREATE INDEX appended_id_brin ON appended USING brin (id) WITH (pages_per_range = 4);
VACUUM ANALYZE appended;
EXPLAIN (COSTS OFF)
SELECT count(*), sum(batch) FROM appended
WHERE id >= ksuid_boundary('2024-01-01'::timestamptz + interval '50001 seconds');
SELECT count(*) AS brin_rows, sum(batch) AS brin_batch_sum FROM appended
WHERE id >= ksuid_boundary('2024-01-01'::timestamptz + interval '50001 seconds');
SET enable_bitmapscan = off;
SELECT count(*) AS seq_rows, sum(batch) AS seq_batch_sum FROM appended
WHERE id >= ksuid_boundary('2024-01-01'::timestamptz + interval '50001 seconds');
RESET enable_bitmapscan;
-- the bitmap holds about the second half of the table's blocks, not all of them
CREATE FUNCTION brin_blocks_read() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE $q$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON)
               SELECT count(*) FROM appended
               WHERE id >= ksuid_boundary('2024-01-01'::timestamptz + interval '50001 seconds')$q$
        INTO plan;
    RETURN (plan -> 0 -> 'Plan' -> 'Plans' -> 0 ->> 'Lossy Heap Blocks')::bigint;
END
$$;
SELECT brin_blocks_read() BETWEEN pg_relation_size('appended') / current_setting('block_size')::int * 4 / 10
                              AND pg_relation_size('appended') / current_setting('block_size')::int * 6 / 10
       AS about_half_the_blocks;
DROP FUNCTION brin_blocks_read();

-- boundaries as range partition bounds, with routing and pruning
CREATE TABLE parted (id ksuid PRIMARY KEY, note text) PARTITION BY RANGE (id);
CREATE TABLE parted_2024_01 PARTITION OF parted
    FOR VALUES FROM (ksuid_boundary('2024-01-01')) TO (ksuid_boundary('2024-02-01'));
CREATE TABLE parted_2024_02 PARTITION OF parted
    FOR VALUES FROM (ksuid_boundary('2024-02-01')) TO (ksuid_boundary('2024-03-01'));
INSERT INTO parted VALUES (ksuid_at('2024-01-31 23:59:59.999'), 'jan'), (ksuid_boundary('2024-02-01'), 'feb'),
                          ((substr(ksuid_boundary('2024-02-29 23:59:59')::bytea, 1, 4)
                            || '\xffffffffffffffffffffffffffffffff'::bytea)::ksuid, 'feb last');
SELECT tableoid::regclass AS partition, note, ksuid_time(id) AS time FROM parted ORDER BY id;
INSERT INTO parted VALUES (ksuid_boundary('2024-03-01'), 'mar');
EXPLAIN (COSTS OFF)
SELECT * FROM parted WHERE id >= ksuid_boundary('2024-02-10') AND id < ksuid_boundary('2024-02-11');

-- DEFAULT ksuid() with RETURNING and a generated column
CREATE TABLE orders (
    id ksuid PRIMARY KEY DEFAULT ksuid(),
    created_at timestamptz GENERATED ALWAYS AS (ksuid_time(id)) STORED,
    item text
);
INSERT INTO orders (item) VALUES ('a'), ('b')
RETURNING item, ksuid_time(id) = created_at AS generated_matches,
          created_at BETWEEN date_trunc('second', now()) - interval '1 minute' AND clock_timestamp() AS created_now;
INSERT INTO orders (id, item) VALUES ('0ujtsYcgvSTl8PAuAdqWYSMnLOv', 'backfill') RETURNING id, created_at, item;
SELECT item FROM orders ORDER BY id;

-- a char(27) column of KSUID text (what users keep today) becomes ksuid in
-- place, with its index; order and lookups are the same
CREATE TABLE legacy (id char(27) PRIMARY KEY, note text);
INSERT INTO legacy VALUES ('0ujtsYcgvSTl8PAuAdqWYSMnLOv', 'readme'), ('0ujzPyRiIAffKhBux4PvQdDqMHY', 'inspect'),
                          ('000000000000000000000000000', 'nil'), ('aWgEPTl1tmebfsQzFP4bxwgy80V', 'max');
CREATE TEMP TABLE legacy_order AS SELECT row_number() OVER (ORDER BY id COLLATE "C") AS n, note FROM legacy;
ALTER TABLE legacy ALTER COLUMN id TYPE ksuid USING id::ksuid;
SELECT format_type(atttypid, atttypmod) AS id_type FROM pg_attribute WHERE attrelid = 'legacy'::regclass AND attname = 'id';
SELECT count(*) FILTER (WHERE l.note = o.note) AS same_order, count(*) AS rows
FROM (SELECT row_number() OVER (ORDER BY id) AS n, note FROM legacy) l JOIN legacy_order o USING (n);
SELECT note, ksuid_time(id) FROM legacy WHERE id = '0ujtsYcgvSTl8PAuAdqWYSMnLOv';

-- COPY text writes the canonical text and reads it back
COPY (SELECT * FROM (VALUES (1, '0ujtsYcgvSTl8PAuAdqWYSMnLOv'::ksuid), (2, '000000000000000000000000000'),
                            (3, 'aWgEPTl1tmebfsQzFP4bxwgy80V'), (4, NULL)) v(n, id) ORDER BY n) TO STDOUT;
CREATE TEMP TABLE copied_text (n int, id ksuid);
COPY copied_text FROM STDIN;
1	0ujtsYcgvSTl8PAuAdqWYSMnLOv
2	aWgEPTl1tmebfsQzFP4bxwgy80V
3	\N
\.
SELECT n, id FROM copied_text ORDER BY n;

-- COPY binary: written to a file through psql, read back with \copy, every row identical
CREATE TEMP TABLE copy_source (n int, id ksuid);
INSERT INTO copy_source
SELECT n, CASE n % 3 WHEN 0 THEN ksuid() WHEN 1 THEN (SELECT id FROM random_ksuids OFFSET n LIMIT 1)
                     ELSE ksuid_at('2014-05-13 16:53:20+00'::timestamptz + random() * interval '136 years') END
FROM generate_series(1, 1000) n;
INSERT INTO copy_source VALUES (1001, '000000000000000000000000000'), (1002, 'aWgEPTl1tmebfsQzFP4bxwgy80V'),
                               (1003, '0ujtsYcgvSTl8PAuAdqWYSMnLOv'), (1004, NULL);
\getenv abs_builddir PG_ABS_BUILDDIR
\set binfile :abs_builddir '/results/ksuid_copy.bin'
\o :binfile
COPY copy_source TO STDOUT (FORMAT binary);
\o
CREATE TEMP TABLE copy_target (LIKE copy_source);
\copy copy_target FROM PROGRAM 'cat "$PG_ABS_BUILDDIR/results/ksuid_copy.bin"' (FORMAT binary)
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s.id IS NOT DISTINCT FROM t.id
                          AND ksuid_send(s.id) IS NOT DISTINCT FROM ksuid_send(t.id)) AS identical
FROM copy_source s FULL JOIN copy_target t USING (n);
SELECT n, id FROM copy_target WHERE n > 1000 ORDER BY n;

-- parallel query: ksuid() is PARALLEL RESTRICTED, so a parallel plan scans in
-- its workers and mints in the leader, in the session's order
CREATE TABLE parallel_source AS SELECT g FROM generate_series(1, 100000) g;
ANALYZE parallel_source;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
SELECT bool_or(line ~ 'Gather') AS gathers
FROM pg_temp.plan('SELECT clock_timestamp(), ksuid() FROM parallel_source WHERE g % 2 = 0') AS line;
CREATE TABLE parallel_ids AS
SELECT clock_timestamp() AS t, ksuid() AS k FROM parallel_source WHERE g % 2 = 0;
SELECT count(*) AS ids, count(*) FILTER (WHERE k <= prev_k) AS ksuid_out_of_order
FROM (SELECT k, lag(k) OVER (ORDER BY t, k) AS prev_k FROM parallel_ids) s;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
RESET parallel_leader_participation;
DROP TABLE parallel_source, parallel_ids;

-- the default operator classes and their support functions: btree with sort
-- support and equalimage (1, 2, 4), hash with the extended hash (1, 2), BRIN minmax (1-4)
SELECT am.amname AS method, oc.opcname AS opclass, oc.opcdefault AS is_default,
       array_agg(ap.amprocnum ORDER BY ap.amprocnum) AS support_functions
FROM pg_opclass oc
JOIN pg_am am ON am.oid = oc.opcmethod
JOIN pg_amproc ap ON ap.amprocfamily = oc.opcfamily
WHERE oc.opcintype = 'ksuid'::regtype
GROUP BY am.amname, oc.opcname, oc.opcdefault
ORDER BY am.amname;

DROP TABLE events, picked, lookups, hashed, appended, parted, orders, legacy;
