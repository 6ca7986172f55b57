-- ============================================================================
-- Sqids: sqids_encode(), sqids_decode(), sqids_decode_one(),
-- sqids_decode_lenient(), sqids_default_blocklist()
-- ============================================================================
-- The Sqids specification's coder, as the C++ edition's (src/core/sqids.hpp),
-- with the same refusals: an alphabet of at least {{SQIDS_MIN_ALPHABET}} distinct ASCII
-- characters, shuffled once; minimum lengths 0 to {{SQIDS_MAX_MIN_LENGTH}}; the blocklist's words
-- kept when they have {{SQIDS_MIN_WORD_LENGTH}} characters or more, all in the alphabet (both
-- lowercased, ASCII only); numbers 0 to 2^63 - 1. The options are checked
-- and the words filtered at every call (the C++ edition caches them per call
-- site). sqids_define() is the C++ edition's only, as the other *_define()
-- functions.

CREATE FUNCTION sqids_default_blocklist() RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN '{{SQIDS_DEFAULT_BLOCKLIST}}'::text[];
COMMENT ON FUNCTION sqids_default_blocklist() IS
    'the Sqids specification''s default blocklist (560 words, in its order), which a NULL blocklist stands for; extend it with sqids_default_blocklist() || ''{word}''';

-- The checked options: the alphabet shuffled as the spec shuffles it once,
-- then the kept words, lowercased (ASCII). 22023 (22004 for a null word) as
-- the C++ edition refuses them, in its order: the alphabet (a multibyte
-- character, too few characters, a repeat), the minimum length, the words.
CREATE FUNCTION idgen_sql_sqids_options(alphabet text, min_length integer, blocklist text[]) RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    c pg_catalog.text[] := pg_catalog.regexp_split_to_array(alphabet, '');
    n integer := pg_catalog.octet_length(alphabet);
    at integer;
    first integer;
    lowered pg_catalog.text[] := pg_catalog.regexp_split_to_array(pg_catalog.translate(alphabet, '{{ASCII_UPPER}}', '{{ASCII_LOWER}}'), '');
    shuffled pg_catalog.text := alphabet;
    kept pg_catalog.text[];
    word pg_catalog.text;
    k integer := 0;
    {{SQIDS_SHUFFLE_VARIABLES}}
BEGIN
    at := pg_catalog.strpos(alphabet, substring(alphabet FROM '[^\x01-\x7f]'));
    IF at OPERATOR(pg_catalog.>) 0 THEN
        RAISE EXCEPTION 'invalid alphabet for sqids: multibyte characters are not allowed' USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('The byte at position %s is not an ASCII character; a Sqids alphabet has at least {{SQIDS_MIN_ALPHABET}} distinct single-byte characters.',
                                       pg_catalog.octet_length(pg_catalog.substr(alphabet, 1, at OPERATOR(pg_catalog.-) 1)) OPERATOR(pg_catalog.+) 1),
            HINT = 'Sqids codes are the same in every implementation only over ASCII.';
    END IF;
    IF n OPERATOR(pg_catalog.<) {{SQIDS_MIN_ALPHABET}} THEN
        RAISE EXCEPTION 'invalid alphabet for sqids: fewer than {{SQIDS_MIN_ALPHABET}} characters' USING ERRCODE = 'invalid_parameter_value',
            DETAIL = pg_catalog.format('The alphabet has %s characters; a Sqids alphabet has at least {{SQIDS_MIN_ALPHABET}} distinct single-byte characters.', n);
    END IF;
    FOR i IN 2..n LOOP
        first := pg_catalog.array_position(c[1:i OPERATOR(pg_catalog.-) 1], c[i]);
        IF first IS NOT NULL THEN
            RAISE EXCEPTION 'invalid alphabet for sqids: "%" appears more than once', c[i] USING ERRCODE = 'invalid_parameter_value',
                DETAIL = pg_catalog.format('Character "%s" is at positions %s and %s; each character of the alphabet must be distinct.', c[i], first, i);
        END IF;
    END LOOP;
    IF min_length OPERATOR(pg_catalog.<) 0 OR min_length OPERATOR(pg_catalog.>) {{SQIDS_MAX_MIN_LENGTH}} THEN
        RAISE EXCEPTION 'invalid min_length for sqids: %', min_length USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'The minimum length of a Sqids code is 0 to {{SQIDS_MAX_MIN_LENGTH}}.';
    END IF;
    {{SQIDS_SHUFFLE:shuffled}}
    kept := ARRAY[shuffled];
    FOREACH word IN ARRAY blocklist LOOP
        k := k OPERATOR(pg_catalog.+) 1;
        IF word IS NULL THEN
            RAISE EXCEPTION 'invalid blocklist for sqids: element % is null', k USING ERRCODE = 'null_value_not_allowed',
                HINT = 'Pass NULL for the default blocklist, or ''{}'' for none.';
        END IF;
        word := pg_catalog.translate(word, '{{ASCII_UPPER}}', '{{ASCII_LOWER}}');
        IF pg_catalog.octet_length(word) OPERATOR(pg_catalog.>=) {{SQIDS_MIN_WORD_LENGTH}}
           AND pg_catalog.regexp_split_to_array(word, '') OPERATOR(pg_catalog.<@) lowered THEN
            kept := kept OPERATOR(pg_catalog.||) word;
        END IF;
    END LOOP;
    RETURN kept;
