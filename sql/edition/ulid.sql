-- ============================================================================
-- ulid: a domain over uuid, generators, decoders, ULID text
-- ============================================================================
-- The C++ edition's ulid is a base type of 16 bytes ordered bytewise, whose
-- text is 26 Crockford base32 digits. Here it is a domain over uuid: the same
-- 16 bytes in the same order (uuid compares bytewise too), uuid's btree, hash
-- and BRIN support, and a dump that any server restores. What a domain cannot
-- change is uuid's text form: ULID text is ulid_to_text(id) and
-- ulid_from_text(text). On the C++ edition a column converts in place with
-- ALTER TABLE ... ALTER COLUMN c TYPE ulid USING c::uuid::ulid (binary cast).
-- Layout (ULID spec): 48-bit Unix ms | 80 random bits.

CREATE DOMAIN ulid AS uuid;
COMMENT ON DOMAIN ulid IS
    'ULID (SQL edition: a domain over uuid, the same 16 bytes and order as the C++ edition''s ulid): 48-bit Unix millisecond timestamp and 80 random bits; ULID text through ulid_to_text() and ulid_from_text()';

-- ULID text ------------------------------------------------------------------

CREATE FUNCTION ulid_to_text(id ulid) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_crockford_encode(id, {{CROCKFORD_PAIRS_UPPER}});
COMMENT ON FUNCTION ulid_to_text(ulid) IS
    'SQL edition: the ULID text of a ulid, 26 uppercase Crockford base32 characters (the C++ edition''s ulid output)';

-- Text that is no ULID: 22P02 with the C++ edition's message.
CREATE FUNCTION idgen_sql_ulid_bad_text(input text) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    bad pg_catalog.text;
BEGIN
    IF pg_catalog.length(input) OPERATOR(pg_catalog.<>) 26 THEN
        RAISE EXCEPTION 'invalid input syntax for type ulid: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = pg_catalog.format('A ULID is 26 characters long; this value has %s.', pg_catalog.octet_length(input));
    END IF;
    bad := substring(input FROM '[^{{CROCKFORD_CLASS}}]');
    IF bad IS NOT NULL AND pg_catalog.strpos('ILOUilou', bad) OPERATOR(pg_catalog.>) 0 THEN
        RAISE EXCEPTION 'invalid input syntax for type ulid: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = pg_catalog.format('Character "%s" at position %s is not a Crockford base32 digit.',
                                             bad, pg_catalog.strpos(input, bad)),
                  HINT = 'Crockford base32 has no I, L, O or U; ulid does not read them as 1, 1, 0.';
    ELSIF bad IS NOT NULL THEN
        RAISE EXCEPTION 'invalid input syntax for type ulid: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = pg_catalog.format('Character "%s" at position %s is not a Crockford base32 digit.',
                                             bad, pg_catalog.strpos(input, bad));
    END IF;
    RAISE EXCEPTION 'invalid input syntax for type ulid: "%"', input
        USING ERRCODE = 'invalid_text_representation',
              DETAIL = 'Its first character is above 7; the largest ULID is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.';
END
$$;
COMMENT ON FUNCTION idgen_sql_ulid_bad_text(text) IS 'internal (SQL edition): raises 22P02 for text that is no ULID';

CREATE FUNCTION ulid_from_text(input text) RETURNS ulid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN input ~ '^[0-7][{{CROCKFORD_CLASS}}]{25}$'
                THEN idgen_sql_crockford_decode(pg_catalog.upper(input), '{{CROCKFORD_UPPER}}')
                ELSE idgen_sql_ulid_bad_text(input) END;
COMMENT ON FUNCTION ulid_from_text(text) IS
    'SQL edition: the ulid of ULID text (26 Crockford base32 characters in either case, at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ; I, L, O and U are refused with 22P02), as the C++ edition''s ulid input';

-- ulid generators and decoders -----------------------------------------------

