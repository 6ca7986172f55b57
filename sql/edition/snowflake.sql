-- ============================================================================
-- snowflake and snowflake53: 64-bit and 53-bit IDs
-- ============================================================================
-- Layouts (the C++ edition's src/core/snowflake.hpp):
--   snowflake   0 | {{SF_TIME_BITS}}-bit ms since {{SF_EPOCH}} | {{SF_SHARD_BITS}}-bit shard 0..{{SF_MAX_SHARD}} | {{SF_SEQ_BITS}}-bit sequence 0..{{SF_MAX_SEQ}}
--   snowflake53     {{SF_TIME_BITS}}-bit ms since {{SF_EPOCH}} | {{S53_SHARD_BITS}}-bit shard 0..{{S53_MAX_SHARD}}   |  {{S53_SEQ_BITS}}-bit sequence 0..{{S53_MAX_SEQ}}
-- The epoch is the C++ edition's default idgen.snowflake_epoch, fixed here.
--
-- No shared memory: each family's state is one sequence per database,
-- idgen_sql_snowflake_state and idgen_sql_snowflake53_state, whose value is the
-- last stamp issued, ms << sequence bits | sequence, for every shard at once.
-- A call moves it to max(last + 1, now) (nextval, then setval when the clock
-- is ahead) under a lock on the family's lock view, idgen_sql_snowflake_lock
-- or idgen_sql_snowflake53_lock: stamps are unique and increasing across all
-- sessions of the database, so IDs never repeat on a shard whatever the rate.
-- The cost: calls of a family are serialized for the few microseconds of that
-- section (not for the transaction), setval writes WAL, and all the shards of
-- a database share the {{SF_MAX_SEQ}} + 1 (snowflake53: {{S53_MAX_SEQ}} + 1) stamps of a millisecond,
-- borrowing the next millisecond when they run out, as the C++ edition does.
--
-- The lock: SHARE UPDATE EXCLUSIVE (self-conflicting) on a view with no rows,
-- taken by LOCK TABLE, which checks privileges first: only the owner (and
-- superusers) have any. 0.7.0's advisory lock could be taken by any role.
-- The locks others take there while parsing (ACCESS SHARE, ROW SHARE, ROW
-- EXCLUSIVE) do not conflict with it; ANALYZE and VACUUM (a database owner's,
-- MAINTAIN's) skip a view, holding its lock only while they look (the lock
-- table before, ANALYZE held to the end of its transaction). The queue cannot
-- be avoided: CREATE RULE and CREATE TRIGGER, by any role, wait for a strong
-- lock before checking privileges, and later requests queue behind them (here
-- LOCK TABLE, and nextval's lock on the sequence). So the mint sets
-- lock_timeout to 1s where the caller's is 0 or longer, and on 55P03 raises
-- its own 55P03 naming the sessions in the way. All this is in a block with an
-- EXCEPTION clause (a subtransaction) that the mint ends by raising IDGEN and
-- catching it: the rollback releases the lock and restores lock_timeout, and
-- keeps nextval's and setval's work and the variables. A cancel, a timeout or
-- an error inside rolls it back too: nothing stays held. No subtransaction
-- starts in parallel mode, so there a mint fails before the lock. nextval's
-- refusal in a read-only transaction or on a standby comes first.

CREATE SEQUENCE idgen_sql_snowflake_state AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen_sql_snowflake_state IS
    'SQL edition: last snowflake stamp issued in this database (ms since {{SF_EPOCH}} << {{SF_SEQ_BITS}} | sequence)';
CREATE SEQUENCE idgen_sql_snowflake53_state AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen_sql_snowflake53_state IS
    'SQL edition: last snowflake53 stamp issued in this database (ms since {{SF_EPOCH}} << {{S53_SEQ_BITS}} | sequence)';
CREATE VIEW idgen_sql_snowflake_lock AS SELECT WHERE false;
COMMENT ON VIEW idgen_sql_snowflake_lock IS
    'SQL edition: locked by snowflake() while it moves idgen_sql_snowflake_state; no rows, no privileges for other roles';
CREATE VIEW idgen_sql_snowflake53_lock AS SELECT WHERE false;
COMMENT ON VIEW idgen_sql_snowflake53_lock IS
    'SQL edition: locked by snowflake53() while it moves idgen_sql_snowflake53_state; no rows, no privileges for other roles';
REVOKE ALL ON SEQUENCE idgen_sql_snowflake_state, idgen_sql_snowflake53_state FROM PUBLIC;
REVOKE ALL ON TABLE idgen_sql_snowflake_lock, idgen_sql_snowflake53_lock FROM PUBLIC;

-- Mints on a shard of one family: idgen_sql_snowflake_mint(shard) and
-- idgen_sql_snowflake53_mint(shard), one copy per family (generate.py).
-- Only the edition's owner may move the state sequences (a role that could
-- setval them could make IDs repeat), so a mint is SECURITY DEFINER and names
-- its state sequence and lock view, schema and all, in literals that
-- idgen_sql_snowflake_bind() writes, with their OIDs: the first test compares
-- the OIDs with what the names resolve to, constants that PostgreSQL folds
-- when it plans (no cost a call). When they differ, the names resolve to
-- other objects: after a restore (a dump keeps names and owners, not OIDs)
-- the mint goes on if the owner owns both (a catalog query a call, until the
-- owner binds again); after ALTER SCHEMA ... RENAME the old names resolve to
-- nothing (3F000 or 42P01) or to another role's objects (42501),
-- and the mint refuses until the owner binds it to the new name. Unbound,
-- the literals name a schema pg_*, which no role may create.
-- snowflake() and snowflake53() are SQL functions inlined into the caller's
-- query (issue 33: a SECURITY DEFINER SQL function around the mint cost 1 us
-- a call). A mint runs as the owner with the caller's search_path, so all it
-- names is pg_catalog's (a SET search_path cost 0.6 us a call). The clock is
-- read once, as generate.py's unix_us reads it, floored to the millisecond.
{{#SNOWFLAKE_FAMILIES}}
CREATE FUNCTION idgen_sql_{{FAMILY}}_mint(shard integer) {{SNOWFLAKE_MINT_ATTRIBUTES}}
AS $$
DECLARE
    now_ms bigint := {{SF_NOW_MS}};
    stamp bigint;
    bound pg_catalog.text;
BEGIN
    IF shard IS NULL OR shard OPERATOR(pg_catalog.<) 0 OR shard OPERATOR(pg_catalog.>) {{FAMILY_MAX_SHARD}}
       OR now_ms OPERATOR(pg_catalog.<) {{FAMILY_MIN_MS}}
       OR pg_catalog.current_setting('transaction_read_only') OPERATOR(pg_catalog.=) 'on'
       OR NOT ({{FAMILY_BOUND}}) THEN
        IF shard IS NULL THEN
            RAISE EXCEPTION '{{FAMILY}} shard must not be null' USING ERRCODE = 'null_value_not_allowed';
        ELSIF shard OPERATOR(pg_catalog.<) 0 OR shard OPERATOR(pg_catalog.>) {{FAMILY_MAX_SHARD}} THEN
            RAISE EXCEPTION '{{FAMILY}} shard % is out of range', shard
                USING ERRCODE = 'numeric_value_out_of_range',
                      DETAIL = 'A shard of {{FAMILY}}() is between 0 and {{FAMILY_MAX_SHARD}}.';
        ELSIF now_ms OPERATOR(pg_catalog.<) 0 THEN
            RAISE EXCEPTION 'system clock is before idgen.snowflake_epoch (%)', '{{SF_EPOCH}} 00:00:00+00'::pg_catalog.timestamptz
                USING ERRCODE = 'datetime_field_overflow';
        ELSIF now_ms OPERATOR(pg_catalog.<) {{FAMILY_MIN_MS}} THEN
            -- snowflake() leaves the first 2^30 ms after the epoch unused, so that
            -- its IDs are at least 2^53 and never look like snowflake53() IDs.
            RAISE EXCEPTION '{{FAMILY}}() mints from % on',
                            '{{SF_EPOCH}} 00:00:00+00'::pg_catalog.timestamptz OPERATOR(pg_catalog.+) ({{FAMILY_MIN_MS}} OPERATOR(pg_catalog.*) '1 ms'::pg_catalog.interval)
                USING ERRCODE = 'datetime_field_overflow',
                      DETAIL = pg_catalog.format('The first 2^30 ms (about 12.4 days) after idgen.snowflake_epoch (%s) are left unused, so that every %s() ID is at least 2^53 and never looks like a snowflake53() ID.',
                                      '{{SF_EPOCH}} 00:00:00+00'::pg_catalog.timestamptz, '{{FAMILY}}'),
                      HINT = 'Wait until then; the SQL edition''s epoch is fixed.';
        ELSIF pg_catalog.current_setting('transaction_read_only') OPERATOR(pg_catalog.=) 'on' THEN
            RAISE EXCEPTION 'cannot execute nextval() in a read-only transaction'
                USING ERRCODE = 'read_only_sql_transaction';
        ELSIF (SELECT pg_catalog.count(*) FROM pg_catalog.pg_class c
                WHERE c.oid OPERATOR(pg_catalog.=) ANY (ARRAY[{{FAMILY_STATE}}, {{FAMILY_LOCK_NAME}}]::pg_catalog.oid[])
                  AND c.relowner OPERATOR(pg_catalog.=) pg_catalog.to_regrole(CURRENT_USER::pg_catalog.text)::pg_catalog.oid)
              OPERATOR(pg_catalog.<>) 2 THEN
            RAISE EXCEPTION '% or % is not the SQL edition''s', {{FAMILY_STATE}}, {{FAMILY_LOCK_NAME}}
                USING ERRCODE = 'insufficient_privilege',
                      DETAIL = pg_catalog.format('{{FAMILY}}() uses only a state sequence and a lock table owned by %s, the owner of the edition.', CURRENT_USER),
                      HINT = 'After ALTER SCHEMA ... RENAME, the edition''s owner runs idgen_sql_snowflake_bind() under the new name.';
        END IF;
    END IF;
    BEGIN
        bound := pg_catalog.current_setting('lock_timeout');
        IF bound OPERATOR(pg_catalog.=) '0' OR bound::pg_catalog.interval OPERATOR(pg_catalog.>) '1s' THEN
            bound := pg_catalog.set_config('lock_timeout', '1s', true);
        END IF;
        LOCK TABLE {{FAMILY_LOCK}} IN SHARE UPDATE EXCLUSIVE MODE;
        stamp := pg_catalog.nextval({{FAMILY_STATE}});
        IF stamp OPERATOR(pg_catalog.<) (now_ms OPERATOR(pg_catalog.<<) {{FAMILY_SEQ_BITS}}) THEN
            stamp := pg_catalog.setval({{FAMILY_STATE}}, now_ms OPERATOR(pg_catalog.<<) {{FAMILY_SEQ_BITS}});
        END IF;
        RAISE SQLSTATE 'IDGEN';
    EXCEPTION WHEN SQLSTATE 'IDGEN' THEN
        NULL;
    WHEN lock_not_available THEN
        RAISE EXCEPTION '{{FAMILY}}() could not take its lock within %', bound
            USING ERRCODE = 'lock_not_available',
                  DETAIL = pg_catalog.concat('In the way on ', {{FAMILY_LOCK_NAME}}, ' or ', {{FAMILY_STATE}}, ': ', COALESCE((
                      SELECT pg_catalog.string_agg(pg_catalog.format('session %s (role %s, application %L) %s %s%s', l.pid, a.usename, a.application_name,
                                 CASE WHEN l.granted THEN 'holds' ELSE 'waits for' END, l.mode,
                                 (SELECT ' behind ' OPERATOR(pg_catalog.||) pg_catalog.string_agg(pg_catalog.format('session %s (role %s, application %L)', b.pid, b.usename, b.application_name), ', ')
                                    FROM pg_catalog.pg_stat_activity b WHERE b.pid OPERATOR(pg_catalog.=) ANY (pg_catalog.pg_blocking_pids(l.pid)))), '; ' ORDER BY l.pid)
                        FROM pg_catalog.pg_locks l LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid OPERATOR(pg_catalog.=) l.pid
                       WHERE l.relation OPERATOR(pg_catalog.=) ANY (ARRAY[{{FAMILY_STATE}}, {{FAMILY_LOCK_NAME}}]::pg_catalog.oid[])
                         AND l.database OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
                         AND l.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()
                         AND l.mode OPERATOR(pg_catalog.=) ANY ('{ShareLock,ShareRowExclusiveLock,ExclusiveLock,AccessExclusiveLock}'::pg_catalog.text[]
                                                                OPERATOR(pg_catalog.||) CASE WHEN l.granted THEN 'ShareUpdateExclusiveLock' END)), 'none now'), '.'),
                  HINT = 'A session waiting for a strong lock there (CREATE RULE, CREATE TRIGGER, LOCK TABLE, VACUUM FULL) queues every mint behind it: end it, or the one it waits for.';
    END;
    IF (stamp OPERATOR(pg_catalog.>>) {{FAMILY_SEQ_BITS}}) OPERATOR(pg_catalog.>) {{SF_MAX_MS}}
       OR ((stamp OPERATOR(pg_catalog.>>) {{FAMILY_SEQ_BITS}}) OPERATOR(pg_catalog.-) now_ms) OPERATOR(pg_catalog.>) {{MAX_CLOCK_REGRESSION_MS}} THEN
        IF (stamp OPERATOR(pg_catalog.>>) {{FAMILY_SEQ_BITS}}) OPERATOR(pg_catalog.>) {{SF_MAX_MS}} THEN
            RAISE EXCEPTION '{{FAMILY}} ids ran out at %',
                            '{{SF_EPOCH}} 00:00:00+00'::pg_catalog.timestamptz OPERATOR(pg_catalog.+) '{{SF_MAX_MS_PLUS_ONE}} ms'::pg_catalog.interval
                USING ERRCODE = 'datetime_field_overflow',
                      DETAIL = 'The time field holds 2^{{SF_TIME_BITS}} milliseconds after idgen.snowflake_epoch ({{SF_EPOCH}}).';
        END IF;
        RAISE EXCEPTION 'system clock is % ms behind {{FAMILY}} shard %',
                        (stamp OPERATOR(pg_catalog.>>) {{FAMILY_SEQ_BITS}}) OPERATOR(pg_catalog.-) now_ms, shard
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'IDs may run ahead of the clock by at most {{MAX_CLOCK_REGRESSION_MS}} ms (the C++ edition''s default idgen.max_clock_regression). The clock was set back, or the database was restored from a server whose clock was ahead.',
                  HINT = 'Wait for the clock to catch up.';
    END IF;
    RETURN ((stamp OPERATOR(pg_catalog.>>) {{FAMILY_SEQ_BITS}}) OPERATOR(pg_catalog.<<) ({{FAMILY_SHARD_BITS}} OPERATOR(pg_catalog.+) {{FAMILY_SEQ_BITS}}))
           OPERATOR(pg_catalog.|) (shard::bigint OPERATOR(pg_catalog.<<) {{FAMILY_SEQ_BITS}})
           OPERATOR(pg_catalog.|) (stamp OPERATOR(pg_catalog.&) ((1::bigint OPERATOR(pg_catalog.<<) {{FAMILY_SEQ_BITS}}) OPERATOR(pg_catalog.-) 1));
END
$$;
COMMENT ON FUNCTION idgen_sql_{{FAMILY}}_mint(integer) IS
    'internal (SQL edition): next {{FAMILY}} ID of a shard, from the family''s state sequence under a lock on the family''s lock table';
{{/SNOWFLAKE_FAMILIES}}

-- Binds each mint to its state sequence and lock view: writes their schema
-- and OIDs into the mint's literals (generate.py's FAMILY_*) and replaces it.
-- Run by this script, and by the owner after a rename; another role is
-- refused (only the owner may replace a function). Every character of the
-- schema but A-Z, a-z, 0-9 and _ is written as a Unicode escape (\U in an E''
-- string, \+ in a U&"" identifier), so that no name quotes anything in the
-- mint (in 0.7.0 "$function$" closed pg_get_functiondef's dollar quote,
-- "$state$" the mint's literal); the body is passed as a quoted literal.
CREATE FUNCTION idgen_sql_snowflake_bind_mints(mints regprocedure[], states regclass[], locks regclass[]) RETURNS void
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
AS $$
DECLARE
    body pg_catalog.text;
    mint pg_catalog.text;
    objects pg_catalog.regclass[];
    schema_name pg_catalog.name;
    object_name pg_catalog.name;
    bound pg_catalog.text;
    named pg_catalog.text;
    found_bound pg_catalog.text;
    found_named pg_catalog.text;
BEGIN
    FOR i IN 1 .. pg_catalog.array_length(mints, 1) LOOP
        SELECT p.prosrc, pg_catalog.format('%I.%I', n.nspname, p.proname) INTO STRICT body, mint
          FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
         WHERE p.oid OPERATOR(pg_catalog.=) mints[i];
        objects := ARRAY[states[i], locks[i]];
        FOR j IN 1 .. 2 LOOP
            SELECT n.nspname, c.relname INTO STRICT schema_name, object_name
              FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
             WHERE c.oid OPERATOR(pg_catalog.=) objects[j];
            -- E'<schema, quoted as an identifier and escaped>.<name>', its OID
            named := pg_catalog.format('E''%s.%s''', (
                         SELECT pg_catalog.string_agg(CASE WHEN pg_catalog.strpos('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_', ch) OPERATOR(pg_catalog.>) 0
                                                           THEN ch ELSE pg_catalog.format(E'\\U%s', pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.ascii(ch)), 8, '0')) END,
                                                      '' ORDER BY k)
                           FROM pg_catalog.regexp_split_to_table(pg_catalog.quote_ident(schema_name), '') WITH ORDINALITY AS s(ch, k)),
                         object_name);
            bound := pg_catalog.format('%s::pg_catalog.oid OPERATOR(pg_catalog.=) %s', objects[j]::pg_catalog.oid, named);
            found_named := substring(body FROM pg_catalog.format(E'E''[A-Za-z0-9_\\\\]*\\.%s''', object_name));
            found_bound := substring(body FROM pg_catalog.format(E'[0-9]+::pg_catalog\\.oid OPERATOR\\(pg_catalog\\.=\\) E''[A-Za-z0-9_\\\\]*\\.%s''', object_name));
            IF found_bound IS NULL OR found_named IS NULL THEN
                RAISE EXCEPTION 'cannot bind % to %', mints[i], objects[j]
                    USING ERRCODE = 'object_not_in_prerequisite_state', DETAIL = 'The mint holds no literal of that name to bind.';
            END IF;
            body := pg_catalog.replace(pg_catalog.replace(body, found_bound, bound), found_named, named);
        END LOOP;
        -- the lock table in LOCK TABLE, as a U&"" identifier
        found_named := substring(body FROM pg_catalog.format(E'U&"[A-Za-z0-9_\\\\+]*"\\.%s', object_name));
        IF found_named IS NULL THEN
            RAISE EXCEPTION 'cannot bind % to %', mints[i], locks[i]
                USING ERRCODE = 'object_not_in_prerequisite_state', DETAIL = 'The mint locks no table of that name.';
        END IF;
        body := pg_catalog.replace(body, found_named, pg_catalog.format('U&"%s".%s', (
                    SELECT pg_catalog.string_agg(CASE WHEN pg_catalog.strpos('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_', ch) OPERATOR(pg_catalog.>) 0
                                                      THEN ch ELSE pg_catalog.format(E'\\+%s', pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.ascii(ch)), 6, '0')) END,
                                                 '' ORDER BY k)
                      FROM pg_catalog.regexp_split_to_table(schema_name, '') WITH ORDINALITY AS s(ch, k)),
                    object_name));
        EXECUTE pg_catalog.format('CREATE OR REPLACE FUNCTION %s(shard integer) {{SNOWFLAKE_MINT_ATTRIBUTES}} AS %L', mint, body);
    END LOOP;
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_bind_mints(regprocedure[], regclass[], regclass[]) IS
    'internal (SQL edition): writes the schema and OID of each state sequence and lock table into its mint';
