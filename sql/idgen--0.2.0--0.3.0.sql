-- idgen 0.2.0 -> 0.3.0: the ulid type and its generators
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

-- type ------------------------------------------------------------------------

CREATE TYPE ulid;

CREATE FUNCTION ulid_in(cstring) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_in'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_in(cstring) IS
    'ulid input: 26 Crockford base32 characters in either case, at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ; I, L, O and U are rejected';

CREATE FUNCTION ulid_out(ulid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'idgen_ulid_out'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_out(ulid) IS
    'ulid output: 26 uppercase Crockford base32 characters';

CREATE FUNCTION ulid_recv(internal) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_recv'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_recv(internal) IS
    'ulid binary input: the 16 bytes, most significant first';

CREATE FUNCTION ulid_send(ulid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'idgen_ulid_send'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_send(ulid) IS
    'ulid binary output: the 16 bytes, most significant first';

-- The same storage as uuid: 16 bytes, no alignment, never toasted.
CREATE TYPE ulid (
    INPUT = ulid_in,
    OUTPUT = ulid_out,
    RECEIVE = ulid_recv,
    SEND = ulid_send,
    INTERNALLENGTH = 16,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE ulid IS
    'ULID: 48-bit Unix millisecond timestamp and 80 random bits in 16 bytes, ordered by time; text is 26 Crockford base32 characters';

-- comparison ------------------------------------------------------------------

-- Byte comparisons cannot fail or reveal anything: LEAKPROOF, as for uuid.
CREATE FUNCTION ulid_eq(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ulid_eq'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_eq(ulid, ulid) IS 'implementation of = for ulid';

CREATE FUNCTION ulid_ne(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ulid_ne'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_ne(ulid, ulid) IS 'implementation of <> for ulid';

CREATE FUNCTION ulid_lt(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ulid_lt'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_lt(ulid, ulid) IS 'implementation of < for ulid';

CREATE FUNCTION ulid_le(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ulid_le'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_le(ulid, ulid) IS 'implementation of <= for ulid';

CREATE FUNCTION ulid_gt(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ulid_gt'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_gt(ulid, ulid) IS 'implementation of > for ulid';

CREATE FUNCTION ulid_ge(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idgen_ulid_ge'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_ge(ulid, ulid) IS 'implementation of >= for ulid';

CREATE FUNCTION ulid_cmp(ulid, ulid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_ulid_cmp'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_cmp(ulid, ulid) IS
    'btree comparison of two ULIDs: -1, 0 or 1, in time order';

CREATE FUNCTION ulid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'idgen_ulid_sortsupport'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_sortsupport(internal) IS
    'btree sort support for ulid, with abbreviated keys';

CREATE FUNCTION ulid_hash(ulid) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_ulid_hash'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_hash(ulid) IS
    'hash of a ULID (equal to the hash of the same value as uuid)';

CREATE FUNCTION ulid_hash_extended(ulid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_ulid_hash_extended'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_hash_extended(ulid, bigint) IS
    'seeded 64-bit hash of a ULID, for hash partitioning';

CREATE OPERATOR = (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, MERGES, HASHES
);
COMMENT ON OPERATOR =(ulid, ulid) IS 'equal';

CREATE OPERATOR <> (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <>(ulid, ulid) IS 'not equal';

CREATE OPERATOR < (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR <(ulid, ulid) IS 'less than (earlier)';

CREATE OPERATOR <= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <=(ulid, ulid) IS 'less than or equal';

CREATE OPERATOR > (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR >(ulid, ulid) IS 'greater than (later)';

CREATE OPERATOR >= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >=(ulid, ulid) IS 'greater than or equal';

-- btequalimage: equal ULIDs are byte-identical, so btree deduplication is safe.
CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 ulid_cmp(ulid, ulid),
    FUNCTION 2 ulid_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);

CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 ulid_hash(ulid),
    FUNCTION 2 ulid_hash_extended(ulid, bigint);

-- Block ranges of an append-only table keyed by ulid() cover narrow time spans.
CREATE OPERATOR CLASS ulid_minmax_ops DEFAULT FOR TYPE ulid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);

-- min() and max(): with SORTOP, the planner reads them from a btree index.
CREATE FUNCTION ulid_smaller(ulid, ulid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_smaller'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_smaller(ulid, ulid) IS 'the smaller (earlier) of two ULIDs';

CREATE FUNCTION ulid_larger(ulid, ulid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_larger'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_larger(ulid, ulid) IS 'the larger (later) of two ULIDs';

CREATE AGGREGATE min(ulid) (
    SFUNC = ulid_smaller, STYPE = ulid, COMBINEFUNC = ulid_smaller,
    SORTOP = <, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(ulid) IS 'the earliest ULID';

CREATE AGGREGATE max(ulid) (
    SFUNC = ulid_larger, STYPE = ulid, COMBINEFUNC = ulid_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE max(ulid) IS 'the latest ULID';

-- generators and decoders -----------------------------------------------------

CREATE FUNCTION ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid'
    LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION ulid() IS
    'new ULID from the clock and the CSPRNG; within a session, an ID in the same millisecond as the last is the last + 1 (the spec''s monotonic mode)';

CREATE FUNCTION ulid_at(ts timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_at'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_at(timestamptz) IS
    'ULID of the millisecond holding ts with fresh random bits, for backfilling rows created in the past';

CREATE FUNCTION ulid_boundary(ts timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'idgen_ulid_boundary'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_boundary(timestamptz) IS
    'smallest ULID of the millisecond holding ts (random bits zero), for range predicates and partition bounds';

CREATE FUNCTION ulid_time(id ulid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_ulid_time'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_time(ulid) IS
    'millisecond a ULID carries';

-- casts -------------------------------------------------------------------------

-- Both types are the same 16 bytes, and every 128-bit value is a valid ULID
-- and a valid uuid. Assignment, not implicit: = stays unambiguous.
CREATE CAST (ulid AS uuid) WITHOUT FUNCTION AS ASSIGNMENT;
COMMENT ON CAST (ulid AS uuid) IS 'the same 16 bytes as a uuid';

CREATE CAST (uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;
COMMENT ON CAST (uuid AS ulid) IS
    'the same 16 bytes as a ulid; a UUIDv7 keeps its millisecond';

CREATE CAST (ulid AS timestamptz) WITH FUNCTION ulid_time(ulid);
COMMENT ON CAST (ulid AS timestamptz) IS 'the millisecond a ULID carries';