END
$$;
COMMENT ON FUNCTION idgen_sql_sqids_options(text, integer, text[]) IS
    'internal (SQL edition): the shuffled Sqids alphabet and the kept blocklist words, or 22023 / 22004 for the options';

-- The code of numbers under options (idgen_sql_sqids_options()), by the
-- spec's encodeNumbers: 2202E for more than one dimension, 22004 for a null
-- number, 22003 for a negative one (one: the number of sqids_encode(bigint)),
-- then each increment from 0 to the alphabet's length until a code holds no
-- blocked word; past it 22023, or NULL when quiet.
CREATE FUNCTION idgen_sql_sqids_encode(numbers bigint[], options text[], min_length integer, one boolean, quiet boolean) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    alphabet pg_catalog.text := options[1];
    n integer := pg_catalog.length(options[1]);
    nums bigint[] := '{}';
    v bigint;
    k integer := 0;
    shift integer;
    a pg_catalog.text;
    id pg_catalog.text;
    part pg_catalog.text;
    lowered pg_catalog.text;
    blocked boolean;
    {{SQIDS_SHUFFLE_VARIABLES}}
BEGIN
    IF pg_catalog.array_ndims(numbers) OPERATOR(pg_catalog.>) 1 THEN
        RAISE EXCEPTION 'sqids encodes a one-dimensional array, not one of % dimensions', pg_catalog.array_ndims(numbers)
            USING ERRCODE = 'array_subscript_error';
    END IF;
    FOREACH v IN ARRAY numbers LOOP
        k := k OPERATOR(pg_catalog.+) 1;
        IF v IS NULL THEN
            RAISE EXCEPTION 'sqids cannot encode a null number' USING ERRCODE = 'null_value_not_allowed',
                DETAIL = pg_catalog.format('Element %s of the array is null.', k);
        ELSIF v OPERATOR(pg_catalog.<) 0 AND one THEN
            RAISE EXCEPTION 'sqids cannot encode negative number %', v USING ERRCODE = 'numeric_value_out_of_range',
                DETAIL = 'Sqids encodes numbers from 0 to {{SQIDS_MAX_VALUE}}.';
        ELSIF v OPERATOR(pg_catalog.<) 0 THEN
            RAISE EXCEPTION 'sqids cannot encode negative number %', v USING ERRCODE = 'numeric_value_out_of_range',
                DETAIL = pg_catalog.format('Element %s of the array is negative; Sqids encodes numbers from 0 to {{SQIDS_MAX_VALUE}}.', k);
        END IF;
        nums := nums OPERATOR(pg_catalog.||) v;
    END LOOP;
    IF k OPERATOR(pg_catalog.=) 0 THEN
        RETURN '';
    END IF;
    FOR increment IN 0..n LOOP
        -- the offset: the count, and each number's character code and index
        shift := k;
        FOR i IN 1..k LOOP
            shift := shift OPERATOR(pg_catalog.+) pg_catalog.ascii(pg_catalog.substr(alphabet, ((nums[i] OPERATOR(pg_catalog.%) n)::integer) OPERATOR(pg_catalog.+) 1, 1))
                     OPERATOR(pg_catalog.+) (i OPERATOR(pg_catalog.-) 1);
        END LOOP;
        shift := ((shift OPERATOR(pg_catalog.%) n) OPERATOR(pg_catalog.+) increment) OPERATOR(pg_catalog.%) n;
        a := pg_catalog.substr(alphabet, shift OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, 1, shift);
        id := pg_catalog.substr(a, 1, 1);
        a := pg_catalog.reverse(a);
        FOR i IN 1..k LOOP
            -- the number in the digits of a after its first character
            v := nums[i];
            part := '';
            LOOP
                part := pg_catalog.substr(a, ((v OPERATOR(pg_catalog.%) (n OPERATOR(pg_catalog.-) 1))::integer) OPERATOR(pg_catalog.+) 2, 1) OPERATOR(pg_catalog.||) part;
                v := v OPERATOR(pg_catalog./) (n OPERATOR(pg_catalog.-) 1);
                EXIT WHEN v OPERATOR(pg_catalog.=) 0;
            END LOOP;
            id := id OPERATOR(pg_catalog.||) part;
            IF i OPERATOR(pg_catalog.<) k THEN
                id := id OPERATOR(pg_catalog.||) pg_catalog.substr(a, 1, 1);
                {{SQIDS_SHUFFLE:a}}
            END IF;
        END LOOP;
        IF min_length OPERATOR(pg_catalog.>) pg_catalog.length(id) THEN
            id := id OPERATOR(pg_catalog.||) pg_catalog.substr(a, 1, 1);
            WHILE min_length OPERATOR(pg_catalog.>) pg_catalog.length(id) LOOP
                {{SQIDS_SHUFFLE:a}}
                id := id OPERATOR(pg_catalog.||) pg_catalog.substr(a, 1, LEAST(min_length OPERATOR(pg_catalog.-) pg_catalog.length(id), n));
            END LOOP;
        END IF;
        -- a blocked word: an ID or word of up to 3 characters equal to it, a
        -- word with a digit at the start or end, another word anywhere
        lowered := pg_catalog.translate(id, '{{ASCII_UPPER}}', '{{ASCII_LOWER}}');
        blocked := false;
        FOR w IN 2..COALESCE(pg_catalog.array_length(options, 1), 1) LOOP
            CONTINUE WHEN pg_catalog.length(options[w]) OPERATOR(pg_catalog.>) pg_catalog.length(lowered);
            IF pg_catalog.length(lowered) OPERATOR(pg_catalog.<=) 3 OR pg_catalog.length(options[w]) OPERATOR(pg_catalog.<=) 3 THEN
                blocked := lowered OPERATOR(pg_catalog.=) options[w];
            ELSIF options[w] OPERATOR(pg_catalog.~) '[0-9]' THEN
                blocked := pg_catalog.left(lowered, pg_catalog.length(options[w])) OPERATOR(pg_catalog.=) options[w]
                           OR pg_catalog.right(lowered, pg_catalog.length(options[w])) OPERATOR(pg_catalog.=) options[w];
            ELSE
                blocked := pg_catalog.strpos(lowered, options[w]) OPERATOR(pg_catalog.>) 0;
            END IF;
            EXIT WHEN blocked;
        END LOOP;
        IF NOT blocked THEN
            RETURN id;
        END IF;
    END LOOP;
    IF quiet THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'sqids cannot encode these numbers: every attempt holds a blocked word' USING ERRCODE = 'invalid_parameter_value',
        DETAIL = pg_catalog.format('The codes of increments 0 to %s each contain a word of the blocklist.', n),
        HINT = 'Use a longer alphabet, a smaller min_length or a shorter blocklist.';
