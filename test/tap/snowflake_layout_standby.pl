# snowflake_layout_new() in the twitter and sonyflake layouts and a streaming
# hot standby: the standby refuses to mint (25006, as for snowflake()); the
# primary, whose clock runs 3 s ahead of the standby's (libfaketime), mints
# both layouts, sonyflake in bursts that borrow its 10 ms ticks until it is
# 2 s ahead of its own clock, and is killed with kill -9; the standby is
# promoted at once and must resume above every ID the old primary issued in
# either layout, because each renewal of the layout lease reached it through
# WAL (synchronous replication, so that none is lost with the primary).
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $primary = IdgenTest::Node->create('primary',
	streaming => 1,
	start => 0,
	conf => ["idgen.max_clock_regression = '5s'"]);
{
	# A fixed offset from the environment: libfaketime reads no file per clock call.
	my $lib = faketime_lib()
	  or BAIL_OUT('libfaketime is not installed (Debian package faketime)');
	local %ENV = (%ENV,
		LD_PRELOAD => $lib,
		FAKETIME => '+3s',
		FAKETIME_DONT_FAKE_MONOTONIC => 1);
	$primary->start;
}
$primary->q('CREATE EXTENSION idgen');
$primary->backup('standby');
my $standby = IdgenTest::Node->new('standby');
$standby->init_from_backup($primary, 'standby', has_streaming => 1);
# After the failover a layout resumes from the lease, up to its 2 s span
# beyond the old primary's lead (3 s of clock, 2 s of borrowed ticks).
$standby->append_conf('postgresql.conf', "idgen.max_clock_regression = '10s'");
$standby->start;
is($standby->q('SELECT pg_is_in_recovery()'), 't', 'the standby is in recovery');

# 1. A standby refuses to mint in any layout.
for my $layout (qw(twitter sonyflake))
{
	my ($status, $out, $err) =
	  $standby->run_sql("SELECT snowflake_layout_new('$layout', 5)", verbose => 1);
	like($err, qr/^\QERROR:  25006: cannot mint snowflake ids during recovery\E/m,
		"snowflake_layout_new('$layout', 5) on the standby fails with 25006");
}

# 2. Synchronous replication: each lease renewal waits for the standby.
$primary->q("ALTER SYSTEM SET synchronous_standby_names = '*'");
$primary->q('SELECT pg_reload_conf()');
ok($primary->poll_query_until('postgres', 'SELECT sync_state FROM pg_stat_replication', 'sync'),
	'the standby streams synchronously');

# 3. The old primary's last IDs: twitter at its clock, sonyflake 2 s ahead of it.
my $old_twitter =
  $primary->q("SELECT max(snowflake_layout_new('twitter', 5)) FROM generate_series(1, 100000)");
my $old_sonyflake = $primary->q(
	"CREATE FUNCTION pg_temp.burst() RETURNS bigint LANGUAGE plpgsql AS \$\$
	 DECLARE last bigint;
	 BEGIN
	     FOR round IN 1 .. 100 LOOP
	         SELECT max(id) INTO last
	         FROM (SELECT snowflake_layout_new('sonyflake', 5) AS id FROM generate_series(1, 10000)) s;
	         EXIT WHEN snowflake_layout_time(last, 'sonyflake') > clock_timestamp() + interval '2 s';
	     END LOOP;
	     RETURN last;
	 END \$\$;
	 SELECT pg_temp.burst()");
for ([ twitter => $old_twitter, 2500 ], [ sonyflake => $old_sonyflake, 4500 ])
{
	my ($layout, $old, $lead) = @$_;
	my $lead_ms = $standby->q(
		"SELECT (extract(epoch FROM snowflake_layout_time($old, '$layout') - clock_timestamp()) * 1000)::bigint");
	ok($lead_ms >= $lead,
		"$layout: the old primary's last ID is at least $lead ms ahead of the standby's clock (lead $lead_ms ms)");
}
$primary->wait_for_catchup($standby, 'replay');
my $lease_ms = $standby->lease_end('snowflake_layout');
my $old_unix_ms = $standby->q(
	"SELECT (extract(epoch FROM greatest(snowflake_layout_time($old_twitter, 'twitter'),
	                                     snowflake_layout_time($old_sonyflake, 'sonyflake'))) * 1000)::bigint");
ok($lease_ms > $old_unix_ms,
	"WAL replay wrote the standby's layout lease past the old primary's last tick (lease $lease_ms ms, tick $old_unix_ms ms)");

# 4. kill -9 the primary, promote the standby.
$primary->kill9;
my $log_offset = -s $standby->logfile;
$standby->promote;
ok(eval { $standby->wait_for_log(qr/selected new timeline ID/, $log_offset); 1 },
	'the standby is promoted');
ok($standby->poll_query_until('postgres', 'SELECT pg_is_in_recovery()', 'f'),
	'the promoted standby leaves recovery');

# 5. The new primary mints at once, above the old primary's last ID of each layout.
for ([ twitter => $old_twitter ], [ sonyflake => $old_sonyflake ])
{
	my ($layout, $old) = @$_;
	is( $standby->q(
			"SELECT count(*) FILTER (WHERE id <= $old) || ' ' || count(*)
			 FROM (SELECT snowflake_layout_new('$layout', 5) AS id FROM generate_series(1, 20000)) s"),
		'0 20000',
		"$layout: none of the new primary's 20000 IDs is at or below the old primary's last ($old)");
}

done_testing();
