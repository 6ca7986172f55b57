-- uuid_v7 family: generated values (properties), fixed-time entry points (golden output)
SET TimeZone = 'UTC';

-- version 7 and RFC variant on every value, no duplicates
SELECT count(*) AS ids,
       count(*) FILTER (WHERE substr(id::text, 15, 1) = '7') AS version_7,
       count(*) FILTER (WHERE substr(id::text, 20, 1) IN ('8', '9', 'a', 'b')) AS rfc_variant,
       count(DISTINCT id) AS distinct_ids
FROM (SELECT uuid_v7() AS id FROM generate_series(1, 100000)) s;

-- strictly increasing within one statement (100k calls outrun 4096 per ms)
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, uuid_v7() AS id FROM generate_series(1, 100000) n) s) t;

-- and across statements of the session
CREATE TEMP TABLE session_ids (n serial, id uuid);
INSERT INTO session_ids (id) SELECT uuid_v7() FROM generate_series(1, 1000);
INSERT INTO session_ids (id) VALUES (uuid_v7());
INSERT INTO session_ids (id) SELECT uuid_v7() FROM generate_series(1, 1000);
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM session_ids) t;

-- the embedded time is the clock's: no earlier than the clock read before the call, and no later
-- than the clock read after it or, as the 100k-call statements above may have run ahead, one
-- 1/4096 ms step beyond the session's previous value (README, "How monotonicity works"; and
-- prefixed.sql). tick() is a UUIDv7's 60-bit time in those steps, clock_tick(t, ns) the step ns
-- nanoseconds into t's microsecond, tick_time() a step's millisecond as a timestamp.
CREATE FUNCTION pg_temp.tick(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE
AS $$ SELECT ('x' || substr(h, 1, 12) || substr(h, 14, 3))::bit(60)::bigint FROM replace(u::text, '-', '') AS h $$;
CREATE FUNCTION pg_temp.clock_tick(t timestamptz, ns int) RETURNS bigint LANGUAGE sql IMMUTABLE
AS $$ SELECT us / 1000 * 4096 + (us % 1000 * 1000 + ns) * 4096 / 1000000
      FROM (SELECT (extract(epoch FROM t) * 1000000)::bigint AS us) s $$;
CREATE FUNCTION pg_temp.tick_time(tick bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE
AS $$ SELECT timestamptz 'epoch' + tick / 4096 * interval '1 ms' $$;
SELECT pg_temp.tick(id) BETWEEN pg_temp.clock_tick(t0, 0)
                            AND greatest(pg_temp.clock_tick(t1, 999), pg_temp.tick(previous)) + 1 AS time_is_now
FROM (SELECT uuid_v7() AS previous, clock_timestamp() AS t0, uuid_v7() AS id, clock_timestamp() AS t1) s;

-- 62 random bits differ between calls
SELECT count(DISTINCT substr(id::text, 21)) AS distinct_rand_b
FROM (SELECT uuid_v7() AS id FROM generate_series(1, 1000)) s;

-- uuid_v7(shift): time moved by the interval (the same bounds, moved), order kept for a
-- constant shift
SELECT uuid_v7_time(id) BETWEEN date_trunc('milliseconds', t0) + shift
                            AND pg_temp.tick_time(greatest(pg_temp.clock_tick(t1, 999), pg_temp.tick(previous)) + 1) + shift
           AS shifted_time_is_now, shift
FROM (VALUES (interval '-1 day'), (interval '1 year 2 months')) v(shift),
     LATERAL (SELECT uuid_v7() AS previous, clock_timestamp() AS t0, uuid_v7(shift) AS id,
                     clock_timestamp() AS t1 OFFSET 0) s;
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, uuid_v7(interval '-3 hours') AS id FROM generate_series(1, 10000) n) s) t;
SELECT uuid_v7(NULL::interval) IS NULL AS null_shift;

-- uuid_v7_at: timestamp and rand_a from the instant, random rand_b
SELECT left(uuid_v7_at('2024-05-06 07:08:09.123456+00')::text, 18) AS fixed_part,
       uuid_v7_time(uuid_v7_at('2024-05-06 07:08:09.123456+00')) AS decoded;
SELECT uuid_v7_at('2024-05-06 07:08:09.123456+00') <> uuid_v7_at('2024-05-06 07:08:09.123456+00') AS random_part_differs;
SELECT left(uuid_v7_at('1970-01-01 00:00:00+00')::text, 18) AS epoch,
       left(uuid_v7_at('10889-08-02 05:31:50.655+00')::text, 18) AS last_millisecond;
SELECT uuid_v7_at(NULL) IS NULL AS null_ts;

-- round trip to millisecond precision over a wide range of instants
SELECT count(*) AS instants,
       count(*) FILTER (WHERE uuid_v7_time(uuid_v7_at(ts)) <> date_trunc('milliseconds', ts)) AS mismatches
FROM generate_series('1970-01-01 00:00:00.0005+00'::timestamptz, '9999-12-31', interval '3 years 7 days 05:06:07.891234') ts;

