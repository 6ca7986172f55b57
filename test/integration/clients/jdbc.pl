# pgjdbc (Debian's libpostgresql-jdbc-java) over TCP against a server of its
# own, as a database owner that is not a superuser: every idgen family
# (jdbc/IdgenJdbcTest.java, compiled here once, whose verdicts are the checks).
use strict;
use warnings;
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils ();

my $jar = '/usr/share/java/postgresql.jar';
skip_file('pgjdbc is not installed (Debian package libpostgresql-jdbc-java)') unless -r $jar;
my ($javac) = grep { -x "$_/javac" } split /:/, $ENV{PATH};
skip_file('no Java compiler (Debian package openjdk-17-jdk-headless)') unless $javac;

my $source = repo_dir() . '/test/integration/clients/jdbc/IdgenJdbcTest.java';
my $classes = PostgreSQL::Test::Utils::tempdir('jdbc');
my ($status, $out, $err) =
  run_status([ 'javac', '-encoding', 'UTF-8', '-cp', $jar, '-d', $classes, $source ]);
is($status, 0, 'javac compiles IdgenJdbcTest.java') or diag("$out\n$err");

my $node = IdgenTest::Node->create('main', tcp => 1);
my $db = eval { $node->app_database('idgen_jdbc') };
ok($db, 'create the database, owned by a plain login role') or diag($@);
if ($db && $status == 0)
{
	verdicts('IdgenJdbcTest', 'java', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC',
		'-cp', "$classes:$jar", 'IdgenJdbcTest',
		sprintf('jdbc:postgresql://127.0.0.1:%d/%s', $node->port, $db), $db);
}
done_testing();
