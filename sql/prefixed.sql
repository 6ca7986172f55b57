-- prefixed_id type: text and binary I/O, storage size, order, hashing, boundaries and base36
-- helpers (golden output), generated IDs and tokens (properties), per-entity types and their
-- registry, and the index, join, partitioning and COPY paths
SET TimeZone = 'UTC';
-- serial plans whatever the server's parallel settings, so that EXPLAIN output is stable
SET max_parallel_workers_per_gather = 0;

-- text input: the body in either case, output lowercase and zero-padded; the text splits on
-- its last "_", so a prefix may hold underscores (user_session, a__b) and be a single letter
SELECT input, input::prefixed_id AS canonical, prefixed_id_prefix(input::prefixed_id) AS prefix,
       prefixed_id_uuid(input::prefixed_id) AS payload
FROM (VALUES ('acct_0000000000000000000000001'), ('acct_0000000000000000000000000'),
             ('acct_F5LXX1ZZ5PNORYNQGLHZMSP33'), ('a_0123456789ABCDEFGHIJKLMNO'),
             ('user_session_03D4BTL7J4U5ETKYSSPCNWPHC'), ('a__b_0Jz3aBcDeFgHiJkLmNoPqRsTu'),
             ('x_y_z_039srkj01e44uynszf2f2njh3')) v(input);

-- the longest prefix, 63 letters, is accepted and kept whole
SELECT length(prefixed_id_prefix(id)) AS prefix_length, length(id::text) AS text_length,
       id::text = repeat('q', 63) || '_7ksyyizzkutudzbv8aqztecjk' AS canonical,
       prefixed_id_uuid(id) AS payload
FROM (SELECT (repeat('q', 63) || '_7KSYYIZZKUTUDZBV8AQZTECJK')::prefixed_id AS id) s;

-- text <-> prefixed_id casts both ways; binary send is the prefix's length in one byte, its
-- characters, then the 16 bytes
SELECT 'acct_0000000000000000000000001'::text::prefixed_id::text AS text_round_trip,
       CAST(CAST('acct_039SRKJ01E44UYNSZF2F2NJH3' AS prefixed_id) AS text) AS via_cast,
       prefixed_id_send('acct_039srkj01e44uynszf2f2njh3') AS sent,
       prefixed_id_send('a__b_0000000000000000000000001') AS sent_inner_underscores;
SELECT NULL::text::prefixed_id IS NULL AS null_text;

-- text round trip and canonical form over random payloads and prefixes of every shape
CREATE TEMP TABLE prefixes (prefix text);
INSERT INTO prefixes VALUES ('a'), ('z'), ('acct'), ('user_session'), ('a__b'), ('x_y_z'), (repeat('q', 63));
CREATE TEMP TABLE random_ids AS
SELECT prefixed_id_from_uuid(p.prefix, gen_random_uuid()) AS id FROM prefixes p, generate_series(1, 2000);
SELECT count(*) AS ids,
       count(*) FILTER (WHERE id::text::prefixed_id = id
                          AND (prefixed_id_prefix(id) || '_' || upper(right(id::text, 25)))::prefixed_id = id)
           AS round_trips,
       count(*) FILTER (WHERE id::text ~ '^[a-z_]+_[0-9a-z]{25}$'
                          AND length(id::text) = length(prefixed_id_prefix(id)) + 26) AS canonical,
       count(*) FILTER (WHERE right(id::text, 25) = base36_encode(prefixed_id_uuid(id))
                          AND left(id::text, -26) = prefixed_id_prefix(id)) AS parts_match_helpers,
       count(DISTINCT prefixed_id_prefix(id)) AS prefixes
FROM random_ids;

-- storage: the prefix's characters and 16 bytes behind a 1-byte header, so acct_... takes 21
-- bytes in a table against 31 for its 30 characters as text (a computed value, not yet stored,
-- still has the 4-byte header: 24)
CREATE TEMP TABLE sizes (id prefixed_id, as_text text, as_uuid uuid);
INSERT INTO sizes
SELECT id, id::text, prefixed_id_uuid(id)
FROM (VALUES ('acct_039srkj01e44uynszf2f2njh3'::prefixed_id), ('a_0000000000000000000000001'),
             ('user_session_0000000000000000000000001'), ((repeat('q', 63) || '_0000000000000000000000001')::prefixed_id)) v(id);
INSERT INTO sizes SELECT id, id::text, prefixed_id_uuid(id) FROM (SELECT prefixed_id_new('acct') AS id) s;
SELECT prefixed_id_prefix(id) = 'acct' AS acct, length(prefixed_id_prefix(id)) AS prefix_length,
       pg_column_size(id) AS stored_size, length(as_text) AS text_length,
       pg_column_size(as_text) AS stored_text_size, pg_column_size(as_uuid) AS stored_uuid_size,
       count(*) AS ids
