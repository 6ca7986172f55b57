# Named secret keys and the keyed permutation on a real server: the key
# never shows to a role without rights, nor to anyone in the places a
# statement's text and plan go (pg_settings, errors, EXPLAIN VERBOSE,
# pg_stat_statements where the contrib module is installed, the server log
# with log_statement = 'all'), when keys are made in the server; an imported
# key shows in the log, as the manual says, and not in pg_stat_statements. A
# key change in one session reaches another session's next statement (its
# cache is invalidated). pg_dump carries the keys, and the restored database
# gives the same public ids; a role that may not read the keys cannot dump
# the database. A hot standby reads the keys, and follows the primary's
# changes. One query round-trips 10 million ids without a collision.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils ();
use Time::HiRes ();

my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
chomp(my $pkglibdir = `$pg_config --pkglibdir`);
my $has_pgss = -f "$pkglibdir/pg_stat_statements.so";
my $no_pgss = 'pg_stat_statements is not installed for this server (a contrib module it was built without)';

my $node = IdgenTest::Node->create('main',
	streaming => 1,
	conf => [
		$has_pgss
		? ("shared_preload_libraries = 'idgen, pg_stat_statements'", "pg_stat_statements.track = 'all'")
		: (),
		"log_statement = 'all'", 'log_min_duration_statement = 0', "log_min_error_statement = 'error'",
		"log_error_verbosity = 'verbose'", 'log_parameter_max_length = -1',
		'log_parameter_max_length_on_error = -1'
	]);
my $db = $node->fresh_database('app');
$node->q('CREATE EXTENSION pg_stat_statements', db => $db) if $has_pgss;
$node->q('CREATE ROLE web LOGIN');

# as ROLE SQL: stdout and stderr of SQL run by ROLE in the database, an
# error's SQLSTATE, detail and hint included.
sub as
{
	my ($role, $sql) = @_;
	my ($status, $out, $err) = $node->run_sql($sql, db => $db, user => $role, verbose => 1);
	return "$out\n$err";
}

# Keys made in the server, by the superuser (the extension's owner).
is( $node->q(
		"SELECT idgen_key_create('orders') || ' ' || idgen_key_create('orders') || ' ' || idgen_key_create('users')",
		db => $db),
	'1 2 1',
	'idgen_key_create makes key ids 1 and 2 of orders and 1 of users');
my @keys = split /\n/, $node->q('SELECT encode(key, \'hex\') FROM idgen_secret.idgen_secret_key ORDER BY name, key_id', db => $db);
is(scalar @keys, 3, 'the three keys are in idgen_secret.idgen_secret_key (read by the superuser)');

# shows_a_key TEXT [KEYS]: the keys (hex, of @keys by default) that TEXT
# holds in hex, in either case: how bytea's output shows them.
sub shows_a_key
{
	my ($text, @which) = @_;
	@which = @keys unless @which;
	return join(' ', grep { index(lc $text, $_) >= 0 } @which);
}

