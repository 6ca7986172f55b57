# idgen.snowflake_epoch: IDs that ran out (sql/snowflake_exhausted.sql through
# pg_regress, on a server whose epoch is 1990-01-01), an epoch moved one day
# later after IDs were issued (refused by the lease high-water mark, with an
# error and a start-up warning that give the way through: the former epoch),
# one day earlier (accepted, new IDs above the old ones), an epoch less than
# 2^30 ms ago (snowflake() refuses, snowflake53() mints), invalid or
# session-level settings, and both splits minting up to the exhaustion date.
# Every server is its own.
use strict;
use warnings;
use File::Find ();
use IPC::Run ();
use IdgenTest;
use Test::More;

my $repo = repo_dir();

# 1. Exhausted IDs: pg_regress runs sql/snowflake_exhausted.sql against a
#    server whose epoch is so early that 2^40 ms after it is already past.
my $exhausted = IdgenTest::Node->create('exhausted',
	conf => ["idgen.snowflake_epoch = '1990-01-01'"]);

# run_regress: pg_regress snowflake_exhausted against the exhausted server;
# inputs come from the repository's sql/ and expected/, results/,
# regression.out and regression.diffs go to a temporary directory.
sub run_regress
{
	my $out_dir = PostgreSQL::Test::Utils::tempdir('regress');
	my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
	chomp(my $bindir = `$pg_config --bindir`);
	my $log = '';
	my $ran = IPC::Run::run(
		[
			$ENV{PG_REGRESS}, "--inputdir=$repo",
			"--outputdir=$out_dir", "--bindir=$bindir",
			'--host=' . $exhausted->host, '--port=' . $exhausted->port,
			'--dbname=idgen_exhausted', '--load-extension=idgen',
			'snowflake_exhausted'
		],
		'>', \$log, '2>&1');
	# 15 prints "test NAME ... ok", 16 and later TAP's "ok N - NAME".
	return 1
	  if $ran
	  && $log =~ /^(test snowflake_exhausted +\.\.\. ok|ok [0-9]+ +- snowflake_exhausted )/m;
	diag($log);
	diag(PostgreSQL::Test::Utils::slurp_file("$out_dir/regression.diffs"))
	  if -f "$out_dir/regression.diffs";
	return 0;
}
ok(run_regress(), 'pg_regress snowflake_exhausted passes (epoch 1990-01-01: IDs ran out)');
my @strays;
File::Find::find(
	sub {
		# .git, and tmp_check: where make installcheck runs this test
		if ($_ eq '.git' || $_ eq 'tmp_check') { $File::Find::prune = 1; return; }
		push @strays, $File::Find::name
		  if /snowflake_exhausted/
		  && $File::Find::name !~
		  m{^\Q$repo\E/(sql/snowflake_exhausted\.sql|expected/snowflake_exhausted\.out)$};
	},
	$repo);
is(join("\n", @strays), '', 'pg_regress wrote nothing into the repository');
$exhausted->stop('fast');

# 2. The epoch moved after IDs were issued (default epoch 2024-01-01 first).
my $node = IdgenTest::Node->create('moved');
my $lease_path = $node->data_dir . '/idgen_snowflake.lease';

# restart_with_epoch VALUE: stops the server, sets the epoch in
# postgresql.conf (the last line wins), starts it again; returns the server
# log's length before the start, where this start's lines begin.
sub restart_with_epoch
{
	my ($epoch) = @_;
	$node->stop('fast');
	$node->append_conf('postgresql.conf', "idgen.snowflake_epoch = '$epoch'");
	my $log_offset = -s $node->logfile;
	$node->start;
	return $log_offset;
}

# lease_file: the snowflake lease file's contents, '' when there is none.
sub lease_file
{
	return -e $lease_path ? PostgreSQL::Test::Utils::slurp_file($lease_path) : '';
}

