-- bigint_obfuscate / bigint_deobfuscate: the keyed permutation of 1 .. 2^63 - 1
-- (feistel63): fixed outputs under a known key, a permutation (round trips,
-- no collision), positive outputs, the key and the key id matter. The round
-- trip of 10 million values: test/tap/secret_key.pl.

-- the key 00 01 .. 0f: the unit tests' frozen outputs (test/unit/feistel63_test.cpp)
SELECT idgen_key_import('regress_vectors', '\x000102030405060708090a0b0c0d0e0f');
SELECT id, bigint_obfuscate(id, 'regress_vectors') AS public_id
FROM unnest(ARRAY[1, 2, 3, 42, 1000, 2147483648, 4294967296, 4611686018427387904, 9223372036854775807]::bigint[]) id;
SELECT bigint_deobfuscate(3669710137412786131, 'regress_vectors'), bigint_deobfuscate(1322111535346398747, 'regress_vectors');

-- a permutation: 100,000 ids in a row and 100,000 spread over the range
-- come back, with no two alike, every public id in 1 .. 2^63 - 1
SELECT idgen_key_create('regress_perm') AS key_id;
SELECT count(*) AS ids, count(DISTINCT p) AS distinct_public, min(p) > 0 AS positive,
       count(*) FILTER (WHERE bigint_deobfuscate(p, 'regress_perm') <> id) AS wrong
FROM (SELECT id, bigint_obfuscate(id, 'regress_perm') AS p
      FROM (SELECT generate_series(1, 100000)::bigint AS id
            UNION ALL
            SELECT 9223372036854775807 - 92233720368547 * g FROM generate_series(0, 99999) g) ids) s;
-- the ends of the range
SELECT bigint_deobfuscate(bigint_obfuscate(1, 'regress_perm'), 'regress_perm') AS one,
       bigint_deobfuscate(bigint_obfuscate(9223372036854775807, 'regress_perm'), 'regress_perm') AS max;
-- any bigint in the range decodes to some id: no authentication
SELECT bigint_obfuscate(bigint_deobfuscate(12345, 'regress_perm'), 'regress_perm') AS back,
       bigint_deobfuscate(9223372036854775807, 'regress_perm') > 0 AS decodes;
-- consecutive ids, public ids in no order: about half the steps go up
SELECT count(*) FILTER (WHERE p > lag) BETWEEN 4700 AND 5300 AS about_half_up
FROM (SELECT p, lag(p) OVER (ORDER BY id) FROM
      (SELECT id, bigint_obfuscate(id, 'regress_perm') AS p FROM generate_series(1, 10001) id) s) t
WHERE lag IS NOT NULL;

-- another key, or another key id of the name, gives other public ids
SELECT idgen_key_create('regress_perm_other') AS key_id;
SELECT count(*) FILTER (WHERE bigint_obfuscate(id, 'regress_perm') = bigint_obfuscate(id, 'regress_perm_other')) AS same,
       count(*) FILTER (WHERE bigint_deobfuscate(bigint_obfuscate(id, 'regress_perm'), 'regress_perm_other') = id) AS decoded
FROM generate_series(1, 1000) id;

-- rotation: a new key id becomes the default; public ids made before
-- decode with their key id
CREATE TABLE regress_rotated AS SELECT id, bigint_obfuscate(id, 'regress_perm') AS p FROM generate_series(1, 1000) id;
SELECT idgen_key_create('regress_perm') AS key_id;
SELECT count(*) FILTER (WHERE bigint_obfuscate(id, 'regress_perm') = p) AS same_as_before,
       count(*) FILTER (WHERE bigint_obfuscate(id, 'regress_perm', 1) = p) AS key_id_1,
       count(*) FILTER (WHERE bigint_deobfuscate(p, 'regress_perm', 1) = id) AS decoded_with_key_id_1,
       count(*) FILTER (WHERE bigint_obfuscate(id, 'regress_perm', 2) = bigint_obfuscate(id, 'regress_perm')) AS newest_is_2
FROM regress_rotated;
DROP TABLE regress_rotated;

-- NULL gives NULL
SELECT bigint_obfuscate(NULL, 'regress_perm') IS NULL AS a, bigint_obfuscate(1, NULL) IS NULL AS b,
       bigint_obfuscate(1, 'regress_perm', NULL) IS NULL AS c, bigint_deobfuscate(NULL, 'regress_perm', 1) IS NULL AS d;

-- in a parallel query, workers read the key as the leader does
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE TABLE regress_parallel_ids AS SELECT generate_series(1, 50000)::bigint AS id;
ANALYZE regress_parallel_ids;
EXPLAIN (COSTS OFF) SELECT count(*) FROM regress_parallel_ids WHERE bigint_deobfuscate(bigint_obfuscate(id, 'regress_vectors'), 'regress_vectors') = id;
SELECT count(*) FROM regress_parallel_ids WHERE bigint_deobfuscate(bigint_obfuscate(id, 'regress_vectors'), 'regress_vectors') = id;
SELECT count(*) FROM regress_parallel_ids WHERE bigint_obfuscate(id, 'regress_vectors') = 3669710137412786131;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE regress_parallel_ids;

DELETE FROM idgen_secret.idgen_secret_key WHERE name IN ('regress_vectors', 'regress_perm', 'regress_perm_other');
