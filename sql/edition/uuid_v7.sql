-- ============================================================================
-- uuid_v7: RFC 9562 UUIDv7 generators and decoders
-- ============================================================================
-- Layout (RFC 9562 section 5.7, method 3 of 6.2 for rand_a), as the C++ edition:
-- 48 bits unix_ts_ms | ver 7 | 12 bits rand_a = floor(ns_within_ms * 4096 / 1e6)
-- | variant 10 | 62 random bits. SQL's clock (clock_timestamp()) has microsecond
-- precision, so rand_a takes about 1000 of its 4096 values.

-- The 60-bit tick (unix_ts_ms << 12 | rand_a) of an instant: 22023 for an
-- infinite one, 22008 outside the 48-bit millisecond field.
CREATE FUNCTION idgen_sql_uuid_v7_tick(ts timestamptz) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    us bigint;
    ms bigint;
BEGIN
    IF NOT pg_catalog.isfinite(ts) THEN
        RAISE EXCEPTION 'cannot build a uuid_v7 from an infinite timestamp' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    us := pg_catalog.floor(EXTRACT(epoch FROM ts) OPERATOR(pg_catalog.*) 1000000)::bigint;
    ms := pg_catalog.div(us, 1000)::bigint;
    IF ms OPERATOR(pg_catalog.<) 0 OR ms OPERATOR(pg_catalog.>) 281474976710655 THEN
        RAISE EXCEPTION 'timestamp out of range for uuid_v7: "%"', ts
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'Its 48-bit millisecond field holds instants from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
    END IF;
    RETURN (ms OPERATOR(pg_catalog.<<) 12)
           OPERATOR(pg_catalog.+) (((us OPERATOR(pg_catalog.-) (ms OPERATOR(pg_catalog.*) 1000)) OPERATOR(pg_catalog.*) 4096) OPERATOR(pg_catalog./) 1000);
END
$$;
COMMENT ON FUNCTION idgen_sql_uuid_v7_tick(timestamptz) IS
    'internal (SQL edition): unix_ts_ms << 12 | rand_a of an instant';

-- A UUIDv7 of a tick and 62 fresh random bits (a version 4 uuid's rand_b,
-- whose variant bits are already 10).
CREATE FUNCTION idgen_sql_uuid_v7_of_tick(tick bigint) RETURNS uuid
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE
AS $$
BEGIN
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(tick OPERATOR(pg_catalog.>>) 12), 12, '0') OPERATOR(pg_catalog.||) '7'
            OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(tick OPERATOR(pg_catalog.&) 4095), 3, '0')
            OPERATOR(pg_catalog.||) pg_catalog.substr(pg_catalog.translate(pg_catalog.gen_random_uuid()::pg_catalog.text, '-', ''), 17, 16))::pg_catalog.uuid;
END
$$;
COMMENT ON FUNCTION idgen_sql_uuid_v7_of_tick(bigint) IS
    'internal (SQL edition): a UUIDv7 of a tick with 62 random bits';

-- The session's sequence: the last tick issued, in the setting
-- idgen_sql.uuid_v7_tick. A setting is session state that every function can
-- read; it is rolled back with its transaction.
-- uuid_v7() is one SQL expression, inlined into the caller's query (issue 33:
-- a PL/pgSQL body cost 4 us a call, this under 2): the WHEN stores the new
-- tick, max(clock, last + 1) (generate.py's UUID_V7_NEXT_TICK), and checks it
-- has 60 bits; the THEN reads it back (an inlined function has no variables)
-- as the uuid's first 8 bytes, 48 bits of ms, version 7 and 12 bits of
-- rand_a; rand_b and the variant are the second half of a version 4 uuid's
-- bytes. Built in bytea, not text: 0.3 us less.
-- set_config() is PARALLEL UNSAFE: a query that calls uuid_v7() runs without
-- parallel workers (a worker could not keep the session's sequence anyway).
CREATE FUNCTION idgen_sql_uuid_v7_out_of_range() RETURNS uuid
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    ms bigint := pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000)::bigint;
BEGIN
    IF ms OPERATOR(pg_catalog.<) 0 OR ms OPERATOR(pg_catalog.>) 281474976710655 THEN
        RAISE EXCEPTION 'system clock is outside the range of uuid_v7' USING ERRCODE = 'datetime_field_overflow';
    END IF;
    RAISE EXCEPTION 'uuid_v7 timestamps are exhausted' USING ERRCODE = 'datetime_field_overflow';
END
$$;
COMMENT ON FUNCTION idgen_sql_uuid_v7_out_of_range() IS
    'internal (SQL edition): raises 22008 when uuid_v7()''s next tick is outside 60 bits';

CREATE FUNCTION uuid_v7() RETURNS uuid
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED
    RETURN CASE WHEN ({{UUID_V7_NEXT_TICK}}::bigint >> 60) = 0
                THEN pg_catalog.encode(pg_catalog.int8send(((pg_catalog.current_setting('idgen_sql.uuid_v7_tick')::bigint >> 12) << 16) | 28672
                                                           | (pg_catalog.current_setting('idgen_sql.uuid_v7_tick')::bigint & 4095))
                                       || pg_catalog.substr(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()), 9), 'hex')::uuid
                ELSE idgen_sql_uuid_v7_out_of_range() END;
