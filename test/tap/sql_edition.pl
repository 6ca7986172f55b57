# The SQL edition (docs/managed-postgresql.md), built by `make sql-edition`
# (into the test's own directory), on two throwaway PostgreSQL servers of
# $PG_CONFIG:
#   M, "managed": idgen neither preloaded nor created, and its library never
#     mapped by a backend; shared_preload_libraries = 'pg_tle' where that
#     server already has pg_tle installed (no package registry serves it, and
#     the suite builds nothing that none serves: elsewhere its checks are one
#     counted skip).
#   F, "full": shared_preload_libraries = 'idgen'; the C++ edition in schema
#     cpp and the SQL edition in schema sqled of one database.
# Checks: the script's labels (sql_labels.py); every name its bodies resolve
# when they run written with pg_catalog or its own schema (sql_qualified.py);
# install by psql -f by a role without superuser; the pg_tle pieces (a base
# version and its updates, each under one psql argument's 128 kB, which
# joined are the script); install as a pg_tle extension (where installed);
# spec cases (sql_edition_spec.py) both ways;
# SQLSTATEs of bad input; every case of test/data/id_vectors.json
# (sql_edition_vectors.py); the function and cast lists of the two editions
# (name, arguments, volatility, strictness, parallel label, comment) against
# test/data/sql_edition_known_diffs.txt; idgen_types(); 57
# refusals with the same SQLSTATE, message, detail and hint in both editions,
# and the KSUID, ObjectId and XID texts refused alike;
# what other roles, cancels and errors can do to the snowflake state (section
# 1b: cancelled and parallel-mode calls leave no lock, a role without grants
# blocks nothing, a schema squatted after a rename is refused, the rebind
# takes any schema name, a hostile schema before pg_catalog, holding a
# look-alike of each operator, type, function and relation, changes nothing);
# a crash with the state ahead of the clock (after section 4b);
# the differential test (section 4: SQLED_DIFF_N, default 200000, values per
# family; SQLED_DIFF_N_TEXT, default the same, for prefixed_id, typeid and
# base36, whose SQL encoders are the slowest); Instagram's next_id() repeating
# past 1,024 IDs in one millisecond on a shard, and the edition not
# (section 4b, deterministic); the session state of ulid(), uuid_v7(),
# objectid() and xid() (section 4d); SQLED_SESSIONS (8)
# sessions minting snowflakes on one shard for SQLED_SECONDS (10) s, all
# released at once: no duplicate, uuid_v7 increasing per session, objectid
# and xid with process bytes per session; pg_dump /
# pg_restore of every type, both install ways; the move of a database to the
# C++ edition (dump, restore on F, ALTER TABLE, compare).
use strict;
use warnings;
use IdgenTest;
use Test::More;
use IPC::Run ();
use PostgreSQL::Test::Utils;
use Time::HiRes qw(time);

my $started = time;
my $repo = repo_dir();
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';

