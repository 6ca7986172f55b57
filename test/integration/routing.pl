# Routing by snowflake shard (issue 15): three writer servers own 16 logical
# shards between them, unevenly and not in runs (the shard map); a router
# server sends each call to the owner of its shard with PL/Proxy (RUN ON from
# snowflake_shard(id)) and reads every writer at once through postgres_fdw
# (foreign tables as list partitions on snowflake_shard(id)). Checks that
# every routed insert lands on the owner and only there, that every lookup by
# ID finds its row on the right server, that IDs outside the map fail clearly,
# what postgres_fdw ships to the writers, and a shard move between servers.
# A deliberately wrong map makes the same checks report the misrouted rows.
# Runs where PL/Proxy and postgres_fdw are installed (Debian packages them for
# PostgreSQL 15 only).
use strict;
use warnings;
use IdgenTest;
use IPC::Run ();
use Test::More;

my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
chomp(my $ext_dir = `$pg_config --sharedir`);
$ext_dir .= '/extension';
if (!-f "$ext_dir/plproxy.control" || !-f "$ext_dir/postgres_fdw.control")
{
  SKIP:
	{
		skip 'PL/Proxy and postgres_fdw are packaged for PostgreSQL 15 only', 1;
	}
	done_testing();
	exit 0;
}

my $PER_SHARD = 50;
# The writers listen on 127.0.0.1: the router reaches them there (PL/Proxy's
# partitions and postgres_fdw's servers).
my %node;
$node{$_} = IdgenTest::Node->create($_, tcp => 1, conf => ["cluster_name = '$_'"])
  for qw(w1 w2 w3);
# The router mints nothing: idgen is there for its decoders, without preloading.
my $router = $node{router} =
  IdgenTest::Node->create('router', preload => 0, conf => ["cluster_name = 'router'"]);

# rq SQL: SQL's result on the router.
sub rq { return $router->q($_[0]); }

# sql_err NODE SQL: the ERROR and HINT lines psql prints (verbose: with the
# SQLSTATE), or "no error"; the error lines of routing's expected outputs.
sub sql_err
{
	my ($node, $sql) = @_;
	my ($status, $out, $err) = $node->run_sql($sql, verbose => 1);
	return 'no error' if $status == 0;
	return join("\n", grep { /^(ERROR|HINT)/ } split /\n/, $err);
}