FROM sizes GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 2, 1;
SELECT pg_column_size('acct_039srkj01e44uynszf2f2njh3'::prefixed_id) AS computed_size,
       pg_column_size(prefixed_id_new('acct')) AS generated_size;

-- order is by prefix (bytewise, so "a" < "a_b" < "ab"), then by the 128 bits
SELECT id, prefixed_id_cmp(id, lag(id) OVER (ORDER BY id)) AS cmp_with_previous
FROM (VALUES ('b_0000000000000000000000000'::prefixed_id), ('ab_0000000000000000000000001'),
             ('a_f5lxx1zz5pnorynqglhzmsp33'), ('a_b_0000000000000000000000000'), ('acct_0000000000000000000000002'),
             ('a_0000000000000000000000002'), ('acct_0000000000000000000000001'), ('a_0000000000000000000000001'),
             ('aa_f5lxx1zz5pnorynqglhzmsp33'), ('a_1000000000000000000000000')) v(id)
ORDER BY id;

-- operators agree with comparing (prefix in C collation, payload as uuid), over all pairs of a
-- sample that shares payloads across prefixes and holds equal pairs
CREATE TEMP TABLE sample AS
SELECT prefixed_id_from_uuid(p.prefix, u) AS id
FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, 20)) s, prefixes p
UNION ALL SELECT prefixed_id_new('acct') FROM generate_series(1, 40)
UNION ALL VALUES ('a_0000000000000000000000000'::prefixed_id), ('a_0000000000000000000000000'),
                 ('a_b_0000000000000000000000000'), ('ab_0000000000000000000000000');
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (a.id < b.id) = (expected < 0) AND (a.id <= b.id) = (expected <= 0)
                          AND (a.id = b.id) = (expected = 0) AND (a.id <> b.id) = (expected <> 0)
                          AND (a.id >= b.id) = (expected >= 0) AND (a.id > b.id) = (expected > 0)
                          AND prefixed_id_cmp(a.id, b.id) = expected) AS agree,
       count(*) FILTER (WHERE a.id = b.id) AS equal_pairs,
       count(*) FILTER (WHERE prefixed_id_uuid(a.id) = prefixed_id_uuid(b.id)
                          AND prefixed_id_prefix(a.id) <> prefixed_id_prefix(b.id)) AS same_payload_other_prefix
FROM sample a, sample b,
     LATERAL (SELECT CASE WHEN prefixed_id_prefix(a.id) COLLATE "C" < prefixed_id_prefix(b.id) THEN -1
                          WHEN prefixed_id_prefix(a.id) COLLATE "C" > prefixed_id_prefix(b.id) THEN 1
                          ELSE sign(uuid_cmp(prefixed_id_uuid(a.id), prefixed_id_uuid(b.id))) END AS expected) e;

-- sorting a larger mix gives the same order, ascending and descending
SELECT count(*) AS ids,
       count(*) FILTER (WHERE by_id <> by_parts) AS order_mismatches,
       count(*) FILTER (WHERE by_id <> by_id_desc) AS descending_mismatches
FROM (SELECT row_number() OVER (ORDER BY id) AS by_id,
             row_number() OVER (ORDER BY prefixed_id_prefix(id) COLLATE "C", prefixed_id_uuid(id)) AS by_parts,
             count(*) OVER () + 1 - row_number() OVER (ORDER BY id DESC) AS by_id_desc
      FROM random_ids) s;

-- equality and hashing cover prefix and payload: the same 128 bits under another prefix are
-- another ID and (almost surely) hash elsewhere; equal IDs hash equal; the seeded hash with
-- seed 0 has the plain hash in its low 32 bits, and other seeds change it
SELECT 'acct_0000000000000000000000001'::prefixed_id = 'acct_0000000000000000000000001' AS same,
       'acct_0000000000000000000000001'::prefixed_id = 'sess_0000000000000000000000001' AS other_prefix,
       'acct_0000000000000000000000001'::prefixed_id = 'acct_0000000000000000000000002' AS other_payload,
       'acct_0000000000000000000000001'::prefixed_id <> 'sess_0000000000000000000000001' AS not_equal;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE prefixed_id_hash(a) = prefixed_id_hash(b)) AS same_payload_same_hash,
       count(*) FILTER (WHERE prefixed_id_hash_extended(a, 7) = prefixed_id_hash_extended(b, 7)) AS same_seeded_hash,
       count(*) FILTER (WHERE prefixed_id_hash(a) = prefixed_id_hash(a::text::prefixed_id)
                          AND prefixed_id_hash_extended(a, 7) = prefixed_id_hash_extended(a::text::prefixed_id, 7))
           AS equal_ids_equal_hash,
       count(*) FILTER (WHERE (prefixed_id_hash_extended(a, 0) & 4294967295) = (prefixed_id_hash(a)::bigint & 4294967295))
           AS seed_0_low_bits_are_hash,
       count(*) FILTER (WHERE prefixed_id_hash_extended(a, 0) <> prefixed_id_hash_extended(a, 1)
                          AND prefixed_id_hash_extended(a, 1) <> prefixed_id_hash_extended(a, -1)) AS seeds_differ
