-- ulid type: text and binary I/O, order, casts and boundaries (golden output),
-- generated values (properties), and the index, join, partitioning and COPY paths
SET TimeZone = 'UTC';
-- serial plans whatever the server's parallel settings, so that EXPLAIN output is stable
SET max_parallel_workers_per_gather = 0;

-- text input in either case; output is the canonical uppercase text
SELECT input, input::ulid AS canonical, input::ulid::text = upper(input) AS upper_of_input
FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01arz3ndektsv4rrffq69g5fav'), ('01aRz3NdEkTsV4rRfFq69G5fAv'),
             ('00000000000000000000000000'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('7zzzzzzzzzzzzzzzzzzzzzzzzz'),
             ('0123456789abcdefghjkmnpqrs'), ('7TVWXYZ0123456789ABCDEFGHJ')) v(input);

-- text <-> ulid casts both ways, and a ULID takes 16 bytes like a uuid
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::text::ulid::text AS text_round_trip,
       CAST(CAST('01arz3ndektsv4rrffq69g5fav' AS ulid) AS text) AS via_cast,
       pg_column_size('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid) AS literal_size,
       pg_column_size(ulid()) AS generated_size;
SELECT NULL::text::ulid IS NULL AS null_text;

-- the spec's example decodes to its timestamp; binary send is the 16 bytes, as uuid_send
SELECT ulid_time('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS spec_time,
       ulid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS sent,
       ulid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV') = uuid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid) AS same_as_uuid_send;

-- text round trip and canonical form over random values
SELECT count(*) AS ids,
       count(*) FILTER (WHERE id::text::ulid = id AND lower(id::text)::ulid = id) AS round_trips,
       count(*) FILTER (WHERE length(id::text) = 26 AND id::text ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$') AS canonical
FROM (SELECT gen_random_uuid()::ulid AS id FROM generate_series(1, 10000)) s;

-- casts to uuid are the same bytes, golden both ways
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid AS spec_example,
       '00000000000000000000000000'::ulid::uuid AS smallest,
       '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid::uuid AS largest,
       '0123456789ABCDEFGHJKMNPQRS'::ulid::uuid AS digits;
SELECT '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid AS from_uuid,
       'fadf3bef-8022-190a-63a1-2a5b1ae7c232'::uuid::ulid AS high_bit_set;
SELECT count(*) FILTER (WHERE u::ulid::uuid = u AND uuid_send(u) = ulid_send(u::ulid)) AS uuid_round_trips,
       count(*) FILTER (WHERE u::ulid::text::ulid::uuid = u) AS via_text
FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, 10000)) s;

-- the casts apply on assignment in both directions
CREATE TEMP TABLE as_uuid (id uuid);
CREATE TEMP TABLE as_ulid (id ulid);
INSERT INTO as_uuid VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid);
INSERT INTO as_ulid VALUES ('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid);
SELECT (SELECT id FROM as_uuid) AS stored_as_uuid, (SELECT id FROM as_ulid) AS stored_as_ulid;

-- but never implicitly: ulid and uuid do not compare without a cast
SELECT ulid() = gen_random_uuid();

-- ulid -> timestamptz is ulid_time; a UUIDv7 cast to ulid keeps its millisecond
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz AS spec_time,
       ulid_time(uuid_v7_at('2024-05-06 07:08:09.123456+00')::ulid) AS v7_millisecond;
SELECT count(*) FILTER (WHERE id::timestamptz = ulid_time(id)) AS cast_matches,
       count(*) FILTER (WHERE ulid_time(u::ulid) = uuid_v7_time(u)) AS v7_time_kept
FROM (SELECT uuid_v7() AS u, ulid() AS id FROM generate_series(1, 10000)) s;

-- operators agree with uuid's on the same bytes (all pairs of a sample, equal pairs included)
CREATE TEMP TABLE sample AS
SELECT gen_random_uuid()::ulid AS id FROM generate_series(1, 150)
UNION ALL SELECT ulid() FROM generate_series(1, 100)
UNION ALL VALUES ('00000000000000000000000000'::ulid), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
                 ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01ARZ3NDEKTSV4RRFFQ69G5FAW'), ('01ARZ3NDEKTSV4RRFFQ69G5FAT');
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (a.id < b.id) = (a.id::uuid < b.id::uuid)
                          AND (a.id <= b.id) = (a.id::uuid <= b.id::uuid)
                          AND (a.id = b.id) = (a.id::uuid = b.id::uuid)
                          AND (a.id <> b.id) = (a.id::uuid <> b.id::uuid)
                          AND (a.id >= b.id) = (a.id::uuid >= b.id::uuid)
                          AND (a.id > b.id) = (a.id::uuid > b.id::uuid)
                          AND ulid_cmp(a.id, b.id) = sign(uuid_cmp(a.id::uuid, b.id::uuid))) AS agree,
       count(*) FILTER (WHERE a.id = b.id) AS equal_pairs
