# snowflake() and snowflake53() across concurrent sessions: uniqueness,
# per-session and real-time order within a shard, bursts that borrow future
# milliseconds, the wait path under idgen.max_clock_regression = 0, independent
# shards, idgen.shard_id from ALTER DATABASE, and flat backend memory over one
# long statement. Sizes from IdgenTest::sizes (IDGEN_SOAK=1: the long mode).
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main');
my $db = $node->fresh_database('idgen_snowflake');
my ($sessions, $per_session) = @{ sizes() }{qw(SESSIONS PER_SESSION)};
$node->q(
	'CREATE UNLOGGED TABLE session_ids (
	     id bigint PRIMARY KEY, shard int, session int, n int, t0 timestamptz, t1 timestamptz)',
	db => $db);

# val SQL: one result from the test's database.
sub val { return $node->q($_[0], db => $db); }

# mint_shards FN COUNT SHARD...: one session per SHARD inserts COUNT FN(SHARD)
# values, all at once; the number of sessions that failed (a duplicate would
# violate the primary key).
sub mint_shards
{
	my ($fn, $count, @shards) = @_;
	val('TRUNCATE session_ids');
	return mint_concurrently(
		$node, $db,
		sub {
			my ($s) = @_;
			my $shard = $shards[ $s - 1 ];
			"INSERT INTO session_ids
			 SELECT id, $shard, $s, n, t0, t1 FROM (
			     SELECT n, clock_timestamp() AS t0, $fn($shard) AS id, clock_timestamp() AS t1
			     FROM generate_series(1, $count) n) minted";
		},
		sessions => scalar @shards);
}

# shard_stat FN SHARD COLUMN: one column of idgen_snowflake_shards (0 if the
# shard has no row).
sub shard_stat
{
	my ($fn, $shard, $column) = @_;
	return val(
		"SELECT coalesce((SELECT $column FROM idgen_snowflake_shards
		                  WHERE family = '$fn' AND shard = $shard), 0)");
}

# in_one_session FN SQL STATS: runs SQL, then selects the STATS columns of the
# backend's idgen_stats row for FN, in one session; (psql's status, its
# error output, the STATS values).
sub in_one_session
{
	my ($fn, $sql, $stats) = @_;
	my ($ret, $out, $err) = $node->psql($db,
		"$sql;\nSELECT $stats FROM idgen_stats WHERE pid = pg_backend_pid() AND family = '$fn'");
	return ($ret, $err, split /\|/, $out);
}

