-- ============================================================================
-- prefixed IDs (acct_...) and the base36 helpers
-- ============================================================================
-- Text: a prefix (a-z and _, starting and ending with a letter, at most {{PREFIX_MAX}}
-- characters), "_", and the 128 bits as 25 lowercase base36 digits
-- (zero-padded, at most {{BASE36_MAX128}}). The C++ edition stores the prefix
-- and the 16 bytes; a domain cannot store one form and show another, so here
-- prefixed_id is a domain over text holding the canonical text (COLLATE "C":
-- within a prefix, text order is the order of the 128 bits). Input must be
-- canonical: lowercase digits (the C++ edition also reads uppercase ones;
-- lower() them first). On the C++ edition a column converts with
-- ALTER TABLE ... ALTER COLUMN c TYPE prefixed_id USING c::text::prefixed_id.

-- The head of an ID from a prefix argument: the prefix and "_" ("" for a
-- typeid without a prefix), the prefix checked (22023, as in the C++ edition),
-- for every function that takes a prefix. PL/pgSQL and STRICT, so that the
-- STRICT SQL functions around it are inlined; IMMUTABLE, so that a constant
-- prefix, as in a column DEFAULT, is checked once, when the query is planned
-- (issue 33: checked in the mints, 0.17 us a call). The length is checked
-- apart from the pattern (a counted repetition costs about 0.9 us a call in
-- PostgreSQL's regex engine).
CREATE FUNCTION idgen_sql_id_head(prefix text, type_name text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    allow_empty boolean := type_name OPERATOR(pg_catalog.=) 'typeid';
BEGIN
    IF prefix OPERATOR(pg_catalog.=) '' AND allow_empty THEN
        RETURN '';
    ELSIF prefix OPERATOR(pg_catalog.!~) '^[a-z]([a-z_]*[a-z])?$' OR pg_catalog.length(prefix) OPERATOR(pg_catalog.>) {{PREFIX_MAX}} THEN
        RAISE EXCEPTION 'invalid prefix for %: "%"', type_name, prefix
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = {{PREFIX_DETAIL:prefix}},
                  HINT = CASE WHEN allow_empty
                              THEN 'Use lowercase letters and underscores, such as "user" or "user_session", or "" for no prefix.'
                              ELSE 'Use lowercase letters and underscores, such as "acct" or "user_session".' END;
    END IF;
    RETURN prefix OPERATOR(pg_catalog.||) '_';
END
$$;
COMMENT ON FUNCTION idgen_sql_id_head(text, text) IS 'internal (SQL edition): the checked prefix and "_" of a prefixed_id or typeid';

-- Text that is no prefixed_id: 22P02 with the C++ edition's message. Returns
-- false only to fit in a CHECK; it always raises.
CREATE FUNCTION idgen_sql_prefixed_id_bad_text(input text) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    prefix pg_catalog.text := substring(input FROM '^(.*)_[^_]*$');
    body pg_catalog.text := substring(input FROM '([^_]*)$');
BEGIN
    IF prefix IS NULL THEN
        RAISE EXCEPTION 'invalid input syntax for type prefixed_id: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = 'A prefixed ID is a prefix, "_" and 25 base36 digits; this value has no "_".';
    END IF;
    IF prefix OPERATOR(pg_catalog.!~) '^[a-z]([a-z_]{0,{{PREFIX_MAX_INNER}}}[a-z])?$' THEN
        RAISE EXCEPTION 'invalid input syntax for type prefixed_id: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = {{PREFIX_DETAIL:prefix}};
    END IF;
    IF pg_catalog.length(body) OPERATOR(pg_catalog.<>) 25 THEN
        RAISE EXCEPTION 'invalid input syntax for type prefixed_id: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = pg_catalog.format('The part after the last "_" must be 25 base36 digits; it has %s.', pg_catalog.length(body));
    END IF;
    IF body OPERATOR(pg_catalog.~) '[A-Z]' AND body OPERATOR(pg_catalog.!~) '[^0-9A-Za-z]' THEN
        RAISE EXCEPTION 'invalid input syntax for type prefixed_id: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = 'The SQL edition stores the canonical text, whose base36 digits are lowercase.',
                  HINT = 'Pass lower(the text): the C++ edition reads either case and writes lowercase.';
    END IF;
    IF body OPERATOR(pg_catalog.~) '[^0-9a-z]' THEN
        RAISE EXCEPTION 'invalid input syntax for type prefixed_id: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = pg_catalog.format('Character "%s" of the part after the last "_" is not a base36 digit (0-9, a-z).',
                                             substring(body FROM '[^0-9a-z]'));
    END IF;
    RAISE EXCEPTION 'invalid input syntax for type prefixed_id: "%"', input
        USING ERRCODE = 'invalid_text_representation',
              DETAIL = 'The value is above the largest 128-bit body, {{BASE36_MAX128}}.';
END
$$;
COMMENT ON FUNCTION idgen_sql_prefixed_id_bad_text(text) IS 'internal (SQL edition): raises 22P02 for text that is no prefixed_id';

-- The CHECK tries the pattern first; the function that raises runs only on failure.
-- The pattern has no counted repetition ({0,61} made PostgreSQL's regex engine
-- take 2.6 us a value, issue 33): the lengths are checked apart, in bytes
-- (octet_length: the pattern, tested first, leaves only ASCII, and length()
-- counts characters by walking the string in a UTF-8 database). The body
-- follows the last "_" (split_part(..., -1); issue 33: two strpos() of right()
-- cost 0.09 us more).
CREATE DOMAIN prefixed_id AS text COLLATE "C"
    CONSTRAINT prefixed_id_text CHECK (
        (VALUE ~ '^[a-z]([a-z_]*[a-z])?_[0-9a-z]*$'
         AND pg_catalog.octet_length(VALUE) <= {{PREFIXED_ID_MAX_LENGTH}}
         AND pg_catalog.octet_length(pg_catalog.split_part(VALUE, '_', -1)) = 25
         AND pg_catalog.split_part(VALUE, '_', -1) <= '{{BASE36_MAX128}}')
        OR idgen_sql_prefixed_id_bad_text(VALUE));
COMMENT ON DOMAIN prefixed_id IS
    'typed, sortable ID (SQL edition: a domain over text holding the C++ edition''s canonical text): an entity prefix and 128 bits in 25 base36 digits, such as acct_0jz3...; within a prefix, ordered by the 128 bits';

-- base36 helpers -------------------------------------------------------------

CREATE FUNCTION base36_encode(id uuid) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_base36_encode128(id, {{BASE36_PAIRS}});
COMMENT ON FUNCTION base36_encode(uuid) IS
    '25 lowercase base36 digits of a uuid (zero-padded, so text order is uuid order)';

CREATE FUNCTION idgen_sql_base36_bad(input text, what text) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF what OPERATOR(pg_catalog.=) 'uuid' THEN
        RAISE EXCEPTION 'invalid base36 uuid: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = 'A uuid in base36 is 25 digits 0-9 and a-z, at most {{BASE36_MAX128}}.';
    ELSIF what OPERATOR(pg_catalog.=) 'bigint' THEN
        RAISE EXCEPTION 'invalid base36 bigint: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = 'A bigint in base36 is 1 to 13 digits 0-9 and a-z.';
    ELSIF what OPERATOR(pg_catalog.=) 'bigint range' THEN
        RAISE EXCEPTION 'base36 value "%" is out of range for type bigint', input
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = 'The largest bigint is 1y2p0ij32e8e7 in base36.';
    END IF;
    RAISE EXCEPTION 'cannot encode negative number % in base36', input
        USING ERRCODE = 'numeric_value_out_of_range',
              HINT = 'IDs such as snowflakes are never negative.';
END
$$;
COMMENT ON FUNCTION idgen_sql_base36_bad(text, text) IS 'internal (SQL edition): raises the base36 helpers'' errors';

CREATE FUNCTION base36_decode(digits text) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN digits ~ '^[0-9a-zA-Z]{25}$' AND pg_catalog.lower(digits) COLLATE "C" <= '{{BASE36_MAX128}}'
                THEN idgen_sql_base36_decode128(pg_catalog.lower(digits))
                ELSE idgen_sql_base36_bad(digits, 'uuid') END;
COMMENT ON FUNCTION base36_decode(text) IS
    'the uuid of 25 base36 digits in either case';

CREATE FUNCTION base36_encode(id bigint) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN id < 0 THEN idgen_sql_base36_bad(id::text, 'negative')::text
                WHEN id = 0 THEN '0'
                ELSE pg_catalog.ltrim(idgen_sql_base36_encode64(id), '0') END;
COMMENT ON FUNCTION base36_encode(bigint) IS
    'shortest lowercase base36 digits of a non-negative bigint, such as a snowflake';

CREATE FUNCTION base36_decode_bigint(digits text) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN digits !~ '^[0-9a-zA-Z]{1,13}$' THEN idgen_sql_base36_bad(digits, 'bigint')::text::bigint
                WHEN pg_catalog.lpad(pg_catalog.lower(digits), 13, '0') COLLATE "C" > '1y2p0ij32e8e7'
                    THEN idgen_sql_base36_bad(digits, 'bigint range')::text::bigint
                ELSE idgen_sql_base36_decode64(pg_catalog.lpad(pg_catalog.lower(digits), 13, '0')) END;
COMMENT ON FUNCTION base36_decode_bigint(text) IS
    'the bigint of 1 to 13 base36 digits in either case, at most 1y2p0ij32e8e7';

-- prefixed_id generators and accessors ---------------------------------------

-- The mint of prefixed_id_new(): uuid_v7()'s tick and random bits, straight
-- into base36 (issue 33: no uuid in between), in one PL/pgSQL call, after
-- head, the checked prefix and "_" (idgen_sql_id_head).
-- prefixed_id_new() is STRICT and its body one STRICT call, so that it is
-- inlined (a STRICT SQL function with a CASE in its body is called through
-- the SQL-function executor, about 3 us a call).
CREATE FUNCTION idgen_sql_prefixed_id_mint(head text, pairs bytea) RETURNS text
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED
AS $$
DECLARE
    {{UUID_V7_TICK_AND_LO}}
    {{BASE36_128_DECLARE_TICK}}
BEGIN
    IF (tick OPERATOR(pg_catalog.>>) 60) OPERATOR(pg_catalog.<>) 0 THEN
        {{UUID_V7_RANGE_RAISE}}
    END IF;
    RETURN head OPERATOR(pg_catalog.||) {{BASE36_128_DIGITS}};
END
$$;
COMMENT ON FUNCTION idgen_sql_prefixed_id_mint(text, bytea) IS
    'internal (SQL edition): the text of prefixed_id_new(prefix) after its head, from uuid_v7()''s sequence';

CREATE FUNCTION prefixed_id_new(prefix text) RETURNS prefixed_id
    LANGUAGE sql VOLATILE STRICT PARALLEL RESTRICTED
    RETURN idgen_sql_prefixed_id_mint(idgen_sql_id_head(prefix, 'prefixed_id'), {{BASE36_PAIRS}})::prefixed_id;
COMMENT ON FUNCTION prefixed_id_new(text) IS
    'new ordered prefixed ID: the 128 bits are a uuid_v7() value, so IDs of a prefix sort by creation time';

CREATE FUNCTION prefixed_id_token(prefix text) RETURNS prefixed_id
    LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
    RETURN (idgen_sql_id_head(prefix, 'prefixed_id') || idgen_sql_base36_encode128(pg_catalog.gen_random_uuid(), {{BASE36_PAIRS}}))::prefixed_id;
COMMENT ON FUNCTION prefixed_id_token(text) IS
    'new prefixed token: 122 CSPRNG bits in the UUIDv4 layout, for share links, session and reset tokens that must not be guessable';

CREATE FUNCTION prefixed_id_prefix(id prefixed_id) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.left(id, -26);
COMMENT ON FUNCTION prefixed_id_prefix(prefixed_id) IS 'the prefix of a prefixed ID';

CREATE FUNCTION prefixed_id_uuid(id prefixed_id) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_base36_decode128(pg_catalog.right(id, 25));
COMMENT ON FUNCTION prefixed_id_uuid(prefixed_id) IS 'the 128 bits of a prefixed ID as a uuid';

CREATE FUNCTION prefixed_id_to_bytea(id prefixed_id) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.uuid_send(prefixed_id_uuid(id));
COMMENT ON FUNCTION prefixed_id_to_bytea(prefixed_id) IS 'the 128 bits as 16 bytes';

CREATE FUNCTION prefixed_id_time(id prefixed_id) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN uuid_v7_time(idgen_sql_base36_decode128(pg_catalog.right(id, 25)));
COMMENT ON FUNCTION prefixed_id_time(prefixed_id) IS
    'millisecond of an ordered prefixed ID (its bits are a UUIDv7); NULL when the bits lack UUIDv7''s version and variant, as for every token (version 4)';

CREATE FUNCTION prefixed_id_from_uuid(prefix text, payload uuid) RETURNS prefixed_id
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (idgen_sql_id_head(prefix, 'prefixed_id') || idgen_sql_base36_encode128(payload, {{BASE36_PAIRS}}))::prefixed_id;
COMMENT ON FUNCTION prefixed_id_from_uuid(text, uuid) IS
    'prefixed ID with a given prefix and 128 bits, such as an existing uuid key';

CREATE FUNCTION prefixed_id_boundary(prefix text, ts timestamptz) RETURNS prefixed_id
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (idgen_sql_id_head(prefix, 'prefixed_id') || idgen_sql_base36_encode128(uuid_v7_boundary(ts), {{BASE36_PAIRS}}))::prefixed_id;
COMMENT ON FUNCTION prefixed_id_boundary(text, timestamptz) IS
    'smallest ordered prefixed ID of the millisecond holding ts, for range predicates and partition bounds';
