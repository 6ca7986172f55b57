# Major upgrades with idgen data (issue 32; docs/operations.md, "Upgrading
# PostgreSQL"): pg_upgrade and pg_dump / pg_restore from 15 to 17 and 18 and
# from 17 to 18, and never a repeated ID.
#
# Runs once per suite, in the PostgreSQL 18 pass of test/run-tests.sh: it
# needs 15 built from the vendored 15.18 source (`test/pg-build.sh --source
# 15`), 17 and 18 at once. Root's part, test/lib/prepare/pg_upgrade.sh
# (IdgenTest::prepared), installs idgen 0.6.0 (the release users upgrade from)
# into 15.18 and this checkout's idgen into 17 and 18; in every other pass it
# exits 3 and this file is one counted skip.
#
# Two old clusters on 15.18: one created at idgen 0.6.0, one created at 0.1.0
# and updated through the chain to 0.6.0. Each has, in database app, every
# type in tables: primary and foreign keys, btree, hash and BRIN indexes,
# tables partitioned by snowflake and uuid_v7 boundaries, generated columns
# with the explicit-epoch decoders, prefixed_id_define and typeid_define
# domains with their registry, and shard claims. Every route starts from a
# copy of the stopped old cluster, which mints snowflakes in bursts of more
# than 1,024 per ms (and 'server' order uuid_v7) until they run 8 s ahead of
# the clock, and stops at once. Routes: pg_upgrade --check, then --copy and
# --link from 15 to 17 and to 18 for both clusters; --clone where the file
# system allows (a counted skip naming the reason where it does not); from 17
# to 18 (--copy and --link) after the 17 cluster minted at this checkout's
# version and got columns of its new types (ksuid, objectid, rsxid, uuid v6
# values: checksums, hash and BRIN indexes, pruning on ksuid_boundary, a
# 'server' order ksuid() and uuid_v6() above the old cluster's last); pg_dump /
# pg_restore -j from 15 into 18 and into 17; the SQL edition on 15 into the
# C++ edition on 18; and Debian 12's 15.20 package, whose pg_upgrade to 18
# stops with `unrecognized parameter "pg_attver"`, and the way through.
# After each: per-table checksums unchanged, amcheck's bt_index_check with
# heapallindexed on every btree index, the hash and BRIN indexes answer,
# partitions prune, ALTER EXTENSION idgen UPDATE where the versions differ;
# and first, at once: a snowflake on every shard of both splits above every
# snowflake the old cluster minted, a 'server' order uuid_v7() above the old
# ones, and idgen_lease_origin naming the new cluster.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use Cwd qw(getcwd);
use PostgreSQL::Test::RecursiveCopy;
use PostgreSQL::Test::Utils ();
use Time::HiRes qw(time);

my $started = time;
IdgenTest::skip_unless_prepared('pg_upgrade.pl needs 15.18, 17 and 18 with idgen installed');
my ($verdicts, @lines) = IdgenTest::prepared_verdicts('test/lib/prepare/pg_upgrade.sh');
my %prefix = map { /^pg(\d+)=(.*)$/ ? ($1 => $2) : () } @lines;
BAIL_OUT('the preparation names no servers') unless $prefix{15} && $prefix{17} && $prefix{18};
my $repo = repo_dir();
my $version = idgen_version();
my $epoch = '2024-01-01';
my $lead_target_ms = 8000;
my @figures;    # one line per route for the closing note

# node MAJOR NAME [%opt]: a server of that major (15: the source-built 15.18)
# with idgen preloaded.
sub node
{
	my ($major, $name, %opt) = @_;
	return IdgenTest::Node->create($name,
		install_path => $prefix{$major},
		initdb => $major >= 18 ? ['--no-data-checksums'] : [],
		%opt);
}

# copy_of NODE NAME: a new, stopped server of NODE's binaries on a copy of
# NODE's (stopped) data directory.
sub copy_of
{
	my ($src, $name) = @_;
	my $copy = IdgenTest::Node->new($name, install_path => $src->install_path);
	PostgreSQL::Test::RecursiveCopy::copypath($src->data_dir, $copy->data_dir);
	chmod 0700, $copy->data_dir;
	$copy->append_conf('postgresql.conf',
		sprintf("port = %d\nunix_socket_directories = '%s'\n", $copy->port, $copy->host));
	return $copy;
}

# run CWD COMMAND...: (exit status, stdout and stderr) of a client program
# run in directory CWD (pg_upgrade writes its logs there).
sub run
{
	my ($dir, @command) = @_;
	my $cwd = getcwd();
	chdir $dir or die "$dir: $!";
	my ($status, $out, $err) = IdgenTest::run_status([@command]);
	chdir $cwd or die $!;
	return ($status, "$out\n$err");
}

# pg_upgrade OLD NEW MODE...: the new major's pg_upgrade between two stopped
# clusters; (exit status, output and the logs it left).
sub pg_upgrade
{
	my ($old, $new, @mode) = @_;
	my $dir = PostgreSQL::Test::Utils::tempdir('pg_upgrade');
	my ($status, $out) = run($dir, $new->installed_command('pg_upgrade'), '--no-sync',
		'-d', $old->data_dir, '-D', $new->data_dir,
		'-b', $old->config_data('--bindir'), '-B', $new->config_data('--bindir'),
		'-s', $new->host, '-p', $old->port, '-P', $new->port, @mode);
	for my $log (glob($new->data_dir . '/pg_upgrade_output.d/*/log/*.log'), glob("$dir/*.log"))
	{
		$out .= "\n--- $log\n" . PostgreSQL::Test::Utils::slurp_file($log);
	}
	return ($status, $out);
}

