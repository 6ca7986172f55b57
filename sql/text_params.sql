-- text parameters and idgen's types (issue 31): drivers send a string as
-- varchar (pgjdbc's setString), text, or untyped (OID 0, unknown). From 0.7.0
-- text and varchar cast to ulid, prefixed_id and typeid by assignment, so they
-- are stored into columns of these types and of their domains; comparisons
-- take no implicit cast and never become ambiguous (42725).

-- the casts: from text and varchar, by assignment, through the types' input functions
SELECT c.castsource::regtype AS source, c.casttarget::regtype AS target,
       c.castcontext AS context, c.castmethod AS method
FROM pg_cast c
WHERE c.casttarget IN ('ulid'::regtype, 'prefixed_id'::regtype, 'typeid'::regtype)
  AND c.castsource IN ('text'::regtype, 'varchar'::regtype)
ORDER BY 2::text, 1::text;

-- one table per type and per domain: a domain over ulid of our own, and the
-- domains that prefixed_id_define() and typeid_define() make
CREATE DOMAIN tp_ulid AS ulid CHECK (VALUE > '00000000000000000000000000');
SELECT prefixed_id_define('tp_acct_id', 'tpacct') AS prefixed_domain,
       typeid_define('tp_user_id', 'tpuser') AS typeid_domain;
CREATE TABLE tp_values (type text PRIMARY KEY, tab text, val text, big text, ord int);
INSERT INTO tp_values VALUES
  ('ulid', 'tp_u', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 1),
  ('prefixed_id', 'tp_p', prefixed_id_from_uuid('tpacct', '0188a5eb-5d4b-7000-8000-000000000001')::text,
   prefixed_id_from_uuid('tpacct', 'ffffffff-ffff-ffff-ffff-ffffffffffff')::text, 2),
  ('typeid', 'tp_t', typeid_from_uuid('tpuser', '0188a5eb-5d4b-7000-8000-000000000001')::text,
   typeid_from_uuid('tpuser', 'ffffffff-ffff-ffff-ffff-ffffffffffff')::text, 3),
  ('tp_ulid', 'tp_du', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 4),
  ('tp_acct_id', 'tp_dp', prefixed_id_from_uuid('tpacct', '0188a5eb-5d4b-7000-8000-000000000001')::text,
   prefixed_id_from_uuid('tpacct', 'ffffffff-ffff-ffff-ffff-ffffffffffff')::text, 5),
  ('tp_user_id', 'tp_dt', typeid_from_uuid('tpuser', '0188a5eb-5d4b-7000-8000-000000000001')::text,
   typeid_from_uuid('tpuser', 'ffffffff-ffff-ffff-ffff-ffffffffffff')::text, 6);
SELECT type, val FROM tp_values ORDER BY ord;
CREATE TABLE tp_u (c ulid);
CREATE TABLE tp_p (c prefixed_id);
CREATE TABLE tp_t (c typeid);
CREATE TABLE tp_du (c tp_ulid);
CREATE TABLE tp_dp (c tp_acct_id);
CREATE TABLE tp_dt (c tp_user_id);
-- other columns to compare and join with: text, varchar, uuid
CREATE TABLE tp_text (c text);
CREATE TABLE tp_varchar (c varchar);
CREATE TABLE tp_uuid (c uuid);
INSERT INTO tp_text VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV');
INSERT INTO tp_varchar VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV');
INSERT INTO tp_uuid VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid);

