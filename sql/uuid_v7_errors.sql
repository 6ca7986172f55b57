-- uuid_v7 family: every error, with its SQLSTATE
SET TimeZone = 'UTC';
\set VERBOSITY default

-- before 1970 and after the last 48-bit millisecond: 22008
SELECT uuid_v7_at('1969-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_at('10889-08-02 05:31:50.656+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_boundary('1900-01-01+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_boundary('20000-01-01+00');
\echo :LAST_ERROR_SQLSTATE

-- infinite timestamps: 22023
SELECT uuid_v7_at('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_at('-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v7_boundary('infinity');
\echo :LAST_ERROR_SQLSTATE

-- a shift that leaves the range: 22008 (from idgen, or from timestamp arithmetic);
-- the message quotes the shifted time, which moves with the clock, so it is masked
CREATE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE query;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, '"[^"]*"', '"<shifted time>"');
END $$;
SELECT pg_temp.error_of($$SELECT uuid_v7(interval '-100 years')$$);
SELECT pg_temp.error_of($$SELECT uuid_v7(interval '9000 years')$$);
SELECT pg_temp.error_of($$SELECT uuid_v7(interval '300000 years')$$);
SELECT pg_temp.error_of($$SELECT uuid_v7(interval '-50 years')$$);

-- settings take only their listed values: 22023
SET idgen.uuid_v7_order = 'global';
\echo :LAST_ERROR_SQLSTATE
SET idgen.no_such_setting = 'x';
\echo :LAST_ERROR_SQLSTATE