REVOKE ALL ON FUNCTION idgen_sql_snowflake_bind_mints(regprocedure[], regclass[], regclass[]) FROM PUBLIC;

-- The mints of this install bound to its state sequences and lock views, by
-- OID here (a SQL-standard body), so that it finds them after a rename of the
-- schema.
CREATE FUNCTION idgen_sql_snowflake_bind() RETURNS void
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    RETURN idgen_sql_snowflake_bind_mints(
               ARRAY['idgen_sql_snowflake_mint(integer)'::regprocedure, 'idgen_sql_snowflake53_mint(integer)'::regprocedure],
               ARRAY['idgen_sql_snowflake_state'::regclass, 'idgen_sql_snowflake53_state'::regclass],
               ARRAY['idgen_sql_snowflake_lock'::regclass, 'idgen_sql_snowflake53_lock'::regclass]);
COMMENT ON FUNCTION idgen_sql_snowflake_bind() IS
    'SQL edition: binds snowflake() and snowflake53() to the state sequences and lock tables of this install, schema and all; run by the owner after ALTER SCHEMA ... RENAME or a restore';
REVOKE ALL ON FUNCTION idgen_sql_snowflake_bind() FROM PUBLIC;
DO $$ BEGIN PERFORM idgen_sql_snowflake_bind(); END $$;