# split_checks FUNCTION MAX_SEQ TIME_SHIFT MAX_ID: every check below for one
# bit split (snowflake: 1024 IDs a millisecond, time above bit 23;
# snowflake53: 512, above bit 13, at most 2^53 - 1). The splits share the
# machinery, so they must pass the same checks.
sub split_checks
{
	my ($fn, $max_seq, $time_shift, $max_id) = @_;
	my $per_ms = $max_seq + 1;

	# IDs that do not decode to the shard that minted them, or are not positive.
	my $badly_decoded =
	  "SELECT count(*) FROM session_ids
	   WHERE id <= 0 OR id > $max_id OR ${fn}_shard(id) <> shard
	      OR ${fn}_seq(id) NOT BETWEEN 0 AND $max_seq";

	is(mint_shards($fn, $per_session, (7) x $sessions),
		0, "$fn shard 7: $sessions sessions x $per_session inserts into a primary key all succeed");
	is(val('SELECT count(DISTINCT id) FROM session_ids'),
		$sessions * $per_session, "$fn shard 7: every ID stored, none duplicated");
	is(not_increasing_per_session($node, $db), 0, "$fn shard 7: each session strictly increasing");
	is(out_of_real_time_order($node, $db, 'shard'),
		0, "$fn shard 7: no ID is below one returned before it was requested");
	is(val($badly_decoded), 0,
		"$fn shard 7: every ID is positive, at most $max_id and decodes to shard 7, seq 0..$max_seq");
	# IDs whose millisecond is before the clock reading taken before they were requested.
	is( val(
			"SELECT count(*) FROM session_ids WHERE ${fn}_time(id) < date_trunc('milliseconds', t0)"),
		0,
		"$fn shard 7: no ID's millisecond is before the clock when it was requested");
	is(shard_stat($fn, 7, 'last_id'), val('SELECT max(id) FROM session_ids'),
		"$fn shard 7: idgen_snowflake_shards.last_id is the largest ID stored");

	# A burst in one statement: over $per_ms IDs per millisecond borrow future milliseconds.
	val('SET client_min_messages = warning; DROP TABLE IF EXISTS burst;
	   CREATE UNLOGGED TABLE burst (n int, id bigint)');
	my $borrowed_before = shard_stat($fn, 11, 'borrowed_ms');
	my ($ret, $err, $minted, $ran_ahead) = in_one_session($fn,
		"INSERT INTO burst SELECT n, $fn(11) FROM generate_series(1, 100000) n",
		'ids_minted, ran_ahead');
	is($ret, 0, "$fn burst: 100000 $fn(11) in one statement succeed") or diag($err);
	my $borrowed = shard_stat($fn, 11, 'borrowed_ms') - $borrowed_before;
	is(val('SELECT count(DISTINCT id) FROM burst'), 100000, "$fn burst: 100000 distinct IDs");
	is( val(
			'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM burst) s
			 WHERE bad'),
		0,
		"$fn burst: strictly increasing in generation order");
	is(val("SELECT count(*) FROM burst WHERE ${fn}_shard(id) <> 11"),
		0, "$fn burst: all decode to shard 11");
	my $burst_span = val("SELECT max(id >> $time_shift) - min(id >> $time_shift) FROM burst");
	my $need_ms = int(100000 / $per_ms) - 1;
	cmp_ok($burst_span || 0, '>=', $need_ms,
		"$fn burst: the IDs span at least $need_ms ms, as 100000 / $per_ms needs");
	is($minted // 'none', 100000, "$fn burst: idgen_stats counted the backend's 100000 IDs");
	cmp_ok($ran_ahead // 0, '>', 0, "$fn burst: idgen_stats shows IDs issued ahead of the clock");
	ok($borrowed > 0 && $borrowed <= $need_ms + 1,
		"$fn burst: idgen_snowflake_shards shows borrowed milliseconds for shard 11 (at most "
		  . ($need_ms + 1)
		  . ' possible)')
	  or diag("got $borrowed");

	# The wait path: with no lead allowed, a full millisecond waits for the clock.
	# Shard 12 may start ahead of the clock (just below the lease after a
	# restart), which idgen.max_clock_regression = 0 would refuse: let the
	# clock pass it first.
	val('SET client_min_messages = warning; DROP TABLE IF EXISTS waited;
	   CREATE UNLOGGED TABLE waited (n int, id bigint, t1 timestamptz)');
	my $latest = val("SELECT $fn(12)");
	# The server's clock moves on and passes that ID's millisecond.
	$node->poll_query_until($db,
		"SELECT clock_timestamp() > ${fn}_time($latest) + interval '2 ms'")
	  or diag("the clock did not pass ${fn}_time($latest)");
	my $waits_before = shard_stat($fn, 12, 'waits');
	# The IDs are minted into arrays first: a row inserted at each call made
	# some runs mint fewer than $per_ms IDs a millisecond, so that no
	# millisecond filled and nothing had to wait.
	($ret, $err, my ($backend_waits), $ran_ahead) = in_one_session($fn,
		"SET idgen.max_clock_regression = 0;
		 INSERT INTO waited SELECT u.n, u.id, u.t1
		 FROM (SELECT array_agg(n ORDER BY n) AS ns, array_agg(id ORDER BY n) AS ids, array_agg(t1 ORDER BY n) AS t1s
		       FROM (SELECT n, $fn(12) AS id, clock_timestamp() AS t1 FROM generate_series(1, 20000) n) g) a,
		      unnest(a.ns, a.ids, a.t1s) AS u(n, id, t1)",
		'waits, ran_ahead');
	is($ret, 0, "$fn wait path: 20000 $fn(12) with idgen.max_clock_regression = 0 succeed")
	  or diag($err);
	my $shard_waits = shard_stat($fn, 12, 'waits') - $waits_before;
	my $span = val(
		"SELECT (extract(epoch FROM max(${fn}_time(id)) - min(${fn}_time(id))) * 1000)::int
		 FROM waited");
	$need_ms = int(20000 / $per_ms) - 1;
	is(val('SELECT count(DISTINCT id) FROM waited'), 20000, "$fn wait path: 20000 distinct IDs");
	is( val(
			'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM waited) s
			 WHERE bad'),
		0,
		"$fn wait path: strictly increasing in generation order");
	cmp_ok($backend_waits // 0, '>', 0, "$fn wait path: idgen_stats shows the backend waited");
	cmp_ok($shard_waits, '>', 0, "$fn wait path: idgen_snowflake_shards shows waits for shard 12");
	is($ran_ahead // 'none', 0, "$fn wait path: no ID issued ahead of the clock per idgen_stats");
	cmp_ok($span || 0, '>=', $need_ms,
		"$fn wait path: the IDs span at least $need_ms ms, as 20000 / $per_ms needs");
	is(val("SELECT count(*) FROM waited WHERE ${fn}_time(id) > t1"),
		0,
		"$fn wait path: no ID's millisecond is after the clock read right after it was minted");

	# Two shards, two sessions each, at once: each keeps its own counter.
	is(mint_shards($fn, 50000, 1, 1, 2, 2),
		0, "$fn shards 1 and 2: 2 sessions each x 50000 inserts into a primary key all succeed");
	is(val('SELECT count(DISTINCT id) FROM session_ids'),
		200000, "$fn shards 1 and 2: every ID stored, none duplicated across the table");
	is(not_increasing_per_session($node, $db),
		0, "$fn shards 1 and 2: each session strictly increasing");
	is(out_of_real_time_order($node, $db, 'shard'),
		0,
		"$fn shards 1 and 2: within each shard no ID is below one returned before it was requested"
	);
	is(val($badly_decoded), 0,
		"$fn shards 1 and 2: every ID is positive and decodes to its session's shard");
	my $shared_stamps = val(
		"SELECT count(*) FROM (
		     SELECT id >> $time_shift, id & $max_seq FROM session_ids WHERE shard = 1
		     INTERSECT SELECT id >> $time_shift, id & $max_seq FROM session_ids WHERE shard = 2) s");
	cmp_ok($shared_stamps || 0, '>', 0,
		"$fn shards 1 and 2: both used the same (ms, seq) pairs, so they do not share a counter");
	is(shard_stat($fn, 1, 'last_id') . ' ' . shard_stat($fn, 2, 'last_id'),
		val(
			"SELECT max(id) FILTER (WHERE shard = 1) || ' ' || max(id) FILTER (WHERE shard = 2)
			 FROM session_ids"),
		"$fn shards 1 and 2: idgen_snowflake_shards.last_id is each shard's largest ID");

	# One long statement on a shard of its own (it may run up to
	# idgen.max_clock_regression ahead of the clock and then wait).
	check_memory_flat($node, $db, $fn, "$fn(9)");
	return;
}

split_checks('snowflake', 1023, 23, '9223372036854775807');
split_checks('snowflake53', 511, 13, '9007199254740991');

# idgen.shard_id from ALTER DATABASE: new sessions of that database use it.
val("ALTER DATABASE $db SET idgen.shard_id = 5");
is(val('SELECT snowflake_shard(snowflake())'),
	5, "ALTER DATABASE SET idgen.shard_id = 5: a new session's snowflake() is from shard 5");
my $other = $node->fresh_database('idgen_snowflake_other');
# SELECT snowflake() in a new session of another database: "SQLSTATE: message".
my ($sqlstate, $message) = $node->error('SELECT snowflake()', db => $other) =~ /^(\w{5}): (.*)/;
is($sqlstate // '', '55000',
	'another database without the setting: snowflake() fails with SQLSTATE 55000');
like($message // '', qr/^idgen\.shard_id is not set/,
	'another database without the setting: the error says idgen.shard_id is not set');
val("ALTER DATABASE $db RESET idgen.shard_id");
($sqlstate) = $node->error('SELECT snowflake()', db => $db) =~ /^(\w{5}): /;
is($sqlstate // '', '55000',
	"after ALTER DATABASE RESET idgen.shard_id a new session's snowflake() fails with SQLSTATE 55000"
);

done_testing();
