# ActiveRecord 6.1 (Debian's ruby-activerecord, ruby-pg) with idgen, for real:
# the migrations of db/migrate run through ActiveRecord's own migrator as the
# database's owner (not a superuser), then every family goes through the
# models of models.rb: DEFAULTs fire, values come back, and each type filters,
# updates and deletes. Also what the schema dumps hold (schema.rb and
# structure.sql) and what happens without idgen_types.rb.
#
#   ruby run.rb TEMPDIR COPY_DATABASE
#
# Connects with the PG* environment. Prints its plan ("plan<TAB>N"), then one
# verdict line per check ("ok<TAB>what", "not ok<TAB>what", "#<TAB>note"), which activerecord.pl
# turns into TAP; anything ActiveRecord writes to stderr is read as a check.
require "open3"
require "stringio"
require_relative "idgen_types"
require_relative "models"

HERE = File.expand_path(__dir__)
TMP = ARGV.fetch(0)
COPY_DB = ARGV.fetch(1)

# the plan line, before the first verdict: n verdicts follow
def plan(n)
  puts "plan\t#{n}"
  $stdout.flush
end

def say(ok, what)
  puts "#{ok ? "ok" : "not ok"}\t#{what.split.join(" ")}"
  $stdout.flush
  ok
end

def note(text)
  text.to_s.each_line { |line| puts "#\t#{line.chomp}" }
  $stdout.flush
end

# a check that runs a block; an exception fails it, with its message as a note
def check(what)
  ok = yield
  say(ok ? true : false, what)
rescue StandardError => e
  say(false, what)
  note("#{e.class}: #{e.message}")
  false
end

def sql_value(sql, *binds)
  ActiveRecord::Base.connection.select_value(ActiveRecord::Base.sanitize_sql_array([sql, *binds]))
end

UUID_V7 = /\A\h{8}-\h{4}-7\h{3}-[89ab]\h{3}-\h{12}\z/
ULID = /\A[0-7][0-9A-HJKMNP-TV-Z]{25}\z/
ACCT = /\Aacct_[0-9a-z]{25}\z/
USER_TID = /\Auser_[0-7][0-9a-hjkmnp-tv-z]{25}\z/

# ActiveRecord's warnings (Kernel#warn) are kept and checked, not printed;
# an exception that ends the run is printed as notes
at_exit do
  if $! && !$!.is_a?(SystemExit)
    note("died: #{$!.class}: #{$!.message}")
    note($!.backtrace.first(8).join("\n"))
    note("warnings so far: #{$warnings.string}")
  end
end
$warnings = StringIO.new
$stderr = $warnings

# one verdict for each check at the top level of this file, every one run
plan(37)
ActiveRecord::Base.establish_connection(idgen_connection_config)
ActiveRecord::Migration.verbose = false
conn = ActiveRecord::Base.connection

check("connected as a role that is not a superuser") do
  sql_value("SELECT NOT rolsuper FROM pg_roles WHERE rolname = current_user") == true &&
    conn.select_value("SELECT current_user") == ENV.fetch("PGUSER")
end

# --- migrations, each in ActiveRecord's own transaction -----------------------
statements = []
subscriber = ActiveSupport::Notifications.subscribe("sql.active_record") do |*, payload|
  statements << payload[:sql]
end
# README snippet begins
context = ActiveRecord::MigrationContext.new(File.join(HERE, "db/migrate"), ActiveRecord::SchemaMigration)
context.migrate
# README snippet ends
ActiveSupport::Notifications.unsubscribe(subscriber)

check("both migrations ran (schema_migrations), none pending") do
  context.get_all_versions == [20261126000001, 20261126000002] && !context.needs_migration?
end
check("enable_extension created idgen inside the migration's transaction") do
  create = statements.index { |s| s.include?('CREATE EXTENSION IF NOT EXISTS "idgen"') }
  begin_ = statements[0...create].rindex { |s| s.strip == "BEGIN" }
  commit = statements[create..].index { |s| s.strip == "COMMIT" }
  note("migration statements: #{statements.grep(/BEGIN|COMMIT|EXTENSION|_define/).join(" | ")}")
  create && begin_ && commit &&
    statements[begin_...(create + commit)].none? { |s| s.strip == "COMMIT" }
