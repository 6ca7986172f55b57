# SQL fuzzing with sqlsmith (Debian package sqlsmith): random queries against
# a database with idgen and tables of every idgen type and family (uuid_v7(),
# snowflake bigints, ulid, prefixed_id, typeid, domains made by
# prefixed_id_define and typeid_define, with indexes and rows), on a throwaway
# server of its own. Errors are fine; a backend killed by a signal, a TRAP or
# PANIC in the log, a lost connection or a server that stops answering is not.
# The checks also read sqlsmith's own count of the queries it ran, so a
# sqlsmith that did nothing fails.
#
# sqlsmith runs as idgen_fuzz, a role that is not a superuser and owns the
# tables: random calls to superuser-only functions (pg_read_file,
# pg_terminate_backend of other roles, pg_reload_conf...) fail instead of
# killing backends or touching files. pg_terminate_backend and
# pg_cancel_backend are also revoked from PUBLIC in that database, so that a
# query cannot end sqlsmith's own session, which would look like a crash.
# sqlsmith runs each query in a transaction it rolls back, with a 1 s
# statement_timeout of its own.
#
#   IDGEN_SQLSMITH_QUERIES   queries to run (default 3000; the long run in docs/development.md: 100000)
#   IDGEN_SQLSMITH_SEED      sqlsmith's --seed (default 14)
use strict;
use warnings;
use IdgenTest;
use IPC::Run ();
use PostgreSQL::Test::Utils;
use Test::More;

my $queries = $ENV{IDGEN_SQLSMITH_QUERIES} // 3000;
my $seed = $ENV{IDGEN_SQLSMITH_SEED} // 14;
my $db = 'idgen_sqlsmith';
my $role = 'idgen_fuzz';

ok((grep { -x "$_/sqlsmith" } split /:/, $ENV{PATH}),
	'sqlsmith is installed (Debian package sqlsmith; bash test/setup.sh installs it)')
  or BAIL_OUT('sqlsmith is not installed');

# log_min_messages = log: the query errors stay out of the log, crash reports
# (LOG and above) and TRAP lines stay in; log_statement = none keeps
# sqlsmith's query texts out of it too. restart_after_crash = on: a crashed
# backend makes the postmaster restart all, as a production server would.
# track_functions counts the calls of idgen's functions, to show that the
# queries reached them.
my $node = IdgenTest::Node->create(
	'sqlsmith',
	conf => [
		'idgen.shard_id = 7', "track_functions = 'all'",
		'log_min_messages = log', 'log_statement = none',
		'restart_after_crash = on'
	]);
my $major = $node->pg_version->major;

$node->sql_ok(<<SQL,
CREATE ROLE $role LOGIN;
CREATE DATABASE $db OWNER $role;
\\connect $db
CREATE EXTENSION idgen;
SELECT prefixed_id_define('account_id', 'acct');
SELECT prefixed_id_define('session_token', 'sess', token => true);
ALTER DOMAIN account_id OWNER TO $role;
ALTER DOMAIN session_token OWNER TO $role;
SELECT typeid_define('member_tid', 'mbr');
ALTER DOMAIN member_tid OWNER TO $role;
REVOKE EXECUTE ON FUNCTION pg_terminate_backend(integer, bigint), pg_cancel_backend(integer) FROM PUBLIC;
SQL
	"a database owned by the non-superuser $role, with idgen and the domains account_id and session_token");

