-- Casts to and from bytea (0.8.0): ulid both ways, its 16 bytes in order;
-- prefixed_id and typeid to bytea only, the 16 bytes of their cast to uuid.
-- All explicit, as PostgreSQL 19's casts between uuid and bytea; section 3
-- is the evidence, the same kind of matrix as text_params.sql.

-- the casts
SELECT c.castsource::regtype AS source, c.casttarget::regtype AS target,
       c.castcontext AS context, c.castmethod AS method, c.castfunc::regprocedure AS function
FROM pg_cast c
WHERE (c.castsource = 'bytea'::regtype AND c.casttarget IN ('ulid'::regtype, 'prefixed_id'::regtype, 'typeid'::regtype))
   OR (c.casttarget = 'bytea'::regtype AND c.castsource IN ('ulid'::regtype, 'prefixed_id'::regtype, 'typeid'::regtype))
ORDER BY 1::text, 2::text;

-- 1. ulid: the 16 bytes, in the ULID's (and the uuid's) order, both ways
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::bytea AS bytes,
       ulid_to_bytea('01ARZ3NDEKTSV4RRFFQ69G5FAV') = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::bytea AS function_is_cast,
       '\x01563e3ab5d3d6764c61efb99302bd5b'::bytea::ulid AS from_bytes,
       '\x00000000000000000000000000000000'::bytea::ulid AS smallest,
       '\xffffffffffffffffffffffffffffffff'::bytea::ulid AS largest;
SELECT count(*) AS ulids,
       count(*) FILTER (WHERE u::bytea::ulid = u) AS round_trips,
       count(*) FILTER (WHERE encode(u::bytea, 'hex') = replace(u::uuid::text, '-', '')) AS same_bytes_as_uuid,
       count(*) FILTER (WHERE octet_length(u::bytea) = 16) AS sixteen_bytes,
       count(*) FILTER (WHERE u::bytea = ulid_send(u)) AS same_as_binary_form
FROM (SELECT ulid() AS u FROM generate_series(1, 1000)) s;
-- byte order is time order, as bytea compares
SELECT bool_and(a < b) AS bytea_order_is_ulid_order
FROM (SELECT u::bytea AS a, lead(u::bytea) OVER (ORDER BY u) AS b
      FROM (SELECT ulid_at(ts) AS u FROM generate_series('2024-01-01'::timestamptz, '2024-01-02', '1 hour') ts) s) p
WHERE b IS NOT NULL;
SELECT NULL::ulid::bytea IS NULL AS null_to, NULL::bytea::ulid IS NULL AS null_from,
       ulid_to_bytea(NULL) IS NULL AS fn_null_to, ulid_from_bytea(NULL) IS NULL AS fn_null_from;
-- a domain over ulid casts as ulid does; its CHECK applies from bytea
CREATE DOMAIN bc_ulid AS ulid CHECK (VALUE > '00000000000000000000000000');
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::bc_ulid::bytea AS domain_to,
       '\x01563e3ab5d3d6764c61efb99302bd5b'::bytea::bc_ulid AS domain_from;
