# ulid() across concurrent sessions: uniqueness, per-session order, server-wide
# order under idgen.ulid_order = 'server', per-backend random streams,
# idgen_stats listing live backends only, and flat backend memory over one
# long statement in either order (and a statement whose memory does grow, to
# show that the memory check can fail). Sizes from IdgenTest::sizes
# (IDGEN_SOAK=1: the long mode).
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main');
my $db = $node->fresh_database('idgen_ulid_sessions');
my ($sessions, $per_session) = @{ sizes() }{qw(SESSIONS PER_SESSION)};
create_session_ids($node, $db, 'ulid');

# mint ORDER: SESSIONS concurrent inserts of ulid() in that order; the number
# that failed.
sub mint
{
	my ($order) = @_;
	return mint_timed_sessions($node, $db, 'ulid()', env => { PGOPTIONS => "-c idgen.ulid_order=$order" });
}

for my $order (qw(backend server))
{
	is(mint($order), 0,
		"$order order: $sessions sessions x $per_session ulid() inserts into a primary key all succeed");
	is($node->q('SELECT count(DISTINCT id) FROM session_ids', db => $db),
		$sessions * $per_session, "$order order: every value stored, none duplicated");
	is(not_increasing_per_session($node, $db), 0, "$order order: each session strictly increasing");
	if ($order eq 'backend')
	{
		# The last 16 characters are the 80 random bits. Backends that shared
		# a random stream would repeat each other's values; in one backend
		# they only step by 1.
		is( $node->q(
				"SELECT count(*) FROM (SELECT substr(id::text, 11) AS random_part FROM session_ids
				     WHERE n <= 1000 GROUP BY 1 HAVING count(DISTINCT session) > 1) s", db => $db),
			0, 'no 80-bit random part is shared by two sessions among their first 1000 IDs');
		# What 'server' order forbids happens in 'backend' order: the check
		# below can fail.
		cmp_ok(out_of_real_time_order($node, $db),
			'>', 0, 'backend order: some value is below one returned before it was requested');
	}
	else
	{
		is(out_of_real_time_order($node, $db), 0,
			'server order: no value is below one returned before it was requested');
	}
}

check_memory_flat($node, $db, 'ulid', 'ulid()');
check_memory_flat($node, $db, 'ulid', 'ulid()', "SET idgen.ulid_order = 'server'");
{
	# array_agg keeps every value (about 40 bytes each); 1M calls at every size.
	local $ENV{MEMORY_CALLS} = 1_000_000;
	my (undef, $summary, $status) =
	  IdgenTest::memory_profile($node, $db, 'ulid', 'ulid()', 'cardinality(array_agg(id))');
	is($status, 1,
		'the memory check fails a statement whose memory grows: array_agg over 1000000 ulid() calls');
	note($summary);
}

check_stats_follow_live_sessions($node, $db, 'ulid', 'ulid()');

done_testing();
