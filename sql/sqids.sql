-- Sqids: sqids_encode(), sqids_decode(), sqids_decode_one(),
-- sqids_decode_lenient(), sqids_define() (errors: sqids_errors). The spec's 30
-- cases are test/unit/sqids_test.cpp's; these are some of them, through SQL.

-- the spec's "simple" case, both ways; one number; the empty array
SELECT sqids_encode(ARRAY[1, 2, 3]::bigint[]) AS simple, sqids_decode('86Rf07') AS decoded,
       sqids_encode(0::bigint) AS zero, sqids_encode(1::bigint) AS one,
       sqids_encode('{}'::bigint[]) = '' AS empty_array;
-- incremental numbers (spec: encoding.test.ts)
SELECT n, sqids_encode(n) AS code, sqids_decode_one(sqids_encode(n)) = n AS back
FROM unnest(ARRAY[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]::bigint[]) n;
SELECT sqids_encode(ARRAY[0, 0]::bigint[]) AS "0,0", sqids_encode(ARRAY[0, 1]::bigint[]) AS "0,1",
       sqids_encode(ARRAY[1, 0]::bigint[]) AS "1,0";
-- the largest bigint, alone and among others; round trips
SELECT sqids_encode(9223372036854775807::bigint) AS max,
       sqids_decode_one(sqids_encode(9223372036854775807::bigint)) AS back,
       sqids_decode(sqids_encode(ARRAY[9223372036854775807, 0, 9007199254740992]::bigint[])) AS many;
SELECT count(*) AS round_trips
FROM generate_series(1, 2000) i,
     LATERAL (SELECT ARRAY[i * 7919, i, (i::bigint * 1000003) * (i::bigint * 1000003)]::bigint[] AS numbers) s
WHERE sqids_decode(sqids_encode(s.numbers)) = s.numbers;

-- alphabets (spec: alphabet.test.ts)
SELECT sqids_encode(ARRAY[1, 2, 3]::bigint[], '0123456789abcdef') AS hex,
       sqids_decode('489158', '0123456789abcdef') AS hex_back,
       sqids_encode(ARRAY[1, 2, 3]::bigint[], 'abc') AS abc,
       sqids_decode(sqids_encode(ARRAY[1, 2, 3]::bigint[], 'abc'), 'abc') AS abc_back;
-- case counts: 'aAb' is three characters; any ASCII byte may be one
SELECT sqids_encode(42::bigint, 'aAb') AS three, sqids_encode(42::bigint, ' !"#') AS punctuation;

-- minimum length (spec: minlength.test.ts); the padding decodes away
SELECT sqids_encode(ARRAY[1, 2, 3]::bigint[], min_length => 62) AS padded,
       sqids_decode('86Rf07xd4zBmiJXQG6otHEbew02c3PWsUOLZxADhCpKj7aVFv9I8RquYrNlSTM', min_length => 62) AS back;
SELECT m, sqids_encode(ARRAY[1, 2, 3]::bigint[], min_length => m) AS code
FROM unnest(ARRAY[6, 7, 8, 9, 10]) m;
SELECT length(sqids_encode(0::bigint, min_length => 255)) AS longest_padding;

-- the blocklist (spec: blocklist.test.ts): the default words, none, or one's own
SELECT sqids_encode(4572721::bigint) AS default_list, sqids_encode(4572721::bigint, blocklist => '{}') AS no_list,
       sqids_decode_lenient('aho1e') AS blocked_still_decodes;
SELECT sqids_encode(4572721::bigint, blocklist => '{ArUO}') AS own_list,
       sqids_encode(100000::bigint, blocklist => '{ArUO}') AS avoids_aruo,
       sqids_encode(100000::bigint, blocklist => '{}') AS would_be;
SELECT sqids_encode(ARRAY[1000000, 2000000]::bigint[],
                    blocklist => '{JSwXFaosAN,OCjV9JK64o,rBHf,79SM,7tE6}') AS several;
-- the default list as an array, to extend (a word under 3 characters is dropped)
SELECT cardinality(sqids_default_blocklist()) AS words, (sqids_default_blocklist())[1:3] AS first,
       sqids_encode(100000::bigint, blocklist => sqids_default_blocklist() || '{ArUO}') AS extended,
       sqids_encode(1::bigint, blocklist => sqids_default_blocklist() || '{Uk}') AS short_word_dropped,
       sqids_encode(4572721::bigint, blocklist => sqids_default_blocklist()) = sqids_encode(4572721::bigint) AS same;
