# idgen's PGlite extension (clients/node, `idgen/pglite`), tested as a user
# gets it: pglite/install.sh packs clients/node (npm pack of a copy, its build
# included) and installs the tarball into a copy of the npm project
# test/integration/clients/pglite (PGlite, playwright-core and node-postgres
# pinned by its package-lock.json, installed by test/setup.sh), all in the
# test's directory. Against a server of its own with the C++ edition:
#   pglite_test.mjs, in PGlite in Node: the edition installed into a schema,
#     every family minted and decoded alike by the server, the function and
#     cast lists against test/data/sql_edition_known_diffs.txt, the refusals
#     of test/data/sql_edition_refusals.tsv, every case of
#     test/data/id_vectors.json (test/lib/sql_edition_vectors.py), the
#     differential on 10,000 fixed inputs per family, persistence across a
#     close and reopen;
#   browser_test.mjs, in Debian's chromium (headless, playwright-core): two
#     devices' pages keep PGlite in IndexedDB, reload, and sync their rows to
#     the server through an endpoint on 127.0.0.1; a screenshot (to
#     IDGEN_PGLITE_SCREENSHOT if set, else in the test's directory).
# Their verdicts are the checks.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use IPC::Run ();
use PostgreSQL::Test::Utils ();

my $dir = repo_dir() . '/test/integration/clients/pglite';
my $package = repo_dir() . '/clients/node';
my $bin = "$package/node_modules/.idgen-bin";
my $installed = -e "$package/node_modules/.bin/tsc" && -x "$bin/node"
  && -d "$dir/node_modules/\@electric-sql/pglite" && -d "$dir/node_modules/playwright-core";
ok($installed, 'the package\'s development dependencies, @electric-sql/pglite and playwright-core are installed')
  or diag('run bash test/setup.sh');
if ($installed)
{
	my $work = PostgreSQL::Test::Utils::tempdir('pglite');
	my ($status, $out, $err) = IdgenTest::run_status([ 'sh', "$dir/install.sh", $work ],
		env => { HOME => $work, PATH => "$bin:$ENV{PATH}" });
	ok($status == 0, 'clients/node packs (npm pack) and its tarball installs into a copy of the test project')
	  or diag("$out\n$err");
	my $node = IdgenTest::Node->create('main');
	my $db = $node->fresh_database('idgen_pglite');
	my $shot = $ENV{IDGEN_PGLITE_SCREENSHOT} // "$work/pglite-page.png";
	local %ENV = (%ENV, $node->client_env($db), IDGEN_VERSION => idgen_version(), IDGEN_REPO => repo_dir(),
		PATH => "$bin:$ENV{PATH}", TMPDIR => $work, HOME => $work);
	# The two helpers run at once (PGlite in Node takes one core, the browser's
	# two pages the other); each one's verdicts, then its exit status, are
	# checks, as IdgenTest::verdicts makes them.
	my @helpers = ([ 'pglite_test.mjs', "$work/project/pglite_test.mjs", $work ]);
	if (-x '/usr/bin/chromium')
	{
		push @helpers, [ 'browser_test.mjs', "$work/project/browser_test.mjs", $work, $shot ];
	}
	my @runs;
	for my $helper (@helpers)
	{
		my ($label, @args) = @$helper;
		my $output = '';
		push @runs, [ $label, IPC::Run::start([ "$bin/node", @args ], '>', \$output, '2>&1'), \$output ];
	}
	for my $run (@runs)
	{
		my ($label, $h, $output) = @$run;
		my $ran = $h->finish;
		IdgenTest::verdict_checks($label, $$output, 1);
		ok($ran, "$label exits with status 0") or diag("exit status $?");
	}
	fail("Debian's chromium is not installed (/usr/bin/chromium): run bash test/setup.sh")
	  unless -x '/usr/bin/chromium';
}
done_testing();
