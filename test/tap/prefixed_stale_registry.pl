# Stale rows of prefixed_id_registry (issue 14, defect 4): a type defined in
# pg_temp vanishes at the end of its session without firing the sql_drop event
# trigger, so its registry row outlives it. prefixed_id_type() must not return
# the dangling OID, nor the type that later reuses it (the OID counter is set
# back with pg_resetwal -o to make that happen), prefixed_id_define() must free
# the stale row (which needs DELETE on the registry), and a dump must leave
# out the rows of temporary and vanished types, whose names or OIDs mean
# nothing in another database (a live temporary type's row made the restore
# of a plain dump fail).
use strict;
use warnings;
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils;

my $node = IdgenTest::Node->create('main');
my $db = $node->fresh_database('stale');
my $work = PostgreSQL::Test::Utils::tempdir('stale');

# runs SQL [db => NAME, user => ROLE]: whether SQL runs without an error.
sub runs
{
	my ($sql, %opt) = @_;
	return ($node->run_sql($sql, %opt))[0] == 0;
}

# temp_type NAME PREFIX: defines NAME in a session's pg_temp (set first in the
# search_path, after a temporary table made the schema exist) and ends the
# session; returns the type's OID and its array type's.
sub temp_type
{
	my ($name, $prefix) = @_;
	my $out = $node->q(
		"CREATE TEMP TABLE keep_temp_schema ();
		 SET search_path = pg_temp, public;
		 SELECT prefixed_id_define('$name', '$prefix') IS NULL;
		 SELECT oid || ' ' || typarray FROM pg_type WHERE oid = '$name'::regtype",
		db => $db);
	return split ' ', (split /\n/, $out)[-1];
}

# gone OID: whether no type has OID, once the backend that ended has dropped
# its temporary objects (it does as it exits, just after its client left).
sub gone
{
	my ($oid) = @_;
	return 0 unless defined $oid && $oid =~ /^[0-9]+$/;
	return $node->poll_query_until($db, "SELECT count(*) = 0 FROM pg_type WHERE oid = $oid");
}

# pg_dump_plain FILE: dumps database stale as plain SQL into FILE; whether it worked.
sub pg_dump_plain
{
	my ($file) = @_;
	return $node->run_log([ 'pg_dump', '-Fp', '-d', $node->connstr($db), '-f', $file ]);
}

