# What PostgreSQL::Test::Cluster lacks for tests of idgen under Patroni,
# written once: one etcd member and Patroni members on 127.0.0.1, run as the
# current (unprivileged) user, and Patroni's view of the cluster.
#
#   use IdgenTest;  use IdgenTest::Patroni;
#   my $ha = IdgenTest::Patroni->new(scope => 'ha', dcs => { ttl => 10, ... });
#   $ha->start_etcd;
#   ok(poll_until(60, sub { $ha->etcd_healthy }), 'etcd answers');
#   $ha->add_member($_) for qw(n1 n2 n3);
#   $ha->start_member($_) for qw(n1 n2 n3);
#   my $leader = $ha->leader;                    # Patroni's REST API
#   $ha->node($leader)->safe_psql('postgres', 'SELECT 1');
#
# Patroni starts each member's PostgreSQL itself (that is what such a test
# tests), in the data directory of an IdgenTest::Node that is never init'ed or
# started by the test: the Node gives the member its port, socket directory,
# data directory and log file, and the test its psql, safe_psql and logfile.
# Logs (etcd, each Patroni, each server, anything spawned) land in the test's
# log directory, which test/run-tests.sh prints when the test fails.
package IdgenTest::Patroni;

use strict;
use warnings;

use Cwd qw(abs_path);
use Exporter 'import';
use File::Basename qw(basename dirname);
use File::Path qw(make_path);
use HTTP::Tiny;
use IdgenTest;
use JSON::PP;
use POSIX ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Time::HiRes qw(time sleep);

our @EXPORT = qw(poll_until);

my @all;    # every cluster made, for the teardown at exit

# poll_until SECONDS CODE: calls CODE every 0.2 s until it returns true (then
# true) or SECONDS have passed (then false); what a test waits on.
sub poll_until
{
	my ($seconds, $code) = @_;
	my $deadline = time + $seconds;
	while (1)
	{
		return 1 if $code->();
		return 0 if time > $deadline;
		sleep 0.2;
	}
}

# IdgenTest::Patroni->new(scope => NAME, dcs => HASH): a cluster with nothing
# started; DCS is the bootstrap.dcs section every member's configuration
# carries (ttl, loop_wait, postgresql.parameters, ...).
sub new
{
	my ($class, %opt) = @_;
	my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
	chomp(my $bindir = `$pg_config --bindir`);
	my $testname = basename($0);
	$testname =~ s/\.[^.]+$//;
	my $self = bless {
		scope => $opt{scope} // 'idgen',
		dcs => $opt{dcs} // {},
		dir => abs_path(PostgreSQL::Test::Utils::tempdir('patroni')),
		log_dir => abs_path($PostgreSQL::Test::Utils::log_path),
		log_prefix => $testname,
		pg_bindir => $bindir,
		user => scalar getpwuid($<),
		members => {},      # name => { node, rest_port, options, patroni pid }
		order => [],        # member names, as added
		spawned => [],      # pids of other background programs
	}, $class;
	push @all, $self;
	return $self;
}

# dir: the cluster's scratch directory (etcd's data, files of the test's own).
sub dir { return $_[0]{dir}; }

# log_file NAME: the path of a log file in the test's log directory.
sub log_file
{
	my ($self, $name) = @_;
	return "$self->{log_dir}/$self->{log_prefix}_$name.log";
}

# spawn LOG COMMAND...: COMMAND in the background, in a session (so a process
# group) of its own, output appended to LOG, HOME the scratch directory;
# returns its pid. The teardown kills what is still running.
sub spawn
{
	my ($self, $log, @command) = @_;
	my $pid = $self->_spawn($log, @command);
	push @{ $self->{spawned} }, $pid;
	return $pid;
}

sub _spawn
{
	my ($self, $log, @command) = @_;
	my $pid = fork() // die "fork: $!";
	if ($pid == 0)
	{
		POSIX::setsid();
		open STDIN, '<', '/dev/null' or POSIX::_exit(126);
		open STDOUT, '>>', $log or POSIX::_exit(126);
		open STDERR, '>&', \*STDOUT or POSIX::_exit(126);
		$ENV{HOME} = $self->{dir};
		exec { $command[0] } @command or print STDERR "exec $command[0]: $!\n";
		POSIX::_exit(127);
	}
	return $pid;
}

