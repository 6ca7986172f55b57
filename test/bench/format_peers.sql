-- What a user pastes instead of idgen's KSUID, ObjectId, XID and UUIDv6
-- generators and its Sqids encoder: each written here in PL/pgSQL from its format's spec
-- (../shared/guide/specs.md), in schema format_peers, for part 7 of
-- test/bench/bench.sh to measure against idgen in the same run. Core
-- functions only (gen_random_uuid() for the random bytes, a sequence for the
-- counters); each returns what such a snippet stores: text for the three text
-- formats, uuid for v6. Not part of idgen.
CREATE SCHEMA format_peers;
CREATE SEQUENCE format_peers.counter;

-- KSUID (segmentio/ksuid): 4 bytes of seconds since 1,400,000,000 and a
-- 16-byte payload (a v4 uuid's bytes here), as 27 base62 digits.
CREATE FUNCTION format_peers.ksuid() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    alphabet text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    value numeric := floor(extract(epoch FROM clock_timestamp())) - 1400000000;
    payload bytea := uuid_send(gen_random_uuid());
    digits text := '';
BEGIN
    FOR i IN 0..15 LOOP
        value := value * 256 + get_byte(payload, i);
    END LOOP;
    WHILE value > 0 LOOP
        digits := substr(alphabet, (value % 62)::int + 1, 1) || digits;
        value := div(value, 62);
    END LOOP;
    RETURN lpad(digits, 27, '0');
END
$$;

-- ObjectId (BSON spec): 4 bytes of Unix seconds, 5 random bytes, a 3-byte
-- counter, as 24 lowercase hex digits.
CREATE FUNCTION format_peers.objectid() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    RETURN lpad(to_hex(floor(extract(epoch FROM clock_timestamp()))::bigint), 8, '0')
        || substr(replace(gen_random_uuid()::text, '-', ''), 1, 10)
        || lpad(to_hex(nextval('format_peers.counter') % 16777216), 6, '0');
END
$$;

-- XID (rs/xid): 4 bytes of seconds, a 3-byte machine id, a 2-byte process id
-- (the backend's), a 3-byte counter, as 20 base32hex digits: 96 bits, 5 at a
-- time, the last digit's 4 low bits zero.
CREATE FUNCTION format_peers.xid() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    alphabet text := '0123456789abcdefghijklmnopqrstuv';
    raw bytea := int4send(floor(extract(epoch FROM clock_timestamp()))::bigint::bit(32)::int)
        || substring(uuid_send(gen_random_uuid()) FROM 1 FOR 3)
        || substring(int4send(pg_backend_pid()) FROM 3 FOR 2)
        || substring(int4send((nextval('format_peers.counter') % 16777216)::int) FROM 2 FOR 3);
    bits bit(100) := ('x' || encode(raw, 'hex'))::bit(96) || B'0000';
    digits text := '';
BEGIN
    FOR i IN 0..19 LOOP
        digits := digits || substr(alphabet, substring(bits FROM i * 5 + 1 FOR 5)::int + 1, 1);
    END LOOP;
    RETURN digits;
END
$$;

-- UUIDv6 (RFC 9562 section 5.6): the 60-bit count of 100 ns since
-- 1582-10-15, its high 48 bits, version 6 and its low 12 bits, then a v4
-- uuid's random clock sequence and node with the variant kept and the node's
-- multicast bit set.
CREATE FUNCTION format_peers.uuid_v6() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    ticks bigint := floor(extract(epoch FROM clock_timestamp()) * 10000000) + 122192928000000000;
    tail bytea := substring(uuid_send(gen_random_uuid()) FROM 9 FOR 8);
BEGIN
    tail := set_byte(tail, 2, get_byte(tail, 2) | 1);
    RETURN encode(substring(int8send(ticks >> 12) FROM 3 FOR 6)
                  || substring(int2send(((ticks & 4095) | 24576)::smallint) FROM 1 FOR 2)
                  || tail, 'hex')::uuid;
END
$$;

-- Sqids (sqids-spec), one number: the alphabet shuffled (each position i,
-- counting j down from the end, swaps with (i*j + code(i) + code(j)) mod n),
-- the blocklist filtered against it, then per increment: the offset from the
-- number's character, the alphabet rotated by it and reversed, the prefix, the
-- number in base n - 1 over all but the first character, padding to
-- min_length, and the spec's blocked-word rules. IMMUTABLE, as idgen's is;
-- the blocklist comes in as an argument (bench.sh passes the default list).
CREATE FUNCTION format_peers.sqids_shuffle(alphabet text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    c text[] := string_to_array(alphabet, NULL);
    n int := array_length(c, 1);
    i int := 0;
    j int := n - 1;
    r int;
    t text;
BEGIN
    WHILE j > 0 LOOP
        r := (i * j + ascii(c[i + 1]) + ascii(c[j + 1])) % n;
        t := c[i + 1];
        c[i + 1] := c[r + 1];
        c[r + 1] := t;
        i := i + 1;
        j := j - 1;
    END LOOP;
    RETURN array_to_string(c, '');
END
$$;

CREATE FUNCTION format_peers.sqids_encode(number bigint, blocklist text[],
        alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
        min_length int DEFAULT 0)
    RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    shuffled text := format_peers.sqids_shuffle(alphabet);
    n int := length(alphabet);
    words text[];
    w text;
    attempt int := 0;
    offs int;
    a text;
    id text;
    low text;
    v bigint;
    blocked boolean;
BEGIN
    IF number < 0 THEN
        RAISE EXCEPTION 'negative number' USING ERRCODE = 'numeric_value_out_of_range';
    END IF;
    SELECT coalesce(array_agg(lower(x)), '{}') INTO words FROM unnest(blocklist) x
    WHERE length(x) >= 3 AND translate(lower(x), lower(alphabet), '') = '';
    LOOP
        IF attempt > n THEN
            RAISE EXCEPTION 'every attempt holds a blocked word';
        END IF;
        offs := ((ascii(substr(shuffled, (number % n)::int + 1, 1)) + 1) % n + attempt) % n;
        a := substr(shuffled, offs + 1) || substr(shuffled, 1, offs);
        id := substr(a, 1, 1);
        a := reverse(a);
        v := number;
        low := '';
        LOOP
            low := substr(a, 2 + (v % (n - 1))::int, 1) || low;
            v := v / (n - 1);
            EXIT WHEN v = 0;
        END LOOP;
        id := id || low;
        IF min_length > length(id) THEN
            id := id || substr(a, 1, 1);
            WHILE min_length > length(id) LOOP
                a := format_peers.sqids_shuffle(a);
                id := id || substr(a, 1, least(min_length - length(id), n));
            END LOOP;
        END IF;
        low := lower(id);
        blocked := false;
        FOREACH w IN ARRAY words LOOP
            CONTINUE WHEN length(w) > length(low);
            IF length(low) <= 3 OR length(w) <= 3 THEN
                blocked := low = w;
            ELSIF w ~ '[0-9]' THEN
                blocked := starts_with(low, w) OR right(low, length(w)) = w;
            ELSE
                blocked := strpos(low, w) > 0;
            END IF;
            EXIT WHEN blocked;
        END LOOP;
        EXIT WHEN NOT blocked;
        attempt := attempt + 1;
    END LOOP;
    RETURN id;
END
$$;
