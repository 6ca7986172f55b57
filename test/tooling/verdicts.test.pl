# The verdict lines' plan (IdgenTest::verdicts and prepared_verdicts, the
# format of test/lib/verdicts.py): throwaway helpers that keep their plan,
# stop early, print no plan or too many verdicts, each checked in a child perl
# whose TAP is captured and counted here, so the failures it must show do not
# count as this file's. Starts no server.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils ();

chdir repo_dir() or die "cd: $!";
my $work = PostgreSQL::Test::Utils::tempdir('verdicts');

# The child: IdgenTest::verdicts LABEL COMMAND... (or, with 'prepared' first,
# prepared_verdicts LABEL on the log IDGEN_PREPARE_LOG names, then what it
# returned as a note).
write_file("$work/inner.pl", <<'EOF');
use strict;
use warnings;
use IdgenTest;
use Test::More;
if ($ARGV[0] eq 'prepared')
{
	my ($passed, @other) = prepared_verdicts($ARGV[1]);
	note("other lines: " . scalar(@other) . "; verdicts: "
		  . join(',', map { "$_=$passed->{$_}" } sort keys %$passed));
}
else { verdicts(@ARGV); }
done_testing();
EOF

# inner [COMMAND], ENV...: the child's exit status, its TAP (stdout, then
# stderr), and its counts of top-level "ok" and "not ok" lines.
sub inner
{
	my ($args, %env) = @_;
	my ($status, $out, $err) = run_status(
		[ $^X, (map { "-I$_" } grep { !ref } @INC), "$work/inner.pl", @$args ],
		env => { TESTDIR => $work, %env });
	my $tap = join("\n", grep { length } $out, $err);
	my $passed = () = $out =~ /^ok \d+/mg;
	my $failed = () = $out =~ /^not ok \d+/mg;
	return ($status, $tap, $passed, $failed);
}

# sh SCRIPT: a helper that is a line of shell.
sub sh { return ('/bin/sh', '-c', $_[0]); }

# counts_are NAME, [[COMMAND], ENV...], PASSED, FAILED, LINE...: the child's
# counts and exit status (its number of failures), and its TAP has each LINE:
# "ok: NAME" or "not ok: NAME" (a check of that name, whatever its number),
# "# TEXT" (a note).
sub counts_are
{
	my ($name, $args, $passed, $failed, @lines) = @_;
	my ($status, $tap, $p, $f) = inner(@$args);
	is("$p passed, $f failed", "$passed passed, $failed failed", "$name: $passed pass, $failed fail")
	  or diag($tap =~ s/^/  /mgr);
	for my $line (@lines)
	{
		my $re = $line =~ /^((?:not )?ok): (.*)$/ ? qr/^\Q$1\E \d+ - \Q$2\E$/m : qr/^\Q$line\E$/m;
		like($tap, $re, "$name: its TAP has \"$line\"");
	}
	is($status, $failed, "$name: the child exits with its failure count");
	return;
}

# A Python helper of test/lib/verdicts.py (plan, say, note) that plans 3
# verdicts and stops before the one its argument numbers (from 0).
write_file("$work/helper.py", "import sys\nsys.path.insert(0, '" . repo_dir() . "/test/lib')\n" . <<'EOF');
from verdicts import note, plan, say
stop = int(sys.argv[1])
note("a note before the plan")
plan(3)
for i in range(3):
    if i == stop:
        sys.exit(0)
    say(True, f"check {i + 1}")
EOF

# It keeps its plan: 3 checks and the exit status pass.
counts_are('plan kept (verdicts.py)', [ [ 'kept', '/usr/bin/python3', "$work/helper.py", 9 ] ],
	4, 0, 'ok: check 3', 'ok: kept exits with status 0', '# a note before the plan');

