# Base backups and synchronous replication, with snowflake() under way.
# 1. A base backup of a primary while sessions mint and insert: the backup
#    carries the lease files, and a server started from it, as a streaming
#    replica later promoted and as a copy promoted at once, mints above every
#    snowflake the primary minted before the backup ended (each row records
#    the WAL position after its ID was minted, so "before" is exact).
# 2. synchronous_standby_names naming a standby that is stopped: a session
#    whose snowflake() has to renew the lease waits (wait event SyncRep), as a
#    commit would; a cancel ends the call with an error and no ID (the renewal
#    was not confirmed); uuid_v7(), whose lease only orders, returns after a
#    cancel with PostgreSQL's warning; a terminate ends the session; and once
#    the standby is back, snowflake() returns.
use strict;
use warnings;
use JSON::PP ();
use IdgenTest;
use Test::More;

my $timeout = $PostgreSQL::Test::Utils::timeout_default;
my $primary = IdgenTest::Node->create('primary', streaming => 1);
$primary->q(
	'CREATE EXTENSION idgen;
	 CREATE TABLE minted (id bigint PRIMARY KEY, u uuid NOT NULL, lsn pg_lsn NOT NULL);
	 CREATE TABLE load_stop ()');

# 1. Load: three sessions, each inserting snowflakes on shard 4 and uuid_v7
# values with the WAL insert position read after the ID was minted, 200 rows a
# transaction, until a row appears in load_stop.
my @load = map {
	$primary->psql_to_file(
		"load$_",
		"DO \$\$ BEGIN
		     WHILE NOT EXISTS (SELECT FROM load_stop) LOOP
		         INSERT INTO minted SELECT id, u, pg_current_wal_insert_lsn()
		         FROM (SELECT snowflake(4) AS id, uuid_v7() AS u FROM generate_series(1, 200)) s;
		         COMMIT;
		     END LOOP;
		 END \$\$;",
		timeout => $timeout)
} 1 .. 3;
# Each load session commits every 200 rows, so rows show up at once.
$primary->poll_query_until('postgres', 'SELECT count(*) > 0 FROM minted')
  or diag('no load row before the backup');
# The backup creates the physical slot the replica streams from, so that the
# primary keeps the WAL written since the backup began (the load writes more
# than max_wal_size before the replica connects).
$primary->backup('under_load', backup_options => [ '--create-slot', '--slot=replica' ]);
my $backup = $primary->backup_dir . '/under_load';
ok(-s "$backup/backup_manifest", 'pg_basebackup of the primary under load succeeds');
my $manifest = JSON::PP::decode_json(PostgreSQL::Test::Utils::slurp_file("$backup/backup_manifest"));
my $end_lsn = $manifest->{'WAL-Ranges'}[-1]{'End-LSN'};
# The load goes on committing after the backup ended.
$primary->poll_query_until('postgres', "SELECT count(*) > 0 FROM minted WHERE lsn > '$end_lsn'")
  or diag('no load row after the backup ended');
$primary->q('INSERT INTO load_stop DEFAULT VALUES');
my $load_failed = 0;
for my $session (@load)
{
	# psql -q prints nothing for a DO block that ends without an error
	next if defined $session->finish && $session->output eq '';
	$load_failed++;
	diag('load session: ' . $session->output);
}
my ($rows_before, $highest_before) =
  split / /, $primary->q("SELECT count(*) || ' ' || max(id) FROM minted WHERE lsn <= '$end_lsn'");
my ($rows_all, $highest_all) =
  split / /, $primary->q("SELECT count(*) || ' ' || max(id) FROM minted");
ok($rows_before > 0 && $rows_all > $rows_before,
	'the load minted before the backup ended and after it');
note("rows minted before the backup ended: $rows_before, after it: " . ($rows_all - $rows_before));
is($load_failed, 0, 'the three load sessions end without an error');
for my $f (qw(idgen_snowflake.lease idgen_clock.lease))
{
	ok(-s "$backup/$f", "the backup carries $f");
}

# The copy promoted at once: no standby.signal, so it recovers to the end of
# the backup and opens as a primary.
my $promoted = IdgenTest::Node->new('promoted');
$promoted->init_from_backup($primary, 'under_load');
$promoted->start;
is($promoted->q('SELECT pg_is_in_recovery()'), 'f', 'the copy opens as a primary');
my $first = $promoted->q('SELECT snowflake(4)');
is($promoted->q("SELECT $first > $highest_before"),
	't', 'its first snowflake on shard 4 lies above every one minted before the backup ended');
my $latest_before =
  $primary->q("SELECT u FROM minted WHERE lsn <= '$end_lsn' ORDER BY u DESC LIMIT 1");
is($promoted->q("SELECT uuid_v7() > '$latest_before'"),
	't',
	'its first uuid_v7() lies above every one minted before the backup ended (the clock lease)');
note("promoted at once: first ID $first, highest before the backup ended $highest_before, highest of all $highest_all");
$promoted->stop('fast');

# The replica streams, then is promoted.
my $replica = IdgenTest::Node->new('replica');
$replica->init_from_backup($primary, 'under_load', has_streaming => 1);
$replica->append_conf('postgresql.conf', "primary_slot_name = 'replica'");
$replica->start;
my $primary_lsn = $primary->q('SELECT pg_current_wal_lsn()');
# The replica streams from the primary, which writes nothing more meanwhile.
ok($replica->poll_query_until('postgres', "SELECT pg_last_wal_replay_lsn() >= '$primary_lsn'"),
	"the replica streams and replays the primary's WAL");
$replica->q('SELECT pg_promote()');    # waits until the promotion is done
$first = $replica->q('SELECT snowflake(4)');
is($replica->q("SELECT $first > $highest_all"),
	't', 'the replica, promoted, mints above every snowflake the primary minted');
$replica->stop('fast');
$primary->q("SELECT pg_drop_replication_slot('replica')");

# 2. Synchronous replication with the synchronous standby stopped. The
#    standby's name, sb1, is its cluster_name and so its application_name.
$primary->backup('for_sync');
my $sb1 = IdgenTest::Node->new('sb1');
$sb1->init_from_backup($primary, 'for_sync', has_streaming => 1);
$sb1->start;
$primary->q("ALTER SYSTEM SET synchronous_standby_names = 'sb1'");
$primary->q('SELECT pg_reload_conf()');
my $sync_state = "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'sb1'";
# sb1 connects and the primary reloads synchronous_standby_names.
ok($primary->poll_query_until('postgres', $sync_state, 'sync'), 'sb1 streams synchronously');
is($primary->q("SELECT snowflake(4) > $highest_all"), 't', 'with sb1 up, snowflake() returns');
$sb1->stop('fast');

# waiting_in_syncrep TAG: waits until the session whose application_name is
# TAG waits for synchronous replication; whether it did.
sub waiting_in_syncrep
{
	my ($tag) = @_;
	return $primary->poll_query_until('postgres',
		"SELECT wait_event FROM pg_stat_activity WHERE application_name = '$tag'", 'SyncRep');
}
# The restart drops the lease to what was issued, so the next snowflake()
# renews it and waits: sb1 is down and never confirms.
$primary->restart;
my $minting = $primary->psql_to_file('minting', 'SELECT snowflake(4);', timeout => $timeout);
ok(waiting_in_syncrep('minting'),
	'snowflake() renewing its lease waits for the stopped synchronous standby');
# Until the call has run for a second by the server's clock (or has stopped
# waiting, which the check then reports).
$primary->poll_query_until('postgres',
	"SELECT coalesce((SELECT clock_timestamp() - query_start >= interval '1 s'
	                         OR wait_event IS DISTINCT FROM 'SyncRep'
	                  FROM pg_stat_activity WHERE application_name = 'minting'), true)");
