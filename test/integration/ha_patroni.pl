# idgen under Patroni (issue 24): one etcd member and three Patroni members on
# 127.0.0.1 (Debian 12's patroni 3.0.2 and etcd-server 3.4.23, PostgreSQL 15),
# run as the cluster owner (test/lib/IdgenTest/Patroni.pm), idgen in
# shared_preload_libraries through Patroni's configuration, synchronous_mode,
# use_pg_rewind. Clients (test/lib/ha_patroni.py load) insert rows keyed by
# snowflake(), snowflake53(), uuid_v7(), ulid() and a prefixed type through a
# multi-host connection string with target_session_attrs=read-write,
# reconnecting when their connection breaks. Under that load:
#  1. a planned switchover (patronictl switchover);
#  2. a failover: kill -9 of the leader's postmaster (primary_start_timeout: 0,
#     so Patroni fails over instead of restarting it in place);
#  3. a failover to a member whose clock runs 40 s behind (libfaketime, more
#     than the whole load lasts).
# After each: a new leader within the bound, every client committing on it,
# and (test/lib/ha_patroni.py judge, at the end) every committed row present
# once, no duplicate ID in any family, every snowflake minted after the event
# above every one minted before it; the old leader rejoins as a streaming
# replica (rewound by pg_rewind where it had diverged) without a manual step.
# Before the load: a fourth member whose configuration lacks idgen in
# shared_preload_libraries stops at the first lease record it replays.
#
# Root's part (the packages' system services disabled, the packages installed
# if missing) is test/lib/prepare/ha_patroni.sh. A failed prerequisite does not
# end the run: every check after it fails under its own name, saying why.
use strict;
use warnings;
use IdgenTest;
use IdgenTest::Patroni;
use IPC::Run ();
use JSON::PP ();
use POSIX ();
use Test::More;
use Time::HiRes qw(time sleep);

my $timeout = $PostgreSQL::Test::Utils::timeout_default;
my $started = time;

