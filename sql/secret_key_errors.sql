-- Named secret keys: every error, with its SQLSTATE
\set VERBOSITY default

-- names of 1 to 63 bytes: 22023 (the name is not repeated in the message)
SELECT idgen_key_create('');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_key_create(repeat('k', 64));
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_key_import(repeat('é', 32), '\x000102030405060708090a0b0c0d0e0f');
\echo :LAST_ERROR_SQLSTATE
SELECT bigint_obfuscate(1, '');
\echo :LAST_ERROR_SQLSTATE
SELECT bigint_deobfuscate(1, repeat('k', 64), 1);
\echo :LAST_ERROR_SQLSTATE

-- a key of other than 16 bytes: 22023, its length only
SELECT idgen_key_import('regress_err', '\x00010203');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_key_import('regress_err', '\x');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_key_import('regress_err', '\x000102030405060708090a0b0c0d0e0f10');
\echo :LAST_ERROR_SQLSTATE

-- key ids start at 1: 22023; one in use: 23505
SELECT idgen_key_import('regress_err', '\x000102030405060708090a0b0c0d0e0f', 0);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_key_import('regress_err', '\x000102030405060708090a0b0c0d0e0f', -1);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_key_import('regress_err', '\x000102030405060708090a0b0c0d0e0f', 3);
SELECT idgen_key_import('regress_err', '\x00112233445566778899aabbccddeeff', 3);
\echo :LAST_ERROR_SQLSTATE
-- after key id 2147483647, no next one: 22003
SELECT idgen_key_import('regress_err', '\x00112233445566778899aabbccddeeff', 2147483647);
SELECT idgen_key_create('regress_err');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_key_import('regress_err', '\x00112233445566778899aabbccddeeff');
\echo :LAST_ERROR_SQLSTATE

-- no such key, no such key id: 42704
SELECT bigint_obfuscate(1, 'regress_no_such_key');
\echo :LAST_ERROR_SQLSTATE
SELECT bigint_deobfuscate(1, 'regress_no_such_key', 1);
\echo :LAST_ERROR_SQLSTATE
SELECT bigint_obfuscate(1, 'regress_err', 4);
\echo :LAST_ERROR_SQLSTATE
SELECT bigint_obfuscate(1, 'regress_err', 0);
\echo :LAST_ERROR_SQLSTATE

-- adding a key without INSERT on the table: 42501
CREATE ROLE regress_key_nobody;
SET ROLE regress_key_nobody;
SELECT idgen_key_create('regress_err');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_key_import('regress_err', '\x000102030405060708090a0b0c0d0e0f');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP ROLE regress_key_nobody;

-- in a read-only transaction: 25006
BEGIN READ ONLY;
SELECT idgen_key_create('regress_err');
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
BEGIN READ ONLY;
SELECT idgen_key_import('regress_err', '\x000102030405060708090a0b0c0d0e0f');
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;

-- a row whose key is not 16 bytes (only with the table's CHECK dropped): 55000
ALTER TABLE idgen_secret.idgen_secret_key DROP CONSTRAINT idgen_secret_key_key;
INSERT INTO idgen_secret.idgen_secret_key (name, key_id, key) VALUES ('regress_err_short', 1, '\x0102');
SELECT bigint_obfuscate(1, 'regress_err_short');
\echo :LAST_ERROR_SQLSTATE
DELETE FROM idgen_secret.idgen_secret_key WHERE name = 'regress_err_short';
ALTER TABLE idgen_secret.idgen_secret_key ADD CONSTRAINT idgen_secret_key_key CHECK (pg_catalog.octet_length(key) = 16);

-- the key table renamed: 42P01
ALTER TABLE idgen_secret.idgen_secret_key RENAME TO idgen_secret_key_moved;
SELECT bigint_obfuscate(1, 'regress_err', 3);
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_key_create('regress_err_moved');
\echo :LAST_ERROR_SQLSTATE
ALTER TABLE idgen_secret.idgen_secret_key_moved RENAME TO idgen_secret_key;
SELECT bigint_obfuscate(1, 'regress_err', 3) > 0 AS works_again;

-- the trigger function called outside a trigger: 39P01
SELECT idgen_secret_key_changed();
\echo :LAST_ERROR_SQLSTATE

DELETE FROM idgen_secret.idgen_secret_key WHERE name = 'regress_err';
