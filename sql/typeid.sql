-- typeid (TypeID spec v0.3.0): text and binary I/O, order, hashing, min/max, generators,
-- accessors, casts and every error; the spec's own test files run in test/tap/typeid_spec.pl
SET TimeZone = 'UTC';
SET max_parallel_workers_per_gather = 0;
\set VERBOSITY default

-- text: the spec's README example, the empty prefix (no separator), inner underscores, the
-- largest value and the longest TypeID (63-letter prefix, 90 characters)
SELECT input::typeid AS id, typeid_prefix(input::typeid) AS prefix, typeid_uuid(input::typeid) AS uuid
FROM (VALUES ('user_01h455vb4pex5vsknk084sn02q'), ('01h455vb4pex5vsknk084sn02q'),
             ('user_session_00000000000000000000000001'), ('a__b_7zzzzzzzzzzzzzzzzzzzzzzzzz')) v(input);
SELECT length(id::text) AS text_length, length(typeid_prefix(id)) AS prefix_length
FROM (SELECT (repeat('q', 63) || '_01h455vb4pex5vsknk084sn02q')::typeid AS id) s;

-- the suffix is the ULID text of the same 16 bytes, lowercased
SELECT right(typeid_from_uuid('user', u)::text, 26) = lower(u::ulid::text) AS same_as_ulid
FROM (SELECT '01890a5d-ac96-774b-bcce-b302099a8057'::uuid AS u) s;

-- round trips over random payloads and prefixes, text and typeid_from_uuid
CREATE TEMP TABLE prefixes (prefix text);
INSERT INTO prefixes VALUES (''), ('a'), ('user'), ('user_session'), ('a__b'), (repeat('q', 63));
CREATE TEMP TABLE random_ids AS
SELECT typeid_from_uuid(p.prefix, gen_random_uuid()) AS id FROM prefixes p, generate_series(1, 1000);
SELECT count(*) AS ids,
       count(*) FILTER (WHERE id::text::typeid = id) AS round_trips,
       count(*) FILTER (WHERE id::text ~ '^([a-z_]+_)?[0-7][0-9abcdefghjkmnpqrstvwxyz]{25}$') AS canonical,
       count(*) FILTER (WHERE typeid_prefix(id) = '' AND position('_' in id::text) = 0) AS no_separator
FROM random_ids;

-- storage is prefixed_id's: the prefix's characters and 16 bytes (4 + 16 + 1-byte header)
CREATE TEMP TABLE sizes (t typeid, p prefixed_id);
INSERT INTO sizes VALUES ('user_01h455vb4pex5vsknk084sn02q', 'user_0000000000000000000000001'),
                         ('01h455vb4pex5vsknk084sn02q', NULL);
SELECT t, pg_column_size(t) AS typeid_bytes, pg_column_size(p) AS prefixed_id_bytes FROM sizes;

-- order: by prefix (the empty prefix first), then by the 128 bits, as prefixed_id
SELECT id FROM (VALUES ('user_00000000000000000000000002'::typeid), ('user_00000000000000000000000001'),
                       ('a_7zzzzzzzzzzzzzzzzzzzzzzzzz'), ('7zzzzzzzzzzzzzzzzzzzzzzzzz'),
                       ('user_session_00000000000000000000000000'), ('users_00000000000000000000000000')) v(id)
ORDER BY id;
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE sign(typeid_cmp(a.id, b.id))
                              = sign(prefixed_id_cmp(a.id::prefixed_id, b.id::prefixed_id))) AS same_as_prefixed_id,
       count(*) FILTER (WHERE (a.id < b.id) = (typeid_cmp(a.id, b.id) < 0)
                          AND (a.id <= b.id) = (typeid_cmp(a.id, b.id) <= 0)
                          AND (a.id = b.id) = (typeid_cmp(a.id, b.id) = 0)
                          AND (a.id <> b.id) = (typeid_cmp(a.id, b.id) <> 0)
                          AND (a.id >= b.id) = (typeid_cmp(a.id, b.id) >= 0)
                          AND (a.id > b.id) = (typeid_cmp(a.id, b.id) > 0)) AS operators_agree