FROM (SELECT prefixed_id_from_uuid('acct', u) AS a, prefixed_id_from_uuid('acctx', u) AS b
      FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, 10000)) s) t;

-- prefixed_id_new(): 100k IDs in one statement, in call order: unique, strictly increasing,
-- canonical text, and a time within the clock readings around the statement plus the lead
-- README states ("How monotonicity works"): a call that finds the clock not past the previous
-- value takes the next 1/4096 ms step, so a burst faster than 4096 calls per millisecond runs
-- ahead of the clock, its n-th value at most n steps beyond the later of the clock and the
-- value before the burst. Times are compared in those steps: tick() is a UUIDv7's 60-bit time
-- (unix_ts_ms and rand_a), clock_tick(t, ns) the step ns nanoseconds into t's microsecond
-- (clock_timestamp() drops the clock's nanoseconds: 0 bounds the reading below, 999 above).
CREATE FUNCTION pg_temp.tick(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE
AS $$ SELECT ('x' || substr(h, 1, 12) || substr(h, 14, 3))::bit(60)::bigint FROM replace(u::text, '-', '') AS h $$;
CREATE FUNCTION pg_temp.clock_tick(t timestamptz, ns int) RETURNS bigint LANGUAGE sql IMMUTABLE
AS $$ SELECT us / 1000 * 4096 + (us % 1000 * 1000 + ns) * 4096 / 1000000
      FROM (SELECT (extract(epoch FROM t) * 1000000)::bigint AS us) s $$;
CREATE TEMP TABLE clock_before AS SELECT prefixed_id_new('acct') AS previous, clock_timestamp() AS t;
CREATE TEMP TABLE generated AS SELECT n, prefixed_id_new('acct') AS id FROM generate_series(1, 100000) n;
CREATE TEMP TABLE clock_after AS SELECT clock_timestamp() AS t;
CREATE TEMP TABLE tick_bounds AS
SELECT pg_temp.clock_tick(b.t, 0) AS low,
       greatest(pg_temp.clock_tick(a.t, 999), pg_temp.tick(prefixed_id_uuid(b.previous))) AS high_before_lead
FROM clock_before b, clock_after a;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id <= prev) AS not_increasing,
       count(*) FILTER (WHERE id::text ~ '^acct_[0-9a-z]{25}$') AS canonical,
       count(*) FILTER (WHERE pg_temp.tick(prefixed_id_uuid(id)) BETWEEN low AND high_before_lead + n)
           AS time_in_clock_bounds,
       count(*) FILTER (WHERE uuid_v7_time(prefixed_id_uuid(id)) = prefixed_id_time(id)) AS payload_is_uuid_v7
FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS prev FROM generated) t, tick_bounds;

-- the lead itself: a burst that does not store its values can call faster than 4096 times per
-- millisecond (it did on the machine where this was written), and then its last value carries a
-- time after the clock reading that follows the statement, one step per call beyond it at most
CREATE TEMP TABLE burst_before AS SELECT prefixed_id_new('acct') AS previous, clock_timestamp() AS t;
CREATE TEMP TABLE burst AS
SELECT max(prefixed_id_new('acct')) AS last_id, count(*) AS calls FROM (SELECT generate_series(1, 100000)) g;
CREATE TEMP TABLE burst_after AS SELECT clock_timestamp() AS t;
SELECT calls,
       pg_temp.tick(prefixed_id_uuid(last_id))
           BETWEEN pg_temp.clock_tick(b.t, 0)
               AND greatest(pg_temp.clock_tick(a.t, 999), pg_temp.tick(prefixed_id_uuid(b.previous))) + calls
           AS last_within_lead
FROM burst, burst_before b, burst_after a;

-- one sequence with uuid_v7(): interleaved calls give strictly increasing 128 bits, and later
-- statements of the session stay above earlier ones
CREATE TEMP TABLE interleaved AS
SELECT n, CASE WHEN n % 2 = 0 THEN uuid_v7() ELSE prefixed_id_uuid(prefixed_id_new('ord')) END AS u
FROM generate_series(1, 10000) n;
INSERT INTO interleaved VALUES (10001, prefixed_id_uuid(prefixed_id_new('ord')));
INSERT INTO interleaved SELECT 10001 + n, prefixed_id_uuid(prefixed_id_new('user_session')) FROM generate_series(1, 1000) n;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE u <= prev) AS not_increasing,
       count(*) FILTER (WHERE u <= (SELECT prefixed_id_uuid(id) FROM generated WHERE n = 100000)) AS not_after_earlier_statement
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM interleaved) t;

