-- The functions users paste in instead of the SQL edition, written here from
-- their published formulas, each in a scratch schema of its own, to measure
-- the SQL edition against in the same run (test/bench/sql_edition_bench.sh)
-- and to show Instagram's repeat (test/tap/sql_edition.pl). Not part of idgen.
-- Needs pgcrypto (gen_random_bytes) in schema public for the ULID peer.

-- Instagram, "Sharding & IDs at Instagram" (2011): 41 bits of ms since a
-- custom epoch << 23 | 13-bit shard << 10 | nextval(seq) % 1024, in PL/pgSQL
-- (the post's SELECT ... INTO written as assignments, which PL/pgSQL runs as
-- simple expressions: the faster form, so the stricter peer).
-- now_millis is the formula's clock input: by default the clock, as in the
-- post; a fixed value lets a test mint many IDs "in one millisecond".
CREATE SCHEMA insta5;
CREATE SEQUENCE insta5.table_id_seq;
CREATE FUNCTION insta5.next_id(now_millis bigint DEFAULT NULL, OUT result bigint) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    our_epoch bigint := 1314220021721;
    seq_id bigint;
    shard_id int := 5;
BEGIN
    seq_id := nextval('insta5.table_id_seq') % 1024;
    now_millis := coalesce(now_millis, floor(extract(epoch FROM clock_timestamp()) * 1000));
    result := (now_millis - our_epoch) << 23;
    result := result | (shard_id << 10);
    result := result | (seq_id);
END
$$;

-- UUIDv7 in PL/pgSQL (RFC 9562 section 5.7): 48-bit Unix ms over the bytes of
-- a version 4 uuid, version nibble set to 7 (variant already 10).
CREATE SCHEMA peer_uuidv7_plpgsql;
CREATE FUNCTION peer_uuidv7_plpgsql.uuidv7() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
    b bytea := uuid_send(gen_random_uuid());
BEGIN
    b := overlay(b PLACING substring(int8send(ms) FROM 3) FROM 1 FOR 6);
    b := set_byte(b, 6, (get_byte(b, 6) & 15) | 112);
    RETURN encode(b, 'hex')::uuid;
END
$$;

-- UUIDv7 as one inlinable LANGUAGE sql expression: the version bits of a v4
-- uuid (0100) become 0111 by setting two bits, the ms go over bytes 0-5.
CREATE SCHEMA peer_uuidv7_sql;
CREATE FUNCTION peer_uuidv7_sql.uuidv7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
    SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                  PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
                  52, 1), 53, 1), 'hex')::uuid
$$;

-- ULID in PL/pgSQL (the ULID spec; the widely pasted pgulid form): 6 bytes of
-- Unix ms and 10 bytes of gen_random_bytes(), then 26 Crockford base32
-- characters, 5 bits at a time, as text.
CREATE SCHEMA peer_ulid_plpgsql;
CREATE FUNCTION peer_ulid_plpgsql.generate_ulid() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    encoding bytea := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    ts bytea := '\x000000000000';
    output text := '';
    unix_time bigint;
    u bytea;
