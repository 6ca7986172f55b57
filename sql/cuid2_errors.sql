-- CUID2: every error, with its SQLSTATE
\set VERBOSITY default

-- length outside 2 to 32: 22023, the range as detail
SELECT cuid2(1);
\echo :LAST_ERROR_SQLSTATE
SELECT cuid2(33);
\echo :LAST_ERROR_SQLSTATE
SELECT cuid2(0);
\echo :LAST_ERROR_SQLSTATE
SELECT cuid2(-2147483648);
\echo :LAST_ERROR_SQLSTATE
SELECT cuid2_is_valid('ab', 1);
\echo :LAST_ERROR_SQLSTATE
SELECT cuid2_is_valid('ab', 33);
\echo :LAST_ERROR_SQLSTATE

-- cuid2_define: the same refusal, then a schema that is not there, a type
-- that exists
SELECT cuid2_define('bad_length', 1);
\echo :LAST_ERROR_SQLSTATE
SELECT cuid2_define('bad_length', 33);
\echo :LAST_ERROR_SQLSTATE
SELECT cuid2_define('nowhere', 24, NULL);
\echo :LAST_ERROR_SQLSTATE
SELECT cuid2_define('nowhere', 24, 'no_such_schema');
\echo :LAST_ERROR_SQLSTATE
-- a value outside the domain: 23514
SELECT cuid2_define('ref8', 8) AS created;
SELECT 'abcdefg'::ref8;
\echo :LAST_ERROR_SQLSTATE
SELECT 'Abcdefgh'::ref8;
\echo :LAST_ERROR_SQLSTATE
SELECT '1bcdefgh'::ref8;
\echo :LAST_ERROR_SQLSTATE
SELECT cuid2_define('ref8', 8);
\echo :LAST_ERROR_SQLSTATE
DROP DOMAIN ref8;
