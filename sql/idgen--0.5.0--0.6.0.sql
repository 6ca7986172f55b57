-- idgen 0.5.0 -> 0.6.0 (issue 26): snowflake decoders and boundaries that
-- read idgen.snowflake_epoch become STABLE, with IMMUTABLE forms taking the
-- epoch; one set of casts for every 128-bit type; prefixed_domain_define
-- leaves the surface (prefixed_id_define and typeid_define each hold the
-- body, and comment the domains they make); prefixed_id_type() answers 22P02
-- for text that is no ID; operator classes and families get comments.
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

-- uuid_v7: the comments say that uuid_v7(shift) is outside the session's order
COMMENT ON FUNCTION uuid_v7() IS
    'new UUIDv7 (RFC 9562) with 12 bits of sub-millisecond time; strictly increasing per backend, or server-wide with idgen.uuid_v7_order = server (uuid_v7(shift) values are outside that order)';
COMMENT ON FUNCTION uuid_v7(interval) IS
    'new UUIDv7 whose embedded time is moved by shift, to hide the creation time: the session''s next uuid_v7() value moved by shift, so it sorts by its shifted time and is not in the session''s strictly increasing order';

-- Generated columns and indexes built on the decoders and boundaries that
-- become STABLE keep working, but PostgreSQL would refuse to create them
-- again, so a dump of the database would not restore: name each one.
DO $$
DECLARE
    dependent record;
BEGIN
    FOR dependent IN
        SELECT CASE WHEN d.classid = 'pg_attrdef'::regclass
                    THEN format('generated column %I of table %s', a.attname, a.attrelid::regclass)
                    ELSE pg_describe_object(d.classid, d.objid, d.objsubid) END AS what,
               d.refobjid::regprocedure AS used
        FROM pg_depend d
        LEFT JOIN pg_attrdef ad ON d.classid = 'pg_attrdef'::regclass AND ad.oid = d.objid
        LEFT JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
        WHERE d.refclassid = 'pg_proc'::regclass
          AND d.refobjid IN ('snowflake_time(bigint)'::regprocedure,
                             'snowflake_boundary(timestamptz)'::regprocedure,
                             'snowflake_boundary(timestamptz, integer)'::regprocedure,
                             'snowflake53_time(bigint)'::regprocedure,
                             'snowflake53_boundary(timestamptz)'::regprocedure,
                             'snowflake53_boundary(timestamptz, integer)'::regprocedure)
          AND (a.attgenerated <> ''
               OR EXISTS (SELECT FROM pg_index i WHERE d.classid = 'pg_class'::regclass AND i.indexrelid = d.objid))
        ORDER BY 1
    LOOP
        RAISE WARNING '% uses %, which reads idgen.snowflake_epoch and is STABLE from idgen 0.6.0',
            dependent.what, dependent.used
            USING DETAIL = 'It keeps working here, but PostgreSQL refuses STABLE functions in generated '
                           'columns and index expressions, so a dump of this database would not restore.',
                  HINT = 'Recreate it with the form that takes the epoch, such as '
                         'snowflake_time(id, epoch) or snowflake_boundary(ts, shard, epoch).';
    END LOOP;
END
$$;

-- snowflake: what reads idgen.snowflake_epoch is STABLE; the forms with an epoch argument are IMMUTABLE
ALTER FUNCTION snowflake_time(bigint) STABLE;
ALTER FUNCTION snowflake_boundary(timestamptz) STABLE;
ALTER FUNCTION snowflake_boundary(timestamptz, integer) STABLE;
COMMENT ON FUNCTION snowflake_time(bigint) IS
    'millisecond in which a snowflake ID was issued, counted from idgen.snowflake_epoch (STABLE: it follows the setting; snowflake_time(id, epoch) is IMMUTABLE)';
