# The TypeID specification's test files (valid.yml and invalid.yml from
# ../shared/data/typeid-spec beside the checkout) through SQL:
# test/lib/typeid_spec.py, whose verdicts are the checks.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $spec = shared_data('typeid-spec');
if ($spec)
{
	my $node = IdgenTest::Node->create('main');
	my $db = $node->fresh_database('idgen_typeid_spec');
	local %ENV = (%ENV, $node->client_env($db), IDGEN_TYPEID_SPEC => $spec);
	verdicts('typeid_spec.py', '/usr/bin/python3', repo_dir() . '/test/lib/typeid_spec.py');
}
done_testing();
