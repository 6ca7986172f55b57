# A lease file the server cannot write (issue 51, finding 5): minting refuses,
# and the server stays up, through a crash too. idgen 0.8.0 refused to mint
# while the files were read-only, but after a crash recovery replayed the
# failed renewals' WAL records, could not write the files and stopped with
# FATAL: every database stayed down until the files were writable. Now
# recovery goes on with a warning, every database that does not mint works,
# minting refuses with the file's error until the file is writable, and then
# no ID repeats one issued before the crash.
use strict;
use warnings;
use Time::HiRes qw(sleep);
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main', conf => ['restart_after_crash = on']);

# crash_restart: kills the checkpointer with SIGKILL, which makes the
# postmaster end every process and run crash recovery; whether the server
# then accepts connections again within 30 s.
sub crash_restart
{
	my $checkpointer = $node->q("SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
	kill 'KILL', $checkpointer or die "kill $checkpointer: $!";
	sleep 0.5;
	for (1 .. 60)
	{
		return 1 if ($node->psql('postgres', 'SELECT 1'))[0] == 0;
		sleep 0.5;
	}
	return 0;
}
$node->q('CREATE EXTENSION idgen; CREATE DATABASE other');
like($node->q('SELECT snowflake(3)::text || uuid_v7()::text'), qr/^\d{15,}[0-9a-f]{8}-/,
	'snowflake(3) and uuid_v7() mint with the lease files writable');
my %file = map { $_ => $node->data_dir . "/idgen_$_.lease" } qw(snowflake clock);
ok(-f $file{$_}, "the $_ lease file exists") for sort keys %file;
my @files = values %file;

# mint_until_refused CALL: mints CALL in a loop until it fails, for 30 s at
# most; "LAST SQLSTATE: MESSAGE", LAST the last value minted ("none").
$node->q(
	"CREATE FUNCTION mint_until_refused(call text) RETURNS text LANGUAGE plpgsql AS \$\$
	 DECLARE last text; stop timestamptz := clock_timestamp() + interval '30 s';
	 BEGIN
	     WHILE clock_timestamp() < stop LOOP EXECUTE 'SELECT ' || call INTO last; END LOOP;
	     RETURN coalesce(last, 'none') || ' no error in 30 s';
	 EXCEPTION WHEN OTHERS THEN
	     RETURN coalesce(last, 'none') || ' ' || SQLSTATE || ': ' || SQLERRM;
	 END \$\$");

# The server runs as the files' owner, not as root: without the write bit its
# open for writing fails (EACCES), as it does for an immutable file. Minting
# goes on until a renewal is needed; the call that renews fails.
chmod 0444, @files;
my ($max_before, $error) = split / /, $node->q("SELECT mint_until_refused('snowflake(3)')"), 2;
is($error, '42501: could not open file "idgen_snowflake.lease": Permission denied',
	'a renewal that cannot write the snowflake lease file fails with 42501, naming the file');
my (undef, $clock_error) = split / /,
  $node->q("SET idgen.uuid_v7_order = 'server'; SELECT mint_until_refused('uuid_v7()')"), 2;
is($clock_error, '42501: could not open file "idgen_clock.lease": Permission denied',
	'... and one that cannot write the clock lease file, naming it');

# A crash: recovery replays the failed renewals' WAL records.
my $log_offset = -s $node->logfile;
ok(crash_restart(), 'after a crash with the lease files read-only, the server comes up')
  or BAIL_OUT('the server did not come up: ' . PostgreSQL::Test::Utils::slurp_file($node->logfile, $log_offset));
is($node->q("SELECT current_database() || ' ' || count(*) FILTER (WHERE relname = 'pg_class') FROM pg_class", db => 'other'),
	'other 1', 'a database that does not mint works');
my $log = PostgreSQL::Test::Utils::slurp_file($node->logfile, $log_offset);
like($log, qr/WARNING:  idgen could not record the snowflake lease replayed from WAL/,
	'recovery warns that it could not record the snowflake lease it replayed');
unlike($log, qr/FATAL/, 'and nothing failed with FATAL');
for my $call ('snowflake(3)', 'uuid_v7()', 'ulid()', "prefixed_id_new('acct')")
{
	my $file = $call eq 'snowflake(3)' ? 'idgen_snowflake.lease' : 'idgen_clock.lease';
	my ($status, $out, $err) = $node->run_sql("SELECT $call", verbose => 1);
	like($err, qr/ERROR:  42501: could not open file "\Q$file\E": Permission denied/,
		"$call refuses while $file cannot be written");
}

# A second crash while the files are still read-only.
ok(crash_restart(), 'a second crash with the files read-only: the server comes up again');

# The files writable again: minting resumes above every ID issued before.
chmod 0600, @files;
my ($new_min, $repeats) = split /\|/,
  $node->q(
	"SELECT min(id), count(*) FILTER (WHERE id <= $max_before)
	 FROM (SELECT snowflake(3) AS id FROM generate_series(1, 100000)) s");
cmp_ok($new_min, '>', $max_before, 'once the files are writable, snowflake(3) resumes above every earlier ID');
is($repeats, 0, 'none of 100000 new IDs is at or below the last one before the crash');
is($node->q('SELECT uuid_v7() IS NOT NULL AND ulid() IS NOT NULL'), 't', 'uuid_v7() and ulid() mint again');

done_testing();