-- The shard in the setting idgen.shard_id (the C++ edition's; here any role
-- may set it, as the placeholder it is without the library).
CREATE FUNCTION idgen_sql_default_shard(family text, max_shard integer) RETURNS integer
    LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    setting pg_catalog.text := pg_catalog.current_setting('idgen.shard_id', true);
    shard integer;
BEGIN
    IF setting IS NULL OR setting OPERATOR(pg_catalog.=) '' OR setting OPERATOR(pg_catalog.=) '-1' THEN
        RAISE EXCEPTION 'idgen.shard_id is not set'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = pg_catalog.format('Set idgen.shard_id (0 to %s) with ALTER DATABASE ... SET or ALTER ROLE ... SET, or pass the shard: %s(shard).', max_shard, family);
    END IF;
    IF setting OPERATOR(pg_catalog.!~) '^[0-9]+$' OR pg_catalog.length(setting) OPERATOR(pg_catalog.>) 9 OR setting::integer OPERATOR(pg_catalog.>) max_shard THEN
        RAISE EXCEPTION 'idgen.shard_id % is out of range for %()', setting, family
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = pg_catalog.format('A shard of %s() is between 0 and %s.', family, max_shard),
                  HINT = pg_catalog.format('Pass the shard: %s(shard), or set idgen.shard_id to a shard both splits have.', family);
    END IF;
    RETURN setting::integer;