end
check("idgen belongs to the database owner that ran the migration") do
  sql_value("SELECT extowner::regrole::text FROM pg_extension WHERE extname = 'idgen'") ==
    ENV.fetch("PGUSER")
end
check("the idgen columns have their types (ulid, account_id, user_id)") do
  Order.columns_hash["ref"].sql_type == "ulid" && Account.columns_hash["id"].sql_type == "account_id" &&
    User.columns_hash["id"].sql_type == "user_id"
end
check("the registered types: ref :ulid, account_id :prefixed_id, user_id :typeid, ids :uuid/:integer") do
  Order.type_for_attribute("ref").type == :ulid &&
    Order.type_for_attribute("account_id").type == :prefixed_id &&
    Order.type_for_attribute("user_id").type == :typeid &&
    Order.type_for_attribute("id").type == :uuid &&
    Event.type_for_attribute("id").type == :integer
end

# --- prefixed_id_define domain as a primary key --------------------------------
acct = Account.create!(name: "Ada Ltd")
check("prefixed_id: the domain's DEFAULT fires and create! reads the key back (RETURNING)") do
  note("account id #{acct.id}")
  acct.id.is_a?(String) && acct.id.match?(ACCT) &&
    sql_value("SELECT id::text FROM accounts WHERE name = 'Ada Ltd'") == acct.id
end
acct2 = Account.create!(name: "Bob GmbH")
check("prefixed_id: find, where and ordering by the key") do
  Account.find(acct.id).name == "Ada Ltd" && Account.where(id: [acct.id, acct2.id]).count == 2 &&
    Account.order(:id).pluck(:id) == ActiveRecord::Base.connection.select_values("SELECT id::text FROM accounts ORDER BY id")
end
check("prefixed_id: update! and update_all by the key") do
  acct.update!(name: "Ada Limited")
  Account.where(id: acct2.id).update_all(name: "Bob AG") == 1 &&
    Account.find(acct.id).name == "Ada Limited" && Account.find(acct2.id).name == "Bob AG"
end
check("prefixed_id: a key given as a String is stored as given") do
  given = sql_value("SELECT prefixed_id_new('acct')::text")
  Account.create!(id: given, name: "Cy").id == given && Account.exists?(given)
end
check("prefixed_id: the domain refuses another prefix") do
  Account.create!(id: sql_value("SELECT prefixed_id_new('acca')::text"), name: "x")
  false
rescue ActiveRecord::StatementInvalid => e
  note(e.message.lines.first)
  e.cause.is_a?(PG::CheckViolation)
end

# --- typeid_define domain as a primary key -------------------------------------
user = User.create!(email: "ada@example.com")
check("typeid: the domain's DEFAULT fires and create! reads the key back") do
  note("user id #{user.id}")
  user.id.is_a?(String) && user.id.match?(USER_TID) &&
    sql_value("SELECT id::text FROM users WHERE email = 'ada@example.com'") == user.id
end
check("typeid: find, find_by, update! and update_all by the key") do
  user.update!(email: "ada@example.org")
  User.where(id: user.id).update_all(email: "ada@example.net") == 1 &&
    User.find(user.id).email == "ada@example.net" && User.find_by(id: user.id) == user
end

# --- uuid_v7() primary key, ulid column, domains as foreign keys ---------------
order = Order.create!(account: acct, user: user, note: "first")
check("uuid_v7(): the DEFAULT fires and create! reads the UUIDv7 back as a String") do
  note("order id #{order.id}")
  order.id.is_a?(String) && order.id.match?(UUID_V7) &&
    sql_value("SELECT uuid_v7_time(id) IS NOT NULL FROM orders WHERE id = ?", order.id) == true
end
check("ulid: ActiveRecord 6.1 returns only the primary key from INSERT, so ref is nil until reload") do
  order.ref.nil?
end
check("ulid: after reload, ref is the ULID the DEFAULT minted, as a String") do
  order.reload
  note("order ref #{order.ref}")
  order.ref.is_a?(String) && order.ref.match?(ULID) &&
    sql_value("SELECT ref::text FROM orders WHERE id = ?", order.id) == order.ref
