# prefixed IDs through pg_dump and restore: a database with types made by
# prefixed_id_define() (one of them in another schema), tables keyed by them
# and a plain prefixed_id column is dumped in the custom format (restored with
# pg_restore) and as plain SQL (restored with psql). The copies must hold the
# same rows and the same prefixed_id_registry, and their domains must still
# check prefixes, mint IDs by DEFAULT and refuse a prefix that is taken.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use IPC::Run ();
use PostgreSQL::Test::Utils;

my $node = IdgenTest::Node->create('main');
my $src = 'idgen_prefixed_dump';
my $custom = 'idgen_prefixed_dump_custom';
my $plain = 'idgen_prefixed_dump_plain';
my $work = PostgreSQL::Test::Utils::tempdir('dump');

# fingerprint DB TABLE: row count and md5 of every row's text, in id order.
sub fingerprint
{
	my ($db, $table) = @_;
	return $node->q(
		"SELECT count(*) || ' ' || md5(coalesce(string_agg(t::text, ',' ORDER BY t.id, t.note), ''))
		 FROM $table t", db => $db);
}

# registry DB: the registry as text; types are named as seen from "$user", public.
sub registry
{
	my ($db) = @_;
	return $node->q(
		"SELECT string_agg(prefix || '|' || type::text || '|' || token, ' ' ORDER BY prefix)
		 FROM prefixed_id_registry", db => $db);
}

# domains DB: each prefixed_id domain with its schema, default and constraint
# (both deparsed in this session, so the search_path they were made under
# does not matter).
sub domains
{
	my ($db) = @_;
	return $node->q(
		"SELECT string_agg(format('%s.%s default %s %s', n.nspname, t.typname,
		                          pg_get_expr(t.typdefaultbin, 0),
		                          pg_get_constraintdef(c.oid)), ' ; ' ORDER BY t.typname)
		 FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
		 JOIN pg_constraint c ON c.contypid = t.oid
		 WHERE t.typtype = 'd' AND t.typbasetype = 'prefixed_id'::regtype", db => $db);
}

my $long_prefix = 'a' x 63;

# 1. The source database.
$node->fresh_database($src);
is($node->q("SELECT prefixed_id_define('account_id', 'acct')", db => $src),
	'account_id', "prefixed_id_define('account_id', 'acct') returns the new type");
is($node->q("SELECT prefixed_id_define('session_token', 'sess', token => true)", db => $src),
	'session_token',
	"prefixed_id_define('session_token', 'sess', token => true) returns the new type");
$node->q('CREATE SCHEMA billing', db => $src);
is( $node->q(
		"SET search_path = billing, public; SELECT prefixed_id_define('invoice_id', 'inv')",
		db => $src),
	'invoice_id',
	"with search_path = billing, public, prefixed_id_define('invoice_id', 'inv') returns the new type"
);
is( $node->q(
		"SELECT string_agg(name, ' ' ORDER BY name)
		 FROM (SELECT typnamespace::regnamespace || '.' || typname AS name FROM pg_type
		       WHERE typtype = 'd' AND typbasetype = 'prefixed_id'::regtype) d", db => $src),
	'billing.invoice_id public.account_id public.session_token',
	'the domains are public.account_id, public.session_token and billing.invoice_id');
is(registry($src),
	'acct|account_id|false inv|billing.invoice_id|false sess|session_token|true',
	'the source registry lists the three types');

$node->sql_ok(
	"CREATE TABLE accounts (id account_id PRIMARY KEY, note text);
	 CREATE TABLE sessions (id session_token PRIMARY KEY, account account_id REFERENCES accounts, note text);
	 CREATE TABLE billing.invoices (id billing.invoice_id PRIMARY KEY, account account_id REFERENCES accounts,
	                                note text);
	 CREATE TABLE mixed (id prefixed_id, note text NOT NULL);
	 CREATE INDEX mixed_id ON mixed (id)",
	'tables keyed by each domain, and one with a plain prefixed_id column and an index, are created',
	db => $src);
$node->sql_ok(
	"INSERT INTO accounts (note) SELECT 'a' || n FROM generate_series(1, 1000) n;
	 INSERT INTO sessions (account, note)
	 SELECT id, 's' || row_number() OVER (ORDER BY id) FROM accounts;
	 INSERT INTO billing.invoices (account, note)
	 SELECT id, 'i' || row_number() OVER (ORDER BY id) FROM accounts",
	"1000 rows each get their IDs from the domains' DEFAULT",
	db => $src);
$node->sql_ok(
	"INSERT INTO mixed VALUES
	     ('acct_0000000000000000000000000', 'zero'),
	     ('acct_f5lxx1zz5pnorynqglhzmsp33', 'max'),
	     ('user_session_F5LXX1ZZ5PNORYNQGLHZMSP33', 'max upper case'),
	     (prefixed_id_from_uuid('sess', 'ffffffff-ffff-ffff-ffff-ffffffffffff'), 'max from uuid'),
	     ((repeat('a', 63) || '_0000000000000000000000001')::prefixed_id, 'long prefix'),
	     ('x_00000000000000000000000zz', 'one letter'),
	     (NULL, 'null');
	 INSERT INTO mixed SELECT prefixed_id_new('inv'), 'new ' || n FROM generate_series(1, 100) n;
	 INSERT INTO mixed SELECT prefixed_id_token('tok'), 'token ' || n FROM generate_series(1, 100) n",
	'the plain column holds several prefixes, the smallest and largest body, a 63-letter prefix and a NULL',
	db => $src);
is( $node->q(
		"SELECT (SELECT count(*) FROM accounts) || ' ' || (SELECT count(*) FROM sessions) || ' '
		        || (SELECT count(*) FROM billing.invoices) || ' ' || (SELECT count(*) FROM mixed)",
		db => $src),
	'1000 1000 1000 207',
	'row counts: 1000 accounts, 1000 sessions, 1000 invoices, 207 mixed');
is( $node->q(
		"SELECT (SELECT string_agg(DISTINCT prefixed_id_prefix(id), ',') FROM accounts) || ' '
		        || (SELECT string_agg(DISTINCT prefixed_id_prefix(id), ',') FROM sessions) || ' '
		        || (SELECT string_agg(DISTINCT prefixed_id_prefix(id), ',') FROM billing.invoices)",
		db => $src),
	'acct sess inv',
	'the DEFAULT IDs carry their prefixes');

# 2. Custom format, restored with pg_restore.
$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr($src), '-f', "$work/db.dump" ],
	'pg_dump -Fc succeeds');
