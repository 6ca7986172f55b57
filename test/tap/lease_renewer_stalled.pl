# A stalled renewer hands over (issue 51, finding 3). The session that renews a
# lease is stopped (SIGSTOP) while it waits for the synchronous standbys; the
# standbys are then no longer required. idgen 0.8.0 made every later call that
# needed the renewal wait for the stopped session until it continued (or was
# killed, which takes effect only after SIGCONT): nobody minted. Now a session
# that has waited kRenewalHandOverMs (5 s) renews itself; when the stopped
# renewer continues, its older renewal lowers nothing, and no ID repeats.
use strict;
use warnings;
use Time::HiRes qw(time sleep);
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main', streaming => 1);
$node->q("CREATE EXTENSION idgen; SELECT snowflake(6), uuid_v7()");
# The leases run out (their span is 2 s); the next call of each renews, and
# waits for a synchronous standby that does not exist.
sleep 2.5;
$node->q("ALTER SYSTEM SET synchronous_standby_names = 'nosuchstandby'; SELECT pg_reload_conf()");
$node->poll_query_until('postgres', 'SHOW synchronous_standby_names', 'nosuchstandby');
my %renewer = (
	snowflake => $node->psql_to_file('renewer_snowflake', 'SELECT snowflake(6)', timeout => 120),
	clock => $node->psql_to_file('renewer_clock', 'SELECT uuid_v7()', timeout => 120));
my %pid;
for my $kind (sort keys %renewer)
{
	ok( $node->poll_query_until('postgres',
			"SELECT count(*) > 0 FROM pg_stat_activity WHERE application_name = 'renewer_$kind' AND wait_event = 'SyncRep'"),
		"the $kind lease's renewer waits for the synchronous standby");
	$pid{$kind} = $node->q("SELECT pid FROM pg_stat_activity WHERE application_name = 'renewer_$kind'");
	ok(kill('STOP', $pid{$kind}), "the $kind lease's renewer is stopped with SIGSTOP");
}
my %end_before = map { $_ => $node->lease_end($_) } keys %renewer;

# The standbys are no longer required: a renewal now needs no wait, but the
# stopped renewers cannot finish theirs.
$node->q("ALTER SYSTEM RESET synchronous_standby_names; SELECT pg_reload_conf()");
$node->poll_query_until('postgres', 'SHOW synchronous_standby_names', '');
for my $call ('snowflake(6)', 'uuid_v7()')
{
	my $started = time;
	my ($status, $out, $err) = $node->run_sql("SET statement_timeout = '20s'; SELECT $call", verbose => 1);
	my $took = time - $started;
	like($out, qr/^(\d{15,}|[0-9a-f]{8}-[0-9a-f-]{27})$/, "with the renewer stopped, $call returns an ID")
	  or diag($err);
	ok($took < 12, sprintf("... after the hand-over, within 12 s (%.1f s)", $took));
}
my %end_after = map { $_ => $node->lease_end($_) } keys %renewer;
for my $kind (sort keys %renewer)
{
	cmp_ok($end_after{$kind}, '>', $end_before{$kind}, "the $kind lease was renewed by the session that took over");
}
is($node->q("SET statement_timeout = '20s'; SELECT count(DISTINCT id) FROM (SELECT snowflake(6) AS id FROM generate_series(1, 100000)) s"),
	100000, 'minting goes on');

# The stopped renewers continue: each returns its ID, and their older
# renewals lower nothing.
kill 'CONT', values %pid;
$_->finish for values %renewer;
my $late_snowflake = $renewer{snowflake}->output;
like($late_snowflake, qr/^\d{15,}$/m, 'the snowflake renewer, continued, returns its ID');
like($renewer{clock}->output, qr/^[0-9a-f]{8}-/m, 'the clock renewer, continued, returns its ID');
for my $kind (sort keys %renewer)
{
	cmp_ok($node->lease_end($kind), '>=', $end_after{$kind}, "the $kind lease's end did not go down");
}
my ($late_id) = $late_snowflake =~ /^(\d{15,})$/m;
is( $node->q(
		"SELECT count(*) FILTER (WHERE id = $late_id) || ' ' || count(DISTINCT id)
		 FROM (SELECT snowflake(6) AS id FROM generate_series(1, 100000)) s"),
	'0 100000',
	"no later snowflake repeats the continued renewer's");

done_testing();
