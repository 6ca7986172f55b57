# uuid_v7 across concurrent sessions: uniqueness, per-session order, server-wide
# order under idgen.uuid_v7_order = 'server', per-backend random streams,
# idgen_stats listing live backends only, and flat backend memory over one long
# statement in either order. Sizes from IdgenTest::sizes (IDGEN_SOAK=1: the
# long mode).
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main');
my $db = $node->fresh_database('idgen_sessions');
my ($sessions, $per_session) = @{ sizes() }{qw(SESSIONS PER_SESSION)};
create_session_ids($node, $db, 'uuid');

# mint ORDER: SESSIONS concurrent inserts of uuid_v7() in that order; the number
# that failed.
sub mint
{
	my ($order) = @_;
	return mint_timed_sessions($node, $db, 'uuid_v7()', env => { PGOPTIONS => "-c idgen.uuid_v7_order=$order" });
}

for my $order (qw(backend server))
{
	is(mint($order), 0,
		"$order order: $sessions sessions x $per_session inserts into a primary key all succeed");
	is($node->q('SELECT count(DISTINCT id) FROM session_ids', db => $db),
		$sessions * $per_session, "$order order: every value stored, none duplicated");
	is(not_increasing_per_session($node, $db), 0, "$order order: each session strictly increasing");
	if ($order eq 'backend')
	{
		is( $node->q(
				"SELECT count(*) FROM (SELECT n FROM session_ids WHERE n <= 1000 GROUP BY n
				     HAVING count(DISTINCT substr(id::text, 21)) < $sessions) s", db => $db),
			0, 'random bits differ between backends for the same call number');
	}
	else
	{
		is(out_of_real_time_order($node, $db), 0,
			'server order: no value is below one returned before it was requested');
	}
}

check_memory_flat($node, $db, 'uuid_v7', 'uuid_v7()');
check_memory_flat($node, $db, 'uuid_v7', 'uuid_v7()', "SET idgen.uuid_v7_order = 'server'");

check_stats_follow_live_sessions($node, $db, 'uuid_v7', 'uuid_v7()');

done_testing();
