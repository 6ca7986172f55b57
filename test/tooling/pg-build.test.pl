# test/pg-build.sh without building anything: the archive it reads from apt
# sources of each format, the majors it knows, reuse of a cached server, and
# its refusals (unknown major, bad argument, no archive, not root). Starts no
# server; run as root, it also runs pg-build.sh as the unprivileged postgres.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use Digest::SHA ();
use File::Copy ();
use File::Path qw(make_path);
use PostgreSQL::Test::Utils ();

chdir repo_dir() or die "cd: $!";
my $work = PostgreSQL::Test::Utils::tempdir('pg-build');
# postgres, running pg-build.sh below, must reach its cache in here.
chmod 0755, $work or die "chmod $work: $!";

# apt_dir NAME: an empty stand-in for /etc/apt.
sub apt_dir
{
	my ($name) = @_;
	make_path("$work/$name/sources.list.d");
	return "$work/$name";
}

# pg_build ARGS... [env => {...}]: pg-build.sh's (exit status, stdout, stderr).
sub pg_build
{
	my ($args, %opt) = @_;
	return run_status([ 'bash', 'test/pg-build.sh', @$args ], %opt);
}

# sha256 FILE: its SHA-256 in hex.
sub sha256 { return Digest::SHA->new(256)->addfile($_[0])->hexdigest; }

# byte_at FILE OFFSET: the byte there, as a number.
sub byte_at
{
	my ($path, $offset) = @_;
	open my $fh, '<:raw', $path or die "$path: $!";
	seek $fh, $offset, 0 or die $!;
	read($fh, my $byte, 1) == 1 or die "$path: no byte at $offset";
	close $fh;
	return ord $byte;
}

# deb822: the security stanza comes first and must be passed over.
my $etc = apt_dir('deb822');
write_file("$etc/sources.list.d/debian.sources", <<'EOF');
Types: deb
URIs: http://security.example/debian-security
Suites: bookworm-security
Components: main

Types: deb
URIs: http://mirror.example/debian/
Suites: bookworm bookworm-updates
Components: main
EOF
is((pg_build(['--archive'], env => { IDGEN_APT_ETC => $etc }))[1], 'http://mirror.example/debian',
	'deb822 sources: the first non-security Debian archive, without a trailing slash');

# one-line format, next to a deb822 file that has only other archives.
$etc = apt_dir('oneline');
write_file("$etc/sources.list.d/other.sources", <<'EOF');
Types: deb
URIs: http://packages.example/node_20.x
Suites: nodistro
Components: main
EOF
write_file("$etc/sources.list", <<'EOF');
# a comment
deb http://security.example/debian-security bookworm-security main
deb [arch=amd64] http://oneline.example/debian bookworm main
EOF
is((pg_build(['--archive'], env => { IDGEN_APT_ETC => $etc }))[1], 'http://oneline.example/debian',
	'one-line sources.list: the Debian archive, options and security lines passed over');

$etc = apt_dir('none');
File::Copy::copy("$work/oneline/sources.list.d/other.sources", "$etc/sources.list.d/") or die $!;
my ($status, $out, $err) = pg_build(['--archive'], env => { IDGEN_APT_ETC => $etc });
is($status, 1, 'no Debian archive in the sources: exit status 1');
like($err, qr/\Qno Debian archive found in the apt sources under $etc\E/,
	'the error names the directory it read');

is(join(' ', split /\n/, (pg_build(['--known']))[1]), '15 16 17 18 19',
	'--known lists 15 and the majors of Debian\'s newer suites, oldest first');
is(join(' ', split /\n/, (pg_build(['--required']))[1]), '15 17 18',
	'--required lists the supported majors');
is(join(' ', split /\n/, (pg_build(['--optional']))[1]), '19',
	'--optional lists the majors tested whenever their server can be had');
is((pg_build(['15']))[1], '/usr/lib/postgresql/15/bin/pg_config', "15 is Debian's own package");
my (undef, $package_version) = run_status([ 'dpkg-query', '-W', '-f=${Version}', 'postgresql-15' ]);
like((pg_build([ '--info', '15' ]))[1], qr/^\Qversion=$package_version\E$/m,
	"--info 15 names Debian's package and its version");

($status, $out, $err) = pg_build(['99']);
is($status, 1, 'a major no suite carries: exit status 1');
like($err, qr/PostgreSQL 99: no Debian suite is known to carry it/, 'the error names the major');
($status, $out, $err) = pg_build(['eighteen']);
is($status, 2, 'a bad argument: exit status 2');
like($err, qr/^usage: .*MAJOR/m, 'a bad argument prints the usage');

# A server already in the cache is reused, not rebuilt (nor fetched): the
# vendored version when the source directory has one, else the newest build.
my $key = (pg_build(['--cache-key']))[1];