# The tables are filled by the superuser (minting needs no grant that a later
# change could take from the role), then handed to the role.
$node->sql_ok(<<'SQL',
CREATE TABLE uuid_ids (id uuid PRIMARY KEY DEFAULT uuid_v7(), earlier uuid DEFAULT uuid_v7('-1 hour'),
                       minted timestamptz DEFAULT clock_timestamp(), note text);
CREATE INDEX ON uuid_ids (earlier);
CREATE TABLE snowflake_ids (id bigint PRIMARY KEY DEFAULT snowflake(), other bigint, note text);
CREATE INDEX ON snowflake_ids (other);
CREATE TABLE ulid_ids (id ulid PRIMARY KEY DEFAULT ulid(), other ulid, note text);
CREATE INDEX ON ulid_ids USING hash (other);
CREATE INDEX ON ulid_ids USING brin (id);
CREATE TABLE prefixed_ids (id prefixed_id PRIMARY KEY DEFAULT prefixed_id_new('inv'),
                           token prefixed_id DEFAULT prefixed_id_token('tok'), note text);
CREATE INDEX ON prefixed_ids USING hash (token);
CREATE TABLE typeid_ids (id typeid PRIMARY KEY DEFAULT typeid_new('usr'), bare typeid DEFAULT typeid_new(''),
                         member member_tid DEFAULT typeid_new('mbr'), note text);
CREATE INDEX ON typeid_ids USING hash (bare);
CREATE TABLE accounts (id account_id PRIMARY KEY, session session_token UNIQUE, note text);
CREATE TABLE everything (u uuid, s bigint, l ulid, p prefixed_id, a account_id, t session_token,
                         at timestamptz, n integer, txt text);
CREATE INDEX ON everything (l, p);
CREATE INDEX ON everything (s);
CREATE VIEW fresh_ids AS
    SELECT uuid_v7() AS u, snowflake() AS s, ulid() AS l, prefixed_id_new('view') AS p;

INSERT INTO uuid_ids (note) SELECT 'u' || n FROM generate_series(1, 200) n;
INSERT INTO snowflake_ids (other, note)
    SELECT CASE WHEN n % 10 <> 0 THEN snowflake(n % 1024) END, 's' || n FROM generate_series(1, 200) n;
INSERT INTO ulid_ids (other, note)
    SELECT CASE WHEN n % 10 <> 0 THEN ulid_at(now() - n * interval '1 day') END, 'l' || n
    FROM generate_series(1, 200) n;
INSERT INTO prefixed_ids (note) SELECT 'p' || n FROM generate_series(1, 200) n;
INSERT INTO accounts (note) SELECT 'a' || n FROM generate_series(1, 200) n;
INSERT INTO typeid_ids (note) SELECT 't' || n FROM generate_series(1, 200) n;
INSERT INTO typeid_ids (id, bare, member, note) VALUES
    ('usr_00000000000000000000000000', '7zzzzzzzzzzzzzzzzzzzzzzzzz', NULL, 'extremes'),
    ((repeat('z', 63) || '_7zzzzzzzzzzzzzzzzzzzzzzzzz')::typeid, NULL,
     typeid_boundary('mbr', '2024-01-01+00'), 'longest');
UPDATE accounts SET session = DEFAULT WHERE note <> 'a1';
INSERT INTO everything
    SELECT u.id, s.id, l.id, p.id, a.id, a.session, u.minted, n, 'row ' || n
    FROM generate_series(1, 200) n
    JOIN uuid_ids u ON u.note = 'u' || n JOIN snowflake_ids s ON s.note = 's' || n
    JOIN ulid_ids l ON l.note = 'l' || n JOIN prefixed_ids p ON p.note = 'p' || n
    JOIN accounts a ON a.note = 'a' || n;
INSERT INTO everything VALUES
    (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'all NULL'),
    ('00000000-0000-0000-0000-000000000000', 0, '00000000000000000000000000',
     'acct_0000000000000000000000000', 'acct_0000000000000000000000000', 'sess_0000000000000000000000000',
     '-infinity', 0, 'smallest'),
    ('ffffffff-ffff-ffff-ffff-ffffffffffff', 9223372036854775807, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
     (repeat('z', 63) || '_f5lxx1zz5pnorynqglhzmsp33')::prefixed_id, 'acct_f5lxx1zz5pnorynqglhzmsp33',
     'sess_f5lxx1zz5pnorynqglhzmsp33', 'infinity', 2147483647, 'largest'),
    (uuid_v7_boundary('2024-01-01+00'), snowflake_boundary('2024-01-01+00', 1023),
     ulid_boundary('1970-01-01+00'), prefixed_id_boundary('x', '2024-01-01+00'), NULL, NULL,
     '2024-01-01+00', -1, 'boundaries');
ANALYZE;

ALTER TABLE uuid_ids OWNER TO idgen_fuzz;
ALTER TABLE snowflake_ids OWNER TO idgen_fuzz;
ALTER TABLE ulid_ids OWNER TO idgen_fuzz;
ALTER TABLE prefixed_ids OWNER TO idgen_fuzz;
ALTER TABLE accounts OWNER TO idgen_fuzz;
ALTER TABLE typeid_ids OWNER TO idgen_fuzz;
ALTER TABLE everything OWNER TO idgen_fuzz;
ALTER VIEW fresh_ids OWNER TO idgen_fuzz;
SQL
	'tables of every idgen type and family, with indexes, rows, NULLs and extreme values',
	db => $db);
