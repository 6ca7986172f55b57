# idgen's WAL resource manager: the ID its lease records carry
# (idgen.wal_resource_manager_id, 173 by default), the older IDs it replays
# (idgen.replay_resource_manager_ids, '128' by default: releases up to 0.5.0),
# what the server says when another module holds one of them, the recovery of
# a base backup taken before the ID was changed, and the tools that read WAL:
# pg_walinspect, pg_waldump and logical decoding. The other module is
# test/lib/rmgr_squatter, a test module built here and preloaded by path.
use strict;
use warnings;
use File::Copy qw(copy);
use IPC::Run ();
use Time::HiRes qw(usleep);
use IdgenTest;
use Test::More;

# The test module, built against the server under test, never installed.
my $build_dir = PostgreSQL::Test::Utils::tempdir('rmgr_squatter');
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
for my $file (qw(rmgr_squatter.c Makefile))
{
	copy(repo_dir() . "/test/lib/rmgr_squatter/$file", "$build_dir/$file")
	  or die "copy $file: $!";
}
my $build_log = '';
ok( IPC::Run::run(
		[ 'make', '-s', '-C', $build_dir, "PG_CONFIG=$pg_config" ],
		'>', \$build_log, '2>&1'),
	'test/lib/rmgr_squatter builds against the server under test')
  or (diag($build_log), BAIL_OUT("rmgr_squatter does not build against $pg_config"));
my $squatter = "$build_dir/rmgr_squatter.so";

# start_with NODE SHOW CONF-LINES...: starts the stopped NODE with CONF-LINES
# added to its settings for this one start; returns whether it started, where
# this start's lines begin in the server log, and, if it started, the value
# of setting SHOW it runs with. The server is stopped again and the settings
# are put back.
sub start_with
{
	my ($node, $show, @lines) = @_;
	my $conf = $node->data_dir . '/postgresql.conf';
	my $kept = PostgreSQL::Test::Utils::slurp_file($conf);
	$node->append_conf('postgresql.conf', join("\n", @lines));
	my $log_offset = -s $node->logfile;
	my $started = $node->start(fail_ok => 1);
	my $value;
	if ($started)
	{
		$value = $node->q("SHOW $show");
		$node->stop('immediate');
	}
	open my $fh, '>', $conf or die "write $conf: $!";
	print $fh $kept;
	close $fh or die "write $conf: $!";
	return ($started, $log_offset, $value);
}

# logged NODE OFFSET TEXT: NODE's server log holds TEXT after OFFSET.
sub logged
{
	my ($node, $offset, $text) = @_;
	return $node->log_contains(qr/\Q$text\E/, $offset) ? 1 : 0;
}

# 1. The defaults, and where the records show.
my $main = IdgenTest::Node->create('main',
	conf => [ 'wal_level = logical', 'max_replication_slots = 4' ]);
is($main->q('SHOW idgen.wal_resource_manager_id'), 173,
	'idgen.wal_resource_manager_id is 173 by default');
is($main->q('SHOW idgen.replay_resource_manager_ids'), 128,
	"idgen.replay_resource_manager_ids is '128' by default");
ok(logged($main, 0, 'registered custom resource manager "idgen_replay_128" with ID 128'),
	'the server log names both registrations');
ok(logged($main, 0, 'registered custom resource manager "idgen" with ID 173'),
	'... the one idgen writes under 173');

$main->q('CREATE EXTENSION idgen; CREATE EXTENSION pg_walinspect');
$main->q(
	'CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake(3), u uuid DEFAULT uuid_v7(), note text)');
my $start_lsn = $main->q('SELECT pg_current_wal_insert_lsn()');
$main->q("SELECT pg_create_logical_replication_slot('idgen_slot', 'test_decoding')");
$main->q("INSERT INTO events (note) SELECT 'row ' || g FROM generate_series(1, 100) g");
my $end_lsn = $main->q('SELECT pg_current_wal_insert_lsn()');