-- boundaries: smallest value of the millisecond
SELECT uuid_v7_boundary('2024-05-06 07:08:09.123456+00') AS boundary,
       uuid_v7_boundary('1970-01-01 00:00:00+00') AS first,
       uuid_v7_boundary('10889-08-02 05:31:50.655+00') AS last;
SELECT count(*) FILTER (WHERE uuid_v7_boundary(ts) <= uuid_v7_at(ts)
                          AND uuid_v7_at(ts) < uuid_v7_boundary(ts + interval '1 millisecond')) AS inside,
       count(*) AS instants
FROM generate_series('2024-01-01'::timestamptz, '2024-01-01 00:00:01', interval '997 microseconds') ts;
SELECT uuid_v7_boundary(NULL) IS NULL AS null_boundary;

-- uuid_v7_time: NULL for anything that is not version 7 with the RFC variant
SELECT uuid_v7_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS rfc_example,
       uuid_v7_time(gen_random_uuid()) AS v4,
       uuid_v7_time('00000000-0000-0000-0000-000000000000') AS nil,
       uuid_v7_time('017f22e2-79b0-7cc3-d8c4-dc0c0c07398f') AS other_variant,
       uuid_v7_time(NULL) AS null_id;

-- boundary range predicates use the primary key index
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid_v7(), day int);
INSERT INTO events
SELECT uuid_v7_at('2024-01-01'::timestamptz + d * interval '1 day' + s * interval '1 second'), d
FROM generate_series(0, 99) d, generate_series(1, 100) s;
VACUUM ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events
WHERE id >= uuid_v7_boundary('2024-01-11') AND id < uuid_v7_boundary('2024-01-12');
SELECT count(*), min(day), max(day) FROM events
WHERE id >= uuid_v7_boundary('2024-01-11') AND id < uuid_v7_boundary('2024-01-12');

-- boundaries as partition bounds, with routing and pruning
CREATE TABLE parted (id uuid PRIMARY KEY, note text) PARTITION BY RANGE (id);
CREATE TABLE parted_2024_01 PARTITION OF parted
    FOR VALUES FROM (uuid_v7_boundary('2024-01-01')) TO (uuid_v7_boundary('2024-02-01'));
CREATE TABLE parted_2024_02 PARTITION OF parted
    FOR VALUES FROM (uuid_v7_boundary('2024-02-01')) TO (uuid_v7_boundary('2024-03-01'));
INSERT INTO parted VALUES (uuid_v7_at('2024-01-31 23:59:59.999'), 'jan'), (uuid_v7_at('2024-02-01'), 'feb');
SELECT tableoid::regclass AS partition, note FROM parted ORDER BY id;
INSERT INTO parted VALUES (uuid_v7_boundary('2024-03-01'), 'mar');
EXPLAIN (COSTS OFF)
SELECT * FROM parted WHERE id >= uuid_v7_boundary('2024-02-10') AND id < uuid_v7_boundary('2024-02-11');

-- DEFAULT, CHECK, generated columns and RETURNING
CREATE TABLE orders (
    id uuid PRIMARY KEY DEFAULT uuid_v7() CHECK (uuid_v7_time(id) IS NOT NULL),
    created_at timestamptz GENERATED ALWAYS AS (uuid_v7_time(id)) STORED
);
INSERT INTO orders DEFAULT VALUES RETURNING uuid_v7_time(id) = created_at AS generated_matches;
INSERT INTO orders (id) VALUES ('919108f7-52d1-4320-9bac-f847db4148a8');
CREATE TABLE not_allowed (id uuid GENERATED ALWAYS AS (uuid_v7()) STORED);

DROP TABLE events, parted, orders;

-- uuid_v7(shift) takes the session's next value and moves its time by shift:
-- its values are not part of the session's strictly increasing sequence (a
-- value shifted a month ahead sorts after later uuid_v7() values), while
-- uuid_v7() stays strictly increasing around them
CREATE TEMP TABLE mixed (n serial, kind text, id uuid);
INSERT INTO mixed (kind, id) VALUES ('plain 1', uuid_v7());
INSERT INTO mixed (kind, id) VALUES ('a month ahead', uuid_v7(interval '1 month'));
INSERT INTO mixed (kind, id) VALUES ('plain 2', uuid_v7());
INSERT INTO mixed (kind, id) VALUES ('a week behind', uuid_v7(interval '-7 days'));
INSERT INTO mixed (kind, id) VALUES ('plain 3', uuid_v7());
SELECT kind, rank() OVER (ORDER BY id) AS place_by_id FROM mixed ORDER BY n;
SELECT count(*) FILTER (WHERE id <= prev) AS plain_not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM mixed WHERE kind LIKE 'plain%') s;
-- the functions' comments say so
SELECT obj_description('uuid_v7()'::regprocedure, 'pg_proc') AS uuid_v7,
       obj_description('uuid_v7(interval)'::regprocedure, 'pg_proc') AS uuid_v7_shift;
DROP TABLE mixed;
