-- ============================================================================
-- xid: the rsxid domain over bytea (rs/xid's XID; xid is PostgreSQL's
-- transaction ID type), xid(), decoders, XID text
-- ============================================================================
-- As objectid (objectid.sql, whose helpers it shares): the C++ edition's 12
-- bytes and order. Text is 20 characters of lowercase base32hex
-- ({{XID_ALPHABET}}), the 96 bits and 4 zero bits, through
-- rsxid_to_text(id) and rsxid_from_text(text).

CREATE DOMAIN rsxid AS bytea
    CONSTRAINT rsxid_length CHECK (pg_catalog.octet_length(VALUE) = {{ID96_BYTES}}
                                   OR idgen_sql_id96_bad_bytea(VALUE, 'rsxid', 'XID', {{XID_TEXT_LENGTH}}));
COMMENT ON DOMAIN rsxid IS
    'XID (rs/xid; SQL edition: a domain over bytea, the C++ edition''s 12 bytes and order): 4-byte big-endian Unix seconds, a 3-byte machine id, a 2-byte process id and a 3-byte counter; text through rsxid_to_text() and rsxid_from_text()';

-- XID text -----------------------------------------------------------------------

-- 20 digits: 8 of each of the first two groups of 5 bytes, 4 of the last 2
-- bytes and the 4 zero bits, in bigint arithmetic (unrolled by generate.py).
CREATE FUNCTION rsxid_to_text(id rsxid) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    a pg_catalog.text := '{{XID_ALPHABET}}';
    hi bigint := ('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(id, 1, 5), 'hex'))::bit(40)::bigint;
    mid bigint := ('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(id, 6, 5), 'hex'))::bit(40)::bigint;
    lo bigint := (('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(id, 11, 2), 'hex'))::bit(16)::bigint) OPERATOR(pg_catalog.<<) 4;
BEGIN
    RETURN {{XID_ENCODE}};
END
$$;
COMMENT ON FUNCTION rsxid_to_text(rsxid) IS
    'SQL edition: the XID text of an rsxid, 20 lowercase base32hex characters (the C++ edition''s rsxid output)';

-- The 12 bytes of 20 checked digits.
CREATE FUNCTION idgen_sql_xid_decode(t text) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    a pg_catalog.text := '{{XID_ALPHABET}}';
    hi bigint := {{XID_DECODE_HI}};
    mid bigint := {{XID_DECODE_MID}};
    lo bigint := {{XID_DECODE_LO}};
BEGIN
    RETURN pg_catalog.substr(pg_catalog.int8send(hi), 4) OPERATOR(pg_catalog.||) pg_catalog.substr(pg_catalog.int8send(mid), 4)
           OPERATOR(pg_catalog.||) pg_catalog.substr(pg_catalog.int8send(lo OPERATOR(pg_catalog.>>) 4), 7);
END
$$;
COMMENT ON FUNCTION idgen_sql_xid_decode(text) IS 'internal (SQL edition): the 12 bytes of 20 checked base32hex digits';

-- Text that is no XID: 22P02 with the C++ edition's message, in its order: a
-- character outside 0-9a-v (uppercase with a hint), a length other than 20
-- (24 hexadecimal digits with a hint), a last character other than 0 or g.
CREATE FUNCTION idgen_sql_xid_bad_text(input text) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    bad pg_catalog.text := substring(input FROM '[^{{XID_CLASS}}]');
    what pg_catalog.text := 'base32hex digit (0-9, a-v)';
BEGIN
    IF bad IS NOT NULL THEN
        IF pg_catalog.ascii(bad) OPERATOR(pg_catalog.>=) 65 AND pg_catalog.ascii(bad) OPERATOR(pg_catalog.<=) 86 THEN
            RAISE EXCEPTION 'invalid input syntax for type rsxid: "%"', input USING ERRCODE = 'invalid_text_representation',
                DETAIL = {{BAD_CHARACTER_DETAIL:what}},
                HINT = 'XID text is lowercase; rs/xid refuses uppercase too.';
        END IF;
        RAISE EXCEPTION 'invalid input syntax for type rsxid: "%"', input USING ERRCODE = 'invalid_text_representation',
            DETAIL = {{BAD_CHARACTER_DETAIL:what}};
    ELSIF pg_catalog.octet_length(input) OPERATOR(pg_catalog.<>) {{XID_TEXT_LENGTH}} THEN
        IF pg_catalog.octet_length(input) OPERATOR(pg_catalog.=) {{OBJECTID_TEXT_LENGTH}} AND input OPERATOR(pg_catalog.~) '^[0-9a-f]*$' THEN
            RAISE EXCEPTION 'invalid input syntax for type rsxid: "%"', input USING ERRCODE = 'invalid_text_representation',
                DETAIL = pg_catalog.format('An XID is {{XID_TEXT_LENGTH}} characters long; this value has %s.', pg_catalog.octet_length(input)),
                HINT = '{{OBJECTID_TEXT_LENGTH}} hexadecimal digits are an ObjectId''s text, which the objectid type reads.';
        END IF;
        RAISE EXCEPTION 'invalid input syntax for type rsxid: "%"', input USING ERRCODE = 'invalid_text_representation',
            DETAIL = pg_catalog.format('An XID is {{XID_TEXT_LENGTH}} characters long; this value has %s.', pg_catalog.octet_length(input));
    END IF;
    RAISE EXCEPTION 'invalid input syntax for type rsxid: "%"', input USING ERRCODE = 'invalid_text_representation',
        DETAIL = pg_catalog.format('Its last character is "%s"; an XID ends in {{XID_LAST_0}} or {{XID_LAST_1}}, as the 4 bits after its 96 are zero.',
                                   pg_catalog.substr(input, {{XID_TEXT_LENGTH}}, 1));
END
$$;
COMMENT ON FUNCTION idgen_sql_xid_bad_text(text) IS 'internal (SQL edition): raises 22P02 for text that is no XID';

CREATE FUNCTION rsxid_from_text(input text) RETURNS rsxid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN input ~ '^[{{XID_CLASS}}]{{{XID_TEXT_LENGTH_LESS_ONE}}}[{{XID_LAST_0}}{{XID_LAST_1}}]$' THEN idgen_sql_xid_decode(input)
                ELSE idgen_sql_xid_bad_text(input) END;
COMMENT ON FUNCTION rsxid_from_text(text) IS
    'SQL edition: the rsxid of XID text (20 lowercase base32hex characters ending in 0 or g; anything else is refused with 22P02), as the C++ edition''s rsxid input';

-- xid generator and decoders ---------------------------------------------------

-- As objectid(), its own state: the machine id and pid are the 5 process bytes.
CREATE FUNCTION xid() RETURNS rsxid
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED
    RETURN pg_catalog.decode(pg_catalog.substr(pg_catalog.set_config('idgen_sql.xid_state',
               idgen_sql_id96_next(pg_catalog.current_setting('idgen_sql.xid_state', true), 'rsxid'), false), 1, {{OBJECTID_TEXT_LENGTH}}), 'hex');
COMMENT ON FUNCTION xid() IS
    'new XID: the clock''s second (never below the last ID''s), a random 3-byte machine id and 2-byte pid and a 24-bit counter (random start, +1 per ID); after 2^24 IDs in one second it borrows the next second (SQL edition: machine id, pid and counter per session, drawn at its first ID from gen_random_uuid(); rolled back with the transaction)';

CREATE FUNCTION xid_boundary(ts timestamptz) RETURNS rsxid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_id96_second(ts, 'rsxid') || '\x0000000000000000'::bytea;
COMMENT ON FUNCTION xid_boundary(timestamptz) IS
    'smallest XID of the second holding ts (its seconds, then 8 zero bytes), for range predicates and partition bounds';

CREATE FUNCTION xid_time(id rsxid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.to_timestamp((('x' || pg_catalog.encode(pg_catalog.substr(id, 1, 4), 'hex'))::bit(32)::bigint)::double precision);
COMMENT ON FUNCTION xid_time(rsxid) IS
    'the second an XID carries';

CREATE FUNCTION xid_machine(id rsxid) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.substr(id, {{XID_MACHINE_OFFSET}} + 1, {{XID_MACHINE_BYTES}});
COMMENT ON FUNCTION xid_machine(rsxid) IS
    'the 3-byte machine id of an XID (bytes 5 to 7)';

CREATE FUNCTION xid_pid(id rsxid) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (pg_catalog.get_byte(id, {{XID_PID_OFFSET}}) << 8) | pg_catalog.get_byte(id, {{XID_PID_OFFSET}} + 1);
COMMENT ON FUNCTION xid_pid(rsxid) IS
    'the 16-bit process id of an XID (bytes 8 and 9, big-endian), 0 to 65535';

CREATE FUNCTION xid_counter(id rsxid) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ('x' || pg_catalog.encode(pg_catalog.substr(id, {{ID96_BYTES}} - 2), 'hex'))::bit(24)::integer;
COMMENT ON FUNCTION xid_counter(rsxid) IS
    'the 24-bit counter of an XID (its last 3 bytes, big-endian), 0 to 16777215';

-- bytea: the C++ edition's casts, as functions (a domain takes no casts)
CREATE FUNCTION rsxid_to_bytea(id rsxid) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN id;
COMMENT ON FUNCTION rsxid_to_bytea(rsxid) IS
    'the 12 bytes of an XID as bytea, in its order (the C++ edition''s cast to bytea)';

CREATE FUNCTION rsxid_from_bytea(bytes bytea) RETURNS rsxid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN bytes;
COMMENT ON FUNCTION rsxid_from_bytea(bytea) IS
    'the rsxid of 12 bytes; another length is 22P03 (the domain''s CHECK)';
