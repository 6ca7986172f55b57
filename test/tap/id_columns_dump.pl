# Columns of the 0.8.0 types through pg_dump and restore: ksuid, objectid,
# rsxid and uuid (v6 values) as primary and unique keys, with hash and BRIN
# indexes, in arrays, with NULLs and each type's smallest and largest value,
# and in tables range-partitioned by each family's boundary. The database is
# dumped in the custom format (pg_restore), the directory format (pg_dump and
# pg_restore -j 2) and as plain SQL (psql). Each copy must hold the same rows,
# pass amcheck on every btree index, answer through its hash and BRIN indexes
# as a sequential scan does, prune partitions on the boundaries, and mint by
# DEFAULT again: a KSUID and a UUIDv6 ('server' order) above every restored
# one, and no ObjectId or XID equal to a restored one (their unique keys).
use strict;
use warnings;
use IdgenTest;
use Test::More;
use IPC::Run ();
use PostgreSQL::Test::Utils;

my $node = IdgenTest::Node->create('main',
	conf => [ "idgen.ksuid_order = 'server'", "idgen.uuid_v6_order = 'server'" ]);
my $src = 'idgen_id_columns';
my $work = PostgreSQL::Test::Utils::tempdir('dump');
my @tables = qw(items copies ksuid_events objectid_events xid_events v6_events);

# fingerprint DB TABLE: row count and md5 of every row's text, in text order.
sub fingerprint
{
	my ($db, $table) = @_;
	return $node->q(
		"SELECT count(*) || ' ' || md5(coalesce(string_agg(t::text, ',' ORDER BY t::text COLLATE \"C\"), ''))
		 FROM $table t", db => $db);
}

# 1. The source database.
$node->fresh_database($src);
$node->sql_ok(
	"CREATE TABLE items (
	     k ksuid PRIMARY KEY DEFAULT ksuid(),
	     o objectid UNIQUE DEFAULT objectid(),
	     x rsxid UNIQUE DEFAULT xid(),
	     v uuid UNIQUE DEFAULT uuid_v6(),
	     ks ksuid[], os objectid[], xs rsxid[],
	     note text NOT NULL);
	 CREATE TABLE copies (k ksuid, o objectid, x rsxid, v uuid, note text);
	 CREATE INDEX copies_o_hash ON copies USING hash (o);
	 CREATE INDEX copies_x_hash ON copies USING hash (x);
	 CREATE INDEX copies_k_brin ON copies USING brin (k) WITH (pages_per_range = 4);
	 CREATE INDEX copies_v_brin ON copies USING brin (v) WITH (pages_per_range = 4)",
	'a table keyed by ksuid with objectid, rsxid and uuid v6 unique keys and arrays; '
	  . 'a copy of its keys with hash (objectid, rsxid) and BRIN (ksuid, uuid) indexes alone',
	db => $src);
for my $p (
	[ 'ksuid_events', 'ksuid', 'ksuid_boundary', 'ksuid_at' ],
	[ 'objectid_events', 'objectid', 'objectid_boundary', 'objectid_boundary' ],
	[ 'xid_events', 'rsxid', 'xid_boundary', 'xid_boundary' ],
	[ 'v6_events', 'uuid', 'uuid_v6_boundary', 'uuid_v6_at' ])
{
	my ($table, $type, $boundary, $at) = @$p;
	# objectid and rsxid have no "at" generator: a boundary plus a counter
	# made from n (the last 3 bytes) stands in.
	my $value = $at =~ /_at$/
	  ? "$at('2025-01-01+00'::timestamptz + n * interval '1 hour')"
	  : "(substr($boundary('2025-01-01+00'::timestamptz + n * interval '1 hour')::bytea, 1, 9)
	      || substr(int4send(n), 2, 3))::$type";
	$node->sql_ok(
		"CREATE TABLE $table (id $type PRIMARY KEY, n int) PARTITION BY RANGE (id);
		 CREATE TABLE ${table}_2025 PARTITION OF $table
		     FOR VALUES FROM ($boundary('2025-01-01+00')) TO ($boundary('2026-01-01+00'));
		 CREATE TABLE ${table}_2026 PARTITION OF $table
		     FOR VALUES FROM ($boundary('2026-01-01+00')) TO ($boundary('2027-01-01+00'));
		 INSERT INTO $table SELECT $value, n FROM generate_series(0, 17000) n",
		"$table: $type partitioned by $boundary, 17001 rows over 2025 and 2026",
		db => $src);
}
$node->sql_ok(
	"INSERT INTO items (note) SELECT 'default ' || n FROM generate_series(1, 3000) n;
	 UPDATE items SET ks = ARRAY[k, ksuid_boundary('2025-01-01+00')], os = ARRAY[o, NULL], xs = ARRAY[x]
	 WHERE note LIKE '%0';
	 INSERT INTO items (k, o, x, v, note) VALUES
	     ('000000000000000000000000000', '\\x000000000000000000000000'::bytea::objectid,
	      '\\x000000000000000000000000'::bytea::rsxid, uuid_v6_boundary('1582-10-15+00'), 'smallest'),
	     ('aWgEPTl1tmebfsQzFP4bxwgy80V', '\\xffffffffffffffffffffffff'::bytea::objectid,
	      '\\xffffffffffffffffffffffff'::bytea::rsxid, uuid_v6_boundary('5236-03-31 21:21:00.684697+00'),
	      'largest'),
	     ('0ujtsYcgvSTl8PAuAdqWYSMnLOv', NULL, NULL, NULL, 'nulls');
	 INSERT INTO copies SELECT k, o, x, v, note FROM items",
	'3000 rows from the DEFAULTs, arrays in 300 of them, the smallest and largest values and NULLs',
	db => $src);
