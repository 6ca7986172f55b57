-- ============================================================================
-- snowflake layouts: decoding, composing and boundaries of 64-bit IDs in the
-- predefined layouts, and the check of a layout of one's own
-- ============================================================================
-- The predefined layouts, from the C++ edition's src/core/snowflake_layout.cpp
-- (fields from the most significant bit, name:width):
{{SNOWFLAKE_LAYOUT_TABLE}}
-- instagram's epoch is the C++ edition's default idgen.snowflake_epoch, fixed
-- here as snowflake()'s is.
--
-- Not here: snowflake_layout_define(), its table snowflake_layouts and
-- snowflake_layout_new(), as the other per-entity functions and the layout
-- mints' shared memory are the C++ edition's (docs/managed-postgresql.md).
-- snowflake_layout_check() is: a layout can be checked before a C++ server
-- defines it. The errors are the C++ edition's, SQLSTATE, message, detail
-- and hint (test/data/sql_edition_refusals.tsv), but for an unknown layout's
-- hint, which names no snowflake_layout_define() here.
--
-- A layout travels as two arrays: {epoch Unix ms, unit ms, end Unix ms, width
-- of each field} and the field names, NULL for a name that is no predefined layout.

CREATE FUNCTION idgen_sql_snowflake_layout_numbers(layout text) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE {{SNOWFLAKE_LAYOUT_NUMBERS}} END;
COMMENT ON FUNCTION idgen_sql_snowflake_layout_numbers(text) IS
    'internal (SQL edition): {epoch Unix ms, unit ms, end Unix ms, field widths} of a predefined snowflake layout, NULL for another name';

CREATE FUNCTION idgen_sql_snowflake_layout_names(layout text) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE {{SNOWFLAKE_LAYOUT_NAMES}} END;
COMMENT ON FUNCTION idgen_sql_snowflake_layout_names(text) IS
    'internal (SQL edition): the field names of a predefined snowflake layout, from the most significant bit, NULL for another name';

-- The first Unix millisecond the layout's time field cannot hold (generate.py's
-- epoch + unit * 2^(its width, less the sign bit in a 64-bit layout)); 42704
-- for a name that is no layout.
CREATE FUNCTION idgen_sql_snowflake_layout_end_ms(layout text, nums bigint[]) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
BEGIN
    {{SNOWFLAKE_LAYOUT_UNKNOWN}}
    RETURN nums[3];
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_layout_end_ms(text, bigint[]) IS
    'internal (SQL edition): the Unix ms at which a snowflake layout''s time field runs out (42704 for no layout)';

-- An ID's field values, in the layout's order: 42704 for a name that is no
-- layout, 22003 for a negative ID. Every predefined layout is 63 or 64 bits
-- wide (generate.py checks), so no bigint is above one.
CREATE FUNCTION idgen_sql_snowflake_layout_values(id bigint, layout text, nums bigint[], names text[]) RETURNS bigint[]
    LANGUAGE plpgsql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    n integer;
    shift integer := 0;
    width integer;
    i integer;
    vals bigint[];
BEGIN
    {{SNOWFLAKE_LAYOUT_UNKNOWN}}
    n := pg_catalog.cardinality(names);
    IF id OPERATOR(pg_catalog.<) 0 THEN
        RAISE EXCEPTION 'snowflake id % is negative', id
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = 'No layout gives a negative id; a discord id after 2084-09-06 would need the sign bit of a bigint.';
    END IF;
    vals := pg_catalog.array_fill(0::bigint, ARRAY[n]);
    FOR i IN REVERSE n..1 LOOP
        width := nums[i OPERATOR(pg_catalog.+) 3]::integer;
        vals[i] := (id OPERATOR(pg_catalog.>>) shift)
                   OPERATOR(pg_catalog.&) ((1::bigint OPERATOR(pg_catalog.<<) width) OPERATOR(pg_catalog.-) 1);
        shift := shift OPERATOR(pg_catalog.+) width;
    END LOOP;
    RETURN vals;
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_layout_values(bigint, text, bigint[], text[]) IS
    'internal (SQL edition): the field values of a snowflake ID in a layout (42704, 22003)';

