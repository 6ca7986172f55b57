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

-- begin family: ksuid
-- ============================================================================
-- ksuid: segmentio/ksuid's 20-byte IDs as a type, its operators and index
-- support, generators, decoders and casts
-- ============================================================================

-- ksuid type -----------------------------------------------------------------

CREATE TYPE ksuid;

CREATE FUNCTION ksuid_in(cstring) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'idgen_ksuid_in'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_in(cstring) IS
    'ksuid input: 27 base62 characters (0-9A-Za-z), at most aWgEPTl1tmebfsQzFP4bxwgy80V; any other character is rejected';

CREATE FUNCTION ksuid_out(ksuid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'idgen_ksuid_out'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_out(ksuid) IS
    'ksuid output: 27 base62 characters, left-padded with 0';

CREATE FUNCTION ksuid_recv(internal) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'idgen_ksuid_recv'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_recv(internal) IS
    'ksuid binary input: the 20 bytes, most significant first';

CREATE FUNCTION ksuid_send(ksuid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_ksuid_send'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_send(ksuid) IS
    'ksuid binary output: the 20 bytes, most significant first';

-- 20 bytes, no alignment, never toasted (as ulid).
CREATE TYPE ksuid (
    INPUT = ksuid_in,
    OUTPUT = ksuid_out,
    RECEIVE = ksuid_recv,
    SEND = ksuid_send,
    INTERNALLENGTH = 20,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE ksuid IS
    'KSUID (segmentio/ksuid): 32-bit seconds since 2014-05-13 16:53:20 UTC and a 128-bit random payload in 20 bytes, ordered by time; text is 27 base62 characters';

-- begin type support: ksuid
-- ksuid comparison -----------------------------------------------------------

-- Byte comparisons cannot fail or reveal anything: LEAKPROOF, as for uuid.
CREATE FUNCTION ksuid_eq(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ksuid_eq'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ksuid_eq(ksuid, ksuid) IS 'implementation of = for ksuid';

CREATE FUNCTION ksuid_ne(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ksuid_ne'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ksuid_ne(ksuid, ksuid) IS 'implementation of <> for ksuid';

CREATE FUNCTION ksuid_lt(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ksuid_lt'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ksuid_lt(ksuid, ksuid) IS 'implementation of < for ksuid';

CREATE FUNCTION ksuid_le(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ksuid_le'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ksuid_le(ksuid, ksuid) IS 'implementation of <= for ksuid';

CREATE FUNCTION ksuid_gt(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ksuid_gt'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ksuid_gt(ksuid, ksuid) IS 'implementation of > for ksuid';

CREATE FUNCTION ksuid_ge(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ksuid_ge'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ksuid_ge(ksuid, ksuid) IS 'implementation of >= for ksuid';

CREATE FUNCTION ksuid_cmp(ksuid, ksuid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_ksuid_cmp'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ksuid_cmp(ksuid, ksuid) IS
    'btree comparison of two KSUIDs: -1, 0 or 1, in byte order, which is time order first';

CREATE FUNCTION ksuid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'idgen_ksuid_sortsupport'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_sortsupport(internal) IS
    'btree sort support for ksuid, with abbreviated keys';

CREATE FUNCTION ksuid_hash(ksuid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_ksuid_hash'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_hash(ksuid) IS
    'hash of a KSUID';

CREATE FUNCTION ksuid_hash_extended(ksuid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_ksuid_hash_extended'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_hash_extended(ksuid, bigint) IS
    'seeded 64-bit hash of a KSUID, for hash partitioning';

CREATE OPERATOR = (
    LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, MERGES, HASHES
);
COMMENT ON OPERATOR =(ksuid, ksuid) IS 'equal';

CREATE OPERATOR <> (
    LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <>(ksuid, ksuid) IS 'not equal';

CREATE OPERATOR < (
    LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR <(ksuid, ksuid) IS 'less than (earlier)';

CREATE OPERATOR <= (
    LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <=(ksuid, ksuid) IS 'less than or equal';

CREATE OPERATOR > (
    LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR >(ksuid, ksuid) IS 'greater than (later)';

CREATE OPERATOR >= (
    LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >=(ksuid, ksuid) IS 'greater than or equal';

-- btequalimage: equal KSUIDs are byte-identical, so btree deduplication is safe.
CREATE OPERATOR CLASS ksuid_ops DEFAULT FOR TYPE ksuid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 ksuid_cmp(ksuid, ksuid),
    FUNCTION 2 ksuid_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS ksuid_ops USING btree IS 'btree operator class of ksuid: ordering, unique indexes, merge joins and sorting';
COMMENT ON OPERATOR FAMILY ksuid_ops USING btree IS 'btree operator family of ksuid (its operator class ksuid_ops)';

CREATE OPERATOR CLASS ksuid_ops DEFAULT FOR TYPE ksuid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 ksuid_hash(ksuid),
    FUNCTION 2 ksuid_hash_extended(ksuid, bigint);
COMMENT ON OPERATOR CLASS ksuid_ops USING hash IS 'hash operator class of ksuid: hash indexes, hash joins, hash aggregation and hash partitioning';
COMMENT ON OPERATOR FAMILY ksuid_ops USING hash IS 'hash operator family of ksuid (its operator class ksuid_ops)';

-- Block ranges of an append-only table keyed by ksuid() cover narrow time spans.
CREATE OPERATOR CLASS ksuid_minmax_ops DEFAULT FOR TYPE ksuid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS ksuid_minmax_ops USING brin IS 'BRIN minmax operator class of ksuid: small indexes over time-ordered, append-only tables';
COMMENT ON OPERATOR FAMILY ksuid_minmax_ops USING brin IS 'BRIN operator family of ksuid (its operator class ksuid_minmax_ops)';

-- min() and max(): with SORTOP, the planner reads them from a btree index.
CREATE FUNCTION ksuid_smaller(ksuid, ksuid) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'idgen_ksuid_smaller'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_smaller(ksuid, ksuid) IS 'the smaller (earlier) of two KSUIDs';

CREATE FUNCTION ksuid_larger(ksuid, ksuid) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'idgen_ksuid_larger'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_larger(ksuid, ksuid) IS 'the larger (later) of two KSUIDs';

CREATE AGGREGATE min(ksuid) (
    SFUNC = ksuid_smaller, STYPE = ksuid, COMBINEFUNC = ksuid_smaller,
    SORTOP = <, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(ksuid) IS 'the earliest KSUID';

CREATE AGGREGATE max(ksuid) (
    SFUNC = ksuid_larger, STYPE = ksuid, COMBINEFUNC = ksuid_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE max(ksuid) IS 'the latest KSUID';
-- end type support: ksuid

-- ksuid generators and decoders ----------------------------------------------

CREATE FUNCTION ksuid() RETURNS ksuid
    AS 'MODULE_PATHNAME', 'idgen_ksuid'
    LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED;
COMMENT ON FUNCTION ksuid() IS
    'new KSUID from the clock and the CSPRNG; an ID in the same second as the last is the last + 1 (segmentio''s Next()), the last of the session, or of the server with idgen.ksuid_order = server';

CREATE FUNCTION ksuid_at(ts timestamptz) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'idgen_ksuid_at'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_at(timestamptz) IS
    'KSUID of the second holding ts with a fresh random payload, for backfilling rows created in the past';

CREATE FUNCTION ksuid_boundary(ts timestamptz) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'idgen_ksuid_boundary'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_boundary(timestamptz) IS
    'smallest KSUID of the second holding ts (payload zero), for range predicates and partition bounds';

CREATE FUNCTION ksuid_time(id ksuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_ksuid_time'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_time(ksuid) IS
    'second a KSUID carries';

CREATE FUNCTION ksuid_payload(id ksuid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_ksuid_payload'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_payload(ksuid) IS
    'the 16-byte payload of a KSUID (its last 16 bytes)';

-- ksuid casts ----------------------------------------------------------------

CREATE FUNCTION ksuid_to_bytea(id ksuid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_ksuid_to_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ksuid_to_bytea(ksuid) IS
    'the 20 bytes of a KSUID as bytea (the cast to bytea)';

CREATE FUNCTION ksuid_from_bytea(bytes bytea) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'idgen_ksuid_from_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ksuid_from_bytea(bytea) IS
    'the ksuid of 20 bytes (the cast from bytea); another length is an error (22P03)';

-- Explicit both ways, as ulid's casts to and from bytea.
CREATE CAST (ksuid AS bytea) WITH FUNCTION ksuid_to_bytea(ksuid);
COMMENT ON CAST (ksuid AS bytea) IS 'the 20 bytes of the KSUID';

CREATE CAST (bytea AS ksuid) WITH FUNCTION ksuid_from_bytea(bytea);
COMMENT ON CAST (bytea AS ksuid) IS
    'the ksuid of 20 bytes; another length is an error (22P03)';

CREATE CAST (ksuid AS timestamptz) WITH FUNCTION ksuid_time(ksuid);
COMMENT ON CAST (ksuid AS timestamptz) IS 'the second a KSUID carries';

-- From text and varchar by assignment, as for ulid (see the ulid casts).
CREATE CAST (text AS ksuid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (text AS ksuid) IS
    'the text read by ksuid_in; an invalid one is an error (22P02)';

CREATE CAST (varchar AS ksuid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (varchar AS ksuid) IS
    'the text read by ksuid_in; an invalid one is an error (22P02)';
-- end family: ksuid

-- begin family: objectid
-- ============================================================================
-- objectid: the objectid type (MongoDB's BSON ObjectId), its operators and index support, objectid(), decoders, casts
-- ============================================================================

-- objectid type -----------------------------------------------------------

CREATE TYPE objectid;

CREATE FUNCTION objectid_in(cstring) RETURNS objectid
    AS 'MODULE_PATHNAME', 'idgen_objectid_in'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_in(cstring) IS
    'objectid input: 24 hexadecimal digits in either case';

CREATE FUNCTION objectid_out(objectid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'idgen_objectid_out'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_out(objectid) IS
    'objectid output: 24 lowercase hexadecimal digits';

CREATE FUNCTION objectid_recv(internal) RETURNS objectid
    AS 'MODULE_PATHNAME', 'idgen_objectid_recv'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_recv(internal) IS
    'objectid binary input: the 12 bytes, most significant first';

CREATE FUNCTION objectid_send(objectid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_id96_send'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_send(objectid) IS
    'objectid binary output: the 12 bytes, most significant first';

-- 12 bytes, no alignment, never toasted.
CREATE TYPE objectid (
    INPUT = objectid_in,
    OUTPUT = objectid_out,
    RECEIVE = objectid_recv,
    SEND = objectid_send,
    INTERNALLENGTH = 12,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE objectid IS
    'BSON ObjectId: 4-byte big-endian Unix seconds, a 5-byte process value and a 3-byte counter in 12 bytes, ordered by second; text is 24 hexadecimal digits';

-- begin type support: objectid
-- objectid comparison --------------------------------------------------------

-- Byte comparisons cannot fail or reveal anything: LEAKPROOF, as for uuid.
CREATE FUNCTION objectid_eq(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_eq'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION objectid_eq(objectid, objectid) IS 'implementation of = for objectid';

CREATE FUNCTION objectid_ne(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_ne'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION objectid_ne(objectid, objectid) IS 'implementation of <> for objectid';

CREATE FUNCTION objectid_lt(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_lt'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION objectid_lt(objectid, objectid) IS 'implementation of < for objectid';

CREATE FUNCTION objectid_le(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_le'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION objectid_le(objectid, objectid) IS 'implementation of <= for objectid';

CREATE FUNCTION objectid_gt(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_gt'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION objectid_gt(objectid, objectid) IS 'implementation of > for objectid';

CREATE FUNCTION objectid_ge(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_ge'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION objectid_ge(objectid, objectid) IS 'implementation of >= for objectid';

CREATE FUNCTION objectid_cmp(objectid, objectid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_id96_cmp'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION objectid_cmp(objectid, objectid) IS
    'btree comparison of two ObjectIds: -1, 0 or 1, in byte order, which is time order first';

CREATE FUNCTION objectid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'idgen_id96_sortsupport'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_sortsupport(internal) IS
    'btree sort support for objectid, with abbreviated keys';

CREATE FUNCTION objectid_hash(objectid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_id96_hash'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_hash(objectid) IS
    'hash of an ObjectId';

CREATE FUNCTION objectid_hash_extended(objectid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_id96_hash_extended'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_hash_extended(objectid, bigint) IS
    'seeded 64-bit hash of an ObjectId, for hash partitioning';

CREATE OPERATOR = (
    LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, MERGES, HASHES
);
COMMENT ON OPERATOR =(objectid, objectid) IS 'equal';

CREATE OPERATOR <> (
    LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <>(objectid, objectid) IS 'not equal';

CREATE OPERATOR < (
    LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR <(objectid, objectid) IS 'less than (earlier)';

CREATE OPERATOR <= (
    LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <=(objectid, objectid) IS 'less than or equal';

CREATE OPERATOR > (
    LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR >(objectid, objectid) IS 'greater than (later)';

CREATE OPERATOR >= (
    LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >=(objectid, objectid) IS 'greater than or equal';

-- btequalimage: equal ObjectIds are byte-identical, so btree deduplication is safe.
CREATE OPERATOR CLASS objectid_ops DEFAULT FOR TYPE objectid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 objectid_cmp(objectid, objectid),
    FUNCTION 2 objectid_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS objectid_ops USING btree IS 'btree operator class of objectid: ordering, unique indexes, merge joins and sorting';
COMMENT ON OPERATOR FAMILY objectid_ops USING btree IS 'btree operator family of objectid (its operator class objectid_ops)';

CREATE OPERATOR CLASS objectid_ops DEFAULT FOR TYPE objectid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 objectid_hash(objectid),
    FUNCTION 2 objectid_hash_extended(objectid, bigint);
COMMENT ON OPERATOR CLASS objectid_ops USING hash IS 'hash operator class of objectid: hash indexes, hash joins, hash aggregation and hash partitioning';
COMMENT ON OPERATOR FAMILY objectid_ops USING hash IS 'hash operator family of objectid (its operator class objectid_ops)';

-- Block ranges of an append-only table keyed by objectid() cover narrow time spans.
CREATE OPERATOR CLASS objectid_minmax_ops DEFAULT FOR TYPE objectid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS objectid_minmax_ops USING brin IS 'BRIN minmax operator class of objectid: small indexes over time-ordered, append-only tables';
COMMENT ON OPERATOR FAMILY objectid_minmax_ops USING brin IS 'BRIN operator family of objectid (its operator class objectid_minmax_ops)';

-- min() and max(): with SORTOP, the planner reads them from a btree index.
CREATE FUNCTION objectid_smaller(objectid, objectid) RETURNS objectid
    AS 'MODULE_PATHNAME', 'idgen_id96_smaller'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_smaller(objectid, objectid) IS 'the smaller (earlier) of two ObjectIds';

CREATE FUNCTION objectid_larger(objectid, objectid) RETURNS objectid
    AS 'MODULE_PATHNAME', 'idgen_id96_larger'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_larger(objectid, objectid) IS 'the larger (later) of two ObjectIds';

CREATE AGGREGATE min(objectid) (
    SFUNC = objectid_smaller, STYPE = objectid, COMBINEFUNC = objectid_smaller,
    SORTOP = <, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(objectid) IS 'the earliest ObjectId';

CREATE AGGREGATE max(objectid) (
    SFUNC = objectid_larger, STYPE = objectid, COMBINEFUNC = objectid_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE max(objectid) IS 'the latest ObjectId';
-- end type support: objectid

-- objectid generator and decoders -----------------------------------------

CREATE FUNCTION objectid() RETURNS objectid
    AS 'MODULE_PATHNAME', 'idgen_objectid'
    LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED;
COMMENT ON FUNCTION objectid() IS
    'new ObjectId: the clock''s second (never below the last ID''s), a 5-byte process value drawn at each server start and a 24-bit counter (random start, +1 per ID), both server-wide in shared memory (per backend without preloading); after 2^24 IDs in one second it borrows the next second';

CREATE FUNCTION objectid_boundary(ts timestamptz) RETURNS objectid
    AS 'MODULE_PATHNAME', 'idgen_objectid_boundary'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_boundary(timestamptz) IS
    'smallest ObjectId of the second holding ts (its seconds, then 8 zero bytes), for range predicates and partition bounds';

CREATE FUNCTION objectid_time(id objectid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_id96_time'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_time(objectid) IS
    'the second an ObjectId carries';

CREATE FUNCTION objectid_process(id objectid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_objectid_process'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_process(objectid) IS
    'the 5-byte process value of an ObjectId (bytes 5 to 9)';

CREATE FUNCTION objectid_counter(id objectid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_objectid_counter'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_counter(objectid) IS
    'the 24-bit counter of an ObjectId (its last 3 bytes, big-endian), 0 to 16777215';

-- objectid casts ----------------------------------------------------------

CREATE FUNCTION objectid_to_bytea(id objectid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_id96_to_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION objectid_to_bytea(objectid) IS
    'the 12 bytes of an ObjectId as bytea, in its order (the cast to bytea)';

CREATE FUNCTION objectid_from_bytea(bytes bytea) RETURNS objectid
    AS 'MODULE_PATHNAME', 'idgen_objectid_from_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_from_bytea(bytea) IS
    'the objectid of 12 bytes (the cast from bytea); another length is an error (22P03)';

CREATE CAST (objectid AS timestamptz) WITH FUNCTION objectid_time(objectid);
COMMENT ON CAST (objectid AS timestamptz) IS 'the second an ObjectId carries';

-- From text and varchar by assignment, as for ulid (issue 31).
CREATE CAST (text AS objectid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (text AS objectid) IS
    'the text read by objectid_in; an invalid one is an error (22P02)';

CREATE CAST (varchar AS objectid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (varchar AS objectid) IS
    'the text read by objectid_in; an invalid one is an error (22P02)';

-- To and from bytea: the 12 bytes, explicit both ways, as for ulid.
CREATE CAST (objectid AS bytea) WITH FUNCTION objectid_to_bytea(objectid);
COMMENT ON CAST (objectid AS bytea) IS 'the 12 bytes of the ObjectId';

CREATE CAST (bytea AS objectid) WITH FUNCTION objectid_from_bytea(bytea);
COMMENT ON CAST (bytea AS objectid) IS
    'the objectid of 12 bytes; another length is an error (22P03)';
-- end family: objectid

-- begin family: xid
-- ============================================================================
-- xid: the rsxid type (rs/xid's XID; xid is PostgreSQL's transaction ID type), its operators and index support, xid(), decoders, casts
-- ============================================================================

-- rsxid type --------------------------------------------------------------

CREATE TYPE rsxid;

CREATE FUNCTION rsxid_in(cstring) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'idgen_xid_in'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION rsxid_in(cstring) IS
    'rsxid input: 20 lowercase base32hex characters (0-9, a-v) ending in 0 or g, as rs/xid reads them';

CREATE FUNCTION rsxid_out(rsxid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'idgen_xid_out'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION rsxid_out(rsxid) IS
    'rsxid output: 20 lowercase base32hex characters';

CREATE FUNCTION rsxid_recv(internal) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'idgen_xid_recv'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION rsxid_recv(internal) IS
    'rsxid binary input: the 12 bytes, most significant first';

CREATE FUNCTION rsxid_send(rsxid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_id96_send'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION rsxid_send(rsxid) IS
    'rsxid binary output: the 12 bytes, most significant first';

-- 12 bytes, no alignment, never toasted.
CREATE TYPE rsxid (
    INPUT = rsxid_in,
    OUTPUT = rsxid_out,
    RECEIVE = rsxid_recv,
    SEND = rsxid_send,
    INTERNALLENGTH = 12,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE rsxid IS
    'XID (rs/xid): 4-byte big-endian Unix seconds, a 3-byte machine id, a 2-byte process id and a 3-byte counter in 12 bytes, ordered by second; text is 20 base32hex characters';

-- begin type support: rsxid
-- rsxid comparison -----------------------------------------------------------

-- Byte comparisons cannot fail or reveal anything: LEAKPROOF, as for uuid.
CREATE FUNCTION rsxid_eq(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_eq'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION rsxid_eq(rsxid, rsxid) IS 'implementation of = for rsxid';

CREATE FUNCTION rsxid_ne(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_ne'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION rsxid_ne(rsxid, rsxid) IS 'implementation of <> for rsxid';

CREATE FUNCTION rsxid_lt(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_lt'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION rsxid_lt(rsxid, rsxid) IS 'implementation of < for rsxid';

CREATE FUNCTION rsxid_le(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_le'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION rsxid_le(rsxid, rsxid) IS 'implementation of <= for rsxid';

CREATE FUNCTION rsxid_gt(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_gt'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION rsxid_gt(rsxid, rsxid) IS 'implementation of > for rsxid';

CREATE FUNCTION rsxid_ge(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_id96_ge'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION rsxid_ge(rsxid, rsxid) IS 'implementation of >= for rsxid';

CREATE FUNCTION rsxid_cmp(rsxid, rsxid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_id96_cmp'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION rsxid_cmp(rsxid, rsxid) IS
    'btree comparison of two XIDs: -1, 0 or 1, in byte order, which is time order first';

CREATE FUNCTION rsxid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'idgen_id96_sortsupport'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION rsxid_sortsupport(internal) IS
    'btree sort support for rsxid, with abbreviated keys';

CREATE FUNCTION rsxid_hash(rsxid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_id96_hash'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION rsxid_hash(rsxid) IS
    'hash of an XID';

CREATE FUNCTION rsxid_hash_extended(rsxid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_id96_hash_extended'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION rsxid_hash_extended(rsxid, bigint) IS
    'seeded 64-bit hash of an XID, for hash partitioning';

CREATE OPERATOR = (
    LEFTARG = rsxid, RIGHTARG = rsxid, FUNCTION = rsxid_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, MERGES, HASHES
);
COMMENT ON OPERATOR =(rsxid, rsxid) IS 'equal';

CREATE OPERATOR <> (
    LEFTARG = rsxid, RIGHTARG = rsxid, FUNCTION = rsxid_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <>(rsxid, rsxid) IS 'not equal';

CREATE OPERATOR < (
    LEFTARG = rsxid, RIGHTARG = rsxid, FUNCTION = rsxid_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR <(rsxid, rsxid) IS 'less than (earlier)';

CREATE OPERATOR <= (
    LEFTARG = rsxid, RIGHTARG = rsxid, FUNCTION = rsxid_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <=(rsxid, rsxid) IS 'less than or equal';

CREATE OPERATOR > (
    LEFTARG = rsxid, RIGHTARG = rsxid, FUNCTION = rsxid_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR >(rsxid, rsxid) IS 'greater than (later)';

CREATE OPERATOR >= (
    LEFTARG = rsxid, RIGHTARG = rsxid, FUNCTION = rsxid_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >=(rsxid, rsxid) IS 'greater than or equal';

-- btequalimage: equal XIDs are byte-identical, so btree deduplication is safe.
CREATE OPERATOR CLASS rsxid_ops DEFAULT FOR TYPE rsxid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 rsxid_cmp(rsxid, rsxid),
    FUNCTION 2 rsxid_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS rsxid_ops USING btree IS 'btree operator class of rsxid: ordering, unique indexes, merge joins and sorting';
COMMENT ON OPERATOR FAMILY rsxid_ops USING btree IS 'btree operator family of rsxid (its operator class rsxid_ops)';

CREATE OPERATOR CLASS rsxid_ops DEFAULT FOR TYPE rsxid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 rsxid_hash(rsxid),
    FUNCTION 2 rsxid_hash_extended(rsxid, bigint);
COMMENT ON OPERATOR CLASS rsxid_ops USING hash IS 'hash operator class of rsxid: hash indexes, hash joins, hash aggregation and hash partitioning';
COMMENT ON OPERATOR FAMILY rsxid_ops USING hash IS 'hash operator family of rsxid (its operator class rsxid_ops)';

-- Block ranges of an append-only table keyed by xid() cover narrow time spans.
CREATE OPERATOR CLASS rsxid_minmax_ops DEFAULT FOR TYPE rsxid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS rsxid_minmax_ops USING brin IS 'BRIN minmax operator class of rsxid: small indexes over time-ordered, append-only tables';
COMMENT ON OPERATOR FAMILY rsxid_minmax_ops USING brin IS 'BRIN operator family of rsxid (its operator class rsxid_minmax_ops)';

-- min() and max(): with SORTOP, the planner reads them from a btree index.
CREATE FUNCTION rsxid_smaller(rsxid, rsxid) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'idgen_id96_smaller'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION rsxid_smaller(rsxid, rsxid) IS 'the smaller (earlier) of two XIDs';

CREATE FUNCTION rsxid_larger(rsxid, rsxid) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'idgen_id96_larger'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION rsxid_larger(rsxid, rsxid) IS 'the larger (later) of two XIDs';

CREATE AGGREGATE min(rsxid) (
    SFUNC = rsxid_smaller, STYPE = rsxid, COMBINEFUNC = rsxid_smaller,
    SORTOP = <, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(rsxid) IS 'the earliest XID';

CREATE AGGREGATE max(rsxid) (
    SFUNC = rsxid_larger, STYPE = rsxid, COMBINEFUNC = rsxid_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE max(rsxid) IS 'the latest XID';
-- end type support: rsxid

-- xid generator and decoders ----------------------------------------------

CREATE FUNCTION xid() RETURNS rsxid
    AS 'MODULE_PATHNAME', 'idgen_xid'
    LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED;
COMMENT ON FUNCTION xid() IS
    'new XID: the clock''s second (never below the last ID''s), a random 3-byte machine id and 2-byte pid drawn at each server start and a 24-bit counter (random start, +1 per ID), all server-wide in shared memory (per backend without preloading); after 2^24 IDs in one second it borrows the next second';

CREATE FUNCTION xid_boundary(ts timestamptz) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'idgen_xid_boundary'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION xid_boundary(timestamptz) IS
    'smallest XID of the second holding ts (its seconds, then 8 zero bytes), for range predicates and partition bounds';

CREATE FUNCTION xid_time(id rsxid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_id96_time'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION xid_time(rsxid) IS
    'the second an XID carries';

CREATE FUNCTION xid_machine(id rsxid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_xid_machine'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION xid_machine(rsxid) IS
    'the 3-byte machine id of an XID (bytes 5 to 7)';

CREATE FUNCTION xid_pid(id rsxid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_xid_pid'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION xid_pid(rsxid) IS
    'the 16-bit process id of an XID (bytes 8 and 9, big-endian), 0 to 65535';

CREATE FUNCTION xid_counter(id rsxid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_xid_counter'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION xid_counter(rsxid) IS
    'the 24-bit counter of an XID (its last 3 bytes, big-endian), 0 to 16777215';

-- rsxid casts -------------------------------------------------------------

CREATE FUNCTION rsxid_to_bytea(id rsxid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_id96_to_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION rsxid_to_bytea(rsxid) IS
    'the 12 bytes of an XID as bytea, in its order (the cast to bytea)';

CREATE FUNCTION rsxid_from_bytea(bytes bytea) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'idgen_xid_from_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION rsxid_from_bytea(bytea) IS
    'the rsxid of 12 bytes (the cast from bytea); another length is an error (22P03)';

CREATE CAST (rsxid AS timestamptz) WITH FUNCTION xid_time(rsxid);
COMMENT ON CAST (rsxid AS timestamptz) IS 'the second an XID carries';

-- From text and varchar by assignment, as for ulid (issue 31).
CREATE CAST (text AS rsxid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (text AS rsxid) IS
    'the text read by rsxid_in; an invalid one is an error (22P02)';

CREATE CAST (varchar AS rsxid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (varchar AS rsxid) IS
    'the text read by rsxid_in; an invalid one is an error (22P02)';

-- To and from bytea: the 12 bytes, explicit both ways, as for ulid.
CREATE CAST (rsxid AS bytea) WITH FUNCTION rsxid_to_bytea(rsxid);
COMMENT ON CAST (rsxid AS bytea) IS 'the 12 bytes of the XID';

CREATE CAST (bytea AS rsxid) WITH FUNCTION rsxid_from_bytea(bytea);
COMMENT ON CAST (bytea AS rsxid) IS
    'the rsxid of 12 bytes; another length is an error (22P03)';
-- end family: xid

-- begin family: idgen_types
-- ============================================================================
-- idgen's types, for clients
-- ============================================================================

-- ulid, prefixed_id, typeid, ksuid, objectid, rsxid and every domain over one
-- of them, at any depth (prefixed_id_define()'s, typeid_define()'s, a CREATE
-- DOMAIN's), in every schema: what a client package gives codecs to. A
-- SQL-standard body, bound when the script runs (so it comes after the types):
-- the types are held as their OIDs, so it finds them whatever the caller's
-- search_path, and after the schema is renamed. family is the family's name
-- (xid for rsxid), as the vectors file and the client packages name it.
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
                     ('typeid'::pg_catalog.regtype::pg_catalog.oid, 'typeid'::pg_catalog.text),
                     ('ksuid'::pg_catalog.regtype::pg_catalog.oid, 'ksuid'::pg_catalog.text),
                     ('objectid'::pg_catalog.regtype::pg_catalog.oid, 'objectid'::pg_catalog.text),
                     ('rsxid'::pg_catalog.regtype::pg_catalog.oid, 'xid'::pg_catalog.text)) b (oid, family)
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
    'ulid, prefixed_id, typeid, ksuid, objectid, rsxid and every domain over one of them (also over another such domain): the OIDs of the type and its array type, schema, name, the idgen type at the bottom (base) and its family (xid for rsxid)';
-- end family: idgen_types

-- begin family: short_text
-- ============================================================================
-- short text forms of a uuid or a ulid, for URLs (core/short_text.hpp)
-- ============================================================================

-- The form is named per call, as core's encode() and decode() name theirs
-- (in either case): base62, base58, flickr, base57, base64url, base32.
CREATE FUNCTION uuid_encode(id uuid, form text) RETURNS text
    AS 'MODULE_PATHNAME', 'idgen_uuid_encode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_encode(uuid, text) IS
    'short text of a uuid: 22 characters of base62 (0-9A-Za-z), base58 (Bitcoin''s alphabet), flickr (Flickr''s base58), base57 (shortuuid''s) or base64url (RFC 4648, unpadded), or the 26 of base32 (ULID text); base62, base58, base57 and base32 sort as the uuid under C collation';

CREATE FUNCTION uuid_decode(encoded text, form text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_decode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_decode(text, text) IS
    'the uuid of a short text (uuid_encode''s forms), strictly: exactly the form''s length and alphabet, at most 2^128 - 1 (22P02 otherwise)';

CREATE FUNCTION ulid_encode(id ulid, form text) RETURNS text
    AS 'MODULE_PATHNAME', 'idgen_ulid_encode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_encode(ulid, text) IS
    'short text of a ulid''s 128 bits, in uuid_encode''s forms (base32 is its own text)';

CREATE FUNCTION ulid_decode(encoded text, form text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_decode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_decode(text, text) IS
    'the ulid of a short text (uuid_encode''s forms), strictly, as uuid_decode';
-- end family: short_text

-- begin family: nanoid
-- ============================================================================
-- NanoID (ai/nanoid): random text IDs over an alphabet (core/nanoid.hpp)
-- ============================================================================

-- Each character uniform over the alphabet by masked rejection, from idgen's
-- per-backend CSPRNG (no order, no session state: PARALLEL SAFE, as
-- prefixed_id_token). The alphabet is characters of the database encoding,
-- multibyte ones included: 2 to 256 distinct; size 1 to 1024 characters.
CREATE FUNCTION nanoid(size integer DEFAULT 21,
                       alphabet text DEFAULT 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict')
    RETURNS text
    AS 'MODULE_PATHNAME', 'idgen_nanoid'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION nanoid(integer, text) IS
    'new NanoID: size (1 to 1024, default 21) characters, each drawn uniformly from the alphabet (2 to 256 distinct characters, multibyte allowed; default the URL-safe 64 of A-Za-z0-9_-) by masked rejection from a CSPRNG';

CREATE FUNCTION nanoid_is_valid(id text, size integer DEFAULT 21,
                                alphabet text DEFAULT 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict')
    RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_nanoid_is_valid'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION nanoid_is_valid(text, integer, text) IS
    'whether id is exactly size characters of the alphabet (the defaults are nanoid()''s); a size or alphabet that nanoid() refuses is refused here too';

-- A domain over text per entity: its CHECK is nanoid_is_valid with the size
-- and alphabet, its DEFAULT nanoid() with them. Both are checked first, by
-- nanoid() itself (the same errors). The functions are bound by OID in the
-- domain, so a renamed schema keeps working.
CREATE FUNCTION nanoid_define(type_name text, size integer DEFAULT 21,
                              alphabet text DEFAULT 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict',
                              type_schema name DEFAULT pg_catalog.current_schema())
    RETURNS regtype
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext text;
    created pg_catalog.regtype;
BEGIN
    IF type_name IS NULL OR size IS NULL OR alphabet IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT pg_catalog.quote_ident(n.nspname) INTO ext
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';
    -- the size and the alphabet (22023), as nanoid() refuses them
    EXECUTE pg_catalog.format('SELECT %s.nanoid($1, $2)', ext) USING size, alphabet;
    IF type_schema IS NULL THEN
        RAISE EXCEPTION 'no schema has been selected to create type "%" in', type_name
            USING ERRCODE = 'invalid_schema_name',
                  HINT = 'Set search_path to the schema the type belongs in, or name it in type_schema.';
    END IF;
    EXECUTE pg_catalog.format(
        'CREATE DOMAIN %I.%I AS pg_catalog.text '
        'DEFAULT %s.nanoid(%s, %L) '
        'CONSTRAINT %I CHECK (%s.nanoid_is_valid(VALUE, %s, %L))',
        type_schema, type_name, ext, size, alphabet,
        type_name OPERATOR(pg_catalog.||) '_nanoid', ext, size, alphabet);
    created := pg_catalog.to_regtype(pg_catalog.format('%I.%I', type_schema, type_name));
    EXECUTE pg_catalog.format('COMMENT ON DOMAIN %s IS %L', created,
        pg_catalog.format('NanoIDs of %s characters over %s (a domain over text made by nanoid_define)',
                          size, pg_catalog.quote_literal(alphabet)));
    RETURN created;
END
$$;
COMMENT ON FUNCTION nanoid_define(text, integer, text, name) IS
    'creates a domain over text (in type_schema, by default the current schema) that accepts only NanoIDs of the given size and alphabet and defaults to a new one';
-- end family: nanoid

-- begin family: timeflake
-- ============================================================================
-- Timeflake (anthonynsimon/timeflake): 48-bit Unix ms, then 80 random bits,
-- as a uuid (core/timeflake.hpp); its base62 text is uuid_encode(u, 'base62')
-- ============================================================================

-- Strictly increasing within the session: in the same millisecond, or when
-- the clock goes back, the previous + 1 (per backend, no shared memory: a
-- parallel worker would start its own sequence, hence PARALLEL RESTRICTED).
CREATE FUNCTION timeflake() RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_timeflake'
    LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED;
COMMENT ON FUNCTION timeflake() IS
    'new Timeflake as a uuid: 48-bit Unix milliseconds then 80 random bits (no version or variant bits); within the session strictly increasing (the same millisecond or a clock set back: the previous + 1); base62 text by uuid_encode(u, ''base62'')';

CREATE FUNCTION timeflake_at(ts timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_timeflake_at'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeflake_at(timestamptz) IS
    'Timeflake of the millisecond holding ts with fresh random bits, for backfilling rows created in the past';

CREATE FUNCTION timeflake_boundary(ts timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_timeflake_boundary'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeflake_boundary(timestamptz) IS
    'smallest Timeflake of the millisecond holding ts (random bits zero), for range predicates and partition bounds';

CREATE FUNCTION timeflake_time(id uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_timeflake_time'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeflake_time(uuid) IS
    'millisecond in the high 48 bits of a Timeflake (of any uuid read as one)';

CREATE FUNCTION timeflake_random(id uuid) RETURNS numeric
    AS 'MODULE_PATHNAME', 'idgen_timeflake_random'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeflake_random(uuid) IS
    'low 80 bits of a Timeflake as an integer (0 to 2^80 - 1), as Timeflake''s own libraries give them';
-- end family: timeflake

-- begin family: push_id
-- ============================================================================
-- Firebase push IDs: 20 characters of -0-9A-Z_a-z, 8 of Unix ms in base 64,
-- then 12 random (core/push_id.hpp)
-- ============================================================================

-- Strictly increasing within the session, in C-collation text order: in the
-- same millisecond, or when the clock goes back, the previous + 1 with carry,
-- from the random part into the time (per backend: PARALLEL RESTRICTED).
CREATE FUNCTION push_id() RETURNS text
    AS 'MODULE_PATHNAME', 'idgen_push_id'
    LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED;
COMMENT ON FUNCTION push_id() IS
    'new Firebase push ID: 20 characters of -0-9A-Z_a-z (ASCII order), 8 of Unix milliseconds in base 64 and 12 random; within the session strictly increasing in C-collation order (the same millisecond or a clock set back: the previous + 1, carrying into the time)';

CREATE FUNCTION push_id_time(id text) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_push_id_time'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION push_id_time(text) IS
    'millisecond in the first 8 characters of a push ID; 22P02 unless id is exactly 20 characters of -0-9A-Z_a-z';

CREATE FUNCTION push_id_is_valid(id text) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_push_id_is_valid'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION push_id_is_valid(text) IS
    'whether id is exactly 20 characters of -0-9A-Z_a-z, a push ID (every such text decodes to a time)';
-- end family: push_id

-- begin family: cuid2
-- ============================================================================
-- CUID2 (paralleldrive/cuid2): a letter, then base36 of a SHA3-512 hash
-- (core/cuid2.hpp)
-- ============================================================================

-- The hash is of the time, a random salt, this backend's counter and its
-- fingerprint. A parallel worker is a process with a counter and fingerprint
-- of its own, as the reference gives each process; no ID depends on the
-- order of calls, so PARALLEL SAFE, as nanoid(). Length 2 to 32.
CREATE FUNCTION cuid2(length integer DEFAULT 24)
    RETURNS text
    AS 'MODULE_PATHNAME', 'idgen_cuid2'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuid2(integer) IS
    'new CUID2 (paralleldrive/cuid2): length (2 to 32, default 24) characters, a random letter a-z then base36 of SHA3-512 over the time, a random salt, a per-backend counter and a per-backend fingerprint';

CREATE FUNCTION cuid2_is_valid(id text)
    RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_cuid2_is_valid'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuid2_is_valid(text) IS
    'whether id passes the reference''s isCuid: 2 to 32 characters, a lowercase letter then lowercase letters and digits (a format check only)';

CREATE FUNCTION cuid2_is_valid(id text, length integer)
    RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_cuid2_is_valid_length'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cuid2_is_valid(text, integer) IS
    'whether id passes isCuid with exactly length characters; a length that cuid2() refuses is refused here too';

-- A domain over text per entity, as nanoid_define: its CHECK is
-- cuid2_is_valid with the length, its DEFAULT cuid2() with it; the length is
-- checked first, by cuid2() itself (the same error).
CREATE FUNCTION cuid2_define(type_name text, length integer DEFAULT 24,
                             type_schema name DEFAULT pg_catalog.current_schema())
    RETURNS regtype
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext text;
    created pg_catalog.regtype;
BEGIN
    IF type_name IS NULL OR length IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT pg_catalog.quote_ident(n.nspname) INTO ext
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';
    -- the length (22023), as cuid2() refuses it
    EXECUTE pg_catalog.format('SELECT %s.cuid2($1)', ext) USING length;
    IF type_schema IS NULL THEN
        RAISE EXCEPTION 'no schema has been selected to create type "%" in', type_name
            USING ERRCODE = 'invalid_schema_name',
                  HINT = 'Set search_path to the schema the type belongs in, or name it in type_schema.';
    END IF;
    EXECUTE pg_catalog.format(
        'CREATE DOMAIN %I.%I AS pg_catalog.text '
        'DEFAULT %s.cuid2(%s) '
        'CONSTRAINT %I CHECK (%s.cuid2_is_valid(VALUE, %s))',
        type_schema, type_name, ext, length,
        type_name OPERATOR(pg_catalog.||) '_cuid2', ext, length);
    created := pg_catalog.to_regtype(pg_catalog.format('%I.%I', type_schema, type_name));
    EXECUTE pg_catalog.format('COMMENT ON DOMAIN %s IS %L', created,
        pg_catalog.format('CUID2s of %s characters (a domain over text made by cuid2_define)',
                          length));
    RETURN created;
END
$$;
COMMENT ON FUNCTION cuid2_define(text, integer, name) IS
    'creates a domain over text (in type_schema, by default the current schema) that accepts only CUID2s of the given length and defaults to a new one';
-- end family: cuid2

-- begin family: sqids
-- ============================================================================
-- Sqids (sqids.org, sqids-spec): short reversible text for bigints (core/sqids.hpp)
-- ============================================================================

-- The options of every function: an alphabet of at least 3 distinct ASCII
-- characters, a minimum length of 0 to 255 and a blocklist (NULL: the spec's
-- 560 words; '{}': none). NULL numbers, code, alphabet or min_length give
-- NULL. Pure functions of their arguments: IMMUTABLE, PARALLEL SAFE.
CREATE FUNCTION sqids_encode(numbers bigint[],
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length integer DEFAULT 0,
                             blocklist text[] DEFAULT NULL)
    RETURNS text
    AS 'MODULE_PATHNAME', 'idgen_sqids_encode'
    LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION sqids_encode(bigint[], text, integer, text[]) IS
    'Sqids code of the numbers (0 to 2^63-1, in order; an empty array gives the empty code) under the alphabet, minimum length and blocklist (NULL: the spec''s default words, ''{}'': none)';

CREATE FUNCTION sqids_encode(number bigint,
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length integer DEFAULT 0,
                             blocklist text[] DEFAULT NULL)
    RETURNS text
    AS 'MODULE_PATHNAME', 'idgen_sqids_encode_one'
    LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION sqids_encode(bigint, text, integer, text[]) IS
    'Sqids code of one number (0 to 2^63-1) under the alphabet, minimum length and blocklist (NULL: the spec''s default words, ''{}'': none)';

CREATE FUNCTION sqids_decode(code text,
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length integer DEFAULT 0,
                             blocklist text[] DEFAULT NULL)
    RETURNS bigint[]
    AS 'MODULE_PATHNAME', 'idgen_sqids_decode'
    LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION sqids_decode(text, text, integer, text[]) IS
    'the numbers of a Sqids code, strictly: refuses (22P02) a code that is not exactly what sqids_encode gives for its numbers under the same options';

CREATE FUNCTION sqids_decode_one(code text,
                                 alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                                 min_length integer DEFAULT 0,
                                 blocklist text[] DEFAULT NULL)
    RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_sqids_decode_one'
    LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION sqids_decode_one(text, text, integer, text[]) IS
    'the one number of a Sqids code, strictly as sqids_decode, refusing (22P02) a code of more numbers';

CREATE FUNCTION sqids_decode_lenient(code text,
                                     alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                                     min_length integer DEFAULT 0,
                                     blocklist text[] DEFAULT NULL)
    RETURNS bigint[]
    AS 'MODULE_PATHNAME', 'idgen_sqids_decode_lenient'
    LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION sqids_decode_lenient(text, text, integer, text[]) IS
    'the numbers of a Sqids code as the spec decodes it: text with a character outside the alphabet, or empty, gives an empty array, and a code that is not canonical still decodes; a number above 2^63-1 is an error (22003)';

CREATE FUNCTION sqids_default_blocklist()
    RETURNS text[]
    AS 'MODULE_PATHNAME', 'idgen_sqids_default_blocklist'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION sqids_default_blocklist() IS
    'the Sqids specification''s default blocklist (560 words, in its order), which a NULL blocklist stands for; extend it with sqids_default_blocklist() || ''{word}''';

-- The options named once: four SQL functions with the options written in,
-- NAME_encode(bigint), NAME_encode(bigint[]), NAME_decode(text) (one number,
-- strict) and NAME_decode_array(text). The options are checked first, by
-- sqids_encode itself (the same errors). The functions' bodies are SQL
-- standard (bound by OID: a renamed schema keeps working) and not STRICT, so
-- the planner inlines them (NULL still gives NULL).
CREATE FUNCTION sqids_define(name text,
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length integer DEFAULT 0,
                             blocklist text[] DEFAULT NULL,
                             schema name DEFAULT pg_catalog.current_schema())
    RETURNS regprocedure[]
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext text;
    options text;
    described text;
    made pg_catalog.regprocedure[];
BEGIN
    IF name IS NULL OR alphabet IS NULL OR min_length IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT pg_catalog.quote_ident(n.nspname) INTO ext
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';
    -- the options (22023, 22004), as sqids_encode refuses them
    EXECUTE pg_catalog.format('SELECT %s.sqids_encode(0::pg_catalog.int8, $1, $2, $3)', ext)
        USING alphabet, min_length, blocklist;
    IF schema IS NULL THEN
        RAISE EXCEPTION 'no schema has been selected to create the functions of "%" in', name
            USING ERRCODE = 'invalid_schema_name',
                  HINT = 'Set search_path to the schema the functions belong in, or name it in schema.';
    END IF;
    IF pg_catalog.octet_length(name) OPERATOR(pg_catalog.+) 13 OPERATOR(pg_catalog.>) 63 THEN
        RAISE EXCEPTION 'name "%" is too long for sqids_define', name
            USING ERRCODE = 'name_too_long',
                  DETAIL = pg_catalog.format('The longest function it makes, %s_decode_array, must fit in 63 bytes.', name);
    END IF;
    options := pg_catalog.format('%L, %s, %L::pg_catalog.text[]', alphabet, min_length, blocklist);
    described := pg_catalog.format('alphabet %L, min_length %s, %s', alphabet, min_length,
        CASE WHEN blocklist IS NULL THEN 'the default blocklist'
             ELSE pg_catalog.format('blocklist %L', blocklist) END);
    EXECUTE pg_catalog.format(
        'CREATE FUNCTION %I.%I(pg_catalog.int8) RETURNS pg_catalog.text '
        'LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN %s.sqids_encode($1, %s)',
        schema, name OPERATOR(pg_catalog.||) '_encode', ext, options);
    EXECUTE pg_catalog.format(
        'CREATE FUNCTION %I.%I(pg_catalog.int8[]) RETURNS pg_catalog.text '
        'LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN %s.sqids_encode($1, %s)',
        schema, name OPERATOR(pg_catalog.||) '_encode', ext, options);
    EXECUTE pg_catalog.format(
        'CREATE FUNCTION %I.%I(pg_catalog.text) RETURNS pg_catalog.int8 '
        'LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN %s.sqids_decode_one($1, %s)',
        schema, name OPERATOR(pg_catalog.||) '_decode', ext, options);
    EXECUTE pg_catalog.format(
        'CREATE FUNCTION %I.%I(pg_catalog.text) RETURNS pg_catalog.int8[] '
        'LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN %s.sqids_decode($1, %s)',
        schema, name OPERATOR(pg_catalog.||) '_decode_array', ext, options);
    made := ARRAY[
        pg_catalog.format('%I.%I(pg_catalog.int8)', schema, name OPERATOR(pg_catalog.||) '_encode')::pg_catalog.regprocedure,
        pg_catalog.format('%I.%I(pg_catalog.int8[])', schema, name OPERATOR(pg_catalog.||) '_encode')::pg_catalog.regprocedure,
        pg_catalog.format('%I.%I(pg_catalog.text)', schema, name OPERATOR(pg_catalog.||) '_decode')::pg_catalog.regprocedure,
        pg_catalog.format('%I.%I(pg_catalog.text)', schema, name OPERATOR(pg_catalog.||) '_decode_array')::pg_catalog.regprocedure];
    EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', made[1],
        pg_catalog.format('Sqids code of one number (%s; made by sqids_define)', described));
    EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', made[2],
        pg_catalog.format('Sqids code of the numbers (%s; made by sqids_define)', described));
    EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', made[3],
        pg_catalog.format('the one number of a canonical Sqids code (%s; made by sqids_define)', described));
    EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', made[4],
        pg_catalog.format('the numbers of a canonical Sqids code (%s; made by sqids_define)', described));
    RETURN made;
END
$$;
COMMENT ON FUNCTION sqids_define(text, text, integer, text[], name) IS
    'creates NAME_encode(bigint), NAME_encode(bigint[]), NAME_decode(text) and NAME_decode_array(text) (in schema, by default the current schema) with the alphabet, minimum length and blocklist written in, after checking them';
-- end family: sqids

-- begin family: snowflake_layout
-- ============================================================================
-- Snowflake layouts (core/snowflake_layout.hpp): decoding, composing and
-- boundaries of 64-bit IDs in any layout. The predefined layouts (instagram,
-- twitter, discord, sonyflake, pgedge) live in the core and are always there;
-- snowflake_layouts holds the ones users define.
-- ============================================================================

-- true, or the error that says why a layout is refused (22023, or 42710 for a
-- predefined name); with at, also 22008 when its time field had run out by
-- then. IMMUTABLE: the table's CHECK calls it without at, so a dump restores
-- a layout that has since run out.
CREATE FUNCTION snowflake_layout_check(name text, epoch timestamptz, time_unit_ms integer,
                                       field_names text[], field_bits integer[],
                                       at timestamptz DEFAULT NULL)
    RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_snowflake_layout_check'
    LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_layout_check(text, timestamptz, integer, text[], integer[], timestamptz) IS
    'true when the layout is valid (fields from the most significant bit, "time" and "sequence" once each, at most 63 bits), else the error saying why; with at, also refused when its time field had run out by then';

-- One row per layout defined with snowflake_layout_define(); its rows are
-- dumped with the database (pg_extension_config_dump). The predefined layouts
-- are not rows: they are the core's, and instagram's epoch follows
-- idgen.snowflake_epoch.
CREATE TABLE snowflake_layouts (
    name text PRIMARY KEY,
    epoch timestamptz NOT NULL,
    time_unit_ms integer NOT NULL,
    field_names text[] NOT NULL,
    field_bits integer[] NOT NULL,
    defined_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT snowflake_layouts_valid
        CHECK (@extschema@.snowflake_layout_check(name, epoch, time_unit_ms, field_names, field_bits))
);
COMMENT ON TABLE snowflake_layouts IS
    'snowflake layouts defined by snowflake_layout_define(), beside the predefined instagram, twitter, discord, sonyflake and pgedge';
SELECT pg_catalog.pg_extension_config_dump('snowflake_layouts', '');
GRANT SELECT ON snowflake_layouts TO PUBLIC;
GRANT INSERT, DELETE ON snowflake_layouts TO @extowner@;

-- Refuses an invalid layout, one that has run out (22008, with the date), a
-- predefined name and a name already defined (42710). A NULL argument gives NULL.
CREATE FUNCTION snowflake_layout_define(name text, epoch timestamptz, time_unit_ms integer,
                                        field_names text[], field_bits integer[])
    RETURNS text
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext text;
    taken boolean;
BEGIN
    SELECT pg_catalog.quote_ident(n.nspname) INTO ext
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';
    EXECUTE pg_catalog.format('SELECT %s.snowflake_layout_check($1, $2, $3, $4, $5, pg_catalog.now())', ext)
        USING name, epoch, time_unit_ms, field_names, field_bits;
    EXECUTE pg_catalog.format('SELECT EXISTS (SELECT FROM %s.snowflake_layouts l WHERE l.name OPERATOR(pg_catalog.=) $1)', ext)
        INTO taken USING name;
    IF taken THEN
        RAISE EXCEPTION 'snowflake layout "%" already exists', name
            USING ERRCODE = 'duplicate_object',
                  HINT = 'A layout is defined once; delete its row from snowflake_layouts to define it again.';
    END IF;
    EXECUTE pg_catalog.format('INSERT INTO %s.snowflake_layouts (name, epoch, time_unit_ms, field_names, field_bits) VALUES ($1, $2, $3, $4, $5)', ext)
        USING name, epoch, time_unit_ms, field_names, field_bits;
    RETURN name;
END
$$;
COMMENT ON FUNCTION snowflake_layout_define(text, timestamptz, integer, text[], integer[]) IS
    'defines a snowflake layout: epoch, time unit in ms and fields from the most significant bit ("time", node fields, "sequence") with their widths; refused when invalid, run out, predefined or already defined';

-- The decoders, composer and boundary read the table (or idgen.snowflake_epoch
-- for instagram): STABLE. A layout is read once per call site and statement.
CREATE FUNCTION snowflake_layout_decompose(id bigint, layout text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'idgen_snowflake_layout_decompose'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_layout_decompose(bigint, text) IS
    'the fields of a snowflake ID in the named layout, with its time as unix_ms and timestamp, as jsonb';

CREATE FUNCTION snowflake_layout_time(id bigint, layout text) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_snowflake_layout_time'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_layout_time(bigint, text) IS
    'start of the time unit in which a snowflake ID of the named layout was made';

CREATE FUNCTION snowflake_layout_field(id bigint, layout text, field text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake_layout_field'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_layout_field(bigint, text, text) IS
    'one field of a snowflake ID in the named layout ("time" gives the raw count of units)';

CREATE FUNCTION snowflake_layout_compose(layout text, ts timestamptz, fields jsonb DEFAULT '{}')
    RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake_layout_compose'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_layout_compose(text, timestamptz, jsonb) IS
    'the snowflake ID of the named layout for the time unit holding ts and the node fields and sequence given (missing ones 0), for backfills and tests';

CREATE FUNCTION snowflake_layout_boundary(layout text, ts timestamptz) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake_layout_boundary'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_layout_boundary(text, timestamptz) IS
    'smallest snowflake ID of the named layout in the time unit holding ts, for range predicates';

CREATE FUNCTION snowflake_layout_end(layout text) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_snowflake_layout_end'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_layout_end(text) IS
    'first instant the named layout''s time field cannot hold (epoch + unit * 2^time bits)';

-- Minting in a layout: the checks, the lease and the clock rule of
-- snowflake(), per layout and node. PARALLEL SAFE as snowflake() is: the
-- state is in shared memory, not in the session. A name of its own, not an
-- overload of snowflake(): snowflake(NULL) and a driver's untyped
-- snowflake($1) would resolve to a text overload. A NULL argument is an
-- error (22004), never a NULL ID, as for snowflake(shard).
CREATE FUNCTION snowflake_layout_new(layout text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake_layout_mint'
    LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_layout_new(text) IS
    'new snowflake ID in the named layout for the node in idgen.shard_id; snowflake_layout_new(''instagram'') is snowflake()';

CREATE FUNCTION snowflake_layout_new(layout text, node bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake_layout_mint_node'
    LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_layout_new(text, bigint) IS
    'new snowflake ID in the named layout for a node (its node fields read as one integer, most significant first), allowed as a shard of idgen.allowed_shards; strictly increasing per layout and node across all sessions and restarts';
-- end family: snowflake_layout

-- begin family: secret_keys
-- ============================================================================
-- Named secret keys of idgen's keyed functions (src/pg/secret_key.cpp)
-- ============================================================================

-- One row per key id of a key name, in a schema of its own that PUBLIC may
-- not use: a role that cannot name the table can hold no lock on it, nor
-- queue one that the library's reads of it would wait behind. The table is
-- revoked from PUBLIC too: the library reads the rows itself, so a role uses
-- a key through a keyed function's EXECUTE and never reads it. Dumped with
-- the database (pg_extension_config_dump): a dump holds the keys. The name
-- is COLLATE "C", the collation of the library's index scans.
CREATE SCHEMA idgen_secret;
COMMENT ON SCHEMA idgen_secret IS 'idgen''s secret keys (idgen_secret_key), usable by no role without a grant';
REVOKE ALL ON SCHEMA idgen_secret FROM PUBLIC;
GRANT USAGE ON SCHEMA idgen_secret TO @extowner@;
CREATE TABLE idgen_secret.idgen_secret_key (
    name text COLLATE "C" NOT NULL,
    key_id integer NOT NULL,
    key bytea NOT NULL,
    created timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT idgen_secret_key_pkey PRIMARY KEY (name, key_id),
    CONSTRAINT idgen_secret_key_name CHECK (pg_catalog.octet_length(name) BETWEEN 1 AND 63),
    CONSTRAINT idgen_secret_key_key_id CHECK (key_id >= 1),
    CONSTRAINT idgen_secret_key_key CHECK (pg_catalog.octet_length(key) = 16)
);
COMMENT ON TABLE idgen_secret.idgen_secret_key IS
    'the secret keys of idgen''s keyed functions (bigint_obfuscate, uuid_v7_mask, ulid_mask): readable by no role without a grant; the library reads them for any role that may run those functions';
COMMENT ON COLUMN idgen_secret.idgen_secret_key.name IS 'the key''s name (1 to 63 bytes), as the keyed functions take it';
COMMENT ON COLUMN idgen_secret.idgen_secret_key.key_id IS
    'the key id within the name, from 1; a new key id of the name is a rotation, and its newest key id is the default';
COMMENT ON COLUMN idgen_secret.idgen_secret_key.key IS 'the 16 key bytes';
COMMENT ON COLUMN idgen_secret.idgen_secret_key.created IS 'when the key was created or imported';
SELECT pg_catalog.pg_extension_config_dump('idgen_secret.idgen_secret_key', '');
REVOKE ALL ON idgen_secret.idgen_secret_key FROM PUBLIC;
-- The role that created the extension manages the keys (and dumps them);
-- another role needs INSERT to add keys, and USAGE on the schema besides to
-- read or delete them in SQL.
GRANT SELECT, INSERT, DELETE ON idgen_secret.idgen_secret_key TO @extowner@;

-- Tells every backend that the keys changed: each keeps the keys it used.
-- A row trigger, which logical replication's apply worker fires too (it
-- fires no statement trigger but TRUNCATE's), and one for TRUNCATE; both
-- enabled ALWAYS.
CREATE FUNCTION idgen_secret_key_changed() RETURNS trigger
    AS 'MODULE_PATHNAME', 'idgen_secret_key_changed'
    LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
COMMENT ON FUNCTION idgen_secret_key_changed() IS
    'trigger of idgen_secret.idgen_secret_key: every backend forgets the keys it kept';
CREATE TRIGGER idgen_secret_key_changed AFTER INSERT OR UPDATE OR DELETE ON idgen_secret.idgen_secret_key
    FOR EACH ROW EXECUTE FUNCTION idgen_secret_key_changed();
ALTER TABLE idgen_secret.idgen_secret_key ENABLE ALWAYS TRIGGER idgen_secret_key_changed;
CREATE TRIGGER idgen_secret_key_truncated AFTER TRUNCATE ON idgen_secret.idgen_secret_key
    FOR EACH STATEMENT EXECUTE FUNCTION idgen_secret_key_changed();
ALTER TABLE idgen_secret.idgen_secret_key ENABLE ALWAYS TRIGGER idgen_secret_key_truncated;

-- Adding keys needs INSERT on idgen_secret.idgen_secret_key (checked by the
-- functions, which write the row without a statement).
CREATE FUNCTION idgen_key_create(name text) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_key_create'
    LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION idgen_key_create(text) IS
    'adds a key id to the key name (1 for a new name) with 16 bytes from idgen''s CSPRNG, made in the server so that no statement or log shows them; returns the key id';

CREATE FUNCTION idgen_key_import(name text, key bytea) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_key_import'
    LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION idgen_key_import(text, bytea) IS
    'adds the given 16 bytes as the key name''s next key id; the key is in the statement, which logs may show; returns the key id';

CREATE FUNCTION idgen_key_import(name text, key bytea, key_id integer) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_key_import'
    LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION idgen_key_import(text, bytea, integer) IS
    'adds the given 16 bytes as this key id of the key name (the same key on another server); the key is in the statement, which logs may show; returns the key id';
-- end family: secret_keys

-- begin family: bigint_obfuscate
-- ============================================================================
-- A keyed permutation of the positive bigints (core/feistel63.hpp)
-- ============================================================================

-- feistel63 under a key of idgen_secret_key, the name's newest key id unless
-- one is given. STABLE: the result depends on the key table (a new key id
-- changes the default). PARALLEL SAFE: a worker reads the keys as the leader.
CREATE FUNCTION bigint_obfuscate(id bigint, key_name text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_bigint_obfuscate'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bigint_obfuscate(bigint, text) IS
    'the public id (1 to 2^63-1) of an id (1 to 2^63-1) under the key name''s newest key id: a keyed permutation (feistel63) that hides the count and order of ids from who sees only public ids; not encryption, no authentication';

CREATE FUNCTION bigint_obfuscate(id bigint, key_name text, key_id integer) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_bigint_obfuscate'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bigint_obfuscate(bigint, text, integer) IS
    'the public id (1 to 2^63-1) of an id (1 to 2^63-1) under this key id of the key name (feistel63)';

CREATE FUNCTION bigint_deobfuscate(public_id bigint, key_name text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_bigint_deobfuscate'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bigint_deobfuscate(bigint, text) IS
    'the id of a public id under the key name''s newest key id, the inverse of bigint_obfuscate; every bigint from 1 to 2^63-1 decodes to some id';

CREATE FUNCTION bigint_deobfuscate(public_id bigint, key_name text, key_id integer) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_bigint_deobfuscate'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bigint_deobfuscate(bigint, text, integer) IS
    'the id of a public id under this key id of the key name, the inverse of bigint_obfuscate';
-- end family: bigint_obfuscate

-- begin family: uuidv47
-- ============================================================================
-- UUIDv47: a UUIDv7 shown as a version 4 facade, and a ULID with its time
-- masked (core/uuidv47.hpp)
-- ============================================================================

-- Under a key of idgen_secret_key, the name's newest key id unless one is
-- given. STABLE: the result depends on the key table (a new key id changes
-- the default). PARALLEL SAFE: a worker reads the keys as the leader.
CREATE FUNCTION uuid_v7_mask(id uuid, key_name text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v7_mask'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_mask(uuid, text) IS
    'the facade of a UUIDv7 under the key name''s newest key id: a version 4 UUID whose 48 time bits are masked with SipHash-2-4 of its random bits (UUIDv47, byte-compatible with its other implementations); hides the time from who sees only facades; not encryption, no authentication';

CREATE FUNCTION uuid_v7_mask(id uuid, key_name text, key_id integer) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v7_mask'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_mask(uuid, text, integer) IS
    'the facade (UUIDv47) of a UUIDv7 under this key id of the key name';

CREATE FUNCTION uuid_v7_unmask(facade uuid, key_name text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v7_unmask'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_unmask(uuid, text) IS
    'the UUIDv7 of a facade under the key name''s newest key id, the inverse of uuid_v7_mask; every version 4 UUID unmasks to some UUIDv7';

CREATE FUNCTION uuid_v7_unmask(facade uuid, key_name text, key_id integer) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v7_unmask'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_unmask(uuid, text, integer) IS
    'the UUIDv7 of a facade under this key id of the key name, the inverse of uuid_v7_mask';

-- The ULID mask is its own inverse; ulid_unmask names the direction.
CREATE FUNCTION ulid_mask(id ulid, key_name text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_mask'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_mask(ulid, text) IS
    'the ULID with its 48 time bits masked with SipHash-2-4 of its 80 random bits under the key name''s newest key id (idgen''s construction); hides the time from who sees only masked ULIDs; not encryption, no authentication';

CREATE FUNCTION ulid_mask(id ulid, key_name text, key_id integer) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_mask'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_mask(ulid, text, integer) IS
    'the ULID with its time masked under this key id of the key name';

CREATE FUNCTION ulid_unmask(masked ulid, key_name text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_mask'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_unmask(ulid, text) IS
    'the ULID of a masked ULID under the key name''s newest key id, the inverse of ulid_mask; every ULID unmasks to some ULID';

CREATE FUNCTION ulid_unmask(masked ulid, key_name text, key_id integer) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_mask'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_unmask(ulid, text, integer) IS
    'the ULID of a masked ULID under this key id of the key name, the inverse of ulid_mask';
-- end family: uuidv47
