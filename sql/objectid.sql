-- objectid type: text and binary I/O, the BSON spec's and js-bson's values,
-- order, casts and boundaries (golden output), objectid() (properties), and
-- the index, partitioning, migration and COPY paths
SET TimeZone = 'UTC';
-- serial plans whatever the server's parallel settings, so that EXPLAIN output is stable
SET max_parallel_workers_per_gather = 0;

-- text input in either case; output is lowercase
SELECT input, input::objectid AS canonical, input::objectid::text = lower(input) AS lower_of_input
FROM (VALUES ('56e1fc72e0c917e9c4714161'), ('56E1FC72E0C917E9C4714161'), ('56e1FC72e0c917E9c4714161'),
             ('000000000000000000000000'), ('ffffffffffffffffffffffff'), ('FFFFFFFFFFFFFFFFFFFFFFFF'),
             ('0123456789abcdefABCDEF01')) v(input);

-- the BSON corpus's three ObjectIds (../shared/data/objectid/spec_valid.json): seconds read
-- as unsigned 32-bit, the 5-byte process value and the big-endian counter
SELECT id, objectid_time(id) AS time, objectid_process(id) AS process, objectid_counter(id) AS counter
FROM (VALUES ('000000000000000000000000'::objectid), ('ffffffffffffffffffffffff'),
             ('56e1fc72e0c917e9c4714161')) v(id);

-- the spec's four timestamp fields (spec_timestamps.json): createFromTime gives the seconds
-- and 8 zero bytes, and the time reads back
SELECT utc, objectid_boundary(utc) AS boundary, objectid_time(objectid_boundary(utc)) = utc AS reads_back
FROM (VALUES ('1970-01-01 00:00:00+00'::timestamptz), ('2038-01-19 03:14:07+00'),
             ('2038-01-19 03:14:08+00'), ('2106-02-07 06:28:15+00')) v(utc);

-- js-bson (js_bson_valid.json): createFromTime(1), getTimestamp() of 00000002 and zeros
-- (2000 ms), and its three parsed strings
SELECT objectid_boundary(to_timestamp(1)) AS from_time_1,
       extract(epoch FROM objectid_time('000000020000000000000000')) * 1000 AS timestamp_ms,
       'AAAAAAAAAAAAAAAAAAAAAAAA'::objectid AS upper_a, 'FFFFFFFFFFFFFFFFFFFFFFFF'::objectid AS upper_f,
       '6b61666665656b6c61746368'::objectid AS round_trip;

-- a boundary takes the second holding the instant (fractions dropped)
SELECT objectid_boundary('2024-05-06 07:08:09.999999+00') AS boundary,
       objectid_time(objectid_boundary('2024-05-06 07:08:09.999999+00')) AS second;

-- 12 bytes, like the BSON value; binary send is the bytes; casts to and from bytea
SELECT pg_column_size('56e1fc72e0c917e9c4714161'::objectid) AS literal_size,
       pg_column_size(objectid()) AS generated_size,
       objectid_send('56e1fc72e0c917e9c4714161') AS sent,
       '56e1fc72e0c917e9c4714161'::objectid::bytea AS to_bytea,
       objectid_to_bytea('56e1fc72e0c917e9c4714161') AS to_bytea_function,
       '\x56e1fc72e0c917e9c4714161'::bytea::objectid AS from_bytea,
       objectid_from_bytea('\x000000000000000000000001') AS from_bytea_function;
SELECT NULL::text::objectid IS NULL AS null_text, NULL::bytea::objectid IS NULL AS null_bytea;

-- round trips over random values: text, either case, bytea, the decoded fields
CREATE TEMP TABLE random_ids AS
SELECT substr(uuid_send(gen_random_uuid()), 1, 12)::objectid AS id FROM generate_series(1, 10000);
SELECT count(*) AS ids,
       count(*) FILTER (WHERE id::text::objectid = id AND upper(id::text)::objectid = id) AS text_round_trips,
       count(*) FILTER (WHERE id::text ~ '^[0-9a-f]{24}$') AS canonical,
       count(*) FILTER (WHERE id::bytea::objectid = id AND length(id::bytea) = 12) AS bytea_round_trips,
       count(*) FILTER (WHERE objectid_time(id) = to_timestamp(('x' || left(id::text, 8))::bit(32)::bigint)
                          AND objectid_process(id) = substr(id::bytea, 5, 5)
                          AND objectid_counter(id) = ('x' || right(id::text, 6))::bit(24)::int) AS fields_agree