# first_line TEXT: its first line.
sub first_line { return (split /\n/, $_[0])[0] // ''; }

# --- The writers: the same schema everywhere; owned_shards says what each holds.
my $writer_sql = <<'SQL';
CREATE EXTENSION idgen;
CREATE TABLE owned_shards (shard integer PRIMARY KEY);
CREATE TABLE items (id bigint PRIMARY KEY, payload text NOT NULL);

-- Mints on the shard and stores the row, if this server owns the shard. FOR
-- SHARE: a move that deletes the shard from owned_shards waits for inserts in
-- flight, and inserts after it are refused.
CREATE FUNCTION add_item(shard integer, payload text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    new_id bigint;
BEGIN
    PERFORM FROM owned_shards o WHERE o.shard = add_item.shard FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'shard % is not on server %', shard, current_setting('cluster_name')
            USING ERRCODE = '22023', HINT = 'The router''s shard map is out of date, or the shard is being moved.';
    END IF;
    INSERT INTO items (id, payload) VALUES (snowflake(shard), add_item.payload) RETURNING id INTO new_id;
    RETURN new_id;
END $$;

CREATE FUNCTION get_item(item_id bigint) RETURNS TABLE (id bigint, payload text, server text)
LANGUAGE sql STABLE AS $$
    SELECT i.id, i.payload, current_setting('cluster_name') FROM items i WHERE i.id = item_id
$$;
SQL
my %owns = (w1 => '0,1,2,3,4,5,6,12', w2 => '7,8,9,10,13,14', w3 => '11,15');
for my $w (qw(w1 w2 w3))
{
	$node{$w}->q("$writer_sql\nINSERT INTO owned_shards SELECT unnest('{$owns{$w}}'::int[]);");
}

# --- The router: the shard map, PL/Proxy functions, postgres_fdw partitions,
# as the manual sets it up (docs/multi-server.md, its blocks marked "<!-- run
# by test/integration/routing.pl: NAME -->": router, writer on the router,
# apply the map; IdgenTest's doc_sql, through readme_sql.py), on this
# machine's writers.
my $page = 'docs/multi-server.md';
my $this = 'test/integration/routing.pl';
rq(doc_sql($this, $page, 'router'));

for my $w (qw(w1 w2 w3))
{
	my $port = $node{$w}->port;
	# The page's block for w1, on 127.0.0.1 and this writer's port; its line
	# of the map is w1's shards as %owns has them, made for each writer.
	my $map = 'INSERT INTO shard_map VALUES ' . join(', ', map { "($_, 'w1')" } split /,/, $owns{$w}) . ';';
	my $w1_map = 'INSERT INTO shard_map VALUES ' . join(', ', map { "($_, 'w1')" } split /,/, $owns{w1}) . ';';
	rq( doc_sql(
			$this, $page, 'writer on the router',
			$w1_map => $map,
			"'10.0.0.1'" => "'127.0.0.1'",
			'5432' => $port,
			"'app'" => "'postgres'",
			'w1' => $w));
}
is($router->psql('postgres', doc_sql($this, $page, 'apply the map')), 0,
	"the router builds PL/Proxy's cluster and the partitions from the shard map");
is( rq(
		"SELECT count(*) FROM pg_foreign_server s, pg_options_to_table(s.srvoptions) o
		 WHERE s.srvname = 'items_cluster' AND o.option_name ~ '^p([0-9]|1[0-5])\$'"),
	16,
	"PL/Proxy's cluster has the 16 partitions p0..p15");
is( first_line(
		sql_err($router, "BEGIN; DELETE FROM shard_map WHERE shard = 9; CALL shard_map_apply();")),
	'ERROR:  22023: the shard map must name a server for each of the shards 0 to 15',
	'shard_map_apply() refuses a map with a shard missing');

# --- 1. Writes routed by shard.
# routed: what the router's add_item() returned. landed: every writer's rows,
# read from each writer directly (neither PL/Proxy nor postgres_fdw).
rq("CREATE TABLE routed (id bigint, shard integer, payload text);
    CREATE TABLE landed (id bigint, payload text, server text)");
rq("INSERT INTO routed
          SELECT add_item(s, format('item %s of shard %s', n, s)), s, format('item %s of shard %s', n, s)
            FROM generate_series(0, 15) s, generate_series(1, $PER_SHARD) n");

# collect_landed: landed := every writer's items, copied from each writer.
sub collect_landed
{
	rq('TRUNCATE landed');
	for my $w (qw(w1 w2 w3))
	{
		my $rows = $node{$w}->q("COPY (SELECT id, payload, '$w' FROM items) TO STDOUT");
		rq("COPY landed FROM STDIN;\n" . ($rows eq '' ? '' : "$rows\n") . "\\.\n");
	}
	return;
}

# misplaced_rows: IDs whose row is missing on its owner or on another server
# too, and rows on a server the map does not give their shard to.
sub misplaced_rows
{
	return rq(
		"SELECT count(*) FROM (
            SELECT r.id FROM routed r JOIN shard_map m USING (shard)
             WHERE (SELECT count(*) FROM landed l WHERE l.id = r.id) <> 1
                OR NOT EXISTS (SELECT FROM landed l WHERE l.id = r.id AND l.server = m.server)
            UNION
            SELECT l.id FROM landed l LEFT JOIN shard_map m ON m.shard = snowflake_shard(l.id)
             WHERE m.server IS DISTINCT FROM l.server) s");
}

# bad_lookups: routed IDs for which get_item() does not return exactly their
# row, from their owner.
sub bad_lookups
{
	return rq(
		"SELECT count(*) FROM routed r JOIN shard_map m USING (shard)
         WHERE (SELECT count(*) FROM get_item(r.id) g
                 WHERE g.id = r.id AND g.payload = r.payload AND g.server = m.server) <> 1
            OR (SELECT count(*) FROM get_item(r.id)) <> 1");
}

collect_landed();
my $total = 16 * $PER_SHARD;
is(rq('SELECT count(DISTINCT id) FROM routed'), $total, "add_item() returned $total distinct IDs");
is(rq('SELECT count(*) FROM routed WHERE snowflake_shard(id) IS DISTINCT FROM shard'),
	0, 'every ID decodes to the shard it was minted for');
is(rq('SELECT count(*) FROM landed'), $total, "the writers hold $total rows between them");
is(misplaced_rows(), 0, 'every row is on the server that owns its shard, and only there');
for my $w (qw(w1 w2 w3))
{
	my $n = scalar(split /,/, $owns{$w}) * $PER_SHARD;
	is($node{$w}->q('SELECT count(*) FROM items'), $n, "$w holds the $n rows of its shards $owns{$w}");
}

# --- 2. Reads by ID.
is(bad_lookups(), 0, "get_item(id) returns each of the $total rows from its owner");
is(rq('SELECT count(*) FROM get_item(snowflake_boundary(now(), 9))'),
	0, 'get_item() of an unused ID on a mapped shard returns no row');
is(rq('SELECT count(*) FROM get_item(NULL)'), 0, 'get_item(NULL) returns no row');
is( sql_err($router, 'SELECT * FROM get_item(snowflake_boundary(now(), 17))'),
	"ERROR:  22023: snowflake shard 17 is not in the shard map\nHINT:  The shard map holds shards 0 to 15.",
	'get_item() of an ID of shard 17 fails clearly (PL/Proxy alone would send it to partition 1)');
# Without shard_partition(), PL/Proxy masks the hash: shard 17 would go to
# partition 1 (w1), 23 to 7 (w2).
rq(q{CREATE FUNCTION naive_server_of(item_id bigint) RETURNS text LANGUAGE plproxy AS $$
        CLUSTER 'items_cluster';
        RUN ON snowflake_shard(item_id);
        SELECT current_setting('cluster_name') AS naive_server_of;
    $$});
is( rq(
		"SELECT naive_server_of(snowflake_boundary(now(), 17)) || ' ' || naive_server_of(snowflake_boundary(now(), 23))"
	),
	'w1 w2',
	'(RUN ON snowflake_shard(id) alone sends IDs of shards 17 and 23 to w1 and w2 without an error)');
is( first_line(sql_err($router, 'SELECT * FROM get_item(-1)')),
	'ERROR:  22003: snowflake id -1 is negative',
	'get_item() of a negative ID fails clearly');
is( first_line(sql_err($router, "SELECT add_item(100, 'x')")),
	'ERROR:  22023: snowflake shard 100 is not in the shard map',
	'add_item() on shard 100 fails clearly');
is( $node{w1}->q('SELECT count(*) FROM items') . ' ' . $node{w2}->q('SELECT count(*) FROM items'),
	(8 * $PER_SHARD) . ' ' . (6 * $PER_SHARD),
	'nothing else was written');

# --- 3. Consolidated reads through postgres_fdw.
is(rq('SELECT count(*) FROM all_items'), $total, 'all_items counts the rows of every writer');
my $fdw_order = rq('SELECT id FROM all_items ORDER BY id');
my $landed_order = rq('SELECT id FROM landed ORDER BY id');
is( ($fdw_order eq $landed_order ? scalar(split /\n/, $fdw_order) : "a different list"),
	$total, "all_items ORDER BY id lists the writers' $total IDs in order");
is( first_line(sql_err($router, 'ALTER TABLE all_items ADD PRIMARY KEY (id)')),
	'ERROR:  0A000: unsupported PRIMARY KEY constraint with partition key definition',
	'all_items cannot have a primary key (its partition key is an expression)');
is(rq('SELECT count(*) FROM all_items WHERE snowflake_shard(id) = 7'),
	$PER_SHARD, 'the rows of shard 7 through all_items');

# plan_of QUERY: its verbose plan on the router, also written to the test's output.
sub plan_of
{
	my $plan = rq("EXPLAIN (VERBOSE, COSTS OFF) $_[0]");
	note($plan);
	return $plan;
}

# lines PLAN REGEX: the number of PLAN's lines that match REGEX.
sub lines { my ($plan, $re) = @_; return scalar(grep { /$re/ } split /\n/, $plan); }

my $mid = rq('SELECT snowflake_time(id) FROM routed ORDER BY id OFFSET ' . ($total / 2) . ' LIMIT 1');
# The epoch every server here uses (the default idgen.snowflake_epoch), for the
# IMMUTABLE forms that take it as an argument.
my $epoch = "'2024-01-01 00:00:00+00'";
# A constant boundary with an explicit epoch is IMMUTABLE: folded on the
# router and shipped as a number.
my $plan = plan_of("SELECT * FROM all_items WHERE id >= snowflake_boundary('$mid', 0, $epoch)");
is(lines($plan, qr/Remote SQL: .* WHERE \(\(id >= [0-9]+::bigint\)\)/),
	3, 'id >= snowflake_boundary(constant, 0, epoch): each of the 3 writers gets WHERE id >= <number>');
is(lines($plan, qr/Filter:/), 0, '... and the router filters nothing itself');
is( rq("SELECT count(*) FROM all_items WHERE id >= snowflake_boundary('$mid', 0, $epoch)"),
	rq("SELECT count(*) FROM landed WHERE id >= snowflake_boundary('$mid')"),
	'... and the answer agrees with the writers');
# The manual's plan of that query (docs/multi-server.md, its block "shipped
# boundary"), with the number it shows, through test/lib/readme_sql.py.
doc_blocks_ok($router, 'postgres', 'test/integration/routing.pl', 'docs/multi-server.md', 'shipped boundary');
# The form that reads idgen.snowflake_epoch is STABLE: postgres_fdw ships no
# mutable expression, so each writer sends all its rows and the router filters.
$plan = plan_of("SELECT * FROM all_items WHERE id >= snowflake_boundary('$mid')");
is( lines($plan, qr/\QFilter: (all_items_\E.*\Qid >= snowflake_boundary('\E/) . ' '
	  . lines($plan, qr/Remote SQL: .* WHERE/),
	'3 0',
	"id >= snowflake_boundary(constant) without an epoch (STABLE): not shipped, the router filters all 3 writers' rows"
);
# now() is STABLE too.
$plan = plan_of(
	"SELECT * FROM all_items WHERE id >= snowflake_boundary(now() - interval '1 hour', 0, $epoch)");
is( lines($plan,
		qr/\QFilter: (all_items_\E.*\Qid >= snowflake_boundary((now() - '01:00:00'::interval), 0, \E/)
	  . ' '
	  . lines($plan, qr/Remote SQL: .* WHERE/),
	'3 0',
	"id >= snowflake_boundary(now() - ..., 0, epoch): not shipped, the router filters all 3 writers' rows");
# A parameter is shipped: compute the boundary first, pass it as $1.
$plan = rq(
	q{SET plan_cache_mode = force_generic_plan;
      PREPARE since(bigint) AS SELECT * FROM all_items WHERE id >= $1;
      EXPLAIN (VERBOSE, COSTS OFF) EXECUTE since(snowflake_boundary(now() - interval '1 hour'))});
note($plan);
is(lines($plan, qr/Remote SQL: .* WHERE \(\(id >= \$1::bigint\)\)/),
	3, "id >= \$1 (a prepared statement's parameter): shipped to the 3 writers");
# snowflake_shard(id) = 7: pruned to one writer on the router; shipped only
# because the servers list idgen in their extensions option.
$plan = plan_of('SELECT * FROM all_items WHERE snowflake_shard(id) = 7');
is(lines($plan, qr/Foreign Scan/) . ' ' . lines($plan, qr/w2\.items/),
	'1 1', 'snowflake_shard(id) = 7: one foreign scan, of w2 (partition pruning)');
like($plan, qr/\QWHERE ((public.snowflake_shard(id) = 7))\E/,
	"... and with extensions 'idgen' the writer evaluates snowflake_shard()");
rq('ALTER SERVER w2 OPTIONS (DROP extensions)');
$plan = plan_of('SELECT * FROM all_items WHERE snowflake_shard(id) = 7');
like($plan, qr/\QFilter: (snowflake_shard(all_items.id) = 7)\E/,
	"without extensions 'idgen' the router fetches all of w2's rows and filters");
is(rq('SELECT count(*) FROM all_items WHERE snowflake_shard(id) = 7'),
	$PER_SHARD, '... with the same answer');
rq("ALTER SERVER w2 OPTIONS (ADD extensions 'idgen')");
# snowflake_time(id, epoch) is shipped too (IMMUTABLE), and evaluated on the
# writer; snowflake_time(id) reads the epoch setting (STABLE) and is evaluated
# on the router.
$plan = plan_of("SELECT * FROM all_items WHERE snowflake_time(id, $epoch) >= '$mid'");
is( lines(
		$plan,
		qr/\QWHERE ((public.snowflake_time(id, '2024-01-01 00:00:00+00'::timestamp with time zone) >= '\E/
	),
	3,
	'snowflake_time(id, epoch) >= constant: shipped to the 3 writers');
$plan = plan_of("SELECT * FROM all_items WHERE snowflake_time(id) >= '$mid'");
is( lines($plan, qr/\QFilter: (snowflake_time(all_items_\E.*\Qid) >= '\E/) . ' '
	  . lines($plan, qr/Remote SQL: .* WHERE/),
	'3 0',
	"snowflake_time(id) >= constant (STABLE): not shipped, the router decodes all 3 writers' rows");
# One ID through all_items: the shard predicate, folded on the router, prunes
# to the owner.
my $one = rq('SELECT id FROM routed WHERE shard = 13 LIMIT 1');
$plan = plan_of(
	"SELECT * FROM all_items WHERE id = $one AND snowflake_shard(id) = snowflake_shard($one)");
is(lines($plan, qr/Foreign Scan/) . ' ' . lines($plan, qr/w2\.items/),
	'1 1', 'id = X AND snowflake_shard(id) = snowflake_shard(X): one foreign scan, of the owner w2');
$plan = plan_of('SELECT id FROM all_items ORDER BY id');
is( lines($plan, qr/^Merge Append/) . ' '
	  . lines($plan, qr/\QRemote SQL: SELECT id FROM public.items ORDER BY id ASC NULLS LAST\E/),
	'1 3',
	'ORDER BY id: a Merge Append of the 3 writers, each sorting remotely');

# --- 4. The checks can fail: a wrong map sends shard 3 (on w1) to w2.
$one = rq('SELECT id FROM routed WHERE shard = 3 LIMIT 1');
is( join(' ',
		split /\n/,
		rq(
			"SELECT count(*) FROM get_item($one);
             UPDATE shard_map SET server = 'w2' WHERE shard = 3; CALL shard_map_apply();
             SELECT count(*) FROM get_item($one)")),
	'1 0',
	'a session that used the map sees the change at its next call');
is(bad_lookups(), $PER_SHARD, "with shard 3 mapped to w2, the lookup check misses its $PER_SHARD rows");
is(misplaced_rows(), $PER_SHARD, "... the placement check reports its $PER_SHARD rows on w1");
is( first_line(sql_err($router, "SELECT add_item(3, 'x')")),
	'ERROR:  22023: public.add_item(2): [postgres] REMOTE ERROR: shard 3 is not on server w2',
	'... w2 refuses to mint for shard 3');
is(rq('SELECT count(*) FROM all_items WHERE snowflake_shard(id) = 3'),
	0, '... and all_items finds no row of shard 3');
rq("UPDATE shard_map SET server = 'w1' WHERE shard = 3; CALL shard_map_apply()");
is(bad_lookups(), 0, 'the map put right, the lookup check passes again');

# --- 5. Moving shard 12 from w1 to w3, in order.
# An insert in flight on shard 12: a transaction on w1 that has not committed
# yet (it holds its FOR SHARE lock on owned_shards' row 12 until COMMIT).
my $in_flight = $node{w1}->background_psql('postgres');
$in_flight->query_safe('BEGIN');
$in_flight->query_safe("SELECT add_item(12, 'in flight')");
# (1) The old owner stops minting for it; inserts in flight finish first.
my ($delete_out, $delete_err) = ('', '');
my $delete = IPC::Run::start(
	[
		'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node{w1}->connstr('postgres'),
		'-c', 'DELETE FROM owned_shards WHERE shard = 12',
		'-c', "SELECT count(*) FROM items WHERE payload = 'in flight'"
	],
	'>', \$delete_out, '2>', \$delete_err);
# The DELETE blocks on the in-flight transaction's row lock until COMMIT below.
ok( $node{w1}->poll_query_until(
		'postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity
		 WHERE wait_event_type = 'Lock' AND query = 'DELETE FROM owned_shards WHERE shard = 12'"),
	'(1) the DELETE of shard 12 from owned_shards waits on the uncommitted insert');
$in_flight->query_safe('COMMIT');
$in_flight->quit;
$delete->finish;
chomp $delete_out;
is($delete_out, 1, "(1) deleting shard 12 from w1's owned_shards waits for the insert in flight");
rq("INSERT INTO routed SELECT id, 12, payload FROM w1.items WHERE payload = 'in flight'");
my $max12 = rq('SELECT max(id) FROM routed WHERE shard = 12');
is( first_line(sql_err($router, "SELECT add_item(12, 'x')")),
	'ERROR:  22023: public.add_item(2): [postgres] REMOTE ERROR: shard 12 is not on server w1',
	'(1) during the move, writes to shard 12 are refused');
# (2) Copy its rows to the new owner.
rq('INSERT INTO w3.items SELECT * FROM w1.items WHERE snowflake_shard(id) = 12');
# (3) The new owner takes the shard once its clock is past the last copied ID
# (a loop on the server's clock, which moves on).
# (the page's block "move", run on w3)
doc_blocks_ok($node{w3}, 'postgres', $this, $page, 'move');
# (4) The router sends shard 12 to w3.
rq("UPDATE shard_map SET server = 'w3' WHERE shard = 12; CALL shard_map_apply()");
is(rq('SELECT count(*) FROM all_items'),
	$total + 1 + $PER_SHARD + 1,
	'(4) before the old copy is deleted, a full read through all_items counts shard 12 twice');
# (5) Delete the old copy.
$node{w1}->q('DELETE FROM items WHERE snowflake_shard(id) = 12');
my $new12 = rq("SELECT add_item(12, 'after the move')");
rq("INSERT INTO routed VALUES ($new12, 12, 'after the move')");
collect_landed();
$total += 2;
cmp_ok($new12, '>', $max12,
	"after the move, shard 12's next ID ($new12) is above its last on w1 ($max12)");
is($node{w3}->q("SELECT count(*) FROM items WHERE id = $new12"), 1, '... it is on w3');
is($node{w1}->q('SELECT count(*) FROM items WHERE snowflake_shard(id) = 12'),
	0, '... no row of shard 12 is left on w1');
is(misplaced_rows(), 0, '... every row is on its owner, and only there');
is(bad_lookups(), 0, "... get_item(id) finds all $total rows on their owners");
is(rq('SELECT count(*) FROM all_items'), $total, '... all_items counts each row once');

# --- 6. A limit: PL/Proxy's remote calls commit on their own.
rq("BEGIN; SELECT add_item(7, 'rolled back on the router'); ROLLBACK");
is($node{w2}->q("SELECT count(*) FROM items WHERE payload = 'rolled back on the router'"),
	1, 'a router transaction rolled back does not undo add_item() on the writer');

# --- 7. The epoch: the forms without an epoch argument run on the router,
# with the router's idgen.snowflake_epoch; the explicit-epoch forms do not
# depend on it.
my $writers_since_mid = 0;
$writers_since_mid +=
  $node{$_}->q("SELECT count(*) FROM items WHERE snowflake_time(id) >= '$mid'")
  for qw(w1 w2 w3);
cmp_ok($writers_since_mid, '>', 0,
	"the writers hold rows minted at or after $mid ($writers_since_mid)");
$router->append_conf('postgresql.conf', "idgen.snowflake_epoch = '2023-12-31'");
$router->restart;
is(rq("SELECT count(*) FROM all_items WHERE id >= snowflake_boundary('$mid')"),
	0, "with the router's epoch a day earlier, id >= snowflake_boundary('$mid') finds no row");
is(rq("SELECT count(*) FROM all_items WHERE snowflake_time(id) >= '$mid'"),
	0, "... nor does snowflake_time(id) >= '$mid', decoded on the router");
is( rq("SELECT count(*) FROM all_items WHERE id >= snowflake_boundary('$mid', 0, $epoch)"),
	$writers_since_mid,
	"... while id >= snowflake_boundary('$mid', 0, epoch) agrees with the writers ($writers_since_mid rows)"
);
is( rq("SELECT count(*) FROM all_items WHERE snowflake_time(id, $epoch) >= '$mid'"),
	$writers_since_mid,
	"... and so does snowflake_time(id, epoch) >= '$mid', shipped");

done_testing();
