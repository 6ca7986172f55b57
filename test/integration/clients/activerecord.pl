# ActiveRecord 6.1 (Debian's ruby-activerecord and ruby-pg) against a server
# of its own: migrations through ActiveRecord's migrator as the database's
# owner, who is not a superuser, every idgen family through models, and the
# schema dumps (activerecord/run.rb, whose verdicts are the checks).
use strict;
use warnings;
use IdgenTest;
use PostgreSQL::Test::Utils ();
use Test::More;

my $dir = repo_dir() . '/test/integration/clients/activerecord';
my ($status) = run_status([ 'ruby', '-e', 'require "active_record"; require "pg"; exit(ActiveRecord.version.segments[0..1] == [6, 1] ? 0 : 3)' ]);
IdgenTest::skip_file('ActiveRecord 6.1 and ruby-pg are not installed (Debian packages ruby-activerecord ruby-pg)')
  if $status != 0;

my $node = IdgenTest::Node->create('main');
my $db = eval { $node->app_database('idgen_ar') };
ok($db, 'create the database, owned by a plain role') or diag($@);
# an empty database of the same owner, for loading structure.sql back
my $copy = eval { $node->q("CREATE DATABASE idgen_ar_copy OWNER idgen_ar"); 'idgen_ar_copy' };
ok($copy, 'create an empty database for structure.sql') or diag($@);
if ($db && $copy)
{
	local %ENV = (%ENV, $node->client_env($db, $db));
	verdicts('activerecord/run.rb', 'ruby', "$dir/run.rb",
		PostgreSQL::Test::Utils::tempdir('activerecord'), $copy);
}
done_testing();
