# The PGXN distribution the way a PGXN user installs it, after pgxn_dist.pl:
# root's part (test/lib/prepare/pgxn_dist_reinstall.sh, run just before this
# file) has Debian's pgxnclient read the zip's META.json, build it and install
# it on Debian's PostgreSQL 15. Here, as the cluster owner, on a server with
# those files preloaded: pgxn check runs the zip's regression tests. The
# suite's own idgen files come back before pgxn_dist_restore.pl, the next file.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils ();

my $debian_pg_config = '/usr/lib/postgresql/15/bin/pg_config';
my $pg_config = $ENV{PG_CONFIG} // $debian_pg_config;
my $version = idgen_version();
# The zip test/lib/prepare/pgxn_dist.sh made (root's, readable).
my $zip = "/var/tmp/idgen-pgxn-dist/idgen-$version.zip";

skip_file(
	"the unpacked zip is built and tested on Debian's PostgreSQL 15; this run uses $pg_config")
  if $pg_config ne $debian_pg_config;
skip_unless_prepared("needs root (pgxn install into Debian's PostgreSQL 15)");

if (!ok((run_status([ 'which', 'pgxn' ]))[0] == 0, 'pgxnclient is installed (bash test/setup.sh)'))
{
	done_testing();
	exit 0;
}
my ($passed) = prepared_verdicts(
	"test/lib/prepare/pgxn_dist_reinstall.sh (as root: the suite's files back during the build, then pgxn install)"
);
if (!$passed->{'pgxn install takes the zip (META.json read by the PGXN client), builds and installs it'})
{
	done_testing();
	exit 0;
}

my $node = IdgenTest::Node->create('pgxn', start => 0);
if (ok($node->start(fail_ok => 1),
		"a cluster starts with shared_preload_libraries = 'idgen' as pgxn installed it"))
{
	# pgxn check unpacks the zip under TMPDIR and copies regression.diffs to
	# its working directory when the tests fail: both in a directory of ours.
	my $dir = PostgreSQL::Test::Utils::tempdir('pgxn');
	my ($status, $out, $err) = run_status(
		[ 'pgxn', 'check', '--make', 'make', '--pg_config', $pg_config, $zip ],
		init => sub { chdir $dir or die $! },
		env => { $node->client_env, TMPDIR => $dir });
	my $output = "$out\n$err";
	ok($status == 0, "pgxn check runs the zip's regression tests and they pass")
	  or diag(join("\n", grep { defined } (split /\n/, $output)[ -40 .. -1 ]));
	note("pgxn check: $1") while $output =~ /^ *(All [0-9]+ tests passed.*)$/mg;
}

done_testing();
