-- shard claims: idgen_shard_list, idgen_claim_shards and the trigger on
-- idgen_shard_claim that refuses a shard claimed by two servers
SET TimeZone = 'UTC';
\set VERBOSITY default
\set SHOW_CONTEXT never

-- shard lists in idgen.allowed_shards syntax: ascending, each shard once
SELECT * FROM idgen_shard_list('0-3, 100, 2, 8191');
SELECT * FROM idgen_shard_list(E' 7 -\t9 ');
SELECT count(*) FROM idgen_shard_list('0-8191');
SELECT count(*) FROM idgen_shard_list('');
SELECT count(*) FROM idgen_shard_list('   ');
SELECT count(*) FROM idgen_shard_list(NULL);

-- malformed lists: 22023 naming the item; a shard above 8191: 22003
SELECT idgen_shard_list('1,,2');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_shard_list('0-15,');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_shard_list('0-15, x');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_shard_list('5-');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_shard_list('-1');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_shard_list('1 2');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_shard_list('20-10');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_shard_list('0-8192');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_shard_list('100000000000000000000');
\echo :LAST_ERROR_SQLSTATE

-- the table, its trigger (fires in logical replication's apply worker too)
-- and who may claim
SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'idgen_shard_claim'::regclass;
SELECT has_table_privilege('public', 'idgen_shard_claim', 'SELECT') AS public_reads,
       has_table_privilege('public', 'idgen_shard_claim', 'INSERT') AS public_claims;

-- a claim: this server's system identifier, a name, the transaction's time
CREATE TEMP TABLE me AS SELECT system_identifier FROM pg_control_system();
SELECT family, shard, system_identifier = (SELECT system_identifier FROM me) AS this_server,
       server_name <> '' AS named, claimed_at = now() AS now
FROM idgen_claim_shards('10-12');
CREATE TEMP TABLE first_claims AS SELECT * FROM idgen_shard_claim;

-- claiming again is harmless: held shards keep their claim, new ones join
SELECT family, shard, system_identifier = (SELECT system_identifier FROM me) AS this_server
FROM idgen_claim_shards('11-13');
SELECT shard, c.claimed_at = f.claimed_at AS first_claim_kept
FROM idgen_shard_claim c LEFT JOIN first_claims f USING (family, shard) ORDER BY shard;
SELECT count(*) FROM idgen_claim_shards('10, 11, 12, 13');
SELECT count(*) FROM idgen_shard_claim;

-- snowflake53 shards are a family of their own, 0 to 15
SELECT family, shard FROM idgen_claim_shards('12, 15', 'snowflake53');
SELECT idgen_claim_shards('16', 'snowflake53');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_claim_shards('0-15, 100', 'snowflake53');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_claim_shards('8192');
\echo :LAST_ERROR_SQLSTATE

-- bad arguments: 22023; NULL claims nothing
SELECT idgen_claim_shards('1', 'snowflake64');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_claim_shards('1', '');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_claim_shards('');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_claim_shards(' , ');
\echo :LAST_ERROR_SQLSTATE
SELECT idgen_claim_shards('1-x');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM idgen_claim_shards(NULL);
SELECT count(*) FROM idgen_claim_shards('1', NULL);
SELECT count(*) FROM idgen_claim_shards(NULL, NULL);
SELECT count(*) FROM idgen_shard_claim;

-- the table's checks, for rows written without idgen_claim_shards
INSERT INTO idgen_shard_claim VALUES ('snowflake53', 16, 1, 'x', '2026-01-01+00');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO idgen_shard_claim VALUES ('snowflake', 8192, 1, 'x', '2026-01-01+00');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO idgen_shard_claim VALUES ('snowflake', -1, 1, 'x', '2026-01-01+00');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO idgen_shard_claim VALUES ('ulid', 1, 1, 'x', '2026-01-01+00');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO idgen_shard_claim VALUES ('snowflake', NULL, 1, 'x', '2026-01-01+00');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO idgen_shard_claim VALUES ('snowflake', 1, NULL, 'x', '2026-01-01+00');
\echo :LAST_ERROR_SQLSTATE

-- another server's claim (as replication would bring it): a second server's
-- row for the same shard is refused with 23505 naming both servers
INSERT INTO idgen_shard_claim VALUES ('snowflake', 20, 1001, 'writer1', '2026-01-02 03:04:05+00');
INSERT INTO idgen_shard_claim VALUES ('snowflake', 20, 1004, 'writer4', '2026-01-03 00:00:00+00');
\echo :LAST_ERROR_SQLSTATE
-- as in the apply worker (session_replication_role = replica): refused too
SET session_replication_role = replica;
INSERT INTO idgen_shard_claim VALUES ('snowflake', 20, 1004, 'writer4', '2026-01-03 00:00:00+00');
\echo :LAST_ERROR_SQLSTATE
-- the same server's claim again is skipped, in either role, and keeps the first
INSERT INTO idgen_shard_claim VALUES ('snowflake', 20, 1001, 'writer1 again', '2026-01-04 00:00:00+00');
RESET session_replication_role;
INSERT INTO idgen_shard_claim VALUES ('snowflake', 20, 1001, 'writer1 again', '2026-01-04 00:00:00+00');
SELECT * FROM idgen_shard_claim WHERE shard = 20;

-- an UPDATE may not hand a claim to another server, nor move one onto a held shard
UPDATE idgen_shard_claim SET system_identifier = 1004, server_name = 'writer4' WHERE shard = 20;
\echo :LAST_ERROR_SQLSTATE
INSERT INTO idgen_shard_claim VALUES ('snowflake', 21, 1004, 'writer4', '2026-01-03 00:00:00+00');
UPDATE idgen_shard_claim SET shard = 20 WHERE shard = 21;
\echo :LAST_ERROR_SQLSTATE
-- but the holder may rename itself
UPDATE idgen_shard_claim SET server_name = 'writer1b' WHERE shard = 20;
SELECT shard, system_identifier, server_name FROM idgen_shard_claim WHERE shard IN (20, 21) ORDER BY shard;

-- idgen_claim_shards runs the same check here: none of the list is claimed
-- (the detail names this server, replaced by a placeholder)
DO $$
BEGIN
    PERFORM idgen_claim_shards('19-21');
EXCEPTION WHEN unique_violation THEN
    DECLARE
        msg text; detail text; hint text;
    BEGIN
        GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
        detail := regexp_replace(detail, 'server "[^"]*" \(system identifier '
                                 || (SELECT system_identifier FROM me) || '\)', 'server <this server>');
        RAISE NOTICE 'error: % / detail: % / hint: %', msg, detail, hint;
    END;
END
$$;
SELECT count(*) FROM idgen_shard_claim WHERE shard = 19;

-- moving a shard deliberately: delete the old claim, then claim it
DELETE FROM idgen_shard_claim WHERE family = 'snowflake' AND shard IN (20, 21);
SELECT family, shard, system_identifier = (SELECT system_identifier FROM me) AS this_server
FROM idgen_claim_shards('19-21');

-- roles other than the extension's owner read the claims but may not claim
CREATE ROLE regress_idgen_claimer NOSUPERUSER;
SET ROLE regress_idgen_claimer;
SELECT count(*) > 0 AS can_read FROM idgen_shard_claim;
SELECT idgen_claim_shards('30');
\echo :LAST_ERROR_SQLSTATE
DELETE FROM idgen_shard_claim;
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP ROLE regress_idgen_claimer;

-- the claims are configuration: pg_dump keeps their rows
SELECT 'idgen_shard_claim'::regclass = ANY (extconfig) AS dumped FROM pg_extension WHERE extname = 'idgen';

DELETE FROM idgen_shard_claim;
