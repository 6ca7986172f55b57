# The lease origin (docs/operations.md, "Upgrading PostgreSQL") against a
# tenant: a database owner without superuser and without shard rights
# (idgen.allowed_shards = '') must not move the server's leases, and with
# them every other database's snowflakes and uuid_v7s, ahead of the clock:
# not by installing idgen with row_security off (as a restore would), nor by
# dropping and re-creating it, minting only in read-only transactions,
# creating a look-alike of the SQL edition's state, or installing 0.6.0 and
# updating it, nor by a first ksuid() or uuid_v6(). A new CREATE EXTENSION
# needs no raise at all. A session with shard rights still raises them where
# the database's IDs came from another cluster (at its first uuid_v7(),
# ksuid() or uuid_v6()), which is what keeps a restore from repeating an ID.
use strict;
use warnings;
use IdgenTest;
use Test::More;

# A bound large enough that a raise shows plainly against the clock.
my $node = IdgenTest::Node->create('main',
	conf => [ "idgen.max_clock_regression = '30s'", "idgen.uuid_v7_order = 'server'" ]);
my $app = $node->fresh_database('app');
$node->q(
	"CREATE ROLE tenant LOGIN CREATEDB;
	 ALTER ROLE tenant SET idgen.allowed_shards = '';
	 CREATE DATABASE tenantdb OWNER tenant");

# lead: how far, in seconds, the next IDs of the database app run ahead of
# the clock (snowflake on shard 7, uuid_v7), as "snowflake uuid_v7".
sub lead
{
	return $node->q(
		"SELECT round(extract(epoch FROM snowflake_time(snowflake(7)) - clock_timestamp()))::int || ' ' ||
		        round(extract(epoch FROM uuid_v7_time(uuid_v7()) - clock_timestamp()))::int",
		db => $app);
}

# settle: waits (up to 40 s) until the IDs of database app follow the clock
# again, so that each case below starts from leases at the clock: a raise by
# an earlier case (on code that lets the tenant raise) fails that case alone.
sub settle
{
	$node->poll_query_until($app,
		"SELECT snowflake_time(snowflake(7)) - clock_timestamp() < interval '0.5 s'
		    AND uuid_v7_time(uuid_v7()) - clock_timestamp() < interval '0.5 s'")
	  or diag('the leases stayed ahead of the clock for 40 s');
	return;
}

# as_tenant SQL...: each SQL in a session of its own, as the tenant in its
# database; dies on an error.
sub as_tenant
{
	for my $sql (@_)
	{
		my ($status, $out, $err) = $node->run_sql($sql, db => 'tenantdb', user => 'tenant');
		die "as the tenant: $sql: $err" if $status;
	}
	return;
}

# old VERSION: the statements that install the older release VERSION. Of the
# released full scripts only 0.1.0's is kept (sql/), so VERSION is 0.1.0's
# script and the upgrade scripts up to VERSION, which define the same
# objects as 0.6.0's and 0.7.0's full scripts did, and write the same label
# when the tenant runs them (compared when those scripts were removed). Named
# step by step, so that a full script that an earlier install of idgen left in
# the server's share/extension is not what runs.
sub old
{
	my ($version) = @_;
	return ("CREATE EXTENSION idgen VERSION '0.1.0'",
		$version eq '0.1.0' ? () : ("ALTER EXTENSION idgen UPDATE TO '$version'"));
}

is(lead(), '0 0', 'before: the IDs of database app follow the clock');

settle();
as_tenant('SET row_security = off; CREATE EXTENSION idgen; SELECT uuid_v7()', 'SELECT uuid_v7(), ulid()');
is($node->q('SELECT system_identifier = (SELECT system_identifier FROM pg_control_system()) FROM idgen_lease_origin',
		db => 'tenantdb'),
	't', "the tenant's CREATE EXTENSION with row_security off records this cluster: nothing was issued before it");
is(lead(), '0 0', 'and minting there leaves the leases where they were');

settle();
for my $round (1 .. 3)
{
	as_tenant('DROP EXTENSION idgen', 'SET row_security = off; CREATE EXTENSION idgen', 'SELECT uuid_v7()');
}
is(lead(), '0 0',
	'three rounds of DROP and CREATE EXTENSION (row_security off) and a mint by the tenant leave the leases');

# A label the tenant cannot clear: it names another cluster (as after a
# restore); the tenant then mints in read-only transactions only.
$node->q('UPDATE idgen_lease_origin SET system_identifier = 42', db => 'tenantdb');
settle();
as_tenant(('BEGIN READ ONLY; SELECT uuid_v7(); COMMIT') x 3);
is(lead(), '0 0', "minting in read-only transactions where the label names another cluster: no raise by the tenant");
settle();
as_tenant('SELECT uuid_v7()');
is(lead(), '0 0', 'nor in a read-write one: the tenant has no shard rights');
# The other families that check the origin at a session's first ID (the
# clock lease's: ksuid() and uuid_v6() in either order), each first in a
# session of its own.
settle();
as_tenant(map { ("BEGIN READ ONLY; SELECT $_; COMMIT", "SELECT $_") }
	'ksuid()', 'uuid_v6()', "set_config('idgen.ksuid_order', 'server', false), ksuid()",
	"set_config('idgen.uuid_v6_order', 'server', false), uuid_v6()");
is(lead(), '0 0', 'nor by a first ksuid() or uuid_v6(), in either order, read-only or read-write');
is($node->q('SELECT system_identifier FROM idgen_lease_origin', db => 'tenantdb'),
	'42', 'and the label stays, for a session with shard rights to act on');

settle();
as_tenant('DROP EXTENSION idgen', 'CREATE SEQUENCE idgen_sql_snowflake_state',
	'SET row_security = off; CREATE EXTENSION idgen', 'SELECT uuid_v7()');
is(lead(), '0 0', "a look-alike of the SQL edition's state sequence and CREATE EXTENSION: no raise");

settle();
as_tenant('DROP EXTENSION idgen', old('0.6.0'), 'SELECT uuid_v7()', 'SELECT uuid_v7()');
is(lead(), '0 0', 'idgen 0.6.0 (no label: it cannot say where its IDs came from) minted by the tenant: no raise');
settle();
as_tenant('ALTER EXTENSION idgen UPDATE', 'SELECT uuid_v7()');
is(lead(), '0 0', 'ALTER EXTENSION idgen UPDATE to the label, then a mint by the tenant: no raise');

# Every older version installed by the tenant, then updated: the label names
# this cluster, as the tenant's CREATE EXTENSION of the current version does,
# so that a superuser's next mint there raises nothing (idgen 0.8.0's
# 0.6.0 -> 0.7.0 step wrote 0, "not known", for anyone, and a superuser's mint
# then moved every database's IDs ahead of the clock).
for my $version (qw(0.1.0 0.2.0 0.3.0 0.4.0 0.4.1 0.5.0 0.6.0 0.7.0))
{
	settle();
	as_tenant('DROP EXTENSION IF EXISTS idgen', old($version), 'ALTER EXTENSION idgen UPDATE');
	is($node->q("SELECT string_agg((system_identifier = (SELECT system_identifier FROM pg_control_system()))::text, ',')
		 FROM idgen_lease_origin", db => 'tenantdb'),
		'true', "the tenant's $version, updated: the label names this cluster alone");
	$node->q('SELECT snowflake(7), uuid_v7()', db => 'tenantdb');
	is(lead(), '0 0', "the tenant's $version, updated, then a superuser's mint there: no raise");
}

# The same update run by a superuser keeps "not known", as after pg_upgrade
# of a 0.6.0 database (docs/operations.md, "Upgrading PostgreSQL").
settle();
as_tenant('DROP EXTENSION idgen', old('0.6.0'));
$node->q('ALTER EXTENSION idgen UPDATE', db => 'tenantdb');
is($node->q('SELECT system_identifier FROM idgen_lease_origin', db => 'tenantdb'),
	'0', "a superuser's update of 0.6.0 records \"not known\" (0)");
my ($sf_su, $uuid_su) = split / /, do { $node->q('SELECT uuid_v7()', db => 'tenantdb'); lead() };
ok($sf_su >= 25 && $uuid_su >= 25,
	"and a superuser's first mint there raises both leases ($sf_su s, $uuid_su s ahead)");

# The guarantee itself: in a database whose label names another cluster, the
# first ID minted by a session with shard rights raises both leases; a first
# ksuid() or uuid_v6() does as a first uuid_v7() does (lead() is a session of
# its own, so the raise is the earlier session's).
for my $call ('ksuid()', 'uuid_v6()')
{
	settle();
	$node->q("UPDATE idgen_lease_origin SET system_identifier = 42; SELECT $call", db => $app);
	my ($sf_first, $uuid_first) = split / /, lead();
	ok($sf_first >= 25 && $uuid_first >= 25,
		"where the label names another cluster, a superuser session's first $call raises both leases ($sf_first s, $uuid_first s ahead)");
}
settle();
$node->q('UPDATE idgen_lease_origin SET system_identifier = 42', db => $app);
my ($sf, $uuid) = split / /, lead();
ok($sf >= 25 && $uuid >= 25,
	"a session with shard rights where the label names another cluster raises both leases to the clock plus the bound ($sf s, $uuid s ahead)");

done_testing();
