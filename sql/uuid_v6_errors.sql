-- uuid_v6 family (UUIDv6 and UUIDv8 on core uuid): every error, with its SQLSTATE
SET TimeZone = 'UTC';
\set VERBOSITY default

-- before 1582-10-15 and after the last 60-bit tick: 22008
SELECT uuid_v6_at('1582-10-14 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v6_at('5236-03-31 21:21:00.684698+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v6_boundary('1000-01-01+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v6_boundary('6000-01-01+00');
\echo :LAST_ERROR_SQLSTATE

-- infinite timestamps: 22023
SELECT uuid_v6_at('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v6_boundary('-infinity');
\echo :LAST_ERROR_SQLSTATE

-- reordering a UUID of another version, or of another variant: 22023
SELECT uuid_v6_from_v1('1ec9414c-232a-6b00-b3c8-9f6bdeced846');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v6_from_v1('919108f7-52d1-4320-9bac-f847db4148a8');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v6_from_v1('c232ab00-9414-11ec-33c8-9f6bdeced846');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v1_from_v6('c232ab00-9414-11ec-b3c8-9f6bdeced846');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v1_from_v6('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v1_from_v6('1ec9414c-232a-6b00-f3c8-9f6bdeced846');
\echo :LAST_ERROR_SQLSTATE

-- uuid_v8 takes exactly 16 bytes: 22P03, as idgen's bytea casts (and a hint
-- for a SHA-256 digest's 32)
SELECT uuid_v8('\x0102');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v8('');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v8('\x000102030405060708090a0b0c0d0e0f10');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_v8(sha256('x'));
\echo :LAST_ERROR_SQLSTATE

-- the setting takes only its listed values: 22023
SET idgen.uuid_v6_order = 'global';
\echo :LAST_ERROR_SQLSTATE
