-- ============================================================================
-- objectid: a domain over bytea, objectid(), decoders, ObjectId text; and what
-- objectid and rsxid (xid.sql) share: the 12-byte IDs of seconds, 5 process
-- bytes and a 24-bit counter
-- ============================================================================
-- The C++ edition's objectid and rsxid are base types of {{ID96_BYTES}} bytes ordered
-- bytewise. Here they are domains over bytea holding the same bytes (bytea of
-- one length compares bytewise: the same order, and bytea's btree and hash
-- support), as ksuid. Their text is objectid_to_text(id) and
-- objectid_from_text(text), rsxid_to_text(id) and rsxid_from_text(text); on
-- the C++ edition a column converts with ALTER TABLE ... ALTER COLUMN c TYPE
-- objectid USING c::bytea::objectid (rsxid likewise).
-- Layout (the BSON ObjectId spec; rs/xid): 4 bytes of Unix seconds | 5 bytes
-- fixed per process (ObjectId: a random value; XID: 3 of machine id, 2 of pid)
-- | a 3-byte counter.

-- A bytea of another length than 12: 22P03 with the C++ edition's cast's
-- message, detail and hint (a length that is the text's), from the domains'
-- CHECKs (so also for bytes::objectid).
CREATE FUNCTION idgen_sql_id96_bad_bytea(b bytea, type_name text, format_name text, text_length integer) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF pg_catalog.octet_length(b) OPERATOR(pg_catalog.=) text_length THEN
        RAISE EXCEPTION 'invalid input length for type %', type_name USING ERRCODE = 'invalid_binary_representation',
            DETAIL = pg_catalog.format('An %s is {{ID96_BYTES}} bytes; this bytea has %s.', format_name, text_length),
            HINT = pg_catalog.format('%s bytes may be %s text, which a cast from text reads: convert_from(bytes, ''UTF8'')::%s.',
                                     text_length, format_name, type_name);
    END IF;
    RAISE EXCEPTION 'invalid input length for type %', type_name USING ERRCODE = 'invalid_binary_representation',
        DETAIL = pg_catalog.format('An %s is {{ID96_BYTES}} bytes; this bytea has %s.', format_name, pg_catalog.octet_length(b));
END
$$;
COMMENT ON FUNCTION idgen_sql_id96_bad_bytea(bytea, text, text, integer) IS 'internal (SQL edition): raises 22P03';

-- The seconds field of an instant: 22023 for an infinite one, 22008 outside 32 bits.
CREATE FUNCTION idgen_sql_id96_second(ts timestamptz, type_name text) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    s bigint;
BEGIN
    IF NOT pg_catalog.isfinite(ts) THEN
        RAISE EXCEPTION 'cannot build an % from an infinite timestamp', type_name USING ERRCODE = 'invalid_parameter_value';
    END IF;
    s := pg_catalog.floor(EXTRACT(epoch FROM ts))::bigint;
    IF s OPERATOR(pg_catalog.<) 0 OR s OPERATOR(pg_catalog.>) {{ID96_MAX_SECONDS}} THEN
        RAISE EXCEPTION 'timestamp out of range for %: "%"', type_name, ts USING ERRCODE = 'datetime_field_overflow',
            DETAIL = 'Its 32-bit seconds field holds instants from {{ID96_FIRST}} UTC to {{ID96_LAST}} UTC.';
    END IF;
    RETURN pg_catalog.decode(pg_catalog.lpad(pg_catalog.to_hex(s), 8, '0'), 'hex');
END
$$;
COMMENT ON FUNCTION idgen_sql_id96_second(timestamptz, text) IS 'internal (SQL edition): the seconds field of ts';

-- The state after last, the session's setting (idgen_sql.objectid_state or
-- idgen_sql.xid_state; NULL or '' before the first ID, and after the rollback
-- of the transaction that set it first): in hex, the last ID's 12 bytes
-- (seconds, the session's 5 process bytes, counter), then the counter of the
-- first ID of its second. The C++ edition's sequence (second_counter.hpp):
-- the counter + 1 (mod 2^24); the clock's second, or the last ID's when the
-- clock is behind it; when that second already holds 2^24 IDs (the counter
-- came round to the second's first), the next second, ahead of the clock.
-- The first ID of a session draws its process bytes and the counter's start
-- from gen_random_uuid()'s random bytes (1 to 6 and 10 to 12).
CREATE FUNCTION idgen_sql_id96_next(last text, type_name text) RETURNS text
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    now_s bigint := pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()))::bigint;
    r pg_catalog.bytea;
    s bigint;
    c integer;
    first integer;
    p pg_catalog.text;