-- prefixed_id_token(): the UUIDv4 layout (RFC 9562 section 5.4), 122 random bits, no order and
-- no sequence
CREATE TEMP TABLE tokens AS SELECT n, prefixed_id_token('sess') AS id FROM generate_series(1, 10000) n;
SELECT count(*) AS tokens, count(DISTINCT id) AS distinct_tokens,
       count(*) FILTER (WHERE id::text ~ '^sess_[0-9a-z]{25}$') AS canonical,
       count(*) FILTER (WHERE id > prev) BETWEEN 4500 AND 5500 AS about_half_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM tokens) t;
-- every token's 128 bits are a version 4, RFC variant uuid, so no time decoder reads a time
-- from it (before 0.5.0, 1 token in 64 had UUIDv7's version and variant by chance)
SELECT count(*) AS tokens,
       count(*) FILTER (WHERE get_byte(uuid_send(prefixed_id_uuid(id)), 6) >> 4 = 4) AS version_4,
       count(*) FILTER (WHERE get_byte(uuid_send(prefixed_id_uuid(id)), 8) >> 6 = 2) AS variant_rfc,
       count(*) FILTER (WHERE prefixed_id_time(id) IS NULL) AS time_null,
       count(*) FILTER (WHERE uuid_v7_time(prefixed_id_uuid(id)) IS NULL) AS uuid_v7_time_null
FROM tokens;
-- 122 bits take both values; the 6 others are the version (bits 52-55 of uuid_send, counted
-- from the low bit of each byte: 0100) and the variant (bits 70-71: 10)
SELECT count(*) AS bits_taking_both_values
FROM (SELECT b FROM tokens, generate_series(0, 127) b
      GROUP BY b HAVING bool_or(get_bit(uuid_send(prefixed_id_uuid(id)), b) = 1)
                    AND bool_or(get_bit(uuid_send(prefixed_id_uuid(id)), b) = 0)) s;
SELECT string_agg(b || '=' || v, ' ' ORDER BY b) AS fixed_bits
FROM (SELECT b, min(get_bit(uuid_send(prefixed_id_uuid(id)), b)) AS v FROM tokens, generate_series(0, 127) b
      GROUP BY b HAVING min(get_bit(uuid_send(prefixed_id_uuid(id)), b)) = max(get_bit(uuid_send(prefixed_id_uuid(id)), b))) s;

-- prefixed_id_uuid and prefixed_id_from_uuid: the same 128 bits both ways (golden and random),
-- so an existing uuid key gets a prefix without changing its order or its time
SELECT prefixed_id_uuid('acct_039srkj01e44uynszf2f2njh3') AS payload,
       prefixed_id_from_uuid('acct', '01890a5d-ac96-774b-bcce-b302099a8057') AS from_uuid,
       prefixed_id_from_uuid('a__b', 'ffffffff-ffff-ffff-ffff-ffffffffffff') AS largest,
       prefixed_id_from_uuid('acct', '00000000-0000-0000-0000-000000000000') AS smallest;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE prefixed_id_uuid(prefixed_id_from_uuid(prefixed_id_prefix(id), prefixed_id_uuid(id))) = prefixed_id_uuid(id)
                          AND prefixed_id_from_uuid(prefixed_id_prefix(id), prefixed_id_uuid(id)) = id) AS round_trips
FROM random_ids;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE prefixed_id_time(prefixed_id_from_uuid('acct', u)) = uuid_v7_time(u)) AS time_kept,
       count(*) FILTER (WHERE (prefixed_id_from_uuid('acct', u) < prefixed_id_from_uuid('acct', prev)) = (u < prev)) AS order_kept
FROM (SELECT u, lag(u) OVER () AS prev
      FROM (SELECT uuid_v7_at('2020-01-01'::timestamptz + random() * interval '10 years') AS u
            FROM generate_series(1, 10000)) s) t
WHERE prev IS NOT NULL;

-- prefixed_id_time: the millisecond of a UUIDv7 payload; NULL when the bits are not a UUIDv7
-- (version 4 and all-zero payloads here)
SELECT prefixed_id_time('acct_039srkj01e44uynszf2f2njh3') AS v7_time,
       prefixed_id_time(prefixed_id_from_uuid('acct', uuid_v7_at('2024-05-06 07:08:09.123456+00'))) AS v7_millisecond,
       prefixed_id_time(prefixed_id_from_uuid('sess', '6ba7b810-9dad-41d1-80b4-00c04fd430c8')) IS NULL AS v4_time_is_null,
       prefixed_id_time('sess_0000000000000000000000000') IS NULL AS zero_time_is_null;
