# The extension's schema renamed by its non-superuser owner (issue 14, defect 3):
# idgen is installed into a schema owned by an ordinary role, which defines
# prefixed types and then renames the schema (twice). Other users' DROP TYPE of
# an unrelated type, a DROP of a defined type and a superuser's DROP SCHEMA ...
# CASCADE must work, the registry must stay right, and prefixed_id_define and
# prefixed_id_type must keep working whatever the caller's search_path. The
# domains' CHECKs hold without the extension's schema in the search_path, and
# a CHECK written under a search_path that puts a schema with its own
# =(text, text) before pg_catalog still compares with pg_catalog's.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $node = IdgenTest::Node->create('main');
my $db = 'rename';

# as ROLE SQL...: the statements, in one session of ROLE in database rename;
# their output, errors included.
sub as
{
	my ($role, @sql) = @_;
	my ($status, $out, $err) =
	  $node->run_sql(join('', map { "$_;\n" } @sql), db => $db, user => $role);
	return join("\n", grep { $_ ne '' } $out, $err);
}

# registry SCHEMA: the registry of the extension in SCHEMA, as prefix=type.
sub registry
{
	my ($schema) = @_;
	return $node->q(
		"SELECT string_agg(prefix || '=' || type::text, ' ' ORDER BY prefix)
		 FROM ${schema}.prefixed_id_registry", db => $db);
}

# 1. An ordinary role installs idgen into its own schema and defines a type in
#    its application schema; another role defines types in its own schema.
$node->sql_ok(
	"CREATE ROLE idgen_owner LOGIN; CREATE ROLE idgen_user LOGIN; CREATE DATABASE $db;
	 GRANT CREATE ON DATABASE $db TO idgen_owner",
	"setup: roles idgen_owner and idgen_user, database $db");
is( as( 'idgen_owner', 'CREATE SCHEMA ids', 'CREATE EXTENSION idgen SCHEMA ids',
		"SELECT extnamespace::regnamespace || ' ' || extowner::regrole || ' '
		        || (SELECT rolsuper FROM pg_roles WHERE oid = extowner)
		 FROM pg_extension WHERE extname = 'idgen'"),
	'ids idgen_owner false',
	'idgen_owner creates schema ids and installs idgen (a trusted extension) into it');
is( as( 'idgen_owner', 'CREATE SCHEMA app', 'GRANT USAGE ON SCHEMA app TO idgen_user',
		"SET search_path = app; SELECT ids.prefixed_id_define('account_id', 'acct')",
		'CREATE TABLE app.accounts (id app.account_id PRIMARY KEY, note text)',
		'GRANT USAGE ON SCHEMA ids TO idgen_user'),
	'account_id',
	'idgen_owner defines app.account_id with search_path = app (without ids)');
$node->sql_ok(
	'CREATE SCHEMA other AUTHORIZATION idgen_user;
	 GRANT INSERT, DELETE ON ids.prefixed_id_registry TO idgen_user',
	'setup: schema other owned by idgen_user, which may define types',
	db => $db);
is( as( 'idgen_user',
		"SET search_path = other; SELECT ids.prefixed_id_define('order_id', 'ord')",
		"SET search_path = other; SELECT ids.prefixed_id_define('line_id', 'line', true)",
		"CREATE TYPE other.mood AS ENUM ('ok')",
		"CREATE TYPE other.mood2 AS ENUM ('ok')",
		"CREATE TYPE other.mood3 AS ENUM ('ok')",
		'CREATE DOMAIN other.plain AS int'),
	"order_id\nline_id",
	'idgen_user defines other.order_id and other.line_id, and creates unrelated types');
# other.= compares any two texts as equal; with search_path = other, pg_catalog it comes first.
$node->sql_ok(
	"CREATE FUNCTION other.always(text, text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
	 CREATE OPERATOR other.= (LEFTARG = text, RIGHTARG = text, FUNCTION = other.always)",
	'idgen_user creates an operator other.=(text, text) that is always true',
	db => $db, user => 'idgen_user');
is(as('idgen_user', "SET search_path = other, pg_catalog; SELECT 'a'::text = 'b'::text"),
	't', "with search_path = other, pg_catalog, 'a' = 'b' is other.= (true)");
is( as( 'idgen_user',
		"SET search_path = other, pg_catalog; SELECT ids.prefixed_id_define('evil_id', 'evil')"),
	'evil_id',
	'idgen_user defines other.evil_id with search_path = other, pg_catalog');
is( $node->error(
		"SET search_path = other, pg_catalog; SELECT 'acct_0000000000000000000000001'::other.evil_id",
		db => $db, user => 'idgen_user'),
	'23514: value for domain evil_id violates check constraint "evil_id_prefix"',
	'other.evil_id refuses an acct_ value (its CHECK uses pg_catalog.=, not other.=)');
is(registry('ids'), 'acct=app.account_id evil=other.evil_id line=other.line_id ord=other.order_id',
	'the registry has acct, evil, line and ord');

# 2. The owner renames the schema.
$node->sql_ok('ALTER SCHEMA ids RENAME TO ids_renamed',
	'idgen_owner renames schema ids to ids_renamed', db => $db, user => 'idgen_owner');

$node->sql_ok('DROP TYPE other.mood', "idgen_user's DROP TYPE of an unrelated enum works",
	db => $db, user => 'idgen_user');
$node->sql_ok(
	'SET search_path = other, pg_catalog; DROP DOMAIN other.plain',
	"idgen_user's DROP DOMAIN of an unrelated domain works, with search_path = other, pg_catalog",
	db => $db, user => 'idgen_user');
$node->sql_ok('DROP DOMAIN other.order_id',
	"idgen_user's DROP DOMAIN other.order_id (a defined type) works",
	db => $db, user => 'idgen_user');
is(registry('ids_renamed'), 'acct=app.account_id evil=other.evil_id line=other.line_id',
	'the drop freed ord: the registry has acct, evil and line');

is( as( 'idgen_user',
		"SET search_path = other; SELECT ids_renamed.prefixed_id_type('acct_0000000000000000000000001')",
		"SET search_path = other; SELECT ids_renamed.prefixed_id_type('line_0000000000000000000000001')"),
	"app.account_id\nline_id",
	'prefixed_id_type resolves acct_ and line_ for idgen_user (search_path = other)');
is( $node->error(
		"SELECT ids_renamed.prefixed_id_type('ord_0000000000000000000000001')",
		db => $db, user => 'idgen_user'),
	'42704: no prefixed ID type has the prefix "ord"',
	'prefixed_id_type of the freed prefix ord fails with 42704');

is( as( 'idgen_user',
		"SET search_path = other; SELECT ids_renamed.prefixed_id_define('invoice_id', 'inv')"),
	'invoice_id',
	'idgen_user defines other.invoice_id after the rename (search_path = other)');
is( as( 'idgen_user',
		"SET search_path = other; SELECT ids_renamed.prefixed_id_define('order_id', 'ord')"),
	'order_id',
	'idgen_user defines other.order_id again: the freed prefix ord is available');
is( $node->error(
		"SET search_path = other; SELECT ids_renamed.prefixed_id_define('acct2_id', 'acct')",
		db => $db, user => 'idgen_user'),
	'42710: prefix "acct" is already used by type app.account_id',
	'a taken prefix is still refused after the rename (42710)');
is( as( 'idgen_user',
		"SET search_path = ''; SELECT pg_get_expr(typdefaultbin, 0) || ' ' || pg_get_constraintdef(c.oid)
		 FROM pg_type t JOIN pg_constraint c ON c.contypid = t.oid WHERE t.oid = 'other.invoice_id'::regtype"),
	"ids_renamed.prefixed_id_new('inv'::text) CHECK ((ids_renamed.prefixed_id_prefix(VALUE) = 'inv'::text))",
	"the new domain's DEFAULT and CHECK name the renamed schema");

# 3. The domains without the extension's schema in the search_path, before and after the rename
#    (an error names a domain with its schema when the schema is not in the search_path).
$node->sql_ok('CREATE TABLE other.invoices (id other.invoice_id PRIMARY KEY)',
	'idgen_user creates other.invoices keyed by other.invoice_id',
	db => $db, user => 'idgen_user');
for my $ts ('search_path = other', "search_path = ''")
{
	my $shown = $ts =~ /other$/ ? 'invoice_id' : 'other.invoice_id';
	is( as('idgen_user',
			"SET $ts; INSERT INTO other.invoices DEFAULT VALUES RETURNING left(id::text, 4)"),
		'inv_',
		"with $ts, other.invoices gets inv_ IDs by DEFAULT");
	is( $node->error(
			"SET $ts; INSERT INTO other.invoices VALUES ('acct_0000000000000000000000001')",
			db => $db, user => 'idgen_user'),
		"23514: value for domain $shown violates check constraint \"invoice_id_prefix\"",
		"with $ts, other.invoice_id refuses an acct_ value (23514)");
	is( as( 'idgen_owner',
			"SET $ts; INSERT INTO app.accounts (note) VALUES ('x') RETURNING left(id::text, 5)"),
		'acct_',
		"with $ts, app.accounts (defined before the rename) gets acct_ IDs by DEFAULT");
	is( $node->error(
			"SET $ts; INSERT INTO app.accounts VALUES ('inv_0000000000000000000000001')",
			db => $db, user => 'idgen_owner'),
		'23514: value for domain app.account_id violates check constraint "account_id_prefix"',
		"with $ts, app.account_id refuses an inv_ value (23514)");
}
is( $node->error(
		"SET search_path = other, pg_catalog; SELECT 'acct_0000000000000000000000001'::other.evil_id",
		db => $db, user => 'idgen_user'),
	'23514: value for domain evil_id violates check constraint "evil_id_prefix"',
	'after the rename, other.evil_id still refuses an acct_ value under search_path = other, pg_catalog');
is( as( 'idgen_user',
		"SET search_path = other, pg_catalog;
		 SELECT ids_renamed.prefixed_id_prefix('evil_0000000000000000000000001'::other.evil_id)"),
	'evil',
	'other.evil_id takes an evil_ value');

# 4. A second rename, a lock the trigger cannot get, and a superuser's DROP SCHEMA ... CASCADE.
$node->sql_ok('ALTER SCHEMA ids_renamed RENAME TO "ids again"',
	'idgen_owner renames the schema again, to "ids again"', db => $db, user => 'idgen_owner');
$node->sql_ok('DROP TYPE other.mood2', "idgen_user's DROP TYPE of another unrelated enum works",
	db => $db, user => 'idgen_user');
$node->sql_ok('DROP DOMAIN other.line_id', "idgen_user's DROP DOMAIN other.line_id works",
	db => $db, user => 'idgen_user');
is(registry('"ids again"'),
	'acct=app.account_id evil=other.evil_id inv=other.invoice_id ord=other.order_id',
	'the drop freed line');
is( as( 'idgen_user',
		q{SET search_path = other; SELECT "ids again".prefixed_id_define('line_id', 'line')},
		q{SELECT "ids again".prefixed_id_type('line_0000000000000000000000001')}),
	"line_id\nline_id",
	'prefixed_id_define and prefixed_id_type work in "ids again"');

# While another session holds the registry locked, a DROP with lock_timeout
# set still succeeds: the trigger gives up on the registry with a warning.
# The lock is held from the moment query_safe returns until the COMMIT below.
my $locker = $node->background_psql($db);
$locker->query_safe(
	'BEGIN; LOCK TABLE "ids again".prefixed_id_registry IN ACCESS EXCLUSIVE MODE');
my $out = as('idgen_user', "SET lock_timeout = '200ms'; DROP TYPE other.mood3; SELECT 'dropped'");
$locker->query_safe('COMMIT');
$locker->quit;
like($out, qr/^dropped$/m,
	'a DROP TYPE succeeds while the registry is locked (lock_timeout 200ms)');
like(
	$out,
	qr/^WARNING:  could not update prefixed_id_registry for the dropped objects/m,
	'... with a warning that the registry could not be updated');
note($out);

$node->sql_ok('DROP SCHEMA app CASCADE', "the superuser's DROP SCHEMA app CASCADE works",
	db => $db);
is(registry('"ids again"'),
	'evil=other.evil_id inv=other.invoice_id line=other.line_id ord=other.order_id',
	'the drop freed acct');
$node->sql_ok('DROP SCHEMA "ids again" CASCADE',
	q{the superuser's DROP SCHEMA "ids again" CASCADE (the extension and the domains over its type) works},
	db => $db);
is( $node->q(
		"SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen') || ' '
		        || (SELECT count(*) FROM pg_type WHERE typnamespace = 'other'::regnamespace AND typtype = 'd')",
		db => $db),
	'0 0',
	'the extension is gone, and so are the domains');
$node->sql_ok('DROP SCHEMA other CASCADE', 'DROP SCHEMA other CASCADE works without the extension',
	db => $db);

done_testing();