FROM (SELECT id FROM random_ids WHERE typeid_prefix(id) <> '' LIMIT 150) a,
     (SELECT id FROM random_ids WHERE typeid_prefix(id) <> '' ORDER BY id DESC LIMIT 150) b;

-- hashing: equal values hash equal; the hash is prefixed_id's; seeds change the extended hash
SELECT typeid_hash(id) = prefixed_id_hash(id::prefixed_id) AS same_as_prefixed_id,
       typeid_hash_extended(id, 0) = typeid_hash_extended(id, 1) AS seed_ignored,
       typeid_hash_extended(id, 7) = typeid_hash_extended(id::text::typeid, 7) AS stable
FROM (SELECT 'user_01h455vb4pex5vsknk084sn02q'::typeid AS id) s;

-- index, sort (sortsupport), hash join, hash partitioning, min/max
CREATE TEMP TABLE keyed (id typeid PRIMARY KEY);
INSERT INTO keyed SELECT id FROM random_ids;
ANALYZE keyed;
EXPLAIN (COSTS OFF) SELECT * FROM keyed WHERE id = 'user_01h455vb4pex5vsknk084sn02q';
SELECT count(*) AS joined FROM keyed k JOIN random_ids r USING (id);
SELECT (SELECT array_agg(id ORDER BY id) FROM keyed WHERE typeid_prefix(id) <> '')
           = (SELECT array_agg(id ORDER BY id::prefixed_id) FROM keyed WHERE typeid_prefix(id) <> '') AS sorted_like_prefixed_id,
       (SELECT id FROM keyed ORDER BY id LIMIT 1)::text !~ '_' AS empty_prefix_first;
SELECT min(id) = (SELECT id FROM keyed ORDER BY id LIMIT 1) AS min_ok,
       max(id) = (SELECT id FROM keyed ORDER BY id DESC LIMIT 1) AS max_ok FROM keyed;
CREATE TEMP TABLE parts (id typeid) PARTITION BY HASH (id);
CREATE TEMP TABLE parts_0 PARTITION OF parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TEMP TABLE parts_1 PARTITION OF parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO parts SELECT id FROM random_ids;
SELECT (SELECT count(*) FROM parts_0) > 0 AND (SELECT count(*) FROM parts_1) > 0 AS both_used,
       (SELECT count(*) FROM parts) AS rows;

-- generators: UUIDv7 bits from the session's uuid_v7 sequence, strictly increasing with it,
-- with a time (in 1/4096 ms steps: tick(), clock_tick() as in uuid_v7.sql) within the clock
-- readings around the statement plus the lead README states ("How monotonicity works"): row n's
-- typeid is the statement's call 2n - 1, at most that many steps beyond the later of the clock
-- and the session's value before the statement
CREATE FUNCTION pg_temp.tick(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE
AS $$ SELECT ('x' || substr(h, 1, 12) || substr(h, 14, 3))::bit(60)::bigint FROM replace(u::text, '-', '') AS h $$;
CREATE FUNCTION pg_temp.clock_tick(t timestamptz, ns int) RETURNS bigint LANGUAGE sql IMMUTABLE
AS $$ SELECT us / 1000 * 4096 + (us % 1000 * 1000 + ns) * 4096 / 1000000
      FROM (SELECT (extract(epoch FROM t) * 1000000)::bigint AS us) s $$;
CREATE TEMP TABLE clock_before AS SELECT uuid_v7() AS previous, clock_timestamp() AS t;
CREATE TEMP TABLE minted AS
SELECT n, CASE WHEN n % 2 = 0 THEN typeid_new('user') ELSE typeid_new('') END AS id,
       uuid_v7() AS after FROM generate_series(1, 2000) n;
CREATE TEMP TABLE clock_after AS SELECT clock_timestamp() AS t;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE pg_temp.tick(typeid_uuid(id))
                                BETWEEN pg_temp.clock_tick(b.t, 0)
                                    AND greatest(pg_temp.clock_tick(a.t, 999), pg_temp.tick(b.previous)) + 2 * n - 1
                          AND typeid_time(id) = uuid_v7_time(typeid_uuid(id))) AS time_in_clock_bounds,
       count(*) FILTER (WHERE substr(typeid_uuid(id)::text, 15, 1) = '7') AS version_7,
       count(*) FILTER (WHERE typeid_uuid(id) < after) AS before_next_uuid_v7,
       count(DISTINCT typeid_uuid(id)) AS distinct_bits