END
$$;
COMMENT ON FUNCTION idgen_sql_default_shard(text, integer) IS
    'internal (SQL edition): the shard in idgen.shard_id, checked for a family';

-- A decoder's argument that is no ID of the family: 22003, as in the C++
-- edition; the other family's IDs are named, with a hint. snowflake() IDs are
-- {{SF_MIN_ID}} to {{SF_MAX_ID}}, snowflake53() IDs 0 to {{S53_MAX_ID}}.
CREATE FUNCTION idgen_sql_snowflake_bad_id(id bigint, family text, result_type anyelement)
    RETURNS anyelement
    LANGUAGE plpgsql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    big boolean := family OPERATOR(pg_catalog.=) 'snowflake';
    other pg_catalog.text := CASE WHEN big THEN 'snowflake53' ELSE 'snowflake' END;
    range_of pg_catalog.text := CASE WHEN big THEN '{{SF_MIN_ID}} and {{SF_MAX_ID}}' ELSE '0 and {{S53_MAX_ID}}' END;
    other_range pg_catalog.text := CASE WHEN big THEN '0 and {{S53_MAX_ID}}' ELSE '{{SF_MIN_ID}} and {{SF_MAX_ID}}' END;
BEGIN
    IF id OPERATOR(pg_catalog.>=) 0 THEN
        IF (family OPERATOR(pg_catalog.=) 'snowflake' AND id OPERATOR(pg_catalog.<=) {{S53_MAX_ID}}) OR (family OPERATOR(pg_catalog.=) 'snowflake53' AND id OPERATOR(pg_catalog.>=) {{SF_MIN_ID}}) THEN
            RAISE EXCEPTION '% is a % id, not a % id', id, other, family
                USING ERRCODE = 'numeric_value_out_of_range',
                      DETAIL = pg_catalog.format('IDs of %s() are between %s; IDs of %s() between %s.', family, range_of, other, other_range),
                      HINT = pg_catalog.format('Decode it with %s_time(), %s_shard() and %s_seq().', other, other, other);
        END IF;
    END IF;
    RAISE EXCEPTION '% id % is %', family, id, CASE WHEN id OPERATOR(pg_catalog.<) 0 THEN 'negative' ELSE 'out of range' END
        USING ERRCODE = 'numeric_value_out_of_range',
              DETAIL = pg_catalog.format('IDs of %s() are between %s.', family, range_of);
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_bad_id(bigint, text, anyelement) IS
    'internal (SQL edition): raises 22003 for an ID outside a snowflake family, naming the other family''s IDs';

