# The crate clients/rust (docs/frameworks.md, "Rust"): its tests, run against
# the packaged crate. `cargo package` builds the .crate; it is unpacked beside
# a copy of clients/rust/package-tests, a crate with a path dependency on it,
# where `cargo test` runs (tokio-postgres and sqlx against a server of this
# test's). Both lock files pin the dependencies, which test/setup.sh fetched
# from crates.io into /var/cache/idgen/cargo (offline here; the build shares
# its target directory from run to run). Each libtest result is a check
# (test/lib/runner_verdicts.py). The toolchain is Debian 12's rustc-web and
# cargo-web (1.96, from bookworm's security updates): its rustc 1.63 is too old.
use strict;
use warnings;
use IdgenTest;
use PostgreSQL::Test::Utils ();
use Test::More;

my ($cargo, $rustc) = ('/usr/bin/cargo', '/usr/bin/rustc');
my $cache = '/var/cache/idgen/cargo';
IdgenTest::skip_file('Debian\'s cargo-web and rustc-web are not installed (test/setup.sh installs them)')
  unless -x $cargo && -x $rustc && -d "$cache/home/registry";

my $repo = repo_dir();
my $crate_dir = "$repo/clients/rust";
my ($vstatus, $version) = run_status([ 'make', '-s', '-C', $repo, 'print-version' ]);
my $tmp = PostgreSQL::Test::Utils::tempdir('rustpkg');
my %env = (CARGO_HOME => "$cache/home", CARGO_TARGET_DIR => "$cache/target", RUSTC => $rustc,
	RUSTDOC => '/usr/bin/rustdoc', CARGO_NET_OFFLINE => 'true', CARGO_TERM_COLOR => 'never', HOME => $tmp);

my ($status, $out, $err) = run_status(
	[ $cargo, 'package', '--locked', '--no-verify', '--allow-dirty' ],
	env => \%env, init => sub { chdir $crate_dir or die "chdir: $!" });
is($status, 0, 'cargo package') or diag("$out\n$err");
my $crate = "$cache/target/package/idgen-$version.crate";
ok(-f $crate, "the package is idgen-$version.crate");

mkdir "$tmp/idgen" or die "mkdir: $!";
my ($ustatus) = run_status([ 'tar', '-xzf', $crate, '-C', "$tmp/idgen", '--strip-components=1' ]);
my ($cstatus) = run_status([ 'cp', '-r', "$crate_dir/package-tests", "$tmp/package-tests" ]);
is($ustatus + $cstatus, 0, 'unpack the .crate beside a copy of package-tests');

my $node = IdgenTest::Node->create('main');
my $db = eval { $node->app_database('idgen_rust_pkg') };
ok($db, 'create the database, owned by a plain role') or diag($@);
if ($db && $status == 0)
{
	# the speed ratios once per suite, on the newest major (they do not differ by major)
	my @skip_speed = $node->pg_version >= 18 ? () : ('--skip', 'speed_binary_vs_text');
	my ($tstatus, $tout, $terr) = run_status(
		[ 'sh', '-c', 'exec "$0" test --locked -- --show-output "$@" 2>&1', $cargo, @skip_speed ],
		env => { %env, $node->client_env($db, $db) },
		init => sub { chdir "$tmp/package-tests" or die "chdir: $!" });
	my $log = "$tmp/cargo-test.log";
	PostgreSQL::Test::Utils::append_to_file($log, $tout);
	note($_) for $tout =~ /^(speed: .*)$/mg;    # speed_binary_vs_text's ratios
	verdicts('cargo test', '/usr/bin/python3', "$repo/test/lib/runner_verdicts.py", 'libtest', $log);
	is($tstatus, 0, 'cargo test against the packaged crate exits with status 0')
	  or diag(join("\n", (split /\n/, $tout)[-30 .. -1]));
}
done_testing();
