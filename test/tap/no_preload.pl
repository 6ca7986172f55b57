# Without shared_preload_libraries: uuid_v7, uuid_v6 and ulid work with backend-local
# state, idgen_stats says shared memory is missing, 'server' order and
# snowflake() refuse clearly (never a per-backend counter), snowflake decoders
# still work. objectid() and xid() keep their process value and counter in
# the backend: each backend is a process of the BSON spec's.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('nopreload', preload => 0);

# session SQL [verbose => 1]: one psql session runs SQL, going on after an
# error; (its output, its messages: notices, errors and hints).
sub session
{
	my ($sql, %opt) = @_;
	my (undef, $out, $err) = $node->psql('postgres',
		($opt{verbose} ? "\\set VERBOSITY verbose\n" : '') . $sql,
		on_error_stop => 0);
	return ($out, $err);
}

is($node->psql('postgres', 'CREATE EXTENSION idgen'),
	0, 'CREATE EXTENSION idgen works without preloading');
is( $node->q(
		'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad
		     FROM (SELECT n, uuid_v7() AS id FROM generate_series(1, 50000) n) s) t WHERE bad'),
	0,
	'uuid_v7() is strictly increasing with backend-local state');
my ($out, $err) = session(
	'SELECT uuid_v7() IS NOT NULL;
	 SELECT family, ids_minted, shared_memory, pid = pg_backend_pid() FROM idgen_stats;');
like($err, qr/NOTICE:  idgen shared memory is not available/,
	'idgen_stats notices that shared memory is not available');
like($err, qr/HINT:  Add idgen to shared_preload_libraries/,
	'idgen_stats hints at shared_preload_libraries');
like($out, qr/^uuid_v7\|1\|f\|t$/m,
	"idgen_stats shows this backend's local state, marked not shared");
# ulid() keeps its sequence in the backend too, so it needs no shared memory.
is( $node->q(
		'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad
		     FROM (SELECT n, ulid() AS id FROM generate_series(1, 50000) n) s) t WHERE bad'),
	0,
	'ulid() is strictly increasing with backend-local state');
($out) = session(
	'SELECT ulid() IS NOT NULL;
	 SELECT family, ids_minted, shared_memory, pid = pg_backend_pid() FROM idgen_stats;');
like($out, qr/^ulid\|1\|f\|t$/m,
	"idgen_stats shows this backend's local ulid state, marked not shared");
(undef, $err) =
  session("SET idgen.uuid_v7_order = 'server';\nSELECT uuid_v7();", verbose => 1);
like(
	$err,
	qr/ERROR:  55000: idgen\.uuid_v7_order = 'server' needs idgen's shared memory/,
	"'server' order without shared memory fails with SQLSTATE 55000");
like(
	$err,
	qr/HINT:  Add idgen to shared_preload_libraries and restart the server\./,
	"the 'server' order error hints at shared_preload_libraries");
# uuid_v6() as uuid_v7(): backend-local order, and 'server' order refused.
is( $node->q(
		'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad
		     FROM (SELECT n, uuid_v6() AS id FROM generate_series(1, 50000) n) s) t WHERE bad'),
	0,
	'uuid_v6() is strictly increasing with backend-local state');
(undef, $err) = session("SET idgen.uuid_v6_order = 'server';\nSELECT uuid_v6();", verbose => 1);
like(
	$err,
	qr/ERROR:  55000: idgen\.uuid_v6_order = 'server' needs idgen's shared memory/,
	"uuid_v6() refuses 'server' order without shared memory (55000)");
(undef, $err) = session("SET idgen.ulid_order = 'server';\nSELECT ulid();", verbose => 1);
like(
	$err,
	qr/ERROR:  55000: idgen\.ulid_order = 'server' needs idgen's shared memory/,
	"ulid() in 'server' order without shared memory fails with SQLSTATE 55000");
like(
	$err,
	qr/HINT:  Add idgen to shared_preload_libraries and restart the server\./,
	"the ulid 'server' order error hints at shared_preload_libraries");
(undef, $err) = session('SELECT snowflake(1);', verbose => 1);
like($err, qr/ERROR:  55000: snowflake\(\) needs idgen's shared memory/,
	'snowflake() without shared memory fails with SQLSTATE 55000');
like(
	$err,
	qr/HINT:  Add idgen to shared_preload_libraries and restart the server\./,
	'the snowflake error hints at shared_preload_libraries');
(undef, $err) = session("SET idgen.shard_id = 3;\nSELECT snowflake();", verbose => 1);
like($err, qr/ERROR:  55000: snowflake\(\) needs idgen's shared memory/,
	'snowflake() with a default shard fails the same way');
is( $node->q(
		"SELECT snowflake_shard(snowflake_boundary('2025-01-01+00', 12)) || ' '
		     || snowflake_time(9007199263129600) AT TIME ZONE 'UTC'"),
	'12 2024-01-13 10:15:41.825',
	'snowflake decoders and boundaries work without shared memory');
is( $node->q("SELECT snowflake53_seq(1) = 1;\nSHOW idgen.snowflake_epoch;"),
	"t\n2024-01-01",
	'idgen.snowflake_epoch is defined once the library is loaded');
(undef, $err) = session("SELECT snowflake53_seq(1);\nSET idgen.snowflake_epoch = '2020-01-01';",
	verbose => 1);
like($err, qr/ERROR:  55P02/,
	'without preloading the epoch still cannot be changed in a session (55P02)');
(undef, $err) = session('SELECT count(*) FROM idgen_snowflake_shards;');
like(
	$err,
	qr/NOTICE:  idgen shared memory is not available; no shard has state/,
	'idgen_snowflake_shards notices that shared memory is not available');

# objectid() and xid() without shared memory: each backend draws its own
# process value (xid: machine id and pid) and counter start at its first ID,
# and counts on by one.
for my $f (['objectid()', 'objectid', "encode(objectid_process(id), 'hex')", 'objectid_counter'],
	['xid()', 'xid', "encode(xid_machine(id), 'hex') || xid_pid(id)", 'xid_counter'])
{
	my ($call, $family, $process, $counter) = @$f;
	my $one_backend = "SELECT count(DISTINCT $process) || ' ' || count(*) FILTER (WHERE $counter(id)
	                        <> ($counter(prev) + 1) % 16777216)
	                   FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
	                         FROM (SELECT n, $call AS id FROM generate_series(1, 50000) n) s) t
	                   WHERE prev IS NOT NULL";
	is($node->q($one_backend), '1 0',
		"$call without shared memory: one process value per backend, the counter + 1 per ID");
	my @values = map { $node->q("SELECT $process FROM (SELECT $call AS id) s") } 1 .. 3;
	is(scalar(keys %{ { map { $_ => 1 } @values } }), 3,
		"$call without shared memory: three backends, three process values");
	($out) = session("SELECT $call IS NOT NULL;
	 SELECT family, ids_minted, shared_memory, pid = pg_backend_pid() FROM idgen_stats;");
	like($out, qr/^$family\|1\|f\|t$/m,
		"idgen_stats shows this backend's local $family state, marked not shared");
}

done_testing();