END
$$;
COMMENT ON FUNCTION idgen_sql_sqids_encode(bigint[], text[], integer, boolean, boolean) IS
    'internal (SQL edition): the Sqids code of numbers under checked options';

-- The spec's lenient decoding under a shuffled alphabet: text with a
-- character outside it, or empty, gives no numbers; a number above
-- 2^63 - 1 is 22003.
CREATE FUNCTION idgen_sql_sqids_decode(code text, alphabet text) RETURNS bigint[]
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    n integer := pg_catalog.length(alphabet);
    numbers bigint[] := '{}';
    shift integer;
    a pg_catalog.text;
    rest pg_catalog.text;
    chunk pg_catalog.text;
    at integer;
    d integer;
    v bigint;
    {{SQIDS_SHUFFLE_VARIABLES}}
BEGIN
    IF code OPERATOR(pg_catalog.=) '' OR pg_catalog.translate(code, alphabet, '') OPERATOR(pg_catalog.<>) '' THEN
        RETURN numbers;
    END IF;
    shift := pg_catalog.strpos(alphabet, pg_catalog.substr(code, 1, 1)) OPERATOR(pg_catalog.-) 1;
    a := pg_catalog.reverse(pg_catalog.substr(alphabet, shift OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, 1, shift));
    rest := pg_catalog.substr(code, 2);
    WHILE rest OPERATOR(pg_catalog.<>) '' LOOP
        at := pg_catalog.strpos(rest, pg_catalog.substr(a, 1, 1));
        chunk := CASE WHEN at OPERATOR(pg_catalog.=) 0 THEN rest ELSE pg_catalog.substr(rest, 1, at OPERATOR(pg_catalog.-) 1) END;
        IF chunk OPERATOR(pg_catalog.=) '' THEN
            RETURN numbers;
        END IF;
        v := 0;
        FOR i IN 1..pg_catalog.length(chunk) LOOP
            d := pg_catalog.strpos(pg_catalog.substr(a, 2), pg_catalog.substr(chunk, i, 1)) OPERATOR(pg_catalog.-) 1;
            IF v OPERATOR(pg_catalog.>) (({{SQIDS_MAX_VALUE}} OPERATOR(pg_catalog.-) d) OPERATOR(pg_catalog./) (n OPERATOR(pg_catalog.-) 1)) THEN
                RAISE EXCEPTION 'sqids code "%" is out of range for type bigint', code USING ERRCODE = 'numeric_value_out_of_range',
                    DETAIL = pg_catalog.format('Its number %s is above {{SQIDS_MAX_VALUE}}.', COALESCE(pg_catalog.array_length(numbers, 1), 0) OPERATOR(pg_catalog.+) 1);
            END IF;
            v := (v OPERATOR(pg_catalog.*) (n OPERATOR(pg_catalog.-) 1)) OPERATOR(pg_catalog.+) d;
        END LOOP;
        numbers := numbers OPERATOR(pg_catalog.||) v;
        IF at OPERATOR(pg_catalog.=) 0 THEN
            rest := '';
        ELSE
            {{SQIDS_SHUFFLE:a}}
            rest := pg_catalog.substr(rest, at OPERATOR(pg_catalog.+) 1);
        END IF;
    END LOOP;
    RETURN numbers;
