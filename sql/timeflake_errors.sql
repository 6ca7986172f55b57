-- Timeflake: every error, with its SQLSTATE
\set VERBOSITY default
SET TimeZone = 'UTC';

-- instants before 1970 or after the last 48-bit millisecond: 22008
SELECT timeflake_at('1969-12-31 23:59:59.999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT timeflake_at('10889-08-02 05:31:50.656+00');
\echo :LAST_ERROR_SQLSTATE
SELECT timeflake_boundary('1969-12-31 23:59:59.999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT timeflake_boundary('10889-08-02 05:31:50.656+00');
\echo :LAST_ERROR_SQLSTATE

-- infinite instants: 22023
SELECT timeflake_at('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT timeflake_at('-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT timeflake_boundary('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT timeflake_boundary('-infinity');
\echo :LAST_ERROR_SQLSTATE

-- base62 text that is no uuid: uuid_decode's own 22P02 (short_text_errors has them all)
SELECT uuid_decode('02i2XhN7hAuaFh3MwztcM', 'base62');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_decode('zzzzzzzzzzzzzzzzzzzzzz', 'base62');
\echo :LAST_ERROR_SQLSTATE
