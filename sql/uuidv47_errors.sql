-- uuid_v7_mask / uuid_v7_unmask / ulid_mask / ulid_unmask: every error, with
-- its SQLSTATE (the key errors' wording is in secret_key_errors)
\set VERBOSITY default
SELECT idgen_key_import('regress_uuidv47_err', '\x000102030405060708090a0b0c0d0e0f');

-- a bad key name, no such key, no such key id: 22023, 42704
SELECT uuid_v7_mask('0193f1a2-b3c4-7d5e-8f70-8192a3b4c5d6', '');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_unmask('5f0c4a1e-3b2d-4c6e-9a8b-7d6e5f4a3b2c', repeat('k', 64));
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_mask('0193f1a2-b3c4-7d5e-8f70-8192a3b4c5d6', 'regress_uuidv47_missing');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_unmask('5f0c4a1e-3b2d-4c6e-9a8b-7d6e5f4a3b2c', 'regress_uuidv47_err', 2);
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_mask(ulid(), 'regress_uuidv47_missing');
\echo :LAST_ERROR_SQLSTATE
SELECT ulid_unmask(ulid(), 'regress_uuidv47_err', 0);
\echo :LAST_ERROR_SQLSTATE
-- a missing key comes before a refused uuid
SELECT uuid_v7_mask('00000000-0000-0000-0000-000000000000', 'regress_uuidv47_missing');
\echo :LAST_ERROR_SQLSTATE

-- uuid_v7_mask takes version 7 only: 22023 (a facade, version 4, with a hint)
SELECT uuid_v7_mask('5f0c4a1e-3b2d-4c6e-9a8b-7d6e5f4a3b2c', 'regress_uuidv47_err');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_mask('c232ab00-9414-11ec-b3c8-9f6bdeced846', 'regress_uuidv47_err', 1);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_mask('1ec9414c-232a-6b00-b3c8-9f6bdeced846', 'regress_uuidv47_err');
\echo :LAST_ERROR_SQLSTATE
-- the variant bits first: the nil and max UUIDs, a v7 with variant 11
SELECT uuid_v7_mask('00000000-0000-0000-0000-000000000000', 'regress_uuidv47_err');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_mask('ffffffff-ffff-ffff-ffff-ffffffffffff', 'regress_uuidv47_err');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_mask('0193f1a2-b3c4-7d5e-cf70-8192a3b4c5d6', 'regress_uuidv47_err');
\echo :LAST_ERROR_SQLSTATE

-- uuid_v7_unmask takes version 4 only: 22023 (a v7, with a hint)
SELECT uuid_v7_unmask('0193f1a2-b3c4-7d5e-8f70-8192a3b4c5d6', 'regress_uuidv47_err');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_unmask('c232ab00-9414-11ec-b3c8-9f6bdeced846', 'regress_uuidv47_err', 1);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_unmask('5f0c4a1e-3b2d-4c6e-1a8b-7d6e5f4a3b2c', 'regress_uuidv47_err');
\echo :LAST_ERROR_SQLSTATE

DELETE FROM idgen_secret.idgen_secret_key WHERE name = 'regress_uuidv47_err';
