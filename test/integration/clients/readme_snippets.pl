# The client snippets of docs/drivers.md and docs/frameworks.md are the code
# the client tests run (readme_snippets.py, whose verdicts are the checks): the
# drivers' two files for drivers.md, and every other file under
# test/integration/clients and clients/ (the packages' tests) that marks a
# snippet for frameworks.md, found by
# its markers so that a new tool's files cannot be left out. Needs no server.
use strict;
use warnings;
use File::Find;
use IdgenTest;
use Test::More;

my $dir = repo_dir() . '/test/integration/clients';
my %drivers = map { ("$dir/$_" => 1) } qw(node/pg_test.js psycopg_test.py);
my @tools;
find(
	{
		no_chdir => 1,
		wanted => sub {
			$File::Find::prune = 1 if $_ =~ m{/(node_modules|target)$};
			return unless -f $_ && !$drivers{$_} && !m{/readme_snippets\.[a-z]+$};
			open my $fh, '<', $_ or return;
			push @tools, "$_:snippet" if grep { /README snippet begins/ } <$fh>;
		}
	},
	$dir, repo_dir() . '/clients');
@tools = sort @tools;
cmp_ok(scalar @tools, '>=', 8, 'the tools\' tests mark snippets for docs/frameworks.md')
  or diag("found: @tools");
verdicts('readme_snippets.py', '/usr/bin/python3', "$dir/readme_snippets.py",
	"$dir/node/pg_test.js:snippet", "$dir/psycopg_test.py:usage",
	'--page', 'docs/frameworks.md', @tools);
done_testing();
