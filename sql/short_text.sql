-- short text forms of a uuid and a ulid: uuid_encode, uuid_decode,
-- ulid_encode, ulid_decode (errors: short_text_errors)

-- the published vectors: shortuuid's test vector and README examples (base57),
-- and base62 and base64url of five UUIDs (../shared/data/short-uuid-text)
SELECT uuid_encode(u, 'base57') AS base57, uuid_decode(uuid_encode(u, 'base57'), 'base57') = u AS back
FROM (VALUES ('3b1f8b40-222c-4a6e-b77e-779d5a94e21c'::uuid), ('6ca4f0f8-2508-4bac-b8f1-5d1e3da2247a'),
             ('cfbff0d1-9375-5685-968c-48ce8b15ae17'), ('00000000-0000-0000-0000-000000000000'),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff')) v (u);
SELECT uuid_decode('CXc85b4rqinB7s5J52TRYb', 'base57') AS shortuuid_test_vector;
-- shortuuid decodes the 7 characters MLpZDiE as a shorter number: padded with
-- its first character '2' to 22, it is read here too
SELECT uuid_decode(lpad('MLpZDiE', 22, '2'), 'base57') AS readme_short_decode;
SELECT u, uuid_encode(u, 'base62') AS base62, uuid_encode(u, 'base64url') AS base64url,
       uuid_decode(uuid_encode(u, 'base62'), 'base62') = u
       AND uuid_decode(uuid_encode(u, 'base64url'), 'base64url') = u AS back
FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
             ('3b1f8b40-222c-4a6e-b77e-779d5a94e21c'), ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'),
             ('00000000-0000-0000-0000-000000000001')) v (u);

-- every form of the ends and one value; base32 is the ulid's own text
SELECT f AS form, uuid_encode('00000000-0000-0000-0000-000000000000', f) AS nil,
       uuid_encode('ffffffff-ffff-ffff-ffff-ffffffffffff', f) AS max,
       uuid_encode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', f) AS rfc9562_v7
FROM unnest(ARRAY['base62', 'base58', 'flickr', 'base57', 'base64url', 'base32']) f;
SELECT uuid_encode(u, 'base32') = u::ulid::text AS base32_is_ulid_text
FROM (VALUES ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff')) v (u);
-- base32 is read in either case, as ulid input reads it
SELECT uuid_decode('01fwhe4ydgfk1shh6w1g60eecf', 'base32') AS base32_lowercase;
-- form names in either case, as encode() reads its formats
SELECT uuid_encode('3b1f8b40-222c-4a6e-b77e-779d5a94e21c', 'BASE62') AS upper_name,
       uuid_decode('1nYxhRwtvqPK4tetBtfeay', 'Base62') AS mixed_name;

-- base64url is PostgreSQL's base64 of the 16 bytes with + / = replaced
-- (19's encode(..., 'base64url') writes exactly that)
SELECT count(*) AS uuids,
       count(*) FILTER (WHERE uuid_encode(u, 'base64url') =
           rtrim(translate(encode(uuid_send(u), 'base64'), '+/', '-_'), '=')) AS as_base64
FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, 10000)) s;

-- and on 19 and later core's own encode(..., 'base64url') and decode() agree
-- with it both ways (earlier servers have no base64url format: there only the
-- formula above is checked, and the function returns 0)
CREATE FUNCTION pg_temp.base64url_against_core(n integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    differ bigint := 0;
BEGIN
    IF current_setting('server_version_num')::int >= 190000 THEN
        EXECUTE format($q$SELECT count(*) FILTER (WHERE uuid_encode(u, 'base64url') <> encode(uuid_send(u), 'base64url')
                                                   OR uuid_decode(encode(uuid_send(u), 'base64url'), 'base64url') <> u)
                          FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, %s)) s$q$, n) INTO differ;
    END IF;
    RETURN differ;
END
$$;
SELECT pg_temp.base64url_against_core(10000) AS differ_from_core;

-- round trips of every form, and text order under C collation equals uuid
-- order for base62, base58, base57 and base32 (not flickr, not base64url)
CREATE TEMP TABLE short_uuids AS
SELECT CASE WHEN i % 4 = 0 THEN gen_random_uuid()
            ELSE ('00000000-0000-0000-' || lpad(to_hex(i), 4, '0') || '-' || lpad(to_hex(i * 7919), 12, '0'))::uuid END AS u
FROM generate_series(1, 4000) i;
SELECT f AS form, bool_and(uuid_decode(uuid_encode(u, f), f) = u) AS round_trip,
       bool_and(length(uuid_encode(u, f)) = CASE f WHEN 'base32' THEN 26 ELSE 22 END) AS length
FROM short_uuids, unnest(ARRAY['base62', 'base58', 'flickr', 'base57', 'base64url', 'base32']) f
GROUP BY f ORDER BY f;
SELECT f AS form,
       (SELECT array_agg(u ORDER BY u) FROM short_uuids) =
       (SELECT array_agg(u ORDER BY uuid_encode(u, f) COLLATE "C") FROM short_uuids) AS text_order_is_uuid_order
FROM unnest(ARRAY['base62', 'base58', 'flickr', 'base57', 'base64url', 'base32']) f ORDER BY f;

-- ulid: the same forms of its 128 bits
SELECT ulid_encode('01FWHE4YDGFK1SHH6W1G60EECF', 'base62') AS base62,
       ulid_encode('01FWHE4YDGFK1SHH6W1G60EECF', 'base32') AS base32,
       ulid_decode('02p5oQZoHTv0zeY5yG21K3', 'base62') AS from_base62,
       pg_typeof(ulid_decode('02p5oQZoHTv0zeY5yG21K3', 'base62')) AS type;
SELECT bool_and(ulid_decode(ulid_encode(u::ulid, f), f) = u::ulid
                AND ulid_encode(u::ulid, f) = uuid_encode(u, f)) AS ulid_as_uuid
FROM short_uuids, unnest(ARRAY['base62', 'base58', 'flickr', 'base57', 'base64url', 'base32']) f;

-- NULL in, NULL out
SELECT uuid_encode(NULL, 'base62') IS NULL AS a, uuid_encode(gen_random_uuid(), NULL) IS NULL AS b,
       uuid_decode(NULL, 'base62') IS NULL AS c, ulid_decode('x', NULL) IS NULL AS d;
