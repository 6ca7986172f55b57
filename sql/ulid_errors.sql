-- ulid type: every error reachable from SQL, with its SQLSTATE
SET TimeZone = 'UTC';
\set VERBOSITY default

-- digits only, but not 26 of them: 22P02, the detail gives the length found
SELECT ''::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FA'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAVX'::ulid;
\echo :LAST_ERROR_SQLSTATE

-- I, L, O and U in either case are not digits (never read as 1, 1, 0): 22P02 with a hint
SELECT 'I1ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '0iARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01ALZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAl'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FOV'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01ARZ3NDEKTSV4RRFFQ69g5oAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01ARZ3NDEKTUV4RRFFQ69G5FAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAu'::ulid;
\echo :LAST_ERROR_SQLSTATE

-- other characters that are not digits: 22P02, the character and its position, control
-- characters as codes; a non-digit is reported before a wrong length (a uuid, spaces)
SELECT '01890a5d-ac96-774b-bcce-b302099a8057'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT ' 01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV '::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '01ARZ3NDEK-SV4RRFFQ69G5FAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT E'01ARZ3ND\tKTSV4RRFFQ69G5FAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
-- the next cases write é as two bytes of UTF-8
SELECT getdatabaseencoding() AS encoding;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5Fé'::ulid;
\echo :LAST_ERROR_SQLSTATE
-- positions count characters, not bytes: é is the 26th character (27th byte)
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAé'::ulid;
\echo :LAST_ERROR_SQLSTATE

-- a first character above 7 needs a 129th bit: 22P02
SELECT '81ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'Z1ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT 'z1ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
\echo :LAST_ERROR_SQLSTATE
-- the largest ULID itself is accepted, in either case
SELECT '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid AS largest, '7zzzzzzzzzzzzzzzzzzzzzzzzz'::ulid AS largest_lower;

-- instants before 1970 or after the last 48-bit millisecond: 22008
SELECT ulid_at('1969-12-31 23:59:59.999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_at('10889-08-02 05:31:50.656+00');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_boundary('1969-12-31 23:59:59.999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_boundary('10889-08-02 05:31:50.656+00');
\echo :LAST_ERROR_SQLSTATE
-- the first and the last millisecond are accepted
SELECT ulid_boundary('1970-01-01 00:00:00+00') AS first_ms, ulid_boundary('10889-08-02 05:31:50.655+00') AS last_ms;
SELECT ulid_time(ulid_at('10889-08-02 05:31:50.655+00')) AS last_ms_at,
       left(ulid_at('10889-08-02 05:31:50.655+00')::text, 10) AS last_ms_time_digits;

-- infinite instants: 22023
SELECT ulid_at('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_at('-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_boundary('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_boundary('-infinity');
\echo :LAST_ERROR_SQLSTATE

-- NULL is no error: the STRICT functions return NULL
SELECT ulid_at(NULL) IS NULL AS at_null, ulid_boundary(NULL) IS NULL AS boundary_null,
       ulid_time(NULL) IS NULL AS time_null, NULL::ulid IS NULL AS cast_null;

-- the casts to and from uuid are not implicit, so ulid = uuid does not resolve: 42883
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid;
\echo :LAST_ERROR_SQLSTATE

-- text is assigned to a ulid column through the cast from text (0.7.0), which
-- reads it as ulid_in does: invalid text is 22P02; and it is not compared with a
-- ulid without a cast, even valid text: 42883 (sql/text_params.sql)
CREATE TEMP TABLE ulid_column (id ulid);
INSERT INTO ulid_column (id) SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::text;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM ulid_column WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::text;
\echo :LAST_ERROR_SQLSTATE

-- COPY BINARY fields must be exactly 16 bytes: 22P03 with the length found
-- printf writes a COPY BINARY stream: signature, flags 0, no header extension,
-- one tuple of one field (length, bytes), and the trailer -1.
COPY ulid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\020\1\2\3\4\5\6\7\10\11\12\13\14\15\16\17\20\377\377'$$ (FORMAT binary);
SELECT id FROM ulid_column;
TRUNCATE ulid_column;
COPY ulid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\017\1\2\3\4\5\6\7\10\11\12\13\14\15\16\17\377\377'$$ (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
COPY ulid_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\021\1\2\3\4\5\6\7\10\11\12\13\14\15\16\17\20\21\377\377'$$ (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) AS rows_after_bad_copies FROM ulid_column;

-- idgen.ulid_order takes only its listed values: 22023
SET idgen.ulid_order = 'global';
\echo :LAST_ERROR_SQLSTATE
SHOW idgen.ulid_order;