# The tables of database app, every idgen type in them (idgen 0.6.0's API).
my $fill_sql = <<"SQL";
SELECT prefixed_id_define('account_id', 'acct');
SELECT typeid_define('user_tid', 'user');
SELECT count(*) FROM idgen_claim_shards('1-3');
SELECT count(*) FROM idgen_claim_shards('2', 'snowflake53');
CREATE TABLE accounts (
    id account_id PRIMARY KEY,
    sf bigint NOT NULL UNIQUE DEFAULT snowflake(1),
    sf53 bigint NOT NULL DEFAULT snowflake53(2),
    u uuid NOT NULL DEFAULT uuid_v7(),
    l ulid NOT NULL DEFAULT ulid(),
    tid user_tid NOT NULL,
    tk prefixed_id NOT NULL DEFAULT prefixed_id_token('tok'),
    sf_at timestamptz GENERATED ALWAYS AS (snowflake_time(sf, '$epoch')) STORED,
    sf53_at timestamptz GENERATED ALWAYS AS (snowflake53_time(sf53, '$epoch')) STORED,
    n integer NOT NULL);
CREATE INDEX accounts_tid ON accounts (tid);
CREATE INDEX accounts_sf_at ON accounts (sf_at);
CREATE INDEX accounts_l_hash ON accounts USING hash (l);
CREATE INDEX accounts_tk_hash ON accounts USING hash (tk);
CREATE INDEX accounts_sf53_brin ON accounts USING brin (sf53) WITH (pages_per_range = 4);
CREATE INDEX accounts_u_brin ON accounts USING brin (u) WITH (pages_per_range = 4);
CREATE TABLE orders (
    id ulid PRIMARY KEY DEFAULT ulid(),
    account account_id NOT NULL REFERENCES accounts,
    t typeid NOT NULL UNIQUE DEFAULT typeid_new('order'),
    n integer);
