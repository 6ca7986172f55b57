# UUIDv47's facade (uuid_v7_mask, uuid_v7_unmask) and the ULID mask on a real
# server: UUIDv47's five published facades both ways under their key
# (../shared/data/uuidv47/facade.json); a differential with python-uuidv47
# (PyPI, the venv test/setup.sh installs) on 100,000 values both ways; the
# round trip of 1,000,000 values in one query and a wrong key that never
# gives the v7 (or its time) back; the key never shows to a role without
# rights, nor in pg_settings, errors, EXPLAIN VERBOSE, pg_stat_statements
# (where the contrib module is installed) or the server log with
# log_statement = 'all'; facades stored in a table come back the same from a
# pg_dump and restore, and after a rotation, with the key id they were made
# with.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use JSON::PP ();
use PostgreSQL::Test::Utils ();

my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
chomp(my $pkglibdir = `$pg_config --pkglibdir`);
my $has_pgss = -f "$pkglibdir/pg_stat_statements.so";
my $no_pgss = 'pg_stat_statements is not installed for this server (a contrib module it was built without)';

my $node = IdgenTest::Node->create('main',
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
my $work = PostgreSQL::Test::Utils::tempdir;

# UUIDv47's published facades, each both ways under its key's bytes (k0 and
# k1 little-endian, as the folder's SOURCE says).
if (my $dir = IdgenTest::shared_data('uuidv47'))
{
	my $vectors = JSON::PP::decode_json(PostgreSQL::Test::Utils::slurp_file("$dir/facade.json"));
	is(scalar @$vectors, 5, 'facade.json has the five facades');
	my %imported;
	for my $v (@$vectors)
	{
		my $key = $v->{key}{key_bytes_hex};
		$imported{$key} //= $node->q("SELECT idgen_key_import('vectors_$key', '\\x$key')", db => $db);
		is( $node->q(
				"SELECT uuid_v7_mask('$v->{v7}', 'vectors_$key') || ' ' || uuid_v7_unmask('$v->{facade}', 'vectors_$key')",
				db => $db),
			"$v->{facade} $v->{v7}",
			"$v->{name}: $v->{v7} masks to $v->{facade} and back");
	}
	$node->q("DELETE FROM idgen_secret.idgen_secret_key WHERE name LIKE 'vectors\\_%'", db => $db);
}

# Keys made in the server, by the superuser (the extension's owner).
is($node->q("SELECT idgen_key_create('public') || ' ' || idgen_key_create('other')", db => $db),
	'1 1', 'idgen_key_create makes the keys public and other');
my @keys = split /\n/,
  $node->q("SELECT encode(key, 'hex') FROM idgen_secret.idgen_secret_key ORDER BY name, key_id", db => $db);
is(scalar @keys, 2, 'the two keys are in idgen_secret.idgen_secret_key (read by the superuser)');

# shows_a_key TEXT: the keys (hex) that TEXT holds in hex, in either case.
sub shows_a_key
{
	my ($text) = @_;
	return join(' ', grep { index(lc $text, $_) >= 0 } @keys);
}

# 100,000 UUIDv7s: half fresh from uuid_v7(), half random bits with version
# 7 (any time), each variant digit; their facades under the key public.
$node->q(
	"CREATE TABLE peer_ids AS
	 SELECT id, uuid_v7_mask(id, 'public') AS facade FROM (
	     SELECT uuid_v7() AS id FROM generate_series(1, 50000)
	     UNION ALL
	     SELECT overlay(gen_random_uuid()::text PLACING '7' FROM 15 FOR 1)::uuid FROM generate_series(1, 50000)) g",
	db => $db);

# The differential: python-uuidv47 masks and unmasks the same values under
# the same key (k0, k1 read little-endian from its bytes).
my $peer = ($ENV{IDGEN_PYTHON_VENVS} // '/var/cache/idgen/python') . '/uuidv47_peer/bin/python';
SKIP:
{
	my ($status, $version, $err) = -x $peer
	  ? run_status([ $peer, '-c', 'import python_uuidv47; print(python_uuidv47.__version__)' ])
	  : (1, '', "no $peer");
	skip "python-uuidv47 is not installed (tried $peer, from test/lib/requirements/uuidv47_peer.txt "
	  . 'by test/setup.sh)', 3
	  if $status != 0;
	note("python-uuidv47 $version");
	PostgreSQL::Test::Utils::append_to_file("$work/ids.txt",
		$node->q('SELECT id || \' \' || facade FROM peer_ids', db => $db) . "\n");
	my $script = <<'PY';
import sys
import python_uuidv47 as peer
key = bytes.fromhex(sys.argv[1])
peer.set_keys(int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little"))
pairs = [line.split() for line in open(sys.argv[2]) if line.strip()]
masked = sum(peer.encode(v7) == facade for v7, facade in pairs)
unmasked = sum(peer.decode(facade) == v7 for v7, facade in pairs)
print(len(pairs), masked, unmasked)
PY
	my ($peer_status, $out, $peer_err) = run_status([ $peer, '-c', $script, $keys[1], "$work/ids.txt" ]);
	is($peer_status, 0, 'python-uuidv47 ran') or diag($peer_err);
	my ($count, $masked, $unmasked) = split ' ', $out // '';
	is("$count $masked", '100000 100000', "python-uuidv47 makes idgen's facade of each of the 100,000 v7s");
	is($unmasked, '100000', "python-uuidv47 unmasks each of idgen's 100,000 facades to its v7");
}

# 1,000,000 UUIDv7s and 1,000,000 ULIDs in one query each: all come back,
# no two facades alike, and the other key gives neither the v7 nor its time.
is( $node->q(
		"SET work_mem = '256MB';
		 SELECT count(*) || ' ' || count(DISTINCT f) || ' '
		        || count(*) FILTER (WHERE uuid_v7_unmask(f, 'public') <> id) || ' '
		        || count(*) FILTER (WHERE uuid_v7_unmask(f, 'other') = id) || ' '
		        || count(*) FILTER (WHERE uuid_v7_time(uuid_v7_unmask(f, 'other')) = uuid_v7_time(id))
		 FROM (SELECT id, uuid_v7_mask(id, 'public') AS f FROM (SELECT uuid_v7() AS id FROM generate_series(1, 1000000)) g) s",
		db => $db),
	'1000000 1000000 0 0 0',
	'1,000,000 v7s: as many distinct facades, all unmasking back; the other key recovers no v7 and no time');
is( $node->q(
		"SET work_mem = '256MB';
		 SELECT count(*) || ' ' || count(DISTINCT m) || ' '
		        || count(*) FILTER (WHERE ulid_unmask(m, 'public') <> id) || ' '
		        || count(*) FILTER (WHERE ulid_time(ulid_unmask(m, 'other')) = ulid_time(id))
		 FROM (SELECT id, ulid_mask(id, 'public') AS m FROM (SELECT ulid() AS id FROM generate_series(1, 1000000)) g) s",
		db => $db),
	'1000000 1000000 0 0',
	'1,000,000 ULIDs: as many distinct masked ULIDs, all unmasking back; the other key recovers no time');

# What the role web (no grant at all) can try.
$node->q('GRANT SELECT ON peer_ids TO web', db => $db);
my ($web_status, $web_out, $web_err) = $node->run_sql(
	"SELECT uuid_v7_unmask(uuid_v7_mask(id, 'public'), 'public') = id FROM peer_ids LIMIT 1;
	 SELECT ulid_unmask(ulid_mask(ulid_boundary(now()), 'public', 1), 'public', 1) = ulid_boundary(now());
	 EXPLAIN (VERBOSE, COSTS OFF) SELECT uuid_v7_mask(uuid_v7(), 'public') FROM generate_series(1, 3) i;
	 SELECT name, setting FROM pg_settings;",
	db => $db, user => 'web', verbose => 1);
my $web = "$web_out\n$web_err";
like($web, qr/^t\nt\n/, 'web masks and unmasks through the functions');
like($web, qr/Output: uuid_v7_mask\(uuid_v7\(\), 'public'::text\)/, 'EXPLAIN VERBOSE shows the call');
is(shows_a_key($web), '', 'no key in what web ran: results, EXPLAIN VERBOSE, pg_settings');
my $errors = '';
for my $sql (
	"SELECT uuid_v7_mask(uuid_v7_mask(uuid_v7(), 'public'), 'public')",
	"SELECT uuid_v7_unmask(uuid_v7(), 'public')",
	"SELECT uuid_v7_unmask('00000000-0000-4000-0000-000000000000', 'public', 1)",
	"SELECT uuid_v7_mask(uuid_v7(), 'public', 2)", "SELECT ulid_mask(ulid(), 'nokey')",
	"SELECT uuid_v7_unmask(uuid_v7(), '')", "SELECT idgen_key_import('public', decode(repeat('00', 16), 'hex'), 2)",
	'SELECT * FROM idgen_secret.idgen_secret_key', 'COPY idgen_secret.idgen_secret_key TO STDOUT')
{
	my ($status, $out, $err) = $node->run_sql($sql, db => $db, user => 'web', verbose => 1);
	$errors .= "$out\n$err";
}
my @sqlstates = $errors =~ /ERROR:  ([0-9A-Z]{5}):/g;
is("@sqlstates", '22023 22023 22023 42704 42704 22023 42501 42501 42501',
	"web's nine tries fail: a facade to mask, a v7 to unmask, a bad variant, the missing key id and key, "
	  . 'the bad name, adding a key, reading the table');
is(shows_a_key($errors), '', 'no key in any of those errors (with detail and hint)');

SKIP:
{
	skip $no_pgss, 3 unless $has_pgss;
	my ($s, $pgss_web, $e) = $node->run_sql('SELECT query FROM pg_stat_statements', db => $db, user => 'web');
	is(shows_a_key($pgss_web), '', 'no key in pg_stat_statements as web sees it');
	my $pgss = $node->q('SELECT query FROM pg_stat_statements', db => $db);
	like($pgss, qr/uuid_v7_mask/, 'pg_stat_statements recorded the statements (track = all)');
	is(shows_a_key($pgss), '', 'no key in any statement pg_stat_statements holds (the superuser reads them all)');
}

# pg_dump and restore: the facades stored in a table come back the same from
# the restored database's keys; after a rotation there, the stored v7s are
# unchanged, new facades use key id 2, and old ones unmask with key id 1.
$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr($db), '-f', "$work/app.dump" ], 'pg_dump -Fc succeeds');
$node->q('CREATE DATABASE restored');
$node->command_ok([ 'pg_restore', '-d', $node->connstr('restored'), "$work/app.dump" ], 'pg_restore succeeds');
is( $node->q(
		"SELECT count(*) || ' ' || count(*) FILTER (WHERE uuid_v7_mask(id, 'public') = facade
		                                        AND uuid_v7_unmask(facade, 'public') = id)
		 FROM peer_ids", db => 'restored'),
	'100000 100000',
	"the restored database's key gives each of the 100,000 stored facades, and unmasks them");
is( $node->q(
		"SELECT idgen_key_create('public');
		 SELECT count(*) FILTER (WHERE uuid_v7_unmask(facade, 'public', 1) = id) || ' '
		        || count(*) FILTER (WHERE uuid_v7_mask(id, 'public') <> facade
		                            AND uuid_v7_unmask(uuid_v7_mask(id, 'public'), 'public') = id)
		 FROM peer_ids", db => 'restored'),
	"2\n100000 100000",
	'after a rotation (key id 2), the stored facades unmask with key id 1 and new facades use key id 2');

# The server log, with log_statement = 'all': the statements and errors,
# never a key made in the server.
my $log = PostgreSQL::Test::Utils::slurp_file($node->logfile);
like($log, qr/statement: SELECT uuid_v7_unmask\(uuid_v7\(\), 'public'\)/, "the log has web's statements (log_statement = 'all')");
like($log, qr/uuid_v7_unmask needs a version 4 uuid/, 'and their errors');
is(shows_a_key($log), '', 'no key made by idgen_key_create in the log, after the dump and restore too');

done_testing();
