-- uuid_v6 family on core uuid: UUIDv6 generators, the v1 <-> v6 reordering and
-- the time decoder; UUIDv8 from 16 bytes and name-based with SHA-256 (RFC 9562
-- sections 5.6, 5.8, Appendix A.1, A.5, B.1 and B.2). Generated values
-- (properties), fixed-time entry points (golden output).
SET TimeZone = 'UTC';

-- version 6, RFC variant and a multicast node (the low bit of octet 10) on
-- every value, no duplicates
SELECT count(*) AS ids,
       count(*) FILTER (WHERE substr(id::text, 15, 1) = '6') AS version_6,
       count(*) FILTER (WHERE substr(id::text, 20, 1) IN ('8', '9', 'a', 'b')) AS rfc_variant,
       count(*) FILTER (WHERE get_byte(uuid_send(id), 10) & 1 = 1) AS multicast_node,
       count(DISTINCT id) AS distinct_ids
FROM (SELECT uuid_v6() AS id FROM generate_series(1, 100000)) s;

-- strictly increasing within one statement, and across statements of the session
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, uuid_v6() AS id FROM generate_series(1, 100000) n) s) t;
CREATE TEMP TABLE session_ids (n serial, id uuid);
INSERT INTO session_ids (id) SELECT uuid_v6() FROM generate_series(1, 1000);
INSERT INTO session_ids (id) VALUES (uuid_v6());
INSERT INTO session_ids (id) SELECT uuid_v6() FROM generate_series(1, 1000);
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM session_ids) t;

-- the embedded time is the clock's: no earlier than the clock read before the
-- call, no later than the clock read after it or (a run ahead of the clock to
-- stay increasing) 100 ns past the session's previous value
SELECT uuid_v6_time(id) BETWEEN t0 AND greatest(t1, uuid_v6_time(previous) + interval '1 microsecond') AS time_is_now
FROM (SELECT uuid_v6() AS previous, clock_timestamp() AS t0, uuid_v6() AS id, clock_timestamp() AS t1) s;

-- the clock sequence and node (61 random bits) differ between calls
SELECT count(DISTINCT substr(id::text, 20)) AS distinct_clock_seq_and_node
FROM (SELECT uuid_v6() AS id FROM generate_series(1, 1000)) s;

-- idgen_stats counts the family
SELECT family, ids_minted >= 202001 AS counted, last_issued > now() - interval '1 hour' AS recent
FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'uuid_v6';

-- uuid_v6_at: time from the instant (RFC 9562 A.5's instant gives A.5's time
-- fields), random clock sequence and node
SELECT left(uuid_v6_at('2022-02-22 19:22:22+00')::text, 18) AS a5_time_fields,
       uuid_v6_time(uuid_v6_at('2024-05-06 07:08:09.123456+00')) AS decoded;
SELECT uuid_v6_at('2024-05-06 07:08:09.123456+00') <> uuid_v6_at('2024-05-06 07:08:09.123456+00') AS random_part_differs;
SELECT left(uuid_v6_at('1582-10-15 00:00:00+00')::text, 18) AS gregorian_epoch,
       left(uuid_v6_at('1970-01-01 00:00:00+00')::text, 18) AS unix_epoch,
       left(uuid_v6_at('5236-03-31 21:21:00.684697+00')::text, 18) AS last_microsecond;
SELECT uuid_v6_at(NULL) IS NULL AS null_ts;

-- round trip to the microsecond over the whole range
SELECT count(*) AS instants,
       count(*) FILTER (WHERE uuid_v6_time(uuid_v6_at(ts)) <> ts) AS mismatches
FROM generate_series('1582-10-15 00:00:00.000001+00'::timestamptz, '5236-03-01', interval '3 years 7 days 05:06:07.891234') ts;

-- boundaries: smallest value of the microsecond
SELECT uuid_v6_boundary('2022-02-22 19:22:22+00') AS a5_boundary,
       uuid_v6_boundary('1582-10-15 00:00:00+00') AS first,
       uuid_v6_boundary('5236-03-31 21:21:00.684697+00') AS last;
SELECT count(*) FILTER (WHERE uuid_v6_boundary(ts) <= uuid_v6_at(ts)
                          AND uuid_v6_at(ts) < uuid_v6_boundary(ts + interval '1 microsecond')) AS inside,
       count(*) AS instants
FROM generate_series('2024-01-01'::timestamptz, '2024-01-01 00:00:01', interval '997 microseconds') ts;
SELECT uuid_v6_time(uuid_v6_boundary('2024-05-06 07:08:09.123456+00')) AS boundary_decodes,
       uuid_v6_boundary(NULL) IS NULL AS null_boundary;

