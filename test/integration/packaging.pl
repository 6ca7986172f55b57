# The Debian package (debian/, issue 26), while it is installed on Debian's
# PostgreSQL 15. Root's part runs first (test/run-tests.sh: test/lib/prepare/
# packaging.sh): dpkg-buildpackage -us -uc in a temporary copy of the working
# files, with the build-time regression tests of debian/rules, then dpkg -i in
# place of the suite's own idgen files (saved); it reports those steps as
# verdicts (IdgenTest::prepared_verdicts). Here, as the cluster owner: what was
# built, the installed files, the regression tests against them on a server
# with idgen preloaded from the package, and (IDGEN_AUTOPKGTEST=1) the
# autopkgtest under debian/tests. packaging_purge.pl, the next file (its root
# part purges the package and puts the suite's files back), must run after this
# one: run-tests.sh --only 'packaging.*' runs both.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use IPC::Run ();
use PostgreSQL::Test::Utils ();
use Time::HiRes qw(time);

my $debian_pg_config = '/usr/lib/postgresql/15/bin/pg_config';
my $pg_config = $ENV{PG_CONFIG} // $debian_pg_config;
my $package = 'postgresql-15-idgen';
my $version = idgen_version();
# Where test/lib/prepare/packaging.sh leaves the build (readable, root's).
my $build = '/var/tmp/idgen-packaging/build';

skip_file("the .deb installs into Debian's PostgreSQL 15; this run uses $pg_config")
  if $pg_config ne $debian_pg_config;
skip_unless_prepared('needs root (dpkg -i and dpkg --purge)');

for my $tool (qw(dpkg-buildpackage dh pg_buildext))
{
	ok((run_status([ 'which', $tool ]))[0] == 0, "$tool is installed (bash test/setup.sh)");
}
my ($passed) = prepared_verdicts('test/lib/prepare/packaging.sh (as root: dpkg-buildpackage, then dpkg -i)');
if (!$passed->{"dpkg-buildpackage -us -uc builds idgen $version"})
{
	done_testing();
	exit 0;
}

# --- what was built ---------------------------------------------------------------
my $src = "$build/idgen-$version";
my @majors = split ' ',
  (run_status([ 'pg_buildext', 'supported-versions' ], init => sub { chdir $src or die $! }))[1];
my $build_log = PostgreSQL::Test::Utils::slurp_file("$build/build.log");
my $ended = () = $build_log =~ /^### End [0-9]* installcheck ###$/mg;
is($ended, scalar(@majors),
	'the build-time regression tests (dh_pgxs_test, idgen preloaded) passed on every major');
note("build-time installcheck: $1") while $build_log =~ /^ *(All [0-9]+ tests passed.*)$/mg;
ok(scalar(my @dsc = glob("$build/idgen_$version-*.dsc")),
	"the source package idgen_$version-*.dsc is built");
for my $major (@majors)
{
	ok(scalar(my @debs = glob("$build/postgresql-$major-idgen_$version-*_*.deb")),
		"a postgresql-$major-idgen package is built for $major, a major pg_buildext finds");
}
my ($deb) = glob("$build/${package}_$version-*_*.deb");
if (!$deb)
{
	done_testing();
	exit 0;
}
my @contents = map { (split ' ')[5] // '' } split /\n/, (run_status([ 'dpkg-deb', '-c', $deb ]))[1];
for my $f ('lib/idgen.so', 'extension/idgen.control', "extension/idgen--$version.sql")
{
	ok(scalar(grep { m{/15/\Q$f\E$} } @contents), "$package contains $f");
}
like((run_status([ 'dpkg-deb', '-f', $deb, 'Depends' ]))[1],
	qr/\bpostgresql-15\b/, "$package depends on postgresql-15");

# --- installed (by the preparation) -----------------------------------------------
if (!$passed->{"dpkg -i installs $package"})
{
	done_testing();
	exit 0;
}
is((run_status([ 'dpkg-query', '-W', '-f=${Status}', $package ]))[1],
	'install ok installed', "dpkg lists $package as installed");
my ($verify_status, $verify_out, $verify_err) = run_status([ 'dpkg', '--verify', $package ]);
is($verify_out, '', 'dpkg --verify finds the installed files unchanged') or diag($verify_err);
my %owned = map { $_ => 1 } split /\n/, (run_status([ 'dpkg', '-L', $package ]))[1];
is(join("\n", grep { !$owned{$_} } idgen_files($pg_config)),
	'', "every idgen file on the server belongs to $package");

# The regression tests of a fresh copy of the upstream tarball (the build's
# copy is root's) against the installed files, on a server preloading them.
my $node = IdgenTest::Node->create('packaged', start => 0);
if (ok($node->start(fail_ok => 1),
		"a cluster starts with shared_preload_libraries = 'idgen' from the package"))
{
	my $dir = PostgreSQL::Test::Utils::tempdir('installcheck');
	IPC::Run::run([ 'tar', '-C', $dir, '-xzf', "$build/idgen_$version.orig.tar.gz" ])
	  or diag("the upstream tarball does not unpack");
	$node->installcheck_ok("$dir/idgen-$version",
		'make installcheck against the installed package: every regression test passes');
	is( $node->output(
			"CREATE EXTENSION IF NOT EXISTS idgen; SELECT extversion FROM pg_extension WHERE extname = 'idgen'"),
		$version,
		"the packaged extension is at version $version");
	is($node->output('SELECT substr(uuid_v7()::text, 15, 1)'),
		'7', 'the packaged library makes version 7 UUIDs');
	$node->stop('fast');
}

# debian/tests/installcheck, the autopkgtest: pg_buildext finds the installed
# package and runs the regression tests on a temporary cluster of its own. A
# third run of the same tests (about a minute on a busy machine), so only with
# IDGEN_AUTOPKGTEST=1.
SKIP:
{
	skip 'debian/tests/installcheck (the autopkgtest) runs with IDGEN_AUTOPKGTEST=1', 1
	  unless ($ENV{IDGEN_AUTOPKGTEST} // 0) eq '1';
	my $dir = PostgreSQL::Test::Utils::tempdir('autopkgtest');
	IPC::Run::run([ 'tar', '-C', $dir, '-xzf', "$build/idgen_$version.orig.tar.gz" ])
	  or diag("the upstream tarball does not unpack");
	my $started = time;
	# Without the suite's PG* settings: pg_virtualenv picks its own cluster's port.
	my ($status, $out, $err) = run_status(
		['debian/tests/installcheck'],
		init => sub { chdir "$dir/idgen-$version" or die $! },
		env => { map { $_ => undef } qw(PGHOST PGPORT PGUSER PGDATABASE) });
	note(sprintf('debian/tests/installcheck took %.1f s', time - $started));
	ok($status == 0, 'debian/tests/installcheck (the autopkgtest) passes against the installed package')
	  or diag(join("\n", grep { defined } (split /\n/, "$out\n$err")[ -40 .. -1 ]));
	note("autopkgtest: $1") while $out =~ /^ *(All [0-9]+ tests passed.*)$/mg;
}

done_testing();
