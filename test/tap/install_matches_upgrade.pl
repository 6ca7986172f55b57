# A fresh CREATE EXTENSION (the current full script, sql/idgen--VERSION.sql) and
# a database created on 0.1.0 and upgraded through every upgrade script end up
# with the same objects: same members, definitions, labels, ACLs and comments.
# The released scripts are those installed in the server's share/extension.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use IPC::Run ();
use PostgreSQL::Test::Utils;

my $version = idgen_version();
my $node = IdgenTest::Node->create('main');

# runs SQL [db => NAME]: whether SQL runs without an error.
sub runs
{
	my ($sql, %opt) = @_;
	return ($node->run_sql($sql, %opt))[0] == 0;
}

ok(runs('CREATE DATABASE install_fresh') && runs('CREATE EXTENSION idgen', db => 'install_fresh'),
	'database install_fresh: CREATE EXTENSION idgen');
ok( runs('CREATE DATABASE install_upgraded')
	  && runs("CREATE EXTENSION idgen VERSION '0.1.0'; ALTER EXTENSION idgen UPDATE",
		db => 'install_upgraded'),
	"database install_upgraded: CREATE EXTENSION idgen VERSION '0.1.0', then ALTER EXTENSION idgen UPDATE"
);

for my $db (qw(install_fresh install_upgraded))
{
	is($node->q("SELECT extversion FROM pg_extension WHERE extname = 'idgen'", db => $db),
		$version, "$db is on version $version");
}
# OIDs come from one counter: the full script creates idgen_stats after the ulid
# type, the upgrade path (idgen_stats is in 0.1.0) before it.
is($node->q("SELECT 'idgen_stats'::regclass::oid > 'ulid'::regtype::oid", db => 'install_fresh'),
	't', 'install_fresh ran the full script (idgen_stats created after the ulid type)');
is( $node->q("SELECT 'idgen_stats'::regclass::oid > 'ulid'::regtype::oid",
		db => 'install_upgraded'),
	'f',
	'install_upgraded ran the upgrade scripts (idgen_stats created before the ulid type)');