FROM sample a, sample b;

-- sorting (sort support, abbreviated keys) gives uuid order, and canonical text sorts the same in C
-- collation: random instants over the whole range, random uuids, and runs sharing their first 8 bytes
CREATE TEMP TABLE mixed AS
SELECT ulid_at('1970-01-01 00:00:00+00'::timestamptz
               + random() * ('10889-08-02 05:31:50.655+00'::timestamptz - '1970-01-01 00:00:00+00'::timestamptz)) AS id
FROM generate_series(1, 10000)
UNION ALL SELECT gen_random_uuid()::ulid FROM generate_series(1, 2000)
UNION ALL SELECT ulid_at('2024-01-01 00:00:00+00') FROM generate_series(1, 2000)
UNION ALL SELECT ulid() FROM generate_series(1, 2000);
SELECT count(*) AS ids,
       count(*) FILTER (WHERE by_ulid <> by_uuid) AS uuid_order_mismatches,
       count(*) FILTER (WHERE by_ulid <> by_text) AS text_order_mismatches,
       count(*) FILTER (WHERE by_ulid <> by_ulid_desc) AS descending_mismatches
FROM (SELECT row_number() OVER (ORDER BY id) AS by_ulid,
             row_number() OVER (ORDER BY id::uuid) AS by_uuid,
             row_number() OVER (ORDER BY id::text COLLATE "C") AS by_text,
             count(*) OVER () + 1 - row_number() OVER (ORDER BY id DESC) AS by_ulid_desc
      FROM mixed) s;

-- the hash is uuid's hash of the same bytes, plain and seeded
SELECT count(*) AS ids,
       count(*) FILTER (WHERE ulid_hash(id) = uuid_hash(id::uuid)) AS hash_equal,
       count(*) FILTER (WHERE ulid_hash_extended(id, 42) = uuid_hash_extended(id::uuid, 42)
                          AND ulid_hash_extended(id, 0) = uuid_hash_extended(id::uuid, 0)) AS extended_equal
FROM mixed;

-- ulid(): 100k values in one statement, in call order: unique, strictly increasing,
-- canonical text, time within the clock readings around the statement
CREATE TEMP TABLE clock_before AS SELECT clock_timestamp() AS t;
CREATE TEMP TABLE generated AS SELECT n, ulid() AS id FROM generate_series(1, 100000) n;
CREATE TEMP TABLE clock_after AS SELECT clock_timestamp() AS t;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id <= prev) AS not_increasing,
       count(*) FILTER (WHERE length(id::text) = 26 AND left(id::text, 1) BETWEEN '0' AND '7') AS canonical,
       count(*) FILTER (WHERE ulid_time(id) BETWEEN date_trunc('milliseconds', (SELECT t FROM clock_before))
                                                AND (SELECT t FROM clock_after)) AS time_in_clock_bounds
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM generated) t;

-- the spec's monotonic mode: within a millisecond each value is the previous + 1,
-- and a new millisecond starts from fresh random bits (low 60 bits compared)
SELECT count(*) FILTER (WHERE same_ms) > 0 AS has_same_ms_runs,
       count(*) FILTER (WHERE same_ms AND low_step <> 1) AS same_ms_not_plus_one,
       count(*) FILTER (WHERE NOT same_ms) > 0 AS has_new_ms,
       count(*) FILTER (WHERE NOT same_ms AND low_step = 1) AS new_ms_not_random
FROM (SELECT ulid_time(id) = ulid_time(prev) AS same_ms,
             (low - lag(low) OVER (ORDER BY n) + (1::bigint << 60)) % (1::bigint << 60) AS low_step, prev
      FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS prev,
                   ('x' || right(replace(id::uuid::text, '-', ''), 15))::bit(60)::bigint AS low
            FROM generated) s) t
WHERE prev IS NOT NULL;

-- and increasing across statements of the session
CREATE TEMP TABLE session_ids (n serial, id ulid);
INSERT INTO session_ids (id) SELECT ulid() FROM generate_series(1, 1000);
INSERT INTO session_ids (id) VALUES (ulid());
INSERT INTO session_ids (id) SELECT ulid() FROM generate_series(1, 1000);
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing,
       count(*) FILTER (WHERE id <= (SELECT id FROM generated WHERE n = 100000)) AS not_after_earlier_statement
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM session_ids) t;