-- An epoch argument (the IMMUTABLE forms): a finite instant from 1970 and
-- before the year 10000, or 22023, as in the C++ edition.
CREATE FUNCTION idgen_sql_snowflake_epoch_arg(epoch timestamptz, family text) RETURNS timestamptz
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF epoch OPERATOR(pg_catalog.>=) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
       AND epoch OPERATOR(pg_catalog.<) '10000-01-01 00:00:00+00'::pg_catalog.timestamptz THEN
        RETURN epoch;
    END IF;
    RAISE EXCEPTION 'invalid epoch for %: "%"', family, epoch
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = 'An epoch is a finite instant from 1970-01-01 00:00:00 UTC and before the year 10000, as idgen.snowflake_epoch is.';
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_epoch_arg(timestamptz, text) IS
    'internal (SQL edition): an epoch argument, checked (22023)';

-- The instant ms milliseconds after an epoch, exactly (the IMMUTABLE decoders).
CREATE FUNCTION idgen_sql_snowflake_time_after(epoch timestamptz, ms bigint) RETURNS timestamptz
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    RETURN epoch OPERATOR(pg_catalog.+) ((ms OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) interval '1 second')
           OPERATOR(pg_catalog.+) ((ms OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) interval '1 millisecond');
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_time_after(timestamptz, bigint) IS
    'internal (SQL edition): the instant a number of milliseconds after an epoch';

