-- ============================================================================
-- ksuid: a domain over bytea, generators, decoders, KSUID text
-- ============================================================================
-- The C++ edition's ksuid is a base type of 20 bytes ordered bytewise, whose
-- text is 27 base62 digits ({{KSUID_ALPHABET}}). Here it is a domain over
-- bytea holding the same 20 bytes (bytea of one length compares bytewise:
-- the same order, and bytea's btree and hash support). KSUID text is
-- ksuid_to_text(id) and ksuid_from_text(text); on the C++ edition a column
-- converts with ALTER TABLE ... ALTER COLUMN c TYPE ksuid USING c::bytea::ksuid.
-- Layout (segmentio/ksuid): 4 bytes of seconds since {{KSUID_EPOCH}} (Unix)
-- | 16 random bytes.

-- A bytea of another length than 20: 22P03 with the C++ edition's cast's
-- message, from the domain's CHECK (so also for bytes::ksuid).
CREATE FUNCTION idgen_sql_ksuid_bad_bytea(b bytea) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF pg_catalog.octet_length(b) OPERATOR(pg_catalog.=) {{KSUID_TEXT_LENGTH}} THEN
        RAISE EXCEPTION 'invalid input length for type ksuid' USING ERRCODE = 'invalid_binary_representation',
            DETAIL = 'A ksuid is {{KSUID_BYTES}} bytes; this bytea has {{KSUID_TEXT_LENGTH}}.',
            HINT = '{{KSUID_TEXT_LENGTH}} bytes may be KSUID text, which a cast from text reads: convert_from(bytes, ''UTF8'')::ksuid.';
    END IF;
    RAISE EXCEPTION 'invalid input length for type ksuid' USING ERRCODE = 'invalid_binary_representation',
        DETAIL = pg_catalog.format('A ksuid is {{KSUID_BYTES}} bytes; this bytea has %s.', pg_catalog.octet_length(b));
END
$$;
COMMENT ON FUNCTION idgen_sql_ksuid_bad_bytea(bytea) IS 'internal (SQL edition): raises 22P03';

CREATE DOMAIN ksuid AS bytea
    CONSTRAINT ksuid_length CHECK (pg_catalog.octet_length(VALUE) = {{KSUID_BYTES}} OR idgen_sql_ksuid_bad_bytea(VALUE));
COMMENT ON DOMAIN ksuid IS
    'KSUID (SQL edition: a domain over bytea, the C++ edition''s 20 bytes and order): 32-bit seconds since 2014-05-13 16:53:20 UTC, 128 random bits; text through ksuid_to_text() and ksuid_from_text()';

-- KSUID text -----------------------------------------------------------------

-- 27 base62 digits of the 160 bits, in numeric arithmetic.
CREATE FUNCTION ksuid_to_text(id ksuid) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    a pg_catalog.text := '{{KSUID_ALPHABET}}';
    n numeric := 0;
    t pg_catalog.text := '';
BEGIN
    FOR i IN 0..{{KSUID_BYTES}} OPERATOR(pg_catalog.-) 1 LOOP
        n := n OPERATOR(pg_catalog.*) 256 OPERATOR(pg_catalog.+) pg_catalog.get_byte(id, i);
    END LOOP;
    FOR i IN 1..{{KSUID_TEXT_LENGTH}} LOOP
        t := pg_catalog.substr(a, pg_catalog.mod(n, 62)::integer OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) t;
        n := pg_catalog.div(n, 62);
    END LOOP;
    RETURN t;
END
$$;
COMMENT ON FUNCTION ksuid_to_text(ksuid) IS
    'SQL edition: the KSUID text of a ksuid, 27 base62 characters (the C++ edition''s ksuid output)';

-- The 20 bytes of 27 checked base62 digits (at most {{KSUID_MAX_TEXT}}).
CREATE FUNCTION idgen_sql_ksuid_decode(t text) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    a pg_catalog.text := '{{KSUID_ALPHABET}}';
    n numeric := 0;
    h pg_catalog.text := '';
BEGIN
    FOR i IN 1..{{KSUID_TEXT_LENGTH}} LOOP
        n := n OPERATOR(pg_catalog.*) 62 OPERATOR(pg_catalog.+) (pg_catalog.strpos(a, pg_catalog.substr(t, i, 1)) OPERATOR(pg_catalog.-) 1);
    END LOOP;
    FOR i IN 1..5 LOOP
        h := pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.mod(n, 4294967296)::bigint), 8, '0') OPERATOR(pg_catalog.||) h;
        n := pg_catalog.div(n, 4294967296);
    END LOOP;
    RETURN pg_catalog.decode(h, 'hex');
END
$$;
COMMENT ON FUNCTION idgen_sql_ksuid_decode(text) IS 'internal (SQL edition): the 20 bytes of 27 checked base62 digits';

