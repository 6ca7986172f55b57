# Build-level checks on the compiled library and the release metadata: no C++
# runtime import or dynamic initialiser in idgen.so, every C function the SQL
# scripts name exported unmangled, one version everywhere, every version
# reachable through upgrade scripts, labelled functions (test/lib/sql_labels.py),
# the define functions' copies (sql/define/generate.py) and the vectors file
# (sql/edition/vectors.py). Runs after make and before any server; starts none.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use JSON::PP ();
use PostgreSQL::Test::Utils ();

my $repo = repo_dir();
chdir $repo or die "cd $repo: $!";
my $lib = 'idgen.so';

# text FILE: the file's contents.
sub text { return PostgreSQL::Test::Utils::slurp_file(@_); }

# output COMMAND...: what COMMAND prints; dies when it fails, since every
# check below reads it.
sub output
{
	my ($status, $out, $err) = run_status([@_]);
	die "@_ failed with status $status: $err\n" if $status;
	return $out;
}

my $undefined = output('nm', '-D', '--undefined-only', $lib);
for my $sym (qw(__cxa_throw __cxa_allocate_exception __cxa_begin_catch __gxx_personality_v0
	_Znwm _Znam _ZdlPv _ZdaPv _Unwind_Resume))
{
	# as grep -w: not inside a longer name
	ok($undefined !~ /(?<!\w)\Q$sym\E(?!\w)/a, "idgen.so does not import $sym");
}
# A server built without ICU does not load libstdc++ for us, so any C++ runtime
# symbol (mangled _Z..., __cxa_* but glibc's __cxa_finalize, the personality
# routine) would stop the server from starting with shared_preload_libraries.
my @cxx_runtime = grep { /^_Z|^__cxa|__gxx_personality/ && !/^__cxa_finalize/ }
  map { (split ' ')[1] // () } split /\n/, $undefined;
is(join("\n", @cxx_runtime), '', 'idgen.so imports no C++ runtime symbol');
# The servers built by test/pg-build.sh have no ICU, so nothing loads libstdc++
# for us there: the suite's preloaded cluster on them proves that idgen.so loads.
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
SKIP:
{
	skip 'this server is built with ICU (only a server without it can show that idgen.so '
	  . 'loads without libstdc++)', 1
	  unless output($pg_config, '--configure') =~ /--without-icu/;
	my $postgres = output($pg_config, '--bindir') . '/postgres';
	ok(output('ldd', $postgres) !~ /libstdc\+\+/,
		'this server is built without ICU and does not link libstdc++ itself');
}
ok(output('nm', $lib) !~ /_GLOBAL__sub_I_/,
	'idgen.so has no dynamic static initialisers (_GLOBAL__sub_I_)');
ok(output('readelf', '-d', $lib) !~ /libstdc\+\+/, 'idgen.so needs no libstdc++');

# Every C symbol the install and upgrade scripts name, plus the module's own.
my %named;
for my $script (glob 'sql/idgen--*.sql')
{
	# the last one on a line, as sed's greedy match takes it
	$named{$_} = 1 for text($script) =~ /^.*'MODULE_PATHNAME', '([a-z_0-9]*)'/mg;
}
my @symbols = sort keys %named;
ok(scalar @symbols, 'the SQL scripts name C functions');
my $defined = output('nm', '-D', '--defined-only', $lib);
for my $fn (@symbols, 'Pg_magic_func', '_PG_init')
{
	ok($defined =~ /(?<!\w)\Q$fn\E(?!\w)/a, "idgen.so exports $fn unmangled");
}

my $version = idgen_version();
my ($control_version) = text('idgen.control') =~ /^default_version = '(.*)'/m;
is($control_version, $version, 'idgen.control default_version matches the Makefile');
my $meta = JSON::PP::decode_json(text('META.json'));
is($meta->{version}, $version, 'META.json version matches the Makefile');
is($meta->{provides}{idgen}{version}, $version, 'META.json provides idgen at the same version');
# the Python package (clients/python) ships the extension's version
my ($python_version) = text('clients/python/pyproject.toml') =~ /^version = "(.*)"$/m;
is($python_version, $version, 'clients/python/pyproject.toml version matches the Makefile');
my ($python_module_version) = text('clients/python/src/idgen/__init__.py') =~ /^__version__ = "(.*)"$/m;
is($python_module_version, $version, 'clients/python idgen.__version__ matches the Makefile');
is(JSON::PP::decode_json(text('clients/node/package.json'))->{version}, $version,
	'clients/node/package.json (the npm package) has the same version');

# reachable VERSION: databases created on 0.1.0 reach the default version
# through upgrade scripts, so every version must be reachable from
# idgen--0.1.0.sql.
sub reachable
{
	my ($v) = @_;
	while ($v ne '0.1.0')
	{
		my ($step) = glob "sql/idgen--*--$v.sql";
		return 0 unless $step;
		($v) = $step =~ m{^sql/idgen--(.*)--.*\.sql$};
	}
	return -f 'sql/idgen--0.1.0.sql';
}
ok(reachable($version),
	"version $version is reachable from sql/idgen--0.1.0.sql through upgrade scripts");
# CREATE EXTENSION runs the current full script alone
# (test/tap/install_matches_upgrade checks it defines what the upgrades do).
ok(-f "sql/idgen--$version.sql", "sql/idgen--$version.sql, the current full install script, exists");
# One full script is edited in place; older versions are installed from
# 0.1.0's and the upgrade scripts, and a released full script lives in git
# history (docs/development.md, "Source layout").
my @full = grep { !/--.*--/ } glob 'sql/idgen--*.sql';
is( join(' ', @full),
	join(' ', sort('sql/idgen--0.1.0.sql', "sql/idgen--$version.sql")),
	"the full install scripts are sql/idgen--0.1.0.sql and sql/idgen--$version.sql alone");

# Every function states its volatility, null handling and PARALLEL label in
# the text and has a COMMENT (pg_proc cannot tell a default from an explicit
# CALLED ON NULL INPUT, so the script is read; test/lib/sql_labels.py).
my $labels = output('/usr/bin/python3', 'test/lib/sql_labels.py', "sql/idgen--$version.sql");
my ($first, @problems) = split /\n/, $labels;
my ($functions) = ($first // '') =~ /^functions=(\d+)$/;
$functions //= 0;
cmp_ok($functions, '>=', 90,
	"sql_labels.py read the current script's functions ($functions, at least 90)");
is(join("\n", @problems), '',
	"every function of sql/idgen--$version.sql states volatility, STRICT or CALLED ON NULL INPUT, "
	  . 'PARALLEL, and has a COMMENT');

# prefixed_id_define and typeid_define have one text, sql/define/domain_define.sql.in,
# nanoid_define and cuid2_define another, sql/define/text_domain_define.sql.in:
# each copy of them in the scripts is its rendering, byte for byte (sql/define/generate.py).
my @copies = grep { /\S/ } split /\n/, output('/usr/bin/python3', 'sql/define/generate.py', 'copies');
cmp_ok(scalar @copies, '>=', 4,
	'sql/define/generate.py lists the scripts\' copies of the two functions ('
	  . scalar(@copies) . ', at least 4)');
for my $copy (@copies)
{
	my ($script, $fn) = split ' ', $copy;
	my ($status, $out, $err) =
	  run_status([ '/usr/bin/python3', 'sql/define/generate.py', 'check', $script, $fn ]);
	ok($status == 0, "$script: ${fn}'s body is the template's rendering") or diag("$out\n$err");
}
# ksuid, objectid and rsxid have one text of operators, operator classes and
# min()/max(), sql/define/type_support.sql.in: each type's copy in the install
# script is its rendering (sql/define/type_support.py).
my ($support_status, $support_out, $support_err) =
  run_status([ '/usr/bin/python3', 'sql/define/type_support.py', 'check' ]);
ok($support_status == 0,
	"sql/idgen--$version.sql: the type support of ksuid, objectid and rsxid is the template's rendering")
  or diag("$support_out\n$support_err");
# The vectors file is what the cores answer now: sql/edition/vectors.py builds
# its probe against src/core, asks it every case afresh and compares.
my ($vectors_status, $vectors_out, $vectors_err) =
  run_status([ '/usr/bin/python3', 'sql/edition/vectors.py', 'check' ]);
ok($vectors_status == 0, 'test/data/id_vectors.json is what sql/edition/vectors.py writes from the cores')
  or diag("$vectors_out\n$vectors_err");
# A family new in this version is written once, in the install script; the
# upgrade script holds a copy of its block (sql/family_blocks.py).
my ($blocks_status, $blocks_out, $blocks_err) =
  run_status([ '/usr/bin/python3', 'sql/family_blocks.py', 'check' ]);
ok($blocks_status == 0,
	'the upgrade script\'s family blocks are the install script\'s (sql/family_blocks.py)')
  or diag("$blocks_out\n$blocks_err");
ok(text('CHANGELOG.md') =~ /^## \Q$version\E/m, "CHANGELOG.md has an entry for $version");
# The Debian package's version is the Makefile's plus a Debian revision
# (0.5.0-1): a release adds an entry on top of debian/changelog.
my ($debian_version) = (split /\n/, text('debian/changelog'))[0] =~ /^idgen \(([^)]*)-[0-9][^)-]*\)/;
is($debian_version, $version, "debian/changelog's newest entry is for version $version");
# The Java and Ruby packages (clients/java, clients/ruby) carry the extension's
# version in their manifests, and their code says it too.
my ($pom_version) = text('clients/java/pom.xml')
  =~ m{<artifactId>idgen</artifactId>\s*(?:<!--.*?-->\s*)?<version>([^<]+)</version>}s;
is($pom_version, $version, "clients/java/pom.xml: org.idgen:idgen is version $version");
my ($it_version) = text('clients/java/it/pom.xml')
  =~ m{<artifactId>idgen</artifactId>\s*<version>([^<]+)</version>}s;
is($it_version, $version, "clients/java/it/pom.xml tests org.idgen:idgen $version");
my ($java_version) = text('clients/java/src/main/java/org/idgen/Idgen.java') =~ /VERSION = "([^"]+)"/;
is($java_version, $version, "clients/java: Idgen.VERSION is $version");
my ($gem_version) = text('clients/ruby/lib/idgen/active_record/version.rb') =~ /VERSION = "([^"]+)"/;
is($gem_version, $version, "clients/ruby: the gem idgen-activerecord is version $version");
# The Go and Rust packages carry the extension's version: the Go module's
# Version constant (its tag is clients/go/vVERSION), the crate's Cargo.toml
# and Cargo.lock, the Rust package tests' Cargo.toml.
my ($go_version) = text('clients/go/idgen.go') =~ /^const Version = "([^"]*)"/m;
is($go_version, $version, "clients/go's Version is $version");
my ($crate_version) = text('clients/rust/Cargo.toml') =~ /^\[package\]\nname = "idgen"\nversion = "([^"]*)"/m;
is($crate_version, $version, "clients/rust/Cargo.toml's version is $version");
ok(text('clients/rust/Cargo.lock') =~ /^name = "idgen"\nversion = "\Q$version\E"$/m,
	"clients/rust/Cargo.lock locks idgen $version");
my ($tests_version) = text('clients/rust/package-tests/Cargo.toml') =~ /^version = "([^"]*)"/m;
is($tests_version, $version, "clients/rust/package-tests/Cargo.toml's version is $version");
my @unguarded = grep {
	text($_) !~ /^\\echo Use "CREATE EXTENSION idgen" to load this file\. \\quit/m
} glob 'sql/idgen--*.sql';
ok(!@unguarded, 'every install and upgrade script starts with the CREATE EXTENSION guard')
  or diag("without it: @unguarded");

done_testing();
