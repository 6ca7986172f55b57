# node-postgres (npm pg, pinned in node/package-lock.json, installed there by
# test/setup.sh with npm ci) against a server of its own (node/pg_test.js,
# whose verdicts are the checks).
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $dir = repo_dir() . '/test/integration/clients/node';
my $installed = -d "$dir/node_modules/pg";
ok($installed, 'node-postgres is installed in test/integration/clients/node')
  or diag('run bash test/setup.sh');
if ($installed)
{
	my $node = IdgenTest::Node->create('main');
	my $db = eval { $node->fresh_database('idgen_clients_node') };
	ok($db, 'create the database') or diag($@);
	if ($db)
	{
		local %ENV = (%ENV, $node->client_env($db));
		verdicts('pg_test.js', 'node', "$dir/pg_test.js");
	}
}
done_testing();
