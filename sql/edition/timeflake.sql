-- ============================================================================
-- Timeflake: timeflake(), timeflake_at(), timeflake_boundary(),
-- timeflake_time(), timeflake_random()
-- ============================================================================
-- A uuid of 48-bit Unix ms then 80 random bits, no version or variant bits,
-- as the C++ edition's (src/core/timeflake.hpp): ULID's layout, so ulid's
-- helpers serve. Its base62 text is uuid_encode(u, 'base62').

-- The session's last Timeflake is in the setting idgen_sql.timeflake_last as
-- its 32 hexadecimal digits. In a millisecond past it the next takes fresh
-- random bits; otherwise (the same millisecond, or the clock set back) it is
-- the last + 1 (successor), carrying into the millisecond, as in the C++
-- edition.
CREATE FUNCTION idgen_sql_timeflake_next(last text, now_ms bigint, successor text, random text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
BEGIN
    IF now_ms OPERATOR(pg_catalog.<) 0 OR now_ms OPERATOR(pg_catalog.>) 281474976710655 THEN
        RAISE EXCEPTION 'system clock is outside the range of timeflake' USING ERRCODE = 'datetime_field_overflow';
    END IF;
    IF last IS NULL OR last OPERATOR(pg_catalog.=) ''
       OR now_ms OPERATOR(pg_catalog.>) ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 1, 12))::bit(48)::bigint THEN
        RETURN pg_catalog.lpad(pg_catalog.to_hex(now_ms), 12, '0') OPERATOR(pg_catalog.||) pg_catalog.substr(random, 1, 20);
    END IF;
    IF successor IS NULL THEN
        RAISE EXCEPTION 'timeflake values are exhausted' USING ERRCODE = 'datetime_field_overflow',
            DETAIL = 'This session''s last Timeflake is the largest, ffffffff-ffff-ffff-ffff-ffffffffffff.';
    END IF;
    RETURN successor;
END
$$;
COMMENT ON FUNCTION idgen_sql_timeflake_next(text, bigint, text, text) IS
    'internal (SQL edition): the digits of the Timeflake after last at now_ms, given last + 1 and 20 random digits';

-- One clock reading, the setting's value and its successor, then the next.
CREATE FUNCTION timeflake() RETURNS uuid
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED
    RETURN (SELECT pg_catalog.set_config('idgen_sql.timeflake_last',
                       idgen_sql_timeflake_next(s.last, s.now_ms, idgen_sql_increment(s.last, '0123456789abcdef'), idgen_sql_random_hex30()),
                       false)
            FROM (SELECT {{UNIX_MS_NOW}} AS now_ms, pg_catalog.current_setting('idgen_sql.timeflake_last', true) AS last) s)::uuid;
COMMENT ON FUNCTION timeflake() IS
    'new Timeflake as a uuid: 48-bit Unix milliseconds then 80 random bits (no version or variant bits); within the session strictly increasing (the same millisecond or a clock set back: the previous + 1); base62 text by uuid_encode(u, ''base62'')';

CREATE FUNCTION timeflake_at(ts timestamptz) RETURNS uuid
    LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(idgen_sql_unix_ms48(ts, 'timeflake')), 12, '0')
            || pg_catalog.substr(idgen_sql_random_hex30(), 1, 20))::uuid;
COMMENT ON FUNCTION timeflake_at(timestamptz) IS
    'Timeflake of the millisecond holding ts with fresh random bits, for backfilling rows created in the past';

CREATE FUNCTION timeflake_boundary(ts timestamptz) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(idgen_sql_unix_ms48(ts, 'timeflake')), 12, '0') || '00000000000000000000')::uuid;
COMMENT ON FUNCTION timeflake_boundary(timestamptz) IS
    'smallest Timeflake of the millisecond holding ts (random bits zero), for range predicates and partition bounds';

CREATE FUNCTION timeflake_time(id uuid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_time_of_ms(('x' || pg_catalog.substr(idgen_sql_hex(id), 1, 12))::bit(48)::bigint);
COMMENT ON FUNCTION timeflake_time(uuid) IS
    'millisecond in the high 48 bits of a Timeflake (of any uuid read as one)';

-- The low 80 bits: the 16 above the last 64, times 2^64, plus the last 64
-- read as unsigned.
CREATE FUNCTION timeflake_random(id uuid) RETURNS numeric
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ('x' || pg_catalog.substr(idgen_sql_hex(id), 13, 4))::bit(16)::integer::numeric * 18446744073709551616
           + ('x' || pg_catalog.substr(idgen_sql_hex(id), 17, 16))::bit(64)::bigint::numeric
           + CASE WHEN pg_catalog.get_byte(pg_catalog.uuid_send(id), 8) >= 128 THEN 18446744073709551616 ELSE 0 END;
COMMENT ON FUNCTION timeflake_random(uuid) IS
    'low 80 bits of a Timeflake as an integer (0 to 2^80 - 1), as Timeflake''s own libraries give them';
