# snowflake_layout_new() in the twitter layout (1 ms ticks, 4096 IDs a tick)
# and the sonyflake layout (10 ms ticks, 256 IDs a tick) across 8 concurrent
# sessions on one node: uniqueness, per-session and real-time order, the node
# fields; a burst in one statement, whose sequences count from 0 in each tick
# without a gap; in sonyflake, whose ticks a session fills, each tick's
# sequence used up before the next tick is borrowed, and the wait path under
# idgen.max_clock_regression = 0, in whole ticks (one session mints about
# 1,400 IDs a millisecond here, under twitter's 4096: snowflake_layout_restart.pl
# fills twitter's ticks with the clock set back); idgen_stats; flat backend
# memory over one long statement; and the layout slots of
# idgen.max_snowflake_layouts (5 here) running out. PER_SESSION and
# MEMORY_CALLS from IdgenTest::sizes (IDGEN_SOAK=1: the long mode; SESSIONS,
# PER_SESSION and MEMORY_CALLS in the environment win).
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main', conf => ['idgen.max_snowflake_layouts = 5']);
my $db = $node->fresh_database('idgen_layout');
# 8 sessions whatever the mode (the issue's size); SESSIONS in the environment wins.
local $ENV{SESSIONS} = $ENV{SESSIONS} // 8;
my ($sessions, $per_session) = @{ sizes() }{qw(SESSIONS PER_SESSION)};
create_session_ids($node, $db, 'bigint');

# val SQL: one result from the test's database.
sub val { return $node->q($_[0], db => $db); }

