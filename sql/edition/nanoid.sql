-- ============================================================================
-- NanoID: nanoid(), nanoid_is_valid()
-- ============================================================================
-- Random text IDs over an alphabet, as the C++ edition's (src/core/nanoid.hpp):
-- {{NANOID_MIN_SIZE}} to {{NANOID_MAX_SIZE}} characters, each uniform over an
-- alphabet of {{NANOID_MIN_ALPHABET}} to {{NANOID_MAX_ALPHABET}} distinct
-- characters of the database encoding (multibyte ones included), by masked
-- rejection: one random byte masked to the smallest 2^k - 1 at or above the
-- alphabet's size minus one, another while the masked value is not below the
-- size. The random bytes are gen_random_uuid()'s, less its version and variant
-- bytes (14 of its 16). nanoid_define() is the C++ edition's only, as the other
-- *_define() functions: a domain of one's own is CREATE DOMAIN ... DEFAULT
-- nanoid(size, alphabet) CHECK (nanoid_is_valid(VALUE, size, alphabet)).

-- The alphabet's characters, or 22023 as the C++ edition refuses a call: a
-- size outside its bounds first, then more than {{NANOID_MAX_ALPHABET}} characters, then fewer
-- than {{NANOID_MIN_ALPHABET}}, then the character whose second occurrence comes first (with its
-- first position).
CREATE FUNCTION idgen_sql_nanoid_alphabet(alphabet text, size integer) RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    c pg_catalog.text[] := CASE WHEN alphabet OPERATOR(pg_catalog.=) '' THEN '{}'::pg_catalog.text[]
                                ELSE pg_catalog.regexp_split_to_array(alphabet, '') END;
    n integer := COALESCE(pg_catalog.array_length(c, 1), 0);
    first integer;
BEGIN
    IF size OPERATOR(pg_catalog.<) {{NANOID_MIN_SIZE}} OR size OPERATOR(pg_catalog.>) {{NANOID_MAX_SIZE}} THEN
        RAISE EXCEPTION 'invalid size for nanoid: %', size USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'A NanoID has {{NANOID_MIN_SIZE}} to {{NANOID_MAX_SIZE}} characters.';
    END IF;
    IF n OPERATOR(pg_catalog.>) {{NANOID_MAX_ALPHABET}} THEN
        RAISE EXCEPTION 'invalid alphabet for nanoid: more than {{NANOID_MAX_ALPHABET}} characters' USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('The alphabet has %s characters; a NanoID alphabet has {{NANOID_MIN_ALPHABET}} to {{NANOID_MAX_ALPHABET}} distinct characters.', n);
    END IF;
    IF n OPERATOR(pg_catalog.<) {{NANOID_MIN_ALPHABET}} THEN
        RAISE EXCEPTION 'invalid alphabet for nanoid: fewer than {{NANOID_MIN_ALPHABET}} characters' USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('The alphabet has %s %s; a NanoID alphabet has {{NANOID_MIN_ALPHABET}} to {{NANOID_MAX_ALPHABET}} distinct characters.',
                                       n, CASE WHEN n OPERATOR(pg_catalog.=) 1 THEN 'character' ELSE 'characters' END);
    END IF;
    FOR i IN 2..n LOOP
        first := pg_catalog.array_position(c[1:i OPERATOR(pg_catalog.-) 1], c[i]);
        IF first IS NOT NULL THEN
            RAISE EXCEPTION 'invalid alphabet for nanoid: "%" appears more than once', c[i] USING ERRCODE = 'invalid_parameter_value',
                DETAIL = pg_catalog.format('Character "%s" is at positions %s and %s; each character of the alphabet must be distinct, or the IDs would not be uniform.',
                                           c[i], first, i);
        END IF;
    END LOOP;
    RETURN c;
END
$$;
COMMENT ON FUNCTION idgen_sql_nanoid_alphabet(text, integer) IS 'internal (SQL edition): the characters of a NanoID alphabet, or 22023 for it or the size';

-- size characters of the alphabet c (both checked), by masked rejection.
CREATE FUNCTION idgen_sql_nanoid_draw(size integer, c text[]) RETURNS text
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE
AS $$
DECLARE
    n integer := pg_catalog.array_length(c, 1);
    mask integer := 1;
    r pg_catalog.bytea;
    v integer;
    out pg_catalog.text[] := '{}';
    got integer := 0;
BEGIN
    WHILE mask OPERATOR(pg_catalog.<) (n OPERATOR(pg_catalog.-) 1) LOOP
        mask := (mask OPERATOR(pg_catalog.*) 2) OPERATOR(pg_catalog.+) 1;
    END LOOP;
    WHILE got OPERATOR(pg_catalog.<) size LOOP
        r := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
        FOR i IN 0..15 LOOP
            CONTINUE WHEN i OPERATOR(pg_catalog.=) 6 OR i OPERATOR(pg_catalog.=) 8;
            v := pg_catalog.get_byte(r, i) OPERATOR(pg_catalog.&) mask;
            CONTINUE WHEN v OPERATOR(pg_catalog.>=) n;
            got := got OPERATOR(pg_catalog.+) 1;
            out[got] := c[v OPERATOR(pg_catalog.+) 1];
            EXIT WHEN got OPERATOR(pg_catalog.=) size;
        END LOOP;
    END LOOP;
    RETURN pg_catalog.array_to_string(out, '');
END
$$;
COMMENT ON FUNCTION idgen_sql_nanoid_draw(integer, text[]) IS 'internal (SQL edition): size random characters of an alphabet';

-- Whether id is size characters of the alphabet c.
CREATE FUNCTION idgen_sql_nanoid_valid(id text, size integer, c text[]) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    RETURN pg_catalog.char_length(id) OPERATOR(pg_catalog.=) size
           AND pg_catalog.regexp_split_to_array(id, '') OPERATOR(pg_catalog.<@) c;
END
$$;
COMMENT ON FUNCTION idgen_sql_nanoid_valid(text, integer, text[]) IS 'internal (SQL edition): whether id is size characters of an alphabet';

CREATE FUNCTION nanoid(size integer DEFAULT {{NANOID_DEFAULT_SIZE}}, alphabet text DEFAULT '{{NANOID_DEFAULT_ALPHABET}}') RETURNS text
    LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
    RETURN idgen_sql_nanoid_draw(size, idgen_sql_nanoid_alphabet(alphabet, size));
COMMENT ON FUNCTION nanoid(integer, text) IS
    'new NanoID: size (1 to 1024, default 21) characters, each drawn uniformly from the alphabet (2 to 256 distinct characters, multibyte allowed; default the URL-safe 64 of A-Za-z0-9_-) by masked rejection from gen_random_uuid()''s CSPRNG bits';

CREATE FUNCTION nanoid_is_valid(id text, size integer DEFAULT {{NANOID_DEFAULT_SIZE}}, alphabet text DEFAULT '{{NANOID_DEFAULT_ALPHABET}}') RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_nanoid_valid(id, size, idgen_sql_nanoid_alphabet(alphabet, size));
COMMENT ON FUNCTION nanoid_is_valid(text, integer, text) IS
    'whether id is exactly size characters of the alphabet (the defaults are nanoid()''s); a size or alphabet that nanoid() refuses is refused here too';
