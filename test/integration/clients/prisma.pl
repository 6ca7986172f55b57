# Prisma 7 (npm prisma, @prisma/client, @prisma/adapter-pg, node-pg-migrate,
# pinned in orm/package-lock.json, installed there by test/setup.sh with npm
# ci), the one tool here with no idgen package to go through: in a database
# owned by a plain role its migrations create idgen, then every family goes
# through the ORM and raw SQL (orm/prisma.test.ts, run by node --test with
# tsx on the node test/setup.sh chose: Prisma 7 needs 20.19 or later). Each
# test of its JUnit report is a check (test/lib/junit_verdicts.py).
use strict;
use warnings;
use IdgenTest;
use PostgreSQL::Test::Utils ();
use Test::More;

my $dir = repo_dir() . '/test/integration/clients/orm';
my @modules = ('@prisma/client', '@prisma/adapter-pg', '.bin/prisma', '.bin/node-pg-migrate', 'tsx');
my $installed = !grep { !-e "$dir/node_modules/$_" } @modules, '.idgen-bin/node';
ok($installed, join(', ', @modules) . ' are installed in test/integration/clients/orm')
  or diag('run bash test/setup.sh');
if ($installed)
{
	my $node = IdgenTest::Node->create('main');
	my $db = eval { $node->app_database('idgen_prisma') };
	ok($db, 'create the database, owned by a plain role') or diag($@);
	if ($db)
	{
		my $tmp = PostgreSQL::Test::Utils::tempdir('prisma');
		my $junit = "$tmp/junit.xml";
		# tsx keeps its compile cache under TMPDIR (tsx-UID); every tool the
		# test starts finds the chosen node first on PATH
		my ($status, $out, $err) = run_status(
			[ "$dir/node_modules/.idgen-bin/node", '--import', 'tsx', '--test', '--test-reporter=junit',
				"--test-reporter-destination=$junit", '--test-reporter=spec', '--test-reporter-destination=stdout',
				'prisma.test.ts' ],
			env => { $node->client_env($db, $db), TMPDIR => $tmp, HOME => $tmp, IDGEN_PRISMA_TMP => $tmp,
				PATH => "$dir/node_modules/.idgen-bin:$ENV{PATH}" },
			init => sub { chdir $dir or die "chdir: $!" });
		note($out);
		verdicts('junit_verdicts.py (prisma.test.ts)', '/usr/bin/python3', repo_dir() . '/test/lib/junit_verdicts.py',
			'--prefix', 'prisma: ', $junit);
		is($status, 0, 'node --test prisma.test.ts exits with status 0') or diag($err);
	}
}
done_testing();