FROM random_ids;

-- operators agree with bytea's on the same bytes (all pairs of a sample, equal pairs included)
CREATE TEMP TABLE sample AS
(SELECT id FROM random_ids LIMIT 150)
UNION ALL SELECT objectid() FROM generate_series(1, 100)
UNION ALL VALUES ('000000000000000000000000'::objectid), ('ffffffffffffffffffffffff'),
                 ('56e1fc72e0c917e9c4714161'), ('56e1fc72e0c917e9c4714162'), ('56e1fc72e0c917e9c4714160');
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (a.id < b.id) = (a.id::bytea < b.id::bytea)
                          AND (a.id <= b.id) = (a.id::bytea <= b.id::bytea)
                          AND (a.id = b.id) = (a.id::bytea = b.id::bytea)
                          AND (a.id <> b.id) = (a.id::bytea <> b.id::bytea)
                          AND (a.id >= b.id) = (a.id::bytea >= b.id::bytea)
                          AND (a.id > b.id) = (a.id::bytea > b.id::bytea)
                          AND objectid_cmp(a.id, b.id) = sign(byteacmp(a.id::bytea, b.id::bytea))) AS agree,
       count(*) FILTER (WHERE a.id = b.id) AS equal_pairs
FROM sample a, sample b;

-- sorting (sort support, abbreviated keys) gives bytea order, and the text sorts the same in
-- C collation: random values, one second's run (the same first 8 bytes), objectid() values
CREATE TEMP TABLE mixed AS
SELECT id FROM random_ids
UNION ALL SELECT ('56e1fc72e0c917e9' || lpad(to_hex(n), 8, '0'))::objectid FROM generate_series(1, 3000) n
UNION ALL SELECT objectid() FROM generate_series(1, 3000);
SELECT count(*) AS ids,
       count(*) FILTER (WHERE by_id <> by_bytea) AS bytea_order_mismatches,
       count(*) FILTER (WHERE by_id <> by_text) AS text_order_mismatches,
       count(*) FILTER (WHERE by_id <> by_id_desc) AS descending_mismatches
FROM (SELECT row_number() OVER (ORDER BY id) AS by_id,
             row_number() OVER (ORDER BY id::bytea) AS by_bytea,
             row_number() OVER (ORDER BY id::text COLLATE "C") AS by_text,
             count(*) OVER () + 1 - row_number() OVER (ORDER BY id DESC) AS by_id_desc
      FROM mixed) s;

-- the hash: equal values hash equally, plain and seeded; distinct values rarely collide
SELECT count(*) AS ids,
       count(*) FILTER (WHERE objectid_hash(id) = objectid_hash(id::text::objectid)
                          AND objectid_hash_extended(id, 42) = objectid_hash_extended(id::bytea::objectid, 42))
           AS hash_stable,
       count(DISTINCT objectid_hash(id)) >= count(DISTINCT id) - 2 AS few_collisions,
       count(*) FILTER (WHERE objectid_hash_extended(id, 0) <> objectid_hash_extended(id, 1)) > 9990 AS seeded
FROM random_ids;

-- objectid(): 100k values in one statement. In this session alone (pg_regress runs one
-- file at a time) each takes the server's counter + 1 mod 2^24, with one process value;
-- the seconds never decrease and lie within the clock readings around the statement
CREATE TEMP TABLE clock_before AS SELECT date_trunc('second', clock_timestamp()) AS t;
CREATE TEMP TABLE generated AS SELECT n, objectid() AS id FROM generate_series(1, 100000) n;
CREATE TEMP TABLE clock_after AS SELECT clock_timestamp() AS t;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT objectid_process(id)) AS process_values,
       count(*) FILTER (WHERE objectid_counter(id) <> (objectid_counter(prev) + 1) % 16777216) AS counter_not_plus_one,
       count(*) FILTER (WHERE objectid_time(id) < objectid_time(prev)) AS seconds_decreasing,
       count(*) FILTER (WHERE id < prev AND objectid_counter(id) <> 0) AS decreasing_but_not_at_wrap,
       count(*) FILTER (WHERE objectid_time(id) BETWEEN (SELECT t FROM clock_before)
                                                    AND (SELECT t FROM clock_after)) AS time_in_clock_bounds
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM generated) t
WHERE prev IS NOT NULL;
-- and across statements of the session, on the same process value
SELECT objectid_counter(objectid()) = (objectid_counter((SELECT id FROM generated WHERE n = 100000)) + 1) % 16777216
           AS next_statement_counts_on,
       objectid_process(objectid()) = (SELECT objectid_process(id) FROM generated WHERE n = 1) AS same_process;

