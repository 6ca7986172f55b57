# The benchmark's registry peer (test/bench/peer_pg_uuidv7.sh): every way its
# preparation can fail leaves it a counted skip that names the package and the
# reason, installs nothing and lets the run go on. Each case runs
# peer_pg_uuidv7_prepare in a small bash against a pg_config of this test's
# (directories under a temporary folder) and a cache of its own; the sid
# package index is copied from the suite's cache when it has one, else fetched
# into this test's. Run as root, like bench.sh's preparation. Starts no server.
use strict;
use warnings;
use File::Copy ();
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils ();

chdir repo_dir() or die "cd: $!";
my $work = PostgreSQL::Test::Utils::tempdir('bench_peer');
chmod 0755, $work;
my $package = 'postgresql-18-pg-uuidv7';

# A server of this test's to install into: pg_config prints its directories.
mkdir "$work/$_" for qw(pg pg/lib pg/share pg/share/extension);
write_file("$work/pg_config", "#!/bin/sh\ncase \$1 in --pkglibdir) echo $work/pg/lib ;; --sharedir) echo $work/pg/share ;; esac\n");
chmod 0755, "$work/pg_config";
# One for Debian's own server, into which the bench never installs.
write_file("$work/debian_pg_config", "#!/bin/sh\ncase \$1 in --pkglibdir) echo /usr/lib/postgresql/18/lib ;; --sharedir) echo /usr/share/postgresql/18 ;; esac\n");
chmod 0755, "$work/debian_pg_config";

# A checkout whose test/pg-build.sh --archive names ARCHIVE (or fails, with
# none): where the peer's preparation reads the archive's address.
sub checkout_with_archive
{
	my ($name, $archive) = @_;
	my $dir = "$work/$name";
	mkdir $dir;
	mkdir "$dir/test";
	write_file("$dir/test/pg-build.sh", defined $archive ? "echo $archive\n" : "echo 'no archive' >&2; exit 1\n");
	return $dir;
}