END
$$;
COMMENT ON FUNCTION idgen_sql_sqids_decode(text, text) IS 'internal (SQL edition): the numbers of a Sqids code, leniently';

-- The strict decoder's refusals (22P02), in the C++ edition's order: the
-- empty code, a byte outside the alphabet, no numbers, numbers with no code
-- (again is NULL), a code other than theirs (again); else the numbers.
CREATE FUNCTION idgen_sql_sqids_strict(code text, alphabet text, numbers bigint[], again text) RETURNS bigint[]
    LANGUAGE plpgsql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    c pg_catalog.text[] := pg_catalog.regexp_split_to_array(code, '');
BEGIN
    IF code OPERATOR(pg_catalog.=) '' THEN
        RAISE EXCEPTION 'invalid input syntax for sqids: ""' USING ERRCODE = 'invalid_text_representation',
            DETAIL = 'An empty code holds no numbers.', HINT = 'sqids_decode_lenient returns an empty array for it.';
    END IF;
    FOR i IN 1..pg_catalog.array_length(c, 1) LOOP
        IF pg_catalog.strpos(alphabet, c[i]) OPERATOR(pg_catalog.=) 0 THEN
            RAISE EXCEPTION 'invalid input syntax for sqids: "%"', code USING ERRCODE = 'invalid_text_representation',
                DETAIL = pg_catalog.format('The byte at position %s is not a character of the alphabet.',
                                           pg_catalog.octet_length(pg_catalog.substr(code, 1, i OPERATOR(pg_catalog.-) 1)) OPERATOR(pg_catalog.+) 1);
        END IF;
    END LOOP;
    IF pg_catalog.cardinality(numbers) OPERATOR(pg_catalog.=) 0 THEN
        RAISE EXCEPTION 'invalid input syntax for sqids: "%"', code USING ERRCODE = 'invalid_text_representation',
            DETAIL = 'The code holds no numbers.';
    END IF;
    IF again IS NULL THEN
        RAISE EXCEPTION 'invalid input syntax for sqids: "%"', code USING ERRCODE = 'invalid_text_representation',
            DETAIL = 'Its numbers have no code under this blocklist.';
    END IF;
    IF again OPERATOR(pg_catalog.<>) code THEN
        RAISE EXCEPTION 'invalid input syntax for sqids: "%"', code USING ERRCODE = 'invalid_text_representation',
            DETAIL = pg_catalog.format('The code of the numbers it decodes to is "%s".', again),
            HINT = 'sqids_decode_lenient reads a code that is not canonical.';
    END IF;
    RETURN numbers;
END
$$;
COMMENT ON FUNCTION idgen_sql_sqids_strict(text, text, bigint[], text) IS 'internal (SQL edition): the strict Sqids decoder''s refusals';

CREATE FUNCTION idgen_sql_sqids_not_one(code text, count integer) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    RAISE EXCEPTION 'invalid input syntax for sqids: "%"', code USING ERRCODE = 'invalid_text_representation',
        DETAIL = pg_catalog.format('The code holds %s numbers; one was expected.', count),
        HINT = 'sqids_decode returns every number of a code.';
