# The Python package clients/python (distribution idgen), tested as it ships:
# `python -m build` makes its sdist and wheel, `twine check` reads them, and
# the wheel goes into a fresh venv per dependency set (the newest and the
# oldest versions it supports, clients/python/requirements/*.txt, whose venvs
# test/setup.sh installs under /var/cache/idgen/python), where the package's own
# pytest tests (clients/python/tests) run against this server as a superuser
# (they create their databases). Each pytest case is one check
# (test/lib/junit_verdicts.py), prefixed with its dependency set.
use strict;
use warnings;
use File::Path qw(make_path);
use IdgenTest;
use Test::More;

my $root = $ENV{IDGEN_PYTHON_VENVS} // '/var/cache/idgen/python';
my $package = repo_dir() . '/clients/python';
my $tmp = PostgreSQL::Test::Utils::tempdir('python_package');
my %quiet = (PYTHONDONTWRITEBYTECODE => 1, PIP_CONFIG_FILE => '/dev/null', PIP_FIND_LINKS => undef,
	PIP_NO_INDEX => 1);

my @sets = grep { -x "$root/$_/bin/python" } qw(latest oldest);
is("@sets", 'latest oldest', "the package's dependency venvs are installed under $root")
  or diag('run bash test/setup.sh (clients/python/setup-venvs.sh)');
my $tools = "$root/latest/bin/python";

# the build: sdist and wheel, with the locked hatchling (no download)
my ($status, $out, $err) = run_status(
	[ $tools, '-m', 'build', '--no-isolation', '--outdir', "$tmp/dist", $package ], env => \%quiet);
my ($wheel) = glob("$tmp/dist/idgen-*-py3-none-any.whl");
my ($sdist) = glob("$tmp/dist/idgen-*.tar.gz");
ok($status == 0 && $wheel && $sdist, 'python -m build makes the sdist and the wheel')
  or diag("$out\n$err");
my $version = idgen_version();
like($wheel // '', qr{/idgen-\Q$version\E-py3-none-any\.whl$}, "the wheel's version is the extension's, $version");

($status, $out, $err) = run_status([ $tools, '-m', 'twine', 'check', '--strict', $wheel // '-', $sdist // '-' ],
	env => \%quiet);
ok($status == 0 && $out !~ /WARNING|FAILED/, 'twine check --strict passes the wheel and the sdist')
  or diag("$out\n$err");

my $node = IdgenTest::Node->create('main');
local %ENV = (%ENV, $node->client_env('postgres'));
for my $set (@sets)
{
	# a fresh venv holding the wheel alone; the locked dependencies come from the
	# set's venv through a .pth file, never from the source tree
	my $venv = "$tmp/venv-$set";
	($status, $out, $err) = run_status([ '/usr/bin/python3', '-m', 'venv', '--without-pip', $venv ]);
	my ($site) = glob("$venv/lib/python3*/site-packages");
	my ($deps) = glob("$root/$set/lib/python3*/site-packages");
	if ($status == 0 && $site && $deps)
	{
		write_file("$site/idgen-test-dependencies.pth", "$deps\n");
		($status, $out, $err) = run_status([ "$root/$set/bin/python", '-m', 'pip', '--python',
				"$venv/bin/python", 'install', '-q', '--no-deps', '--no-index', $wheel // '-' ], env => \%quiet);
	}
	ok($status == 0, "$set: the wheel installs into a fresh venv") or diag("$out\n$err");
	next unless $status == 0;
	($status, $out, $err) = run_status(
		[ "$venv/bin/python", '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--rootdir', $tmp,
			"--junitxml=$tmp/$set.xml", '-o', 'junit_family=xunit1', "$package/tests" ],
		# the decoders and the reference libraries' answers do not depend on the
		# libraries' versions: 100,000 values per family with the newest set,
		# 10,000 with the oldest
		env => { %quiet, IDGEN_TEST_SET => $set,
			IDGEN_DECODER_VALUES => $set eq 'latest' ? 100000 : 10000,
			IDGEN_DIFFERENTIAL_COUNT => $set eq 'latest' ? 100000 : 10000,
			IDGEN_SHARED_DATA => repo_dir() . '/../shared/data' },
		init => sub { chdir $tmp or die "$tmp: $!" });  # not the checkout, where idgen.so lives
	note($out) if $status != 0;
	verdicts("pytest ($set)", '/usr/bin/python3', repo_dir() . '/test/lib/junit_verdicts.py',
		'--prefix', "$set: ", "$tmp/$set.xml");
}
done_testing();
