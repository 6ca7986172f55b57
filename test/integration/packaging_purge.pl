# The Debian package's removal, after packaging.pl: root's part
# (test/lib/prepare/packaging_purge.sh, run just before this file) runs
# dpkg --purge postgresql-15-idgen, lists what idgen left on the server at that
# moment, and puts the suite's own idgen files back at once; it reports the
# purge and what was left as verdicts. Here, as the cluster owner: dpkg no
# longer lists the package, and the server's idgen files are again exactly the
# ones saved before the package was installed.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $debian_pg_config = '/usr/lib/postgresql/15/bin/pg_config';
my $pg_config = $ENV{PG_CONFIG} // $debian_pg_config;
my $package = 'postgresql-15-idgen';

skip_file("the .deb installs into Debian's PostgreSQL 15; this run uses $pg_config")
  if $pg_config ne $debian_pg_config;
skip_unless_prepared('needs root (dpkg -i and dpkg --purge)');

my ($passed, @log) = prepared_verdicts(
	"test/lib/prepare/packaging_purge.sh (as root: dpkg --purge, then the suite's idgen files put back)");
my ($status, $listed) = run_status([ 'dpkg-query', '-W', '-f=${Status}', $package ]);
is(scalar(() = $listed =~ /installed/g), 0, "dpkg no longer lists $package");
my @saved = map { s/^saved\t//r } grep { /^saved\t/ } @log;
is(join("\n", idgen_files_digest($pg_config)), join("\n", @saved),
	"the suite's idgen files are back as they were before $package was installed");
note(scalar(@saved) . ' files saved and put back');

done_testing();
