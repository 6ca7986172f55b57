-- Firebase push IDs: push_id(), push_id_time(), push_id_is_valid()
-- (errors: push_id_errors)
SET TimeZone = 'UTC';

-- the two computed prefixes of ../shared/data/timeflake-pushid: their times,
-- whatever the 12 characters after them
SELECT prefix, push_id_time(prefix || rest) AS time, push_id_is_valid(prefix || rest) AS valid
FROM (VALUES ('--------'), ('-Lyo78-Y')) p (prefix),
     (VALUES ('------------'), ('zzzzzzzzzzzz'), ('abcdefghijkl')) r (rest)
ORDER BY 1, 3;
SELECT extract(epoch FROM push_id_time('-Lyo78-Yabcdefghijkl')) * 1000 AS readme_ms,
       push_id_time('zzzzzzzzzzzzzzzzzzzz') AS largest, push_id_time('-------0------------') AS one_ms;

-- push_id(): 20 characters of the alphabet, the clock's millisecond
SELECT length(id) AS length, id ~ '^[-0-9A-Z_a-z]{20}$' AS alphabet, push_id_is_valid(id) AS valid,
       push_id_time(id) BETWEEN date_trunc('milliseconds', t0) AND clock_timestamp() AS clock_time
FROM (SELECT clock_timestamp() AS t0) t, LATERAL (SELECT push_id() AS id) s;
-- strictly increasing in C-collation text order within the session, 100,000
-- in a row; within a millisecond only the random part changes (the previous + 1)
WITH g AS (SELECT i, push_id() AS id FROM generate_series(1, 100000) i),
     o AS (SELECT id, lag(id) OVER (ORDER BY i) AS prev FROM g)
SELECT count(*) AS n, count(DISTINCT id) AS distinct_ids,
       bool_and(prev COLLATE "C" < id COLLATE "C") AS increasing,
       bool_and(push_id_time(prev) <= push_id_time(id)) AS time_order,
       count(*) FILTER (WHERE left(prev, 8) = left(id, 8)) > 0 AS same_ms_seen,
       bool_and(left(prev, 8) <> left(id, 8) OR left(prev, 18) = left(id, 18)
                OR right(prev, 1) = 'z') AS same_ms_plus_one
FROM o WHERE prev IS NOT NULL;
-- a new millisecond takes fresh random characters
SELECT count(DISTINCT right(id, 12)) = 5 AS random_varies
FROM (SELECT push_id() AS id, pg_sleep(0.002) FROM generate_series(1, 5)) s;
-- push_id_is_valid: exactly 20 characters of -0-9A-Z_a-z (case-sensitive)
SELECT id, push_id_is_valid(id) AS valid
FROM (VALUES ('-Lyo78-Yabcdefghijkl'), ('-Lyo78-Yabcdefghijk'), ('-Lyo78-Yabcdefghijklm'), (''),
             ('-Lyo78-Yabcdefghij+l'), ('-Lyo78-Yabcdefghij.l'), ('-Lyo78-Yabcdefghij l'),
             ('-Lyo78-Yabcdefghijkλ'), ('____________________'), ('--------------------')) v (id);

-- labels, and NULL in, NULL out
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel, obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p WHERE p.proname LIKE 'push_id%' ORDER BY 1;
SELECT push_id_time(NULL) IS NULL AS time_null, push_id_is_valid(NULL) IS NULL AS valid_null;