# fake_build BIN: a cached build's pg_config and postgres in BIN, as
# cached_prefix looks for them.
sub fake_build
{
	my ($bin) = @_;
	make_path($bin);
	for my $tool ('pg_config', 'postgres')
	{
		write_file("$bin/$tool", "#!/bin/sh\nexit 0\n");
		chmod 0755, "$bin/$tool" or die $!;
	}
	return;
}
fake_build("$work/cache/pg/17/$_-$key/bin") for '17.1-1', '17.2-1';
make_path("$work/no-sources", "$work/sources-17.1");
write_file("$work/sources-17.1/postgresql-17_17.1-1.dsc", '');
is( (pg_build(['17'], env => { IDGEN_PG_SOURCES => "$work/no-sources", IDGEN_PG_CACHE => "$work/cache" }))[1],
	"$work/cache/pg/17/17.2-1-$key/bin/pg_config",
	'a cached major is reused, the newest version when nothing is vendored');
is( (pg_build(['17'], env => { IDGEN_PG_SOURCES => "$work/sources-17.1", IDGEN_PG_CACHE => "$work/cache" }))[1],
	"$work/cache/pg/17/17.1-1-$key/bin/pg_config",
	"the vendored version's build when the source directory has one");
ok(!-e "$work/cache/build", 'and nothing was fetched or built for it');

# An apt configuration whose only archive refuses every connection.
$etc = apt_dir('blocked');
write_file("$etc/sources.list", "deb http://127.0.0.1:1/debian bookworm main\n");

# A vendored source package with one byte changed is refused, naming the file,
# and nothing else is tried. The real vendored 17 when it is there, else one
# made here the same way (a .dsc listing its files' SHA-256).
my $tampered = "$work/tampered";
make_path($tampered);
my $vendored = repo_dir() . '/../shared/vendor/postgresql';
my @vendored_17 = glob "$vendored/postgresql-17_*";
if (grep { /\.dsc$/ } @vendored_17)
{
	File::Copy::copy($_, "$tampered/") or die "$_: $!" for @vendored_17;
}
else
{
	make_path("$work/made/postgresql-17.0");
	write_file("$work/made/postgresql-17.0/README", "a PostgreSQL source stand-in\n");
	my ($tar_status, undef, $tar_err) = run_status(
		[
			'tar', '-cjf', "$tampered/postgresql-17_17.0.orig.tar.bz2",
			'-C', "$work/made", 'postgresql-17.0'
		]);
	die "tar: $tar_err\n" if $tar_status;
	write_file("$tampered/postgresql-17_17.0-1.dsc",
		    "Format: 3.0 (quilt)\nSource: postgresql-17\nVersion: 17.0-1\nChecksums-Sha256:\n "
		  . sha256("$tampered/postgresql-17_17.0.orig.tar.bz2")
		  . " 1 postgresql-17_17.0.orig.tar.bz2\n");
}
my ($orig) = glob "$tampered/postgresql-17_*.orig.tar.bz2";
($status, $out, $err) = pg_build(
	[ '--fetch', '17', "$work/fetched-good" ],
	env => {
		IDGEN_PG_SOURCES => $tampered,
		IDGEN_PG_CACHE => "$work/cache-good",
		IDGEN_APT_ETC => $etc
	});
is($status, 0, 'an intact vendored source package is taken: exit status 0') or diag($err);
like($out, qr/^\Qorig_sha256=${\ sha256($orig)}\E$/m,
	'and recorded as vendored, with the tarball\'s SHA-256');
like($out, qr/^source=vendored$/m, 'source=vendored');
my $byte = byte_at($orig, 100);
{
	# writable, whatever mode the copy got (the vendored files are read-only)
	chmod 0644, $orig or die "chmod $orig: $!";
	open my $fh, '+<:raw', $orig or die "$orig: $!";
	seek $fh, 100, 0 or die $!;
	print $fh chr(($byte + 1) % 256);
	close $fh or die $!;
}
isnt(byte_at($orig, 100), $byte, 'one byte of the tarball is changed');

