-- ============================================================================
-- CUID2: cuid2(), cuid2_is_valid()
-- ============================================================================
-- paralleldrive/cuid2's algorithm, as the C++ edition's (src/core/cuid2.hpp):
-- a random letter a-z, then base36 of the SHA3-512 digest of
--   time (Unix ms in base36) + salt (length random base36 digits)
--   + counter (base36) + fingerprint (32 base36 characters),
-- characters 3 to length + 1 of the digest's base36 text. SHA3-512 is written
-- here in PL/pgSQL, its constants the C++ edition's (src/core/sha3.cpp):
-- PostgreSQL's own digests are SHA-2 only. The session's counter and
-- fingerprint live in settings (idgen_sql.cuid2_counter,
-- idgen_sql.cuid2_fingerprint), made at its first cuid2(); the setting
-- calls make cuid2() PARALLEL RESTRICTED here. cuid2_define() is the C++
-- edition's only, as the other *_define() functions.

-- The 128 hexadecimal digits of the SHA3-512 digest of data (FIPS 202): the
-- sponge over blocks of {{SHA3_512_RATE}} bytes after SHA-3's padding (0x06 at the
-- end of the data, 0x80 in the block's last byte), 24 rounds of Keccak-f[1600]
-- a block.
CREATE FUNCTION idgen_sql_sha3_512_hex(data bytea) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    {{KECCAK_VARIABLES}}
    rc bigint[] := '{{KECCAK_ROUND_CONSTANTS}}';
    n integer := pg_catalog.octet_length(data);
    padded pg_catalog.bytea;
    last integer;
    at integer := 0;
BEGIN
    padded := data OPERATOR(pg_catalog.||) pg_catalog.decode(pg_catalog.repeat('00', {{SHA3_512_RATE}} OPERATOR(pg_catalog.-) (n OPERATOR(pg_catalog.%) {{SHA3_512_RATE}})), 'hex');
    last := pg_catalog.octet_length(padded) OPERATOR(pg_catalog.-) 1;
    padded := pg_catalog.set_byte(padded, n, 6);
    padded := pg_catalog.set_byte(padded, last, pg_catalog.get_byte(padded, last) OPERATOR(pg_catalog.|) 128);
    WHILE at OPERATOR(pg_catalog.<=) last LOOP
        {{SHA3_512_ABSORB}}
        FOR r IN 1..24 LOOP
            {{KECCAK_ROUND}}
            a0 := a0 OPERATOR(pg_catalog.#) rc[r];
        END LOOP;
        at := at OPERATOR(pg_catalog.+) {{SHA3_512_RATE}};
    END LOOP;
    RETURN {{SHA3_512_DIGEST_HEX}};
END
$$;
COMMENT ON FUNCTION idgen_sql_sha3_512_hex(bytea) IS 'internal (SQL edition): the SHA3-512 digest of data in hexadecimal';

-- The base36 text (lowercase, no leading zeros; "0" for zero) of the number
-- that hexadecimal digits write, as JavaScript's toString(36).
CREATE FUNCTION idgen_sql_base36_of_hex(hex text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    a pg_catalog.text := '0123456789abcdefghijklmnopqrstuvwxyz';
    padded pg_catalog.text := pg_catalog.lpad(hex, ((pg_catalog.length(hex) OPERATOR(pg_catalog.+) 7) OPERATOR(pg_catalog./) 8) OPERATOR(pg_catalog.*) 8, '0');
    v numeric := 0;
    out pg_catalog.text := '';
BEGIN
    FOR i IN 0..(pg_catalog.length(padded) OPERATOR(pg_catalog./) 8) OPERATOR(pg_catalog.-) 1 LOOP
        v := v OPERATOR(pg_catalog.*) 4294967296::numeric
             OPERATOR(pg_catalog.+) ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(padded, (8 OPERATOR(pg_catalog.*) i) OPERATOR(pg_catalog.+) 1, 8))::bit(32)::bigint::numeric;
    END LOOP;
    WHILE v OPERATOR(pg_catalog.>) 0 LOOP
        out := pg_catalog.substr(a, pg_catalog.mod(v, 36)::integer OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) out;
        v := pg_catalog.div(v, 36);
    END LOOP;
    RETURN CASE WHEN out OPERATOR(pg_catalog.=) '' THEN '0' ELSE out END;
END
$$;
COMMENT ON FUNCTION idgen_sql_base36_of_hex(text) IS 'internal (SQL edition): base36 text, without leading zeros, of a hexadecimal number';

-- count random characters, each uniform over a-z (letters) or 0-9a-z, by
-- rejection as the C++ edition's: a byte of gen_random_uuid() (less its
-- version and variant bytes) is used below 234 (letters) or 252, as its
-- remainder.
CREATE FUNCTION idgen_sql_cuid2_draw(count integer, letters boolean) RETURNS text
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE
AS $$
DECLARE
    a pg_catalog.text := CASE WHEN letters THEN 'abcdefghijklmnopqrstuvwxyz' ELSE '0123456789abcdefghijklmnopqrstuvwxyz' END;
    radix integer := CASE WHEN letters THEN 26 ELSE 36 END;
    below integer := CASE WHEN letters THEN 234 ELSE 252 END;  -- the largest multiple of radix up to 256
    r pg_catalog.bytea;
    v integer;
    out pg_catalog.text := '';
    got integer := 0;
BEGIN
    WHILE got OPERATOR(pg_catalog.<) count LOOP
        r := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
        FOR i IN 0..15 LOOP
            CONTINUE WHEN i OPERATOR(pg_catalog.=) 6 OR i OPERATOR(pg_catalog.=) 8;
            v := pg_catalog.get_byte(r, i);
            CONTINUE WHEN v OPERATOR(pg_catalog.>=) below;
            out := out OPERATOR(pg_catalog.||) pg_catalog.substr(a, (v OPERATOR(pg_catalog.%) radix) OPERATOR(pg_catalog.+) 1, 1);
            got := got OPERATOR(pg_catalog.+) 1;
            EXIT WHEN got OPERATOR(pg_catalog.=) count;
        END LOOP;
    END LOOP;
    RETURN out;