my %source = map { $_ => fingerprint($src, $_) } @tables;
like($source{items}, qr/^3003 /, 'the source holds 3003 items');

# check_copy DB LABEL: the restored database DB against the source.
sub check_copy
{
	my ($db, $label) = @_;
	for my $t (@tables)
	{
		is(fingerprint($db, $t), $source{$t}, "$label: $t has the same rows ($source{$t})");
	}
	is( $node->q(
			"SELECT note || ' ' || k || ' ' || o || ' ' || x || ' ' || v FROM items
			 WHERE note IN ('smallest', 'largest') ORDER BY k", db => $db),
		$node->q(
			"SELECT note || ' ' || k || ' ' || o || ' ' || x || ' ' || v FROM items
			 WHERE note IN ('smallest', 'largest') ORDER BY k", db => $src),
		"$label: the smallest and largest values came back as they were");
	$node->q('CREATE EXTENSION IF NOT EXISTS amcheck', db => $db);
	my ($checked, $indexes) = split / /, $node->q(
		"SELECT count(bt_index_check(c.oid, true)) || ' ' || count(*)
		 FROM pg_class c JOIN pg_am a ON a.oid = c.relam
		 WHERE a.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace",
		db => $db);
	# items' 4 and the partitions' 8, beside the extension's own.
	ok($checked == $indexes && $indexes >= 12,
		"$label: bt_index_check(heapallindexed) passes on every btree index ($checked of $indexes)");
	# Lookups by equality (hash) and by range (BRIN), planned on the index, give
	# what a sequential scan gives.
	my $lookups = join(";\n",
		"SELECT count(*) FROM copies WHERE o = (SELECT o FROM items WHERE note = 'default 1234')",
		"SELECT count(*) FROM copies WHERE x = (SELECT x FROM items WHERE note = 'default 99')",
		"SELECT count(*) FROM copies WHERE k >= (SELECT k FROM items WHERE note = 'default 1000')",
		"SELECT count(*) FROM copies WHERE v >= (SELECT v FROM items WHERE note = 'default 2000')");
	my $by_index = $node->output("SET enable_seqscan = off; $lookups", db => $db);
	my $by_scan = $node->output("SET enable_indexscan = off; SET enable_bitmapscan = off; $lookups", db => $db);
	my $plans = $node->output(
		"SET enable_seqscan = off;
		 EXPLAIN (COSTS OFF) SELECT * FROM copies WHERE o = '56e1fc72e0c917e9c4714161';
		 EXPLAIN (COSTS OFF) SELECT * FROM copies WHERE x = '9m4e2mr0ui3e8a215n4g';
		 EXPLAIN (COSTS OFF) SELECT * FROM copies WHERE k > '0ujtsYcgvSTl8PAuAdqWYSMnLOv';
		 EXPLAIN (COSTS OFF) SELECT * FROM copies WHERE v > '00000000-0000-6000-8000-000000000000'", db => $db);
	my @used = $plans =~ /Index Scan on (copies_\w+)/g;
	ok( $by_index eq $by_scan && $by_index =~ /^1\n1\n\d+\n\d+$/
		  && "@used" eq 'copies_o_hash copies_x_hash copies_k_brin copies_v_brin',
		"$label: the hash and BRIN indexes answer as a sequential scan does")
	  or diag("index: $by_index\nscan: $by_scan\n$plans");
	my $pruned = $node->output(
		join(";\n",
			map { "EXPLAIN (COSTS OFF) SELECT count(*) FROM $_->[0] WHERE id < $_->[1]('2025-12-01+00')" }
			  ([ 'ksuid_events', 'ksuid_boundary' ], [ 'objectid_events', 'objectid_boundary' ],
				[ 'xid_events', 'xid_boundary' ], [ 'v6_events', 'uuid_v6_boundary' ])),
		db => $db);
	my %seen;
	my @scanned = grep { !$seen{$_}++ } $pruned =~ /on (\w+_20\d\d)\b/g;
	is("@scanned", 'ksuid_events_2025 objectid_events_2025 xid_events_2025 v6_events_2025',
		"$label: partitions prune on each family's boundary") or diag($pruned);
	is( $node->q(
			"WITH old AS (SELECT max(k) AS k, (array_agg(v ORDER BY v DESC))[1] AS v FROM items
			              WHERE note LIKE 'default%'),
			      new AS (INSERT INTO items (note) SELECT 'after restore ' || n FROM generate_series(1, 1000) n
			              RETURNING k, v)
			 SELECT bool_and(new.k > old.k) || ' ' || bool_and(new.v > old.v) FROM new, old", db => $db),
		'true true',
		"$label: 1000 new rows by DEFAULT (none repeats a restored objectid or xid: their unique keys), "
		  . "each ksuid and uuid_v6 above every restored one");
	is( $node->error(
			"INSERT INTO items (o, note) SELECT o, 'again' FROM items WHERE note = 'default 7'", db => $db),
		'23505: duplicate key value violates unique constraint "items_o_key"',
		"$label: a restored objectid inserted again violates its unique key");
	return;
}

# 2. Custom format, restored with pg_restore.
$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr($src), '-f', "$work/db.dump" ],
	'pg_dump -Fc succeeds');
# pg_dump writes table data with COPY in text form: the values go through
# each type's output and input functions.
my ($listing) = run_command([ 'pg_restore', '-f', '-', "$work/db.dump" ]);
like($listing, qr/^aWgEPTl1tmebfsQzFP4bxwgy80V\tffffffffffffffffffffffff\t\w{20}\t[0-9a-f-]{36}\t\\N\t\\N\t\\N\tlargest$/m,
	'the custom dump holds the values as COPY text (pg_restore -f - shows them)');
my $custom = 'idgen_id_columns_custom';
$node->command_ok([ 'createdb', $custom ], "createdb $custom (without the extension)");
my $restore_err = '';
ok( IPC::Run::run(
		[ 'pg_restore', '--exit-on-error', '-d', $node->connstr($custom), "$work/db.dump" ],
		'>', \my $restore_out, '2>', \$restore_err),
	'pg_restore --exit-on-error succeeds');
is($restore_err, '', 'pg_restore reported nothing on stderr');
check_copy($custom, 'custom format');

# 3. Directory format, dumped and restored with 2 jobs.
$node->command_ok([ 'pg_dump', '-Fd', '-j', '2', '-d', $node->connstr($src), '-f', "$work/db.dir" ],
	'pg_dump -Fd -j 2 succeeds');
my $directory = 'idgen_id_columns_directory';
$node->command_ok([ 'createdb', $directory ], "createdb $directory");
$node->command_ok(
	[ 'pg_restore', '-j', '2', '--exit-on-error', '-d', $node->connstr($directory), "$work/db.dir" ],
	'pg_restore -j 2 --exit-on-error succeeds');
check_copy($directory, 'directory format, 2 jobs');

# 4. Plain SQL, restored with psql.
$node->command_ok([ 'pg_dump', '-Fp', '-d', $node->connstr($src), '-f', "$work/db.sql" ],
	'pg_dump -Fp succeeds');
my $plain = 'idgen_id_columns_plain';
$node->command_ok([ 'createdb', $plain ], "createdb $plain");
$node->command_ok(
	[
		'psql', '-Xq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($plain),
		'-f', "$work/db.sql", '-o', '/dev/null'
	],
	'psql -v ON_ERROR_STOP=1 restores the plain dump');
check_copy($plain, 'plain SQL');

done_testing();
