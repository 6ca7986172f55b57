# The manual's SQL examples run as shown (test/lib/readme_sql.py): every ```sql
# block of README.md, in order, on a fresh database "app" with idgen installed,
# then those of the docs/ files listed below, each on a fresh database of its
# own; results shown with "-- →", "-- e.g.", "-- ERROR:" or a result table are
# compared (docs/development.md, "The manual's SQL examples"). Also checks that
# every relative link of README.md and docs/*.md reaches a file and heading.
use strict;
use warnings;
use IdgenTest;
use Test::More;

# The files whose examples run; a docs/ file left out holds examples that need
# several servers, roles or a moved clock, which the tests named in it run.
my @files = qw(README.md docs/reference.md docs/security.md);

my $repo = repo_dir();
my $helper = "$repo/test/lib/readme_sql.py";
my $node = IdgenTest::Node->create('main', conf => ["timezone = 'UTC'"]);

for my $file (@files)
{
	my $created = eval { $node->q('DROP DATABASE IF EXISTS app'); $node->q('CREATE DATABASE app'); 1 };
	ok($created, "create the database app for $file") or diag($@);
	next unless $created;
	{
		local %ENV = (%ENV, $node->client_env('app'));
		verdicts("readme_sql.py $file", '/usr/bin/python3', $helper, "$repo/$file");
	}
	# what the examples left behind must not reach the next file's database
	my $dropped = eval { $node->q('DROP DATABASE app'); 1 };
	ok($dropped, "drop the database app after $file") or diag($@);
}

verdicts('readme_sql.py --links', '/usr/bin/python3', $helper, '--links', "$repo/README.md",
	glob("$repo/docs/*.md"));
done_testing();
