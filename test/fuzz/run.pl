# Runs the libFuzzer targets that `make fuzz-build` put in test/fuzz/build/bin,
# each for SECONDS (0: no time limit), starting from its committed seed corpus
# test/fuzz/corpus/NAME: one check per target. Arguments starting with '-' go
# to every target (e.g. -runs=10000000); the rest name targets (default: every
# built one).
#
#   perl test/fuzz/run.pl 20
#   nice -n 10 perl test/fuzz/run.pl 0 -runs=10000000 ulid_text
#   FUZZ_JOBS=2 perl test/fuzz/run.pl 10     # two targets at a time
#
# What a run finds is kept under test/fuzz/build: inputs that reached new code
# in corpus/NAME (read again by the next run), an input that broke a property
# or crashed in crashes/NAME-*, and the fuzzer's output in logs/NAME.log.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path);
use Test::More;

chdir(abs_path(dirname(__FILE__) . '/../..')) or die "chdir: $!";
my $seconds = shift // die "usage: perl test/fuzz/run.pl SECONDS [-FLAG...] [TARGET...]\n";
my @flags = grep { /^-/ } @ARGV;
my @targets = grep { !/^-/ } @ARGV;
my $build = 'test/fuzz/build';
@targets = map { (split m{/})[-1] } grep { -x } glob("$build/bin/*") unless @targets;
if (!ok(scalar @targets, 'a fuzz target is built (make fuzz-build)'))
{
	done_testing();
	exit 1;
}

make_path("$build/crashes", "$build/logs");

# Up to FUZZ_JOBS targets run at once (test/run-tests.sh gives one a core);
# each is reported, in the order given, when it has ended.
my $jobs = ($ENV{FUZZ_JOBS} // 1) =~ /^([1-9]\d*)$/ ? $1 : 1;
my (%status_of, @queue);
for my $t (@targets)
{
	my $seeds = "test/fuzz/corpus/$t";
	make_path("$build/corpus/$t");
	if (!-x "$build/bin/$t" || !-d $seeds)
	{
		$status_of{$t} = 'missing';
		next;
	}
	push @queue, $t;
}
my %running;
while (@queue || %running)
{
	while (@queue && keys %running < $jobs)
	{
		my $t = shift @queue;
		my $log = "$build/logs/$t.log";
		my $seeds = "test/fuzz/corpus/$t";
		# The first directory collects new inputs; the committed seeds are only read.
		my $pid = fork // die "fork: $!";
		if (!$pid)
		{
			open STDOUT, '>', $log or die "$log: $!";
			open STDERR, '>&', \*STDOUT or die "stderr: $!";
			exec("$build/bin/$t", "-max_total_time=$seconds", '-max_len=128', '-timeout=10',
				"-artifact_prefix=$build/crashes/$t-", @flags, "$build/corpus/$t", $seeds)
			  or die "exec $build/bin/$t: $!";
		}
		$running{$pid} = $t;
	}
	my $pid = waitpid(-1, 0);
	last if $pid < 0;
	next unless exists $running{$pid};
	$status_of{ delete $running{$pid} } = $?;
}

for my $t (@targets)
{
	my $log = "$build/logs/$t.log";
	if ($status_of{$t} eq 'missing')
	{
		fail("fuzz $t: no binary $build/bin/$t or no seed corpus test/fuzz/corpus/$t");
		next;
	}
	my $passed = $status_of{$t} == 0;
	open my $fh, '<', $log or die "$log: $!";
	my @lines = <$fh>;
	close $fh;
	my ($done) = map { /^Done (\d+ runs in \d+ second.*)$/ ? $1 : () } reverse @lines;
	my @why = grep { /property violated|ERROR: |SUMMARY: |runtime error|Test unit written to|^Base64: / } @lines;
	ok($passed, "fuzz $t" . ($passed ? ': ' . ($done // 'no Done line') : " (log: $log)"))
	  or diag(join('', @why[0 .. ($#why < 19 ? $#why : 19)]));
}
done_testing();