# pg_dump writes table data with COPY in text form, never binary: the values
# go through prefixed_id_out and back through prefixed_id_in, so the binary
# format (send/recv, changed in 0.5.0) plays no part in a dump.
my ($listing) = run_command([ 'pg_restore', '-f', '-', "$work/db.dump" ]);
like(
	$listing,
	qr/^acct_f5lxx1zz5pnorynqglhzmsp33\tmax$/m,
	'the custom dump holds prefixed_id values as COPY text (pg_restore -f - shows them)');
$node->command_ok([ 'createdb', $custom ], "createdb $custom (without the extension)");
my $restore_err = '';
ok( IPC::Run::run(
		[ 'pg_restore', '--exit-on-error', '-d', $node->connstr($custom), "$work/db.dump" ],
		'>', \my $restore_out, '2>', \$restore_err),
	'pg_restore --exit-on-error succeeds');
is($restore_err, '', 'pg_restore reported nothing on stderr');

# check_copy DB: the restored database DB against the source (23 checks).
sub check_copy
{
	my ($db) = @_;
	is(registry($db), registry($src), "$db: the registry equals the source's");
	is( $node->q(
			"SELECT 'prefixed_id_registry'::regclass = ANY (extconfig) FROM pg_extension
			 WHERE extname = 'idgen'", db => $db),
		't',
		"$db: the registry is still a configuration table of the extension (a later dump keeps it)");
	is( $node->q(
			"SELECT count(*) FROM prefixed_id_registry r JOIN pg_type t ON t.oid = r.type
			 WHERE t.typtype = 'd' AND t.typbasetype = 'prefixed_id'::regtype", db => $db),
		3,
		"$db: every registry row names a prefixed_id domain");
	is(domains($db), domains($src),
		"$db: the domains, their DEFAULTs and CHECKs equal the source's");
	for my $t (qw(accounts sessions billing.invoices mixed))
	{
		my $expected = fingerprint($src, $t);
		is(fingerprint($db, $t), $expected, "$db: $t has the same rows ($expected)");
	}
	is($node->q("SELECT id FROM mixed WHERE note = 'max upper case'", db => $db),
		'user_session_f5lxx1zz5pnorynqglhzmsp33',
		"$db: the largest body in upper case came back as lowercase text");
	is($node->q("SELECT id IS NULL FROM mixed WHERE note = 'null'", db => $db),
		't', "$db: the NULL is still NULL");
	is( $node->q(
			"SELECT indisvalid FROM pg_index WHERE indexrelid = 'mixed_id'::regclass",
			db => $db),
		't',
		"$db: the index on mixed.id is valid");
	# Lookups through the index (sequential and bitmap scans disabled): the
	# largest acct body, the zero body and the 63-letter prefix; then the NULL.
	my $by_value = "SELECT string_agg(note, ',' ORDER BY note) FROM mixed
	                WHERE id IN ('acct_f5lxx1zz5pnorynqglhzmsp33', 'acct_0000000000000000000000000',
	                             '${long_prefix}_0000000000000000000000001')";
	my $by_null = "SELECT string_agg(note, ',') FROM mixed WHERE id IS NULL";
	my $no_scan = 'SET enable_seqscan = off; SET enable_bitmapscan = off;';
	my $plans = $node->q(
		"$no_scan EXPLAIN (COSTS OFF) $by_value; EXPLAIN (COSTS OFF) $by_null",
		db => $db);
	is( scalar(grep { /Index (Only )?Scan using mixed_id/ } split /\n/, $plans),
		2,
		"$db: lookups by value and by NULL are planned as index scans of mixed_id")
	  or diag($plans);
	is($node->q("$no_scan $by_value", db => $db),
		'long prefix,max,zero', "$db: the index scan by value finds the three rows");
	is($node->q("$no_scan $by_null", db => $db),
		'null', "$db: the index scan for NULL finds the NULL row");
	is( $node->error(
			"INSERT INTO accounts VALUES ('sess_0000000000000000000000001', 'wrong')",
			db => $db),
		'23514: value for domain account_id violates check constraint "account_id_prefix"',
		"$db: inserting a sess_ ID into accounts fails on the account_id check");
	is( $node->error(
			"INSERT INTO billing.invoices (id) VALUES ('acct_0000000000000000000000001')",
			db => $db),
		'23514: value for domain billing.invoice_id violates check constraint "invoice_id_prefix"',
		"$db: inserting an acct_ ID into billing.invoices fails on the invoice_id check");
	is( $node->q(
			"WITH new AS (INSERT INTO accounts (note) VALUES ('after restore') RETURNING id)
			 SELECT prefixed_id_prefix(id) || ' ' || (id > (SELECT id FROM accounts WHERE note <> 'after restore'
			                                                ORDER BY id DESC LIMIT 1))
			 FROM new", db => $db),
		'acct true',
		"$db: DEFAULT mints an acct_ ID above every restored one");
	is( $node->q(
			"WITH a AS (SELECT id FROM accounts WHERE note = 'after restore'),
			      s AS (INSERT INTO sessions (account) SELECT id FROM a RETURNING id),
			      i AS (INSERT INTO billing.invoices (account) SELECT id FROM a RETURNING id)
			 SELECT (SELECT prefixed_id_prefix(id) FROM s) || ' ' || (SELECT prefixed_id_prefix(id) FROM i)",
			db => $db),
		'sess inv',
		"$db: DEFAULT mints sess_ and inv_ IDs");
	is( $node->q(
			"SELECT prefixed_id_type((SELECT id FROM accounts ORDER BY id LIMIT 1)::text) || ' '
			        || prefixed_id_type((SELECT id FROM sessions ORDER BY id LIMIT 1)::text) || ' '
			        || prefixed_id_type((SELECT id FROM billing.invoices ORDER BY id LIMIT 1)::text)",
			db => $db),
		'account_id session_token billing.invoice_id',
		"$db: prefixed_id_type resolves a restored ID of each type");
	is( $node->q(
			"SELECT prefixed_id_type('inv_0000000000000000000000001') = 'billing.invoice_id'::regtype",
			db => $db),
		't',
		"$db: prefixed_id_type gives the restored domain itself");
	is($node->error("SELECT prefixed_id_define('other_account_id', 'acct')", db => $db),
		'42710: prefix "acct" is already used by type public.account_id',
		"$db: defining another type with the restored prefix acct fails with 42710");
	is($node->error("SELECT prefixed_id_define('other_session', 'sess', true)", db => $db),
		'42710: prefix "sess" is already used by type public.session_token',
		"$db: defining another type with the restored token prefix sess fails with 42710");
	is($node->q("SELECT prefixed_id_define('user_id', 'user')", db => $db),
		'user_id', "$db: a new prefix can still be defined");
	return;
}
check_copy($custom);

# 3. Plain SQL, restored with psql: the text form of every value goes through
#    prefixed_id_in again.
$node->command_ok([ 'pg_dump', '-Fp', '-d', $node->connstr($src), '-f', "$work/db.sql" ],
	'pg_dump -Fp succeeds');
my $plain_sql = slurp_file("$work/db.sql");
like(
	$plain_sql,
	qr/^COPY public\.prefixed_id_registry \(prefix, type, token\) FROM stdin;$/m,
	'the plain dump restores the registry rows with COPY');
ok( $plain_sql =~ /^COPY public\.mixed \(id, note\) FROM stdin;$/m
	  && $plain_sql =~ /^user_session_f5lxx1zz5pnorynqglhzmsp33\tmax upper case$/m,
	'the plain dump holds prefixed_id values as COPY text');
$node->command_ok([ 'createdb', $plain ], "createdb $plain (without the extension)");
$node->command_ok(
	[
		'psql', '-Xq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($plain),
		'-f', "$work/db.sql", '-o', '/dev/null'
	],
	'psql -v ON_ERROR_STOP=1 restores the plain dump');
check_copy($plain);

done_testing();
