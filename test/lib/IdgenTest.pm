# The suite's own layer over PostgreSQL::Test::Cluster (shipped in each
# major's PGXS, lib/pgxs/src/test/perl): what that library lacks, written once.
# Every TAP test of test/tap and test/integration starts its servers through
# IdgenTest::Node, prints through Test::More, and finds its helpers here.
#
#   use lib ...;  use IdgenTest;
#   my $node = IdgenTest::Node->create('main');          # initdb, idgen preloaded, started
#   is($node->q('SELECT 1'), '1', 'the server answers');
#   done_testing();
#
# docs/development.md ("The test library") lists what each function is for.
package IdgenTest;

use strict;
use warnings;

use Cwd qw(abs_path);
use Digest::SHA ();
use File::Basename qw(dirname);
use File::Find ();
use IPC::Run ();
use Time::HiRes ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Exporter 'import';

# PostgreSQL::Test::Cluster's init runs pg_regress --config-auth (always on
# 15): the installed server's, as make prove_installcheck would name it.
BEGIN
{
	my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
	chomp(my $pkglibdir = `$pg_config --pkglibdir`);
	$ENV{PG_REGRESS} //= "$pkglibdir/pgxs/src/test/regress/pg_regress";
}

our @EXPORT = qw(repo_dir idgen_version sizes write_file faketime_lib run_status verdicts
  prepared prepared_verdicts skip_file skip_unless_prepared idgen_files idgen_files_digest
  mint_concurrently create_session_ids mint_timed_sessions not_increasing_per_session out_of_real_time_order check_memory_flat
  check_stats_follow_live_sessions doc_block doc_sql doc_blocks_ok shared_data);

# repo_dir: the checkout's top directory.
sub repo_dir { return abs_path(dirname(__FILE__) . '/../..'); }