-- The session's last ULID is in the setting idgen_sql.ulid_last, as uuid
-- text with one hyphen, between its first 80 bits and its last 48:
-- 01a2187ddc8e62563fec-297a88b5ba03 (uuid's input takes a hyphen after any
-- group of four digits). Within its millisecond the next is the last + 1
-- (the spec's monotonic mode), as in the C++ edition.
-- idgen_sql_ulid_next is the rare path: a new millisecond (fresh random bits),
-- the first ULID of the session, or a carry out of the last 48 bits.
CREATE FUNCTION idgen_sql_ulid_next(last text) RETURNS text
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    now_ms bigint := {{UNIX_MS_NOW}};
    digits pg_catalog.text := pg_catalog.translate(last, '-', '');
    hi bigint;
    lo bigint;
    r pg_catalog.text;
BEGIN
    IF now_ms OPERATOR(pg_catalog.<) 0 OR now_ms OPERATOR(pg_catalog.>) 281474976710655 THEN
        RAISE EXCEPTION 'system clock is outside the range of ulid' USING ERRCODE = 'datetime_field_overflow';
    END IF;
    IF last IS NOT NULL AND now_ms OPERATOR(pg_catalog.<=) ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(digits, 1, 12))::bit(48)::bigint THEN
        hi := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(digits, 1, 16))::bit(64)::bigint;
        lo := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(digits, 17, 16))::bit(64)::bigint;
        IF lo OPERATOR(pg_catalog.=) -1 THEN
            IF (hi OPERATOR(pg_catalog.&) 65535) OPERATOR(pg_catalog.=) 65535 THEN
                RAISE EXCEPTION 'ulid values are exhausted' USING ERRCODE = 'datetime_field_overflow',
                    DETAIL = 'The 80 random bits of the millisecond are used up.';
            END IF;
            hi := hi OPERATOR(pg_catalog.+) 1;
            lo := 0;
        ELSIF lo OPERATOR(pg_catalog.=) 9223372036854775807 THEN
            lo := -9223372036854775808;
        ELSE
            lo := lo OPERATOR(pg_catalog.+) 1;
        END IF;
        digits := pg_catalog.lpad(pg_catalog.to_hex(hi), 16, '0') OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(lo), 16, '0');
    ELSE
        r := pg_catalog.translate(pg_catalog.gen_random_uuid()::pg_catalog.text, '-', '');
        digits := pg_catalog.lpad(pg_catalog.to_hex(now_ms), 12, '0') OPERATOR(pg_catalog.||) pg_catalog.substr(r, 1, 12)
            OPERATOR(pg_catalog.||) pg_catalog.substr(r, 14, 3) OPERATOR(pg_catalog.||) pg_catalog.substr(r, 18, 5);
    END IF;
    RETURN pg_catalog.substr(digits, 1, 20) OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||) pg_catalog.substr(digits, 21, 12);
END
$$;
COMMENT ON FUNCTION idgen_sql_ulid_next(text) IS
    'internal (SQL edition): the ULID after last (idgen_sql.ulid_last, or NULL) in a new millisecond or past a carry';

