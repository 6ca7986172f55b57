-- prefixed_id binary I/O (send and recv): one byte holding the prefix's length, the prefix's
-- characters, then the 16 bytes. Through real COPY (FORMAT binary) streams, built and read by
-- test/lib/prefixed_copy_binary.py (Debian's python3): fields are given as parts, b:HEX bytes,
-- t:TEXT characters and seq:N the bytes 01 02 ... N. A stream of a few fields reaches a
-- server-side COPY as a printf command that the script writes into :field (psql 15's \copy does
-- not set LAST_ERROR_SQLSTATE); larger ones go through \copy.
SET TimeZone = 'UTC';
\set VERBOSITY default
\getenv abs_srcdir PG_ABS_SRCDIR
\set wire :abs_srcdir '/test/lib/prefixed_copy_binary.py'
\setenv WIRE :wire
CREATE TEMP TABLE wire (id prefixed_id);

-- a well-framed field: length byte 4, "acct", 16 bytes
\set field `/usr/bin/python3 "$WIRE" printf b:04,t:acct,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
SELECT id, prefixed_id_uuid(id) AS payload FROM wire;
TRUNCATE wire;

-- the issue's field: "acct" and 15 bytes in the old layout (no length byte), which the old recv
-- took as acc_ and 16 bytes; every old-layout field starts with a letter, 0x61 or above, so its
-- first byte is never a valid length (1 to 63): 22P03
\set field `/usr/bin/python3 "$WIRE" printf t:acct,seq:15`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf t:acct,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf t:a,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE

-- the field must be exactly 1 + length + 16 bytes: a payload short by one byte, one byte over,
-- a length byte one too small or one too large for the rest, the length byte alone: 22P03
\set field `/usr/bin/python3 "$WIRE" printf b:04,t:acct,seq:15`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:04,t:acct,seq:17`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:03,t:acct,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:05,t:acct,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:04`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
-- an empty field, and 17 bytes that would be a 1-letter prefix and 16 bytes without the
-- length byte: 22P03
\set field `/usr/bin/python3 "$WIRE" printf ""`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf seq:17`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE

-- the length byte holds 1 to 63: 0 (an empty prefix), 64 and 255 are 22P03 whatever follows
\set field `/usr/bin/python3 "$WIRE" printf b:00,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:40,t:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:ff,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE

-- a well-framed field whose prefix is not a valid prefix (uppercase, a digit, a NUL or a byte
-- above 0x7f inside, "_" at an end): 22P03 with the same details as text input
\set field `/usr/bin/python3 "$WIRE" printf b:04,t:ACCT,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:02,t:a1,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:04,b:61630074,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:04,b:6163e974,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:03,t:_ab,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:03,t:ab_,seq:16`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE

-- one bad field fails the whole COPY: the good rows before it are not kept
\set field `/usr/bin/python3 "$WIRE" printf b:01,t:a,seq:16 null b:01,t:a,seq:15`
COPY wire FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) AS rows_after_bad_copies FROM wire;

-- a domain's column: its base type's recv frames the field first (22P03), then its check
-- refuses another prefix (23514)
SELECT prefixed_id_define('wire_account_id', 'wacct') AS defined;
CREATE TEMP TABLE wire_accounts (id wire_account_id);
\set field `/usr/bin/python3 "$WIRE" printf t:wacct,seq:15`
COPY wire_accounts FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:04,t:sess,seq:16`
COPY wire_accounts FROM PROGRAM :'field' (FORMAT binary);
\echo :LAST_ERROR_SQLSTATE
\set field `/usr/bin/python3 "$WIRE" printf b:05,t:wacct,seq:16 null`
COPY wire_accounts FROM PROGRAM :'field' (FORMAT binary);
SELECT id FROM wire_accounts ORDER BY id;

-- well-framed fields of every prefix length (1 to 63), with inner underscores, and the smallest,
-- largest and pseudo-random payloads are accepted, each next to its bytes as a bytea: the
-- value has the prefix and payload the bytes say (read here with get_byte and substr), and
-- sending it gives the same bytes back
CREATE TEMP TABLE wire_valid (bytes bytea, id prefixed_id);
\copy wire_valid FROM PROGRAM '/usr/bin/python3 "$WIRE" valid' (FORMAT binary)
SELECT count(*) AS fields, count(DISTINCT length(prefixed_id_prefix(id))) AS prefix_lengths,
       min(length(prefixed_id_prefix(id))) AS shortest, max(length(prefixed_id_prefix(id))) AS longest,
       count(*) FILTER (WHERE prefixed_id_prefix(id) LIKE '%\_%') AS with_underscores,
       count(*) FILTER (WHERE get_byte(bytes, 0) = length(prefixed_id_prefix(id))
                          AND convert_from(substr(bytes, 2, get_byte(bytes, 0)), 'SQL_ASCII') = prefixed_id_prefix(id)
                          AND encode(substr(bytes, 2 + get_byte(bytes, 0)), 'hex')::uuid = prefixed_id_uuid(id)
                          AND length(bytes) = 1 + get_byte(bytes, 0) + 16) AS framed_as_read,
       count(*) FILTER (WHERE prefixed_id_send(id) = bytes) AS sent_back_identical,
       count(*) FILTER (WHERE id::text::prefixed_id = id) AS text_round_trips,
       count(*) FILTER (WHERE prefixed_id_uuid(id) = '00000000-0000-0000-0000-000000000000') AS smallest_payloads,
       count(*) FILTER (WHERE prefixed_id_uuid(id) = 'ffffffff-ffff-ffff-ffff-ffffffffffff') AS largest_payloads
FROM wire_valid;

-- COPY TO (FORMAT binary) writes the new layout: golden fields for a few values, read from the
-- file by the script; every row of a larger table is its length byte, prefix and 16 bytes
CREATE TEMP TABLE wire_out (n int, id prefixed_id);
INSERT INTO wire_out VALUES (1, 'a_0000000000000000000000000'), (2, 'acct_039srkj01e44uynszf2f2njh3'),
                            (3, 'a__b_f5lxx1zz5pnorynqglhzmsp33'), (4, NULL),
                            (5, (repeat('q', 63) || '_0000000000000000000000001')::prefixed_id);
INSERT INTO wire_out
SELECT 5 + n, CASE n % 3 WHEN 0 THEN prefixed_id_new('acct') WHEN 1 THEN prefixed_id_token('user_session')
                         ELSE prefixed_id_from_uuid(repeat('q', 1 + n % 63), gen_random_uuid()) END
FROM generate_series(1, 1000) n;
\getenv abs_builddir PG_ABS_BUILDDIR
\set binfile :abs_builddir '/results/prefixed_binary_out.bin'
\o :binfile
COPY (SELECT n, id FROM wire_out ORDER BY n) TO STDOUT (FORMAT binary);
\o
CREATE TEMP TABLE wire_fields (n_bytes bytea, field bytea);
\copy wire_fields FROM PROGRAM '/usr/bin/python3 "$WIRE" read "$PG_ABS_BUILDDIR/results/prefixed_binary_out.bin"'
SELECT ('x' || encode(n_bytes, 'hex'))::bit(32)::int AS n, field FROM wire_fields
WHERE ('x' || encode(n_bytes, 'hex'))::bit(32)::int <= 5 ORDER BY 1;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE f.field = set_byte('\x00'::bytea, 0, length(prefixed_id_prefix(o.id)))
                                        || convert_to(prefixed_id_prefix(o.id), 'SQL_ASCII')
                                        || uuid_send(prefixed_id_uuid(o.id))) AS framed,
       count(*) FILTER (WHERE f.field IS NULL AND o.id IS NULL) AS nulls
FROM wire_out o JOIN wire_fields f ON ('x' || encode(f.n_bytes, 'hex'))::bit(32)::int = o.n;
-- and the same file reads back into identical values
CREATE TEMP TABLE wire_back (LIKE wire_out);
\copy wire_back FROM PROGRAM 'cat "$PG_ABS_BUILDDIR/results/prefixed_binary_out.bin"' (FORMAT binary)
SELECT count(*) AS rows,
       count(*) FILTER (WHERE o.id IS NOT DISTINCT FROM b.id
                          AND prefixed_id_send(o.id) IS NOT DISTINCT FROM prefixed_id_send(b.id)) AS identical
FROM wire_out o FULL JOIN wire_back b USING (n);

-- prefixed_id_send itself: golden bytes
SELECT prefixed_id_send('acct_039srkj01e44uynszf2f2njh3') AS sent,
       prefixed_id_send('a__b_0000000000000000000000001') AS sent_inner_underscores;

DROP TABLE wire_accounts;
DROP DOMAIN wire_account_id;
SELECT count(*) AS wacct_registered_after_drop FROM prefixed_id_registry WHERE prefix = 'wacct';