-- objectid() is counted in idgen_stats; objectid_boundary and the decoders are not
SELECT coalesce((SELECT ids_minted FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'objectid'), 0) AS before \gset
SELECT count(objectid()) + count(objectid_boundary(now())) + count(objectid_time(objectid_boundary(now()))) AS calls
FROM generate_series(1, 1000);
SELECT ids_minted - :before AS minted_now, clock_regressions, ran_ahead
FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'objectid';

-- the cast to timestamptz is objectid_time; text and varchar are assigned through objectid_in
SELECT '56e1fc72e0c917e9c4714161'::objectid::timestamptz AS spec_time;
CREATE TEMP TABLE assigned (id objectid);
INSERT INTO assigned VALUES ('56e1fc72e0c917e9c4714161'::text), ('56E1FC72E0C917E9C4714162'::varchar);
SELECT id FROM assigned ORDER BY id;

-- plan_has(query, text): whether the query's plan (EXPLAIN, COSTS OFF) has a line containing
-- text; a plan's shape differs between majors, the node that matters does not
CREATE FUNCTION pg_temp.plan_has(query text, wanted text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        IF strpos(line, wanted) > 0 THEN RETURN true; END IF;
    END LOOP;
    RETURN false;
END
$$;

-- the index paths: equality, a time range between boundaries, min/max from the index
CREATE TABLE events (id objectid PRIMARY KEY DEFAULT objectid(), day int);
INSERT INTO events
SELECT (lpad(to_hex(extract(epoch FROM '2024-01-01+00'::timestamptz)::bigint + d * 86400 + s), 8, '0')
        || 'aabbccddee' || lpad(to_hex(s), 6, '0'))::objectid, d
FROM generate_series(0, 29) d, generate_series(0, 199) s;
ANALYZE events;
SELECT pg_temp.plan_has($q$SELECT day FROM events WHERE id = '65920080aabbccddee000000'$q$, 'Index Scan using events_pkey') AS uses_index;
SELECT day FROM events WHERE id = '65920080aabbccddee000000';
SELECT pg_temp.plan_has($q$SELECT count(*) FROM events WHERE id >= objectid_boundary('2024-01-10+00') AND id < objectid_boundary('2024-01-11+00')$q$, 'Index Only Scan using events_pkey') AS uses_index;
SELECT count(*), min(day), max(day) FROM events
WHERE id >= objectid_boundary('2024-01-10+00') AND id < objectid_boundary('2024-01-11+00');
SELECT pg_temp.plan_has($q$SELECT min(id), max(id) FROM events$q$, 'Index Only Scan Backward using events_pkey') AS uses_index;
SELECT min(id), max(id) FROM events;
INSERT INTO events (day) VALUES (99) RETURNING objectid_time(id) >= now() - interval '1 minute' AS default_now;

-- hash index and hash join
CREATE INDEX events_id_hash ON events USING hash (id);
SET enable_indexscan = off;
SET enable_bitmapscan = on;
SELECT pg_temp.plan_has($q$SELECT day FROM events WHERE id = '65920080aabbccddee000000'$q$, 'Bitmap Index Scan on events_id_hash') AS uses_index;
RESET enable_indexscan;
SET enable_mergejoin = off;
SET enable_nestloop = off;
-- OFFSET 0: a join of the table with itself on its key is removed on 18 and later (self-join elimination)
SELECT pg_temp.plan_has($q$SELECT count(*) FROM events a JOIN (SELECT id FROM events OFFSET 0) b USING (id)$q$, 'Hash Join') AS hash_join;
SELECT count(*) FROM events a JOIN (SELECT id FROM events OFFSET 0) b USING (id);
RESET enable_mergejoin;
RESET enable_nestloop;

-- BRIN over an append-only table
CREATE TABLE appended AS SELECT id, day FROM events ORDER BY id;
CREATE INDEX appended_id_brin ON appended USING brin (id) WITH (pages_per_range = 4);
SET enable_seqscan = off;
SELECT pg_temp.plan_has($q$SELECT count(*) FROM appended WHERE id >= objectid_boundary('2024-01-20+00') AND id < objectid_boundary('2024-01-21+00')$q$, 'Bitmap Index Scan on appended_id_brin') AS uses_index;
SELECT count(*) FROM appended WHERE id >= objectid_boundary('2024-01-20+00') AND id < objectid_boundary('2024-01-21+00');
RESET enable_seqscan;

-- boundaries as range partition bounds; hash partitions
CREATE TABLE parted (id objectid PRIMARY KEY, note text) PARTITION BY RANGE (id);
CREATE TABLE parted_2024_01 PARTITION OF parted
    FOR VALUES FROM (objectid_boundary('2024-01-01+00')) TO (objectid_boundary('2024-02-01+00'));
CREATE TABLE parted_2024_02 PARTITION OF parted
    FOR VALUES FROM (objectid_boundary('2024-02-01+00')) TO (objectid_boundary('2024-03-01+00'));
INSERT INTO parted VALUES ('65badeffffffffffffffffff', 'jan last'), (objectid_boundary('2024-02-01+00'), 'feb first');
SELECT tableoid::regclass AS partition, note, objectid_time(id) AS time FROM parted ORDER BY id;
SELECT pg_temp.plan_has($q$SELECT * FROM parted WHERE id >= objectid_boundary('2024-02-10+00') AND id < objectid_boundary('2024-02-11+00')$q$, 'parted_2024_01') AS scans_january;
SELECT pg_temp.plan_has($q$SELECT * FROM parted WHERE id >= objectid_boundary('2024-02-10+00') AND id < objectid_boundary('2024-02-11+00')$q$, 'parted_2024_02') AS scans_february;
CREATE TABLE hashed (id objectid PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE hashed_0 PARTITION OF hashed FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE hashed_1 PARTITION OF hashed FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO hashed SELECT id FROM random_ids;
SELECT count(*) AS rows, count(*) FILTER (WHERE tableoid = 'hashed_0'::regclass) BETWEEN 4000 AND 6000 AS balanced
FROM hashed;

-- a MongoDB export's text column of ObjectId hex becomes objectid in place (docs/reference.md)
CREATE TABLE mongo_orders (id text PRIMARY KEY, customer_id text, total numeric);
INSERT INTO mongo_orders VALUES ('56e1fc72e0c917e9c4714161', '56E1FC72E0C917E9C4714100', 12.5),
                                ('56e1fc73e0c917e9c4714162', NULL, 3);
ALTER TABLE mongo_orders ALTER COLUMN id TYPE objectid USING id::objectid,
                         ALTER COLUMN customer_id TYPE objectid USING customer_id::objectid;
SELECT id, customer_id, objectid_time(id) AS created, pg_typeof(id) FROM mongo_orders ORDER BY id;

-- COPY text writes lowercase and reads either case; COPY binary round trips
COPY (SELECT * FROM (VALUES (1, '56E1FC72E0C917E9C4714161'::objectid), (2, NULL)) v(n, id) ORDER BY n) TO STDOUT;
CREATE TEMP TABLE copied_text (n int, id objectid);
COPY copied_text FROM STDIN;
1	56E1FC72E0C917E9C4714161
2	ffffffffffffffffffffffff
3	\N
\.
SELECT n, id FROM copied_text ORDER BY n;
CREATE TEMP TABLE copy_source AS SELECT row_number() OVER () AS n, id FROM mixed;
INSERT INTO copy_source VALUES (0, NULL);
\getenv abs_builddir PG_ABS_BUILDDIR
\set binfile :abs_builddir '/results/objectid_copy.bin'
\o :binfile
COPY copy_source TO STDOUT (FORMAT binary);
\o
CREATE TEMP TABLE copy_target (LIKE copy_source);
\copy copy_target FROM PROGRAM 'cat "$PG_ABS_BUILDDIR/results/objectid_copy.bin"' (FORMAT binary)
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s.id IS NOT DISTINCT FROM t.id
                          AND objectid_send(s.id) IS NOT DISTINCT FROM objectid_send(t.id)) AS identical
FROM copy_source s FULL JOIN copy_target t USING (n);

DROP TABLE events, appended, parted, hashed, mongo_orders;
