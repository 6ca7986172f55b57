# The consolidator's log as test/lib/multi_node.py's guard judge reads it
# (guard_log): a restarted apply worker that first meets the one before still
# holding the replication origin logs PostgreSQL's transient "already active
# for PID" error, which is left out; any other error stays, so the judge's
# "every error is the guard's" fails on it. Synthetic logs in the servers'
# log_line_prefix of test/integration/multi_node.pl; starts no server.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils ();

chdir repo_dir() or die "cd: $!";
my $work = PostgreSQL::Test::Utils::tempdir('multi_node_log');

my $guard = 'snowflake shard 10 is already claimed by another server';
my $worker = 'logical replication apply worker';

# line PID LEVEL TEXT: one log line as log_line_prefix '%m [%p] %b: ' writes it.
sub line { return "2026-12-03 11:00:00.000 UTC [$_[0]] $worker: $_[1]:  $_[2]\n"; }
sub started { return line($_[0], 'LOG', qq{logical replication apply worker for subscription "sub_w4" has started}); }
sub refused { return line($_[0], 'ERROR', $guard) . line($_[0], 'DETAIL', 'Server "w1" holds it.'); }
sub held { return line($_[0], 'ERROR', "replication origin with ID 1 is already active for PID $_[1]"); }

# judged LOG: what guard_log keeps and leaves out, as "kept: TEXT | TEXT; left out: N".
sub judged
{
	my ($log) = @_;
	write_file("$work/server.log", $log);
	my ($status, $out, $err) = run_status(
		[
			'/usr/bin/python3', '-c',
			'import sys; sys.path.insert(0, "test/lib"); import multi_node as m; '
			  . 'kept, out = m.guard_log(sys.argv[1], "sub_w4"); '
			  . 'print("kept: " + " | ".join(e["text"] for e in kept) + "; left out: " + str(len(out)))',
			"$work/server.log"
		]);
	is($status, 0, 'multi_node.py reads the log') or diag($err);
	chomp $out;
	return $out;
}

is( judged(started(100) . refused(100) . started(101) . held(101, 100) . started(102) . refused(102)),
	"kept: $guard | $guard; left out: 1",
	'a worker that met the one before still holding the origin, then a new worker: the handover is left out');

is( judged(started(100) . refused(100) . started(101) . held(101, 100)),
	"kept: $guard | replication origin with ID 1 is already active for PID 100; left out: 0",
	'... but kept when no worker started after it');

is( judged(started(100) . started(101) . held(101, 100) . started(102) . refused(102)),
	"kept: replication origin with ID 1 is already active for PID 100 | $guard; left out: 0",
	'... and when the PID it names had logged no error it exits on');

is( judged(started(100) . refused(100) . started(101) . line(101, 'ERROR', 'could not connect to the publisher') . started(102)),
	"kept: $guard | could not connect to the publisher; left out: 0",
	'any other error is kept');

done_testing();
