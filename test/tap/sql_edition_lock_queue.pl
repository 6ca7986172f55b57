# The SQL edition's waits (issue 51, finding 2): PostgreSQL takes some strong
# locks before it checks privileges (CREATE RULE AccessExclusiveLock, CREATE
# TRIGGER ShareRowExclusiveLock), and every later conflicting request queues
# behind the waiting one; and a database owner may ANALYZE any table of its
# database, holding ShareUpdateExclusiveLock to the end of its transaction
# (on 17+ a role with MAINTAIN too, and it may LOCK TABLE in any mode). On
# idgen 0.8.0 every snowflake() and snowflake53() of the database waited
# behind each of these until statement_timeout. Now the maintenance blocks
# nothing (the lock object is a view, which ANALYZE and VACUUM skip, holding
# their lock only while they look), and where the queue cannot be avoided
# (nextval locks the state sequence; LOCK TABLE the lock view) a mint waits at
# most 1 s (or the caller's smaller lock_timeout), then fails with 55P03 and a
# detail that names the sessions in the way. Core nextval() is shown blocked
# by the same trick, without a bound.
use strict;
use warnings;
use IPC::Run ();
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils ();

my $repo = repo_dir();
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my ($major) = `$pg_config --version` =~ /^PostgreSQL (\d+)/;
my $tmp = PostgreSQL::Test::Utils::tempdir('sqledlq');
my $script = "$tmp/idgen_sql.sql";
my $make_out = '';
IPC::Run::run([ 'make', '-s', '-C', $repo, 'sql-edition', "SQL_EDITION=$script", "PG_CONFIG=$pg_config" ],
	'>', \$make_out, '2>&1');
ok(-s $script, 'make sql-edition wrote the script') or diag($make_out);