COMMENT ON FUNCTION uuid_v7() IS
    'new UUIDv7 (RFC 9562) with 12 bits of sub-millisecond time at the microsecond precision of SQL''s clock; strictly increasing per session (SQL edition: the session''s last value is rolled back with its transaction)';

-- The clock moved by shift, checked: 22023 for an infinite shift, 22008 when
-- the result is outside the 48-bit millisecond field.
CREATE FUNCTION idgen_sql_uuid_v7_shifted(shift interval) RETURNS timestamptz
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE
AS $$
DECLARE
    shifted pg_catalog.timestamptz;
BEGIN
    IF NOT pg_catalog.isfinite(shift) THEN
        RAISE EXCEPTION 'cannot build a uuid_v7 from an infinite interval' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    shifted := pg_catalog.clock_timestamp() OPERATOR(pg_catalog.+) shift;
    IF NOT pg_catalog.isfinite(shifted) OR shifted OPERATOR(pg_catalog.<) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
       OR shifted OPERATOR(pg_catalog.>=) '10889-08-02 05:31:50.656+00'::pg_catalog.timestamptz THEN
        RAISE EXCEPTION 'timestamp out of range for uuid_v7: "%"', shifted
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'Its 48-bit millisecond field holds instants from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
    END IF;
    RETURN shifted;
END
$$;
COMMENT ON FUNCTION idgen_sql_uuid_v7_shifted(interval) IS
    'internal (SQL edition): clock_timestamp() + shift, checked for uuid_v7';

-- uuid_v7(shift): the time moved by shift, outside the session's sequence.
CREATE FUNCTION uuid_v7(shift interval) RETURNS uuid
    LANGUAGE sql VOLATILE STRICT PARALLEL RESTRICTED
    RETURN idgen_sql_uuid_v7_of_tick(idgen_sql_uuid_v7_tick(idgen_sql_uuid_v7_shifted(shift)));
COMMENT ON FUNCTION uuid_v7(interval) IS
    'new UUIDv7 whose embedded time is moved by shift, to hide the creation time';

CREATE FUNCTION uuid_v7_at(ts timestamptz) RETURNS uuid
    LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
    RETURN idgen_sql_uuid_v7_of_tick(idgen_sql_uuid_v7_tick(ts));
COMMENT ON FUNCTION uuid_v7_at(timestamptz) IS
    'UUIDv7 for the given instant with fresh random bits, for backfills';

-- The smallest UUIDv7 of a millisecond: rand_a and rand_b zero, version 7, variant 10.
CREATE FUNCTION uuid_v7_boundary(ts timestamptz) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(idgen_sql_unix_ms48(ts, 'uuid_v7')), 12, '0') || '70008000000000000000')::uuid;
COMMENT ON FUNCTION uuid_v7_boundary(timestamptz) IS
    'smallest UUIDv7 of the millisecond holding ts, for range predicates and partition bounds';

CREATE FUNCTION uuid_v7_time(id uuid) RETURNS timestamptz
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    h pg_catalog.text := pg_catalog.translate(id::pg_catalog.text, '-', '');
    ms bigint;
BEGIN
    IF pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.<>) '7'
       OR pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.<>) ALL ('{8,9,a,b}'::pg_catalog.text[]) THEN
        RETURN NULL;
    END IF;
    ms := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 1, 12))::bit(48)::bigint;
    RETURN pg_catalog.to_timestamp(0) OPERATOR(pg_catalog.+) ((ms OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) interval '1 second')
           OPERATOR(pg_catalog.+) ((ms OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) interval '1 millisecond');
END
$$;
COMMENT ON FUNCTION uuid_v7_time(uuid) IS
    'millisecond timestamp embedded in a UUIDv7; NULL when the UUID is not version 7';
