# The client snippets in docs/drivers.md are the code the client tests run
# (readme_snippets.py, whose verdicts are the checks). Needs no server.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $dir = repo_dir() . '/test/integration/clients';
verdicts('readme_snippets.py', '/usr/bin/python3', "$dir/readme_snippets.py",
	"$dir/node/pg_test.js:snippet", "$dir/psycopg_test.py:usage");
done_testing();
