# Time partitioning by idgen keys (docs/multi-server.md, "Partitioning by
# time"): its recipes, run verbatim on a server whose clock libfaketime sets to
# noon UTC and later moves two days on. Native range partitions of uuid_v7(),
# ulid() and snowflake() keys kept by the manual's procedure (every major), and
# pg_partman 4.7 managing a snowflake() table by ID ranges (PostgreSQL 15 only,
# the major it is packaged for). For every table: the partitions ahead exist,
# rows land in the partition of the UTC day their key decodes to, the default
# partition stays empty, and EXPLAIN shows which time-range predicates prune at
# plan time, which at executor start-up and which not at all.
use strict;
use warnings;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

# The server's clock starts at the next noon UTC, far from midnight, so that
# no day ends under the test. Its TimeZone is 14 h ahead of UTC: there the
# date is already the next day, which a recipe using the local date would get
# wrong.
my $node = IdgenTest::Node->create(
	'c',
	fake_clock => 1,
	start => 0,
	conf => ["timezone = 'Pacific/Kiritimati'"]);
my $now = time;
my $offset = (43200 - $now % 86400 + 86400) % 86400;
$node->set_clock_offset("+$offset");
$node->start;
my $major = $node->pg_version->major;
$node->q('CREATE EXTENSION idgen; ALTER DATABASE postgres SET idgen.shard_id = 3');
# The procedure's "already exists, skipping" notices are expected.
$ENV{PGOPTIONS} = '-c client_min_messages=warning';
my $day0 = $node->q("SELECT (now() AT TIME ZONE 'UTC')::date");
note('server clock: ' . $node->q("SELECT now() AT TIME ZONE 'UTC'") . ' UTC');

# sql SQL: its result on the server.
sub sql { return $node->q($_[0]); }

