# Go: pgx v4 and lib/pq (Debian's golang-go, golang-github-jackc-pgx-v4-dev,
# golang-github-lib-pq-dev) against a server of its own: the migration in a
# pgx transaction as the database's owner, who is not a superuser, every idgen
# family through both drivers, and ulid in binary through a registered pgx
# type (go/main.go and go/ulid.go, built here once, whose verdicts are the
# checks).
use strict;
use warnings;
use IdgenTest;
use PostgreSQL::Test::Utils ();
use Test::More;

my $gocode = '/usr/share/gocode/src/github.com';
IdgenTest::skip_file('Go, pgx v4 and lib/pq are not installed (Debian packages golang-go '
	  . 'golang-github-jackc-pgx-v4-dev golang-github-lib-pq-dev)')
  unless -x '/usr/bin/go' && -d "$gocode/jackc/pgx/v4" && -d "$gocode/lib/pq";

# Debian's Go libraries are a GOPATH tree, without modules and offline; the
# build cache and the program go to this test's temporary directory.
my $tmp = PostgreSQL::Test::Utils::tempdir('go');
my ($status, $out, $err) = run_status(
	[ 'go', 'build', '-o', "$tmp/idgen_go_test", './test/integration/clients/go' ],
	env => { GO111MODULE => 'off', GOPATH => '/usr/share/gocode', GOFLAGS => undef,
		GOCACHE => "$tmp/gocache", GOPROXY => 'off', CGO_ENABLED => '0' },
	init => sub { chdir repo_dir() or die "chdir: $!" });
is($status, 0, 'go build of test/integration/clients/go') or diag("$out\n$err");

my $node = IdgenTest::Node->create('main');
my $db = eval { $node->app_database('idgen_go') };
ok($db, 'create the database, owned by a plain role') or diag($@);
if ($db && $status == 0)
{
	local %ENV = (%ENV, $node->client_env($db, $db));
	verdicts('go/main.go', "$tmp/idgen_go_test");
}
done_testing();
