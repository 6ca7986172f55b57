# The clock lease: uuid_v7, ulid, ksuid and uuid_v6 (each in backend and
# 'server' order) and prefixed_id_new keep their order across a clean restart
# and a crash restart with the clock set back 5 s each time, and the
# postmaster killed with SIGKILL, because new IDs never read the clock below
# the lease (idgen_clock.lease). A clean restart without a clock change
# resumes at the clock, not up to the lease's 2 s span ahead of it. The clock
# is moved with libfaketime (Debian package faketime), preloaded into the
# server only.
use strict;
use warnings;
use Time::HiRes ();
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main', fake_clock => 1);
my $lease_file = $node->data_dir . '/idgen_clock.lease';

# restarted MODE: stops the server in MODE (fast, or immediate: a crash, with
# recovery at start) and starts it again; whether both worked.
sub restarted
{
	my ($mode) = @_;
	return $node->stop($mode, fail_ok => 1) && $node->start(fail_ok => 1);
}

# Every ID by phase, per family, in the order minted; each phase is new
# sessions. c is the clock as the row was stored, just after its ID was made.
$node->q(
	'CREATE EXTENSION idgen;
	 CREATE TABLE ids (n bigserial, phase int, family text, id text, t timestamptz,
	                   c timestamptz DEFAULT clock_timestamp())');

# mint PHASE: 500 IDs of each family in new sessions; whether all succeeded
# (errors go to the test's log).
sub mint
{
	my ($phase) = @_;
	return $node->psql(
		'postgres', "
		INSERT INTO ids (phase, family, id, t)
		    SELECT $phase, 'uuid_v7', u::text, uuid_v7_time(u) FROM (SELECT uuid_v7() u FROM generate_series(1, 500)) s;
		INSERT INTO ids (phase, family, id, t)
		    SELECT $phase, 'ulid', u::text, ulid_time(u) FROM (SELECT ulid() u FROM generate_series(1, 500)) s;
		INSERT INTO ids (phase, family, id, t)
		    SELECT $phase, 'prefixed', p::text, prefixed_id_time(p)
		    FROM (SELECT prefixed_id_new('ord') p FROM generate_series(1, 500)) s;
		INSERT INTO ids (phase, family, id, t)
		    SELECT $phase, 'ksuid', k::text, ksuid_time(k) FROM (SELECT ksuid() k FROM generate_series(1, 500)) s;
		INSERT INTO ids (phase, family, id, t)
		    SELECT $phase, 'uuid_v6', u::text, uuid_v6_time(u) FROM (SELECT uuid_v6() u FROM generate_series(1, 500)) s") == 0
	  && $node->psql(
		'postgres', "
		SET idgen.uuid_v7_order = 'server';
		SET idgen.ulid_order = 'server';
		SET idgen.ksuid_order = 'server';
		SET idgen.uuid_v6_order = 'server';
		INSERT INTO ids (phase, family, id, t)
		    SELECT $phase, 'uuid_v7 server', u::text, uuid_v7_time(u) FROM (SELECT uuid_v7() u FROM generate_series(1, 500)) s;
		INSERT INTO ids (phase, family, id, t)
		    SELECT $phase, 'ulid server', u::text, ulid_time(u) FROM (SELECT ulid() u FROM generate_series(1, 500)) s;
		INSERT INTO ids (phase, family, id, t)
		    SELECT $phase, 'ksuid server', k::text, ksuid_time(k) FROM (SELECT ksuid() k FROM generate_series(1, 500)) s;
		INSERT INTO ids (phase, family, id, t)
		    SELECT $phase, 'uuid_v6 server', u::text, uuid_v6_time(u) FROM (SELECT uuid_v6() u FROM generate_series(1, 500)) s"
	  ) == 0;
}

# below_earlier PHASE: IDs of PHASE not above every ID of the earlier phases,
# per family. Each family's text is fixed-length and sorts as its bytes do
# under the "C" collation (hex, Crockford base32, base36 and base62 digits
# are in ASCII order), and the prefix is the same throughout.
sub below_earlier
{
	my ($phase) = @_;
	return $node->q(
		"SELECT count(*) FROM ids new
		 JOIN (SELECT family, max(id COLLATE \"C\") AS id FROM ids WHERE phase < $phase GROUP BY family) old
		   USING (family)
		 WHERE new.phase = $phase AND new.id COLLATE \"C\" <= old.id");
}

ok(mint(1), 'phase 1 mints');
ok(-s $lease_file, 'the clock lease file exists');

# A clean restart at the same clock: the lease was lowered at shutdown, so
# IDs continue at the clock instead of up to 2 s ahead of it. The last ID
# before it is a KSUID minted just after a second began: the lease comes down
# to just above it, not to the end of its second, which would start every
# clock family up to 1 s ahead of the clock (a KSUID after the restart still
# takes a later second: the floor rounds up to a whole second for it).
my ($last_ms) = (split /\n/, $node->q(
		"SELECT pg_sleep(1.01 - extract(epoch FROM clock_timestamp()) % 1);
		 SELECT ksuid() IS NOT NULL;
		 SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint"))[-1];
ok($node->stop('fast', fail_ok => 1), 'clean stop');
my $lowered = $node->lease_end('clock');
cmp_ok($lowered, '<=', $last_ms + 1,
	"the clean stop lowered the clock lease to just above the last ID, a KSUID minted at $last_ms ms");
ok($node->start(fail_ok => 1), 'clean restart');
ok(mint(2), 'phase 2 mints');
is(below_earlier(2), 0, "phase 2: every ID is above phase 1's, per family");
# A KSUID's time is its whole second, the one after phase 1's last KSUID
# when the restart took less than a second: under a second ahead of c, the
# clock just after it was made (the lease's end would be up to 2 s ahead).
is( $node->q(
		"SELECT count(*) FROM ids WHERE phase = 2 AND family NOT LIKE 'ksuid%'
		   AND t > c + interval '500 ms'"),
	0,
	'phase 2: no ID but a KSUID runs more than 500 ms ahead of the clock');
is( $node->q("SELECT count(*) FROM ids WHERE phase = 2 AND family LIKE 'ksuid%' AND t >= c + interval '1 s'"),
	0, 'phase 2: no KSUID is a second or more ahead of the clock');

# The clock set back 5 s, then a clean restart.
$node->set_clock_offset('-5');
ok(restarted('fast'), 'clean restart with the clock set back 5 s');
ok(mint(3), 'phase 3 mints');
is(below_earlier(3), 0, "phase 3: every ID is above the earlier phases', per family");

# Another 5 s back, then a crash (immediate stop: no shutdown, recovery at start).
$node->set_clock_offset('-10');
ok(restarted('immediate'), 'crash restart with the clock set back 5 s more');
ok(mint(4), 'phase 4 mints');
is(below_earlier(4), 0, "phase 4: every ID is above the earlier phases', per family");
# Each ID against the clock as phase 4 began (its first row stored), 10 s
# back where phase 3 ran 5 s back: the lease's floor, above phase 3's last ID
# by at least a second, lies 5 s above that clock, less the time from phase
# 3's last renewal to phase 4's first row (the crash, the start, the first
# insert: under a second or two on a loaded machine), and every ID of the
# phase at or above the floor, while the clock moves on through the phase's
# ten inserts (a check against each row's own clock would measure how long
# they took). Minted from the clock instead, the phase's first IDs would be
# at that clock. A KSUID's time is the start of its second: the second's end
# is compared.
is( $node->q(
		"SELECT bool_and(t + CASE WHEN family LIKE 'ksuid%' THEN interval '1 s' ELSE interval '0' END
		                 > (SELECT min(c) FROM ids WHERE phase = 4) + interval '3 s')
		 FROM ids WHERE phase = 4"),
	't', "phase 4 read the clock 10 s back: its IDs are over 3 s ahead of it (the lease's floor)")
  or diag($node->q(
		"SELECT family, min(t) - (SELECT min(c) FROM ids WHERE phase = 4) FROM ids WHERE phase = 4 GROUP BY 1 ORDER BY 1"));
# The crash left the floor at the lease's end, which each renewal keeps over
# 1 s beyond the last ID: phase 4 resumes there, not just above phase 3.
is( $node->q(
		"SELECT count(*) FROM ids new
		 JOIN (SELECT max(t) AS t FROM ids WHERE phase = 3) old ON true
		 WHERE new.phase = 4 AND new.family NOT LIKE 'ksuid%' AND new.t <= old.t + interval '500 ms'"),
	0,
	"phase 4 resumes at the lease's end: every ID is over 500 ms above phase 3's last");
# A KSUID covers its whole second: phase 4's are in a later second than
# phase 3's last KSUID, not in the same one with a larger payload.
is( $node->q(
		"SELECT count(*) FROM ids new
		 JOIN (SELECT max(t) AS t FROM ids WHERE phase = 3 AND family LIKE 'ksuid%') old ON true
		 WHERE new.phase = 4 AND new.family LIKE 'ksuid%' AND new.t <= old.t"),
	0,
	"phase 4's KSUIDs are all in a second after phase 3's last KSUID");

# A clean restart without a single ID in between keeps the floor it started
# with (the lowering at shutdown never goes below it); then the clock goes
# back 5 s more across another restart.
ok(restarted('fast'), 'clean restart with no ID minted');
$node->set_clock_offset('-15');
ok(restarted('fast'), 'clean restart with the clock set back 5 s more');
ok(mint(5), 'phase 5 mints');
is(below_earlier(5), 0, "phase 5: every ID is above the earlier phases', per family");

# The postmaster killed with SIGKILL, the clock still 15 s back: no process
# writes anything on the way out, as the immediate stop's children still
# could. kill9 returns once the signal is sent: wait for the postmaster to be
# gone, and start again once its children have left the old shared memory.
my $postmaster = $node->{_pid};
$node->kill9;
Time::HiRes::sleep(0.1) while kill 0, $postmaster;
my $started = 0;
for (1 .. 60)
{
	last if $started = $node->start(fail_ok => 1);
	Time::HiRes::sleep(0.5);
}
ok($started, 'the server starts again after its postmaster was killed with SIGKILL');
ok(mint(6), 'phase 6 mints');
is(below_earlier(6), 0, "phase 6: every ID is above the earlier phases', per family");

# An unwritable lease file: the first ID after a start needs a renewal, which
# fails with the file-access error, and no ID is handed out.
$node->stop('fast');
chmod 0444, $lease_file or die "chmod $lease_file: $!";
ok($node->start(fail_ok => 1), 'the server starts with a read-only clock lease file');
for my $call ("uuid_v7()", "ulid()", "prefixed_id_new('ord')", 'ksuid()', 'uuid_v6()')
{
	is($node->error("SELECT $call"),
		'42501: could not open file "idgen_clock.lease": Permission denied',
		"$call fails with SQLSTATE 42501 naming idgen_clock.lease");
}
chmod 0644, $lease_file or die "chmod $lease_file: $!";
is($node->q('SELECT uuid_v7() IS NOT NULL'), 't', 'once the file is writable again, uuid_v7() works');

# A file that holds no lease: logged at start; the clock families go on from
# the clock (they only order; uniqueness rests on random bits) and the next
# renewal writes a good record.
$node->stop('fast');
open my $fh, '>', $lease_file or die "$lease_file: $!";
print $fh "not a lease\n";
close $fh;
my $log_offset = -s $node->logfile;
ok($node->start(fail_ok => 1), 'the server starts with a garbage clock lease file');
ok($node->log_contains(qr/\Qidgen: file "idgen_clock.lease" holds no clock lease\E/, $log_offset),
	'server.log says the file holds no clock lease');
is( $node->q(
		"SELECT uuid_v7() IS NOT NULL AND ulid() IS NOT NULL AND prefixed_id_new('ord') IS NOT NULL
		        AND ksuid() IS NOT NULL AND uuid_v6() IS NOT NULL"),
	't',
	'uuid_v7(), ulid(), prefixed_id_new(), ksuid() and uuid_v6() work');
like(PostgreSQL::Test::Utils::slurp_file($lease_file),
	qr/^idgen clock lease 1$/m, 'the renewal rewrote the file with a lease');

done_testing();
