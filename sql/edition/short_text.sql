-- ============================================================================
-- short text of a uuid or a ulid: uuid_encode(), uuid_decode(), ulid_encode(),
-- ulid_decode()
-- ============================================================================
-- The C++ edition's forms (src/core/short_text.hpp), in this order:
-- {{SHORT_FORM_LIST}}. Every form is the 128-bit value
-- written as one number, most significant digit first, padded with the
-- alphabet's first digit to the form's length: the positional forms as they
-- are; base64url as the value times 16 in 22 digits of 64 (the 16 bytes in RFC
-- 4648's URL alphabet, unpadded, whose last character holds 2 bits and 4
-- zero bits); base32 in 26 Crockford digits (ULID text, two zero bits on top).
-- So one encoder and one decoder in numeric arithmetic serve every form.

-- The form's number in that order, of its name in either case (ASCII letters
-- only, as the C++ edition compares, whatever the collation); 22023 for any
-- other name.
CREATE FUNCTION idgen_sql_short_form(form text) RETURNS integer
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    k integer := pg_catalog.array_position({{SHORT_FORM_NAMES}}::pg_catalog.text[], pg_catalog.translate(form, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'));
BEGIN
    IF k IS NULL THEN
        RAISE EXCEPTION 'unknown short text form: "%"', form USING ERRCODE = 'invalid_parameter_value',
            HINT = 'The forms are {{SHORT_FORM_LIST}}.';
    END IF;
    RETURN k;
END
$$;
COMMENT ON FUNCTION idgen_sql_short_form(text) IS 'internal (SQL edition): the number of a short text form, or 22023';

-- The text of the 16 bytes b in form k (idgen_sql_short_form()).
CREATE FUNCTION idgen_sql_short_encode(b bytea, k integer) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    a pg_catalog.text := ({{SHORT_ALPHABETS}}::pg_catalog.text[])[k];
    base integer := pg_catalog.length(a);
    n numeric := 0;
    t pg_catalog.text := '';
BEGIN
    FOR i IN 0..15 LOOP
        n := n OPERATOR(pg_catalog.*) 256 OPERATOR(pg_catalog.+) pg_catalog.get_byte(b, i);
    END LOOP;
    IF k OPERATOR(pg_catalog.=) {{SHORT_BASE64URL}} THEN
        n := n OPERATOR(pg_catalog.*) 16;
    END IF;
    FOR i IN 1..({{SHORT_LENGTHS}}::integer[])[k] LOOP
        t := pg_catalog.substr(a, pg_catalog.mod(n, base)::integer OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) t;
        n := pg_catalog.div(n, base);
    END LOOP;
    RETURN t;
END
$$;
COMMENT ON FUNCTION idgen_sql_short_encode(bytea, integer) IS 'internal (SQL edition): the short text of 16 bytes in a form';

-- The 16 bytes of input in form k, strictly, or 22P02 with the C++
-- edition's message for a value of type_name: a character outside the
-- alphabet first (control characters as codes), then the length, then a value
-- above 2^128 - 1, then a base64url last character with its zero bits set.
CREATE FUNCTION idgen_sql_short_decode(input text, k integer, type_name text) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    name pg_catalog.text := ({{SHORT_FORM_NAMES}}::pg_catalog.text[])[k];
    a pg_catalog.text := ({{SHORT_ALPHABETS}}::pg_catalog.text[])[k];
    len integer := ({{SHORT_LENGTHS}}::integer[])[k];
    base integer := pg_catalog.length(a);
    t pg_catalog.text := input;
    bad pg_catalog.text := substring(input FROM ({{SHORT_CLASSES}}::pg_catalog.text[])[k]);
    n numeric := 0;
    h pg_catalog.text := '';
BEGIN
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'invalid % text for type %: "%"', name, type_name, input USING ERRCODE = 'invalid_text_representation',
            DETAIL = pg_catalog.format('%s at position %s is not a %s digit.',
                CASE WHEN pg_catalog.ascii(bad) OPERATOR(pg_catalog.<) 32 OR pg_catalog.ascii(bad) OPERATOR(pg_catalog.=) 127
                     THEN 'Control character 0x' OPERATOR(pg_catalog.||) pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.ascii(bad)), 2, '0'))
                     ELSE pg_catalog.format('Character "%s"', bad) END,
                pg_catalog.strpos(input, bad), name),
            HINT = pg_catalog.format(CASE WHEN k OPERATOR(pg_catalog.=) {{SHORT_BASE32}} THEN 'The %s digits are %s, in either case.'
                                          ELSE 'The %s digits are %s.' END, name, a);
    END IF;
    IF pg_catalog.octet_length(input) OPERATOR(pg_catalog.<>) len THEN
        RAISE EXCEPTION 'invalid % text for type %: "%"', name, type_name, input USING ERRCODE = 'invalid_text_representation',
            DETAIL = pg_catalog.format('A %s in %s is %s characters long; this text has %s.', type_name, name, len, pg_catalog.octet_length(input));
    END IF;
    IF k OPERATOR(pg_catalog.=) {{SHORT_BASE32}} THEN
        t := pg_catalog.translate(input, 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    END IF;
    FOR i IN 1..len LOOP
        n := n OPERATOR(pg_catalog.*) base OPERATOR(pg_catalog.+) (pg_catalog.strpos(a, pg_catalog.substr(t, i, 1)) OPERATOR(pg_catalog.-) 1);
    END LOOP;
    IF k OPERATOR(pg_catalog.=) {{SHORT_BASE64URL}} THEN
        IF pg_catalog.mod(n, 16) OPERATOR(pg_catalog.<>) 0 THEN
            RAISE EXCEPTION 'invalid % text for type %: "%"', name, type_name, input USING ERRCODE = 'invalid_text_representation',
                DETAIL = pg_catalog.format('The last character of base64url text holds the last 2 bits and 4 zero bits, so it is one of %s, %s, %s or %s; "%s" sets the zero bits.',
                                           pg_catalog.substr(a, 1, 1), pg_catalog.substr(a, 17, 1), pg_catalog.substr(a, 33, 1), pg_catalog.substr(a, 49, 1),
                                           pg_catalog.substr(input, len, 1));
        END IF;
        n := pg_catalog.div(n, 16);
    ELSIF n OPERATOR(pg_catalog.>) 340282366920938463463374607431768211455 THEN
        RAISE EXCEPTION 'invalid % text for type %: "%"', name, type_name, input USING ERRCODE = 'invalid_text_representation',
            DETAIL = pg_catalog.format('The value is above 2^128 - 1, which is %s in %s.', ({{SHORT_LARGEST}}::pg_catalog.text[])[k], name);
    END IF;
    FOR i IN 1..4 LOOP
        h := pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.mod(n, 4294967296)::bigint), 8, '0') OPERATOR(pg_catalog.||) h;
        n := pg_catalog.div(n, 4294967296);
    END LOOP;
    RETURN h::pg_catalog.uuid;
