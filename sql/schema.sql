-- extension objects: labels and comments, schemas, trusted installation
-- (runs last: it drops and re-creates the extension)

-- the extension's member objects, as (catalog, object id)
CREATE TEMP VIEW idgen_members AS
SELECT d.classid, d.objid
FROM pg_depend d
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
WHERE d.deptype = 'e';

-- every function: volatility, strictness, parallel label, leakproofness, comment
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel, p.proleakproof AS leakproof,
       obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p
JOIN idgen_members m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
ORDER BY p.oid::regprocedure::text;
SELECT c.relname AS relation, c.relkind AS kind, obj_description(c.oid, 'pg_class') IS NOT NULL AS commented
FROM pg_class c
JOIN idgen_members m ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
ORDER BY c.relname;
-- the registry is a configuration table: pg_dump keeps its rows
SELECT extconfig::regclass[] AS dumped_with_data FROM pg_extension WHERE extname = 'idgen';

-- types, operators and casts: comments, and the planner's facts about each operator
SELECT t.typname AS type, t.typlen AS length, t.typbyval AS by_value, t.typalign AS align,
       t.typstorage AS storage, obj_description(t.oid, 'pg_type') IS NOT NULL AS commented
FROM pg_type t
JOIN idgen_members m ON m.classid = 'pg_type'::regclass AND m.objid = t.oid
-- array and row types come with their element type or table (and are members
-- of the extension themselves only from PostgreSQL 18 on)
WHERE t.typcategory <> 'A' AND t.typrelid = 0
ORDER BY t.typname;
SELECT o.oid::regoperator AS operator, o.oprcom::regoperator AS commutator,
       o.oprnegate::regoperator AS negator, o.oprrest AS restrict, o.oprjoin AS join,
       o.oprcanmerge AS merges, o.oprcanhash AS hashes,
       obj_description(o.oid, 'pg_operator') IS NOT NULL AS commented
FROM pg_operator o
JOIN idgen_members m ON m.classid = 'pg_operator'::regclass AND m.objid = o.oid
ORDER BY o.oid::regoperator::text;
SELECT c.castsource::regtype AS source, c.casttarget::regtype AS target,
       c.castcontext AS context, c.castmethod AS method,
       obj_description(c.oid, 'pg_cast') IS NOT NULL AS commented
FROM pg_cast c
JOIN idgen_members m ON m.classid = 'pg_cast'::regclass AND m.objid = c.oid
ORDER BY c.castsource::regtype::text, c.casttarget::regtype::text;
-- default operator classes, and the support functions each index method needs
SELECT oc.opcintype::regtype AS type, am.amname AS method, oc.opcname AS opclass, oc.opcdefault AS is_default,
       array_agg(ap.amprocnum ORDER BY ap.amprocnum) AS support_functions
FROM pg_opclass oc
JOIN pg_am am ON am.oid = oc.opcmethod
JOIN pg_amproc ap ON ap.amprocfamily = oc.opcfamily
WHERE oc.opcintype IN ('ulid'::regtype, 'prefixed_id'::regtype, 'ksuid'::regtype, 'objectid'::regtype, 'rsxid'::regtype)
GROUP BY oc.opcintype, am.amname, oc.opcname, oc.opcdefault
ORDER BY oc.opcintype::regtype::text, am.amname;

-- every member object of the extension carries a COMMENT (functions, types,
-- operators, casts, operator classes and families, tables, views, the event
-- trigger): none is listed here
SELECT pg_describe_object(m.classid, m.objid, 0) AS uncommented
FROM idgen_members m
WHERE obj_description(m.objid, m.classid::regclass::text) IS NULL
  AND NOT EXISTS (SELECT FROM pg_type t WHERE m.classid = 'pg_type'::regclass AND t.oid = m.objid
                  AND (t.typcategory = 'A' OR t.typrelid <> 0))
ORDER BY 1;
-- operator classes and families, with their comments
SELECT pg_describe_object(m.classid, m.objid, 0) AS object,
       obj_description(m.objid, m.classid::regclass::text) AS comment
