-- idgen 0.1.0 -> 0.2.0: snowflake family
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

-- snowflake -----------------------------------------------------------------

-- Not STRICT: a NULL shard is an error rather than a NULL ID in a DEFAULT.
CREATE FUNCTION snowflake(shard integer) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake'
    LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION snowflake(integer) IS
    'new 64-bit snowflake ID (41-bit ms since idgen.snowflake_epoch, 13-bit shard 0..8191, 10-bit sequence); never negative, strictly increasing per shard across all sessions and restarts';

CREATE FUNCTION snowflake() RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake_default_shard'
    LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION snowflake() IS
    'new snowflake ID for the shard in idgen.shard_id';

CREATE FUNCTION snowflake_time(id bigint) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_snowflake_time'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_time(bigint) IS
    'millisecond in which a snowflake ID was issued (counted from idgen.snowflake_epoch)';

CREATE FUNCTION snowflake_shard(id bigint) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_snowflake_shard'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_shard(bigint) IS
    'shard (0..8191) that issued a snowflake ID';

CREATE FUNCTION snowflake_seq(id bigint) RETURNS integer
    AS 'MODULE_PATHNAME', 'idgen_snowflake_seq'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_seq(bigint) IS
    'sequence number (0..1023) of a snowflake ID within its millisecond and shard';

CREATE FUNCTION snowflake_boundary(ts timestamptz) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake_boundary'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_boundary(timestamptz) IS
    'smallest snowflake ID of the millisecond holding ts, for range predicates and partition bounds';

CREATE FUNCTION snowflake_boundary(ts timestamptz, shard integer) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake_boundary_shard'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_boundary(timestamptz, integer) IS
    'smallest snowflake ID of the millisecond holding ts on the given shard';

CREATE FUNCTION idgen_snowflake_shard_state(
        OUT shard integer,
        OUT last_id bigint,
        OUT last_issued timestamptz,
        OUT borrowed_ms bigint,
        OUT waits bigint,
        OUT clock_regressions bigint)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'idgen_snowflake_shard_state'
    LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION idgen_snowflake_shard_state() IS
    'snowflake shards active since the server started: last ID issued, milliseconds borrowed ahead of the clock, waits for the clock, clock regressions seen';

CREATE VIEW idgen_snowflake_shards AS
    SELECT * FROM idgen_snowflake_shard_state();
COMMENT ON VIEW idgen_snowflake_shards IS
    'snowflake shards active since the server started, with their last ID and clock events';
