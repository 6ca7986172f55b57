# The crate clients/rust (docs/frameworks.md, "Rust"): its tests, run against
# the packaged crate. `cargo publish --dry-run` packages the .crate and
# verifies it (unpacks it and builds it from its own files and lock), then
# stops before the upload. It is the one step here that goes online: it
# refreshes crates.io's index past the cache, as a publication would.
# --allow-dirty because the suite tests the working tree,
# edits not yet committed included. The .crate is unpacked to a fixed place,
# /var/cache/idgen/cargo/work/idgen, beside a copy of clients/rust/package-tests,
# a crate with a path dependency on it, where `cargo test` runs (tokio-postgres
# and sqlx against a server of this test's). The copy is by content: a file that
# differs from the last run's is rewritten (so its mtime is new and cargo
# rebuilds), an identical one keeps its mtime, a file gone is deleted; cargo
# then reuses its last build only when nothing changed (the .crate's files all
# carry the same fixed mtime, so unpacking over the old tree would hide a change).
# A lock file there keeps two suites from sharing it at once. Both lock files
# pin the dependencies, which test/setup.sh fetched from crates.io into
# /var/cache/idgen/cargo (offline here; the build shares its target directory
# from run to run). Each libtest result is a check (test/lib/runner_verdicts.py).
# The toolchain is Debian 12's rustc-web and cargo-web (1.96, from bookworm's
# security updates): its rustc 1.63 is too old.
use strict;
use warnings;
use Fcntl qw(:flock);
use File::Compare ();
use File::Copy ();
use File::Find ();
use File::Path ();
use IdgenTest;
use PostgreSQL::Test::Utils ();
use Test::More;

my ($cargo, $rustc) = ('/usr/bin/cargo', '/usr/bin/rustc');
my $cache = '/var/cache/idgen/cargo';
IdgenTest::skip_file('Debian\'s cargo-web and rustc-web are not installed (test/setup.sh installs them)')
  unless -x $cargo && -x $rustc && -d "$cache/home/registry";

# sync_tree(FROM, TO): make TO hold FROM's files; rewrite only those whose
# content differs, delete those FROM lacks. Returns how many were written.
sub sync_tree
{
	my ($from, $to) = @_;
	my (%want, $written);
	File::Find::find({ no_chdir => 1, wanted => sub {
		return if -d $_;
		(my $rel = $_) =~ s{^\Q$from\E/}{};
		$want{$rel} = 1;
		my $dest = "$to/$rel";
		return if -f $dest && File::Compare::compare($_, $dest) == 0;
		(my $dir = $dest) =~ s{/[^/]+$}{};
		File::Path::make_path($dir);
		unlink $dest;
		File::Copy::copy($_, $dest) or die "copy $_: $!";
		$written++;
	} }, $from);
	File::Find::finddepth({ no_chdir => 1, wanted => sub {
		(my $rel = $_) =~ s{^\Q$to\E/?}{};
		return if $rel eq '';
		if (-d $_) { rmdir $_; return; }    # only when left empty
		unlink $_ or die "unlink $_: $!" unless $want{$rel};
	} }, $to) if -d $to;
	return $written // 0;
}

my $repo = repo_dir();
my $crate_dir = "$repo/clients/rust";
my ($vstatus, $version) = run_status([ 'make', '-s', '-C', $repo, 'print-version' ]);
my $tmp = PostgreSQL::Test::Utils::tempdir('rustpkg');
my $work = "$cache/work";
File::Path::make_path($work);
open my $lock, '>', "$work/.lock" or die "open $work/.lock: $!";
flock $lock, LOCK_EX or die "flock: $!";
# Line tables only, not full debug information: a cold build of the
# dependencies is the longest step of this test.
my %env = (CARGO_HOME => "$cache/home", CARGO_TARGET_DIR => "$cache/target", RUSTC => $rustc,
	RUSTDOC => '/usr/bin/rustdoc', CARGO_NET_OFFLINE => 'true', CARGO_TERM_COLOR => 'never', HOME => $tmp,
	CARGO_PROFILE_DEV_DEBUG => 'line-tables-only');

# Where cargo publish leaves the .crate (cargo package's place, then the one
# publish uses since cargo 1.84). One left there by an earlier run must not
# stand in for this run's.
my @crate_places = map { "$cache/target/package/${_}idgen-$version.crate" } ('', 'tmp-crate/');
unlink @crate_places;
my ($status, $out, $err) = run_status(
	[ $cargo, 'publish', '--dry-run', '--locked', '--allow-dirty' ],
	env => { %env, CARGO_NET_OFFLINE => undef }, init => sub { chdir $crate_dir or die "chdir: $!" });
is($status, 0, 'cargo publish --dry-run: packaged, verified (builds the packaged crate from its files and lock), upload skipped')
  or diag("$out\n$err");
my @warnings = grep { /^warning/ && !/^warning: aborting upload due to dry run$/ } split /\n/, $err;
ok($err =~ /^warning: aborting upload due to dry run$/m && !@warnings,
	'cargo publish --dry-run warns of nothing but the dry run (the metadata a publication needs is there)')
  or diag($err);
my ($crate) = grep { -f } @crate_places;
ok($crate, "the package is idgen-$version.crate, made by this run") or diag("none of @crate_places");
$crate //= $crate_places[-1];

mkdir "$tmp/idgen" or die "mkdir: $!";
my ($ustatus) = run_status([ 'tar', '-xzf', $crate, '-C', "$tmp/idgen", '--strip-components=1' ]);
my $synced = eval {
	note(sync_tree("$tmp/idgen", "$work/idgen") . ' file(s) of the package changed since the last run');
	note(sync_tree("$crate_dir/package-tests", "$work/package-tests")
		  . ' file(s) of package-tests changed since the last run');
	1;
};
is($ustatus, 0, 'unpack the .crate');
ok($synced, "copy it and package-tests under $work") or diag($@);

my $node = IdgenTest::Node->create('main');
my $db = eval { $node->app_database('idgen_rust_pkg') };
ok($db, 'create the database, owned by a plain role') or diag($@);
if ($db && $status == 0)
{
	# the speed ratios once per suite, on the newest major (they do not differ by major)
	my @skip_speed = $node->pg_version >= 18 ? () : ('--skip', 'speed_binary_vs_text');
	my ($tstatus, $tout, $terr) = run_status(
		[ 'sh', '-c', 'exec "$0" test --locked -- --show-output "$@" 2>&1', $cargo, @skip_speed ],
		# the tests run from a copy: they read the extension's vectors file from here
		env => { %env, $node->client_env($db, $db), IDGEN_VECTORS => "$repo/test/data/id_vectors.json" },
		init => sub { chdir "$work/package-tests" or die "chdir: $!" });
	my $log = "$tmp/cargo-test.log";
	PostgreSQL::Test::Utils::append_to_file($log, $tout);
	note($_) for $tout =~ /^(speed: .*)$/mg;    # speed_binary_vs_text's ratios
	note($_) for $tout =~ /^\s*(Compiling idgen.*)$/mg;    # what cargo rebuilt of ours
	verdicts('cargo test', '/usr/bin/python3', "$repo/test/lib/runner_verdicts.py", 'libtest', $log);
	is($tstatus, 0, 'cargo test against the packaged crate exits with status 0')
	  or diag(join("\n", (split /\n/, $tout)[-30 .. -1]));
}
done_testing();