-- The Unix ms of an ID's time field: epoch + time * unit.
CREATE FUNCTION idgen_sql_snowflake_layout_unix_ms(nums bigint[], names text[], vals bigint[]) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN nums[1] + vals[pg_catalog.array_position(names, 'time')] * nums[2];
COMMENT ON FUNCTION idgen_sql_snowflake_layout_unix_ms(bigint[], text[], bigint[]) IS
    'internal (SQL edition): the Unix ms of a snowflake ID''s time field in a layout';

-- The decomposition: each field by name, unix_ms and the timestamp's UTC text.
CREATE FUNCTION idgen_sql_snowflake_layout_json(nums bigint[], names text[], vals bigint[]) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    unix_ms bigint := nums[1] OPERATOR(pg_catalog.+)
                      (vals[pg_catalog.array_position(names, 'time')] OPERATOR(pg_catalog.*) nums[2]);
    fields pg_catalog.jsonb := pg_catalog.jsonb_build_object();
    i integer;
BEGIN
    FOR i IN 1..pg_catalog.cardinality(names) LOOP
        fields := fields OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(names[i], vals[i]);
    END LOOP;
    RETURN fields OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(
        'unix_ms', unix_ms,
        'timestamp', {{LAYOUT_MS_ISO:unix_ms}});
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_layout_json(bigint[], text[], bigint[]) IS
    'internal (SQL edition): the jsonb decomposition of a snowflake ID''s field values';

-- The position of a field to read: 42704 for a name that is no layout or a
-- field the layout has not.
CREATE FUNCTION idgen_sql_snowflake_layout_field_index(layout text, field text, nums bigint[], names text[]) RETURNS integer
    LANGUAGE plpgsql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    i integer;
BEGIN
    {{SNOWFLAKE_LAYOUT_UNKNOWN}}
    i := pg_catalog.array_position(names, field);
    IF i IS NULL THEN
        RAISE EXCEPTION 'snowflake layout "%" has no field "%"', layout, field
            USING ERRCODE = 'undefined_object',
                  DETAIL = pg_catalog.format('Its fields are %s.', pg_catalog.array_to_string(names, ', '));
    END IF;
    RETURN i;
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_layout_field_index(text, text, bigint[], text[]) IS
    'internal (SQL edition): the position of a snowflake layout''s field (42704)';

CREATE FUNCTION idgen_sql_snowflake_layout_pick(i integer, vals bigint[]) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN vals[i];
COMMENT ON FUNCTION idgen_sql_snowflake_layout_pick(integer, bigint[]) IS
    'internal (SQL edition): the i-th of a snowflake ID''s field values';

-- The ID of the time unit holding ts and the node fields and sequence of a
-- jsonb object (missing ones 0), checked as the C++ edition checks them, in
-- its order: the layout (42704, raised by the end_ms argument, its caller's
-- idgen_sql_snowflake_layout_end_ms()), the time (22023 infinite, 22008
-- outside the layout), the object (22023), then each key in jsonb's order
-- (42704 for a field the layout has not or the time, 22023 for no integer,
-- 22003 out of range).
CREATE FUNCTION idgen_sql_snowflake_layout_compose(layout text, ts timestamptz, fields jsonb, nums bigint[], names text[],
                                                   end_ms bigint)
    RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    n integer := pg_catalog.cardinality(names);
    time_index integer := pg_catalog.array_position(names, 'time');
    epoch_ms bigint := nums[1];
    unix_ms bigint;
    vals bigint[];
    k pg_catalog.text;
    v pg_catalog.jsonb;
    i integer;
    value bigint;
    width integer;
    largest bigint;
    id bigint := 0;
    shift integer := 0;