COMMENT ON FUNCTION snowflake_boundary(timestamptz) IS
    'smallest snowflake ID of the millisecond holding ts, counted from idgen.snowflake_epoch, for range predicates (STABLE; snowflake_boundary(ts, shard, epoch) is IMMUTABLE)';
COMMENT ON FUNCTION snowflake_boundary(timestamptz, integer) IS
    'smallest snowflake ID of the millisecond holding ts on the given shard, counted from idgen.snowflake_epoch (STABLE)';

CREATE FUNCTION snowflake_time(id bigint, epoch timestamptz) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_snowflake_time_epoch'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_time(bigint, timestamptz) IS
    'millisecond in which a snowflake ID was issued, counted from the given epoch (IMMUTABLE: for generated columns and indexes)';

CREATE FUNCTION snowflake_boundary(ts timestamptz, shard integer, epoch timestamptz) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake_boundary_epoch'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_boundary(timestamptz, integer, timestamptz) IS
    'smallest snowflake ID of the millisecond holding ts on the given shard, counted from the given epoch (IMMUTABLE: for partition bounds and stored expressions)';
ALTER FUNCTION snowflake53_time(bigint) STABLE;
ALTER FUNCTION snowflake53_boundary(timestamptz) STABLE;
ALTER FUNCTION snowflake53_boundary(timestamptz, integer) STABLE;
COMMENT ON FUNCTION snowflake53_time(bigint) IS
    'millisecond in which a snowflake53 ID was issued, counted from idgen.snowflake_epoch (STABLE: it follows the setting; snowflake53_time(id, epoch) is IMMUTABLE)';
COMMENT ON FUNCTION snowflake53_boundary(timestamptz) IS
    'smallest snowflake53 ID of the millisecond holding ts, counted from idgen.snowflake_epoch, for range predicates (STABLE; snowflake53_boundary(ts, shard, epoch) is IMMUTABLE)';
COMMENT ON FUNCTION snowflake53_boundary(timestamptz, integer) IS
    'smallest snowflake53 ID of the millisecond holding ts on the given shard, counted from idgen.snowflake_epoch (STABLE)';

CREATE FUNCTION snowflake53_time(id bigint, epoch timestamptz) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'idgen_snowflake53_time_epoch'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake53_time(bigint, timestamptz) IS
    'millisecond in which a snowflake53 ID was issued, counted from the given epoch (IMMUTABLE: for generated columns and indexes)';

CREATE FUNCTION snowflake53_boundary(ts timestamptz, shard integer, epoch timestamptz) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idgen_snowflake53_boundary_epoch'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake53_boundary(timestamptz, integer, timestamptz) IS
    'smallest snowflake53 ID of the millisecond holding ts on the given shard, counted from the given epoch (IMMUTABLE: for partition bounds and stored expressions)';
COMMENT ON FUNCTION snowflake_shard(bigint) IS
    'shard (0..8191) that issued a snowflake ID (snowflake IDs are at least 2^53; smaller ones are snowflake53 IDs and refused)';

