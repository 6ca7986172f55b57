-- ============================================================================
-- uuid_v6 and uuid_v8: RFC 9562 UUIDv6 and UUIDv8 on core uuid
-- ============================================================================
-- Layout (RFC 9562 section 5.6), as the C++ edition (src/core/uuidv6.hpp):
-- the 60-bit tick, a count of 100 ns since 1582-10-15 ({{UUIDV6_EPOCH_TICK}}
-- at the Unix epoch), as 48 bits | ver 6 | 12 bits, then variant 10, a 14-bit
-- clock sequence and a 48-bit node, random with the multicast bit (the low
-- bit of its first octet, byte 10) set. SQL's clock has microsecond
-- precision: its ticks are multiples of 10, and the session's next tick is
-- max(clock, last + 1), as uuid_v7()'s (in the setting idgen_sql.uuid_v6_tick,
-- rolled back with its transaction).

-- The first 8 bytes (time, version 6) of the UUIDv6 of the microsecond of ts:
-- 22023 for an infinite ts, 22008 outside the 60-bit tick.
CREATE FUNCTION idgen_sql_uuid_v6_high(ts timestamptz) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    us bigint;
    tick bigint;
BEGIN
    IF NOT pg_catalog.isfinite(ts) THEN
        RAISE EXCEPTION 'cannot build a uuid_v6 from an infinite timestamp' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    us := pg_catalog.floor(EXTRACT(epoch FROM ts) OPERATOR(pg_catalog.*) 1000000)::bigint;
    IF us OPERATOR(pg_catalog.<) {{UUIDV6_MIN_US}} OR us OPERATOR(pg_catalog.>) {{UUIDV6_MAX_US}} THEN
        RAISE EXCEPTION 'timestamp out of range for uuid_v6: "%"', ts
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'Its 60-bit count of 100 ns intervals holds instants from {{UUIDV6_FIRST}} UTC to {{UUIDV6_LAST}} UTC.';
    END IF;
    tick := us OPERATOR(pg_catalog.*) 10 OPERATOR(pg_catalog.+) {{UUIDV6_EPOCH_TICK}};
    RETURN pg_catalog.int8send(((tick OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) 24576
                               OPERATOR(pg_catalog.|) (tick OPERATOR(pg_catalog.&) 4095));
END
$$;
COMMENT ON FUNCTION idgen_sql_uuid_v6_high(timestamptz) IS
    'internal (SQL edition): the first 8 bytes of the UUIDv6 of ts';

CREATE FUNCTION idgen_sql_uuid_v6_out_of_range() RETURNS uuid
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
BEGIN
    IF EXTRACT(epoch FROM pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 10000000 OPERATOR(pg_catalog.+) {{UUIDV6_EPOCH_TICK}} OPERATOR(pg_catalog.>) 1152921504606846975 THEN
        RAISE EXCEPTION 'system clock is outside the range of uuid_v6' USING ERRCODE = 'datetime_field_overflow';
    END IF;
    RAISE EXCEPTION 'uuid_v6 timestamps are exhausted' USING ERRCODE = 'datetime_field_overflow',
        DETAIL = 'The last issued value already holds the largest timestamp.';
END
$$;
COMMENT ON FUNCTION idgen_sql_uuid_v6_out_of_range() IS
    'internal (SQL edition): raises 22008 when uuid_v6()''s next tick is outside 60 bits';

-- One SQL expression, inlined into the caller's query as uuid_v7() (whose
-- notes hold): the WHEN stores the next tick and checks its 60 bits, the THEN
-- reads it back as the first 8 bytes; the last 8 are a version 4 uuid's (the
-- variant and 62 random bits) with the multicast bit set.
CREATE FUNCTION uuid_v6() RETURNS uuid
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED
    RETURN CASE WHEN ({{UUID_V6_NEXT_TICK}}::bigint >> 60) = 0
                THEN pg_catalog.encode(pg_catalog.int8send(((pg_catalog.current_setting('idgen_sql.uuid_v6_tick')::bigint >> 12) << 16) | 24576
                                                           | (pg_catalog.current_setting('idgen_sql.uuid_v6_tick')::bigint & 4095))
                                       || {{UUIDV6_RANDOM_LOW}}, 'hex')::uuid
                ELSE idgen_sql_uuid_v6_out_of_range() END;
COMMENT ON FUNCTION uuid_v6() IS
    'new UUIDv6 (RFC 9562) from SQL''s microsecond clock, with a random clock sequence and multicast node; strictly increasing per session (SQL edition: rolled back with the transaction)';

