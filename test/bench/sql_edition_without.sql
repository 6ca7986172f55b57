-- What a guarantee of the SQL edition costs: the edition's own
-- generators, installed in schema sqled, each with one guarantee taken out,
-- in schema without_guarantee, for test/bench/sql_edition_bench.py to measure
-- in the same run as the edition and the peers. Not part of idgen, and never
-- to be used for IDs. The mints are copied from the installed edition
-- (pg_get_functiondef) with a piece replaced, so that they follow its code;
-- a replacement that no longer finds its text stops the install. Beside
-- them, the snowflake mints serialized as 0.7.0's were (a session advisory
-- lock), to measure what the owner-only lock costs against it.
CREATE SCHEMA without_guarantee;

-- def with each of pairs' first elements replaced by the second, once each
-- found; the schema-qualified name of the copy is the caller's.
CREATE FUNCTION without_guarantee.replaced(def text, pairs text[]) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1 .. array_length(pairs, 1) LOOP
        IF strpos(def, pairs[i][1]) = 0 THEN
            RAISE EXCEPTION 'sql_edition_without.sql: the edition no longer holds %', pairs[i][1];
        END IF;
        def := replace(def, pairs[i][1], pairs[i][2]);
    END LOOP;
    RETURN def;
END
$$;

-- 62 bits of random() (pg_prng, not a CSPRNG) under the variant bits 10: the
-- low half of a uuid, for the copies that give up the CSPRNG.
CREATE FUNCTION without_guarantee.random_lo() RETURNS bigint LANGUAGE sql VOLATILE
    RETURN -9223372036854775808 | (((random() * 2147483648)::bigint & 2147483647) << 31)
           | ((random() * 2147483648)::bigint & 2147483647);

DO $do$
DECLARE
    family text;
    def text;
    state text;
    shifted text;
    block text;
    read_only text;
    csprng_lo text := $x$('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()), 9), 'hex'))::bit(64)::bigint$x$;
BEGIN
    -- snowflake and snowflake53, from the block that holds the lock: its
    -- lock_timeout, LOCK TABLE of the family's lock view, nextval, setval when
    -- the clock is ahead, the RAISE that rolls the block back and the
    -- handlers. Its state sequence and the clock's stamp (now_ms shifted) are
    -- read from it, so that the copies use the edition's own.
    FOREACH family IN ARRAY ARRAY['snowflake', 'snowflake53'] LOOP
        def := pg_get_functiondef(format('sqled.idgen_sql_%s_mint(integer)', family)::regprocedure);
        -- (the generated script has no indentation: generate.py leaves it out;
        -- " *?" first, as PostgreSQL takes the first quantifier's greed for the whole)
        state := substring(def FROM '\n *?stamp := pg_catalog\.nextval\((.*?)\);\n');
        shifted := substring(def FROM '\n *?stamp := pg_catalog\.setval\([^\n]*?, (now_ms [^\n]*?)\);\n');
        block := substring(def FROM '\n( *?BEGIN\n *?bound := .*?\n *?END;\n)');
        read_only := substring(def FROM '\n( *?OR pg_catalog\.current_setting\(''transaction_read_only''\) OPERATOR\(pg_catalog\.=\) ''on''\n)');
        IF state IS NULL OR shifted IS NULL OR block IS NULL OR read_only IS NULL THEN
            RAISE EXCEPTION 'sql_edition_without.sql: the edition''s %() mint no longer moves its state with nextval and setval', family;
        END IF;
        -- no lock around nextval and setval, so IDs may repeat across
        -- sessions, and so no subtransaction to release it (and no read-only
        -- check, which only the lock needs; nextval refuses by itself)
        EXECUTE without_guarantee.replaced(def, ARRAY[
            [format('FUNCTION sqled.idgen_sql_%s_mint(', family), format('FUNCTION without_guarantee.%s_mint_unlocked(', family)],
            [block, format(E'    stamp := pg_catalog.nextval(%s);\n'
                        || E'    IF stamp OPERATOR(pg_catalog.<) (%s) THEN\n'
                        || E'        stamp := pg_catalog.setval(%s, %s);\n'
                        || E'    END IF;\n', state, shifted, state, shifted)],
            [read_only, '']]);
        -- serialized as 0.7.0's mint was: a session advisory lock (which any
        -- role may take, advisory locks checking no privilege) and its unlock
        -- around nextval and setval, built-in calls of one expression, with no
        -- subtransaction; the read-only check before it stays, as in 0.7.0
        -- (nextval refusing after the lock would have left it held)
        EXECUTE without_guarantee.replaced(def, ARRAY[
            [format('FUNCTION sqled.idgen_sql_%s_mint(', family), format('FUNCTION without_guarantee.%s_mint_advisory(', family)],
            [block, format(E'    stamp := CASE WHEN pg_catalog.num_nulls(\n'
                        || E'                 pg_catalog.pg_advisory_lock(1768187763, %s::pg_catalog.oid::integer),\n'
                        || E'                 CASE WHEN pg_catalog.nextval(%s) OPERATOR(pg_catalog.>=) (%s)\n'
                        || E'                      THEN 0::bigint\n'
                        || E'                      ELSE pg_catalog.setval(%s, GREATEST(%s, pg_catalog.currval(%s))) END,\n'
                        || E'                 pg_catalog.pg_advisory_unlock(1768187763, %s::pg_catalog.oid::integer)) OPERATOR(pg_catalog.>=) 0\n'
                        || E'        THEN pg_catalog.currval(%s) END;\n',
                           state, state, shifted, state, shifted, state, state, state)]]);
    END LOOP;
    -- prefixed_id and typeid: random() for gen_random_uuid()'s bits; the copies
    -- return text, which the bench stores without the domain's CHECK
    EXECUTE without_guarantee.replaced(pg_get_functiondef('sqled.idgen_sql_prefixed_id_mint(text,bytea)'::regprocedure), ARRAY[
        ['FUNCTION sqled.idgen_sql_prefixed_id_mint(', 'FUNCTION without_guarantee.prefixed_id_mint_random('],
        [csprng_lo, 'without_guarantee.random_lo()']]);
    EXECUTE without_guarantee.replaced(pg_get_functiondef('sqled.idgen_sql_typeid_mint(text,bytea)'::regprocedure), ARRAY[
        ['FUNCTION sqled.idgen_sql_typeid_mint(', 'FUNCTION without_guarantee.typeid_mint_random('],
        [csprng_lo, 'without_guarantee.random_lo()']]);
END
$do$;

-- uuid_v7 without the session's order and without the CSPRNG: the Unix ms of
-- one clock reading, version 7, and random() for rand_a and rand_b.
CREATE FUNCTION without_guarantee.uuid_v7_random() RETURNS uuid LANGUAGE sql VOLATILE
    RETURN encode(int8send((floor(date_part('epoch', clock_timestamp()) * 1000)::bigint << 16) | 28672
                           | (random() * 4095)::bigint)
                  || int8send(without_guarantee.random_lo()), 'hex')::uuid;