# kill_group PID: SIGKILL to the process group PID leads, then reaps PID.
sub _kill_group
{
	my ($pid) = @_;
	kill 'KILL', -$pid or kill 'KILL', $pid;
	waitpid($pid, 0);
	return;
}

# _http: a client for the REST APIs on 127.0.0.1, past any proxy the
# environment names. Each call is one attempt of a poll_until, so a member that
# does not answer within 2 s counts as not answering and the poll asks again.
sub _http
{
	return HTTP::Tiny->new(timeout => 2, proxy => undef, http_proxy => undef);
}

# start_etcd: one etcd member on two free ports of 127.0.0.1; etcd_healthy
# says when it answers.
sub start_etcd
{
	my ($self) = @_;
	my $client = PostgreSQL::Test::Cluster::get_free_port();
	my $peer = PostgreSQL::Test::Cluster::get_free_port();
	$self->{etcd_port} = $client;
	$self->{etcd_pid} = $self->_spawn(
		$self->log_file('etcd'),
		'/usr/bin/etcd', '--name', 'e1', '--data-dir', "$self->{dir}/etcd",
		'--listen-client-urls', "http://127.0.0.1:$client",
		'--advertise-client-urls', "http://127.0.0.1:$client",
		'--listen-peer-urls', "http://127.0.0.1:$peer",
		'--initial-advertise-peer-urls', "http://127.0.0.1:$peer",
		'--initial-cluster', "e1=http://127.0.0.1:$peer");
	return $client;
}

# etcd_port: the port etcd's clients use.
sub etcd_port { return $_[0]{etcd_port}; }

# etcd_healthy: etcd's /health says it is.
sub etcd_healthy
{
	my ($self) = @_;
	my $r = _http()->get("http://127.0.0.1:$self->{etcd_port}/health");
	return $r->{success} && $r->{content} =~ /"health"\s*:\s*"true"/;
}

# add_member NAME [parameters => HASH] [tags => HASH] [fake_clock => 1]: a
# member's IdgenTest::Node (not started: Patroni starts its server), its
# directory and its patroni.yml. PARAMETERS are the member's own
# postgresql.parameters, over the cluster's; with fake_clock, its server runs
# under libfaketime, reading the offset set_clock_offset writes (cached 1 s),
# while Patroni keeps the real clock. Returns the Node.
sub add_member
{
	my ($self, $name, %opt) = @_;
	my $node = IdgenTest::Node->new($name);
	my $member = $self->{members}{$name} = {
		node => $node,
		rest_port => PostgreSQL::Test::Cluster::get_free_port(),
		options => \%opt,
	};
	push @{ $self->{order} }, $name;
	my $base = $node->basedir;
	$member->{bin} = $self->{pg_bindir};
	if ($opt{fake_clock})
	{
		my $lib = IdgenTest::faketime_lib() or die "libfaketime is not installed\n";
		# Patroni runs bin_dir/postgres itself: links to every server
		# program, and a postgres that execs the real one under libfaketime.
		$member->{bin} = "$base/bin";
		make_path($member->{bin});
		for my $program (glob "$self->{pg_bindir}/*")
		{
			symlink $program, "$member->{bin}/" . basename($program) or die $!;
		}
		unlink "$member->{bin}/postgres";
		$self->set_clock_offset($name, '+0');
		PostgreSQL::Test::Utils::append_to_file("$member->{bin}/postgres",
			join("\n",
				'#!/bin/sh',
				"LD_PRELOAD=$lib FAKETIME_TIMESTAMP_FILE=$base/clock-offset FAKETIME_CACHE_DURATION=1 \\",
				"FAKETIME_DONT_FAKE_MONOTONIC=1 exec $self->{pg_bindir}/postgres \"\$@\"",
				''));
		chmod 0755, "$member->{bin}/postgres" or die $!;
	}
	$self->_write_config($name);
	return $node;
}

