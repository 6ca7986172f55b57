# Snowflake layouts through pg_dump and restore: the layouts defined with
# snowflake_layout_define(), and one inserted directly that has since run out
# (the table's CHECK does not look at the clock, so a dump of it restores),
# are dumped in the custom format (restored with pg_restore) and as plain SQL
# (restored with psql). Each copy must hold the same rows, decode and compose
# as the source does, still refuse an invalid row, and still list no
# predefined layout as a row.
use strict;
use warnings;
use IdgenTest;
use Test::More;
use IPC::Run ();
use PostgreSQL::Test::Utils;

my $node = IdgenTest::Node->create('main');
my $src = 'idgen_layout_dump';
my $custom = 'idgen_layout_dump_custom';
my $plain = 'idgen_layout_dump_plain';
my $work = PostgreSQL::Test::Utils::tempdir('dump');

my $rows = "SELECT string_agg(format('%s|%s|%s|%s|%s', name, epoch, time_unit_ms, field_names, field_bits), ' ' ORDER BY name) FROM snowflake_layouts";
my $decoded = "SELECT snowflake_layout_decompose(458277205837873151, 'shop')::text || ' ' || snowflake_layout_time(1048577, 'baidu') || ' ' || snowflake_layout_compose('ten_ms', '2025-01-01 01:00:00+00', '{\"machine\": 7}')";

$node->fresh_database($src);
is($node->q("SELECT snowflake_layout_define('shop', '2020-01-01+00', 1, ARRAY['time', 'region', 'worker', 'sequence'], ARRAY[42, 4, 6, 11])", db => $src),
	'shop', 'snowflake_layout_define defines shop');
is($node->q("SELECT snowflake_layout_define('ten_ms', '2025-01-01+00', 10, ARRAY['time', 'sequence', 'machine'], ARRAY[39, 8, 16])", db => $src),
	'ten_ms', 'snowflake_layout_define defines ten_ms');
$node->q("INSERT INTO snowflake_layouts (name, epoch, time_unit_ms, field_names, field_bits) VALUES ('baidu', '2016-05-20+00', 1000, ARRAY['time', 'worker', 'sequence'], ARRAY[28, 22, 13])", db => $src);
my $src_rows = $node->q($rows, db => $src);
my $src_decoded = $node->q($decoded, db => $src);
like($src_rows, qr/^baidu\|.* shop\|.* ten_ms\|/, 'the source holds the three layouts');

# check_copy DB: the restored database against the source (4 checks).
sub check_copy
{
	my ($db) = @_;
	is($node->q($rows, db => $db), $src_rows, "$db holds the same layouts");
	is($node->q($decoded, db => $db), $src_decoded, "$db decodes and composes as the source");
	my ($ret, $out, $err) = $node->psql($db,
		"INSERT INTO snowflake_layouts (name, epoch, time_unit_ms, field_names, field_bits) VALUES ('bad', '2020-01-01+00', 1, ARRAY['time', 'sequence'], ARRAY[41, 23])");
	like($err, qr/invalid snowflake layout "bad"/, "$db still checks rows written directly");
	is($node->q("SELECT count(*) FROM snowflake_layouts WHERE name IN ('instagram', 'twitter', 'discord', 'sonyflake', 'pgedge')", db => $db),
		'0', "$db lists no predefined layout as a row");
}

$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr($src), '-f', "$work/db.dump" ],
	'pg_dump -Fc succeeds');
$node->command_ok([ 'createdb', $custom ], "createdb $custom (without the extension)");
my $restore_err = '';
ok( IPC::Run::run(
		[ 'pg_restore', '--exit-on-error', '-d', $node->connstr($custom), "$work/db.dump" ],
		'>', \my $restore_out, '2>', \$restore_err),
	'pg_restore --exit-on-error succeeds');
is($restore_err, '', 'pg_restore reported nothing on stderr');
check_copy($custom);

$node->command_ok([ 'pg_dump', '-Fp', '-d', $node->connstr($src), '-f', "$work/db.sql" ],
	'pg_dump -Fp succeeds');
like(slurp_file("$work/db.sql"), qr/^COPY public\.snowflake_layouts \(/m,
	'the plain dump restores the layouts with COPY');
$node->command_ok([ 'createdb', $plain ], "createdb $plain (without the extension)");
$node->command_ok(
	[
		'psql', '-Xq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($plain),
		'-f', "$work/db.sql", '-o', '/dev/null'
	],
	'psql -v ON_ERROR_STOP=1 restores the plain dump');
check_copy($plain);

done_testing();
