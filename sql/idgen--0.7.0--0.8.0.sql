-- idgen 0.7.0 -> 0.8.0. Install the 0.8.0 library and restart the server (its
-- shared-memory region changed) before ALTER EXTENSION idgen UPDATE: a
-- server that preloads idgen finds the new functions' C symbols only after
-- the restart. Each change of the release is a block of its own below.
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

-- bytea casts -----------------------------------------------------------------
-- ulid to and from bytea, explicit both ways (as PostgreSQL 19's uuid and
-- bytea; sql/bytea_casts.sql), and prefixed_id and typeid to bytea: the 16
-- bytes of their cast to uuid. No cast from bytea to a prefixed type: 16
-- bytes carry no prefix.

CREATE FUNCTION ulid_to_bytea(id ulid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_ulid_to_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_to_bytea(ulid) IS
    'the 16 bytes of a ULID as bytea, in its order (the cast to bytea)';

CREATE FUNCTION ulid_from_bytea(bytes bytea) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_from_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_from_bytea(bytea) IS
    'the ulid of 16 bytes (the cast from bytea); another length is an error (22P03)';

CREATE CAST (ulid AS bytea) WITH FUNCTION ulid_to_bytea(ulid);
COMMENT ON CAST (ulid AS bytea) IS 'the 16 bytes of the ULID';

CREATE CAST (bytea AS ulid) WITH FUNCTION ulid_from_bytea(bytea);
COMMENT ON CAST (bytea AS ulid) IS
    'the ulid of 16 bytes; another length is an error (22P03)';

CREATE FUNCTION prefixed_id_to_bytea(id prefixed_id) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_prefixed_id_to_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION prefixed_id_to_bytea(prefixed_id) IS
    'the 128 bits of a prefixed ID as 16 bytes, without the prefix (the cast to bytea)';

CREATE CAST (prefixed_id AS bytea) WITH FUNCTION prefixed_id_to_bytea(prefixed_id);
COMMENT ON CAST (prefixed_id AS bytea) IS 'the 128 bits as 16 bytes (the prefix is dropped)';

CREATE FUNCTION typeid_to_bytea(id typeid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_prefixed_id_to_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION typeid_to_bytea(typeid) IS
    'the 128 bits of a TypeID as 16 bytes, without the prefix (the cast to bytea)';

CREATE CAST (typeid AS bytea) WITH FUNCTION typeid_to_bytea(typeid);
COMMENT ON CAST (typeid AS bytea) IS 'the 128 bits as 16 bytes (the prefix is dropped)';

-- ulid() in server order -------------------------------------------------------
-- The setting idgen.ulid_order is the library's (no SQL object); ulid()'s
-- comment names it.
COMMENT ON FUNCTION ulid() IS
    'new ULID from the clock and the CSPRNG; an ID in the same millisecond as the last is the last + 1 (the spec''s monotonic mode), the last of the session, or of the server with idgen.ulid_order = server';

-- idgen_types() ---------------------------------------------------------------

-- ulid, prefixed_id, typeid and every domain over one of them, at any depth
-- (prefixed_id_define()'s, typeid_define()'s, a CREATE DOMAIN's), in every
-- schema: what a client package gives codecs to. A SQL-standard body, bound
-- when the script runs: the three types are held as their OIDs, so it finds
-- them whatever the caller's search_path, and after the schema is renamed.
CREATE FUNCTION idgen_types(
        OUT oid oid,
        OUT array_oid oid,
        OUT schema name,
        OUT name name,
        OUT base oid,
        OUT family text)
    RETURNS SETOF record
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    WITH RECURSIVE found (oid, base, family, depth) AS (
        SELECT b.oid, b.oid, b.family, 0
        FROM (VALUES ('ulid'::pg_catalog.regtype::pg_catalog.oid, 'ulid'::pg_catalog.text),
                     ('prefixed_id'::pg_catalog.regtype::pg_catalog.oid, 'prefixed_id'::pg_catalog.text),
                     ('typeid'::pg_catalog.regtype::pg_catalog.oid, 'typeid'::pg_catalog.text)) b (oid, family)
        UNION ALL
        SELECT t.oid, f.base, f.family, f.depth OPERATOR(pg_catalog.+) 1
        FROM found f JOIN pg_catalog.pg_type t ON t.typbasetype OPERATOR(pg_catalog.=) f.oid
        WHERE t.typtype OPERATOR(pg_catalog.=) 'd')
    SELECT t.oid, t.typarray, n.nspname, t.typname, f.base, f.family
    FROM found f
    JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) f.oid
    JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) t.typnamespace
    ORDER BY f.depth, n.nspname, t.typname;
END;
COMMENT ON FUNCTION idgen_types() IS
    'ulid, prefixed_id, typeid and every domain over one of them (also over another such domain): the OIDs of the type and its array type, schema, name, the idgen type at the bottom (base) and its family';

-- begin family: uuid_v6
-- ============================================================================
-- uuid_v6 and uuid_v8: RFC 9562 UUIDv6 and UUIDv8 on core uuid
-- ============================================================================

CREATE FUNCTION uuid_v6() RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v6'
    LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED;
COMMENT ON FUNCTION uuid_v6() IS
    'new UUIDv6 (RFC 9562) from the clock at 100 ns, with a random clock sequence and random multicast node; strictly increasing per backend, or server-wide with idgen.uuid_v6_order = server';

CREATE FUNCTION uuid_v6_at(ts timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v6_at'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v6_at(timestamptz) IS
    'UUIDv6 for the given instant with a fresh random clock sequence and node, for backfills';

CREATE FUNCTION uuid_v6_boundary(ts timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v6_boundary'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v6_boundary(timestamptz) IS
    'smallest UUIDv6 of the microsecond holding ts (clock sequence and node zero), for range predicates and partition bounds';

CREATE FUNCTION uuid_v6_time(id uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_uuid_v6_time'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v6_time(uuid) IS
    'timestamp embedded in a UUIDv6 or UUIDv1, floored to the microsecond; NULL when the UUID is neither';

CREATE FUNCTION uuid_v6_from_v1(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v6_from_v1'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v6_from_v1(uuid) IS
    'the UUIDv6 with the same time, clock sequence and node as a UUIDv1 (its time fields reordered so that byte order is time order); an error for any other version';

CREATE FUNCTION uuid_v1_from_v6(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v1_from_v6'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v1_from_v6(uuid) IS
    'the UUIDv1 with the same time, clock sequence and node as a UUIDv6; an error for any other version';

CREATE FUNCTION uuid_v8(bytes bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v8'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v8(bytea) IS
    'UUIDv8 (RFC 9562) of exactly 16 bytes: the same bytes with version 8 and the RFC variant set';

CREATE FUNCTION uuid_v8_sha256(namespace uuid, name text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v8_sha256_text'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v8_sha256(uuid, text) IS
    'name-based UUIDv8 (RFC 9562 section 5.5, Appendix B.2): the first 16 bytes of SHA-256 over the namespace''s 16 bytes and the name''s UTF-8 bytes, version 8 and variant set';

CREATE FUNCTION uuid_v8_sha256(namespace uuid, name bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v8_sha256_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v8_sha256(uuid, bytea) IS
    'name-based UUIDv8 (RFC 9562 section 5.5, Appendix B.2): the first 16 bytes of SHA-256 over the namespace''s 16 bytes and the name''s bytes, version 8 and variant set';
-- end family: uuid_v6
