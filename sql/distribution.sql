-- Distributing rows by an ID with plain PostgreSQL partitioning, the way a
-- sharded deployment does: by the hash of a ulid, prefixed_id or typeid through
-- its default hash operator class, and by the shard a snowflake carries. Citus
-- itself is tested on a real cluster by test/integration/citus.pl.
SET TimeZone = 'UTC';

-- the default hash operator classes, with the extended (seeded) hash support
-- that hash partitioning calls
SELECT t.typname, c.opcname, c.opcdefault,
       EXISTS (SELECT 1 FROM pg_amproc p WHERE p.amprocfamily = c.opcfamily AND p.amprocnum = 2) AS extended_hash
FROM pg_opclass c JOIN pg_type t ON t.oid = c.opcintype
WHERE c.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'hash')
  AND t.typname IN ('ulid', 'prefixed_id', 'typeid')
ORDER BY t.typname;

-- hash partitions of each type: 40000 new IDs spread evenly over 8 partitions
-- (each within 20% of 5000), equal IDs hash alike, and a lookup by ID prunes
-- to one partition
CREATE TABLE by_ulid (id ulid PRIMARY KEY DEFAULT ulid(), n int) PARTITION BY HASH (id);
CREATE TABLE by_prefixed (id prefixed_id PRIMARY KEY DEFAULT prefixed_id_new('acct'), n int) PARTITION BY HASH (id);
CREATE TABLE by_typeid (id typeid PRIMARY KEY DEFAULT typeid_new('user'), n int) PARTITION BY HASH (id);
DO $$
DECLARE
    parent text;
BEGIN
    FOREACH parent IN ARRAY ARRAY['by_ulid', 'by_prefixed', 'by_typeid'] LOOP
        FOR r IN 0 .. 7 LOOP
            EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES WITH (MODULUS 8, REMAINDER %s)',
                           parent || '_' || r, parent, r);
        END LOOP;
        EXECUTE format('INSERT INTO %I (n) SELECT g FROM generate_series(1, 40000) g', parent);
    END LOOP;
END $$;
SELECT 'ulid' AS type, count(*) AS partitions, min(rows) BETWEEN 4000 AND 6000 AND max(rows) BETWEEN 4000 AND 6000 AS even
FROM (SELECT tableoid, count(*) AS rows FROM by_ulid GROUP BY tableoid) s
UNION ALL
SELECT 'prefixed_id', count(*), min(rows) BETWEEN 4000 AND 6000 AND max(rows) BETWEEN 4000 AND 6000
FROM (SELECT tableoid, count(*) AS rows FROM by_prefixed GROUP BY tableoid) s
UNION ALL
SELECT 'typeid', count(*), min(rows) BETWEEN 4000 AND 6000 AND max(rows) BETWEEN 4000 AND 6000
FROM (SELECT tableoid, count(*) AS rows FROM by_typeid GROUP BY tableoid) s
ORDER BY type;
-- the same bits in another text form hash alike: a ulid cast from its text
-- lands where the stored value is
SELECT count(*) FILTER (WHERE satisfies_hash_partition('by_ulid'::regclass, 8,
                               (SELECT r FROM generate_series(0, 7) r
                                WHERE satisfies_hash_partition('by_ulid'::regclass, 8, r, id)),
                               id::text::ulid)) AS same_partition_of_40000
FROM by_ulid;
-- scanned_partitions(query): the partitions a plan reads
CREATE FUNCTION pg_temp.scanned_partitions(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
    RETURN (SELECT count(*) FROM regexp_matches(plan::text, '"Relation Name": "by_[a-z]+_[0-7]"', 'g'));
END $$;
SELECT id::text AS some_ulid FROM by_ulid WHERE n = 1 \gset
SELECT id::text AS some_typeid FROM by_typeid WHERE n = 1 \gset
SELECT pg_temp.scanned_partitions($$SELECT n FROM by_ulid WHERE id = '$$ || :'some_ulid' || $$'$$) AS ulid_lookup_reads,
       pg_temp.scanned_partitions($$SELECT n FROM by_typeid WHERE id = '$$ || :'some_typeid' || $$'$$) AS typeid_lookup_reads,
       pg_temp.scanned_partitions('SELECT n FROM by_ulid') AS full_scan_reads;
SELECT n FROM by_ulid WHERE id = :'some_ulid';
DROP TABLE by_ulid, by_prefixed, by_typeid;

-- a snowflake's shard as the distribution key: a stored generated column (a
-- distribution column must be a column), and list partitions by shard
CREATE TABLE posts (
    id bigint PRIMARY KEY DEFAULT snowflake(3),
    shard integer GENERATED ALWAYS AS (snowflake_shard(id)) STORED,
    body text
);
INSERT INTO posts (body) VALUES ('default shard');
INSERT INTO posts (id, body) VALUES (snowflake(9), 'explicit shard');
SELECT shard, body FROM posts ORDER BY id;
DROP TABLE posts;
-- the partition key can be the decoder itself (it is IMMUTABLE); the primary
-- key then has to live on each partition
CREATE TABLE events (id bigint NOT NULL DEFAULT snowflake(1), body text)
    PARTITION BY LIST (snowflake_shard(id));
CREATE TABLE events_s1 PARTITION OF events FOR VALUES IN (1);
CREATE TABLE events_s2 PARTITION OF events FOR VALUES IN (2);
INSERT INTO events (body) VALUES ('one');
INSERT INTO events VALUES (snowflake(2), 'two');
INSERT INTO events VALUES (snowflake(5), 'five');
\echo :LAST_ERROR_SQLSTATE
SELECT tableoid::regclass AS partition, body FROM events ORDER BY id;
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE snowflake_shard(id) = 2;
DROP TABLE events;
