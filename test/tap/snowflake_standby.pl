# snowflake() and a streaming hot standby (and the clock lease of uuid_v7()
# and ulid() in 'server' order and of uuid_v6() in either order, at the
# failover; ksuid() has ksuid_standby.pl). A standby made from a base backup
# gets its primary's idgen.shard_id with the database, so it must refuse to
# mint (25006, as nextval() does). The primary, whose clock runs 3 s ahead of
# the standby's (libfaketime), then mints a burst that borrows ahead of its own
# clock, is killed with kill -9, and the standby is promoted at once: its
# shards must resume above every ID the old primary issued, because each lease
# renewal reached it through WAL (synchronous replication here, so that none
# is lost with the primary).
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $primary = IdgenTest::Node->create('primary',
	streaming => 1,
	start => 0,
	conf => ["idgen.max_clock_regression = '5s'"]);
{
	# A fixed offset from the environment: libfaketime then reads no file per
	# clock call (set_clock_offset's way), which would slow the burst below
	# the clock's pace. The primary is started once, here.
	my $lib = faketime_lib()
	  or BAIL_OUT('libfaketime is not installed (Debian package faketime)');
	local %ENV = (%ENV,
		LD_PRELOAD => $lib,
		FAKETIME => '+3s',
		FAKETIME_DONT_FAKE_MONOTONIC => 1);
	$primary->start;
}
$primary->q('CREATE EXTENSION idgen; ALTER DATABASE postgres SET idgen.shard_id = 5');

$primary->backup('standby');
my $standby = IdgenTest::Node->new('standby');
$standby->init_from_backup($primary, 'standby', has_streaming => 1);
# After the failover the shard resumes from the lease, up to its 2 s span
# beyond the old primary's lead (at most 5 s): a wider bound than the
# primary's lets it mint at once instead of waiting for the clock.
$standby->append_conf('postgresql.conf', "idgen.max_clock_regression = '10s'");
$standby->start;

is($standby->q('SELECT pg_is_in_recovery()'), 't', 'the standby is in recovery');
is($standby->q('SHOW idgen.shard_id'), 5, "the standby has the primary's idgen.shard_id");

# 1. A standby refuses to mint, with or without a shard argument.
for my $call ('snowflake()', 'snowflake(7)', 'snowflake53()', 'snowflake53(7)')
{
	my ($status, $out, $err) = $standby->run_sql("SELECT $call", verbose => 1);
	like($err, qr/^\QERROR:  25006: cannot mint snowflake ids during recovery\E/m,
		"$call on the standby fails with 25006");
	my ($function) = $call =~ /^(\w+)/;
	like($err, qr/^\QHINT:  Call $function() on the primary\E/m,
		"$call on the standby hints at the primary");
}
is($standby->q('SELECT uuid_v7() IS NOT NULL AND ulid() IS NOT NULL'),
	't', 'uuid_v7() and ulid() still work on the standby');
