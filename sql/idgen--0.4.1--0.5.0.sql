-- idgen 0.4.1 -> 0.5.0: hardening (issue 14).
--
-- Library behaviour changes that need no SQL object change (the new library
-- brings them, with or without this script):
--   * prefixed_id binary format (send/recv, binary COPY, binary protocol
--     parameters and results): a byte holding the prefix's length now comes
--     before the prefix and the 16 bytes, and recv refuses any field that does
--     not frame exactly. Clients that read or write the old binary layout must
--     be updated; the stored form on disk and the text form are unchanged.
--   * prefixed_id_token() mints the UUIDv4 layout (122 random bits, version 4,
--     RFC variant); tokens minted before keep their bits.
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

-- Generators with per-session sequences run in the leader only: a parallel
-- worker would mint from a fresh sequence of its own, out of the session's order.
ALTER FUNCTION uuid_v7() PARALLEL RESTRICTED;
ALTER FUNCTION uuid_v7(interval) PARALLEL RESTRICTED;
ALTER FUNCTION ulid() PARALLEL RESTRICTED;
ALTER FUNCTION prefixed_id_new(text) PARALLEL RESTRICTED;

-- prefixed IDs (issue 14, defects 3, 4, 7 and 8) ------------------------------
-- The registry's plpgsql functions find the extension's schema at run time
-- (a renamed schema broke every DROP in the database), run with a fixed
-- search_path and qualify every function and operator; prefixed_id_define
-- gains type_schema (its default, the caller's current schema, is evaluated
-- before the SET search_path applies) and frees registry rows whose type is
-- gone; prefixed_id_type ignores them; the dump of the registry leaves them
-- out, with the rows of temporary types. Comments follow the binary format and
-- token layout changes above.

DROP FUNCTION prefixed_id_define(text, text, boolean);
CREATE FUNCTION prefixed_id_define(type_name text, prefix text, token boolean DEFAULT false,
                                   type_schema name DEFAULT pg_catalog.current_schema())
    RETURNS regtype
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
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
    -- checks the prefix (22023) as the generators do
    EXECUTE pg_catalog.format('SELECT %s.prefixed_id_from_uuid($1, %L)', ext, '00000000-0000-0000-0000-000000000000')
        USING prefix;
    -- the registered type, and whether it is live: a domain over prefixed_id with
    -- a CHECK that reads as prefixed_id_prefix(VALUE) = <its prefix> (the
    -- function's name shown as pg_get_constraintdef shows it here)
    EXECUTE pg_catalog.format(
        'SELECT r.type, EXISTS (SELECT FROM pg_catalog.pg_type t JOIN pg_catalog.pg_constraint c '
        'ON c.contypid OPERATOR(pg_catalog.=) t.oid WHERE t.oid OPERATOR(pg_catalog.=) r.type::pg_catalog.oid '
        'AND t.typtype OPERATOR(pg_catalog.=) ''d'' AND t.typbasetype OPERATOR(pg_catalog.=) $2 '
        'AND c.contype OPERATOR(pg_catalog.=) ''c'' AND pg_catalog.pg_get_constraintdef(c.oid) OPERATOR(pg_catalog.=) '
        'pg_catalog.format(''CHECK ((%%s(VALUE) = %%L::text))'', $3, r.prefix)) '
        'FROM %s.prefixed_id_registry r WHERE r.prefix OPERATOR(pg_catalog.=) $1', ext)
        INTO taken_by, live
        USING prefix, pg_catalog.to_regtype(ext OPERATOR(pg_catalog.||) '.prefixed_id')::pg_catalog.oid,
              pg_catalog.to_regproc(ext OPERATOR(pg_catalog.||) '.prefixed_id_prefix')::pg_catalog.text;
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
        type_schema, type_name, ext, ext,
        CASE WHEN token THEN 'prefixed_id_token' ELSE 'prefixed_id_new' END, prefix,
        type_name OPERATOR(pg_catalog.||) '_prefix', ext, prefix);
    created := pg_catalog.to_regtype(pg_catalog.format('%I.%I', type_schema, type_name));
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

