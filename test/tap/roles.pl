# Several login roles on one server: idgen.allowed_shards set with ALTER ROLE
# and ALTER DATABASE limits snowflake(shard) at login and cannot be lifted by
# the client; 'server' order (ulid, uuid_v7, ksuid, uuid_v6) is any role's,
# its bound idgen.max_clock_regression a superuser's; idgen_stats shows another role's backends only to members of
# that role and of pg_read_all_stats; idgen_snowflake_shards shows a session
# only the shards it may mint on.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main');
my $db = $node->fresh_database('idgen_roles');
$node->q(
	"CREATE ROLE idgen_t_alice LOGIN;
	 CREATE ROLE idgen_t_bob LOGIN;
	 CREATE ROLE idgen_t_carol LOGIN IN ROLE pg_read_all_stats;
	 CREATE ROLE idgen_t_dave LOGIN IN ROLE idgen_t_alice");
$node->q(
	"ALTER ROLE idgen_t_alice SET idgen.allowed_shards = '5';
	 ALTER DATABASE $db SET idgen.allowed_shards = '7';
	 ALTER DATABASE $db SET idgen.shard_id = 9");

# as ROLE SQL: what SQL prints when run by a login role in the test database,
# an error as "ERROR:  SQLSTATE" (psql's prefix "psql:<stdin>:N: " removed).
sub as
{
	my ($role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql($db, "\\set VERBOSITY sqlstate\n$sql",
		extra_params => [ '-U', $role ]);
	$err =~ s/^psql:<stdin>:\d+: //mg;
	return join("\n", grep { $_ ne '' } $out, $err);
}

# Settings from ALTER ROLE (more specific) and ALTER DATABASE, applied at login.
is(as('idgen_t_alice', 'SELECT snowflake_shard(snowflake(5))'),
	5, "alice (ALTER ROLE ... SET idgen.allowed_shards = '5') mints on shard 5");
is(as('idgen_t_alice', 'SELECT snowflake(7)'),
	'ERROR:  42501',
	"alice is refused shard 7 (her role's setting wins over the database's) with 42501");
is(as('idgen_t_alice', 'SELECT snowflake_shard(snowflake())'),
	9, "alice mints on the database's idgen.shard_id (9) with snowflake()");
is(as('idgen_t_bob', 'SELECT snowflake_shard(snowflake(7))'),
	7, "bob (ALTER DATABASE ... SET idgen.allowed_shards = '7') mints on shard 7");
is(as('idgen_t_bob', 'SELECT snowflake(5)'), 'ERROR:  42501', 'bob is refused shard 5 with 42501');
is(as('idgen_t_bob', 'SELECT snowflake(0)'), 'ERROR:  42501', 'bob is refused shard 0 with 42501');
is(as('idgen_t_bob', 'SELECT snowflake_shard(snowflake(9))'),
	9, 'bob mints on idgen.shard_id (9) also as snowflake(9)');

# The client cannot lift the limit: not in the connection options, not with
# SET, not with ALTER ROLE on itself.
{
	local $ENV{PGOPTIONS} = '-c idgen.allowed_shards=0-8191';
	like(
		as('idgen_t_bob', 'SELECT snowflake(5)'),
		qr/permission denied to set parameter "idgen\.allowed_shards"/,
		"bob cannot connect with PGOPTIONS='-c idgen.allowed_shards=0-8191'");
}
is(as('idgen_t_bob', "SET idgen.allowed_shards = '0-8191'"),
	'ERROR:  42501', 'bob cannot SET idgen.allowed_shards (42501)');
is(as('idgen_t_bob', "ALTER ROLE idgen_t_bob SET idgen.allowed_shards = '0-8191'"),
	'ERROR:  42501', 'bob cannot ALTER ROLE himself SET idgen.allowed_shards (42501)');
is(as('idgen_t_bob', 'ALTER ROLE idgen_t_bob SET idgen.shard_id = 5'),
	'ERROR:  42501', 'bob cannot ALTER ROLE himself SET idgen.shard_id (42501)');
is(as('idgen_t_bob', 'SHOW idgen.allowed_shards'), 7, "bob's setting is still the database's");

# 'server' order is any user's to choose: a login role without privileges
# mints ulid() and uuid_v7() in it, strictly increasing.
is( as( 'idgen_t_bob',
		"SET idgen.ulid_order = 'server'; SET idgen.uuid_v7_order = 'server';
		 SELECT count(*) FILTER (WHERE u <= lu OR v <= lv) || ' of ' || count(*) FROM (
		     SELECT u, lag(u) OVER (ORDER BY n) AS lu, v, lag(v) OVER (ORDER BY n) AS lv
		     FROM (SELECT n, ulid() AS u, uuid_v7() AS v FROM generate_series(1, 1000) n) s) t"),
	'0 of 1000',
	"bob (no privileges) mints ulid() and uuid_v7() in 'server' order, strictly increasing");
is( as( 'idgen_t_bob',
		"SET idgen.ksuid_order = 'server'; SET idgen.uuid_v6_order = 'server';
		 SELECT count(*) FILTER (WHERE k <= lk OR v <= lv) || ' of ' || count(*) FROM (
		     SELECT k, lag(k) OVER (ORDER BY n) AS lk, v, lag(v) OVER (ORDER BY n) AS lv
		     FROM (SELECT n, ksuid() AS k, uuid_v6() AS v FROM generate_series(1, 1000) n) s) t"),
	'0 of 1000',
	"bob (no privileges) mints ksuid() and uuid_v6() in 'server' order, strictly increasing");
# How far 'server' order counters (and snowflake shards) may be moved ahead of
# the clock is not his to change.
is(as('idgen_t_bob', "SET idgen.max_clock_regression = '1h'"),
	'ERROR:  42501', 'bob cannot SET idgen.max_clock_regression (42501)');
is(as('idgen_t_bob', "ALTER ROLE idgen_t_bob SET idgen.max_clock_regression = '1h'"),
	'ERROR:  42501', 'bob cannot ALTER ROLE himself SET idgen.max_clock_regression (42501)');
is(as('idgen_t_bob', "ALTER ROLE idgen_t_bob SET idgen.ulid_order = 'server'"),
	'', "bob may ALTER ROLE himself SET idgen.ulid_order = 'server'");
is(as('idgen_t_bob', 'SHOW idgen.ulid_order'), 'server', "bob's next session is in 'server' order");

# A session of alice's that minted and stays connected: query_safe returns once
# the statement has run, so its IDs are counted in idgen_stats already.
my $alice = $node->background_psql($db, extra_params => [ '-U', 'idgen_t_alice' ]);
my $alice_pid = $alice->query_safe('SELECT pg_backend_pid()');
$alice->query_safe('SELECT snowflake(5), uuid_v7(), ksuid(), uuid_v6(), objectid(), xid()');
note("alice's background session has pid $alice_pid");
is( $node->q(
		"SELECT pid FROM idgen_stats s JOIN pg_stat_activity a USING (pid)
		 WHERE a.usename = 'idgen_t_alice' AND s.family = 'uuid_v7' LIMIT 1", db => $db),
	$alice_pid,
	"alice's background session shows in idgen_stats for a superuser");

my $count_alice_rows = "SELECT count(*) FROM idgen_stats WHERE pid = $alice_pid";
is(as('idgen_t_bob', $count_alice_rows), 0, "bob does not see alice's backend in idgen_stats");
is( as( 'idgen_t_bob',
		"SELECT uuid_v7() IS NOT NULL; SELECT count(*) FILTER (WHERE pid = pg_backend_pid()) || ' own, ' || count(*) FILTER (WHERE pid <> pg_backend_pid()) || ' other' FROM idgen_stats"
	),
	"t\n1 own, 0 other",
	'bob sees no backend but his own');
is(as('idgen_t_bob', "SELECT count(*) FROM idgen_backend_state() WHERE pid = $alice_pid"),
	0, 'bob does not see it through idgen_backend_state() either');
# One row per family alice minted: snowflake, uuid_v7, ksuid, uuid_v6, objectid, xid.
is(as('idgen_t_carol', $count_alice_rows), 6, "carol (pg_read_all_stats) sees alice's 6 rows");
is(as('idgen_t_dave', $count_alice_rows), 6, "dave (a member of alice) sees alice's 6 rows");
is(as('idgen_t_alice', $count_alice_rows), 6, "alice sees her other session's rows");
is($node->q($count_alice_rows, db => $db), 6, 'a superuser sees them');

# idgen_snowflake_shards: the shards a session may mint on (allowed plus shard_id).
my $shards = "SELECT coalesce(string_agg(shard::text, ',' ORDER BY shard), '') FROM idgen_snowflake_shards
              WHERE family = 'snowflake'";
is(as('idgen_t_bob', $shards), '7,9', 'bob sees shards 7 and 9 only');
is(as('idgen_t_alice', $shards), '5,9', 'alice sees shards 5 and 9 only');
is( as( 'idgen_t_carol',
		"SELECT count(*) FROM idgen_snowflake_shards WHERE family = 'snowflake' AND shard IN (5, 7, 9)"),
	3,
	'carol (pg_read_all_stats) sees every shard, including 5 and 7');

$alice->quit;
done_testing();
