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
