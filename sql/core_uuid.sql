-- idgen next to what newer majors added: core's decoders read idgen's values
-- (17+, 18+), 17's infinite intervals are refused as shifts, idgen's decoder
-- reads core's uuidv7() (18+), and both generators agree on the clock.
-- Outputs: core_uuid_3.out (19+), core_uuid.out (18), core_uuid_1.out (17),
-- core_uuid_2.out (15, 16).

-- idgen defines nothing under core's names, on any version, so neither hides
-- the other whatever the search_path.
SELECT count(*) AS idgen_objects_named_like_core
FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
WHERE d.refclassid = 'pg_extension'::regclass
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen')
  AND d.deptype = 'e'
  AND (p.proname IN ('uuidv7', 'uuidv4') OR p.proname LIKE 'uuid\_extract\_%');

SELECT current_setting('server_version_num')::int >= 170000 AS has_uuid_extract,
       current_setting('server_version_num')::int >= 180000 AS has_uuidv7,
       current_setting('server_version_num')::int >= 190000 AS has_uuid_bytea \gset

\if :has_uuid_extract
-- Core's uuid_extract_version() reads uuid_v7(). (17's uuid_extract_timestamp()
-- reads version 1 only: it returns NULL for every version 7 UUID, core's too.)
SELECT uuid_extract_version(uuid_v7()) AS version,
       uuid_extract_version(uuid_v7_at('2026-03-01 12:00:00.123456+00')) AS version_at;
SELECT count(*) AS disagreements
FROM (SELECT uuid_v7() AS u FROM generate_series(1, 10000)) s
WHERE uuid_extract_version(u) IS DISTINCT FROM 7;

-- 17 added infinite intervals: a shift by one is refused, not overflowed.
SELECT uuid_v7('infinity'::interval);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7('-infinity'::interval);
\echo :LAST_ERROR_SQLSTATE

-- Core's uuid_extract_version() reads the versions of uuid_v6(), its v1
-- reordering and uuid_v8(). Core's uuid_extract_timestamp() reads a UUIDv1
-- (17+) and a UUIDv7 (18+) but returns NULL for a UUIDv6, which uuid_v6_time()
-- reads; on a UUIDv1 the two agree to the microsecond.
SELECT uuid_extract_version(uuid_v6()) AS v6,
       uuid_extract_version(uuid_v1_from_v6(uuid_v6())) AS v1_from_v6,
       uuid_extract_version(uuid_v8('\x00112233445566778899aabbccddeeff')) AS v8,
       uuid_extract_version(uuid_v8_sha256('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')) AS v8_sha256;
SELECT uuid_extract_timestamp('1ec9414c-232a-6b00-b3c8-9f6bdeced846') AS core_reads_a5_v6,
       uuid_v6_time('1ec9414c-232a-6b00-b3c8-9f6bdeced846') AS idgen_reads_a5_v6,
       uuid_extract_timestamp('c232ab00-9414-11ec-b3c8-9f6bdeced846') AS core_reads_a1_v1;
SELECT count(*) FILTER (WHERE uuid_extract_version(v6) IS DISTINCT FROM 6) AS not_version_6,
       count(*) FILTER (WHERE uuid_extract_timestamp(v6) IS NOT NULL) AS core_reads_v6,
       count(*) FILTER (WHERE uuid_extract_timestamp(uuid_v1_from_v6(v6)) IS DISTINCT FROM uuid_v6_time(v6)) AS v1_disagreements
FROM (SELECT uuid_v6_at(ts) AS v6
      FROM generate_series('1582-10-15 00:00:00.000001+00'::timestamptz, '5236-03-01', interval '3 years 7 days 05:06:07.891234') ts) s;
\else
\echo no uuid_extract_version() or infinite intervals before PostgreSQL 17
\endif

\if :has_uuidv7
-- 18's uuid_extract_timestamp() reads version 7: it agrees with uuid_v7_time()
-- on uuid_v7()'s values, and uuid_v7_time() reads core's uuidv7() as it does.
SELECT uuid_extract_timestamp(uuid_v7_at('2026-03-01 12:00:00.123456+00')) AS core_reads,
       uuid_v7_time(uuid_v7_at('2026-03-01 12:00:00.123456+00')) AS idgen_reads;