# One line per fact about the extension, without OIDs, sorted: what each member
# is, with its comment and initial privileges, then the definition of each
# function, aggregate, type, operator, cast, operator class and family (with
# its operators and support functions), event trigger, table and view.
my $describe_sql = <<'SQL';
SET search_path = public, pg_catalog;
WITH member AS (
    SELECT d.classid, d.objid, d.objsubid
    FROM pg_depend d
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
    WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
), family AS (
    SELECT objid AS oid FROM member WHERE classid = 'pg_opfamily'::regclass
    UNION
    SELECT oc.opcfamily FROM pg_opclass oc JOIN member m ON m.classid = 'pg_opclass'::regclass AND m.objid = oc.oid
)
-- newlines in bodies and view definitions as \n: one fact per line
SELECT replace(line, E'\n', '\n') FROM (
    SELECT format('extension idgen: version=%s relocatable=%s schema=%s config=%s conditions=%s',
                  extversion, extrelocatable, extnamespace::regnamespace,
                  extconfig::regclass[], extcondition)
    FROM pg_extension WHERE extname = 'idgen'
    UNION ALL
    SELECT format('member %s: comment=%L init_privs=%s', pg_describe_object(m.classid, m.objid, m.objsubid),
                  obj_description(m.objid, c.relname), ip.privtype::text || ':' || ip.initprivs::text)
    FROM member m
    JOIN pg_class c ON c.oid = m.classid
    LEFT JOIN pg_init_privs ip ON ip.classoid = m.classid AND ip.objoid = m.objid AND ip.objsubid = 0
    UNION ALL
    -- comments and initial privileges of columns (objsubid > 0)
    SELECT format('%s: comment=%L', pg_describe_object(ds.classoid, ds.objoid, ds.objsubid), ds.description)
    FROM pg_description ds JOIN member m ON m.classid = ds.classoid AND m.objid = ds.objoid
    WHERE ds.objsubid > 0
    UNION ALL
    SELECT format('%s: init_privs=%s:%s', pg_describe_object(ip.classoid, ip.objoid, ip.objsubid),
                  ip.privtype, ip.initprivs)
    FROM pg_init_privs ip JOIN member m ON m.classid = ip.classoid AND m.objid = ip.objoid
    WHERE ip.objsubid > 0
    UNION ALL
    SELECT format('function %s: args=(%s) identity_args=(%s) result=%s kind=%s language=%s volatility=%s strict=%s '
                  'parallel=%s security_definer=%s leakproof=%s config=%s cost=%s rows=%s support=%s '
                  'variadic=%s returns_set=%s acl=%s owner_is_extension_owner=%s %s',
                  p.oid::regprocedure, pg_get_function_arguments(p.oid), pg_get_function_identity_arguments(p.oid),
                  pg_get_function_result(p.oid), p.prokind, l.lanname, p.provolatile, p.proisstrict,
                  p.proparallel, p.prosecdef, p.proleakproof, p.proconfig, p.procost, p.prorows,
                  p.prosupport, p.provariadic::regtype, p.proretset, p.proacl,
                  p.proowner = (SELECT extowner FROM pg_extension WHERE extname = 'idgen'),
                  CASE WHEN l.lanname = 'c'
                       THEN format('symbol=%s library=%s', p.prosrc, regexp_replace(p.probin, '^.*/', ''))
                       WHEN p.prokind = 'a' THEN 'aggregate'
                       ELSE format('body=%L', p.prosrc) END)
    FROM pg_proc p
    JOIN pg_language l ON l.oid = p.prolang
    JOIN member m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
    UNION ALL
    SELECT format('aggregate %s: kind=%s direct_args=%s transfn=%s finalfn=%s combinefn=%s serialfn=%s '
                  'deserialfn=%s mtransfn=%s minvtransfn=%s mfinalfn=%s finalextra=%s mfinalextra=%s '
                  'finalmodify=%s mfinalmodify=%s sortop=%s transtype=%s transspace=%s mtranstype=%s '
                  'mtransspace=%s initval=%s minitval=%s',
                  a.aggfnoid::regprocedure, a.aggkind, a.aggnumdirectargs, a.aggtransfn::regprocedure,
                  a.aggfinalfn::regprocedure, a.aggcombinefn::regprocedure, a.aggserialfn::regprocedure,
                  a.aggdeserialfn::regprocedure, a.aggmtransfn::regprocedure, a.aggminvtransfn::regprocedure,
                  a.aggmfinalfn::regprocedure, a.aggfinalextra, a.aggmfinalextra, a.aggfinalmodify,
                  a.aggmfinalmodify, a.aggsortop::regoperator, a.aggtranstype::regtype, a.aggtransspace,
                  a.aggmtranstype::regtype, a.aggmtransspace, a.agginitval, a.aggminitval)
    FROM pg_aggregate a JOIN member m ON m.classid = 'pg_proc'::regclass AND m.objid = a.aggfnoid
    UNION ALL
    SELECT format('type %s: type=%s category=%s preferred=%s length=%s by_value=%s delimiter=%s input=%s output=%s '
                  'receive=%s send=%s typmod_in=%s typmod_out=%s analyze=%s subscript=%s align=%s storage=%s '
                  'not_null=%s base=%s typmod=%s ndims=%s collation=%s default=%L array=%s element=%s '
                  'relation=%s acl=%s',
                  t.oid::regtype, t.typtype, t.typcategory, t.typispreferred, t.typlen, t.typbyval, t.typdelim,
                  t.typinput::regprocedure, t.typoutput::regprocedure, t.typreceive::regprocedure,
                  t.typsend::regprocedure, t.typmodin::regprocedure, t.typmodout::regprocedure,
                  t.typanalyze::regprocedure, t.typsubscript::regprocedure, t.typalign, t.typstorage,
                  t.typnotnull, t.typbasetype::regtype, t.typtypmod, t.typndims, t.typcollation,
                  t.typdefault, t.typarray::regtype, t.typelem::regtype, t.typrelid::regclass, t.typacl)
    FROM pg_type t JOIN member m ON m.classid = 'pg_type'::regclass AND m.objid = t.oid
    UNION ALL
    SELECT format('operator %s: kind=%s function=%s result=%s commutator=%s negator=%s restrict=%s join=%s '
                  'merges=%s hashes=%s',
                  o.oid::regoperator, o.oprkind, o.oprcode::regprocedure, o.oprresult::regtype,
                  o.oprcom::regoperator, o.oprnegate::regoperator, o.oprrest::regprocedure,
                  o.oprjoin::regprocedure, o.oprcanmerge, o.oprcanhash)
    FROM pg_operator o JOIN member m ON m.classid = 'pg_operator'::regclass AND m.objid = o.oid
    UNION ALL
    SELECT format('cast (%s AS %s): function=%s context=%s method=%s',
                  c.castsource::regtype, c.casttarget::regtype, c.castfunc::regprocedure,
                  c.castcontext, c.castmethod)
    FROM pg_cast c JOIN member m ON m.classid = 'pg_cast'::regclass AND m.objid = c.oid
    UNION ALL
    SELECT format('%s: input=%s default=%s storage=%s family=%s',
                  pg_describe_object('pg_opclass'::regclass, oc.oid, 0), oc.opcintype::regtype,
                  oc.opcdefault, oc.opckeytype::regtype,
                  pg_describe_object('pg_opfamily'::regclass, oc.opcfamily, 0))
    FROM pg_opclass oc JOIN member m ON m.classid = 'pg_opclass'::regclass AND m.objid = oc.oid
    UNION ALL
    SELECT format('%s: member %s purpose=%s sort_family=%s',
                  pg_describe_object('pg_opfamily'::regclass, ao.amopfamily, 0),
                  pg_describe_object('pg_amop'::regclass, ao.oid, 0), ao.amoppurpose,
                  CASE WHEN ao.amopsortfamily <> 0
                       THEN pg_describe_object('pg_opfamily'::regclass, ao.amopsortfamily, 0) END)
    FROM pg_amop ao JOIN family f ON f.oid = ao.amopfamily
    UNION ALL
    SELECT format('%s: support %s',
                  pg_describe_object('pg_opfamily'::regclass, ap.amprocfamily, 0),
                  pg_describe_object('pg_amproc'::regclass, ap.oid, 0))
    FROM pg_amproc ap JOIN family f ON f.oid = ap.amprocfamily
    UNION ALL
    SELECT format('event trigger %s: event=%s function=%s enabled=%s tags=%s',
                  et.evtname, et.evtevent, et.evtfoid::regprocedure, et.evtenabled, et.evttags)
    FROM pg_event_trigger et JOIN member m ON m.classid = 'pg_event_trigger'::regclass AND m.objid = et.oid
    UNION ALL
    SELECT format('relation %s: kind=%s persistence=%s options=%s row_security=%s acl=%s view=%L',
                  c.oid::regclass, c.relkind, c.relpersistence, c.reloptions, c.relrowsecurity, c.relacl,
                  CASE WHEN c.relkind = 'v' THEN pg_get_viewdef(c.oid) END)
    FROM pg_class c JOIN member m ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
    UNION ALL
    SELECT format('relation %s column %s %s: type=%s not_null=%s default=%L identity=%s generated=%s '
                  'collation=%s storage=%s acl=%s',
                  c.oid::regclass, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                  pg_get_expr(ad.adbin, ad.adrelid), a.attidentity, a.attgenerated, a.attcollation,
                  a.attstorage, a.attacl)
    FROM pg_class c
    JOIN member m ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
    UNION ALL
    SELECT format('relation %s constraint %s: %s', c.oid::regclass, co.conname, pg_get_constraintdef(co.oid))
    FROM pg_class c
    JOIN member m ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
    JOIN pg_constraint co ON co.conrelid = c.oid
    UNION ALL
    SELECT format('relation %s index: %s', c.oid::regclass, pg_get_indexdef(i.indexrelid))
    FROM pg_class c
    JOIN member m ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
    JOIN pg_index i ON i.indrelid = c.oid
    UNION ALL
    SELECT format('relation %s trigger %s: %s', c.oid::regclass, tg.tgname, pg_get_triggerdef(tg.oid))
    FROM pg_class c
    JOIN member m ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
    JOIN pg_trigger tg ON tg.tgrelid = c.oid
) facts(line)
ORDER BY line COLLATE "C";
SQL