-- Milliseconds since an epoch of a boundary's timestamp: 22023 for an
-- infinite one, 22008 outside the time field. named says whether the epoch
-- is the fixed idgen.snowflake_epoch or an argument (for the message).
CREATE FUNCTION idgen_sql_snowflake_ms(ts timestamptz, family text, epoch timestamptz, named boolean) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    ms bigint;
BEGIN
    IF NOT pg_catalog.isfinite(ts) THEN
        RAISE EXCEPTION 'cannot build a % boundary from an infinite timestamp', family
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    ms := pg_catalog.floor((EXTRACT(epoch FROM ts) OPERATOR(pg_catalog.-) EXTRACT(epoch FROM epoch)) OPERATOR(pg_catalog.*) 1000)::bigint;
    IF ms OPERATOR(pg_catalog.<) 0 OR ms OPERATOR(pg_catalog.>) {{SF_MAX_MS}} THEN
        RAISE EXCEPTION 'timestamp out of range for %: "%"', family, ts
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = pg_catalog.format('IDs of %s() hold instants from %s (%s) up to %s, exclusive.', family,
                                             CASE WHEN named THEN 'idgen.snowflake_epoch' ELSE 'the epoch' END, epoch,
                                             epoch OPERATOR(pg_catalog.+) ({{SF_MAX_MS_PLUS_ONE}} OPERATOR(pg_catalog./) 1000 OPERATOR(pg_catalog.*) interval '1 second')
                                                   OPERATOR(pg_catalog.+) ({{SF_MAX_MS_PLUS_ONE}} OPERATOR(pg_catalog.%) 1000 OPERATOR(pg_catalog.*) interval '1 millisecond'));
    END IF;
    RETURN ms;
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_ms(timestamptz, text, timestamptz, boolean) IS
    'internal (SQL edition): milliseconds since an epoch of a boundary timestamp';

-- A shard argument of a boundary, checked (22003).
CREATE FUNCTION idgen_sql_snowflake_shard_arg(shard integer, family text, max_shard integer) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF shard OPERATOR(pg_catalog.<) 0 OR shard OPERATOR(pg_catalog.>) max_shard THEN
        RAISE EXCEPTION '% shard % is out of range', family, shard
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = pg_catalog.format('A shard of %s() is between 0 and %s.', family, max_shard);
    END IF;
    RETURN shard;
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_shard_arg(integer, text, integer) IS
    'internal (SQL edition): a boundary''s shard argument, checked';

-- snowflake --------------------------------------------------------------------

-- Not STRICT: a NULL shard is an error rather than a NULL ID in a DEFAULT.
CREATE FUNCTION snowflake(shard integer) RETURNS bigint
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    RETURN idgen_sql_snowflake_mint(shard);
COMMENT ON FUNCTION snowflake(integer) IS
    'new 64-bit snowflake ID ({{SF_TIME_BITS}}-bit ms since idgen.snowflake_epoch under a zero sign bit, {{SF_SHARD_BITS}}-bit shard 0..{{SF_MAX_SHARD}}, {{SF_SEQ_BITS}}-bit sequence), at least 2^53; SQL edition: epoch fixed at {{SF_EPOCH}}, strictly increasing per shard across the sessions of this database';

CREATE FUNCTION snowflake() RETURNS bigint
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    RETURN idgen_sql_snowflake_mint(idgen_sql_default_shard('snowflake', {{SF_MAX_SHARD}}));
COMMENT ON FUNCTION snowflake() IS
    'new snowflake ID for the shard in idgen.shard_id';

-- STABLE, as the C++ edition's (which follow the setting idgen.snowflake_epoch);
-- here the epoch is fixed at {{SF_EPOCH}}. The forms with an epoch are IMMUTABLE.
CREATE FUNCTION snowflake_time(id bigint) RETURNS timestamptz
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN id >= {{SF_MIN_ID}} AND id <= {{SF_MAX_ID}}
                THEN idgen_sql_time_of_ms({{SF_EPOCH_MS}} + (id >> ({{SF_SHARD_BITS}} + {{SF_SEQ_BITS}})))
                ELSE idgen_sql_snowflake_bad_id(id, 'snowflake', NULL::timestamptz) END;
