# frozen_string_literal: true

# The gem's tests: a real server reached through libpq's environment (PGHOST,
# PGPORT, PGUSER, PGDATABASE) as the database's owner, who is not a superuser,
# and IDGEN_COPY_DATABASE, an empty database of the same owner that schema.rb
# is loaded into. They load the gem as installed (gem "idgen-activerecord").
require "minitest/autorun"
require "stringio"
require "logger"

gem "idgen-activerecord"
# README snippet begins
require "idgen/active_record"
# README snippet ends

LOG = StringIO.new
ActiveRecord::Base.logger = Logger.new(LOG, level: :warn)

def connect(database)
  ActiveRecord::Base.establish_connection(adapter: "postgresql", database: database)
  ActiveRecord::Base.connection
end

class EnableIdgen < ActiveRecord::Migration[6.1]
  def change
    enable_extension "idgen"
  end
end

# README snippet begins
class CreateShop < ActiveRecord::Migration[6.1]
  def up
    execute "SELECT prefixed_id_define('account_id', 'acct')"
    execute "SELECT typeid_define('user_id', 'user')"
    create_table :accounts, id: :account_id do |t|
      t.string :name, null: false
    end
    create_table :users, id: :user_id do |t|
      t.string :email, null: false
    end
    create_table :orders, id: :uuid, default: -> { "uuid_v7()" } do |t|
      t.ulid :ref, null: false, default: -> { "ulid()" }
      t.prefixed_id :account_id, null: false
      t.column :user_id, :user_id, default: nil
      t.prefixed_id :token
      t.typeid :external
      t.string :note
    end
    add_foreign_key :orders, :accounts
    add_foreign_key :orders, :users
    create_table :events, id: :bigint, default: -> { "snowflake(7)" } do |t|
      t.string :kind
    end
    create_table :messages, id: :bigint, default: -> { "snowflake53(3)" } do |t|
      t.text :body
    end
  end
end
# README snippet ends

# The ID formats of other systems: an ObjectId key, a KSUID and an XID
# column filled by their DEFAULTs, and arrays of each.
# README gem begins
class CreateDocuments < ActiveRecord::Migration[6.1]
  def up
    create_table :documents, id: :objectid, default: -> { "objectid()" } do |t|
      t.ksuid :event_ref, null: false, default: -> { "ksuid()" }
      t.rsxid :trace, default: -> { "xid()" }
      t.objectid :related, array: true, default: []
      t.ksuid :history, array: true
      t.rsxid :spans, array: true
      t.string :title
    end
  end
end
# README gem ends

class Account < ActiveRecord::Base; end
class User < ActiveRecord::Base; end
class Order < ActiveRecord::Base; end
class Event < ActiveRecord::Base; end
class Message < ActiveRecord::Base; end
class Document < ActiveRecord::Base; end
MODELS = [Account, User, Order, Event, Message, Document].freeze

# A plain CREATE DOMAIN over ulid, a domain over that domain (after which the
# first one's pg_type row is rewritten, so that a scan of pg_type meets the
# domain over it first) and a typeid_define() domain, with arrays of them.
DOMAINS = <<~SQL
  CREATE DOMAIN ulid_ref AS ulid;
  CREATE DOMAIN ulid_ref_ref AS ulid_ref;
  ALTER DOMAIN ulid_ref SET DEFAULT ulid();
  SELECT typeid_define('member_id', 'member');
  CREATE TABLE domain_values (r ulid_ref, rr ulid_ref_ref, m member_id DEFAULT typeid_new('member'),
                              rra ulid_ref_ref[], ma member_id[]);
  INSERT INTO domain_values (rr) SELECT ulid() FROM generate_series(1, 3);
  UPDATE domain_values SET rra = ARRAY[rr, NULL], ma = ARRAY[m];
SQL

class DomainValue < ActiveRecord::Base; end
class NewDomainValue < ActiveRecord::Base; end

