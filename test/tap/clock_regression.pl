# uuid_v7 when the system clock is set back under a running server: values
# keep increasing within a backend, 'server' order keeps new backends above old
# values (ulid's and uuid_v6's 'server' order too, where ulid's backend order
# does not; ksuid_sessions.pl and uuid_v6_sessions.pl hold their backend
# order across a regression, objectid_sessions.pl objectid's and xid's), and
# idgen_stats counts the regression. The clock is moved with libfaketime
# (Debian package faketime), preloaded into the server only.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('clock', fake_clock => 1);
$node->q('CREATE EXTENSION idgen; CREATE TABLE ids (n serial, phase text, id uuid)');
$node->q('CREATE TABLE ulids (n serial, phase text, id ulid)');
$node->q('CREATE TABLE v6s (n serial, phase text, id uuid)');

# One backend across the regression, in backend order.
my $session = $node->background_psql('postgres', on_error_stop => 0);
# Each query's second result is 1 once the session has printed an error.
my $failed = 0;
$failed += ($session->query(
		"INSERT INTO ids (phase, id) SELECT 'before', uuid_v7() FROM generate_series(1, 2000)"))[1];
$node->set_clock_offset('-30');
$failed += ($session->query(
		"INSERT INTO ids (phase, id) SELECT 'after', uuid_v7() FROM generate_series(1, 2000)"))[1];
my ($stats, $stats_failed) = $session->query(
	'SELECT clock_regressions, ran_ahead FROM idgen_stats WHERE pid = pg_backend_pid()');
$failed += $stats_failed;
my ($regressions, $ran_ahead) = split /\|/, $stats;
$session->quit;
is($failed, 0, 'minting across a 30 s clock regression succeeds')
  or diag($session->{stderr});
cmp_ok($regressions // 0, '>=', 1, 'idgen_stats counted the clock regression');
cmp_ok($ran_ahead // 0, '>=', 2000, 'every value after the regression ran ahead of the clock');
is( $node->q(
		'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM ids) s WHERE bad'),
	0,
	'values stay strictly increasing within the backend');
is( $node->q(
		"SELECT (SELECT min(uuid_v7_time(id)) FROM ids WHERE phase = 'after')
		     >= (SELECT max(uuid_v7_time(id)) FROM ids WHERE phase = 'before')"),
	't',
	'the embedded time did not go back with the clock');

# Server order: a new backend after the clock went back stays above older values.
$node->set_clock_offset('+0');
$node->q(
	"SET idgen.uuid_v7_order = 'server';
	 INSERT INTO ids (phase, id) SELECT 'server-before', uuid_v7() FROM generate_series(1, 2000)");
$node->q(
	"SET idgen.ulid_order = 'server';
	 INSERT INTO ulids (phase, id) SELECT 'server-before', ulid() FROM generate_series(1, 2000)");
$node->q(
	"SET idgen.uuid_v6_order = 'server';
	 INSERT INTO v6s (phase, id) SELECT 'server-before', uuid_v6() FROM generate_series(1, 2000)");
$node->set_clock_offset('-30');
$node->q(
	"SET idgen.uuid_v6_order = 'server';
	 INSERT INTO v6s (phase, id) SELECT 'server-after', uuid_v6() FROM generate_series(1, 2000)");
$node->q(
	"SET idgen.uuid_v7_order = 'server';
	 INSERT INTO ids (phase, id) SELECT 'server-after', uuid_v7() FROM generate_series(1, 2000)");
$node->q(
	"SET idgen.ulid_order = 'server';
	 INSERT INTO ulids (phase, id) SELECT 'server-after', ulid() FROM generate_series(1, 2000)");
is( $node->q(
		"SELECT (SELECT id FROM ids WHERE phase = 'server-after' ORDER BY id LIMIT 1)
		     > (SELECT id FROM ids WHERE phase = 'server-before' ORDER BY id DESC LIMIT 1)"),
	't',
	'server order: a new backend after the regression issues only larger values');
is( $node->q(
		"SELECT (SELECT min(id) FROM ulids WHERE phase = 'server-after')
		     > (SELECT max(id) FROM ulids WHERE phase = 'server-before')"),
	't',
	'ulid server order: a new backend after the regression issues only larger values');
is( $node->q(
		"SELECT (SELECT id FROM v6s WHERE phase = 'server-after' ORDER BY id LIMIT 1)
		     > (SELECT id FROM v6s WHERE phase = 'server-before' ORDER BY id DESC LIMIT 1)"),
	't',
	'uuid_v6 server order: a new backend after the regression issues only larger values');
# Backend order would not: each new backend starts from the clock, 30 s back.
$node->q("INSERT INTO ulids (phase, id) SELECT 'backend-after', ulid() FROM generate_series(1, 10)");
is( $node->q(
		"SELECT (SELECT max(id) FROM ulids WHERE phase = 'backend-after')
		     < (SELECT max(id) FROM ulids WHERE phase = 'server-before')"),
	't',
	'ulid backend order: a new backend after the regression starts below them (what server order prevents)');
is( $node->q(
		'SELECT abs(extract(epoch FROM clock_timestamp()) - ' . time() . ' + 30) < 10'),
	't',
	'the server clock really is 30 s behind during the test');

done_testing();