CREATE INDEX orders_account ON orders (account);
CREATE TABLE events (id uuid NOT NULL DEFAULT uuid_v7(), account account_id REFERENCES accounts,
    n integer, PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE events_2025 PARTITION OF events
    FOR VALUES FROM (uuid_v7_boundary('2025-01-01')) TO (uuid_v7_boundary('2026-01-01'));
CREATE TABLE events_2026 PARTITION OF events
    FOR VALUES FROM (uuid_v7_boundary('2026-01-01')) TO (uuid_v7_boundary('2027-01-01'));
CREATE TABLE ledger (id bigint NOT NULL DEFAULT snowflake(3), n integer, PRIMARY KEY (id))
    PARTITION BY RANGE (id);
CREATE TABLE ledger_2025 PARTITION OF ledger FOR VALUES
    FROM (snowflake_boundary('2025-01-01', 0, '$epoch')) TO (snowflake_boundary('2026-01-01', 0, '$epoch'));
CREATE TABLE ledger_2026 PARTITION OF ledger FOR VALUES
    FROM (snowflake_boundary('2026-01-01', 0, '$epoch')) TO (snowflake_boundary('2027-01-01', 0, '$epoch'));
INSERT INTO accounts (n) SELECT g FROM generate_series(1, 3000) g;
INSERT INTO orders (account, n) SELECT id, n FROM accounts;
INSERT INTO events (account, n) SELECT id, n FROM accounts;
INSERT INTO events (id, account, n) SELECT uuid_v7_at('2025-06-01'::timestamptz + g * interval '1 minute'), NULL, g
    FROM generate_series(1, 1000) g;
INSERT INTO ledger (n) SELECT g FROM generate_series(1, 3000) g;
INSERT INTO ledger (id, n) SELECT snowflake_boundary('2025-06-01'::timestamptz + g * interval '1 minute', 3, '$epoch'), g
    FROM generate_series(1, 1000) g;
SQL

# The tables whose checksums must not change, and the checksum query.
my @tables = qw(accounts orders events_2025 events_2026 ledger_2025 ledger_2026
  prefixed_id_registry idgen_shard_claim);
my $checksum_sql = join(" UNION ALL ",
	map { "SELECT '$_', count(*), md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) FROM $_ x" } @tables)
  . ' ORDER BY 1';

# The types new in 0.8.0 (ksuid, objectid, rsxid, and uuid_v6 values in uuid),
# which the 17 cluster gets once it runs this checkout's idgen: a ksuid
# primary key, hash indexes (objectid, rsxid) and BRIN indexes (ksuid, uuid
# v6) on columns of their own, and a table partitioned on ksuid_boundary.
my $fill08_sql = <<"SQL";
SET idgen.ksuid_order = 'server';
SET idgen.uuid_v6_order = 'server';
CREATE TABLE ids08 (
    k ksuid PRIMARY KEY DEFAULT ksuid(),
    kb ksuid NOT NULL DEFAULT ksuid(),
    o objectid NOT NULL DEFAULT objectid(),
    x rsxid NOT NULL DEFAULT xid(),
    v uuid NOT NULL DEFAULT uuid_v6(),
    ks ksuid[], os objectid[], xs rsxid[],
    n integer NOT NULL);
CREATE INDEX ids08_o_hash ON ids08 USING hash (o);
CREATE INDEX ids08_x_hash ON ids08 USING hash (x);
CREATE INDEX ids08_kb_brin ON ids08 USING brin (kb) WITH (pages_per_range = 4);
CREATE INDEX ids08_v_brin ON ids08 USING brin (v) WITH (pages_per_range = 4);
CREATE TABLE ksuid_events (id ksuid PRIMARY KEY, n integer) PARTITION BY RANGE (id);
CREATE TABLE ksuid_events_2025 PARTITION OF ksuid_events
    FOR VALUES FROM (ksuid_boundary('2025-01-01')) TO (ksuid_boundary('2026-01-01'));
CREATE TABLE ksuid_events_2026 PARTITION OF ksuid_events
    FOR VALUES FROM (ksuid_boundary('2026-01-01')) TO (ksuid_boundary('2027-01-01'));
INSERT INTO ids08 (n) SELECT g FROM generate_series(1, 3000) g;
UPDATE ids08 SET ks = ARRAY[k, kb], os = ARRAY[o, NULL], xs = ARRAY[x] WHERE n % 10 = 0;
INSERT INTO ksuid_events SELECT ksuid_at('2025-01-01'::timestamptz + g * interval '1 hour'), g
    FROM generate_series(1, 17000) g;
SQL
my @tables08 = qw(ids08 ksuid_events_2025 ksuid_events_2026);
my $checksum08_sql = join(" UNION ALL ",
	map { "SELECT '$_', count(*), md5(coalesce(string_agg(x::text, '|' ORDER BY x::text COLLATE \"C\"), '')) FROM $_ x" } @tables08)
  . ' ORDER BY 1';

# checks08 NEW LABEL CHECKSUMS: what must hold for the 0.8.0 types' tables
# after an upgrade (amcheck's btree checks are after_checks', over every index).
sub checks08
{
	my ($new, $label, $checksums) = @_;
	is($new->output($checksum08_sql, db => 'app'), $checksums,
		"$label: the checksums of the ksuid, objectid, rsxid and uuid v6 tables are unchanged");
	my $lookups = "SELECT count(*) FROM ids08 WHERE o = (SELECT o FROM ids08 WHERE n = 1234);
		 SELECT count(*) FROM ids08 WHERE x = (SELECT x FROM ids08 WHERE n = 99);
		 SELECT count(*) FROM ids08 WHERE kb >= (SELECT kb FROM ids08 WHERE n = 1000);
		 SELECT count(*) FROM ids08 WHERE v >= (SELECT v FROM ids08 WHERE n = 2000);";
	my $by_index = $new->output("SET enable_seqscan = off; $lookups", db => 'app');
	my $by_scan = $new->output("SET enable_indexscan = off; SET enable_bitmapscan = off; $lookups", db => 'app');
	my $plans = $new->output(
		"SET enable_seqscan = off;
		 EXPLAIN (COSTS OFF) SELECT * FROM ids08 WHERE o = '56e1fc72e0c917e9c4714161';
		 EXPLAIN (COSTS OFF) SELECT * FROM ids08 WHERE x = '9m4e2mr0ui3e8a215n4g';
		 EXPLAIN (COSTS OFF) SELECT * FROM ids08 WHERE kb > '0ujtsYcgvSTl8PAuAdqWYSMnLOv';
		 EXPLAIN (COSTS OFF) SELECT * FROM ids08 WHERE v > '00000000-0000-6000-8000-000000000000'", db => 'app');
	my @used = $plans =~ /Index Scan on (ids08_\w+)/g;
	ok($by_index eq $by_scan && $by_index =~ /^1\n1\n\d+\n\d+$/
		  && "@used" eq 'ids08_o_hash ids08_x_hash ids08_kb_brin ids08_v_brin',
		"$label: the objectid and rsxid hash indexes and the ksuid and uuid v6 BRIN indexes answer")
	  or diag("index: $by_index\nscan: $by_scan\n$plans");
	my $pruned = $new->output(
		"EXPLAIN (COSTS OFF) SELECT count(*) FROM ksuid_events WHERE id < ksuid_boundary('2025-12-01')", db => 'app');
	ok($pruned =~ /ksuid_events_2025/ && $pruned !~ /ksuid_events_2026/,
		"$label: partitions prune on ksuid_boundary") or diag($pruned);
	is($new->output("SET idgen.ksuid_order = 'server'; SET idgen.uuid_v6_order = 'server';
		 INSERT INTO ids08 (n) VALUES (0) RETURNING k > (SELECT max(k) FROM ids08 WHERE n > 0),
		     v > (SELECT (array_agg(v ORDER BY v DESC))[1] FROM ids08 WHERE n > 0)", db => 'app'),
		't|t', "$label: a new row's ksuid() and uuid_v6() DEFAULTs ('server' order) are above every upgraded one");
	return;
}

# old_cluster NAME CREATE_SQL: a stopped 15.18 cluster with database app filled.
sub old_cluster
{
	my ($name, $create) = @_;
	my $old = node(15, $name, conf => ['max_connections = 20']);
	$old->q('CREATE DATABASE app');
	$old->q($create, db => 'app');
	$old->q($fill_sql, db => 'app');
	$old->stop;
	return $old;
}

# burst NODE: mints until the old cluster's snowflakes run $lead_target_ms
# ahead of the clock (statements of 2,000,000 on shard 1, the last one just
# before the caller stops the server), 'server' order uuid_v7 values in a
# burst too; returns {snowflake => latest time of any snowflake minted by
# the server, uuid => largest uuid_v7, lead => ms, rate => IDs per ms}.
sub burst
{
	my ($node) = @_;
	my %r;
	$r{uuid} = $node->q("SET idgen.uuid_v7_order = 'server'; SELECT u FROM (SELECT uuid_v7() AS u FROM generate_series(1, 1000000)) s ORDER BY u DESC LIMIT 1", db => 'app');
	$node->q('SELECT count(snowflake53(s)) FROM generate_series(0, 15) s, generate_series(1, 2000)', db => 'app');
	for (1 .. 40)
	{
		($r{lead}, $r{rate}) = split /\|/, $node->q(
			"SELECT (extract(epoch FROM snowflake_time(max(id)) - clock_timestamp()) * 1000)::bigint,
			        round(count(*) / greatest(extract(epoch FROM clock_timestamp() - statement_timestamp()) * 1000, 1))
			 FROM (SELECT snowflake(1) AS id FROM generate_series(1, 2000000)) s", db => 'app');
		last if $r{lead} >= $lead_target_ms;
	}
	# The latest ID of any shard of either split since the start, and the
	# largest in the tables (minted before).
	$r{snowflake} = $node->q(
		"SELECT max(t) FROM (SELECT snowflake_time(last_id) AS t FROM idgen_snowflake_shards WHERE family = 'snowflake'
		                     UNION ALL SELECT snowflake53_time(last_id) FROM idgen_snowflake_shards WHERE family = 'snowflake53'
		                     UNION ALL SELECT max(snowflake_time(sf)) FROM accounts
		                     UNION ALL SELECT max(snowflake_time(id)) FROM ledger) s", db => 'app');
	($r{uuid}, $r{uuid_lead}) = split /\|/, $node->q(
		"SELECT m, (extract(epoch FROM uuid_v7_time(m) - clock_timestamp()) * 1000)::bigint
		 FROM (SELECT greatest('$r{uuid}'::uuid, (SELECT u FROM accounts ORDER BY u DESC LIMIT 1),
		                       (SELECT id FROM events ORDER BY id DESC LIMIT 1)) AS m) s", db => 'app');
	# Where the old cluster runs 0.8.0: its last 'server' order ksuid and uuid_v6.
	if ($node->q("SELECT to_regprocedure('ksuid()') IS NOT NULL", db => 'app') eq 't')
	{
		($r{ksuid}, $r{uuid_v6}) = split /\|/, $node->q(
			"SET idgen.ksuid_order = 'server'; SET idgen.uuid_v6_order = 'server';
			 SELECT max(k), (array_agg(v ORDER BY v DESC))[1]
			 FROM (SELECT ksuid() AS k, uuid_v6() AS v FROM generate_series(1, 100000)) s", db => 'app');
	}
	$r{at} = time;
	return \%r;
}

# at_once NEW LABEL OLD_MAX: the new cluster's first IDs, right after its
# start: a snowflake on every shard of both splits above every snowflake the
# old cluster minted, a 'server' order uuid_v7 above the old. The old
# cluster's uuid_v7 values do not run ahead of its clock (at 4,096 values per
# ms), so the uuid_v7 check can only fail where the new cluster's clock runs
# BEHIND_MS behind the old one's: then it checks that they would lie above
# the new clock.
sub at_once
{
	my ($new, $label, $old, $behind_ms) = @_;
	my ($first_time, $gap, $uuid_above) = split /[|\n]/, $new->q(
		"SELECT least((SELECT min(snowflake_time(snowflake(s))) FROM generate_series(0, 8191) s),
		              (SELECT min(snowflake53_time(snowflake53(s))) FROM generate_series(0, 15) s)),
		        (extract(epoch FROM (SELECT min(snowflake_time(snowflake(s))) FROM generate_series(0, 8191) s) - '$old->{snowflake}') * 1000)::bigint;
		 SET idgen.uuid_v7_order = 'server';
		 SELECT uuid_v7() > '$old->{uuid}'", db => 'app');
	my $since_stop = int((time - $old->{at}) * 1000);
	ok($new->q("SELECT '$first_time'::timestamptz > '$old->{snowflake}'::timestamptz", db => 'app') eq 't',
		"$label: at once, a snowflake on each of the 8192 + 16 shards is above every snowflake the old cluster minted")
	  or diag("first new $first_time, last old $old->{snowflake}");
	is($uuid_above, 't', "$label: a 'server' order uuid_v7() is above every old one");
	if (defined $old->{ksuid})
	{
		is($new->q("SET idgen.ksuid_order = 'server'; SET idgen.uuid_v6_order = 'server';
			 SELECT (ksuid() > '$old->{ksuid}') || ' ' || (uuid_v6() > '$old->{uuid_v6}')", db => 'app'),
			'true true', "$label: a 'server' order ksuid() and uuid_v6() are above the old cluster's last");
	}
	if ($behind_ms)
	{
		cmp_ok($old->{uuid_lead} + $behind_ms, '>', $since_stop,
			"$label: the old cluster's last uuid_v7 lay ahead of the new cluster's clock, which runs "
			  . $behind_ms / 1000 . ' s behind, when the new cluster minted');
	}
	# The check above could fail only while the old IDs still lay ahead of the
	# new cluster's clock. Their lead is at most idgen.max_clock_regression
	# (10 s); on a loaded machine the stop, the upgrade and the start can take
	# longer, and the check then proved nothing: a counted skip, not a pass.
	my $lead = $old->{lead} + ($behind_ms // 0);
	SKIP:
	{
		if ($lead <= $since_stop)
		{
			note("$label: the old cluster's last snowflake lay $lead ms ahead of the new cluster's clock, which minted $since_stop ms later");
			skip("the old cluster's last snowflake was no longer ahead of the clock when the new cluster minted "
				  . "(the upgrade took the lead): the check above proved nothing", 1);
		}
		cmp_ok($lead, '>', $since_stop,
			"$label: the old cluster's last snowflake ($lead ms ahead of the new cluster's clock) was still ahead when the new cluster minted ($since_stop ms later)");
	}
	push @figures, sprintf('%s: old snowflakes %d ms ahead (%s IDs/ms), old uuid_v7 %d ms; new cluster minted %d ms after the old burst, its first snowflake %d ms above the old last',
		$label, $old->{lead}, $old->{rate}, $old->{uuid_lead}, $since_stop, $gap);
	return;
}

# after_checks NEW LABEL CHECKSUMS: what must hold after an upgrade or restore.
sub after_checks
{
	my ($new, $label, $checksums) = @_;
	is($new->output($checksum_sql, db => 'app'), $checksums, "$label: every table's checksum is unchanged");
	$new->q('CREATE EXTENSION IF NOT EXISTS amcheck', db => 'app');
	my ($checked, $expected) = split /\|/, $new->output(
		"SELECT count(bt_index_check(c.oid, true)), (SELECT count(*) FROM pg_class i JOIN pg_am a ON a.oid = i.relam
		     WHERE a.amname = 'btree' AND i.relkind = 'i' AND i.relnamespace = 'public'::regnamespace)
		 FROM pg_class c JOIN pg_am a ON a.oid = c.relam
		 WHERE a.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace", db => 'app');
	ok($checked == $expected && $checked >= 12,
		"$label: bt_index_check(heapallindexed) passes on every btree index ($checked)");
	my $lookups = "SELECT count(*) FROM accounts a WHERE l = (SELECT l FROM accounts WHERE n = 1234);
		 SELECT count(*) FROM accounts a WHERE tk = (SELECT tk FROM accounts WHERE n = 99);
		 SELECT count(*) FROM accounts a WHERE sf53 >= (SELECT sf53 FROM accounts WHERE n = 1000);
		 SELECT count(*) FROM accounts a WHERE u >= (SELECT u FROM accounts WHERE n = 2000);";
	my $by_index = $new->output("SET enable_seqscan = off; $lookups", db => 'app');
	my $by_scan = $new->output("SET enable_indexscan = off; SET enable_bitmapscan = off; $lookups", db => 'app');
	my $plans = $new->output(
		"SET enable_seqscan = off;
		 EXPLAIN (COSTS OFF) SELECT * FROM accounts WHERE l = '01JDXXQ7D0V2XEN9CTB3K5M0QJ';
		 EXPLAIN (COSTS OFF) SELECT * FROM accounts WHERE tk = 'tok_0000000000000000000000000';
		 EXPLAIN (COSTS OFF) SELECT * FROM accounts WHERE sf53 > 0;
		 EXPLAIN (COSTS OFF) SELECT * FROM accounts WHERE u > '00000000-0000-7000-8000-000000000000'", db => 'app');
	my @used = $plans =~ /Index Scan on (accounts_\w+)/g;
	ok($by_index eq $by_scan && $by_index =~ /^1\n1\n\d+\n\d+$/
		  && "@used" eq 'accounts_l_hash accounts_tk_hash accounts_sf53_brin accounts_u_brin',
		"$label: the hash and BRIN indexes answer (the same rows as a sequential scan)")
	  or diag("index: $by_index\nscan: $by_scan\n$plans");
	my $pruned = $new->output(
		"EXPLAIN (COSTS OFF) SELECT count(*) FROM ledger WHERE id >= snowflake_boundary('2026-01-01', 0, '$epoch') AND id < snowflake_boundary('2026-06-01', 0, '$epoch');
		 EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id < uuid_v7_boundary('2025-12-01')", db => 'app');
	ok($pruned =~ /ledger_2026/ && $pruned !~ /ledger_2025/ && $pruned =~ /events_2025/ && $pruned !~ /events_2026/,
		"$label: partitions prune on snowflake and uuid_v7 boundaries") or diag($pruned);
	return;
}

# update_checks NEW LABEL: ALTER EXTENSION idgen UPDATE from 0.6.0, the origin
# it leaves (0: not known) and a new session's IDs still above.
sub update_checks
{
	my ($new, $label) = @_;
	is($new->output("ALTER EXTENSION idgen UPDATE; SELECT extversion FROM pg_extension WHERE extname = 'idgen'", db => 'app'),
		$version, "$label: ALTER EXTENSION idgen UPDATE from 0.6.0 to $version");
	is($new->output('SELECT system_identifier FROM idgen_lease_origin', db => 'app'), '0',
		"$label: after the update idgen_lease_origin says the origin is not known");
	is($new->output("SELECT snowflake(1) > (SELECT max(sf) FROM accounts);
		 SELECT count(*), bool_and(system_identifier = (SELECT system_identifier FROM pg_control_system())) FROM idgen_lease_origin", db => 'app'),
		"t\n1|t", "$label: the next snowflake is above and idgen_lease_origin then names this cluster alone");
	return;
}

# upgrade OLD_SRC NEW_MAJOR MODE LABEL [CHECKSUMS]: one pg_upgrade route from
# a copy of a stopped cluster; returns the new cluster, started, or undef.
sub upgrade
{
	my ($src, $new_major, $mode, $label, $checksums, %opt) = @_;
	my $old = copy_of($src, "old_$label" =~ s/\W+/_/gr);
	$old->start;
	$checksums //= $old->q($checksum_sql, db => 'app');
	my $was = $old->q("SELECT extversion FROM pg_extension WHERE extname = 'idgen'", db => 'app');
	my $old_sysid = $old->q('SELECT system_identifier FROM pg_control_system()');
	# The new cluster's initdb and pg_upgrade --check come before the burst:
	# between the burst and the new cluster's first IDs, which must come
	# within the old IDs' lead (at most idgen.max_clock_regression, 10 s),
	# there is only the old cluster's stop, the upgrade and the start.
	# clock_behind => S: the new cluster's clock runs S seconds behind the old
	# one's (libfaketime), within its idgen.max_clock_regression.
	my $behind = $opt{clock_behind};
	my $new = node($new_major, "new_$label" =~ s/\W+/_/gr, start => 0,
		$behind ? (fake_clock => 1, conf => ["idgen.max_clock_regression = '60s'"]) : ());
	$old->stop('fast');
	my ($status, $out) = pg_upgrade($old, $new, '--check', $mode);
	is($status, 0, "$label: pg_upgrade --check $mode passes") or diag(substr($out, 0, 3000));
	$old->start;
	my $minted = burst($old);
	my @lease_files = grep { -e $old->data_dir . "/$_" } qw(idgen_snowflake.lease idgen_clock.lease);
	$old->stop('fast');
	($status, $out) = pg_upgrade($old, $new, $mode);
	is($status, 0, "$label: pg_upgrade $mode") or do { diag(substr($out, -3000)); return undef };
	# What pg_upgrade carries: not the lease files, and a new system identifier.
	my @carried = grep { -e $new->data_dir . "/$_" } @lease_files;
	ok(@lease_files == 2 && !@carried,
		"$label: the old cluster had both lease files, pg_upgrade carried neither (" . join(' ', @carried) . ')');
	$new->set_clock_offset("-$behind") if $behind;
	$new->start;
	my $origin = $was eq '0.6.0' ? undef : $new->q('SELECT system_identifier FROM idgen_lease_origin', db => 'app');
	at_once($new, $label, $minted, $behind ? $behind * 1000 : undef);
	isnt($new->q('SELECT system_identifier FROM pg_control_system()'), $old_sysid,
		"$label: the new cluster has a system identifier of its own");
	if ($was ne '0.6.0')
	{
		is($origin, $old_sysid, "$label: idgen_lease_origin's file came along, naming the old cluster");
		is($new->output('SELECT count(*), bool_and(system_identifier = (SELECT system_identifier FROM pg_control_system())) FROM idgen_lease_origin', db => 'app'),
			'1|t', "$label: after the first IDs it names the new cluster alone");
	}
	after_checks($new, $label, $checksums);
	update_checks($new, $label) if $was eq '0.6.0';
	return $new;
}

# --- the old clusters ---------------------------------------------------------------
my %old = (
	'0.6.0' => old_cluster('old060', "CREATE EXTENSION idgen VERSION '0.6.0'"),
	'0.1.0' => old_cluster('old010', "CREATE EXTENSION idgen VERSION '0.1.0'; ALTER EXTENSION idgen UPDATE TO '0.6.0'"),
);
$old{'0.6.0'}->start;
is($old{'0.6.0'}->q("SELECT extversion FROM pg_extension WHERE extname = 'idgen'", db => 'app'), '0.6.0',
	'the old cluster runs idgen 0.6.0 on PostgreSQL 15.18');
my $checksums = $old{'0.6.0'}->q($checksum_sql, db => 'app');
my %count = map { (split /\|/)[0, 1] } split /\n/, $checksums;
ok($count{prefixed_id_registry} >= 2 && $count{idgen_shard_claim} == 4 && $count{accounts} == 3000,
	'the old cluster holds the registry, 4 shard claims and every table') or diag($checksums);
$old{'0.6.0'}->stop;

# --- pg_upgrade 15 -> 17 and 18 -----------------------------------------------------
my $new17;
for my $from ('0.6.0', '0.1.0')
{
	for my $major (17, 18)
	{
		for my $mode ('--copy', '--link')
		{
			# One route with the new clock 20 s behind, where the uuid_v7 check can fail.
			my $behind = $from eq '0.6.0' && $major == 18 && $mode eq '--link' ? 20 : 0;
			my $new = upgrade($old{$from}, $major, $mode, "idgen $from, 15 -> $major $mode", undef,
				clock_behind => $behind);
			next unless $new;
			if ($major == 17 && $mode eq '--copy' && $from eq '0.6.0') { $new17 = $new; next; }
			$new->stop;
		}
	}
}

# --clone needs a file system that clones files (Btrfs, XFS with reflink...).
{
	my $probe = copy_of($old{'0.6.0'}, 'clone_probe');
	my $new = node(18, 'clone18', start => 0);
	my ($status, $out) = pg_upgrade($probe, $new, '--check', '--clone');
	if ($status == 0)
	{
		upgrade($old{'0.6.0'}, 18, '--clone', 'idgen 0.6.0, 15 -> 18 --clone')->stop;
		upgrade($old{'0.6.0'}, 17, '--clone', 'idgen 0.6.0, 15 -> 17 --clone')->stop;
	}
	else
	{
		my ($why) = $out =~ /(could not clone file[^\n]*|file cloning not supported[^\n]*)/;
		my $fs = `stat -f -c %T '${\ $probe->data_dir}'`;
		chomp $fs;
		SKIP:
		{
			skip "pg_upgrade --clone, 15 -> 17 and 18: the file system here ($fs) cannot clone files: " . ($why // 'pg_upgrade --check --clone failed'), 2;
		}
		note($out) unless $why;
	}
}

# --- pg_upgrade 17 -> 18, after the 17 cluster minted at this checkout's version, with -----
# --- columns of the types new in 0.8.0 (the old 15 cluster runs 0.6.0, which has none) -------
SKIP:
{
	skip '17 -> 18: the 15 -> 17 upgrade failed', 1 unless $new17;
	is($new17->output('SELECT count(*), bool_and(system_identifier = (SELECT system_identifier FROM pg_control_system())) FROM idgen_lease_origin', db => 'app'),
		'1|t', "17 at $version: idgen_lease_origin names the 17 cluster");
	$new17->q("INSERT INTO accounts (n) SELECT 3000 + g FROM generate_series(1, 10) g", db => 'app');
	$new17->q($fill08_sql, db => 'app');
	my $checksums17 = $new17->q($checksum_sql, db => 'app');
	my $checksums08 = $new17->q($checksum08_sql, db => 'app');
	$new17->stop;
	for my $mode ('--copy', '--link')
	{
		my $label = "idgen $version, 17 -> 18 $mode";
		my $new = upgrade($new17, 18, $mode, $label, $checksums17);
		next unless $new;
		checks08($new, $label, $checksums08);
		$new->stop;
	}
}

# --- pg_dump / pg_restore -j from 15 into 18 and 17 ---------------------------------
for my $major (18, 17)
{
	my $label = "pg_dump / pg_restore -j, idgen 0.6.0, 15 -> $major";
	my $old = copy_of($old{'0.6.0'}, "dump_old_$major");
	$old->start;
	my $new = node($major, "dump_new_$major");
	my $minted = burst($old);
	my $dir = PostgreSQL::Test::Utils::tempdir('dump');
	my ($status, $out) = run($dir, $new->installed_command('pg_dump'), '-Fd', '-j', '2', '-f', "$dir/app",
		'-d', $old->connstr('app'));
	is($status, 0, "$label: pg_dump -Fd -j 2 of the running 15 cluster") or diag($out);
	$old->stop('fast');
	$new->q('CREATE DATABASE app');
	($status, $out) = run($dir, $new->installed_command('pg_restore'), '-j', '2', '--exit-on-error',
		'-d', $new->connstr('app'), "$dir/app");
	is($status, 0, "$label: pg_restore -j 2 into a new database") or diag($out);
	is($new->output('SELECT system_identifier FROM idgen_lease_origin', db => 'app'), '0',
		"$label: the restore's CREATE EXTENSION (row_security off) records the origin as not known");
	at_once($new, $label, $minted);
	is($new->output('SELECT count(*), bool_and(system_identifier = (SELECT system_identifier FROM pg_control_system())) FROM idgen_lease_origin', db => 'app'),
		'1|t', "$label: idgen_lease_origin then names the new cluster alone");
	after_checks($new, $label, $checksums);
	is($new->output("SELECT extversion FROM pg_extension WHERE extname = 'idgen'", db => 'app'), $version,
		"$label: the restore created idgen $version");
	is($new->output("INSERT INTO accounts (n) VALUES (0) RETURNING id::text LIKE 'acct\\_%', tid::text LIKE 'user\\_%'", db => 'app'),
		't|t', "$label: the restored domains and their registry mint new IDs");
	$new->stop;
}

# --- the SQL edition on 15 into the C++ edition on 18 ----------------------------------
{
	my $label = 'SQL edition on 15 -> C++ edition on 18';
	my $script = PostgreSQL::Test::Utils::tempdir('sqled') . "/idgen_sql--$version.sql";
	my ($mk_status, $mk_out, $mk_err) = IdgenTest::run_status([ 'make', '-s', '-C', $repo, 'sql-edition', "SQL_EDITION=$script" ]);
	is($mk_status, 0, "$label: make sql-edition") or diag("$mk_out\n$mk_err");
	my $m = node(15, 'sqled15', preload => 0);
	$m->q('CREATE DATABASE app');
	{
		local $ENV{PGOPTIONS} = '-c search_path=ids';
		$m->q('CREATE SCHEMA ids', db => 'app');
		$m->q(PostgreSQL::Test::Utils::slurp_file($script), db => 'app');
	}
	$m->q("CREATE TABLE things (s bigint PRIMARY KEY DEFAULT ids.snowflake(1), u uuid DEFAULT ids.uuid_v7(),
	           l ids.ulid DEFAULT ids.ulid(), n int);
	       INSERT INTO things (n) SELECT g FROM generate_series(1, 2000) g", db => 'app');
	my $sum = $m->q("SELECT md5(string_agg(concat_ws(' ', s, u, l, n), ',' ORDER BY s)) FROM things", db => 'app');
	my $last = $m->q('SELECT max(s) FROM things', db => 'app');
	my $dir = PostgreSQL::Test::Utils::tempdir('sqled_dump');
	my $f = node(18, 'sqled18');
	my ($status, $out) = run($dir, $f->installed_command('pg_dump'), '-Fc', '-f', "$dir/app.dump", '-d', $m->connstr('app'));
	is($status, 0, "$label: pg_dump of the SQL edition's database") or diag($out);
	$m->stop('fast');
	$f->q('CREATE DATABASE app');
	($status, $out) = run($dir, $f->installed_command('pg_restore'), '--exit-on-error', '-d', $f->connstr('app'), "$dir/app.dump");
	is($status, 0, "$label: pg_restore into 18") or diag($out);
	$f->q('CREATE SCHEMA cpp; CREATE EXTENSION idgen SCHEMA cpp', db => 'app');
	is($f->output('SELECT system_identifier FROM cpp.idgen_lease_origin', db => 'app'), '0',
		"$label: CREATE EXTENSION beside the SQL edition's state records the origin as not known");
	is($f->output("ALTER TABLE things ALTER s SET DEFAULT cpp.snowflake(1);
		 INSERT INTO things (n) VALUES (0) RETURNING cpp.snowflake_time(s) > cpp.snowflake_time($last)", db => 'app'),
		't', "$label: the C++ edition's first snowflake on the same shard is above the SQL edition's last");
	is($f->output("SELECT md5(string_agg(concat_ws(' ', s, u, l, n), ',' ORDER BY s)) FROM things WHERE n > 0", db => 'app'),
		$sum, "$label: the table's checksum is unchanged");
	$f->stop;
}

# --- idgen_lease_origin naming another cluster: a read-only transaction first ----
{
	my $r = node(18, 'read_only');
	$r->q('CREATE DATABASE app');
	$r->q('CREATE EXTENSION idgen', db => 'app');
	is($r->q('SELECT count(*), bool_and(system_identifier = (SELECT system_identifier FROM pg_control_system())) FROM idgen_lease_origin', db => 'app'),
		'1|t', 'CREATE EXTENSION records this cluster in idgen_lease_origin');
	$r->q('UPDATE idgen_lease_origin SET system_identifier = 42', db => 'app');
	is( $r->q("BEGIN READ ONLY;
			 SELECT snowflake_time(snowflake(5)) - clock_timestamp() > interval '5 s';
			 COMMIT;
			 SELECT system_identifier FROM idgen_lease_origin", db => 'app'),
		"t\n42", "a database naming another cluster: a read-only transaction's first snowflake lies beyond the clock (the leases were raised), and the table stays as it was");
	is( $r->q("SELECT snowflake_time(snowflake(5)) - clock_timestamp() > interval '5 s';
			 SELECT count(*), bool_and(system_identifier = (SELECT system_identifier FROM pg_control_system())) FROM idgen_lease_origin", db => 'app'),
		"t\n1|t", 'the next read-write session raises again and records this cluster alone');
	$r->stop;
}

# --- a server started for pg_upgrade (binary-upgrade mode) refuses to mint --------
{
	my $b = node(18, 'binary_upgrade');
	$b->q('CREATE DATABASE app');
	$b->q('CREATE EXTENSION idgen', db => 'app');
	$b->stop;
	my ($status, $out) = run(PostgreSQL::Test::Utils::tempdir('binary'), $b->installed_command('pg_ctl'),
		'-D', $b->data_dir, '-o', '-b', '-l', $b->logfile, '-w', 'start');
	is($status, 0, 'a server started in binary-upgrade mode (-b), as pg_upgrade starts both') or diag($out);
	is($b->error('SELECT snowflake(1)', db => 'app'),
		'55000: cannot mint ids while the server runs for pg_upgrade',
		'there snowflake() refuses: 55000, cannot mint ids while the server runs for pg_upgrade');
	is($b->error('SELECT uuid_v7()', db => 'app'),
		'55000: cannot mint ids while the server runs for pg_upgrade', 'and so does uuid_v7()');
	# Started outside PostgreSQL::Test::Cluster, so stopped the same way.
	($status, $out) = run(PostgreSQL::Test::Utils::tempdir('binary'), $b->installed_command('pg_ctl'),
		'-D', $b->data_dir, '-m', 'fast', '-w', 'stop');
	is($status, 0, 'the binary-upgrade server stops') or diag($out);
}

# --- Debian 12's PostgreSQL 15.20 package: pg_attver ---------------------------------
SKIP:
{
	my $debian = '/usr/lib/postgresql/15';
	skip "Debian's postgresql-15 is not installed", 4 unless -x "$debian/bin/postgres";
	my $label = "Debian's 15 package -> 18";
	my $deb = IdgenTest::Node->create('debian15', install_path => $debian, preload => 0);
	$deb->q('CREATE DATABASE app');
	$deb->q('CREATE TABLE plain (a integer PRIMARY KEY, b text); INSERT INTO plain SELECT g, g::text FROM generate_series(1, 100) g',
		db => 'app');
	my $attver = $deb->q("SELECT count(*) FROM pg_attribute WHERE attrelid = 'plain'::regclass AND attoptions::text LIKE '%pg_attver=%'", db => 'app');
	note("Debian's package: " . `$debian/bin/postgres --version`);
	my $sum = $deb->q("SELECT md5(string_agg(p::text, ',' ORDER BY a)) FROM plain p", db => 'app');
	$deb->stop;
	my $copy = copy_of($deb, 'debian15_copy');
	my $new = node(18, 'debian_new18', preload => 0, start => 0);
	my ($status, $out) = pg_upgrade($deb, $new, '--copy');
	ok($status != 0 && $out =~ /unrecognized parameter "pg_attver"/,
		"$label: pg_upgrade stops with 'unrecognized parameter \"pg_attver\"' for one plain table ($attver columns carry it)")
	  or diag(substr($out, -2000));
	# The way through (docs/operations.md): remove the option from user
	# tables' columns in every database just before the old server stops.
	$copy->start;
	my $strip = IdgenTest::doc_block('test/integration/pg_upgrade.pl', 'docs/operations.md', 'pg_attver');
	like($strip, qr/UPDATE pg_catalog\.pg_attribute/, "$label: docs/operations.md holds the way through (block pg_attver)");
	for my $db (split /\n/, $copy->q('SELECT datname FROM pg_database WHERE datallowconn')) { $copy->q($strip, db => $db); }
	is($copy->q("SELECT count(*) FROM pg_attribute WHERE attrelid >= 16384 AND attoptions::text LIKE '%pg_attver=%'", db => 'app'),
		'0', "$label: the way through: the option removed from user tables' columns");
	my $dir = PostgreSQL::Test::Utils::tempdir('attver_dump');
	($status, $out) = run($dir, $copy->installed_command('pg_dump') =~ s{/usr/lib/postgresql/15/}{$prefix{18}/}r,
		'-Fc', '-f', "$dir/app.dump", '-d', $copy->connstr('app'));
	is($status, 0, "$label: pg_dump (18's) after it") or diag($out);
	$copy->stop;
	my $restored = node(18, 'debian_restore18', preload => 0);
	$restored->q('CREATE DATABASE app');
	($status, $out) = run($dir, $restored->installed_command('pg_restore'), '--exit-on-error',
		'-d', $restored->connstr('app'), "$dir/app.dump");
	ok($status == 0 && $restored->output("SELECT md5(string_agg(p::text, ',' ORDER BY a)) FROM plain p", db => 'app') eq $sum,
		"$label: and pg_restore into 18 gives the same table") or diag($out);
	$restored->stop;
	my $new2 = node(18, 'debian_new18b', preload => 0, start => 0);
	($status, $out) = pg_upgrade($copy, $new2, '--link');
	is($status, 0, "$label: then pg_upgrade --link succeeds") or diag(substr($out, -2000));
	$new2->start;
	is($new2->output("SELECT md5(string_agg(p::text, ',' ORDER BY a)) FROM plain p", db => 'app'), $sum,
		"$label: and the table is unchanged");
	$new2->stop;
}

note($_) for @figures;
note(sprintf('pg_upgrade.pl took %.0f s', time - $started));
done_testing();