BEGIN
    IF NOT pg_catalog.isfinite(ts) THEN
        RAISE EXCEPTION 'snowflake layout "%" cannot hold an infinite timestamp', layout
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    unix_ms := pg_catalog.floor(EXTRACT(epoch FROM ts) OPERATOR(pg_catalog.*) 1000)::bigint;
    IF unix_ms OPERATOR(pg_catalog.<) epoch_ms OR unix_ms OPERATOR(pg_catalog.>=) end_ms THEN
        RAISE EXCEPTION 'timestamp out of range for snowflake layout "%": "%"', layout, ts
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = pg_catalog.format('The layout holds times from %s+00 until before %s+00.',
                                             {{LAYOUT_MS_TEXT:epoch_ms}}, {{LAYOUT_MS_TEXT:end_ms}});
    END IF;
    vals := pg_catalog.array_fill(0::bigint, ARRAY[n]);
    vals[time_index] := (unix_ms OPERATOR(pg_catalog.-) epoch_ms) OPERATOR(pg_catalog./) nums[2];
    IF pg_catalog.jsonb_typeof(fields) OPERATOR(pg_catalog.<>) 'object' THEN
        RAISE EXCEPTION 'the fields of a snowflake id are a jsonb object'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'For example ''{"worker": 1, "sequence": 0}''.';
    END IF;
    FOR k, v IN SELECT e.key, e.value FROM pg_catalog.jsonb_each(fields) AS e LOOP
        i := pg_catalog.array_position(names, k);
        IF i IS NULL OR i OPERATOR(pg_catalog.=) time_index THEN
            RAISE EXCEPTION 'snowflake layout "%" has no field "%" to set', layout, k
                USING ERRCODE = 'undefined_object',
                      DETAIL = CASE WHEN i IS NULL THEN 'A key names a node field or the sequence.'
                                    ELSE 'The time field is set by the timestamp argument.' END;
        END IF;
        -- a jsonb number's text, as the C++ edition reads it: digits with an
        -- optional minus, no fraction or exponent, at most 18 digits
        IF pg_catalog.jsonb_typeof(v) OPERATOR(pg_catalog.<>) 'number'
           OR NOT (v::pg_catalog.text OPERATOR(pg_catalog.~) '^-?[0-9]{1,18}$') THEN
            RAISE EXCEPTION 'field "%" of a snowflake id is not an integer', k
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        value := v::pg_catalog.text::bigint;
        width := nums[i OPERATOR(pg_catalog.+) 3]::integer;
        largest := (1::bigint OPERATOR(pg_catalog.<<) width) OPERATOR(pg_catalog.-) 1;
        IF value OPERATOR(pg_catalog.<) 0 OR value OPERATOR(pg_catalog.>) largest THEN
            RAISE EXCEPTION 'field "%" of snowflake layout "%" is out of range: %', k, layout, value
                USING ERRCODE = 'numeric_value_out_of_range',
                      DETAIL = pg_catalog.format('Its %s bits hold 0 to %s.', width, largest);
        END IF;
        vals[i] := value;
    END LOOP;
    FOR i IN REVERSE n..1 LOOP
        id := id OPERATOR(pg_catalog.|) (vals[i] OPERATOR(pg_catalog.<<) shift);
        shift := shift OPERATOR(pg_catalog.+) nums[i OPERATOR(pg_catalog.+) 3]::integer;
    END LOOP;
    RETURN id;
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_layout_compose(text, timestamptz, jsonb, bigint[], text[], bigint) IS
    'internal (SQL edition): the snowflake ID of a layout for a time unit and fields, checked (42704, 22023, 22008, 22003)';

-- true, or the error that says why a layout is refused, in the C++ edition's
-- order (its layout_of() and layout_validate()).
CREATE FUNCTION idgen_sql_snowflake_layout_check(name text, epoch timestamptz, time_unit_ms integer,
                                                 field_names text[], field_bits integer[], at timestamptz,
                                                 predefined boolean)
    RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
AS $$
DECLARE
    epoch_us numeric;
    epoch_ms bigint;
    names pg_catalog.text[];
    bits integer[];
    n integer;
    i integer;
    j integer;
    total integer := 0;
    times integer := 0;
    sequences integer := 0;
    time_bits integer;
    end_ms bigint;
    at_ms bigint;
    reason pg_catalog.text;