SELECT count(*) FILTER (WHERE prefixed_id_time(prefixed_id_from_uuid('sess', gen_random_uuid())) IS NULL) AS v4_times_null
FROM generate_series(1, 1000);

-- boundaries: the smallest ordered ID of the millisecond (golden), the payload being
-- uuid_v7_boundary's; first and last millisecond; every ID of a millisecond sorts inside them
SELECT prefixed_id_boundary('acct', '2025-01-01+00') AS new_year,
       prefixed_id_boundary('acct', '2025-01-01 00:00:00.000999+00') AS same_ms_truncated,
       prefixed_id_boundary('acct', '2025-01-01 01:00:00.001+01') AS next_ms_other_zone,
       prefixed_id_boundary('user_session', '2025-01-01+00') AS other_prefix;
SELECT prefixed_id_boundary('a', '1970-01-01 00:00:00+00') AS first,
       prefixed_id_boundary('a', '10889-08-02 05:31:50.655+00') AS last,
       prefixed_id_time(prefixed_id_boundary('a', '10889-08-02 05:31:50.655+00')) AS last_time;
SELECT count(*) AS instants,
       count(*) FILTER (WHERE prefixed_id_uuid(prefixed_id_boundary('acct', ts)) = uuid_v7_boundary(ts)) AS same_as_uuid_v7,
       count(*) FILTER (WHERE prefixed_id_time(prefixed_id_boundary('acct', ts)) = date_trunc('milliseconds', ts)) AS time_matches,
       count(*) FILTER (WHERE prefixed_id_boundary('acct', ts) <= prefixed_id_from_uuid('acct', uuid_v7_at(ts))
                          AND prefixed_id_from_uuid('acct', uuid_v7_at(ts)) < prefixed_id_boundary('acct', ts + interval '1 millisecond'))
           AS inside
FROM generate_series('1970-01-01 00:00:00.0005+00'::timestamptz, '10889-08-02 05:31:50.655+00',
                     interval '3 years 7 days 05:06:07.891234') ts;

-- per-entity types: a domain per prefix, defaulting to a new ID (or token) of it
SELECT prefixed_id_define('account_id', 'acct') AS ordered_type,
       prefixed_id_define('session_token', 'sess', token => true) AS token_type,
       prefixed_id_define('user_session_id', 'user_session') AS underscored_prefix;
SELECT prefix, type, token FROM prefixed_id_registry ORDER BY prefix;
SELECT t.typname AS domain, t.typbasetype::regtype AS base, t.typdefault AS default_expression,
       c.conname AS constraint_name, pg_get_constraintdef(c.oid) AS definition
FROM pg_type t JOIN pg_constraint c ON c.contypid = t.oid
WHERE t.oid IN (SELECT type FROM prefixed_id_registry)
ORDER BY t.typname;

-- a key of the domain fills itself: ordered acct_ IDs, unguessable sess_ tokens
CREATE TABLE accounts (id account_id PRIMARY KEY, email text);
INSERT INTO accounts DEFAULT VALUES RETURNING left(id::text, 5) AS starts_with, length(id::text) AS length,
    prefixed_id_time(id) BETWEEN now() - interval '1 minute' AND clock_timestamp() AS created_now;
INSERT INTO accounts (email) VALUES ('ada@example.com'), ('alan@example.com');
INSERT INTO accounts VALUES ('acct_039SRKJ01E44UYNSZF2F2NJH3', 'backfill');
SELECT email, prefixed_id_prefix(id) AS prefix FROM accounts ORDER BY id;
-- min() and max() take a domain's values too, and return the base type
SELECT min(id) = (SELECT id FROM accounts ORDER BY id LIMIT 1) AS min_is_first,
       max(id) = (SELECT id FROM accounts ORDER BY id DESC LIMIT 1) AS max_is_last,
       pg_typeof(min(id)) AS aggregate_type
FROM accounts;
CREATE TABLE sessions (token session_token PRIMARY KEY, account account_id NOT NULL REFERENCES accounts);
INSERT INTO sessions (account) SELECT id FROM accounts WHERE email IS NOT NULL ORDER BY id
RETURNING left(token::text, 5) AS starts_with, length(token::text) AS length;
SELECT count(*) AS sessions, count(DISTINCT token) AS distinct_tokens,
       count(*) FILTER (WHERE prefixed_id_prefix(token) = 'sess') AS sess_prefix