SELECT '\x00000000000000000000000000000000'::bytea::bc_ulid;
-- a wrong length: 22P03 (as PostgreSQL 19's bytea -> uuid)
\set VERBOSITY default
SELECT ''::bytea::ulid;
\echo :LAST_ERROR_SQLSTATE
SELECT '\x01563e3ab5d3d6764c61efb99302bd'::bytea::ulid;
SELECT '\x01563e3ab5d3d6764c61efb99302bd5b00'::bytea::ulid;
SELECT ulid_from_bytea('\x0102');
-- 26 bytes: maybe ULID text, and the hint says how to read it
SELECT convert_to('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'UTF8')::ulid;
SELECT convert_from(convert_to('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'UTF8'), 'UTF8')::ulid AS read_as_text;
\set VERBOSITY terse

-- 2. prefixed_id and typeid: to bytea, the 16 bytes of the cast to uuid
-- (the prefix is dropped); no cast from bytea, which carries no prefix
SELECT 'acct_039srkj01e44uynszf2f2njh3'::prefixed_id::bytea AS prefixed_bytes,
       'user_01h455vb4pex5vsknk084sn02q'::typeid::bytea AS typeid_bytes,
       '01h455vb4pex5vsknk084sn02q'::typeid::bytea AS empty_prefix_bytes;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE p::bytea = uuid_send(p::uuid) AND prefixed_id_to_bytea(p) = p::bytea) AS prefixed_same_as_uuid,
       count(*) FILTER (WHERE t::bytea = uuid_send(t::uuid) AND typeid_to_bytea(t) = t::bytea) AS typeid_same_as_uuid,
       count(*) FILTER (WHERE prefixed_id_from_uuid('acct', p::bytea::ulid::uuid) = p) AS rebuilt_with_prefix
FROM (SELECT prefixed_id_new('acct') AS p, typeid_new('user') AS t FROM generate_series(1, 100)) s;
SELECT prefixed_id_define('bc_acct_id', 'bcacct') AS prefixed_domain,
       typeid_define('bc_user_id', 'bcuser') AS typeid_domain;
SELECT prefixed_id_from_uuid('bcacct', '0188a5eb-5d4b-7000-8000-000000000001')::bc_acct_id::bytea AS prefixed_domain_to,
       typeid_from_uuid('bcuser', '0188a5eb-5d4b-7000-8000-000000000001')::bc_user_id::bytea AS typeid_domain_to;
SELECT NULL::prefixed_id::bytea IS NULL AS prefixed_null, NULL::typeid::bytea IS NULL AS typeid_null;
SELECT '\x0188a5eb5d4b70008000000000000001'::bytea::prefixed_id;
SELECT '\x0188a5eb5d4b70008000000000000001'::bytea::typeid;

-- 3. explicit or assignment. cell(query, parameter type, value): PREPAREs
-- query with one parameter of that type and runs it with value; the first
-- column of the first row, or the error ('SQLSTATE: message' at PREPARE,
-- 'at run SQLSTATE: message' when it runs)
CREATE FUNCTION pg_temp.cell(query text, ptype text, val text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    BEGIN
        EXECUTE format('PREPARE bc_cell(%s) AS %s', ptype, query);
    EXCEPTION WHEN OTHERS THEN
        RETURN SQLSTATE || ': ' || SQLERRM;
    END;
    BEGIN
        EXECUTE format('EXECUTE bc_cell(%L)', val) INTO r;
    EXCEPTION WHEN OTHERS THEN
        r := 'at run ' || SQLSTATE || ': ' || SQLERRM;
    END;
    DEALLOCATE bc_cell;
    RETURN r;
END
$$;
CREATE TABLE bc_u (c ulid);
CREATE TABLE bc_du (c bc_ulid);
CREATE TABLE bc_p (c prefixed_id);
CREATE TABLE bc_bytes (c bytea);
CREATE FUNCTION bc_f(ulid) RETURNS text LANGUAGE sql IMMUTABLE AS $$SELECT 'ulid'$$;
CREATE FUNCTION bc_f(typeid) RETURNS text LANGUAGE sql IMMUTABLE AS $$SELECT 'typeid'$$;
INSERT INTO bc_u VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV');
INSERT INTO bc_p VALUES ('acct_039srkj01e44uynszf2f2njh3');
-- a bytea that is no ULID anyone minted: the MD5 of a word, 16 bytes too
INSERT INTO bc_bytes VALUES ('\x01563e3ab5d3d6764c61efb99302bd5b'), (decode(md5('password'), 'hex'));
CREATE TABLE bc_queries (what text, query text, ptype text, val text, ord numeric);
INSERT INTO bc_queries VALUES
  ('INSERT ulid VALUES ($1 bytea)', 'INSERT INTO bc_u VALUES ($1) RETURNING c::text', 'bytea', '\x01563e3ab5d3d6764c61efb99302bd5b', 1),
  ('INSERT ulid domain VALUES ($1 bytea)', 'INSERT INTO bc_du VALUES ($1) RETURNING c::text', 'bytea', '\x01563e3ab5d3d6764c61efb99302bd5b', 2),
  ('INSERT ulid SELECT bytea column', 'WITH i AS (INSERT INTO bc_u SELECT c FROM bc_bytes WHERE $1 RETURNING c) SELECT string_agg(c::text, '' '' ORDER BY c) FROM i', 'boolean', 'true', 3),
  ('INSERT ulid SELECT 15 bytes', 'INSERT INTO bc_u SELECT ''\x0102030405060708090a0b0c0d0e0f''::bytea WHERE $1 RETURNING c::text', 'boolean', 'true', 3.5),
  ('INSERT bytea VALUES ($1 ulid)', 'INSERT INTO bc_bytes VALUES ($1) RETURNING encode(c, ''hex'')', 'ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 4),
  ('INSERT bytea SELECT prefixed_id column', 'INSERT INTO bc_bytes SELECT c FROM bc_p WHERE $1 RETURNING encode(c, ''hex'')', 'boolean', 'true', 5),
  ('UPDATE ulid SET c = $1 bytea', 'WITH u AS (UPDATE bc_u SET c = $1 RETURNING c) SELECT count(*) FROM u', 'bytea', '\x01563e3ab5d3d6764c61efb99302bd5b', 6),
  ('INSERT ulid VALUES ($1::ulid), bytea', 'INSERT INTO bc_u VALUES ($1::ulid) RETURNING c::text', 'bytea', '\x01563e3ab5d3d6764c61efb99302bd5b', 7),
  ('c = $1 bytea', 'SELECT count(*) FROM bc_u WHERE c = $1', 'bytea', '\x01563e3ab5d3d6764c61efb99302bd5b', 8),
  ('c = $1::ulid, bytea', 'SELECT count(*) FROM bc_u WHERE c = $1::ulid', 'bytea', '\x01563e3ab5d3d6764c61efb99302bd5b', 9),
  ('ulid JOIN bytea', 'SELECT count(*) FROM bc_u a JOIN bc_bytes b ON a.c = b.c WHERE $1', 'boolean', 'true', 10),
  ('bc_f($1 bytea), overloads ulid and typeid', 'SELECT bc_f($1)', 'bytea', '\x01563e3ab5d3d6764c61efb99302bd5b', 11),
  ('encode($1 ulid, hex)', 'SELECT encode($1, ''hex'')', 'ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 12),
  ('length($1 ulid)', 'SELECT length($1)', 'ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 13);
-- as shipped (explicit): nothing converts without being asked; a driver's
-- bytea parameter takes $1::ulid
SELECT what, pg_temp.cell(query, ptype, val) AS explicit FROM bc_queries ORDER BY ord;
-- as assignment casts (rolled back): INSERT and UPDATE take any 16 bytes into
-- a ulid column (the MD5 included), ulid and prefixed_id values go into a
-- bytea column as bytes (the prefix lost), and a wrong length fails only when
-- a row has it; comparisons, joins and overloads gain nothing (42883 as before)
BEGIN;
ALTER EXTENSION idgen DROP CAST (bytea AS ulid);
ALTER EXTENSION idgen DROP CAST (ulid AS bytea);
ALTER EXTENSION idgen DROP CAST (prefixed_id AS bytea);
DROP CAST (bytea AS ulid);
DROP CAST (ulid AS bytea);
DROP CAST (prefixed_id AS bytea);
CREATE CAST (bytea AS ulid) WITH FUNCTION ulid_from_bytea(bytea) AS ASSIGNMENT;
CREATE CAST (ulid AS bytea) WITH FUNCTION ulid_to_bytea(ulid) AS ASSIGNMENT;
CREATE CAST (prefixed_id AS bytea) WITH FUNCTION prefixed_id_to_bytea(prefixed_id) AS ASSIGNMENT;
SELECT what, pg_temp.cell(query, ptype, val) AS assignment FROM bc_queries ORDER BY ord;
ROLLBACK;
SELECT count(*) AS explicit_casts FROM pg_cast
WHERE castcontext = 'e' AND ((castsource = 'bytea'::regtype AND casttarget = 'ulid'::regtype)
   OR (casttarget = 'bytea'::regtype AND castsource IN ('ulid'::regtype, 'prefixed_id'::regtype, 'typeid'::regtype)));

DROP FUNCTION bc_f(ulid), bc_f(typeid);
DROP TABLE bc_u, bc_du, bc_p, bc_bytes, bc_queries;
DROP DOMAIN bc_ulid, bc_acct_id, bc_user_id;
