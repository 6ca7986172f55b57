# idgen's PGlite extension (clients/node, `idgen/pglite`), tested as a user
# gets it: test/lib/prepare/pglite.sh packs clients/node and installs the
# tarball into the npm project test/integration/clients/pglite (PGlite,
# playwright-core and node-postgres pinned by its package-lock.json, installed
# by test/setup.sh). Against a server of its own with the C++ edition:
#   pglite_test.mjs, in PGlite in Node: the edition installed into a schema,
#     every family minted and decoded alike by the server, the function and
#     cast lists against test/data/sql_edition_known_diffs.txt, the refusals
#     of test/data/sql_edition_refusals.tsv, the differential on 10,000 fixed
#     inputs per family, persistence across a close and reopen;
#   browser_test.mjs, in Debian's chromium (headless, playwright-core): two
#     devices' pages keep PGlite in IndexedDB, reload, and sync their rows to
#     the server through an endpoint on 127.0.0.1; a screenshot (to
#     IDGEN_PGLITE_SCREENSHOT if set, else in the test's directory).
# Their verdicts are the checks.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use PostgreSQL::Test::Utils ();

my $dir = repo_dir() . '/test/integration/clients/pglite';
my $bin = repo_dir() . '/test/integration/clients/orm/node_modules/.idgen-bin';
my ($status, $tail) = prepared();
ok($status eq '0' || ($status eq 'none' && -d "$dir/node_modules/idgen/dist"),
	'test/lib/prepare/pglite.sh packed clients/node and installed the tarball into test/integration/clients/pglite')
  or diag("preparation status $status\n$tail");
my $installed = -d "$dir/node_modules/idgen/dist" && -d "$dir/node_modules/\@electric-sql/pglite"
  && -d "$dir/node_modules/playwright-core" && -x "$bin/node";
ok($installed, 'the idgen tarball, @electric-sql/pglite, playwright-core and the npm tests\' node are installed')
  or diag('run bash test/setup.sh, then test/lib/prepare/pglite.sh as root');
if ($installed)
{
	my $node = IdgenTest::Node->create('main');
	my $db = $node->fresh_database('idgen_pglite');
	my $tmp = PostgreSQL::Test::Utils::tempdir('pglite');
	my $shot = $ENV{IDGEN_PGLITE_SCREENSHOT} // "$tmp/pglite-page.png";
	local %ENV = (%ENV, $node->client_env($db), IDGEN_VERSION => idgen_version(),
		PATH => "$bin:$ENV{PATH}", TMPDIR => $tmp, HOME => $tmp);
	verdicts('pglite_test.mjs', "$bin/node", "$dir/pglite_test.mjs", $tmp);
	if (-x '/usr/bin/chromium')
	{
		verdicts('browser_test.mjs', "$bin/node", "$dir/browser_test.mjs", $tmp, $shot);
	}
	else
	{
		fail("Debian's chromium is not installed (/usr/bin/chromium): run bash test/setup.sh");
	}
}
done_testing();