# pg-build.sh MAJOR goes on to fetch only as root (anyone else is refused
# first, below), as test/run-tests.sh runs this tier.
SKIP:
{
	skip 'not run as root: pg-build.sh fetches a source for a build only as root', 11 if $> != 0;
	($status, $out, $err) = pg_build(
		['17'],
		env => {
			IDGEN_PG_SOURCES => $tampered,
			IDGEN_PG_CACHE => "$work/cache-tampered",
			IDGEN_APT_ETC => $etc
		});
	is($status, 1, 'a vendored tarball with one byte changed: exit status 1');
	like($err, qr/SHA-256 mismatch: \Q$orig\E is [0-9a-f]{64}, its .dsc says [0-9a-f]{64}/,
		'the error names the file and both checksums');
	unlike($err, qr/archive|pinned/, 'and no other source was tried');
	ok(!-e "$work/cache-tampered/pg", 'nor anything built or installed');

	# No vendored source and an archive that does not answer: unavailable (exit 3),
	# naming each source tried and what it answered.
	my %unreachable = (
		IDGEN_PG_SOURCES => "$work/no-sources",
		IDGEN_PG_CACHE => "$work/cache-blocked",
		IDGEN_APT_ETC => $etc);
	($status, $out, $err) = pg_build(['17'], env => \%unreachable);
	is($status, 3, 'no source answers: exit status 3');
	like($err, qr/^\Q  vendored ($work\/no-sources): no postgresql-17_*.dsc there\E$/m,
		'the vendored directory is named as tried');
	like($err, qr/^  archive: apt-get update of the private source lists failed: .*127\.0\.0\.1:1/m,
		'the archive is named as tried, with its answer');
	like($err, qr/^  pinned: postgresql-17_17\.11-0\+deb13u1 from the pool: .*Could not connect/m,
		'the pinned version is named as tried, with its answer');
	like((pg_build(['16'], env => \%unreachable))[2],
		qr/^  pinned: no known-good version of 16 is pinned/m, 'a major with nothing pinned says so');

	# A major tested in a root of its own (19) whose archive does not answer:
	# unavailable too, naming the root's step that failed.
	($status, $out, $err) = pg_build(['19'], env => \%unreachable);
	is($status, 3, "19's root from an archive that does not answer: exit status 3");
	like($err, qr/^  root: debootstrap of unstable failed: .*127\.0\.0\.1:1/m,
		'the root is named as tried, with its answer');
}

# Building needs root; anyone else is told so before anything is fetched.
SKIP:
{
	skip 'not run as root: pg-build.sh\'s refusal to build for another user is tested as root', 3
	  if $> != 0;
	my (undef, undef, $uid, $gid) = getpwnam('postgres') or die "no user postgres\n";
	make_path("$work/empty-cache");
	chown $uid, $gid, "$work/empty-cache" or die $!;
	# as postgres: the child drops root before it runs pg-build.sh
	($status, $out, $err) = pg_build(
		['18'],
		env => { IDGEN_PG_CACHE => "$work/empty-cache" },
		init => sub {
			require POSIX;
			$) = "$gid $gid";    # effective group and the supplementary groups
			POSIX::setgid($gid) or die "setgid: $!";
			POSIX::setuid($uid) or die "setuid: $!";
		});
	is($status, 1, 'an unbuilt major asked for by a non-root user: exit status 1');
	like($err, qr/PostgreSQL 18 is not built yet; run as root to build it/,
		'the error says to run as root');
	opendir my $dh, "$work/empty-cache" or die $!;
	my @left = grep { !/^\.\.?$/ } readdir $dh;
	is("@left", '', 'and nothing was fetched');
}

# The build lock: while another pg-build.sh holds 17's lock (here, this test),
# pg-build.sh 17 waits; once the holder has put 17 in the cache and let go, it
# takes that build and makes none of its own.
SKIP:
{
	skip 'not run as root: only root takes the build lock', 3 if $> != 0;
	require Fcntl;
	require IPC::Run;
	my $cache = "$work/lock-cache";
	make_path("$cache/build");
	open my $lock, '>', "$cache/build/.lock-17" or die $!;
	flock($lock, Fcntl::LOCK_EX()) or die "flock: $!";
	my ($lout, $lerr) = ('', '');
	my $h = IPC::Run::start([ 'bash', 'test/pg-build.sh', '17' ], '>', \$lout, '2>', \$lerr,
		init => sub { $ENV{IDGEN_PG_CACHE} = $cache; $ENV{IDGEN_PG_SOURCES} = "$work/no-sources"; });
	sleep 3;
	$h->pump_nb;
	ok($h->pumpable && $lout eq '', 'pg-build.sh 17 waits while another holds 17\'s build lock')
	  or diag("out: $lout\nerr: $lerr");
	my $bin = "$cache/pg/17/17.3-1-$key/bin";
	fake_build($bin);
	close $lock;    # lets go of the lock
	my $finished = eval { $h->finish; 1 };
	chomp $lout;
	ok($finished && $? == 0 && $lout eq "$bin/pg_config",
		'once it is let go, it prints the build the holder put in the cache')
	  or diag("status $?, out: $lout\nerr: $lerr");
	ok(!-e "$cache/build/17", 'and made no build of its own') or diag($lerr);
}

done_testing();