# set_member_parameters NAME KEY => VALUE...: changes the member's own
# postgresql.parameters in its patroni.yml (read when its Patroni starts).
sub set_member_parameters
{
	my ($self, $name, %parameters) = @_;
	my $options = $self->{members}{$name}{options};
	$options->{parameters} = { %{ $options->{parameters} // {} }, %parameters };
	$self->_write_config($name);
	return;
}

# _write_config NAME: the member's patroni.yml, as JSON (which is YAML too).
sub _write_config
{
	my ($self, $name) = @_;
	my $member = $self->{members}{$name};
	my $node = $member->{node};
	my ($port, $rest, $user) = ($node->port, $member->{rest_port}, $self->{user});
	my %config = (
		scope => $self->{scope},
		name => $name,
		restapi => { listen => "127.0.0.1:$rest", connect_address => "127.0.0.1:$rest" },
		etcd3 => { hosts => "127.0.0.1:$self->{etcd_port}" },
		bootstrap => {
			dcs => $self->{dcs},
			initdb => [ { encoding => 'UTF8' }, { auth => 'trust' } ],
			pg_hba => [
				'local all all trust',
				'host all all 127.0.0.1/32 trust',
				'host replication all 127.0.0.1/32 trust'
			],
		},
		postgresql => {
			listen => "127.0.0.1:$port",
			connect_address => "127.0.0.1:$port",
			data_dir => $node->data_dir,
			bin_dir => $member->{bin},
			pgpass => $node->basedir . '/pgpass',
			authentication => {
				map { ($_ => { username => $user }) } qw(superuser replication rewind)
			},
			basebackup => [ { checkpoint => 'fast' } ],
			parameters => {
				unix_socket_directories => $node->host,
				logging_collector => 'on',
				log_directory => dirname($node->logfile),
				log_filename => basename($node->logfile),
				log_line_prefix => '%m [%p] ',
				%{ $member->{options}{parameters} // {} },
			},
		},
		tags => $member->{options}{tags} // {},
	);
	my $file = $node->basedir . '/patroni.yml';
	open my $fh, '>', $file or die "$file: $!";
	print $fh JSON::PP->new->canonical->pretty->encode(\%config);
	close $fh;
	return;
}

# start_member NAME: starts the member's Patroni, which starts its server
# (initdb or a base backup of the leader the first time).
sub start_member
{
	my ($self, $name) = @_;
	my $member = $self->{members}{$name};
	$member->{patroni} = $self->_spawn($self->log_file("${name}_patroni"),
		'patroni', $member->{node}->basedir . '/patroni.yml');
	return;
}

# stop_member NAME: kills the member's Patroni (SIGKILL: it stops or restarts
# nothing on its way out), then stops its server as pg_ctl -m immediate would;
# true when no server is left running there.
sub stop_member
{
	my ($self, $name) = @_;
	my $member = $self->{members}{$name};
	_kill_group(delete $member->{patroni}) if $member->{patroni};
	return $self->stop_server($name);
}

# server_pid NAME: the pid of the member's postmaster (postmaster.pid), or undef.
sub server_pid
{
	my ($self, $name) = @_;
	my $file = $self->node($name)->data_dir . '/postmaster.pid';
	open my $fh, '<', $file or return undef;
	my $pid = <$fh>;
	close $fh;
	return defined $pid && $pid =~ /^(\d+)/ ? $1 : undef;
}

# stop_server NAME: SIGQUIT (immediate shutdown) to the member's postmaster,
# then waits until it has exited; true when no server is left running.
sub stop_server
{
	my ($self, $name) = @_;
	my $pid = $self->server_pid($name);
	return 1 unless $pid && kill 0, $pid;
	kill 'QUIT', $pid;
	# The postmaster exits once its children have (immediate shutdown).
	return poll_until($PostgreSQL::Test::Utils::timeout_default, sub { !kill 0, $pid });
}

# node NAME: the member's IdgenTest::Node.
sub node
{
	my ($self, $name) = @_;
	return $self->{members}{$name}{node};
}

# patroni_log NAME: the path of the member's Patroni log.
sub patroni_log
{
	my ($self, $name) = @_;
	return $self->log_file("${name}_patroni");
}

# config_file NAME: the path of the member's patroni.yml.
sub config_file
{
	my ($self, $name) = @_;
	return $self->node($name)->basedir . '/patroni.yml';
}

# set_clock_offset NAME OFFSET: moves a fake_clock member's server clock, e.g.
# "-40" (seconds) or "+0".
sub set_clock_offset
{
	my ($self, $name, $offset) = @_;
	my $file = $self->node($name)->basedir . '/clock-offset';
	open my $fh, '>', $file or die "$file: $!";
	print $fh "$offset\n";
	close $fh;
	return;
}

# members: the members Patroni's REST API reports (the first member that
# answers), each a hash of name, role, state, timeline, port...; () when none
# answers.
sub members
{
	my ($self) = @_;
	my $http = _http();
	for my $name (@{ $self->{order} })
	{
		my $r = $http->get("http://127.0.0.1:$self->{members}{$name}{rest_port}/cluster");
		next unless $r->{success};
		my $data = eval { decode_json($r->{content}) } or next;
		return @{ $data->{members} // [] };
	}
	return ();
}

# members_text: the members as lines "name role state timeline port", for notes.
sub members_text
{
	my ($self) = @_;
	return map { join(' ', map { $_ // '' } @$_{qw(name role state timeline port)}) } $self->members;
}

# leader: the name of the running leader, or undef.
sub leader
{
	my ($self) = @_;
	my ($leader) = grep { ($_->{role} // '') eq 'leader' && ($_->{state} // '') eq 'running' }
	  $self->members;
	return $leader ? $leader->{name} : undef;
}

# sync_standby: the name of the member Patroni holds as synchronous standby, or undef.
sub sync_standby
{
	my ($self) = @_;
	my ($sync) = grep { ($_->{role} // '') eq 'sync_standby' } $self->members;
	return $sync ? $sync->{name} : undef;
}

# query NAME SQL: SQL's result on the member's server, or undef when it fails
# (the server is down, in recovery for a write...) or takes over 30 s: callers
# poll it, and a server stuck mid-shutdown must count as a failed attempt, not
# hold the poll past the suite's timeout.
sub query
{
	my ($self, $name, $sql) = @_;
	return $self->node($name)->try_q($sql);
}

# streaming NAME UPSTREAM: NAME is in recovery, its WAL receiver streams, and
# UPSTREAM lists it in pg_stat_replication as streaming.
sub streaming
{
	my ($self, $name, $upstream) = @_;
	return ($self->query($name,
			"SELECT pg_is_in_recovery() AND status = 'streaming' FROM pg_stat_wal_receiver") // '') eq 't'
	  && ($self->query($upstream,
			"SELECT count(*) FROM pg_stat_replication WHERE application_name = '$name' AND state = 'streaming'")
		// '') eq '1';
}

# writable NAME: NAME is Patroni's leader and its server accepts writes.
sub writable
{
	my ($self, $name) = @_;
	return ($self->leader // '') eq $name
	  && ($self->query($name, 'SELECT NOT pg_is_in_recovery()') // '') eq 't';
}

# ready MEMBERS...: a leader that accepts writes, and each other member of
# MEMBERS streaming from it.
sub ready
{
	my ($self, @members) = @_;
	my $leader = $self->leader // return 0;
	return 0 unless $self->writable($leader);
	for my $m (@members)
	{
		next if $m eq $leader;
		return 0 unless $self->streaming($m, $leader);
	}
	return 1;
}

# teardown: Patroni first (SIGKILL, so that it restarts nothing), then each
# server (immediate shutdown), whatever else was spawned, etcd last. Runs at
# exit too; running it twice does nothing more.
sub teardown
{
	my ($self) = @_;
	for my $member (values %{ $self->{members} })
	{
		_kill_group(delete $member->{patroni}) if $member->{patroni};
	}
	$self->stop_server($_) for @{ $self->{order} };
	_kill_group($_) for splice @{ $self->{spawned} };
	_kill_group(delete $self->{etcd_pid}) if $self->{etcd_pid};
	return;
}

END
{
	local $?;
	$_->teardown for @all;
}

1;
