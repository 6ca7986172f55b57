# Shared counters stay within idgen.max_clock_regression of the clock, whatever
# other sessions do. uuid_v7: sessions hammering 'server' order cannot push the
# shared counter further ahead (their calls wait for the clock instead, and
# idgen_stats counts the waits), and neither can one session in 'backend'
# order. ulid: the same in both orders (a ULID's 80 bits per millisecond leave
# no burst that runs ahead: no value may lead the clock's millisecond). snowflake: sessions hammering one shard at its bound wait, and never
# make each other fail with "system clock is N ms behind".
#
# The bound is 0 ms by default, so that a call waits as soon as it would take
# a tick (1/4096 ms, or for snowflake a millisecond) ahead of the clock:
# without the bound, sessions calling faster than the clock run ahead within
# microseconds. BOUND_MS, HAMMERS, PER_HAMMER, SHARD and PER_SNOWFLAKE_HAMMER
# in the environment change the sizes.
use strict;
use warnings;
use IPC::Run ();
use List::Util qw(max sum0);
use Time::HiRes ();
use IdgenTest;
use Test::More;

my $bound_ms = $ENV{BOUND_MS} // 0;
my $hammers = $ENV{HAMMERS} // 4;
my $per_hammer = $ENV{PER_HAMMER} // 1_000_000;
my $shard = $ENV{SHARD} // 8101;
my $per_snowflake_hammer = $ENV{PER_SNOWFLAKE_HAMMER} // 2_000_000;
# A tick is ~0.244 us and clock_timestamp() truncates to the microsecond.
my $tolerance_us = 2;
my $bound_us = $bound_ms * 1000 + $tolerance_us;

my $node = IdgenTest::Node->create('main');
my $db = $node->fresh_database('idgen_lead');
$node->q("ALTER DATABASE idgen_lead SET idgen.max_clock_regression = '${bound_ms}ms'");
$node->q("ALTER DATABASE idgen_lead SET idgen.uuid_v7_order = 'server'");
$node->q("ALTER DATABASE idgen_lead SET idgen.ulid_order = 'server'");
# lead_us(id, t): microseconds from t to the 60-bit time (ms and 1/4096 ms) of a UUIDv7.
$node->q(
	"CREATE FUNCTION lead_us(id uuid, t timestamptz) RETURNS numeric LANGUAGE sql IMMUTABLE AS \$\$
	     SELECT ('x' || substr(h, 1, 12) || substr(h, 14, 3))::bit(60)::bigint * 1000 / 4096.0
	            - extract(epoch FROM t) * 1000000
	     FROM replace(id::text, '-', '') AS h \$\$", db => $db);
# lead_us(id, t): microseconds from t to the start of a ULID's millisecond.
$node->q(
	"CREATE FUNCTION lead_us(id ulid, t timestamptz) RETURNS numeric LANGUAGE sql IMMUTABLE AS \$\$
	     SELECT extract(epoch FROM ulid_time(id)) * 1000000 - extract(epoch FROM t) * 1000000 \$\$",
	db => $db);

# session COMMANDS [ENV]: starts psql running each of COMMANDS (-c, so errors
# print as "ERROR: ..."), stdout and stderr together; returns [harness,
# \output, timer]: the timer (the suite's timeout) bounds reads of the output.
sub session
{
	my ($commands, %env) = @_;
	my $out = '';
	my $timer = IPC::Run::timer($PostgreSQL::Test::Utils::timeout_default);
	local %ENV = (%ENV, %env);
	my $h = IPC::Run::start(
		[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db), map { ('-c', $_) } @$commands ],
		'<', \undef, '>', \$out, '2>&1', $timer);
	return [ $h, \$out, $timer ];
}

# hammer ORDER [FAMILY]: a session that mints PER_HAMMER values of FAMILY
# (uuid_v7 unless given) as fast as it can; every 64th call is followed by a
# clock reading, and the largest lead of those values over the clock read
# after them is printed, then the session's waits.
sub hammer
{
	my ($order, $family) = @_;
	$family //= 'uuid_v7';
	return session(
		[
			"SELECT 'lead=' || coalesce(max(lead_us(id, t1)) FILTER (WHERE t1 IS NOT NULL), 0) FROM (
			     SELECT $family() AS id, CASE WHEN n % 64 = 0 THEN clock_timestamp() END AS t1
			     FROM (SELECT generate_series(1, $per_hammer) AS n) g) minted",
			"SELECT 'waits=' || waits FROM idgen_stats WHERE pid = pg_backend_pid() AND family = '$family'"
		],
		PGOPTIONS => "-c idgen.${family}_order=$order");
}

# finished SESSIONS: waits for each session to end; whether all exited with 0
# (the output of any that did not goes to the test's log).
sub finished
{
	my $ok = 1;
	for my $s (@_)
	{
		my ($h, $out) = @$s;
		next if $h->finish;
		$ok = 0;
		print "session failed:\n$$out\n";
	}
	return $ok;
}

# field NAME SESSIONS: the values of NAME=... lines the sessions printed.
sub field
{
	my ($name, @sessions) = @_;
	return map { ${ $_->[1] } =~ /^\Q$name\E=(.*)$/mg } @sessions;
}

