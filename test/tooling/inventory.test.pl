# The guard of counted checks (test/inventory.py hold, through
# test/lib/lib.sh's hold_to_inventory, as test/run-tests.sh calls it) failing
# on purpose: a file that stops early, a skip for a reason the inventory does
# not allow, a file the inventory does not hold, and a guard that cannot tell
# (inventory.py failing, a malformed or missing inventory) each fail the run;
# a full count and an allowed skip pass. Starts no server.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils ();

chdir repo_dir() or die "cd: $!";
my $work = PostgreSQL::Test::Utils::tempdir('inventory');

# The inventory of a run: on 18, t/a.pl counted three checks and t/c.pl
# one, a skip for a reason that does not depend on the run; on 15, t/c.pl
# counted two.
write_file("$work/inventory.tsv", <<"TSV");
# major\tfile\tcount
18\tt/a.pl\t3
18\tt/c.pl\t1
18\tt/c.pl\t# skip Citus is not installed for PostgreSQL # (no package registry serves it)
15\tt/c.pl\t2
TSV

# guard MAJOR FILE TAP [INVENTORY]: what hold_to_inventory prints and the
# number of failures it adds, for FILE's TAP output TAP.
sub guard
{
	my ($major, $file, $tap, $inventory) = @_;
	write_file("$work/t.tap", $tap);
	my ($status, $out, $err) = run_status(
		[
			'bash', '-c', 'source test/lib/lib.sh; hold_to_inventory "$@"; echo "failed by $held_missing"',
			'guard', $inventory // "$work/inventory.tsv", $major, $file, "$work/t.tap"
		]);
	my ($by) = $out =~ /^failed by (\d+)$/m;
	return ($by // "status $status: $err", $out);
}

my ($by, $out) = guard(18, 't/a.pl', "ok 1 - x\nnot ok 2 - y\nok 3 - z\n1..3\n");
is($by, 0, 'a file that counts every inventoried check (failed ones too) adds no failure');

($by, $out) = guard(18, 't/a.pl', "ok 1 - x\n");
is($by, 2, 'a file that stops after 1 of its 3 checks fails by the 2 missing');
like($out, qr/^not ok - t\/a\.pl: 2 of the checks the inventory \(.*\) holds for it on 18 did not run$/m,
	'and says so in a "not ok" line naming the file, the count and the major');

($by, $out) = guard(18, 't/c.pl', "ok 1 # skip Citus is not installed for PostgreSQL 17 (no package registry serves it)\n");
is($by, 0, 'a skip for a reason the inventory allows for that file counts toward its floor (digits folded)');

($by, $out) = guard(15, 't/c.pl', "ok 1 # skip Citus is not installed for PostgreSQL 15 (no package registry serves it)\nok 2 - two\n");
is($by, 0, 'an allowed reason counts on another major too');

($by, $out) = guard(18, 't/a.pl', "ok 1 - x\nok 2 # skip the server crashed\nok 3 - z\n");
is($by, 1, 'a skip for a reason the inventory does not allow for that file does not count: fails by 1');
like($out, qr/^# a skip the inventory does not allow for t\/a\.pl: the server crashed$/m, 'and names the reason');

($by, $out) = guard(15, 't/a.pl', "ok 1 - x\n");
is($by, 1, 'a file the inventory holds nothing for on that major fails by 1');
like($out, qr/holds nothing for t\/a\.pl on 15/, 'and says how to add it');

($by, $out) = guard(18, 't/a.pl', "ok 1\nok 2\nok 3\n", "$work/no-such-inventory.tsv");
is($by, 1, 'a missing inventory fails by 1, not 0');
like($out, qr/^not ok - t\/a\.pl: the check inventory's guard failed/m, 'as the guard failing');

write_file("$work/malformed.tsv", "18\tt/a.pl\tthree\n");
($by, $out) = guard(18, 't/a.pl', "ok 1\nok 2\nok 3\n", "$work/malformed.tsv");
is($by, 1, 'a malformed inventory line fails by 1');
like($out, qr/malformed\.tsv:1: not 'major<TAB>file<TAB>count'/, 'naming the line');

write_file("$work/twice.tsv", "18\tt/a.pl\t3\n18\tt/a.pl\t2\n");
($by, $out) = guard(18, 't/a.pl', "ok 1\nok 2\nok 3\n", "$work/twice.tsv");
is($by, 1, 'two counts for one file on one major fail by 1');
like($out, qr/twice\.tsv:2: a second count for t\/a\.pl on 18/, 'naming the second');

# A reason written with a digit would never match a run's skip, whose reason
# is folded: refused, with the folded text to write instead.
write_file("$work/unfolded.tsv", "18\tt/a.pl\t3\n18\tt/a.pl\t# skip w2's clock is 1 s ahead\n");
($by, $out) = guard(18, 't/a.pl', "ok 1\nok 2 # skip w2's clock is 1 s ahead\nok 3\n", "$work/unfolded.tsv");
is($by, 1, 'a skip reason the inventory holds unfolded fails by 1');
like($out, qr/unfolded\.tsv:2: a skip reason with a digit, .* write "w#'s clock is # s ahead"/, 'naming the line and the folded text');

# inventory.py itself failing (here: Python cannot start it) fails the guard.
{
	local $ENV{PATH} = "$work/nopython:$ENV{PATH}";
	mkdir "$work/nopython";
	write_file("$work/nopython/python3", "#!/bin/sh\nexit 1\n");
	chmod 0755, "$work/nopython/python3";
	($by, $out) = guard(18, 't/a.pl', "ok 1\nok 2\nok 3\n");
	is($by, 1, 'inventory.py failing without a word fails by 1: the guard does not turn itself off');
}

# take writes a run's counts and skip reasons, which hold then accepts.
write_file("$work/run.log", "######## PostgreSQL 18\n# test/tap/d.pl\nok 1 - one\nnot ok 2 - two\n"
	  . "ok 3 # skip pg_partman is packaged for PostgreSQL 15 only (16 checks)\n# test/tap/d.pl took 1 s\n");
my $status;
($status, $out) = run_status([ 'python3', 'test/inventory.py', 'take', "$work/run.log" ]);
is( join('|', grep { !/^#/ } split /\n/, $out),
	"18\ttest/tap/d.pl\t3|18\ttest/tap/d.pl\t# skip pg_partman is packaged for PostgreSQL # only (# checks)",
	'take writes a file\'s count and the reason of each skip, its digits folded');
write_file("$work/taken.tsv", $out);
($by) = guard(18, 'test/tap/d.pl', "ok 1 - one\nok 2 - two\nok 3 # skip pg_partman is packaged for PostgreSQL 15 only (16 checks)\n",
	"$work/taken.tsv");
is($by, 0, 'and hold accepts the run it was taken from');

# The suite's own inventory covers every test file of every major it lists.
my %held;
for my $line (split /\n/, PostgreSQL::Test::Utils::slurp_file('test/data/check-inventory.tsv'))
{
	next if $line =~ /^#/;
	my ($major, $file) = split /\t/, $line;
	$held{$major}{$file} = 1;
}
my @uncovered;
for my $major (sort keys %held)
{
	# 17 runs the version set, 19 (in its root) the server set, its only one.
	my @set = $major eq '17' ? ('--set', 'version') : $major eq '19' ? () : ('--set', 'full');
	my ($status, $files) =
	  run_status([ 'bash', 'test/run-tests.sh', '--pg', $major, @set, '--list-files' ]);
	push @uncovered, map { "$major $_" }
	  grep { m{^test/(tap|integration|tooling)/.*\.pl$} && !$held{$major}{$_} } split /\n/, $files;
}
is(join(', ', @uncovered), '', 'test/data/check-inventory.tsv holds every test file of each major it covers');

done_testing();
