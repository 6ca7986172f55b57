# snowflake() (and snowflake53(), which shares its lease) when the system
# clock is set back: under a running server (IDs keep counting from the last
# one, up to idgen.max_clock_regression), across a clean restart and a crash
# restart (the lease file in the data directory keeps new IDs above old ones),
# and with an unreadable lease file (snowflake() stops, uuid_v7() goes on). The
# clock is moved with libfaketime (Debian package faketime), preloaded into the
# server only; the offsets add up to 8 s so that the lead of IDs over the
# clock, lease margin included, stays under the default 10 s bound.
use strict;
use warnings;
use IPC::Run ();
use Time::HiRes ();
use IdgenTest;
use Test::More;

# Section 4 kills a backend and has the postmaster reinitialise, which
# PostgreSQL::Test::Cluster turns off by default.
my $node = IdgenTest::Node->create('main',
	fake_clock => 1,
	conf => ['restart_after_crash = on']);
my $lease_file = $node->data_dir . '/idgen_snowflake.lease';

# clock_behind SECONDS: whether the server's clock is SECONDS behind the real
# one (this process's, not faked): its reading moved SECONDS on lies within
# 0.5 s of real readings taken just before and after the query, however long
# the query takes.
sub clock_behind
{
	my ($seconds) = @_;
	my $before = Time::HiRes::time();
	my $server = $node->q('SELECT extract(epoch FROM clock_timestamp())');
	my $after = Time::HiRes::time();
	return $server + $seconds > $before - 0.5 && $server + $seconds < $after + 0.5;
}

# Every ID the test sees, by phase; n keeps the order they were minted in.
$node->q('CREATE EXTENSION idgen; CREATE TABLE ids (n bigserial, phase text, id bigint PRIMARY KEY)');
# snowflake53 shares the lease: its IDs by phase too.
$node->q('CREATE TABLE ids53 (n bigserial, phase text, id bigint PRIMARY KEY)');

# above_earlier53 PHASE: whether every snowflake53 ID of PHASE is above every earlier one.
sub above_earlier53
{
	my ($phase) = @_;
	return $node->q(
		"SELECT (SELECT min(id) FROM ids53 WHERE phase = '$phase') > (SELECT max(id) FROM ids53 WHERE phase <> '$phase')"
	);
}

