-- rsxid type (XID, rs/xid; xid is PostgreSQL's transaction ID type): text and
-- binary I/O, rs/xid's values, order, casts and boundaries (golden output),
-- xid() (properties), and the index, partitioning and COPY paths
SET TimeZone = 'UTC';
-- serial plans whatever the server's parallel settings, so that EXPLAIN output is stable
SET max_parallel_workers_per_gather = 0;

-- rs/xid's IDs (../shared/data/xid/valid.json): text, the 12 bytes, the time, machine id, pid
-- and counter; text reads back to the same bytes
SELECT text::rsxid AS id, text::rsxid::bytea AS bytes, xid_time(text::rsxid) AS time,
       xid_machine(text::rsxid) AS machine, xid_pid(text::rsxid) AS pid, xid_counter(text::rsxid) AS counter,
       bytes::rsxid::text = text AS from_bytes
FROM (VALUES ('9m4e2mr0ui3e8a215n4g', '\x4d88e15b60f486e428412dc9'::bytea),
             ('00000000000000000000', '\x000000000000000000000000'),
             ('0000005anf6drrg0000g', '\x00000000aabbccddee000001'),
             ('c6e52g2mrqcjl44hf170', '\x619c514056de993a9091784e')) v(text, bytes);

-- TestID_Compare (compare.json): byte order, and the text sorts the same
SELECT a, b, rsxid_cmp(a, b) AS cmp, rsxid_cmp(b, a) AS reversed, sign(byteacmp(a::bytea, b::bytea)) AS bytea_cmp,
       (a::text COLLATE "C" < b::text) = (a < b) AS text_agrees
FROM (VALUES ('\x000000000000000000000000'::bytea::rsxid, '\x4d88e15b60f486e428412dc9'::bytea::rsxid),
             ('\x000000000000000000000000'::bytea::rsxid, '\x00000000aabbccddee000001'::bytea::rsxid),
             ('\x4d88e15b60f486e428412dc9'::bytea::rsxid, '\x4d88e15b60f486e428412dc9'::bytea::rsxid)) v(a, b);

-- the largest value; every last character is 0 or g
SELECT '\xffffffffffffffffffffffff'::bytea::rsxid AS largest, 'vvvvvvvvvvvvvvvvvvvg'::rsxid::bytea AS largest_bytes;

-- boundaries: the seconds, then 8 zero bytes; the time reads back
SELECT utc, xid_boundary(utc) AS boundary, xid_boundary(utc)::bytea AS bytes,
       xid_time(xid_boundary(utc)) = date_trunc('second', utc) AS reads_back
FROM (VALUES ('1970-01-01 00:00:00+00'::timestamptz), ('2011-03-22 17:50:19.75+00'),
             ('2038-01-19 03:14:08+00'), ('2106-02-07 06:28:15+00')) v(utc);

-- 12 bytes; binary send is the bytes; casts to and from bytea
SELECT pg_column_size('9m4e2mr0ui3e8a215n4g'::rsxid) AS literal_size,
       pg_column_size(xid()) AS generated_size,
       rsxid_send('9m4e2mr0ui3e8a215n4g') AS sent,
       rsxid_to_bytea('9m4e2mr0ui3e8a215n4g') AS to_bytea_function,
       rsxid_from_bytea('\x000000000000000000000001') AS from_bytea_function;
SELECT NULL::text::rsxid IS NULL AS null_text, NULL::bytea::rsxid IS NULL AS null_bytea;

-- round trips over random values: text, either case, bytea, the decoded fields
CREATE TEMP TABLE random_ids AS
SELECT substr(uuid_send(gen_random_uuid()), 1, 12)::rsxid AS id FROM generate_series(1, 10000);
SELECT count(*) AS ids,
       count(*) FILTER (WHERE id::text::rsxid = id) AS text_round_trips,
       count(*) FILTER (WHERE id::text ~ '^[0-9a-v]{19}[0g]$') AS canonical,
       count(*) FILTER (WHERE id::bytea::rsxid = id AND length(id::bytea) = 12) AS bytea_round_trips,
       count(*) FILTER (WHERE xid_time(id) = to_timestamp(('x' || encode(substr(id::bytea, 1, 4), 'hex'))::bit(32)::bigint)
                          AND xid_machine(id) = substr(id::bytea, 5, 3)
                          AND xid_pid(id) = get_byte(id::bytea, 7) * 256 + get_byte(id::bytea, 8)
                          AND xid_counter(id) = ('x' || encode(substr(id::bytea, 10, 3), 'hex'))::bit(24)::int) AS fields_agree
FROM random_ids;

-- operators agree with bytea's on the same bytes (all pairs of a sample, equal pairs included)
CREATE TEMP TABLE sample AS
(SELECT id FROM random_ids LIMIT 150)
UNION ALL SELECT xid() FROM generate_series(1, 100)
UNION ALL VALUES ('00000000000000000000'::rsxid), ('vvvvvvvvvvvvvvvvvvvg'),
                 ('9m4e2mr0ui3e8a215n4g'), ('9m4e2mr0ui3e8a215n50'), ('9m4e2mr0ui3e8a215n40');
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (a.id < b.id) = (a.id::bytea < b.id::bytea)
                          AND (a.id <= b.id) = (a.id::bytea <= b.id::bytea)
                          AND (a.id = b.id) = (a.id::bytea = b.id::bytea)
                          AND (a.id <> b.id) = (a.id::bytea <> b.id::bytea)
                          AND (a.id >= b.id) = (a.id::bytea >= b.id::bytea)
                          AND (a.id > b.id) = (a.id::bytea > b.id::bytea)
                          AND rsxid_cmp(a.id, b.id) = sign(byteacmp(a.id::bytea, b.id::bytea))) AS agree,
       count(*) FILTER (WHERE a.id = b.id) AS equal_pairs