-- uuid_v6_time reads v6 and v1 (RFC 9562 A.5 and A.1; the npm uuid package's
-- pairs, the last one's 100 ns digit floored away); NULL for any other
-- version or variant
SELECT uuid_v6_time('1ec9414c-232a-6b00-b3c8-9f6bdeced846') AS a5_v6,
       uuid_v6_time('c232ab00-9414-11ec-b3c8-9f6bdeced846') AS a1_v1,
       uuid_v6_time('1ef21d2f-1207-6660-8c4f-419efbd44d48') AS uuidjs_v6,
       uuid_v6_time('1e1122bd-9428-6888-b85c-61cd3cbb3210') AS uuidjs_options_v6;
SELECT uuid_v6_time(gen_random_uuid()) AS v4,
       uuid_v6_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS v7,
       uuid_v6_time('5c146b14-3c52-8afd-938a-375d0df1fbf6') AS v8,
       uuid_v6_time('00000000-0000-0000-0000-000000000000') AS nil,
       uuid_v6_time('1ec9414c-232a-6b00-f3c8-9f6bdeced846') AS v6_other_variant,
       uuid_v6_time('c232ab00-9414-11ec-73c8-9f6bdeced846') AS v1_ncs_variant,
       uuid_v6_time(NULL) AS null_id;

-- v1 <-> v6: RFC 9562 A.1 is A.5 reordered, and the npm uuid package's pairs
SELECT uuid_v6_from_v1('c232ab00-9414-11ec-b3c8-9f6bdeced846') AS a1_to_v6,
       uuid_v1_from_v6('1ec9414c-232a-6b00-b3c8-9f6bdeced846') AS a5_to_v1;
SELECT uuid_v6_from_v1('f1207660-21d2-11ef-8c4f-419efbd44d48') AS uuidjs_v1_to_v6,
       uuid_v1_from_v6('1ef21d2f-1207-6660-8c4f-419efbd44d48') AS uuidjs_v6_to_v1,
       uuid_v1_from_v6('1e1122bd-9428-6888-b85c-61cd3cbb3210') AS uuidjs_options_to_v1;
-- round trips keep the time, clock sequence and node; v1 values sort by
-- their time only once converted
SELECT count(*) FILTER (WHERE uuid_v6_from_v1(uuid_v1_from_v6(id)) <> id) AS v6_round_trip_mismatches,
       count(*) FILTER (WHERE uuid_v6_time(uuid_v1_from_v6(id)) <> uuid_v6_time(id)) AS v1_time_mismatches,
       count(*) FILTER (WHERE substr(uuid_v1_from_v6(id)::text, 15, 1) <> '1') AS not_version_1,
       count(*) FILTER (WHERE substr(uuid_v1_from_v6(id)::text, 20) <> substr(id::text, 20)) AS clock_seq_or_node_changed
FROM (SELECT uuid_v6_at(ts) AS id
      FROM generate_series('1600-01-01'::timestamptz, '5200-01-01', interval '17 years 3 days 00:00:00.1234567') ts) s;
SELECT uuid_v6_from_v1(NULL) IS NULL AS null_v1, uuid_v1_from_v6(NULL) IS NULL AS null_v6;

-- boundary range predicates use the primary key index
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid_v6(), day int);
INSERT INTO events
SELECT uuid_v6_at('2024-01-01'::timestamptz + d * interval '1 day' + s * interval '1 second'), d
FROM generate_series(0, 99) d, generate_series(1, 100) s;
VACUUM ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events
WHERE id >= uuid_v6_boundary('2024-01-11') AND id < uuid_v6_boundary('2024-01-12');
SELECT count(*), min(day), max(day) FROM events
WHERE id >= uuid_v6_boundary('2024-01-11') AND id < uuid_v6_boundary('2024-01-12');

-- boundaries as partition bounds
CREATE TABLE parted (id uuid PRIMARY KEY, note text) PARTITION BY RANGE (id);
CREATE TABLE parted_2024_01 PARTITION OF parted
    FOR VALUES FROM (uuid_v6_boundary('2024-01-01')) TO (uuid_v6_boundary('2024-02-01'));
CREATE TABLE parted_2024_02 PARTITION OF parted
    FOR VALUES FROM (uuid_v6_boundary('2024-02-01')) TO (uuid_v6_boundary('2024-03-01'));
INSERT INTO parted VALUES (uuid_v6_at('2024-01-31 23:59:59.999999'), 'jan'), (uuid_v6_at('2024-02-01'), 'feb');
SELECT tableoid::regclass AS partition, note FROM parted ORDER BY id;

