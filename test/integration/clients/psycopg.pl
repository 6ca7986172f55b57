# psycopg 3 (Debian's python3-psycopg) against a server of its own: every
# idgen type in text and binary, arrays and binary COPY (psycopg_test.py, whose
# verdicts are the checks).
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main');
my $db = eval { $node->fresh_database('idgen_clients_psycopg') };
ok($db, 'create the database') or diag($@);
if ($db)
{
	local %ENV = (%ENV, $node->client_env($db));
	verdicts('psycopg_test.py', '/usr/bin/python3',
		repo_dir() . '/test/integration/clients/psycopg_test.py');
}
done_testing();
