# Binary input fuzzing: random byte strings of every length 0-64 and near
# misses of valid values go to every recv function of idgen's types (ulid,
# prefixed_id, typeid, ksuid, objectid, rsxid, domains made by prefixed_id_define and
# typeid_define, and arrays of the six), one COPY ... FROM (FORMAT binary) per value;
# test/lib/recv_fuzz.py generates the inputs and checks the outcomes. Only
# clean errors may come back, no backend may die, and every accepted value must
# round-trip through COPY TO and its text form. Its own server, so that the log
# holds only this test. IDGEN_RECV_FUZZ_SEED and IDGEN_RECV_FUZZ_PER_LENGTH
# change the inputs.
use strict;
use warnings;
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $seed = $ENV{IDGEN_RECV_FUZZ_SEED} // 20141;
my $per_length = $ENV{IDGEN_RECV_FUZZ_PER_LENGTH} // 6;
my $node = IdgenTest::Node->create('main');
# inputs written here, COPY TO outputs written by the server (same user)
my $io = PostgreSQL::Test::Utils::tempdir('recv_fuzz_io');

my ($ret, $out, $err) = $node->psql(
	'postgres', "CREATE EXTENSION idgen;
	 SELECT prefixed_id_define('account_id', 'acct');
	 CREATE TABLE recv_ulid (v ulid);
	 CREATE TABLE recv_prefixed (v prefixed_id);
	 CREATE TABLE recv_domain (v account_id);
	 CREATE TABLE recv_ulid_array (v ulid[]);
	 CREATE TABLE recv_prefixed_array (v prefixed_id[]);
	 SELECT typeid_define('user_tid', 'user');
	 CREATE TABLE recv_typeid (v typeid);
	 CREATE TABLE recv_typeid_domain (v user_tid);
	 CREATE TABLE recv_typeid_array (v typeid[]);
	 CREATE TABLE recv_ksuid (v ksuid);
	 CREATE TABLE recv_ksuid_array (v ksuid[]);
	 CREATE TABLE recv_objectid (v objectid);
	 CREATE TABLE recv_objectid_array (v objectid[]);
	 CREATE TABLE recv_rsxid (v rsxid);
	 CREATE TABLE recv_rsxid_array (v rsxid[])");
is($ret, 0, 'a database with idgen, the domain account_id and one table per recv function')
  or diag($err);
# A type added to idgen later must be added to recv_fuzz.py too (array types are
# extension members on 18, not on 15; they are left out here).
is( $node->q(
		"SELECT string_agg(t.typname || ':' || t.typreceive::text, ' ' ORDER BY t.typname)
		 FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
		 JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
		 WHERE e.extname = 'idgen' AND d.deptype = 'e' AND t.typtype = 'b' AND t.typcategory <> 'A'"),
	'ksuid:ksuid_recv objectid:objectid_recv prefixed_id:prefixed_id_recv rsxid:rsxid_recv typeid:typeid_recv ulid:ulid_recv',
	"idgen's base types with a binary input function are ulid, prefixed_id, typeid, ksuid, objectid and rsxid (all covered)");

note("seed $seed, $per_length random inputs per length and type");
{
	local %ENV = (%ENV, $node->client_env('postgres'));
	verdicts('recv_fuzz.py', '/usr/bin/python3', repo_dir() . '/test/lib/recv_fuzz.py',
		'--dir', $io, '--seed', $seed, '--per-length', $per_length);
}

# A backend that dies by a signal makes the postmaster log it and restart all.
my $crashes = join("\n",
	grep { /TRAP:|PANIC:|terminated by signal|terminated by exception|exited with exit code|terminating any other active server processes/ }
	  split /\n/, PostgreSQL::Test::Utils::slurp_file($node->logfile));
is($crashes, '', 'the server log has no TRAP, PANIC or backend killed by a signal');
is($node->q("SELECT ulid() IS NOT NULL AND prefixed_id_new('acct') IS NOT NULL"),
	't', 'the server still accepts connections and mints IDs');
done_testing();
