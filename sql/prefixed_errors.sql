-- prefixed_id type: every error reachable from SQL, with its SQLSTATE
SET TimeZone = 'UTC';
\set VERBOSITY default

-- text without any "_" has no prefix: 22P02
SELECT ''::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct0000000000000000000000001'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT '039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE

-- the prefix (everything before the last "_") is checked before the body: 22P02 when it is
-- empty, longer than 63, holds anything but a-z and "_", or starts or ends with "_"
SELECT '_039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT (repeat('q', 64) || '_039srkj01e44uynszf2f2njh3')::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'Acct_039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acCt_039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct2_039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'user-session_039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT ' acct_039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
-- a bad character is reported before the length, and before a bad body
SELECT (repeat('Q', 64) || '_039srkj01e44uynszf2f2njh3')::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'ACCT_not-a-body'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
-- the next cases write é as two bytes of UTF-8: it is the 5th character here
SELECT getdatabaseencoding() AS encoding;
SELECT 'accté_039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
-- "_" may not open or close the prefix: a leading "_", and "acct__..." whose prefix is "acct_"
SELECT '_acct_039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct__039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT '__039srkj01e44uynszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
-- 63 letters and inner underscores are accepted
SELECT length(prefixed_id_prefix((repeat('q', 63) || '_039srkj01e44uynszf2f2njh3')::prefixed_id)) AS longest_prefix,
       prefixed_id_prefix('a__b_039srkj01e44uynszf2f2njh3') AS inner_underscores;

-- the body (after the last "_") must be exactly 25 base36 digits: 22P02 with the length found
SELECT 'acct_'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct_039srkj01e44uynszf2f2njh'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct_039srkj01e44uynszf2f2njh30'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct_0'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE

-- a character outside 0-9, a-z, A-Z in the body: 22P02 naming it, before a wrong length
SELECT 'acct_039srkj01e44uynszf2f2nj-3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct_039srkj01e44uynszf2f2njh3 '::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct_01890a5d-ac96-774b-bcce-b302099a8057'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT E'acct_039srkj01e44uy\tszf2f2njh3'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
-- é, two bytes of UTF-8, is shown whole
SELECT 'acct_039srkj01e44uynszf2f2njé'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE

-- a body above 2^128 - 1 (f5lxx1zz5pnorynqglhzmsp33): 22P02; the largest itself is accepted
SELECT 'acct_f5lxx1zz5pnorynqglhzmsp34'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct_f5lxx1zz5pnorynqglhzmsq00'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct_g000000000000000000000000'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct_ZZZZZZZZZZZZZZZZZZZZZZZZZ'::prefixed_id;
\echo :LAST_ERROR_SQLSTATE
SELECT 'acct_f5lxx1zz5pnorynqglhzmsp33'::prefixed_id AS largest, 'acct_F5LXX1ZZ5PNORYNQGLHZMSP33'::prefixed_id AS largest_upper;

-- COPY text reports the same errors for its line and column
CREATE TEMP TABLE prefixed_column (id prefixed_id);
COPY prefixed_column FROM STDIN;
acct_039srkj01e44uynszf2f2njh3
acct_039srkj01e44uynszf2f2njh
\.
\echo :LAST_ERROR_SQLSTATE

-- COPY (FORMAT binary) and its errors: sql/prefixed_binary.sql