my @server = map { hammer('server') } 1 .. $hammers;
ok(finished(@server), "server order: $hammers sessions x $per_hammer calls succeed");
my $max_lead = max(field('lead', @server));
ok( defined $max_lead && $max_lead <= $bound_us,
	"server order: no value ran more than ${bound_ms} ms ahead of the clock (largest lead "
	  . ($max_lead // 'none') . ' us)');
my $waits = sum0(field('waits', @server));
ok($waits > 0,
	"server order: the sessions waited for the clock, and idgen_stats counted it (waits $waits)");
# The shared counter itself: the next server-order value, against the clock after it.
my $after = $node->q('SELECT lead_us(id, t1) FROM (SELECT uuid_v7() AS id, clock_timestamp() AS t1) s',
	db => $db);
ok($after <= $bound_us,
	"server order: afterwards the shared counter is within ${bound_ms} ms of the clock (lead $after us)");

my $backend = hammer('backend');
finished($backend);
ok(${ $backend->[1] } =~ /^waits=/m, "backend order: one session x $per_hammer calls succeeds");
my ($backend_lead) = field('lead', $backend);
ok( defined $backend_lead && $backend_lead <= $bound_us,
	"backend order: no value ran more than ${bound_ms} ms ahead of the clock (largest lead "
	  . ($backend_lead // 'none') . ' us)');

# ulid: the same sessions, the same bound.
my @ulid_server = map { hammer('server', 'ulid') } 1 .. $hammers;
ok(finished(@ulid_server), "ulid server order: $hammers sessions x $per_hammer calls succeed");
my $ulid_lead = max(field('lead', @ulid_server));
ok( defined $ulid_lead && $ulid_lead <= $bound_us,
	"ulid server order: no value ran more than ${bound_ms} ms ahead of the clock (largest lead "
	  . ($ulid_lead // 'none') . ' us)');
note('ulid server order: the sessions waited ' . sum0(field('waits', @ulid_server)) . ' times');
$after = $node->q('SELECT lead_us(id, t1) FROM (SELECT ulid() AS id, clock_timestamp() AS t1) s', db => $db);
ok($after <= $bound_us,
	"ulid server order: afterwards the shared value is within ${bound_ms} ms of the clock (lead $after us)");
my $ulid_backend = hammer('backend', 'ulid');
finished($ulid_backend);
ok(${ $ulid_backend->[1] } =~ /^waits=/m, "ulid backend order: one session x $per_hammer calls succeeds");
my ($ulid_backend_lead) = field('lead', $ulid_backend);
ok( defined $ulid_backend_lead && $ulid_backend_lead <= $bound_us,
	"ulid backend order: no value ran more than ${bound_ms} ms ahead of the clock (largest lead "
	  . ($ulid_backend_lead // 'none') . ' us)');

# pause_in_turn PIDS: pauses each of the backends PIDS that is running (not
# sleeping in a wait) in turn for 2 ms (SIGSTOP, SIGCONT), wherever it is,
# until all have exited or the suite's timeout passed; the number of pauses.
sub pause_in_turn
{
	my %live = map { $_ => 1 } @_;
	my $pauses = 0;
	my $deadline = Time::HiRes::time() + $PostgreSQL::Test::Utils::timeout_default;
	while (%live && Time::HiRes::time() < $deadline)
	{
		my $paused = 0;
		for my $pid (sort keys %live)
		{
			# A backend that exited: gone from /proc, or no longer a postgres
			# process (its pid taken by another).
			my $stat;
			if (!open my $fh, '<', "/proc/$pid/stat")
			{
				delete $live{$pid};
				next;
			}
			else
			{
				$stat = <$fh> // '';
				close $fh;
			}
			my ($comm, $state) = $stat =~ /^\d+ \((.*)\) (\S)/s;
			if (!defined $comm || $comm ne 'postgres' || $state eq 'Z')
			{
				delete $live{$pid};
				next;
			}
			next unless $state eq 'R';
			next unless kill('STOP', $pid);
			Time::HiRes::sleep(0.002);
			kill('CONT', $pid);
			$pauses++;
			$paused++;
			Time::HiRes::sleep(0.001);
		}
		# Nothing running this round: look again in a millisecond.
		Time::HiRes::sleep(0.001) unless $paused;
	}
	return $pauses;
}

# snowflake: HAMMERS sessions minting on one shard as fast as they can, at a
# bound of BOUND_MS. A session whose clock reading is older than the shard's
# last stamp must not take it for a clock set back: to make such readings
# likely rather than left to the scheduler, the backends are paused in turn
# for 2 ms (SIGSTOP, SIGCONT), wherever they happen to be.
my $shard_waits = "SELECT coalesce((SELECT waits FROM idgen_snowflake_shards WHERE shard = $shard), 0)";
my $waits_before = $node->q($shard_waits, db => $db);
my @snowflake = map {
	session(
		[
			'SELECT pg_backend_pid()',
			"SELECT count(snowflake($shard)) FROM (SELECT generate_series(1, $per_snowflake_hammer)) g"
		])
} 1 .. $hammers;
# Each session prints its backend's pid first, then mints (bash looked the
# backends up 0.3 s after starting them, and missed any not yet connected).
my @backends;
for my $s (@snowflake)
{
	my ($h, $out, $timer) = @$s;
	push @backends, $1
	  if PostgreSQL::Test::Utils::pump_until($h, $timer, $out, qr/^\d+\n/) && $$out =~ /^(\d+)\n/;
}
my $pauses = pause_in_turn(@backends);
my $all_ok = finished(@snowflake);
my @errors = map { ${ $_->[1] } =~ /^(ERROR.*)$/mg } @snowflake;
ok( $all_ok && @backends == $hammers,
	"snowflake: $hammers sessions x $per_snowflake_hammer calls on shard $shard all succeed at a ${bound_ms} ms bound, $pauses pauses of 2 ms ("
	  . scalar(@errors) . ' errors)');
my %count;
$count{$_}++ for @errors;
diag("$count{$_} x $_") for sort keys %count;
my $waits_after = $node->q($shard_waits, db => $db);
ok($waits_after > $waits_before,
	'snowflake: the sessions waited for the clock (' . ($waits_after - $waits_before) . " waits on shard $shard)");

done_testing();
