-- ============================================================================
-- TypeID (jetify-com/typeid spec v0.3.0): user_01h455vb4pex5vsknk084sn02q
-- ============================================================================
-- Text: a prefix as for prefixed_id (or none), "_", and the 128 bits as 26
-- lowercase Crockford base32 digits, the first at most 7; without a prefix, the
-- 26 digits alone. A domain over text holding that text (COLLATE "C", so that
-- within a prefix text order is the order of the 128 bits), as prefixed_id.
-- On the C++ edition: ALTER TABLE ... ALTER COLUMN c TYPE typeid USING c::text::typeid.

CREATE FUNCTION idgen_sql_typeid_bad_text(input text) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    prefix pg_catalog.text := substring(input FROM '^(.*)_[^_]*$');
    suffix pg_catalog.text := substring(input FROM '([^_]*)$');
BEGIN
    IF prefix OPERATOR(pg_catalog.=) '' THEN
        RAISE EXCEPTION 'invalid input syntax for type typeid: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = 'The prefix before the last "_" is empty; a TypeID without a prefix is the 26 characters alone, without "_".';
    END IF;
    IF prefix IS NOT NULL AND prefix OPERATOR(pg_catalog.!~) '^[a-z]([a-z_]{0,{{PREFIX_MAX_INNER}}}[a-z])?$' THEN
        RAISE EXCEPTION 'invalid input syntax for type typeid: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = {{PREFIX_DETAIL:prefix}};
    END IF;
    IF pg_catalog.length(suffix) OPERATOR(pg_catalog.<>) 26 THEN
        RAISE EXCEPTION 'invalid input syntax for type typeid: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = pg_catalog.format('The suffix (the part after the last "_", or the whole value without one) must be 26 characters; it has %s.',
                                             pg_catalog.length(suffix));
    END IF;
    IF suffix OPERATOR(pg_catalog.~) '[^{{CROCKFORD_CLASS_LOWER}}]' THEN
        RAISE EXCEPTION 'invalid input syntax for type typeid: "%"', input
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = pg_catalog.format('Character "%s" of the suffix is not a TypeID digit (0-9 and lowercase a-z without i, l, o and u).',
                                             substring(suffix FROM '[^{{CROCKFORD_CLASS_LOWER}}]'));
    END IF;
    RAISE EXCEPTION 'invalid input syntax for type typeid: "%"', input
        USING ERRCODE = 'invalid_text_representation',
              DETAIL = 'The suffix starts with a character above 7, so it holds more than 128 bits; the largest is 7zzzzzzzzzzzzzzzzzzzzzzzzz.';
END
$$;
COMMENT ON FUNCTION idgen_sql_typeid_bad_text(text) IS 'internal (SQL edition): raises 22P02 for text that is no TypeID';

-- No counted repetition in the pattern (issue 33, as prefixed_id): the suffix,
-- what follows the last "_" (the whole value when it has none), is 26
-- characters long, and the prefix is at most {{PREFIX_MAX}} characters (in
-- bytes, as prefixed_id: after the pattern, only ASCII is left).
CREATE DOMAIN typeid AS text COLLATE "C"
    CONSTRAINT typeid_text CHECK (
        (VALUE ~ '^([a-z]([a-z_]*[a-z])?_)?[0-7][{{CROCKFORD_CLASS_LOWER}}]*$'
         AND pg_catalog.octet_length(VALUE) <= {{TYPEID_MAX_LENGTH}}
         AND pg_catalog.octet_length(pg_catalog.split_part(VALUE, '_', -1)) = 26)
        OR idgen_sql_typeid_bad_text(VALUE));
COMMENT ON DOMAIN typeid IS
    'TypeID (jetify-com/typeid spec v0.3.0; SQL edition: a domain over text holding the C++ edition''s text): an entity prefix and 128 bits in 26 lowercase Crockford base32 digits, such as user_01h455vb4pex5vsknk084sn02q';

