# The Java package, clients/java (org.idgen:idgen), as an application gets it:
# `mvn install` into a local Maven repository, then its test project
# clients/java/it (Spring Boot 4, Spring Data JPA, Hibernate 7, Flyway, plain
# pgjdbc) built against that artefact, its JUnit tests run by Surefire against
# a server of its own as the database's owner, who is not a superuser. Every
# Surefire test case is a check (test/lib/junit_verdicts.py). Offline: the
# downloads are test/setup.sh's, in the Maven cache IDGEN_MAVEN_REPO
# (/var/cache/idgen/maven), which this test reads through links in a
# repository of its own (it runs as the cluster's owner, not as root).
use strict;
use warnings;
use IdgenTest;
use PostgreSQL::Test::Utils ();
use Test::More;

my $cache = $ENV{IDGEN_MAVEN_REPO} // '/var/cache/idgen/maven';
my ($mvn) = grep { -x "$_/mvn" } split /:/, $ENV{PATH};
IdgenTest::skip_file('Maven is not installed (Debian package maven)') unless $mvn;
IdgenTest::skip_file("the Maven cache $cache was not filled (test/setup.sh, as root, fills it)")
  unless -d "$cache/org/springframework/boot/spring-boot-starter-parent";

my $tmp = PostgreSQL::Test::Utils::tempdir('java');
my $src = repo_dir() . '/clients/java';
# The cache's files as links in a repository of this test's; the package's
# own version is left out, since this test installs it.
my ($status, $out, $err) = run_status([ 'sh', '-c',
	'cp -rs "$1/." "$2/repo/" && rm -rf "$2/repo/org/idgen" && mkdir "$2/java" && '
	  . 'cd "$3" && tar --exclude=target -cf - . | tar -C "$2/java" -xf -',
	'sh', $cache, $tmp, $src ]);
is($status, 0, 'a local repository linked to the Maven cache, and a copy of clients/java') or diag("$out\n$err");

my @mvn = ('mvn', '-B', '-o', "-Dmaven.repo.local=$tmp/repo");
my %env = (MAVEN_OPTS => '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC', HOME => $tmp);
($status, $out, $err) = run_status([ @mvn, '-q', 'install' ], env => \%env,
	init => sub { chdir "$tmp/java" or die "chdir: $!" });
is($status, 0, 'mvn install of clients/java: compiled with -Werror, its javadoc and sources jars')
  or diag("$out\n$err");
ok(-f "$tmp/repo/org/idgen/idgen/" . IdgenTest::idgen_version() . '/idgen-' . IdgenTest::idgen_version() . '.jar',
	'the package is installed in the local repository under the extension\'s version');

my $node = IdgenTest::Node->create('main', tcp => 1);
my $db = eval { $node->app_database('idgen_java') };
ok($db, 'create the database, owned by a plain login role') or diag($@);
# a database with idgen 0.7.0, which has no idgen_types(), for Idgen.register's error
my $old = eval {
	$node->app_database('idgen_java_old');
	$node->q("CREATE EXTENSION idgen VERSION '0.7.0'", db => 'idgen_java_old');
	'idgen_java_old';
};
ok($old, 'create a database with idgen 0.7.0') or diag($@);
SKIP:
{
	skip 'the package was not installed or the database not created', 1 unless $db && $status == 0;
	($status, $out, $err) = run_status([ @mvn, 'test' ],
		env => { %env,
			IDGEN_JDBC_URL => sprintf('jdbc:postgresql://127.0.0.1:%d/%s', $node->port, $db),
			IDGEN_JDBC_USER => $db,
			$old ? (IDGEN_JDBC_OLD_URL => sprintf('jdbc:postgresql://127.0.0.1:%d/%s', $node->port, $old)) : (),
			# the tests run from a copy: CodecTest reads the extension's vectors file from here
			IDGEN_VECTORS => repo_dir() . '/test/data/id_vectors.json' },
		init => sub { chdir "$tmp/java/it" or die "chdir: $!" });
	note($_) for grep { /Tests run:|ERROR\]/ } split /\n/, $out;
	ok(-d "$tmp/java/it/target/surefire-reports", 'mvn test of clients/java/it wrote Surefire reports')
	  or diag("$out\n$err");
}
verdicts('clients/java/it', 'python3', repo_dir() . '/test/lib/junit_verdicts.py',
	'--prefix', 'java: ', "$tmp/java/it/target/surefire-reports");
done_testing();
