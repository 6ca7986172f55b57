-- CUID2: cuid2(), cuid2_is_valid(), cuid2_define() (errors: cuid2_errors)

-- the default: 24 characters, a letter then base36
SELECT length(id) AS length, id ~ '^[a-z][0-9a-z]{23}$' AS shaped, cuid2_is_valid(id) AS valid,
       cuid2_is_valid(id, 24) AS valid_24
FROM (SELECT cuid2() AS id) s;
-- every length from 2 to 32, 100 IDs each
SELECT count(*) AS ids, bool_and(length(id) = n) AS lengths_exact,
       bool_and(id ~ '^[a-z][0-9a-z]+$') AS shaped, bool_and(cuid2_is_valid(id, n)) AS valid
FROM generate_series(2, 32) n, LATERAL (SELECT cuid2(n) AS id FROM generate_series(1, 100)) s;
-- no repeat in 100,000 from one statement, even at length 12
SELECT count(DISTINCT cuid2()) AS distinct_ids FROM generate_series(1, 100000);
SELECT count(DISTINCT cuid2(12)) AS distinct_short FROM generate_series(1, 100000);
-- the characters after the first: all 36 base36 digits, nothing else
SELECT count(DISTINCT c) AS characters_seen, bool_and(c ~ '^[0-9a-z]$') AS only_base36
FROM (SELECT regexp_split_to_table(substr(cuid2(32), 2), '') AS c FROM generate_series(1, 1000)) s;

-- the first letter is uniform over a-z: the chi-square of 260,000 first
-- letters (df 25) is below 73.9, the quantile of upper-tail probability 1e-6
-- (rounded up), which a uniform generator exceeds once in a million runs
SELECT count(*) AS letters, sum(n) AS ids, sum((n - 10000.0) ^ 2 / 10000.0) < 73.9 AS uniform
FROM (SELECT left(cuid2(2), 1) AS letter, count(*) AS n FROM generate_series(1, 260000) GROUP BY 1) s;

-- cuid2_is_valid: isCuid's rule, 2 to 32 characters, a lowercase letter then
-- lowercase letters and digits; with a length, exactly that many
SELECT id, cuid2_is_valid(id) AS valid, cuid2_is_valid(id, 24) AS valid_24
FROM (VALUES ('tz4a98xxat96iws9zmbrgj3a'), ('ab'), ('a0'), ('a'), (''), ('0bc'), ('Abc'), ('abC'),
             ('ab-c'), ('ab c'), (E'ab\n'), ('abé'), ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'),
             ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')) v (id);
SELECT cuid2_is_valid('ab', 2) AS two, cuid2_is_valid('abc', 2) AS three_for_two,
       cuid2_is_valid(repeat('z', 32), 32) AS thirty_two;
SELECT cuid2(NULL) IS NULL AS a, cuid2_is_valid(NULL) IS NULL AS b, cuid2_is_valid('ab', NULL) IS NULL AS c;

-- cuid2_define: a domain with a CHECK and a DEFAULT
SELECT cuid2_define('post_id', 16) AS created;
CREATE TEMP TABLE posts (id post_id PRIMARY KEY, title text);
INSERT INTO posts (title) SELECT 'post ' || i FROM generate_series(1, 1000) i;
SELECT count(*) AS posts, count(DISTINCT id) AS ids, bool_and(id ~ '^[a-z][0-9a-z]{15}$') AS shaped FROM posts;
SELECT 'abcdefghijklmnop'::post_id AS accepted;
SELECT obj_description('post_id'::regtype, 'pg_type') AS comment;
SELECT pg_get_constraintdef(c.oid) AS check_clause FROM pg_constraint c WHERE c.contypid = 'post_id'::regtype;
SELECT cuid2_define('user_cuid') AS default_domain;
SELECT length(cuid2()::user_cuid) AS default_length;
CREATE SCHEMA cuid2_elsewhere;
SELECT cuid2_define('token', 32, 'cuid2_elsewhere') AS created;
SELECT length(x), x::cuid2_elsewhere.token = x AS same FROM (SELECT cuid2(32) AS x) s;
SELECT cuid2_define(NULL) IS NULL AS null_name, cuid2_define('x', NULL) IS NULL AS null_length;
DROP SCHEMA cuid2_elsewhere CASCADE;
DROP TABLE posts;
DROP DOMAIN post_id, user_cuid;
