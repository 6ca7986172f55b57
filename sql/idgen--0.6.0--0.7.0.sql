-- idgen 0.6.0 -> 0.7.0 (issue 31): casts from text and varchar to ulid,
-- prefixed_id and typeid, by assignment, so that a driver's string parameter
-- (pgjdbc's setString sends varchar; others send text) can be stored in a
-- column of these types or of a domain over them. None is implicit
-- (sql/text_params.sql holds the evidence; docs/reference.md#casts).
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

CREATE CAST (text AS ulid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (text AS ulid) IS
    'the text read by ulid_in; an invalid one is an error (22P02)';

CREATE CAST (varchar AS ulid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (varchar AS ulid) IS
    'the text read by ulid_in; an invalid one is an error (22P02)';

CREATE CAST (text AS prefixed_id) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (text AS prefixed_id) IS
    'the text read by prefixed_id_in; an invalid one is an error (22P02)';

CREATE CAST (varchar AS prefixed_id) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (varchar AS prefixed_id) IS
    'the text read by prefixed_id_in; an invalid one is an error (22P02)';

CREATE CAST (text AS typeid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (text AS typeid) IS
    'the text read by typeid_in; an invalid one is an error (22P02)';

CREATE CAST (varchar AS typeid) WITH INOUT AS ASSIGNMENT;
COMMENT ON CAST (varchar AS typeid) IS
    'the text read by typeid_in; an invalid one is an error (22P02)';
