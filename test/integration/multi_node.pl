# idgen on several servers (issue 15): 3 writers whose clocks run at different
# libfaketime offsets (-40 ms, 0, +60 ms) and 1 consolidating server, on
# 127.0.0.1. Each writer claims its own snowflake shards (idgen_claim_shards)
# and mints, under pgbench, into tables keyed by snowflake(), uuid_v7(), ulid()
# and a prefixed_id_define() type; core logical replication brings every row
# to the consolidator. Checks (test/lib/multi_node.py measures and judges):
#  1. steady load: 0 apply errors, every row arrives, every snowflake decodes
#     to a shard its writer owns, no ID repeats across writers, and ORDER BY id
#     inverts real insertion time by at most the writers' clock spread + 50 ms;
#  2. the guard: a 4th writer claims writer 1's shard and mints; its
#     subscription stops at the claim with the trigger's 23505, and none of its
#     rows reaches the consolidator;
#  3. failover: writer 2 is killed with kill -9 under load, restarted with its
#     clock 5 s back; its IDs resume above every ID it issued before (the
#     leases), and replication catches up with no error but the lost connection.
# MULTI_NODE_BREAK breaks one thing on purpose, to show that checks fail:
# trigger (the guard's trigger disabled on the consolidator), noclaim (the 4th
# writer mints without claiming), skew (writer 3's clock runs 400 ms ahead, not
# the 60 ms stated), lease (writer 2's lease files and WAL are thrown away
# before its restart), apply (a real apply error in the failover: the
# consolidator refuses writer 2's rows after its restart with a unique
# violation until the error is logged, then takes them).
use strict;
use warnings;
use Cwd ();
use IdgenTest;
use IPC::Run ();
use PostgreSQL::Test::Utils;
use Test::More;

ok(system('/usr/bin/python3', '-c', 'import psycopg') == 0, "Debian's python3-psycopg is installed")
  or BAIL_OUT("Debian's python3-psycopg is not installed");
my $break = $ENV{MULTI_NODE_BREAK} // '';