FROM sessions;
-- a value of another prefix is refused by the domain's check: 23514, naming the type
INSERT INTO accounts VALUES ('sess_039srkj01e44uynszf2f2njh3', 'wrong');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) AS accounts FROM accounts;

-- prefixed_id_type: the registered type of an ID string's prefix (split on the last "_"),
-- for IDs of every registered prefix, generated or typed in; only the prefix is looked at
SELECT id, prefixed_id_type(id) AS type
FROM (VALUES ('acct_039srkj01e44uynszf2f2njh3'), ('sess_0000000000000000000000000'),
             ('user_session_0000000000000000000000001'), ('acct_bodyisnotchecked')) v(id);
SELECT prefixed_id_type((SELECT id FROM accounts ORDER BY id LIMIT 1)::text) AS account_row,
       prefixed_id_type((SELECT token FROM sessions LIMIT 1)::text) AS session_row;

-- type_schema puts the type in another schema than the current one (pg_temp too); the caller's
-- search_path need not hold the extension's schema, and the domain's DEFAULT and CHECK name the
-- extension's functions and pg_catalog's = whatever it holds
CREATE SCHEMA billing;
SELECT prefixed_id_define('invoice_id', 'inv', type_schema => 'billing') AS invoice_type;
SELECT prefixed_id_define('scratch_id', 'scratch', type_schema => 'pg_temp')::oid AS scratch_oid \gset
SELECT :scratch_oid = 'pg_temp.scratch_id'::regtype::oid AS in_pg_temp;
SET search_path = billing;
SELECT public.prefixed_id_define('payment_id', 'pay') AS payment_type;
CREATE TABLE billing.payments (id payment_id PRIMARY KEY, invoice billing.invoice_id);
INSERT INTO billing.payments (invoice) VALUES (public.prefixed_id_new('inv'))
RETURNING left(id::text, 4) AS payment, left(invoice::text, 4) AS invoice;
INSERT INTO billing.payments VALUES ('inv_039srkj01e44uynszf2f2njh3');
\echo :LAST_ERROR_SQLSTATE
RESET search_path;
SELECT prefix, type FROM prefixed_id_registry WHERE prefix IN ('inv', 'pay', 'scratch') ORDER BY prefix;
SELECT t.typnamespace::regnamespace AS schema, t.typname AS domain, pg_get_expr(t.typdefaultbin, 0) AS default_expression,
       pg_get_constraintdef(c.oid) AS definition
FROM pg_type t JOIN pg_constraint c ON c.contypid = t.oid
WHERE t.oid IN ('billing.invoice_id'::regtype, 'billing.payment_id'::regtype)
ORDER BY t.typname;
DROP SCHEMA billing CASCADE;
DROP DOMAIN pg_temp.scratch_id;
SELECT count(*) AS billing_prefixes_left FROM prefixed_id_registry WHERE prefix IN ('inv', 'pay', 'scratch');

-- a hostile type name is only ever an identifier: the type has exactly that name, the table the
-- name mentions is untouched, and the type works as a column's
CREATE TABLE t (n int);
INSERT INTO t VALUES (1);
SELECT prefixed_id_define('x"; DROP TABLE t; --', 'hostile') AS hostile_type;
SELECT typname, typname = 'x"; DROP TABLE t; --' AS exact_name FROM pg_type
WHERE oid = (SELECT type FROM prefixed_id_registry WHERE prefix = 'hostile');
SELECT to_regclass('t') AS table_t, (SELECT count(*) FROM t) AS rows_in_t;
CREATE TABLE hostile_use (id "x""; DROP TABLE t; --" PRIMARY KEY);
INSERT INTO hostile_use DEFAULT VALUES;
SELECT prefixed_id_prefix(id) AS prefix, prefixed_id_type(id::text) AS type FROM hostile_use;

-- btree primary key over two prefixes: an equality lookup is an index scan (index-only when it
-- needs only the key), and a day of one prefix, between two boundaries, an index-only scan
-- that finds only that prefix's rows of that day
CREATE TABLE events (id prefixed_id PRIMARY KEY, day int);
INSERT INTO events
SELECT prefixed_id_from_uuid(CASE WHEN s % 2 = 0 THEN 'acct' ELSE 'ord' END,
                             uuid_v7_at('2024-01-01'::timestamptz + d * interval '1 day' + s * interval '1 second')), d