-- Text that is no KSUID: 22P02 with the C++ edition's message. A character
-- outside the alphabet is reported first (control characters as codes, a
-- hint for text of 27 bytes, which segmentio's lax parser would read), then
-- a wrong length, then a value above 2^160 - 1.
CREATE FUNCTION idgen_sql_ksuid_bad_text(input text) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    bad pg_catalog.text := substring(input FROM '[^{{KSUID_CLASS}}]');
    detail pg_catalog.text;
BEGIN
    IF bad IS NOT NULL THEN
        IF pg_catalog.ascii(bad) OPERATOR(pg_catalog.<) 32 OR pg_catalog.ascii(bad) OPERATOR(pg_catalog.=) 127 THEN
            detail := pg_catalog.concat('Control character 0x', pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.ascii(bad)), 2, '0')));
        ELSE
            detail := pg_catalog.format('Character "%s"', bad);
        END IF;
        detail := pg_catalog.format('%s at position %s is not a base62 digit (0-9, A-Z, a-z).', detail, pg_catalog.strpos(input, bad));
        IF pg_catalog.octet_length(input) OPERATOR(pg_catalog.=) {{KSUID_TEXT_LENGTH}} THEN
            RAISE EXCEPTION 'invalid input syntax for type ksuid: "%"', input USING ERRCODE = 'invalid_text_representation',
                DETAIL = detail, HINT = 'segmentio/ksuid''s parser reads any byte as a digit; ksuid accepts only the 62 digits.';
        END IF;
        RAISE EXCEPTION 'invalid input syntax for type ksuid: "%"', input USING ERRCODE = 'invalid_text_representation', DETAIL = detail;
    ELSIF pg_catalog.octet_length(input) OPERATOR(pg_catalog.<>) {{KSUID_TEXT_LENGTH}} THEN
        RAISE EXCEPTION 'invalid input syntax for type ksuid: "%"', input USING ERRCODE = 'invalid_text_representation',
            DETAIL = pg_catalog.format('A KSUID is {{KSUID_TEXT_LENGTH}} characters long; this value has %s.', pg_catalog.octet_length(input));
    END IF;
    RAISE EXCEPTION 'invalid input syntax for type ksuid: "%"', input USING ERRCODE = 'invalid_text_representation',
        DETAIL = 'Its value is above 2^160 - 1; the largest KSUID is {{KSUID_MAX_TEXT}}.';
END
$$;
COMMENT ON FUNCTION idgen_sql_ksuid_bad_text(text) IS 'internal (SQL edition): raises 22P02 for text that is no KSUID';

CREATE FUNCTION ksuid_from_text(input text) RETURNS ksuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN input ~ '^[{{KSUID_CLASS}}]{{{KSUID_TEXT_LENGTH}}}$' AND input ~<=~ '{{KSUID_MAX_TEXT}}'
                THEN idgen_sql_ksuid_decode(input) ELSE idgen_sql_ksuid_bad_text(input) END;
COMMENT ON FUNCTION ksuid_from_text(text) IS
    'SQL edition: the ksuid of KSUID text (27 base62 characters, at most aWgEPTl1tmebfsQzFP4bxwgy80V; anything else is refused with 22P02), as the C++ edition''s ksuid input';

-- ksuid generators and decoders ----------------------------------------------

-- The seconds field of an instant: 22023 for an infinite one, 22008 outside 32 bits.
CREATE FUNCTION idgen_sql_ksuid_second(ts timestamptz) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    s bigint;
BEGIN
    IF NOT pg_catalog.isfinite(ts) THEN
        RAISE EXCEPTION 'cannot build a ksuid from an infinite timestamp' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    s := pg_catalog.floor(EXTRACT(epoch FROM ts))::bigint OPERATOR(pg_catalog.-) {{KSUID_EPOCH}};
    IF s OPERATOR(pg_catalog.<) 0 OR s OPERATOR(pg_catalog.>) 4294967295 THEN
        RAISE EXCEPTION 'timestamp out of range for ksuid: "%"', ts USING ERRCODE = 'datetime_field_overflow',
            DETAIL = 'Its 32-bit second field holds instants from {{KSUID_FIRST}} UTC to {{KSUID_LAST}} UTC.';
    END IF;
    RETURN pg_catalog.decode(pg_catalog.lpad(pg_catalog.to_hex(s), 8, '0'), 'hex');
END
$$;
COMMENT ON FUNCTION idgen_sql_ksuid_second(timestamptz) IS 'internal (SQL edition): the seconds field of ts';

-- 128 random bits: a version 4 uuid's bytes, with its version and variant
-- bytes taken from a second one (as idgen_sql_ksuid_next draws them).
CREATE FUNCTION idgen_sql_random_bytes16() RETURNS bytea
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    r pg_catalog.bytea := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
    s pg_catalog.bytea := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
BEGIN
    RETURN pg_catalog.set_byte(pg_catalog.set_byte(r, 6, pg_catalog.get_byte(s, 0)), 8, pg_catalog.get_byte(s, 1));
END
$$;
COMMENT ON FUNCTION idgen_sql_random_bytes16() IS 'internal (SQL edition): 128 random bits from gen_random_uuid()';