SELECT count(*) AS disagreements
FROM (SELECT uuid_v7() AS u FROM generate_series(1, 10000)) s
WHERE uuid_extract_timestamp(u) IS DISTINCT FROM uuid_v7_time(u);
SELECT count(*) AS disagreements
FROM (SELECT uuidv7() AS u FROM generate_series(1, 10000)) s
WHERE uuid_v7_time(u) IS DISTINCT FROM uuid_extract_timestamp(u);
SELECT uuid_v7_time(uuidv7()) BETWEEN now() - interval '1 minute' AND clock_timestamp() AS core_value_decodes_to_now;

-- Alternating calls, core then idgen, microseconds apart: both use Method 3
-- (RFC 9562 section 6.2), so the 60-bit timestamp (unix_ts_ms, then the 12-bit
-- fraction in rand_a) follows the clock in call order. It may step back only
-- where one generator ran ahead of the clock to stay strictly increasing (core
-- by its minimal step, idgen by one fraction), a couple of 1/4096 ms at most.
CREATE TEMP TABLE alternating AS
SELECT n, uuidv7() AS core_id, uuid_v7() AS idgen_id FROM generate_series(1, 50000) n;
CREATE TEMP VIEW alternating_ts AS
SELECT 2 * n + k AS call, u,
       ('x' || substr(replace(u::text, '-', ''), 1, 12))::bit(48)::bigint * 4096
       + ('x' || substr(replace(u::text, '-', ''), 14, 3))::bit(12)::bigint AS ts60
FROM alternating, LATERAL (VALUES (0, core_id), (1, idgen_id)) v(k, u);
SELECT count(*) AS calls,
       max(prev_ts60 - ts60) <= 2 AS steps_back_at_most_two_fractions,
       count(*) FILTER (WHERE ts60 < prev_ts60) < count(*) / 100 AS steps_back_are_rare
FROM (SELECT ts60, lag(ts60) OVER (ORDER BY call) AS prev_ts60 FROM alternating_ts) s;
-- Each generator on its own is strictly increasing.
SELECT count(*) FILTER (WHERE core_id <= lag_core) AS core_not_increasing,
       count(*) FILTER (WHERE idgen_id <= lag_idgen) AS idgen_not_increasing
FROM (SELECT core_id, idgen_id, lag(core_id) OVER (ORDER BY n) AS lag_core,
             lag(idgen_id) OVER (ORDER BY n) AS lag_idgen FROM alternating) s;

-- Both kinds of value in one indexed column sort by time: rounds 2 ms apart,
-- each inserting one core and one idgen value, come back in round order.
CREATE TEMP TABLE mixed (id uuid PRIMARY KEY, round int NOT NULL, source text NOT NULL);
DO $$
BEGIN
    FOR r IN 1..40 LOOP
        IF r % 2 = 0 THEN
            INSERT INTO mixed VALUES (uuidv7(), r, 'core'), (uuid_v7(), r, 'idgen');
        ELSE
            INSERT INTO mixed VALUES (uuid_v7(), r, 'idgen'), (uuidv7(), r, 'core');
        END IF;
        PERFORM pg_sleep(0.002);
    END LOOP;
END
$$;
SET enable_seqscan = off;
SELECT count(*) AS rows, count(*) FILTER (WHERE round < prev_round) AS out_of_round_order
FROM (SELECT round, lag(round) OVER (ORDER BY id) AS prev_round FROM mixed) s;
EXPLAIN (COSTS OFF) SELECT id FROM mixed ORDER BY id;
RESET enable_seqscan;
SELECT source, count(*) FROM mixed GROUP BY source ORDER BY source;
\else
\echo no core uuidv7() before PostgreSQL 18
\endif

\if :has_uuid_bytea
-- 19's casts between uuid and bytea, explicit both ways: a uuid_v7() value
-- casts to its 16 bytes in network order (its binary send form) and back, and
-- a bytea of another length is refused (22P03), as idgen's ulid casts do.
SELECT c.castcontext, count(*) AS casts
FROM pg_cast c
WHERE (c.castsource, c.casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype))
GROUP BY c.castcontext;
SELECT count(*) FILTER (WHERE u::bytea IS DISTINCT FROM uuid_send(u)) AS not_network_order,
       count(*) FILTER (WHERE u::bytea::uuid IS DISTINCT FROM u) AS not_round_trip
FROM (SELECT uuid_v7() AS u FROM generate_series(1, 10000)) s;
SELECT '\x0102'::bytea::uuid;
\echo :LAST_ERROR_SQLSTATE
\else
\echo no casts between uuid and bytea before PostgreSQL 19
\endif
