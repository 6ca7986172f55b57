# The Go modules of clients/go (docs/frameworks.md, "Go"): the root module
# (the types, standard library only), clients/go/pgx (the pgx codecs) and
# clients/go/test (the tests against a server, with lib/pq and GORM), each
# run through its own tests (`go test`) as it would be fetched.
# test/lib/gomodzip lays each out as a module proxy serves it (golang.org/x/mod's
# zip, at the extension's version, which the pgx and test modules require
# the root at); a module of this test's requires them and runs `go test` on
# their packages through GOPROXY=file://, their dependencies coming from the
# module cache test/setup.sh filled (as a second file:// proxy: nothing is
# fetched here), checked against the modules' go.sum files. Each test's
# result (`go test -json`, test/lib/runner_verdicts.py) is a check. The Go is test/setup.sh's
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

my @modules = ('clients/go', 'clients/go/pgx', 'clients/go/test');
my %path = map { $_ => "github.com/idgen/idgen/$_" } @modules;
# The pgx and test modules require the root at the extension's version, the
# one this test serves it at (go.mod states it literally: a version bump that
# misses them fails here, not at a user's `go get`).
my $root_module = $path{'clients/go'};
for my $module (grep { $_ ne 'clients/go' } @modules)
{
	my ($required) = PostgreSQL::Test::Utils::slurp_file("$repo/$module/go.mod") =~ /^\s*\Q$root_module\E (v\S+)\s*$/m;
	is($required, "v$version", "$module/go.mod requires $root_module at the extension's version");
}

my $status = 0;
for my $module (@modules)
{
	my ($zstatus, $out, $err) = run_status(
		[ $go, 'run', '.', "$repo/$module", "v$version", "$tmp/proxy" ],
		env => \%env, init => sub { chdir "$repo/test/lib/gomodzip" or die "chdir: $!" });
	is($zstatus, 0, "$module as a module proxy serves it, v$version") or diag("$out\n$err");
	$status ||= $zstatus;
}

mkdir "$tmp/consumer" or die "mkdir: $!";
PostgreSQL::Test::Utils::append_to_file("$tmp/consumer/go.mod",
	"module idgen.test/consumer\n\ngo 1.25.0\n\nrequire (\n"
	  . join('', map { "\t$path{$_} v$version\n" } @modules) . ")\n");
my %sums;
$sums{$_} = 1
  for map { split /\n/, PostgreSQL::Test::Utils::slurp_file("$repo/$_/go.sum") }
  grep { -e "$repo/$_/go.sum" } @modules;
PostgreSQL::Test::Utils::append_to_file("$tmp/consumer/go.sum", join('', map { "$_\n" } sort keys %sums));

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
		[ $go, 'test', '-json', '-count=1', @skip_speed, map { $path{$_} } @modules ],
		# the modules are tested away from the checkout: their tests read
		# the extension's vectors file and the third-party vectors from here
		env => { %env, $node->client_env($db, $db), IDGEN_TEST_BARE_DATABASE => $bare,
			IDGEN_TEST_OLD_DATABASE => $old, IDGEN_VECTORS => "$repo/test/data/id_vectors.json",
			IDGEN_SHARED_DATA => "$repo/../shared/data" },
		init => sub { chdir "$tmp/consumer" or die "chdir: $!" });
	PostgreSQL::Test::Utils::append_to_file($json, $tout);
	diag($terr) if $terr ne '';
	note($_) for $tout =~ /(speed: pgx [^"\\]*)/g;    # TestSpeedBinaryVsText's ratios
	verdicts('go test', '/usr/bin/python3', "$repo/test/lib/runner_verdicts.py", 'go-json', $json);
	is($tstatus, 0, 'go test of the fetched modules exits with status 0');
}
done_testing();
