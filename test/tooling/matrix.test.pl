# The test matrix's own logic: test/matrix.py's table and closing line over
# simulated runs (a required major unavailable, in and out of CI; majors that
# are tried but not required; a failed server build; a major that stopped),
# then test/run-tests.sh itself on a major whose every source is blocked.
# Starts no server.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils ();

chdir repo_dir() or die "cd: $!";
my $work = PostgreSQL::Test::Utils::tempdir('matrix');

# rec NAME LINES...: writes a record of one major.
sub rec
{
	my ($name, @lines) = @_;
	write_file("$work/$name.env", join('', map { "$_\n" } @lines));
	return;
}

# last_line TEXT: its last line.
sub last_line { return (split /\n/, $_[0])[-1] // ''; }

rec('15', 'major=15', 'required=yes', 'set=full', 'files=40', 'status=tested',
	'version=15.20-0+deb12u1', 'source=debian-12', 'phase=server 0', 'phase=pg_regress 61',
	'passed=1100', 'failed=0', 'skipped=1',
	'skip=test/integration/partitioning.pl: pg_partman is packaged for PostgreSQL 15 only');
rec('16', 'major=16', 'required=no', 'set=full', 'files=40', 'status=unavailable',
	'tried=vendored (/v): no postgresql-16_*.dsc there', 'phase=server 3',
	'passed=0', 'failed=0', 'skipped=0');
rec('17', 'major=17', 'required=yes', 'set=version', 'files=32', 'status=unavailable',
	'tried=vendored (/v): no postgresql-17_*.dsc there',
	'tried=archive: apt-get source postgresql-17/trixie: E: 404 Not Found', 'phase=server 7',
	'passed=0', 'failed=0', 'skipped=0');
rec('18', 'major=18', 'required=yes', 'set=full', 'files=40', 'status=tested',
	'version=18.6-3', 'source=vendored', 'orig_sha256=555610c2', 'phase=server 300',
	'phase=test/t 420', 'passed=1200', 'failed=2', 'skipped=0');
rec('19', 'major=19', 'required=no', 'set=full', 'files=40', 'status=tested',
	'version=19~rc1-1', 'source=archive', 'passed=500', 'failed=7', 'skipped=0');
rec('18skips', 'major=18', 'required=yes', 'set=full', 'files=40', 'status=tested',
	'version=18.6-3', 'source=vendored', 'passed=10', 'failed=0', 'skipped=3',
	('skip=test/integration/partitioning.pl: pg_partman is packaged for PostgreSQL 15 only') x 2,
	'skip=test/integration/routing.pl: PL/Proxy is packaged for PostgreSQL 15 only');

# matrix ARGS...: test/matrix.py's exit status and output (stdout, then
# stderr after it).
sub matrix
{
	my ($status, $out, $err) = run_status([ '/usr/bin/python3', 'test/matrix.py', @_ ]);
	return ($status, join("\n", grep { length } $out, $err));
}

my ($status, $out) = matrix('--ci', 'no', map { "$work/$_.env" } qw(15 16 17));
is($status, 0, 'outside CI, a required major that is unavailable is a skip: exit status 0');
is(last_line($out), '1100 passed, 0 failed, 33 skipped',
	'its test files are the skipped count, with the self-skipped file of 15');
like($out, qr/^  17 +- +- +- +- +- +32 +0m07s +UNAVAILABLE: 32 test files not run$/m,
	'its row says UNAVAILABLE and how many files did not run');
like($out, qr/^\Q  17 tried: archive: apt-get source postgresql-17\/trixie: E: 404 Not Found\E$/m,
	'what each source answered is listed');
like(
	$out,
	qr/^\Q  15 skipped: test\/integration\/partitioning.pl: pg_partman is packaged for PostgreSQL 15 only\E$/m,
	'a file that skipped itself is listed with its reason');
($status, $out) = matrix('--ci', 'no', "$work/18skips.env");
like(
	$out,
	qr/^\Q  18 skipped: test\/integration\/partitioning.pl: pg_partman is packaged for PostgreSQL 15 only (2 checks)\E\n\Q  18 skipped: test\/integration\/routing.pl: PL\/Proxy is packaged for PostgreSQL 15 only\E$/m,
	'a reason that skipped several checks is listed once, with their number');
($status, $out) = matrix('--ci', 'no', map { "$work/$_.env" } qw(15 16 17));
like($out, qr/^  16 .*tried, not required: no source could be had$/m,
	'16 is tried, not required, and adds nothing');
like($out, qr/^\Q  15 phases: server 0 s, pg_regress 61 s\E$/m, "each phase's wall time is printed");

($status, $out) = matrix('--ci', 'yes', map { "$work/$_.env" } qw(15 16 17));
is($status, 1, 'under CI, a required major that is unavailable fails the run: exit status 1');
is(last_line($out), '1100 passed, 1 failed, 33 skipped',
	'and counts as one failure besides its skipped files');
like($out, qr/^  17 .*required and unavailable: fails under CI/m, 'its row says it fails under CI');

($status, $out) = matrix('--ci', 'yes', map { "$work/$_.env" } qw(15 16));
is($status, 0, '16 unavailable under CI fails nothing: exit status 0');

($status, $out) = matrix('--ci', 'no', map { "$work/$_.env" } qw(15 18 19));
is($status, 1, "a tested major's failures fail the run");
is(last_line($out), '2300 passed, 2 failed, 1 skipped', 'the closing line sums the required majors only');
like(
	$out,
	qr/^  19 +19~rc1-1 +archive +full +500 +7 .*not required: its counts are not in the closing line$/m,
	'a tested major that is not required is shown apart');
like($out, qr/^  18 source: .*SHA-256 555610c2/m,
	"where each tested server's source came from, with its checksum");

# An optional major (19): counted when tested, its files skipped when its
# root cannot be made, under CI too.
rec('19o', 'major=19', 'required=optional', 'set=server', 'files=47', 'status=tested',
	'version=19~rc1-1', 'source=experimental', 'deb=postgresql-19_19~rc1-1_amd64.deb 278a4385',
	'passed=500', 'failed=1', 'skipped=2');
rec('19u', 'major=19', 'required=optional', 'set=server', 'files=47', 'status=unavailable',
	'tried=root: debootstrap of unstable failed: E: Failed getting release file', 'phase=server 2');
($status, $out) = matrix('--ci', 'yes', map { "$work/$_.env" } qw(15 19o));
is(last_line($out), '1600 passed, 1 failed, 3 skipped',
	"a tested optional major's counts are in the closing line");
like($out, qr/^\Q  19 source: \E.*\Qpostgresql-19_19~rc1-1_amd64.deb SHA-256 278a4385\E/m,
	"a root's packages are listed with their SHA-256");
($status, $out) = matrix('--ci', 'yes', map { "$work/$_.env" } qw(15 19u));
is($status, 0, 'under CI, an optional major whose root cannot be made fails nothing: exit status 0');
is(last_line($out), '1100 passed, 0 failed, 48 skipped', 'its test files count as skipped');
like($out, qr/^\Q  19 tried: root: debootstrap of unstable failed\E/m, 'and what was tried is listed');

rec('17f', 'major=17', 'required=yes', 'set=version', 'files=32', 'status=build_failed',
	'why=pg-build: PostgreSQL 17: make failed');
rec('18a', 'major=18', 'required=yes', 'set=full', 'files=40', 'status=tested', 'version=18.6-3');
rec('19a', 'major=19');
($status, $out) = matrix('--ci', 'no', map { "$work/$_.env" } qw(17f 18a 19a));
is(last_line($out), '0 passed, 3 failed, 32 skipped',
	'a failed server build, a suite that stopped and a lost record each fail once');
like($out, qr/^\Q  17 build: pg-build: PostgreSQL 17: make failed\E$/m, "the build's failure is shown");

# Counting one TAP log: skips are neither passed nor failed, and each one's
# reason is recorded under the file's name.
write_file("$work/t.tap", <<'EOF');
ok 1 - a check
not ok 2 - a failed check
ok 3 # skip pg_partman is packaged for PostgreSQL 15 only
ok 4 - a check # SKIP: Citus needs 16 or later
ok 5 - a check whose text says # skipping is no directive
# ok 6 - a comment
EOF
write_file("$work/counted.env", '');
(undef, $out) = matrix('--count-tap', "$work/t.tap", '--label', 'test/tap/x.pl',
	'--record', "$work/counted.env");
is($out, '2 1 2', 'a TAP log counts ok, not ok and skip lines apart');
is( PostgreSQL::Test::Utils::slurp_file("$work/counted.env"),
	"skip=test/tap/x.pl: pg_partman is packaged for PostgreSQL 15 only\n"
	  . "skip=test/tap/x.pl: Citus needs 16 or later\n",
	"each skip's reason is recorded under the file's name");

# The real entry point on a major with no source: nothing vendored, an
# archive that refuses connections, an empty cache.
mkdir $_ or die "$_: $!" for map { "$work/$_" } qw(apt apt/sources.list.d no-sources cache);
write_file("$work/apt/sources.list", "deb http://127.0.0.1:1/debian bookworm main\n");
my %blocked = (
	IDGEN_RESULT_FILE => undef,
	IDGEN_SKIP_CORE_ONLY => undef,
	IDGEN_PG_SOURCES => "$work/no-sources",
	IDGEN_APT_ETC => "$work/apt",
	IDGEN_PG_CACHE => "$work/cache");

# The test files of the full set, tier by tier, whichever language each is
# written in (docs/development.md, "The test tiers"); build_checks runs in a
# section of its own.
my ($regress) = PostgreSQL::Test::Utils::slurp_file('Makefile') =~ /^REGRESS = (.*)$/m;
my @tier_files = grep { !m{/build_checks\.(sh|pl)$} }
  glob('test/{tap,integration,tooling}/*.{sh,pl}');
my @client_files = glob('test/integration/clients/*.{sh,pl}');
my @regress = split ' ', $regress // '';
my $want_files = @regress + @tier_files + @client_files + 2;
# On the newest supported major: the files that run once a suite
# (newest_major_only_tests, the benchmark) run there.
(undef, $out) = run_status([ 'bash', 'test/run-tests.sh', '--pg', '18', '--set', 'full', '--list-files' ]);
my @listed = split /\n/, $out;
is(scalar @listed, $want_files,
	'the full set lists every pg_regress file, test/tap, test/integration, test/tooling and '
	  . 'client test, the unit tests and the benchmark')
  or diag("--list-files:\n$out");
(undef, $out) = run_status([ 'bash', 'test/run-tests.sh', '--pg', '17', '--set', 'full', '--list-files' ]);
my @listed_17 = split /\n/, $out;
my $files = @listed_17;
my ($once_list) = PostgreSQL::Test::Utils::slurp_file('test/run-tests.sh') =~ /^newest_major_only_tests=\(\s*(.*?)\)/ms;
my %once = map { $_ => 1 } split ' ', $once_list // '';
my @once = grep { m{([^/]+?)(?:\.test)?\.pl$} && $once{$1} } @listed;
is($files, $want_files - @once - 1,
	'on an older major the full set leaves out the files that run once a suite, on the newest '
	  . '(newest_major_only_tests and the benchmark)')
  or diag("--list-files on 17:\n$out");

my $err;
($status, $out, $err) = run_status([ 'bash', 'test/run-tests.sh', '--pg', '17', '--set', 'full' ],
	env => { %blocked, CI => 'true' });
is($status, 1, 'CI=true, a required major with no source: run-tests.sh exits non-zero');
is(last_line($out), "0 passed, 1 failed, $files skipped",
	'its closing line counts one failure and every test file as skipped');
my $all = "$out\n$err";
ok($all =~ /17 tried: vendored/ && $all =~ /17 tried: archive/ && $all =~ /17 tried: pinned/,
	'it names each source tried')
  or diag($all);
($status, $out, $err) = run_status([ 'bash', 'test/run-tests.sh', '--pg', '17', '--set', 'full' ],
	env => { %blocked, CI => 'false' });
is($status, 0, 'outside CI the same run exits 0');
is(last_line($out), "0 passed, 0 failed, $files skipped", 'and ends in N skipped');

# The optional 19 whose root cannot be made (the same blocked archive): a
# counted skip of its set's files, under CI too.
my @server_files = split /\n/, (run_status([ 'bash', 'test/run-tests.sh', '--pg', '19', '--list-files' ]))[1];
($status, $out, $err) = run_status([ 'bash', 'test/run-tests.sh', '--pg', '19' ],
	env => { %blocked, CI => 'true' });
is($status, 0, 'CI=true, the optional 19 whose root cannot be made: run-tests.sh exits 0');
is(last_line($out), '0 passed, 0 failed, ' . scalar(@server_files) . ' skipped',
	'its closing line counts every file of its set as skipped')
  or diag("$out\n$err");

done_testing();
