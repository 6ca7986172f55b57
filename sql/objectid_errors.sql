-- objectid type: every error reachable from SQL, with its SQLSTATE, and the
-- same refusals asked softly (pg_input_is_valid and pg_input_error_info on
-- 16 and later; COPY ... ON_ERROR on 17 and later), whose output is the same
-- on every major (see the end)
SET TimeZone = 'UTC';
\set VERBOSITY default

-- hex digits only, but not 24 of them: 22P02, the detail gives the length found
SELECT ''::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '56e1fc72e0c917e9c471416'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '56e1fc72e0c917e9c47141610'::objectid;
\echo :LAST_ERROR_SQLSTATE
-- the BSON corpus's truncated element carries 10 bytes (spec_invalid.json): as text, 20 digits
SELECT '56e1fc72e0c917e9c471'::objectid;
\echo :LAST_ERROR_SQLSTATE

-- a character that is no hex digit: 22P02, the character and its position (counted in
-- characters), control characters as codes; it is reported before a wrong length
SELECT '56e1fc72e0c917e9c471416g'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01890a5d-ac96-774b-bcce-b302099a8057'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT ' 56e1fc72e0c917e9c4714161'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '56e1fc72e0c917e9c4714161 '::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT E'56e1fc72\te0c917e9c4714161'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT getdatabaseencoding() AS encoding;
SELECT 'é56e1fc72e0c917e9c471416'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '56e1fc72e0c917e9c47141é1'::objectid;
\echo :LAST_ERROR_SQLSTATE
-- MongoDB's shell and Extended JSON forms: a hint that the digits are read alone
SELECT 'ObjectId("56e1fc72e0c917e9c4714161")'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '{"$oid": "56e1fc72e0c917e9c4714161"}'::objectid;
\echo :LAST_ERROR_SQLSTATE
-- js-bson's refusals (js_bson_invalid.json); 12 characters are never 12 raw bytes here
SELECT 'FFFFFFFFFFFFFFFFFFFFFFFG'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'thisstringisdefinitelytoolong'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'tooshort'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '101010'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '111111111111'::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'ffffffffffff'::objectid;
\echo :LAST_ERROR_SQLSTATE

-- bytea of other than 12 bytes: 22P03 with the length; 24 bytes get a hint (ObjectId text)
SELECT '\x56e1fc72e0c917e9c47141'::bytea::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '\x56e1fc72e0c917e9c471416100'::bytea::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT ''::bytea::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT convert_to('56e1fc72e0c917e9c4714161', 'UTF8')::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT objectid_from_bytea('\x56e1fc72e0c917e9c471');
\echo :LAST_ERROR_SQLSTATE
-- the hint's advice works
SELECT convert_from(convert_to('56e1fc72e0c917e9c4714161', 'UTF8'), 'UTF8')::objectid AS via_text;