END
$$;
COMMENT ON FUNCTION idgen_sql_sqids_not_one(text, integer) IS 'internal (SQL edition): 22P02 for a code of another count than one';

CREATE FUNCTION sqids_encode(numbers bigint[], alphabet text DEFAULT '{{SQIDS_DEFAULT_ALPHABET}}',
                             min_length integer DEFAULT 0, blocklist text[] DEFAULT NULL) RETURNS text
    LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
    RETURN CASE WHEN numbers IS NOT NULL AND alphabet IS NOT NULL AND min_length IS NOT NULL
                THEN idgen_sql_sqids_encode(numbers, idgen_sql_sqids_options(alphabet, min_length, COALESCE(blocklist, sqids_default_blocklist())),
                                            min_length, false, false) END;
COMMENT ON FUNCTION sqids_encode(bigint[], text, integer, text[]) IS
    'Sqids code of the numbers (0 to 2^63-1, in order; an empty array gives the empty code) under the alphabet, minimum length and blocklist (NULL: the spec''s default words, ''{}'': none)';

CREATE FUNCTION sqids_encode(number bigint, alphabet text DEFAULT '{{SQIDS_DEFAULT_ALPHABET}}',
                             min_length integer DEFAULT 0, blocklist text[] DEFAULT NULL) RETURNS text
    LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
    RETURN CASE WHEN number IS NOT NULL AND alphabet IS NOT NULL AND min_length IS NOT NULL
                THEN idgen_sql_sqids_encode(ARRAY[number], idgen_sql_sqids_options(alphabet, min_length, COALESCE(blocklist, sqids_default_blocklist())),
                                            min_length, true, false) END;
COMMENT ON FUNCTION sqids_encode(bigint, text, integer, text[]) IS
    'Sqids code of one number (0 to 2^63-1) under the alphabet, minimum length and blocklist (NULL: the spec''s default words, ''{}'': none)';

CREATE FUNCTION sqids_decode(code text, alphabet text DEFAULT '{{SQIDS_DEFAULT_ALPHABET}}',
                             min_length integer DEFAULT 0, blocklist text[] DEFAULT NULL) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
    RETURN CASE WHEN code IS NOT NULL AND alphabet IS NOT NULL AND min_length IS NOT NULL
                THEN (SELECT idgen_sql_sqids_strict(code, s.o[1], s.d, idgen_sql_sqids_encode(s.d, s.o, min_length, false, true))
                      FROM (SELECT x.o, idgen_sql_sqids_decode(code, x.o[1]) AS d
                            FROM (SELECT idgen_sql_sqids_options(alphabet, min_length, COALESCE(blocklist, sqids_default_blocklist())) AS o) x) s) END;
COMMENT ON FUNCTION sqids_decode(text, text, integer, text[]) IS
    'the numbers of a Sqids code, strictly: refuses (22P02) a code that is not exactly what sqids_encode gives for its numbers under the same options';

CREATE FUNCTION sqids_decode_one(code text, alphabet text DEFAULT '{{SQIDS_DEFAULT_ALPHABET}}',
                                 min_length integer DEFAULT 0, blocklist text[] DEFAULT NULL) RETURNS bigint
    LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
    RETURN (SELECT CASE WHEN pg_catalog.cardinality(s.d) = 1 THEN s.d[1] ELSE idgen_sql_sqids_not_one(code, pg_catalog.cardinality(s.d)) END
            FROM (SELECT sqids_decode(code, alphabet, min_length, blocklist) AS d) s);
COMMENT ON FUNCTION sqids_decode_one(text, text, integer, text[]) IS
    'the one number of a Sqids code, strictly as sqids_decode, refusing (22P02) a code of more numbers';

CREATE FUNCTION sqids_decode_lenient(code text, alphabet text DEFAULT '{{SQIDS_DEFAULT_ALPHABET}}',
                                     min_length integer DEFAULT 0, blocklist text[] DEFAULT NULL) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
    RETURN CASE WHEN code IS NOT NULL AND alphabet IS NOT NULL AND min_length IS NOT NULL
                THEN idgen_sql_sqids_decode(code, (idgen_sql_sqids_options(alphabet, min_length, COALESCE(blocklist, sqids_default_blocklist())))[1]) END;
COMMENT ON FUNCTION sqids_decode_lenient(text, text, integer, text[]) IS
    'the numbers of a Sqids code as the spec decodes it: text with a character outside the alphabet, or empty, gives an empty array, and a code that is not canonical still decodes; a number above 2^63-1 is an error (22003)';