# 0. Types defined before 0.5.0 (by 0.4.0's prefixed_id_define, in a database
#    then updated) are live: their CHECKs read as the lookups expect.
ok( runs('CREATE DATABASE upgraded')
	  && runs(
		"CREATE EXTENSION idgen VERSION '0.4.0';
		 SELECT prefixed_id_define('account_id', 'acct');
		 SELECT prefixed_id_define('session_token', 'sess', true);
		 ALTER EXTENSION idgen UPDATE", db => 'upgraded'),
	"database upgraded: CREATE EXTENSION idgen VERSION '0.4.0', define account_id and session_token, UPDATE"
);
is( $node->q(
		"SELECT prefixed_id_type('acct_0000000000000000000000001') || ' '
		        || prefixed_id_type('sess_0000000000000000000000001')", db => 'upgraded'),
	'account_id session_token',
	'upgraded: prefixed_id_type resolves the types defined before the update');
is($node->error("SELECT prefixed_id_define('other_id', 'acct')", db => 'upgraded'),
	'42710: prefix "acct" is already used by type public.account_id',
	'upgraded: their prefixes are still taken (42710)');
is( $node->q(
		"DROP DOMAIN account_id;
		 SELECT prefixed_id_define('account_id', 'acct');
		 SELECT string_agg(prefix, ' ' ORDER BY prefix) FROM prefixed_id_registry",
		db => 'upgraded'),
	"account_id\nacct sess",
	'upgraded: DROP DOMAIN account_id frees acct, which can be defined again');
$node->q('DROP DATABASE upgraded');

# 1. A temporary type while its session lives: its prefix is taken.
# Session A stays connected until it quits.
my $session_a = $node->background_psql($db);
my $tmp_oid = $session_a->query_safe(
	"CREATE TEMP TABLE keep_temp_schema (); SET search_path = pg_temp, public;
	 SELECT prefixed_id_define('tmp_id', 'tmp')::oid;");
like($tmp_oid, qr/^[0-9]+$/, "session A defines tmp_id in its pg_temp (OID $tmp_oid)");
is( $node->q(
		"SELECT prefixed_id_type('tmp_0000000000000000000000001')::oid || ' '
		        || ((SELECT nspname FROM pg_namespace n JOIN pg_type t ON t.typnamespace = n.oid
		             WHERE t.oid = prefixed_id_type('tmp_0000000000000000000000001')) ~ '^pg_temp_')",
		db => $db),
	"$tmp_oid true",
	"another session's prefixed_id_type resolves tmp_ to session A's temporary type");
is( $node->error("SELECT prefixed_id_define('tmp_other_id', 'tmp')", db => $db),
	'42710: prefix "tmp" is already used by type '
	  . $node->q("SELECT '$tmp_oid'::regtype", db => $db),
	"another session cannot define the live temporary type's prefix tmp (42710)");

is($node->q("SELECT prefixed_id_define('account_id', 'acct')", db => $db),
	'account_id', 'a persistent type is defined next to it: account_id, acct');
ok(pg_dump_plain("$work/live.sql"), 'pg_dump -Fp while session A lives');
# The registry's COPY block, each line cut to its first field (the prefix).
my ($copy) = slurp_file("$work/live.sql")
  =~ /^(COPY public\.prefixed_id_registry .*?^\\\.)$/ms;
is( join(' ', map { (split /\t/)[0] } split /\n/, $copy // ''),
	'COPY public.prefixed_id_registry (prefix, type, token) FROM stdin; acct \.',
	"the dump leaves the temporary type's registry row out and keeps acct's");
ok( runs('CREATE DATABASE restored')
	  && $node->run_log(
		[
			'psql', '-Xq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('restored'),
			'-f', "$work/live.sql", '-o', '/dev/null'
		]),
	'the dump restores into a new database with psql -v ON_ERROR_STOP=1');
is( $node->q(
		"SELECT string_agg(prefix || '=' || type::text, ' ') FROM prefixed_id_registry",
		db => 'restored'),
	'acct=account_id',
	'the restored registry has acct only');
$node->q('DROP DATABASE restored');

# 2. Session A ends: the type goes, the trigger does not fire, the row stays.
$session_a->quit;
ok(gone($tmp_oid), "session A's temporary type is dropped when the session ends");
is( $node->q(
		"SELECT count(*) FROM prefixed_id_registry WHERE prefix = 'tmp' AND type = '$tmp_oid'::oid",
		db => $db),
	1,
	'its registry row is still there (temporary objects are dropped without event triggers)');
is($node->error("SELECT prefixed_id_type('tmp_0000000000000000000000001')", db => $db),
	'42704: no prefixed ID type has the prefix "tmp"',
	'prefixed_id_type does not return the dangling OID: 42704');
my (undef, undef, $err) =
  $node->run_sql("SELECT prefixed_id_type('tmp_0000000000000000000000001')", db => $db);
my ($detail) = $err =~ /^(DETAIL:.*)$/m;
is( $detail,
	"DETAIL:  The ID was 'tmp_0000000000000000000000001'. The type registered for \"tmp\" (OID $tmp_oid) no longer exists or no longer checks this prefix, as happens to a type in pg_temp when its session ends.",
	'... and its detail says that the registered type is gone');
ok(pg_dump_plain("$work/stale.sql"), "pg_dump -Fp of the stale row's database");
my $stale_sql = slurp_file("$work/stale.sql");
ok($stale_sql !~ /^tmp\t/m && $stale_sql =~ /^acct\t/m, 'the dump leaves the stale row out');

# 3. Defining the prefix again frees the stale row; it needs DELETE on the registry.
$node->sql_ok(
	'CREATE ROLE definer LOGIN; GRANT CREATE ON SCHEMA public TO definer;
	 GRANT INSERT ON prefixed_id_registry TO definer',
	'role definer may create in public and insert (not delete) registry rows',
	db => $db);
is( $node->error("SELECT prefixed_id_define('tmp2_id', 'tmp')", db => $db, user => 'definer'),
	'42501: permission denied for table prefixed_id_registry',
	"definer's prefixed_id_define of the stale prefix fails for want of DELETE (42501)");
is($node->q("SELECT to_regtype('tmp2_id') IS NULL", db => $db),
	't', 'the failed define left no type behind');
my ($define_status, $defined) = runs('GRANT DELETE ON prefixed_id_registry TO definer', db => $db)
  ? $node->run_sql("SELECT prefixed_id_define('tmp2_id', 'tmp')", db => $db, user => 'definer')
  : (1, '');
ok($define_status == 0 && $defined eq 'tmp2_id',
	'with DELETE granted, definer defines tmp2_id with the stale prefix tmp');
is( $node->q("SELECT string_agg(type::text, ' ') FROM prefixed_id_registry WHERE prefix = 'tmp'",
		db => $db)
	  . ' '
	  . $node->q("SELECT count(*) FROM prefixed_id_registry WHERE type = '$tmp_oid'::oid",
		db => $db),
	'tmp2_id 0',
	"the registry's tmp row names tmp2_id, and the stale OID is gone from it");
is($node->q("SELECT prefixed_id_type('tmp_0000000000000000000000001')", db => $db),
	'tmp2_id', 'prefixed_id_type resolves tmp_ to tmp2_id');

# 4. Reused OIDs. Two more temporary types end with their sessions; then the
#    OID counter is set back so that new types take their OIDs.
my ($gone_oid) = temp_type('gone_id', 'gone');
ok(gone($gone_oid),
	"gone_id (OID $gone_oid) is defined in pg_temp and dropped when its session ends");
my ($gone2_oid, $gone2_array) = temp_type('gone2_id', 'gone_two');
ok(gone($gone2_oid),
	"gone2_id (OID $gone2_oid) is defined in pg_temp and dropped when its session ends");
# Its array type too. The look-up also lets the index drop the dead entry of
# that OID, which would otherwise make the OID counter skip it below (new OIDs
# are checked against dead entries too), depending on what else read the index.
ok(gone($gone2_array), "gone2_id's array type (OID $gone2_array) is dropped with it");

# set_next_oid OID: restarts the server with its OID counter at OID.
sub set_next_oid
{
	my ($oid) = @_;
	$node->stop('fast');
	my $reset = $node->run_log([ 'pg_resetwal', '-o', $oid, $node->data_dir ]);
	return $node->start(fail_ok => 1) && $reset;
}
ok(set_next_oid($gone_oid),
	"the server restarts with the next OID set to $gone_oid (pg_resetwal -o)");
$node->sql_ok('CREATE DOMAIN reuse_a AS int', 'CREATE DOMAIN reuse_a AS int', db => $db);
my $reused = $node->q("SELECT '$gone_oid'::regtype", db => $db);
isnt($reused, $gone_oid, "OID $gone_oid, gone_id's, now names $reused");
is($node->error("SELECT prefixed_id_type('gone_0000000000000000000000001')", db => $db),
	'42704: no prefixed ID type has the prefix "gone"',
	'prefixed_id_type does not return the type that reuses the OID: 42704');

# gone2_id's array type (CREATE DOMAIN makes it first) came just before it:
# with the counter there, a new define's array type takes that OID and its
# domain gone2_id's.
ok(set_next_oid($gone2_array),
	"the server restarts with the next OID set to $gone2_array (pg_resetwal -o)");
is($node->q("SELECT prefixed_id_define('fresh_id', 'fresh')::oid", db => $db),
	$gone2_oid,
	"prefixed_id_define('fresh_id', 'fresh') works although its new OID is in gone_two's stale row");
is($node->error("SELECT prefixed_id_type('gone_two_0000000000000000000000001')", db => $db),
	'42704: no prefixed ID type has the prefix "gone_two"',
	"prefixed_id_type does not return fresh_id for gone_two (another prefix's type): 42704");
is($node->q("SELECT prefixed_id_type('fresh_0000000000000000000000001')", db => $db),
	'fresh_id', 'prefixed_id_type resolves fresh_ to fresh_id');
is( $node->q(
		"SELECT string_agg(prefix || '=' || type::text, ' ' ORDER BY prefix) FROM prefixed_id_registry",
		db => $db),
	"acct=account_id fresh=fresh_id gone=$reused tmp=tmp2_id",
	'the registry: acct, fresh, gone (stale, OID reused), tmp');
is($node->q("SELECT prefixed_id_define('gone_again_id', 'gone')", db => $db),
	'gone_again_id', 'prefixed_id_define frees gone, whose OID another type took');
is($node->q("SELECT prefixed_id_type('gone_0000000000000000000000001')", db => $db),
	'gone_again_id', 'prefixed_id_type resolves gone_ to gone_again_id');

done_testing();