-- instants outside the 32-bit seconds field: 22008, the range in the detail
SELECT objectid_boundary('1969-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT objectid_boundary('2106-02-07 06:28:16+00');
\echo :LAST_ERROR_SQLSTATE
SELECT objectid_boundary('294276-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT objectid_boundary('4713-11-24 00:00:00+00 BC');
\echo :LAST_ERROR_SQLSTATE
-- the first and the last second are accepted
SELECT objectid_boundary('1970-01-01 00:00:00+00') AS first_second,
       objectid_boundary('2106-02-07 06:28:15.999999+00') AS last_second;
-- infinite instants: 22023
SELECT objectid_boundary('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT objectid_boundary('-infinity');
\echo :LAST_ERROR_SQLSTATE

-- NULL is no error: the STRICT functions return NULL
SELECT objectid_boundary(NULL) IS NULL AS boundary_null, objectid_time(NULL) IS NULL AS time_null,
       objectid_process(NULL) IS NULL AS process_null, objectid_counter(NULL) IS NULL AS counter_null,
       objectid_from_bytea(NULL) IS NULL AS from_bytea_null, NULL::objectid IS NULL AS cast_null;

-- no implicit cast: objectid = text, objectid = bytea and objectid = rsxid do not resolve (42883)
SELECT '56e1fc72e0c917e9c4714161'::objectid = '56e1fc72e0c917e9c4714161'::text;
\echo :LAST_ERROR_SQLSTATE
SELECT '56e1fc72e0c917e9c4714161'::objectid = '\x56e1fc72e0c917e9c4714161'::bytea;
\echo :LAST_ERROR_SQLSTATE
SELECT '56e1fc72e0c917e9c4714161'::objectid = '9m4e2mr0ui3e8a215n4g'::rsxid;
\echo :LAST_ERROR_SQLSTATE
-- and bytea is not assigned to an objectid column (explicit cast only): 42804
CREATE TEMP TABLE objectid_column (id objectid);
INSERT INTO objectid_column VALUES ('\x56e1fc72e0c917e9c4714161'::bytea);
\echo :LAST_ERROR_SQLSTATE
-- invalid text assigned through the cast from text: 22P02
INSERT INTO objectid_column SELECT 'zz'::text;
\echo :LAST_ERROR_SQLSTATE

-- COPY BINARY fields must be exactly 12 bytes: 22P03 with the length found
COPY objectid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\014\1\2\3\4\5\6\7\10\11\12\13\14\377\377'$$ (FORMAT binary);
SELECT id FROM objectid_column;
COPY objectid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\013\1\2\3\4\5\6\7\10\11\12\13\377\377'$$ (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
COPY objectid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\020\1\2\3\4\5\6\7\10\11\12\13\14\15\16\17\20\377\377'$$ (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) AS rows_after_bad_copies FROM objectid_column;

-- Soft errors. Each refusal class above, asked softly: on 16 and later
-- pg_input_is_valid() says false and pg_input_error_info() gives the error the
-- cast raises (SQLSTATE, message, detail, hint); on 17 and later COPY ...
-- (ON_ERROR ignore) skips those rows. On 15, which has neither, the same
-- table comes from the hard errors themselves, so that one expected output
-- serves every major: there the soft half checks nothing new.
SELECT current_setting('server_version_num')::int >= 160000 AS has_soft_errors,
       current_setting('server_version_num')::int >= 170000 AS has_on_error \gset
CREATE TEMP TABLE soft_cases (n int PRIMARY KEY, class text, input text);
INSERT INTO soft_cases VALUES
  (1, 'length', ''), (2, 'length', '56e1fc72e0c917e9c471416'), (3, 'length', '56e1fc72e0c917e9c47141610'),
  (4, 'character', '56e1fc72e0c917e9c471416g'), (5, 'character', ' 56e1fc72e0c917e9c4714161'),
  (6, 'character', E'56e1fc72\te0c917e9c4714161'), (7, 'character', '56e1fc72e0c917e9c47141é1'),
  (8, 'character', 'ObjectId("56e1fc72e0c917e9c4714161")'), (9, 'character', 'thisstringisdefinitelytoolong'),
  (10, 'valid', '56E1FC72E0C917E9C4714161'), (11, 'valid', 'ffffffffffffffffffffffff');
-- hard(input): what the cast raises, 'SQLSTATE | message | detail | hint', or 'accepted'
CREATE FUNCTION pg_temp.hard(input text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE st text; m text; d text; h text;
BEGIN
    PERFORM input::objectid;
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
    RETURN concat_ws(' | ', st, m, NULLIF(d, ''), NULLIF(h, ''));
END
$$;
\if :has_soft_errors
CREATE FUNCTION pg_temp.soft(input text) RETURNS text LANGUAGE sql AS $$
    SELECT CASE WHEN pg_input_is_valid(input, 'objectid') THEN 'accepted'
                ELSE concat_ws(' | ', e.sql_error_code, e.message, e.detail, e.hint) END
    FROM pg_input_error_info(input, 'objectid') e
$$;
\else
CREATE FUNCTION pg_temp.soft(input text) RETURNS text LANGUAGE sql AS $$ SELECT pg_temp.hard(input) $$;
\endif
SELECT class, count(*) AS cases, count(*) FILTER (WHERE pg_temp.soft(input) <> 'accepted') AS refused,
       count(*) FILTER (WHERE pg_temp.soft(input) = pg_temp.hard(input)) AS soft_is_hard,
       string_agg(DISTINCT split_part(pg_temp.soft(input), ' | ', 1), ' ') AS states
FROM soft_cases GROUP BY class ORDER BY min(n);
-- COPY (ON_ERROR ignore) keeps the valid rows; on 15 and 16 the valid rows are copied alone
CREATE TEMP TABLE copied (n int, id objectid);
\if :has_on_error
SET client_min_messages = warning;
COPY copied FROM PROGRAM $$printf '1\t56e1fc72e0c917e9c4714161\n2\t56e1fc72e0c917e9c471416\n3\tObjectId("56e1fc72e0c917e9c4714161")\n4\tFFFFFFFFFFFFFFFFFFFFFFFF\n'$$ (ON_ERROR ignore);
RESET client_min_messages;
\else
COPY copied FROM PROGRAM $$printf '1\t56e1fc72e0c917e9c4714161\n4\tFFFFFFFFFFFFFFFFFFFFFFFF\n'$$;
\endif
SELECT n, id FROM copied ORDER BY n;