FROM generate_series(0, 99) d, generate_series(1, 1000) s;
INSERT INTO events VALUES ('acct_039srkj01e44uynszf2f2njh3', -1);
VACUUM ANALYZE events;
SELECT count(*) AS rows FROM events;
EXPLAIN (COSTS OFF)
SELECT day FROM events WHERE id = 'acct_039SRKJ01E44UYNSZF2F2NJH3';
SELECT day FROM events WHERE id = 'acct_039SRKJ01E44UYNSZF2F2NJH3';
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id = 'acct_039srkj01e44uynszf2f2njh3';
SELECT count(*) AS found FROM events WHERE id = 'acct_039srkj01e44uynszf2f2njh3';
SELECT count(*) AS other_prefix_found FROM events WHERE id = 'ord_039srkj01e44uynszf2f2njh3';
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events
WHERE id >= prefixed_id_boundary('acct', '2024-01-11') AND id < prefixed_id_boundary('acct', '2024-01-12');
SELECT count(*) AS acct_rows, min(day) AS first_day, max(day) AS last_day FROM events
WHERE id >= prefixed_id_boundary('acct', '2024-01-11') AND id < prefixed_id_boundary('acct', '2024-01-12');
SELECT prefixed_id_prefix(id) AS prefix, count(*) FROM events
WHERE id >= prefixed_id_boundary('ord', '2024-02-01') AND id < prefixed_id_boundary('ord', '2024-02-01 00:01')
GROUP BY 1;

-- min() and max() read the two ends of the primary key; per prefix (a hash aggregate calling
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
-- the transition functions) they match an order by the prefix's characters, then the uuid
SELECT pg_temp.plan('SELECT min(id), max(id) FROM events');
SELECT min(id) = (SELECT id FROM events ORDER BY prefixed_id_prefix(id) COLLATE "C", prefixed_id_uuid(id) LIMIT 1)
           AS min_is_first,
       max(id) = (SELECT id FROM events ORDER BY prefixed_id_prefix(id) COLLATE "C" DESC, prefixed_id_uuid(id) DESC LIMIT 1)
           AS max_is_last
FROM events;
SELECT prefixed_id_prefix(min_id) AS prefix, prefixed_id_time(min_id) AS first_time, prefixed_id_time(max_id) AS last_time,
       min_id = (SELECT id FROM events WHERE prefixed_id_prefix(id) = p ORDER BY prefixed_id_uuid(id) LIMIT 1) AS min_is_first,
       max_id = (SELECT id FROM events WHERE prefixed_id_prefix(id) = p ORDER BY prefixed_id_uuid(id) DESC LIMIT 1) AS max_is_last
FROM (SELECT prefixed_id_prefix(id) AS p, min(id) AS min_id, max(id) AS max_id FROM events GROUP BY 1) s
ORDER BY 1;

-- merge join and hash join, each forced, find the same rows (half of events, in random order)
CREATE TABLE picked AS SELECT id FROM events WHERE day % 2 = 0 ORDER BY random();
ANALYZE picked;
SET enable_nestloop = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events e JOIN picked p ON p.id = e.id;
SELECT count(*) AS hash_join_rows FROM events e JOIN picked p ON p.id = e.id;
RESET enable_mergejoin;
SET enable_hashjoin = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events e JOIN picked p ON p.id = e.id;
SELECT count(*) AS merge_join_rows FROM events e JOIN picked p ON p.id = e.id;
RESET enable_hashjoin;
RESET enable_nestloop;
SELECT count(*) AS text_join_rows FROM events e JOIN picked p ON p.id::text = e.id::text;

-- hash partitioning: rows spread over all 4 partitions, and an equality lookup is pruned to one
CREATE TABLE hashed (id prefixed_id PRIMARY KEY, day int) PARTITION BY HASH (id);
CREATE TABLE hashed_0 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE hashed_1 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE hashed_2 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE hashed_3 PARTITION OF hashed FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO hashed SELECT id, day FROM events WHERE day < 10 OR day = -1;
SELECT tableoid::regclass AS partition, count(*) > 1500 AS well_filled FROM hashed GROUP BY 1 ORDER BY 1;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE satisfies_hash_partition('hashed'::regclass, 4,
                                                       right(tableoid::regclass::text, 1)::int, id)) AS in_their_partition
FROM hashed;
EXPLAIN (COSTS OFF)
SELECT day FROM hashed WHERE id = 'acct_039srkj01e44uynszf2f2njh3';
SELECT tableoid::regclass AS partition, day FROM hashed WHERE id = 'acct_039srkj01e44uynszf2f2njh3';

-- COPY text writes the canonical text and reads the body in either case, into a domain column too
COPY (SELECT * FROM (VALUES (1, 'acct_039SRKJ01E44UYNSZF2F2NJH3'::prefixed_id), (2, 'a__b_0000000000000000000000000'),
                            (3, 'x_f5lxx1zz5pnorynqglhzmsp33'), (4, NULL)) v(n, id) ORDER BY n) TO STDOUT;