# Load: pgbench clients per writer, seconds of steady load, transactions per
# second per writer (5 rows each). IDGEN_SOAK=1 runs longer and faster.
my $clients = 3;
my ($seconds, $rate) = ($ENV{IDGEN_SOAK} // 0) eq '1' ? (120, 400) : (30, 150);
my $margin_ms = 50;

my %offset = (w1 => -40, w2 => 0, w3 => 60, w4 => 0);
my %shards = (w1 => '10-19', w2 => '20-29', w3 => '30-39', w4 => '10');
my $actual_offset_w3 = $break eq 'skew' ? 400 : $offset{w3};

my $dir = PostgreSQL::Test::Utils::tempdir('multi_node');
# The servers' log lines as multi_node.py reads them (backend type before the
# level); log_statement = none: PostgreSQL::Test::Cluster logs every statement,
# which under pgbench would be thousands of lines a second.
my @common_conf = ("log_line_prefix = '%m [%p] %b: '", 'log_statement = none');
my @writer_conf = ('wal_level = logical', 'max_wal_senders = 10', 'max_replication_slots = 10');

# clock_offset MS: libfaketime's offset for a clock MS milliseconds off, in seconds.
sub clock_offset { return sprintf('%+.3f', $_[0] / 1000); }

# start_writer NAME OFFSET_MS: a writer on 127.0.0.1 whose clock runs
# OFFSET_MS off and whose idgen.shard_id is the first of its shards.
sub start_writer
{
	my ($n, $offset_ms) = @_;
	my ($first) = $shards{$n} =~ /^(\d+)/;
	my $node = IdgenTest::Node->create(
		$n,
		tcp => 1,
		fake_clock => 1,
		start => 0,
		conf => [
			@common_conf, @writer_conf,
			"cluster_name = '$n'", "idgen.shard_id = $first",
			"idgen.allowed_shards = '$shards{$n}'"
		]);
	$node->set_clock_offset(clock_offset($offset_ms));
	$node->start;
	return $node;
}

# The schema every node has: the consolidator's copy receives the rows. Each
# row records its writer and clock_timestamp() after its ID.
my $schema = "CREATE EXTENSION idgen;
SELECT prefixed_id_define('order_id', 'ord');
CREATE TABLE sf_ids (id bigint PRIMARY KEY DEFAULT snowflake(), run int NOT NULL,
    writer text NOT NULL DEFAULT current_setting('cluster_name'), t timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE uuid_ids (id uuid PRIMARY KEY DEFAULT uuid_v7(), run int NOT NULL,
    writer text NOT NULL DEFAULT current_setting('cluster_name'), t timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE ulid_ids (id ulid PRIMARY KEY DEFAULT ulid(), run int NOT NULL,
    writer text NOT NULL DEFAULT current_setting('cluster_name'), t timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE order_ids (id order_id PRIMARY KEY, run int NOT NULL,
    writer text NOT NULL DEFAULT current_setting('cluster_name'), t timestamptz NOT NULL DEFAULT clock_timestamp());";
# The manual's set-up (docs/multi-server.md, "Logical replication to a
# consolidating server"): its blocks marked "<!-- run by
# test/integration/multi_node.pl: NAME -->" are what the test runs, on its own
# ports and writers (IdgenTest's doc_block and doc_sql, through readme_sql.py).
my $page = 'docs/multi-server.md';
my $this = 'test/integration/multi_node.pl';
# page_sql NAME, OLD => NEW...: the page's block NAME, OLD replaced by NEW.
sub page_sql { return doc_sql($this, $page, @_); }
# page_query NAME: the page's one query of block NAME, as a subquery (no
# comments, no semicolon).
sub page_query { return page_sql(@_) =~ s/^\s*--.*$//mgr =~ s/;\s*\z//r; }
my $publication = page_sql('publication');

# One pgbench transaction: a row per table, two of them snowflakes (the
# session's idgen.shard_id, and a shard of the writer's list).
append_to_file("$dir/load.sql", <<'SQL');
\set shard random(:lo, :hi)
BEGIN;
INSERT INTO sf_ids (run) VALUES (:run);
INSERT INTO sf_ids (id, run) VALUES (snowflake(:shard), :run);
INSERT INTO uuid_ids (run) VALUES (:run);
INSERT INTO ulid_ids (run) VALUES (:run);
INSERT INTO order_ids (run) VALUES (:run);
COMMIT;
SQL

my %node;

# load NODE RUN SECONDS: pgbench on NODE, started in the background (finish
# the handle it returns), its log in DIR/pgbench-NODE-RUN.log.
sub load
{
	my ($n, $run, $secs) = @_;
	my ($lo, $hi) = $shards{$n} =~ /^(\d+)-(\d+)$/;
	return IPC::Run::start(
		[
			'pgbench', '-n', '-c', $clients, '-j', 1, '-T', $secs, '-R', $rate,
			'-f', "$dir/load.sql", '-D', "run=$run", '-D', "lo=$lo", '-D', "hi=$hi",
			'-h', $node{$n}->host, '-p', $node{$n}->port, 'postgres'
		],
		'<', \undef, '>', "$dir/pgbench-$n-$run.log", '2>&1');
}

# pgbench_log NODE RUN: what that pgbench printed.
sub pgbench_log { return slurp_file("$dir/pgbench-$_[0]-$_[1].log"); }

# ran_clean LOG: pgbench committed transactions and none failed.
sub ran_clean
{
	my ($log) = @_;
	return $log =~ /^number of failed transactions: 0 /m
	  && $log =~ /^number of transactions actually processed: [1-9]/m;
}

# judge ARGS...: the verdicts of test/lib/multi_node.py as checks. Its waits
# (catch-up, the guard's retried apply errors) end when their condition holds;
# the suite's timeout only bounds a run where it never does.
sub judge
{
	verdicts('multi_node.py', '/usr/bin/python3', repo_dir() . '/test/lib/multi_node.py',
		'--dir', $dir, '--timeout', $PostgreSQL::Test::Utils::timeout_default, @_);
	return;
}

# subscribe WRITER: the consolidator's subscription sub_WRITER, over TCP.
sub subscribe
{
	my ($w) = @_;
	# the page's subscription of w1 (over TCP as user postgres, as the test
	# runs), for writer $w on its port
	my $subscription = page_sql('subscription', 'sub_w1' => "sub_$w", 'port=5433' => 'port=' . $node{$w}->port);
	$node{c}->q("SET client_min_messages = warning;\n$subscription");
	return;
}

# all_ready: waits until every table of every subscription on the
# consolidator is ready (pg_subscription_rel lists each table from CREATE
# SUBSCRIPTION on, so none is missed), until the page's query "initial copy"
# returns no row; true if that happened in time.
sub all_ready
{
	return $node{c}->poll_query_until('postgres',
		'SELECT count(*) = 0 FROM (' . page_query('initial copy') . ') not_ready');
}

# processes_in DIR: the processes whose working directory is DIR (every
# process of a server works in its data directory).
sub processes_in
{
	my ($dir) = @_;
	my $real = Cwd::realpath($dir);
	return grep { (readlink("/proc/$_/cwd") // '') eq $real }
	  map { m{^/proc/(\d+)$} ? $1 : () } glob('/proc/[0-9]*');
}

# --- set-up ------------------------------------------------------------------
$node{w1} = start_writer('w1', $offset{w1});
$node{w2} = start_writer('w2', $offset{w2});
$node{w3} = start_writer('w3', $actual_offset_w3);
$node{c} = IdgenTest::Node->create(
	'c',
	tcp => 1,
	conf => [
		@common_conf, "cluster_name = 'c'",
		'max_logical_replication_workers = 8', 'max_worker_processes = 16',
		"wal_retrieve_retry_interval = '1s'"
	]);
for my $n (qw(w1 w2 w3 c))
{
	append_to_file("$dir/nodes.tsv",
		join("\t", $n, $node{$n}->port, $offset{$n} // '', $shards{$n} // '') . "\n");
}
$node{$_}->q($schema) for qw(w1 w2 w3 c);
judge(qw(clock w1 w2 w3 c));

# Subscribe first, claim next, then mint: a claim then travels before any row.
for my $n (qw(w1 w2 w3))
{
	$node{$n}->q($publication);
	subscribe($n);
}
ok(all_ready(), "the consolidator's subscriptions are ready (initial copy done)");
for my $n (qw(w1 w2 w3))
{
	# the page's claim of w1's shards, with the writer's own
	my @claimed = split /\n/, $node{$n}->q(page_sql('claim', "'10-19'" => "'$shards{$n}'"));
	is(scalar(@claimed), 10, "$n claims its 10 shards $shards{$n}");
}

# --- 1. steady load ----------------------------------------------------------
my @loads = map { load($_, 1, $seconds) } qw(w1 w2 w3);
$_->finish for @loads;
for my $n (qw(w1 w2 w3))
{
	my $log = pgbench_log($n, 1);
	ok(ran_clean($log), "pgbench on $n ran $seconds s without a failed transaction");
	note("$n: $_")
	  for grep { /^(number of transactions actually|tps|latency average)/ } split /\n/, $log;
}
judge(qw(catchup w1 w2 w3));
judge(qw(owned w1 w2 w3));
# The page's audit query on the consolidator: a row per writer and shard (30),
# and each of its shards one that the consolidator holds claimed by that writer.
doc_blocks_ok($node{c}, 'postgres', $this, $page, 'rows per writer and shard');
is( $node{c}->q(
		'SELECT count(*) FROM (' . page_query('rows per writer and shard') . ") a
		  WHERE NOT EXISTS (SELECT FROM idgen_shard_claim c
		                     WHERE c.family = 'snowflake' AND c.shard = a.shard AND c.server_name = a.writer)"),
	0,
	"the page's rows per writer and shard: each shard is claimed by its writer on the consolidator");
judge(qw(unique w1 w2 w3));
judge(qw(inversion w1 w2 w3 --run 1 --margin-ms), $margin_ms);
judge('errors', '--log', $node{c}->logfile, qw(--clean sub_w1 sub_w2 sub_w3));

# --- 2. the guard: a 4th writer misconfigured onto writer 1's shard 10 --------
$node{w4} = start_writer('w4', $offset{w4});
append_to_file("$dir/nodes.tsv", join("\t", 'w4', $node{w4}->port, 0, 10) . "\n");
$node{w4}->q("$schema\n$publication");
subscribe('w4');
ok(all_ready(), 'sub_w4 is ready');
$node{c}->q('ALTER TABLE idgen_shard_claim DISABLE TRIGGER idgen_shard_claim_check')
  if $break eq 'trigger';
if ($break ne 'noclaim')
{
	# Locally it succeeds: w4's own table knows nothing of writer 1.
	is($node{w4}->q("SELECT count(*) FROM idgen_claim_shards('10')"), 1, 'w4 claims shard 10 on itself');
}
for my $run (1 .. 5)
{
	$node{w4}->q(
		'INSERT INTO sf_ids (run) SELECT 4 FROM generate_series(1, 40);
		 INSERT INTO uuid_ids (run) SELECT 4 FROM generate_series(1, 40);
		 INSERT INTO ulid_ids (run) SELECT 4 FROM generate_series(1, 40);
		 INSERT INTO order_ids (run) SELECT 4 FROM generate_series(1, 40)');
}
judge('guard', '--log', $node{c}->logfile,
	qw(--writer w4 --holder w1 --subscription sub_w4 --shard 10));
my ($drop_out, $drop_err) = ('', '');
is( $node{c}->psql(
		'postgres',
		"ALTER SUBSCRIPTION sub_w4 DISABLE;
		 SET client_min_messages = warning;
		 DROP SUBSCRIPTION sub_w4",
		stdout => \$drop_out, stderr => \$drop_err),
	0,
	'sub_w4 is dropped') or diag($drop_err);
$node{w4}->stop('immediate');

# --- 3. failover: kill -9 writer 2 under load, restart it 5 s in the past -----
@loads = map { load($_, 2, 15) } qw(w1 w2 w3);
# w2's pgbench commits a transaction a few milliseconds after it starts.
$node{w2}->poll_query_until('postgres', 'SELECT count(*) > 0 FROM sf_ids WHERE run = 2');
my $pre = $node{w2}->q('SELECT count(*) FROM sf_ids WHERE run = 2');
$node{w2}->q('CHECKPOINT') if $break eq 'lease';    # what pg_resetwal below keeps
my $w2_data = $node{w2}->data_dir;
my ($postmaster) = split /\n/, slurp_file("$w2_data/postmaster.pid");
$node{w2}->kill9;
# The killed postmaster is reaped, and its backends, WAL senders and auxiliary
# processes exit as they notice its death; until then the server cannot start
# again (a new postmaster refuses while the old pid exists, even as a zombie).
my $gone = 0;
for (1 .. 10 * $PostgreSQL::Test::Utils::timeout_default)
{
	last if $gone = !kill(0, $postmaster) && !processes_in($w2_data);
	select(undef, undef, undef, 0.1);
}
note("w2's processes still there after the kill: " . join(' ', $postmaster, processes_in($w2_data)))
  unless $gone;
if ($break eq 'lease')
{
	# Crash recovery would rewrite the lease files from WAL: throw both away.
	unlink "$w2_data/idgen_snowflake.lease", "$w2_data/idgen_clock.lease", "$w2_data/postmaster.pid";
	PostgreSQL::Test::Utils::system_or_bail('pg_resetwal', '-f', '-D', $w2_data);
}
# (with its leases thrown away, 30 s back: well below every row that survives)
my $setback_ms = $break eq 'lease' ? 30000 : 5000;
$node{w2}->set_clock_offset(clock_offset($offset{w2} - $setback_ms));
ok($gone && $node{w2}->start(fail_ok => 1),
	'w2 restarts (crash recovery) with its clock ' . ($setback_ms / 1000) . ' s back');
judge(qw(clock w2 --expect), 'w2=' . ($offset{w2} - $setback_ms));
# What idgen.max_clock_regression (default 10 s) decides: the shards resume
# from the lease, up to 2 s ahead of the old clock, so 5 s back leaves a lead
# of at most 7 s: snowflake() mints at once, ahead of the clock. A bound below
# the lead refuses (55000) until the clock catches up. The lead shrinks as
# real time passes from the kill to this check (seconds on a loaded machine):
# the refusal is certain while w2's newest committed snowflake of shard 20,
# below where the shard resumes, is still more than the bound ahead.
my ($ret, $out, $err) = $node{w2}->psql('postgres',
	"SELECT round(extract(epoch FROM max(snowflake_time(id)) - clock_timestamp()) * 1000)
	 FROM sf_ids WHERE snowflake_shard(id) = 20;
	 SET idgen.max_clock_regression = '1s';
	 SELECT snowflake()");
my ($known_lead) = split /\n/, $out;
SKIP:
{
	note("w2's newest snowflake of shard 20 is " . ($known_lead // '(none)') . ' ms ahead of its clock');
	skip("w2's newest snowflake of shard 20 is no longer 1 s ahead of its clock "
		  . '(the restart took the lead): a 1 s bound need not refuse', 1)
	  unless ($known_lead // '') =~ /^-?[0-9]+$/ && $known_lead > 1000;
	like($err, qr/ERROR:  system clock is [0-9]+ ms behind snowflake shard 20/,
		"with idgen.max_clock_regression = 1s, snowflake() on w2 refuses: shard 20 is $known_lead ms or more ahead of its clock"
	);
}
my $log_offset = -s $node{c}->logfile;
$node{c}->q('CREATE UNIQUE INDEX sf_ids_w2_run_3 ON sf_ids (writer) WHERE run = 3') if $break eq 'apply';
push @loads, load('w2', 3, 8);
$_->finish for @loads;
if ($break eq 'apply')
{
	$node{c}->wait_for_log(qr/unique (index|constraint) "sf_ids_w2_run_3"/, $log_offset);
	$node{c}->q('DROP INDEX sf_ids_w2_run_3');
}
cmp_ok($pre, '>', 0, "w2 had committed rows of run 2 before the kill ($pre)");
my $log = pgbench_log('w2', 3);
ok(ran_clean($log), 'pgbench on w2 after the restart ran without a failed transaction');
note("w2 after the restart: $_") for grep { /^number of transactions actually/ } split /\n/, $log;
my $lead = $node{w2}->q(
	'SELECT round(extract(epoch FROM snowflake_time(min(id)) - min(t)) * 1000) FROM sf_ids WHERE run = 3');
note("w2's first snowflake after the restart ran $lead ms ahead of its clock");
# No duplicate: every ID w2 minted after the restart is above every ID it
# minted before (per shard for snowflakes), in all four families.
is( $node{w2}->q(
		'SELECT count(*) FROM (SELECT snowflake_shard(id) s, min(id) FILTER (WHERE run = 3) a,
		                              max(id) FILTER (WHERE run < 3) b FROM sf_ids GROUP BY 1) x
		 WHERE a <= b'),
	0,
	"w2's snowflakes after the restart are above its earlier ones on every shard");
for my $t (qw(uuid_ids ulid_ids order_ids))
{
	is( $node{w2}->q(
			"SELECT (SELECT id FROM $t WHERE run = 3 ORDER BY id LIMIT 1)
			      > (SELECT id FROM $t WHERE run < 3 ORDER BY id DESC LIMIT 1)"),
		't',
		"w2's $t after the restart are above its earlier ones");
}
judge(qw(catchup w1 w2 w3));
judge(qw(owned w1 w2 w3));
judge(qw(unique w1 w2 w3));
judge('errors', '--log', $node{c}->logfile,
	qw(--clean sub_w1 sub_w3 --connection-only sub_w2 --ignore sub_w4));

done_testing();
