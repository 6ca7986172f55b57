# prefixed_id_new() across concurrent sessions: uniqueness, per-session order
# (its 128 bits come from uuid_v7()'s per-backend sequence), the prefix and a
# UUIDv7 payload on every ID, per-backend random streams, and flat backend
# memory over one long statement. Sizes from IdgenTest::sizes (IDGEN_SOAK=1:
# the long mode).
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main');
my $db = $node->fresh_database('idgen_prefixed_sessions');
my ($sessions, $per_session) = @{ sizes() }{qw(SESSIONS PER_SESSION)};
$node->q('CREATE UNLOGGED TABLE session_ids (id prefixed_id PRIMARY KEY, session int, n int)',
	db => $db);

# SESSIONS concurrent inserts; a duplicate would violate the primary key.
is( mint_concurrently(
		$node, $db,
		sub {
			my ($s) = @_;
			"INSERT INTO session_ids
			 SELECT prefixed_id_new('acct'), $s, n FROM generate_series(1, $per_session) n";
		}),
	0,
	"$sessions sessions x $per_session prefixed_id_new('acct') inserts into a primary key all succeed");
is($node->q('SELECT count(DISTINCT id) FROM session_ids', db => $db),
	$sessions * $per_session, 'every value stored, none duplicated');
is(not_increasing_per_session($node, $db), 0, 'each session strictly increasing');
is( $node->q(
		"SELECT count(*) FROM session_ids
		 WHERE prefixed_id_prefix(id) <> 'acct' OR prefixed_id_time(id) IS NULL", db => $db),
	0, 'every ID has the prefix acct and UUIDv7 bits');
# Characters 21.. of the uuid text are the variant and 62 random bits.
is( $node->q(
		"SELECT count(*) FROM (SELECT n FROM session_ids WHERE n <= 1000 GROUP BY n
		     HAVING count(DISTINCT substr(prefixed_id_uuid(id)::text, 21)) < $sessions) s",
		db => $db),
	0, 'random bits differ between backends for the same call number');

check_memory_flat($node, $db, 'uuid_v7', "prefixed_id_new('acct')");

done_testing();
