# Django 3.2 with psycopg2 (Debian's python3-django, python3-psycopg2): the shop
# app's migrations create idgen and its domains as the database's owner, a
# plain role, and its models key rows by every idgen family (django/run.py,
# whose verdicts are the checks).
use strict;
use warnings;
use IdgenTest;
use Test::More;

IdgenTest::skip_file('python3-django is not installed (Debian package python3-django)')
  unless -d '/usr/lib/python3/dist-packages/django';

my $node = IdgenTest::Node->create('main');
my $db = eval { $node->app_database('app_django') };
ok($db, 'create the database app_django, owned by the role app_django') or diag($@);
if ($db)
{
	local %ENV = (%ENV, $node->client_env($db, $db), PYTHONDONTWRITEBYTECODE => 1);
	verdicts('django/run.py', '/usr/bin/python3',
		repo_dir() . '/test/integration/clients/django/run.py');
}
done_testing();
