# The TypeID specification's test files (test/data/typeid, from
# jetify-com/typeid) through SQL: test/lib/typeid_spec.py, whose verdicts are
# the checks.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main');
my $db = $node->fresh_database('idgen_typeid_spec');
{
	local %ENV = (%ENV, $node->client_env($db));
	verdicts('typeid_spec.py', '/usr/bin/python3', repo_dir() . '/test/lib/typeid_spec.py');
}
done_testing();