# scanned(QUERY): the relations EXPLAIN's plan of QUERY reads, sorted, then
# "| removed N" with the plan's Subplans Removed (partitions pruned at
# executor start-up; those pruned at plan time do not appear at all).
sql(q{CREATE FUNCTION scanned(query text) RETURNS text LANGUAGE plpgsql AS $$
   DECLARE plan jsonb;
   BEGIN
       EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
       RETURN coalesce((SELECT string_agg(r, ' ' ORDER BY r COLLATE "C")
                        FROM (SELECT DISTINCT r #>> '{}' AS r
                              FROM jsonb_path_query(plan, 'strict $.**."Relation Name"') r) s), '')
           || ' | removed ' || coalesce((SELECT sum((s #>> '{}')::int)
                        FROM jsonb_path_query(plan, 'strict $.**."Subplans Removed"') s), 0);
   END $$});

# readme_block NAME: the SQL block of docs/multi-server.md marked
# "<!-- run by test/integration/partitioning.pl: NAME -->" (IdgenTest's
# doc_block, through test/lib/readme_sql.py).
sub readme_block
{
	my ($name) = @_;
	return doc_block('test/integration/partitioning.pl', 'docs/multi-server.md', $name) =~ s/\n+\z//r;
}

# run_readme_block NAME: runs it in one psql session, stopping at the first
# error; true if it all ran (what psql said goes to the test's output if not).
sub run_readme_block
{
	my ($name) = @_;
	my $sql = readme_block($name);
	if ($sql eq '')
	{
		note("docs/multi-server.md has no block '$name'");
		return 0;
	}
	my ($status, $out, $err) = $node->run_sql($sql);
	note("$out\n$err") if $status != 0;
	return $status == 0;
}

# partitions TABLE: its partitions except the default one, in name order.
sub partitions
{
	my ($table) = @_;
	return sql("SELECT string_agg(c.relname, ' ' ORDER BY c.relname COLLATE \"C\")
	          FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	          WHERE i.inhparent = '$table'::regclass AND c.relname <> '${table}_default'");
}

# days_named NAME_OF_DAY FIRST LAST: the partition names NAME_OF_DAY (an SQL
# expression of the date d) gives days day0 + FIRST .. day0 + LAST.
sub days_named
{
	my ($name_of_day, $first, $last) = @_;
	return sql("SELECT string_agg($name_of_day, ' ' ORDER BY d)
	          FROM (SELECT '$day0'::date + k AS d FROM generate_series($first, $last) k) s");
}

# utc_day EXPR: the UTC date of the timestamptz EXPR, as SQL.
sub utc_day { return "(($_[0]) AT TIME ZONE 'UTC')::date"; }
# utc_midnight EXPR: midnight UTC of the date EXPR, as SQL.
sub utc_midnight { return "(($_[0])::timestamp AT TIME ZONE 'UTC')"; }

# placement TABLE DECODE NAME_OF_DAY: "misplaced|in default|total" for the
# rows of TABLE, where a row is misplaced unless its partition is the one
# NAME_OF_DAY names for the UTC day DECODE(id) returns.
sub placement
{
	my ($table, $decode, $name_of_day) = @_;
	my $day = utc_day("$decode(id)");
	return sql("SELECT count(*) FILTER (WHERE tableoid::regclass::text <>
	                                      (SELECT $name_of_day FROM (SELECT $day AS d) s)),
	                 count(*) FILTER (WHERE tableoid = '${table}_default'::regclass),
	                 count(*)
	          FROM $table");
}

# bad_bounds TABLE BOUNDARY DAY_OF_PARTITION: partitions (default aside) whose
# bounds are not BOUNDARY of the start of their UTC day and of the next one;
# DAY_OF_PARTITION is an SQL expression of relname giving the day it should
# hold.
sub bad_bounds
{
	my ($table, $boundary, $day_of) = @_;
	my ($from, $to) = (utc_midnight('d'), utc_midnight('d + 1'));
	return sql("SELECT count(*) FROM (
	              SELECT pg_get_expr(c.relpartbound, c.oid) AS bound, $day_of AS d
	              FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	              WHERE i.inhparent = '$table'::regclass AND c.relname <> '${table}_default') p
	          WHERE bound IS DISTINCT FROM format('FOR VALUES FROM (%L) TO (%L)',
	                    $boundary($from), $boundary($to))");
}

# The server's idgen.snowflake_epoch (the default), for the explicit-epoch forms.
my $EPOCH = "'2024-01-01 00:00:00+00'";

# check_pruning TABLE BOUNDARY DECODE NAME_OF_DAY: EXPLAIN of five time-range
# predicates on TABLE's key (six for snowflake keys), over tomorrow (UTC) or
# the coming hour.
sub check_pruning
{
	my ($table, $boundary, $decode, $name_of_day) = @_;
	my $today = sql("SELECT $name_of_day FROM (SELECT " . utc_day('now()') . ' AS d) s');
	my $tomorrow = sql("SELECT $name_of_day FROM (SELECT " . utc_day('now()') . ' + 1 AS d) s');
	my $d1 = sql('SELECT ' . utc_day('now()') . ' + 1');
	my $d2 = sql('SELECT ' . utc_day('now()') . ' + 2');
	my $all = sql("SELECT string_agg(c.relname, ' ' ORDER BY c.relname COLLATE \"C\")
	             FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	             WHERE i.inhparent = '$table'::regclass");
	my $n = sql("SELECT count(*) FROM pg_inherits WHERE inhparent = '$table'::regclass");
	my $removed = $n - 1;
	# snowflake_boundary() is IMMUTABLE only with the epoch as an argument
	# (shard 0: the smallest ID of the millisecond on any shard); it reads
	# idgen.snowflake_epoch, and is STABLE, without it.
	my $epoch_args = $boundary eq 'snowflake_boundary' ? ", 0, $EPOCH" : '';
	is( sql("SELECT scanned(\$q\$SELECT * FROM $table
	          WHERE id >= $boundary('$d1 00:00+00'$epoch_args) AND id < $boundary('$d2 00:00+00'$epoch_args)\$q\$)"
		),
		"$tomorrow | removed 0",
		"$table: a range of $boundary("
		  . ($epoch_args ? '…, 0, epoch' : '')
		  . ") of timestamptz constants is pruned at plan time to tomorrow's partition");
	if ($epoch_args)
	{
		is( sql("SELECT scanned(\$q\$SELECT * FROM $table
		          WHERE id >= $boundary('$d1 00:00+00') AND id < $boundary('$d2 00:00+00')\$q\$)"),
			"$tomorrow | removed $removed",
			"$table: the same range of $boundary() without an epoch (STABLE) is pruned at executor start-up");
	}
	is( sql("SELECT scanned(\$q\$SELECT * FROM $table
	          WHERE id >= $boundary(now()) AND id < $boundary(now() + interval '1 hour')\$q\$)"),
		"$today | removed $removed",
		"$table: a range of $boundary() of now() is pruned at executor start-up (Subplans Removed) to today's"
	);
	is( sql("SET plan_cache_mode = force_generic_plan;
	       PREPARE r(timestamptz, timestamptz) AS
	           SELECT * FROM $table WHERE id >= $boundary(\$1) AND id < $boundary(\$2);
	       SELECT scanned(\$q\$EXECUTE r('$d1 00:00+00', '$d2 00:00+00')\$q\$)"),
		"$tomorrow | removed $removed",
		"$table: a generic plan with $boundary(\$1) is pruned at executor start-up");
	is( sql("SET TimeZone = 'UTC';
	       SELECT scanned(\$q\$SELECT * FROM $table
	           WHERE id >= $boundary('$d1'::date) AND id < $boundary('$d2'::date)\$q\$)"),
		"$tomorrow | removed $removed",
		"$table: $boundary() of a date (a STABLE cast) is pruned at executor start-up");
	is( sql("SELECT scanned(\$q\$SELECT * FROM $table WHERE $decode(id) >= '$d1 00:00+00'\$q\$)"),
		"$all | removed 0",
		"$table: $decode(id) >= a constant is not pruned: every partition is scanned");
	return;
}

# native_name TABLE: the partition name of date d, as SQL, for the manual's
# procedure; native_day: the day a partition of it holds, from relname.
sub native_name { return "'$_[0]_' || to_char(d, 'YYYYMMDD')"; }
sub native_day { return "to_date(right(c.relname, 8), 'YYYYMMDD')"; }

# 1. Native partitions, kept by the manual's procedure.
ok(run_readme_block('native'), "the manual's native recipe runs (procedure, orders, sessions, posts)");
my @native_tables = (
	[qw(orders uuid_v7_boundary uuid_v7_time total)],
	[qw(sessions ulid_boundary ulid_time user_id)],
	[qw(posts snowflake_boundary snowflake_time body)]);
for my $spec (@native_tables)
{
	my ($table, $boundary, $decode, $column) = @$spec;
	is(partitions($table), days_named(native_name($table), 0, 7),
		"$table: partitions of today through today + 7 (UTC days)");
	is(bad_bounds($table, $boundary, native_day()),
		0, "$table: each partition runs from $boundary() of its UTC midnight to the next");
	sql("INSERT INTO $table ($column) SELECT NULL FROM generate_series(1, 1000)");
	is(placement($table, $decode, native_name($table)),
		'0|0|1000', "$table: 1,000 new rows land in the partition of their $decode() day, none in the default");
	check_pruning($table, $boundary, $decode, native_name($table));
}

like(
	$node->error(
		"CREATE TABLE by_int (id integer) PARTITION BY RANGE (id);
		 CALL premake_daily_partitions('by_int', 1)"),
	qr/^\Q22023: by_int is not range-partitioned on one uuid, ulid or bigint column\E/,
	'premake_daily_partitions refuses a table not keyed by uuid, ulid or bigint (22023)');

# 2. pg_partman 4.7 on a snowflake() key (PostgreSQL 15).
my $partman_name = "'events_p' || snowflake_boundary(" . utc_midnight('d') . ')';
my $partman_day = utc_day(q{snowflake_time(substring(c.relname from '_p([0-9]+)$')::bigint)});
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
chomp(my $sharedir = `$pg_config --sharedir`);
my $have_partman = -e "$sharedir/extension/pg_partman.control";
fail('pg_partman is installed for PostgreSQL 15 (bash test/setup.sh)')
  if !$have_partman && $major == 15;
SKIP:
{
	skip 'pg_partman is packaged for PostgreSQL 15 only', 12 unless $have_partman;
	ok(run_readme_block('partman'), "the manual's pg_partman recipe runs");
	is(partitions('events'), days_named($partman_name, 0, 4),
		'events: create_parent made the partitions of today through today + 4');
	is( sql("SELECT partition_interval FROM partman.part_config WHERE parent_table = 'public.events'"),
		sql('SELECT 86400000::bigint << 23'),
		'events: the interval is one day of snowflake IDs, 86400000 << 23');
	is(bad_bounds('events', 'snowflake_boundary', $partman_day),
		0, 'events: each partition runs from the snowflake_boundary() of a UTC midnight to the next');
	sql('INSERT INTO events (body) SELECT NULL FROM generate_series(1, 1000)');
	is(placement('events', 'snowflake_time', $partman_name),
		'0|0|1000', 'events: 1,000 new rows land in the partition of their snowflake_time() day, none in the default');
	check_pruning('events', 'snowflake_boundary', 'snowflake_time', $partman_name);
	sql(q{CREATE TABLE events_nostart (id bigint PRIMARY KEY DEFAULT snowflake()) PARTITION BY RANGE (id);
	    SELECT partman.create_parent('public.events_nostart', 'id', 'native', (86400000::bigint << 23)::text)});
	is( sql(q{SELECT min(substring(c.relname from '_p([0-9]+)$')::bigint) FROM pg_inherits i
	        JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events_nostart'::regclass}),
		0,
		"without p_start_partition, create_parent on an empty table starts at ID 0 (the epoch's day)");
}

# 3. Two days later (the server reads the offset file at every clock call).
$node->set_clock_offset('+' . ($offset + 2 * 86400));
is(sql('SELECT ' . utc_day('now()') . " - '$day0'::date"), 2, "the server's clock is two days on");
for my $spec (@native_tables)
{
	my ($table, $boundary, $decode, $column) = @$spec;
	sql("CALL premake_daily_partitions('$table', 7)");
	is(partitions($table), days_named(native_name($table), 0, 9),
		"$table: two days later, the same CALL adds the two missing days ahead");
	sql("INSERT INTO $table ($column) SELECT NULL FROM generate_series(1, 1000)");
	is(placement($table, $decode, native_name($table)),
		'0|0|2000', "$table: the new rows land in their day's partition, none in the default");
	my $today = sql("SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD')");
	is(sql("SELECT count(*) FROM ${table}_$today"), 1000, "$table: today's partition holds the 1,000 new rows");
}
SKIP:
{
	skip 'pg_partman is packaged for PostgreSQL 15 only', 4 unless $have_partman;
	ok(run_readme_block('partman maintenance'), "the manual's run_maintenance() runs");
	is(partitions('events'), days_named($partman_name, 0, 4),
		'events: with no new row, run_maintenance() creates nothing (it goes by the largest ID, not the clock)');
	sql('INSERT INTO events (body) SELECT NULL FROM generate_series(1, 1000)');
	run_readme_block('partman maintenance');
	is(partitions('events'), days_named($partman_name, 0, 6),
		"events: after new rows, run_maintenance() keeps 4 partitions beyond today's");
	is(placement('events', 'snowflake_time', $partman_name),
		'0|0|2000', "events: the new rows land in their day's partition, none in the default");
}

# 4. A row beyond the partitions made ahead goes to the default partition, and
# then blocks the creation of its day's partition until it is moved out.
sql("INSERT INTO orders (id) VALUES (uuid_v7_at(now() + interval '30 days'))");
is(sql('SELECT count(*) FROM orders_default'), 1, 'orders: a row 30 days ahead lands in the default partition');
is( $node->error("CALL premake_daily_partitions('orders', 31)"),
	'23514: updated partition constraint for default partition "orders_default" would be violated by some row',
	"orders: creating its day's partition then fails with 23514, naming the default partition");
$node->sql_ok(
	"CREATE TABLE orders_holding (LIKE orders);
	 WITH moved AS (DELETE FROM orders_default RETURNING *) INSERT INTO orders_holding SELECT * FROM moved;
	 CALL premake_daily_partitions('orders', 31);
	 INSERT INTO orders SELECT * FROM orders_holding",
	'orders: moving the row out, the CALL and moving it back succeed');
is(placement('orders', 'uuid_v7_time', native_name('orders')),
	'0|0|2001', "orders: the row is now in its day's partition, the default is empty");

done_testing();