END
$$;
COMMENT ON FUNCTION idgen_sql_short_decode(text, integer, text) IS 'internal (SQL edition): the uuid of short text in a form, strictly, or 22P02';

CREATE FUNCTION uuid_encode(id uuid, form text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_short_encode(pg_catalog.uuid_send(id), idgen_sql_short_form(form));
COMMENT ON FUNCTION uuid_encode(uuid, text) IS
    'short text of a uuid for URLs in a form: base62, base58, flickr, base57 or base64url (22 characters) or base32 (26)';

CREATE FUNCTION uuid_decode(encoded text, form text) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_short_decode(encoded, idgen_sql_short_form(form), 'uuid');
COMMENT ON FUNCTION uuid_decode(text, text) IS
    'the uuid of short text in a form, strictly: the form''s exact length and alphabet, no value above 2^128 - 1';

CREATE FUNCTION ulid_encode(id ulid, form text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_short_encode(pg_catalog.uuid_send(id), idgen_sql_short_form(form));
COMMENT ON FUNCTION ulid_encode(ulid, text) IS
    'short text of a ulid''s 128 bits in a form, as uuid_encode()';

CREATE FUNCTION ulid_decode(encoded text, form text) RETURNS ulid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_short_decode(encoded, idgen_sql_short_form(form), 'ulid');
COMMENT ON FUNCTION ulid_decode(text, text) IS
    'the ulid of short text in a form, strictly, as uuid_decode()';
