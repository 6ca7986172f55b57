-- ============================================================================
-- Firebase push IDs: push_id(), push_id_time(), push_id_is_valid()
-- ============================================================================
-- 20 characters of {{PUSH_ID_ALPHABET}} (ASCII order), each 6 bits:
-- 8 of the Unix millisecond, 12 random, as the C++ edition's
-- (src/core/push_id.hpp). The text is one 120-bit number in base 64, so the
-- session's next ID in the same millisecond (or after the clock went back) is
-- the last + 1 in that notation, carrying from the random part into the time.

-- The millisecond of 20 characters of the alphabet (checked).
CREATE FUNCTION idgen_sql_push_id_ms(id text) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    ms bigint := 0;
BEGIN
    FOR i IN 1..{{PUSH_ID_TIME_CHARS}} LOOP
        ms := (ms OPERATOR(pg_catalog.<<) 6) OPERATOR(pg_catalog.|)
              (pg_catalog.strpos('{{PUSH_ID_ALPHABET}}', pg_catalog.substr(id, i, 1)) OPERATOR(pg_catalog.-) 1);
    END LOOP;
    RETURN ms;
END
$$;
COMMENT ON FUNCTION idgen_sql_push_id_ms(text) IS 'internal (SQL edition): the millisecond of a checked push ID';

-- The session's last push ID is in the setting idgen_sql.push_id_last. In a
-- millisecond past it the next takes fresh random characters; otherwise the
-- last + 1 (successor).
CREATE FUNCTION idgen_sql_push_id_next(last text, last_ms bigint, now_ms bigint, successor text) RETURNS text
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    a pg_catalog.text := '{{PUSH_ID_ALPHABET}}';
    id pg_catalog.text := '';
    r pg_catalog.bytea;
BEGIN
    IF now_ms OPERATOR(pg_catalog.<) 0 OR now_ms OPERATOR(pg_catalog.>) {{PUSH_ID_MAX_MS}} THEN
        RAISE EXCEPTION 'system clock is outside the range of push ID' USING ERRCODE = 'datetime_field_overflow';
    END IF;
    IF last IS NULL OR last OPERATOR(pg_catalog.=) '' OR now_ms OPERATOR(pg_catalog.>) last_ms THEN
        FOR i IN REVERSE {{PUSH_ID_TIME_CHARS_LESS_ONE}}..0 LOOP
            id := id OPERATOR(pg_catalog.||) pg_catalog.substr(a, (((now_ms OPERATOR(pg_catalog.>>) (6 OPERATOR(pg_catalog.*) i)) OPERATOR(pg_catalog.&) 63)::integer) OPERATOR(pg_catalog.+) 1, 1);
        END LOOP;
        -- the low 6 bits of 12 bytes of gen_random_uuid(), all random (byte 6
        -- holds the version; byte 8's top 2 bits, the variant, are masked off)
        r := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
        FOR i IN 0..12 LOOP
            CONTINUE WHEN i OPERATOR(pg_catalog.=) 6;
            id := id OPERATOR(pg_catalog.||) pg_catalog.substr(a, (pg_catalog.get_byte(r, i) OPERATOR(pg_catalog.&) 63) OPERATOR(pg_catalog.+) 1, 1);
        END LOOP;
        RETURN id;
    END IF;
    IF successor IS NULL THEN
        RAISE EXCEPTION 'push ID values are exhausted' USING ERRCODE = 'datetime_field_overflow',
            DETAIL = 'This session''s last push ID is the largest, {{PUSH_ID_LARGEST}}.';
    END IF;
    RETURN successor;
END
$$;
COMMENT ON FUNCTION idgen_sql_push_id_next(text, bigint, bigint, text) IS
    'internal (SQL edition): the push ID after last (of millisecond last_ms) at now_ms, given last + 1';

CREATE FUNCTION push_id() RETURNS text
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED
    RETURN (SELECT pg_catalog.set_config('idgen_sql.push_id_last',
                       idgen_sql_push_id_next(s.last, idgen_sql_push_id_ms(s.last), s.now_ms, idgen_sql_increment(s.last, '{{PUSH_ID_ALPHABET}}')),
                       false)
            FROM (SELECT {{UNIX_MS_NOW}} AS now_ms, pg_catalog.current_setting('idgen_sql.push_id_last', true) AS last) s);
COMMENT ON FUNCTION push_id() IS
    'new Firebase push ID: 20 characters of -0-9A-Z_a-z (ASCII order), 8 of Unix milliseconds in base 64 and 12 random; within the session strictly increasing in C-collation order (the same millisecond or a clock set back: the previous + 1, carrying into the time)';

-- Text that is no push ID: 22P02 with the C++ edition's message, in its
-- order: a character outside the alphabet (a control character as its code),
-- then a length other than 20.
CREATE FUNCTION idgen_sql_push_id_bad_text(input text) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    bad pg_catalog.text := substring(input FROM '[^{{PUSH_ID_CLASS}}]');
BEGIN
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'invalid input syntax for push ID: "%"', input USING ERRCODE = 'invalid_text_representation',
            DETAIL = pg_catalog.format('%s at position %s is not one of a push ID''s characters.',
                CASE WHEN pg_catalog.ascii(bad) OPERATOR(pg_catalog.<) 32 OR pg_catalog.ascii(bad) OPERATOR(pg_catalog.=) 127
                     THEN 'Control character 0x' OPERATOR(pg_catalog.||) pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.ascii(bad)), 2, '0'))
                     ELSE pg_catalog.format('Character "%s"', bad) END,
                pg_catalog.strpos(input, bad)),
            HINT = 'A push ID is 20 characters of -, 0-9, A-Z, _ and a-z.';
    END IF;
    RAISE EXCEPTION 'invalid input syntax for push ID: "%"', input USING ERRCODE = 'invalid_text_representation',
        DETAIL = pg_catalog.format('A push ID is {{PUSH_ID_LENGTH}} characters long; this value has %s.', pg_catalog.octet_length(input));
END
$$;
COMMENT ON FUNCTION idgen_sql_push_id_bad_text(text) IS 'internal (SQL edition): raises 22P02 for text that is no push ID';

CREATE FUNCTION push_id_is_valid(id text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN id ~ '{{PUSH_ID_REGEX}}';
COMMENT ON FUNCTION push_id_is_valid(text) IS
    'whether id is exactly 20 characters of -0-9A-Z_a-z, a push ID (every such text decodes to a time)';

CREATE FUNCTION push_id_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_time_of_ms(CASE WHEN push_id_is_valid(id) THEN idgen_sql_push_id_ms(id)
                                     ELSE idgen_sql_push_id_bad_text(id) END);
COMMENT ON FUNCTION push_id_time(text) IS
    'millisecond in the first 8 characters of a push ID; 22P02 unless id is exactly 20 characters of -0-9A-Z_a-z';