my $node = IdgenTest::Node->create('m', preload => 0);
$node->q(
	'CREATE ROLE owner LOGIN; CREATE ROLE reader LOGIN; CREATE ROLE dbo LOGIN; CREATE ROLE maint LOGIN;
	 CREATE DATABASE app OWNER dbo; GRANT CREATE ON DATABASE app TO owner');
$node->q('CREATE SEQUENCE public.app_seq; GRANT USAGE ON SEQUENCE public.app_seq TO reader', db => 'app');
{
	local $ENV{PGOPTIONS} = '-c search_path=ids';
	$node->sql_ok("CREATE SCHEMA ids; GRANT USAGE ON SCHEMA ids TO PUBLIC;\n" . PostgreSQL::Test::Utils::slurp_file($script),
		'the edition installs into schema ids as role owner', db => 'app', user => 'owner');
}
# (MAINTAIN exists from 17 on; only the owner may grant it)
$node->q('GRANT MAINTAIN ON ids.idgen_sql_snowflake_lock, ids.idgen_sql_snowflake53_lock TO maint', db => 'app', user => 'owner')
  if $major >= 17;

# session NAME ROLE SQL: a psql session of ROLE running SQL in the background
# (application_name NAME), on past errors; killed after 60 s.
sub session
{
	my ($name, $role, $sql) = @_;
	return $node->psql_to_file($name, $sql, db => 'app', user => $role, on_error_stop => 0, verbose => 0);
}

# pid_of NAME: the backend of session NAME once it is in STATE (a condition on
# pg_stat_activity), or dies.
sub pid_of
{
	my ($name, $state) = @_;
	$node->poll_query_until('app', "SELECT count(*) > 0 FROM pg_stat_activity WHERE application_name = '$name' AND $state")
	  or die "session $name did not reach $state";
	return $node->q("SELECT pid FROM pg_stat_activity WHERE application_name = '$name'", db => 'app');
}

# end SESSIONS: terminates the named sessions' backends and waits for their psql.
sub end_sessions
{
	my (@h) = @_;
	$node->q("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name ~ '^(holder|queuer)_'",
		db => 'app');
	eval { $_->finish } for @h;
	return;
}

# mint SQL: (SQLSTATE: message, detail) of SQL run by reader after
# "SET statement_timeout = '5s'", or ('', '') if it succeeds.
sub mint
{
	my ($sql) = @_;
	my ($status, $out, $err) =
	  $node->run_sql("SET statement_timeout = '5s';\n$sql", db => 'app', user => 'reader', verbose => 1);
	my ($code, $message) = $err =~ /ERROR:\s+([0-9A-Z]{5}): (.*)/;
	my ($detail) = $err =~ /DETAIL:\s+(.*)/;
	return ($code ? "$code: $message" : '', $detail // '');
}

my $holding = "SELECT pg_sleep(50);\n";
my $sleeping = "wait_event = 'PgSleep'";
my $waiting = "wait_event_type = 'Lock'";

# --- queues no SQL can avoid: bounded, explained -----------------------------------
# Each case: HOLDER's open transaction (role reader, a role without grants),
# then QUEUER's statement waiting behind it (also reader's; it would fail on
# privileges once it had its lock); a mint of that family then fails at 1 s,
# naming the queuer (what it waits for) and, through pg_blocking_pids, the
# holder behind it.
my @queues = (
	[ 'a prepared SELECT of the lock object and CREATE RULE on it', 'PREPARE p AS SELECT FROM ids.idgen_sql_%s_lock;',
		'CREATE RULE r AS ON INSERT TO ids.idgen_sql_%s_lock DO INSTEAD NOTHING;', 'AccessExclusiveLock' ],
	[ 'a prepared SELECT of the state sequence and CREATE RULE on it (the wait is in nextval)',
		'PREPARE p AS SELECT FROM ids.idgen_sql_%s_state;',
		'CREATE RULE r AS ON INSERT TO ids.idgen_sql_%s_state DO INSTEAD NOTHING;', 'AccessExclusiveLock' ],
	[ 'an open transaction that minted (nextval keeps its lock to the end) and CREATE RULE on the state sequence',
		'SELECT ids.%s(1);',
		'CREATE RULE r AS ON INSERT TO ids.idgen_sql_%s_state DO INSTEAD NOTHING;', 'AccessExclusiveLock' ],
);
for my $case (@queues)
{
	my ($what, $hold, $queue, $mode) = @$case;
	for my $family (qw(snowflake snowflake53))
	{
		my $holder = session("holder_$family", 'reader', sprintf("BEGIN;\n$hold\n$holding", $family));
		my $holder_pid = pid_of("holder_$family", $sleeping);
		my $queuer = session("queuer_$family", 'reader', sprintf("$queue\n", $family));
		my $queuer_pid = pid_of("queuer_$family", $waiting);
		my ($error, $detail) = mint("SELECT ids.$family(1)");
		is($error, "55P03: $family() could not take its lock within 1s",
			"$what: $family() fails at its bound (55P03), before statement_timeout (5 s)");
		like(
			$detail,
			qr/session $queuer_pid \(role reader, application 'queuer_$family'\) waits for $mode behind session $holder_pid \(role reader, application 'holder_$family'\)/,
			"$what: the detail names the queuer, what it waits for, and the holder behind it (pg_blocking_pids)"
		) or diag($detail);
		end_sessions($holder, $queuer);
	}
}

# CREATE TRIGGER (ShareRowExclusiveLock) queues only behind ROW EXCLUSIVE or
# stronger: a role without grants held that on 0.8.0's lock table with a
# prepared DELETE; on a view the DELETE fails (not updatable) and releases its
# lock, and what is left (a prepared SELECT ... FOR UPDATE, ROW SHARE) lets
# CREATE TRIGGER through to its privilege check.
for my $family (qw(snowflake snowflake53))
{
	my $holder = session("holder_t$family", 'reader',
		sprintf("BEGIN;\nSAVEPOINT s;\nPREPARE d AS DELETE FROM ids.idgen_sql_%s_lock;\n\\if :ERROR\nROLLBACK TO s;\n\\else\nRELEASE s;\n\\endif\n"
			  . "PREPARE u AS SELECT FROM ids.idgen_sql_%s_lock FOR UPDATE;\n$holding", $family, $family));
	pid_of("holder_t$family", $sleeping);
	my $queuer = session("queuer_t$family", 'reader',
		sprintf("CREATE TRIGGER t INSTEAD OF INSERT ON ids.idgen_sql_%s_lock FOR EACH ROW EXECUTE FUNCTION pg_catalog.suppress_redundant_updates_trigger();\n$holding",
			$family));
	pid_of("queuer_t$family", "($sleeping OR $waiting)");
	is((mint("SET lock_timeout = '100ms'; SELECT ids.$family(1)"))[0],
		'', "a prepared DELETE of the lock object and CREATE TRIGGER on it: $family() mints at once (lock_timeout 100 ms)");
	end_sessions($holder, $queuer);
}

# The bound is the caller's lock_timeout where that is smaller, and the
# caller's setting is left as it was, after an ID and after the error.
{
	my $holder = session('holder_b', 'reader', "BEGIN;\nPREPARE p AS SELECT FROM ids.idgen_sql_snowflake_lock;\n$holding");
	pid_of('holder_b', $sleeping);
	my $queuer = session('queuer_b', 'reader', "CREATE RULE r AS ON INSERT TO ids.idgen_sql_snowflake_lock DO INSTEAD NOTHING;\n");
	pid_of('queuer_b', $waiting);
	is((mint("SET lock_timeout = '200ms'; SELECT ids.snowflake(1)"))[0],
		'55P03: snowflake() could not take its lock within 200ms', 'a caller\'s lock_timeout of 200 ms is the bound');
	is( $node->q(
			"SET lock_timeout = '5s';
			 DO \$\$BEGIN PERFORM ids.snowflake(1); EXCEPTION WHEN lock_not_available THEN PERFORM set_config('t.error', SQLERRM, false); END\$\$;
			 SELECT current_setting('t.error', true), current_setting('lock_timeout')", db => 'app'),
		'snowflake() could not take its lock within 1s|5s',
		'a caller\'s lock_timeout of 5 s: the mint fails at 1 s, and the setting is 5 s again after it');
	end_sessions($holder, $queuer);
	is( $node->q("BEGIN; SELECT ids.snowflake(1) > 0, ids.snowflake53(1) > 0; SHOW lock_timeout; COMMIT", db => 'app',),
		"t|t\n0", 'after IDs, in the same transaction, lock_timeout is the caller\'s (0) again');
}

# Core nextval() waits behind the same queue for as long as it lasts: a
# guarantee core cannot give (statement_timeout ends it).
{
	my $holder = session('holder_core', 'reader', "BEGIN;\nSELECT nextval('public.app_seq');\n$holding");
	pid_of('holder_core', $sleeping);
	my $queuer = session('queuer_core', 'reader', "CREATE RULE r AS ON INSERT TO public.app_seq DO INSTEAD NOTHING;\n");
	pid_of('queuer_core', $waiting);
	is((mint("SELECT nextval('public.app_seq')"))[0],
		'57014: canceling statement due to statement timeout',
		'core nextval() behind an open transaction that used it and a CREATE RULE waits until statement_timeout');
	end_sessions($holder, $queuer);
}

# --- a database owner's (and on 17+ MAINTAIN's) maintenance blocks nothing ----------
# The caller's lock_timeout is 100 ms: the mints may not wait longer.
my @maintenance = (
	[ 'dbo', 'the database owner\'s ANALYZE of the lock object, in an open transaction', 'ANALYZE ids.idgen_sql_%s_lock;' ],
	[ 'dbo', 'the database owner\'s ANALYZE of the whole database, in an open transaction', 'ANALYZE;' ],
	[ 'dbo', 'the database owner\'s ANALYZE of the state sequence, in an open transaction', 'ANALYZE ids.idgen_sql_%s_state;' ],
	$major >= 17
	? ([ 'maint', 'ANALYZE of the lock object by a role with MAINTAIN on it, in an open transaction', 'ANALYZE ids.idgen_sql_%s_lock;' ])
	: (),
);
for my $case (@maintenance)
{
	my ($role, $what, $hold) = @$case;
	my $holder = session('holder_m', $role, "BEGIN;\n" . sprintf($hold, 'snowflake') . sprintf($hold, 'snowflake53') . "\n$holding");
	pid_of('holder_m', $sleeping);
	is((mint("SET lock_timeout = '100ms'; SELECT ids.snowflake(1), ids.snowflake53(1)"))[0],
		'', "$what: snowflake() and snowflake53() mint at once (lock_timeout 100 ms)");
	end_sessions($holder);
}
# VACUUM cannot run in a transaction block: here it waits behind the database
# owner's open ANALYZE (on 0.8.0, whose lock object was a table), or runs at once.
{
	my $holder = session('holder_v', 'dbo', "BEGIN;\nANALYZE ids.idgen_sql_snowflake_lock;\n$holding");
	pid_of('holder_v', $sleeping);
	my $queuer = session('queuer_v', 'dbo', "VACUUM ids.idgen_sql_snowflake_lock;\nVACUUM FULL ids.idgen_sql_snowflake_lock;\n$holding");
	is((mint("SET lock_timeout = '100ms'; SELECT ids.snowflake(1)"))[0],
		'', 'the database owner\'s VACUUM and VACUUM FULL of the lock object, beside its open ANALYZE: snowflake() mints at once');
	end_sessions($holder, $queuer);
}

# What MAINTAIN grants on purpose, LOCK TABLE in any mode, is bounded as the queue is.
SKIP:
{
	skip 'MAINTAIN exists from PostgreSQL 17 on', 2 if $major < 17;
	my $holder = session('holder_l', 'maint', "BEGIN;\nLOCK TABLE ids.idgen_sql_snowflake_lock IN ACCESS EXCLUSIVE MODE;\n$holding");
	my $holder_pid = pid_of('holder_l', $sleeping);
	my ($error, $detail) = mint('SELECT ids.snowflake(1)');
	is($error, '55P03: snowflake() could not take its lock within 1s',
		'a role with MAINTAIN holding LOCK TABLE ... ACCESS EXCLUSIVE: snowflake() fails at its bound (55P03)');
	like($detail, qr/session $holder_pid \(role maint, application 'holder_l'\) holds AccessExclusiveLock/,
		'the detail names the session that holds the lock') or diag($detail);
	end_sessions($holder);
}

is($node->q('SELECT ids.snowflake(1) > 0 AND ids.snowflake53(1) > 0', db => 'app'), 't', 'minting goes on once they end');
done_testing();
