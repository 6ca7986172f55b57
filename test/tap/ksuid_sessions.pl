# ksuid() across concurrent sessions: uniqueness, per-session order and
# server-wide order under idgen.ksuid_order = 'server' over 8 sessions,
# per-backend random payloads, order across a clean restart with the clock set
# back (the clock lease), a clock set back under a running server, a clock
# outside the KSUID range, 'server' order without shared memory, idgen_stats
# listing live backends only, and flat backend memory over one long statement
# in either order. The clock is moved with libfaketime (Debian package
# faketime), preloaded into the server only. Sizes: 8 sessions of
# IdgenTest::sizes' PER_SESSION IDs (250,000; IDGEN_SOAK=1: its long mode;
# PER_SESSION and SESSIONS in the environment win).
use strict;
use warnings;
use IdgenTest;
use Test::More;

# 8 sessions whatever the mode (issue 53's size); SESSIONS in the environment wins.
local $ENV{SESSIONS} = $ENV{SESSIONS} // 8;
my ($sessions, $per_session) = @{ sizes() }{qw(SESSIONS PER_SESSION)};

my $node = IdgenTest::Node->create('main', fake_clock => 1);
my $db = $node->fresh_database('idgen_ksuid_sessions');
create_session_ids($node, $db, 'ksuid');

# mint ORDER: SESSIONS concurrent inserts of ksuid() in that order; the number
# that failed.
sub mint
{
	my ($order) = @_;
	return mint_timed_sessions($node, $db, 'ksuid()', env => { PGOPTIONS => "-c idgen.ksuid_order=$order" });
}

for my $order (qw(backend server))
{
	is(mint($order), 0,
		"$order order: $sessions sessions x $per_session ksuid() inserts into a primary key all succeed");
	is($node->q('SELECT count(DISTINCT id) FROM session_ids', db => $db),
		$sessions * $per_session, "$order order: every value stored, none duplicated");
	is(not_increasing_per_session($node, $db), 0, "$order order: each session strictly increasing");
	if ($order eq 'backend')
	{
		# Backends that shared a random stream would repeat each other's
		# payloads; in one backend they only step by 1 within a second. The
		# first 8 payload bytes of each session's first 1000 IDs:
		is( $node->q(
				"SELECT count(*) FROM (SELECT substr(ksuid_payload(id), 1, 8) AS high FROM session_ids
				     WHERE n <= 1000 GROUP BY 1 HAVING count(DISTINCT session) > 1) s", db => $db),
			0, 'no payload is shared by two sessions among their first 1000 IDs');
		# What 'server' order forbids happens in 'backend' order: the check
		# below can fail.
		cmp_ok(out_of_real_time_order($node, $db),
			'>', 0, 'backend order: some value is below one returned before it was requested');
	}
	else
	{
		is(out_of_real_time_order($node, $db), 0,
			'server order: no value is below one returned before it was requested');
	}
}