end
# README snippet begins
rows = Order.insert_all([{ account_id: acct.id, note: "second" }], returning: %w[id ref])
# README snippet ends
check("insert_all(returning:) gets every DEFAULT back in one statement, typed") do
  row = rows.to_a.first
  note("insert_all returned #{row.inspect}")
  row["id"].match?(UUID_V7) && row["ref"].is_a?(String) && row["ref"].match?(ULID) &&
    Order.find(row["id"]).ref == row["ref"]
end
check("a domain column with DEFAULT NULL (user_id) stays NULL when not given") do
  Order.find(rows.to_a.first["id"]).user_id.nil?
end
check("orders.account_id / user_id read back as the accounts' and users' keys") do
  order.account_id == acct.id && order.user_id == user.id && order.account == acct && order.user == user &&
    acct.orders.count == 2 && user.orders.to_a == [order]
end
check("uuid: find, where and update! by the key") do
  order.update!(note: "first, changed")
  Order.find(order.id).note == "first, changed" && Order.where(id: order.id).count == 1
end
check("ulid: find_by, where and update_all by ref") do
  Order.find_by(ref: order.ref) == order && Order.where(ref: [order.ref, rows.to_a.first["ref"]]).count == 2 &&
    Order.where(ref: order.ref).update_all(note: "by ref") == 1 && order.reload.note == "by ref"
end
check("ulid: a ref given as a String (lowercase too) is stored and found") do
  fresh = sql_value("SELECT ulid()::text")
  order.update!(ref: fresh)
  Order.find_by(ref: fresh) == order && Order.find_by(ref: fresh.downcase) == order &&
    sql_value("SELECT ref::text FROM orders WHERE id = ?", order.id) == fresh
end
check("domains as foreign keys: move an order to another account, filter by it") do
  order.update!(account: acct2)
  Order.where(account_id: acct2.id).pluck(:id) == [order.id] && order.reload.account_id == acct2.id
end
check("ulid and uuid: delete by ref and destroy by id") do
  Order.where(ref: rows.to_a.first["ref"]).delete_all == 1 && Order.destroy(order.id).destroyed? &&
    Order.count.zero?
end
check("prefixed_id and typeid: destroy and delete_all by the key") do
  acct.destroy!.destroyed? && User.where(id: user.id).delete_all == 1 &&
    !Account.exists?(acct.id) && User.count.zero?
end

# --- snowflake() and snowflake53() keys ------------------------------------------
event = Event.create!(kind: "signup")
check("snowflake(7): the DEFAULT fires and create! reads the key back as an Integer") do
  note("event id #{event.id}")
  event.id.is_a?(Integer) && event.id >= 2**53 &&
    sql_value("SELECT snowflake_shard(id) FROM events WHERE id = ?", event.id) == 7
end
check("snowflake: find, where, update! and update_all by the key") do
  event.update!(kind: "login")
  Event.find(event.id).kind == "login" && Event.where(id: event.id).update_all(kind: "x") == 1 &&
    Event.where("id >= ?", event.id).pluck(:kind) == ["x"]
end
check("snowflake: destroy by the key") do
  Event.destroy(event.id).destroyed? && !Event.exists?(event.id)
end
message = Message.create!(body: "hi")
check("snowflake53(3): the DEFAULT fires and create! reads the key back as an Integer below 2^53") do
  note("message id #{message.id}")
  message.id.is_a?(Integer) && message.id < 2**53 &&
    sql_value("SELECT snowflake53_shard(id) FROM messages WHERE id = ?", message.id) == 3
end
check("snowflake53: find, update!, update_all and delete_all by the key") do
  message.update!(body: "hello")
  Message.find(message.id).body == "hello" && Message.where(id: message.id).update_all(body: "y") == 1 &&
    Message.where(id: message.id).delete_all == 1 && Message.count.zero?
end

check("with idgen_types.rb, ActiveRecord printed no warning for any model") do
  note("warnings: #{$warnings.string}") unless $warnings.string.empty?
  $warnings.string.empty?
end

# --- schema dumps ----------------------------------------------------------------
Order.create!(account: acct2, note: "kept for the dumps")
db_config = ActiveRecord::Base.connection_db_config
ActiveRecord::Tasks::DatabaseTasks.db_dir = TMP
ActiveRecord::Tasks::DatabaseTasks.dump_schema(db_config, :ruby)
schema_rb = File.read(File.join(TMP, "schema.rb"))
check("schema.rb: keeps enable_extension \"idgen\" and the snowflake defaults") do
  schema_rb.include?('enable_extension "idgen"') &&
    schema_rb.include?('create_table "events", id: :bigint, default: -> { "snowflake(7)" }') &&
    schema_rb.include?('create_table "messages", id: :bigint, default: -> { "snowflake53(3)" }')
