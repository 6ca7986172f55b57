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
-- A call takes a session advisory lock on the sequence, moves it to
-- max(last + 1, now) (nextval, then setval when the clock is ahead), and
-- releases the lock: stamps are unique and increasing across all sessions of
-- the database, so IDs never repeat on a shard whatever the rate. The cost:
-- calls of a family are serialized for the few microseconds of that critical
-- section (not for the transaction), setval writes WAL, and all the shards of
-- a database share the {{SF_MAX_SEQ}} + 1 (snowflake53: {{S53_MAX_SEQ}} + 1) stamps of a millisecond,
-- borrowing the next millisecond when they run out, as the C++ edition does.
-- Lock, nextval, setval and unlock are built-in calls of one expression, with
-- no interrupt check between them, so a cancelled call cannot leave the
-- family locked (idgen_sql_snowflake_mint); nextval's refusal in a read-only
-- transaction (or on a standby) is made before the lock. An error inside the
-- section itself (a cancel while nextval waits for DDL on the state sequence)
-- leaves the lock with the session until it ends.

CREATE SEQUENCE idgen_sql_snowflake_state AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen_sql_snowflake_state IS
    'SQL edition: last snowflake stamp issued in this database (ms since {{SF_EPOCH}} << {{SF_SEQ_BITS}} | sequence)';
CREATE SEQUENCE idgen_sql_snowflake53_state AS bigint MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE idgen_sql_snowflake53_state IS
    'SQL edition: last snowflake53 stamp issued in this database (ms since {{SF_EPOCH}} << {{S53_SEQ_BITS}} | sequence)';