BEGIN
    IF now_s OPERATOR(pg_catalog.<) 0 OR now_s OPERATOR(pg_catalog.>) {{ID96_MAX_SECONDS}} THEN
        RAISE EXCEPTION 'system clock is outside the range of %', type_name USING ERRCODE = 'datetime_field_overflow',
            DETAIL = 'Its 32-bit seconds field holds instants from {{ID96_FIRST}} UTC to {{ID96_LAST}} UTC.';
    END IF;
    IF pg_catalog.octet_length(last) OPERATOR(pg_catalog.=) 30 THEN
        s := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 1, 8))::bit(32)::bigint;
        p := pg_catalog.substr(last, 9, 10);
        c := ((('x' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 19, 6))::bit(24)::integer OPERATOR(pg_catalog.+) 1)) OPERATOR(pg_catalog.&) {{ID96_COUNTER_MASK}};
        first := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 25, 6))::bit(24)::integer;
        IF now_s OPERATOR(pg_catalog.>) s THEN
            s := now_s;
            first := c;
        ELSIF c OPERATOR(pg_catalog.=) first THEN
            IF s OPERATOR(pg_catalog.=) {{ID96_MAX_SECONDS}} THEN
                RAISE EXCEPTION '% values are exhausted', type_name USING ERRCODE = 'datetime_field_overflow',
                    DETAIL = '2^24 values were issued in its last second, {{ID96_LAST}} UTC.';
            END IF;
            s := s OPERATOR(pg_catalog.+) 1;
            first := c;
        END IF;
    ELSE
        r := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
        p := pg_catalog.encode(pg_catalog.substr(r, 1, 5), 'hex');
        c := ((('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(r, 10, 3), 'hex'))::bit(24)::integer OPERATOR(pg_catalog.+) 1))
             OPERATOR(pg_catalog.&) {{ID96_COUNTER_MASK}};
        s := now_s;
        first := c;
    END IF;
    RETURN pg_catalog.lpad(pg_catalog.to_hex(s), 8, '0') OPERATOR(pg_catalog.||) p
           OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(c), 6, '0')
           OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(first), 6, '0');
END
$$;
COMMENT ON FUNCTION idgen_sql_id96_next(text, text) IS
    'internal (SQL edition): the session''s next objectid() or xid() state, in hex';

CREATE DOMAIN objectid AS bytea
    CONSTRAINT objectid_length CHECK (pg_catalog.octet_length(VALUE) = {{ID96_BYTES}}
                                      OR idgen_sql_id96_bad_bytea(VALUE, 'objectid', 'ObjectId', {{OBJECTID_TEXT_LENGTH}}));
COMMENT ON DOMAIN objectid IS
    'BSON ObjectId (SQL edition: a domain over bytea, the C++ edition''s 12 bytes and order): 4-byte big-endian Unix seconds, a 5-byte process value and a 3-byte counter; text through objectid_to_text() and objectid_from_text()';

-- ObjectId text -----------------------------------------------------------------

CREATE FUNCTION objectid_to_text(id objectid) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.encode(id, 'hex');
COMMENT ON FUNCTION objectid_to_text(objectid) IS
    'SQL edition: the ObjectId text of an objectid, 24 lowercase hexadecimal digits (the C++ edition''s objectid output)';

-- Text that is no ObjectId: 22P02 with the C++ edition's message. A character
-- outside 0-9, a-f, A-F is reported first (MongoDB's wrappings with a hint),
-- then a wrong length.
CREATE FUNCTION idgen_sql_objectid_bad_text(input text) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    bad pg_catalog.text := substring(input FROM '[^0-9A-Fa-f]');
    what pg_catalog.text := 'hexadecimal digit';
BEGIN
    IF bad IS NULL THEN
        RAISE EXCEPTION 'invalid input syntax for type objectid: "%"', input USING ERRCODE = 'invalid_text_representation',
            DETAIL = pg_catalog.format('An ObjectId is {{OBJECTID_TEXT_LENGTH}} hexadecimal digits; this value has %s.', pg_catalog.octet_length(input));
    END IF;
    IF pg_catalog.strpos(input, 'ObjectId(') OPERATOR(pg_catalog.>) 0 OR pg_catalog.strpos(input, '$oid') OPERATOR(pg_catalog.>) 0 THEN
        RAISE EXCEPTION 'invalid input syntax for type objectid: "%"', input USING ERRCODE = 'invalid_text_representation',
            DETAIL = {{BAD_CHARACTER_DETAIL:what}},
            HINT = 'MongoDB''s shell and Extended JSON wrap the digits, as ObjectId("...") and {"$oid": "..."}; objectid reads the {{OBJECTID_TEXT_LENGTH}} digits alone.';
    END IF;
    RAISE EXCEPTION 'invalid input syntax for type objectid: "%"', input USING ERRCODE = 'invalid_text_representation',
        DETAIL = {{BAD_CHARACTER_DETAIL:what}};
END
$$;
COMMENT ON FUNCTION idgen_sql_objectid_bad_text(text) IS 'internal (SQL edition): raises 22P02 for text that is no ObjectId';

CREATE FUNCTION objectid_from_text(input text) RETURNS objectid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN input ~ '^[0-9A-Fa-f]{{{OBJECTID_TEXT_LENGTH}}}$' THEN pg_catalog.decode(input, 'hex') ELSE idgen_sql_objectid_bad_text(input) END;
COMMENT ON FUNCTION objectid_from_text(text) IS
    'SQL edition: the objectid of ObjectId text (24 hexadecimal digits in either case; anything else is refused with 22P02), as the C++ edition''s objectid input';

-- objectid generator and decoders ----------------------------------------------

-- One SQL expression, inlined into the caller's query (set_config(), PARALLEL
-- UNSAFE, keeps it from parallel workers, as ksuid()).
CREATE FUNCTION objectid() RETURNS objectid
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED
    RETURN pg_catalog.decode(pg_catalog.substr(pg_catalog.set_config('idgen_sql.objectid_state',
               idgen_sql_id96_next(pg_catalog.current_setting('idgen_sql.objectid_state', true), 'objectid'), false), 1, {{OBJECTID_TEXT_LENGTH}}), 'hex');
COMMENT ON FUNCTION objectid() IS
    'new ObjectId: the clock''s second (never below the last ID''s), a 5-byte process value and a 24-bit counter (random start, +1 per ID); after 2^24 IDs in one second it borrows the next second (SQL edition: process value and counter per session, drawn at its first ID from gen_random_uuid(); rolled back with the transaction)';

CREATE FUNCTION objectid_boundary(ts timestamptz) RETURNS objectid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_id96_second(ts, 'objectid') || '\x0000000000000000'::bytea;
COMMENT ON FUNCTION objectid_boundary(timestamptz) IS
    'smallest ObjectId of the second holding ts (its seconds, then 8 zero bytes), for range predicates and partition bounds';

CREATE FUNCTION objectid_time(id objectid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.to_timestamp((('x' || pg_catalog.encode(pg_catalog.substr(id, 1, 4), 'hex'))::bit(32)::bigint)::double precision);
COMMENT ON FUNCTION objectid_time(objectid) IS
    'the second an ObjectId carries';

CREATE FUNCTION objectid_process(id objectid) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.substr(id, {{OBJECTID_PROCESS_OFFSET}} + 1, {{OBJECTID_PROCESS_BYTES}});
COMMENT ON FUNCTION objectid_process(objectid) IS
    'the 5-byte process value of an ObjectId (bytes 5 to 9)';

CREATE FUNCTION objectid_counter(id objectid) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ('x' || pg_catalog.encode(pg_catalog.substr(id, {{ID96_BYTES}} - 2), 'hex'))::bit(24)::integer;
COMMENT ON FUNCTION objectid_counter(objectid) IS
    'the 24-bit counter of an ObjectId (its last 3 bytes, big-endian), 0 to 16777215';

-- bytea: the C++ edition's casts, as functions (a domain takes no casts)
CREATE FUNCTION objectid_to_bytea(id objectid) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN id;
COMMENT ON FUNCTION objectid_to_bytea(objectid) IS
    'the 12 bytes of an ObjectId as bytea, in its order (the C++ edition''s cast to bytea)';

CREATE FUNCTION objectid_from_bytea(bytes bytea) RETURNS objectid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN bytes;
COMMENT ON FUNCTION objectid_from_bytea(bytea) IS
    'the objectid of 12 bytes; another length is 22P03 (the domain''s CHECK)';