# Full size in the suite's first pass; under --pg all the later majors'
# passes (IDGEN_SKIP_CORE_ONLY set) run a quarter of it, since the editions'
# encodings do not depend on the major. The vector file's cases (section 3c)
# hold every edge the cores know of; the differential looks for a
# disagreement elsewhere, and a million values a family found none that
# 200,000 did not (a third of the suite's first pass went to it).
my $later_pass = ($ENV{IDGEN_SKIP_CORE_ONLY} // '') ne '';
my $diff_n = $ENV{SQLED_DIFF_N} // ($later_pass ? 50000 : 200000);
my $seconds = $ENV{SQLED_SECONDS} // ($later_pass ? 5 : 10);
my $diff_n_text = $ENV{SQLED_DIFF_N_TEXT} // $diff_n;
my $sessions = $ENV{SQLED_SESSIONS} // 8;
my $version = idgen_version();
my $tmp = PostgreSQL::Test::Utils::tempdir('sqled');
my $script = "$tmp/idgen_sql--$version.sql";
my $typeid_spec = shared_data('typeid-spec') // '';

# client NODE COMMAND...: runs a client program (pg_dump) against NODE, its
# output to the test's log; true when it succeeds.
sub client
{
	my ($node, @command) = @_;
	local %ENV = (%ENV, $node->client_env);
	return PostgreSQL::Test::Utils::run_log(\@command);
}

my $make_out = '';
IPC::Run::run([ 'make', '-s', '-C', $repo, 'sql-edition', "SQL_EDITION=$script", "PG_CONFIG=$pg_config" ],
	'>', \$make_out, '2>&1');
ok(-s $script, "make sql-edition wrote idgen_sql--$version.sql (SQL_EDITION in the test's directory)")
  or diag($make_out);
my $script_text = -s $script ? slurp_file($script) : '';
ok( $script_text ne ''
	  && $script_text !~ /LANGUAGE\s+c\b|MODULE_PATHNAME|\@extschema\@|idgen\.so/i,
	'the script has no C function and names no schema of its own');
# The pg_tle install passes each piece of the script (make sql-edition
# writes them to pg_tle/ beside it) as one argument of psql, which holds at
# most 128 kB (MAX_ARG_STRLEN, "content=" and all): a base version
# (idgen_sql--V.sql) and the updates from it (idgen_sql--V--W.sql), whose
# chain ends at this version; joined by newlines, in that order, they are the
# script of the psql install.
my @tle_pieces;    # [ from version or undef, to version, text ]
{
	opendir(my $dir, "$tmp/pg_tle") or die "no $tmp/pg_tle: $!";
	my %piece;
	for my $name (grep { /^idgen_sql--.*\.sql$/ } readdir $dir)
	{
		my ($from, $to) = $name =~ /^idgen_sql--(.+?)(?:--(.+))?\.sql$/;
		($from, $to) = (undef, $from) unless defined $to;
		$piece{ $from // '' } = [ $from, $to, slurp_file("$tmp/pg_tle/$name") ];
	}
	closedir $dir;
	my $at = '';
	while (my $next = delete $piece{$at})
	{
		push @tle_pieces, $next;
		$at = $next->[1];
	}
	ok( @tle_pieces >= 2 && !%piece && $at eq $version
		  && join("\n", map { $_->[2] } @tle_pieces) eq $script_text,
		'make sql-edition wrote the script in pieces for pg_tle: a base version and a chain of updates to '
		  . "$version, which joined are the script (" . join(' -> ', map { $_->[1] } @tle_pieces) . ')')
	  or diag('left: ' . join(' ', keys %piece));
	my @sizes = map { length($_->[2]) } @tle_pieces;
	ok(@sizes && !grep({ $_ >= 131072 - 1024 } @sizes),
		'each piece is under 127 kB (' . join(', ', @sizes) . ' bytes; the script ' . length($script_text)
		  . '), for pgtle.install_extension and pgtle.install_update_path through psql -v');
	# (pg_tle stores each as the body of a function quoted with $_pgtle_$ and refuses
	# content that holds $_pgtle_)
	ok(!grep({ index($_->[2], '$_pgtle_') >= 0 } @tle_pieces), 'no piece holds $_pgtle_, which pg_tle refuses');
}
my $labels = '';
IPC::Run::run([ '/usr/bin/python3', "$repo/test/lib/sql_labels.py", $script ], '>', \$labels, '2>&1');
my ($labels_head, @labels_rest) = split /\n/, $labels;
is(join("\n", @labels_rest), '',
	'every function of the script states volatility, null handling, PARALLEL and has a COMMENT (sql_labels.py: '
	  . ($labels_head // '') . ')');

# Qualification by construction (issue 51: substring(b, 3, 64) ran a
# look-alike placed before pg_catalog): sql_qualified.py reads every body that
# PostgreSQL parses with the caller's search_path when it runs, and reports
# each function, operator, type, collation and relation not named with
# pg_catalog or the edition's own schema. Its own cases first; then the
# script; then the script with each name it counted as qualified left
# unqualified (pg_catalog's, quoted, so that a keyword type stays a name) or
# named with another schema (the edition's): each must then be reported.
{
	my $run = sub {
		my $out = '';
		IPC::Run::run([ '/usr/bin/python3', "$repo/test/lib/sql_qualified.py", @_ ], '>', \$out, '2>&1');
		return split /\n/, $out;
	};
	my ($cases, @missed) = $run->('--self-test');
	ok(($cases // '') =~ /^cases=[1-9]/ && !@missed,
		'sql_qualified.py reports each of its cases of a name resolved through the search_path, and none of the safe forms ('
		  . ($cases // '') . ')')
	  or diag(join("\n", @missed));
	my ($head, @found) = $run->($script);
	my ($bodies, $catalog, $own) = ($head // '') =~ /^bodies=(\d+) pg_catalog=(\d+) own=(\d+)$/;
	ok($bodies && $catalog && !@found,
		'every function, operator, type and relation that the script\'s bodies resolve when they run is named with pg_catalog or the edition\'s schema (sql_qualified.py: '
		  . ($head // '') . ')')
	  or diag(join("\n", $head // '', @found));
	my ($unbound) = slurp_file("$repo/sql/edition/generate.py") =~ /^UNBOUND_SCHEMA = "(\w+)"$/m;
	(my $unqualified = $script_text) =~ s/OPERATOR\(pg_catalog\.([^)]+)\)/$1/g;
	$unqualified =~ s/pg_catalog\.(\w+)/"$1"/g;
	$unqualified =~ s/\Q$unbound\E/${unbound}_elsewhere/g if $unbound;
	PostgreSQL::Test::Utils::append_to_file("$tmp/unqualified.sql", $unqualified);
	my ($mutant_head, @reported) = $run->("$tmp/unqualified.sql");
	is(scalar(@reported), ($catalog // 0) + ($own // 0) + @found,
		'with those names unqualified or in another schema, sql_qualified.py reports each of them (' . (($catalog // 0) + ($own // 0))
		  . ' names: pg_catalog\'s ' . ($catalog // 0) . ', the edition\'s ' . ($own // 0) . ')')
	  or diag($mutant_head // '');
}

# --- pg_tle, where this server has it installed ---------------------------------
chomp(my $pkglibdir = `$pg_config --pkglibdir`);
chomp(my $sharedir = `$pg_config --sharedir`);
my ($major) = `$pg_config --version` =~ /^PostgreSQL (\d+)/;
my $have_tle = -f "$pkglibdir/pg_tle.so" && -f "$sharedir/extension/pg_tle.control";
my $tle_skip = "pg_tle is not installed for PostgreSQL $major (no package registry serves it)";
note("pg_tle: " . `grep -h default_version $sharedir/extension/pg_tle.control`) if $have_tle;

my $f = IdgenTest::Node->create('f');
my $m = IdgenTest::Node->create('m',
	preload => 0,
	conf => [ $have_tle ? "shared_preload_libraries = 'pg_tle'" : () ]);

# doc_blocks NODE, DB, USER, NAME: the block of docs/managed-postgresql.md
# marked "run by test/tap/sql_edition.pl: NAME", on NODE's DB as USER.
sub doc_blocks
{
	my ($node, $db, $user, $name) = @_;
	doc_blocks_ok($node, $db, 'test/tap/sql_edition.pl', 'docs/managed-postgresql.md', $name, user => $user);
	return;
}

# The page's commands name the script this version's make sql-edition writes.
{
	my $page = PostgreSQL::Test::Utils::slurp_file("$repo/docs/managed-postgresql.md");
	my @files = map { defined $_->[0] ? "idgen_sql--$_->[0]--$_->[1].sql" : "idgen_sql--$_->[1].sql" } @tle_pieces;
	my @calls = map {
		defined $_->[0]
		  ? "pgtle.install_update_path('idgen_sql', '$_->[0]', '$_->[1]', :'content')"
		  : "pgtle.install_extension('idgen_sql', '$_->[1]', 'idgen SQL edition', :'content')"
	} @tle_pieces;
	push @calls, "pgtle.set_default_version('idgen_sql', '$version')";
	my %known_file = map { ($_ => 1) } "idgen_sql--$version.sql", @files;
	my @stale = grep { !$known_file{$_} } $page =~ /(idgen_sql--[0-9][^\s"'`)]*?\.sql)/g;
	my @missing = grep { index($page, $_) < 0 } @calls, map { "\$(cat $_)" } @files;
	my @pgtle_calls = $page =~ /pgtle\.(?:install_extension|install_update_path|set_default_version)\(/g;
	ok(!@stale && !@missing && @pgtle_calls == @calls,
		"docs/managed-postgresql.md names idgen_sql--$version.sql and the pg_tle pieces (@files), with their versions, only")
	  or diag("stale: @stale; missing: @missing; pg_tle calls: " . scalar(@pgtle_calls));
}

# --- 1. psql -f by a role without superuser -----------------------------------
$m->q('CREATE ROLE app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE; CREATE ROLE reader LOGIN');
$m->q('CREATE DATABASE plain OWNER app');
doc_blocks($m, 'plain', 'app', 'psql install');
{
	local $ENV{PGOPTIONS} = '-c search_path=ids';
	$m->sql_ok($script_text, 'psql -f installs the edition into schema ids as role app (not a superuser)',
		db => 'plain', user => 'app');
}
is($m->output('SELECT rolsuper FROM pg_roles WHERE rolname = current_user', db => 'plain', user => 'app'),
	'f', 'app is not a superuser');
# The manual's NanoID domain of one's own (nanoid_define() is the C++ edition's only).
doc_blocks($m, 'plain', 'app', 'nanoid domain');
is( $m->output(
		"CREATE TABLE shop_orders (id bigint PRIMARY KEY, ref order_ref NOT NULL);
		 INSERT INTO shop_orders (id) VALUES (1), (2);
		 SELECT count(DISTINCT ref) || ' ' || bool_and(ref ~ '^[0-9A-HJKMNP-TV-Z]{12}\$') FROM shop_orders",
		db => 'plain', user => 'app'),
	'2 true',
	"the manual's order_ref domain defaults to a new 12-character NanoID over its alphabet");
like($m->error("INSERT INTO shop_orders VALUES (3, 'ABC')", db => 'plain', user => 'app'),
	qr/^23514:/, '... and its CHECK refuses text that is not one (23514)');

# The manual's words: CREATE on the database is what the install needs (a role
# with CREATE on a schema only cannot make ids), and the role's tables need a
# schema it may create in (from 15 on, not public unless it owns the database).
$m->q(
	'CREATE ROLE installer LOGIN; CREATE ROLE schema_only LOGIN; CREATE DATABASE granted;
	 GRANT CREATE ON DATABASE granted TO installer');
$m->q('GRANT CREATE ON SCHEMA public TO schema_only', db => 'granted');
like(
	$m->error('CREATE SCHEMA ids', db => 'granted', user => 'schema_only'),
	qr/^42501:/,
	'a role with CREATE on a schema but not on the database cannot create the schema ids (42501)');
doc_blocks($m, 'granted', 'installer', 'psql install');
{
	local $ENV{PGOPTIONS} = '-c search_path=ids';
	$m->sql_ok($script_text, 'psql -f installs the edition as a role with only CREATE on the database',
		db => 'granted', user => 'installer');
}
like(
	$m->error('CREATE TABLE public.t (id uuid DEFAULT ids.uuid_v7())', db => 'granted', user => 'installer'),
	qr/^42501:/,
	"that role's tables cannot go into public on PostgreSQL 15 and later (42501)");
$m->sql_ok(
	'CREATE SCHEMA mine; CREATE TABLE mine.t (id uuid DEFAULT ids.uuid_v7()); INSERT INTO mine.t DEFAULT VALUES',
	'that role makes its tables in a schema of its own, keyed by the edition',
	db => 'granted', user => 'installer');
# The snowflake mints name their state sequence, schema and all (issue 33):
# a sequence of that name that a caller puts first in its search_path (here
# in pg_temp) is not the one they move; after ALTER SCHEMA ... RENAME they
# refuse (3F000) until the owner runs idgen_sql_snowflake_bind() again, which
# another role may not; the IDs then go on from where they were.
my $before_rename = $m->output(
	"SET search_path = pg_temp, ids; CREATE TEMP SEQUENCE idgen_sql_snowflake_state; CREATE TEMP SEQUENCE idgen_sql_snowflake53_state;
	 SELECT ids.snowflake(1), ids.snowflake53(1),
	        (SELECT is_called FROM pg_temp.idgen_sql_snowflake_state) OR (SELECT is_called FROM pg_temp.idgen_sql_snowflake53_state)",
	db => 'granted', user => 'reader');
like($before_rename, qr/^\d+\|\d+\|f$/,
	'a sequence named like the state, first in the caller\'s search_path, is left alone by snowflake() and snowflake53()');
my ($sf_before, $s53_before) = split /\|/, $before_rename;
$m->q('ALTER SCHEMA ids RENAME TO ids_renamed', db => 'granted');
# (from PostgreSQL 16, whose regclass input reports a missing name softly, the
# error names the relation; before, the schema)
is( join(' / ', map { $m->error("SELECT ids_renamed.$_(1)", db => 'granted', user => 'reader') } qw(snowflake snowflake53)),
	$major >= 16
	? join(' / ', map { qq{42P01: relation "ids.idgen_sql_${_}_state" does not exist} } qw(snowflake snowflake53))
	: join(' / ', ('3F000: schema "ids" does not exist') x 2),
	'after ALTER SCHEMA ... RENAME the mints refuse, naming the old schema (docs/managed-postgresql.md)');
like($m->error('SELECT ids_renamed.idgen_sql_snowflake_bind()', db => 'granted', user => 'reader'),
	qr/^42501:/, 'a role that does not own the edition cannot bind the mints (42501)');
doc_blocks($m, 'granted', 'installer', 'rebind');
is( $m->output("SELECT ids_renamed.snowflake(1) > $sf_before, ids_renamed.snowflake53(1) > $s53_before", db => 'granted', user => 'reader'),
	't|t', 'idgen_sql_snowflake_bind() by the owner binds them to the new name; the IDs go on from the same state');
$m->q('ALTER SCHEMA ids_renamed RENAME TO ids', db => 'granted');
$m->q('SELECT ids.idgen_sql_snowflake_bind()', db => 'granted', user => 'installer');

# --- 1b. what other roles, cancels and errors can do to the snowflake state
# Role reader has no grant but EXECUTE; squatter may CREATE in the database;
# installer owns the edition. The mints' serialization is a lock that only
# the edition's functions take (docs/managed-postgresql.md): a cancel, a
# timeout or an error ends the call with nothing held, no role without the
# owner's rights can take it or block it, and after a rename of the schema
# the mints never use objects another role made.
my $parallel_setting = $major >= 16 ? 'debug_parallel_query' : 'force_parallel_mode';

# concurrently SCRIPT, SESSIONS: SCRIPT sent to each background psql session
# at once; returns once all of them have run it (how many had not, at the
# 60 s timeout).
sub concurrently
{
	my ($script, @sessions) = @_;
	my $banner = 'concurrently: done';
	$_->{stdin} .= "$script\n\\echo '$banner'\n" for @sessions;
	my @waiting = @sessions;
	my $deadline = time + 60;
	while (@waiting && time < $deadline)
	{
		$_->{run}->pump_nb for @waiting;
		@waiting = grep { $_->{stdout} !~ /\Q$banner\E/ } @waiting;
		select(undef, undef, undef, 0.01);
	}
	$_->{stdout} = '', $_->{stderr} = '' for @sessions;
	return scalar(@waiting);
}

# locks_of PIDS: the locks the sessions PIDS hold, as "pid locktype mode" lines.
sub locks_of
{
	my ($pids) = @_;
	return $m->output("SELECT string_agg(pid || ' ' || locktype || ' ' || mode, ', ' ORDER BY pid) FROM pg_locks WHERE pid IN ($pids)",
		db => 'granted');
}

# Five sessions of reader each run 400 calls that statement_timeout cancels,
# then snowflake() and snowflake53() in a PARALLEL SAFE wrapper in parallel
# mode (nextval refuses there); idle afterwards, they must hold nothing, and a
# new session mints without waiting for a lock (lock_timeout 100 ms).
{
	my @cancelled = map { $m->background_psql('granted', on_error_stop => 0, extra_params => [ '-U', 'reader' ]) } 1 .. 5;
	my $pids = join(',', map { $_->query_safe('SELECT pg_backend_pid()') } @cancelled);
	is( concurrently(
			"SET statement_timeout = '1ms';\n"
			  . ("SELECT count(ids.snowflake(1)) + count(ids.snowflake53(1)) FROM generate_series(1, 20000);\n" x 400)
			  . "RESET statement_timeout;
CREATE FUNCTION pg_temp.new_id() RETURNS bigint LANGUAGE plpgsql PARALLEL SAFE AS \$\$BEGIN RETURN ids.snowflake(1); END\$\$;
CREATE FUNCTION pg_temp.new_id53() RETURNS bigint LANGUAGE plpgsql PARALLEL SAFE AS \$\$BEGIN RETURN ids.snowflake53(1); END\$\$;
SET $parallel_setting = on; SET max_parallel_workers = 0;
SELECT pg_temp.new_id(); SELECT pg_temp.new_id53();
RESET $parallel_setting; RESET max_parallel_workers;",
			@cancelled),
		0,
		'5 sessions ran 400 cancelled snowflake() and snowflake53() calls each, and both in a PARALLEL SAFE wrapper in parallel mode');
	is(locks_of($pids), '', 'the 5 sessions, idle, hold no lock after cancels and parallel-mode refusals');
	is( $m->error("SET lock_timeout = '100ms'; SELECT ids.snowflake(1), ids.snowflake53(1)", db => 'granted', user => 'reader'),
		'', 'a new session then mints at once (lock_timeout 100 ms)');
	# (sessions that hold a lock, or wait for one left held, end here)
	$m->q("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid IN ($pids)");
	eval { $_->quit } for @cancelled;
}

# A role without grants tries every lock it can take on the edition's
# objects: the advisory locks 0.7.0 took, and the locks that parsing takes
# before privileges are checked, held in an open transaction; and it keeps a
# transaction open after minting. Minting goes on.
{
	my $holder = $m->background_psql('granted', on_error_stop => 0, extra_params => [ '-U', 'reader' ]);
	my $minter = $m->background_psql('granted', on_error_stop => 0, extra_params => [ '-U', 'reader' ]);
	$holder->query(
		"SELECT pg_advisory_lock(1768187763, oid::int) FROM pg_class WHERE relname IN ('idgen_sql_snowflake_state', 'idgen_sql_snowflake53_state');
		 SELECT pg_advisory_lock(1768187763, 0);");
	my $tables = $m->q(
		"SELECT string_agg(format('%I.%I', relnamespace::regnamespace, relname), ' ') FROM pg_class WHERE relnamespace = 'ids'::regnamespace AND relkind IN ('r', 'S', 'v')",
		db => 'granted');
	for my $t (split / /, $tables)
	{
		$holder->query("COMMENT ON TABLE $t IS 'mine'");
		$holder->query("LOCK TABLE $t IN ACCESS EXCLUSIVE MODE");
	}
	$holder->query('BEGIN');
	my $n = 0;
	for my $t (split / /, $tables)
	{
		$n++;
		# (a DELETE of a lock view fails when prepared, not updatable, and would
		# end the transaction)
		$holder->query("PREPARE s$n AS SELECT FROM $t; PREPARE u$n AS SELECT FROM $t FOR UPDATE"
			  . ($t =~ /_lock$/ ? '' : "; PREPARE d$n AS DELETE FROM $t"));
	}
	$minter->query("SET lock_timeout = '5s'; BEGIN; SELECT ids.snowflake(1), ids.snowflake53(1);");
	is( $m->error("SET lock_timeout = '100ms'; SELECT ids.snowflake(1), ids.snowflake53(1)", db => 'granted', user => 'reader'),
		'',
		'a role without grants holding advisory locks, locks taken while parsing, and a transaction that minted, blocks no other session\'s minting'
	);
	$holder->query('ROLLBACK; SELECT pg_advisory_unlock_all()');
	$minter->query('COMMIT');
	$holder->quit;
	$minter->quit;
}

# After ALTER SCHEMA ids RENAME by the owner, a role with CREATE on the
# database makes a schema ids of its own with objects of the state's names,
# open to all: the mints, by their new name, refuse rather than use them.
$m->q('CREATE ROLE squatter LOGIN; GRANT CREATE ON DATABASE granted TO squatter');
$m->q('ALTER SCHEMA ids RENAME TO ids_old', db => 'granted', user => 'installer');
$m->q(
	"CREATE SCHEMA ids; GRANT USAGE ON SCHEMA ids TO PUBLIC;
	 CREATE SEQUENCE ids.idgen_sql_snowflake_state AS bigint MINVALUE 0 START 0;
	 CREATE SEQUENCE ids.idgen_sql_snowflake53_state AS bigint MINVALUE 0 START 0;
	 CREATE TABLE ids.idgen_sql_snowflake_lock (); CREATE TABLE ids.idgen_sql_snowflake53_lock ();
	 GRANT ALL ON ALL SEQUENCES IN SCHEMA ids TO PUBLIC; GRANT ALL ON ALL TABLES IN SCHEMA ids TO PUBLIC",
	db => 'granted', user => 'squatter');
like(
	join(' / ', map { $m->error("SELECT ids_old.$_(1)", db => 'granted', user => 'reader') } qw(snowflake snowflake53)),
	qr/^42501: .* \/ 42501: /,
	'after a rename, snowflake() and snowflake53() refuse (42501) the state sequences another role made under the old name');
is( $m->output(
		'SELECT last_value, is_called FROM ids.idgen_sql_snowflake_state UNION ALL SELECT last_value, is_called FROM ids.idgen_sql_snowflake53_state',
		db => 'granted', user => 'squatter'),
	"0|f\n0|f", 'the other role\'s sequences were not moved');
$m->q('DROP SCHEMA ids CASCADE', db => 'granted', user => 'squatter');
$m->q('ALTER SCHEMA ids_old RENAME TO ids; SELECT ids.idgen_sql_snowflake_bind()', db => 'granted', user => 'installer');

# idgen_sql_snowflake_bind() binds the mints in a schema of any name.
{
	my @names = ('$function$', '$state$', 'a "quoted" name', "it's", 'back\\slash', "new\nline", 'x*/y', "\xc3\xbcmlaut", 'U&"x"');
	my @results;
	my $from = 'ids';
	for my $name (@names)
	{
		my $quoted = '"' . ($name =~ s/"/""/gr) . '"';
		$m->q("ALTER SCHEMA $from RENAME TO $quoted", db => 'granted', user => 'installer');
		$from = $quoted;
		my $err = $m->error("SELECT $quoted.idgen_sql_snowflake_bind()", db => 'granted', user => 'installer');
		push @results, $err ne '' ? "bind: $err"
		  : $m->output("SELECT $quoted.snowflake_shard($quoted.snowflake(2)), $quoted.snowflake53_shard($quoted.snowflake53(2))",
			db => 'granted', user => 'reader');
	}
	$m->q("ALTER SCHEMA $from RENAME TO ids; SELECT ids.idgen_sql_snowflake_bind()", db => 'granted', user => 'installer');
	is(join(' / ', @results), join(' / ', ('2|2') x @names),
		'idgen_sql_snowflake_bind() binds the mints in schemas named $function$, $state$, with quotes, a backslash, a newline, */, a non-ASCII letter, U&"x"');
}

# A schema placed before pg_catalog in the caller's search_path, made by a
# plain role, supplies look-alikes made from the catalog, not from a list
# (issue 51: with every operator and a list of types, the unqualified
# substring(bit, integer, integer) had no look-alike and went unseen): an
# operator for each of pg_catalog's (same name and types), a function for each
# signature of each pg_catalog function whose name the script holds (its
# arguments and result, in PL/pgSQL, which cannot take "any", internal or
# cstring: sql_qualified.py covers those), a domain for each of its types
# (the keyword types are pg_catalog's whatever the search_path) and a view
# for each of its relations the script names. Each raises when it is used:
# no function of the edition may resolve one. The same calls under the
# ordinary search_path and under that one must give the same results
# (generators through their decoders, with the session's last values set far
# ahead, so that the results are fixed).
my %script_word;
my $script_words = join(',', sort grep { length($_) <= 63 && !$script_word{$_}++ } map { lc } $script_text =~ /([A-Za-z_][A-Za-z0-9_]*)/g);
$m->q('CREATE SCHEMA evil AUTHORIZATION reader', db => 'granted');
$m->sql_ok(<<'SQL', 'a plain role defines an operator for each of pg_catalog\'s and a domain named as each of its types', db => 'granted', user => 'reader');
GRANT USAGE ON SCHEMA evil TO PUBLIC;
CREATE FUNCTION evil.trap(what text) RETURNS boolean LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'hostile % called', what; END$$;
DO $$
DECLARE
    o record;
    n integer := 0;
BEGIN
    FOR o IN SELECT op.oprname, op.oprleft, op.oprright, op.oprresult FROM pg_operator op
              WHERE op.oprnamespace = 'pg_catalog'::regnamespace
                AND NOT EXISTS (SELECT FROM pg_type t WHERE t.oid IN (op.oprleft, op.oprright, op.oprresult) AND t.typtype = 'p')
    LOOP
        n := n + 1;
        EXECUTE format('CREATE FUNCTION evil.op%s(%s) RETURNS %s LANGUAGE plpgsql AS %L', n,
                       concat_ws(', ', CASE WHEN o.oprleft <> 0 THEN o.oprleft::regtype::text END, o.oprright::regtype::text),
                       o.oprresult::regtype, format('BEGIN PERFORM evil.trap(%L); RETURN NULL; END',
                           format('operator %s(%s, %s)', o.oprname, o.oprleft::regtype, o.oprright::regtype)));
        EXECUTE format('CREATE OPERATOR evil.%s (%s RIGHTARG = %s, FUNCTION = evil.op%s)', o.oprname,
                       CASE WHEN o.oprleft <> 0 THEN format('LEFTARG = %s,', o.oprleft::regtype) END, o.oprright::regtype, n);
    END LOOP;
END
$$;
DO $$
DECLARE
    t record;
BEGIN
    FOR t IN SELECT typname FROM pg_type
              WHERE typnamespace = 'pg_catalog'::regnamespace AND typtype IN ('b', 'e', 'r', 'm') AND typcategory <> 'A'
    LOOP
        EXECUTE format('CREATE DOMAIN evil.%I AS pg_catalog.%I CHECK (evil.trap(%L))', t.typname, t.typname, 'type ' || t.typname);
    END LOOP;
END
$$;
SQL
my $views = $m->output(<<SQL, db => 'granted', user => 'reader');
DO \$\$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT relname FROM pg_class
              WHERE relnamespace = 'pg_catalog'::regnamespace AND relkind IN ('r', 'v')
                AND relname = ANY ('{$script_words}'::text[]) AND has_table_privilege(oid, 'SELECT')
    LOOP
        EXECUTE format('CREATE VIEW evil.%I AS SELECT * FROM pg_catalog.%I WHERE evil.trap(%L)', r.relname, r.relname, 'relation ' || r.relname);
    END LOOP;
END
\$\$;
SELECT count(*) FROM pg_class WHERE relnamespace = 'evil'::regnamespace AND relkind = 'v';
SQL
ok(($views // '') =~ /^[1-9]\d*$/, 'the role defines a view for each of the ' . ($views || 0) . ' pg_catalog relations the script names that it may read');
{
	# A function for each signature: those that cannot be written in
	# PL/pgSQL are counted, and must be exactly those with an argument or
	# result of a pseudo-type that it refuses.
	my $made = $m->output(<<SQL, db => 'granted', user => 'reader');
CREATE TEMP TABLE refused(sig text, error text);
DO \$\$
DECLARE
    f record;
BEGIN
    FOR f IN SELECT p.oid, p.proname, p.prokind, p.proargtypes, p.oid::regprocedure::text AS sig FROM pg_proc p
              WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind <> 'p'
                AND p.proname = ANY ('{$script_words}'::text[])
    LOOP
        BEGIN
            -- an aggregate's look-alike is a plain function of all its
            -- arguments (an ordered-set one's are no argument list)
            EXECUTE format('CREATE FUNCTION evil.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L', f.proname,
                           CASE WHEN f.prokind = 'a' THEN oidvectortypes(f.proargtypes) ELSE pg_get_function_arguments(f.oid) END,
                           pg_get_function_result(f.oid),
                           format('BEGIN PERFORM evil.trap(%L); END', 'function ' || f.sig));
        EXCEPTION WHEN OTHERS THEN
            INSERT INTO refused VALUES (f.sig, SQLERRM);
        END;
    END LOOP;
END
\$\$;
SELECT (SELECT count(*) FROM pg_proc WHERE pronamespace = 'evil'::regnamespace AND proname <> 'trap' AND proname !~ '^op[0-9]+\$'),
       (SELECT count(DISTINCT proname) FROM pg_proc WHERE pronamespace = 'evil'::regnamespace AND proname <> 'trap' AND proname !~ '^op[0-9]+\$'),
       (SELECT count(*) FROM refused),
       (SELECT count(*) FROM refused r JOIN pg_proc p ON p.oid::regprocedure::text = r.sig
         WHERE p.pronamespace = 'pg_catalog'::regnamespace
           AND NOT EXISTS (SELECT FROM pg_type t WHERE t.oid = ANY (p.proargtypes::oid[] || p.prorettype) AND t.typtype = 'p'
                             AND t.typname NOT IN ('record', 'void', 'trigger', 'event_trigger')
                             AND t.typname !~ '^any(element|array|nonarray|enum|range|multirange|compatible.*)\$')),
       (SELECT string_agg(sig || ': ' || error, E'\\n') FROM refused)
SQL
	my ($n, $names, $refused, $unexpected, $errors) = split /\|/, $made, 5;
	ok(($n // 0) > 0 && defined $unexpected && $unexpected eq '0',
		"the role defines a function for each signature of each pg_catalog function the script names ("
		  . ($n // 0) . " signatures of " . ($names // 0) . " names; " . ($refused // 0)
		  . " take or return a pseudo-type that PL/pgSQL refuses)")
	  or diag($made);
}
{
	my @calls = (
		"ids.snowflake_shard(ids.snowflake(3))", "ids.snowflake53_shard(ids.snowflake53(3))",
		"ids.snowflake_time(ids.snowflake(3)) IS NOT NULL", "ids.snowflake_seq(9007199263129599)",
		"ids.snowflake_time(9007199263129599, '2020-01-01 00:00:00+00'::pg_catalog.timestamptz)",
		"ids.snowflake53_time(36028797018963968::pg_catalog.int8)", "ids.snowflake53_seq(8388607)",
		"ids.snowflake_boundary('2030-01-01 00:00:00+00'::pg_catalog.timestamptz)",
		"ids.snowflake_boundary('2030-01-01 00:00:00+00'::pg_catalog.timestamptz, 7)",
		"ids.snowflake53_boundary('2030-01-01 00:00:00+00'::pg_catalog.timestamptz, 7, '2020-01-01 00:00:00+00'::pg_catalog.timestamptz)",
		"pg_catalog.set_config('idgen_sql.uuid_v7_tick', '1152921504606840000', false)",
		"pg_catalog.substr(ids.uuid_v7()::pg_catalog.text, 1, 19)", "ids.uuid_v7_time(ids.uuid_v7())",
		"ids.prefixed_id_time(ids.prefixed_id_new('acct'))", "ids.typeid_time(ids.typeid_new('user'))",
		"ids.prefixed_id_prefix(ids.prefixed_id_new('user_session'))", "ids.typeid_prefix(ids.typeid_new(''))",
		"pg_catalog.set_config('idgen_sql.ulid_last', '7fffffffffff0123ffff-fffffffffffe', false)",
		"ids.ulid_to_text(ids.ulid())", "ids.ulid_to_text(ids.ulid())", "ids.ulid_to_text(ids.ulid())",
		"pg_catalog.set_config('idgen_sql.ulid_last', '00000000000001234567-fffffffffffe', false)",
		"ids.ulid_time(ids.ulid()) IS NOT NULL", "ids.ulid_time(ids.ulid_at('2030-01-01 00:00:00+00'::pg_catalog.timestamptz))",
		"ids.uuid_v7_time(ids.uuid_v7('-1 day'::interval)) IS NOT NULL",
		"ids.uuid_v7_time(ids.uuid_v7_at('2030-01-01 00:00:00.123+00'::pg_catalog.timestamptz))",
		"ids.uuid_v7_boundary('2030-01-01 00:00:00.123+00'::pg_catalog.timestamptz)",
		"ids.ulid_boundary('2030-01-01 00:00:00.123+00'::pg_catalog.timestamptz)",
		"ids.ulid_to_text('01890a5d-ac96-774b-bcce-b302099a8057'::pg_catalog.uuid)", "ids.ulid_from_text('01H455VB4PEX5VSKNK084SN02Q')",
		"ids.base36_encode('01890a5d-ac96-774b-bcce-b302099a8057'::pg_catalog.uuid)", "ids.base36_decode('2ovbqn3wwkq1khuw0x5l30lkf')",
		"ids.base36_encode(9007199263129599::pg_catalog.int8)", "ids.base36_decode_bigint('1y2p0ij32e8e7')",
		"ids.prefixed_id_from_uuid('acct', '01890a5d-ac96-774b-bcce-b302099a8057'::pg_catalog.uuid)",
		"ids.prefixed_id_uuid('acct_00bwbqn3wwkq1khuw0x5l30lkf')", "ids.prefixed_id_time('acct_00bwbqn3wwkq1khuw0x5l30lkf')",
		"ids.prefixed_id_boundary('acct', '2030-01-01 00:00:00+00'::pg_catalog.timestamptz)",
		"ids.prefixed_id_prefix(ids.prefixed_id_token('tok'))",
		"ids.typeid_from_uuid('user', '01890a5d-ac96-774b-bcce-b302099a8057'::pg_catalog.uuid)",
		"ids.typeid_uuid('user_01h455vb4pex5vsknk084sn02q')", "ids.typeid_time('user_01h455vb4pex5vsknk084sn02q')",
		"ids.typeid_to_prefixed_id('user_01h455vb4pex5vsknk084sn02q')",
		"ids.typeid_boundary('', '2030-01-01 00:00:00+00'::pg_catalog.timestamptz)",
		"ids.snowflake(8192)", "ids.snowflake53(NULL)", "ids.snowflake_time(5)", "ids.snowflake_shard(9007199254740991)",
		"ids.snowflake_time(5, '1960-01-01 00:00:00+00'::pg_catalog.timestamptz)",
		"ids.snowflake_boundary('infinity'::pg_catalog.timestamptz)", "ids.snowflake53_boundary('2000-01-01 00:00:00+00'::pg_catalog.timestamptz)",
		"ids.snowflake_boundary('2030-01-01 00:00:00+00'::pg_catalog.timestamptz, 8192)",
		"ids.uuid_v7('infinity'::interval)", "ids.uuid_v7_at('infinity'::pg_catalog.timestamptz)",
		"ids.ulid_boundary('10889-08-02 05:31:50.656+00'::pg_catalog.timestamptz)",
		"ids.ulid_from_text('01H455VB4PEX5VSKNK084SN02')", "ids.ulid_from_text('01H455VB4PEX5VSKNK084SN0IQ')",
		"ids.ulid_from_text('81H455VB4PEX5VSKNK084SN02Q')", "ids.ulid_from_text('01H455VB4PEX5VSKNK084SN0!Q')",
		"ids.prefixed_id_new('Acct')", "ids.prefixed_id_new('')", "ids.typeid_new('_x')",
		"'acct_x'::ids.prefixed_id", "'ACCT_0000000000000000000000000'::ids.prefixed_id", "'acct_00000000000000000000000000'::ids.prefixed_id",
		"'acct_0000000000000000000000!00'::ids.prefixed_id", "'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz_0000000000000000000000000'::ids.prefixed_id",
		"'user_8zzzzzzzzzzzzzzzzzzzzzzzzz'::ids.typeid", "'_01h455vb4pex5vsknk084sn02q'::ids.typeid", "'user_01h455vb4pex5vsknk084sn0'::ids.typeid",
		"'user_01h455vb4pex5vsknk084sn0uq'::ids.typeid", "'User_01h455vb4pex5vsknk084sn02q'::ids.typeid",
		"ids.base36_decode('!')", "ids.base36_encode(-1)", "ids.base36_decode_bigint('1y2p0ij32e8e8')", "ids.base36_decode_bigint('!')",
		"ids.typeid_to_prefixed_id('01h455vb4pex5vsknk084sn02q')", "ids.prefixed_id_from_uuid('a_', '01890a5d-ac96-774b-bcce-b302099a8057'::pg_catalog.uuid)",
		"pg_catalog.set_config('idgen_sql.uuid_v6_tick', '1152921504606840000', false)",
		"pg_catalog.substr(ids.uuid_v6()::pg_catalog.text, 1, 19)", "ids.uuid_v6_time(ids.uuid_v6())",
		"ids.uuid_v6_time(ids.uuid_v6_at('2030-01-01 00:00:00.123456+00'::pg_catalog.timestamptz))",
		"ids.uuid_v6_boundary('2030-01-01 00:00:00.123456+00'::pg_catalog.timestamptz)",
		"ids.uuid_v6_from_v1('c232ab00-9414-11ec-b3c8-9f6bdeced846'::pg_catalog.uuid)", "ids.uuid_v1_from_v6('1ec9414c-232a-6b00-b3c8-9f6bdeced846'::pg_catalog.uuid)",
		"ids.uuid_v6_time('c232ab00-9414-11ec-b3c8-9f6bdeced846'::pg_catalog.uuid)", "ids.uuid_v8('\\x00112233445566778899aabbccddeeff'::pg_catalog.bytea)",
		"ids.uuid_v8_sha256('6ba7b810-9dad-11d1-80b4-00c04fd430c8'::pg_catalog.uuid, 'www.example.com'::pg_catalog.text)",
		"ids.uuid_v8_sha256('6ba7b810-9dad-11d1-80b4-00c04fd430c8'::pg_catalog.uuid, '\\x0102'::pg_catalog.bytea)",
		"ids.uuid_v6_from_v1('1ec9414c-232a-6b00-b3c8-9f6bdeced846'::pg_catalog.uuid)", "ids.uuid_v1_from_v6('1ec9414c-232a-6b00-f3c8-9f6bdeced846'::pg_catalog.uuid)",
		"ids.uuid_v8(''::pg_catalog.bytea)", "ids.uuid_v6_at('infinity'::pg_catalog.timestamptz)",
		"pg_catalog.set_config('idgen_sql.ksuid_last', 'fffffffe0123ffffffffffffffffffffffffffff', false)",
		"ids.ksuid_to_text(ids.ksuid())", "ids.ksuid_to_text(ids.ksuid())",
		"ids.ksuid_to_text(ids.ksuid_from_text('0ujtsYcgvSTl8PAuAdqWYSMnLOv'))", "ids.ksuid_time(ids.ksuid_from_text('0ujtsYcgvSTl8PAuAdqWYSMnLOv'))",
		"ids.ksuid_payload(ids.ksuid_from_text('aWgEPTl1tmebfsQzFP4bxwgy80V'))", "ids.ksuid_boundary('2030-01-01 00:00:00+00'::pg_catalog.timestamptz)",
		"ids.ksuid_time(ids.ksuid_at('2030-01-01 00:00:00+00'::pg_catalog.timestamptz))", "ids.ksuid_from_bytea('\\x0102'::pg_catalog.bytea)",
		"ids.ksuid_from_text('0ujtsYcgvSTl8PAuAdqW-SMnLOv')", "ids.ksuid_from_text(E'0ujtsYcgvSTl8\\tAuAdqWYSMnLOv')",
		"ids.ksuid_from_text('aWgEPTl1tmebfsQzFP4bxwgy80W')", "ids.ksuid_from_text('123')", "ids.ksuid_at('infinity'::pg_catalog.timestamptz)",
		"pg_catalog.set_config('idgen_sql.objectid_state', 'fffffff00123456789fffffe000000', false)",
		"ids.objectid_to_text(ids.objectid())", "ids.objectid_to_text(ids.objectid())",
		"pg_catalog.set_config('idgen_sql.xid_state', 'fffffff00123456789fffffe000000', false)",
		"ids.rsxid_to_text(ids.xid())", "ids.rsxid_to_text(ids.xid())",
		"ids.objectid_to_text(ids.objectid_from_text('56E1FC72E0C917E9C4714161'))", "ids.objectid_time(ids.objectid_from_text('56e1fc72e0c917e9c4714161'))",
		"ids.objectid_process(ids.objectid_from_text('56e1fc72e0c917e9c4714161'))", "ids.objectid_counter(ids.objectid_from_text('56e1fc72e0c917e9c4714161'))",
		"ids.objectid_boundary('2030-01-01 00:00:00+00'::pg_catalog.timestamptz)", "ids.objectid_from_bytea('\\x0102'::pg_catalog.bytea)",
		"ids.objectid_from_text('ObjectId(56e1fc72e0c917e9c4714161)')", "ids.objectid_from_text(E'56e1fc72e0c9\\t7e9c4714161')",
		"ids.objectid_from_text('56e1fc72e0c917e9c471416')", "ids.objectid_boundary('1960-01-01 00:00:00+00'::pg_catalog.timestamptz)",
		"ids.rsxid_to_text(ids.rsxid_from_text('9m4e2mr0ui3e8a215n4g'))", "ids.xid_time(ids.rsxid_from_text('9m4e2mr0ui3e8a215n4g'))",
		"ids.xid_machine(ids.rsxid_from_text('9m4e2mr0ui3e8a215n4g'))", "ids.xid_pid(ids.rsxid_from_text('9m4e2mr0ui3e8a215n4g'))",
		"ids.xid_counter(ids.rsxid_from_text('9m4e2mr0ui3e8a215n4g'))", "ids.xid_boundary('2030-01-01 00:00:00+00'::pg_catalog.timestamptz)",
		"ids.xid_boundary('infinity'::pg_catalog.timestamptz)", "ids.rsxid_from_text('9M4e2mr0ui3e8a215n4g')",
		"ids.rsxid_from_text('56e1fc72e0c917e9c4714161')", "ids.rsxid_from_text('9m4e2mr0ui3e8a215n4h')",
		"ids.rsxid_from_bytea('\\x01'::pg_catalog.bytea)");
	my $values = join(', ', map { my $q = "SELECT ($calls[$_])::pg_catalog.text"; "($_, \$q\$$q\$q\$)" } 0 .. $#calls);
	my $run = sub {
		my ($path, $user) = @_;
		return $m->output(
			"CREATE FUNCTION pg_temp.show(q pg_catalog.text) RETURNS pg_catalog.text LANGUAGE plpgsql AS \$\$
			 DECLARE r pg_catalog.text;
			 BEGIN EXECUTE q INTO r; RETURN COALESCE(r, 'NULL');
			 EXCEPTION WHEN OTHERS THEN RETURN pg_catalog.concat_ws(' | ', SQLSTATE, SQLERRM); END \$\$;
			 SET idgen.shard_id = 1; SET TimeZone = 'UTC'; SET search_path = $path;
			 SELECT pg_catalog.string_agg(pg_temp.show(q), E'\\n' ORDER BY n) FROM (VALUES $values) v(n, q)",
			db => 'granted', user => $user);
	};
	my $plain = $run->('public', 'reader');
	my $hostile = $run->('evil, pg_catalog', 'reader');
	my @differ = grep { (split /\n/, $plain)[$_] ne ((split /\n/, $hostile)[$_] // '') } 0 .. $#calls;
	diag("$calls[$_]:\n  ordinary: " . (split /\n/, $plain)[$_] . "\n  hostile:  " . ((split /\n/, $hostile)[$_] // '')) for @differ;
	ok($plain ne '' && !@differ && $plain !~ /hostile/,
		scalar(@calls) . ' calls of the edition give the same results with a hostile schema before pg_catalog in search_path, and use none of its operators, functions, types or relations');
	is( $m->error("SET search_path = evil, pg_catalog; SELECT ids.idgen_sql_snowflake_bind(); SELECT ids.snowflake(1), ids.snowflake53(1)",
			db => 'granted', user => 'installer'),
		'', 'the owner binds the mints with the hostile schema first in its search_path');
}
$m->q('DROP SCHEMA evil CASCADE', db => 'granted');
is( $m->output("SELECT current_setting('shared_preload_libraries') !~ 'idgen', (SELECT count(*) FROM pg_extension WHERE extname = 'idgen')",
		db => 'plain'),
	't|0',
	'idgen is not in shared_preload_libraries, nor created');
{
	# The session stays connected while its backend's mappings are read.
	my $session = $m->background_psql('plain', extra_params => [ '-U', 'reader' ]);
	$session->query_safe(
		"SELECT ids.uuid_v7(), ids.snowflake(1), ids.snowflake53(1), ids.ulid(), ids.prefixed_id_new('acct'), ids.typeid_new('user')");
	my $pid = $session->query_safe('SELECT pg_backend_pid()');
	my $maps = -r "/proc/$pid/maps" ? slurp_file("/proc/$pid/maps") : '';
	ok($maps ne '' && $maps !~ /idgen\.so/, 'a backend that minted every family has no idgen library mapped')
	  or diag($maps eq '' ? "could not read /proc/$pid/maps" : join("\n", grep { /idgen/ } split /\n/, $maps));
	$session->quit;
}
is( $m->output("SELECT count(*) FROM pg_proc p WHERE p.pronamespace = 'ids'::regnamespace AND obj_description(p.oid, 'pg_proc') IS NULL",
		db => 'plain'),
	0,
	'every function of the edition has a comment');
{
	local %ENV = (%ENV, $m->client_env('plain'), PGUSER => 'reader', IDGEN_TYPEID_SPEC => $typeid_spec);
	verdicts('sql_edition_spec', '/usr/bin/python3', "$repo/test/lib/sql_edition_spec.py", 'ids');
}

# SQLSTATEs of bad input (the C++ edition's) beyond the vectors file's cases
my $sqlstate_sql = <<'SQL';
CREATE FUNCTION pg_temp.st(q text) RETURNS text LANGUAGE plpgsql AS $$ BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE; END $$;
SELECT string_agg(pg_temp.st(q), ' ' ORDER BY n) FROM (VALUES
 (1, 'SELECT snowflake(NULL)'), (2, 'SELECT snowflake(8192)'), (3, 'SELECT snowflake53(16)'), (4, 'SELECT snowflake()'),
 (5, 'SELECT snowflake_boundary(''infinity'')'), (6, 'SELECT snowflake_boundary(''2000-01-01'')'),
 (7, 'SELECT uuid_v7_at(''infinity'')'), (8, 'SELECT prefixed_id_new(''Acct'')'), (9, 'SELECT typeid_new(''_x'')'),
 (10, 'SELECT base36_decode(''!'')'), (11, 'SELECT base36_encode(-1::bigint)'),
 (12, 'SELECT base36_decode_bigint(''1y2p0ij32e8e8'')'), (13, 'SELECT typeid_to_prefixed_id(typeid_new(''''))'),
 (14, 'SELECT ulid_at(''infinity'')'), (15, 'SELECT snowflake_boundary(now(), 8192)'),
 (16, 'SELECT snowflake_time(9007199254740992, ''infinity'')'), (17, 'SELECT snowflake_boundary(now(), 1, ''1960-01-01'')')) AS v(n, q)
SQL
my $expected_states =
  '22004 22003 22003 55000 22023 22008 22023 22023 22023 22P02 22003 22003 22023 22023 22003 22023 22023';
{
	local $ENV{PGOPTIONS} = '-c search_path=ids';
	is($m->output($sqlstate_sql, db => 'plain', user => 'reader'),
		$expected_states, "bad input gets the C++ edition's SQLSTATEs");
}

# --- 2. pg_tle ------------------------------------------------------------------
SKIP:
{
	skip "the edition installed by pgtle.install_extension, its checks and its dump: $tle_skip", 1
	  unless $have_tle;
	$m->q('CREATE DATABASE tle OWNER app');
	$m->q('CREATE EXTENSION pg_tle; GRANT pgtle_admin TO app', db => 'tle');
	# each piece as the manual passes it: one psql -v argument
	my @failed;
	for my $piece (@tle_pieces)
	{
		my ($from, $to, $text) = @$piece;
		my $call = defined $from
		  ? "SELECT pgtle.install_update_path('idgen_sql', '$from', '$to', :'content')"
		  : "SELECT pgtle.install_extension('idgen_sql', '$to', 'idgen SQL edition', :'content')";
		my ($status, $stdout, $stderr) = $m->psql('tle', $call, extra_params => [ '-U', 'app', '-v', "content=$text" ]);
		push @failed, "$call: $stderr" if $status != 0;
	}
	my ($status, $stdout, $stderr) =
	  $m->psql('tle', "SELECT pgtle.set_default_version('idgen_sql', '$version')", extra_params => [ '-U', 'app' ]);
	push @failed, "set_default_version: $stderr" if $status != 0;
	ok(!@failed,
		'pgtle.install_extension, install_update_path and set_default_version install the pieces as idgen_sql (role app), default '
		  . $version)
	  or diag(join("\n", @failed));
	doc_blocks($m, 'tle', 'app', 'pg_tle install');
	is($m->output("SELECT extversion FROM pg_extension WHERE extname = 'idgen_sql'", db => 'tle'),
		$version, "CREATE EXTENSION idgen_sql runs the base version and its updates: the extension is at $version");
	is( $m->output(
			"SELECT count(*) FROM pg_proc WHERE pronamespace = 'ids'::regnamespace
			   AND NOT EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
			                    WHERE d.classid = 'pg_proc'::regclass AND d.objid = pg_proc.oid AND e.extname = 'idgen_sql')",
			db => 'tle'),
		0, 'every function in ids belongs to the extension idgen_sql, those of the update too');
	{
		local %ENV = (%ENV, $m->client_env('tle'), PGUSER => 'reader', IDGEN_TYPEID_SPEC => $typeid_spec);
		verdicts('sql_edition_spec_tle', '/usr/bin/python3', "$repo/test/lib/sql_edition_spec.py", 'ids');
	}
	local $ENV{PGOPTIONS} = '-c search_path=ids';
	is($m->output($sqlstate_sql, db => 'tle', user => 'reader'),
		$expected_states, "pg_tle: bad input gets the C++ edition's SQLSTATEs");
}

# --- 3. the function lists of the two editions ------------------------------------
$f->q('CREATE DATABASE diff');
$f->q('CREATE SCHEMA cpp; CREATE EXTENSION idgen SCHEMA cpp; CREATE SCHEMA sqled', db => 'diff');
{
	local $ENV{PGOPTIONS} = '-c search_path=sqled';
	$f->sql_ok($script_text, 'psql -f installs the edition beside the C++ edition (schema sqled)', db => 'diff');
}
my $labels_sql = <<'SQL';
SELECT format('%s(%s) %s%s%s%s', p.proname, replace(replace(pg_get_function_identity_arguments(p.oid), '$1.', ''), '$2.', ''),
       CASE p.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
       CASE WHEN p.proisstrict THEN ' STRICT' ELSE '' END,
       CASE p.proparallel WHEN 's' THEN ' SAFE' WHEN 'r' THEN ' RESTRICTED' ELSE ' UNSAFE' END,
       CASE WHEN obj_description(p.oid, 'pg_proc') IS NULL THEN ' NO-COMMENT' ELSE '' END)
FROM pg_proc p WHERE p.pronamespace = $1::regnamespace AND p.prokind = 'f' AND p.proname !~ '^idgen_sql_' ORDER BY 1
SQL
# and the casts from or to the types of each edition
my $casts_sql = <<'SQL';
SELECT replace(format('cast %s -> %s %s', format_type(castsource, NULL), format_type(casttarget, NULL),
       CASE castcontext WHEN 'i' THEN 'IMPLICIT' WHEN 'a' THEN 'ASSIGNMENT' ELSE 'EXPLICIT' END), $1 || '.', '')
FROM pg_cast WHERE EXISTS (SELECT 1 FROM pg_type t WHERE t.oid IN (castsource, casttarget) AND t.typnamespace = $1::regnamespace) ORDER BY 1
SQL
my %list;
for my $schema (qw(cpp sqled))
{
	{
		local $ENV{PGOPTIONS} = "-c search_path=$schema";
		$list{$schema}{$_} = 1
		  for split /\n/, $f->output("PREPARE l(text) AS $labels_sql;\nEXECUTE l('$schema');", db => 'diff');
	}
	$list{$schema}{$_} = 1
	  for split /\n/, $f->output("PREPARE c(text) AS $casts_sql;\nEXECUTE c('$schema');", db => 'diff');
}
my %diffs = (
	(map { ("only C++: $_" => 1) } grep { !$list{sqled}{$_} } keys %{ $list{cpp} }),
	(map { ("only SQL: $_" => 1) } grep { !$list{cpp}{$_} } keys %{ $list{sqled} }));
my %known = map { ($_ => 1) } grep { $_ ne '' && !/^#/ }
  split /\n/, slurp_file("$repo/test/data/sql_edition_known_diffs.txt");
my @unexpected = sort grep { !$known{$_} } keys %diffs;
my @gone = sort grep { !$diffs{$_} } keys %known;
diag("new difference: $_") for @unexpected;
diag("listed difference no longer seen: $_") for @gone;
ok( !@unexpected && !@gone,
	"the editions' function and cast lists differ only as test/data/sql_edition_known_diffs.txt says ("
	  . scalar(keys %known) . ' lines)');

# idgen_types(): the C++ edition's function, copied by generate.py less the
# rows of types the SQL edition does not create; it creates them all, so
# both name the same types and families (and a domain over one of them).
$f->q('CREATE DOMAIN public.order_ref AS sqled.objectid; CREATE DOMAIN public.order_ref_cpp AS cpp.objectid', db => 'diff');
is( $f->output(
		"SELECT (SELECT string_agg(concat_ws(' ', name, family, base::regtype), ', ' ORDER BY name) FROM sqled.idgen_types()) || ' / '
		     || (SELECT string_agg(concat_ws(' ', name, family, base::regtype), ', ' ORDER BY name) FROM cpp.idgen_types())",
		db => 'diff'),
	join(', ', map { "$_->[0] $_->[1] sqled.$_->[2]" } [ 'ksuid', 'ksuid', 'ksuid' ], [ 'objectid', 'objectid', 'objectid' ],
		[ 'order_ref', 'objectid', 'objectid' ], [ 'prefixed_id', 'prefixed_id', 'prefixed_id' ], [ 'rsxid', 'xid', 'rsxid' ],
		[ 'typeid', 'typeid', 'typeid' ], [ 'ulid', 'ulid', 'ulid' ])
	  . ' / '
	  . join(', ', map { "$_->[0] $_->[1] cpp.$_->[2]" } [ 'ksuid', 'ksuid', 'ksuid' ], [ 'objectid', 'objectid', 'objectid' ],
		[ 'order_ref_cpp', 'objectid', 'objectid' ], [ 'prefixed_id', 'prefixed_id', 'prefixed_id' ], [ 'rsxid', 'xid', 'rsxid' ],
		[ 'typeid', 'typeid', 'typeid' ], [ 'ulid', 'ulid', 'ulid' ]),
	"idgen_types() of the SQL edition names its six types, objectid and rsxid among them, and a domain over one, as the C++ edition's names its own");
$f->q('DROP DOMAIN public.order_ref, public.order_ref_cpp', db => 'diff');

# --- 3b. refusals: the same SQLSTATE, message, detail and hint in both editions ---
# Each query of test/data/sql_edition_refusals.tsv runs once with @ as cpp.
# and once as sqled.; a difference, or a query that either edition accepts,
# is printed.
my @refusals = map { [ split /\t/, $_, 2 ] } grep { /^[0-9]+\t/ }
  split /\n/, slurp_file("$repo/test/data/sql_edition_refusals.tsv");
my $refusal_values = join(",\n  ", map { "($_->[0], \$q\$$_->[1]\$q\$)" } @refusals);
my $parity_sql = <<"SQL";
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS \$\$
DECLARE st text; m text; d text; h text;
BEGIN EXECUTE q; RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
    RETURN concat_ws(' | ', st, m, d, h); END \$\$;
SET TimeZone = 'UTC'; SET idgen.allowed_shards = '0-8191';
SELECT n || ': ' || q || E'\\n  C++: ' || c || E'\\n  SQL: ' || s FROM (
  SELECT n, q, pg_temp.err(replace(q, '\@', 'cpp.')) c, pg_temp.err(replace(q, '\@', 'sqled.')) s FROM (VALUES
  $refusal_values) v(n, q)) r
WHERE c IS DISTINCT FROM s OR c = 'accepted' ORDER BY n
SQL
my ($parity_status, $parity, $parity_err) = $f->run_sql($parity_sql, db => 'diff');
$parity .= $parity_err;
diag($parity) if $parity ne '';
is($parity, '',
	scalar(@refusals) . ' refusals (snowflake IDs of the other family, epochs, boundaries, shards, prefixes, base36, short text): same SQLSTATE, message, detail and hint in both editions'
);

# pg_temp.err(q): the value of query q as text ("accepted VALUE"), or its
# refusal: SQLSTATE, message, detail and hint.
my $value_or_refusal = <<'SQL';
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE st text; m text; d text; h text; r text;
BEGIN EXECUTE q INTO r; RETURN 'accepted ' || r;
EXCEPTION WHEN OTHERS THEN GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
    RETURN concat_ws(' | ', st, m, d, h); END $$;
SQL

# texts_alike LIST, CPP, SQL, NAME [from => ..., label => ..., order => ..., setup => ...]:
# one check that each text t of LIST gets the same value or refusal in both
# editions, CPP and SQL being the expressions (of t, and of the columns that
# from adds) that give the query to run in each; a difference is printed.
sub texts_alike
{
	my ($list, $cpp, $sql, $name, %opt) = @_;
	my $values = join(",\n  ", map { "(\$k\$$list->[$_]\$k\$, $_)" } 0 .. $#$list);
	my ($label, $order) = ($opt{label} // 'n', $opt{order} // 'n');
	my ($from, $setup) = ($opt{from} // '', $opt{setup} // '');
	my ($status, $diff, $err) = $f->run_sql(<<"SQL", db => 'diff');
${value_or_refusal}${setup}SELECT $label || ': ' || quote_literal(t) || E'\\n  C++: ' || c || E'\\n  SQL: ' || s FROM (
  SELECT *, pg_temp.err($cpp) c, pg_temp.err($sql) s
  FROM (VALUES
  $values) v(t, n)$from) r
WHERE c IS DISTINCT FROM s ORDER BY $order
SQL
	$diff .= $err;
	diag($diff) if $diff ne '';
	is($diff, '', scalar(@$list) . " texts$name");
}

# KSUID, ObjectId and XID text is read by the SQL edition's ksuid_from_text(),
# objectid_from_text() and rsxid_from_text(), and by the C++ edition's type
# input: the same refusals (a character outside the alphabet first, control
# characters as codes, the hints: for 27 bytes, for MongoDB's wrappings, for
# uppercase XID text, for an ObjectId given as an XID; then the length; then a
# value above 2^160 - 1 or an XID's last character), and the same value for
# the edges.
my %texts = (
	ksuid => [
		'', '123', '0ujtsYcgvSTl8PAuAdqWYSMnLO', '0ujtsYcgvSTl8PAuAdqWYSMnLOvX', '0ujtsYcgvSTl8PAuAdqW-SMnLOv',
		' 0ujtsYcgvSTl8PAuAdqWYSMnLOv', '0ujtsYcgvSTl8PAuAdqWYSMnLOv ', "0ujtsYcgvSTl8\tAuAdqWYSMnLOv", "0ujtsYcgvSTl8\x7fAuAdqWYSMnLOv",
		"\x01", '0ujtsYcgvSTl8PAuAdqW+SMnLO', '01890a5d-ac96-774b-bcce-b302099a8057', 'aWgEPTl1tmebfsQzFP4bxwgy80!',
		"0000000000000000000000000\xc3\xa9", "00000000000000000000000000\xc3\xa9", "\xc3\xa9", 'aWgEPTl1tmebfsQzFP4bxwgy80W',
		'aaaaaaaaaaaaaaaaaaaaaaaaaaa', 'zzzzzzzzzzzzzzzzzzzzzzzzzzz', 'b00000000000000000000000000', '00000000000000000000000000-',
		'aWgEPTl1tmebfsQzFP4bxwgy80V', '000000000000000000000000000', '0ujtsYcgvSTl8PAuAdqWYSMnLOv'
	],
	objectid => [
		'', '5', '56e1fc72e0c917e9c471416', '56e1fc72e0c917e9c47141610', '56E1FC72E0C917E9C4714161', '56e1fc72e0c917e9c4714161',
		'ffffffffffffffffffffffff', '000000000000000000000000', 'ObjectId("56e1fc72e0c917e9c4714161")',
		'{"$oid": "56e1fc72e0c917e9c4714161"}', '{"$oid":"x"}', '56e1fc72e0c917e9c471416g', ' 56e1fc72e0c917e9c4714161',
		"56e1fc72e0c917e9c471416\t", "56e1fc72e0c9\x7f7e9c4714161", "56e1fc72e0c917e9c471416\xc3\xa9", "\xc3\xa9",
		'0x56e1fc72e0c917e9c47141', '56e1fc72-e0c9-17e9-c471-4161', '9m4e2mr0ui3e8a215n4g'
	],
	rsxid => [
		'', '9', '9m4e2mr0ui3e8a215n4', '9m4e2mr0ui3e8a215n4g0', '9m4e2mr0ui3e8a215n4g', '9m4e2mr0ui3e8a215n4h',
		'00000000000000000001', '0000000000000000000g', 'vvvvvvvvvvvvvvvvvvvg', 'vvvvvvvvvvvvvvvvvvvv', '9M4E2MR0UI3E8A215N4G',
		'9m4e2mr0ui3e8a215n4W', '9m4e2mr0ui3e8a215n4w', '9m4e2mr0ui3e8a215n4-', "9m4e2mr0ui\t3e8a215n4g", "9m4e2mr0ui3e8a215n4\x7f",
		"9m4e2mr0ui3e8a215n\xc3\xa9", '56e1fc72e0c917e9c4714161', '56e1fc72e0c917e9c471416v', '56E1FC72E0C917E9C4714161',
		'9m4e2mr0ui3e8a215n4g '
	]);
for my $type (qw(ksuid objectid rsxid))
{
	texts_alike($texts{$type}, "format('SELECT %L::cpp.${type}::bytea', t)", "format('SELECT sqled.${type}_from_text(%L)::bytea', t)",
		" for $type: ${type}_from_text() refuses each as the C++ edition's $type input (SQLSTATE, message, detail, hint) or reads the same bytes");
}

# Short text: every form's decoder, in both editions, refuses each text alike
# or reads the same uuid (a character outside the alphabet first, control
# characters as codes, then the length, then a value above 2^128 - 1, then a
# base64url last character with its zero bits set), under the form's name in
# any case; an unknown form is 22023 in both.
{
	my @list = (
		'', '1', '1nYxhRwtvqPK4tetBtfeay', '1nYxhRwtvqPK4tetBtfea', '1nYxhRwtvqPK4tetBtfeayy', 'zzzzzzzzzzzzzzzzzzzzzz',
		'ZZZZZZZZZZZZZZZZZZZZZZ', '1nYxhRwtvqPK4tetBtfe-y', "1nYxhRwtvq\tK4tetBtfeay", "1nYxhRwtvq\x7fK4tetBtfeay",
		"1nYxhRwtvqPK4tetBtfea\xc3\xa9", "\xc3\xa9", 'Ox-LQCIsSm63fnedWpTiHA', 'Ox-LQCIsSm63fnedWpTiHB', 'Ox-LQCIsSm63fnedWpTiH_',
		'Ox+LQCIsSm63fnedWpTiHA', 'Ox-LQCIsSm63fnedWpTiHA==', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '01arz3ndektsv4rrffq69g5fav',
		'81ARZ3NDEKTSV4RRFFQ69G5FAV', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '01ARZ3NDEKTSV4RRFFQ69G5FAI', '01ARZ3NDEKTSV4RRFFQ69G5FAU',
		'CXc85b4rqinB7s5J52TRYb', 'CXc85b4rqinB7s5J52TRY0', 'CXc85b4rqinB7s5J52TRYl', 'oZEq7ovRbLq6UnGMPwc8B5', 'oZEq7ovRbLq6UnGMPwc8B6',
		'JPwcyDCgEup7hErkTV2Vak', 'JPwcyDCgEup7hErkTV2Val', '11111111111111111111111', ' 1nYxhRwtvqPK4tetBtfeay',
		'1nYxhRwtvqPK4tetBtfeay ', "\x01", '0');
	texts_alike(\@list, "format('SELECT cpp.%s(%L, %L)::uuid', fn, t, f)", "format('SELECT sqled.%s(%L, %L)::uuid', fn, t, f)",
		' in 10 form names: uuid_decode() and ulid_decode() refuse each alike in both editions (SQLSTATE, message, detail, hint) or read the same uuid',
		from => ", unnest('{base62,base58,flickr,base57,base64url,base32,BASE64URL,Base32,base63,\"base 62\"}'::text[]) f,\n       unnest('{uuid_decode,ulid_decode}'::text[]) fn",
		label => "n || ' ' || fn || ' ' || f", order => 'n, f, fn');
}

# Push IDs: push_id_time() refuses each text alike in both editions (a
# character outside the alphabet first, control characters as codes, then the
# length) or reads the same time, and push_id_is_valid() agrees.
{
	my @list = (
		'', '-', '-M7Wk5f1AbCdEfGh1234', '-M7Wk5f1AbCdEfGh123', '-M7Wk5f1AbCdEfGh12345', 'zzzzzzzzzzzzzzzzzzzz',
		'--------------------', '-M7Wk5f1AbCdEfGh123+', "-M7Wk5f1Ab\tdEfGh1234", "-M7Wk5f1Ab\x7fdEfGh1234",
		"-M7Wk5f1AbCdEfGh123\xc3\xa9", "\xc3\xa9", ' -M7Wk5f1AbCdEfGh1234', '-M7Wk5f1AbCdEfGh1234 ', "\x01",
		'-M7Wk5f1AbCdEfGh12.4', '01ARZ3NDEKTSV4RRFFQ6');
	texts_alike(\@list, "format('SELECT cpp.push_id_time(%L) || %L || cpp.push_id_is_valid(%L)', t, ' ', t)",
		"format('SELECT sqled.push_id_time(%L) || %L || sqled.push_id_is_valid(%L)', t, ' ', t)",
		': push_id_time() refuses each alike in both editions (SQLSTATE, message, detail, hint) or reads the same time, and push_id_is_valid() agrees',
		setup => "SET TimeZone = 'UTC';\n");
}

# Sqids: the strict, lenient and one-number decoders refuse each text alike
# in both editions (an empty code, a byte outside the alphabet, no numbers, a
# code that is not canonical, a number above 2^63 - 1, more numbers than one)
# or read the same numbers, under the default options and a short alphabet
# with a minimum length.
{
	my @list = (
		'', '8', '86Rf07', '86Rf07x', 'Uk', 'bM', 'gA', "86R\tf07", "86Rf0\xc3\xa9", '86Rf0-', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
		'zzzzzzzzzzzz', 'ZZZZZZZZZZZZZZZZ', 'SvIzsqYMyQwI3GWgJAe17URxX8V924Co0DaTZLtFjHriEn5bPhcSkfmvOslpR', '0', 'xyzxyz', 'yxzzyx');
	texts_alike(\@list, "format('SELECT cpp.%s(%L%s)::text', fn, t, o)", "format('SELECT sqled.%s(%L%s)::text', fn, t, o)",
		' under 2 option sets: sqids_decode(), sqids_decode_one() and sqids_decode_lenient() refuse each alike in both editions (SQLSTATE, message, detail, hint) or read the same numbers',
		from => ", unnest('{sqids_decode,sqids_decode_one,sqids_decode_lenient}'::text[]) fn, unnest(ARRAY['', ', ''xyz'', 6']) o",
		label => "n || ' ' || fn || o", order => 'n, fn, o');
}

# --- 3c. the vectors file ---------------------------------------------------------------
# Every case of test/data/id_vectors.json, read when the test runs, through
# the entry points each family has (test/lib/sql_edition_vectors.py): the
# file's answers, and its refused inputs refused as the C++ edition refuses
# them; one verdict a family.
{
	local %ENV = (%ENV, $f->client_env('diff'));
	verdicts('sql_edition_vectors', '/usr/bin/python3', "$repo/test/lib/sql_edition_vectors.py", 'check', 'sqled', 'cpp');
}

# --- 4. differential test -----------------------------------------------------------
# Set-based, in database diff of F where both editions are installed: each
# family's values are minted half by each edition into a temporary table, then
# one aggregate per family decodes every row with both editions and counts the
# rows where they disagree or a decoder gives NULL (and checks that minted
# values are distinct). Two sessions run the families in two groups at once.
# Sizes: SQLED_DIFF_N values per family (default 200000); SQLED_DIFF_N_TEXT
# (default SQLED_DIFF_N) for prefixed_id, typeid and base36, whose SQL-edition
# encoders and decoders are the slowest (docs/managed-postgresql.md); the
# boundaries get a tenth of SQLED_DIFF_N.
# ulid text goes both ways by direction: the SQL edition's text of its own
# IDs is read by the C++ edition, the C++ edition's text of its IDs by the SQL
# edition. The explicit-epoch snowflake decoders run on every tenth row, the
# *_time decoders of prefixed_id and typeid and the typeid -> prefixed_id
# conversion on every tenth row, the uuid base36 encoders on every fourth.
# Snowflakes are distinct per edition: the two editions share no counter, so
# on one shard in one millisecond they may mint the same ID (as two servers
# would; the shard claims guard against that), which the bash original
# counted as a duplicate (seen at SQLED_DIFF_N=10000, in 2 runs of 3).
my $half = int($diff_n / 2);
my $half_text = int($diff_n_text / 2);
my $tenth = int($diff_n / 10);
my $diff_setup = "SET idgen.allowed_shards = '0-8191'; SET search_path = pg_catalog; SET work_mem = '256MB';";
my $diff_group_a = <<"SQL";
$diff_setup
CREATE TEMP TABLE u7 AS SELECT sqled.uuid_v7() AS u FROM generate_series(1, $half) UNION ALL SELECT cpp.uuid_v7() FROM generate_series(1, $half);
SELECT 'uuid_v7', count(*), count(DISTINCT u) = count(*) AND count(*) FILTER (WHERE (sqled.uuid_v7_time(u) IS DISTINCT FROM cpp.uuid_v7_time(u) OR cpp.uuid_v7_time(u) IS NULL) IS NOT FALSE) = 0 FROM u7;
DROP TABLE u7;
CREATE TEMP TABLE u6 AS SELECT g, true AS by_sql, sqled.uuid_v6() AS u FROM generate_series(1, $half) g UNION ALL SELECT g, false, cpp.uuid_v6() FROM generate_series(1, $half) g;
SELECT 'uuid_v6', count(*), count(DISTINCT u) = count(*) AND count(*) FILTER (WHERE (coalesce(u <= prev, false) OR substr(u::text, 15, 1) <> '6' OR substr(u::text, 20, 1) NOT IN ('8', '9', 'a', 'b')
    OR get_byte(uuid_send(u), 10) & 1 <> 1 OR sqled.uuid_v6_time(u) <> cpp.uuid_v6_time(u) OR cpp.uuid_v6_time(u) IS NULL
    OR sqled.uuid_v1_from_v6(u) <> c.v1 OR sqled.uuid_v6_from_v1(c.v1) <> u OR sqled.uuid_v6_time(c.v1) <> cpp.uuid_v6_time(u)
    OR (g % 10 = 0 AND (sqled.uuid_v8(substr(uuid_send(u) || uuid_send(prev), 3, 16)) <> cpp.uuid_v8(substr(uuid_send(u) || uuid_send(prev), 3, 16))
        OR sqled.uuid_v8_sha256(prev, g || U&'\\00e9' || u) <> cpp.uuid_v8_sha256(prev, g || U&'\\00e9' || u)
        OR sqled.uuid_v8_sha256(u, uuid_send(prev)) <> cpp.uuid_v8_sha256(u, uuid_send(prev))))) IS NOT FALSE AND prev IS NOT NULL) = 0
  FROM (SELECT *, lag(u) OVER (PARTITION BY by_sql ORDER BY g) AS prev FROM u6) s, LATERAL (SELECT cpp.uuid_v1_from_v6(u) AS v1) c;
DROP TABLE u6;
CREATE TEMP TABLE ul AS SELECT true AS by_sql, u::uuid AS u, sqled.ulid_to_text(u) AS t FROM (SELECT sqled.ulid() AS u FROM generate_series(1, $half)) s
  UNION ALL SELECT false, u::uuid, u::text FROM (SELECT cpp.ulid() AS u FROM generate_series(1, $half)) s;
SELECT 'ulid', count(*), count(DISTINCT u) = count(*) AND count(*) FILTER (WHERE ((t::cpp.ulid)::uuid <> u OR (t::cpp.ulid)::text <> t
    OR (NOT by_sql AND sqled.ulid_from_text(t) <> u) OR sqled.ulid_time(u) <> cpp.ulid_time(u::cpp.ulid)) IS NOT FALSE) = 0 FROM ul;
DROP TABLE ul;
CREATE TEMP TABLE ti AS SELECT g, sqled.typeid_new('user')::text AS t FROM generate_series(1, $half_text) g
  UNION ALL SELECT g, cpp.typeid_new('')::text FROM generate_series(1, $half_text / 10) g
  UNION ALL SELECT g, cpp.typeid_new('user_session')::text FROM generate_series(1, $half_text - $half_text / 10) g;
SELECT 'typeid', count(*), count(DISTINCT t) = count(*) AND count(*) FILTER (WHERE (c.i::text <> t OR sqled.typeid_uuid(t) <> c.u
    OR sqled.typeid_prefix(t) <> cpp.typeid_prefix(c.i) OR sqled.typeid_from_uuid(cpp.typeid_prefix(c.i), c.u)::text <> t
    OR (g % 10 = 0 AND sqled.typeid_time(t) IS DISTINCT FROM cpp.typeid_time(c.i))
    OR (g % 10 = 0 AND cpp.typeid_prefix(c.i) <> '' AND sqled.typeid_to_prefixed_id(t)::text <> (c.i::cpp.prefixed_id)::text)) IS NOT FALSE) = 0
  FROM ti, LATERAL (SELECT t::cpp.typeid AS i, cpp.typeid_uuid(t::cpp.typeid) AS u) c;
DROP TABLE ti;
SELECT 'base36', count(*), count(*) FILTER (WHERE (sqled.base36_encode(x) <> cpp.base36_encode(x) OR sqled.base36_decode_bigint(cpp.base36_encode(x)) <> x
    OR (g % 4 = 0 AND (sqled.base36_encode(u) <> cpp.base36_encode(u) OR sqled.base36_decode(upper(cpp.base36_encode(u))) <> u))) IS NOT FALSE) = 0
  FROM (SELECT g, (random() * 9223372036854775807)::bigint >> (g % 63) x, gen_random_uuid() u FROM generate_series(1, $diff_n_text) g) s;
SQL
# objectid and rsxid: minted by both editions and random bytes, decoded by
# both; each SQL-edition ID has the session's process bytes of the one before
# and its counter + 1 (mod 2^24), in a second not below it; text both ways on
# a quarter and on the random values (ObjectId text in uppercase too).
for my $id96 ([ 'objectid', 'objectid', 'objectid', 'objectid_process' ], [ 'xid', 'rsxid', 'xid', 'xid_machine, xid_pid' ])
{
	my ($family, $type, $decoder, $fields) = @$id96;
	my $mismatch = join(' OR ', map { "sqled.$_(b) <> cpp.$_(c.i)" } "${decoder}_time", "${decoder}_counter", split(/, /, $fields));
	my $upper = $type eq 'objectid' ? " OR sqled.objectid_from_text(upper(c.i::text))::bytea <> b" : '';
	$diff_group_a .= <<"SQL";
CREATE TEMP TABLE t_$family AS SELECT g, true AS by_sql, sqled.$family()::bytea AS b FROM generate_series(1, $half) g
  UNION ALL SELECT g, false, cpp.$family()::bytea FROM generate_series(1, $half) g
  UNION ALL SELECT g, NULL, substr(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), 1 + g % 13, 12) FROM generate_series(1, $tenth) g;
SELECT '$family', count(*), count(DISTINCT b) = count(*) AND count(*) FILTER (WHERE ($mismatch
    OR (coalesce(by_sql, false) AND (substr(b, 5, 5) <> substr(prev, 5, 5) OR sqled.${decoder}_counter(b) <> (sqled.${decoder}_counter(prev) + 1) % 16777216
        OR sqled.${decoder}_time(b) < sqled.${decoder}_time(prev)))
    OR sqled.${type}_to_bytea(b) <> c.i::bytea OR sqled.${type}_from_bytea(b)::bytea <> b
    OR ((g % 4 = 0 OR by_sql IS NULL) AND (sqled.${type}_to_text(b) <> c.i::text OR sqled.${type}_from_text(c.i::text)::bytea <> b$upper))) IS NOT FALSE
    AND (prev IS NOT NULL OR by_sql IS NULL)) = 0
  FROM (SELECT *, CASE WHEN by_sql IS NOT NULL THEN lag(b) OVER (PARTITION BY by_sql ORDER BY g) END AS prev FROM t_$family) s,
       LATERAL (SELECT cpp.${type}_from_bytea(b) AS i) c;
DROP TABLE t_$family;
SQL
}
my $diff_group_b = <<"SQL";
$diff_setup
CREATE TEMP TABLE sf AS SELECT g, true AS by_sql, sqled.snowflake(g % 8192) AS id FROM generate_series(1, $half) g UNION ALL SELECT g, false, cpp.snowflake(g % 8192) FROM generate_series(1, $half) g;
SELECT 'snowflake', count(*), count(DISTINCT (by_sql, id)) = count(*) AND count(*) FILTER (WHERE (sqled.snowflake_time(id) <> cpp.snowflake_time(id) OR sqled.snowflake_shard(id) <> cpp.snowflake_shard(id)
    OR cpp.snowflake_shard(id) <> g % 8192 OR sqled.snowflake_seq(id) <> cpp.snowflake_seq(id)
    OR (g % 10 = 0 AND sqled.snowflake_time(id, '2024-01-01+00') <> cpp.snowflake_time(id, '2024-01-01+00'))) IS NOT FALSE) = 0 FROM sf;
DROP TABLE sf;
CREATE TEMP TABLE sf53 AS SELECT g, true AS by_sql, sqled.snowflake53(g % 16) AS id FROM generate_series(1, $half) g UNION ALL SELECT g, false, cpp.snowflake53(g % 16) FROM generate_series(1, $half) g;
SELECT 'snowflake53', count(*), count(DISTINCT (by_sql, id)) = count(*) AND count(*) FILTER (WHERE (sqled.snowflake53_time(id) <> cpp.snowflake53_time(id) OR sqled.snowflake53_shard(id) <> cpp.snowflake53_shard(id)
    OR cpp.snowflake53_shard(id) <> g % 16 OR sqled.snowflake53_seq(id) <> cpp.snowflake53_seq(id)
    OR (g % 10 = 0 AND sqled.snowflake53_time(id, '2024-01-01+00') <> cpp.snowflake53_time(id, '2024-01-01+00'))) IS NOT FALSE) = 0 FROM sf53;
DROP TABLE sf53;
CREATE TEMP TABLE px AS SELECT g, sqled.prefixed_id_new('acct')::text AS t FROM generate_series(1, $half_text) g
  UNION ALL SELECT g, cpp.prefixed_id_new('user_session')::text FROM generate_series(1, $half_text - $half_text / 10) g
  UNION ALL SELECT g, cpp.prefixed_id_token('tok')::text FROM generate_series(1, $half_text / 10) g;
SELECT 'prefixed_id', count(*), count(DISTINCT t) = count(*) AND count(*) FILTER (WHERE (c.p::text <> t OR sqled.prefixed_id_uuid(t) <> c.u
    OR sqled.prefixed_id_prefix(t) <> cpp.prefixed_id_prefix(c.p) OR sqled.prefixed_id_from_uuid(cpp.prefixed_id_prefix(c.p), c.u)::text <> t
    OR (g % 10 = 0 AND sqled.prefixed_id_time(t) IS DISTINCT FROM cpp.prefixed_id_time(c.p))) IS NOT FALSE) = 0
  FROM px, LATERAL (SELECT t::cpp.prefixed_id AS p, cpp.prefixed_id_uuid(t::cpp.prefixed_id) AS u) c;
DROP TABLE px;
CREATE TEMP TABLE ks AS SELECT g, true AS by_sql, sqled.ksuid()::bytea AS b FROM generate_series(1, $half) g
  UNION ALL SELECT g, false, cpp.ksuid()::bytea FROM generate_series(1, $half) g
  UNION ALL SELECT g, NULL, substr(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), 1 + g % 13, 20) FROM generate_series(1, $tenth) g;
SELECT 'ksuid', count(*), count(DISTINCT b) = count(*) AND count(*) FILTER (WHERE (coalesce(b <= prev, false) OR sqled.ksuid_time(b) <> cpp.ksuid_time(c.k)
    OR sqled.ksuid_payload(b) <> cpp.ksuid_payload(c.k) OR sqled.ksuid_to_bytea(b) <> c.k::bytea OR sqled.ksuid_from_bytea(b)::bytea <> b
    OR ((g % 4 = 0 OR by_sql IS NULL) AND (sqled.ksuid_to_text(b) <> c.k::text OR sqled.ksuid_from_text(c.k::text)::bytea <> b))) IS NOT FALSE
    AND (prev IS NOT NULL OR by_sql IS NULL)) = 0
  FROM (SELECT *, CASE WHEN by_sql IS NOT NULL THEN lag(b) OVER (PARTITION BY by_sql ORDER BY g) END AS prev FROM ks) s, LATERAL (SELECT cpp.ksuid_from_bytea(b) AS k) c;
DROP TABLE ks;
SELECT 'uuid_v6_ksuid_boundary', count(*), count(*) FILTER (WHERE (sqled.uuid_v6_boundary(t) <> cpp.uuid_v6_boundary(t) OR sqled.uuid_v6_time(sqled.uuid_v6_boundary(t)) <> t
    OR sqled.uuid_v6_time(sqled.uuid_v6_at(t)) <> t OR sqled.ksuid_boundary(t)::bytea <> cpp.ksuid_boundary(t)::bytea
    OR sqled.ksuid_time(sqled.ksuid_at(t)) <> cpp.ksuid_time(cpp.ksuid_at(t))) IS NOT FALSE) = 0
  FROM (SELECT timestamptz '2014-05-13 16:53:20+00' + random() * interval '136 years' t FROM generate_series(1, $tenth)) s;
SELECT 'id96_boundary', count(*), count(*) FILTER (WHERE (sqled.objectid_boundary(t)::bytea <> cpp.objectid_boundary(t)::bytea
    OR sqled.xid_boundary(t)::bytea <> cpp.xid_boundary(t)::bytea OR sqled.objectid_time(sqled.objectid_boundary(t)) <> date_trunc('second', t, 'UTC')
    OR sqled.xid_time(sqled.xid_boundary(t)) <> date_trunc('second', t, 'UTC')) IS NOT FALSE) = 0
  FROM (SELECT timestamptz '1970-01-01 00:00:00+00' + random() * interval '136 years' t FROM generate_series(1, $tenth)) s;
SELECT 'short_text', count(*), count(*) FILTER (WHERE (sqled.uuid_encode(u, f) <> cpp.uuid_encode(u, f) OR sqled.uuid_decode(cpp.uuid_encode(u, f), upper(f)) <> u
    OR (g % 4 = 0 AND (sqled.ulid_encode(u::sqled.ulid, f) <> cpp.ulid_encode(u::cpp.ulid, f) OR sqled.ulid_decode(cpp.uuid_encode(u, f), f)::uuid <> u))) IS NOT FALSE) = 0
  FROM (SELECT g, gen_random_uuid() u FROM generate_series(1, $tenth) g) s, unnest('{base62,base58,flickr,base57,base64url,base32}'::text[]) f;
SELECT 'nanoid', count(*), count(DISTINCT v) FILTER (WHERE k = 0) = count(*) FILTER (WHERE k = 0) AND count(*) FILTER (WHERE (NOT cpp.nanoid_is_valid(v, sz, al)
    OR NOT sqled.nanoid_is_valid(v, sz, al) OR char_length(v) <> sz OR sqled.nanoid_is_valid(v || substr(al, 1, 1), sz, al)) IS NOT FALSE) = 0
  FROM (SELECT k, sz, al, CASE WHEN k = 0 THEN sqled.nanoid() ELSE sqled.nanoid(sz, al) END v
        FROM generate_series(1, $tenth) g, (VALUES (0, 21, 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict'), (1, 12, '0123456789'),
                                                  (2, 30, '01'), (3, 8, chr(945) || chr(946) || chr(947)), (4, 5, (SELECT string_agg(chr(c), '') FROM generate_series(256, 511) c))) a(k, sz, al)) s;
SELECT 'nanoid_uniform', count(*), max(abs(n - e) / sqrt(e)) < 6
  FROM (SELECT al, ch, count(*) n, sum(count(*)) OVER (PARTITION BY al) / length(al) e
        FROM (SELECT al, regexp_split_to_table(sqled.nanoid(21, al), '') ch
              FROM generate_series(1, $tenth) g, unnest('{useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict,0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz,0123456789}'::text[]) al) c
        GROUP BY al, ch) f;
CREATE TEMP TABLE tf AS SELECT g, true AS by_sql, sqled.timeflake() AS u FROM generate_series(1, $half) g
  UNION ALL SELECT g, false, cpp.timeflake() FROM generate_series(1, $half) g
  UNION ALL SELECT g, NULL, gen_random_uuid() FROM generate_series(1, $tenth) g;
SELECT 'timeflake', count(*), count(DISTINCT u) = count(*) AND count(*) FILTER (WHERE (coalesce(u <= prev, false)
    OR sqled.timeflake_time(u) <> cpp.timeflake_time(u) OR sqled.timeflake_random(u) <> cpp.timeflake_random(u)
    OR (by_sql IS NOT NULL AND abs(extract(epoch FROM sqled.timeflake_time(u) - now())) > 3600)) IS NOT FALSE
    AND (prev IS NOT NULL OR by_sql IS NULL)) = 0
  FROM (SELECT *, CASE WHEN by_sql IS NOT NULL THEN lag(u) OVER (PARTITION BY by_sql ORDER BY g) END AS prev FROM tf) s;
DROP TABLE tf;
CREATE TEMP TABLE pi AS SELECT g, true AS by_sql, sqled.push_id() AS p FROM generate_series(1, $half) g
  UNION ALL SELECT g, false, cpp.push_id() FROM generate_series(1, $half) g
  UNION ALL SELECT g, NULL, cpp.nanoid(20, '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz') FROM generate_series(1, $tenth) g;
SELECT 'push_id', count(*), count(DISTINCT p) = count(*) AND count(*) FILTER (WHERE (coalesce(p COLLATE "C" <= prev, false)
    OR sqled.push_id_time(p) <> cpp.push_id_time(p) OR NOT sqled.push_id_is_valid(p) OR NOT cpp.push_id_is_valid(p)
    OR (g % 4 = 0 AND (sqled.push_id_is_valid(p || '-') OR sqled.push_id_is_valid(substr(p, 2))))
    OR (by_sql IS NOT NULL AND abs(extract(epoch FROM sqled.push_id_time(p) - now())) > 3600)) IS NOT FALSE
    AND (prev IS NOT NULL OR by_sql IS NULL)) = 0
  FROM (SELECT *, CASE WHEN by_sql IS NOT NULL THEN lag(p) OVER (PARTITION BY by_sql ORDER BY g) END AS prev FROM pi) s;
DROP TABLE pi;
SELECT 'timeflake_boundary', count(*), count(*) FILTER (WHERE (sqled.timeflake_boundary(t) <> cpp.timeflake_boundary(t)
    OR sqled.timeflake_time(sqled.timeflake_at(t)) <> cpp.timeflake_time(cpp.timeflake_at(t))
    OR sqled.timeflake_time(sqled.timeflake_boundary(t)) <> date_trunc('milliseconds', t)) IS NOT FALSE) = 0
  FROM (SELECT timestamptz '1970-01-01 00:00:00+00' + random() * interval '100 years' t FROM generate_series(1, $tenth)) s;
CREATE TEMP TABLE c2 AS SELECT g, len, sqled.cuid2(len) AS c FROM generate_series(1, $tenth / 2) g, (VALUES (24), (32)) l(len);
SELECT 'cuid2', count(*), count(DISTINCT c) = count(*) AND count(*) FILTER (WHERE (NOT cpp.cuid2_is_valid(c, len) OR NOT sqled.cuid2_is_valid(c, len)
    OR NOT cpp.cuid2_is_valid(c) OR char_length(c) <> len OR (g % 4 = 0 AND sqled.cuid2_is_valid(c, len - 1))) IS NOT FALSE) = 0 FROM c2;
SELECT 'cuid2_first_letter', count(*), max(abs(n - e) / sqrt(e)) < 6
  FROM (SELECT left(c, 1), count(*) n, sum(count(*)) OVER () / 26 e FROM c2 GROUP BY 1) f;
DROP TABLE c2;
CREATE TEMP TABLE sq AS SELECT g, a, al, ml, bl, cpp.sqids_encode(a, al, ml, bl) AS code
  FROM (SELECT g, ARRAY(SELECT (random() * 9223372036854775807)::bigint >> (g * k % 63) FROM generate_series(1, 1 + g % 4) k) a,
               (ARRAY['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', '0123456789abcdef', 'xyz', '!#$%&()*+,-./:;<=>?@[]^_{|}~'])[1 + g % 4] al,
               (ARRAY[0, 12, 5, 40])[1 + g / 4 % 4] ml, CASE WHEN g % 3 = 0 THEN '{}'::text[] WHEN g % 3 = 1 THEN NULL ELSE '{abc,dead,beef,123}' END bl
        FROM generate_series(1, $tenth / 10) g) s;
SELECT 'sqids', count(*), count(*) FILTER (WHERE (sqled.sqids_encode(a, al, ml, bl) <> code OR sqled.sqids_decode(code, al, ml, bl) <> a
    OR sqled.sqids_decode_lenient(code, al, ml, bl) <> a OR (cardinality(a) = 1 AND sqled.sqids_decode_one(code, al, ml, bl) <> a[1])) IS NOT FALSE) = 0 FROM sq;
DROP TABLE sq;
SELECT 'uuid_v7_boundary', count(*), count(*) FILTER (WHERE (sqled.uuid_v7_boundary(t) <> cpp.uuid_v7_boundary(t) OR sqled.ulid_boundary(t) <> cpp.ulid_boundary(t)::uuid) IS NOT FALSE) = 0
  FROM (SELECT timestamptz '1970-01-01 00:00:00+00' + random() * interval '100 years' t FROM generate_series(1, $tenth)) s;
SELECT 'snowflake_boundary', count(*), count(*) FILTER (WHERE (sqled.snowflake_boundary(t, s) <> cpp.snowflake_boundary(t, s) OR sqled.snowflake_boundary(t) <> cpp.snowflake_boundary(t)
    OR sqled.snowflake53_boundary(t, s % 16, e) <> cpp.snowflake53_boundary(t, s % 16, e)) IS NOT FALSE) = 0
  FROM (SELECT timestamptz '2024-01-01 00:00:00+00' + random() * interval '30 years' t, (random() * 8191)::int s, timestamptz '2020-01-01 00:00:00+00' + random() * interval '4 years' e
        FROM generate_series(1, $tenth)) s;
SQL
my $diff_start = time;
my @diff_runs;
for my $group ($diff_group_a, $diff_group_b)
{
	my $output = '';
	my $h = IPC::Run::start(
		[ 'psql', '-XAtq', '-d', $f->connstr('diff'), '-v', 'ON_ERROR_STOP=1', '-F', ' ', '-f', '-' ],
		'<', \$group, '>&', \$output);
	push @diff_runs, [ $h, \$output ];
}
my $diff_out = '';
for my $run (@diff_runs)
{
	$run->[0]->finish;
	$diff_out .= ${ $run->[1] };
}
note(sprintf(
		'differential test took %d s (%d values per family, %d for prefixed_id, typeid and base36, %d boundaries; two sessions)',
		time - $diff_start, $diff_n, $diff_n_text, $tenth));
my %diff_want = (
	uuid_v7 => 2 * $half, ulid => 2 * $half, snowflake => 2 * $half, snowflake53 => 2 * $half,
	prefixed_id => 2 * $half_text, typeid => 2 * $half_text, base36 => $diff_n_text,
	uuid_v7_boundary => $tenth, snowflake_boundary => $tenth,
	uuid_v6 => 2 * $half, ksuid => 2 * $half + $tenth, uuid_v6_ksuid_boundary => $tenth,
	objectid => 2 * $half + $tenth, xid => 2 * $half + $tenth, id96_boundary => $tenth, short_text => 6 * $tenth,
	nanoid => 5 * $tenth, nanoid_uniform => 64 + 62 + 10,
	timeflake => 2 * $half + $tenth, push_id => 2 * $half + $tenth, timeflake_boundary => $tenth,
	cuid2 => 2 * int($tenth / 2), cuid2_first_letter => 26, sqids => int($tenth / 10));
for my $family (
	qw(uuid_v7 uuid_v6 snowflake snowflake53 ulid ksuid objectid xid prefixed_id typeid base36 short_text nanoid nanoid_uniform timeflake push_id timeflake_boundary cuid2 cuid2_first_letter sqids uuid_v7_boundary snowflake_boundary uuid_v6_ksuid_boundary id96_boundary)
  )
{
	my ($line) = grep { /^$family [0-9]+ [tf]$/ } split /\n/, $diff_out;
	is($line // '', "$family $diff_want{$family} t",
		"differential $family: $diff_want{$family} values, distinct where minted, decoded and encoded the same by both editions"
	);
}
my @diff_other = grep { !/^[a-z_0-9]+ [0-9]+ [tf]$/ } split /\n/, $diff_out;
diag($_) for @diff_other[ 0 .. ($#diff_other < 4 ? $#diff_other : 4) ];

# --- 4b. more than 1,024 IDs in one millisecond on one shard --------------------------
# Instagram's next_id() (test/bench/sql_edition_peers.sql, from its formula:
# ms << 23 | shard << 10 | nextval % 1024) repeats once a shard mints more
# than 1,024 IDs in one millisecond; the edition does not. Deterministic: the
# peer's clock is its formula's input, fixed at one millisecond; the edition's
# state sequence is set one second ahead of the clock (as the owner), so that
# every call falls in that one millisecond until its 1,024 stamps are used,
# whatever the clock does meanwhile; the 1,025th borrows the next millisecond.
$f->sql_ok(slurp_file("$repo/test/bench/sql_edition_peers.sql"),
	'the peers of test/bench/sql_edition_peers.sql install (schemas insta5 ...)', db => 'diff');
# The bench's copies of the edition's mints with a guarantee taken out copy
# this edition's code, piece by piece: each piece must still be there.
$f->sql_ok(slurp_file("$repo/test/bench/sql_edition_without.sql")
	  . "SELECT without_guarantee.snowflake_mint_unlocked(1), without_guarantee.uuid_v7_random(),
	            without_guarantee.prefixed_id_mint_random('acct_', sqled.idgen_sql_base36_pairs())::sqled.prefixed_id,
	            without_guarantee.typeid_mint_random('user_', sqled.idgen_sql_crockford_pairs_lower())::sqled.typeid",
	'the bench\'s test/bench/sql_edition_without.sql copies the mints of this edition and they mint', db => 'diff');
is( $f->output(
		'SELECT count(*), count(DISTINCT id), (SELECT count(DISTINCT insta5.next_id(1767225600000)) FROM generate_series(1, 1024))
		   FROM (SELECT insta5.next_id(1767225600000) AS id FROM generate_series(1, 1025)) s',
		db => 'diff'),
	'1025|1024|1024',
	"Instagram's next_id(): 1,024 IDs of one millisecond on one shard are distinct, the 1,025th repeats one");
# The clock is read once: the millisecond reported is the one set.
my $ahead_ms = $f->output(
	"WITH ahead AS MATERIALIZED (SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1704067200000 + 1000 AS ms)
	 SELECT ms, setval('sqled.idgen_sql_snowflake_state', (ms << 10) - 1) FROM ahead",
	db => 'diff');
($ahead_ms) = split /\|/, $ahead_ms;
is( $f->output(
		"SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE id >> 23 = $ahead_ms), count(*) FILTER (WHERE id >> 23 = $ahead_ms + 1),
		        count(*) FILTER (WHERE id <= prev), min(sqled.snowflake_seq(id)), max(sqled.snowflake_seq(id))
		   FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM (SELECT n, sqled.snowflake(5) AS id FROM generate_series(1, 2049) n) a) b",
		db => 'diff'),
	'2049|2049|1024|1024|0|0|1023',
	'the edition: 2,049 snowflake(5) IDs, 1,024 in one millisecond, 1,024 in the next, 1 after: none repeats, each above the last');

# A refused call leaves no lock behind: a session whose snowflake() fails in a
# read-only transaction (nextval's refusal, as on a standby) stays connected,
# and another session then mints at once (a lock left held would block it
# until the first session ended; statement_timeout bounds the wait).
{
	my $ro = $f->background_psql('diff', on_error_stop => 0);
	my ($out, $ret) = $ro->query('BEGIN READ ONLY; SELECT sqled.snowflake(5);');
	like($ro->{stderr}, qr/cannot execute nextval\(\) in a read-only transaction/,
		'snowflake() in a read-only transaction is refused (25006, nextval\'s message)');
	$ro->query('ROLLBACK');
	is($f->error("SET statement_timeout = '5s'; SELECT sqled.snowflake(5), sqled.snowflake53(5)", db => 'diff'), '',
		'another session then mints on the family at once: the refused call left its lock behind');
	$ro->quit;
}

# Ahead of the clock, IDs stay above those handed out across a crash: the
# state sequence set 5 s ahead (as the owner), three calls (each its own
# transaction, as a client receives them), then an immediate shutdown (no
# checkpoint; the server recovers from the WAL) and a call after the restart.
$f->q("SELECT setval('sqled.idgen_sql_snowflake_state',
	(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1704067200000 + 5000) << 10)", db => 'diff');
my @before_crash = map { $f->q('SELECT sqled.snowflake(6)', db => 'diff') } 1 .. 3;
$f->stop('immediate');
$f->start;
is( $f->output("SELECT sqled.snowflake(6) > $before_crash[-1] AND $before_crash[-1] > $before_crash[0]", db => 'diff'),
	't', 'after a crash (immediate shutdown) the first snowflake is above the last one handed out, 5 s ahead of the clock');

# --- 4c. the clock as the minting functions read it -----------------------------------
# They read it through float8 (idgen_sql_unix_us, which they inline), not
# EXTRACT's numeric: exact to the microsecond from 1970 to 2090, checked at
# random instants and at each side of millisecond boundaries.
is( $f->output(
		"SELECT count(*), count(*) FILTER (WHERE sqled.idgen_sql_unix_us(t) <> (EXTRACT(epoch FROM t) * 1000000)::bigint)
		   FROM (SELECT timestamptz 'epoch' + us * interval '1 microsecond' AS t
		           FROM (SELECT (random() * 3786912000000000)::bigint AS us FROM generate_series(1, 200000)
		                 UNION ALL
		                 SELECT ms * 1000 + d FROM (SELECT (random() * 3786912000000)::bigint AS ms FROM generate_series(1, 100000)) r,
		                        (VALUES (-1), (0), (1)) v(d)) i) s",
		db => 'diff'),
	'500000|0',
	'the clock in microseconds through float8 is exact at 500,000 instants of 1970-2090, 300,000 of them around millisecond boundaries');

# --- 4d. the session's last values: ulid's carries and end, uuid_v7's end ------------
# ulid() and uuid_v7() keep the session's last value in a setting; a value in
# a far millisecond (0x7fffffffffff, the year 6429) keeps the clock within it,
# so each step below is decided by the setting alone. ulid: within the
# millisecond the next is the last + 1 (the inlined path, up to a carry out
# of the last 48 bits), a carry past them or past 64 bits (idgen_sql_ulid_next),
# the form before 0.7.0 (32 digits, no hyphen), and the 80 bits used up.
my $ulid_after = sub {
	my ($last) = @_;
	return $f->output("SELECT set_config('idgen_sql.ulid_last', '$last', false) IS NULL;
		SELECT sqled.ulid() || ' ' || sqled.ulid() || ' ' || current_setting('idgen_sql.ulid_last')", db => 'diff');
};
is( $ulid_after->('7fffffffffff01234567-fffffffffffe'),
	"f\n7fffffff-ffff-0123-4567-ffffffffffff 7fffffff-ffff-0123-4568-000000000000 7fffffffffff01234568-000000000000",
	'ulid(): the last + 1 within the millisecond, then the carry out of the last 48 bits');
is( $ulid_after->('7fffffffffff0123ffff-ffffffffffff'),
	"f\n7fffffff-ffff-0124-0000-000000000000 7fffffff-ffff-0124-0000-000000000001 7fffffffffff01240000-000000000001",
	'ulid(): the carry out of the last 64 bits');
is( $ulid_after->('7fffffffffff01234567fffffffffffe'),
	"f\n7fffffff-ffff-0123-4567-ffffffffffff 7fffffff-ffff-0123-4568-000000000000 7fffffffffff01234568-000000000000",
	'ulid(): the setting as 0.6.0 left it (no hyphen) is read too');
is( $f->error("SELECT set_config('idgen_sql.ulid_last', '7fffffffffffffffffff-ffffffffffff', false) IS NULL;
		SELECT sqled.ulid()", db => 'diff'),
	'22008: ulid values are exhausted',
	'ulid(): 22008 when the 80 bits of the millisecond are used up');
# uuid_v7(): the last tick of the 60 bits (48 of ms, 12 of sub-ms time), then
# 22008; prefixed_id_new() and typeid_new() draw from the same ticks.
is( $f->output("SELECT set_config('idgen_sql.uuid_v7_tick', '1152921504606846974', false) IS NULL;
		SELECT sqled.uuid_v7()::text LIKE 'ffffffff-ffff-7fff-%'", db => 'diff'),
	"f\nt", 'uuid_v7(): the last tick of its 60 bits');
is( join(' / ', map {
			$f->error("SELECT set_config('idgen_sql.uuid_v7_tick', '1152921504606846975', false) IS NULL; SELECT sqled.$_",
				db => 'diff')
		} qw(uuid_v7() prefixed_id_new('acct') typeid_new('user'))),
	join(' / ', ('22008: uuid_v7 timestamps are exhausted') x 3),
	'uuid_v7(), prefixed_id_new() and typeid_new(): 22008 past the last tick');

# timeflake() and push_id() keep the session's last value in a setting: in a
# far millisecond the next is the last + 1, carrying from the random part
# into the time, and past the largest value, 22008.
is( $f->output("SELECT set_config('idgen_sql.timeflake_last', '7fffffffffff0123fffffffffffffffe', false) IS NULL;
		SELECT sqled.timeflake() || ' ' || sqled.timeflake() || ' ' || current_setting('idgen_sql.timeflake_last');
		SELECT set_config('idgen_sql.timeflake_last', 'fffffffffffeffffffffffffffffffff', false) IS NULL;
		SELECT sqled.timeflake()", db => 'diff'),
	"f\n7fffffff-ffff-0123-ffff-ffffffffffff 7fffffff-ffff-0124-0000-000000000000 7fffffffffff01240000000000000000\nf\nffffffff-ffff-0000-0000-000000000000",
	'timeflake(): the last + 1 within the millisecond, the carry out of the last 64 bits, the carry into the millisecond');
is( $f->error("SELECT set_config('idgen_sql.timeflake_last', 'ffffffffffffffffffffffffffffffff', false) IS NULL;
		SELECT sqled.timeflake()", db => 'diff'),
	'22008: timeflake values are exhausted',
	'timeflake(): 22008 past the largest Timeflake');
is( $f->output("SELECT set_config('idgen_sql.push_id_last', 'zzzzzzzy-zzzzzzzzzzy', false) IS NULL;
		SELECT sqled.push_id() || ' ' || sqled.push_id() || ' ' || current_setting('idgen_sql.push_id_last')", db => 'diff'),
	"f\nzzzzzzzy-zzzzzzzzzzz zzzzzzzy0----------- zzzzzzzy0-----------",
	'push_id(): the last + 1 within the millisecond, then the carry out of the 12 random characters');
is( $f->output("SET TimeZone = 'UTC'; SELECT set_config('idgen_sql.push_id_last', 'zzzzzzzyzzzzzzzzzzzz', false) IS NULL;
		SELECT sqled.push_id() || ' ' || sqled.push_id_time(current_setting('idgen_sql.push_id_last'))", db => 'diff'),
	"f\nzzzzzzzz------------ 10889-08-02 05:31:50.655+00",
	'push_id(): the carry from the random characters into the time');
is( $f->error("SELECT set_config('idgen_sql.push_id_last', 'zzzzzzzzzzzzzzzzzzzz', false) IS NULL;
		SELECT sqled.push_id()", db => 'diff'),
	'22008: push ID values are exhausted',
	'push_id(): 22008 past the largest push ID');

# CUID2's SHA3-512 (PL/pgSQL here) and its base36 text against Python's
# hashlib and int, on inputs around the 72-byte blocks; then the session's
# counter (the value kept + 1 a call) and fingerprint (made once, 32 base36
# characters, another in another session).
{
	my @inputs = map { my $n = $_; join '', map { sprintf '%02x', int rand 256 } 1 .. $n } (0, 1, 3, 70, 71, 72, 73, 100, 143, 144, 145, 200, 287, 288, 300);
	my ($status, $python, $err) = IdgenTest::run_status([ 'python3', '-c', <<'PY', @inputs ]);
import hashlib, sys
def base36(n):
    out = ""
    while n:
        out = "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36] + out
        n //= 36
    return out or "0"
for h in sys.argv[1:]:
    d = hashlib.sha3_512(bytes.fromhex(h)).hexdigest()
    print(d, base36(int(d, 16)))
PY
	my $values = join(', ', map { "('$inputs[$_]', $_)" } 0 .. $#inputs);
	my $sql = $f->output("SELECT string_agg(sqled.idgen_sql_sha3_512_hex(decode(h, 'hex')) || ' ' || sqled.idgen_sql_base36_of_hex(sqled.idgen_sql_sha3_512_hex(decode(h, 'hex'))), E'\\n' ORDER BY n)
		FROM (VALUES $values) v(h, n)", db => 'diff');
	ok($status == 0 && $python ne '' && $sql eq $python,
		scalar(@inputs) . ' inputs of 0 to 300 bytes: the SQL edition\'s SHA3-512 and base36 equal Python\'s hashlib.sha3_512 and int') or diag("$err\nSQL:\n$sql\nPython:\n$python");
}
is( $f->output("SELECT set_config('idgen_sql.cuid2_counter', '41', false) IS NULL;
		SELECT sqled.cuid2() IS NOT NULL, current_setting('idgen_sql.cuid2_counter'), sqled.cuid2() IS NOT NULL, current_setting('idgen_sql.cuid2_counter')", db => 'diff'),
	"f\nt|42|t|43", 'cuid2(): each call takes the session\'s counter and keeps it + 1');
{
	my @fingerprints = map {
		$f->output("SELECT sqled.cuid2() IS NOT NULL; SELECT current_setting('idgen_sql.cuid2_fingerprint');
			SELECT sqled.cuid2() IS NOT NULL; SELECT current_setting('idgen_sql.cuid2_fingerprint')", db => 'diff')
	} 1 .. 2;
	my @seen = map { (split /\n/)[ 1, 3 ] } @fingerprints;
	ok( @seen == 4 && $seen[0] =~ /^[0-9a-z]{32}$/ && $seen[0] eq $seen[1] && $seen[2] eq $seen[3] && $seen[0] ne $seen[2],
		"cuid2(): a session's fingerprint is made at its first call, kept, and another session's differs (@seen)");
}

# objectid() and xid() keep the session's state in a setting (hex: the last
# ID's seconds, process bytes and counter, then the counter of the first ID of
# its second). In a far second (0xfffffff0, the year 2106) the next ID is the
# counter + 1 in that second; once the counter comes round to the second's
# first (2^24 IDs), the next second is borrowed; in the last second, 22008.
# A session's first ID draws the process bytes and the counter's start: two
# sessions differ, and the draw is made again after the rollback of the
# transaction that made it (the setting is then empty).
for my $generator ([ 'objectid', 'objectid' ], [ 'xid', 'rsxid' ])
{
	my ($name, $type) = @$generator;
	is( $f->output(
			"SELECT set_config('idgen_sql.${name}_state', 'fffffff00123456789fffffe000000', false) IS NULL;
			 SELECT encode(sqled.$name(), 'hex') || ' ' || encode(sqled.$name(), 'hex') || ' ' || current_setting('idgen_sql.${name}_state')",
			db => 'diff'),
		"f\nfffffff00123456789ffffff fffffff10123456789000000 fffffff10123456789000000000000",
		"$name(): the counter + 1 in the last ID's second, then, the second's 2^24 IDs issued, the next second");
	is( $f->error(
			"SELECT set_config('idgen_sql.${name}_state', 'ffffffff0123456789ffffff000000', false) IS NULL; SELECT sqled.$name()",
			db => 'diff'),
		"22008: $type values are exhausted", "$name(): 22008 once the last second holds 2^24 IDs");
	my @process = map {
		$f->output("BEGIN; SELECT encode(substr(sqled.$name(), 5, 5), 'hex'); ROLLBACK;
			SELECT encode(substr(sqled.$name(), 5, 5), 'hex') || ' ' || encode(substr(sqled.$name(), 5, 5), 'hex')", db => 'diff')
	} 1 .. 2;
	my @seen = map { split /[\n ]/ } @process;
	my %distinct = map { ($_ => 1) } @seen[ 0, 1, 3, 4 ];
	ok( @seen == 6 && $seen[1] eq $seen[2] && $seen[4] eq $seen[5] && keys(%distinct) == 4,
		"$name(): a session's process bytes are drawn at its first ID, again after its rollback, and differ between sessions (@process)");
}

# --- 5. concurrency: sessions minting on one shard ----------------------------------
# mint_for waits at the test's gate (advisory lock 7, held by the test until
# every session waits on it), then mints for SECONDS, at least once.
$m->q('CREATE TABLE minted (session integer, n integer, id bigint, u uuid, o bytea, x bytea); GRANT INSERT ON minted TO reader',
	db => 'plain');
$m->q(
	'CREATE FUNCTION public.mint_for(seconds integer) RETURNS TABLE (n integer, id bigint, u uuid, o bytea, x bytea) LANGUAGE plpgsql AS $$
DECLARE deadline timestamptz;
BEGIN PERFORM pg_advisory_lock_shared(7); PERFORM pg_advisory_unlock_shared(7);
deadline := clock_timestamp() + make_interval(secs => seconds); n := 0;
LOOP n := n + 1; id := ids.snowflake(7); u := ids.uuid_v7(); o := ids.objectid(); x := ids.xid(); RETURN NEXT; EXIT WHEN clock_timestamp() >= deadline; END LOOP; END $$',
	db => 'plain');

# mint_together: SESSIONS sessions of role reader insert what mint_for(SECONDS)
# returns, released together once all of them are connected and waiting, so
# that they overlap for SECONDS whatever their start-up time; returns how many
# sessions failed.
sub mint_together
{
	my $gate = $m->background_psql('plain');
	$gate->query_safe('SELECT pg_advisory_lock(7)');
	my @runs;
	for my $s (1 .. $sessions)
	{
		my ($stdout, $stderr) = ('', '');
		my $h = IPC::Run::start(
			[
				'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-U', 'reader', '-d', $m->connstr('plain'),
				'-c', "INSERT INTO minted SELECT $s, n, id, u, o, x FROM mint_for($seconds)"
			],
			'>', \$stdout, '2>', \$stderr);
		push @runs, [ $h, \$stderr, $s ];
	}
	# Each session blocks in pg_advisory_lock_shared(7) once connected.
	$m->poll_query_until('plain',
		"SELECT count(*) = $sessions FROM pg_locks WHERE locktype = 'advisory' AND objid = 7 AND NOT granted")
	  or diag("not all $sessions sessions reached the gate");
	$gate->query_safe('SELECT pg_advisory_unlock(7)');
	$gate->quit;
	my $failed = 0;
	for my $run (@runs)
	{
		my ($h, $stderr, $s) = @$run;
		next if $h->finish;
		$failed++;
		diag("session $s failed: ${$stderr}");
	}
	return $failed;
}
is(mint_together(), 0, "$sessions sessions minted snowflake(7) and uuid_v7() for $seconds s without error");
my ($total, $distinct, $sessions_seen) = split /\|/,
  $m->q('SELECT count(*), count(DISTINCT id), count(DISTINCT session) FROM minted', db => 'plain');
note("$total snowflakes from $sessions_seen sessions in $seconds s");
ok($total > 0 && $total == $distinct && $sessions_seen == $sessions,
	"no duplicate among $total snowflakes on one shard from $sessions_seen sessions");
is( $m->q(
		'SELECT count(*) FROM (SELECT id, lag(id) OVER w AS prev_id, u, lag(u) OVER w AS prev_u FROM minted WINDOW w AS (PARTITION BY session ORDER BY n)) s WHERE id <= prev_id OR u <= prev_u',
		db => 'plain'),
	0,
	'snowflakes increase within each session, and uuid_v7 too');
# objectid() and xid(): per session their process bytes and counter (docs/managed-postgresql.md)
is( $m->q(
		"SELECT count(DISTINCT o) = count(*), count(DISTINCT x) = count(*), count(DISTINCT substr(o, 5, 5)), count(DISTINCT substr(x, 5, 5)),
		        count(*) FILTER (WHERE substr(o, 5, 5) <> substr(prev_o, 5, 5) OR substr(x, 5, 5) <> substr(prev_x, 5, 5)
		                            OR ids.objectid_counter(o) <> (ids.objectid_counter(prev_o) + 1) % 16777216
		                            OR ids.xid_counter(x) <> (ids.xid_counter(prev_x) + 1) % 16777216
		                            OR ids.objectid_time(o) < ids.objectid_time(prev_o) OR ids.xid_time(x) < ids.xid_time(prev_x))
		   FROM (SELECT o, lag(o) OVER w AS prev_o, x, lag(x) OVER w AS prev_x FROM minted WINDOW w AS (PARTITION BY session ORDER BY n)) s",
		db => 'plain'),
	"t|t|$sessions|$sessions|0",
	"no duplicate objectid or xid among them; each session has process bytes of its own, its counter going up by one, its seconds never back");

# --- 6. pg_dump / pg_restore, both install ways ---------------------------------------
my $table_sql = <<'SQL';
CREATE TABLE things (id bigint PRIMARY KEY DEFAULT ids.snowflake(3), small bigint DEFAULT ids.snowflake53(3), u uuid DEFAULT ids.uuid_v7(),
    l ids.ulid DEFAULT ids.ulid(), p ids.prefixed_id DEFAULT ids.prefixed_id_new('acct'), t ids.typeid DEFAULT ids.typeid_new('user'),
    v uuid DEFAULT ids.uuid_v6(), k ids.ksuid DEFAULT ids.ksuid(), o ids.objectid DEFAULT ids.objectid(), x ids.rsxid DEFAULT ids.xid());
CREATE INDEX ON things (l); CREATE INDEX ON things (p); CREATE INDEX ON things (t); CREATE INDEX ON things (k);
CREATE INDEX ON things (o); CREATE INDEX ON things (x);
INSERT INTO things SELECT FROM generate_series(1, 1000);
SQL
my $digest_sql =
  "SELECT md5(string_agg(concat_ws(' ', id, small, u, ids.ulid_to_text(l), p, t, ids.snowflake_time(id), ids.ulid_time(l), ids.typeid_time(t),
      v, ids.uuid_v6_time(v), ids.ksuid_to_text(k), ids.ksuid_time(k), ids.objectid_to_text(o), ids.objectid_time(o), ids.objectid_counter(o),
      ids.rsxid_to_text(x), ids.xid_time(x), ids.xid_pid(x)), ',' ORDER BY id)) FROM things";

# dump_restore DB: dumps DB, restores it into DB_copy, compares, mints on.
sub dump_restore
{
	my ($db) = @_;
	$m->safe_psql($db, $table_sql, extra_params => [ '-U', 'app' ]);
	my $before = $m->q($digest_sql, db => $db);
	client($m, 'pg_dump', '-Fc', '-d', $db, '-f', "$tmp/$db.dump");
	$m->q("CREATE DATABASE ${db}_copy OWNER app");
	$m->q('GRANT pgtle_admin TO app', db => 'tle_copy') if $db eq 'tle';
	$m->command_ok([ 'pg_restore', '-d', "${db}_copy", '--exit-on-error', "$tmp/$db.dump" ],
		"$db: pg_restore of a dump with every type of the edition succeeds");
	is($m->output($digest_sql, db => "${db}_copy"),
		$before, "$db: the restored rows are the same (digest of values and decoded fields)");
	is( $m->output("INSERT INTO things SELECT FROM generate_series(1, 100);
			 SELECT count(*), count(DISTINCT id), max(id) = (SELECT max(id) FROM (SELECT id FROM things ORDER BY id DESC LIMIT 100) s) FROM things",
			db => "${db}_copy", user => 'app'),
		'1100|1100|t',
		"$db: the restored database mints more rows, above the restored IDs");
	return;
}
# the manual's table, made with the SQL edition, to be moved in section 7
doc_blocks($m, 'plain', 'app', 'table');
$m->q('INSERT INTO accounts SELECT FROM generate_series(1, 100)', db => 'plain', user => 'app');
dump_restore('plain');
# (where pg_tle is not installed, section 2's skip counted this too)
dump_restore('tle') if $have_tle;

# --- 7. the move to the C++ edition -----------------------------------------------------
$f->q('CREATE ROLE app LOGIN; CREATE ROLE reader LOGIN; CREATE DATABASE moved OWNER app');
$f->command_ok([ 'pg_restore', '-d', 'moved', '--exit-on-error', "$tmp/plain.dump" ],
	"the psql -f database's dump restores on the server with idgen");
my $expected_text = $f->output(
	"SELECT md5(string_agg(concat_ws(' ', id, ids.ulid_to_text(l), p, t, ids.ksuid_to_text(k), ids.objectid_to_text(o), ids.rsxid_to_text(x)), ',' ORDER BY id)) FROM things",
	db => 'moved');
doc_blocks($f, 'moved', undef, 'create idgen');
$f->sql_ok(
	"ALTER TABLE things ALTER id SET DEFAULT cpp.snowflake(3), ALTER small SET DEFAULT cpp.snowflake53(3), ALTER u SET DEFAULT cpp.uuid_v7(),
	     ALTER l DROP DEFAULT, ALTER p DROP DEFAULT, ALTER t DROP DEFAULT, ALTER v SET DEFAULT cpp.uuid_v6(), ALTER k DROP DEFAULT,
	     ALTER o DROP DEFAULT, ALTER x DROP DEFAULT;
	 ALTER TABLE things ALTER l TYPE cpp.ulid USING l::uuid::cpp.ulid, ALTER l SET DEFAULT cpp.ulid(),
	     ALTER k TYPE cpp.ksuid USING k::bytea::cpp.ksuid, ALTER k SET DEFAULT cpp.ksuid(),
	     ALTER o TYPE cpp.objectid USING o::bytea::cpp.objectid, ALTER o SET DEFAULT cpp.objectid(),
	     ALTER x TYPE cpp.rsxid USING x::bytea::cpp.rsxid, ALTER x SET DEFAULT cpp.xid(),
	     ALTER p TYPE cpp.prefixed_id USING p::text::cpp.prefixed_id, ALTER p SET DEFAULT cpp.prefixed_id_new('acct'),
	     ALTER t TYPE cpp.typeid USING t::text::cpp.typeid, ALTER t SET DEFAULT cpp.typeid_new('user')",
	'idgen (C++) created beside the SQL edition, columns converted with ALTER TABLE',
	db => 'moved');
is($f->output("SELECT md5(string_agg(concat_ws(' ', id, l, p, t, k, o, x), ',' ORDER BY id)) FROM things", db => 'moved'),
	$expected_text, 'after the move, the C++ types print the same text');
is( $f->output('SELECT count(*) FROM things WHERE cpp.ulid_time(l) <> ids.ulid_time(l::uuid) OR cpp.typeid_time(t) <> ids.typeid_time(t::text) OR cpp.snowflake_time(id) <> ids.snowflake_time(id) OR cpp.prefixed_id_time(p) <> ids.prefixed_id_time(p::text) OR cpp.ksuid_time(k) <> ids.ksuid_time(k::bytea) OR cpp.uuid_v6_time(v) <> ids.uuid_v6_time(v)
		   OR cpp.objectid_time(o) <> ids.objectid_time(o::bytea) OR cpp.objectid_process(o) <> ids.objectid_process(o::bytea)
		   OR cpp.xid_time(x) <> ids.xid_time(x::bytea) OR cpp.xid_machine(x) <> ids.xid_machine(x::bytea) OR cpp.xid_counter(x) <> ids.xid_counter(x::bytea)',
		db => 'moved'),
	0,
	"after the move, the C++ decoders read the same times as the SQL edition's");
# The manual's move, verbatim: accounts converted, nothing left using ids
# (its query shows no row), the schema dropped.
my $old = $f->q('SELECT max(s), (SELECT u FROM accounts ORDER BY u DESC LIMIT 1), (SELECT l::uuid FROM accounts ORDER BY l DESC LIMIT 1) FROM accounts',
	db => 'moved');
doc_blocks($f, 'moved', undef, 'move');
is($f->output("SELECT count(*) FROM pg_namespace WHERE nspname = 'ids'", db => 'moved'),
	0, "the manual's move drops the SQL edition's schema");
my ($max_s, $max_u, $max_l) = split /\|/, $old;
is( $f->output(
		"INSERT INTO accounts SELECT FROM generate_series(1, 100);
		 INSERT INTO things SELECT FROM generate_series(1, 100);
		 SELECT count(*) FILTER (WHERE s IS NULL OR u IS NULL OR l IS NULL OR p IS NULL OR t IS NULL),
		        count(*) FILTER (WHERE s > $max_s AND u > '$max_u' AND l::uuid > '$max_l'),
		        (SELECT count(*) FROM things WHERE id IS NULL OR small IS NULL OR u IS NULL OR l IS NULL OR p IS NULL OR t IS NULL OR v IS NULL OR k IS NULL OR o IS NULL OR x IS NULL)
		   FROM accounts",
		db => 'moved', user => 'app'),
	'0|100|0',
	'after the move, new rows get IDs from the C++ edition, above the old ones, and no NULL (accounts and things)');

note(sprintf('sql_edition.pl ran %d s', time - $started));
done_testing();
