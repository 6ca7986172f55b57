# Prisma 7 (npm prisma, @prisma/client, @prisma/adapter-pg, node-pg-migrate, pinned in
# orm/package-lock.json, installed there by test/setup.sh with npm ci) in a
# database owned by a plain role: its migrations create idgen, then every
# family goes through the ORM (orm/prisma_test.ts, whose verdicts are the
# checks).
use strict;
use warnings;
use IdgenTest;
use PostgreSQL::Test::Utils ();
use Test::More;

my $dir = repo_dir() . '/test/integration/clients/orm';
my $installed = -d "$dir/node_modules/\@prisma/client" && -x "$dir/node_modules/.bin/prisma"
  && -x "$dir/node_modules/.bin/node-pg-migrate" && -x "$dir/node_modules/.bin/tsx" && -x "$dir/node_modules/.idgen-bin/node";
ok($installed, 'prisma, @prisma/client, node-pg-migrate and tsx are installed in test/integration/clients/orm')
  or diag('run bash test/setup.sh');
if ($installed)
{
	my $node = IdgenTest::Node->create('main');
	my $db = eval { $node->app_database('idgen_prisma') };
	ok($db, 'create the database, owned by a plain role') or diag($@);
	if ($db)
	{
		my $tmp = PostgreSQL::Test::Utils::tempdir('prisma');
		# tsx keeps its compile cache under TMPDIR (tsx-UID)
		# the node test/setup.sh chose (Prisma 7 needs 20.19 or later), for tsx
		# and every tool it starts
		local %ENV = (%ENV, $node->client_env($db, $db), TMPDIR => $tmp,
			PATH => "$dir/node_modules/.idgen-bin:$ENV{PATH}");
		verdicts('prisma_test.ts', "$dir/node_modules/.bin/tsx", "$dir/prisma_test.ts", $tmp);
	}
}
done_testing();
