-- bigint_obfuscate / bigint_deobfuscate: every error, with its SQLSTATE (the
-- key errors are in secret_key_errors)
\set VERBOSITY default
SELECT idgen_key_import('regress_obf_err', '\x000102030405060708090a0b0c0d0e0f');

-- ids and public ids are 1 to 2^63 - 1: 0 and negatives are 22003
SELECT bigint_obfuscate(0, 'regress_obf_err');
\echo :LAST_ERROR_SQLSTATE
SELECT bigint_obfuscate(-1, 'regress_obf_err', 1);
\echo :LAST_ERROR_SQLSTATE
SELECT bigint_obfuscate(-9223372036854775808, 'regress_obf_err');
\echo :LAST_ERROR_SQLSTATE
SELECT bigint_deobfuscate(0, 'regress_obf_err');
\echo :LAST_ERROR_SQLSTATE
SELECT bigint_deobfuscate(-42, 'regress_obf_err', 1);
\echo :LAST_ERROR_SQLSTATE

-- a missing key comes first
SELECT bigint_obfuscate(0, 'regress_obf_missing');
\echo :LAST_ERROR_SQLSTATE

DELETE FROM idgen_secret.idgen_secret_key WHERE name = 'regress_obf_err';