FROM sample a, sample b;

-- sorting (sort support, abbreviated keys) gives bytea order, and the text sorts the same in
-- C collation: random values, one second's run (the same first 8 bytes), xid() values
CREATE TEMP TABLE mixed AS
SELECT id FROM random_ids
UNION ALL SELECT decode('4d88e15b60f486e4' || lpad(to_hex(n), 8, '0'), 'hex')::rsxid FROM generate_series(1, 3000) n
UNION ALL SELECT xid() FROM generate_series(1, 3000);
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
       count(*) FILTER (WHERE rsxid_hash(id) = rsxid_hash(id::text::rsxid)
                          AND rsxid_hash_extended(id, 42) = rsxid_hash_extended(id::bytea::rsxid, 42))
           AS hash_stable,
       count(DISTINCT rsxid_hash(id)) >= count(DISTINCT id) - 2 AS few_collisions,
       count(*) FILTER (WHERE rsxid_hash_extended(id, 0) <> rsxid_hash_extended(id, 1)) > 9990 AS seeded
FROM random_ids;

-- xid(): 100k values in one statement. In this session alone (pg_regress runs one
-- file at a time) each takes the server's counter + 1 mod 2^24, with one process value;
-- the seconds never decrease and lie within the clock readings around the statement
CREATE TEMP TABLE clock_before AS SELECT date_trunc('second', clock_timestamp()) AS t;
CREATE TEMP TABLE generated AS SELECT n, xid() AS id FROM generate_series(1, 100000) n;
CREATE TEMP TABLE clock_after AS SELECT clock_timestamp() AS t;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT xid_machine(id)) AS process_values,
       count(*) FILTER (WHERE xid_counter(id) <> (xid_counter(prev) + 1) % 16777216) AS counter_not_plus_one,
       count(*) FILTER (WHERE xid_time(id) < xid_time(prev)) AS seconds_decreasing,
       count(*) FILTER (WHERE id < prev AND xid_counter(id) <> 0) AS decreasing_but_not_at_wrap,
       count(*) FILTER (WHERE xid_time(id) BETWEEN (SELECT t FROM clock_before)
                                                    AND (SELECT t FROM clock_after)) AS time_in_clock_bounds
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM generated) t
WHERE prev IS NOT NULL;
-- and across statements of the session, on the same process value
SELECT xid_counter(xid()) = (xid_counter((SELECT id FROM generated WHERE n = 100000)) + 1) % 16777216
           AS next_statement_counts_on,
       xid_machine(xid()) = (SELECT xid_machine(id) FROM generated WHERE n = 1) AS same_process;

-- xid() is counted in idgen_stats; xid_boundary and the decoders are not
SELECT coalesce((SELECT ids_minted FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'xid'), 0) AS before \gset
SELECT count(xid()) + count(xid_boundary(now())) + count(xid_time(xid_boundary(now()))) AS calls
FROM generate_series(1, 1000);
SELECT ids_minted - :before AS minted_now, clock_regressions, ran_ahead
FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'xid';

-- the cast to timestamptz is xid_time; text and varchar are assigned through xid_in
SELECT '9m4e2mr0ui3e8a215n4g'::rsxid::timestamptz AS spec_time;
CREATE TEMP TABLE assigned (id rsxid);
INSERT INTO assigned VALUES ('9m4e2mr0ui3e8a215n4g'::text), ('9m4e2mr0ui3e8a215n50'::varchar);
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
CREATE TABLE events (id rsxid PRIMARY KEY DEFAULT xid(), day int);
INSERT INTO events
SELECT decode(lpad(to_hex(extract(epoch FROM '2024-01-01+00'::timestamptz)::bigint + d * 86400 + s), 8, '0')
              || 'aabbccddee' || lpad(to_hex(s), 6, '0'), 'hex')::rsxid, d