-- ulid() is counted in idgen_stats; ulid_at and ulid_boundary are not
SELECT ids_minted AS before FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'ulid' \gset
SELECT count(ulid()) + count(ulid_at(now())) + count(ulid_boundary(now())) AS calls FROM generate_series(1, 1000);
SELECT ids_minted - :before AS minted_now FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'ulid';

-- ulid_at: the millisecond of the instant, fresh random bits each call
SELECT left(ulid_at('2024-05-06 07:08:09.123456+00')::text, 10) AS time_part,
       ulid_time(ulid_at('2024-05-06 07:08:09.123456+00')) AS decoded,
       ulid_at('2024-05-06 07:08:09.123456+00') <> ulid_at('2024-05-06 07:08:09.123456+00') AS random_part_differs;
SELECT count(DISTINCT substr(id::text, 11)) AS distinct_random_parts
FROM (SELECT ulid_at('2024-05-06 07:08:09+00') AS id FROM generate_series(1, 1000)) s;
SELECT ulid_at(NULL) IS NULL AS null_ts;

-- round trip to millisecond precision over the whole range
SELECT count(*) AS instants,
       count(*) FILTER (WHERE ulid_time(ulid_at(ts)) <> date_trunc('milliseconds', ts)) AS at_mismatches,
       count(*) FILTER (WHERE ulid_time(ulid_boundary(ts)) <> date_trunc('milliseconds', ts)) AS boundary_mismatches
FROM generate_series('1970-01-01 00:00:00.0005+00'::timestamptz, '10889-08-02 05:31:50.655+00',
                     interval '3 years 7 days 05:06:07.891234') ts;

-- boundaries: the smallest ULID of the millisecond (golden), first and last millisecond
SELECT ulid_boundary('2024-05-06 07:08:09.123456+00') AS boundary,
       ulid_boundary('2024-05-06 07:08:09.123999+00') AS same_ms_truncated,
       ulid_boundary('2026-05-01 12:34:56.789+02') AS with_time_zone;
SELECT ulid_boundary('1970-01-01 00:00:00+00') AS first,
       ulid_boundary('1970-01-01 00:00:00.001+00') AS second_ms,
       ulid_boundary('2016-07-30 23:54:10.259+00') AS spec_example_ms,
       ulid_boundary('10889-08-02 05:31:50.655+00') AS last;
SELECT ulid_time('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS largest_time, ulid_time('00000000000000000000000000') AS smallest_time;
SELECT count(*) FILTER (WHERE ulid_boundary(ts) <= ulid_at(ts)
                          AND ulid_at(ts) < ulid_boundary(ts + interval '1 millisecond')) AS inside,
       count(*) AS instants
FROM generate_series('2024-01-01'::timestamptz, '2024-01-01 00:00:01', interval '997 microseconds') ts;
SELECT ulid_boundary(NULL) IS NULL AS null_boundary, ulid_time(NULL) IS NULL AS null_time;

-- btree primary key: a boundary range is an index-only scan, an equality lookup an index scan;
-- boundaries a minute apart find that minute's rows
CREATE TABLE events (id ulid PRIMARY KEY, day int);
INSERT INTO events
SELECT ulid_at('2024-01-01'::timestamptz + d * interval '1 day' + s * interval '1 second'), d
FROM generate_series(0, 99) d, generate_series(1, 1000) s;
INSERT INTO events VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', -1);
VACUUM ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events
WHERE id >= ulid_boundary('2024-01-11') AND id < ulid_boundary('2024-01-12');
SELECT count(*) FROM events
WHERE id >= ulid_boundary('2024-01-11') AND id < ulid_boundary('2024-01-12');
EXPLAIN (COSTS OFF)
SELECT day FROM events WHERE id = '01arz3ndektsv4rrffq69g5fav';
SELECT day FROM events WHERE id = '01arz3ndektsv4rrffq69g5fav';
SELECT day, count(*) FROM events
WHERE id >= ulid_boundary('2024-02-01') AND id < ulid_boundary('2024-02-01 00:01')
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
       min(id) AS earliest, ulid_time(max(id)) AS latest_time
FROM events;
SELECT min(id) IS NULL AS min_of_nothing FROM events WHERE false;

-- btree deduplication is allowed (equal ULIDs are equal bytes): duplicates pack tightly
CREATE TEMP TABLE repeated AS
SELECT ulid_boundary('2024-01-01'::timestamptz + (n % 100) * interval '1 millisecond') AS id
FROM generate_series(1, 50000) n;
CREATE INDEX repeated_dedup ON repeated (id);
CREATE INDEX repeated_no_dedup ON repeated (id) WITH (deduplicate_items = off);
SELECT pg_relation_size('repeated_dedup') * 3 < pg_relation_size('repeated_no_dedup') AS deduplicated;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS rows_of_one_ms FROM repeated WHERE id = ulid_boundary('2024-01-01 00:00:00.007+00');
RESET enable_seqscan;
RESET enable_bitmapscan;

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
SELECT count(*) AS uuid_join_rows FROM events e JOIN picked p ON p.id::uuid = e.id::uuid;

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
CREATE TABLE lookups (id ulid, day int);
INSERT INTO lookups SELECT id, day FROM events;
CREATE INDEX lookups_id_hash ON lookups USING hash (id);
ANALYZE lookups;
EXPLAIN (COSTS OFF)
SELECT day FROM lookups WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT day FROM lookups WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS found_through_hash_index
FROM picked p WHERE EXISTS (SELECT FROM lookups l WHERE l.id = p.id);
RESET enable_seqscan;
RESET enable_bitmapscan;

-- hash partitioning: rows spread over all 4 partitions, exactly as uuid's hash would place them,
-- and an equality lookup is pruned to one partition
CREATE TABLE hashed (id ulid PRIMARY KEY, day int) PARTITION BY HASH (id);
CREATE TABLE hashed_0 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE hashed_1 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE hashed_2 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE hashed_3 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 3);
CREATE TABLE hashed_uuid (id uuid PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE hashed_uuid_0 PARTITION OF hashed_uuid FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE hashed_uuid_1 PARTITION OF hashed_uuid FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE hashed_uuid_2 PARTITION OF hashed_uuid FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE hashed_uuid_3 PARTITION OF hashed_uuid FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO hashed SELECT id, day FROM events WHERE day < 10 OR day = -1;
INSERT INTO hashed_uuid SELECT id FROM hashed;
SELECT tableoid::regclass AS partition, count(*) > 1000 AS well_filled FROM hashed GROUP BY 1 ORDER BY 1;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE right(h.tableoid::regclass::text, 1) = right(u.tableoid::regclass::text, 1)) AS same_remainder
FROM hashed h JOIN hashed_uuid u ON u.id = h.id::uuid;
EXPLAIN (COSTS OFF)
SELECT day FROM hashed WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT tableoid::regclass AS partition, day FROM hashed WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

