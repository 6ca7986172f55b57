-- Sqids: every error, with its SQLSTATE
\set VERBOSITY default

-- alphabets: multibyte (spec's first check), fewer than 3, repeated: 22023
SELECT sqids_encode(1::bigint, 'ë1092');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_encode(1::bigint, 'ab');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_encode(1::bigint, '');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_encode(1::bigint, 'aabcdefg');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode('abc', 'abcc');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode_lenient('abc', 'ab');
\echo :LAST_ERROR_SQLSTATE

-- min_length outside 0 to 255: 22023
SELECT sqids_encode(1::bigint, min_length => -1);
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_encode(1::bigint, min_length => 256);
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode('86Rf07', min_length => 300);
\echo :LAST_ERROR_SQLSTATE

-- a null word in the blocklist: 22004
SELECT sqids_encode(1::bigint, blocklist => ARRAY['abc', NULL]);
\echo :LAST_ERROR_SQLSTATE

-- negative numbers: 22003; null elements: 22004; a two-dimensional array: 2202E
SELECT sqids_encode(-1::bigint);
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_encode(ARRAY[1, -9223372036854775808]::bigint[]);
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_encode(ARRAY[1, NULL, 3]::bigint[]);
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_encode(ARRAY[[1, 2], [3, 4]]::bigint[]);
\echo :LAST_ERROR_SQLSTATE

-- every increment blocked (spec: max encoding attempts): 22023
SELECT sqids_encode(0::bigint, 'abc', 3, '{cab,abc,bca}');
\echo :LAST_ERROR_SQLSTATE

-- a code whose number is above 2^63 - 1: 22003, strict or lenient
SELECT sqids_decode_lenient(sqids_encode(9223372036854775807::bigint, blocklist => '{}') || 'x');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode(sqids_encode(9223372036854775807::bigint, blocklist => '{}') || 'x');
\echo :LAST_ERROR_SQLSTATE

-- strict decoding: empty, a character outside the alphabet, no numbers,
-- not canonical (padding, a blocked word, another min_length): 22P02
SELECT sqids_decode('');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode('86Rf0*');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode('86');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode('86Rf07x');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode('aho1e');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode('86Rf07', min_length => 10);
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode_one('86Rf07');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_decode_one('');
\echo :LAST_ERROR_SQLSTATE

-- sqids_define: the options checked at once, a NULL schema, a long name
SELECT sqids_define('bad_code', 'ab');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_define('bad_code', min_length => 256);
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_define('bad_code', blocklist => ARRAY[NULL]::text[]);
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_define('bad_code', schema => NULL);
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_define(repeat('n', 51));
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_define('twice_code');
SELECT sqids_define('twice_code');
\echo :LAST_ERROR_SQLSTATE
SELECT twice_code_decode('86Rf07');
\echo :LAST_ERROR_SQLSTATE
SELECT twice_code_decode('86Rf07x');
\echo :LAST_ERROR_SQLSTATE
SELECT sqids_define(NULL) IS NULL AS null_name;
DROP FUNCTION twice_code_encode(bigint), twice_code_encode(bigint[]), twice_code_decode(text),
              twice_code_decode_array(text);
