-- uuid_v7_mask / uuid_v7_unmask (UUIDv47's facade of a UUIDv7) and
-- ulid_mask / ulid_unmask (idgen's mask of a ULID's time): fixed outputs
-- under a known key, round trips keeping all but the time and the version,
-- the key and the key id matter. UUIDv47's published facades, the round trip
-- of 1,000,000 values and key secrecy: test/tap/uuidv47_secrecy.pl.

-- the key 00 01 .. 0f; facades of UUIDv7s at fixed times and of fixed bits
SELECT idgen_key_import('regress_uuidv47', '\x000102030405060708090a0b0c0d0e0f');
SELECT id, uuid_v7_mask(id, 'regress_uuidv47') AS facade,
       uuid_v7_unmask(uuid_v7_mask(id, 'regress_uuidv47'), 'regress_uuidv47') = id AS back
FROM unnest(ARRAY['00000000-0000-7000-8000-000000000000', '0193f1a2-b3c4-7d5e-8f70-8192a3b4c5d6',
                  'ffffffff-ffff-7fff-bfff-ffffffffffff', '01936b2e-1c00-7000-8000-000000000000']::uuid[]) id;
SELECT uuid_v7_mask(uuid_v7_boundary('2025-01-01 00:00:00+00'), 'regress_uuidv47') AS new_year,
       uuid_v7_mask(uuid_v7_boundary('2025-01-01 00:00:00.001+00'), 'regress_uuidv47') AS one_ms_later;

-- 100,000 fresh UUIDv7s: every facade is version 4 with the RFC variant,
-- keeps the v7's random bits and its version nibble's low bits, shows
-- another time, and unmasks to the v7; no two alike
CREATE TABLE regress_facades AS
    SELECT id, uuid_v7_mask(id, 'regress_uuidv47') AS facade
    FROM (SELECT uuid_v7() AS id FROM generate_series(1, 100000)) g;
SELECT count(*) AS ids, count(DISTINCT facade) AS distinct_facades,
       count(*) FILTER (WHERE substr(facade::text, 15, 1) <> '4') AS not_v4,
       count(*) FILTER (WHERE substr(facade::text, 20, 1) NOT IN ('8', '9', 'a', 'b')) AS not_rfc_variant,
       count(*) FILTER (WHERE substr(facade::text, 16) <> substr(id::text, 16)) AS random_bits_changed,
       count(*) FILTER (WHERE left(facade::text, 13) = left(id::text, 13)) AS time_shown,
       count(*) FILTER (WHERE uuid_v7_unmask(facade, 'regress_uuidv47') <> id) AS wrong
FROM regress_facades;
-- a facade carries no time: uuid_v7_time() reads none, and facades of
-- consecutive v7s are in no order (about half the steps go up)
SELECT count(uuid_v7_time(facade)) AS times_read FROM regress_facades;
SELECT count(*) FILTER (WHERE facade > lag) BETWEEN 47000 AND 53000 AS about_half_up
FROM (SELECT facade, lag(facade) OVER (ORDER BY id) FROM regress_facades) s WHERE lag IS NOT NULL;

-- another key, or another key id of the name, gives other facades, and
-- never unmasks to the v7
SELECT idgen_key_create('regress_uuidv47_other') AS key_id;
SELECT count(*) FILTER (WHERE uuid_v7_mask(id, 'regress_uuidv47_other') = facade) AS same,
       count(*) FILTER (WHERE uuid_v7_unmask(facade, 'regress_uuidv47_other') = id) AS unmasked,
       count(*) FILTER (WHERE left(uuid_v7_unmask(facade, 'regress_uuidv47_other')::text, 13) = left(id::text, 13)) AS time_recovered
FROM regress_facades;

-- rotation: a new key id becomes the default for new facades; facades made
-- before unmask with their key id, and the stored v7s never change
SELECT idgen_key_create('regress_uuidv47') AS key_id;
SELECT count(*) FILTER (WHERE uuid_v7_mask(id, 'regress_uuidv47') = facade) AS same_as_before,
       count(*) FILTER (WHERE uuid_v7_mask(id, 'regress_uuidv47', 1) = facade) AS key_id_1,
       count(*) FILTER (WHERE uuid_v7_unmask(facade, 'regress_uuidv47', 1) = id) AS unmasked_with_key_id_1,
       count(*) FILTER (WHERE uuid_v7_mask(id, 'regress_uuidv47', 2) = uuid_v7_mask(id, 'regress_uuidv47')) AS newest_is_2
FROM regress_facades;
DROP TABLE regress_facades;

-- a call site keeps its key until the keys change: in one transaction, a
-- PL/pgSQL expression masks under key id 2, then under key id 3 once it is
-- made, and under key id 2 again once key id 3 is deleted
CREATE FUNCTION regress_mask(id uuid) RETURNS uuid LANGUAGE plpgsql AS
    $$ BEGIN RETURN uuid_v7_mask(id, 'regress_uuidv47'); END $$;
BEGIN;
SELECT regress_mask(uuid_v7_boundary('2025-01-01 00:00:00+00')) = uuid_v7_mask(uuid_v7_boundary('2025-01-01 00:00:00+00'), 'regress_uuidv47', 2) AS key_id_2;
SELECT idgen_key_create('regress_uuidv47') AS key_id;
SELECT regress_mask(uuid_v7_boundary('2025-01-01 00:00:00+00')) = uuid_v7_mask(uuid_v7_boundary('2025-01-01 00:00:00+00'), 'regress_uuidv47', 3) AS key_id_3;
DELETE FROM idgen_secret.idgen_secret_key WHERE name = 'regress_uuidv47' AND key_id = 3;
SELECT regress_mask(uuid_v7_boundary('2025-01-01 00:00:00+00')) = uuid_v7_mask(uuid_v7_boundary('2025-01-01 00:00:00+00'), 'regress_uuidv47', 2) AS key_id_2_again;
ROLLBACK;
DROP FUNCTION regress_mask(uuid);

-- ULIDs under the key 00 01 .. 0f: the unit tests' frozen outputs
-- (test/unit/uuidv47_test.cpp), as text
SELECT id, ulid_mask(id, 'regress_uuidv47', 1) AS masked, ulid_unmask(ulid_mask(id, 'regress_uuidv47', 1), 'regress_uuidv47', 1) = id AS back
FROM unnest(ARRAY['\x00000000000000000000000000000000', '\x01890a5d8a4e7f3c2b1a09f8e7d6c5b4',
                  '\x7fffffffffffffffffffffffffffffff', '\xffffffffffffffffffffffffffffffff',
                  '\x0193f1a2b3c4d5e6f708192a3b4c5d6e']::bytea[]::ulid[]) id;

-- 100,000 fresh ULIDs: the 80 random bits kept, the time moved, unmasked
-- back; a wrong key never unmasks
CREATE TABLE regress_masked AS
    SELECT id, ulid_mask(id, 'regress_uuidv47') AS masked FROM (SELECT ulid() AS id FROM generate_series(1, 100000)) g;
SELECT count(*) AS ids, count(DISTINCT masked) AS distinct_masked,
       count(*) FILTER (WHERE substr(masked::text, 11) <> substr(id::text, 11)) AS random_bits_changed,
       count(*) FILTER (WHERE ulid_time(masked) = ulid_time(id)) AS time_shown,
       count(*) FILTER (WHERE ulid_unmask(masked, 'regress_uuidv47') <> id) AS wrong,
       count(*) FILTER (WHERE ulid_unmask(masked, 'regress_uuidv47_other') = id) AS other_key_unmasked,
       count(*) FILTER (WHERE ulid_unmask(masked, 'regress_uuidv47', 1) = id) AS older_key_id_unmasked
FROM regress_masked;
DROP TABLE regress_masked;

-- NULL gives NULL
SELECT uuid_v7_mask(NULL, 'regress_uuidv47') IS NULL AS a, uuid_v7_mask(uuid_v7(), NULL) IS NULL AS b,
       uuid_v7_unmask(uuid_v7(), 'regress_uuidv47', NULL) IS NULL AS c, ulid_mask(NULL, 'regress_uuidv47') IS NULL AS d,
       ulid_unmask(ulid(), NULL, 1) IS NULL AS e;

-- in a parallel query, workers read the key as the leader does
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE TABLE regress_parallel_v7 AS SELECT uuid_v7() AS id FROM generate_series(1, 50000);
ANALYZE regress_parallel_v7;
EXPLAIN (COSTS OFF) SELECT count(*) FROM regress_parallel_v7 WHERE uuid_v7_unmask(uuid_v7_mask(id, 'regress_uuidv47'), 'regress_uuidv47') = id;
SELECT count(*) FROM regress_parallel_v7 WHERE uuid_v7_unmask(uuid_v7_mask(id, 'regress_uuidv47'), 'regress_uuidv47') = id;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE regress_parallel_v7;

DELETE FROM idgen_secret.idgen_secret_key WHERE name IN ('regress_uuidv47', 'regress_uuidv47_other');