# uuid_v6(), as uuid_v7(), keeps no state in WAL: it mints on the standby in
# either order, strictly increasing.
for my $order (qw(backend server))
{
	is( $standby->q(
			"SET idgen.uuid_v6_order = '$order';
			 SELECT count(*) FILTER (WHERE id <= prev) || ' ' || count(*) FROM (
			     SELECT id, lag(id) OVER (ORDER BY n) AS prev
			     FROM (SELECT n, uuid_v6() AS id FROM generate_series(1, 10000) n) s) t"),
		'0 10000', "uuid_v6() in '$order' order works on the standby, strictly increasing");
}
is( $standby->q(
		"SET idgen.uuid_v7_order = 'server'; SET idgen.ulid_order = 'server';
		 SELECT uuid_v7() IS NOT NULL AND ulid() IS NOT NULL"),
	't',
	"uuid_v7() and ulid() in 'server' order work on the standby");

# 2. Synchronous replication: each lease renewal waits for the standby.
$primary->q("ALTER SYSTEM SET synchronous_standby_names = '*'");
$primary->q('SELECT pg_reload_conf()');
# The standby streams already; the primary's reload makes it synchronous.
ok($primary->poll_query_until('postgres', 'SELECT sync_state FROM pg_stat_replication', 'sync'),
	'the standby streams synchronously');

# 3. The primary's clock runs 3 s ahead of the standby's. A burst on one
# shard: 1024 IDs per millisecond, minted faster than the clock runs, until the
# shard is 2 s ahead of the primary's clock (its bound is 5 s; the promoted
# standby's 10 s covers 3 + 2 s and the lease's 2 s span).
my $old_max = $primary->q(
	"CREATE FUNCTION pg_temp.burst() RETURNS bigint LANGUAGE plpgsql AS \$\$
	 DECLARE last bigint;
	 BEGIN
	     FOR round IN 1 .. 60 LOOP
	         SELECT max(id) INTO last FROM (SELECT snowflake() AS id FROM generate_series(1, 100000)) s;
	         EXIT WHEN snowflake_time(last) > clock_timestamp() + interval '2 s';
	     END LOOP;
	     RETURN last;
	 END \$\$;
	 SELECT pg_temp.burst()");
my $old_ms = $old_max >> 23;    # the time field: bits 23 and up
my $lead_ms = $standby->q(
	"SELECT (extract(epoch FROM snowflake_time($old_max) - clock_timestamp()) * 1000)::bigint");
ok($lead_ms >= 2500,
	"the old primary's last ID is at least 2.5 s ahead of the standby's clock (lead $lead_ms ms)");
is( $primary->q(
		"SELECT borrowed_ms > 0 FROM idgen_snowflake_shards WHERE family = 'snowflake' AND shard = 5"),
	't',
	'idgen_snowflake_shards counted borrowed milliseconds on shard 5');
# The 53-bit split shares the lease: a million IDs on its shard 5 (512 a
# millisecond) run it about 2 s ahead too.
my $old_max53 = $primary->q('SELECT max(snowflake53(5)) FROM generate_series(1, 1000000)');
# Synchronous commit confirms the standby flushed each renewal, not that it
# replayed it: wait for replay before reading its lease file (bash read it at
# once).
$primary->wait_for_catchup($standby, 'replay');
my $lease_ms = $standby->lease_end('snowflake');
ok( $lease_ms > $old_ms,
	"WAL replay rewrote the standby's lease file past the old primary's last ID (lease "
	  . ($lease_ms // '') . " ms, ID $old_ms ms)");

# The clock families in 'server' order on the primary, whose clock is 3 s
# ahead of the standby's: their last values, before the primary dies.
my ($old_uuid, $old_ulid) = split / /,
  $primary->q(
	"SET idgen.uuid_v7_order = 'server'; SET idgen.ulid_order = 'server';
	 SELECT (array_agg(u ORDER BY u DESC))[1] || ' ' || max(l) FROM (
	     SELECT uuid_v7() AS u, ulid() AS l FROM generate_series(1, 100000)) s");
# uuid_v6(), which shares the clock lease, in each order.
my $old_v6_server = $primary->q(
	"SET idgen.uuid_v6_order = 'server'; SELECT (array_agg(id ORDER BY id DESC))[1] FROM (SELECT uuid_v6() AS id FROM generate_series(1, 100000)) s");
my $old_v6_backend = $primary->q('SELECT (array_agg(id ORDER BY id DESC))[1] FROM (SELECT uuid_v6() AS id FROM generate_series(1, 100000)) s');
is( $standby->q("SELECT uuid_v6_time('$old_v6_server') > clock_timestamp() + interval '1 s'"),
	't', "the old primary's last uuid_v6 lies over 1 s ahead of the standby's clock (what a clock alone would mint below)");

# 4. kill -9 the primary's postmaster (its children follow), promote the standby.
$primary->kill9;
my $log_offset = -s $standby->logfile;
$standby->promote;
# pg_ctl promote returns once the promotion is done; the startup process
# logged the new timeline before that, so the wait ends at once.
ok(eval { $standby->wait_for_log(qr/selected new timeline ID/, $log_offset); 1 },
	'the standby is promoted');
# pg_ctl promote waited for the promotion: the first poll finds it done.
ok($standby->poll_query_until('postgres', 'SELECT pg_is_in_recovery()', 'f'),
	'the promoted standby leaves recovery');

# 5. The new primary mints on shard 5 at once (well inside the old primary's
# lead over its clock): above the old primary's last ID.
my ($after_min, $after_below) = split / /,
  $standby->q(
	"SELECT min(id) || ' ' || count(*) FILTER (WHERE id <= $old_max)
	 FROM (SELECT snowflake() AS id FROM generate_series(1, 100000)) s");
ok(($after_min // 0) > $old_max,
	"its first ID on shard 5 is above the old primary's last ($old_max)");
is($after_below, 0, "none of its 100000 IDs is at or below the old primary's last");
is($standby->q("SELECT snowflake(5) > $old_max"), 't', 'snowflake(5) agrees');
is( $standby->q(
		"SELECT count(*) FILTER (WHERE id <= $old_max53) || ' ' || count(*)
		 FROM (SELECT snowflake53(5) AS id FROM generate_series(1, 100000)) s"),
	'0 100000',
	"none of its 100000 snowflake53(5) IDs is at or below the old primary's last ($old_max53)");

# 6. The clock families in 'server' order resume above the old primary's last
# values, though the new primary's clock is 3 s behind: the clock lease came
# through WAL.
is( $standby->q(
		"SET idgen.uuid_v7_order = 'server'; SET idgen.ulid_order = 'server';
		 SELECT count(*) FILTER (WHERE u <= '$old_uuid') || ' ' || count(*) FILTER (WHERE l <= '$old_ulid')
		 FROM (SELECT uuid_v7() AS u, ulid() AS l FROM generate_series(1, 10000)) s"),
	'0 0',
	"after the promotion no uuid_v7() or ulid() in 'server' order is at or below the old primary's last");
for my $order (qw(server backend))
{
	is( $standby->q(
			"SET idgen.uuid_v6_order = '$order';
			 SELECT count(*) FILTER (WHERE id <= '$old_v6_server' OR id <= '$old_v6_backend') || ' ' || count(*)
			 FROM (SELECT uuid_v6() AS id FROM generate_series(1, 10000)) s"),
		'0 10000',
		"after the promotion no uuid_v6() in '$order' order is at or below the old primary's last");
}

done_testing();