BEGIN
    IF name IS NULL OR epoch IS NULL OR time_unit_ms IS NULL OR field_names IS NULL OR field_bits IS NULL THEN
        RETURN NULL;
    END IF;
    IF predefined THEN
        RAISE EXCEPTION 'snowflake layout "%" is predefined', name
            USING ERRCODE = 'duplicate_object',
                  HINT = 'Choose another name; the predefined layouts are {{SNOWFLAKE_LAYOUT_LIST}}.';
    END IF;
    IF NOT (name OPERATOR(pg_catalog.~) '^[a-z_][a-z0-9_]*$') OR pg_catalog.octet_length(name) OPERATOR(pg_catalog.>) {{LAYOUT_MAX_NAME}} THEN
        RAISE EXCEPTION 'invalid snowflake layout name "%"', name
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A layout name is 1 to {{LAYOUT_MAX_NAME}} characters: lowercase letters a-z, digits and underscores, not starting with a digit.';
    END IF;
    <<refused>>
    BEGIN
        IF NOT pg_catalog.isfinite(epoch) THEN
            reason := 'bad_epoch';
            EXIT refused;
        END IF;
        epoch_us := EXTRACT(epoch FROM epoch) OPERATOR(pg_catalog.*) 1000000;
        IF epoch_us OPERATOR(pg_catalog.%) 1000 OPERATOR(pg_catalog.<>) 0 THEN
            reason := 'bad_epoch';
            EXIT refused;
        END IF;
        epoch_ms := (epoch_us OPERATOR(pg_catalog./) 1000)::bigint;
        IF pg_catalog.array_ndims(field_names) OPERATOR(pg_catalog.>) 1 OR pg_catalog.array_ndims(field_bits) OPERATOR(pg_catalog.>) 1 THEN
            RAISE EXCEPTION 'field names and widths of a snowflake layout are one-dimensional arrays'
                USING ERRCODE = 'array_subscript_error';
        END IF;
        names := field_names[:];
        bits := field_bits[:];
        n := pg_catalog.cardinality(names);
        IF n OPERATOR(pg_catalog.<>) pg_catalog.cardinality(bits) THEN
            RAISE EXCEPTION 'invalid snowflake layout "%"', name
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = pg_catalog.format('%s field names and %s widths were given; each field has one of each.',
                                                 n, pg_catalog.cardinality(bits));
        END IF;
        IF n OPERATOR(pg_catalog.>) {{LAYOUT_MAX_FIELDS}} THEN
            reason := 'too_many_fields';
            EXIT refused;
        END IF;
        FOR i IN 1..n LOOP
            IF names[i] IS NULL OR bits[i] IS NULL THEN
                RAISE EXCEPTION 'invalid snowflake layout "%"', name
                    USING ERRCODE = 'null_value_not_allowed',
                          DETAIL = 'A field name or width is null.';
            END IF;
            IF pg_catalog.octet_length(names[i]) OPERATOR(pg_catalog.>) {{LAYOUT_MAX_NAME}} THEN
                reason := 'bad_name';
                EXIT refused;
            END IF;
            IF bits[i] OPERATOR(pg_catalog.<) 1 OR bits[i] OPERATOR(pg_catalog.>) 63 THEN
                reason := 'bad_width';
                EXIT refused;
            END IF;
            total := total OPERATOR(pg_catalog.+) bits[i];
            IF names[i] OPERATOR(pg_catalog.=) 'time' THEN
                times := times OPERATOR(pg_catalog.+) 1;
                time_bits := bits[i];
            ELSIF names[i] OPERATOR(pg_catalog.=) 'sequence' THEN
                sequences := sequences OPERATOR(pg_catalog.+) 1;
            END IF;
        END LOOP;
        FOR i IN 1..n LOOP
            IF NOT (names[i] OPERATOR(pg_catalog.~) '^[a-z_][a-z0-9_]*$') THEN
                reason := 'bad_name';
                EXIT refused;
            END IF;
            IF names[i] OPERATOR(pg_catalog.=) 'unix_ms' OR names[i] OPERATOR(pg_catalog.=) 'timestamp' THEN
                reason := 'reserved_name';
                EXIT refused;
            END IF;
            FOR j IN 1..i OPERATOR(pg_catalog.-) 1 LOOP
                IF names[j] OPERATOR(pg_catalog.=) names[i] THEN
                    reason := 'duplicate_name';
                    EXIT refused;
                END IF;
            END LOOP;
        END LOOP;
        IF times OPERATOR(pg_catalog.<>) 1 THEN
            reason := 'time';
            EXIT refused;
        END IF;
        IF sequences OPERATOR(pg_catalog.<>) 1 THEN
            reason := 'sequence';
            EXIT refused;
        END IF;
        IF total OPERATOR(pg_catalog.>) 63 THEN
            reason := 'too_wide';
            EXIT refused;
        END IF;
        IF time_unit_ms OPERATOR(pg_catalog.<) 1 OR time_unit_ms OPERATOR(pg_catalog.>) {{LAYOUT_MAX_UNIT_MS}} THEN
            reason := 'bad_unit';
            EXIT refused;
        END IF;
        IF epoch_ms OPERATOR(pg_catalog.<) 0 OR epoch_ms OPERATOR(pg_catalog.>=) {{LAYOUT_END_OF_TIME_MS}} THEN
            reason := 'bad_epoch';
            EXIT refused;
        END IF;
        -- epoch + unit * 2^bits must not pass the year 10000, computed without
        -- the product (which may overflow)
        IF time_bits OPERATOR(pg_catalog.>) 48
           OR (1::bigint OPERATOR(pg_catalog.<<) time_bits) OPERATOR(pg_catalog.>)
              (({{LAYOUT_END_OF_TIME_MS}} OPERATOR(pg_catalog.-) epoch_ms) OPERATOR(pg_catalog./) time_unit_ms) THEN
            reason := 'outlasts_year_9999';
            EXIT refused;
        END IF;
    END;
    IF reason IS NOT NULL THEN
        RAISE EXCEPTION 'invalid snowflake layout "%"', name
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = CASE
                      WHEN reason OPERATOR(pg_catalog.=) 'too_many_fields' THEN 'A layout has at most {{LAYOUT_MAX_FIELDS}} fields: time, sequence and up to {{LAYOUT_MAX_NODE_FIELDS}} node fields.'
                      WHEN reason OPERATOR(pg_catalog.=) 'bad_width' THEN 'Every field is 1 to 63 bits wide.'
                      WHEN reason OPERATOR(pg_catalog.=) 'too_wide' THEN 'The fields total more than 63 bits; the sign bit of a bigint is never set.'
                      WHEN reason OPERATOR(pg_catalog.=) 'time' THEN 'A layout has one field named "time".'
                      WHEN reason OPERATOR(pg_catalog.=) 'sequence' THEN 'A layout has one field named "sequence".'
                      WHEN reason OPERATOR(pg_catalog.=) 'bad_name' THEN 'A field name is 1 to {{LAYOUT_MAX_NAME}} characters: lowercase letters a-z, digits and underscores, not starting with a digit.'
                      WHEN reason OPERATOR(pg_catalog.=) 'duplicate_name' THEN 'Two fields have the same name.'
                      WHEN reason OPERATOR(pg_catalog.=) 'reserved_name' THEN '"unix_ms" and "timestamp" are reserved for the decomposition.'
                      WHEN reason OPERATOR(pg_catalog.=) 'bad_unit' THEN 'The time unit is 1 ms to {{LAYOUT_MAX_UNIT_MS}} ms (a day).'
                      WHEN reason OPERATOR(pg_catalog.=) 'bad_epoch' THEN 'The epoch is a whole millisecond from 1970-01-01 00:00:00 UTC, before the year 10000.'
                      ELSE 'The time field would hold times from the year 10000 on: give it fewer bits or a shorter unit.' END;
    END IF;
    IF at IS NOT NULL THEN
        at_ms := CASE WHEN pg_catalog.isfinite(at) THEN pg_catalog.floor(EXTRACT(epoch FROM at) OPERATOR(pg_catalog.*) 1000)::bigint ELSE 0 END;
        end_ms := epoch_ms OPERATOR(pg_catalog.+) (time_unit_ms::bigint OPERATOR(pg_catalog.*) (1::bigint OPERATOR(pg_catalog.<<) time_bits));
        IF at_ms OPERATOR(pg_catalog.>=) end_ms THEN
            RAISE EXCEPTION 'snowflake layout "%" ran out at %+00', name,
                {{LAYOUT_MS_TEXT:end_ms}}
                USING ERRCODE = 'datetime_field_overflow',
                      DETAIL = pg_catalog.format('Its %s-bit time field of %s ms units from %s+00 holds times before %s+00 only.',
                          time_bits, time_unit_ms,
                          {{LAYOUT_MS_TEXT:epoch_ms}},
                          {{LAYOUT_MS_TEXT:end_ms}}),
                      HINT = 'Give the time field more bits, a longer unit or a later epoch.';
        END IF;
    END IF;
    RETURN true;
