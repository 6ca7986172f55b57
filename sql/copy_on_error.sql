-- COPY ... FROM ... (ON_ERROR ignore), PostgreSQL 17 and later: a row whose
-- ulid, prefixed_id or typeid text (or that of a domain over them) is bad is
-- skipped and counted in a NOTICE, in text and CSV format, since the input
-- functions report bad text softly (soft_errors.sql has every case). A
-- domain's own CHECK (a prefixed_id_define() type given another prefix) is
-- no input error of idgen's, but PostgreSQL's domain input reports it softly
-- too, so ON_ERROR ignore skips that row as well.
-- The rows come from printf (COPY ... FROM PROGRAM, as the superuser that
-- runs pg_regress), so that no data block follows a COPY that 15 and 16
-- refuse. Outputs: copy_on_error.out (17+), copy_on_error_1.out (15 and 16,
-- whose COPY has no ON_ERROR).
SELECT current_setting('server_version_num')::int >= 170000 AS has_on_error \gset
CREATE TABLE copy_u (n int, id ulid);
CREATE TABLE copy_p (n int, id prefixed_id);
CREATE TABLE copy_t (n int, id typeid);
SELECT prefixed_id_define('copy_acct_id', 'cacct') AS prefixed_domain,
       typeid_define('copy_user_id', 'cuser') AS typeid_domain;
CREATE TABLE copy_d (n int, acct copy_acct_id, usr copy_user_id);
\if :has_on_error
-- text format, a row per rejection class between good rows
COPY copy_u FROM PROGRAM $$printf '1\t01ARZ3NDEKTSV4RRFFQ69G5FAV\n2\t01ARZ3NDEKTSV4RRFFQ69G5FA\n3\t01ARZ3NDEKTSV4RRFFQ69G5FOV\n4\t81ARZ3NDEKTSV4RRFFQ69G5FAV\n5\t7zzzzzzzzzzzzzzzzzzzzzzzzz\n6\t01890a5d-ac96-774b-bcce-b302099a8057\n'$$ (ON_ERROR ignore, LOG_VERBOSITY verbose);
COPY copy_p FROM PROGRAM $$printf '1\tacct_039srkj01e44uynszf2f2njh3\n2\tacct0000000000000000000000001\n3\tAcct_039srkj01e44uynszf2f2njh3\n4\tacct_039srkj01e44uynszf2f2njh\n5\tacct_039srkj01e44uynszf2f2nj-3\n6\tacct_f5lxx1zz5pnorynqglhzmsp34\n7\tacct_f5lxx1zz5pnorynqglhzmsp33\n'$$ (ON_ERROR ignore, LOG_VERBOSITY verbose);
COPY copy_t FROM PROGRAM $$printf '1\tuser_01h455vb4pex5vsknk084sn02q\n2\tuser01h455vb4pex5vsknk084sn02q\n3\tUser_01h455vb4pex5vsknk084sn02q\n4\tuser_01h455vb4pex5vsknk084sn02\n5\tuser_01h455vb4pex5vsknk084sn0iq\n6\tuser_81h455vb4pex5vsknk084sn02q\n7\tacct_0000000000000000000000001\n8\t01h455vb4pex5vsknk084sn02q\n'$$ (ON_ERROR ignore, LOG_VERBOSITY verbose);
SELECT 'ulid' AS type, n, id::text FROM copy_u UNION ALL SELECT 'prefixed_id', n, id::text FROM copy_p
UNION ALL SELECT 'typeid', n, id::text FROM copy_t ORDER BY 1, 2;
-- CSV, quoted and not, without LOG_VERBOSITY: the count alone
COPY copy_u FROM PROGRAM $$printf '11,01BX5ZZKBKACTAV9WEVGEMMVRY\n12,"01BX5ZZKBKACTAV9WEVGEMMVR"\n13,"0iBX5ZZKBKACTAV9WEVGEMMVRY"\n14,81BX5ZZKBKACTAV9WEVGEMMVRY\n'$$ (FORMAT csv, ON_ERROR ignore);
COPY copy_p FROM PROGRAM $$printf '11,"acct_0000000000000000000000001"\n12,acct_\n13,_acct_039srkj01e44uynszf2f2njh3\n14,acct_g000000000000000000000000\n'$$ (FORMAT csv, ON_ERROR ignore);
COPY copy_t FROM PROGRAM $$printf '11,user_01h455vb4pex5vsknk084sn02r\n12,"user_01H455vb4pex5vsknk084sn02q"\n13,_01h455vb4pex5vsknk084sn02q\n'$$ (FORMAT csv, ON_ERROR ignore);
SELECT 'ulid' AS type, count(*) FILTER (WHERE n > 10) AS csv_rows FROM copy_u
UNION ALL SELECT 'prefixed_id', count(*) FILTER (WHERE n > 10) FROM copy_p
UNION ALL SELECT 'typeid', count(*) FILTER (WHERE n > 10) FROM copy_t;
-- domains: bad text of the base type, and a value of another prefix that the
-- domain's CHECK refuses (23514 as a statement's error): ON_ERROR ignore
-- skips both kinds of row
COPY copy_d FROM PROGRAM $$printf '1\tcacct_039srkj01e44uynszf2f2njh3\tcuser_01h455vb4pex5vsknk084sn02q\n2\tcacct_g000000000000000000000000\tcuser_01h455vb4pex5vsknk084sn02q\n3\tother_039srkj01e44uynszf2f2njh3\tcuser_01h455vb4pex5vsknk084sn02q\n4\tcacct_039srkj01e44uynszf2f2njh3\tcuser01h455vb4pex5vsknk084sn02q\n5\tcacct_039srkj01e44uynszf2f2njh3\tother_01h455vb4pex5vsknk084sn02q\n6\tcacct_0000000000000000000000001\tcuser_00000000000000000000000001\n'$$ (ON_ERROR ignore, LOG_VERBOSITY verbose);
SELECT n, acct::text, usr::text FROM copy_d ORDER BY n;
-- the same CHECK outside COPY: a hard error
INSERT INTO copy_d VALUES (7, 'other_039srkj01e44uynszf2f2njh3', NULL);
-- ON_ERROR stop, the default: the first bad row ends the COPY with the type's error
\set VERBOSITY default
COPY copy_u FROM PROGRAM $$printf '21\t01ARZ3NDEKTSV4RRFFQ69G5FOV\n'$$ (ON_ERROR stop);
\set VERBOSITY terse
-- binary COPY takes no ON_ERROR but stop (PostgreSQL's rule): the receive
-- functions stay hard
COPY copy_u FROM '/nonexistent/copy_on_error.data' (FORMAT binary, ON_ERROR ignore);
SELECT count(*) AS ulid_rows FROM copy_u;
\else
\echo 'COPY ... ON_ERROR is a PostgreSQL 17 feature; here the option is refused:'
COPY copy_u FROM '/nonexistent/copy_on_error.data' (ON_ERROR ignore);
\endif

DROP TABLE copy_u, copy_p, copy_t, copy_d;
DROP DOMAIN copy_acct_id, copy_user_id;
