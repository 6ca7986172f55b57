-- NanoID: nanoid(), nanoid_is_valid(), nanoid_define() (errors: nanoid_errors)

-- the default: 21 characters of the URL-safe 64
SELECT length(id) AS length, id ~ '^[A-Za-z0-9_-]{21}$' AS url_safe, nanoid_is_valid(id) AS valid
FROM (SELECT nanoid() AS id) s;
SELECT count(DISTINCT nanoid()) AS distinct_ids FROM generate_series(1, 100000);
-- sizes 1 to 1024, custom alphabets of 2 to 256 characters
SELECT n AS size, length(nanoid(n)) AS length FROM unnest(ARRAY[1, 2, 21, 1024]) n;
SELECT nanoid(64, '01') ~ '^[01]{64}$' AS binary, nanoid(30, 'abc') ~ '^[abc]{30}$' AS abc,
       length(nanoid(12, '0123456789')) AS digits_length;
-- every character of an alphabet shows up, and nothing else
SELECT count(DISTINCT c) AS characters_seen, bool_and(strpos('0123456789ABCDEF', c) > 0) AS only_alphabet
FROM (SELECT regexp_split_to_table(nanoid(1024, '0123456789ABCDEF'), '') AS c FROM generate_series(1, 10)) s;

-- multibyte characters are allowed (characters of the database encoding);
-- size counts characters, not bytes
SELECT getdatabaseencoding() AS encoding;
SELECT length(id) AS characters, octet_length(id) AS bytes,
       id ~ '^[αβγδ]{10}$' AS greek, nanoid_is_valid(id, 10, 'αβγδ') AS valid
FROM (SELECT nanoid(10, 'αβγδ') AS id) s;
-- 256 characters, U+0100 to U+01FF: each seen in 20,480 draws
WITH a AS (SELECT string_agg(chr(i), '' ORDER BY i) AS alphabet FROM generate_series(256, 511) i)
SELECT count(DISTINCT c) AS characters_seen, bool_and(strpos(a.alphabet, c) > 0) AS only_alphabet
FROM a, LATERAL (SELECT regexp_split_to_table(nanoid(1024, a.alphabet), '') AS c
                 FROM generate_series(1, 20)) s
GROUP BY a.alphabet;
SELECT length(nanoid(5, (SELECT string_agg(chr(i), '') FROM generate_series(256, 511) i))) AS of_256;

-- nanoid_is_valid: exactly size characters of the alphabet
SELECT id, nanoid_is_valid(id) AS default_valid, nanoid_is_valid(id, 5, 'abc') AS abc5
FROM (VALUES ('V1StGXR8_Z5jdHi6B-myT'), ('V1StGXR8_Z5jdHi6B-my'), ('V1StGXR8_Z5jdHi6B-myT!'),
             ('V1StGXR8_Z5jdHi6B-my.'), ('abcab'), ('abca'), ('abcaba'), ('abcaD'), ('')) v (id);
SELECT nanoid_is_valid('αβγ', 3, 'αβγδ') AS greek, nanoid_is_valid('αβz', 3, 'αβγδ') AS other,
       nanoid_is_valid('αβ', 3, 'αβγδ') AS short;
SELECT nanoid_is_valid(NULL) IS NULL AS a, nanoid(NULL) IS NULL AS b, nanoid(5, NULL) IS NULL AS c;

-- uniformity on the server: chi-square of 1 M characters for alphabets of 64,
-- 62 and 10 characters against the quantile of upper-tail probability 1e-9
-- (df 63: 155.1, df 61: 152.1, df 9: 60.7, each rounded up), which a correct generator exceeds
-- with probability 1e-9 each run
CREATE TEMP TABLE nanoid_alphabets (name text, alphabet text, bound float8);
INSERT INTO nanoid_alphabets VALUES
    ('default', 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict', 155.1),
    ('base62', '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 152.1),
    ('digits', '0123456789', 60.7);
SELECT a.name, s.characters, s.distinct_characters = length(a.alphabet) AS all_seen, s.chi_square < a.bound AS uniform
FROM nanoid_alphabets a,
LATERAL (SELECT sum(n) AS characters, count(*) AS distinct_characters,
                sum((n - e) ^ 2 / e) AS chi_square
         FROM (SELECT c, count(*) AS n, 1000000.0 / length(a.alphabet) AS e
               FROM (SELECT regexp_split_to_table(nanoid(1000, a.alphabet), '') AS c
                     FROM generate_series(1, 1000)) chars
               GROUP BY c) counts) s
ORDER BY a.name;

-- nanoid_define: a domain with a CHECK and a DEFAULT
SELECT nanoid_define('order_ref', 12, '0123456789ABCDEFGHJKMNPQRSTVWXYZ') AS created;
CREATE TEMP TABLE orders (id bigint PRIMARY KEY, ref order_ref NOT NULL);
INSERT INTO orders (id) SELECT i FROM generate_series(1, 1000) i;
SELECT count(*) AS orders, count(DISTINCT ref) AS refs, bool_and(ref ~ '^[0-9A-HJKMNP-TV-Z]{12}$') AS shaped
FROM orders;
SELECT 'ABCDEFGHJKMN'::order_ref AS accepted;
SELECT obj_description('order_ref'::regtype, 'pg_type') AS comment;
SELECT pg_get_constraintdef(c.oid) AS check_clause
FROM pg_constraint c WHERE c.contypid = 'order_ref'::regtype;
SELECT nanoid_define('public_id') AS default_domain;
SELECT length(nanoid()::public_id) AS default_length;
-- in another schema, with multibyte characters
CREATE SCHEMA nano_elsewhere;
SELECT nanoid_define('token', 8, 'αβγδ', 'nano_elsewhere') AS created;
SELECT length(x), x::nano_elsewhere.token = x AS same
FROM (SELECT nanoid(8, 'αβγδ') AS x) s;
SELECT nanoid_define(NULL) IS NULL AS null_name, nanoid_define('x', NULL) IS NULL AS null_size;
DROP SCHEMA nano_elsewhere CASCADE;
DROP TABLE orders;
DROP DOMAIN order_ref, public_id;