CREATE OR REPLACE FUNCTION prefixed_id_forget_dropped_types() RETURNS event_trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    registry pg_catalog.regclass;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_event_trigger_dropped_objects() d
                   WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass) THEN
        RETURN;
    END IF;
    SELECT c.oid INTO registry
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'idgen' AND c.relname OPERATOR(pg_catalog.=) 'prefixed_id_registry';
    IF registry IS NULL THEN
        RETURN;
    END IF;
    BEGIN
        EXECUTE pg_catalog.format(
            'DELETE FROM %s r USING pg_catalog.pg_event_trigger_dropped_objects() d '
            'WHERE d.classid OPERATOR(pg_catalog.=) ''pg_catalog.pg_type''::pg_catalog.regclass '
            'AND d.objid OPERATOR(pg_catalog.=) r.type::pg_catalog.oid', registry);
    EXCEPTION WHEN OTHERS THEN
        RAISE WARNING 'could not update prefixed_id_registry for the dropped objects: %', SQLERRM
            USING DETAIL = 'The prefixes of the dropped types stay registered.',
                  HINT = 'prefixed_id_type() ignores a prefix whose type is gone, and prefixed_id_define() frees it.';
    END;
END
$$;
COMMENT ON FUNCTION prefixed_id_forget_dropped_types() IS
    'event trigger function: removes the registry rows of dropped prefixed ID types';

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
    SELECT pg_catalog.quote_ident(n.nspname) INTO ext
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'idgen';
    -- the registered type, and whether it is live: a domain over prefixed_id with
    -- a CHECK that reads as prefixed_id_prefix(VALUE) = <its prefix> (the
    -- function's name shown as pg_get_constraintdef shows it here)
    EXECUTE pg_catalog.format(
        'SELECT r.type, EXISTS (SELECT FROM pg_catalog.pg_type t JOIN pg_catalog.pg_constraint c '
        'ON c.contypid OPERATOR(pg_catalog.=) t.oid WHERE t.oid OPERATOR(pg_catalog.=) r.type::pg_catalog.oid '
        'AND t.typtype OPERATOR(pg_catalog.=) ''d'' AND t.typbasetype OPERATOR(pg_catalog.=) $2 '
        'AND c.contype OPERATOR(pg_catalog.=) ''c'' AND pg_catalog.pg_get_constraintdef(c.oid) OPERATOR(pg_catalog.=) '
        'pg_catalog.format(''CHECK ((%%s(VALUE) = %%L::text))'', $3, r.prefix)) '
        'FROM %s.prefixed_id_registry r WHERE r.prefix OPERATOR(pg_catalog.=) $1', ext)
        INTO found_type, live
        USING id_prefix, pg_catalog.to_regtype(ext OPERATOR(pg_catalog.||) '.prefixed_id')::pg_catalog.oid,
              pg_catalog.to_regproc(ext OPERATOR(pg_catalog.||) '.prefixed_id_prefix')::pg_catalog.text;
    IF found_type IS NULL THEN
        RAISE EXCEPTION 'no prefixed ID type has the prefix "%"', coalesce(id_prefix, '')
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
COMMENT ON FUNCTION prefixed_id_type(text) IS
    'the type registered for the prefix of an ID string, such as account_id for acct_..., while that type exists and checks the prefix';

SELECT pg_catalog.pg_extension_config_dump('prefixed_id_registry',
    'WHERE EXISTS (SELECT FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) t.typnamespace '
    'WHERE t.oid OPERATOR(pg_catalog.=) prefixed_id_registry.type::pg_catalog.oid '
    'AND n.nspname OPERATOR(pg_catalog.!~) ''^pg_(toast_)?temp_'')');

COMMENT ON FUNCTION prefixed_id_recv(internal) IS
    'prefixed_id binary input: the prefix''s length in one byte (1 to 63), the prefix characters, then the 16 payload bytes, exactly';
COMMENT ON FUNCTION prefixed_id_send(prefixed_id) IS
    'prefixed_id binary output: the prefix''s length in one byte, the prefix characters, then the 16 payload bytes';
COMMENT ON FUNCTION prefixed_id_token(text) IS
    'new prefixed token: 122 CSPRNG bits in the UUIDv4 layout, for share links, session and reset tokens that must not be guessable';
COMMENT ON FUNCTION prefixed_id_time(prefixed_id) IS
    'millisecond of an ordered prefixed ID (its bits are a UUIDv7); NULL when the bits lack UUIDv7''s version and variant, as for every token from idgen 0.5.0 on (version 4)';
COMMENT ON FUNCTION prefixed_id_define(text, text, boolean, name) IS
    'creates a domain over prefixed_id (in type_schema, by default the current schema) that accepts only the given prefix and defaults to a new ID (or token) of it, and records the prefix in prefixed_id_registry';