COMMENT ON FUNCTION snowflake_time(bigint) IS
    'millisecond in which a snowflake ID was issued, counted from idgen.snowflake_epoch (SQL edition: fixed at {{SF_EPOCH}}; STABLE as in the C++ edition; snowflake_time(id, epoch) is IMMUTABLE)';

CREATE FUNCTION snowflake_time(id bigint, epoch timestamptz) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN id >= {{SF_MIN_ID}} AND id <= {{SF_MAX_ID}}
                THEN idgen_sql_snowflake_time_after(idgen_sql_snowflake_epoch_arg(epoch, 'snowflake'), id >> ({{SF_SHARD_BITS}} + {{SF_SEQ_BITS}}))
                ELSE idgen_sql_snowflake_bad_id(id, 'snowflake', idgen_sql_snowflake_epoch_arg(epoch, 'snowflake')) END;
COMMENT ON FUNCTION snowflake_time(bigint, timestamptz) IS
    'millisecond in which a snowflake ID was issued, counted from the given epoch (IMMUTABLE: for generated columns and indexes)';

CREATE FUNCTION snowflake_shard(id bigint) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN id >= {{SF_MIN_ID}} AND id <= {{SF_MAX_ID}}
                THEN ((id >> {{SF_SEQ_BITS}}) & {{SF_MAX_SHARD}})::integer
                ELSE idgen_sql_snowflake_bad_id(id, 'snowflake', NULL::integer) END;
COMMENT ON FUNCTION snowflake_shard(bigint) IS
    'shard (0..{{SF_MAX_SHARD}}) that issued a snowflake ID (snowflake IDs are at least 2^53; smaller ones are snowflake53 IDs and refused)';

CREATE FUNCTION snowflake_seq(id bigint) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN id >= {{SF_MIN_ID}} AND id <= {{SF_MAX_ID}}
                THEN (id & {{SF_MAX_SEQ}})::integer
                ELSE idgen_sql_snowflake_bad_id(id, 'snowflake', NULL::integer) END;
COMMENT ON FUNCTION snowflake_seq(bigint) IS
    'sequence number (0..{{SF_MAX_SEQ}}) of a snowflake ID within its millisecond and shard';

CREATE FUNCTION snowflake_boundary(ts timestamptz) RETURNS bigint
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_snowflake_ms(ts, 'snowflake', '{{SF_EPOCH}} 00:00:00+00', true) << ({{SF_SHARD_BITS}} + {{SF_SEQ_BITS}});
COMMENT ON FUNCTION snowflake_boundary(timestamptz) IS
    'smallest snowflake ID of the millisecond holding ts, counted from idgen.snowflake_epoch (SQL edition: fixed at {{SF_EPOCH}}), for range predicates (STABLE; snowflake_boundary(ts, shard, epoch) is IMMUTABLE)';

CREATE FUNCTION snowflake_boundary(ts timestamptz, shard integer) RETURNS bigint
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN (idgen_sql_snowflake_ms(ts, 'snowflake', '{{SF_EPOCH}} 00:00:00+00', true) << ({{SF_SHARD_BITS}} + {{SF_SEQ_BITS}}))
           | (idgen_sql_snowflake_shard_arg(shard, 'snowflake', {{SF_MAX_SHARD}}) << {{SF_SEQ_BITS}});
COMMENT ON FUNCTION snowflake_boundary(timestamptz, integer) IS
    'smallest snowflake ID of the millisecond holding ts on the given shard, counted from idgen.snowflake_epoch (SQL edition: fixed at {{SF_EPOCH}}; STABLE)';

CREATE FUNCTION snowflake_boundary(ts timestamptz, shard integer, epoch timestamptz) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (idgen_sql_snowflake_ms(ts, 'snowflake', idgen_sql_snowflake_epoch_arg(epoch, 'snowflake'), false) << ({{SF_SHARD_BITS}} + {{SF_SEQ_BITS}}))
           | (idgen_sql_snowflake_shard_arg(shard, 'snowflake', {{SF_MAX_SHARD}}) << {{SF_SEQ_BITS}});
COMMENT ON FUNCTION snowflake_boundary(timestamptz, integer, timestamptz) IS
    'smallest snowflake ID of the millisecond holding ts on the given shard, counted from the given epoch (IMMUTABLE: for partition bounds and stored expressions)';

-- snowflake53 --------------------------------------------------------------------

-- Not STRICT: a NULL shard is an error rather than a NULL ID in a DEFAULT.
CREATE FUNCTION snowflake53(shard integer) RETURNS bigint
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    RETURN idgen_sql_snowflake53_mint(shard);
COMMENT ON FUNCTION snowflake53(integer) IS
    'new 53-bit snowflake ID, at most 2^53 - 1 (JavaScript''s Number.MAX_SAFE_INTEGER): {{SF_TIME_BITS}}-bit ms since idgen.snowflake_epoch, {{S53_SHARD_BITS}}-bit shard 0..{{S53_MAX_SHARD}}, {{S53_SEQ_BITS}}-bit sequence; SQL edition: epoch fixed at {{SF_EPOCH}}, strictly increasing per shard across the sessions of this database';

