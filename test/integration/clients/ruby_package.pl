# The Ruby gem, clients/ruby (idgen-activerecord), as an application gets it:
# `gem build`, then `gem install --local` into a GEM_HOME of this test's, then
# its minitest tests (clients/ruby/test) on Debian 12's ActiveRecord 6.1 and
# ruby-pg against a server of its own, as the database's owner, who is not a
# superuser; they load the installed gem, not the source tree. Two files, each
# run by itself: test_idgen_active_record.rb (the adapter, migrations and
# schema.rb), then test_decode.rb (Idgen::Decode: the vectors file, the shared
# Timeflake and push ID data, and the server's decoders on 100,000 values per
# family). Each minitest test is a check: minitest's own --verbose lines, read
# by test/lib/runner_verdicts.py. No gem is fetched: Debian's packages provide
# every dependency.
use strict;
use warnings;
use IdgenTest;
use PostgreSQL::Test::Utils ();
use Test::More;

my ($status) = run_status([ 'ruby', '-e',
	'require "active_record"; require "pg"; require "minitest"; exit(ActiveRecord.version.segments[0..1] == [6, 1] ? 0 : 3)' ]);
IdgenTest::skip_file('ActiveRecord 6.1, ruby-pg and minitest are not installed (Debian packages ruby-activerecord ruby-pg)')
  if $status != 0;

my $tmp = PostgreSQL::Test::Utils::tempdir('ruby');
my $src = repo_dir() . '/clients/ruby';
my ($out, $err);
($status, $out, $err) = run_status([ 'sh', '-c', 'cp -r "$1" "$2/ruby"', 'sh', $src, $tmp ]);
is($status, 0, 'a copy of clients/ruby') or diag("$out\n$err");
my $version = IdgenTest::idgen_version();
my %env = (HOME => $tmp, GEM_HOME => "$tmp/gems");
($status, $out, $err) = run_status([ 'gem', 'build', 'idgen-activerecord.gemspec' ],
	env => \%env, init => sub { chdir "$tmp/ruby" or die "chdir: $!" });
is($status, 0, "gem build makes idgen-activerecord-$version.gem") or diag("$out\n$err");
unlike("$out\n$err", qr/WARNING/, 'gem build warns of nothing (metadata complete)') or diag("$out\n$err");
($status, $out, $err) = run_status([ 'gem', 'install', '--local', '--no-document', "idgen-activerecord-$version.gem" ],
	env => \%env, init => sub { chdir "$tmp/ruby" or die "chdir: $!" });
is($status, 0, 'gem install --local of the built gem into a private GEM_HOME, its dependencies from Debian')
  or diag("$out\n$err");

my $node = IdgenTest::Node->create('main');
my $db = eval { $node->app_database('idgen_rb') };
ok($db, 'create the database, owned by a plain role') or diag($@);
my $copy = eval { $node->q("CREATE DATABASE idgen_rb_copy OWNER idgen_rb"); 'idgen_rb_copy' };
ok($copy, 'create an empty database for loading schema.rb back') or diag($@);
{
	# GEM_HOME comes first on the gem path, Debian's gems after it
	local %ENV = (%ENV, %env, $node->client_env($db, $db), IDGEN_COPY_DATABASE => $copy,
		IDGEN_VECTORS => repo_dir() . '/test/data/id_vectors.json',
		IDGEN_SHARED_DATA => repo_dir() . '/../shared/data');
	delete $ENV{GEM_PATH};
	for my $file (qw(test_idgen_active_record test_decode))
	{
		my ($tstatus, $tout, $terr) = run_status(
			[ 'sh', '-c', "exec ruby test/$file.rb --seed 1 --verbose 2>&1" ],
			init => sub { chdir "$tmp/ruby" or die "chdir: $!" });
		my $log = "$tmp/$file.log";
		write_file($log, $tout);
		verdicts($file eq 'test_decode' ? "minitest $file" : 'minitest', '/usr/bin/python3',
			repo_dir() . '/test/lib/runner_verdicts.py', '--prefix', 'ruby: ', 'minitest', $log);
		is($tstatus, 0, "ruby test/$file.rb (minitest) exits with status 0")
		  or diag(join("\n", grep { defined } (split /\n/, $tout)[-30 .. -1]));
	}
}
done_testing();