FROM idgen_members m
WHERE m.classid IN ('pg_opclass'::regclass, 'pg_opfamily'::regclass)
ORDER BY 1;
-- the domains that prefixed_id_define() and typeid_define() make carry a COMMENT too
SELECT prefixed_id_define('schema_account_id', 'schacct'), prefixed_id_define('schema_token', 'schtok', true),
       typeid_define('schema_user_id', 'schuser');
SELECT t.oid::regtype AS domain, obj_description(t.oid, 'pg_type') AS comment
FROM pg_type t WHERE t.oid IN ('schema_account_id'::regtype, 'schema_token'::regtype, 'schema_user_id'::regtype)
ORDER BY 1::text;
DROP DOMAIN schema_account_id, schema_token, schema_user_id;
-- no internal helper in the extension's surface: every function is one a user calls,
-- a type's or operator's implementation, or a trigger's
SELECT to_regprocedure('prefixed_domain_define(text,text,text,boolean,name)') IS NULL AS no_domain_helper;

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

-- each release upgrades from the one before it
DROP EXTENSION idgen;
CREATE EXTENSION idgen VERSION '0.2.0';
SELECT to_regtype('ulid') IS NULL AS no_ulid_yet;
CREATE TABLE upgrade_events (id bigint PRIMARY KEY DEFAULT snowflake(9), kind text);
INSERT INTO upgrade_events (kind) VALUES ('before');
ALTER EXTENSION idgen UPDATE TO '0.3.0';
ALTER TABLE upgrade_events ADD COLUMN ulid_id ulid UNIQUE DEFAULT ulid();
INSERT INTO upgrade_events (kind) VALUES ('after');
SELECT kind, snowflake_shard(id) AS shard, ulid_time(ulid_id) IS NOT NULL AS has_ulid
FROM upgrade_events ORDER BY id;
DROP TABLE upgrade_events;

DROP EXTENSION idgen;
CREATE EXTENSION idgen VERSION '0.3.0';
SELECT to_regtype('prefixed_id') IS NULL AS no_prefixed_id_yet;
CREATE TABLE upgrade_items (id ulid PRIMARY KEY DEFAULT ulid(), name text);
INSERT INTO upgrade_items (name) VALUES ('before');
ALTER EXTENSION idgen UPDATE TO '0.4.0';
SELECT prefixed_id_define('upgrade_item_ref', 'item');
ALTER TABLE upgrade_items ADD COLUMN ref upgrade_item_ref;
UPDATE upgrade_items SET ref = DEFAULT;
INSERT INTO upgrade_items (name) VALUES ('after');
SELECT name, prefixed_id_prefix(ref) AS prefix, prefixed_id_time(ref) IS NOT NULL AS ordered
FROM upgrade_items ORDER BY id;
DROP TABLE upgrade_items;
DROP DOMAIN upgrade_item_ref;

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
CREATE TABLE owner_ids.owner_events (id owner_ids.ulid PRIMARY KEY DEFAULT owner_ids.ulid());
INSERT INTO owner_ids.owner_events DEFAULT VALUES;
SELECT count(*) AS owner_can_key_by_ulid FROM owner_ids.owner_events;
DROP TABLE owner_ids.owner_events;
SET search_path = owner_ids;
SELECT owner_ids.prefixed_id_define('owner_ref', 'own') AS owner_can_define;
RESET search_path;
SELECT owner_ids.prefixed_id_prefix(owner_ids.prefixed_id_new('own')) AS prefix,
       (SELECT count(*) FROM owner_ids.prefixed_id_registry) AS registered;
-- and manages the secret keys: adds one, reads its row, deletes it
SELECT owner_ids.idgen_key_create('owner_key') AS key_id;
SELECT octet_length(key) AS key_bytes, owner_ids.bigint_obfuscate(1, 'owner_key') > 0 AS owner_can_obfuscate
FROM idgen_secret.idgen_secret_key WHERE name = 'owner_key';
DELETE FROM idgen_secret.idgen_secret_key WHERE name = 'owner_key';
DROP DOMAIN owner_ids.owner_ref;
DROP EXTENSION idgen;
DROP SCHEMA owner_ids;
RESET ROLE;
REVOKE CREATE ON DATABASE :"db" FROM regress_idgen_owner;
DROP ROLE regress_idgen_owner;
CREATE EXTENSION idgen;