# prepare MAJOR PG_CONFIG [repo => DIR] [cache => DIR] [version => V] [user => U]:
# (state, note, stderr, exit status) after peer_pg_uuidv7_prepare.
sub prepare
{
	my ($major, $pg_config, %opt) = @_;
	my $script = 'source test/bench/peer_pg_uuidv7.sh || exit 99; REPO_DIR=$1; '
	  . '[[ -n $2 ]] && PEER_PG_UUIDV7_VERSION=$2; '
	  . 'peer_pg_uuidv7_prepare "$3" "$4"; echo "state=$PEER_PG_UUIDV7"; echo "note=$PEER_PG_UUIDV7_NOTE"';
	my @command = ('bash', '-c', $script, 'bash', $opt{repo} // repo_dir(), $opt{version} // '', $major, $pg_config);
	unshift @command, 'runuser', '-u', $opt{user}, '--' if $opt{user};
	my ($status, $out, $err) = run_status(\@command,
		env => { IDGEN_PG_CACHE => $opt{cache} // "$work/cache", IDGEN_BENCH_EXISTING => undef });
	my ($state) = $out =~ /^state=(.*)$/m;
	my ($note) = $out =~ /^note=(.*)$/m;
	return ($state // '', $note // '', $err, $status);
}

# skipped_as NAME, RESULT..., REASON_RE: the preparation ended in one counted
# skip naming the package and REASON_RE, and installed nothing.
sub skipped_as
{
	my ($name, $state, $note, $err, $status, $reason) = @_;
	my @skips = $err =~ /^bench: SKIP 1 peer: \Q$package\E \S+: (.*); uuid_generate_v7\(\) is not measured$/mg;
	my @installed = glob("$work/pg/lib/* $work/pg/share/extension/*");
	ok($status == 0 && $state eq 'skipped' && @skips == 1 && $skips[0] =~ $reason && $note =~ $reason && !@installed,
		"$name: one counted skip naming $package and why, nothing installed, the run goes on")
	  or diag("status $status, state '$state', note '$note', installed: @installed\n$err");
	return;
}

my @result = prepare(17, "$work/pg_config");
ok($result[0] eq 'absent' && $result[1] =~ /built for PostgreSQL 18; not part of a run on 17/ && $result[2] !~ /SKIP/,
	'a run on 17: the peer is absent, not a skip (the package is built for 18)')
  or diag(join "\n", @result);

skipped_as('not root', prepare(18, "$work/pg_config", user => 'postgres', cache => "$work/cache-postgres"),
	qr/needs root/);
skipped_as('Debian\'s own server', prepare(18, "$work/debian_pg_config"), qr/the server is Debian's own/);
skipped_as('no Debian archive in the apt sources',
	prepare(18, "$work/pg_config", repo => checkout_with_archive('no-archive', undef)),
	qr/no Debian archive in this machine's apt sources/);
# Port 9 (discard) on loopback refuses at once: the update fails with no
# earlier index at hand.
skipped_as('an archive that cannot be reached',
	prepare(18, "$work/pg_config", repo => checkout_with_archive('unreachable', 'http://127.0.0.1:9/debian'),
		cache => "$work/cache-unreachable"),
	qr/the archive's package list could not be fetched/);

# The real archive's sid index: from the suite's cache when it is there (the
# same sources line, so it is used as it is, or read again if a day old).
my $archive = `bash test/pg-build.sh --archive 2>/dev/null`;
chomp $archive;
my $suite_lists = ($ENV{IDGEN_PG_CACHE} // '/var/cache/idgen') . '/apt-peers';
if (-f "$suite_lists/sources.list" && glob("$suite_lists/lists/*_Packages*"))
{
	system('mkdir', '-p', "$work/cache/apt-peers") == 0 or die;
	system('cp', '-a', "$suite_lists/sources.list", "$suite_lists/lists", "$work/cache/apt-peers/") == 0
	  or die "copy $suite_lists: $?";
}
SKIP:
{
	skip 'this machine\'s apt sources name no Debian archive (test/pg-build.sh --archive)', 3 unless $archive;
	skipped_as('a version the index does not have', prepare(18, "$work/pg_config", version => '0.0.0-0'),
		qr/not in the archive's sid package index/);

	# A download that is not what the index lists is removed, not loaded.
	my $arch = `dpkg --print-architecture`;
	chomp $arch;
	my ($pinned) = `grep -oP '^PEER_PG_UUIDV7_VERSION=\\K\\S+' test/bench/peer_pg_uuidv7.sh`;
	chomp $pinned;
	my $deb = "$work/cache/peers/${package}_${pinned}_$arch.deb";
	system('mkdir', '-p', "$work/cache/peers") == 0 or die;
	write_file($deb, "not the package\n");
	my @tampered = prepare(18, "$work/pg_config");
	if ($tampered[2] =~ /not in the archive's sid package index/)
	{
		skip "$package $pinned has left the sid index: the checksum case needs it there (bump the pin)", 2;
	}
	skipped_as('a download whose SHA-256 is not the index\'s', @tampered,
		qr/SHA-256 [0-9a-f]{64} of the downloaded package is not the index's [0-9a-f]{64} \(removed\)/);
	ok(!-e $deb, 'the mismatched download is deleted');
}

# The C library check: a .so that needs a newer GLIBC than the host's is
# refused. objdump is replaced on PATH by one that reports what the .so needs.
for my $case ([ '2.2.5', 0 ], [ '99.1', 1 ])
{
	my ($needs, $refused) = @$case;
	mkdir "$work/bin-$needs";
	write_file("$work/bin-$needs/objdump", "#!/bin/sh\necho '0000 DF *UND* 0000 GLIBC_$needs memcpy'\n");
	chmod 0755, "$work/bin-$needs/objdump";
	my ($status, $out) = run_status(
		[ 'bash', '-c', 'source test/bench/peer_pg_uuidv7.sh && peer_glibc_ok /dev/null' ],
		env => { PATH => "$work/bin-$needs:$ENV{PATH}" });
	is($status == 0 ? 'loaded' : 'refused', $refused ? 'refused' : 'loaded',
		"a .so that needs GLIBC_$needs is " . ($refused ? 'refused' : 'loaded') . " on this host (it prints $out)");
}

done_testing();