# Stopping early after 1 of 3, even with exit status 0: one failure for each
# of the 2 missing verdicts, named by their number.
counts_are('stopped early (verdicts.py)', [ [ 'early', '/usr/bin/python3', "$work/helper.py", 1 ] ],
	2, 2, 'not ok: early: verdict 2 of 3 never came', 'not ok: early: verdict 3 of 3 never came');

# A shell helper, 40 planned and 11 printed, and a failed exit: 29 missing,
# plus the exit status.
counts_are('stopped early, failed exit',
	[ [ 'sh40', sh('printf "plan\t40\n"; for i in 1 2 3 4 5 6 7 8 9 10 11; do printf "ok\tcheck $i\n"; done; exit 2') ] ],
	11, 30, 'not ok: sh40: verdict 12 of 40 never came', 'not ok: sh40: verdict 40 of 40 never came',
	'not ok: sh40 exits with status 0');

counts_are('no plan line', [ [ 'noplan', sh('printf "ok\tone\nok\ttwo\n"') ] ],
	3, 1, 'not ok: noplan: no plan line (plan<TAB>N) before its verdicts (2 came)');

counts_are('more verdicts than planned', [ [ 'many', sh('printf "plan\t2\nok\ta\nok\tb\nok\tc\n"') ] ],
	4, 1, 'not ok: many: 3 verdicts came, 2 planned');

counts_are('a plan line after a verdict', [ [ 'late', sh('printf "ok\ta\nplan\t1\n"') ] ],
	2, 2, 'not ok: late: its plan line (plan 1) comes after a verdict',
	'not ok: late: no plan line (plan<TAB>N) before its verdicts (1 came)');

counts_are('a second plan line', [ [ 'twice', sh('printf "plan\t1\nplan\t1\nok\ta\n"') ] ],
	2, 1, 'not ok: twice: a second plan line (plan 1)');

counts_are('a plan line without a count', [ [ 'nocount', sh('printf "plan\tsome\nok\ta\n"') ] ],
	2, 2, 'not ok: nocount: a plan line without a count (plan some)',
	'not ok: nocount: no plan line (plan<TAB>N) before its verdicts (1 came)');

counts_are('plan 0 and no verdict', [ [ 'none', sh('printf "#\tnothing to check\nplan\t0\n"') ] ],
	1, 0, '# nothing to check');

# Any other line still fails, a failed verdict still fails.
counts_are('other lines', [ [ 'other', sh('printf "plan\t2\nok\ta\nstray text\nnot ok\tb\n"') ] ],
	2, 2, 'not ok: other: stray text', 'not ok: b');

# prepared_verdicts: a preparation's log, its plan among log text, which
# stays log text; one verdict short is one failure.
my %prepared = (IDGEN_PREPARE_STATUS => 0, IDGEN_PREPARE_LOG => "$work/prepare.log");
write_file("$work/prepare.log", "building\nplan\t3\nok\tbuilt\n#\ttook 2 s\nnot ok\tinstalled\ninstall failed\n");
counts_are('prepared, one missing', [ [ 'prepared', 'prep.sh' ], %prepared ],
	2, 2, 'not ok: prep.sh: verdict 3 of 3 never came', 'ok: prep.sh exits with status 0',
	'# other lines: 2; verdicts: built=1,installed=0');

write_file("$work/prepare.log", "building\nok\tbuilt\n");
counts_are('prepared, no plan', [ [ 'prepared', 'prep.sh' ], %prepared ],
	2, 1, 'not ok: prep.sh: no plan line (plan<TAB>N) before its verdicts (1 came)');

write_file("$work/prepare.log", "plan\t1\nok\tbuilt\nsaved\tabc\t/x\n");
counts_are('prepared, plan kept', [ [ 'prepared', 'prep.sh' ], %prepared ],
	2, 0, '# other lines: 1; verdicts: built=1');