-- operator classes and families
COMMENT ON OPERATOR CLASS ulid_ops USING btree IS 'btree operator class of ulid: ordering, unique indexes, merge joins and sorting';
COMMENT ON OPERATOR FAMILY ulid_ops USING btree IS 'btree operator family of ulid (its operator class ulid_ops)';
COMMENT ON OPERATOR CLASS ulid_ops USING hash IS 'hash operator class of ulid: hash indexes, hash joins, hash aggregation and hash partitioning';
COMMENT ON OPERATOR FAMILY ulid_ops USING hash IS 'hash operator family of ulid (its operator class ulid_ops)';
COMMENT ON OPERATOR CLASS ulid_minmax_ops USING brin IS 'BRIN minmax operator class of ulid: small indexes over time-ordered, append-only tables';
COMMENT ON OPERATOR FAMILY ulid_minmax_ops USING brin IS 'BRIN operator family of ulid (its operator class ulid_minmax_ops)';
COMMENT ON OPERATOR CLASS prefixed_id_ops USING btree IS 'btree operator class of prefixed_id: ordering, unique indexes, merge joins and sorting';
COMMENT ON OPERATOR FAMILY prefixed_id_ops USING btree IS 'btree operator family of prefixed_id (its operator class prefixed_id_ops)';
COMMENT ON OPERATOR CLASS prefixed_id_ops USING hash IS 'hash operator class of prefixed_id: hash indexes, hash joins, hash aggregation and hash partitioning';
COMMENT ON OPERATOR FAMILY prefixed_id_ops USING hash IS 'hash operator family of prefixed_id (its operator class prefixed_id_ops)';
COMMENT ON OPERATOR CLASS typeid_ops USING btree IS 'btree operator class of typeid: ordering, unique indexes, merge joins and sorting';
COMMENT ON OPERATOR FAMILY typeid_ops USING btree IS 'btree operator family of typeid (its operator class typeid_ops)';
COMMENT ON OPERATOR CLASS typeid_ops USING hash IS 'hash operator class of typeid: hash indexes, hash joins, hash aggregation and hash partitioning';
COMMENT ON OPERATOR FAMILY typeid_ops USING hash IS 'hash operator family of typeid (its operator class typeid_ops)';

