-- Timeflake: timeflake(), timeflake_at(), timeflake_boundary(),
-- timeflake_time(), timeflake_random(); the base62 text through
-- uuid_encode/uuid_decode (errors: timeflake_errors)
SET TimeZone = 'UTC';

-- the README's two flakes (../shared/data/timeflake-pushid): hex <-> base62
-- through uuid_encode and uuid_decode, the time and the random part
SELECT name, uuid_encode(u, 'base62') = base62 AS encodes, uuid_decode(base62, 'base62') = u AS decodes,
       timeflake_time(u) AS time, timeflake_random(u) AS random
FROM (VALUES ('readme-spec', '016fb4209023b444fd07590f81b7b0eb'::uuid, '02i2XhN7hAuaFh3MwztcMd'),
             ('readme-usage', '016fa936bff0997a0a3c428548fee8c9'::uuid, '02i1KoFfY3auBS745gImbZ')) v (name, u, base62);
SELECT timeflake_random('016fb4209023b444fd07590f81b7b0eb') = 851298578153087956398315 AS spec_random,
       timeflake_random('016fa936bff0997a0a3c428548fee8c9') = 724773312193627487660233 AS usage_random,
       extract(epoch FROM timeflake_time('016fb4209023b444fd07590f81b7b0eb')) * 1000 AS spec_ms;
-- the ends of the random part and of the time
SELECT timeflake_random('00000000-0000-0000-0000-000000000000') AS zero,
       timeflake_random('ffffffff-ffff-ffff-ffff-ffffffffffff') AS largest,
       timeflake_random('ffffffff-ffff-ffff-ffff-ffffffffffff') = 2::numeric ^ 80 - 1 AS two_to_80_less_1,
       timeflake_time('ffffffff-ffff-0000-0000-000000000000') AS last_ms;

-- timeflake(): 16 bytes, the clock's millisecond in the high 48 bits
SELECT timeflake_time(u) BETWEEN date_trunc('milliseconds', t0) AND clock_timestamp() AS clock_time,
       length(uuid_encode(u, 'base62')) AS base62_length
FROM (SELECT clock_timestamp() AS t0) t, LATERAL (SELECT timeflake() AS u) s;
-- strictly increasing within the session, 100,000 in a row (many in one
-- millisecond: each the previous + 1), and so is their base62 text under C
WITH g AS (SELECT i, timeflake() AS u FROM generate_series(1, 100000) i),
     o AS (SELECT u, lag(u) OVER (ORDER BY i) AS prev FROM g)
SELECT count(*) AS n, count(DISTINCT u) AS distinct_ids, bool_and(prev < u) AS increasing,
       bool_and(uuid_encode(prev, 'base62') COLLATE "C" < uuid_encode(u, 'base62') COLLATE "C") AS text_increasing,
       count(*) FILTER (WHERE timeflake_time(prev) = timeflake_time(u) AND
                              timeflake_random(u) = timeflake_random(prev) + 1) > 0 AS plus_one_seen
FROM o WHERE prev IS NOT NULL;
-- a new millisecond takes fresh random bits: not all the same
SELECT count(DISTINCT timeflake_random(u) % 1000) > 1 AS random_varies
FROM (SELECT timeflake() AS u, pg_sleep(0.002) FROM generate_series(1, 5)) s;

-- timeflake_at and timeflake_boundary: the millisecond holding ts
SELECT timeflake_boundary('2020-01-17 15:30:30.563+00') AS boundary,
       timeflake_boundary('2020-01-17 15:30:30.5639+00') = timeflake_boundary('2020-01-17 15:30:30.563+00') AS same_ms,
       timeflake_time(timeflake_at('2020-01-17 15:30:30.5639+00')) AS at_time,
       timeflake_at('2020-01-17 15:30:30.563+00') >= timeflake_boundary('2020-01-17 15:30:30.563+00') AS above_boundary,
       timeflake_at('2020-01-17 15:30:30.563+00') < timeflake_boundary('2020-01-17 15:30:30.564+00') AS below_next;
SELECT timeflake_boundary('1970-01-01 00:00:00+00') AS first_ms,
       timeflake_boundary('10889-08-02 05:31:50.655+00') AS last_ms;
SELECT count(DISTINCT timeflake_at('2020-01-17 15:30:30.563+00')) AS distinct_at FROM generate_series(1, 1000);
-- a range of Timeflakes by time, through an index on the uuid
CREATE TEMP TABLE flakes (id uuid PRIMARY KEY);
INSERT INTO flakes SELECT timeflake_at('2020-01-01 00:00:00+00'::timestamptz + i * interval '1 hour')
FROM generate_series(0, 99) i;
SELECT count(*) AS january_2nd FROM flakes
WHERE id >= timeflake_boundary('2020-01-02 00:00:00+00') AND id < timeflake_boundary('2020-01-03 00:00:00+00');

-- labels, and NULL in, NULL out
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel, obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p WHERE p.proname LIKE 'timeflake%' ORDER BY 1;
SELECT timeflake_at(NULL) IS NULL AS at_null, timeflake_boundary(NULL) IS NULL AS boundary_null,
       timeflake_time(NULL) IS NULL AS time_null, timeflake_random(NULL) IS NULL AS random_null;
