# Lease renewals waiting for a synchronous standby that does not answer. One
# session per lease waits in SyncRep (the renewer); every other session that
# needs the same renewal must wait in a way that statement_timeout,
# pg_cancel_backend and pg_terminate_backend end at once (idgen 0.7.0 made them
# wait on the lease's LWLock, which nothing interrupts), under a wait event of
# its own; minting resumes by itself once the standby answers; and no
# snowflake is handed out beyond the last renewal the standby confirmed.
# 1. synchronous_standby_names names a standby that does not exist; RESET and
#    a reload bring minting back.
# 2. The same with a real streaming standby, stopped and started again.
# 3. The guarantee: snowflakes minted by sessions racing towards the lease's
#    end while its renewal is cancelled all lie below the lease file's end
#    (written only once a renewal is confirmed).
use strict;
use warnings;
use Time::HiRes qw(time sleep);
use IdgenTest;
use Test::More;

my $primary = IdgenTest::Node->create('primary', streaming => 1);
$primary->q("CREATE EXTENSION idgen; SELECT snowflake(6), uuid_v7(), prefixed_id_new('acct')");

# The lease's span: a call more than this after the last renewal needs a new
# one, and waits for it (kLeaseSpanMs in src/pg/state.hpp).
my $lease_span = 2.0;