-- casts: the same set for ulid, prefixed_id and typeid (typeid's text casts
-- go: PostgreSQL's I/O casts serve text as for ulid and prefixed_id)
DROP CAST (typeid AS text);
DROP CAST (text AS typeid);
CREATE CAST (prefixed_id AS uuid) WITH FUNCTION prefixed_id_uuid(prefixed_id) AS ASSIGNMENT;
COMMENT ON CAST (prefixed_id AS uuid) IS 'the 128 bits (the prefix is dropped)';
CREATE CAST (prefixed_id AS timestamptz) WITH FUNCTION prefixed_id_time(prefixed_id);
COMMENT ON CAST (prefixed_id AS timestamptz) IS
    'the millisecond of an ordered prefixed ID; NULL when its bits are not a UUIDv7 (tokens)';
CREATE CAST (typeid AS timestamptz) WITH FUNCTION typeid_time(typeid);
COMMENT ON CAST (typeid AS timestamptz) IS
    'the millisecond of a TypeID whose bits are a UUIDv7; NULL otherwise';

-- prefixed_id_define and typeid_define hold their body; the helper goes
CREATE OR REPLACE FUNCTION prefixed_id_define(type_name text, prefix text, token boolean DEFAULT false,
                                   type_schema name DEFAULT pg_catalog.current_schema())
    RETURNS regtype
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext text;
    taken_by pg_catalog.regtype;
    live boolean;
    created pg_catalog.regtype;
BEGIN
    IF type_name IS NULL OR prefix IS NULL OR token IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT pg_catalog.quote_ident(n.nspname) INTO ext
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';
    -- the prefix (22023): what prefixed_id's generators accept, and not empty
    IF prefix OPERATOR(pg_catalog.=) '' THEN
        RAISE EXCEPTION 'invalid prefix for prefixed_id_define: ""'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'The prefix is empty; a type defined for an entity needs one.';
    ELSIF prefix OPERATOR(pg_catalog.!~) '^[a-z]([a-z_]{0,61}[a-z])?$' THEN
        RAISE EXCEPTION 'invalid prefix for prefixed_id_define: "%"', prefix
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A prefix is 1 to 63 lowercase letters a-z and underscores, starting and ending with a letter.',
                  HINT = 'Use lowercase letters and underscores, such as "acct" or "user_session".';
    END IF;
    -- the registered type, and whether it is live: a domain over prefixed_id
    -- (or typeid) with a CHECK that reads as prefixed_id_prefix(VALUE) (or
    -- typeid_prefix(VALUE)) = <its prefix> (the function's name shown as
    -- pg_get_constraintdef shows it here)
    EXECUTE pg_catalog.format(
        'SELECT r.type, EXISTS (SELECT FROM pg_catalog.pg_type t JOIN pg_catalog.pg_constraint c '
        'ON c.contypid OPERATOR(pg_catalog.=) t.oid WHERE t.oid OPERATOR(pg_catalog.=) r.type::pg_catalog.oid '
        'AND t.typtype OPERATOR(pg_catalog.=) ''d'' AND c.contype OPERATOR(pg_catalog.=) ''c'' '
        'AND ((t.typbasetype OPERATOR(pg_catalog.=) $2 AND pg_catalog.pg_get_constraintdef(c.oid) OPERATOR(pg_catalog.=) '
        'pg_catalog.format(''CHECK ((%%s(VALUE) = %%L::text))'', $3, r.prefix)) '
        'OR (t.typbasetype OPERATOR(pg_catalog.=) $4 AND pg_catalog.pg_get_constraintdef(c.oid) OPERATOR(pg_catalog.=) '
        'pg_catalog.format(''CHECK ((%%s(VALUE) = %%L::text))'', $5, r.prefix)))) '
        'FROM %s.prefixed_id_registry r WHERE r.prefix OPERATOR(pg_catalog.=) $1', ext)
        INTO taken_by, live
        USING prefix, pg_catalog.to_regtype(ext OPERATOR(pg_catalog.||) '.prefixed_id')::pg_catalog.oid,
              pg_catalog.to_regproc(ext OPERATOR(pg_catalog.||) '.prefixed_id_prefix')::pg_catalog.text,
              pg_catalog.to_regtype(ext OPERATOR(pg_catalog.||) '.typeid')::pg_catalog.oid,
              pg_catalog.to_regproc(ext OPERATOR(pg_catalog.||) '.typeid_prefix')::pg_catalog.text;
    IF live THEN
        RAISE EXCEPTION 'prefix "%" is already used by type %', prefix, taken_by
            USING ERRCODE = 'duplicate_object',
                  HINT = 'Each prefix names one entity; choose another prefix.';
    ELSIF taken_by IS NOT NULL THEN
        EXECUTE pg_catalog.format('DELETE FROM %s.prefixed_id_registry r WHERE r.prefix OPERATOR(pg_catalog.=) $1', ext)
            USING prefix;
    END IF;
    IF type_schema IS NULL THEN
        RAISE EXCEPTION 'no schema has been selected to create type "%" in', type_name
            USING ERRCODE = 'invalid_schema_name',
                  HINT = 'Set search_path to the schema the type belongs in, or name it in type_schema.';
    END IF;
    EXECUTE pg_catalog.format(
        'CREATE DOMAIN %I.%I AS %s.prefixed_id '
        'DEFAULT %s.%I(%L) '
        'CONSTRAINT %I CHECK (%s.prefixed_id_prefix(VALUE) OPERATOR(pg_catalog.=) %L)',
        type_schema, type_name, ext, ext, CASE WHEN token THEN 'prefixed_id_token' ELSE 'prefixed_id_new' END, prefix,
        type_name OPERATOR(pg_catalog.||) '_prefix', ext, prefix);
    created := pg_catalog.to_regtype(pg_catalog.format('%I.%I', type_schema, type_name));
    EXECUTE pg_catalog.format('COMMENT ON DOMAIN %s IS %L', created,
        pg_catalog.format('%s with the prefix "%s" (a domain over prefixed_id made by prefixed_id_define; the prefix is in prefixed_id_registry)',
                          CASE WHEN token THEN 'prefixed tokens' ELSE 'ordered prefixed IDs' END, prefix));
    -- a row holding the new type's OID named a vanished type whose OID was reused
    EXECUTE pg_catalog.format('SELECT r.type FROM %s.prefixed_id_registry r WHERE r.type OPERATOR(pg_catalog.=) $1', ext)
        INTO taken_by USING created;
    IF taken_by IS NOT NULL THEN
        EXECUTE pg_catalog.format('DELETE FROM %s.prefixed_id_registry r WHERE r.type OPERATOR(pg_catalog.=) $1', ext)
            USING created;
    END IF;
    EXECUTE pg_catalog.format('INSERT INTO %s.prefixed_id_registry (prefix, type, token) VALUES ($1, $2, $3)', ext)
        USING prefix, created, token;
    RETURN created;
END
$$;
CREATE OR REPLACE FUNCTION typeid_define(type_name text, prefix text,
                              type_schema name DEFAULT pg_catalog.current_schema())
    RETURNS regtype
    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext text;
    taken_by pg_catalog.regtype;
    live boolean;
    created pg_catalog.regtype;
BEGIN
    IF type_name IS NULL OR prefix IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT pg_catalog.quote_ident(n.nspname) INTO ext
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';
    -- the prefix (22023): what typeid's generators accept, and not empty
    IF prefix OPERATOR(pg_catalog.=) '' THEN
        RAISE EXCEPTION 'invalid prefix for typeid_define: ""'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'The prefix is empty; a type defined for an entity needs one.';
    ELSIF prefix OPERATOR(pg_catalog.!~) '^[a-z]([a-z_]{0,61}[a-z])?$' THEN
        RAISE EXCEPTION 'invalid prefix for typeid_define: "%"', prefix
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A prefix is 1 to 63 lowercase letters a-z and underscores, starting and ending with a letter.',
                  HINT = 'Use lowercase letters and underscores, such as "acct" or "user_session".';
    END IF;
    -- the registered type, and whether it is live: a domain over prefixed_id
    -- (or typeid) with a CHECK that reads as prefixed_id_prefix(VALUE) (or
    -- typeid_prefix(VALUE)) = <its prefix> (the function's name shown as
    -- pg_get_constraintdef shows it here)
    EXECUTE pg_catalog.format(
        'SELECT r.type, EXISTS (SELECT FROM pg_catalog.pg_type t JOIN pg_catalog.pg_constraint c '
        'ON c.contypid OPERATOR(pg_catalog.=) t.oid WHERE t.oid OPERATOR(pg_catalog.=) r.type::pg_catalog.oid '
        'AND t.typtype OPERATOR(pg_catalog.=) ''d'' AND c.contype OPERATOR(pg_catalog.=) ''c'' '
        'AND ((t.typbasetype OPERATOR(pg_catalog.=) $2 AND pg_catalog.pg_get_constraintdef(c.oid) OPERATOR(pg_catalog.=) '
        'pg_catalog.format(''CHECK ((%%s(VALUE) = %%L::text))'', $3, r.prefix)) '
        'OR (t.typbasetype OPERATOR(pg_catalog.=) $4 AND pg_catalog.pg_get_constraintdef(c.oid) OPERATOR(pg_catalog.=) '
        'pg_catalog.format(''CHECK ((%%s(VALUE) = %%L::text))'', $5, r.prefix)))) '
        'FROM %s.prefixed_id_registry r WHERE r.prefix OPERATOR(pg_catalog.=) $1', ext)
        INTO taken_by, live
        USING prefix, pg_catalog.to_regtype(ext OPERATOR(pg_catalog.||) '.prefixed_id')::pg_catalog.oid,
              pg_catalog.to_regproc(ext OPERATOR(pg_catalog.||) '.prefixed_id_prefix')::pg_catalog.text,
              pg_catalog.to_regtype(ext OPERATOR(pg_catalog.||) '.typeid')::pg_catalog.oid,
              pg_catalog.to_regproc(ext OPERATOR(pg_catalog.||) '.typeid_prefix')::pg_catalog.text;
    IF live THEN
        RAISE EXCEPTION 'prefix "%" is already used by type %', prefix, taken_by
            USING ERRCODE = 'duplicate_object',
                  HINT = 'Each prefix names one entity; choose another prefix.';
    ELSIF taken_by IS NOT NULL THEN
        EXECUTE pg_catalog.format('DELETE FROM %s.prefixed_id_registry r WHERE r.prefix OPERATOR(pg_catalog.=) $1', ext)
            USING prefix;
    END IF;
    IF type_schema IS NULL THEN
        RAISE EXCEPTION 'no schema has been selected to create type "%" in', type_name
            USING ERRCODE = 'invalid_schema_name',
                  HINT = 'Set search_path to the schema the type belongs in, or name it in type_schema.';
    END IF;
    EXECUTE pg_catalog.format(
        'CREATE DOMAIN %I.%I AS %s.typeid '
        'DEFAULT %s.%I(%L) '
        'CONSTRAINT %I CHECK (%s.typeid_prefix(VALUE) OPERATOR(pg_catalog.=) %L)',
        type_schema, type_name, ext, ext, 'typeid_new', prefix,
        type_name OPERATOR(pg_catalog.||) '_prefix', ext, prefix);
    created := pg_catalog.to_regtype(pg_catalog.format('%I.%I', type_schema, type_name));
    EXECUTE pg_catalog.format('COMMENT ON DOMAIN %s IS %L', created,
        pg_catalog.format('%s with the prefix "%s" (a domain over typeid made by typeid_define; the prefix is in prefixed_id_registry)',
                          'TypeIDs', prefix));
    -- a row holding the new type's OID named a vanished type whose OID was reused
    EXECUTE pg_catalog.format('SELECT r.type FROM %s.prefixed_id_registry r WHERE r.type OPERATOR(pg_catalog.=) $1', ext)
        INTO taken_by USING created;
    IF taken_by IS NOT NULL THEN
        EXECUTE pg_catalog.format('DELETE FROM %s.prefixed_id_registry r WHERE r.type OPERATOR(pg_catalog.=) $1', ext)
            USING created;
    END IF;
    EXECUTE pg_catalog.format('INSERT INTO %s.prefixed_id_registry (prefix, type, token) VALUES ($1, $2, $3)', ext)
        USING prefix, created, false;
    RETURN created;
END
$$;
COMMENT ON FUNCTION typeid_define(text, text, name) IS
    'creates a domain over typeid (in type_schema, by default the current schema) that accepts only the given prefix and defaults to typeid_new(prefix), and records the prefix in prefixed_id_registry, shared with prefixed_id_define';
DROP FUNCTION prefixed_domain_define(text, text, text, boolean, name);

-- prefixed_id_type: 22P02 for text that is no ID
CREATE OR REPLACE FUNCTION prefixed_id_type(id text) RETURNS regtype
    LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    id_prefix text := pg_catalog.substring(id, '^(.*)_[^_]*$');
    ext text;
    found_type pg_catalog.regtype;
    live boolean;
BEGIN
    -- text that is no prefixed ID or TypeID at all (22P02): a prefix, "_" and a body
    IF id_prefix IS NULL OR id_prefix OPERATOR(pg_catalog.!~) '^[a-z]([a-z_]{0,61}[a-z])?$'
       OR id OPERATOR(pg_catalog.~) '_$' THEN
        RAISE EXCEPTION 'invalid input syntax for a prefixed ID: "%"', id
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = 'An ID of a defined type is a prefix (lowercase letters a-z and underscores, starting '
                           'and ending with a letter), "_" and the digits, such as acct_0jz3ahd1g8ok9sqxcgl8vu9zq.';
    END IF;
    SELECT pg_catalog.quote_ident(n.nspname) INTO ext
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';
    -- the registered type, and whether it is live: a domain over prefixed_id
    -- (or typeid) with a CHECK that reads as prefixed_id_prefix(VALUE) (or
    -- typeid_prefix(VALUE)) = <its prefix> (the function's name shown as
    -- pg_get_constraintdef shows it here)
    EXECUTE pg_catalog.format(
        'SELECT r.type, EXISTS (SELECT FROM pg_catalog.pg_type t JOIN pg_catalog.pg_constraint c '
        'ON c.contypid OPERATOR(pg_catalog.=) t.oid WHERE t.oid OPERATOR(pg_catalog.=) r.type::pg_catalog.oid '
        'AND t.typtype OPERATOR(pg_catalog.=) ''d'' AND c.contype OPERATOR(pg_catalog.=) ''c'' '
        'AND ((t.typbasetype OPERATOR(pg_catalog.=) $2 AND pg_catalog.pg_get_constraintdef(c.oid) OPERATOR(pg_catalog.=) '
        'pg_catalog.format(''CHECK ((%%s(VALUE) = %%L::text))'', $3, r.prefix)) '
        'OR (t.typbasetype OPERATOR(pg_catalog.=) $4 AND pg_catalog.pg_get_constraintdef(c.oid) OPERATOR(pg_catalog.=) '
        'pg_catalog.format(''CHECK ((%%s(VALUE) = %%L::text))'', $5, r.prefix)))) '
        'FROM %s.prefixed_id_registry r WHERE r.prefix OPERATOR(pg_catalog.=) $1', ext)
        INTO found_type, live
        USING id_prefix, pg_catalog.to_regtype(ext OPERATOR(pg_catalog.||) '.prefixed_id')::pg_catalog.oid,
              pg_catalog.to_regproc(ext OPERATOR(pg_catalog.||) '.prefixed_id_prefix')::pg_catalog.text,
              pg_catalog.to_regtype(ext OPERATOR(pg_catalog.||) '.typeid')::pg_catalog.oid,
              pg_catalog.to_regproc(ext OPERATOR(pg_catalog.||) '.typeid_prefix')::pg_catalog.text;
    IF found_type IS NULL THEN
        RAISE EXCEPTION 'no prefixed ID type has the prefix "%"', id_prefix
            USING ERRCODE = 'undefined_object',
                  DETAIL = pg_catalog.format('The ID was %L.', id),
                  HINT = 'Types and their prefixes are listed in prefixed_id_registry.';
    ELSIF NOT live THEN
        RAISE EXCEPTION 'no prefixed ID type has the prefix "%"', id_prefix
            USING ERRCODE = 'undefined_object',
                  DETAIL = pg_catalog.format('The ID was %L. The type registered for "%s" (OID %s) no longer exists '
                                             'or no longer checks this prefix, as happens to a type in pg_temp when '
                                             'its session ends.', id, id_prefix, found_type::pg_catalog.oid),
                  HINT = 'prefixed_id_define() frees the prefix for a new type.';
    END IF;
    RETURN found_type;
END
$$;

-- Domains defined before 0.6.0 get the comment the define functions now give;
-- one this role may not comment on keeps none (the update goes on).
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT g.prefix, g.type, g.token, t.typbasetype::pg_catalog.regtype::pg_catalog.text AS base
             FROM @extschema@.prefixed_id_registry g JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) g.type::pg_catalog.oid
             WHERE pg_catalog.obj_description(g.type::pg_catalog.oid, 'pg_type') IS NULL LOOP
        BEGIN
            EXECUTE pg_catalog.format('COMMENT ON DOMAIN %s IS %L', r.type,
                pg_catalog.format('%s with the prefix "%s" (a domain over %s made by %s; the prefix is in prefixed_id_registry)',
                                  CASE WHEN r.base OPERATOR(pg_catalog.~) 'typeid$' THEN 'TypeIDs'
                                       WHEN r.token THEN 'prefixed tokens' ELSE 'ordered prefixed IDs' END,
                                  r.prefix,
                                  pg_catalog.regexp_replace(r.base, '^.*\.', ''),
                                  CASE WHEN r.base OPERATOR(pg_catalog.~) 'typeid$' THEN 'typeid_define'
                                       ELSE 'prefixed_id_define' END));
        EXCEPTION WHEN insufficient_privilege THEN
            NULL;
        END;
    END LOOP;
END
$$;
