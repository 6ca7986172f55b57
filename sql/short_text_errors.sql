-- short text forms: every error, with its SQLSTATE
\set VERBOSITY default

-- an unknown form: 22023, the hint lists the forms
SELECT uuid_encode(gen_random_uuid(), 'base36');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('0000000000000000000000', 'base 62');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_encode(ulid(), '');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_decode('0000000000000000000000', 'hex');
\echo :LAST_ERROR_SQLSTATE

-- a wrong length, for text of the form's alphabet: 22P02, the form named;
-- shortuuid's own decode would read the short text, strict decoding does not
SELECT uuid_decode('MLpZDiE', 'base57');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('', 'base62');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('00000000000000000000000', 'base62');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('AAAAAAAAAAAAAAAAAAAAAA==', 'base64url');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('01FWHE4YDG7K1SHH6W1G60EGW', 'base32');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_decode('1111111111111111111111', 'base32');
\echo :LAST_ERROR_SQLSTATE

-- a character outside the alphabet: 22P02, the character, its position and
-- the alphabet; reported before a wrong length
SELECT uuid_decode('0000000000000000000000', 'base58');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('1111111111111111111111', 'base57');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('111111111111111111111l', 'base58');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('111111111111111111111I', 'flickr');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('Ox+LQCIsSm63fnedWpTiHA', 'base64url');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('01FWHE4YDG7K1SHH6W1G60EGWU', 'base32');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('3b1f8b40-222c-4a6e-b77e-779d5a94e21c', 'base62');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode(E'1nYxhRwtvqPK4tetBtfea\n', 'base62');
\echo :LAST_ERROR_SQLSTATE
-- positions count characters: é is the 22nd character (23rd byte)
SELECT getdatabaseencoding() AS encoding;
SELECT uuid_decode('000000000000000000000é', 'base62');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_decode('0000000000000000000000 ', 'base62');
\echo :LAST_ERROR_SQLSTATE

-- above 2^128 - 1: 22P02, the largest text of the form
SELECT uuid_decode('7n42DGM5Tflk9n8mt7Fhc8', 'base62');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('zzzzzzzzzzzzzzzzzzzzzz', 'base58');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('ZZZZZZZZZZZZZZZZZZZZZZ', 'flickr');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('oZEq7ovRbLq6UnGMPwc8B6', 'base57');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('80000000000000000000000000', 'base32');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_decode('8ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'base32');
\echo :LAST_ERROR_SQLSTATE

-- base64url's last character with its 4 zero bits set: 22P02
SELECT uuid_decode('_____________________x', 'base64url');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_decode('AAAAAAAAAAAAAAAAAAAAAB', 'base64url');
\echo :LAST_ERROR_SQLSTATE
