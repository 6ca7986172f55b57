# objectid() and xid() across concurrent sessions, restarts, crashes, a clock
# set back and a standby's promotion. Both draw a 5-byte process value (XID:
# 3 bytes of machine id and 2 of pid) and a random counter start in shared
# memory at each server start; each ID takes the server-wide counter + 1, and
# the seconds never go back. So: no repeat across 8 sessions, the counter in
# real-time order across them, a new process value after a restart and after
# a crash (shared memory is made anew), seconds kept when the clock is set
# back, a standby with its own process value that it keeps through its
# promotion, and flat backend memory. The 2^24-IDs-a-second borrow is the
# core's (test/unit/second_counter_test.cpp); here only its bound is checked:
# no second of the runs holds more than 2^24 IDs, and none ran ahead.
use strict;
use warnings;
use Time::HiRes qw(sleep);
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main',
	streaming => 1,
	conf => ['restart_after_crash = on']);
my $db = $node->fresh_database('idgen_objectid_sessions');
my $sessions = 8;
my $per_session = sizes()->{PER_SESSION};

# The two families: SQL type, generator, family name in idgen_stats, and the
# process bytes of an ID as hex (machine id and pid for an XID).
my @families = (
	{ type => 'objectid', call => 'objectid()', family => 'objectid',
	  process => sub { "encode(objectid_process($_[0]), 'hex')" },
	  counter => 'objectid_counter', time => 'objectid_time' },
	{ type => 'rsxid', call => 'xid()', family => 'xid',
	  process => sub { "encode(xid_machine($_[0]), 'hex') || lpad(to_hex(xid_pid($_[0])), 4, '0')" },
	  counter => 'xid_counter', time => 'xid_time' },
);

# process_of NODE FAMILY: the process bytes of a fresh ID of FAMILY.
sub process_of
{
	my ($n, $f) = @_;
	return $n->q('SELECT ' . $f->{process}->($f->{call}), db => $db);
}