my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
chomp(my $version = `$pg_config --version`);
if ($version !~ /^PostgreSQL 15\.\S* \(Debian /)
{
  SKIP:
	{
		skip "measured on Debian's PostgreSQL 15 only: Debian 12's patroni 3.0.2 is not tried with $version ($pg_config)",
		  1;
	}
	done_testing();
	exit 0;
}

our $cannot;    # why the checks from here on cannot run: a prerequisite failed

# checked NAME CODE: a check that passes when CODE returns true; once a
# prerequisite has failed ($cannot says which), NAME fails without running
# CODE. A CODE that dies fails the check too.
sub checked
{
	my ($name, $code) = @_;
	if (defined $cannot)
	{
		fail($name);
		diag("not run: $cannot");
		return 0;
	}
	my $passed;
	eval { $passed = $code->(); 1 } or diag("died: $@");
	return ok($passed, $name);
}

# checked_is NAME CODE EXPECTED: the same, for the value CODE returns.
sub checked_is
{
	my ($name, $code, $expected) = @_;
	if (defined $cannot)
	{
		fail($name);
		diag("not run: $cannot");
		return 0;
	}
	my $got;
	eval { $got = $code->(); 1 } or diag("died: $@");
	return is($got, $expected, $name);
}

# tail FILE N: the last N lines of FILE ('' if it is absent).
sub tail
{
	my ($file, $n) = @_;
	return '' unless -r $file;
	my @lines = split /\n/, PostgreSQL::Test::Utils::slurp_file($file);
	return join("\n", @lines > $n ? @lines[ -$n .. -1 ] : @lines);
}

# --- prerequisites --------------------------------------------------------------
my ($prepare_status, $prepare_log) = prepared();
SKIP:
{
	skip 'no root preparation ran (a run by hand: run test/lib/prepare/ha_patroni.sh as root first)', 1
	  if $prepare_status eq 'none';
	is($prepare_status, 0,
		'test/lib/prepare/ha_patroni.sh (as root: patroni and etcd-server installed, their services disabled) succeeds'
	) or diag($prepare_log);
}
my $have_packages = -x '/usr/bin/patroni' && -x '/usr/bin/patronictl' && -x '/usr/bin/etcd';
ok($have_packages, 'patroni and etcd are installed (packages patroni, etcd-server)')
  or $cannot //= 'patroni or etcd is not installed';
ok(faketime_lib(), 'libfaketime is installed (package faketime)')
  or $cannot //= 'libfaketime is not installed';

# enabled_services: the etcd or patroni system services still enabled.
sub enabled_services
{
	my %seen;
	my @rc = grep { /^S\d+(etcd|patroni)$/ } map { s{.*/}{}r } glob('/etc/rc[2-5].d/*');
	my @systemd =
	  grep { /^(etcd|patroni)(@.*)?\.service$/ } map { s{.*/}{}r } glob('/etc/systemd/system/*.wants/*');
	return join(' ', grep { !$seen{$_}++ } sort(@rc, @systemd));
}
# This test runs its own etcd and Patroni on ports of its own, and leaves none behind.
is(enabled_services(), '', 'no etcd or patroni system service is left enabled by the packages');

# --- the cluster's configuration: the manual's -------------------------------
# docs/operations.md, "High availability with Patroni", shows the lines of
# patroni.yml that matter (its first ```yaml block, bootstrap.dcs): every
# member gets them as the page has them, with the test's own timings and
# sizes added, none of which the page sets.
my $page = 'docs/operations.md';
my %own_dcs = (
	ttl => 10,
	loop_wait => 1,
	retry_timeout => 3,
	postgresql => {
		use_slots => JSON::PP::true,
		parameters => { fsync => 'off', max_connections => 40, wal_keep_size => '256MB' },
	});

# page_dcs: bootstrap.dcs of the page's patroni.yml block (python3's yaml),
# or undef.
sub page_dcs
{
	my ($out, $err) = ('', '');
	my $program = <<'PY';
import json, re, sys, yaml
text = open(sys.argv[1], encoding="utf-8").read()
section = re.search(r"^## High availability with Patroni\n(.*?)(?=^## )", text, re.M | re.S).group(1)
block = re.search(r"^```yaml\n(.*?)^```$", section, re.M | re.S).group(1)
print(json.dumps(yaml.safe_load(block)["bootstrap"]["dcs"]))
PY
	IPC::Run::run([ '/usr/bin/python3', '-c', $program, repo_dir() . "/$page" ], '>', \$out, '2>', \$err)
	  or return (undef, $err);
	return (JSON::PP->new->decode($out), '');
}

# merged A B: hash B over hash A, recursively; the keys both set, as "a.b.c".
sub merged
{
	my ($a, $b, $prefix) = @_;
	my %m = %$a;
	my @both;
	for my $k (sort keys %$b)
	{
		if (ref $m{$k} eq 'HASH' && ref $b->{$k} eq 'HASH')
		{
			my ($sub, @sub_both) = merged($m{$k}, $b->{$k}, ($prefix // '') . "$k.");
			$m{$k} = $sub;
			push @both, @sub_both;
		}
		else
		{
			push @both, ($prefix // '') . $k if exists $m{$k};
			$m{$k} = $b->{$k};
		}
	}
	return (\%m, @both);
}

my ($page_dcs, $page_err) = page_dcs();
ok(ref $page_dcs eq 'HASH', "$page shows a patroni.yml block with bootstrap.dcs (Patroni section)")
  or (diag($page_err), $cannot //= "${page}'s patroni.yml block could not be read");
$page_dcs = {} unless ref $page_dcs eq 'HASH';
# What idgen needs of Patroni, and what the checks below rely on: the page
# must set each (and the test then uses its values).
my %idgen_keys = (
	'synchronous_mode' => 'true',
	'primary_start_timeout' => '0',
	'postgresql.use_pg_rewind' => 'true',
	'postgresql.parameters.shared_preload_libraries' => 'idgen',
	'postgresql.parameters.idgen.shard_id' => '1',
	'postgresql.parameters.idgen.max_clock_regression' => '90s',
	'postgresql.parameters.wal_log_hints' => 'on');
my %page_flat;
{
	my @todo = map { [ $_, $page_dcs->{$_} ] } keys %$page_dcs;
	while (my $kv = shift @todo)
	{
		my ($k, $v) = @$kv;
		# parameters' names hold dots: flatten only Patroni's own sections
		if (ref $v eq 'HASH') { push @todo, map { [ "$k.$_", $v->{$_} ] } keys %$v; }
		else { $page_flat{$k} = JSON::PP::is_bool($v) ? ($v ? 'true' : 'false') : "$v"; }
	}
}
is( join(', ',
		map { "$_: " . ($page_flat{$_} // 'missing') . " (the test's checks assume $idgen_keys{$_})" }
		  grep { ($page_flat{$_} // '') ne $idgen_keys{$_} } sort keys %idgen_keys),
	'',
	"${page}'s patroni.yml sets what idgen needs under Patroni, with the values the checks assume (synchronous_mode, primary_start_timeout, use_pg_rewind, shared_preload_libraries, idgen.shard_id, idgen.max_clock_regression, wal_log_hints)"
);
my ($dcs, @both) = merged(\%own_dcs, $page_dcs);
is(join(', ', @both), '', "the test's own settings (timings, sizes) override none of the page's: Patroni gets the page's block as it is");

# --- etcd ----------------------------------------------------------------------
my $ha = IdgenTest::Patroni->new(scope => 'idgen-ha', dcs => $dcs);
my $dir = $ha->dir;
my $etcd_port = defined $cannot ? '?' : $ha->start_etcd;
# etcd answers once it has elected itself, a second or two after it starts.
checked("etcd answers on 127.0.0.1:$etcd_port", sub { poll_until($timeout, sub { $ha->etcd_healthy }) })
  or ($cannot //= 'etcd did not answer', diag(tail($ha->log_file('etcd'), 20)));

# --- Patroni -------------------------------------------------------------------
my @members = qw(n1 n2 n3);
unless (defined $cannot)
{
	$ha->add_member($_, fake_clock => 1) for @members;
	$ha->start_member($_) for @members;
}
my $setup_start = time;
# One member initialises, takes the leader key and starts; the others clone it
# with pg_basebackup and stream. The 120 s are the check's bound.
unless (checked('a leader and two streaming replicas within 120 s', sub { poll_until(120, sub { $ha->ready(@members) }) }))
{
	$cannot //= 'the cluster did not come up';
	diag("$_:\n" . tail($ha->patroni_log($_), 20)) for grep { $ha->node($_) } @members;
}
unless (defined $cannot)
{
	note(sprintf('the cluster was ready %.2f s after Patroni started', time - $setup_start));
	note("member: $_") for $ha->members_text;
}
my $l0 = defined $cannot ? '?' : $ha->leader // '?';
checked_is("shared_preload_libraries from Patroni's configuration includes idgen on the leader",
	sub { $ha->query($l0, 'SHOW shared_preload_libraries') }, 'idgen');
checked(
	'the leader takes the schema (CREATE EXTENSION idgen, the order_id type, the table ha_rows)',
	sub {
		$ha->node($l0)->safe_psql(
			'postgres', q{
CREATE EXTENSION idgen;
SELECT prefixed_id_define('order_id', 'ord');
CREATE TABLE ha_rows (client int NOT NULL, seq int NOT NULL, tli int NOT NULL, sf bigint NOT NULL,
    sf53 bigint NOT NULL, u uuid NOT NULL, l ulid NOT NULL, p order_id NOT NULL,
    t timestamptz NOT NULL DEFAULT clock_timestamp());});
		1;
	}) or $cannot //= 'the schema could not be created on the leader';

# --- a replica configured without idgen in shared_preload_libraries -----------
# The operator's likely mistake: one member's own patroni.yml overrides the
# parameter and leaves idgen out. It clones and streams until the leader writes
# its first lease record (the first snowflake), then stops at that record.
unless (defined $cannot)
{
	$ha->add_member('n4', fake_clock => 1,
		parameters => { shared_preload_libraries => '' },
		tags => { map { ($_ => JSON::PP::true) } qw(nofailover nosync noloadbalance) });
	$ha->start_member('n4');
}
# n4 clones the leader with pg_basebackup, starts and connects to it.
checked("n4 (shared_preload_libraries = '' in its patroni.yml) clones and streams",
	sub { poll_until($timeout, sub { $ha->streaming('n4', $l0) }) });
checked_is('n4 runs without idgen', sub { $ha->query('n4', 'SHOW shared_preload_libraries') }, '');
$ha->query($l0, 'SELECT snowflake()') unless defined $cannot;
my $n4_log = defined $cannot ? '' : $ha->node('n4')->logfile;
# n4_log_has REGEX: n4's server log holds a line REGEX matches.
sub n4_log_has
{
	my ($regex) = @_;
	return -r $n4_log && $ha->node('n4')->log_contains($regex);
}
# n4 replays the lease record as soon as the leader's WAL reaches it.
checked("n4 stops at the first lease record: 'FATAL:  resource manager with ID 173 not registered'",
	sub { poll_until($timeout, sub { n4_log_has(qr/FATAL:  resource manager with ID 173 not registered/) }) });
unless (defined $cannot)
{
	my @lines = grep { /ID 173|HINT|CONTEXT|shutting down due/ } split /\n/,
	  (-r $n4_log ? PostgreSQL::Test::Utils::slurp_file($n4_log) : '');
	note("n4: $_") for @lines[ 0 .. ($#lines < 3 ? $#lines : 3) ];
}
checked('the log says what to do: include the module in shared_preload_libraries',
	sub { n4_log_has(qr/HINT:  Include the extension module that implements this resource manager in shared_preload_libraries\./) });
# The postmaster logs this once the failed startup process has exited, just
# after the FATAL above (the bash test looked once, a race).
checked("n4's server shuts down: 'shutting down due to startup process failure'",
	sub { poll_until($timeout, sub { n4_log_has(qr/LOG:  shutting down due to startup process failure/) }) });
checked('the leader and the two other replicas are unaffected', sub { $ha->ready(@members) });
# The cure: idgen in n4's shared_preload_libraries, and its Patroni restarted
# (stopped with whatever server it was restarting, then started).
unless (defined $cannot)
{
	$ha->stop_member('n4');
	$ha->set_member_parameters('n4', shared_preload_libraries => 'idgen');
	$ha->start_member('n4');
}
# n4's server starts again, with idgen, and reconnects to the leader.
checked('with idgen added to its patroni.yml and its Patroni restarted, n4 replays the lease record and streams again',
	sub { poll_until($timeout, sub { $ha->streaming('n4', $l0) }) });
$ha->stop_member('n4') unless defined $cannot;

# --- load and events -----------------------------------------------------------
my $clients = 4;
my $phase = 6;      # seconds of load before the first event, between events, after the last
my $bound = 30;     # seconds within which a new leader must accept writes
my $setback = 40;   # seconds the third event's new leader's clock runs behind (the whole load lasts less)
my $switchover = 'switchover';
my $rewind_event = "failover (kill -9 of the leader's postmaster, its last WAL never sent)";
my $clock_event = "failover to a server whose clock runs $setback s behind";
# connect_timeout: the clients reconnect in a loop, so a leader that is gone
# costs one 2 s attempt, not the client's whole run.
my $conninfo = join(' ',
	'host=' . join(',', ('127.0.0.1') x @members),
	'port=' . join(',', map { defined $cannot ? '?' : $ha->node($_)->port } @members),
	'user=' . getpwuid($<), 'dbname=postgres target_session_attrs=read-write connect_timeout=2');
my $ha_py = repo_dir() . '/test/lib/ha_patroni.py';
PostgreSQL::Test::Utils::append_to_file("$dir/events.tsv", '');
my $load_start = time;
my $load;
$load = $ha->spawn($ha->log_file('load'), '/usr/bin/python3', $ha_py, 'load', '--dir', $dir,
	'--conninfo', $conninfo, '--clients', $clients, '--seconds', 200, '--stop', "$dir/stop")
  unless defined $cannot;

# has_sync_standby: Patroni names a synchronous standby, and the leader's
# pg_stat_replication shows it as one.
sub has_sync_standby
{
	my ($l, $s) = ($ha->leader, $ha->sync_standby);
	return $l && $s
	  && ($ha->query($l, "SELECT sync_state FROM pg_stat_replication WHERE application_name = '$s'") // '')
	  eq 'sync';
}

# event NAME ACTION: runs ACTION->(OLD, NEW) against the leader and its
# synchronous standby, then checks that the standby became the leader within
# the bound and that the old leader streams from it again. Returns OLD and the
# length its Patroni log had before the event, or () when the event could
# not happen.
sub event
{
	my ($name, $action) = @_;
	local $cannot = $cannot;
	my ($old, $new);
	unless (defined $cannot)
	{
		# Patroni names a synchronous standby once a replica streams from the
		# leader: right away, or once the previous event's old leader is back.
		poll_until($timeout, \&has_sync_standby);
		($old, $new) = ($ha->leader, $ha->sync_standby);
	}
	checked("$name: a leader and a synchronous standby before the event", sub { $old && $new })
	  or ($cannot //= "$name could not happen: no leader and synchronous standby",
		diag('leader ' . ($old // '?') . ', synchronous standby ' . ($new // '?')));
	my $happened = !defined $cannot;
	($old, $new) = ('?', '?') unless $happened;
	my $offset = $happened ? -s $ha->patroni_log($old) // 0 : 0;
	my $t0 = time;
	PostgreSQL::Test::Utils::append_to_file("$dir/events.tsv", sprintf("%s\t%.6f\t%s\t%s\n", $name, $t0, $old, $new))
	  if $happened;
	$action->($old, $new);
	# Patroni promotes the synchronous standby: the bound is the check's.
	if (checked("$name: $new (the synchronous standby) leads and accepts writes within $bound s",
			sub { poll_until($bound, sub { $ha->writable($new) }) }))
	{
		note(sprintf("FIGURE %s: %s -> %s, Patroni's new leader accepted writes %.2f s after the event",
				$name, $old, $new, time - $t0));
		note("$name: synchronous_standby_names on $new then: '"
			  . ($ha->query($new, 'SHOW synchronous_standby_names') // '?') . "'");
	}
	# The old leader's Patroni restarts it as a replica of the new leader,
	# after pg_rewind where its WAL had gone past the new timeline's start.
	checked("$name: $old, the old leader, streams from $new again without a manual step",
		sub { poll_until($timeout, sub { $ha->streaming($old, $new) }) });
	return () unless $happened;
	note(sprintf('%s: %s is streaming again %.2f s after the event', $name, $old, time - $t0));
	my %seen;
	my $log = PostgreSQL::Test::Utils::slurp_file($ha->patroni_log($old), $offset);
	note("$name: ${old}'s Patroni: $_")
	  for grep { !$seen{$_}++ }
	  sort map { s/^[0-9-]+ [0-9:,]+ INFO: //r } grep { /pg_rewind|crash recovery|Local timeline/ } split /\n/, $log;
	# Load time before the next event (or the end), not a wait on anything.
	sleep $phase;
	return ($old, $offset);
}

# do_switchover OLD NEW: patronictl's planned switchover from OLD to NEW.
sub do_switchover
{
	my ($old, $new) = @_;
	return if defined $cannot;
	my ($status, $out, $err) = run_status(
		[
			'patronictl', '-c', $ha->config_file($old), 'switchover', '--leader', $old,
			'--candidate', $new, '--force'
		],
		env => { HOME => $dir });
	note("patronictl: $_") for $status ? split(/\n/, "$out\n$err") : ();
	return;
}

# kill_postmaster NAME: kill -9 of NAME's postmaster alone.
sub kill_postmaster
{
	my ($name) = @_;
	my $pid = $ha->server_pid($name) or return;    # never kill 0: that is this test's group
	kill 'KILL', $pid;
	return;
}

# diverge_and_kill OLD: OLD's WAL senders are stopped (SIGSTOP), OLD commits a
# transaction with synchronous_commit = local that no replica receives, and then
# its postmaster and WAL senders are killed: OLD's WAL has gone past the point
# where the new leader's timeline begins, so it can only rejoin through pg_rewind.
# Every other process of OLD is killed with them, as in a machine failure: a
# WAL sender stopped while it held SyncRepLock would otherwise leave the
# backends waiting for synchronous replication blocked on that lock for good,
# attached to OLD's shared memory, and OLD could never start again (seen once:
# "pre-existing shared memory block ... is still in use").
sub diverge_and_kill
{
	my ($old) = @_;
	return if defined $cannot;
	my @senders = split /\n/, $ha->query($old, 'SELECT pid FROM pg_stat_replication') // '';
	my $postmaster = $ha->server_pid($old) or return;    # never kill 0: that is this test's group
	kill 'STOP', @senders;
	$ha->query($old,
		'SET synchronous_commit = local; CREATE TABLE diverged AS SELECT g FROM generate_series(1, 1000) g');
	my (undef, $children) = run_status([ 'pgrep', '-P', $postmaster ]);
	kill 'KILL', $postmaster;
	kill 'KILL', @senders, split /\n/, $children;
	return;
}

# clock_behind NAME SECONDS: NAME's server clock is that far behind this one's.
sub clock_behind
{
	my ($name, $seconds) = @_;
	my $now = sprintf('%.6f', time);
	return ($ha->query($name,
			"SELECT abs(extract(epoch FROM clock_timestamp()) - $now + $seconds) < 1.5") // '') eq 't';
}

# set_back_and_kill OLD NEW: NEW's server clock is set back, then OLD's
# postmaster killed.
sub set_back_and_kill
{
	my ($old, $new) = @_;
	$ha->set_clock_offset($new, "-$setback") unless defined $cannot;
	# libfaketime rereads the offset file once its 1 s cache expires.
	checked("${new}'s server clock runs $setback s behind",
		sub { poll_until($timeout, sub { clock_behind($new, $setback) }) });
	kill_postmaster($old) unless defined $cannot;
	return;
}

# Load time before the first event, not a wait on anything.
sleep $phase unless defined $cannot;
event($switchover, \&do_switchover);
my ($rewound, $rewind_offset) = event($rewind_event, \&diverge_and_kill);
{
	local $cannot = $cannot // ($rewound ? undef : 'the failover did not happen');
	$rewound //= '?';
	checked("$rewind_event: Patroni ran pg_rewind on $rewound, with success",
		sub { PostgreSQL::Test::Utils::slurp_file($ha->patroni_log($rewound), $rewind_offset) =~ /pg_rewind exit code=0/ });
	checked_is("$rewind_event: the transaction $rewound alone had committed is gone from it",
		sub { $ha->query($rewound, "SELECT to_regclass('diverged') IS NULL") }, 't');
}
event($clock_event, \&set_back_and_kill);
PostgreSQL::Test::Utils::append_to_file("$dir/stop", '');
# A client whose statement never returns (a server wedged after a failure)
# would hold the run forever: the load gets 60 s to stop (each client looks at
# the stop file after each statement), then it is killed.
{
	local $cannot = $cannot // ($load ? undef : 'the load did not start');
	checked('every load client stops within 60 s of the stop file',
		sub { poll_until(60, sub { waitpid($load, POSIX::WNOHANG()) == $load }) })
	  or ($load and kill 'KILL', -$load);
}
note(sprintf('the load ran %.2f s', time - $load_start));
my $final = defined $cannot ? undef : $ha->leader;
my $not_run = $cannot // (defined $final ? undef : 'no leader at the end');
unless (defined $not_run)
{
	my $table = $ha->query($final, 'COPY (SELECT client, seq, tli, sf, sf53, u, l, p FROM ha_rows) TO STDOUT');
	if (defined $table)
	{
		PostgreSQL::Test::Utils::append_to_file("$dir/table.tsv", "$table\n");
	}
	else
	{
		$not_run = "the table could not be read on $final";
	}
}
verdicts(
	'ha_patroni.py', '/usr/bin/python3', $ha_py, 'judge',
	'--dir', $dir, '--clients', $clients, '--bound', $bound, '--window', 4,
	(map { ('--event', $_) } $switchover, $rewind_event, $clock_event),
	(defined $not_run ? ('--not-run', $not_run) : ()));
unless (defined $not_run)
{
	my $lead = $ha->query($final,
		"SELECT round(extract(epoch FROM snowflake_time(sf) - t)) FROM ha_rows
		 WHERE tli = (SELECT max(tli) FROM ha_rows) ORDER BY sf LIMIT 1") // '?';
	note("FIGURE the last leader's first snowflake carries a time $lead s ahead of its own clock (set $setback s back)");
	note("member at the end: $_") for $ha->members_text;
}
note(sprintf('ha_patroni.pl ran %.0f s before its teardown', time - $started));
$ha->teardown;

done_testing();
