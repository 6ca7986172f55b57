# A renewer held in I/O hands over (issue 51, finding 3). Each lease's file
# is replaced by a FIFO that nobody reads, so that the session renewing the
# lease is held in the file's open(), as a hung disk or NFS server holds a
# write (a signal restarts the open(), which finds the FIFO again). idgen
# 0.8.0 wrote the file under the lease's LWLock: every later call that needed
# the renewal waited for that lock, where neither a cancel nor
# statement_timeout reaches it, until the renewer went on. Now each write
# takes a slot file of its own (idgen_KIND.lease, .1, .2, .3) and is made
# without the lock: a waiting call can be cancelled, a call that has waited
# kRenewalHandOverMs (5 s) renews into the next slot, and the held renewer's
# failed write lowers nothing. A clean shutdown folds the slots back into the
# first file; a start reads the largest slot, and refuses snowflakes while
# any slot holds no lease.
use strict;
use warnings;
use Fcntl qw(O_RDONLY O_NONBLOCK);
use POSIX ();
use Time::HiRes qw(time sleep);
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main', conf => ['max_connections = 20']);
$node->q("CREATE EXTENSION idgen; SELECT snowflake(6), uuid_v7()");
my %call = (snowflake => 'snowflake(6)', clock => 'uuid_v7()');
my %id_pattern = (snowflake => qr/^\d{15,}$/m, clock => qr/^[0-9a-f]{8}-[0-9a-f-]{27}$/m);

# held_in_open PID: whether the backend PID is blocked in open() (the
# kernel's wait for a FIFO's reader, or the openat system call).
sub held_in_open
{
	my ($pid) = @_;
	my $wchan = eval { PostgreSQL::Test::Utils::slurp_file("/proc/$pid/wchan") } // '';
	return 1 if $wchan =~ /partner|fifo/;
	my $syscall = eval { PostgreSQL::Test::Utils::slurp_file("/proc/$pid/syscall") } // '';
	return $syscall =~ /^(257|56) /;    # openat on x86-64 and arm64
}

for my $kind (qw(snowflake clock))
{
	my $file = $node->data_dir . "/idgen_$kind.lease";
	my $record = PostgreSQL::Test::Utils::slurp_file($file);
	my $end_before = $node->lease_end($kind);

	# The lease (its span is 2 s) runs out; the next call renews it, and is
	# held in the open() of the FIFO.
	sleep 2.5;
	unlink $file or die "unlink $file: $!";
	POSIX::mkfifo($file, 0600) or die "mkfifo $file: $!";
	my $renewer = $node->psql_to_file("renewer_$kind", "SELECT $call{$kind}", timeout => 120);
	my $pid;
	ok( $node->poll_query_until('postgres',
			"SELECT count(*) > 0 FROM pg_stat_activity WHERE application_name = 'renewer_$kind'"),
		"the $kind lease's renewer connected");
	$pid = $node->q("SELECT pid FROM pg_stat_activity WHERE application_name = 'renewer_$kind'");
	my $deadline = time + 30;
	sleep 0.1 until held_in_open($pid) || time > $deadline;
	ok(held_in_open($pid), "the $kind lease's renewer is held in the open() of its file");

	# A call that needs the renewal meanwhile waits where a cancel reaches it.
	my $waiter = $node->psql_to_file("waiter_$kind", "SET statement_timeout = '1s';\nSELECT $call{$kind}",
		timeout => 30);
	my $took = $waiter->finish;
	like($waiter->output, qr/ERROR:  57014: canceling statement due to statement timeout/,
		"a $call{$kind} that waits for the held renewal is ended by statement_timeout");
	ok(defined $took && $took < 5, sprintf("... at once (%s s)", defined $took ? sprintf('%.1f', $took) : 'never'));

	# A call that has waited 5 s renews into the next slot.
	my $taker = $node->psql_to_file("taker_$kind", "SET statement_timeout = '30s';\nSELECT $call{$kind}",
		timeout => 60);
	$took = $taker->finish;
	like($taker->output, $id_pattern{$kind}, "with the renewer held, $call{$kind} returns an ID");
	ok(defined $took && $took < 15,
		sprintf("... after the hand-over, within 15 s (%s s)", defined $took ? sprintf('%.1f', $took) : 'never'));
	ok(-f "$file.1", "the session that took over wrote idgen_$kind.lease.1");
	my $end_after = $node->lease_end($kind);
	cmp_ok($end_after, '>', $end_before, "the $kind lease was renewed");
	my $minter = $node->psql_to_file("minter_$kind",
		"SET statement_timeout = '30s';\nSELECT count(DISTINCT id) FROM (SELECT $call{$kind} AS id FROM generate_series(1, 100000)) s",
		timeout => 60);
	$minter->finish;
	is($minter->output, "100000\n", 'minting goes on');

	# The held renewer goes on: its open() returns a FIFO, which cannot be
	# written at an offset; its renewal fails and lowers nothing.
	sysopen(my $reader, $file, O_RDONLY | O_NONBLOCK) or die "open $file: $!";
	ok(defined $renewer->finish, "the $kind lease's renewer ends once its open() returns");
	close $reader;
	unlink $file or die "unlink $file: $!";
	IdgenTest::write_file($file, $record);
	like($renewer->output, qr/ERROR:  [0-9A-Z]{5}: could not write file "idgen_$kind\.lease": Illegal seek/,
		"... with the error of its write");
	cmp_ok($node->lease_end($kind), '>=', $end_after, "the $kind lease's end did not go down");
}

# A clean shutdown lowers each lease in its first file and removes the other
# slots; the next IDs still follow the last ones.
my $last_snowflake = $node->q('SELECT max(id) FROM (SELECT snowflake(6) AS id FROM generate_series(1, 1000)) s');
$node->stop('fast');
ok(!(grep { -e $node->data_dir . "/idgen_$_.lease.1" } qw(snowflake clock)),
	'a clean shutdown removes the slot files beyond the first');
$node->start;
cmp_ok($node->q('SELECT snowflake(6)'), '>', $last_snowflake, 'after the restart snowflakes go on above the last one');

# A start reads the largest slot: a slot written 3 s ahead puts the next
# snowflake's time there (within idgen.max_clock_regression, 10 s).
$node->stop('fast');
my $now_ms = $node->lease_end('snowflake');
my $ahead = $now_ms + 3000;
IdgenTest::write_file($node->data_dir . '/idgen_snowflake.lease.2', sprintf("idgen snowflake lease 1\n%020d\n", $ahead));
$node->start;
cmp_ok($node->q('SELECT snowflake(6) >> 23'), '>=', $ahead - 1,
	'a start takes the lease from the largest slot (idgen_snowflake.lease.2, 3 s ahead)');

# A slot that holds no lease disables snowflake() until it is rewritten or
# removed, and names itself; the clock families go on.
$node->stop('fast');
IdgenTest::write_file($node->data_dir . '/idgen_snowflake.lease.3', "torn\n");
$node->start;
is($node->error('SELECT snowflake(6)'), 'XX001: the snowflake lease file "idgen_snowflake.lease.3" is unreadable',
	'a slot that holds no lease disables snowflake() and is named');
like($node->q('SELECT uuid_v7()'), $id_pattern{clock}, '... while uuid_v7() goes on');
$node->stop('fast');
unlink $node->data_dir . '/idgen_snowflake.lease.3';
$node->start;
like($node->q('SELECT snowflake(6)'), $id_pattern{snowflake}, 'once it is removed, snowflake() mints again');

done_testing();