-- The KSUID after last (40 hex digits, the setting idgen_sql.ksuid_last, or
-- NULL or '' before the first): in a second past the last's, that second and
-- a fresh payload; else the last + 1 over the 160 bits (segmentio's Next(),
-- carrying into the seconds), as the C++ edition.
CREATE FUNCTION idgen_sql_ksuid_next(last text) RETURNS text
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    s bigint := pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()))::bigint OPERATOR(pg_catalog.-) {{KSUID_EPOCH}};
    k integer;
    r pg_catalog.bytea;
    q pg_catalog.bytea;
BEGIN
    IF s OPERATOR(pg_catalog.<) 0 OR s OPERATOR(pg_catalog.>) 4294967295 THEN
        RAISE EXCEPTION 'system clock is outside the range of ksuid' USING ERRCODE = 'datetime_field_overflow',
            DETAIL = 'A KSUID holds seconds from {{KSUID_FIRST}} UTC to {{KSUID_LAST}} UTC.';
    END IF;
    IF pg_catalog.octet_length(last) OPERATOR(pg_catalog.=) 40
       AND s OPERATOR(pg_catalog.<=) ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 1, 8))::bit(32)::bigint THEN
        k := 40 OPERATOR(pg_catalog.-) pg_catalog.octet_length(pg_catalog.rtrim(last, 'f'));
        IF k OPERATOR(pg_catalog.=) 40 THEN
            RAISE EXCEPTION 'ksuid values are exhausted' USING ERRCODE = 'datetime_field_overflow',
                DETAIL = 'The last issued value is the largest KSUID.';
        END IF;
        RETURN pg_catalog.substr(last, 1, 39 OPERATOR(pg_catalog.-) k)
               OPERATOR(pg_catalog.||) pg_catalog.substr('123456789abcdef', pg_catalog.strpos('0123456789abcde', pg_catalog.substr(last, 40 OPERATOR(pg_catalog.-) k, 1)), 1)
               OPERATOR(pg_catalog.||) pg_catalog.repeat('0', k);
    END IF;
    r := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
    q := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
    RETURN pg_catalog.lpad(pg_catalog.to_hex(s), 8, '0') OPERATOR(pg_catalog.||)
           pg_catalog.encode(pg_catalog.set_byte(pg_catalog.set_byte(r, 6, pg_catalog.get_byte(q, 0)), 8, pg_catalog.get_byte(q, 1)), 'hex');
END
$$;
COMMENT ON FUNCTION idgen_sql_ksuid_next(text) IS
    'internal (SQL edition): the KSUID after last, in hex';

-- One SQL expression, inlined into the caller's query (set_config(), PARALLEL
-- UNSAFE, keeps it from parallel workers, as uuid_v7() and ulid()).
CREATE FUNCTION ksuid() RETURNS ksuid
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED
    RETURN pg_catalog.decode(pg_catalog.set_config('idgen_sql.ksuid_last',
               idgen_sql_ksuid_next(pg_catalog.current_setting('idgen_sql.ksuid_last', true)), false), 'hex');
COMMENT ON FUNCTION ksuid() IS
    'new KSUID from the clock and gen_random_uuid()''s CSPRNG bits; an ID in the same second as the session''s last is the last + 1 (segmentio''s Next(); SQL edition: rolled back with the transaction)';

CREATE FUNCTION ksuid_at(ts timestamptz) RETURNS ksuid
    LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
    RETURN idgen_sql_ksuid_second(ts) || idgen_sql_random_bytes16();
COMMENT ON FUNCTION ksuid_at(timestamptz) IS
    'KSUID of the second holding ts with a fresh random payload, for backfilling rows created in the past';

CREATE FUNCTION ksuid_boundary(ts timestamptz) RETURNS ksuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_ksuid_second(ts) || '\x00000000000000000000000000000000'::bytea;
COMMENT ON FUNCTION ksuid_boundary(timestamptz) IS
    'smallest KSUID of the second holding ts (payload zero), for range predicates and partition bounds';

CREATE FUNCTION ksuid_time(id ksuid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.to_timestamp((('x' || pg_catalog.encode(pg_catalog.substr(id, 1, 4), 'hex'))::bit(32)::bigint + {{KSUID_EPOCH}})::double precision);
COMMENT ON FUNCTION ksuid_time(ksuid) IS
    'second a KSUID carries';

CREATE FUNCTION ksuid_payload(id ksuid) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.substr(id, 5);
COMMENT ON FUNCTION ksuid_payload(ksuid) IS
    'the 16-byte payload of a KSUID (its last 16 bytes)';

-- bytea: the C++ edition's casts, as functions (a domain takes no casts)
CREATE FUNCTION ksuid_to_bytea(id ksuid) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN id;
COMMENT ON FUNCTION ksuid_to_bytea(ksuid) IS 'the 20 bytes of a KSUID as bytea';

CREATE FUNCTION ksuid_from_bytea(bytes bytea) RETURNS ksuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN bytes;
COMMENT ON FUNCTION ksuid_from_bytea(bytea) IS 'the ksuid of 20 bytes; another length is 22P03 (the domain''s CHECK)';