CREATE FUNCTION uuid_v6_at(ts timestamptz) RETURNS uuid
    LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
    RETURN pg_catalog.encode(idgen_sql_uuid_v6_high(ts) || {{UUIDV6_RANDOM_LOW}}, 'hex')::uuid;
COMMENT ON FUNCTION uuid_v6_at(timestamptz) IS
    'UUIDv6 for the given instant with a fresh random clock sequence and node, for backfills';

CREATE FUNCTION uuid_v6_boundary(ts timestamptz) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.encode(idgen_sql_uuid_v6_high(ts) || '\x8000000000000000'::bytea, 'hex')::uuid;
COMMENT ON FUNCTION uuid_v6_boundary(timestamptz) IS
    'smallest UUIDv6 of the microsecond holding ts (clock sequence and node zero), for range predicates and partition bounds';

CREATE FUNCTION uuid_v6_time(id uuid) RETURNS timestamptz
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    h pg_catalog.text := pg_catalog.translate(id::pg_catalog.text, '-', '');
    us bigint;
BEGIN
    IF pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.<>) ALL ('{8,9,a,b}'::pg_catalog.text[]) THEN
        RETURN NULL;
    ELSIF pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.=) '6' THEN
        us := pg_catalog.concat('x', pg_catalog.substr(h, 1, 12), pg_catalog.substr(h, 14, 3))::bit(60)::bigint;
    ELSIF pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.=) '1' THEN
        us := pg_catalog.concat('x', pg_catalog.substr(h, 14, 3), pg_catalog.substr(h, 9, 4), pg_catalog.substr(h, 1, 8))::bit(60)::bigint;
    ELSE
        RETURN NULL;
    END IF;
    us := us OPERATOR(pg_catalog./) 10 OPERATOR(pg_catalog.-) {{UUIDV6_EPOCH_US}};
    RETURN pg_catalog.to_timestamp(0) OPERATOR(pg_catalog.+) ((us OPERATOR(pg_catalog./) 1000000) OPERATOR(pg_catalog.*) interval '1 second')
           OPERATOR(pg_catalog.+) ((us OPERATOR(pg_catalog.%) 1000000) OPERATOR(pg_catalog.*) interval '1 microsecond');
END
$$;
COMMENT ON FUNCTION uuid_v6_time(uuid) IS
    'timestamp embedded in a UUIDv6 or UUIDv1, floored to the microsecond; NULL when the UUID is neither';

-- v1 <-> v6: the 15 hex digits of the tick reordered (v1: time_low 8,
-- time_mid 4, version, time_high 3; v6: the tick's 12, version, its last 3),
-- the last 16 digits unchanged; a uuid of another version or variant: 22023.
CREATE FUNCTION idgen_sql_uuid_reorder(id uuid, wanted integer) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    h pg_catalog.text := pg_catalog.translate(id::pg_catalog.text, '-', '');
    v integer := pg_catalog.strpos('0123456789abcdef', pg_catalog.substr(h, 13, 1)) OPERATOR(pg_catalog.-) 1;
    fn pg_catalog.text := 'uuid_v1_from_v6';
    t pg_catalog.text;
BEGIN
    IF wanted OPERATOR(pg_catalog.=) 1 THEN
        fn := 'uuid_v6_from_v1';
    END IF;
    IF pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.<>) ALL ('{8,9,a,b}'::pg_catalog.text[]) THEN
        RAISE EXCEPTION '% needs a version % uuid: "%"', fn, wanted, id USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'Its variant bits are not RFC 9562''s (10), so it has no version.';
    ELSIF v OPERATOR(pg_catalog.+) wanted OPERATOR(pg_catalog.=) 7 THEN
        RAISE EXCEPTION '% needs a version % uuid: "%"', fn, wanted, id USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('Its version is %s.', v), HINT = pg_catalog.format('It is already version %s.', v);
    ELSIF v OPERATOR(pg_catalog.<>) wanted THEN
        RAISE EXCEPTION '% needs a version % uuid: "%"', fn, wanted, id USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('Its version is %s.', v);
    END IF;
    IF wanted OPERATOR(pg_catalog.=) 1 THEN
        t := pg_catalog.concat(pg_catalog.substr(h, 14, 3), pg_catalog.substr(h, 9, 4), pg_catalog.substr(h, 1, 8));
        RETURN pg_catalog.concat(pg_catalog.substr(t, 1, 12), '6', pg_catalog.substr(t, 13, 3), pg_catalog.substr(h, 17))::pg_catalog.uuid;
    END IF;
    t := pg_catalog.concat(pg_catalog.substr(h, 1, 12), pg_catalog.substr(h, 14, 3));
    RETURN pg_catalog.concat(pg_catalog.substr(t, 8, 8), pg_catalog.substr(t, 4, 4), '1', pg_catalog.substr(t, 1, 3), pg_catalog.substr(h, 17))::pg_catalog.uuid;