-- Mints on a shard of one family: idgen_sql_snowflake_mint(shard) and
-- idgen_sql_snowflake53_mint(shard), one copy per family (generate.py).
-- Only the edition's owner may move the state sequences (a role that could
-- setval them could make IDs repeat), so a mint is SECURITY DEFINER, and it
-- names its state sequence itself, schema and all, in a literal
-- (generate.py's FAMILY_STATE, written where the sequence is used; a constant
-- variable cost 0.02 us a call more): nothing a caller passes or puts in its
-- search_path can point it at another sequence. Until the script writes the
-- schema in (idgen_sql_snowflake_bind()), the literal names a schema pg_*,
-- which no role may create. Issue 33: a mint given the sequence as an argument
-- had to check it, by name, 0.27 us a call of the 1.45. The cost:
-- after ALTER SCHEMA ... RENAME the mints name a schema that is gone, until
-- the owner runs idgen_sql_snowflake_bind() again (docs/managed-postgresql.md).
-- snowflake() and snowflake53() are SQL functions inlined into the caller's
-- query (issue 33: a SECURITY DEFINER SQL function around the mint cost 1 us
-- a call). A mint runs as the owner with the caller's search_path, so every
-- operator, function and type named in it is pg_catalog's (the SET
-- search_path it had cost 0.6 us a call). Four statements, as each PL/pgSQL
-- statement costs: the clock, read once (issue 33: it was read up to four
-- times, each a different instant); the stamp, or NULL when it must refuse;
-- the refusals; the ID.
-- The critical section is the num_nulls() call, whose arguments run in
-- order: take the family's advisory lock, nextval, setval to the clock's
-- stamp when the sequence is behind it (never below the value just taken),
-- release the lock. They are built-in calls of one expression, with no
-- interrupt check between them, so a cancel or statement_timeout cannot leave
-- the lock taken: the EXCEPTION block that did that job (a subtransaction,
-- 0.45 us a call) is gone. currval() then reads the stamp. The clock is read
-- as generate.py's unix_us reads it, exact to the microsecond, and floored to
-- the millisecond.
{{#SNOWFLAKE_FAMILIES}}
CREATE FUNCTION idgen_sql_{{FAMILY}}_mint(shard integer) RETURNS bigint
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY DEFINER
AS $$
DECLARE
    now_ms bigint := {{SF_NOW_MS}};
    stamp bigint;
BEGIN
    stamp := CASE
        WHEN shard IS NULL OR shard OPERATOR(pg_catalog.<) 0 OR shard OPERATOR(pg_catalog.>) {{FAMILY_MAX_SHARD}}
             OR now_ms OPERATOR(pg_catalog.<) {{FAMILY_MIN_MS}}
            THEN NULL
        -- nextval() would refuse after the lock is taken, leaving it held.
        WHEN pg_catalog.current_setting('transaction_read_only') OPERATOR(pg_catalog.=) 'on'
            THEN NULL
        WHEN pg_catalog.num_nulls(
                 pg_catalog.pg_advisory_lock(1768187763, {{FAMILY_STATE}}::pg_catalog.oid::integer),
                 CASE WHEN pg_catalog.nextval({{FAMILY_STATE}}) OPERATOR(pg_catalog.>=) (now_ms OPERATOR(pg_catalog.<<) {{FAMILY_SEQ_BITS}})
                      THEN 0::bigint
                      ELSE pg_catalog.setval({{FAMILY_STATE}}, GREATEST(now_ms OPERATOR(pg_catalog.<<) {{FAMILY_SEQ_BITS}}, pg_catalog.currval({{FAMILY_STATE}}))) END,
                 pg_catalog.pg_advisory_unlock(1768187763, {{FAMILY_STATE}}::pg_catalog.oid::integer)) OPERATOR(pg_catalog.>=) 0
            THEN pg_catalog.currval({{FAMILY_STATE}})
    END;
    IF stamp IS NULL OR (stamp OPERATOR(pg_catalog.>>) {{FAMILY_SEQ_BITS}}) OPERATOR(pg_catalog.>) {{SF_MAX_MS}}
       OR (stamp OPERATOR(pg_catalog.>>) {{FAMILY_SEQ_BITS}}) OPERATOR(pg_catalog.-) now_ms OPERATOR(pg_catalog.>) {{MAX_CLOCK_REGRESSION_MS}} THEN
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
        ELSIF (stamp OPERATOR(pg_catalog.>>) {{FAMILY_SEQ_BITS}}) OPERATOR(pg_catalog.>) {{SF_MAX_MS}} THEN
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
    'internal (SQL edition): next {{FAMILY}} ID of a shard, from the family''s state sequence under an advisory lock';
{{/SNOWFLAKE_FAMILIES}}

-- Binds each mint to its state sequence: writes the sequence's schema and
-- name into each of the mint's literals that name it (CREATE OR REPLACE of
-- the mint as pg_get_functiondef() gives it). Run by this script, and by the
-- owner after the schema is renamed; another role is refused (only the owner
-- may replace a function).
CREATE FUNCTION idgen_sql_snowflake_bind_mints(mints regprocedure[], states regclass[]) RETURNS void
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
AS $$
DECLARE
    definition text;
    named text;
BEGIN
    FOR i IN 1 .. pg_catalog.array_length(mints, 1) LOOP
        definition := pg_catalog.pg_get_functiondef(mints[i]);
        SELECT pg_catalog.format('%I.%I', n.nspname, c.relname) INTO STRICT named
          FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
         WHERE c.oid OPERATOR(pg_catalog.=) states[i];
        IF pg_catalog.strpos(named, '$state$') OPERATOR(pg_catalog.>) 0 THEN
            RAISE EXCEPTION 'cannot bind % to %', mints[i], named
                USING ERRCODE = 'invalid_name', DETAIL = 'The schema or sequence name holds "$state$", which quotes it in the mint.';
        END IF;
        EXECUTE pg_catalog.replace(definition, substring(definition FROM '\$state\$.*?\$state\$'), '$state$' || named || '$state$');
    END LOOP;
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_bind_mints(regprocedure[], regclass[]) IS
    'internal (SQL edition): writes the schema and name of each state sequence into its mint';
REVOKE ALL ON FUNCTION idgen_sql_snowflake_bind_mints(regprocedure[], regclass[]) FROM PUBLIC;
REVOKE ALL ON SEQUENCE idgen_sql_snowflake_state, idgen_sql_snowflake53_state FROM PUBLIC;

-- The mints of this install bound to its state sequences, by OID here (a
-- SQL-standard body), so that it finds them after a rename of the schema.
CREATE FUNCTION idgen_sql_snowflake_bind() RETURNS void
    LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    RETURN idgen_sql_snowflake_bind_mints(
               ARRAY['idgen_sql_snowflake_mint(integer)'::regprocedure, 'idgen_sql_snowflake53_mint(integer)'::regprocedure],
               ARRAY['idgen_sql_snowflake_state'::regclass, 'idgen_sql_snowflake53_state'::regclass]);
COMMENT ON FUNCTION idgen_sql_snowflake_bind() IS
    'SQL edition: binds snowflake() and snowflake53() to the state sequences of this install, schema and all; run by the owner after ALTER SCHEMA ... RENAME';
REVOKE ALL ON FUNCTION idgen_sql_snowflake_bind() FROM PUBLIC;
DO $$ BEGIN PERFORM idgen_sql_snowflake_bind(); END $$;

-- The shard in the setting idgen.shard_id (the C++ edition's; here any role
-- may set it, as the placeholder it is without the library).
CREATE FUNCTION idgen_sql_default_shard(family text, max_shard integer) RETURNS integer
    LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    setting text := pg_catalog.current_setting('idgen.shard_id', true);
    shard integer;
BEGIN
    IF setting IS NULL OR setting OPERATOR(pg_catalog.=) '' OR setting OPERATOR(pg_catalog.=) '-1' THEN
        RAISE EXCEPTION 'idgen.shard_id is not set'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = pg_catalog.format('Set idgen.shard_id (0 to %s) with ALTER DATABASE ... SET or ALTER ROLE ... SET, or pass the shard: %s(shard).', max_shard, family);
    END IF;
    IF setting !~ '^[0-9]+$' OR pg_catalog.length(setting) > 9 OR setting::integer > max_shard THEN
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
    other text := CASE family WHEN 'snowflake' THEN 'snowflake53' ELSE 'snowflake' END;
    range_of text := CASE family WHEN 'snowflake' THEN '{{SF_MIN_ID}} and {{SF_MAX_ID}}' ELSE '0 and {{S53_MAX_ID}}' END;
    other_range text := CASE family WHEN 'snowflake' THEN '0 and {{S53_MAX_ID}}' ELSE '{{SF_MIN_ID}} and {{SF_MAX_ID}}' END;
BEGIN
    IF id >= 0 THEN
        IF (family = 'snowflake' AND id <= {{S53_MAX_ID}}) OR (family = 'snowflake53' AND id >= {{SF_MIN_ID}}) THEN
            RAISE EXCEPTION '% is a % id, not a % id', id, other, family
                USING ERRCODE = 'numeric_value_out_of_range',
                      DETAIL = pg_catalog.format('IDs of %s() are between %s; IDs of %s() between %s.', family, range_of, other, other_range),
                      HINT = pg_catalog.format('Decode it with %s_time(), %s_shard() and %s_seq().', other, other, other);
        END IF;
    END IF;
    RAISE EXCEPTION '% id % is %', family, id, CASE WHEN id < 0 THEN 'negative' ELSE 'out of range' END
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
    IF epoch OPERATOR(pg_catalog.>=) '1970-01-01 00:00:00+00'::timestamptz
       AND epoch OPERATOR(pg_catalog.<) '10000-01-01 00:00:00+00'::timestamptz THEN
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
    RETURN epoch OPERATOR(pg_catalog.+) (ms / 1000) * interval '1 second' OPERATOR(pg_catalog.+) (ms % 1000) * interval '1 millisecond';
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
    ms := pg_catalog.floor((EXTRACT(epoch FROM ts) - EXTRACT(epoch FROM epoch)) * 1000)::bigint;
    IF ms < 0 OR ms > {{SF_MAX_MS}} THEN
        RAISE EXCEPTION 'timestamp out of range for %: "%"', family, ts
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = pg_catalog.format('IDs of %s() hold instants from %s (%s) up to %s, exclusive.', family,
                                             CASE WHEN named THEN 'idgen.snowflake_epoch' ELSE 'the epoch' END, epoch,
                                             epoch OPERATOR(pg_catalog.+) ({{SF_MAX_MS}} + 1) / 1000 * interval '1 second'
                                                   OPERATOR(pg_catalog.+) ({{SF_MAX_MS}} + 1) % 1000 * interval '1 millisecond');
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
    IF shard < 0 OR shard > max_shard THEN
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