# describe DB: (whether it worked, the description of idgen in DB).
sub describe
{
	my ($db) = @_;
	my ($status, $out) = $node->run_sql($describe_sql, db => $db);
	return ($status == 0, $out);
}
my ($fresh_ok, $fresh) = describe('install_fresh');
ok($fresh_ok, 'describing install_fresh works');
my ($upgraded_ok, $upgraded) = describe('install_upgraded');
ok($upgraded_ok, 'describing install_upgraded works');
# Guards against a description that says too little to tell scripts apart.
my @missing = grep { index($fresh, $_) < 0 } (
	'function uuid_v7()', 'type ulid:', 'operator =(ulid,ulid)', 'cast (ulid AS uuid)',
	'operator class ulid_minmax_ops for access method brin', 'aggregate min(ulid)',
	'event trigger prefixed_id_forget_dropped_types', 'relation prefixed_id_registry column',
	'relation idgen_stats: kind=v', 'member function prefixed_id_type(text): comment=');
ok(!@missing,
	'the description covers functions, types, operators, casts, operator classes, aggregates, the event trigger and tables'
) or diag(map { "missing: $_\n" } @missing);
my $facts = () = $fresh =~ /^/mg;
cmp_ok($facts, '>=', 250, 'the description has one line per fact (at least 250)');
my $work = PostgreSQL::Test::Utils::tempdir('describe');
append_to_file("$work/install_fresh", "$fresh\n");
append_to_file("$work/install_upgraded", "$upgraded\n");
ok($fresh ne '' && $fresh eq $upgraded,
	"the fresh install and the upgraded one define the same objects ($facts facts)")
  or do
{
	IPC::Run::run([ 'diff', '-u', "$work/install_fresh", "$work/install_upgraded" ],
		'>', \my $diff);
	diag($diff);
};