FROM minted, clock_before b, clock_after a;
SELECT count(*) AS out_of_order
FROM (SELECT typeid_uuid(id) AS u, lag(after) OVER (ORDER BY n) AS prev FROM minted) s WHERE u <= prev;

-- typeid_time: NULL for non-v7 bits; boundary: the smallest UUIDv7 of the millisecond
SELECT typeid_time('user_00000000000000000000000000') IS NULL AS nil_has_no_time,
       typeid_boundary('user', '2024-01-02 03:04:05.678+00') AS boundary,
       typeid_time(typeid_boundary('user', '2024-01-02 03:04:05.678+00')) AS boundary_time,
       typeid_uuid(typeid_boundary('', '2024-01-02 03:04:05.678+00')) AS boundary_uuid,
       typeid_uuid(typeid_boundary('', '2024-01-02 03:04:05.678+00'))
           = typeid_uuid(prefixed_id_boundary('x', '2024-01-02 03:04:05.678+00')::typeid) AS same_as_prefixed_id;

-- casts: prefixed_id <-> typeid keep the bits; typeid -> uuid; text both ways
SELECT 'acct_0000000000000000000000001'::prefixed_id::typeid AS to_typeid,
       'acct_00000000000000000000000001'::typeid::prefixed_id AS to_prefixed_id,
       'user_01h455vb4pex5vsknk084sn02q'::typeid::uuid AS to_uuid,
       'user_01h455vb4pex5vsknk084sn02q'::text::typeid::text AS text_round_trip;
CREATE TEMP TABLE assigned (p prefixed_id, t typeid, u uuid, x text);
INSERT INTO assigned VALUES ('acct_00000000000000000000000001'::typeid, 'acct_0000000000000000000000001'::prefixed_id,
                             'user_01h455vb4pex5vsknk084sn02q'::typeid, 'user_01h455vb4pex5vsknk084sn02q'::typeid);
SELECT * FROM assigned;
-- no implicit casts: comparing a typeid with a prefixed_id, a uuid or text needs an explicit cast
SELECT castcontext, castsource::regtype, casttarget::regtype FROM pg_cast
WHERE castsource = 'typeid'::regtype OR casttarget = 'typeid'::regtype ORDER BY 2::text, 3::text;
SELECT 'user_01h455vb4pex5vsknk084sn02q'::typeid = '01890a5d-ac96-774b-bcce-b302099a8057'::uuid;

-- binary send: the prefix's length in one byte (0 for the empty prefix), prefix, 16 bytes
SELECT typeid_send('user_01h455vb4pex5vsknk084sn02q') AS sent,
       typeid_send('01h455vb4pex5vsknk084sn02q') AS sent_empty_prefix,
       typeid_send(id) = prefixed_id_send(id::prefixed_id) AS same_as_prefixed_id
FROM (SELECT 'user_01h455vb4pex5vsknk084sn02q'::typeid AS id) s;

