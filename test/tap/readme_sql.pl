# The manual's examples (test/lib/readme_sql.py; docs/development.md, "The
# manual's SQL examples"): every page, README.md and docs/*.md, runs its
# unmarked ```sql blocks in order on a fresh database "app" of its own, with
# the results they show ("-- →", "-- e.g.", "-- ERROR:", "-- SQLSTATE",
# "-- (N rows)", "-- plan has:", a result table) compared. Blocks marked
# "<!-- run by TEST -->" must be claimed by TEST (it exists and takes them from
# the page); "<!-- not run: REASON -->" blocks are counted and listed. Every
# relative link must land on a heading that matches its words, no page may have
# two headings one link cannot tell apart nor cite an issue number ("issue 33":
# the version or the change instead), and docs/development.md's source layout
# must name every source file.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $repo = repo_dir();
my @files = ('README.md', map { s{^\Q$repo\E/}{}r } sort glob("$repo/docs/*.md"));
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

# the markers, printed with the count of examples nobody runs
my $markers = '';
IPC::Run::run([ '/usr/bin/python3', $helper, '--markers', map { "$repo/$_" } @files ], '>', \$markers, '2>&1');
diag($1) if $markers =~ /^ok\t(\d+ examples not run.*)$/m;
verdicts('readme_sql.py --markers', '/usr/bin/python3', $helper, '--markers', map { "$repo/$_" } @files);
verdicts('readme_sql.py --links', '/usr/bin/python3', $helper, '--links', map { "$repo/$_" } @files);
verdicts('readme_sql.py --layout', '/usr/bin/python3', $helper, '--layout', "$repo/docs/development.md", $repo);
done_testing();
