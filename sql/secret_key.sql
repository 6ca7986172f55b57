-- Named secret keys (idgen_secret.idgen_secret_key): made in the server or
-- imported, key ids for rotation, who may add and read them, and that a role
-- without rights uses a key without seeing it (not in the table, EXPLAIN
-- VERBOSE or an error) nor naming its table. pg_stat_statements and the
-- server log: test/tap/secret_key.pl.

-- a key made in the server: key id 1, then 2; 16 random bytes each
SELECT idgen_key_create('regress_made');
SELECT idgen_key_create('regress_made');
SELECT name, key_id, octet_length(key) AS bytes, created > now() - interval '1 minute' AS created_now
FROM idgen_secret.idgen_secret_key WHERE name = 'regress_made' ORDER BY key_id;
SELECT count(DISTINCT key) AS distinct_keys FROM idgen_secret.idgen_secret_key WHERE name = 'regress_made';

-- imported keys: the next key id, or the one given
SELECT idgen_key_import('regress_imported', '\x000102030405060708090a0b0c0d0e0f');
SELECT idgen_key_import('regress_imported', '\x00112233445566778899aabbccddeeff', 7);
SELECT idgen_key_import('regress_imported', '\xffeeddccbbaa99887766554433221100');
SELECT name, key_id, encode(key, 'hex') AS key FROM idgen_secret.idgen_secret_key
WHERE name = 'regress_imported' ORDER BY key_id;

-- names are bytes, compared exactly (COLLATE "C"): 63 bytes, multibyte, case
SELECT idgen_key_create(repeat('k', 63)), idgen_key_create('régress_ключ'), idgen_key_create('Regress_Made');
SELECT name, key_id FROM idgen_secret.idgen_secret_key
WHERE name IN (repeat('k', 63), 'régress_ключ', 'Regress_Made') ORDER BY name COLLATE "C";

-- the table and its schema: revoked from PUBLIC; a configuration table, its
-- triggers enabled ALWAYS
SELECT (SELECT count(*) FROM pg_class, aclexplode(relacl) a
        WHERE oid = 'idgen_secret.idgen_secret_key'::regclass AND a.grantee = 0) AS public_table_grants,
       (SELECT count(*) FROM pg_namespace, aclexplode(nspacl) a
        WHERE nspname = 'idgen_secret' AND a.grantee = 0) AS public_schema_grants;
SELECT 'idgen_secret.idgen_secret_key'::regclass = ANY (extconfig) AS dumped FROM pg_extension WHERE extname = 'idgen';
SELECT tgname, tgenabled, tgtype FROM pg_trigger WHERE tgrelid = 'idgen_secret.idgen_secret_key'::regclass ORDER BY tgname;

-- a role with no grant: uses a key through the functions, reads no key
CREATE ROLE regress_key_user;
SET ROLE regress_key_user;
SELECT bigint_obfuscate(1, 'regress_imported', 1);
SELECT bigint_deobfuscate(3669710137412786131, 'regress_imported', 1);
SELECT * FROM idgen_secret.idgen_secret_key;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM idgen_secret.idgen_secret_key;
\echo :LAST_ERROR_SQLSTATE
COPY idgen_secret.idgen_secret_key TO STDOUT;
\echo :LAST_ERROR_SQLSTATE
-- nor names the table at all: it cannot hold or queue a lock on it
PREPARE regress_read_keys AS SELECT key FROM idgen_secret.idgen_secret_key;
\echo :LAST_ERROR_SQLSTATE
BEGIN;
LOCK TABLE idgen_secret.idgen_secret_key IN ACCESS SHARE MODE;
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
CREATE RULE regress_no_insert AS ON INSERT TO idgen_secret.idgen_secret_key DO INSTEAD NOTHING;
\echo :LAST_ERROR_SQLSTATE
SET search_path = idgen_secret, public;
SELECT to_regclass('idgen_secret_key') AS found_by_search_path;
RESET search_path;
-- nor adds, replaces or deletes one
SELECT idgen_key_create('regress_user_key');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_key_import('regress_imported', '\x000102030405060708090a0b0c0d0e0f', 9);
\echo :LAST_ERROR_SQLSTATE
DELETE FROM idgen_secret.idgen_secret_key;
\echo :LAST_ERROR_SQLSTATE
UPDATE idgen_secret.idgen_secret_key SET key = key;
\echo :LAST_ERROR_SQLSTATE
-- EXPLAIN VERBOSE shows the call, not the key (STABLE: not folded to a constant)
EXPLAIN (VERBOSE, COSTS OFF) SELECT bigint_obfuscate(42, 'regress_imported', 1);
EXPLAIN (VERBOSE, COSTS OFF) SELECT bigint_deobfuscate(i, 'regress_imported') FROM generate_series(1, 3) i;
-- an error names the key and key id, never the key
SELECT bigint_obfuscate(1, 'regress_imported', 9);
SELECT bigint_obfuscate(0, 'regress_imported', 1);
RESET ROLE;

-- GRANT INSERT lets a role add keys (made in the server, or imported), and
-- nothing more: it still cannot read them
GRANT INSERT ON idgen_secret.idgen_secret_key TO regress_key_user;
SET ROLE regress_key_user;
SELECT idgen_key_create('regress_user_key');
SELECT idgen_key_import('regress_user_key', '\x0f0e0d0c0b0a09080706050403020100');
SELECT key FROM idgen_secret.idgen_secret_key;
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
REVOKE INSERT ON idgen_secret.idgen_secret_key FROM regress_key_user;
SELECT name, key_id FROM idgen_secret.idgen_secret_key WHERE name = 'regress_user_key' ORDER BY key_id;

-- each backend keeps the keys it used; a change through SQL (the triggers)
-- or the functions reaches the next call
SELECT bigint_obfuscate(5, 'regress_imported') AS newest_before;
DELETE FROM idgen_secret.idgen_secret_key WHERE name = 'regress_imported' AND key_id = 8;
SELECT bigint_obfuscate(5, 'regress_imported') AS newest_after_delete;
SELECT bigint_obfuscate(5, 'regress_imported', 7) AS key_id_7;
SELECT bigint_obfuscate(5, 'regress_imported', 8);
SELECT idgen_key_import('regress_imported', '\xffeeddccbbaa99887766554433221100', 8);
SELECT bigint_obfuscate(5, 'regress_imported') AS newest_again;
-- and within one transaction, at once
BEGIN;
SELECT idgen_key_create('regress_in_xact');
SELECT bigint_deobfuscate(bigint_obfuscate(77, 'regress_in_xact'), 'regress_in_xact');
ROLLBACK;
SELECT bigint_obfuscate(77, 'regress_in_xact');

-- a read-only transaction may use keys, not add them
BEGIN READ ONLY;
SELECT bigint_obfuscate(1, 'regress_imported', 1);
SELECT idgen_key_create('regress_read_only');
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;

DROP ROLE regress_key_user;
DELETE FROM idgen_secret.idgen_secret_key WHERE name IN ('regress_made', 'regress_imported', 'regress_user_key', repeat('k', 63),
                                            'régress_ключ', 'Regress_Made');
