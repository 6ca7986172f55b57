# The PGXN distribution (issue 26): META.json against PGXN Meta Spec 1.0.0
# (test/lib/pgxn_meta.py, which must also refuse broken copies); then, on
# Debian's PostgreSQL 15, root's part (test/run-tests.sh runs
# test/lib/prepare/pgxn_dist.sh first, IdgenTest::prepared_verdicts reports
# it): `make dist` writes idgen-<version>.zip from git archive, which unpacked
# elsewhere builds (-Werror) and is installed with make install in place of the
# suite's own idgen files (saved). Here, as the cluster owner: the zip's
# contents, its META.json, the installed library, and make installcheck in
# the unpacked zip on a server with idgen preloaded. Two files follow in name
# order: pgxn_dist_reinstall.pl (Debian's pgxnclient installs and checks the
# zip the way a PGXN user would) and pgxn_dist_restore.pl (the suite's files
# put back); run-tests.sh --only 'pgxn_dist.*' runs all three.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use File::Compare qw(compare);
use IPC::Run ();
use PostgreSQL::Test::Utils ();

my $repo = repo_dir();
# pgxn_meta.py names the file as given: "META.json".
chdir $repo or die "$repo: $!";
my $debian_pg_config = '/usr/lib/postgresql/15/bin/pg_config';
my $pg_config = $ENV{PG_CONFIG} // $debian_pg_config;
my $version = idgen_version();
# Where test/lib/prepare/pgxn_dist.sh leaves the zip and its build (root's, readable).
my $state = '/var/tmp/idgen-pgxn-dist';
my $zip = "$state/idgen-$version.zip";
my $dist = "$state/elsewhere/idgen-$version";

verdicts('pgxn_meta.py', 'python3', 'test/lib/pgxn_meta.py', 'META.json', '--root', '.',
	'--name', 'idgen', '--version', $version, '--self-test');

skip_file(
	"the unpacked zip is built and tested on Debian's PostgreSQL 15; this run uses $pg_config")
  if $pg_config ne $debian_pg_config;
skip_unless_prepared("needs root (make install into Debian's PostgreSQL 15)");

my ($passed) = prepared_verdicts(
	'test/lib/prepare/pgxn_dist.sh (as root: make dist, then the build and make install of the zip)');
if (!-s $zip)
{
	done_testing();
	exit 0;
}

# --- the zip --------------------------------------------------------------------
my @entries = split /\n/, (run_status([ 'unzip', '-Z1', $zip ]))[1];
is(scalar(grep { !m{^idgen-\Q$version\E/} } @entries),
	0, "every file in the zip is under idgen-$version/");
# git archive writes the commit it packed as the zip's comment; git runs as the
# cluster owner in root's checkout, which git refuses unless told it is safe.
my ($commit) = (run_status([ 'unzip', '-z', $zip ]))[1] =~ /^([0-9a-f]{40})$/m;
my $tree = (
	run_status(
		[ 'git', '-C', $repo, 'ls-tree', '-r', '-z', '--name-only', $commit // 'HEAD' ],
		env => {
			GIT_CONFIG_COUNT => 1,
			GIT_CONFIG_KEY_0 => 'safe.directory',
			GIT_CONFIG_VALUE_0 => $repo
		}))[1];
is( join("\n", sort map { s{^idgen-\Q$version\E/}{}r } grep { !m{/$} } @entries),
	join("\n", sort split /\0/, $tree),
	'the zip holds exactly the files of HEAD');
for my $f ('META.json', 'Makefile', 'idgen.control', 'README.md', 'LICENSE',
	"sql/idgen--$version.sql")
{
	ok(scalar(grep { $_ eq "idgen-$version/$f" } @entries), "the zip contains $f");
}
is(join("\n", grep { /\.(o|so|bc|d)$/ } @entries), '', 'the zip holds no build products');
verdicts('pgxn_meta.py (the zip)', 'python3', 'test/lib/pgxn_meta.py', "$dist/META.json",
	'--root', $dist, '--name', 'idgen', '--version', $version,
	'--label', "the zip's META.json");
if (!$passed->{'the unpacked zip builds with make (PostgreSQL 15, -Werror)'})
{
	done_testing();
	exit 0;
}

# --- installed with make install (by the preparation) -------------------------------
chomp(my $pkglibdir = `$pg_config --pkglibdir`);
ok(compare("$dist/idgen.so", "$pkglibdir/idgen.so") == 0,
	'the installed idgen.so is the one built from the zip');
# After a failed make install the preparation put the suite's files back.
if (!$passed->{'make install from the unpacked zip'})
{
	done_testing();
	exit 0;
}
# make installcheck in a fresh copy of the zip (the preparation's is root's).
my $node = IdgenTest::Node->create('zip', start => 0);
if (ok($node->start(fail_ok => 1), "a cluster starts with shared_preload_libraries = 'idgen'"))
{
	my $dir = PostgreSQL::Test::Utils::tempdir('unzipped');
	IPC::Run::run([ 'unzip', '-q', $zip, '-d', $dir ]) or diag("the zip does not unpack in $dir");
	$node->installcheck_ok("$dir/idgen-$version",
		'make installcheck in the unpacked zip: every regression test passes');
}

done_testing();