-- binary recv through COPY (FORMAT binary) (test/lib/prefixed_copy_binary.py, as prefixed_binary.sql)
\getenv abs_srcdir PG_ABS_SRCDIR
\set wire :abs_srcdir '/test/lib/prefixed_copy_binary.py'
\setenv WIRE :wire
CREATE TEMP TABLE wire (id typeid);
\set field `/usr/bin/python3 "$WIRE" printf b:04,t:user,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\set field `/usr/bin/python3 "$WIRE" printf b:00,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
SELECT id, typeid_uuid(id) AS payload FROM wire ORDER BY id;
COPY wire TO '/dev/null' (FORMAT binary);
-- refused, 22P03: length byte above 63, short and long fields, a bad prefix, an empty field
\set field `/usr/bin/python3 "$WIRE" printf b:40,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\set field `/usr/bin/python3 "$WIRE" printf b:00,seq:15`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\set field `/usr/bin/python3 "$WIRE" printf b:04,t:user,seq:17`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\set field `/usr/bin/python3 "$WIRE" printf b:04,t:User,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\set field `/usr/bin/python3 "$WIRE" printf ''`
COPY wire FROM PROGRAM :'field' (FORMAT binary);

-- text errors, 22P02 with a detail: each rule once
SELECT '_01h455vb4pex5vsknk084sn02q'::typeid;
SELECT 'User_01h455vb4pex5vsknk084sn02q'::typeid;
SELECT '_user_01h455vb4pex5vsknk084sn02q'::typeid;
SELECT (repeat('q', 64) || '_01h455vb4pex5vsknk084sn02q')::typeid;
SELECT 'user_01h455vb4pex5vsknk084sn02'::typeid;
SELECT 'user_01H455vb4pex5vsknk084sn02q'::typeid;
SELECT 'user_01h455vb4pex5vsknk084sn0iq'::typeid;
SELECT 'user_81h455vb4pex5vsknk084sn02q'::typeid;
SELECT ''::typeid;

-- argument errors, 22023: a bad prefix for each generator; the empty prefix has no prefixed_id
SELECT typeid_new('User');
SELECT typeid_from_uuid('_x', '01890a5d-ac96-774b-bcce-b302099a8057');
SELECT typeid_boundary(repeat('q', 64), now());
SELECT '01h455vb4pex5vsknk084sn02q'::typeid::prefixed_id;
-- out of range timestamps for the boundary, 22008 as prefixed_id_boundary
SELECT typeid_boundary('user', '1969-12-31 23:59:59+00');
SELECT typeid_boundary('user', 'infinity');

-- per-entity types: typeid_define shares prefixed_id_define's body and registry
\set SHOW_CONTEXT never
SELECT typeid_define('tuser_id', 'tuser') AS defined;
CREATE TEMP TABLE tusers (id tuser_id PRIMARY KEY, name text);
INSERT INTO tusers (name) VALUES ('a'), ('b');
SELECT count(*) AS users, count(*) FILTER (WHERE typeid_prefix(id) = 'tuser' AND typeid_time(id) IS NOT NULL) AS minted
FROM tusers;
INSERT INTO tusers VALUES ('tuser_01h455vb4pex5vsknk084sn02q', 'c');
SELECT prefix, type, token FROM prefixed_id_registry WHERE prefix = 'tuser';
SELECT prefixed_id_type('tuser_01h455vb4pex5vsknk084sn02q') AS found;
-- another prefix is refused by the domain (23514); a taken prefix by either definer (42710)
INSERT INTO tusers VALUES ('tacct_01h455vb4pex5vsknk084sn02q', 'd');
SELECT typeid_define('tuser_again', 'tuser');
SELECT prefixed_id_define('tuser_pid', 'tuser');
SELECT prefixed_id_define('tacct_id', 'tacct') AS defined;
SELECT typeid_define('tacct_tid', 'tacct');
-- bad and empty prefixes (22023), NULL arguments
SELECT typeid_define('bad_id', 'Bad');
SELECT typeid_define('bad_id', '');
SELECT typeid_define(NULL, 'x') IS NULL AS null_in_null_out;
-- the former internal helper is gone from the surface
SELECT prefixed_domain_define('typeid', 'bad_id', 'bad', false, 'public');
-- dropping the types frees their prefixes
DROP TABLE tusers;
DROP DOMAIN tuser_id;
DROP DOMAIN tacct_id;
SELECT count(*) AS left_over FROM prefixed_id_registry WHERE prefix IN ('tuser', 'tacct');