-- BRIN on an append-only ulid() table: a time range reads only the block ranges it needs,
-- and finds what a sequential scan finds. The cut is taken between two batches, 2 ms apart
-- from each, and read through a setting so that plans do not show its value.
CREATE TABLE appended (id ulid DEFAULT ulid(), batch int);
INSERT INTO appended (batch) SELECT 1 FROM generate_series(1, 50000);
SELECT pg_sleep(0.002);
SELECT set_config('ulid_test.cut', clock_timestamp()::text, false) IS NOT NULL AS cut_taken;
SELECT pg_sleep(0.002);
INSERT INTO appended (batch) SELECT 2 FROM generate_series(1, 50000);
CREATE INDEX appended_id_brin ON appended USING brin (id) WITH (pages_per_range = 4);
VACUUM ANALYZE appended;
EXPLAIN (COSTS OFF)
SELECT count(*), sum(batch) FROM appended
WHERE id >= ulid_boundary(current_setting('ulid_test.cut')::timestamptz)
  AND id < ulid_boundary(current_setting('ulid_test.cut')::timestamptz + interval '1 hour');
SELECT count(*) AS brin_rows, sum(batch) AS brin_batch_sum FROM appended
WHERE id >= ulid_boundary(current_setting('ulid_test.cut')::timestamptz)
  AND id < ulid_boundary(current_setting('ulid_test.cut')::timestamptz + interval '1 hour');
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*), sum(batch) FROM appended
WHERE id >= ulid_boundary(current_setting('ulid_test.cut')::timestamptz)
  AND id < ulid_boundary(current_setting('ulid_test.cut')::timestamptz + interval '1 hour');
SELECT count(*) AS seq_rows, sum(batch) AS seq_batch_sum FROM appended
WHERE id >= ulid_boundary(current_setting('ulid_test.cut')::timestamptz)
  AND id < ulid_boundary(current_setting('ulid_test.cut')::timestamptz + interval '1 hour');
RESET enable_bitmapscan;
-- the bitmap holds about the second half of the table's blocks, not all of them
CREATE FUNCTION brin_blocks_read() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE $q$EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON)
               SELECT count(*) FROM appended
               WHERE id >= ulid_boundary(current_setting('ulid_test.cut')::timestamptz)
                 AND id < ulid_boundary(current_setting('ulid_test.cut')::timestamptz + interval '1 hour')$q$
        INTO plan;
    RETURN (plan -> 0 -> 'Plan' -> 'Plans' -> 0 ->> 'Lossy Heap Blocks')::bigint;