# layout_checks LAYOUT UNIT_MS SEQ_BITS NODE FIELDS FILLS: the checks for one
# layout, minting for NODE (whose node fields are the jsonb FIELDS), NODE + 1
# and NODE + 2; FILLS: one session fills the layout's ticks, so its burst must
# borrow and its wait path wait.
sub layout_checks
{
	my ($layout, $unit_ms, $seq_bits, $node_value, $fields, $fills) = @_;
	my $per_tick = 2**$seq_bits;
	my $call = "snowflake_layout_new('$layout', $node_value)";
	my $tick = "snowflake_layout_field(id, '$layout', 'time')";
	my $unit = "interval '$unit_ms ms'";

	is(mint_timed_sessions($node, $db, $call, sessions => $sessions),
		0, "$layout: $sessions sessions x $per_session inserts into a primary key all succeed");
	is(val('SELECT count(DISTINCT id) FROM session_ids'),
		$sessions * $per_session, "$layout: every ID stored, none duplicated");
	is(not_increasing_per_session($node, $db), 0, "$layout: each session strictly increasing");
	is(out_of_real_time_order($node, $db), 0,
		"$layout: no ID is below one returned before it was requested");
	is( val(
			"SELECT count(*) FROM session_ids
			 WHERE id <= 0 OR snowflake_layout_decompose(id, '$layout')
			                  - 'time' - 'sequence' - 'unix_ms' - 'timestamp' <> '$fields'::jsonb"),
		0,
		"$layout: every ID is positive and decodes to node ${node_value}'s fields, $fields");
	is( val("SELECT count(*) FROM session_ids WHERE snowflake_layout_time(id, '$layout') + $unit <= t0"),
		0, "$layout: no ID's tick ended before the clock when it was requested");

	# A burst in one statement: each tick's sequence counts from 0 without a
	# gap (the first tick may have begun before); where a session fills the
	# ticks, each is used up and the next borrowed, ahead of the clock.
	val('SET client_min_messages = warning; DROP TABLE IF EXISTS burst;
	   CREATE UNLOGGED TABLE burst (n int, id bigint)');
	my ($ret, $out, $err) = $node->psql($db,
		"INSERT INTO burst SELECT n, $call FROM generate_series(1, 100000) n;
		 SELECT ran_ahead > 0 FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'snowflake_layout'");
	is($ret, 0, "$layout burst: 100000 IDs in one statement succeed") or diag($err);
	is(val('SELECT count(DISTINCT id) FROM burst'), 100000, "$layout burst: 100000 distinct IDs");
	is( val(
			'SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM burst) s
			 WHERE bad'),
		0,
		"$layout burst: strictly increasing in generation order");
	my $seq = "snowflake_layout_field(id, '$layout', 'sequence')";
	is( val(
			"SELECT count(*) FROM (SELECT $tick AS tick, count(*) AS n, min($seq) AS lo, max($seq) AS hi
			                      FROM burst GROUP BY 1) s
			 WHERE (lo <> 0 OR hi <> n - 1) AND tick > (SELECT min($tick) FROM burst)"),
		0,
		"$layout burst: in each tick the sequence counts from 0 without a gap");
	return check_memory_flat($node, $db, 'snowflake_layout',
		"snowflake_layout_new('$layout', " . ($node_value + 2) . ')')
	  unless $fills;
	is($out, 't', "$layout burst: idgen_stats shows snowflake_layout IDs issued ahead of the clock");
	# Every tick between the first and the last (which may be partly used) is full.
	is( val(
			"SELECT count(*) FROM (SELECT $tick AS tick, count(*) AS n FROM burst GROUP BY 1) s
			 WHERE n <> $per_tick
			   AND tick > (SELECT min($tick) FROM burst) AND tick < (SELECT max($tick) FROM burst)"),
		0,
		"$layout burst: each tick's $per_tick sequences are used up before the next tick");
	my $need = int(100000 / $per_tick) - 1;
	cmp_ok(val("SELECT max($tick) - min($tick) FROM burst"),
		'>=', $need, "$layout burst: the IDs span at least $need ticks, as 100000 / $per_tick needs");

	# The wait path: with no lead allowed, a full tick waits for the clock's next one.
	val('SET client_min_messages = warning; DROP TABLE IF EXISTS waited;
	   CREATE UNLOGGED TABLE waited (n int, id bigint, t1 timestamptz)');
	my $wait_call = "snowflake_layout_new('$layout', " . ($node_value + 1) . ')';
	my $count = 20 * $per_tick;
	($ret, $out, $err) = $node->psql($db,
		"SET idgen.max_clock_regression = 0;
		 INSERT INTO waited SELECT u.n, u.id, u.t1
		 FROM (SELECT array_agg(n ORDER BY n) AS ns, array_agg(id ORDER BY n) AS ids, array_agg(t1 ORDER BY n) AS t1s
		       FROM (SELECT n, $wait_call AS id, clock_timestamp() AS t1 FROM generate_series(1, $count) n) g) a,
		      unnest(a.ns, a.ids, a.t1s) AS u(n, id, t1);
		 SELECT waits > 0 FROM idgen_stats WHERE pid = pg_backend_pid() AND family = 'snowflake_layout'");
	is($ret, 0, "$layout wait path: $count IDs with idgen.max_clock_regression = 0 succeed")
	  or diag($err);
	is($out, 't', "$layout wait path: idgen_stats shows the backend waited");
	is(val('SELECT count(DISTINCT id) FROM waited'), $count, "$layout wait path: $count distinct IDs");
	is( val("SELECT count(*) FROM waited WHERE snowflake_layout_time(id, '$layout') > t1"),
		0, "$layout wait path: no ID's tick starts after the clock read right after it was minted");
	cmp_ok(val("SELECT max($tick) - min($tick) FROM waited"),
		'>=', 19, "$layout wait path: the IDs span at least 19 ticks, as $count / $per_tick needs");

	check_memory_flat($node, $db, 'snowflake_layout', "snowflake_layout_new('$layout', "
		  . ($node_value + 2) . ')');
	return;
}

layout_checks('twitter', 1, 12, 101, '{"datacenter": 3, "worker": 5}', 0);
layout_checks('sonyflake', 10, 8, 7, '{"machine": 7}', 1);

my ($sqlstate, $message) =
  $node->error("SELECT snowflake_layout_new('pgedge', 1)", db => $db) =~ /^(\w{5}): (.*)/;
is($sqlstate // '', '53400', 'a sixth layout and node fails with 53400 when the 5 slots are taken');
like($message // '', qr/^no snowflake layout slot is free for layout "pgedge" node 1/,
	'the error names the layout and node');
like($node->q("SELECT snowflake_layout_new('twitter', 101) > 0", db => $db), qr/^t$/,
	'the layouts that hold a slot still mint');

done_testing();