-- cell(query, parameter type, value): PREPAREs query with one parameter of
-- that type and executes it with value; the first column of its first row,
-- or the error: 'SQLSTATE: message' when PREPARE refuses it (operator or
-- function resolution), 'at run SQLSTATE: message' when it fails executing
CREATE FUNCTION pg_temp.cell(query text, ptype text, val text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    BEGIN
        EXECUTE format('PREPARE tp_cell(%s) AS %s', ptype, query);
    EXCEPTION WHEN OTHERS THEN
        RETURN SQLSTATE || ': ' || SQLERRM;
    END;
    BEGIN
        EXECUTE format('EXECUTE tp_cell(%L)', val) INTO r;
    EXCEPTION WHEN OTHERS THEN
        r := 'at run ' || SQLSTATE || ': ' || SQLERRM;
    END;
    DEALLOCATE tp_cell;
    RETURN r;
END
$$;

-- 1. assignment: INSERT ... VALUES ($1) with $1 text, varchar or unknown, into
-- every type and domain (each row is read back as text)
SELECT v.type,
       pg_temp.cell(format('INSERT INTO %s VALUES ($1) RETURNING c::text = %L', v.tab, v.val), 'text', v.val) AS "text",
       pg_temp.cell(format('INSERT INTO %s VALUES ($1) RETURNING c::text = %L', v.tab, v.val), 'varchar', v.val) AS "varchar",
       pg_temp.cell(format('INSERT INTO %s VALUES ($1) RETURNING c::text = %L', v.tab, v.val), 'unknown', v.val) AS "unknown"
FROM tp_values v ORDER BY v.ord;
SELECT 'ulid' AS type, count(*) AS rows FROM tp_u UNION ALL SELECT 'prefixed_id', count(*) FROM tp_p
UNION ALL SELECT 'typeid', count(*) FROM tp_t UNION ALL SELECT 'tp_ulid', count(*) FROM tp_du
UNION ALL SELECT 'tp_acct_id', count(*) FROM tp_dp UNION ALL SELECT 'tp_user_id', count(*) FROM tp_dt;
-- UPDATE ... SET c = $1, text and varchar: every row takes the larger value
SELECT v.type,
       pg_temp.cell(format('WITH u AS (UPDATE %s SET c = $1 RETURNING c) SELECT count(*) FILTER (WHERE c::text = %L) FROM u', v.tab, v.big), 'text', v.big) AS "text",
       pg_temp.cell(format('WITH u AS (UPDATE %s SET c = $1 RETURNING c) SELECT count(*) FILTER (WHERE c::text = %L) FROM u', v.tab, v.big), 'varchar', v.big) AS "varchar"
FROM tp_values v ORDER BY v.ord;
-- INSERT ... SELECT from text and varchar columns
INSERT INTO tp_u SELECT c FROM tp_text;
INSERT INTO tp_du SELECT c FROM tp_varchar;
SELECT count(*) AS ulid_rows FROM tp_u;
-- a domain's CHECK still applies after the base type's cast: a ULID of zero
-- bits, a prefixed ID and a TypeID of another prefix
PREPARE tp_ins_du(varchar) AS INSERT INTO tp_du VALUES ($1);
EXECUTE tp_ins_du('00000000000000000000000000');
\echo :LAST_ERROR_SQLSTATE
PREPARE tp_ins_dp(varchar) AS INSERT INTO tp_dp VALUES ($1);
EXECUTE tp_ins_dp('other_' || repeat('0', 25));
PREPARE tp_ins_dt(text) AS INSERT INTO tp_dt VALUES ($1);
EXECUTE tp_ins_dt('other_' || repeat('0', 26));
-- the base type's own rules apply first: TypeID text into a prefixed domain
SELECT val AS typeid_text FROM tp_values WHERE type = 'typeid' \gset
EXECUTE tp_ins_dp(:'typeid_text');
DEALLOCATE tp_ins_du; DEALLOCATE tp_ins_dp; DEALLOCATE tp_ins_dt;
-- bad text through the cast: 22P02 with idgen's own message, for text and varchar
\set VERBOSITY default
PREPARE tp_bad_u(text) AS INSERT INTO tp_u VALUES ($1);
EXECUTE tp_bad_u('01ARZ3NDEKTSV4RRFFQ69G5FAU!');
\echo :LAST_ERROR_SQLSTATE
EXECUTE tp_bad_u('81ARZ3NDEKTSV4RRFFQ69G5FAV');
\echo :LAST_ERROR_SQLSTATE
PREPARE tp_bad_p(varchar) AS UPDATE tp_p SET c = $1;
EXECUTE tp_bad_p('tpacct_zzzzzzzzzzzzzzzzzzzzzzzzz');
\echo :LAST_ERROR_SQLSTATE
PREPARE tp_bad_t(varchar) AS INSERT INTO tp_dt VALUES ($1);
EXECUTE tp_bad_t('tpuser_01ARZ3NDEKTSV4RRFFQ69G5FAV');
\echo :LAST_ERROR_SQLSTATE
DEALLOCATE tp_bad_u; DEALLOCATE tp_bad_p; DEALLOCATE tp_bad_t;
SELECT v.type,
       pg_temp.cell(format('INSERT INTO %s VALUES ($1) RETURNING true', v.tab), 'text', 'not an id') AS "text",
       pg_temp.cell(format('INSERT INTO %s VALUES ($1) RETURNING true', v.tab), 'varchar', 'not an id') AS "varchar"
FROM tp_values v ORDER BY v.ord;
-- a text value that is NULL stores NULL
PREPARE tp_null(varchar) AS INSERT INTO tp_p VALUES ($1) RETURNING c IS NULL AS stored_null;
EXECUTE tp_null(NULL);
DEALLOCATE tp_null;
DELETE FROM tp_p WHERE c IS NULL;

-- COPY reads each type's input function, not a cast: unchanged, and a bad value
-- has the same message
COPY tp_u (c) FROM stdin;
01BX5ZZKBKACTAV9WEVGEMMVRY
\.
COPY tp_dt (c) FROM stdin;
tpuser_01h2xcejqtf2nbrexx3vqjhp41
\.
COPY tp_u (c) FROM stdin;
not-a-ulid
\.
SELECT count(*) AS ulid_rows FROM tp_u;
SELECT count(*) AS typeid_domain_rows FROM tp_dt;

-- 2. comparisons with a parameter of each type, against each idgen type and
-- domain (one row in each table; $1 is that row's value, or for < a larger
-- one). text and varchar: no operator (42883), the same as before 0.7.0;
-- unknown (an untyped literal, or OID 0 from a driver) takes the column's type,
-- but not inside ARRAY[], which makes it text[]. No cell is 42725.
DELETE FROM tp_u; DELETE FROM tp_p; DELETE FROM tp_t; DELETE FROM tp_du; DELETE FROM tp_dp; DELETE FROM tp_dt;
INSERT INTO tp_u SELECT val FROM tp_values WHERE type = 'ulid';
INSERT INTO tp_p SELECT val FROM tp_values WHERE type = 'prefixed_id';
INSERT INTO tp_t SELECT val FROM tp_values WHERE type = 'typeid';
INSERT INTO tp_du SELECT val FROM tp_values WHERE type = 'tp_ulid';
INSERT INTO tp_dp SELECT val FROM tp_values WHERE type = 'tp_acct_id';
INSERT INTO tp_dt SELECT val FROM tp_values WHERE type = 'tp_user_id';
CREATE TABLE tp_ops (op text, query text, uses_big boolean, ord int);
INSERT INTO tp_ops VALUES
  ('c = $1', 'SELECT count(*) FROM %s WHERE c = $1', false, 1),
  ('$1 = c', 'SELECT count(*) FROM %s WHERE $1 = c', false, 2),
  ('c < $1', 'SELECT count(*) FROM %s WHERE c < $1', true, 3),
  ('c IN ($1, $1)', 'SELECT count(*) FROM %s WHERE c IN ($1, $1)', false, 4),
  ('c = ANY(ARRAY[$1])', 'SELECT count(*) FROM %s WHERE c = ANY(ARRAY[$1])', false, 5);
SELECT v.type, o.op,
       pg_temp.cell(format(o.query, v.tab), 'text', CASE WHEN o.uses_big THEN v.big ELSE v.val END) AS "text",
       pg_temp.cell(format(o.query, v.tab), 'varchar', CASE WHEN o.uses_big THEN v.big ELSE v.val END) AS "varchar",
       pg_temp.cell(format(o.query, v.tab), 'unknown', CASE WHEN o.uses_big THEN v.big ELSE v.val END) AS "unknown"
FROM tp_values v, tp_ops o ORDER BY v.ord, o.ord;
-- the ways through for text and varchar: a cast on the parameter, and for
-- arrays an array of the type (as a literal, an untyped one works too)
SELECT v.type,
       pg_temp.cell(format('SELECT count(*) FROM %s WHERE c = $1::%s', v.tab, v.type), 'varchar', v.val) AS "c = $1::type, varchar",
       pg_temp.cell(format('SELECT count(*) FROM %s WHERE c = ANY($1::%s[])', v.tab, v.type), 'varchar[]', '{' || v.val || '}') AS "ANY($1::type[]), varchar[]",
       pg_temp.cell(format('SELECT count(*) FROM %s WHERE c = ANY($1)', v.tab), 'unknown', '{' || v.val || '}') AS "ANY($1), unknown",
       pg_temp.cell(format('SELECT count(*) FROM %s WHERE c = ANY($1)', v.tab), 'text[]', '{' || v.val || '}') AS "ANY($1), text[]"
FROM tp_values v ORDER BY v.ord;
-- as psql shows the JDBC case (setString: varchar) and its way through
PREPARE tp_jdbc(varchar) AS SELECT count(*) FROM tp_u WHERE c = $1;
PREPARE tp_jdbc(varchar) AS SELECT count(*) FROM tp_u WHERE c = $1::ulid;
EXECUTE tp_jdbc('01ARZ3NDEKTSV4RRFFQ69G5FAV');
DEALLOCATE tp_jdbc;
-- untyped literals, as a driver that interpolates them sends
SELECT val AS pval, big AS pbig FROM tp_values WHERE type = 'tp_acct_id' \gset
SELECT count(*) AS literal_eq FROM tp_dp WHERE c = :'pval';
SELECT count(*) AS literal_lt FROM tp_dp WHERE c < :'pbig';
SELECT count(*) AS literal_in FROM tp_dp WHERE c IN (:'pval', :'pbig');

-- 3. joins of each type and domain against text, varchar, uuid and each of the others
CREATE TABLE tp_others (type text, tab text, ord int);
INSERT INTO tp_others SELECT type, tab, ord + 3 FROM tp_values;
INSERT INTO tp_others VALUES ('text', 'tp_text', 1), ('varchar', 'tp_varchar', 2), ('uuid', 'tp_uuid', 3);
SELECT v.type, o.type AS joined,
       pg_temp.cell(format('SELECT count(*) FROM %s a JOIN %s b ON a.c = b.c WHERE $1', v.tab, o.tab), 'boolean', 'true') AS "a.c = b.c"
FROM tp_values v, tp_others o ORDER BY v.ord, o.ord;

-- 4. function resolution: a varchar or text argument finds no function of
-- idgen's types (42883), and none becomes ambiguous when two overloads take
-- two of idgen's types; min() and max() of text columns stay text's
CREATE FUNCTION tp_f(ulid) RETURNS text LANGUAGE sql IMMUTABLE AS $$SELECT 'ulid'$$;
CREATE FUNCTION tp_f(typeid) RETURNS text LANGUAGE sql IMMUTABLE AS $$SELECT 'typeid'$$;
SELECT pg_temp.cell('SELECT tp_f($1)', 'varchar', '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS "tp_f(varchar)",
       pg_temp.cell('SELECT tp_f($1)', 'text', '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS "tp_f(text)",
       pg_temp.cell('SELECT tp_f($1::ulid)', 'varchar', '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS "tp_f($1::ulid)";
SELECT pg_temp.cell('SELECT ulid_time($1)', 'varchar', '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS "ulid_time(varchar)",
       (SELECT pg_typeof(min(c))::text FROM tp_varchar) AS "min(varchar)", (SELECT pg_typeof(max(c))::text FROM tp_text) AS "max(text)";
-- text and varchar with each other keep text's operators
SELECT pg_temp.cell('SELECT count(*) FROM tp_varchar WHERE c = $1', 'varchar', '01arz3ndektsv4rrffq69g5fav') AS "varchar = varchar (case differs)",
       pg_temp.cell('SELECT count(*) FROM tp_text WHERE c = $1', 'varchar', '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS "text = varchar";

-- 5. why not implicit: the varchar casts made implicit (in a transaction that
-- is rolled back). ulid = varchar would resolve, which is what pgjdbc's
-- setString needs; but text stays 42883 (the drivers that send text gain
-- nothing), the overloads of section 4 become ambiguous (42725), and a join
-- of a varchar column parses every row, failing at run time on one that
-- is not an ID of the column's type instead of at PREPARE.
BEGIN;
ALTER EXTENSION idgen DROP CAST (varchar AS ulid);
ALTER EXTENSION idgen DROP CAST (varchar AS prefixed_id);
ALTER EXTENSION idgen DROP CAST (varchar AS typeid);
DROP CAST (varchar AS ulid);
DROP CAST (varchar AS prefixed_id);
DROP CAST (varchar AS typeid);
CREATE CAST (varchar AS ulid) WITH INOUT AS IMPLICIT;
CREATE CAST (varchar AS prefixed_id) WITH INOUT AS IMPLICIT;
CREATE CAST (varchar AS typeid) WITH INOUT AS IMPLICIT;
INSERT INTO tp_varchar SELECT val FROM tp_values WHERE type = 'prefixed_id';
SELECT pg_temp.cell('SELECT count(*) FROM tp_u WHERE c = $1', 'varchar', '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS "ulid = varchar",
       pg_temp.cell('SELECT count(*) FROM tp_u WHERE c = $1', 'text', '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS "ulid = text";
SELECT pg_temp.cell('SELECT tp_f($1)', 'varchar', '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS "tp_f(varchar)";
SELECT pg_temp.cell('SELECT count(*) FROM tp_u a JOIN tp_varchar b ON a.c = b.c WHERE $1', 'boolean', 'true') AS "ulid JOIN varchar",
       pg_temp.cell('SELECT count(*) FROM tp_p a JOIN tp_varchar b ON a.c = b.c WHERE $1', 'boolean', 'true') AS "prefixed_id JOIN varchar";
ROLLBACK;
-- back to the assignment casts
SELECT count(*) AS assignment_casts FROM pg_cast
WHERE castsource = 'varchar'::regtype AND castcontext = 'a'
  AND casttarget IN ('ulid'::regtype, 'prefixed_id'::regtype, 'typeid'::regtype);

DROP FUNCTION tp_f(ulid), tp_f(typeid);
DROP TABLE tp_u, tp_p, tp_t, tp_du, tp_dp, tp_dt, tp_text, tp_varchar, tp_uuid, tp_values, tp_ops, tp_others;
DROP DOMAIN tp_ulid, tp_acct_id, tp_user_id;