$node->q(
	'CREATE EXTENSION idgen;
	 CREATE TABLE ids (n bigserial, phase text, id bigint, minted_at timestamptz)');
$node->q(
	"INSERT INTO ids (phase, id, minted_at)
	 SELECT 'old', snowflake(1), clock_timestamp() FROM generate_series(1, 5000)");
is( $node->q(
		'SELECT bool_and(abs(extract(epoch FROM snowflake_time(id) - minted_at)) < 5) FROM ids'),
	't',
	'default epoch: old IDs decode to the time they were minted');
ok(lease_file() ne '', 'the lease file was written while minting');

# One day later: the lease says IDs up to about now (old epoch) were issued, so
# every new ID would have to be a day ahead of the clock.
my $later_start = restart_with_epoch('2024-01-02');
my $lease_at_start = lease_file();   # the clean stop lowered it to the last ID issued
is($node->q('SHOW idgen.snowflake_epoch'), '2024-01-02', 'the server runs with the later epoch');
# ON_ERROR_STOP off: the statements after each failure run in the same session.
my (undef, $later, $later_err) = $node->run_sql(<<'SQL', verbose => 1);
\set ON_ERROR_STOP off
INSERT INTO ids (phase, id, minted_at) SELECT 'later', snowflake(1), clock_timestamp() FROM generate_series(1, 10);
\echo sqlstate=:LAST_ERROR_SQLSTATE
SET idgen.max_clock_regression = '1h';
SELECT snowflake(1);
\echo sqlstate_1h=:LAST_ERROR_SQLSTATE
SELECT 'minted=' || count(*) FROM idgen_stats WHERE family = 'snowflake';
SELECT 'shard_rows=' || count(*) FROM idgen_snowflake_shards WHERE last_id IS NOT NULL;
SQL
like($later, qr/^sqlstate=55000$/m, 'epoch moved later: snowflake(1) fails with SQLSTATE 55000');
my ($lead) =
  $later_err =~ /^ERROR:  55000: system clock is ([0-9]+) ms behind snowflake shard 1$/m;
ok(defined $lead && $lead >= 86_340_000 && $lead <= 86_402_000,
	'the error says the clock is about one day (86400000 ms) behind shard 1');
note('lead in the error: ' . ($lead // 'no such message'));
# A day is beyond what any idgen.max_clock_regression covers (1 h at most):
# the error says what happened and the way through, the old epoch.
like(
	$later_err,
	qr/^DETAIL:  The shard has issued IDs up to [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]+\+00 counted from idgen\.snowflake_epoch \(2024-01-02 00:00:00\+00\)\. Either idgen\.snowflake_epoch was moved later after IDs were issued, so that new IDs would repeat issued ones, or the system clock was set back\.$/m,
	'the detail says the epoch was moved later (new IDs would repeat issued ones) or the clock set back'
);
like(
	$later_err,
	qr/^\QHINT:  Set idgen.snowflake_epoch back to the value the issued IDs count from (an earlier epoch is safe too) and restart the server, or correct the system clock. Raising idgen.max_clock_regression cannot help: it is at most 1 h.\E$/m,
	'the hint gives the way through (the old epoch, or an earlier one) and says raising idgen.max_clock_regression cannot help'
);
ok( $node->log_contains(
		qr/WARNING:  idgen: snowflake IDs were issued up to [0-9]* ms ahead of the clock counted from idgen\.snowflake_epoch/,
		$later_start),
	'the server warned at start that issued IDs are ahead of the clock under the new epoch');
like($later, qr/^sqlstate_1h=55000$/m, 'even with idgen.max_clock_regression = 1h it fails with 55000');
like($later, qr/^minted=0$/m, 'the session minted no snowflake ID');
like($later, qr/^shard_rows=0$/m, 'no shard issued an ID since the restart');
is($node->q("SELECT count(*) FROM ids WHERE phase = 'later'"), 0, 'no ID was stored under the later epoch');
is(lease_file(), $lease_at_start, 'refused calls did not renew the lease');

# The documented way through: the former epoch again. IDs flow, above the old ones.
restart_with_epoch('2024-01-01');
$node->sql_ok(
	"INSERT INTO ids (phase, id, minted_at) SELECT 'restored', snowflake(1), clock_timestamp() FROM generate_series(1, 10)",
	'back on the former epoch: snowflake(1) works again');
is( $node->q(
		"SELECT (SELECT min(id) FROM ids WHERE phase = 'restored') > (SELECT max(id) FROM ids WHERE phase = 'old')"
	),
	't',
	"the restored epoch's IDs are above the old ones");

# One day earlier: the clock is a day ahead of every issued ID, so IDs flow again.
restart_with_epoch('2023-12-31');
is($node->q('SHOW idgen.snowflake_epoch'), '2023-12-31', 'the server runs with the earlier epoch');
$node->sql_ok(
	"INSERT INTO ids (phase, id, minted_at)
	 SELECT 'earlier', snowflake(1), clock_timestamp() FROM generate_series(1, 5000)",
	'epoch moved earlier: snowflake(1) works');
is( $node->q(
		"SELECT count(*) || ' ' || min(snowflake_shard(id)) || '-' || max(snowflake_shard(id)) FROM ids WHERE phase = 'earlier'"
	),
	'5000 1-1',
	'5000 new IDs, all of shard 1');
is( $node->q(
		"SELECT (SELECT min(id) FROM ids WHERE phase = 'earlier') > (SELECT max(id) FROM ids WHERE phase IN ('old', 'restored'))"
	),
	't',
	'every new ID is greater than every old one');
is( $node->q(
		"SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM ids WHERE phase = 'earlier') s WHERE bad"
	),
	0,
	'the new IDs increase in the order they were minted');
is( $node->q(
		"SELECT bool_and(abs(extract(epoch FROM snowflake_time(id) - minted_at)) < 5) FROM ids WHERE phase = 'earlier'"
	),
	't',
	'new IDs decode with the new epoch, close to clock_timestamp()');
is( $node->q(
		"SELECT bool_and(abs(extract(epoch FROM snowflake_time(id) + interval '1 day' - minted_at)) < 5) FROM ids WHERE phase = 'old'"
	),
	't',
	'old IDs now decode one day before they were minted');

# 3. Invalid values and session-level changes are refused.
my (undef, undef, $bad) =
  $node->run_sql("ALTER SYSTEM SET idgen.snowflake_epoch = 'yesterday'", verbose => 1);
like(
	$bad,
	qr/^\QERROR:  22023: invalid value for parameter "idgen.snowflake_epoch": "yesterday"\E$/m,
	"ALTER SYSTEM SET idgen.snowflake_epoch = 'yesterday' fails with SQLSTATE 22023");
like(
	$bad,
	qr/^\QDETAIL:  The epoch is a UTC date or time from 1970 on, such as '2024-01-01' or '2024-01-01 12:00:00'.\E$/m,
	'the detail gives the expected format');
(undef, undef, $bad) =
  $node->run_sql("ALTER SYSTEM SET idgen.snowflake_epoch = '1969-12-31'", verbose => 1);
like(
	$bad,
	qr/^\QERROR:  22023: invalid value for parameter "idgen.snowflake_epoch": "1969-12-31"\E$/m,
	'an epoch before 1970 fails with SQLSTATE 22023');
unlike(PostgreSQL::Test::Utils::slurp_file($node->data_dir . '/postgresql.auto.conf'),
	qr/snowflake_epoch/, 'ALTER SYSTEM wrote nothing to postgresql.auto.conf');
(undef, undef, $bad) = $node->run_sql("SET idgen.snowflake_epoch = '2020-01-01'", verbose => 1);
like(
	$bad,
	qr/^\QERROR:  55P02: parameter "idgen.snowflake_epoch" cannot be changed without restarting the server\E$/m,
	'SET idgen.snowflake_epoch in a session fails with SQLSTATE 55P02');
is($node->q('SHOW idgen.snowflake_epoch'), '2023-12-31', 'the epoch is unchanged');

# 4. A lease that cannot be written: the clean restart lowered the lease to the
#    last ID, so the next ID must renew it first; without write access it fails
#    and issues nothing.
restart_with_epoch('2023-12-31');
chmod 0444, $lease_path or die "chmod $lease_path: $!";
(undef, undef, $bad) = $node->run_sql('SELECT snowflake(1)', verbose => 1);
like(
	$bad,
	qr/^\QERROR:  42501: could not open file "idgen_snowflake.lease": Permission denied\E$/m,
	'an unwritable lease file fails snowflake() with SQLSTATE 42501 naming the file');
is($node->q('SELECT count(*) FROM idgen_snowflake_shards'), 0,
	'nothing was issued while the lease could not be written');
chmod 0600, $lease_path or die "chmod $lease_path: $!";
$node->sql_ok("INSERT INTO ids (phase, id) SELECT 'rewritable', snowflake(1) FROM generate_series(1, 10)",
	'with the file writable again snowflake(1) works');
is( $node->q(
		"SELECT (SELECT min(id) FROM ids WHERE phase = 'rewritable') > (SELECT max(id) FROM ids WHERE phase <> 'rewritable')"
	),
	't',
	'and stays above every earlier ID');

# 5. An epoch in the future: the clock reads before it.
restart_with_epoch('2099-01-01');
(undef, undef, $bad) = $node->run_sql("SET TimeZone = 'UTC';\nSELECT snowflake(1);", verbose => 1);
like(
	$bad,
	qr/^\QERROR:  22008: system clock is before idgen.snowflake_epoch (2099-01-01 00:00:00+00)\E$/m,
	'a clock before idgen.snowflake_epoch fails snowflake() with SQLSTATE 22008');
# 5b. An epoch less than 2^30 ms (about 12.4 days) ago: snowflake() leaves
#     those milliseconds unused, so that its IDs stay at least 2^53 and never
#     look like snowflake53() IDs; snowflake53() mints. The lease is removed
#     first (this epoch is later than the IDs issued above).
my $recent = $node->q(
	"SELECT to_char((now() - interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')");
$node->stop('fast');
unlink $lease_path or die "unlink $lease_path: $!";
$node->append_conf('postgresql.conf', "idgen.snowflake_epoch = '$recent'");
$node->start;
(undef, undef, $bad) = $node->run_sql('SELECT snowflake(1)', verbose => 1);
like($bad, qr/^ERROR:  22008: snowflake\(\) mints from /m,
	'an epoch one day ago: snowflake(1) fails with SQLSTATE 22008');
like(
	$bad,
	qr/^DETAIL:  The first 2\^30 ms \(about 12\.4 days\) after idgen\.snowflake_epoch \(.*\) are left unused, so that every snowflake\(\) ID is at least 2\^53 and never looks like a snowflake53\(\) ID\.$/m,
	'the detail says the first 2^30 ms are unused so that IDs stay at least 2^53');
is($node->q('SELECT snowflake53(1) BETWEEN 1 AND 9007199254740991'),
	't', 'snowflake53(1) mints with that epoch, and its ID is below 2^53');

# 6. At the exhaustion date. The epoch is 2^40 ms minus 60 s before now, and
#    the lease file says IDs up to the second-to-last millisecond were issued
#    (as a server that minted right up to the end would leave it), so every
#    shard resumes there; idgen.max_clock_regression = 1h lets it run that far
#    ahead of the clock. Each split then mints on its top shard until it runs
#    out: the last ID issued is the largest the split allows (2^63 - 1 and
#    2^53 - 1, JavaScript's Number.MAX_SAFE_INTEGER), then 22008.
my $epoch = $node->q(
	"SELECT to_char((now() - interval '1 ms' * 2^40 + interval '60 s') AT TIME ZONE 'UTC',
	                'YYYY-MM-DD HH24:MI:SS.MS')");
$node->stop('fast');
$node->append_conf('postgresql.conf',
	"idgen.snowflake_epoch = '$epoch'\nidgen.max_clock_regression = '1h'");
open my $lease, '>', $lease_path or die "write $lease_path: $!";
printf $lease "idgen snowflake lease 1\n%020d\n", 2**40 - 2;
close $lease or die "write $lease_path: $!";
$node->start;

# mint_to_the_end FUNCTION SHARD: mints until a call fails; returns "sqlstate
# calls last_id" (last_id from idgen_snowflake_shards).
sub mint_to_the_end
{
	my ($fn, $shard) = @_;
	return $node->q(
		"CREATE TEMP TABLE the_end (state text, calls int);
		 DO \$\$
		 DECLARE
		     calls int := 0;
		 BEGIN
		     LOOP
		         PERFORM $fn($shard);
		         calls := calls + 1;
		     END LOOP;
		 EXCEPTION WHEN OTHERS THEN
		     INSERT INTO the_end VALUES (SQLSTATE, calls);
		 END \$\$;
		 SELECT state || ' ' || calls || ' ' || coalesce((SELECT last_id FROM idgen_snowflake_shards
		                                                   WHERE family = '$fn' AND shard = $shard)::text, 'none')
		 FROM the_end");
}
for my $split ([ 'snowflake', 8191, '9223372036854775807', 2048 ],
	[ 'snowflake53', 15, '9007199254740991', 1024 ])
{
	my ($fn, $shard, $max_id, $stamps) = @$split;
	my ($state, $calls, $last) = split / /, mint_to_the_end($fn, $shard);
	is($state // 'none', '22008', "$fn($shard) at the exhaustion date: minting ends with SQLSTATE 22008");
	is($calls // 'none', $stamps,
		"$fn($shard): every stamp of the last two milliseconds was issued first");
	is($last // 'none', $max_id, "$fn($shard): the last ID issued is the largest one, $max_id");
	is( $node->q(
			"SELECT ${fn}_time($max_id) = '$epoch+00'::timestamptz + interval '1 ms' * (2^40 - 1)"),
		't',
		"$fn($shard): the last ID decodes to the last millisecond");
}
is( $node->q(
		"SELECT string_agg(family || '=' || last_id, ' ' ORDER BY family) FROM idgen_snowflake_shards WHERE last_id IS NOT NULL"
	),
	'snowflake=9223372036854775807 snowflake53=9007199254740991',
	"the split's shard state shows the largest ID of each");

done_testing();