BEGIN
    unix_time := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
    ts := set_byte(ts, 0, ((unix_time >> 40) & 255)::integer);
    ts := set_byte(ts, 1, ((unix_time >> 32) & 255)::integer);
    ts := set_byte(ts, 2, ((unix_time >> 24) & 255)::integer);
    ts := set_byte(ts, 3, ((unix_time >> 16) & 255)::integer);
    ts := set_byte(ts, 4, ((unix_time >> 8) & 255)::integer);
    ts := set_byte(ts, 5, (unix_time & 255)::integer);
    u := ts || public.gen_random_bytes(10);
    -- timestamp: 10 characters
    output := output || chr(get_byte(encoding, (get_byte(u, 0) & 224) >> 5));
    output := output || chr(get_byte(encoding, (get_byte(u, 0) & 31)));
    output := output || chr(get_byte(encoding, (get_byte(u, 1) & 248) >> 3));
    output := output || chr(get_byte(encoding, ((get_byte(u, 1) & 7) << 2) | ((get_byte(u, 2) & 192) >> 6)));
    output := output || chr(get_byte(encoding, (get_byte(u, 2) & 62) >> 1));
    output := output || chr(get_byte(encoding, ((get_byte(u, 2) & 1) << 4) | ((get_byte(u, 3) & 240) >> 4)));
    output := output || chr(get_byte(encoding, ((get_byte(u, 3) & 15) << 1) | ((get_byte(u, 4) & 128) >> 7)));
    output := output || chr(get_byte(encoding, (get_byte(u, 4) & 124) >> 2));
    output := output || chr(get_byte(encoding, ((get_byte(u, 4) & 3) << 3) | ((get_byte(u, 5) & 224) >> 5)));
    output := output || chr(get_byte(encoding, (get_byte(u, 5) & 31)));
    -- entropy: 16 characters
    output := output || chr(get_byte(encoding, (get_byte(u, 6) & 248) >> 3));
    output := output || chr(get_byte(encoding, ((get_byte(u, 6) & 7) << 2) | ((get_byte(u, 7) & 192) >> 6)));
    output := output || chr(get_byte(encoding, (get_byte(u, 7) & 62) >> 1));
    output := output || chr(get_byte(encoding, ((get_byte(u, 7) & 1) << 4) | ((get_byte(u, 8) & 240) >> 4)));
    output := output || chr(get_byte(encoding, ((get_byte(u, 8) & 15) << 1) | ((get_byte(u, 9) & 128) >> 7)));
    output := output || chr(get_byte(encoding, (get_byte(u, 9) & 124) >> 2));
    output := output || chr(get_byte(encoding, ((get_byte(u, 9) & 3) << 3) | ((get_byte(u, 10) & 224) >> 5)));
    output := output || chr(get_byte(encoding, (get_byte(u, 10) & 31)));
    output := output || chr(get_byte(encoding, (get_byte(u, 11) & 248) >> 3));
    output := output || chr(get_byte(encoding, ((get_byte(u, 11) & 7) << 2) | ((get_byte(u, 12) & 192) >> 6)));
    output := output || chr(get_byte(encoding, (get_byte(u, 12) & 62) >> 1));
    output := output || chr(get_byte(encoding, ((get_byte(u, 12) & 1) << 4) | ((get_byte(u, 13) & 240) >> 4)));
    output := output || chr(get_byte(encoding, ((get_byte(u, 13) & 15) << 1) | ((get_byte(u, 14) & 128) >> 7)));
    output := output || chr(get_byte(encoding, (get_byte(u, 14) & 124) >> 2));
    output := output || chr(get_byte(encoding, ((get_byte(u, 14) & 3) << 3) | ((get_byte(u, 15) & 224) >> 5)));
    output := output || chr(get_byte(encoding, (get_byte(u, 15) & 31)));
    RETURN output;
END
$$;

-- TypeID in PL/pgSQL (the TypeID spec, v0.3.0): the prefix, "_", then the 128
-- bits of a UUIDv7 (made as in peer_uuidv7_plpgsql) as 26 lowercase Crockford
-- base32 characters, 2 zero bits in front, so the first is 0-7. The prefix is
-- checked as the spec asks (at most 63 of a-z and _, starting and ending with
-- a letter, or empty for no "_"), with a length test and a pattern without a
-- counted repetition: the faster form, so the stricter peer. Character i holds
-- bits 5i-2 to 5i+2 of the UUID; with a zero byte before and after it, the two
-- bytes at (5i+6)/8 hold them all.
CREATE SCHEMA peer_typeid_plpgsql;
CREATE FUNCTION peer_typeid_plpgsql.typeid_generate(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    alphabet text := '0123456789abcdefghjkmnpqrstvwxyz';
    ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
    b bytea := uuid_send(gen_random_uuid());
    suffix text := '';
    pos int;
BEGIN
    IF length(prefix) > 63 OR prefix !~ '^([a-z]([a-z_]*[a-z])?)?$' THEN
        RAISE EXCEPTION 'invalid TypeID prefix: "%"', prefix;
    END IF;
    b := overlay(b PLACING substring(int8send(ms) FROM 3) FROM 1 FOR 6);
    b := set_byte(b, 6, (get_byte(b, 6) & 15) | 112);
    b := '\x00'::bytea || b || '\x00'::bytea;
    FOR i IN 0..25 LOOP
        pos := 5 * i + 6;
        suffix := suffix || substr(alphabet, ((((get_byte(b, pos / 8) << 8) | get_byte(b, pos / 8 + 1)) >> (11 - pos % 8)) & 31) + 1, 1);
    END LOOP;
    IF prefix = '' THEN
        RETURN suffix;
    END IF;
    RETURN prefix || '_' || suffix;
END
$$;