-- DEFAULT, CHECK, generated columns and RETURNING
CREATE TABLE orders (
    id uuid PRIMARY KEY DEFAULT uuid_v6() CHECK (uuid_v6_time(id) IS NOT NULL),
    created_at timestamptz GENERATED ALWAYS AS (uuid_v6_time(id)) STORED
);
INSERT INTO orders DEFAULT VALUES RETURNING uuid_v6_time(id) = created_at AS generated_matches;
INSERT INTO orders (id) VALUES ('919108f7-52d1-4320-9bac-f847db4148a8');
CREATE TABLE not_allowed (id uuid GENERATED ALWAYS AS (uuid_v6()) STORED);
DROP TABLE events, parted, orders;

-- a v1 column migrated to v6 in place (docs/reference.md): same rows, times,
-- clock sequences and nodes; the index now follows time
CREATE TABLE legacy (id uuid PRIMARY KEY, n int);
INSERT INTO legacy VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846', 1),
                          ('f1207660-21d2-11ef-8c4f-419efbd44d48', 2),
                          ('d9428888-122b-11e1-b85c-61cd3cbb3210', 0);
CREATE TEMP TABLE legacy_before AS SELECT n, uuid_v6_time(id) AS t FROM legacy;
UPDATE legacy SET id = uuid_v6_from_v1(id) WHERE substr(id::text, 15, 1) = '1';
SELECT n, id, uuid_v6_time(id) = b.t AS same_time FROM legacy JOIN legacy_before b USING (n) ORDER BY id;
DROP TABLE legacy;

-- UUIDv8 from 16 bytes: RFC 9562 B.1's fields with the version and variant
-- bits zero get them set; a v8 is kept as it is; other bits are the input's
SELECT uuid_v8('\x2489e9ad2ee20e000ec932d5f69181c0') AS b1,
       uuid_v8('\x2489e9ad2ee28e008ec932d5f69181c0') AS b1_again;
SELECT uuid_v8('\x00000000000000000000000000000000') AS zeros,
       uuid_v8('\xffffffffffffffffffffffffffffffff') AS ones;
SELECT count(*) FILTER (WHERE substr(u::text, 15, 1) <> '8') AS not_version_8,
       count(*) FILTER (WHERE substr(u::text, 20, 1) NOT IN ('8', '9', 'a', 'b')) AS not_rfc_variant,
       count(*) FILTER (WHERE substring(uuid_send(u) FROM 1 FOR 6) <> substring(b FROM 1 FOR 6)
                           OR get_byte(uuid_send(u), 6) & 15 <> get_byte(b, 6) & 15
                           OR get_byte(uuid_send(u), 7) <> get_byte(b, 7)
                           OR get_byte(uuid_send(u), 8) & 63 <> get_byte(b, 8) & 63
                           OR substring(uuid_send(u) FROM 10) <> substring(b FROM 10)) AS other_bits_changed
FROM (SELECT b, uuid_v8(b) AS u FROM (SELECT uuid_send(gen_random_uuid()) AS b FROM generate_series(1, 1000)) s) t;
SELECT uuid_v8(NULL) IS NULL AS null_bytes;

-- name-based UUIDv8 with SHA-256: RFC 9562 B.2 (namespace DNS, 'www.example.com'),
-- as text and as bytea
SELECT uuid_v8_sha256('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com') AS b2,
       uuid_v8_sha256('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com'::bytea) AS b2_bytea;
-- the same as core's sha256() over the namespace's bytes and the name's UTF-8,
-- cut to 16 bytes and marked, for names of every length (the empty one too)
SELECT count(*) AS names,
       count(*) FILTER (WHERE uuid_v8_sha256(ns, name)
                          <> uuid_v8(substring(sha256(uuid_send(ns) || convert_to(name, 'UTF8')) FROM 1 FOR 16))) AS text_mismatches,
       count(*) FILTER (WHERE uuid_v8_sha256(ns, convert_to(name, 'UTF8'))
                          <> uuid_v8_sha256(ns, name)) AS bytea_mismatches
FROM (SELECT '6ba7b811-9dad-11d1-80b4-00c04fd430c8'::uuid AS ns, repeat('é' || n::text, n % 40) AS name
      FROM generate_series(0, 200) n) s;
SELECT uuid_v8_sha256('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'x') <> uuid_v8_sha256('6ba7b811-9dad-11d1-80b4-00c04fd430c8', 'x') AS namespace_matters,
       uuid_v8_sha256(NULL, 'x') IS NULL AS null_namespace,
       uuid_v8_sha256('6ba7b810-9dad-11d1-80b4-00c04fd430c8', NULL::text) IS NULL AS null_name;