# wait_event APPNAME: "type event" of the session named APPNAME, '' when none.
sub wait_event
{
	my ($appname) = @_;
	return $primary->q(
		"SELECT coalesce(wait_event_type, '') || ' ' || coalesce(wait_event, '')
		 FROM pg_stat_activity WHERE application_name = '$appname'");
}

# waits_for APPNAME, QUALIFIED: polls (up to 30 s) until the session named
# APPNAME waits with wait_event_type || ' ' || wait_event matching the SQL
# regular expression QUALIFIED; whether it did.
sub waits_for
{
	my ($appname, $regex) = @_;
	return $primary->poll_query_until('postgres',
		"SELECT count(*) > 0 FROM pg_stat_activity WHERE application_name = '$appname'
		 AND coalesce(wait_event_type, '') || ' ' || coalesce(wait_event, '') ~ '$regex'");
}

# The wait of a session that needs a renewal another session is waiting for:
# wait_event_type Extension; the event is "Extension" before PostgreSQL 17 and
# IdgenLeaseRenewal from 17 on (a custom wait event).
my $renewal_wait =
  $primary->q('SHOW server_version_num') >= 170000
  ? '^Extension IdgenLeaseRenewal$'
  : '^Extension Extension$';

# gone_within APPNAME: seconds until no session named APPNAME remains (polled
# every 50 ms, up to 10 s), or undef.
sub gone_within
{
	my ($appname) = @_;
	my $started = time;
	while (time - $started < 10)
	{
		return time - $started
		  if $primary->q("SELECT count(*) FROM pg_stat_activity WHERE application_name = '$appname'")
		  == 0;
		sleep 0.05;
	}
	return undef;
}

# unanswered LABEL: the synchronous standby does not answer; the leases ran
# out (no call for longer than their span). Checks that a renewer waits in
# SyncRep on each lease, that every other call needing the renewals ends at
# its statement_timeout (57014) or at a cancel or terminate, within a second,
# and shows the renewal wait event. Returns the two renewers.
sub unanswered
{
	my ($label) = @_;
	sleep $lease_span + 0.5;
	my %renewer = (
		snowflake => $primary->psql_to_file("renew_sf_$label", 'SELECT snowflake(6)', timeout => 180),
		clock => $primary->psql_to_file("renew_clock_$label", 'SELECT uuid_v7()', timeout => 180));
	for my $lease (sort keys %renewer)
	{
		ok(waits_for($renewer{$lease}{name}, '^IPC SyncRep$'),
			"$label: a call renewing the $lease lease waits for the synchronous standby");
	}

	# statement_timeout: the call ends with 57014 about 2 s after it began.
	my @timed = map {
		$primary->psql_to_file("timed_${label}_$_->[0]", "SET statement_timeout = '2s'; SELECT $_->[1]", timeout => 15)
	} ([ 'snowflake', 'snowflake(6)' ], [ 'uuid', 'uuid_v7()' ], [ 'prefixed', "prefixed_id_new('acct')" ]);
	for my $c (@timed)
	{
		my $took = $c->finish;
		ok(defined $took && $took < 3.5,
			"$label: $c->{name} ends at its statement_timeout, within 3.5 s")
		  or diag('took ' . ($took // 'over 15 s') . ": " . $c->output);
		like($c->output, qr/ERROR:  57014: canceling statement due to statement timeout/,
			"$label: $c->{name} fails with 57014");
		unlike($c->output, qr/^\d{15,}$|^[0-9a-f]{8}-|^acct_/m, "$label: $c->{name} returns no ID");
	}

	# pg_cancel_backend and pg_terminate_backend of sessions waiting for
	# another session's renewal.
	my %waiter = (
		cancelled => $primary->psql_to_file("cancelled_$label", 'SELECT snowflake(6)', timeout => 15),
		terminated => $primary->psql_to_file("terminated_$label", 'SELECT uuid_v7()', timeout => 15));
	for my $kind (sort keys %waiter)
	{
		my $name = $waiter{$kind}{name};
		ok(waits_for($name, $renewal_wait),
			"$label: $name, waiting for another session's renewal, shows the renewal wait event")
		  or diag("$name waits for: " . wait_event($name));
	}
	$primary->q(
		"SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'cancelled_$label'");
	my $started = time;
	$waiter{cancelled}->finish;
	my $took = gone_within("cancelled_$label");
	ok(defined $took && time - $started < 1.5, "$label: pg_cancel_backend ends the waiting call at once")
	  or diag('took ' . ($took // 'over 10 s'));
	like($waiter{cancelled}->output, qr/ERROR:  57014: canceling statement due to user request/,
		"$label: ... with 57014");
	$primary->q(
		"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'terminated_$label'");
	$took = gone_within("terminated_$label");
	ok(defined $took && $took < 1, "$label: pg_terminate_backend ends the waiting session within 1 s")
	  or diag('took ' . ($took // 'over 10 s'));
	$waiter{terminated}->finish;
	unlike($waiter{terminated}->output, qr/^[0-9a-f]{8}-/m, "$label: ... without an ID");

	# The renewers are still waiting: nothing was confirmed.
	for my $lease (sort keys %renewer)
	{
		is(wait_event($renewer{$lease}{name}), 'IPC SyncRep',
			"$label: the $lease renewer still waits for the standby");
	}
	return \%renewer;
}

# resumed LABEL RENEWERS: the standby answers again: each renewer returns its
# ID and new calls mint at once.
sub resumed
{
	my ($label, $renewer) = @_;
	for my $lease (sort keys %$renewer)
	{
		my $c = $renewer->{$lease};
		my $took = $c->finish;
		ok(defined $took, "$label: the $lease renewer returns once the standby answers")
		  or diag($c->output);
		like($c->output, $lease eq 'snowflake' ? qr/^\d{15,}$/m : qr/^[0-9a-f]{8}-[0-9a-f]{4}-7/m,
			"$label: ... with its ID");
	}
	my $c = $primary->psql_to_file("resumed_$label",
		"SET statement_timeout = '5s'; SELECT snowflake(6) > 0 AND uuid_v7() IS NOT NULL
		   AND prefixed_id_new('acct') IS NOT NULL",
		timeout => 15);
	my $took = $c->finish;
	ok(defined $took && $c->output =~ /^t$/m, "$label: minting resumes without a restart")
	  or diag($c->output);
}

# 1. A synchronous standby that does not exist.
$primary->q("ALTER SYSTEM SET synchronous_standby_names = 'nosuchstandby'");
$primary->q('SELECT pg_reload_conf()');
ok($primary->poll_query_until('postgres', 'SHOW synchronous_standby_names', 'nosuchstandby'),
	'synchronous_standby_names names a standby that does not exist');
my $renewer = unanswered('nosuchstandby');
$primary->q('ALTER SYSTEM RESET synchronous_standby_names');
$primary->q('SELECT pg_reload_conf()');
resumed('nosuchstandby', $renewer);

# 3. The guarantee. The lease was just renewed; the standby stops answering.
# Four sessions mint snowflakes as fast as they can, one ID a statement, until
# their statement_timeout (1 s, renewed per statement) ends a wait: the
# session that renews the lease ahead of time waits in SyncRep, the others
# mint on until the lease's end, then wait for that renewal.
$primary->q("ALTER SYSTEM SET synchronous_standby_names = 'nosuchstandby'");
$primary->q('SELECT pg_reload_conf()');
$primary->poll_query_until('postgres', 'SHOW synchronous_standby_names', 'nosuchstandby');
my @racers = map {
	$primary->psql_to_file("racer$_", "SET statement_timeout = '1s';\n" . ("SELECT snowflake(6);\n" x 100000), timeout => 60)
} 1 .. 4;
my @ids;
my $racers_ended = 1;
my %ended_by;
for my $c (@racers)
{
	$racers_ended &&= defined $c->finish;
	push @ids, $c->output =~ /^(\d{15,})$/mg;
	my ($error) = $c->output =~ /ERROR:  (57014: [^\n]*)/;
	$ended_by{ $error // 'no error' }++;
	note("$c->{name}: " . (() = $c->output =~ /^(\d{15,})$/mg) . ' IDs, then ' . ($error // 'no error'));
}
ok($racers_ended, 'the racing sessions end');
ok($ended_by{'57014: snowflake lease renewal was not confirmed by a synchronous standby'},
	'a racing session renewed the lease and its renewal was cancelled unconfirmed');
my $lease_end = $primary->lease_end('snowflake');
ok(@ids > 0, 'the racing sessions minted before the lease ran out (' . scalar(@ids) . ' IDs)');
my @beyond = grep { ($_ >> 23) >= $lease_end } @ids;
is(scalar(@beyond), 0,
	"no snowflake lies at or beyond the confirmed lease's end ($lease_end ms since the epoch)")
  or diag("beyond: @beyond[0 .. ($#beyond < 4 ? $#beyond : 4)]");
my $max_ms = 0;
$max_ms = $_ >> 23 > $max_ms ? $_ >> 23 : $max_ms for @ids;
note("latest snowflake ms $max_ms, lease end $lease_end");
# The unconfirmed renewal's WAL record is on the primary's disk only; the
# file still holds the last confirmed end until a renewal is confirmed.
$primary->q('ALTER SYSTEM RESET synchronous_standby_names');
$primary->q('SELECT pg_reload_conf()');
my $after = $primary->psql_to_file('after_race', "SET statement_timeout = '5s'; SELECT snowflake(6)", timeout => 15);
$after->finish;
my ($after_id) = $after->output =~ /^(\d{15,})$/m;
ok(defined $after_id && @ids && $after_id > (sort { $b <=> $a } @ids)[0],
	'once the standby answers, the next snowflake lies above every raced one')
  or diag($after->output);

# 2. A streaming standby, stopped and started again.
$primary->backup('sb');
my $sb1 = IdgenTest::Node->new('sb1');
$sb1->init_from_backup($primary, 'sb', has_streaming => 1);
$sb1->start;
$primary->q("ALTER SYSTEM SET synchronous_standby_names = 'sb1'");
$primary->q('SELECT pg_reload_conf()');
my $sync_state = "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'sb1'";
ok($primary->poll_query_until('postgres', $sync_state, 'sync'), 'sb1 streams synchronously');
is($primary->q('SELECT snowflake(6) > 0'), 't', 'with sb1 up, snowflake() returns');
$sb1->stop('fast');
$renewer = unanswered('sb1_stopped');
$sb1->start;
ok($primary->poll_query_until('postgres', $sync_state, 'sync'), 'sb1 back: it streams synchronously');
resumed('sb1_stopped', $renewer);

done_testing();
