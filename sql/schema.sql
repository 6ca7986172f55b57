-- extension objects: labels and comments, schemas, trusted installation
-- (runs last: it drops and re-creates the extension)

-- every function: volatility, strictness, parallel label, comment
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel, obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
ORDER BY p.oid::regprocedure::text;
SELECT c.relname AS view, obj_description(c.oid, 'pg_class') IS NOT NULL AS commented
FROM pg_class c
JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
ORDER BY c.relname;

-- a database on the first release upgrades in place, keeping its columns' defaults
DROP EXTENSION idgen;
CREATE EXTENSION idgen VERSION '0.1.0';
SELECT extversion FROM pg_extension WHERE extname = 'idgen';
SELECT to_regprocedure('snowflake(integer)') IS NULL AS no_snowflake_yet;
CREATE TABLE upgrade_orders (id uuid PRIMARY KEY DEFAULT uuid_v7(), item text);
INSERT INTO upgrade_orders (item) VALUES ('before');
ALTER EXTENSION idgen UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'idgen';
INSERT INTO upgrade_orders (item) VALUES ('after');
SELECT item, uuid_v7_time(id) IS NOT NULL AS v7 FROM upgrade_orders ORDER BY id;
ALTER TABLE upgrade_orders ADD COLUMN seq bigint DEFAULT snowflake(9);
SELECT count(DISTINCT snowflake_shard(seq)) AS shards, min(snowflake_shard(seq)) AS shard FROM upgrade_orders;
DROP TABLE upgrade_orders;

-- installation into a chosen schema, as a migration would
DROP EXTENSION idgen;
CREATE SCHEMA ids;
CREATE EXTENSION idgen SCHEMA ids;
SELECT ids.uuid_v7_time(ids.uuid_v7()) IS NOT NULL AS works_in_schema;
SELECT count(*) AS views_in_schema FROM pg_views WHERE schemaname = 'ids' AND viewname = 'idgen_stats';
ALTER EXTENSION idgen SET SCHEMA public;
\echo :LAST_ERROR_SQLSTATE
DROP EXTENSION idgen;
DROP SCHEMA ids;

-- trusted: a database owner who is not a superuser may create it
CREATE ROLE regress_idgen_owner LOGIN NOSUPERUSER;
SELECT current_database() AS db \gset
GRANT CREATE ON DATABASE :"db" TO regress_idgen_owner;
SET ROLE regress_idgen_owner;
CREATE SCHEMA owner_ids;
CREATE EXTENSION idgen SCHEMA owner_ids;
SELECT owner_ids.uuid_v7() IS NOT NULL AS owner_can_mint;
SELECT owner_ids.snowflake(2) > 0 AS owner_can_mint_snowflakes;
DROP EXTENSION idgen;
DROP SCHEMA owner_ids;
RESET ROLE;
REVOKE CREATE ON DATABASE :"db" FROM regress_idgen_owner;
DROP ROLE regress_idgen_owner;
CREATE EXTENSION idgen;
