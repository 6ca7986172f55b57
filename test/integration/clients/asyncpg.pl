# asyncpg 0.27 (Debian's python3-asyncpg) against a server of its own: as the
# database's owner, a plain role, a migration in one asyncpg transaction
# creates idgen and tables keyed by every family; then every family through
# asyncpg's text defaults and through binary codecs (asyncpg_test.py, whose
# verdicts are the checks).
use strict;
use warnings;
use IdgenTest;
use Test::More;

skip_file('Debian package python3-asyncpg is not installed')
  unless -e '/usr/lib/python3/dist-packages/asyncpg';

my $node = IdgenTest::Node->create('main');
my $db = $node->app_database('idgen_asyncpg');
{
	local %ENV = (%ENV, $node->client_env($db, $db), PYTHONDONTWRITEBYTECODE => 1);
	verdicts('asyncpg_test.py', '/usr/bin/python3',
		repo_dir() . '/test/integration/clients/asyncpg_test.py');
}
done_testing();
