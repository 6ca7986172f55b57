# The Go module clients/go (docs/frameworks.md, "Go"): its own tests (`go
# test`), run against the module as it would be fetched. test/lib/gomodzip
# lays the module out as a module proxy serves it (golang.org/x/mod's zip, at
# the extension's version); a module of this test's requires it and runs `go
# test` on it through GOPROXY=file://, its dependencies coming from the module
# cache test/setup.sh filled (as a second file:// proxy: nothing is fetched
# here), checked against the package's go.sum. Each test's result (`go test
# -json`, test/lib/runner_verdicts.py) is a check. The Go is test/setup.sh's
# choice: the machine's own if 1.25 or later, else the toolchain the Go module
# proxy serves (module golang.org/toolchain).
use strict;
use warnings;
use IdgenTest;
use PostgreSQL::Test::Utils ();
use Test::More;

my $cache = '/var/cache/idgen/go';
my $go = "$cache/bin/go";
IdgenTest::skip_file("no Go 1.25 or later at $go (test/setup.sh links one there: Debian 12's "
	  . 'golang-go 1.19 is too old for pgx v5)')
  unless -x $go;

my $repo = repo_dir();
my ($vstatus, $version) = run_status([ 'make', '-s', '-C', $repo, 'print-version' ]);
my $tmp = PostgreSQL::Test::Utils::tempdir('gopkg');
my %env = (
	GOMODCACHE => "$tmp/mod", GOCACHE => "$cache/build", GOFLAGS => '-mod=mod',
	GOPROXY => "file://$tmp/proxy,file://$cache/mod/cache/download", GONOSUMDB => 'github.com/idgen',
	GOTOOLCHAIN => 'local', GOTELEMETRY => 'off', CGO_ENABLED => '0', HOME => $tmp,
	GOPATH => "$tmp/gopath");

my ($status, $out, $err) = run_status(
	[ $go, 'run', '.', "$repo/clients/go", "v$version", "$tmp/proxy" ],
	env => \%env, init => sub { chdir "$repo/test/lib/gomodzip" or die "chdir: $!" });
is($status, 0, "clients/go as a module proxy serves it, v$version") or diag("$out\n$err");

mkdir "$tmp/consumer" or die "mkdir: $!";
PostgreSQL::Test::Utils::append_to_file("$tmp/consumer/go.mod",
	"module idgen.test/consumer\n\ngo 1.25.0\n\nrequire github.com/idgen/idgen/clients/go v$version\n");
PostgreSQL::Test::Utils::append_to_file("$tmp/consumer/go.sum",
	PostgreSQL::Test::Utils::slurp_file("$repo/clients/go/go.sum"));

my $node = IdgenTest::Node->create('main');
my $db = eval { $node->app_database('idgen_go_pkg') };
my $bare = eval { $node->app_database('idgen_go_bare') };
# a database with idgen 0.7.0, which has no idgen_types(), for Register's error
my $old = eval {
	$node->app_database('idgen_go_old');
	$node->q("CREATE EXTENSION idgen VERSION '0.7.0'", db => 'idgen_go_old');
	'idgen_go_old';
};
ok($db && $bare && $old, 'create the databases, owned by plain roles') or diag($@);
if ($db && $bare && $old && $status == 0)
{
	my $json = "$tmp/go-test.json";
	# the speed ratios once per suite, on the newest major (they do not differ by major)
	my @skip_speed = $node->pg_version >= 18 ? () : ('-skip', 'TestSpeedBinaryVsText');
	my ($tstatus, $tout, $terr) = run_status(
		[ $go, 'test', '-json', '-count=1', @skip_speed, 'github.com/idgen/idgen/clients/go' ],
		# the module is tested away from the checkout: its tests read the
		# extension's vectors file from here
		env => { %env, $node->client_env($db, $db), IDGEN_TEST_BARE_DATABASE => $bare,
			IDGEN_TEST_OLD_DATABASE => $old, IDGEN_VECTORS => "$repo/test/data/id_vectors.json" },
		init => sub { chdir "$tmp/consumer" or die "chdir: $!" });
	PostgreSQL::Test::Utils::append_to_file($json, $tout);
	diag($terr) if $terr ne '';
	note($_) for $tout =~ /(speed: pgx [^"\\]*)/g;    # TestSpeedBinaryVsText's ratios
	verdicts('go test', '/usr/bin/python3', "$repo/test/lib/runner_verdicts.py", 'go-json', $json);
	is($tstatus, 0, 'go test of the fetched module exits with status 0');
}
done_testing();
