-- rsxid type (XID, rs/xid): every error reachable from SQL, with its SQLSTATE,
-- and the same refusals asked softly (pg_input_is_valid and
-- pg_input_error_info on 16 and later; COPY ... ON_ERROR on 17 and later),
-- whose output is the same on every major (see the end)
SET TimeZone = 'UTC';
\set VERBOSITY default
-- hard(input): what the cast raises, 'SQLSTATE | message | detail | hint', or 'accepted'
CREATE FUNCTION pg_temp.hard(input text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE st text; m text; d text; h text;
BEGIN
    PERFORM input::rsxid;
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
    RETURN concat_ws(' | ', st, m, NULLIF(d, ''), NULLIF(h, ''));
END
$$;

-- base32hex digits only, but not 20 of them: 22P02, the detail gives the length found
-- (rs/xid's "invalid", TestIDDriverScanError's "0")
SELECT ''::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT '0'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'invalid'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT '9m4e2mr0ui3e8a215n4'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT '9m4e2mr0ui3e8a215n4g0'::rsxid;
\echo :LAST_ERROR_SQLSTATE

-- a character outside 0-9a-v: 22P02, the character and its position; uppercase, which
-- rs/xid refuses too, with a hint; reported before a wrong length
SELECT '9M4E2MR0UI3E8A215N4G'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'TYjhW2D0huQoQS'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'TYjhW2D0huQoQS3kdk'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT '9m4e2mr0ui3e8a215n4w'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT '9m4e2mr0ui3e8a215n4z'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT ' 9m4e2mr0ui3e8a215n4g'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT E'9m4e2mr0\tui3e8a215n4g'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT getdatabaseencoding() AS encoding;
SELECT '9m4e2mr0ui3e8a215né'::rsxid;
\echo :LAST_ERROR_SQLSTATE
-- an ObjectId's 24 hex digits are base32hex digits too: the wrong length, with a hint
SELECT '56e1fc72e0c917e9c4714161'::rsxid;
\echo :LAST_ERROR_SQLSTATE

-- a last character other than 0 or g would carry bits beyond the 96 (TestFromStringInvalid)
SELECT 'c6e52g2mrqcjl44hf179'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT '9m4e2mr0ui3e8a215n4h'::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT '0000000000000000000v'::rsxid;
\echo :LAST_ERROR_SQLSTATE
-- only 0 and g end an XID
SELECT string_agg(c, '' ORDER BY c) AS last_characters_accepted,
       count(*) FILTER (WHERE pg_temp.hard('9m4e2mr0ui3e8a215n4' || c) LIKE '22P02 | %') AS refused
FROM regexp_split_to_table('0123456789abcdefghijklmnopqrstuv', '') c
WHERE pg_temp.hard('9m4e2mr0ui3e8a215n4' || c) = 'accepted';

-- bytea of other than 12 bytes: 22P03 with the length; 20 bytes get a hint (XID text)
SELECT '\x56e1fc72e0c917e9c47141'::bytea::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT '\x56e1fc72e0c917e9c471416100'::bytea::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT ''::bytea::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT convert_to('9m4e2mr0ui3e8a215n4g', 'UTF8')::rsxid;
\echo :LAST_ERROR_SQLSTATE
SELECT rsxid_from_bytea('\x56e1fc72e0c917e9c471');
\echo :LAST_ERROR_SQLSTATE
-- the hint's advice works
SELECT convert_from(convert_to('9m4e2mr0ui3e8a215n4g', 'UTF8'), 'UTF8')::rsxid AS via_text;

-- instants outside the 32-bit seconds field: 22008, the range in the detail
SELECT xid_boundary('1969-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT xid_boundary('2106-02-07 06:28:16+00');
\echo :LAST_ERROR_SQLSTATE
SELECT xid_boundary('294276-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT xid_boundary('4713-11-24 00:00:00+00 BC');
\echo :LAST_ERROR_SQLSTATE
-- the first and the last second are accepted
SELECT xid_boundary('1970-01-01 00:00:00+00') AS first_second,
       xid_boundary('2106-02-07 06:28:15.999999+00') AS last_second;
-- infinite instants: 22023
SELECT xid_boundary('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT xid_boundary('-infinity');
\echo :LAST_ERROR_SQLSTATE

-- NULL is no error: the STRICT functions return NULL
SELECT xid_boundary(NULL) IS NULL AS boundary_null, xid_time(NULL) IS NULL AS time_null,
       xid_machine(NULL) IS NULL AS machine_null, xid_pid(NULL) IS NULL AS pid_null,
       xid_counter(NULL) IS NULL AS counter_null,
       rsxid_from_bytea(NULL) IS NULL AS from_bytea_null, NULL::rsxid IS NULL AS cast_null;

-- no implicit cast: rsxid = text, rsxid = bytea and rsxid = objectid do not resolve (42883)
SELECT '9m4e2mr0ui3e8a215n4g'::rsxid = '9m4e2mr0ui3e8a215n4g'::text;
\echo :LAST_ERROR_SQLSTATE
SELECT '9m4e2mr0ui3e8a215n4g'::rsxid = '\x4d88e15b60f486e428412dc9'::bytea;
\echo :LAST_ERROR_SQLSTATE
SELECT '9m4e2mr0ui3e8a215n4g'::rsxid = '56e1fc72e0c917e9c4714161'::objectid;
\echo :LAST_ERROR_SQLSTATE
-- and bytea is not assigned to an rsxid column (explicit cast only): 42804
CREATE TEMP TABLE rsxid_column (id rsxid);
INSERT INTO rsxid_column VALUES ('\x4d88e15b60f486e428412dc9'::bytea);
\echo :LAST_ERROR_SQLSTATE
-- invalid text assigned through the cast from text: 22P02
INSERT INTO rsxid_column SELECT 'zz'::text;
\echo :LAST_ERROR_SQLSTATE

-- COPY BINARY fields must be exactly 12 bytes: 22P03 with the length found
COPY rsxid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\014\1\2\3\4\5\6\7\10\11\12\13\14\377\377'$$ (FORMAT binary);
SELECT id FROM rsxid_column;
COPY rsxid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\013\1\2\3\4\5\6\7\10\11\12\13\377\377'$$ (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
COPY rsxid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\020\1\2\3\4\5\6\7\10\11\12\13\14\15\16\17\20\377\377'$$ (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) AS rows_after_bad_copies FROM rsxid_column;

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
  (1, 'length', ''), (2, 'length', 'invalid'), (3, 'length', '9m4e2mr0ui3e8a215n4g0'),
  (4, 'character', '9M4E2MR0UI3E8A215N4G'), (5, 'character', '9m4e2mr0ui3e8a215n4w'),
  (6, 'character', E'9m4e2mr0\tui3e8a215n4g'), (7, 'character', '9m4e2mr0ui3e8a215né'),
  (8, 'last character', 'c6e52g2mrqcjl44hf179'),
  (9, 'valid', '9m4e2mr0ui3e8a215n4g'), (10, 'valid', 'c6e52g2mrqcjl44hf170');
\if :has_soft_errors
CREATE FUNCTION pg_temp.soft(input text) RETURNS text LANGUAGE sql AS $$
    SELECT CASE WHEN pg_input_is_valid(input, 'rsxid') THEN 'accepted'
                ELSE concat_ws(' | ', e.sql_error_code, e.message, e.detail, e.hint) END
    FROM pg_input_error_info(input, 'rsxid') e
$$;
\else
CREATE FUNCTION pg_temp.soft(input text) RETURNS text LANGUAGE sql AS $$ SELECT pg_temp.hard(input) $$;
\endif
SELECT class, count(*) AS cases, count(*) FILTER (WHERE pg_temp.soft(input) <> 'accepted') AS refused,
       count(*) FILTER (WHERE pg_temp.soft(input) = pg_temp.hard(input)) AS soft_is_hard,
       string_agg(DISTINCT split_part(pg_temp.soft(input), ' | ', 1), ' ') AS states
FROM soft_cases GROUP BY class ORDER BY min(n);
-- COPY (ON_ERROR ignore) keeps the valid rows; on 15 and 16 the valid rows are copied alone
CREATE TEMP TABLE copied (n int, id rsxid);
\if :has_on_error
SET client_min_messages = warning;
COPY copied FROM PROGRAM $$printf '1\t9m4e2mr0ui3e8a215n4g\n2\t9M4E2MR0UI3E8A215N4G\n3\tc6e52g2mrqcjl44hf179\n4\tc6e52g2mrqcjl44hf170\n'$$ (ON_ERROR ignore);
RESET client_min_messages;
\else
COPY copied FROM PROGRAM $$printf '1\t9m4e2mr0ui3e8a215n4g\n4\tc6e52g2mrqcjl44hf170\n'$$;
\endif
SELECT n, id FROM copied ORDER BY n;