END
$$;
COMMENT ON FUNCTION idgen_sql_uuid_reorder(uuid, integer) IS
    'internal (SQL edition): uuid_v6_from_v1 (wanted 1), uuid_v1_from_v6 (6)';

CREATE FUNCTION uuid_v6_from_v1(id uuid) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_uuid_reorder(id, 1);
COMMENT ON FUNCTION uuid_v6_from_v1(uuid) IS
    'the UUIDv6 with the same time, clock sequence and node as a UUIDv1 (its time fields reordered so that byte order is time order); an error for any other version';

CREATE FUNCTION uuid_v1_from_v6(id uuid) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_uuid_reorder(id, 6);
COMMENT ON FUNCTION uuid_v1_from_v6(uuid) IS
    'the UUIDv1 with the same time, clock sequence and node as a UUIDv6; an error for any other version';

-- UUIDv8 of the first 16 bytes of b: version 8 and variant 10 set.
CREATE FUNCTION idgen_sql_uuid_v8_of(b bytea) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    RETURN pg_catalog.encode(pg_catalog.set_byte(pg_catalog.set_byte(pg_catalog.substr(b, 1, 16),
               6, (pg_catalog.get_byte(b, 6) OPERATOR(pg_catalog.&) 15) OPERATOR(pg_catalog.|) 128),
               8, (pg_catalog.get_byte(b, 8) OPERATOR(pg_catalog.&) 63) OPERATOR(pg_catalog.|) 128), 'hex')::pg_catalog.uuid;
END
$$;
COMMENT ON FUNCTION idgen_sql_uuid_v8_of(bytea) IS 'internal (SQL edition): the UUIDv8 of the first 16 bytes of b';

CREATE FUNCTION idgen_sql_uuid_v8_bad(b bytea) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF pg_catalog.octet_length(b) OPERATOR(pg_catalog.=) 32 THEN
        RAISE EXCEPTION 'invalid input length for uuid_v8' USING ERRCODE = 'invalid_binary_representation',
            DETAIL = 'A UUID is 16 bytes; this bytea has 32.',
            HINT = 'For a hash, pass its first 16 bytes: substring(digest from 1 for 16), or use uuid_v8_sha256().';
    END IF;
    RAISE EXCEPTION 'invalid input length for uuid_v8' USING ERRCODE = 'invalid_binary_representation',
        DETAIL = pg_catalog.format('A UUID is 16 bytes; this bytea has %s.', pg_catalog.octet_length(b));
END
$$;
COMMENT ON FUNCTION idgen_sql_uuid_v8_bad(bytea) IS 'internal (SQL edition): raises 22P03 for uuid_v8 of another length than 16';

CREATE FUNCTION uuid_v8(bytes bytea) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN pg_catalog.octet_length(bytes) = 16 THEN idgen_sql_uuid_v8_of(bytes) ELSE idgen_sql_uuid_v8_bad(bytes) END;
COMMENT ON FUNCTION uuid_v8(bytea) IS
    'UUIDv8 (RFC 9562) of exactly 16 bytes: the same bytes with version 8 and the RFC variant set';

-- Name-based (RFC 9562 Appendix B.2): core's sha256() (PostgreSQL 11 on).
CREATE FUNCTION uuid_v8_sha256(namespace uuid, name text) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_uuid_v8_of(pg_catalog.sha256(pg_catalog.uuid_send(namespace) || pg_catalog.convert_to(name, 'UTF8')));
COMMENT ON FUNCTION uuid_v8_sha256(uuid, text) IS
    'name-based UUIDv8 (RFC 9562 section 5.5, Appendix B.2): the first 16 bytes of SHA-256 over the namespace''s 16 bytes and the name''s UTF-8 bytes, version 8 and variant set';

CREATE FUNCTION uuid_v8_sha256(namespace uuid, name bytea) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_uuid_v8_of(pg_catalog.sha256(pg_catalog.uuid_send(namespace) || name));
COMMENT ON FUNCTION uuid_v8_sha256(uuid, bytea) IS
    'name-based UUIDv8 (RFC 9562 section 5.5, Appendix B.2): the first 16 bytes of SHA-256 over the namespace''s 16 bytes and the name''s bytes, version 8 and variant set';
