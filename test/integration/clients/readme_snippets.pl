# The client snippets of docs/drivers.md, docs/frameworks.md, docs/browser.md,
# clients/node/README.md, clients/go/README.md, clients/rust/README.md and
# clients/ruby/README.md are the code the client tests run
# (readme_snippets.py, whose verdicts are the checks): the drivers' files for
# drivers.md (the npm package's driver and decoder tests and the Python
# package's psycopg test), and every other file under test/integration/clients
# and clients/ (the packages' tests, the PGlite test's pages) that marks a
# block, found by its markers so that a new tool's files cannot be left out:
# "README snippet" blocks for frameworks.md, "README browser" blocks for
# browser.md (every code block of which must be such blocks' lines: --whole),
# "README package" blocks for the npm package's README, "README module"
# blocks for the Go modules' README, "README java" blocks for the Java
# package's README, "README python" blocks for the Python package's README
# (every code block of which must be such blocks' lines: --whole), "README
# crate" blocks for the Rust crate's and "README gem" blocks for the Ruby gem's.
# Needs no server.
use strict;
use warnings;
use File::Find;
use IdgenTest;
use Test::More;

my $dir = repo_dir() . '/test/integration/clients';
my $package = repo_dir() . '/clients/node/test';
my @package_drivers = ((map { "$package/tests/$_" } qw(pg.test.mjs postgres.test.mjs decoders.test.mjs)),
	repo_dir() . '/clients/python/tests/test_psycopg_wire.py');
my %drivers = map { ($_ => 1) } @package_drivers;
my (@tools, @browser, @package_readme, @go_readme, @python_readme, @java_readme, @crate_readme,
	@gem_readme);
find(
	{
		no_chdir => 1,
		wanted => sub {
			$File::Find::prune = 1 if $_ =~ m{/(node_modules|target|\.build)$};
			return unless -f $_ && !m{/readme_snippets\.[a-z]+$};
			open my $fh, '<', $_ or return;
			my @lines = <$fh>;
			# a driver's snippet blocks are docs/drivers.md's, passed first
			push @tools, "$_:snippet" if !$drivers{$_} && grep { /README snippet begins/ } @lines;
			push @browser, "$_:browser" if grep { /README browser begins/ } @lines;
			push @package_readme, "$_:package" if grep { /README package begins/ } @lines;
			push @go_readme, "$_:module" if grep { /README module begins/ } @lines;
			push @python_readme, "$_:python" if grep { /README python begins/ } @lines;
			push @java_readme, "$_:java" if grep { /README java begins/ } @lines;
			push @crate_readme, "$_:crate" if grep { /README crate begins/ } @lines;
			push @gem_readme, "$_:gem" if grep { /README gem begins/ } @lines;
		}
	},
	$dir, repo_dir() . '/clients');
@tools = sort @tools;
@browser = sort @browser;
@package_readme = sort @package_readme;
@go_readme = sort @go_readme;
@python_readme = sort @python_readme;
@java_readme = sort @java_readme;
@crate_readme = sort @crate_readme;
@gem_readme = sort @gem_readme;
cmp_ok(scalar @tools, '>=', 8, 'the tools\' tests mark snippets for docs/frameworks.md')
  or diag("found: @tools");
ok(@browser && @package_readme, 'the PGlite test\'s pages mark the examples of docs/browser.md and clients/node/README.md')
  or diag("found: @browser; @package_readme");
ok(@go_readme, 'the Go modules\' tests mark the examples of clients/go/README.md');
ok(@python_readme, 'the Python package\'s tests mark the examples of clients/python/README.md');
ok(@java_readme, 'the Java package\'s tests mark the examples of clients/java/README.md');
ok(@crate_readme && @gem_readme, 'the Rust crate\'s and the Ruby gem\'s tests mark the examples of their READMEs')
  or diag("found: @crate_readme; @gem_readme");
verdicts('readme_snippets.py', '/usr/bin/python3', "$dir/readme_snippets.py",
	map({ "$_:snippet" } @package_drivers),
	'--page', 'docs/frameworks.md', @tools, '--whole', 'docs/browser.md', @browser,
	'--page', 'clients/node/README.md', @package_readme, '--page', 'clients/go/README.md', @go_readme,
	'--whole', 'clients/python/README.md', @python_readme,
	'--page', 'clients/java/README.md', @java_readme,
	'--page', 'clients/rust/README.md', @crate_readme, '--page', 'clients/ruby/README.md', @gem_readme);
done_testing();
