# uuid_v6 across concurrent sessions: uniqueness, per-session order,
# server-wide order under idgen.uuid_v6_order = 'server', per-backend random
# clock sequences and nodes, flat backend memory in either order, idgen_stats
# listing live backends only; then the clock lease across a clean and a crash
# restart with the clock set back, and a clock set back under a running
# session (counted in idgen_stats). Sizes: 8 sessions of IdgenTest::sizes'
# PER_SESSION IDs (250,000; IDGEN_SOAK=1: its long mode). The clock is moved
# with libfaketime, preloaded into the server only.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main', fake_clock => 1);
my $db = $node->fresh_database('idgen_uuid_v6_sessions');
# 8 sessions whatever the mode (issue 53's size); SESSIONS in the environment wins.
local $ENV{SESSIONS} = $ENV{SESSIONS} // 8;
my ($sessions, $per_session) = @{ sizes() }{qw(SESSIONS PER_SESSION)};
create_session_ids($node, $db, 'uuid');

# mint ORDER: SESSIONS concurrent inserts of uuid_v6() in that order; the
# number that failed.
sub mint
{
	my ($order) = @_;
	return mint_timed_sessions($node, $db, 'uuid_v6()', env => { PGOPTIONS => "-c idgen.uuid_v6_order=$order" });
}

for my $order (qw(backend server))
{
	is(mint($order), 0,
		"$order order: $sessions sessions x $per_session uuid_v6() inserts into a primary key all succeed");
	is($node->q('SELECT count(DISTINCT id) FROM session_ids', db => $db),
		$sessions * $per_session, "$order order: every value stored, none duplicated");
	is(not_increasing_per_session($node, $db), 0, "$order order: each session strictly increasing");
	is( $node->q(
			"SELECT count(*) FROM session_ids
			 WHERE substr(id::text, 15, 1) <> '6' OR get_byte(uuid_send(id), 10) & 1 <> 1", db => $db),
		0, "$order order: every value is version 6 with a multicast node");
	if ($order eq 'backend')
	{
		# The clock sequence and node, 61 random bits: backends sharing a
		# random stream would repeat each other's.
		is( $node->q(
				"SELECT count(*) FROM (SELECT n FROM session_ids WHERE n <= 1000 GROUP BY n
				     HAVING count(DISTINCT substr(id::text, 20)) < $sessions) s", db => $db),
			0, 'clock sequence and node differ between backends for the same call number');
	}
	else
	{
		is(out_of_real_time_order($node, $db), 0,
			'server order: no value is below one returned before it was requested');
	}
}

check_memory_flat($node, $db, 'uuid_v6', 'uuid_v6()');
check_memory_flat($node, $db, 'uuid_v6', 'uuid_v6()', "SET idgen.uuid_v6_order = 'server'");

check_stats_follow_live_sessions($node, $db, 'uuid_v6', 'uuid_v6()');

# The clock lease: values minted after a restart, in new sessions, lie above
# every value minted before it, though the clock was set back 5 s each time.
# The sessions mint uuid_v6 alone, so the lease lowered at a clean shutdown
# must come from their uuid_v6 values.
$node->q('CREATE TABLE phases (phase int, kind text, id uuid)', db => $db);

# mint_phase PHASE: 500 values in backend order and 500 in 'server' order,
# each in a new session; whether both succeeded.
sub mint_phase
{
	my ($phase) = @_;
	return $node->psql($db,
		"INSERT INTO phases SELECT $phase, 'backend', uuid_v6() FROM generate_series(1, 500)") == 0
	  && $node->psql($db,
		"SET idgen.uuid_v6_order = 'server';
		 INSERT INTO phases SELECT $phase, 'server', uuid_v6() FROM generate_series(1, 500)") == 0;
}

# below_earlier PHASE: values of PHASE not above every value of the earlier phases.
sub below_earlier
{
	my ($phase) = @_;
	return $node->q(
		"SELECT count(*) FROM phases
		 WHERE phase = $phase AND id <= (SELECT id FROM phases WHERE phase < $phase ORDER BY id DESC LIMIT 1)", db => $db);
}

ok(mint_phase(1), 'phase 1 mints');
$node->set_clock_offset('-5');
ok($node->stop('fast', fail_ok => 1) && $node->start(fail_ok => 1),
	'clean restart with the clock set back 5 s');
ok(mint_phase(2), 'phase 2 mints');
is(below_earlier(2), 0, "phase 2: every value is above phase 1's");
$node->set_clock_offset('-10');
ok($node->stop('immediate', fail_ok => 1) && $node->start(fail_ok => 1),
	'crash restart with the clock set back 5 s more');
ok(mint_phase(3), 'phase 3 mints');
is(below_earlier(3), 0, "phase 3: every value is above the earlier phases'");
is( $node->q(
		"SELECT bool_and(uuid_v6_time(id) > clock_timestamp()) FROM phases WHERE phase = 3", db => $db),
	't', "phase 3's values run ahead of a clock 10 s back (the lease's floor)");

# A clock set back 30 s under one running session, in backend order.
$node->q('CREATE TABLE regressed (n serial, phase text, id uuid)', db => $db);
my $session = $node->background_psql($db, on_error_stop => 0);
my $failed = 0;
$failed += ($session->query(
		"INSERT INTO regressed (phase, id) SELECT 'before', uuid_v6() FROM generate_series(1, 2000)"))[1];
$node->set_clock_offset('-40');
$failed += ($session->query(
		"INSERT INTO regressed (phase, id) SELECT 'after', uuid_v6() FROM generate_series(1, 2000)"))[1];
my ($stats, $stats_failed) = $session->query(
	"SELECT clock_regressions, ran_ahead FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'uuid_v6'");
$failed += $stats_failed;
my ($regressions, $ran_ahead) = split /\|/, $stats // '';
$session->quit;
is($failed, 0, 'minting across a 30 s clock regression succeeds') or diag($session->{stderr});
cmp_ok($regressions // 0, '>=', 1, 'idgen_stats counted the clock regression for uuid_v6');
cmp_ok($ran_ahead // 0, '>=', 2000, 'every value after the regression ran ahead of the clock');
is( $node->q(
		'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM regressed) s WHERE bad',
		db => $db),
	0, 'values stay strictly increasing across the regression');

done_testing();