END
$$;
COMMENT ON FUNCTION idgen_sql_cuid2_draw(integer, boolean) IS 'internal (SQL edition): random base36 digits or letters, uniform';

-- The session's counter, then the counter + 1 kept: at the session's first
-- call floor(random * {{CUID2_INITIAL_COUNT_MAX}}), random a 32-bit fraction.
CREATE FUNCTION idgen_sql_cuid2_count() RETURNS bigint
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED
AS $$
DECLARE
    kept pg_catalog.text := pg_catalog.current_setting('idgen_sql.cuid2_counter', true);
    current bigint;
BEGIN
    IF kept IS NULL OR kept OPERATOR(pg_catalog.=) '' THEN
        -- the first 8 digits of a version 4 uuid: 32 random bits
        current := (('x' OPERATOR(pg_catalog.||) pg_catalog.substr(pg_catalog.gen_random_uuid()::pg_catalog.text, 1, 8))::bit(32)::bigint
                    OPERATOR(pg_catalog.*) {{CUID2_INITIAL_COUNT_MAX}}) OPERATOR(pg_catalog.>>) 32;
    ELSE
        current := kept::bigint;
    END IF;
    PERFORM pg_catalog.set_config('idgen_sql.cuid2_counter', (current OPERATOR(pg_catalog.+) 1)::pg_catalog.text, false);
    RETURN current;
END
$$;
COMMENT ON FUNCTION idgen_sql_cuid2_count() IS 'internal (SQL edition): the session''s CUID2 counter, incremented';

CREATE FUNCTION idgen_sql_cuid2_length(length integer) RETURNS integer
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF length OPERATOR(pg_catalog.<) {{CUID2_MIN_LENGTH}} OR length OPERATOR(pg_catalog.>) {{CUID2_MAX_LENGTH}} THEN
        RAISE EXCEPTION 'invalid length for cuid2: %', length USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'A CUID2 has {{CUID2_MIN_LENGTH}} to {{CUID2_MAX_LENGTH}} characters.';
    END IF;
    RETURN length;
END
$$;
COMMENT ON FUNCTION idgen_sql_cuid2_length(integer) IS 'internal (SQL edition): a CUID2 length, or 22023';

-- The session's fingerprint: createFingerprint's hash (less its first
-- character, then 32 characters) of the backend's pid, the server's start
-- and the clock, standing for the host, and 32 random base36 digits, made at
-- the session's first call and kept.
CREATE FUNCTION idgen_sql_cuid2_fingerprint() RETURNS text
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED
    RETURN COALESCE(NULLIF(pg_catalog.current_setting('idgen_sql.cuid2_fingerprint', true), ''),
                    pg_catalog.set_config('idgen_sql.cuid2_fingerprint',
                        pg_catalog.substr(idgen_sql_base36_of_hex(idgen_sql_sha3_512_hex(pg_catalog.convert_to(
                            pg_catalog.concat_ws(',', pg_catalog.pg_backend_pid(), pg_catalog.pg_postmaster_start_time(), pg_catalog.clock_timestamp())
                            || idgen_sql_cuid2_draw({{CUID2_FINGERPRINT_ENTROPY}}, false), 'UTF8'))), 2, {{CUID2_FINGERPRINT_LENGTH}}),
                        false));
COMMENT ON FUNCTION idgen_sql_cuid2_fingerprint() IS 'internal (SQL edition): the session''s CUID2 fingerprint';

CREATE FUNCTION cuid2(length integer DEFAULT {{CUID2_DEFAULT_LENGTH}}) RETURNS text
    LANGUAGE sql VOLATILE STRICT PARALLEL RESTRICTED
    RETURN (SELECT idgen_sql_cuid2_draw(1, true)
                   || pg_catalog.substr(idgen_sql_base36_of_hex(idgen_sql_sha3_512_hex(pg_catalog.convert_to(
                          idgen_sql_base36_of_hex(pg_catalog.to_hex(GREATEST({{UNIX_MS_NOW}}, 0))) || idgen_sql_cuid2_draw(s.len, false)
                          || idgen_sql_base36_of_hex(pg_catalog.to_hex(idgen_sql_cuid2_count())) || idgen_sql_cuid2_fingerprint(), 'UTF8'))),
                       3, s.len - 1)
            FROM (SELECT idgen_sql_cuid2_length(length) AS len) s);
COMMENT ON FUNCTION cuid2(integer) IS
    'new CUID2 (paralleldrive/cuid2): length (2 to 32, default 24) characters, a random letter a-z then base36 of SHA3-512 over the time, a random salt, a per-backend counter and a per-backend fingerprint';

CREATE FUNCTION cuid2_is_valid(id text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN id ~ '^[a-z][0-9a-z]{1,{{CUID2_MAX_LENGTH_LESS_ONE}}}$';
COMMENT ON FUNCTION cuid2_is_valid(text) IS
    'whether id passes the reference''s isCuid: 2 to 32 characters, a lowercase letter then lowercase letters and digits (a format check only)';

CREATE FUNCTION cuid2_is_valid(id text, length integer) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN idgen_sql_cuid2_length(length) IS NOT NULL
                THEN pg_catalog.octet_length(id) = length AND id ~ '^[a-z][0-9a-z]*$' END;
COMMENT ON FUNCTION cuid2_is_valid(text, integer) IS
    'whether id passes isCuid with exactly length characters; a length that cuid2() refuses is refused here too';