END
$$;
COMMENT ON FUNCTION idgen_sql_snowflake_layout_check(text, timestamptz, integer, text[], integer[], timestamptz, boolean) IS
    'internal (SQL edition): true, or the error that says why a snowflake layout is refused';

-- the functions ---------------------------------------------------------------

-- IMMUTABLE and not STRICT, as the C++ edition's (the CHECK of its table calls it without at).
CREATE FUNCTION snowflake_layout_check(name text, epoch timestamptz, time_unit_ms integer,
                                       field_names text[], field_bits integer[],
                                       at timestamptz DEFAULT NULL)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE
    RETURN idgen_sql_snowflake_layout_check(name, epoch, time_unit_ms, field_names, field_bits, at,
                                            idgen_sql_snowflake_layout_numbers(name) IS NOT NULL);
COMMENT ON FUNCTION snowflake_layout_check(text, timestamptz, integer, text[], integer[], timestamptz) IS
    'true when the layout is valid (fields from the most significant bit, "time" and "sequence" once each, at most 63 bits), else the error saying why; with at, also refused when its time field had run out by then';

-- STABLE, as the C++ edition's, whose instagram follows idgen.snowflake_epoch
-- and whose defined layouts are rows of a table.
CREATE FUNCTION snowflake_layout_decompose(id bigint, layout text) RETURNS jsonb
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_snowflake_layout_json(idgen_sql_snowflake_layout_numbers(layout), idgen_sql_snowflake_layout_names(layout),
                                           idgen_sql_snowflake_layout_values(id, layout, idgen_sql_snowflake_layout_numbers(layout),
                                                                             idgen_sql_snowflake_layout_names(layout)));