# junit_verdicts.py: a client package's JUnit report as verdicts. A passed
# case passes; a failed, errored or skipped one fails; a missing, unreadable
# or empty report is one failure.
my $junit = repo_dir() . '/test/lib/junit_verdicts.py';
write_file("$work/report.xml", <<'EOF');
<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pkg" tests="4">
<testcase classname="tests.test_ulid" name="test_round_trip"/>
<testcase classname="tests.test_ulid" name="test_order"><failure message="assert 2 &lt; 1">trace</failure></testcase>
<testcase classname="tests.test_typeid" name="test_spec"><error message="connection refused"/></testcase>
<testcase classname="tests.test_typeid" name="test_later"><skipped message="no server"/></testcase>
</testsuite></testsuites>
EOF
counts_are('junit report', [ [ 'junit', '/usr/bin/python3', $junit, '--prefix', 'py: ', "$work/report.xml" ] ],
	2, 3, 'ok: py: tests.test_ulid test_round_trip', 'not ok: py: tests.test_ulid test_order',
	'not ok: py: tests.test_typeid test_spec', 'not ok: py: tests.test_typeid test_later',
	'# tests.test_ulid test_order: failure: assert 2 < 1',
	'# tests.test_typeid test_later: skipped: no server');

mkdir("$work/reports");
write_file("$work/reports/TEST-a.xml", '<testsuite><testcase classname="A" name="one"/></testsuite>');
write_file("$work/reports/TEST-b.xml", '<testsuite><testcase classname="B" name="two"/></testsuite>');
counts_are('junit report directory', [ [ 'dir', '/usr/bin/python3', $junit, "$work/reports" ] ],
	3, 0, 'ok: A one', 'ok: B two');

counts_are('junit report missing', [ [ 'missing', '/usr/bin/python3', $junit, "$work/absent.xml" ] ],
	1, 1, "not ok: JUnit report $work/absent.xml cannot be read: [Errno 2] No such file or directory: '$work/absent.xml'");

write_file("$work/broken.xml", '<testsuite><testcase');
counts_are('junit report unreadable', [ [ 'broken', '/usr/bin/python3', $junit, "$work/broken.xml" ] ],
	1, 1);

write_file("$work/empty.xml", '<testsuite tests="0"/>');
counts_are('junit report without a case', [ [ 'empty', '/usr/bin/python3', $junit, "$work/empty.xml" ] ],
	1, 1, "not ok: the JUnit reports hold no test case: $work/empty.xml");

mkdir("$work/noreports");
counts_are('junit directory without a report', [ [ 'nodir', '/usr/bin/python3', $junit, "$work/noreports" ] ],
	1, 1, "not ok: no JUnit report in $work/noreports");

# runner_verdicts.py minitest: a minitest --verbose run as verdicts, the order
# number of test_NN_ dropped; a failure, an error and a skip fail, each with
# the summary's message as a note.
write_file("$work/minitest.out", <<'EOF');
Run options: --seed 1 --verbose

# Running:

Gem#test_01_loads = 0.00 s = .
Gem#test_02_dumps = 0.01 s = F
Gem#test_03_loads_back = 0.00 s = E
Gem#test_04_later = 0.00 s = S

  1) Failure:
Gem#test_02_dumps [test/test_gem.rb:5]:
Expected /idgen/ to match "".

  2) Error:
Gem#test_03_loads_back:
RuntimeError: boom

  3) Skipped:
Gem#test_04_later [test/test_gem.rb:9]:
no server

4 runs, 2 assertions, 1 failures, 1 errors, 1 skips
EOF
counts_are('minitest run', [ [ 'minitest', '/usr/bin/python3', repo_dir() . '/test/lib/runner_verdicts.py',
			'--prefix', 'rb: ', 'minitest', "$work/minitest.out" ] ],
	2, 3, 'ok: rb: Gem loads', 'not ok: rb: Gem dumps', 'not ok: rb: Gem loads_back',
	'not ok: rb: Gem later', '# Gem dumps: failed: Expected /idgen/ to match "".',
	'# Gem loads_back: error: RuntimeError: boom', '# Gem later: skipped: no server');

done_testing();