-- a prefix argument of the generators and accessors is checked as in text: 22023 with the
-- same details and a hint, whatever the other argument
SELECT prefixed_id_new('');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_new('Acct');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_new('acct_');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_new(repeat('q', 64));
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_token('sess ');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_token('_sess');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_from_uuid('acct1', '01890a5d-ac96-774b-bcce-b302099a8057');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_from_uuid('ac_ct_', '01890a5d-ac96-774b-bcce-b302099a8057');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_boundary('ACCT', '2025-01-01+00');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_boundary('', 'infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_boundary('écu', '2025-01-01+00');
\echo :LAST_ERROR_SQLSTATE

-- boundary instants before 1970 or after the last 48-bit millisecond: 22008; infinite: 22023
SELECT prefixed_id_boundary('acct', '1969-12-31 23:59:59.999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_boundary('acct', '10889-08-02 05:31:50.656+00');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_boundary('acct', 'infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_boundary('acct', '-infinity');
\echo :LAST_ERROR_SQLSTATE
-- the first and the last millisecond are accepted
SELECT prefixed_id_time(prefixed_id_boundary('acct', '1970-01-01 00:00:00+00')) AS first_ms,
       prefixed_id_time(prefixed_id_boundary('acct', '10889-08-02 05:31:50.655+00')) AS last_ms;

-- base36_decode: exactly 25 digits 0-9, a-z in either case, at most 2^128 - 1, else 22P02
SELECT base36_decode('');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode('039srkj01e44uynszf2f2njh');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode('039srkj01e44uynszf2f2njh30');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode('039srkj01e44uynszf2f2nj-3');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode('01890a5d-ac96-774b-bcce-b302099a8057');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode('acct_039srkj01e44uynszf2f2njh3');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode('f5lxx1zz5pnorynqglhzmsp34');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode('ZZZZZZZZZZZZZZZZZZZZZZZZZ');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode('f5lxx1zz5pnorynqglhzmsp33') AS largest, base36_decode('F5LXX1ZZ5PNORYNQGLHZMSP33') AS largest_upper;

-- base36_encode(bigint) refuses negative numbers: 22003
SELECT base36_encode(-1::bigint);
\echo :LAST_ERROR_SQLSTATE
SELECT base36_encode('-9223372036854775808'::bigint);
\echo :LAST_ERROR_SQLSTATE

-- base36_decode_bigint: 1 to 13 digits, else 22P02; above 2^63 - 1 (1y2p0ij32e8e7): 22003
SELECT base36_decode_bigint('');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode_bigint('00000000000001');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode_bigint('-1');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode_bigint(' 1');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode_bigint('bppc0m3ju134_');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode_bigint('1y2p0ij32e8e8');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode_bigint('1Y2P0IJ32E8E8');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode_bigint('zzzzzzzzzzzzz');
\echo :LAST_ERROR_SQLSTATE
-- a wrong length is reported before the range
SELECT base36_decode_bigint('zzzzzzzzzzzzzz');
\echo :LAST_ERROR_SQLSTATE
SELECT base36_decode_bigint('1y2p0ij32e8e7') AS largest, base36_decode_bigint('0000000000000') AS zero_padded;

-- prefixed_id_define checks the prefix first: 22023, and nothing is created
SELECT prefixed_id_define('account_id', 'Acct');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_define('account_id', 'acct_');
\echo :LAST_ERROR_SQLSTATE
SELECT to_regtype('account_id') IS NULL AS no_type, (SELECT count(*) FROM prefixed_id_registry) AS registered;

-- a prefix names one entity: defining it again, under any type name, is 42710 naming the owner;
-- a type name that already exists is 42710 too; either way the registry and catalog are unchanged
SELECT prefixed_id_define('account_id', 'acct') AS defined;
SELECT prefixed_id_define('customer_id', 'acct');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_define('account_id', 'acct', token => true);
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_define('account_id', 'acc');
\echo :LAST_ERROR_SQLSTATE
SELECT prefix, type, token FROM prefixed_id_registry ORDER BY prefix;
SELECT to_regtype('customer_id') IS NULL AS no_customer_id;

-- with no schema to create the type in: 3F000
SET search_path = '';
SELECT public.prefixed_id_define('nowhere_id', 'nowhere');
\echo :LAST_ERROR_SQLSTATE
RESET search_path;
-- an explicit NULL type_schema is the same; a type_schema that does not exist is 3F000 from
-- CREATE DOMAIN; either way nothing is registered
SELECT prefixed_id_define('nowhere_id', 'nowhere', type_schema => NULL);
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_define('nowhere_id', 'nowhere', type_schema => 'no_such_schema');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) AS registered FROM prefixed_id_registry;

-- a value of another prefix does not enter the domain: 23514 naming the type and its
-- constraint, from INSERT, UPDATE, a cast and COPY (text and binary)
CREATE TABLE accounts (id account_id PRIMARY KEY, email text);
INSERT INTO accounts (email) VALUES ('ada@example.com');
INSERT INTO accounts VALUES ('sess_039srkj01e44uynszf2f2njh3', 'wrong');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO accounts VALUES (prefixed_id_new('acc'), 'near miss');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO accounts VALUES (prefixed_id_new('acctx'), 'longer prefix');
\echo :LAST_ERROR_SQLSTATE
UPDATE accounts SET id = prefixed_id_from_uuid('sess', prefixed_id_uuid(id));
\echo :LAST_ERROR_SQLSTATE
SELECT 'sess_039srkj01e44uynszf2f2njh3'::account_id;
\echo :LAST_ERROR_SQLSTATE
COPY accounts FROM STDIN;
acct_039srkj01e44uynszf2f2njh3	right
sess_039srkj01e44uynszf2f2njh3	wrong
\.
\echo :LAST_ERROR_SQLSTATE
CREATE TEMP TABLE account_column (id account_id);
COPY account_column FROM PROGRAM $$printf 'PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0\0\1\0\0\0\025\4sess\1\2\3\4\5\6\7\10\11\12\13\14\15\16\17\20\377\377'$$ (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) AS accounts, count(*) FILTER (WHERE prefixed_id_prefix(id) = 'acct') AS acct_prefix FROM accounts;
SELECT count(*) AS rows_after_bad_copy FROM account_column;

-- prefixed_id_type: a prefix nobody registered is 42704 with the ID; without "_" the prefix is empty
SELECT prefixed_id_type('zzz_039srkj01e44uynszf2f2njh3');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_type('ACCT_039srkj01e44uynszf2f2njh3');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_type('acct_x_039srkj01e44uynszf2f2njh3');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_type('acct');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_type('');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_type('acct_039srkj01e44uynszf2f2njh3') AS registered_prefix;

-- a registry row counts only while its type is a domain over prefixed_id whose CHECK is
-- prefixed_id_prefix(VALUE) = <its prefix> (a type in pg_temp vanishes with its session, and
-- its OID may then name another type): otherwise prefixed_id_type refuses the prefix with 42704
-- and a detail naming the OID, and prefixed_id_define takes the prefix over. Rows written by
-- hand here: a type that is no prefixed_id domain, a domain that checks another prefix, a
-- domain made by hand that checks its prefix (which counts), and a defined type whose CHECK
-- was dropped
INSERT INTO prefixed_id_registry VALUES ('ghost', 'int4'::regtype, false);
SELECT prefixed_id_type('ghost_039srkj01e44uynszf2f2njh3');
\echo :LAST_ERROR_SQLSTATE
CREATE DOMAIN other_check AS prefixed_id CHECK (prefixed_id_prefix(VALUE) = 'other');
CREATE DOMAIN hand_made AS prefixed_id CHECK (prefixed_id_prefix(VALUE) = 'hand');
INSERT INTO prefixed_id_registry VALUES ('twin', 'other_check', false), ('hand', 'hand_made', false);
-- (terse: the detail would show an OID that varies from run to run)
\set VERBOSITY terse
SELECT prefixed_id_type('twin_039srkj01e44uynszf2f2njh3');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_type('hand_039srkj01e44uynszf2f2njh3') AS hand_made_counts;
SELECT prefixed_id_define('hand_id', 'hand');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_define('unchecked_id', 'unchecked') AS defined;
ALTER DOMAIN unchecked_id DROP CONSTRAINT unchecked_id_prefix;
SELECT prefixed_id_type('unchecked_039srkj01e44uynszf2f2njh3');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
SELECT prefixed_id_define('ghost_id', 'ghost') AS ghost, prefixed_id_define('twin_id', 'twin') AS twin,
       prefixed_id_define('checked_id', 'unchecked') AS unchecked;
SELECT prefix, type FROM prefixed_id_registry WHERE prefix IN ('ghost', 'twin', 'hand', 'unchecked') ORDER BY prefix;
SELECT prefixed_id_type('ghost_039srkj01e44uynszf2f2njh3') AS ghost, prefixed_id_type('twin_039srkj01e44uynszf2f2njh3') AS twin,
       prefixed_id_type('unchecked_039srkj01e44uynszf2f2njh3') AS unchecked;
DROP DOMAIN ghost_id, twin_id, checked_id, unchecked_id, other_check;
DELETE FROM prefixed_id_registry WHERE prefix = 'hand';
DROP DOMAIN hand_made;
SELECT count(*) AS registered FROM prefixed_id_registry;

-- no implicit casts: text goes into a prefixed_id column by the assignment cast
-- (0.7.0), so invalid text is 22P02, but a prefixed_id does not compare with
-- text (42883) or with a uuid (42883)
INSERT INTO prefixed_column (id) SELECT 'acct_039srkj01e44uynszf2f2njh3x'::text;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM prefixed_column WHERE id = 'acct_039srkj01e44uynszf2f2njh3'::text;
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_new('acct') = gen_random_uuid();
\echo :LAST_ERROR_SQLSTATE

-- NULL is no error: the STRICT functions return NULL, and define creates and registers nothing
SELECT prefixed_id_new(NULL) IS NULL AS new_null, prefixed_id_token(NULL) IS NULL AS token_null,
       prefixed_id_prefix(NULL) IS NULL AS prefix_null, prefixed_id_uuid(NULL) IS NULL AS uuid_null,
       prefixed_id_time(NULL) IS NULL AS time_null, NULL::prefixed_id IS NULL AS cast_null;
SELECT prefixed_id_from_uuid(NULL, '01890a5d-ac96-774b-bcce-b302099a8057') IS NULL AS from_uuid_null_prefix,
       prefixed_id_from_uuid('acct', NULL) IS NULL AS from_uuid_null_payload,
       prefixed_id_boundary(NULL, '2025-01-01+00') IS NULL AS boundary_null_prefix,
       prefixed_id_boundary('acct', NULL) IS NULL AS boundary_null_ts,
       prefixed_id_hash(NULL) IS NULL AS hash_null, prefixed_id_hash_extended(NULL, 0) IS NULL AS hash_extended_null;
SELECT base36_encode(NULL::uuid) IS NULL AS encode_uuid_null, base36_encode(NULL::bigint) IS NULL AS encode_bigint_null,
       base36_decode(NULL) IS NULL AS decode_null, base36_decode_bigint(NULL) IS NULL AS decode_bigint_null,
       prefixed_id_type(NULL) IS NULL AS type_null;
SELECT prefixed_id_define(NULL, 'nul') IS NULL AS define_null_name,
       prefixed_id_define('null_id', NULL) IS NULL AS define_null_prefix,
       prefixed_id_define('null_id', 'nul', NULL) IS NULL AS define_null_token;
SELECT to_regtype('null_id') IS NULL AS no_type, (SELECT count(*) FROM prefixed_id_registry) AS registered;

DROP TABLE accounts;
DROP TABLE account_column;
DELETE FROM prefixed_id_registry WHERE prefix = 'acct';
DROP DOMAIN account_id;
SELECT count(*) AS registered_after_cleanup FROM prefixed_id_registry;

-- prefixed_id_type() on text that is no prefixed ID: 22P02 (a well-formed ID
-- whose prefix no type has stays 42704)
SELECT prefixed_id_type('garbage');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_type('Acct_1');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_type('acct_');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_type('nosuchprefix_0jz3ahd1g8ok9sqxcgl8vu9zq');
\echo :LAST_ERROR_SQLSTATE

-- errors of the define functions name the function that was called, and no
-- internal helper (the CONTEXT lines too)
SELECT prefixed_id_define('bad_prefix_id', 'BAD');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_define('empty_prefix_id', '');
\echo :LAST_ERROR_SQLSTATE
SELECT prefixed_id_define('taken_one', 'takn');
SELECT prefixed_id_define('taken_two', 'takn');
\echo :LAST_ERROR_SQLSTATE
SELECT typeid_define('taken_three', 'takn');
\echo :LAST_ERROR_SQLSTATE
DROP DOMAIN taken_one;
