# The benchmark's memory cap (test/bench/memory_cap.sh): without a cgroup
# controller it declines with a reason; with one, a server started inside it
# keeps its backends inside, writing a table larger than the cap makes the
# kernel reclaim the server's page cache (the point of the cap), and removal
# leaves no cgroup behind. bench.sh refuses a malformed --scale-memory.
#
# Run as root (creating a cgroup needs it). The server is started on purpose
# the benchmark's way, test/lib/cluster.sh's cluster_start and a restart
# through memory_cap_run as bench.sh does it, not by PostgreSQL::Test::Cluster:
# that way of starting it is what this test checks. Each step is a small bash
# invocation of those functions; the checks are Test::More's.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use File::Temp ();
use PostgreSQL::Test::Utils ();

chdir repo_dir() or die "cd: $!";

my $cap = { dir => '', kind => '' };    # the real cgroup, once created
my $cluster_dir = '';                   # the benchmark-style server's directory
my %server_env;                         # PGHOST... of that server, once started

# capped_bash SCRIPT [ARGS...] [env => {...}]: (exit status, stdout, stderr)
# of SCRIPT in bash after sourcing cluster.sh and memory_cap.sh, with the
# cgroup this test made (MEMORY_CAP_DIR and MEMORY_CAP_KIND) restored; ARGS are
# its $1, $2...
sub capped_bash
{
	my ($script, @args) = @_;
	my %opt = @args && ref $args[-1] eq 'HASH' ? %{ pop @args } : ();
	return run_status(
		[
			'bash', '-c',
			'source test/lib/cluster.sh && source test/bench/memory_cap.sh || exit 99; '
			  . 'MEMORY_CAP_DIR=$IDGEN_CAP_DIR MEMORY_CAP_KIND=$IDGEN_CAP_KIND; '
			  . $script,
			'bash', @args
		],
		env => {
			IDGEN_CAP_DIR => $cap->{dir},
			IDGEN_CAP_KIND => $cap->{kind},
			%{ $opt{env} // {} }
		});
}

# cap_create NAME BYTES [ROOT]: memory_cap_create's exit status and its
# results (MEMORY_CAP_REASON, _DIR, _KIND), under cgroup root ROOT if given.
sub cap_create
{
	my ($name, $bytes, $root) = @_;
	my ($status, $out, $err) = capped_bash(
		'memory_cap_create "$1" "$2"; status=$?; '
		  . 'printf "status=%s\nreason=%s\ndir=%s\nkind=%s\n" "$status" "$MEMORY_CAP_REASON" "$MEMORY_CAP_DIR" "$MEMORY_CAP_KIND"',
		$name, $bytes,
		{ env => { MEMORY_CAP_ROOT => $root // $ENV{MEMORY_CAP_ROOT} } });
	my %result = $out =~ /^(status|reason|dir|kind)=(.*)$/mg;
	diag("memory_cap_create: bash exited $status: $err") unless defined $result{status};
	return \%result;
}

# sql SQL: psql's output of SQL on the capped server; an error is left in the
# test's log and makes the output '' (so the check that reads it fails).
sub sql
{
	my ($sql) = @_;
	my ($status, $out, $err) =
	  run_status([ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-c', $sql ], env => \%server_env);
	diag("psql: $err") if $status;
	return $status ? '' : $out;
}

# As the bash's EXIT trap did: the server stopped, the real cgroup removed
# (the temporary directories go with PostgreSQL::Test::Utils's own clean-up).
END
{
	local $?;
	capped_bash('cluster_stop "$1"', $cluster_dir) if $cluster_dir && -d $cluster_dir;
	capped_bash('memory_cap_remove') if $cap->{dir};
}

# Declines where no memory controller is mounted.
my $no_cgroups = PostgreSQL::Test::Utils::tempdir('nocgroup');
my $made = cap_create('idgen-test', 67108864, $no_cgroups);
is($made->{status}, 1, 'memory_cap_create fails without a memory controller');
is($made->{reason}, "no cgroup memory controller under $no_cgroups", 'it gives the reason');
is($made->{dir}, '', 'it leaves no cgroup directory');

# Under cgroup v2 (imitated by plain files, as a v2 mount shows them), the
# controller must be enabled for child cgroups; when it is, the cap becomes
# memory.max of a cgroup made there.
write_file("$no_cgroups/cgroup.controllers", "cpu io memory pids\n");
write_file("$no_cgroups/cgroup.subtree_control", "cpu io\n");
$made = cap_create('idgen-test', 67108864, $no_cgroups);
is($made->{status}, 1, 'v2: memory_cap_create fails when memory is not enabled for children');
is($made->{reason},
	"the memory controller is not enabled for the cgroups under $no_cgroups",
	'v2: it gives the reason');
write_file("$no_cgroups/cgroup.subtree_control", "cpu io memory\n");
$made = cap_create('idgen-test', 67108864, $no_cgroups);
is($made->{status}, 0, 'v2: memory_cap_create succeeds when it is');
is($made->{kind}, 'v2', 'v2: the cgroup is v2');
my $max_file = "$no_cgroups/idgen-test/memory.max";
is(-r $max_file ? PostgreSQL::Test::Utils::slurp_file($max_file) =~ s/\n\z//r : "$max_file: missing",
	'67108864', 'v2: memory.max is the cap');
# That cgroup is a plain directory, removed with the rest of the tempdir.

# bench.sh refuses a malformed cap before it starts anything.
for my $bad ('128', '12XB', '0MB', '-1GB', '')
{
	my ($status, $out, $err) = run_status([ 'bash', 'test/bench/bench.sh', '--scale-memory', $bad ]);
	is($status, 1, "bench.sh --scale-memory '$bad' exits 1");
	like("$out\n$err", qr/needs a size such as 128MB, or off/,
		"bench.sh --scale-memory '$bad' says what it needs");
}

my $cap_bytes = 64 * 1048576;
$made = cap_create("idgen-test-$$", $cap_bytes);
$cap = { dir => $made->{dir} // '', kind => $made->{kind} // '' } if ($made->{status} // '') eq '0';

SKIP:
{
	skip "no memory cgroup on this machine ($made->{reason}): the capped-server checks do not run", 9
	  unless $cap->{dir};

	my $limit_file =
	  $cap->{kind} eq 'v2' ? "$cap->{dir}/memory.max" : "$cap->{dir}/memory.limit_in_bytes";
	is(PostgreSQL::Test::Utils::slurp_file($limit_file) =~ s/\n\z//r,
		$cap_bytes, "the cgroup's limit is the cap");

	# As bench.sh does: a cluster started as usual, restarted inside the cap.
	# The shell that ran memory_cap_run says whether it was moved itself.
	$cluster_dir = File::Temp::tempdir('idgen-memcap.XXXXXX', TMPDIR => 1);
	my ($status, $out, $err) = capped_bash(
		'cluster_start "$1" "$2" "$3" || exit 1; '
		  . 'memory_cap_run cluster_restart "$1" || exit 2; '
		  . 'printf "PGHOST=%s\nPGPORT=%s\nPGUSER=%s\nPGDATABASE=%s\nshell_inside=%s\n" '
		  . '"$PGHOST" "$PGPORT" "$PGUSER" "$PGDATABASE" "$(memory_cap_holds "$$" && echo inside)"',
		$cluster_dir, "shared_buffers = '16MB'", 'fsync = off');
	die "the benchmark-style server did not "
	  . ($status == 1 ? 'start' : 'restart inside the cgroup')
	  . " (status $status): $err\n"
	  if $status;
	my %started = $out =~ /^(PG\w+|shell_inside)=(.*)$/mg;
	%server_env = map { $_ => $started{$_} } qw(PGHOST PGPORT PGUSER PGDATABASE);

	my ($postmaster) = PostgreSQL::Test::Utils::slurp_file("$cluster_dir/data/postmaster.pid") =~ /^(\d+)/;
	ok((capped_bash('memory_cap_holds "$1"', $postmaster))[0] == 0,
		'the postmaster runs inside the cgroup');
	# A backend exits with its session, so it reports its own cgroup.
	my $cgroup_name = $cap->{dir} =~ s{.*/}{}r;
	like(sql("SELECT pg_read_file('/proc/self/cgroup')"), qr{/\Q$cgroup_name\E$}m,
		'a backend it forks runs inside the cgroup');
	# Neither this test's process nor the shell that ran memory_cap_run.
	my $test_inside = (capped_bash('memory_cap_holds "$1" && echo inside', $$))[1];
	is("$started{shell_inside}$test_inside", '', "this test's own shell does not");

	# A table of about 100MB passes through the page cache; under a 64MB cap
	# the kernel must reclaim as it goes, which it records as the limit being
	# hit.
	my $hits_before = limit_hits();
	sql("CREATE TABLE filler AS SELECT g, repeat('x', 200) AS pad FROM generate_series(1, 400000) g");
	sql('SELECT count(*) FROM filler');
	cmp_ok(sql("SELECT pg_total_relation_size('filler')") || 0,
		'>', $cap_bytes, 'the table is larger than the cap');
	my $hits = limit_hits() - $hits_before;
	cmp_ok($hits, '>', 0, "writing and reading it held the server at the cap ($hits times)");
	is(sql('SELECT count(*) FROM filler'), 400000, 'the server still answers');

	capped_bash('cluster_stop "$1"', $cluster_dir);
	my $cgroup = $cap->{dir};
	ok((capped_bash('memory_cap_remove'))[0] == 0,
		'memory_cap_remove succeeds once the server has stopped');
	$cap = { dir => '', kind => '' } unless -e $cgroup;
	ok(!-e $cgroup, 'the cgroup directory is gone');
}

# limit_hits: how many times the cgroup's memory reached its limit (v2:
# memory.events' "max", v1: memory.failcnt).
sub limit_hits
{
	if ($cap->{kind} eq 'v2')
	{
		my ($max) = PostgreSQL::Test::Utils::slurp_file("$cap->{dir}/memory.events") =~ /^max (\d+)$/m;
		return $max // 0;
	}
	return PostgreSQL::Test::Utils::slurp_file("$cap->{dir}/memory.failcnt") =~ s/\s+\z//r;
}

done_testing();