# In order: the migration, then what the models see, then the schema dump.
class IdgenActiveRecordTest < Minitest::Test
  i_suck_and_my_tests_are_order_dependent!

  def conn
    ActiveRecord::Base.connection
  end

  def test_01_the_installed_gem_is_loaded
    spec = Gem.loaded_specs["idgen-activerecord"]
    assert spec, "the gem is activated"
    assert_equal Idgen::ActiveRecord::VERSION, spec.version.to_s
    loaded = $LOADED_FEATURES.grep(%r{/idgen/active_record\.rb\z}).first
    assert loaded.start_with?("#{spec.full_gem_path}/"), "#{loaded} is the installed gem's, not the source tree's"
    assert_equal [6, 1], ActiveRecord.version.segments.first(2)
  end

  def test_02_enable_extension_and_the_migration_as_a_plain_owner
    connect(ENV.fetch("PGDATABASE"))
    assert_equal "f", conn.select_value("SELECT rolsuper::text::char FROM pg_roles WHERE rolname = current_user")
    ActiveRecord::Migration.verbose = false
    # each in a transaction of its own, as the migrator runs them
    [EnableIdgen, CreateShop, CreateDocuments].each { |klass| conn.transaction { klass.new.migrate(:up) } }
    assert conn.extension_enabled?("idgen")
    assert_equal ENV.fetch("PGUSER"), conn.select_value("SELECT extowner::regrole::text FROM pg_extension WHERE extname = 'idgen'")
  end

  def test_03_no_unknown_oid_warning_and_the_types
    MODELS.each(&:reset_column_information)
    MODELS.each(&:columns)
    refute_match(/unknown OID/, LOG.string)
    types = Order.columns_hash.transform_values(&:type)
    assert_equal({ "id" => :uuid, "ref" => :ulid, "account_id" => :prefixed_id, "user_id" => :typeid,
                   "token" => :prefixed_id, "external" => :typeid, "note" => :string }, types)
    assert_equal :prefixed_id, Account.columns_hash["id"].type
    assert_equal "account_id", Account.columns_hash["id"].sql_type
    assert_equal({ "id" => :objectid, "event_ref" => :ksuid, "trace" => :rsxid, "related" => :objectid,
                   "history" => :ksuid, "spans" => :rsxid, "title" => :string },
                 Document.columns_hash.transform_values(&:type))
    assert_equal [false, false, false, true, true, true, false], Document.columns.map(&:array)
    # and in the database, the columns have idgen's types
    assert_equal [%w[event_ref ksuid], %w[history ksuid[]], %w[id objectid], %w[related objectid[]],
                  %w[spans rsxid[]], %w[trace rsxid]],
                 conn.select_rows("SELECT attname::text, format_type(atttypid, NULL) FROM pg_attribute
                                   WHERE attrelid = 'documents'::regclass AND attnum > 0 AND attname <> 'title'
                                   ORDER BY attname")
  end

  def test_04_default_lambdas_and_domain_defaults_fire
    account = Account.create!(name: "Acme")
    user = User.create!(email: "ada@example.com")
    assert_match(/\Aacct_[0-9a-z]{25}\z/, account.id)
    assert_match(/\Auser_[0-7][0-9a-hjkmnp-tv-z]{25}\z/, user.id)
    order = Order.create!(account_id: account.id, user_id: user.id, note: "first")
    assert_match(/\A\h{8}-\h{4}-7\h{3}-[89ab]\h{3}-\h{12}\z/, order.id)
    assert_match(/\A[0-7][0-9A-HJKMNP-TV-Z]{25}\z/, order.reload.ref)
    event = Event.create!(kind: "signup")
    message = Message.create!(body: "hello")
    assert_equal 7, conn.select_value("SELECT snowflake_shard(#{event.id})")
    assert_operator message.id, :<, 2**53
    assert_equal account.id, conn.select_value("SELECT id::text FROM accounts")
  end

  def test_05_find_update_and_delete_by_each_type
    account = Account.create!(name: "Finders")
    order = Order.create!(account_id: account.id, note: "find me").reload
    assert_equal order.id, Order.find_by(ref: order.ref.downcase).id
    assert_equal [order.id], Order.where(account_id: account.id).pluck(:id)
    assert_nil order.user_id, "DEFAULT NULL on a reference to a domain key"
    # a reference left out mints nothing: NOT NULL fires, not the foreign key on a minted acct_
    # (the base type: null: false drops a default: nil, and the domain's DEFAULT would apply)
    assert_raises(ActiveRecord::NotNullViolation) { Order.create!(note: "no account") }
    assert_nil conn.select_value(
      "SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'orders'::regclass" \
      " AND adnum = (SELECT attnum FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'account_id')")
    Order.where(ref: order.ref).update_all(note: "updated")
    assert_equal "updated", Order.find(order.id).note
    Account.find(account.id).update!(name: "Renamed")
    assert_equal "Renamed", Account.find(account.id).name
    Order.find(order.id).destroy
    Account.where(id: account.id).delete_all
    assert_nil Account.find_by(id: account.id)
  end

  KSUID_TEXT = /\A[0-9A-Za-z]{27}\z/.freeze
  OBJECTID_TEXT = /\A[0-9a-f]{24}\z/.freeze
  XID_TEXT = /\A[0-9a-v]{19}[0g]\z/.freeze

  def test_05_ksuid_objectid_and_rsxid_columns_and_arrays
    document = Document.create!(title: "first")
    assert_match OBJECTID_TEXT, document.id, "the objectid() key comes back from create!"
    document.reload
    assert_match KSUID_TEXT, document.event_ref
    assert_match XID_TEXT, document.trace
    assert_equal [], document.related
    assert_nil document.history
    # the DEFAULTs minted them now, as the database reads them back
    assert_equal [0, 0, 0], conn.select_rows(<<~SQL).first.map(&:to_i)
      SELECT round(extract(epoch FROM now() - objectid_time(id)) / 60), round(extract(epoch FROM now() - ksuid_time(event_ref)) / 60),
             round(extract(epoch FROM now() - xid_time(trace)) / 60)
      FROM documents WHERE id = '#{document.id}'
    SQL
    # arrays, with a NULL element, read back and checked in the database
    other = Document.create!(title: "second", related: [document.id], history: [document.event_ref],
                             spans: [document.trace, nil])
    other.reload
    assert_equal [[document.id], [document.event_ref], [document.trace, nil]], [other.related, other.history, other.spans]
    assert_equal [document.id, document.event_ref, document.trace, "t"], conn.select_rows(<<~SQL).first
      SELECT related[1]::text, history[1]::text, spans[1]::text, (spans[2] IS NULL)::text::char FROM documents WHERE id = '#{other.id}'
    SQL
    assert_equal "objectid[]", conn.select_value("SELECT pg_typeof(related)::text FROM documents WHERE id = '#{other.id}'")
    # found, updated and deleted by each type; an ObjectId also in upper case, as the server reads it
    assert_equal other.id, Document.find(other.id.upcase).id
    assert_equal [document.id], Document.where(event_ref: document.event_ref).pluck(:id)
    assert_equal [document.id], Document.where(trace: document.trace).pluck(:id)
    assert_equal [other.id], Document.where("? = ANY (spans)", document.trace).pluck(:id)
    Document.find(other.id).update!(title: "renamed", spans: [])
    assert_equal ["renamed", []], Document.where(id: other.id).pluck(:title, :spans).first
    Document.find(other.id).destroy
    assert_nil Document.find_by(id: other.id)
  end

  def test_05_ksuid_objectid_and_rsxid_refuse_bad_text
    { event_ref: "0ujtsYcgvSTl8PAuAdqWYSMnLO", trace: "9M4E2MR0UI3E8A215N4G", related: ["56e1fc72e0c917e9c471416g"] }
      .each do |column, text|
      error = assert_raises(ActiveRecord::StatementInvalid, column) { Document.create!(column => text) }
      assert_equal "22P02", error.cause.result.error_field(PG::Result::PG_DIAG_SQLSTATE), column
    end
    error = assert_raises(ActiveRecord::StatementInvalid) { Document.find("56e1fc72e0c917e9c471416") }
    assert_equal "22P02", error.cause.result.error_field(PG::Result::PG_DIAG_SQLSTATE)
  end

  def test_06_a_domain_refuses_another_prefix
    error = assert_raises(ActiveRecord::StatementInvalid) { Account.create!(id: "team_#{'0' * 25}", name: "x") }
    assert_equal "23514", error.cause.result.error_field(PG::Result::PG_DIAG_SQLSTATE)
  end

  def test_07_schema_rb_dumps_the_domains_and_every_table
    dump = schema_rb
    File.write(ENV["IDGEN_SCHEMA_RB"], dump) if ENV["IDGEN_SCHEMA_RB"]
    refute_match(/Could not dump/, dump)
    assert_match(/enable_extension "idgen"/, dump)
    assert_match(/execute "SELECT prefixed_id_define\('account_id', 'acct'\)"/, dump)
    assert_match(/execute "SELECT typeid_define\('user_id', 'user'\)"/, dump)
    assert_match(/create_table "accounts", id: "account_id"/, dump)
    assert_match(/create_table "orders", id: :uuid, default: -> \{ "uuid_v7\(\)" \}/, dump)
    assert_match(/t\.ulid "ref", default: -> \{ "ulid\(\)" \}, null: false/, dump)
    assert_match(/t\.prefixed_id "account_id", null: false$/, dump)
    assert_match(/t\.prefixed_id "token"/, dump)
    assert_match(/t\.typeid "external"/, dump)
    assert_match(/create_table "events", id: :bigint, default: -> \{ "snowflake\(7\)" \}/, dump)
    assert_match(/t\.column "user_id", "user_id", default: nil$/, dump)
    assert_match(/create_table "documents", id: :objectid, default: -> \{ "objectid\(\)" \}/, dump)
    assert_match(/t\.ksuid "event_ref", default: -> \{ "ksuid\(\)" \}, null: false$/, dump)
    assert_match(/t\.rsxid "trace", default: -> \{ "xid\(\)" \}$/, dump)
    assert_match(/t\.objectid "related", default: \[\], array: true$/, dump)
    assert_match(/t\.ksuid "history", array: true$/, dump)
    assert_match(/t\.rsxid "spans", array: true$/, dump)
    refute_match(/idgen_shard_claim|prefixed_id_registry/, dump, "the extension's own tables are left to CREATE EXTENSION")
  end

  def test_08_schema_rb_loads_into_an_empty_database
    dump = schema_rb
    connect(ENV.fetch("IDGEN_COPY_DATABASE"))
    ActiveRecord::Schema.verbose = false
    eval(dump, TOPLEVEL_BINDING) # rubocop:disable Security/Eval
    assert_equal "prefixed_id", conn.select_value(
      "SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'account_id'")
    MODELS.each(&:reset_column_information)
    account = Account.create!(name: "Copy")
    assert_match(/\Aacct_/, account.id)
    order = Order.create!(account_id: account.id).reload
    assert_match(/\A[0-7][0-9A-Z]{25}\z/, order.ref)
    assert_operator Event.create!(kind: "copy").id, :>=, 2**53
    document = Document.create!(title: "copy").reload
    assert_match OBJECTID_TEXT, document.id
    assert_match KSUID_TEXT, document.event_ref
    assert_match XID_TEXT, document.trace
    assert_equal %w[objectid ksuid rsxid objectid[]], conn.select_rows(<<~SQL).first
      SELECT pg_typeof(id)::text, pg_typeof(event_ref)::text, pg_typeof(trace)::text, pg_typeof(related)::text
      FROM documents WHERE id = '#{document.id}'
    SQL
    assert_equal schema_rb, dump, "the loaded schema dumps as the original did"
    refute_match(/unknown OID/, LOG.string)
  end

  def test_09_domains_over_domains_and_their_arrays
    connect(ENV.fetch("PGDATABASE"))
    conn.execute(DOMAINS)
    # the connection that created them (its type map loads each OID when it meets it), then a new one
    2.times do |fresh|
      if fresh == 1
        ActiveRecord::Base.connection_pool.disconnect!
        connect(ENV.fetch("PGDATABASE"))
      end
      _, warnings = capture_io do
        DomainValue.reset_column_information
        assert_equal({ "r" => :ulid, "rr" => :ulid, "m" => :typeid, "rra" => :ulid, "ma" => :typeid },
                     DomainValue.columns_hash.transform_values(&:type))
        assert_equal [false, false, false, true, true], DomainValue.columns.map(&:array)
        rows = DomainValue.order(:rr).to_a
        assert_equal 3, rows.size
        rows.each do |row|
          assert_match(/\A[0-7][0-9A-HJKMNP-TV-Z]{25}\z/, row.r)
          assert_equal [row.rr, nil], row.rra
          assert_equal [row.m], row.ma
          assert_match(/\Amember_/, row.m)
        end
        assert_equal 1, DomainValue.where(rr: rows[0].rr).count
      end
      assert_empty warnings, "no warning from the type map (connection #{fresh + 1})"
    end
    refute_match(/unknown OID/, LOG.string)
  end

  # Domains over ksuid, objectid and rsxid (a domain over a domain over
  # rsxid), with arrays: each is its base type, also for rsxid, whose family is
  # named xid (PostgreSQL's own xid is another type).
  NEW_DOMAINS = <<~SQL
    CREATE DOMAIN ksuid_ref AS ksuid;
    CREATE DOMAIN objectid_ref AS objectid;
    CREATE DOMAIN xid_ref AS rsxid;
    CREATE DOMAIN xid_ref_ref AS xid_ref;
    CREATE TABLE new_domain_values (k ksuid_ref, o objectid_ref, x xid_ref, xx xid_ref_ref, xxa xid_ref_ref[], ka ksuid_ref[]);
    INSERT INTO new_domain_values SELECT ksuid(), objectid(), xid(), xid() FROM generate_series(1, 3);
    UPDATE new_domain_values SET xxa = ARRAY[xx, NULL], ka = ARRAY[k];
  SQL

  def test_10_domains_over_ksuid_objectid_and_rsxid
    conn.execute(NEW_DOMAINS)
    ActiveRecord::Base.connection_pool.disconnect!
    connect(ENV.fetch("PGDATABASE"))
    _, warnings = capture_io do
      NewDomainValue.reset_column_information
      assert_equal({ "k" => :ksuid, "o" => :objectid, "x" => :rsxid, "xx" => :rsxid, "xxa" => :rsxid, "ka" => :ksuid },
                   NewDomainValue.columns_hash.transform_values(&:type))
      rows = NewDomainValue.order(:o).to_a
      assert_equal 3, rows.size
      rows.each do |row|
        assert_match KSUID_TEXT, row.k
        assert_match OBJECTID_TEXT, row.o
        assert_match XID_TEXT, row.xx
        assert_equal [[row.xx, nil], [row.k]], [row.xxa, row.ka]
      end
      assert_equal 1, NewDomainValue.where(x: rows[0].x, o: rows[0].o.upcase).count
    end
    assert_empty warnings, "no warning from the type map"
    refute_match(/unknown OID/, LOG.string)
  end

  # Idgen::Decode on the values the models return: the server's decoders'
  # answers (test_decode.rb holds them to the server on 100,000 values each).
  def test_11_decoders_read_what_the_models_return
    account = Account.create!(name: "Decoded")
    # README gem begins
    require "idgen/decode"

    order = Order.create!(account_id: account.id).reload
    minted = Idgen::Decode.uuid_v7_time(order.id)              # the key's millisecond, a UTC Time
    ref_time = Idgen::Decode.ulid_time(order.ref)              # the ULID's millisecond
    event = Event.create!(kind: "decoded")
    shard = Idgen::Decode.snowflake_shard(event.id)            # 7: the DEFAULT is snowflake(7)
    issued = Idgen::Decode.snowflake_time(event.id)            # counted from 2024-01-01, idgen.snowflake_epoch's default
    document = Document.create!(title: "decoded").reload
    second = Idgen::Decode.objectid_time(document.id)          # objectid_process, objectid_counter likewise
    payload = Idgen::Decode.ksuid_payload(document.event_ref)  # 16 bytes, a binary String
    pid = Idgen::Decode.xid_pid(document.trace)                # the server's process id, an Integer
    # README gem ends
    want = conn.select_rows(<<~SQL).first
      SELECT uuid_v7_time(o.id), ulid_time(o.ref), snowflake_shard(e.id), snowflake_time(e.id), objectid_time(d.id),
             encode(ksuid_payload(d.event_ref), 'hex'), xid_pid(d.trace)
      FROM orders o, events e, documents d WHERE o.id = '#{order.id}' AND e.id = #{event.id} AND d.id = '#{document.id}'
    SQL
    assert_equal want, [minted, ref_time, shard, issued, second, payload.unpack1("H*"), pid]
    assert_equal 7, shard
    [minted, ref_time, issued, second].each { |t| assert t.utc? && (Time.now - t).abs < 300, t.inspect }
  end

  def schema_rb
    out = StringIO.new
    ActiveRecord::SchemaDumper.dump(conn, out)
    out.string
  end
end
