-- Soft input errors (PostgreSQL 16 and later): ulid, prefixed_id and typeid
-- input, and the input of domains over them, report bad text to a caller
-- that asks softly. pg_input_is_valid() answers false and
-- pg_input_error_info() gives the SQLSTATE, message, detail and hint of the
-- error a cast raises. The cases are those of the hard-error tests
-- (ulid_errors.sql, prefixed_errors.sql, typeid.sql), one class each: length,
-- alphabet, overflow, prefix, separator. COPY ... ON_ERROR is copy_on_error.sql.
-- Outputs: soft_errors.out (16+), soft_errors_1.out (15, which has neither
-- function and where the same texts stay hard errors).
SELECT current_setting('server_version_num')::int >= 160000 AS has_soft_errors \gset
CREATE TABLE soft_cases (n int PRIMARY KEY, type text, class text, input text);
INSERT INTO soft_cases VALUES
  -- ulid (ulid_errors.sql)
  (1, 'ulid', 'length', ''),
  (2, 'ulid', 'length', '01ARZ3NDEKTSV4RRFFQ69G5FA'),
  (3, 'ulid', 'length', '01ARZ3NDEKTSV4RRFFQ69G5FAVX'),
  (4, 'ulid', 'alphabet', '01890a5d-ac96-774b-bcce-b302099a8057'),
  (5, 'ulid', 'alphabet', ' 01ARZ3NDEKTSV4RRFFQ69G5FAV'),
  (6, 'ulid', 'alphabet', '01ARZ3NDEKTSV4RRFFQ69G5FAV '),
  (7, 'ulid', 'alphabet', 'I1ARZ3NDEKTSV4RRFFQ69G5FAV'),
  (8, 'ulid', 'alphabet', '0iARZ3NDEKTSV4RRFFQ69G5FAV'),
  (9, 'ulid', 'alphabet', '01ALZ3NDEKTSV4RRFFQ69G5FAV'),
  (10, 'ulid', 'alphabet', '01ARZ3NDEKTSV4RRFFQ69G5FAl'),
  (11, 'ulid', 'alphabet', '01ARZ3NDEKTSV4RRFFQ69G5FOV'),
  (12, 'ulid', 'alphabet', '01ARZ3NDEKTSV4RRFFQ69g5oAV'),
  (13, 'ulid', 'alphabet', '01ARZ3NDEKTUV4RRFFQ69G5FAV'),
  (14, 'ulid', 'alphabet', '01ARZ3NDEKTSV4RRFFQ69G5FAu'),
  (15, 'ulid', 'alphabet', '01ARZ3NDEK-SV4RRFFQ69G5FAV'),
  (16, 'ulid', 'alphabet', E'01ARZ3ND\tKTSV4RRFFQ69G5FAV'),
  (17, 'ulid', 'alphabet', '01ARZ3NDEKTSV4RRFFQ69G5Fé'),
  (18, 'ulid', 'alphabet', '01ARZ3NDEKTSV4RRFFQ69G5FAé'),
  (19, 'ulid', 'overflow', '81ARZ3NDEKTSV4RRFFQ69G5FAV'),
  (20, 'ulid', 'overflow', 'Z1ARZ3NDEKTSV4RRFFQ69G5FAV'),
  (21, 'ulid', 'overflow', 'z1ARZ3NDEKTSV4RRFFQ69G5FAV'),
  (22, 'ulid', 'valid', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
  (23, 'ulid', 'valid', '7zzzzzzzzzzzzzzzzzzzzzzzzz'),
  -- prefixed_id (prefixed_errors.sql)
  (30, 'prefixed_id', 'separator', ''),
  (31, 'prefixed_id', 'separator', 'acct0000000000000000000000001'),
  (32, 'prefixed_id', 'separator', '039srkj01e44uynszf2f2njh3'),
  (33, 'prefixed_id', 'prefix', '_039srkj01e44uynszf2f2njh3'),
  (34, 'prefixed_id', 'prefix', repeat('q', 64) || '_039srkj01e44uynszf2f2njh3'),
  (35, 'prefixed_id', 'prefix', 'Acct_039srkj01e44uynszf2f2njh3'),
  (36, 'prefixed_id', 'prefix', 'acCt_039srkj01e44uynszf2f2njh3'),
  (37, 'prefixed_id', 'prefix', 'acct2_039srkj01e44uynszf2f2njh3'),
  (38, 'prefixed_id', 'prefix', 'user-session_039srkj01e44uynszf2f2njh3'),
  (39, 'prefixed_id', 'prefix', ' acct_039srkj01e44uynszf2f2njh3'),
  (40, 'prefixed_id', 'prefix', repeat('Q', 64) || '_039srkj01e44uynszf2f2njh3'),
  (41, 'prefixed_id', 'prefix', 'ACCT_not-a-body'),
  (42, 'prefixed_id', 'prefix', 'accté_039srkj01e44uynszf2f2njh3'),
  (43, 'prefixed_id', 'prefix', '_acct_039srkj01e44uynszf2f2njh3'),
  (44, 'prefixed_id', 'prefix', 'acct__039srkj01e44uynszf2f2njh3'),
  (45, 'prefixed_id', 'prefix', '__039srkj01e44uynszf2f2njh3'),
  (46, 'prefixed_id', 'length', 'acct_'),
  (47, 'prefixed_id', 'length', 'acct_039srkj01e44uynszf2f2njh'),
  (48, 'prefixed_id', 'length', 'acct_039srkj01e44uynszf2f2njh30'),
  (49, 'prefixed_id', 'length', 'acct_0'),
  (50, 'prefixed_id', 'length', 'acct_01890a5d-ac96-774b-bcce-b302099a8057'),
  (51, 'prefixed_id', 'alphabet', 'acct_039srkj01e44uynszf2f2nj-3'),
  (52, 'prefixed_id', 'length', 'acct_039srkj01e44uynszf2f2njh3 '),
  (53, 'prefixed_id', 'alphabet', E'acct_039srkj01e44uy\tszf2f2njh3'),
  (54, 'prefixed_id', 'alphabet', 'acct_039srkj01e44uynszf2f2njé'),
  (55, 'prefixed_id', 'overflow', 'acct_f5lxx1zz5pnorynqglhzmsp34'),
  (56, 'prefixed_id', 'overflow', 'acct_f5lxx1zz5pnorynqglhzmsq00'),
  (57, 'prefixed_id', 'overflow', 'acct_g000000000000000000000000'),
  (58, 'prefixed_id', 'overflow', 'acct_ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
  (59, 'prefixed_id', 'valid', 'acct_f5lxx1zz5pnorynqglhzmsp33'),
  (60, 'prefixed_id', 'valid', repeat('q', 63) || '_039srkj01e44uynszf2f2njh3'),
  -- typeid (typeid.sql)
  (70, 'typeid', 'prefix', '_01h455vb4pex5vsknk084sn02q'),
  (71, 'typeid', 'prefix', 'User_01h455vb4pex5vsknk084sn02q'),
  (72, 'typeid', 'prefix', '_user_01h455vb4pex5vsknk084sn02q'),
  (73, 'typeid', 'prefix', repeat('q', 64) || '_01h455vb4pex5vsknk084sn02q'),
  (74, 'typeid', 'length', 'user_01h455vb4pex5vsknk084sn02'),
  (75, 'typeid', 'alphabet', 'user_01H455vb4pex5vsknk084sn02q'),
  (76, 'typeid', 'alphabet', 'user_01h455vb4pex5vsknk084sn0iq'),
  (77, 'typeid', 'overflow', 'user_81h455vb4pex5vsknk084sn02q'),
  (78, 'typeid', 'length', ''),
  (79, 'typeid', 'length', 'acct_03hav05z19nhlpj50emq4uvdm'),
  (80, 'typeid', 'length', 'acct_0000000000000000000000001'),
  (81, 'typeid', 'separator', 'user01h455vb4pex5vsknk084sn02q'),
  (82, 'typeid', 'valid', 'user_01h455vb4pex5vsknk084sn02q'),
  (83, 'typeid', 'valid', '01h455vb4pex5vsknk084sn02q');
-- domains: one over ulid with a CHECK of its own, and those that
-- prefixed_id_define() and typeid_define() make. Bad text is the base type's
-- error; a value the base type reads but the domain's CHECK refuses (another
-- prefix, the zero ULID) is 23514, soft as well (PostgreSQL's domain input).
CREATE DOMAIN soft_ulid AS ulid CHECK (VALUE > '00000000000000000000000000');
SELECT prefixed_id_define('soft_acct_id', 'sacct') AS prefixed_domain,
       typeid_define('soft_user_id', 'suser') AS typeid_domain;
INSERT INTO soft_cases VALUES
  (90, 'soft_ulid', 'alphabet', '01ARZ3NDEKTSV4RRFFQ69G5FOV'),
  (91, 'soft_ulid', 'check', '00000000000000000000000000'),
  (92, 'soft_ulid', 'valid', '01ARZ3NDEKTSV4RRFFQ69G5FAV'),
  (93, 'soft_acct_id', 'overflow', 'sacct_g000000000000000000000000'),
  (94, 'soft_acct_id', 'check', 'other_039srkj01e44uynszf2f2njh3'),
  (95, 'soft_acct_id', 'valid', 'sacct_039srkj01e44uynszf2f2njh3'),
  (96, 'soft_user_id', 'separator', 'suser01h455vb4pex5vsknk084sn02q'),
  (97, 'soft_user_id', 'check', 'other_01h455vb4pex5vsknk084sn02q'),
  (98, 'soft_user_id', 'valid', 'suser_01h455vb4pex5vsknk084sn02q');

-- hard(input, type): what a cast raises, 'SQLSTATE | message | detail | hint'
-- (the parts it has), or 'accepted'
CREATE FUNCTION pg_temp.hard(input text, type text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE st text; m text; d text; h text;
BEGIN
    EXECUTE format('SELECT %L::%s', input, type);
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
    RETURN concat_ws(' | ', st, m, NULLIF(d, ''), NULLIF(h, ''));
END
$$;

\if :has_soft_errors
-- every case: pg_input_is_valid(), pg_input_error_info(), and whether the
-- soft error is the hard one (SQLSTATE, message, detail and hint)
SELECT c.n, c.type, c.class, pg_input_is_valid(c.input, c.type) AS valid, e.sql_error_code AS state,
       e.message, e.detail, e.hint,
       CASE WHEN e.sql_error_code IS NULL THEN pg_temp.hard(c.input, c.type) = 'accepted'
            ELSE concat_ws(' | ', e.sql_error_code, e.message, e.detail, e.hint) = pg_temp.hard(c.input, c.type)
       END AS same_as_hard
FROM soft_cases c, pg_input_error_info(c.input, c.type) e
ORDER BY c.n;
-- in sum: every rejection class of every type answers, none raises
SELECT c.type, c.class, count(*) AS cases,
       count(*) FILTER (WHERE NOT pg_input_is_valid(c.input, c.type)) AS invalid,
       string_agg(DISTINCT e.sql_error_code, ' ') AS states
FROM soft_cases c, pg_input_error_info(c.input, c.type) e
GROUP BY 1, 2 ORDER BY min(c.n);
-- the binary receive functions stay hard: no caller asks them softly
-- (COPY ... FORMAT binary takes no ON_ERROR but stop; copy_on_error.sql)
\else
\echo 'pg_input_is_valid() and pg_input_error_info() are PostgreSQL 16 features; on 15 the cases stay hard errors:'
SELECT c.type, c.class, count(*) AS cases,
       count(*) FILTER (WHERE pg_temp.hard(c.input, c.type) = 'accepted') AS accepted,
       string_agg(DISTINCT split_part(pg_temp.hard(c.input, c.type), ' | ', 1), ' ') AS states
FROM soft_cases c
GROUP BY 1, 2 ORDER BY min(c.n);
\endif

DROP TABLE soft_cases;
DROP DOMAIN soft_ulid, soft_acct_id, soft_user_id;
