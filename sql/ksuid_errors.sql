-- ksuid type: every error reachable from SQL, with its SQLSTATE; soft input
-- errors (pg_input_is_valid, pg_input_error_info, 16+) and COPY ... ON_ERROR
-- (17+) through a wrapper whose output is the same on every major: on older
-- ones it reports the hard error, which is what the soft one must equal
SET TimeZone = 'UTC';
\set VERBOSITY default

-- digits only, but not 27 of them: 22P02, the detail gives the length found
SELECT ''::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '123'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '0ujtsYcgvSTl8PAuAdqWYSMnLO'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '0ujtsYcgvSTl8PAuAdqWYSMnLOvX'::ksuid;
\echo :LAST_ERROR_SQLSTATE

-- characters outside 0-9A-Za-z: 22P02, the character and its position,
-- control characters as codes; a non-digit is reported before a wrong length,
-- and 27 characters (text segmentio's lax parser would read) get a hint
SELECT '0ujtsYcgvSTl8PAuAdqW-SMnLOv'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT ' 0ujtsYcgvSTl8PAuAdqWYSMnLOv'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '0ujtsYcgvSTl8PAuAdqWYSMnLOv '::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT E'0ujtsYcgvSTl8\tAuAdqWYSMnLOv'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '0ujtsYcgvSTl8PAuAdqW+SMnLO'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01890a5d-ac96-774b-bcce-b302099a8057'::ksuid;
\echo :LAST_ERROR_SQLSTATE
-- the reference's own overflow case: refused here for its character
SELECT 'aWgEPTl1tmebfsQzFP4bxwgy80!'::ksuid;
\echo :LAST_ERROR_SQLSTATE
-- the next cases write é as two bytes of UTF-8
SELECT getdatabaseencoding() AS encoding;
-- positions count characters, not bytes: é is the 26th character (27th byte)
SELECT '0000000000000000000000000é'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '00000000000000000000000000é'::ksuid;
\echo :LAST_ERROR_SQLSTATE

-- what segmentio/ksuid's lax parser accepts (../shared/data/ksuid/lax.json),
-- each refused for its first character outside the alphabet
SELECT '00000000000000000000000000-'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '0000000000000000000000000-0'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '00000000000000000000000000_'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '00000000000000000000000000{'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '00000000000000000000000000~'::ksuid;
\echo :LAST_ERROR_SQLSTATE
-- and the values the reference made of them have spellings of their own, which are read
SELECT '00000000000000000000000003s'::ksuid::bytea AS dash_value, '00000000000000000000000000Y'::ksuid::bytea AS underscore_value;

-- 27 digits above 2^160 - 1: 22P02
SELECT 'aWgEPTl1tmebfsQzFP4bxwgy80W'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'aaaaaaaaaaaaaaaaaaaaaaaaaaa'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'zzzzzzzzzzzzzzzzzzzzzzzzzzz'::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'b00000000000000000000000000'::ksuid;
\echo :LAST_ERROR_SQLSTATE
-- the largest KSUID itself is accepted
SELECT 'aWgEPTl1tmebfsQzFP4bxwgy80V'::ksuid AS largest;

-- instants before the KSUID epoch or after its last second: 22008, with the range
SELECT ksuid_at('2014-05-13 16:53:19.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT ksuid_at('2150-06-19 23:21:36+00');
\echo :LAST_ERROR_SQLSTATE
SELECT ksuid_boundary('2014-05-13 16:53:19.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT ksuid_boundary('2150-06-19 23:21:36+00');
\echo :LAST_ERROR_SQLSTATE
SELECT ksuid_boundary('1970-01-01 00:00:00+00');
\echo :LAST_ERROR_SQLSTATE
-- the first and the last second are accepted
SELECT ksuid_boundary('2014-05-13 16:53:20+00') AS first_second,
       ksuid_boundary('2150-06-19 23:21:35.999999+00') AS last_second,
       ksuid_time(ksuid_at('2150-06-19 23:21:35.999999+00')) AS last_second_at;

-- infinite instants: 22023
SELECT ksuid_at('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT ksuid_at('-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT ksuid_boundary('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT ksuid_boundary('-infinity');
\echo :LAST_ERROR_SQLSTATE

-- NULL is no error: the STRICT functions return NULL
SELECT ksuid_at(NULL) IS NULL AS at_null, ksuid_boundary(NULL) IS NULL AS boundary_null,
       ksuid_time(NULL) IS NULL AS time_null, ksuid_payload(NULL) IS NULL AS payload_null,
       NULL::ksuid IS NULL AS cast_null, NULL::bytea::ksuid IS NULL AS bytea_null;

-- bytea of another length than 20: 22P03 with the length found; 27 bytes get a hint
SELECT '\x0669f7efb5a1cd34b5f99d1154fb6853345c97'::bytea::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT '\x0669f7efb5a1cd34b5f99d1154fb6853345c973500'::bytea::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT ''::bytea::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT convert_to('0ujtsYcgvSTl8PAuAdqWYSMnLOv', 'UTF8')::ksuid;
\echo :LAST_ERROR_SQLSTATE
SELECT convert_from(convert_to('0ujtsYcgvSTl8PAuAdqWYSMnLOv', 'UTF8'), 'UTF8')::ksuid AS as_the_hint_says;
-- the casts to and from bytea are explicit: neither applies on assignment (42804)
CREATE TEMP TABLE ksuid_column (id ksuid);
INSERT INTO ksuid_column VALUES ('\x0669f7efb5a1cd34b5f99d1154fb6853345c9735'::bytea);
\echo :LAST_ERROR_SQLSTATE
CREATE TEMP TABLE bytea_column (b bytea);
INSERT INTO bytea_column VALUES ('0ujtsYcgvSTl8PAuAdqWYSMnLOv'::ksuid);
\echo :LAST_ERROR_SQLSTATE

-- text is assigned to a ksuid column through the cast from text, which reads
-- it as ksuid_in does: invalid text is 22P02; and it is not compared with a
-- ksuid without a cast, even valid text: 42883
INSERT INTO ksuid_column (id) SELECT '0ujtsYcgvSTl8PAuAdqWYSMnLO-'::text;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM ksuid_column WHERE id = '0ujtsYcgvSTl8PAuAdqWYSMnLOv'::text;
\echo :LAST_ERROR_SQLSTATE

-- COPY BINARY fields must be exactly 20 bytes: 22P03 with the length found
-- printf writes a COPY BINARY stream: signature, flags 0, no header extension,
-- one tuple of one field (length, bytes), and the trailer -1.
COPY ksuid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\024\1\2\3\4\5\6\7\10\11\12\13\14\15\16\17\20\21\22\23\24\377\377'$$ (FORMAT binary);
SELECT id, id::bytea FROM ksuid_column;
TRUNCATE ksuid_column;
COPY ksuid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\023\1\2\3\4\5\6\7\10\11\12\13\14\15\16\17\20\21\22\23\377\377'$$ (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
COPY ksuid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\025\1\2\3\4\5\6\7\10\11\12\13\14\15\16\17\20\21\22\23\24\25\377\377'$$ (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) AS rows_after_bad_copies FROM ksuid_column;

-- idgen.ksuid_order takes only its listed values: 22023
SET idgen.ksuid_order = 'global';
\echo :LAST_ERROR_SQLSTATE
SHOW idgen.ksuid_order;

-- soft errors: each class of bad text. On 16+ the
-- wrapper asks pg_input_is_valid() and pg_input_error_info(), and compares
-- them with the hard error the same text raises; before 16 it gives the hard
-- error. Either way the same rows.
CREATE FUNCTION pg_temp.soft(input text, type text)
RETURNS TABLE (valid boolean, state text, message text, detail text, hint text, same_as_hard boolean)
LANGUAGE plpgsql AS $$
DECLARE
    hard_state text; hard_message text; hard_detail text; hard_hint text;
BEGIN
    BEGIN
        EXECUTE format('SELECT %L::%s', input, type);
        hard_state := NULL;
    EXCEPTION WHEN others THEN
        GET STACKED DIAGNOSTICS hard_state = RETURNED_SQLSTATE, hard_message = MESSAGE_TEXT,
                                hard_detail = PG_EXCEPTION_DETAIL, hard_hint = PG_EXCEPTION_HINT;
    END;
    IF current_setting('server_version_num')::int < 160000 THEN
        RETURN QUERY SELECT hard_state IS NULL, hard_state, hard_message, nullif(hard_detail, ''),
                            nullif(hard_hint, ''), true;
        RETURN;
    END IF;
    RETURN QUERY EXECUTE
        'SELECT pg_input_is_valid($1, $2), e.sql_error_code, e.message, e.detail, e.hint,
                e.sql_error_code IS NOT DISTINCT FROM $3 AND e.message IS NOT DISTINCT FROM $4
                AND e.detail IS NOT DISTINCT FROM nullif($5, '''') AND e.hint IS NOT DISTINCT FROM nullif($6, '''')
         FROM pg_input_error_info($1, $2) e'
        USING input, type, hard_state, hard_message, hard_detail, hard_hint;
END
$$;
SELECT input, s.*
FROM (VALUES ('0ujtsYcgvSTl8PAuAdqWYSMnLOv'), (''), ('0ujtsYcgvSTl8PAuAdqWYSMnLO'), ('00000000000000000000000000-'),
             ('0ujtsYcgvSTl8PAuAdqW-SMnLO'), (E'0ujtsYcgvSTl8\tAuAdqWYSMnLOv'), ('aWgEPTl1tmebfsQzFP4bxwgy80W')) v(input),
     pg_temp.soft(input, 'ksuid') s;

-- COPY ... FROM (ON_ERROR ignore), 17+: rows with bad ksuid text are skipped;
-- before 17 the wrapper keeps the rows that pg_temp.soft finds valid, the same
-- rows. The NOTICE counting skipped rows is 17+'s alone: hidden.
CREATE TEMP TABLE copy_k (n int, id ksuid);
CREATE FUNCTION pg_temp.copy_ignoring_errors() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    lines text[] := ARRAY['1	0ujtsYcgvSTl8PAuAdqWYSMnLOv', '2	0ujtsYcgvSTl8PAuAdqWYSMnLO', '3	00000000000000000000000000-',
                          '4	aWgEPTl1tmebfsQzFP4bxwgy80W', '5	aWgEPTl1tmebfsQzFP4bxwgy80V', '6	01890a5d-ac96-774b-bcce-b302099a8057'];
BEGIN
    IF current_setting('server_version_num')::int >= 170000 THEN
        EXECUTE format('COPY copy_k FROM PROGRAM %L (ON_ERROR ignore)',
                       'printf ''' || array_to_string(lines, '\n') || '\n''');
    ELSE
        INSERT INTO copy_k
        SELECT split_part(l, E'\t', 1)::int, split_part(l, E'\t', 2)::ksuid
        FROM unnest(lines) l WHERE (SELECT valid FROM pg_temp.soft(split_part(l, E'\t', 2), 'ksuid'));
    END IF;
END
$$;
SET client_min_messages = warning;
SELECT pg_temp.copy_ignoring_errors();
RESET client_min_messages;
SELECT n, id FROM copy_k ORDER BY n;
