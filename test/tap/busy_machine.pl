# The timing-sensitive pg_regress files pass on a busy machine: one busy loop
# per core competes with the server while prefixed, uuid_v7, ulid, typeid,
# snowflake, snowflake53 and stats run, each reported ok or not ok. Their time
# checks allow exactly the lead docs/internals.md documents (a burst runs ahead
# of the clock by one 1/4096 ms step per call at most), so a green suite must
# not depend on how busy the machine is. The loops are killed at exit and stop
# by themselves after BUSY_SECONDS anyway; pg_regress writes its results to a
# temporary directory, not to the tree's results/ and regression.diffs.
use strict;
use warnings;
use IdgenTest;
use IPC::Run ();
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();

my @files = split ' ', ($ENV{BUSY_FILES} // 'prefixed uuid_v7 ulid typeid snowflake snowflake53 stats');
my $busy_seconds = $ENV{BUSY_SECONDS} // 100;
my $db = 'idgen_busy_machine';

my $node = IdgenTest::Node->create('main');

# The busy loops: forked children that spin until killed, or until their alarm
# after BUSY_SECONDS; END kills them when the test exits in any way but a
# signal of its own, and INT or TERM make it exit that way.
my $parent = $$;
my @busy;
END
{
	local $?;    # waitpid must not change the test's exit status
	if ($$ == $parent && @busy)
	{
		kill 'KILL', @busy;
		waitpid($_, 0) for @busy;
	}
}
$SIG{INT} = $SIG{TERM} = sub { exit 130 };

chomp(my $cores = `nproc`);
for (1 .. $cores)
{
	my $pid = fork // die "fork: $!";
	if ($pid == 0)
	{
		$SIG{$_} = 'DEFAULT' for qw(INT TERM ALRM);
		alarm($busy_seconds);
		1 while 1;
	}
	push @busy, $pid;
}

# cpu_ticks PID: user plus system clock ticks the process has used (/proc/PID/stat),
# or undef once it is gone.
sub cpu_ticks
{
	my ($pid) = @_;
	open my $fh, '<', "/proc/$pid/stat" or return undef;
	my $stat = <$fh>;
	close $fh;
	my @fields = split ' ', substr($stat, rindex($stat, ')') + 2);
	return undef if $fields[0] eq 'Z';
	return $fields[11] + $fields[12];
}

# Each loop spins from the moment it is forked, so its CPU time passes one
# clock tick as soon as the scheduler has run it that long.
my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
my $running;
while (1)
{
	$running = grep { (cpu_ticks($_) // 0) > 0 } @busy;
	last if $running == $cores || time > $deadline;
	Time::HiRes::usleep(100_000);
}
is($running, $cores, "$cores busy loops run, one per core");

# As test/run-tests.sh runs pg_regress (make installcheck: --load-extension,
# --inputdir, --bindir), on this test's server, with its output in a
# temporary directory; bounded so that it ends while the loops still run.
my $out = PostgreSQL::Test::Utils::tempdir('busy_regress');
my $log = '';
my $start = Time::HiRes::time();
my $regress = IPC::Run::start(
	[
		$ENV{PG_REGRESS}, '--inputdir=' . repo_dir(),
		"--outputdir=$out", '--bindir=' . $node->config_data('--bindir'),
		'--load-extension=idgen', '--host=' . $node->host,
		'--port=' . $node->port, "--dbname=$db",
		@files
	],
	'>', \$log, '2>&1', IPC::Run::timeout($busy_seconds - 5));
if (!eval { $regress->finish; 1 })
{
	diag("pg_regress did not end within " . ($busy_seconds - 5) . " s: $@");
	$regress->kill_kill;
}
PostgreSQL::Test::Utils::append_to_file("$out/regress.log", $log);
chomp(my $loadavg = PostgreSQL::Test::Utils::slurp_file('/proc/loadavg'));
note(sprintf('pg_regress under load took %.3f s; load average %s',
		Time::HiRes::time() - $start, join(' ', (split ' ', $loadavg)[ 0 .. 2 ])));

my $diffs = -s "$out/regression.diffs" ? PostgreSQL::Test::Utils::slurp_file("$out/regression.diffs") : '';
for my $file (@files)
{
	# PostgreSQL 15 prints "test NAME ... ok", 16 and later "ok N - NAME".
	next if ok($log =~ /^(test \Q$file\E +\.\.\. ok|ok +[0-9]+ +[-+] \Q$file\E )/m,
		"pg_regress $file passes with $cores busy loops beside it");
	if ($diffs ne '')
	{
		# the diff of this file's output, its first 40 lines
		my @part;
		my $keep = 0;
		for my $line (split /\n/, $diffs)
		{
			$keep = index($line, "/$file.out") >= 0 if $line =~ /^diff /;
			push @part, $line if $keep;
		}
		diag(join("\n", @part[ 0 .. ($#part < 39 ? $#part : 39) ]));
	}
	else
	{
		my @lines = split /\n/, $log;
		diag(join("\n", @lines > 20 ? @lines[ -20 .. -1 ] : @lines));
	}
}
done_testing();