is( $node->q(
		"SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = '$role') || ' '
		     || (SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace
		         AND relkind IN ('r', 'v') AND relowner = '$role'::regrole)", db => $db),
	'false 8',
	"$role is not a superuser and owns the 7 tables and the view");
is( $node->q(
		"SELECT (SELECT count(*) FROM everything) || ' ' || (SELECT count(*) FROM uuid_ids) || ' '
		     || (SELECT count(*) FROM snowflake_ids) || ' ' || (SELECT count(*) FROM ulid_ids) || ' '
		     || (SELECT count(*) FROM prefixed_ids) || ' ' || (SELECT count(*) FROM accounts) || ' '
		     || (SELECT count(*) FROM typeid_ids)", db => $db),
	'204 200 200 200 200 200 202',
	'row counts: 204 in everything, 202 in typeid_ids, 200 in each other table');
# Count only the calls that sqlsmith's queries make.
$node->q('SELECT pg_stat_reset()', db => $db);

note("sqlsmith --seed=$seed --max-queries=$queries, as $role, PostgreSQL $major");
my $dir = PostgreSQL::Test::Utils::tempdir('sqlsmith');
my $started = time;
# The bound on the whole run: a query that ignored its statement timeout would
# hang here.
IPC::Run::run(
	[
		'timeout', 300 + int($queries / 10), 'sqlsmith',
		'--target=' . sprintf('host=%s port=%d dbname=%s user=%s', $node->host, $node->port, $db, $role),
		"--seed=$seed", "--max-queries=$queries", '--exclude-catalog', '--verbose'
	],
	'<', \undef, '>', '/dev/null', '2>', "$dir/sqlsmith.log");
my $status = $? >> 8;
my $elapsed = time - $started;
my $report = '';
IPC::Run::run([ '/usr/bin/python3', repo_dir() . '/test/lib/sqlsmith_report.py', "$dir/sqlsmith.log" ],
	'>', \$report, '2>&1');
my %value = $report =~ /^(\w+)=(.*)$/mg;
note(join("\n", map { s/^# ?//r } grep { /^#/ } split /\n/, $report));
note("$elapsed s");
my $v = sub { return $value{ $_[0] } // '' };

SKIP:
{
	# Debian's sqlsmith reads the catalog of the server it tests; a major
	# whose catalog it does not know is skipped, saying why.
	if ($v->('schema_loaded') ne '1' && $major != 15)
	{
		my ($last) = (split /\n/, PostgreSQL::Test::Utils::slurp_file("$dir/sqlsmith.log"))[-1] // '';
		$last =~ s/^Loading [^.]*\.\.\.//;
		skip "sqlsmith could not read PostgreSQL ${major}'s catalog: $last", 6;
	}
	is($v->('schema_loaded') . " $status", '1 0', 'sqlsmith read the schema and exited normally');
	is($v->('queries'), $queries, "sqlsmith reports $queries queries generated");
	is($v->('outcomes'), $queries, "sqlsmith reports an outcome for each of the $queries queries");
	ok( $v->('ok') > 0 && $v->('errors') > 0,
		sprintf('some queries ran without error (%s) and some failed (%s)', $v->('ok'), $v->('errors')));
	is($v->('broken'), 0, 'no query lost its connection');
	my $called_sql = "FROM pg_stat_user_functions f
	     JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = f.funcid
	     JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
	     WHERE e.extname = 'idgen' AND d.deptype = 'e' AND f.calls > 0";
	# Backends flush their function counts when they exit: sqlsmith has
	# disconnected, so its backends' counts arrive as they finish exiting.
	$node->poll_query_until($db, "SELECT count(*) >= 10 $called_sql");
	my $called = $node->q(
		"SELECT count(*) || ' ' || coalesce(sum(calls), 0) || ' '
		     || coalesce(string_agg(funcname, ' ' ORDER BY funcname), '') $called_sql", db => $db);
	note("idgen functions called by the queries (count, calls, names): $called");
	cmp_ok((split / /, $called)[0], '>=', 10, "the queries called at least 10 of idgen's functions");
}

# A backend that dies by a signal makes the postmaster log it and restart all.
my $crashes = join("\n",
	grep { /TRAP:|PANIC:|terminated by signal|terminated by exception|exited with exit code|terminating any other active server processes/ }
	  split /\n/, PostgreSQL::Test::Utils::slurp_file($node->logfile));
is($crashes, '', 'the server log has no TRAP, PANIC or backend killed by a signal');
my $minted = $node->output(
	"SELECT uuid_v7() IS NOT NULL AND snowflake() IS NOT NULL AND ulid() IS NOT NULL
	        AND prefixed_id_new('acct')::account_id IS NOT NULL",
	db => $db, user => $role);
is($minted, 't', "the server still accepts connections from $role and mints every kind of ID");
is($node->q('SELECT count(*) FROM everything', db => $db), 204, 'the tables still hold their rows');

done_testing();