-- words are kept only when every letter is in the (lowercased) alphabet
SELECT sqids_encode(ARRAY[1, 2, 3]::bigint[], 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', blocklist => '{sxnzkl}') AS filtered;
-- the matching rules: short IDs match a whole word; words with digits only at an end
SELECT sqids_encode(100::bigint, blocklist => '{hey}') AS "100, hey", sqids_encode(100::bigint, blocklist => '{86u}') AS "100, 86u",
       sqids_encode(1000000::bigint, blocklist => '{vFo}') AS "1000000, vFo",
       sqids_encode(1000000::bigint, blocklist => '{lP3i}') AS "1000000, lP3i";

-- strict and lenient decoding
SELECT code, sqids_decode_lenient(code) AS lenient
FROM unnest(ARRAY['', '*', '86Rf07', '86Rf07x', 'aho1e']) code;
SELECT sqids_decode_lenient('x' || repeat('y', 5)) IS NOT NULL AS lenient_reads_anything;

-- NULL in, NULL out; a NULL blocklist is the default one
SELECT sqids_encode(NULL::bigint) IS NULL AS n1, sqids_encode(NULL::bigint[]) IS NULL AS n2,
       sqids_encode(1::bigint, NULL) IS NULL AS n3, sqids_encode(1::bigint, min_length => NULL) IS NULL AS n4,
       sqids_decode(NULL) IS NULL AS n5, sqids_decode_one(NULL) IS NULL AS n6,
       sqids_decode_lenient(NULL) IS NULL AS n7,
       sqids_encode(4572721::bigint, blocklist => NULL) AS default_list;

-- the options cached per call site: changing values between rows
SELECT a, m, sqids_encode(ARRAY[1, 2, 3]::bigint[], a, m) AS code
FROM (VALUES ('0123456789abcdef', 0), ('0123456789abcdef', 8), ('abc', 0),
             ('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 0)) v(a, m);
SELECT b, sqids_encode(4572721::bigint, blocklist => b) AS code
FROM (VALUES (NULL::text[]), ('{}'), ('{aho1e}'), (NULL)) v(b);

-- labels
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel, obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p WHERE p.proname LIKE 'sqids%' ORDER BY 1::text;

-- sqids_define: the options named once; a short public code for a key
SELECT sqids_define('public_code', 'k3G7QAe51FCsPW92uEOyq4Bg6Sp8YzVTmnU0liwDdHXLajZrfxNhobJIRcMvKt', 5);
\df public_code*
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proparallel AS parallel,
       obj_description(p.oid, 'pg_proc') AS comment
FROM pg_proc p WHERE p.proname LIKE 'public_code%' ORDER BY 1::text;
SELECT public_code_encode(1) AS one, public_code_encode(ARRAY[1, 2]::bigint[]) AS two,
       public_code_decode(public_code_encode(1)) AS back,
       public_code_decode_array(public_code_encode(ARRAY[1, 2]::bigint[])) AS back_array,
       public_code_encode(NULL::bigint) IS NULL AS null_in;
CREATE TABLE sqids_orders (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, item text);
INSERT INTO sqids_orders (item) SELECT 'item ' || i FROM generate_series(1, 1000) i;
ANALYZE sqids_orders;
SELECT id, public_code_encode(id) AS code FROM sqids_orders ORDER BY id LIMIT 3;
-- the lookup back through the primary key's index
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT item FROM sqids_orders WHERE id = public_code_decode('2veNZ');
PREPARE sqids_lookup(text) AS SELECT id, item FROM sqids_orders WHERE id = public_code_decode($1);
EXECUTE sqids_lookup('2veNZ');
EXPLAIN (COSTS OFF) EXECUTE sqids_lookup('2veNZ');
RESET enable_seqscan;
-- one's own blocklist and schema
CREATE SCHEMA sqids_elsewhere;
SELECT sqids_define('invoice_code', min_length => 8, blocklist => '{abc,xyz}', schema => 'sqids_elsewhere');
SELECT sqids_elsewhere.invoice_code_encode(7) AS code,
       sqids_elsewhere.invoice_code_encode(7) = sqids_encode(7::bigint, min_length => 8, blocklist => '{abc,xyz}') AS same;
SELECT obj_description('sqids_elsewhere.invoice_code_decode(text)'::regprocedure, 'pg_proc') AS comment;
DROP SCHEMA sqids_elsewhere CASCADE;
DROP TABLE sqids_orders;
DROP FUNCTION public_code_encode(bigint), public_code_encode(bigint[]), public_code_decode(text),
              public_code_decode_array(text);