FROM generate_series(0, 29) d, generate_series(0, 199) s;
ANALYZE events;
SELECT pg_temp.plan_has($q$SELECT day FROM events WHERE id = 'cm90105anf6drrg00000'$q$, 'Index Scan using events_pkey') AS uses_index;
SELECT day FROM events WHERE id = 'cm90105anf6drrg00000';
SELECT pg_temp.plan_has($q$SELECT count(*) FROM events WHERE id >= xid_boundary('2024-01-10+00') AND id < xid_boundary('2024-01-11+00')$q$, 'Index Only Scan using events_pkey') AS uses_index;
SELECT count(*), min(day), max(day) FROM events
WHERE id >= xid_boundary('2024-01-10+00') AND id < xid_boundary('2024-01-11+00');
SELECT pg_temp.plan_has($q$SELECT min(id), max(id) FROM events$q$, 'Index Only Scan Backward using events_pkey') AS uses_index;
SELECT min(id), max(id) FROM events;
INSERT INTO events (day) VALUES (99) RETURNING xid_time(id) >= now() - interval '1 minute' AS default_now;

-- hash index and hash join
CREATE INDEX events_id_hash ON events USING hash (id);
SET enable_indexscan = off;
SET enable_bitmapscan = on;
SELECT pg_temp.plan_has($q$SELECT day FROM events WHERE id = 'cm90105anf6drrg00000'$q$, 'Bitmap Index Scan on events_id_hash') AS uses_index;
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
SELECT pg_temp.plan_has($q$SELECT count(*) FROM appended WHERE id >= xid_boundary('2024-01-20+00') AND id < xid_boundary('2024-01-21+00')$q$, 'Bitmap Index Scan on appended_id_brin') AS uses_index;
SELECT count(*) FROM appended WHERE id >= xid_boundary('2024-01-20+00') AND id < xid_boundary('2024-01-21+00');
RESET enable_seqscan;

-- boundaries as range partition bounds; hash partitions
CREATE TABLE parted (id rsxid PRIMARY KEY, note text) PARTITION BY RANGE (id);
CREATE TABLE parted_2024_01 PARTITION OF parted
    FOR VALUES FROM (xid_boundary('2024-01-01+00')) TO (xid_boundary('2024-02-01+00'));
CREATE TABLE parted_2024_02 PARTITION OF parted
    FOR VALUES FROM (xid_boundary('2024-02-01+00')) TO (xid_boundary('2024-03-01+00'));
INSERT INTO parted VALUES ('\x65badeffffffffffffffffff'::bytea::rsxid, 'jan last'), (xid_boundary('2024-02-01+00'), 'feb first');
SELECT tableoid::regclass AS partition, note, xid_time(id) AS time FROM parted ORDER BY id;
SELECT pg_temp.plan_has($q$SELECT * FROM parted WHERE id >= xid_boundary('2024-02-10+00') AND id < xid_boundary('2024-02-11+00')$q$, 'parted_2024_01') AS scans_january;
SELECT pg_temp.plan_has($q$SELECT * FROM parted WHERE id >= xid_boundary('2024-02-10+00') AND id < xid_boundary('2024-02-11+00')$q$, 'parted_2024_02') AS scans_february;
CREATE TABLE hashed (id rsxid PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE hashed_0 PARTITION OF hashed FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE hashed_1 PARTITION OF hashed FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO hashed SELECT id FROM random_ids;
SELECT count(*) AS rows, count(*) FILTER (WHERE tableoid = 'hashed_0'::regclass) BETWEEN 4000 AND 6000 AS balanced
FROM hashed;

-- a text column of rs/xid strings becomes rsxid in place
CREATE TABLE go_jobs (id text PRIMARY KEY, note text);
INSERT INTO go_jobs VALUES ('9m4e2mr0ui3e8a215n4g', 'a'), ('c6e52g2mrqcjl44hf170', 'b');
ALTER TABLE go_jobs ALTER COLUMN id TYPE rsxid USING id::rsxid;
SELECT id, xid_time(id) AS created, pg_typeof(id) FROM go_jobs ORDER BY id;

-- COPY text and COPY binary round trips
COPY (SELECT * FROM (VALUES (1, '9m4e2mr0ui3e8a215n4g'::rsxid), (2, NULL)) v(n, id) ORDER BY n) TO STDOUT;
CREATE TEMP TABLE copied_text (n int, id rsxid);
COPY copied_text FROM STDIN;
1	9m4e2mr0ui3e8a215n4g
2	vvvvvvvvvvvvvvvvvvvg
3	\N
\.
SELECT n, id FROM copied_text ORDER BY n;
CREATE TEMP TABLE copy_source AS SELECT row_number() OVER () AS n, id FROM mixed;
INSERT INTO copy_source VALUES (0, NULL);
\getenv abs_builddir PG_ABS_BUILDDIR
\set binfile :abs_builddir '/results/xid_copy.bin'
\o :binfile
COPY copy_source TO STDOUT (FORMAT binary);
\o
CREATE TEMP TABLE copy_target (LIKE copy_source);
\copy copy_target FROM PROGRAM 'cat "$PG_ABS_BUILDDIR/results/xid_copy.bin"' (FORMAT binary)
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s.id IS NOT DISTINCT FROM t.id
                          AND rsxid_send(s.id) IS NOT DISTINCT FROM rsxid_send(t.id)) AS identical
FROM copy_source s FULL JOIN copy_target t USING (n);

DROP TABLE events, appended, parted, hashed, go_jobs;