my $walinspect = $main->q(
	"SELECT resource_manager || ' ' || record_type || ' ' || description
	 FROM pg_get_wal_records_info('$start_lsn', '$end_lsn')
	 WHERE resource_manager LIKE 'idgen%' ORDER BY start_lsn");
like($walinspect, qr/^idgen SNOWFLAKE_LEASE end [0-9]+ ms$/m,
	'pg_walinspect names a snowflake lease record of resource manager idgen');
like($walinspect, qr/^idgen CLOCK_LEASE end [0-9]+ ms$/m, '... and a clock lease record');
my @snowflake_ends = $walinspect =~ /^idgen SNOWFLAKE_LEASE end ([0-9]+) ms$/mg;
my $snowflake_end = $snowflake_ends[-1] // 0;
is($main->q("SELECT max(id) >> 23 < $snowflake_end FROM events"),
	't', "the snowflake lease record's end lies above every ID minted under it");

# pg_waldump cannot load idgen, so it prints the records as custom173.
my $segment = $main->q("SELECT pg_walfile_name('$start_lsn')");
my $waldump = '';
IPC::Run::run(
	[
		'pg_waldump', '-p', $main->data_dir . '/pg_wal',
		'-s', $start_lsn, '-e', $end_lsn
	],
	'>', \$waldump, '2>&1');
like($waldump, qr/^rmgr: custom173 .*rmid: 173/m,
	"pg_waldump reads the WAL holding idgen's records and prints them as custom173");
note("pg_waldump, segment $segment: " . (($waldump =~ /^(.*custom173.*)$/m)[0] // 'no custom173 line'));

# Logical decoding skips idgen's records and decodes the rows around them.
is( $main->q(
		"SELECT count(*) FROM pg_logical_slot_get_changes('idgen_slot', NULL, NULL)
		 WHERE data LIKE 'table public.events: INSERT:%'"),
	100,
	"logical decoding over idgen's records decodes every inserted row");
$main->q("SELECT pg_drop_replication_slot('idgen_slot')");

# 2. Settings the server refuses at start. A malformed value of a setting
#    that a preloaded library defines is a warning to PostgreSQL: the server
#    starts with the default, so each check asks for the message and for the
#    default in force.
$main->stop('fast');
my ($started, $offset, $value) = start_with($main, 'idgen.replay_resource_manager_ids',
	"idgen.replay_resource_manager_ids = '128, x'");
ok( $started && $value eq '128' && logged($main, $offset,
		'invalid value for parameter "idgen.replay_resource_manager_ids": "128, x"'),
	'a malformed idgen.replay_resource_manager_ids is refused at start: a warning, and the default stays');
ok(logged($main, $offset, 'expected a resource manager ID from 128 to 255'),
	'... saying what an ID is');
($started, $offset, $value) = start_with($main, 'idgen.replay_resource_manager_ids',
	"idgen.replay_resource_manager_ids = '300'");
ok( $started && $value eq '128'
	  && logged($main, $offset, 'resource manager IDs for extensions run from 128 to 255'),
	'an ID above 255 is refused');
($started, $offset, $value) = start_with($main, 'idgen.replay_resource_manager_ids',
	"idgen.replay_resource_manager_ids = '130,130'");
ok($started && $value eq '128' && logged($main, $offset, 'an ID is listed twice'),
	'an ID listed twice is refused');
($started, $offset, $value) =
  start_with($main, 'idgen.wal_resource_manager_id', 'idgen.wal_resource_manager_id = 127');
ok( $started && $value eq '173' && logged($main, $offset,
		'127 is outside the valid range for parameter "idgen.wal_resource_manager_id" (128 .. 255)'),
	'idgen.wal_resource_manager_id 127 (a core ID) is refused');

# 3. Another module holding idgen's ID, preloaded before and after idgen.
($started, $offset) = start_with($main, 'shared_preload_libraries',
	"shared_preload_libraries = '$squatter, idgen'", 'rmgr_squatter.id = 173');
ok( !$started && logged($main, $offset,
		'FATAL:  idgen cannot use WAL resource manager ID 173: resource manager "rmgr_squatter" of another module in shared_preload_libraries holds it'
	),
	'a module holding 173, loaded first: idgen stops the start naming it');
ok(logged($main, $offset, 'HINT:  Set idgen.wal_resource_manager_id to a free ID from 129 to 255'),
	'... and hints at idgen.wal_resource_manager_id');
($started, $offset) = start_with($main, 'shared_preload_libraries',
	"shared_preload_libraries = 'idgen, $squatter'", 'rmgr_squatter.id = 173');
ok( !$started && logged($main, $offset,
		'DETAIL:  Custom resource manager "idgen" already registered with the same ID.'),
	'loaded after idgen: PostgreSQL stops the start naming idgen');
ok( logged($main, $offset,
		'FATAL:  failed to register custom resource manager "rmgr_squatter" with ID 173'),
	'... and the other module');
($started, $offset) = start_with($main, 'shared_preload_libraries',
	"shared_preload_libraries = '$squatter, idgen'", 'rmgr_squatter.id = 128');
ok( !$started && logged($main, $offset,
		'FATAL:  idgen cannot replay WAL resource manager ID 128: resource manager "rmgr_squatter"'),
	'a module holding 128 clashes with the default replay list');
ok(logged($main, $offset, 'HINT:  Remove 128 from idgen.replay_resource_manager_ids once no WAL'),
	'... and the hint says when 128 can go');
$main->append_conf('postgresql.conf',
	join("\n",
		"shared_preload_libraries = '$squatter, idgen'",
		'rmgr_squatter.id = 128',
		"idgen.replay_resource_manager_ids = ''"));
ok($main->start(fail_ok => 1), 'with 128 out of the replay list, both modules start together');
is($main->q('SELECT snowflake(3) > 0'), 't', '... and idgen mints');
$main->stop('fast');

# 4. Changing the ID. A server writes under 128 (as idgen 0.5.0 did) and
# archives its WAL; a base backup is taken; it mints, then moves to ID 200 with
# 128 in the replay list and mints again. The backup, restored from the archive
# with the new settings, replays both kinds of records and, promoted, mints
# above everything; without 128 in the list it stops at the first old record.
my $old = IdgenTest::Node->create('old',
	streaming => 1,    # wal_level = replica and WAL senders, for archiving and the backup
	start => 0,
	conf => [ 'idgen.wal_resource_manager_id = 128', "idgen.replay_resource_manager_ids = ''" ]);
$old->enable_archiving;
$old->start;
$old->q('CREATE EXTENSION idgen; CREATE TABLE ids (id bigint, phase text)');
$old->backup('before_change');

# mint PHASE: snowflakes on shard 3 for about 3 s, so that the lease is renewed
# (written to WAL) a few times.
sub mint
{
	my ($phase) = @_;
	$old->q(
		"DO \$\$ BEGIN FOR i IN 1 .. 30 LOOP
		     INSERT INTO ids SELECT snowflake(3), '$phase' FROM generate_series(1, 1000);
		     PERFORM pg_sleep(0.1);
		 END LOOP; END \$\$");
	return;
}
mint('under-128');
$old->stop('fast');
$old->append_conf('postgresql.conf',
	"idgen.wal_resource_manager_id = 200\nidgen.replay_resource_manager_ids = '128'");
$old->start;
is($old->q('SHOW idgen.wal_resource_manager_id'), 200, 'after the change the server writes under 200');
mint('under-200');
my $highest = $old->q('SELECT max(id) FROM ids');
# The segment that pg_switch_wal() closes is fixed when it returns; the
# current insert position is not (anything the server writes after the switch
# moves it on), so the wait compares the archiver with that segment. The
# archiver is signalled at the switch and otherwise wakes every 60 s
# (PGARCH_AUTOWAKE_INTERVAL), well within the poll's 180 s.
my $switched = $old->q('SELECT pg_walfile_name(pg_switch_wal())');
note("waiting for the archiver to reach $switched");
ok( $old->poll_query_until('postgres',
		"SELECT coalesce(last_archived_wal >= '$switched', false) FROM pg_stat_archiver"),
	'the WAL is archived');
$old->stop('fast');

# records RMGR: the number of RMGR's records pg_waldump finds in the archive,
# from its first segment to its last.
sub records
{
	my ($rmgr) = @_;
	my $archive = $old->archive_dir;
	opendir my $dh, $archive or die "opendir $archive: $!";
	my @segments = sort grep { /^[0-9A-F]{24}$/ } readdir $dh;
	closedir $dh;
	return 0 unless @segments;
	my $out = '';
	IPC::Run::run([ 'pg_waldump', '-p', $archive, '-r', $rmgr, $segments[0], $segments[-1] ],
		'>', \$out, '2>', \my $err);
	return scalar(() = $out =~ /^rmgr: \Q$rmgr\E /mg);
}
my ($old_records, $new_records) = (records('custom128'), records('custom200'));
ok($old_records > 0 && $new_records > 0,
	'the archive holds lease records under 128 and under 200');
note("lease records in the archive: $old_records under 128, $new_records under 200");

# restore NAME REPLAY-IDS: a server from the backup, set to recover from the
# archive to its end with the new ID and REPLAY-IDS in the replay list.
sub restore
{
	my ($name, $replay) = @_;
	my $node = IdgenTest::Node->new($name);
	$node->init_from_backup($old, 'before_change', has_restoring => 1, standby => 0);
	$node->append_conf('postgresql.conf',
		join("\n",
			'archive_mode = off',
			'idgen.wal_resource_manager_id = 200',
			"idgen.replay_resource_manager_ids = '$replay'"));
	return $node;
}
my $restored = restore('restored', '128');
$restored->start;
# Archive recovery without a target ends at the archive's last segment and
# promotes by itself.
ok($restored->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()'),
	'the backup from before the change recovers through both IDs and is promoted');
my $first = $restored->q('SELECT snowflake(3)');
is($restored->q("SELECT $first > $highest"),
	't', 'its first snowflake on shard 3 lies above every one the old server minted');
is( $restored->q(
		"SELECT count(*) FILTER (WHERE phase = 'under-128') || ' ' || count(*) FILTER (WHERE phase = 'under-200') FROM ids"
	),
	'30000 30000',
	'it holds every row the old server inserted, under both IDs');

# stopped_by_itself NODE: waits, up to the suite's timeout, until NODE's
# postmaster has exited on its own (its postmaster.pid gone or its process
# dead); then NODE is marked stopped. Returns whether it exited.
sub stopped_by_itself
{
	my ($node) = @_;
	my $pidfile = $node->data_dir . '/postmaster.pid';
	for (1 .. 10 * $PostgreSQL::Test::Utils::timeout_default)
	{
		my $pid;
		if (open my $fh, '<', $pidfile)
		{
			$pid = <$fh>;
			close $fh;
		}
		if (!defined $pid || !kill(0, int($pid)))
		{
			$node->stop('immediate', fail_ok => 1);    # only forgets the pid
			return 1;
		}
		usleep(100_000);
	}
	return 0;
}
my $unreplayable = restore('unreplayable', '');
# pg_ctl may report the start as failed (recovery stopped before the server
# accepted connections) or as done (it stopped later); both are fine here. It
# runs pg_ctl itself: start() reads postmaster.pid after pg_ctl reports the
# start done, and bails out of the whole file when the postmaster has already
# exited by then (seen on 19 on a loaded machine).
PostgreSQL::Test::Utils::run_log(
	[ 'pg_ctl', '-w', '-D', $unreplayable->data_dir, '-l', $unreplayable->logfile,
		'-o', '--cluster-name=unreplayable', 'start' ]);
# Replay reaches the first record under 128 after the backup's end and stops
# there, and the postmaster then shuts down.
ok(stopped_by_itself($unreplayable), 'without 128 in the replay list the recovery stops');
ok(logged($unreplayable, 0, 'FATAL:  resource manager with ID 128 not registered'),
	"... at the first old record, with PostgreSQL's message");

done_testing();