my $smoke_sql = "SELECT uuid_v7_time(uuid_v7()) IS NOT NULL,
                        (SELECT u = u::text::ulid AND ulid_time(u) IS NOT NULL FROM (SELECT ulid() AS u) s),
                        snowflake_shard(snowflake(7)) = 7,
                        prefixed_id_prefix(prefixed_id_new('acct')::text::prefixed_id) = 'acct',
                        base36_decode(base36_encode('0190b4ab-3a3e-7d2e-8000-000000000000'::uuid))
                            = '0190b4ab-3a3e-7d2e-8000-000000000000'";
for my $db (qw(install_fresh install_upgraded))
{
	is($node->q($smoke_sql, db => $db),
		't|t|t|t|t', "$db: uuid_v7, ulid round trip, snowflake, prefixed_id and base36 work");
	my (undef, $out, $err) = $node->run_sql(
		"SELECT prefixed_id_define('smoke_ref', 'smk');
		 SELECT prefixed_id_type(prefixed_id_new('smk')::text);
		 DROP DOMAIN smoke_ref;
		 SELECT count(*) FROM prefixed_id_registry", db => $db);
	is( join("\n", grep { $_ ne '' } $out, $err),
		"smoke_ref\nsmoke_ref\n0",
		"$db: prefixed_id_define creates a type that prefixed_id_type finds, and its drop frees the prefix"
	);
}

done_testing();