-- text that is almost a TypeID says what is wrong: a prefixed_id's text (25
-- base36 digits) and a TypeID without its "_"
SELECT 'acct_03hav05z19nhlpj50emq4uvdm'::typeid;
SELECT 'acct_0000000000000000000000001'::typeid;
SELECT 'user01h455vb4pex5vsknk084sn02q'::typeid;
SELECT typeid_in('user01h455vb4pex5vsknk084sn02q');
-- the prefixed_id value (not its text) casts: same prefix and 128 bits
SELECT 'acct_03hav05z19nhlpj50emq4uvdm'::prefixed_id::typeid AS cast_value;

-- casts: every 128-bit type casts to uuid (assignment) and to timestamptz
-- (explicit); only ulid, which needs nothing more, casts from uuid. Text: to
-- text through PostgreSQL's I/O casts (assignment), and from 0.7.0 from text
-- and varchar through idgen's I/O casts (assignment: text is stored into their
-- columns without a cast; sql/text_params.sql)
SELECT 'user_01h455vb4pex5vsknk084sn02q'::typeid::uuid AS typeid_uuid,
       'acct_03hav05z19nhlpj50emq4uvdm'::prefixed_id::uuid AS prefixed_uuid,
       '01H455VB4PEX5VSKNK084SN02Q'::ulid::uuid AS ulid_uuid;
SELECT 'user_01h455vb4pex5vsknk084sn02q'::typeid::timestamptz AS typeid_time,
       prefixed_id_from_uuid('acct', '01890a5d-ac96-774b-bcce-b302099a8057')::timestamptz AS prefixed_time,
       '01H455VB4PEX5VSKNK084SN02Q'::ulid::timestamptz AS ulid_time;
CREATE TEMP TABLE cast_targets (u uuid, t text);
INSERT INTO cast_targets VALUES ('user_01h455vb4pex5vsknk084sn02q'::typeid, 'user_01h455vb4pex5vsknk084sn02q'::typeid),
       ('acct_03hav05z19nhlpj50emq4uvdm'::prefixed_id, 'acct_03hav05z19nhlpj50emq4uvdm'::prefixed_id),
       ('01H455VB4PEX5VSKNK084SN02Q'::ulid, '01H455VB4PEX5VSKNK084SN02Q'::ulid);
SELECT u, t FROM cast_targets;
CREATE TEMP TABLE cast_sources (t typeid, p prefixed_id, l ulid);
INSERT INTO cast_sources (t) SELECT 'user_01h455vb4pex5vsknk084sn02q'::text;
INSERT INTO cast_sources (p) SELECT 'acct_03hav05z19nhlpj50emq4uvdm'::text;
INSERT INTO cast_sources (l) SELECT '01H455VB4PEX5VSKNK084SN02Q'::text;
INSERT INTO cast_sources VALUES ('user_01h455vb4pex5vsknk084sn02q'::text::typeid,
                                 'acct_03hav05z19nhlpj50emq4uvdm'::text::prefixed_id,
                                 '01H455VB4PEX5VSKNK084SN02Q'::text::ulid);
SELECT t, p, l FROM cast_sources;
SELECT '01890a5d-ac96-774b-bcce-b302099a8057'::uuid::ulid AS uuid_to_ulid;
SELECT '01890a5d-ac96-774b-bcce-b302099a8057'::uuid::typeid;
SELECT '01890a5d-ac96-774b-bcce-b302099a8057'::uuid::prefixed_id;
SELECT castsource::regtype AS source, casttarget::regtype AS target, castcontext AS context
FROM pg_cast
WHERE castsource IN ('ulid'::regtype, 'prefixed_id'::regtype, 'typeid'::regtype)
   OR casttarget IN ('ulid'::regtype, 'prefixed_id'::regtype, 'typeid'::regtype)
ORDER BY 1::text, 2::text;
DROP TABLE cast_targets, cast_sources;