# shared_data NAME: the directory ../shared/data/NAME beside the checkout,
# where third-party test data lives (the project keeps no copy of it), or
# undef after one check saying it is missing: a failure under CI=true, a
# counted skip naming the path elsewhere.
sub shared_data
{
	my ($name) = @_;
	my $path = abs_path(repo_dir() . '/..') . "/shared/data/$name";
	return $path if -d $path;
	my $why = "test data $path is missing (third-party data, kept beside the checkout)";
	if (($ENV{CI} // '') eq 'true') { fail("$why: required under CI=true"); }
	else { SKIP: { skip $why, 1; } }
	return undef;
}

# idgen_version: the extension's version as make print-version prints it,
# read from the Makefile's EXTVERSION (its one place) without running make.
sub idgen_version
{
	my ($version) = PostgreSQL::Test::Utils::slurp_file(repo_dir() . '/Makefile')
	  =~ /^EXTVERSION\s*=\s*(\S+)/m;
	return $version // die "no EXTVERSION in the Makefile\n";
}

# sizes: the multi-session tests' sizes, SESSIONS concurrent sessions of
# PER_SESSION IDs each and MEMORY_CALLS calls in one statement; IDGEN_SOAK=1 is
# the long mode (docs/development.md, "Soak run"), and each size set in the
# environment wins over both.
sub sizes
{
	my $soak = $ENV{IDGEN_SOAK} // 0;
	die "IDGEN_SOAK must be 0 or 1, got '$soak'\n" unless $soak =~ /^[01]$/;
	my %size =
	  $soak
	  ? (SESSIONS => 8, PER_SESSION => 1_250_000, MEMORY_CALLS => 10_000_000)
	  : (SESSIONS => 4, PER_SESSION => 250_000,   MEMORY_CALLS => 1_000_000);
	$size{$_} = $ENV{$_} for grep { defined $ENV{$_} } keys %size;
	return \%size;
}

# prepared: the exit status of the test's root-only preparation
# (test/lib/prepare/NAME.sh, which test/run-tests.sh runs first) and the last
# 30 lines of its log; status 'none' when there was none (a run by hand: run
# the preparation as root yourself, or the test skips what needs it).
sub prepared
{
	my $status = $ENV{IDGEN_PREPARE_STATUS} // 'none';
	my $log = $ENV{IDGEN_PREPARE_LOG} // '';
	my $tail = '';
	if ($log && -r $log)
	{
		my @lines = split /\n/, PostgreSQL::Test::Utils::slurp_file($log);
		$tail = join("\n", @lines > 30 ? @lines[-30 .. -1] : @lines);
	}
	return ($status, $tail);
}

# prepared_verdicts LABEL: the verdict lines of the root-only preparation's log
# (test/lib/verdicts.py's format, its plan line first: what only root could do
# and check) as checks and notes (verdict_checks), then a check that the
# preparation, LABEL, exited with status 0; for after the caller has dealt
# with status 'none' and 3 (prepared). Returns a hash of each verdict's name
# to whether it passed, then the log's other lines (log text, and records
# that the test reads).
sub prepared_verdicts
{
	my ($label) = @_;
	my ($status) = prepared();
	my $log = $ENV{IDGEN_PREPARE_LOG} // '';
	my $text = $log && -r $log ? PostgreSQL::Test::Utils::slurp_file($log) : '';
	my ($passed, @other) = verdict_checks($label, $text, 0);
	is($status, '0', "$label exits with status 0")
	  or diag(join("\n", @other > 40 ? @other[ -40 .. -1 ] : @other));
	return ($passed, @other);
}

# skip_file REASON: one counted skip, then the end of the test file, for a
# test that cannot run here (as the bash tests printed "ok 1 # skip REASON").
sub skip_file
{
	my ($why) = @_;
  SKIP: { skip $why, 1; }
	done_testing();
	exit 0;
}

# skip_unless_prepared NONE_REASON: skip_file when the root-only preparation
# did not run (NONE_REASON, plus how to run it) or cannot be done here (status
# 3: the last line of its log says why); otherwise returns.
sub skip_unless_prepared
{
	my ($none_reason) = @_;
	my ($status, $tail) = prepared();
	my $name = $0 =~ s{.*/}{}r =~ s{\.pl$}{}r;
	skip_file("$none_reason: run test/lib/prepare/$name.sh as root first") if $status eq 'none';
	skip_file((split /\n/, $tail)[-1] // "test/lib/prepare/$name.sh: status 3") if $status eq '3';
	return;
}

# idgen_files [PG_CONFIG]: idgen's installed files and directories under that
# server (library, JIT bitcode, control file and SQL scripts), sorted, as
# test/lib/lib.sh's idgen_files lists them for the root-only preparations.
sub idgen_files
{
	my $pg_config = shift // $ENV{PG_CONFIG} // 'pg_config';
	chomp(my $lib = `$pg_config --pkglibdir`);
	chomp(my $share = `$pg_config --sharedir`);
	return sort map { glob("$_/idgen*") } ($lib, "$lib/bitcode", "$share/extension");
}

# idgen_files_digest [PG_CONFIG]: "SHA-256<TAB>path" of each file under
# idgen_files, sorted by path: what the installed idgen files must read after a
# preparation put back the suite's own (its "saved<TAB>..." lines, lib.sh's
# saved_idgen_digests).
sub idgen_files_digest
{
	my @files;
	File::Find::find({ no_chdir => 1, wanted => sub { push @files, $_ if -f $_ } }, $_)
	  for idgen_files(@_);
	return map { Digest::SHA->new(256)->addfile($_)->hexdigest . "\t$_" } sort @files;
}

# write_file PATH TEXT: PATH holds TEXT, and only TEXT.
sub write_file
{
	my ($path, $text) = @_;
	open my $fh, '>', $path or die "$path: $!";
	print $fh $text;
	close $fh;
	return;
}

# faketime_lib: libfaketime from Debian's faketime package, or undef.
sub faketime_lib
{
	my ($lib) = glob('/usr/lib/*/faketime/libfaketime.so.1');
	return $lib;
}

# verdicts LABEL COMMAND...: runs a helper program that prints its plan, then
# one verdict a line ("plan<TAB>N", then "ok<TAB>what", "not ok<TAB>what",
# "#<TAB>note"; test/lib/verdicts.py) and turns each into a check
# (verdict_checks); any other line, or a failed exit, fails.
sub verdicts
{
	my ($label, @command) = @_;
	my $output = '';
	my $ran = IPC::Run::run(\@command, '>', \$output, '2>&1');
	verdict_checks($label, $output, 1);
	ok($ran, "$label exits with status 0") or diag("exit status $?");
	return;
}

# verdict_checks LABEL, TEXT, STRICT: TEXT's verdict lines as checks and its
# notes as notes. Exactly one "plan<TAB>N" line comes before the first verdict
# and says how many verdicts follow: no plan is one failure, each planned
# verdict that never came is one (the helper stopped early), more verdicts than
# planned one, a second or misplaced plan line one. Under STRICT any other line
# fails too; otherwise such lines are returned (a preparation's log text).
# Returns a hash of each verdict's name to whether it passed, then those lines.
sub verdict_checks
{
	my ($label, $text, $strict) = @_;
	my (%passed, @other, $plan);
	my $count = 0;
	for my $line (split /\n/, $text)
	{
		my ($verdict, $what) = split /\t/, $line, 2;
		$verdict //= '';
		if (defined $what && ($verdict eq 'ok' || $verdict eq 'not ok'))
		{
			$count++;
			$passed{$what} = ok($verdict eq 'ok', $what) ? 1 : 0;
		}
		elsif (defined $what && $verdict eq '#') { note($what); }
		elsif ($verdict eq 'plan')
		{
			if (!defined $plan && $count == 0 && defined $what && $what =~ /^[0-9]+$/)
			{
				$plan = $what;
			}
			else
			{
				my $shown = 'plan ' . ($what // '');
				fail(defined $plan ? "$label: a second plan line ($shown)"
					: $count ? "$label: its plan line ($shown) comes after a verdict"
					:          "$label: a plan line without a count ($shown)");
			}
		}
		elsif ($strict) { fail("$label: $line"); }
		else { push @other, $line; }
	}
	if (!defined $plan)
	{
		fail("$label: no plan line (plan<TAB>N) before its verdicts ($count came)");
	}
	elsif ($count < $plan)
	{
		fail("$label: verdict $_ of $plan never came") for $count + 1 .. $plan;
	}
	elsif ($count > $plan)
	{
		fail("$label: $count verdicts came, $plan planned");
	}
	return (\%passed, @other);
}

# doc_block TEST, PAGE, NAME: the text of PAGE's ```sql blocks marked
# "<!-- run by TEST: NAME -->" (test/lib/readme_sql.py --marked --print), or ''
# if it has none; for a test that runs the manual's example its own way.
sub doc_block
{
	my ($test, $page, $name) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ '/usr/bin/python3', repo_dir() . '/test/lib/readme_sql.py', '--marked', $test,
			'--name', $name, '--print', repo_dir() . "/$page" ], '>', \$out, '2>', \$err)
	  or return '';
	return $out;
}

# doc_sql TEST, PAGE, NAME, OLD => NEW...: doc_block's text with each OLD
# replaced by NEW (a port, a server's name, the shards of another writer), for
# a test that runs the page's block on its own servers; dies when the block is
# missing or no longer holds an OLD, so a page and its test cannot drift apart.
sub doc_sql
{
	my ($test, $page, $name, @replace) = @_;
	my $text = doc_block($test, $page, $name);
	die "$page has no block marked <!-- run by $test: $name -->\n" if $text eq '';
	while (my ($old, $new) = splice(@replace, 0, 2))
	{
		die "$page: its block $name no longer holds '$old', which $test replaces\n"
		  if index($text, $old) < 0;
		$text =~ s/\Q$old\E/$new/g;
	}
	return $text;
}

# doc_blocks_ok NODE, DB, TEST, PAGE, NAME[, user => ROLE]: runs PAGE's blocks
# marked "<!-- run by TEST: NAME -->" on NODE's DB (readme_sql.py --marked), as
# ROLE when given, the results they show compared, as checks.
sub doc_blocks_ok
{
	my ($node, $db, $test, $page, $name, %opt) = @_;
	local %ENV = (%ENV, $node->client_env($db, $opt{user}));
	verdicts("$page: $name", '/usr/bin/python3', repo_dir() . '/test/lib/readme_sql.py',
		'--marked', $test, '--name', $name, repo_dir() . "/$page");
	return;
}

# run_status [COMMAND...], env => {NAME => VALUE or undef to unset}, init => CODE:
# (exit status, stdout, stderr) of a program that needs no server (build
# checks, the suite's own tools), outputs without trailing newlines as the
# shell's $(...) gives them; init runs in the child before exec (IPC::Run's).
sub run_status
{
	my ($command, %opt) = @_;
	local %ENV = %ENV;
	while (my ($name, $value) = each %{ $opt{env} // {} })
	{
		if (defined $value) { $ENV{$name} = $value; }
		else { delete $ENV{$name}; }
	}
	my ($out, $err) = ('', '');
	my @init = $opt{init} ? (init => $opt{init}) : ();
	my $started = eval { IPC::Run::run($command, @init, '<', \'', '>', \$out, '2>', \$err); 1 };
	# a signal is 128 + its number, as the shell says
	my $status = !$started ? 127 : ($? & 127) ? 128 + ($? & 127) : $? >> 8;
	$err .= $@ unless $started;
	s/\n+\z// for $out, $err;
	return ($status, $out, $err);
}

# mint_concurrently NODE DB SQL_OF [ENV]: runs SQL_OF->(session) for each of
# SESSIONS sessions at once, each in its own psql; returns the number of
# sessions that failed (their errors go to the test's log).
sub mint_concurrently
{
	my ($node, $db, $sql_of, %opt) = @_;
	my $sessions = $opt{sessions} // sizes()->{SESSIONS};
	local %ENV = (%ENV, %{ $opt{env} // {} });
	my @runs;
	for my $s (1 .. $sessions)
	{
		my ($out, $err) = ('', '');
		my $h = IPC::Run::start(
			[
				'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1',
				'-d', $node->connstr($db), '-c', $sql_of->($s)
			],
			'>', \$out, '2>', \$err);
		push @runs, [ $h, \$err, $s ];
	}
	my $failed = 0;
	for my $run (@runs)
	{
		my ($h, $err, $s) = @$run;
		next if $h->finish;
		$failed++;
		print "session $s failed: ${$err}\n";
	}
	return $failed;
}

# create_session_ids NODE DB TYPE: the unlogged table session_ids (id of TYPE
# as its primary key, session, n, and t0/t1, the clock before and after each
# call) that mint_timed_sessions fills and the order checks below read.
sub create_session_ids
{
	my ($node, $db, $type) = @_;
	$node->q(
		"CREATE UNLOGGED TABLE session_ids (
		     id $type PRIMARY KEY, session int, n int, t0 timestamptz, t1 timestamptz)",
		db => $db);
	return;
}

# mint_timed_sessions NODE DB CALL [ENV]: empties session_ids, then SESSIONS
# sessions at once each insert PER_SESSION values of CALL with the clock read
# around each; the number of sessions that failed (a duplicate would violate
# the primary key).
sub mint_timed_sessions
{
	my ($node, $db, $call, %opt) = @_;
	my $per_session = sizes()->{PER_SESSION};
	$node->q('TRUNCATE session_ids', db => $db);
	return mint_concurrently(
		$node, $db,
		sub {
			my ($s) = @_;
			"INSERT INTO session_ids
			 SELECT id, $s, n, t0, t1 FROM (
			     SELECT n, clock_timestamp() AS t0, $call AS id, clock_timestamp() AS t1
			     FROM generate_series(1, $per_session) n) minted";
		},
		%opt);
}

# not_increasing_per_session NODE DB: rows of session_ids (id, session, n, ...)
# whose id is not above the id the same session got just before.
sub not_increasing_per_session
{
	my ($node, $db) = @_;
	return $node->q(
		"SELECT count(*) FROM (
		     SELECT id <= lag(id) OVER (PARTITION BY session ORDER BY n) AS bad FROM session_ids) s
		 WHERE bad", db => $db);
}

# out_of_real_time_order NODE DB [GROUP_COLUMN]: rows of session_ids (id, t0,
# t1 = clock before and after the call) with a larger id returned (t1) before
# this one was requested (t0), within each GROUP_COLUMN value: what one shared
# counter forbids.
sub out_of_real_time_order
{
	my ($node, $db, $group) = @_;
	my $partition = $group ? "PARTITION BY $group" : '';
	return $node->q(
		"SELECT count(*) FROM (
		     SELECT t0, min(t1) OVER ($partition ORDER BY id DESC
		                              ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS min_t1_above
		     FROM session_ids) s
		 WHERE min_t1_above < t0", db => $db);
}

# memory_profile NODE DB FAMILY EXPR AGGREGATE [SETUP]: one session runs SETUP
# if given and warms up EXPR, then computes AGGREGATE over "id", MEMORY_CALLS
# calls of EXPR, in one statement, while test/lib/backend_memory.py samples
# its backend's memory and progress (idgen_stats.ids_minted of FAMILY).
# Returns (the aggregate's value, the sampler's summary, its status: 0 flat,
# 1 grew, 2 no usable measurement).
sub memory_profile
{
	my ($node, $db, $family, $expr, $aggregate, $setup) = @_;
	my $calls = sizes()->{MEMORY_CALLS};
	my $dir = PostgreSQL::Test::Utils::tempdir('memory');
	# generate_series in the target list streams its rows (in FROM it would
	# first store all of them); EXPR is volatile, so it runs for every row.
	my $series = "(SELECT generate_series(1, $calls)) g";
	my $warmup = '(SELECT generate_series(1, 1000)) g';
	my $script = join("\n",
		($setup ? "$setup;" : ()),
		"SELECT count(id) FROM (SELECT $expr AS id FROM $warmup) s \\g /dev/null",
		'SELECT sum(total_bytes) FROM pg_backend_memory_contexts \\g /dev/null',
		"SELECT sum(total_bytes) FROM pg_backend_memory_contexts \\g $dir/contexts_before",
		"SELECT pg_backend_pid() \\g $dir/pid",
		"\\! until [ -e $dir/go ]; do sleep 0.01; done",
		"SELECT $aggregate FROM (SELECT $expr AS id FROM $series) s \\g $dir/result",
		"SELECT sum(total_bytes) FROM pg_backend_memory_contexts \\g $dir/contexts_after",
		"\\! until [ -e $dir/done ]; do sleep 0.01; done",
		'');
	PostgreSQL::Test::Utils::append_to_file("$dir/session.sql", $script);
	my ($out, $err) = ('', '');
	my $session = IPC::Run::start(
		[
			'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db),
			'-f', "$dir/session.sql"
		],
		'<', \undef, '>', \$out, '2>', \$err);
	my $summary = '';
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	local $ENV{PGDATABASE} = $db;
	IPC::Run::run(
		[
			'/usr/bin/python3', repo_dir() . '/test/lib/backend_memory.py',
			'--dir', $dir, '--family', $family, '--calls', $calls,
			'--session-pid', $session->{KIDS}[0]{PID},
			'--label', $expr . ($setup ? " after $setup" : '')
		],
		'>', \$summary, '2>&1');
	my $status = $? >> 8;
	# An unusable measurement may leave the session waiting.
	for my $file ('go', 'done') { open my $fh, '>', "$dir/$file" or die $!; close $fh; }
	if (!$session->finish)
	{
		$summary .= join('', map { "session: $_\n" } split /\n/, $err);
		$status = 2;
	}
	my $result = -e "$dir/result" ? PostgreSQL::Test::Utils::slurp_file("$dir/result") : '';
	chomp $result;
	chomp $summary;
	return ($result, $summary, $status);
}

# check_memory_flat NODE DB FAMILY EXPR [SETUP]: after SETUP, MEMORY_CALLS
# calls of EXPR in one statement all happen, and the backend's memory stays
# flat after warm-up.
sub check_memory_flat
{
	my ($node, $db, $family, $expr, $setup) = @_;
	my $calls = sizes()->{MEMORY_CALLS};
	my $what = $expr . ($setup ? " after $setup" : '');
	my ($result, $summary, $status) =
	  memory_profile($node, $db, $family, $expr, 'count(id)', $setup);
	is($result, $calls, "$what: one statement makes $calls calls");
	is($status, 0,
		"$what: backend memory stays flat over $calls calls in one statement");
	note($summary);
	return;
}

# check_stats_follow_live_sessions NODE DB FAMILY CALL: three sessions each
# run CALL once and stay connected; idgen_stats must list them under FAMILY
# with one ID each, in shared memory, and forget them once they exit.
sub check_stats_follow_live_sessions
{
	my ($node, $db, $family, $call) = @_;
	my @sessions = map { $node->background_psql($db) } 1 .. 3;
	$_->query_safe("SELECT $call") for @sessions;
	is( $node->q(
			"SELECT count(*) FROM idgen_stats WHERE pid <> pg_backend_pid() AND family = '$family'
			     AND ids_minted = 1 AND shared_memory", db => $db),
		3,
		"idgen_stats lists the 3 live sessions that minted one $family each");
	$_->quit for @sessions;
	# A backend leaves idgen_stats as it exits, just after its client is gone.
	$node->poll_query_until($db,
		'SELECT count(*) = 0 FROM idgen_stats WHERE pid <> pg_backend_pid()');
	is($node->q('SELECT count(*) FROM idgen_stats WHERE pid <> pg_backend_pid()', db => $db),
		0, 'idgen_stats forgets sessions once they exit');
	return;
}

# A server for the tests: PostgreSQL::Test::Cluster with idgen's settings, a
# fake clock when asked, and a few query shortcuts.
package IdgenTest::Node;

use strict;
use warnings;

use parent -norequire, 'PostgreSQL::Test::Cluster';
# Imports nothing: Utils's command_ok, run_log... here would hide Cluster's
# methods of the same names ($node->command_ok would get $node as command).
use PostgreSQL::Test::Utils ();
use Test::More;

# IdgenTest::Node->create(NAME, %options): a new server, initialised and
# started. Options:
#   preload => 0        without shared_preload_libraries = 'idgen'
#   conf => [LINES]     more postgresql.conf lines
#   streaming => 1      allows streaming replication (for standbys)
#   fake_clock => 1     the server reads a clock that set_clock_offset moves
#   tcp => 1            listens on 127.0.0.1 too (tcp_connstr), for other servers
#   start => 0          initialised only
#   install_path => DIR another build's binaries (PostgreSQL::Test::Cluster's own option)
#   initdb => [ARGS]    more initdb arguments
sub create
{
	my ($class, $name, %opt) = @_;
	my $node = $class->new($name, $opt{install_path} ? (install_path => $opt{install_path}) : ());
	$node->init(allows_streaming => $opt{streaming} ? 1 : 0, $opt{initdb} ? (extra => $opt{initdb}) : ());
	$node->append_conf('postgresql.conf',
		join("\n",
			($opt{preload} // 1) ? "shared_preload_libraries = 'idgen'" : (),
			'fsync = off',
			'max_connections = 40',
			$opt{tcp} ? "listen_addresses = '127.0.0.1'" : (),
			@{ $opt{conf} // [] }));
	$node->use_fake_clock if $opt{fake_clock};
	$node->start if $opt{start} // 1;
	return $node;
}

# use_fake_clock: servers started from now on read a clock moved by
# set_clock_offset (libfaketime, preloaded into the server only).
sub use_fake_clock
{
	my ($self) = @_;
	my $lib = IdgenTest::faketime_lib()
	  or BAIL_OUT('libfaketime is not installed (Debian package faketime)');
	$self->{idgen_clock_file} = $self->basedir . '/clock-offset';
	$self->set_clock_offset('+0');
	$self->{idgen_env} = {
		LD_PRELOAD => $lib,
		FAKETIME_TIMESTAMP_FILE => $self->{idgen_clock_file},
		FAKETIME_NO_CACHE => 1,
		FAKETIME_DONT_FAKE_MONOTONIC => 1,
	};
	return;
}

# set_clock_offset OFFSET: moves the fake clock, e.g. "-30" (seconds) or "+0".
# Written beside the file and renamed over it: the server's processes read the
# file at every clock call (FAKETIME_NO_CACHE), and one that read it empty in
# the middle of a rewrite exited ("failed to parse FAKETIME timestamp", an
# empty specification: libfaketime 0.9.12 in PostgreSQL 19's root).
sub set_clock_offset
{
	my ($self, $offset) = @_;
	my $file = $self->{idgen_clock_file};
	IdgenTest::write_file("$file.new", "$offset\n");
	rename "$file.new", $file or die "rename $file.new: $!";
	return;
}

# start and restart: PostgreSQL::Test::Cluster's, with the fake clock's
# environment for the server when there is one.
sub start
{
	my ($self, @args) = @_;
	local %ENV = (%ENV, %{ $self->{idgen_env} // {} });
	return $self->SUPER::start(@args);
}

sub restart
{
	my ($self, @args) = @_;
	local %ENV = (%ENV, %{ $self->{idgen_env} // {} });
	return $self->SUPER::restart(@args);
}

# try_q SQL [db => NAME]: the result of SQL, or undef when it fails: an
# error, a refused connection, or 30 s without an answer (a server stuck
# mid-shutdown). For polls across a crash restart or a failover: psql() dies
# of the broken pipe when psql, refused, exits before reading its script.
sub try_q
{
	my ($self, $sql, %opt) = @_;
	my ($out, $err, $timed_out) = ('', '');
	my $ret = eval {
		$self->psql($opt{db} // 'postgres', $sql,
			stdout => \$out, stderr => \$err, timeout => 30, timed_out => \$timed_out);
	};
	return defined $ret && $ret == 0 ? $out : undef;
}

# poll_accepting [db => NAME]: true once the server answers a query again,
# false after the suite's timeout. After a crash restart the server refuses
# connections while it recovers, and poll_query_until, which writes its query
# to psql's standard input, dies of the broken pipe; here a refused
# connection is one more failed attempt.
sub poll_accepting
{
	my ($self, %opt) = @_;
	my $deadline = Time::HiRes::time() + $PostgreSQL::Test::Utils::timeout_default;
	while (Time::HiRes::time() < $deadline)
	{
		my $out = $self->try_q('SELECT 1', db => $opt{db});
		return 1 if defined $out && $out eq '1';
		Time::HiRes::sleep(0.1);
	}
	return 0;
}

# q SQL [db => NAME]: the result of SQL, unaligned without headers; dies on an
# error.
sub q
{
	my ($self, $sql, %opt) = @_;
	return $self->safe_psql($opt{db} // 'postgres', $sql);
}

# error SQL [db => NAME, user => ROLE]: "SQLSTATE: message" of the error SQL
# raises (as ROLE if given), or '' if it succeeds.
sub error
{
	my ($self, $sql, %opt) = @_;
	my ($out, $err) = ('', '');
	$self->psql($opt{db} // 'postgres', "\\set VERBOSITY verbose\n$sql",
		stdout => \$out, stderr => \$err, on_error_stop => 1,
		connstr => $self->connstr($opt{db} // 'postgres') . ($opt{user} ? " user=$opt{user}" : ''));
	return $err =~ /ERROR:\s+([0-9A-Z]{5}): (.*)/ ? "$1: $2" : '';
}

# run_sql SQL [db => NAME, user => ROLE, verbose => 1]: (psql's exit status,
# stdout, stderr) of SQL, stopping at an error without dying, for tests that
# read warnings, hints or a role's output; stderr lines lose psql's
# "psql:<stdin>:N: " prefix (they read as psql -c prints them), and a
# failure's stderr goes to the test's log.
sub run_sql
{
	my ($self, $sql, %opt) = @_;
	my $db = $opt{db} // 'postgres';
	my ($out, $err) = ('', '');
	my $status = $self->psql($db, $sql,
		stdout => \$out, stderr => \$err, on_error_stop => 1,
		connstr => $self->connstr($db) . ($opt{user} ? " user=$opt{user}" : ''),
		extra_params => [ '-v', 'VERBOSITY=' . ($opt{verbose} ? 'verbose' : 'default') ]);
	$err =~ s/^psql:<stdin>:\d+: //mg;
	print "run_sql: status $status for: $sql\n$err\n" if $status;
	return ($status, $out, $err);
}

# sql_ok SQL, NAME [db => NAME, user => ROLE]: a check that SQL runs without
# an error (bash's check NAME q SQL); the error is its diagnostic.
sub sql_ok
{
	my ($self, $sql, $name, %opt) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my ($status, $out, $err) = $self->run_sql($sql, %opt);
	return ok($status == 0, $name) || diag($err);
}

# output SQL [db => NAME, user => ROLE]: what SQL prints (run_sql's stdout),
# also when it fails, for a check that compares it: an error fails that check
# (its text in the test's log) instead of ending the test as q would.
sub output
{
	my ($self, $sql, %opt) = @_;
	return ($self->run_sql($sql, %opt))[1];
}

# tcp_connstr [DB, USER]: a libpq connection string to this server over TCP on
# 127.0.0.1 (created with tcp => 1), for what other servers or helpers dial
# (subscriptions, postgres_fdw, PL/Proxy, psycopg); as USER if given, else as
# the bootstrap superuser.
sub tcp_connstr
{
	my ($self, $db, $user) = @_;
	return sprintf('host=127.0.0.1 port=%d dbname=%s', $self->port, $db // 'postgres')
	  . (defined $user ? " user=$user" : '');
}

# fresh_database NAME: (re)creates database NAME with idgen.
sub fresh_database
{
	my ($self, $db) = @_;
	$self->q("DROP DATABASE IF EXISTS $db");
	$self->q("CREATE DATABASE $db");
	$self->q('CREATE EXTENSION idgen', db => $db);
	return $db;
}

# app_database NAME: (re)creates database NAME owned by a login role of the
# same name that is neither superuser nor CREATEROLE, without idgen, as an
# application's migrations meet it (idgen is trusted: the owner creates it);
# returns NAME. Connect as that role with client_env(NAME, NAME) or over TCP
# with tcp_connstr(NAME, NAME).
sub app_database
{
	my ($self, $db) = @_;
	$self->q("DROP DATABASE IF EXISTS $db");
	$self->q("DROP ROLE IF EXISTS $db");
	$self->q("CREATE ROLE $db LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE");
	$self->q("CREATE DATABASE $db OWNER $db");
	# From 15 on, public belongs to pg_database_owner: the owner may create there.
	return $db;
}

# client_env [DB, USER]: PGHOST/PGPORT/PGDATABASE (DB or postgres) and PGUSER
# if given, for helpers that connect through libpq's environment.
sub client_env
{
	my ($self, $db, $user) = @_;
	return (PGHOST => $self->host, PGPORT => $self->port, PGDATABASE => $db // 'postgres',
		defined $user ? (PGUSER => $user) : ());
}

# installcheck_ok DIR, NAME: a check that `make installcheck` in the source
# tree DIR (pg_regress alone: TAP_TESTS= as test/run-tests.sh runs it) passes
# against this server, every test of DIR's Makefile REGRESS counted; for the
# packaging and PGXN tests, whose server runs idgen as another route installed it.
sub installcheck_ok
{
	my ($self, $dir, $name) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my ($regress) = PostgreSQL::Test::Utils::slurp_file("$dir/Makefile") =~ /^REGRESS = (.*)$/m;
	my $expected = scalar(split ' ', $regress // '');
	my ($status, $out, $err) = IdgenTest::run_status(
		[ 'make', '-C', $dir, '-s', 'installcheck', 'TAP_TESTS=',
			'PG_CONFIG=' . ($ENV{PG_CONFIG} // 'pg_config') ],
		env => { $self->client_env });
	my $passed = () = $out =~ /^(test .*\.\.\. ok|ok [0-9]+ )/mg;
	my $failed = () = $out =~ /^(test .*\.\.\. FAILED|not ok [0-9]+ )/mg;
	my $ok = is("$status passed=$passed failed=$failed", "0 passed=$expected failed=0", $name);
	if (!$ok)
	{
		my @lines = split /\n/, "$out\n$err";
		diag(join("\n", @lines > 30 ? @lines[ -30 .. -1 ] : @lines));
		diag(join("\n", grep { defined } (split /\n/, PostgreSQL::Test::Utils::slurp_file("$dir/regression.diffs"))[ 0 .. 59 ]))
		  if -f "$dir/regression.diffs";
	}
	return $ok;
}


# lease_end KIND: the end of the snowflake or clock lease in the data
# directory: the largest its slot files (idgen_KIND.lease, .1, .2, .3) hold.
sub lease_end
{
	my ($self, $kind) = @_;
	my $end = 0;
	for my $file (map { $self->data_dir . "/idgen_$kind.lease$_" } '', '.1', '.2', '.3')
	{
		next unless -f $file;
		my ($ms) = PostgreSQL::Test::Utils::slurp_file($file) =~ /\n0*(\d+)\n\z/
		  or die "$file holds no lease";
		$end = $ms if $ms > $end;
	}
	return $end;
}

# psql_to_file NAME SQL [db => NAME, user => ROLE, on_error_stop => 0,
# verbose => 0, timeout => SECONDS]: a psql session (application_name NAME)
# running SQL in the background from a file, one statement at a time,
# stopping at the first error unless on_error_stop => 0, with verbose error
# messages unless verbose => 0. Its output, standard output and error
# together, goes to a file, so that no pipe fills up while the test does
# something else; its harness is killed after SECONDS (default 60). Returns an
# IdgenTest::Session.
sub psql_to_file
{
	my ($self, $name, $sql, %opt) = @_;
	my $dir = $self->basedir . '/sessions';
	mkdir $dir;
	IdgenTest::write_file("$dir/$name.sql", $sql);
	my $db = $opt{db} // 'postgres';
	my $h = IPC::Run::start(
		[
			'psql', '-XAtq',
			($opt{on_error_stop} // 1) ? ('-v', 'ON_ERROR_STOP=1') : (),
			($opt{verbose} // 1) ? ('-v', 'VERBOSITY=verbose') : (),
			'-d', $self->connstr($db) . ($opt{user} ? " user=$opt{user}" : '') . " application_name=$name",
			'-f', "$dir/$name.sql"
		],
		'<', \undef, '>&', "$dir/$name.out",
		IPC::Run::timeout($opt{timeout} // 60));
	return bless { h => $h, name => $name, out_file => "$dir/$name.out", started => Time::HiRes::time() },
	  'IdgenTest::Session';
}

package IdgenTest::Session;

use strict;
use warnings;

# finish: waits for the session to end; the seconds since it started, or
# undef when its harness timed out (the psql is then killed; its backend may
# stay). The output is then in ->output.
sub finish
{
	my ($self) = @_;
	my $ok = eval { $self->{h}->finish; 1 };
	eval { $self->{h}->kill_kill } unless $ok;
	$self->{took} = $ok ? Time::HiRes::time() - $self->{started} : undef;
	return $self->{took};
}

# output: what the session printed so far (all of it once finished).
sub output
{
	my ($self) = @_;
	return -f $self->{out_file} ? PostgreSQL::Test::Utils::slurp_file($self->{out_file}) : '';
}

1;