-- The mint of typeid_new(): uuid_v7()'s tick and random bits, straight into
-- Crockford base32 (issue 33), after head, as idgen_sql_prefixed_id_mint.
CREATE FUNCTION idgen_sql_typeid_mint(head text, pairs bytea) RETURNS text
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED
AS $$
DECLARE
    {{UUID_V7_TICK_AND_LO}}
    hi bigint := ((tick OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) 28672 OPERATOR(pg_catalog.|) (tick OPERATOR(pg_catalog.&) 4095);
BEGIN
    IF (tick OPERATOR(pg_catalog.>>) 60) OPERATOR(pg_catalog.<>) 0 THEN
        {{UUID_V7_RANGE_RAISE}}
    END IF;
    RETURN head OPERATOR(pg_catalog.||) pg_catalog.encode({{CROCKFORD_ENCODE_PAIRS}}, 'escape');
END
$$;
COMMENT ON FUNCTION idgen_sql_typeid_mint(text, bytea) IS
    'internal (SQL edition): the text of typeid_new(prefix) after its head, from uuid_v7()''s sequence';

CREATE FUNCTION typeid_new(prefix text) RETURNS typeid
    LANGUAGE sql VOLATILE STRICT PARALLEL RESTRICTED
    RETURN idgen_sql_typeid_mint(idgen_sql_id_head(prefix, 'typeid'), {{CROCKFORD_PAIRS_LOWER}})::typeid;
COMMENT ON FUNCTION typeid_new(text) IS
    'new TypeID with the given prefix ('''' for none): the 128 bits are a uuid_v7() value from the session''s sequence, so TypeIDs of a prefix sort by creation time';

CREATE FUNCTION typeid_prefix(id typeid) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.left(id, -27);
COMMENT ON FUNCTION typeid_prefix(typeid) IS 'the prefix of a TypeID ('''' for none)';

CREATE FUNCTION typeid_uuid(id typeid) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_crockford_decode(pg_catalog.right(id, 26), '{{CROCKFORD_LOWER}}');
COMMENT ON FUNCTION typeid_uuid(typeid) IS 'the 128 bits of a TypeID as a uuid';

CREATE FUNCTION typeid_to_bytea(id typeid) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN pg_catalog.uuid_send(typeid_uuid(id));
COMMENT ON FUNCTION typeid_to_bytea(typeid) IS 'the 128 bits as 16 bytes';

CREATE FUNCTION typeid_time(id typeid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN uuid_v7_time(idgen_sql_crockford_decode(pg_catalog.right(id, 26), '{{CROCKFORD_LOWER}}'));
COMMENT ON FUNCTION typeid_time(typeid) IS
    'millisecond of a TypeID whose bits are a UUIDv7; NULL when they lack UUIDv7''s version and variant';

CREATE FUNCTION typeid_from_uuid(prefix text, payload uuid) RETURNS typeid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (idgen_sql_id_head(prefix, 'typeid') || idgen_sql_crockford_encode(payload, {{CROCKFORD_PAIRS_LOWER}}))::typeid;
COMMENT ON FUNCTION typeid_from_uuid(text, uuid) IS
    'TypeID with a given prefix ('''' for none) and 128 bits, such as an existing uuid key';

CREATE FUNCTION typeid_boundary(prefix text, ts timestamptz) RETURNS typeid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (idgen_sql_id_head(prefix, 'typeid') || idgen_sql_crockford_encode(uuid_v7_boundary(ts), {{CROCKFORD_PAIRS_LOWER}}))::typeid;
COMMENT ON FUNCTION typeid_boundary(text, timestamptz) IS
    'smallest generated TypeID of the millisecond holding ts, for range predicates and partition bounds';

CREATE FUNCTION idgen_sql_typeid_no_prefix(id text) RETURNS prefixed_id
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    RAISE EXCEPTION 'cannot cast typeid "%" to prefixed_id', id
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = 'The typeid has the empty prefix; a prefixed_id always has one.',
              HINT = 'Give it a prefix with typeid_from_uuid(prefix, typeid_uuid(id)).';
END
$$;
COMMENT ON FUNCTION idgen_sql_typeid_no_prefix(text) IS 'internal (SQL edition): raises 22023 for a typeid without a prefix';

-- The C++ edition's cast (typeid AS prefixed_id); a domain has no casts of its own.
CREATE FUNCTION typeid_to_prefixed_id(id typeid) RETURNS prefixed_id
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN pg_catalog.length(id) = 26 THEN idgen_sql_typeid_no_prefix(id)
                ELSE (pg_catalog.left(id, -26)
                      || idgen_sql_base36_encode128(idgen_sql_crockford_decode(pg_catalog.right(id, 26), '{{CROCKFORD_LOWER}}'), {{BASE36_PAIRS}}))::prefixed_id END;
COMMENT ON FUNCTION typeid_to_prefixed_id(typeid) IS
    'the prefixed_id of the same prefix and 128 bits; an error for the empty prefix';
