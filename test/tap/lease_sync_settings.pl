# One renewal of a lease serves every session of the server, so no session's
# settings may decide whether it is confirmed (issue 51, finding 1). With the
# synchronous standby stopped, roles with no special rights mint snowflakes
# under synchronous_commit = local and off while a victim mints under on.
# idgen 0.8.0 let the attackers' renewals go unconfirmed: the victim received
# IDs beyond the lease the standby had, and the standby, promoted with its
# clock 30 s behind, issued them again. Now every renewal waits for the standby
# as synchronous_commit = on would: no ID beyond the confirmed lease (the
# promoted standby's lease file, written by replaying what it received), and
# none repeated by the new primary.
use strict;
use warnings;
use Time::HiRes qw(time sleep);
use IdgenTest;
use Test::More;

my $primary = IdgenTest::Node->create('primary', streaming => 1);
$primary->q(
	"CREATE EXTENSION idgen;
	 CREATE ROLE attacker LOGIN; CREATE ROLE victim LOGIN;
	 SELECT snowflake(6)");
$primary->backup('standby');
my $standby = IdgenTest::Node->new('standby');
$standby->init_from_backup($primary, 'standby', has_streaming => 1);
# The standby's clock runs 30 s behind the primary's: more than the time from
# the primary's last IDs to the promoted standby's first, so that it resumes
# from the lease it replayed, not from its clock. Its bound covers that lead.
$standby->append_conf('postgresql.conf', "idgen.max_clock_regression = '60s'");
my $lib = faketime_lib() or BAIL_OUT('libfaketime is not installed (Debian package faketime)');
my %behind = (LD_PRELOAD => $lib, FAKETIME => '-30s', FAKETIME_DONT_FAKE_MONOTONIC => 1);
{
	local %ENV = (%ENV, %behind);
	$standby->start;
}
$primary->q("ALTER SYSTEM SET synchronous_standby_names = 'standby'");
$primary->q('SELECT pg_reload_conf()');
ok( $primary->poll_query_until(
		'postgres', "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'",
		'sync'),
	'the standby streams synchronously');
like($primary->q('SELECT snowflake(6)'), qr/^\d{15,}$/, 'with the standby up, snowflake(6) returns');
# Three million IDs run about 3 s ahead: several renewals, each waiting as
# synchronous_commit = on would, and the session's own setting is left as it
# set it.
is( $primary->q(
		"SET synchronous_commit = local;
		 SELECT count(DISTINCT id) FROM (SELECT snowflake(6) AS id FROM generate_series(1, 3000000)) s;
		 SHOW synchronous_commit"),
	"3000000\nlocal",
	'a session with synchronous_commit = local renews the lease and keeps its setting');

# minter NAME ROLE SETTING: a psql session of ROLE, with synchronous_commit
# SETTING, minting batches of snowflake(6) for at most 10 s, each statement
# ended by statement_timeout after 1 s, stopping at the first error (the
# first call that needs a renewal the stopped standby cannot confirm).
sub minter
{
	my ($name, $role, $setting) = @_;
	my $batch = "SELECT snowflake(6) FROM generate_series(1, 200)"
	  . " WHERE clock_timestamp() < current_setting('idgen_test.until')::timestamptz;\n";
	return $primary->psql_to_file($name,
		"SET synchronous_commit = $setting;\nSET statement_timeout = '1s';\n"
		  . "SELECT set_config('idgen_test.until', (clock_timestamp() + interval '10 s')::text, false) \\g /dev/null\n"
		  . ($batch x 20000),
		user => $role, timeout => 90);
}

# The victim starts first and has minted before the standby stops: started
# last, on a loaded machine, its first statement came after the attackers had
# used up the confirmed lease, and it had no ID to check.
my $victim = minter('victim', 'victim', 'on');
my $first_by = time + 60;
sleep 0.05 until $victim->output =~ /^\d{15,}$/m || time > $first_by;
$standby->stop('fast');
my @minters = (
	$victim,
	minter('attacker_local', 'attacker', 'local'),
	minter('attacker_off', 'attacker', 'off'));
my (%ids_of, @ids);
for my $m (@minters)
{
	ok(defined $m->finish, "$m->{name} ends within its time");
	my $out = $m->output;
	my @mine = $out =~ /^(\d{15,})$/mg;
	$ids_of{ $m->{name} } = \@mine;
	push @ids, @mine;
	my ($error) = $out =~ /ERROR:  ([0-9A-Z]{5}: [^\n]*)/;
	note("$m->{name}: " . scalar(@mine) . ' IDs, then ' . ($error // 'no error'));
	like($error // '', qr/^57014: /,
		"$m->{name}: a call needing a renewal the standby could not confirm ends at its statement_timeout");
}
ok(@{ $ids_of{victim} } > 0, 'the victim minted below the confirmed lease');

# The failover: the primary dies, the standby (clock 30 s behind) is promoted.
$primary->kill9;
{
	local %ENV = (%ENV, %behind);
	$standby->start;
}
$standby->promote;
ok($standby->poll_query_until('postgres', 'SELECT pg_is_in_recovery()', 'f'), 'the standby is promoted');
my $confirmed = $standby->lease_end('snowflake');
ok($confirmed, "the promoted standby's lease files hold the confirmed lease ($confirmed ms)");
for my $name (sort keys %ids_of)
{
	my @beyond = grep { ($_ >> 23) >= $confirmed } @{ $ids_of{$name} };
	is(scalar(@beyond), 0, "$name received no snowflake at or beyond the confirmed lease")
	  or diag('up to ' . ((sort { $b <=> $a } map { $_ >> 23 } @beyond)[0] - $confirmed) . ' ms beyond');
}

# The new primary mints on shard 6 at once: none of its IDs repeats one of the
# old primary's.
my %old = map { $_ => 1 } @ids;
my @new = split /\n/, $standby->q('SELECT snowflake(6) FROM generate_series(1, 200000)');
note('its IDs lie ' . (($new[0] >> 23) - $confirmed) . ' to ' . (($new[-1] >> 23) - $confirmed)
	  . ' ms past the confirmed lease');
is(scalar(@new), 200000, 'the new primary mints 200000 snowflakes on shard 6');
is(scalar(grep { $old{$_} } @new), 0, "none repeats one of the old primary's " . scalar(@ids));

done_testing();