CREATE FUNCTION snowflake53() RETURNS bigint
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    RETURN idgen_sql_snowflake53_mint(idgen_sql_default_shard('snowflake53', {{S53_MAX_SHARD}}));
COMMENT ON FUNCTION snowflake53() IS
    'new snowflake53 ID for the shard in idgen.shard_id';

-- STABLE, as the C++ edition's (which follow the setting idgen.snowflake_epoch);
-- here the epoch is fixed at {{SF_EPOCH}}. The forms with an epoch are IMMUTABLE.
CREATE FUNCTION snowflake53_time(id bigint) RETURNS timestamptz
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN id >= 0 AND id <= {{S53_MAX_ID}}
                THEN idgen_sql_time_of_ms({{SF_EPOCH_MS}} + (id >> ({{S53_SHARD_BITS}} + {{S53_SEQ_BITS}})))
                ELSE idgen_sql_snowflake_bad_id(id, 'snowflake53', NULL::timestamptz) END;
COMMENT ON FUNCTION snowflake53_time(bigint) IS
    'millisecond in which a snowflake53 ID was issued, counted from idgen.snowflake_epoch (SQL edition: fixed at {{SF_EPOCH}}; STABLE as in the C++ edition; snowflake53_time(id, epoch) is IMMUTABLE)';

CREATE FUNCTION snowflake53_time(id bigint, epoch timestamptz) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN id >= 0 AND id <= {{S53_MAX_ID}}
                THEN idgen_sql_snowflake_time_after(idgen_sql_snowflake_epoch_arg(epoch, 'snowflake53'), id >> ({{S53_SHARD_BITS}} + {{S53_SEQ_BITS}}))
                ELSE idgen_sql_snowflake_bad_id(id, 'snowflake53', idgen_sql_snowflake_epoch_arg(epoch, 'snowflake53')) END;
COMMENT ON FUNCTION snowflake53_time(bigint, timestamptz) IS
    'millisecond in which a snowflake53 ID was issued, counted from the given epoch (IMMUTABLE: for generated columns and indexes)';

CREATE FUNCTION snowflake53_shard(id bigint) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN id >= 0 AND id <= {{S53_MAX_ID}}
                THEN ((id >> {{S53_SEQ_BITS}}) & {{S53_MAX_SHARD}})::integer
                ELSE idgen_sql_snowflake_bad_id(id, 'snowflake53', NULL::integer) END;
COMMENT ON FUNCTION snowflake53_shard(bigint) IS
    'shard (0..{{S53_MAX_SHARD}}) that issued a snowflake53 ID (snowflake53 IDs are at most 2^53 - 1; larger ones are snowflake IDs and refused)';

CREATE FUNCTION snowflake53_seq(id bigint) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN id >= 0 AND id <= {{S53_MAX_ID}}
                THEN (id & {{S53_MAX_SEQ}})::integer
                ELSE idgen_sql_snowflake_bad_id(id, 'snowflake53', NULL::integer) END;
COMMENT ON FUNCTION snowflake53_seq(bigint) IS
    'sequence number (0..{{S53_MAX_SEQ}}) of a snowflake53 ID within its millisecond and shard';

CREATE FUNCTION snowflake53_boundary(ts timestamptz) RETURNS bigint
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_snowflake_ms(ts, 'snowflake53', '{{SF_EPOCH}} 00:00:00+00', true) << ({{S53_SHARD_BITS}} + {{S53_SEQ_BITS}});
COMMENT ON FUNCTION snowflake53_boundary(timestamptz) IS
    'smallest snowflake53 ID of the millisecond holding ts, counted from idgen.snowflake_epoch (SQL edition: fixed at {{SF_EPOCH}}), for range predicates (STABLE; snowflake53_boundary(ts, shard, epoch) is IMMUTABLE)';

CREATE FUNCTION snowflake53_boundary(ts timestamptz, shard integer) RETURNS bigint
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN (idgen_sql_snowflake_ms(ts, 'snowflake53', '{{SF_EPOCH}} 00:00:00+00', true) << ({{S53_SHARD_BITS}} + {{S53_SEQ_BITS}}))
           | (idgen_sql_snowflake_shard_arg(shard, 'snowflake53', {{S53_MAX_SHARD}}) << {{S53_SEQ_BITS}});
COMMENT ON FUNCTION snowflake53_boundary(timestamptz, integer) IS
    'smallest snowflake53 ID of the millisecond holding ts on the given shard, counted from idgen.snowflake_epoch (SQL edition: fixed at {{SF_EPOCH}}; STABLE)';

CREATE FUNCTION snowflake53_boundary(ts timestamptz, shard integer, epoch timestamptz) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (idgen_sql_snowflake_ms(ts, 'snowflake53', idgen_sql_snowflake_epoch_arg(epoch, 'snowflake53'), false) << ({{S53_SHARD_BITS}} + {{S53_SEQ_BITS}}))
           | (idgen_sql_snowflake_shard_arg(shard, 'snowflake53', {{S53_MAX_SHARD}}) << {{S53_SEQ_BITS}});
COMMENT ON FUNCTION snowflake53_boundary(timestamptz, integer, timestamptz) IS
    'smallest snowflake53 ID of the millisecond holding ts on the given shard, counted from the given epoch (IMMUTABLE: for partition bounds and stored expressions)';