end
check("schema.rb: also dumps the extension's own idgen_shard_claim table, which CREATE EXTENSION makes") do
  schema_rb.include?('create_table "idgen_shard_claim"')
end
check("schema.rb: cannot dump the tables with idgen types (Unknown type comments)") do
  note(schema_rb.lines.grep(/Could not dump|Unknown type/).join)
  schema_rb.include?(%(# Could not dump table "orders")) && schema_rb.include?("Unknown type 'ulid' for column 'ref'") &&
    schema_rb.include?(%(# Could not dump table "accounts")) && schema_rb.include?("Unknown type 'account_id' for column 'id'") &&
    schema_rb.include?(%(# Could not dump table "users")) && !schema_rb.include?('create_table "orders"')
end
# README snippet begins
ActiveRecord::Base.schema_format = :sql   # Rails: config.active_record.schema_format = :sql
ActiveRecord::Tasks::DatabaseTasks.dump_schema(db_config)   # db/structure.sql, through pg_dump
# README snippet ends
structure = File.read(File.join(TMP, "structure.sql"))
check("structure.sql: the extension, both domains and every DEFAULT") do
  [/^CREATE EXTENSION IF NOT EXISTS idgen WITH SCHEMA public;$/,
   /^CREATE DOMAIN public\.account_id AS public\.prefixed_id\b.*DEFAULT public\.prefixed_id_new\('acct'::text\)/m,
   /^CREATE DOMAIN public\.user_id AS public\.typeid\b.*DEFAULT public\.typeid_new\('user'::text\)/m,
   /^\s+id uuid DEFAULT public\.uuid_v7\(\) NOT NULL,$/,
   /^\s+ref public\.ulid DEFAULT public\.ulid\(\) NOT NULL,$/,
   /^\s+id bigint DEFAULT public\.snowflake\(7\) NOT NULL,$/,
   /^\s+id bigint DEFAULT public\.snowflake53\(3\) NOT NULL,$/].all? do |re|
    structure.match?(re) || (note("structure.sql lacks #{re.inspect}") && false)
  end
end
check("structure.sql loads into an empty database as its (non-superuser) owner, and the DEFAULTs fire there") do
  copy = idgen_connection_config(COPY_DB)
  # psql's own output (its set_config line) goes to a file, not to the verdicts
  saved = STDOUT.dup
  STDOUT.reopen(File.join(TMP, "structure_load.out"), "w")
  begin
    ActiveRecord::Tasks::DatabaseTasks.structure_load(copy, File.join(TMP, "structure.sql"))
  ensure
    STDOUT.reopen(saved)
  end
  ActiveRecord::Base.establish_connection(copy)
  a = Account.create!(name: "restored")
  o = Order.create!(account: a).reload
  e = Event.create!
  ok = a.id.match?(ACCT) && o.id.match?(UUID_V7) && o.ref.match?(ULID) && e.id >= 2**53 &&
    User.create!(email: "u").id.match?(USER_TID) && Message.create!.id < 2**53 &&
    ActiveRecord::MigrationContext.new(File.join(HERE, "db/migrate"), ActiveRecord::SchemaMigration).current_version == 20261126000002
  ActiveRecord::Base.establish_connection(idgen_connection_config)
  ok
end

# --- what the type registration changes --------------------------------------------
kept = Order.first
out, err, status = Open3.capture3(RbConfig.ruby, File.join(HERE, "plain_read.rb"), kept.id)
check("without idgen_types.rb: a ulid reads as a String after an 'unknown OID' warning") do
  note("plain_read.rb stdout: #{out}")
  note("plain_read.rb stderr: #{err}")
  status.success? && out.include?("ref=String:#{kept.ref}") && out.include?("account_id=String:#{kept.account_id}") &&
    out.include?("type=nil") &&
    err.match?(/unknown OID \d+: failed to recognize type of 'ref'\. It will be treated as String\./)
end
$stderr = STDERR
