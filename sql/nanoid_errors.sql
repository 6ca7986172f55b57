-- NanoID: every error, with its SQLSTATE
\set VERBOSITY default

-- size outside 1 to 1024: 22023
SELECT nanoid(0);
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid(1025);
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid(-1, 'ab');
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid_is_valid('abc', 0, 'abc');
\echo :LAST_ERROR_SQLSTATE

-- an alphabet of fewer than 2 or more than 256 characters: 22023
SELECT nanoid(5, '');
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid(5, 'a');
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid(5, (SELECT string_agg(chr(i), '') FROM generate_series(256, 512) i));
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid_is_valid('aaa', 3, 'a');
\echo :LAST_ERROR_SQLSTATE

-- a repeated character: 22023, the character and both positions
SELECT nanoid(5, 'abcdbefa');
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid(5, 'αβγα');
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid_is_valid('aa', 2, 'aa');
\echo :LAST_ERROR_SQLSTATE

-- nanoid_define: the same refusals, then a schema that is not there
SELECT nanoid_define('bad_size', 0);
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid_define('bad_alphabet', 5, 'xx');
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid_define('nowhere', 5, 'ab', NULL);
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid_define('nowhere', 5, 'ab', 'no_such_schema');
\echo :LAST_ERROR_SQLSTATE
-- a value outside the domain: 23514
SELECT nanoid_define('ref4', 4, 'abcd') AS created;
SELECT 'abce'::ref4;
\echo :LAST_ERROR_SQLSTATE
SELECT 'abc'::ref4;
\echo :LAST_ERROR_SQLSTATE
SELECT nanoid_define('ref4', 4, 'abcd');
\echo :LAST_ERROR_SQLSTATE
DROP DOMAIN ref4;