# 1. Clock set back 3 s under one backend: within the 10 s default bound.
my $session = $node->background_psql('postgres');
my ($ahead, $stats) = ('', '');
my $kept_working = eval {
	$session->query_safe(
		"INSERT INTO ids (phase, id) SELECT 'before', snowflake(1) FROM generate_series(1, 2000)");
	$session->query_safe(
		"INSERT INTO ids53 (phase, id) SELECT 'before', snowflake53(1) FROM generate_series(1, 2000)");
	$node->set_clock_offset('-3');
	$session->query_safe(
		"INSERT INTO ids53 (phase, id) SELECT 'after', snowflake53(1) FROM generate_series(1, 2000)");
	$session->query_safe(
		"INSERT INTO ids (phase, id) SELECT 'after', snowflake(1) FROM generate_series(1, 2000)");
	$ahead = $session->query_safe(
		"SELECT snowflake_time(min(id)) > clock_timestamp() + interval '2 s' FROM ids WHERE phase = 'after'"
	);
	$stats = $session->query_safe(
		"SELECT clock_regressions || ' ' || ran_ahead
		 FROM idgen_stats WHERE family = 'snowflake' AND pid = pg_backend_pid()");
	1;
};
my $session_error = $@;
$session->quit;
# Section 2's refusal needs the lead of about 3 s to be still over 1 s: it
# runs now, in one statement, and its checks come in their place below.
my $refusal = $node->error("SET idgen.max_clock_regression = '1s'; SELECT snowflake(1)");

ok($kept_working, 'snowflake(1) keeps working across a 3 s clock regression')
  or diag($session_error);
my ($regressions, $ran_ahead) = $stats =~ /^(\d+) (\d+)$/ ? ($1, $2) : ();
ok( ($regressions // 0) >= 1,
	'idgen_stats counted the regression for this backend (got ' . ($regressions // 'none') . ')');
ok( ($ran_ahead // 0) >= 2000,
	'idgen_stats counted every ID after it as ahead of the clock (got ' . ($ran_ahead // 'none') . ')');
my $shard_regressions = $node->q(
	"SELECT clock_regressions FROM idgen_snowflake_shards WHERE family = 'snowflake' AND shard = 1");
ok( ($shard_regressions || 0) >= 1,
	'idgen_snowflake_shards counted the regression for shard 1 (got '
	  . ($shard_regressions eq '' ? 'none' : $shard_regressions) . ')');
is( $node->q(
		'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM ids) s WHERE bad'),
	0,
	'IDs stay strictly increasing within the backend');
is( $node->q(
		'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM ids53) s WHERE bad'),
	0,
	'snowflake53(1) IDs too');
is($ahead, 't', 'IDs after the regression carry a time over 2 s ahead of the clock');
ok(clock_behind(3), 'the server clock really is 3 s behind');

# 2. Beyond the bound: with 1 s allowed, a lead of about 3 s is refused.
like(
	$refusal,
	qr/^55000: system clock is [0-9]+ ms behind snowflake shard 1$/,
	'a lead beyond idgen.max_clock_regression fails with SQLSTATE 55000');
my ($behind) = $refusal =~ /^55000: system clock is ([0-9]+) ms behind/;
ok( ($behind // 0) > 1000,
	'the error reports a lead over the 1 s bound (got ' . ($behind // 'none') . ' ms)');
$node->sql_ok(
	"INSERT INTO ids (phase, id) SELECT 'default bound', snowflake(1) FROM generate_series(1, 100)",
	'with the default bound a new session mints again');

# 3. Clean restart with the clock set back 3 s more: the lease, not the clock,
# decides where the shard resumes.
$node->set_clock_offset('-6');
ok($node->stop('fast', fail_ok => 1) && $node->start(fail_ok => 1),
	'a fast restart with the clock 6 s behind succeeds');
ok(clock_behind(6), 'the server clock really is 6 s behind');
is($node->q('SELECT snowflake_time(max(id)) > clock_timestamp() FROM ids'),
	't', 'the clock is now behind the IDs issued before the restart');
$node->sql_ok(
	"INSERT INTO ids (phase, id) SELECT 'restart', snowflake(1) FROM generate_series(1, 2000)",
	'snowflake(1) mints after the restart');
is( $node->q(
		"SELECT (SELECT min(id) FROM ids WHERE phase = 'restart') > (SELECT max(id) FROM ids WHERE phase <> 'restart')"
	),
	't',
	'every ID after the restart is above every ID before it');
$node->sql_ok(
	"INSERT INTO ids53 (phase, id) SELECT 'restart', snowflake53(1) FROM generate_series(1, 2000)",
	'snowflake53(1) mints after the restart');
is(above_earlier53('restart'), 't',
	'every snowflake53 ID after the restart is above every one before it');
is( $node->q(
		"SELECT snowflake_time(min(id)) > clock_timestamp() FROM ids WHERE phase = 'restart'"),
	't',
	'the first ID after the restart carries a time ahead of the clock');
# A clean shutdown lowers the lease to the last ID issued, so the shard resumes
# in the next millisecond instead of up to 2 s (the lease span) further on.
# One lease serves both splits: it resumes after the last ID of either.
is( $node->q(
		"SELECT snowflake_time((SELECT min(id) FROM ids WHERE phase = 'restart'))
		        - greatest(snowflake_time((SELECT max(id) FROM ids WHERE phase <> 'restart')),
		                   snowflake53_time((SELECT max(id) FROM ids53 WHERE phase <> 'restart')))"),
	'00:00:00.001',
	'after a clean restart the shard resumes in the millisecond after the last ID of either split');

# 4. Crash restart while a client streams IDs. First let the clock catch up
# with the shard, so that lease margin and the next step back stay in bounds.
# Nothing mints on shard 1 meanwhile, and the clock advances at real pace.
ok( $node->poll_query_until(
		'postgres',
		"SELECT bool_and(last_issued < clock_timestamp() + interval '1 s')
		 FROM idgen_snowflake_shards WHERE shard = 1"),
	'the clock catches up to within 1 s of shard 1');
# The client prints its backend's pid, then streams. generate_series in the
# select list streams; in FROM it would first be materialised whole (seconds
# and a temporary file for 10^8 rows).
my ($stream, $stream_err) = ('', '');
my $timer = IPC::Run::timer($PostgreSQL::Test::Utils::timeout_default);
my $stream_client = IPC::Run::start(
	[
		'psql', '-XAtq', '-d', $node->connstr('postgres'),
		'-c', 'SELECT pg_backend_pid()',
		'-c', 'COPY (SELECT snowflake(1) FROM (SELECT generate_series(1, 100000000)) g) TO STDOUT'
	],
	'<', \undef, '>', \$stream, '2>', \$stream_err, $timer);
# The pid line and over 10000 IDs: the client reads until then, bounded by
# the timer; the backend mints far faster.
PostgreSQL::Test::Utils::pump_until($stream_client, $timer, \$stream,
	qr/\A(?:[^\n]*\n){10002}/);
my ($backend) = $stream =~ /\A(\d+)\n/;
my $postmaster = (split /\n/, PostgreSQL::Test::Utils::slurp_file($node->data_dir . '/postmaster.pid'))[0];
my $log_offset = -s $node->logfile;
ok( defined $backend && kill('KILL', $backend) == 1,
	'the streaming backend (pid ' . ($backend // 'none') . ') is killed with SIGKILL');
$stream_client->kill_kill unless defined $backend;    # or it would stream for minutes
ok(!$stream_client->finish, 'the streaming client lost its connection');
# The postmaster notices its child's death at once and reinitialises.
$backend //= 'none';
ok( eval {
		$node->wait_for_log(
			qr/(?:server process|client backend) \(PID $backend\) was terminated by signal 9(?s:.*)all server processes terminated; reinitializing/,
			$log_offset);
		1;
	},
	'the postmaster does a crash restart (server.log)');
# The reinitialised server recovers and accepts connections again.
ok($node->poll_accepting, 'the server accepts queries again');
is( (split /\n/, PostgreSQL::Test::Utils::slurp_file($node->data_dir . '/postmaster.pid'))[0],
	$postmaster, 'the same postmaster runs on');
$node->set_clock_offset('-8');
ok(clock_behind(8), 'the server clock really is 8 s behind');
# Only whole lines, without the pid line: the last one may have been cut off
# by the crash.
my @streamed = split /\n/, $stream, -1;
shift @streamed;
pop @streamed;
my $streamed_max = (sort { $a <=> $b } @streamed)[-1] // 0;
is($node->q("SELECT snowflake_time($streamed_max) > clock_timestamp()"),
	't', 'the clock is now behind the last streamed ID');
my $stream_file = PostgreSQL::Test::Utils::tempdir('stream') . '/streamed.txt';
PostgreSQL::Test::Utils::append_to_file($stream_file, join('', map { "$_\n" } @streamed));
$node->q('CREATE TABLE streamed (n bigserial, id bigint)');
$node->q("\\copy streamed (id) FROM '$stream_file'");
my $streamed = $node->q('SELECT count(*) FROM streamed');
ok($streamed > 1000, "the client received many IDs before the crash (got $streamed)");
is( $node->q(
		'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM streamed) s WHERE bad'),
	0,
	'the streamed IDs are strictly increasing');
$node->sql_ok(
	"INSERT INTO ids (phase, id) SELECT 'crash', snowflake(1) FROM generate_series(1, 2000)",
	'snowflake(1) mints after the crash restart');
is( $node->q(
		"SELECT (SELECT min(id) FROM ids WHERE phase = 'crash') > (SELECT max(id) FROM streamed)"),
	't',
	'every ID after the crash is above every ID the client received');
$node->sql_ok("INSERT INTO ids (phase, id) SELECT 'streamed', id FROM streamed ORDER BY n",
	'no streamed ID repeats any other ID (primary key)');
is( $node->q(
		"SELECT (SELECT min(id) FROM ids WHERE phase = 'crash') > (SELECT max(id) FROM ids WHERE phase <> 'crash')"
	),
	't',
	'every ID after the crash is above every earlier ID');
$node->sql_ok(
	"INSERT INTO ids53 (phase, id) SELECT 'crash', snowflake53(1) FROM generate_series(1, 2000)",
	'snowflake53(1) mints after the crash restart');
is(above_earlier53('crash'), 't', 'every snowflake53 ID after the crash is above every earlier one');

# 5. The lease file: a fixed 45-byte record whose number no issued ID reaches.
ok(-f $lease_file, 'the lease file exists');
is(-s $lease_file, 45, 'the lease file is 45 bytes');
# With the size, this pins the record down byte for byte.
my $lease = -f $lease_file ? PostgreSQL::Test::Utils::slurp_file($lease_file) : '';
like($lease, qr/\Aidgen snowflake lease 1\n[0-9]{20}\n\z/,
	'the lease file holds the header line and a 20-digit number');
my ($lease_ms) = $lease =~ /\n([0-9]{20})\n/;
is($node->q("SELECT '" . ($lease_ms // 0) . "'::bigint > max(id) >> 23 FROM ids"),
	't', 'the lease is above the millisecond of every issued ID');

# 6. An unreadable lease disables snowflake() until it is fixed.
$node->stop('fast');
my $saved_lease = PostgreSQL::Test::Utils::slurp_file($lease_file);

# write_lease TEXT: replaces the lease file's content (the file, and its
# mode, stay).
sub write_lease
{
	my ($text) = @_;
	open my $fh, '>', $lease_file or die "$lease_file: $!";
	print $fh $text;
	close $fh or die "$lease_file: $!";
	return;
}
write_lease("not a lease\n");
$log_offset = -s $node->logfile;
ok($node->start(fail_ok => 1), 'the server starts with a garbage lease file');
like(
	$node->error('SELECT snowflake(1)'),
	qr/^\QXX001: the snowflake lease file "idgen_snowflake.lease" is unreadable\E/,
	'snowflake(1) fails with SQLSTATE XX001 naming the lease file');
ok( $node->log_contains(
		qr/\Qidgen: file "idgen_snowflake.lease" holds no snowflake lease\E/, $log_offset),
	"server.log says the file holds no lease and snowflake() is disabled");
ok($node->log_contains(qr/\QDETAIL:  snowflake() is disabled.\E/, $log_offset),
	"server.log's detail says snowflake() is disabled");
is($node->q('SELECT uuid_v7() IS NOT NULL'), 't', 'uuid_v7() still works');
$node->stop('fast');
write_lease($saved_lease);
ok($node->start(fail_ok => 1), 'the server starts with the lease file restored');
$node->sql_ok(
	"INSERT INTO ids (phase, id) SELECT 'restored', snowflake(1) FROM generate_series(1, 100)",
	'snowflake(1) works again');
is( $node->q(
		"SELECT (SELECT min(id) FROM ids WHERE phase = 'restored') > (SELECT max(id) FROM ids WHERE phase <> 'restored')"
	),
	't',
	'IDs after the restored lease are above every earlier ID');

done_testing();
