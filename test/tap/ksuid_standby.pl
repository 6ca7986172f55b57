# ksuid() and a streaming hot standby, as uuid_v7() and ulid() in
# snowflake_standby.pl: ksuid() works on the standby in either order (it keeps
# no state in WAL), and at a failover the clock lease that reached the standby
# through WAL keeps the promoted standby's KSUIDs, in either order, above every
# KSUID the old primary issued, though the old primary's clock ran 3 s ahead
# of the standby's (libfaketime) and it was killed with kill -9. Synchronous
# replication, so that no lease renewal is lost with the primary.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $primary = IdgenTest::Node->create('primary', streaming => 1, start => 0);
{
	# A fixed offset from the environment (no file read per clock call).
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
$standby->start;
is($standby->q('SELECT pg_is_in_recovery()'), 't', 'the standby is in recovery');

# 1. On the standby: read-only sessions mint in either order.
is( $standby->q(
		'SELECT count(*) FILTER (WHERE id <= prev) || \' \' || count(*) FROM (
		     SELECT id, lag(id) OVER (ORDER BY n) AS prev
		     FROM (SELECT n, ksuid() AS id FROM generate_series(1, 10000) n) s) t'),
	'0 10000', 'ksuid() works on the standby, strictly increasing');
is( $standby->q(
		"SET idgen.ksuid_order = 'server';
		 SELECT count(*) FILTER (WHERE id <= prev) || ' ' || count(*) FROM (
		     SELECT id, lag(id) OVER (ORDER BY n) AS prev
		     FROM (SELECT n, ksuid() AS id FROM generate_series(1, 10000) n) s) t"),
	'0 10000', "ksuid() in 'server' order works on the standby");

# 2. Synchronous replication: each lease renewal waits for the standby.
$primary->q("ALTER SYSTEM SET synchronous_standby_names = '*'");
$primary->q('SELECT pg_reload_conf()');
ok($primary->poll_query_until('postgres', 'SELECT sync_state FROM pg_stat_replication', 'sync'),
	'the standby streams synchronously');

# 3. The old primary's last KSUIDs, in each order, its clock 3 s ahead.
my $old_server = $primary->q(
	"SET idgen.ksuid_order = 'server'; SELECT max(id) FROM (SELECT ksuid() AS id FROM generate_series(1, 100000)) s");
my $old_backend = $primary->q('SELECT max(id) FROM (SELECT ksuid() AS id FROM generate_series(1, 100000)) s');
like($old_server, qr/^[0-9A-Za-z]{27}$/, "the old primary's last KSUID in 'server' order");
is( $standby->q("SELECT ksuid_time('$old_server') > clock_timestamp() + interval '1 s'"),
	't', "it carries a second more than 1 s ahead of the standby's clock (what a clock alone would mint below)");
$primary->wait_for_catchup($standby, 'replay');

# 4. kill -9 the primary, promote the standby.
$primary->kill9;
$standby->promote;
ok($standby->poll_query_until('postgres', 'SELECT pg_is_in_recovery()', 'f'),
	'the promoted standby leaves recovery');

# 5. The new primary's KSUIDs, in either order, are above the old primary's.
is( $standby->q(
		"SET idgen.ksuid_order = 'server';
		 SELECT count(*) FILTER (WHERE id <= '$old_server' OR id <= '$old_backend') || ' ' || count(*)
		 FROM (SELECT ksuid() AS id FROM generate_series(1, 10000)) s"),
	'0 10000',
	"after the promotion no ksuid() in 'server' order is at or below the old primary's last");
is( $standby->q(
		"SELECT count(*) FILTER (WHERE id <= '$old_server' OR id <= '$old_backend') || ' ' || count(*)
		 FROM (SELECT ksuid() AS id FROM generate_series(1, 10000)) s"),
	'0 10000',
	"after the promotion no ksuid() in backend order (a new session) is at or below the old primary's last");

done_testing();