COMMENT ON FUNCTION snowflake_layout_decompose(bigint, text) IS
    'the fields of a snowflake ID in the named layout, with its time as unix_ms and timestamp, as jsonb';

CREATE FUNCTION snowflake_layout_time(id bigint, layout text) RETURNS timestamptz
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_time_of_ms(idgen_sql_snowflake_layout_unix_ms(
        idgen_sql_snowflake_layout_numbers(layout), idgen_sql_snowflake_layout_names(layout),
        idgen_sql_snowflake_layout_values(id, layout, idgen_sql_snowflake_layout_numbers(layout), idgen_sql_snowflake_layout_names(layout))));
COMMENT ON FUNCTION snowflake_layout_time(bigint, text) IS
    'start of the time unit in which a snowflake ID of the named layout was made';

CREATE FUNCTION snowflake_layout_field(id bigint, layout text, field text) RETURNS bigint
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_snowflake_layout_pick(
        idgen_sql_snowflake_layout_field_index(layout, field, idgen_sql_snowflake_layout_numbers(layout), idgen_sql_snowflake_layout_names(layout)),
        idgen_sql_snowflake_layout_values(id, layout, idgen_sql_snowflake_layout_numbers(layout), idgen_sql_snowflake_layout_names(layout)));
COMMENT ON FUNCTION snowflake_layout_field(bigint, text, text) IS
    'one field of a snowflake ID in the named layout ("time" gives the raw count of units)';

CREATE FUNCTION snowflake_layout_compose(layout text, ts timestamptz, fields jsonb DEFAULT '{}')
    RETURNS bigint
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_snowflake_layout_compose(layout, ts, fields, idgen_sql_snowflake_layout_numbers(layout),
                                              idgen_sql_snowflake_layout_names(layout),
                                              idgen_sql_snowflake_layout_end_ms(layout, idgen_sql_snowflake_layout_numbers(layout)));
COMMENT ON FUNCTION snowflake_layout_compose(text, timestamptz, jsonb) IS
    'the snowflake ID of the named layout for the time unit holding ts and the node fields and sequence given (missing ones 0), for backfills and tests';

CREATE FUNCTION snowflake_layout_boundary(layout text, ts timestamptz) RETURNS bigint
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_snowflake_layout_compose(layout, ts, '{}'::jsonb, idgen_sql_snowflake_layout_numbers(layout),
                                              idgen_sql_snowflake_layout_names(layout),
                                              idgen_sql_snowflake_layout_end_ms(layout, idgen_sql_snowflake_layout_numbers(layout)));
COMMENT ON FUNCTION snowflake_layout_boundary(text, timestamptz) IS
    'smallest snowflake ID of the named layout in the time unit holding ts, for range predicates';

CREATE FUNCTION snowflake_layout_end(layout text) RETURNS timestamptz
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN idgen_sql_time_of_ms(idgen_sql_snowflake_layout_end_ms(layout, idgen_sql_snowflake_layout_numbers(layout)));
COMMENT ON FUNCTION snowflake_layout_end(text) IS
    'first instant the named layout''s time field cannot hold (epoch + unit * 2^time bits)';
