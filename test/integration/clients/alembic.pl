# Alembic 1.8 + SQLAlchemy 1.4 (Debian's alembic, python3-sqlalchemy,
# psycopg2 driver) against a server of its own: `alembic upgrade head` as the
# database's owner, a plain role, creates idgen and tables keyed by every
# family in Alembic's one transaction (alembic/versions/0001_idgen.py); the
# application side (alembic/app_test.py, whose verdicts are checks) then uses
# them through the ORM and Core, autogenerate, and psycopg 3 text and binary.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $dir = repo_dir() . '/test/integration/clients/alembic';
for my $need ([ '/usr/bin/alembic', 'alembic' ],
	[ '/usr/lib/python3/dist-packages/sqlalchemy', 'python3-sqlalchemy' ],
	[ '/usr/lib/python3/dist-packages/psycopg2', 'python3-psycopg2' ],
	[ '/usr/lib/python3/dist-packages/psycopg', 'python3-psycopg' ])
{
	skip_file("Debian package $need->[1] is not installed") unless -e $need->[0];
}

my $node = IdgenTest::Node->create('main');
my $db = $node->app_database('idgen_alembic');
# Python must not try to write bytecode next to the sources (not ours to write).
my %env = ($node->client_env($db, $db), PYTHONDONTWRITEBYTECODE => 1);

# alembic_ok LABEL, ARGS...: a check that `alembic ARGS` exits with status 0;
# returns its stdout.
sub alembic_ok
{
	my ($label, @args) = @_;
	my ($status, $out, $err) = run_status(
		[ '/usr/bin/alembic', '-c', "$dir/alembic.ini", @args ], env => \%env);
	is($status, 0, $label) or diag("$out\n$err");
	return $out;
}

alembic_ok('alembic upgrade head as the database owner (not a superuser)', 'upgrade', 'head');
like(alembic_ok('alembic current', 'current'), qr/^0001 \(head\)$/m,
	'alembic current is 0001 (head)');
is( $node->q(
		"SELECT extowner::regrole::text || ' ' || extversion FROM pg_extension WHERE extname = 'idgen'",
		db => $db),
	"$db " . idgen_version(),
	'the migration created idgen, owned by the database owner');

alembic_ok('alembic downgrade base drops the tables, the domains and idgen', 'downgrade', 'base');
is( $node->q(
		"SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen')
		      + (SELECT count(*) FROM pg_class WHERE relname IN ('accounts', 'orders', 'events'))
		      + (SELECT count(*) FROM pg_type WHERE typname IN ('acct_id', 'user_id'))",
		db => $db),
	'0',
	'after downgrade base no idgen, table or domain is left');
alembic_ok('alembic upgrade head again', 'upgrade', 'head');

{
	local %ENV = (%ENV, %env);
	verdicts('alembic/app_test.py', '/usr/bin/python3', "$dir/app_test.py");
}
done_testing();
