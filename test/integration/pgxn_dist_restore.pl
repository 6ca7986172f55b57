# The end of the PGXN distribution's tests (pgxn_dist.pl, then
# pgxn_dist_reinstall.pl): root's part (test/lib/prepare/pgxn_dist_restore.sh,
# run just before this file) puts back the suite's own idgen files that
# pgxn_dist.sh saved before installing the zip on Debian's PostgreSQL 15. Here,
# as the cluster owner: the server's idgen files are exactly those again.
use strict;
use warnings;
use IdgenTest;
use Test::More;

my $debian_pg_config = '/usr/lib/postgresql/15/bin/pg_config';
my $pg_config = $ENV{PG_CONFIG} // $debian_pg_config;

skip_file(
	"the unpacked zip is built and tested on Debian's PostgreSQL 15; this run uses $pg_config")
  if $pg_config ne $debian_pg_config;
skip_unless_prepared("needs root (make install into Debian's PostgreSQL 15)");

my ($passed, @log) =
  prepared_verdicts("test/lib/prepare/pgxn_dist_restore.sh (as root: the suite's idgen files put back)");
my @saved = map { s/^saved\t//r } grep { /^saved\t/ } @log;
is(join("\n", idgen_files_digest($pg_config)), join("\n", @saved),
	"the suite's idgen files are back as they were before the zip was installed");
note(scalar(@saved) . ' files saved and put back');

done_testing();
