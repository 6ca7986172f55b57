# The lock queue (issue 51, finding 2): PostgreSQL takes some strong locks
# before it checks privileges (CREATE RULE takes AccessExclusiveLock, CREATE
# TRIGGER ShareRowExclusiveLock), and every later conflicting request queues
# behind the waiting one. idgen_lease_origin is readable by PUBLIC: with one
# role's open transaction that read it, and another role's CREATE RULE or
# CREATE TRIGGER waiting on it, idgen 0.8.0 made the first uuid_v7(), ulid(),
# snowflake() and prefixed_id_new() of every new session in the database wait
# in lease_origin_adopt's table_open until the reader ended. Now the origin
# check takes the table's lock only when it is free, and every family mints at
# once, whether or not a session read the table since the start. Core
# nextval() is shown blocked by the same trick: a guarantee core cannot give.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main');
$node->q(
	"CREATE EXTENSION idgen;
	 CREATE ROLE reader LOGIN; CREATE ROLE attacker LOGIN;
	 CREATE SEQUENCE app_seq; GRANT USAGE ON SEQUENCE app_seq TO reader");

# The database the sessions below connect to.
my $db = 'postgres';

# session NAME ROLE SQL: a psql session of ROLE running SQL in the background,
# on past errors; killed after 60 s.
sub session
{
	my ($name, $role, $sql) = @_;
	return $node->psql_to_file($name, $sql, db => $db, user => $role, on_error_stop => 0);
}

# hold HOLDER_SQL LABEL: the reader runs HOLDER_SQL in a transaction it
# keeps open; returns a sub that ends it.
sub hold
{
	my ($holder_sql, $label) = @_;
	my $holder = session("holder_$label", 'reader', "BEGIN;\n$holder_sql;\nSELECT pg_sleep(50);\n");
	$node->poll_query_until('postgres',
		"SELECT count(*) > 0 FROM pg_stat_activity WHERE application_name = 'holder_$label'
		   AND wait_event = 'PgSleep'")
	  or die "the holder of $label did not start";
	return end_sub([$holder], "holder_$label");
}

# end_sub HARNESS NAME...: a sub that terminates the sessions named NAME and
# waits for their psql (each exits once its backend ended; not killed from
# here, which would signal this test's own process group).
sub end_sub
{
	my ($harnesses, @names) = @_;
	return sub {
		$node->q('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name IN ('
			  . join(', ', map { "'$_'" } @names) . ')');
		eval { $_->finish } for @$harnesses;
	};
}

# queued HOLDER_SQL WAITER_SQL LABEL: the reader runs HOLDER_SQL in an open
# transaction, the attacker WAITER_SQL, which waits for a lock behind it;
# returns a sub that ends both.
sub queued
{
	my ($holder_sql, $waiter_sql, $label) = @_;
	my $end_holder = hold($holder_sql, $label);
	my $waiter = session("waiter_$label", 'attacker', "$waiter_sql;\n");
	ok( $node->poll_query_until('postgres',
			"SELECT count(*) > 0 FROM pg_stat_activity WHERE application_name = 'waiter_$label'
			   AND wait_event_type = 'Lock'"),
		"$label: the attacker's command waits for a lock behind the reader's open transaction");
	my $end_waiter = end_sub([$waiter], "waiter_$label");
	return sub { $end_holder->(); $end_waiter->(); };
}

# mints_at_once LABEL: a new session's first call of each family returns
# within its 3 s statement_timeout.
sub mints_at_once
{
	my ($label) = @_;
	for my $call ('uuid_v7()', 'ulid()', 'snowflake(4)', 'snowflake53(4)', "prefixed_id_new('acct')")
	{
		my ($status, $out, $err) = $node->run_sql("SET statement_timeout = '3s'; SELECT $call IS NOT NULL",
			db => $db, verbose => 1);
		is($out . $err, 't', "$label: a new session's first $call mints at once");
	}
}

my $origin = 'SELECT count(*) FROM idgen_lease_origin';
my $rule = 'CREATE RULE r AS ON INSERT TO idgen_lease_origin DO INSTEAD NOTHING';
is($node->q('SELECT uuid_v7() IS NOT NULL'), 't', 'a session checks the origin');
my $end = queued($origin, $rule, 'rule');
mints_at_once('CREATE RULE queued');
# The check found the note of the first session in shared memory: no session
# had to raise the leases.
is($node->q('SELECT extract(epoch FROM uuid_v7_time(uuid_v7()) - clock_timestamp()) < 1'),
	't', 'CREATE RULE queued: no session raised the leases');
$end->();

# CREATE TRIGGER's ShareRowExclusiveLock does not conflict with the
# AccessShareLock of a reader (nor of the origin check): it does not queue
# behind one, and fails at once on the privilege; a role with only SELECT
# cannot hold a lock it would conflict with.
$end = hold($origin, 'trigger');
my ($status, $out, $err) = $node->run_sql(
	'CREATE TRIGGER t BEFORE INSERT ON idgen_lease_origin FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger()',
	user => 'attacker', verbose => 1);
like($err, qr/ERROR:  42501: permission denied for table idgen_lease_origin/,
	"CREATE TRIGGER beside a reader's open transaction fails at once on the privilege, without queueing");
mints_at_once('CREATE TRIGGER tried');
$end->();

# A database where no session read the table since the start: the check
# cannot tell, and raises the leases rather than wait.
$node->q('CREATE DATABASE fresh');
$node->q('CREATE EXTENSION idgen', db => 'fresh');
$db = 'fresh';
$end = queued($origin, $rule, 'rule_before_any_check');
mints_at_once('CREATE RULE queued, before any session read the origin');
$end->();
$db = 'postgres';

# Core: a sequence that one session uses in an open transaction, and a role
# with no grant on it whose CREATE RULE waits: nextval() waits too.
$end = queued("SELECT nextval('app_seq')", 'CREATE RULE r AS ON INSERT TO app_seq DO INSTEAD NOTHING',
	'core_sequence');
($status, $out, $err) =
  $node->run_sql("SET statement_timeout = '2s'; SELECT nextval('app_seq')", verbose => 1);
like($err, qr/ERROR:  57014: canceling statement due to statement timeout/,
	"core nextval() waits behind the same queue until its statement_timeout");
$end->();

done_testing();