is( $primary->q(
		"SELECT wait_event || ' ' || (clock_timestamp() - query_start >= interval '1 s')
		 FROM pg_stat_activity WHERE application_name = 'minting'"),
	'SyncRep true',
	'... and still waits a second later (no ID handed out)');
$primary->q("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'minting'");
$minting->finish;
like($minting->output,
	qr/\QWARNING:  01000: canceling wait for synchronous replication due to user request\E/,
	'a cancel ends the call');
like($minting->output,
	qr/\QERROR:  57014: snowflake lease renewal was not confirmed by a synchronous standby\E/,
	'... with SQLSTATE 57014 and no ID');
like($minting->output,
	qr/\QHINT:  snowflake() waits for the standbys in synchronous_standby_names as a commit with synchronous_commit = on does\E/,
	'... and a hint that it resumes once the standbys confirm');

my $ordering = $primary->psql_to_file('ordering', 'SELECT uuid_v7();', timeout => $timeout);
ok(waiting_in_syncrep('ordering'), 'uuid_v7() renewing the clock lease waits too');
$primary->q("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'ordering'");
$ordering->finish;
ok( $ordering->output =~ /^[0-9a-f]{8}-[0-9a-f]{4}-7/m
	  && $ordering->output =~ /canceling wait for synchronous replication due to user request/,
	"a cancel returns its value, with PostgreSQL's warning")
  or diag($ordering->output);

my $terminated = $primary->psql_to_file('terminated', 'SELECT snowflake(4);', timeout => $timeout);
ok(waiting_in_syncrep('terminated'), 'a later snowflake() that renews the lease waits again');
$primary->q(
	"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'terminated'");
$terminated->finish;
like($terminated->output, qr/terminating connection due to administrator command/,
	'a terminate ends the waiting session');
unlike($terminated->output, qr/^ *[0-9]{15,}/m, '... without an ID');

is( $primary->error("SET statement_timeout = '1s';\nSELECT snowflake(4);"),
	'57014: snowflake lease renewal was not confirmed by a synchronous standby',
	'statement_timeout ends a waiting snowflake() the same way');

$sb1->start;
# sb1 reconnects; synchronous_standby_names still names it.
ok($primary->poll_query_until('postgres', $sync_state, 'sync'),
	'sb1 back: it streams synchronously');
is($primary->q("SELECT snowflake(4) > $highest_all"), 't', 'snowflake() returns again');

done_testing();
