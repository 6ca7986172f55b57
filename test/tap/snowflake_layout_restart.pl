# snowflake_layout_new() in the twitter and sonyflake layouts when the system
# clock is set back: under a running server (IDs keep counting from the last
# one, up to idgen.max_clock_regression, which filled twitter's ticks to
# their 4096 sequences and borrows the next), across a clean restart and a
# crash restart mid-burst (the layout lease in the data directory keeps new
# IDs above old ones), and with an unreadable layout lease file
# (snowflake_layout_new() stops, snowflake() goes on). The clock is moved with
# libfaketime, in the server only (set_clock_offset); the offsets add up to
# 8 s, so that the IDs' lead over the clock, lease margin included, stays under
# the default bound of 10 s.
use strict;
use warnings;
use IPC::Run ();
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main',
	fake_clock => 1,
	conf => ['restart_after_crash = on']);
my $lease_file = $node->data_dir . '/idgen_snowflake_layout.lease';
my %unit_ms = (twitter => 1, sonyflake => 10);
# twitter first: its lead is the clock's step back alone, which time wears down.
my @layouts = qw(twitter sonyflake);

# Every ID the test sees, by layout and phase; n keeps the order they were
# minted in, minted_at the server's (faked) clock when each row went in.
$node->q(
	'CREATE EXTENSION idgen;
	 CREATE TABLE ids (n bigserial, layout text, phase text, id bigint,
	                   minted_at timestamptz DEFAULT clock_timestamp(), PRIMARY KEY (layout, id))');

# mint LAYOUT PHASE COUNT: COUNT IDs of LAYOUT's node 1 into ids; psql's status.
sub mint
{
	my ($layout, $phase, $count) = @_;
	return $node->psql('postgres',
		"INSERT INTO ids (layout, phase, id)
		 SELECT '$layout', '$phase', snowflake_layout_new('$layout', 1) FROM generate_series(1, $count)");
}

# above_earlier LAYOUT PHASE: whether every ID of PHASE is above every earlier one of LAYOUT.
sub above_earlier
{
	my ($layout, $phase) = @_;
	return $node->q(
		"SELECT (SELECT min(id) FROM ids WHERE layout = '$layout' AND phase = '$phase')
		      > (SELECT max(id) FROM ids WHERE layout = '$layout' AND phase <> '$phase')");
}

# 1. The clock set back 3 s under one session: IDs count on from the last.
my $session = $node->background_psql('postgres');
my ($stats, %ahead, %refusal) = ('');
my $kept_working = eval {
	for my $layout (@layouts)
	{
		$session->query_safe(
			"INSERT INTO ids (layout, phase, id)
			 SELECT '$layout', 'before', snowflake_layout_new('$layout', 1) FROM generate_series(1, 2000)");
	}
	$node->set_clock_offset('-3');
	for my $layout (@layouts)
	{
		$session->query_safe(
			"INSERT INTO ids (layout, phase, id)
			 SELECT '$layout', 'after', snowflake_layout_new('$layout', 1) FROM generate_series(1, 100000)");
		# The first ID after the step back, against the clock when it was
		# minted: its lead is the 3 s less the time since the layout's last
		# ID before it, however long the burst after it took (on a busy
		# machine, the burst alone could outlast 2 s).
		$ahead{$layout} = $session->query_safe(
			"SELECT snowflake_layout_time(id, '$layout') > minted_at + interval '1 s'
			 FROM ids WHERE layout = '$layout' AND phase = 'after' ORDER BY n LIMIT 1");
		# The refusal needs the lead (about 3 s, less the time since the
		# clock went back) to be over 1 s: at once, in a session of its own.
		$refusal{$layout} = $node->error(
			"SET idgen.max_clock_regression = '1s'; SELECT snowflake_layout_new('$layout', 1)");
	}
	$stats = $session->query_safe(
		"SELECT clock_regressions > 0 AND ran_ahead > 0
		 FROM idgen_stats WHERE family = 'snowflake_layout' AND pid = pg_backend_pid()");
	1;
};
my $session_error = $@;
$session->quit;
ok($kept_working, 'both layouts keep minting across a 3 s clock regression')
  or diag($session_error);
is($stats, 't', 'idgen_stats counted the regression and the IDs ahead of the clock');
for my $layout (@layouts)
{
	my $tick = "snowflake_layout_field(id, '$layout', 'time')";
	my $per_tick = $layout eq 'twitter' ? 4096 : 256;
	is(above_earlier($layout, 'after'), 't',
		"$layout: every ID after the clock went back is above every one before");
	is( $node->q(
			"SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad
			                      FROM ids WHERE layout = '$layout') s WHERE bad"),
		0,
		"$layout: strictly increasing in generation order");
	is($ahead{$layout}, 't', "$layout: the IDs after the step back are over 1 s ahead of the clock");
	# Ahead of the clock every ID is the last + 1: each tick's sequence is
	# used up and the next tick borrowed, however slowly the session mints.
	is( $node->q(
			"SELECT count(*) FROM (SELECT $tick AS tick, count(*) AS c FROM ids
			                      WHERE layout = '$layout' AND phase = 'after' GROUP BY 1) s
			 WHERE c <> $per_tick
			   AND tick > (SELECT min($tick) FROM ids WHERE layout = '$layout' AND phase = 'after')
			   AND tick < (SELECT max($tick) FROM ids WHERE layout = '$layout' AND phase = 'after')"),
		0,
		"$layout: each tick's $per_tick sequences are used up before the next tick is borrowed");
	like($refusal{$layout},
		qr/^55000: system clock is [0-9]+ ms behind snowflake layout "$layout" node 1$/,
		"$layout: a lead beyond idgen.max_clock_regression fails with SQLSTATE 55000");
	my ($behind) = $refusal{$layout} =~ /is ([0-9]+) ms/;
	ok(($behind // 0) > 1000 && ($behind // 0) % $unit_ms{$layout} == 0,
		"$layout: the error reports a lead over the 1 s bound in whole ticks (got "
		  . ($behind // 'none') . ' ms)');
}

# 2. A clean restart with the clock set back 3 s more: the lease, not the
# clock, decides where each layout resumes. One lease serves every layout:
# lowered at the shutdown to the last tick any of them issued, it makes each
# resume in its first tick after that one.
$node->set_clock_offset('-6');
ok($node->stop('fast', fail_ok => 1) && $node->start(fail_ok => 1),
	'a fast restart with the clock 6 s behind succeeds');
my $last_tick = "(SELECT max(snowflake_layout_time(id, layout)) FROM ids WHERE phase <> 'restart')";
for my $layout (@layouts)
{
	is(mint($layout, 'restart', 2000), 0, "$layout: mints after the restart");
	is(above_earlier($layout, 'restart'), 't',
		"$layout: every ID after the restart is above every ID before it");
	is( $node->q(
			"SELECT snowflake_layout_time(min(id), '$layout') - $last_tick
			        BETWEEN interval '1 ms' AND interval '$unit_ms{$layout} ms'
			 FROM ids WHERE layout = '$layout' AND phase = 'restart'"),
		't',
		"$layout: after a clean restart it resumes in its first tick after the last tick of any layout");
}

# 3. A crash restart while a client streams IDs of both layouts. First let
# the clock catch up to within 1 s of both, so that the lease margin and the
# next step back stay in bounds.
ok( $node->poll_query_until(
		'postgres',
		"SELECT bool_and(snowflake_layout_time(snowflake_layout_new(l, 1), l) < clock_timestamp() + interval '1 s')
		 FROM unnest(ARRAY['twitter', 'sonyflake']) l"),
	'the clock catches up to within 1 s of both layouts');
my ($stream, $stream_err) = ('', '');
my $timer = IPC::Run::timer($PostgreSQL::Test::Utils::timeout_default);
my $stream_client = IPC::Run::start(
	[
		'psql', '-XAtq', '-d', $node->connstr('postgres'),
		'-c', 'SELECT pg_backend_pid()',
		'-c', "COPY (SELECT snowflake_layout_new('twitter', 1), snowflake_layout_new('sonyflake', 1)
		             FROM (SELECT generate_series(1, 100000000)) g) TO STDOUT"
	],
	'<', \undef, '>', \$stream, '2>', \$stream_err, $timer);
PostgreSQL::Test::Utils::pump_until($stream_client, $timer, \$stream, qr/\A(?:[^\n]*\n){5002}/);
my ($backend) = $stream =~ /\A(\d+)\n/;
my $log_offset = -s $node->logfile;
ok(defined $backend && kill('KILL', $backend) == 1,
	'the streaming backend (pid ' . ($backend // 'none') . ') is killed with SIGKILL');
$stream_client->kill_kill unless defined $backend;
ok(!$stream_client->finish, 'the streaming client lost its connection');
$backend //= 'none';
ok( eval {
		$node->wait_for_log(
			qr/(?:server process|client backend) \(PID $backend\) was terminated by signal 9(?s:.*)all server processes terminated; reinitializing/,
			$log_offset);
		1;
	},
	'the postmaster does a crash restart (server.log)');
ok($node->poll_accepting, 'the server accepts queries again');
$node->set_clock_offset('-8');
# Whole lines only, without the pid line: the last may have been cut off.
my @streamed = split /\n/, $stream, -1;
shift @streamed;
pop @streamed;
my $stream_file = PostgreSQL::Test::Utils::tempdir('stream') . '/streamed.txt';
PostgreSQL::Test::Utils::append_to_file($stream_file, join('', map { "$_\n" } @streamed));
$node->q('CREATE TABLE streamed (n bigserial, twitter bigint, sonyflake bigint)');
$node->q("\\copy streamed (twitter, sonyflake) FROM '$stream_file'");
cmp_ok($node->q('SELECT count(*) FROM streamed'), '>', 1000,
	'the client received many IDs of each layout before the crash');
for my $layout (@layouts)
{
	is( $node->q(
			"SELECT snowflake_layout_time(max($layout), '$layout') > clock_timestamp() FROM streamed"),
		't',
		"$layout: the clock is now behind the last streamed ID");
	is(mint($layout, 'crash', 2000), 0, "$layout: mints after the crash restart");
	is( $node->q(
			"SELECT (SELECT min(id) FROM ids WHERE layout = '$layout' AND phase = 'crash')
			      > (SELECT max($layout) FROM streamed)"),
		't',
		"$layout: every ID after the crash is above every ID the client received");
	is( $node->psql('postgres',
			"INSERT INTO ids (layout, phase, id) SELECT '$layout', 'streamed', $layout FROM streamed ORDER BY n"),
		0,
		"$layout: no streamed ID repeats any other ID (primary key)");
	is(above_earlier($layout, 'crash'), 't', "$layout: every ID after the crash is above every earlier ID");
}

# 4. The lease file: a fixed 52-byte record, above the tick of every issued ID.
ok(-f $lease_file, 'the layout lease file exists');
is(-s $lease_file, 52, 'the layout lease file is 52 bytes');
my $lease = -f $lease_file ? PostgreSQL::Test::Utils::slurp_file($lease_file) : '';
like($lease, qr/\Aidgen snowflake layout lease 1\n[0-9]{20}\n\z/,
	'the layout lease file holds the header line and a 20-digit number');
my $lease_ms = $node->lease_end('snowflake_layout');
is( $node->q(
		"SELECT bool_and(extract(epoch FROM snowflake_layout_time(id, layout)) * 1000 < $lease_ms) FROM ids"),
	't',
	'the lease (Unix ms) is above the tick of every issued ID');

# 5. An unreadable layout lease disables snowflake_layout_new() until it is
# fixed; snowflake(), on a lease of its own, goes on.
$node->stop('fast');
my $saved_lease = PostgreSQL::Test::Utils::slurp_file($lease_file);
PostgreSQL::Test::Utils::append_to_file($lease_file . '.tmp', "not a lease\n");
rename $lease_file . '.tmp', $lease_file or die "$lease_file: $!";
$log_offset = -s $node->logfile;
ok($node->start(fail_ok => 1), 'the server starts with a garbage layout lease file');
like(
	$node->error("SELECT snowflake_layout_new('twitter', 1)"),
	qr/^\QXX001: the snowflake layout lease file "idgen_snowflake_layout.lease" is unreadable\E/,
	'snowflake_layout_new() fails with SQLSTATE XX001 naming the lease file');
ok( $node->log_contains(
		qr/\Qidgen: file "idgen_snowflake_layout.lease" holds no snowflake layout lease\E/, $log_offset),
	'server.log says the file holds no layout lease');
is($node->q("SELECT snowflake(1) > 0 AND snowflake_layout_new('instagram', 1) > 0"),
	't', "snowflake() and the instagram layout, snowflake()'s, still work");
$node->stop('fast');
unlink $lease_file;
PostgreSQL::Test::Utils::append_to_file($lease_file, $saved_lease);
ok($node->start(fail_ok => 1), 'the server starts with the layout lease file restored');
for my $layout (@layouts)
{
	is(mint($layout, 'restored', 100), 0, "$layout: mints again");
	is(above_earlier($layout, 'restored'), 't',
		"$layout: IDs after the restored lease are above every earlier ID");
}

done_testing();