CREATE TEMP TABLE copied_text (n int, id prefixed_id, account account_id);
COPY copied_text FROM STDIN;
1	acct_039srkj01e44uynszf2f2njh3	acct_0000000000000000000000001
2	user_session_F5LXX1ZZ5PNORYNQGLHZMSP33	acct_000000000000000000000000A
3	\N	\N
\.
SELECT n, id, account FROM copied_text ORDER BY n;

-- COPY binary: written to a file through psql, read back with \copy, every row identical
CREATE TEMP TABLE copy_source (n int, id prefixed_id);
INSERT INTO copy_source
SELECT n, CASE n % 3 WHEN 0 THEN prefixed_id_new('acct') WHEN 1 THEN prefixed_id_token('user_session')
                     ELSE prefixed_id_from_uuid(repeat('q', 1 + n % 63), gen_random_uuid()) END
FROM generate_series(1, 1000) n;
INSERT INTO copy_source VALUES (1001, 'a_0000000000000000000000000'), (1002, 'a__b_f5lxx1zz5pnorynqglhzmsp33'),
                               (1003, 'acct_039srkj01e44uynszf2f2njh3'), (1004, NULL);
\getenv abs_builddir PG_ABS_BUILDDIR
\set binfile :abs_builddir '/results/prefixed_copy.bin'
\o :binfile
COPY copy_source TO STDOUT (FORMAT binary);
\o
CREATE TEMP TABLE copy_target (LIKE copy_source);
\copy copy_target FROM PROGRAM 'cat "$PG_ABS_BUILDDIR/results/prefixed_copy.bin"' (FORMAT binary)
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s.id IS NOT DISTINCT FROM t.id
                          AND prefixed_id_send(s.id) IS NOT DISTINCT FROM prefixed_id_send(t.id)) AS identical,
       count(DISTINCT prefixed_id_prefix(t.id)) AS prefixes
FROM copy_source s FULL JOIN copy_target t USING (n);
SELECT n, id FROM copy_target WHERE n > 1000 ORDER BY n;

-- base36 helpers: a uuid is always 25 digits (golden), read back in either case
SELECT u, base36_encode(u) AS digits, base36_decode(base36_encode(u)) = u AS round_trip,
       base36_decode(upper(base36_encode(u))) = u AS upper_case_read
FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('00000000-0000-0000-0000-000000000001'),
             ('01890a5d-ac96-774b-bcce-b302099a8057'), ('80000000-0000-0000-0000-000000000000'),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff')) v(u);
SELECT base36_decode('0JZ3ABCDEFGHIJKLMNOPQRSTU') AS upper_case, base36_decode('0jz3abcdefghijklmnopqrstu') AS lower_case;
-- and a bigint takes its shortest digits (golden), up to 2^63 - 1
SELECT n, base36_encode(n) AS digits, base36_decode_bigint(base36_encode(n)) = n AS round_trip
FROM (VALUES (0::bigint), (1), (35), (36), (1295), (1296), (1541815603606036480), (4611686018427387904),
             (9223372036854775807)) v(n);
SELECT base36_decode_bigint('1Y2P0IJ32E8E7') AS largest_upper, base36_decode_bigint('BPPC0M3JU134') AS snowflake_upper,
       base36_decode_bigint('0000000000001') AS padded_one, base36_decode_bigint('z') AS z;
-- round trips over random values of every magnitude; uuid digits sort as the uuids do
SELECT count(*) AS uuids,
       count(*) FILTER (WHERE base36_decode(base36_encode(u)) = u AND length(base36_encode(u)) = 25) AS round_trips,
       count(*) FILTER (WHERE (base36_encode(u) COLLATE "C" < base36_encode(prev)) = (u < prev)) AS text_order_kept
FROM (SELECT u, lag(u) OVER () AS prev FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, 10000)) s) t
WHERE prev IS NOT NULL;
SELECT count(*) AS bigints,
       count(*) FILTER (WHERE base36_decode_bigint(base36_encode(n)) = n
                          AND base36_decode_bigint(upper(base36_encode(n))) = n
                          AND base36_encode(n) ~ '^(0|[1-9a-z][0-9a-z]*)$') AS round_trips,
       count(DISTINCT length(base36_encode(n))) AS lengths
FROM (SELECT (random() * 2 ^ (random() * 62.9))::bigint AS n FROM generate_series(1, 10000)) s;

DROP TABLE sessions, accounts, copied_text, t, hostile_use, events, picked, hashed;
DELETE FROM prefixed_id_registry WHERE prefix IN ('acct', 'sess', 'user_session', 'hostile');
DROP DOMAIN account_id, session_token, user_session_id, "x""; DROP TABLE t; --";
SELECT count(*) AS registered_after_cleanup FROM prefixed_id_registry;