# What the role web (no grant at all) can try.
my $web = as('web',
	"SELECT bigint_obfuscate(42, 'orders'), bigint_deobfuscate(bigint_obfuscate(42, 'orders', 1), 'orders', 1);
	 EXPLAIN (VERBOSE, COSTS OFF) SELECT bigint_obfuscate(i, 'orders') FROM generate_series(1, 3) i;
	 SELECT name, setting FROM pg_settings;");
like($web, qr/^\d+\|42$/m, 'web uses the keys through bigint_obfuscate and bigint_deobfuscate');
like($web, qr/Output: bigint_obfuscate\(\(i\)::bigint, 'orders'::text\)/, 'EXPLAIN VERBOSE shows the call');
is(shows_a_key($web), '', 'no key in what web ran: results, EXPLAIN VERBOSE, pg_settings');
my $errors = '';
for my $sql (
	"SELECT bigint_obfuscate(0, 'orders')", "SELECT bigint_deobfuscate(-1, 'orders', 2)",
	"SELECT bigint_obfuscate(1, 'orders', 3)", "SELECT bigint_obfuscate(1, 'nokey')",
	"SELECT bigint_obfuscate(1, '')", "SELECT idgen_key_create('web')",
	"SELECT idgen_key_import('orders', decode(repeat('00', 16), 'hex'), 2)",
	'SELECT * FROM idgen_secret.idgen_secret_key', 'COPY idgen_secret.idgen_secret_key TO STDOUT',
	"SELECT key FROM idgen_secret.idgen_secret_key WHERE name = 'orders'")
{
	$errors .= as('web', $sql);
}
my @sqlstates = $errors =~ /ERROR:  ([0-9A-Z]{5}):/g;
is("@sqlstates", '22003 22003 42704 42704 22023 42501 42501 42501 42501 42501',
	"web's ten tries fail: the ids out of range, the missing key id and key, the bad name, "
	  . 'adding keys, reading the table');
is(shows_a_key($errors), '', 'no key in any of those errors (with detail and hint)');

# pg_stat_statements: as web (its own statements) and as the superuser (all).
SKIP:
{
	skip $no_pgss, 3 unless $has_pgss;
	my $pgss_web = as('web', 'SELECT query FROM pg_stat_statements');
	is(shows_a_key($pgss_web), '', 'no key in pg_stat_statements as web sees it');
	my $pgss = $node->q('SELECT query FROM pg_stat_statements', db => $db);
	like($pgss, qr/idgen_key_create/, 'pg_stat_statements recorded the statements (track = all)');
	is(shows_a_key($pgss), '', 'no key in any statement pg_stat_statements holds (the superuser reads them all)');
}

# The server log, with log_statement = 'all': the statements, never a key
# made in the server.
my $log = PostgreSQL::Test::Utils::slurp_file($node->logfile);
like($log, qr/statement: SELECT idgen_key_create\('orders'\)/, "the log has the statements (log_statement = 'all')");
like($log, qr/permission denied to create idgen keys/, 'and the errors');
is(shows_a_key($log), '', 'no key made by idgen_key_create in the log');

# An imported key is in its statement: the log shows it (the manual says so);
# pg_stat_statements keeps the statement's text with its constants replaced.
my $imported = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
$node->q("SELECT idgen_key_import('imported', '\\x$imported')", db => $db);
$log = PostgreSQL::Test::Utils::slurp_file($node->logfile);
is(shows_a_key($log, $imported), $imported, "an imported key shows in the log: it was in the statement");
SKIP:
{
	skip $no_pgss, 1 unless $has_pgss;
	is(shows_a_key($node->q('SELECT query FROM pg_stat_statements', db => $db), $imported),
		'', 'pg_stat_statements holds the import without the key (constants are replaced)');
}

# Another session's change reaches web's session at its next statement: its
# cache of the name's newest key id is emptied, by idgen_key_create and by
# SQL on the table (its triggers).
my $session = $node->background_psql($db, extra_params => [ '-U', 'web' ]);
my $before = $session->query_safe("SELECT bigint_obfuscate(7, 'orders')");
is($before, $node->q("SELECT bigint_obfuscate(7, 'orders', 2)", db => $db), "web's session uses key id 2, the newest");
$node->q("SELECT idgen_key_create('orders')", db => $db);
is( $session->query_safe("SELECT bigint_obfuscate(7, 'orders')"),
	$node->q("SELECT bigint_obfuscate(7, 'orders', 3)", db => $db),
	"after another session's idgen_key_create, web's next statement uses key id 3");
$node->q("DELETE FROM idgen_secret.idgen_secret_key WHERE name = 'orders' AND key_id = 3", db => $db);
is($session->query_safe("SELECT bigint_obfuscate(7, 'orders')"),
	$before, "after another session's DELETE of key id 3, web's next statement uses key id 2 again");
$session->query_safe("SELECT bigint_obfuscate(7, 'users')");
$node->q("TRUNCATE idgen_secret.idgen_secret_key", db => $db);
like(as('web', "SELECT bigint_obfuscate(7, 'users')"), qr/idgen key "users" does not exist/,
	'after a TRUNCATE, the keys are gone');
$node->q("SELECT idgen_key_import('users', '\\x000102030405060708090a0b0c0d0e0f')", db => $db);
is($session->query_safe("SELECT bigint_obfuscate(1, 'users')"),
	'3669710137412786131', "and web's session uses the key imported after it, not the one it kept");
$session->quit;

# Keys for the rest: known ones, imported as a restore would bring them.
$node->q(
	"SELECT idgen_key_import('orders', '\\x000102030405060708090a0b0c0d0e0f', 1),
	        idgen_key_import('orders', '\\x00112233445566778899aabbccddeeff', 2)", db => $db);

# pg_dump carries the keys (a configuration table); the restored database
# gives the same public ids. A role that may not read them cannot dump it.
my $work = PostgreSQL::Test::Utils::tempdir;
$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr($db), '-f', "$work/app.dump" ], 'pg_dump -Fc succeeds');
$node->q('CREATE DATABASE restored');
$node->command_ok([ 'pg_restore', '-d', $node->connstr('restored'), "$work/app.dump" ], 'pg_restore succeeds');
my $ids = "SELECT string_agg(bigint_obfuscate(i, 'orders', 1) || ':' || bigint_obfuscate(i, 'orders'), ',' ORDER BY i)
           FROM generate_series(1, 100) i";
