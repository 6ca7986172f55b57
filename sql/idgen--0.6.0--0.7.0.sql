-- idgen 0.6.0 -> 0.7.0 (issue 31): casts from text and varchar to ulid,
-- prefixed_id and typeid, by assignment, so that a driver's string parameter
-- (pgjdbc's setString sends varchar; others send text) can be stored in a
-- column of these types or of a domain over them. None is implicit
-- (sql/text_params.sql holds the evidence; docs/reference.md#casts).
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

CREATE CAST (text AS ulid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (text AS ulid) IS
    'the text read by ulid_in; an invalid one is an error (22P02)';

CREATE CAST (varchar AS ulid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (varchar AS ulid) IS
    'the text read by ulid_in; an invalid one is an error (22P02)';

CREATE CAST (text AS prefixed_id) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (text AS prefixed_id) IS
    'the text read by prefixed_id_in; an invalid one is an error (22P02)';

CREATE CAST (varchar AS prefixed_id) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (varchar AS prefixed_id) IS
    'the text read by prefixed_id_in; an invalid one is an error (22P02)';

CREATE CAST (text AS typeid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (text AS typeid) IS
    'the text read by typeid_in; an invalid one is an error (22P02)';

CREATE CAST (varchar AS typeid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (varchar AS typeid) IS
    'the text read by typeid_in; an invalid one is an error (22P02)';

-- lease origin (issue 32) -----------------------------------------------------
-- Which cluster this database's IDs were minted on, by system identifier, so
-- that the high-water mark of issued IDs crosses pg_upgrade and dump/restore:
-- both carry this table's rows (pg_upgrade its file, pg_dump its data) and
-- neither the lease files nor the WAL. A cluster whose identifier is not the
-- only one listed first raises its snowflake and clock leases, durably, to
-- the clock plus idgen.max_clock_regression (above every ID the old cluster
-- issued up to its shutdown), then lists itself alone; idgen's library does
-- that at the first ID minted in the database (docs/operations.md,
-- "Upgrading PostgreSQL"). System identifier 0 means "not known": a database
-- created by a restore (pg_dump's scripts and pg_restore set row_security
-- off before anything else; few other sessions do), or one holding the SQL
-- edition's state.
CREATE TABLE idgen_lease_origin (
    system_identifier bigint NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT pg_catalog.now()
);
COMMENT ON TABLE idgen_lease_origin IS
    'the cluster whose leases cover the IDs of this database: another (after pg_upgrade or a restore) or 0 (not known) makes the first ID minted here raise the leases above every ID the old cluster issued';
COMMENT ON COLUMN idgen_lease_origin.system_identifier IS
    'pg_control_system().system_identifier of the cluster that minted here, or 0 when not known';
COMMENT ON COLUMN idgen_lease_origin.recorded_at IS 'when the row was recorded';
SELECT pg_catalog.pg_extension_config_dump('idgen_lease_origin', '');
-- Read and written by idgen's library only (as the extension, without
-- privilege checks); its one row is no secret.
GRANT SELECT ON idgen_lease_origin TO PUBLIC;
-- The database may already hold IDs of another cluster (updated after
-- pg_upgrade, or restored from a dump of an earlier version): not known. Only
-- a superuser's update can say so, as only a superuser's install can: a
-- database owner may drop the trusted extension, install 0.6.0 and update
-- it, and "not known" would make the next superuser's mint here move every
-- database's IDs ahead of the clock. Anyone else's update records this
-- cluster.
INSERT INTO idgen_lease_origin (system_identifier)
SELECT CASE WHEN (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) session_user)
            THEN 0 ELSE s.system_identifier END
FROM pg_catalog.pg_control_system() s;
