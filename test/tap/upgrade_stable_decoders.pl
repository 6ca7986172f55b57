# The 0.5.0 -> 0.6.0 update makes the snowflake decoders and boundaries that
# read idgen.snowflake_epoch STABLE. A generated column or an index built on
# them under 0.5.0 keeps working, but a dump of the database no longer
# restores. The update names each such object (a WARNING with a hint); after
# recreating it with the explicit-epoch form, the dump restores with the same
# values. A database without such objects updates without a warning.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use IPC::Run ();
use PostgreSQL::Test::Utils;

my $node = IdgenTest::Node->create('main', conf => ['idgen.shard_id = 1']);
my $work = PostgreSQL::Test::Utils::tempdir('upgrade060');

# output SQL DB: what psql prints running SQL in DB, errors and warnings included.
sub output
{
	my ($sql, $db) = @_;
	my (undef, $out, $err) = $node->run_sql($sql, db => $db);
	return join("\n", grep { $_ ne '' } $out, $err);
}

$node->q('CREATE DATABASE old_surface');
$node->q('CREATE DATABASE plain');
$node->q(
	"CREATE EXTENSION idgen VERSION '0.5.0';
	 CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake(),
	                      made timestamptz GENERATED ALWAYS AS (snowflake_time(id)) STORED);
	 CREATE INDEX events_made_idx ON events (snowflake_time(id));
	 CREATE TABLE small (id bigint PRIMARY KEY DEFAULT snowflake53(1));
	 CREATE INDEX small_day_idx ON small (id) WHERE id >= snowflake53_boundary('2026-01-01+00');
	 INSERT INTO events SELECT FROM generate_series(1, 100);
	 INSERT INTO small SELECT FROM generate_series(1, 100)", db => 'old_surface');
$node->q(
	"CREATE EXTENSION idgen VERSION '0.5.0';
	 CREATE TABLE t (id bigint DEFAULT snowflake(), made timestamptz DEFAULT now())",
	db => 'plain');

my $update = output('ALTER EXTENSION idgen UPDATE', 'old_surface');
is($node->q("SELECT extversion FROM pg_extension WHERE extname = 'idgen'", db => 'old_surface'),
	idgen_version(), 'the update succeeds');
like(
	$update,
	qr/\QWARNING:  generated column made of table events uses snowflake_time(bigint), which reads idgen.snowflake_epoch and is STABLE from idgen 0.6.0\E/,
	'it names the generated column');
like(
	$update,
	qr/\QWARNING:  index events_made_idx uses snowflake_time(bigint)\E/,
	'it names the index');
like(
	$update,
	qr/\QWARNING:  index small_day_idx uses snowflake53_boundary(timestamp with time zone)\E/,
	'it names the partial index on a snowflake53 boundary');
is(scalar(() = $update =~ /^WARNING:/mg), 3, 'three warnings, one per object');
like(
	$update,
	qr/\QHINT:  Recreate it with the form that takes the epoch, such as snowflake_time(id, epoch)\E/,
	'the hint names the explicit-epoch forms');
is(output('ALTER EXTENSION idgen UPDATE', 'plain'),
	'', 'a database without such objects updates silently (a DEFAULT may be STABLE)');
is( $node->q(
		'INSERT INTO events DEFAULT VALUES RETURNING made = snowflake_time(id)',
		db => 'old_surface'),
	't',
	'the old column and index keep working');

# restore_into SRC DST: dumps SRC as plain SQL and restores the dump into a
# new database DST with psql; (whether the restore worked, its output).
sub restore_into
{
	my ($src, $dst) = @_;
	my $file = "$work/$src.sql";
	$node->q("CREATE DATABASE $dst");
	$node->run_log([ 'pg_dump', '-d', $node->connstr($src), '-f', $file ])
	  or die "pg_dump of $src failed\n";
	my $log = '';
	my $ok = IPC::Run::run(
		[ 'psql', '-Xq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($dst), '-f', $file ],
		'>', \$log, '2>&1');
	print "restore into $dst:\n$log\n";
	return ($ok, $log);
}

# The dump does not restore, as the warning says.
my ($restored, $log) = restore_into('old_surface', 'copy1');
ok(!$restored, 'a dump of the updated database does not restore');
like($log, qr/generation expression is not immutable/,
	'... because of the generation expression');

# Recreated with the explicit epoch, as the hint says: the dump restores, and
# the values are the same.
$node->q(
	"ALTER TABLE events DROP COLUMN made;
	 ALTER TABLE events ADD COLUMN made timestamptz GENERATED ALWAYS AS (snowflake_time(id, '2024-01-01+00')) STORED;
	 DROP INDEX events_made_idx; CREATE INDEX events_made_idx ON events (snowflake_time(id, '2024-01-01+00'));
	 DROP INDEX small_day_idx;
	 CREATE INDEX small_day_idx ON small (id) WHERE id >= snowflake53_boundary('2026-01-01+00', 0, '2024-01-01+00')",
	db => 'old_surface');
($restored) = restore_into('old_surface', 'copy2');
ok($restored, 'recreated with the epoch form, the dump restores');
is( $node->q("SELECT count(*), sum(extract(epoch FROM made)) FROM events", db => 'copy2'),
	$node->q("SELECT count(*), sum(extract(epoch FROM made)) FROM events", db => 'old_surface'),
	'... with the same rows and times');

done_testing();