for my $f (@families)
{
	my ($type, $call, $counter) = @$f{qw(type call counter)};
	$node->q('DROP TABLE IF EXISTS session_ids', db => $db);
	create_session_ids($node, $db, $type);

	# 1. No repeat across 8 concurrent sessions.
	is(mint_timed_sessions($node, $db, $call, sessions => $sessions),
		0, "$sessions sessions x $per_session $call inserts into a primary key all succeed");
	is($node->q('SELECT count(DISTINCT id) FROM session_ids', db => $db),
		$sessions * $per_session, "$call: every value stored, none duplicated");
	is( $node->q(
			'SELECT count(DISTINCT ' . $f->{process}->('id') . ') FROM session_ids', db => $db),
		1, "$call: one process value across the sessions");

	# 2. One server-wide counter. Fewer than 2^24 IDs: their counters are
	# distinct and one contiguous run (modulo 2^24), so each ID has a position
	# in it; positions follow real time across sessions (an ID requested after
	# another returned has a later position) and increase within each session.
	$node->q(
		"DROP TABLE IF EXISTS positions;
		 CREATE UNLOGGED TABLE positions AS
		 WITH c AS (SELECT $counter(id) AS c, session, n, t0, t1 FROM session_ids),
		      starts AS (SELECT c FROM c WHERE NOT EXISTS
		                     (SELECT FROM c c2 WHERE c2.c = (c.c + 16777215) % 16777216))
		 SELECT (c.c - s.c + 16777216) % 16777216 AS pos, session, n, t0, t1 FROM c, starts s", db => $db);
	my $checks = $node->q(
		"WITH c AS (SELECT $counter(id) AS c FROM session_ids),
		      starts AS (SELECT c FROM c WHERE NOT EXISTS
		                     (SELECT FROM c c2 WHERE c2.c = (c.c + 16777215) % 16777216))
		 SELECT (SELECT count(DISTINCT c) FROM c) || ' ' || (SELECT count(*) FROM starts)",
		db => $db);
	is($checks, $sessions * $per_session . ' 1',
		"$call: the counters are distinct and one contiguous run");
	is( $node->q(
			"SELECT count(*) FROM (
			     SELECT t0, min(t1) OVER (ORDER BY pos DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS above
			     FROM positions) s
			 WHERE above < t0", db => $db),
		0, "$call: no counter is below one returned before it was requested, across sessions");
	is( $node->q(
			"SELECT count(*) FROM (
			     SELECT pos <= lag(pos) OVER (PARTITION BY session ORDER BY n) AS bad FROM positions) s
			 WHERE bad", db => $db),
		0, "$call: each session's counters increase");
	is( $node->q(
			"SELECT count(*) FROM (
			     SELECT $f->{time}(id) < lag($f->{time}(id)) OVER (PARTITION BY session ORDER BY n) AS bad
			     FROM session_ids) s
			 WHERE bad", db => $db),
		0, "$call: each session's seconds never decrease");
	# The bound of 2^24 IDs a second, and no borrowing: the runs stay far below it.
	is( $node->q(
			"SELECT max(c) <= 16777216 FROM (SELECT count(*) AS c FROM session_ids GROUP BY $f->{time}(id)) s;
			 SELECT coalesce(sum(ran_ahead), 0) FROM idgen_stats WHERE family = '$f->{family}'", db => $db),
		"t\n0", "$call: no second holds more than 2^24 IDs, and none ran ahead of the clock");
}
$node->q('DROP TABLE session_ids, positions', db => $db);

# 3. Flat memory over one long statement, and idgen_stats following sessions.
for my $f (@families)
{
	check_memory_flat($node, $db, $f->{family}, $f->{call});
}
check_stats_follow_live_sessions($node, $db, 'objectid', 'objectid()');

# 4. A restart, a backend killed with SIGKILL (the postmaster's crash restart
# makes shared memory anew) and the postmaster killed with SIGKILL: each time
# new process values, and a counter that starts elsewhere.
my %before = map { $_->{family} => process_of($node, $_) } @families;
my $counter_before = $node->q('SELECT objectid_counter(objectid())', db => $db);
is(process_of($node, $families[0]), $before{objectid}, 'objectid() keeps its process value while the server runs');
$node->restart;
my %after_restart = map { $_->{family} => process_of($node, $_) } @families;
isnt($after_restart{objectid}, $before{objectid}, 'a restart draws a new objectid process value');
isnt($after_restart{xid}, $before{xid}, 'a restart draws a new xid machine id and pid');
isnt($node->q('SELECT objectid_counter(objectid())', db => $db),
	($counter_before + 2) % 16777216, 'a restart draws a new counter start');

my $victim = $node->background_psql($db);
my $victim_pid = $victim->query_safe('SELECT pg_backend_pid()');
my $log_offset = -s $node->logfile;
is(kill('KILL', $victim_pid), 1, "a backend (pid $victim_pid) is killed with SIGKILL");
ok( eval {
		$node->wait_for_log(qr/all server processes terminated; reinitializing/, $log_offset);
		1;
	},
	'the postmaster does a crash restart');
ok($node->poll_accepting(db => $db), 'the server accepts queries again');
eval { $victim->quit };
my %after_crash = map { $_->{family} => process_of($node, $_) } @families;
isnt($after_crash{objectid}, $after_restart{objectid}, 'a crash restart draws a new objectid process value');
isnt($after_crash{xid}, $after_restart{xid}, 'a crash restart draws a new xid machine id and pid');

# kill9 returns once the signal is sent: wait for the postmaster to be gone,
# and start again once its children have left the old shared memory.
my $postmaster = $node->{_pid};
$node->kill9;
sleep 0.1 while kill 0, $postmaster;
my $started = 0;
for (1 .. 60)
{
	last if $started = $node->start(fail_ok => 1);
	sleep 0.5;
}
ok($started, 'the server starts again after its postmaster was killed with SIGKILL');
my %after_kill9 = map { $_->{family} => process_of($node, $_) } @families;
isnt($after_kill9{objectid}, $after_crash{objectid},
	'after the postmaster is killed with SIGKILL, a start draws a new objectid process value');
isnt($after_kill9{xid}, $after_crash{xid}, '... and a new xid machine id and pid');

# 5. A hot standby mints as uuid_v7() does (no shared state to refuse for):
# its shared memory has its own process values, which its promotion keeps, so
# the new primary cannot repeat the old one's IDs (barring a 2^-40 chance).
$node->backup('backup');
my $standby = IdgenTest::Node->new('standby');
$standby->init_from_backup($node, 'backup', has_streaming => 1);
$standby->start;
is($standby->q('SELECT pg_is_in_recovery()'), 't', 'the standby is in recovery');
my %on_standby = map { $_->{family} => process_of($standby, $_) } @families;
ok(defined $on_standby{objectid} && $on_standby{objectid} ne $after_kill9{objectid},
	"objectid() works on the standby, with a process value of its own");
ok(defined $on_standby{xid} && $on_standby{xid} ne $after_kill9{xid},
	"xid() works on the standby, with a machine id and pid of its own");
$node->kill9;
$standby->promote;
ok($standby->poll_query_until('postgres', 'SELECT pg_is_in_recovery()', 'f'),
	'the promoted standby leaves recovery');
is(process_of($standby, $families[0]), $on_standby{objectid},
	'the promoted standby keeps the process value it had as a standby');
is(process_of($standby, $families[1]), $on_standby{xid},
	'... and its xid machine id and pid');
$standby->stop;

# 6. The clock set back by 30 s under a running server: the seconds stay at
# the last ID's (counted as running ahead and as a clock regression), the
# counter runs on, and no ID repeats.
my $clock = IdgenTest::Node->create('clock', fake_clock => 1);
$clock->q('CREATE EXTENSION idgen');
for my $f (@families)
{
	my ($type, $call) = @$f{qw(type call)};
	$clock->q("CREATE TABLE ids_$type (n serial, phase text, id $type PRIMARY KEY)");
	$clock->set_clock_offset('+0');
	my $session = $clock->background_psql('postgres', on_error_stop => 0);
	my $failed = 0;
	$failed += ($session->query(
			"INSERT INTO ids_$type (phase, id) SELECT 'before', $call FROM generate_series(1, 2000)"))[1];
	$clock->set_clock_offset('-30');
	$failed += ($session->query(
			"INSERT INTO ids_$type (phase, id) SELECT 'after', $call FROM generate_series(1, 2000)"))[1];
	my ($stats) = $session->query(
		"SELECT clock_regressions || ' ' || ran_ahead FROM idgen_stats
		 WHERE pid = pg_backend_pid() AND family = '$f->{family}'");
	$session->quit;
	is($failed, 0, "$call: minting across a 30 s clock regression succeeds");
	my ($regressions, $ran_ahead) = split / /, $stats // '';
	cmp_ok($regressions // 0, '>=', 1, "$call: idgen_stats counted the clock regression");
	cmp_ok($ran_ahead // 0, '>=', 2000, "$call: every ID after the regression ran ahead of the clock");
	is( $clock->q(
			"SELECT (SELECT min($f->{time}(id)) FROM ids_$type WHERE phase = 'after')
			     >= (SELECT max($f->{time}(id)) FROM ids_$type WHERE phase = 'before')"),
		't', "$call: the seconds did not go back with the clock");
	is( $clock->q(
			"SELECT count(*) FROM (SELECT $f->{counter}(id) <> ($f->{counter}(lag(id) OVER (ORDER BY n)) + 1) % 16777216
			                        AS bad FROM ids_$type) s WHERE bad"),
		0, "$call: the counter ran on by one across the regression");
	cmp_ok(
		$clock->q("SELECT abs(extract(epoch FROM clock_timestamp()) - " . time() . ' + 30)'),
		'<', 10, 'the server clock really is 30 s behind');
}

done_testing();