is($node->q($ids, db => 'restored'), $node->q($ids, db => $db),
	'the restored database gives the same public ids under key ids 1 and 2');
is($node->q("SELECT bigint_obfuscate(1, 'orders', 1)", db => 'restored'),
	'3669710137412786131', 'and the known key gives its known output there');
my ($dump_status, $dump_out, $dump_err) =
  run_status([ 'pg_dump', '-Fp', '-d', $node->connstr($db) . ' user=web', '-f', "$work/web.sql" ]);
ok($dump_status != 0 && $dump_err =~ /permission denied for schema idgen_secret/,
	'pg_dump as web fails: it may not read the keys')
  or diag($dump_err);

# A hot standby reads the keys too; a key added on the primary reaches a
# standby session's next statement (the invalidation is replayed with the
# WAL), and a standby adds none (25006).
$node->backup('standby');
my $standby = IdgenTest::Node->new('standby');
$standby->init_from_backup($node, 'standby', has_streaming => 1);
$standby->start;
my $on_standby = $standby->background_psql($db, extra_params => [ '-U', 'web' ]);
is($on_standby->query_safe("SELECT bigint_obfuscate(1, 'orders')"),
	$node->q("SELECT bigint_obfuscate(1, 'orders', 2)", db => $db),
	"a standby session uses the primary's newest key id, 2");
$node->q("SELECT idgen_key_import('orders', '\\xffeeddccbbaa99887766554433221100', 3)", db => $db);
$node->wait_for_catchup($standby, 'replay');
is($on_standby->query_safe("SELECT bigint_obfuscate(1, 'orders')"),
	$node->q("SELECT bigint_obfuscate(1, 'orders', 3)", db => $db),
	"after the primary's new key id 3 is replayed, the standby session's next statement uses it");
$on_standby->quit;
like($standby->error("SELECT idgen_key_create('orders')", db => $db),
	qr/^25006: cannot execute idgen_key_create\(\) in a read-only transaction/, 'a standby adds no key (25006)');
$standby->stop;

# A permutation on 10 million ids in one query: every one comes back, no two
# alike, every public id positive.
my $started = Time::HiRes::time();
is( $node->q(
		"SET work_mem = '512MB';
		 SELECT count(*) || ' ' || count(DISTINCT p) || ' ' || (min(p) > 0) || ' '
		        || count(*) FILTER (WHERE bigint_deobfuscate(p, 'orders') <> i)
		 FROM (SELECT i, bigint_obfuscate(i, 'orders') AS p FROM generate_series(1::bigint, 10000000) i) s",
		db => $db),
	'10000000 10000000 true 0',
	'10,000,000 ids: 10,000,000 distinct public ids, all positive, all decoding back');
note(sprintf('the 10M round trip took %.1f s', Time::HiRes::time() - $started));

$log = PostgreSQL::Test::Utils::slurp_file($node->logfile);
is(shows_a_key($log), '', 'still no key made by idgen_key_create in the log after the dump and restore');

done_testing();