END
$$;
SELECT brin_blocks_read() BETWEEN pg_relation_size('appended') / current_setting('block_size')::int * 4 / 10
                              AND pg_relation_size('appended') / current_setting('block_size')::int * 6 / 10
       AS about_half_the_blocks;
DROP FUNCTION brin_blocks_read();

-- boundaries as range partition bounds, with routing and pruning
CREATE TABLE parted (id ulid PRIMARY KEY, note text) PARTITION BY RANGE (id);
CREATE TABLE parted_2024_01 PARTITION OF parted
    FOR VALUES FROM (ulid_boundary('2024-01-01')) TO (ulid_boundary('2024-02-01'));
CREATE TABLE parted_2024_02 PARTITION OF parted
    FOR VALUES FROM (ulid_boundary('2024-02-01')) TO (ulid_boundary('2024-03-01'));
INSERT INTO parted VALUES (ulid_at('2024-01-31 23:59:59.999'), 'jan'), (ulid_boundary('2024-02-01'), 'feb'),
                          ('01HQVMZ0ZZZZZZZZZZZZZZZZZZ', 'feb last'), ('01HNGZE5ZZZZZZZZZZZZZZZZZZ', 'jan last');
SELECT tableoid::regclass AS partition, note, ulid_time(id) AS time FROM parted ORDER BY id;
INSERT INTO parted VALUES (ulid_boundary('2024-03-01'), 'mar');
EXPLAIN (COSTS OFF)
SELECT * FROM parted WHERE id >= ulid_boundary('2024-02-10') AND id < ulid_boundary('2024-02-11');

-- DEFAULT ulid() with RETURNING and a generated column
CREATE TABLE orders (
    id ulid PRIMARY KEY DEFAULT ulid(),
    created_at timestamptz GENERATED ALWAYS AS (ulid_time(id)) STORED,
    item text
);
INSERT INTO orders (item) VALUES ('a'), ('b')
RETURNING item, ulid_time(id) = created_at AS generated_matches,
          created_at BETWEEN now() - interval '1 minute' AND clock_timestamp() AS created_now;
INSERT INTO orders (id, item) VALUES ('01arz3ndektsv4rrffq69g5fav', 'backfill') RETURNING id, created_at, item;
SELECT item FROM orders ORDER BY id;

-- COPY text writes the canonical text and reads either case
COPY (SELECT * FROM (VALUES (1, '01arz3ndektsv4rrffq69g5fav'::ulid), (2, '00000000000000000000000000'),
                            (3, '7zzzzzzzzzzzzzzzzzzzzzzzzz'), (4, NULL)) v(n, id) ORDER BY n) TO STDOUT;
CREATE TEMP TABLE copied_text (n int, id ulid);
COPY copied_text FROM STDIN;
1	01arz3ndektsv4rrffq69g5fav
2	7ZZZZZZZZZZZZZZZZZZZZZZZZZ
3	\N
\.
SELECT n, id FROM copied_text ORDER BY n;

-- COPY binary: written to a file through psql, read back with \copy, every row identical
CREATE TEMP TABLE copy_source (n int, id ulid);
INSERT INTO copy_source
SELECT n, CASE n % 3 WHEN 0 THEN ulid() WHEN 1 THEN gen_random_uuid()::ulid
                     ELSE ulid_at('1970-01-01 00:00:00+00'::timestamptz + random() * interval '5000 years') END
FROM generate_series(1, 1000) n;
INSERT INTO copy_source VALUES (1001, '00000000000000000000000000'), (1002, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
                               (1003, '01ARZ3NDEKTSV4RRFFQ69G5FAV'), (1004, NULL);
\getenv abs_builddir PG_ABS_BUILDDIR
\set binfile :abs_builddir '/results/ulid_copy.bin'
\o :binfile
COPY copy_source TO STDOUT (FORMAT binary);
\o
CREATE TEMP TABLE copy_target (LIKE copy_source);
\copy copy_target FROM PROGRAM 'cat "$PG_ABS_BUILDDIR/results/ulid_copy.bin"' (FORMAT binary)
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s.id IS NOT DISTINCT FROM t.id
                          AND ulid_send(s.id) IS NOT DISTINCT FROM ulid_send(t.id)) AS identical
FROM copy_source s FULL JOIN copy_target t USING (n);
SELECT n, id FROM copy_target WHERE n > 1000 ORDER BY n;

DROP TABLE events, picked, lookups, hashed, hashed_uuid, appended, parted, orders;