-- ulid() is one SQL expression, inlined into the caller's query (issue 33):
-- within the last ULID's millisecond and without a carry out of its last 48
-- bits, the next is its first 80 bits and the last 48 + 1; anything else is
-- idgen_sql_ulid_next's. The new value is stored, and set_config()'s result
-- is the ULID. The setting's form keeps the text functions that count
-- characters (left, right, lpad: a UTF-8 database walks the string) out of
-- this path (issue 33: 0.2 us a call less): split_part() finds the hyphen
-- by bytes; the millisecond test compares bytes, the clock's ms + 2^48 in hex
-- (13 digits from 1970 to 10889, "1" and the 12 of the ms) with "1" and the
-- setting, which is less exactly when the clock's ms is at most the last's
-- (equal ms: a prefix); the 48 bits + 1 are bytes 3-8 of int8send() in hex.
-- A value without the hyphen (the form before 0.7.0) takes the rare path.
-- set_config() is PARALLEL UNSAFE: a query that calls ulid() runs without
-- parallel workers.
CREATE FUNCTION ulid() RETURNS ulid
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED
    RETURN pg_catalog.set_config('idgen_sql.ulid_last',
               CASE WHEN pg_catalog.to_hex({{UNIX_MS_NOW}} + 281474976710656)
                         OPERATOR(pg_catalog.~<~) ('1' || pg_catalog.current_setting('idgen_sql.ulid_last', true))
                     AND pg_catalog.split_part(pg_catalog.current_setting('idgen_sql.ulid_last', true), '-', 2) NOT IN ('ffffffffffff', '')
                    THEN pg_catalog.split_part(pg_catalog.current_setting('idgen_sql.ulid_last', true), '-', 1) || '-'
                         || pg_catalog.encode(pg_catalog.substr(pg_catalog.int8send(
                                ('x' || pg_catalog.split_part(pg_catalog.current_setting('idgen_sql.ulid_last', true), '-', 2))::bit(48)::bigint + 1), 3), 'hex')
                    ELSE idgen_sql_ulid_next(NULLIF(pg_catalog.current_setting('idgen_sql.ulid_last', true), '')) END,
               false)::uuid;
COMMENT ON FUNCTION ulid() IS
    'new ULID from the clock and gen_random_uuid()''s CSPRNG bits; within a session, an ID in the same millisecond as the last is the last + 1 (the spec''s monotonic mode; SQL edition: rolled back with the transaction)';

CREATE FUNCTION ulid_at(ts timestamptz) RETURNS ulid
    LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(idgen_sql_unix_ms48(ts, 'ulid')), 12, '0')
            || pg_catalog.substr(idgen_sql_random_hex30(), 1, 20))::uuid;
COMMENT ON FUNCTION ulid_at(timestamptz) IS
    'ULID of the millisecond holding ts with fresh random bits, for backfilling rows created in the past';

CREATE FUNCTION ulid_boundary(ts timestamptz) RETURNS ulid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(idgen_sql_unix_ms48(ts, 'ulid')), 12, '0') || '00000000000000000000')::uuid;
COMMENT ON FUNCTION ulid_boundary(timestamptz) IS
    'smallest ULID of the millisecond holding ts (random bits zero), for range predicates and partition bounds';

CREATE FUNCTION ulid_time(id ulid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_time_of_ms(('x' || pg_catalog.substr(idgen_sql_hex(id), 1, 12))::bit(48)::bigint);
COMMENT ON FUNCTION ulid_time(ulid) IS
    'millisecond a ULID carries';

-- bytea: the C++ edition's casts, as functions (a domain takes no casts)
CREATE FUNCTION ulid_to_bytea(id ulid) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.uuid_send(id);
COMMENT ON FUNCTION ulid_to_bytea(ulid) IS 'the 16 bytes of a ULID';

CREATE FUNCTION idgen_sql_ulid_bad_bytea(b bytea) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    RAISE EXCEPTION 'invalid input length for type ulid' USING ERRCODE = 'invalid_binary_representation',
        DETAIL = pg_catalog.format('A ulid is 16 bytes; this bytea has %s.', pg_catalog.octet_length(b));
END
$$;
COMMENT ON FUNCTION idgen_sql_ulid_bad_bytea(bytea) IS 'internal: raises 22P03';

CREATE FUNCTION ulid_from_bytea(bytes bytea) RETURNS ulid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN pg_catalog.octet_length(bytes) OPERATOR(pg_catalog.=) 16 THEN pg_catalog.encode(bytes, 'hex')::uuid
                ELSE idgen_sql_ulid_bad_bytea(bytes) END;
COMMENT ON FUNCTION ulid_from_bytea(bytea) IS 'the ulid of 16 bytes; another length is 22P03';