# Across a clean restart with the clock set back 5 s: the clock lease (lowered
# at shutdown to just above the last KSUID's second) keeps every new ID, in
# either order, above every ID issued before.
$node->q('CREATE TABLE ids (n bigserial, phase text, id ksuid PRIMARY KEY)', db => $db);
$node->q(
	"SET idgen.ksuid_order = 'server';
	 INSERT INTO ids (phase, id) SELECT 'before', ksuid() FROM generate_series(1, 5000)", db => $db);
$node->q("INSERT INTO ids (phase, id) SELECT 'before', ksuid() FROM generate_series(1, 5000)", db => $db);
$node->set_clock_offset('-5');
$node->restart;
$node->q(
	"SET idgen.ksuid_order = 'server';
	 INSERT INTO ids (phase, id) SELECT 'after-server', ksuid() FROM generate_series(1, 5000)", db => $db);
$node->q("INSERT INTO ids (phase, id) SELECT 'after-backend', ksuid() FROM generate_series(1, 5000)",
	db => $db);
is( $node->q(
		"SELECT (SELECT min(id) FROM ids WHERE phase LIKE 'after%') > (SELECT max(id) FROM ids WHERE phase = 'before')",
		db => $db),
	't',
	'after a clean restart with the clock 5 s back, every KSUID of either order is above every one before');
is( $node->q(
		"SELECT ksuid_time((SELECT min(id) FROM ids WHERE phase LIKE 'after%')) > clock_timestamp()", db => $db),
	't', 'the first KSUID after the restart carries a second ahead of the clock');

# A clock set back 30 s under a running server: one backend keeps counting up
# from its last ID, and idgen_stats counts the regression and the lead.
$node->set_clock_offset('+0');
$node->q('TRUNCATE ids', db => $db);
$node->q(
	"SET idgen.ksuid_order = 'server';
	 INSERT INTO ids (phase, id) SELECT 'server-before', ksuid() FROM generate_series(1, 2000)", db => $db);
my $session = $node->background_psql($db, on_error_stop => 0);
my $failed = 0;
$failed += ($session->query("INSERT INTO ids (phase, id) SELECT 'before', ksuid() FROM generate_series(1, 2000)"))[1];
$node->set_clock_offset('-30');
$failed += ($session->query("INSERT INTO ids (phase, id) SELECT 'after', ksuid() FROM generate_series(1, 2000)"))[1];
my ($stats, $stats_failed) = $session->query(
	"SELECT clock_regressions, ran_ahead FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'ksuid'");
$failed += $stats_failed;
my ($regressions, $ran_ahead) = split /\|/, $stats // '';
$session->quit;
is($failed, 0, 'minting ksuid() across a 30 s clock regression succeeds') or diag($session->{stderr});
cmp_ok($regressions // 0, '>=', 1, 'idgen_stats counted the clock regression for ksuid');
cmp_ok($ran_ahead // 0, '>=', 2000, 'every ksuid() after the regression ran ahead of the clock');
is( $node->q(
		"SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM ids
		     WHERE phase IN ('before', 'after')) s WHERE bad", db => $db),
	0, 'ksuid() values stay strictly increasing within the backend across the regression');
# Server order: a new backend, the clock still 30 s back, stays above what
# 'server' order issued before the regression. (Where a new backend in backend
# order starts is not checked: from the clock, or above the floor that exited
# backends left, depending on when the clock lease was last written.)
$node->q(
	"SET idgen.ksuid_order = 'server';
	 INSERT INTO ids (phase, id) SELECT 'server-after', ksuid() FROM generate_series(1, 2000)", db => $db);
is( $node->q(
		"SELECT (SELECT min(id) FROM ids WHERE phase = 'server-after') > (SELECT max(id) FROM ids WHERE phase = 'server-before')",
		db => $db),
	't', 'server order: a new backend after the regression issues only larger KSUIDs');

# A clock before the KSUID epoch (2014-05-13): 22008, and nothing is issued.
$node->set_clock_offset('-' . (time() - 1_300_000_000));
my ($ret, $out, $err) = $node->psql($db, "\\set VERBOSITY verbose\nSELECT ksuid();");
like($err, qr/ERROR:  22008: system clock is outside the range of ksuid/,
	'ksuid() with the clock in 2011 fails with SQLSTATE 22008');
like($err, qr/DETAIL:  A KSUID holds seconds from 2014-05-13 16:53:20 UTC to 2150-06-19 23:21:35 UTC\./,
	'the error names the range of a KSUID');
$node->set_clock_offset('+0');

check_memory_flat($node, $db, 'ksuid', 'ksuid()');
check_memory_flat($node, $db, 'ksuid', 'ksuid()', "SET idgen.ksuid_order = 'server'");
check_stats_follow_live_sessions($node, $db, 'ksuid', 'ksuid()');
$node->stop;

# Without shared memory: backend order works on backend-local state; 'server'
# order is refused (55000) with a hint.
my $plain = IdgenTest::Node->create('no_preload', preload => 0);
$plain->q('CREATE EXTENSION idgen');
is( $plain->q(
		'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad
		     FROM (SELECT n, ksuid() AS id FROM generate_series(1, 20000) n) s) t WHERE bad'),
	0, 'without shared memory ksuid() is strictly increasing with backend-local state');
($ret, $out, $err) = $plain->psql('postgres', "\\set VERBOSITY verbose\nSET idgen.ksuid_order = 'server';\nSELECT ksuid();");
like($err, qr/ERROR:  55000: idgen\.ksuid_order = 'server' needs idgen's shared memory/,
	"ksuid() in 'server' order without shared memory fails with SQLSTATE 55000");
like($err, qr/HINT:  Add idgen to shared_preload_libraries and restart the server\./,
	"the ksuid 'server' order error hints at shared_preload_libraries");
$plain->stop;

done_testing();
