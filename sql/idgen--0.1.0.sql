-- idgen 0.1.0: uuid_v7 family and generator statistics
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

-- uuid_v7 -----------------------------------------------------------------

CREATE FUNCTION uuid_v7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v7'
    LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7() IS
    'new UUIDv7 (RFC 9562) with 12 bits of sub-millisecond time; strictly increasing per backend, or server-wide with idgen.uuid_v7_order = server';

CREATE FUNCTION uuid_v7(shift interval) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v7_shift'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7(interval) IS
    'new UUIDv7 whose embedded time is moved by shift, to hide the creation time';

CREATE FUNCTION uuid_v7_at(ts timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v7_at'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_at(timestamptz) IS
    'UUIDv7 for the given instant with fresh random bits, for backfills';

CREATE FUNCTION uuid_v7_boundary(ts timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'idgen_uuid_v7_boundary'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_boundary(timestamptz) IS
    'smallest UUIDv7 of the millisecond holding ts, for range predicates and partition bounds';

CREATE FUNCTION uuid_v7_time(id uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_uuid_v7_time'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_time(uuid) IS
    'millisecond timestamp embedded in a UUIDv7; NULL when the UUID is not version 7';

-- generator state -----------------------------------------------------------

CREATE FUNCTION idgen_backend_state(
        OUT pid integer,
        OUT backend_index integer,
        OUT family text,
        OUT ids_minted bigint,
        OUT last_issued timestamptz,
        OUT clock_regressions bigint,
        OUT ran_ahead bigint,
        OUT waits bigint,
        OUT shared_memory boolean)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'idgen_backend_state'
    LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen_backend_state() IS
    'generator state of each live backend and ID family: IDs minted, last time issued, clock regressions, run-aheads, waits';

CREATE VIEW idgen_stats AS
    SELECT * FROM idgen_backend_state();
COMMENT ON VIEW idgen_stats IS
    'generator state of each live backend and ID family (shared_memory is false when idgen is not preloaded)';
