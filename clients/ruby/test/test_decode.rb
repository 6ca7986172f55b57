# frozen_string_literal: true

# Idgen::Decode held to the extension: every case of its vectors file
# (test/data/id_vectors.json, or IDGEN_VECTORS: the C++ cores' answers) and
# of the Timeflake and push ID data of ../shared/data (IDGEN_SHARED_DATA),
# offline; then the server's own decoders on 100,000 values per family,
# minted and random, each family fetched in one query through ActiveRecord
# (so the decoders read what it returns) and compared in Ruby; and every
# refusal, the server's SQLSTATE beside the decoder's error. The server is
# libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE), as in
# test_idgen_active_record.rb; it loads the gem as installed.
require "minitest/autorun"
require "json"

gem "idgen-activerecord"
require "idgen/decode"
# Idgen::Decode needs no ActiveRecord: nothing above loaded it.
ACTIVE_RECORD_BEFORE = defined?(::ActiveRecord)
require "active_record"
require "bigdecimal"

VECTORS_PATH = ENV["IDGEN_VECTORS"] || File.expand_path("../../../test/data/id_vectors.json", __dir__)
VECTORS = JSON.parse(File.read(VECTORS_PATH))
FAMILIES = VECTORS.fetch("families")
N = Integer(ENV.fetch("IDGEN_DECODER_VALUES", "100000"))
UNIX_EPOCH = Time.utc(1970)
OTHER_EPOCH = Time.utc(2010, 11, 4, 1, 42, Rational("54.657321")) # a microsecond epoch

def cases(family, form)
  FAMILIES.fetch(family).fetch("cases").fetch(form)
end

def hex_bytes(hex)
  [hex].pack("H*")
end

def uuid_of(hex)
  "#{hex[0, 8]}-#{hex[8, 4]}-#{hex[12, 4]}-#{hex[16, 4]}-#{hex[20, 12]}"
end

def ms_time(ms)
  Time.at(Rational(ms, 1000), in: "UTC")
end

# The vectors file's cases, the shared data and the refusals: no server.
class DecodeOfflineTest < Minitest::Test
  D = Idgen::Decode

  def test_01_the_installed_gem_is_loaded_without_active_record
    spec = Gem.loaded_specs["idgen-activerecord"]
    assert spec, "the gem is activated"
    loaded = $LOADED_FEATURES.grep(%r{/idgen/decode\.rb\z}).first
    assert loaded&.start_with?("#{spec.full_gem_path}/"), "#{loaded} is the installed gem's (the gemspec lists it)"
    assert_nil ACTIVE_RECORD_BEFORE, "require \"idgen/decode\" loads no ActiveRecord"
  end

  def test_layouts_alphabets_and_epochs_are_the_vectors
    %w[snowflake snowflake53 ksuid objectid xid].each do |family|
      assert_equal FAMILIES[family]["fields"].map { |f| f["bits"] }, D::LAYOUTS[family.to_sym], family
    end
    %w[snowflake snowflake53].each do |family|
      assert_equal ms_time(FAMILIES[family]["epoch_unix_ms"]), D::DEFAULT_SNOWFLAKE_EPOCH, family
    end
    assert D::DEFAULT_SNOWFLAKE_EPOCH.utc?
    assert_equal FAMILIES["ulid"]["alphabet"], D::ULID_ALPHABET
    assert_equal FAMILIES["ksuid"]["alphabet"], D::KSUID_ALPHABET
    assert_equal FAMILIES["xid"]["alphabet"], D::XID_ALPHABET
    assert_equal Time.at(FAMILIES["ksuid"]["epoch_unix_s"]), D::KSUID_EPOCH
    # the decoders' ranges are the vectors' too
    assert_equal 1088, D.snowflake_shard(Integer(FAMILIES["snowflake"]["min_id"]) + (1088 << 10))
    assert_raises(D::Error) { D.snowflake_shard(Integer(FAMILIES["snowflake"]["min_id"]) - 1) }
    assert_equal 15, D.snowflake53_shard(Integer(FAMILIES["snowflake53"]["max_id"]))
    assert_raises(D::Error) { D.snowflake53_shard(Integer(FAMILIES["snowflake53"]["max_id"]) + 1) }
  end

  def test_uuid_v7_time_vectors
    cases("uuid_v7", "bits").each do |c|
      want = c["unix_ms"] && ms_time(c["unix_ms"])
      [hex_bytes(c["bits"]), uuid_of(c["bits"]), uuid_of(c["bits"]).upcase, c["bits"]].each do |value|
        got = D.uuid_v7_time(value)
        want ? assert_equal(want, got, c["what"]) : assert_nil(got, c["what"])
        assert got.utc? if got
      end
    end
  end

  def test_snowflake_vectors
    %w[snowflake snowflake53].each do |family|
      time, shard, seq = %w[_time _shard _seq].map { |suffix| D.method("#{family}#{suffix}") }
      cases(family, "id").each do |c|
        id = Integer(c["id"])
        what = "#{family}: #{c['what']}"
        unless c["ok"]
          [time, shard, seq].each { |fn| assert_raises(D::Error, what) { fn.call(id) } }
          next
        end
        # without an epoch, the default; with one, counted from it
        assert_equal D::DEFAULT_SNOWFLAKE_EPOCH + Rational(c["ms"], 1000), time.call(id), what
        assert_equal ms_time(c["ms"]), time.call(id, epoch: UNIX_EPOCH), what
        assert_equal OTHER_EPOCH + Rational(c["ms"], 1000), time.call(id, epoch: OTHER_EPOCH), what
        assert_equal [c["shard"], c["seq"]], [shard.call(id), seq.call(id)], what
      end
    end
  end

  def test_ulid_text_vectors
    cases("ulid", "text").each do |c|
      text = c["text"]
      if c["ok"]
        uuid = uuid_of(c["bits"])
        assert_equal [c["canonical"], ms_time(c["unix_ms"]), uuid, uuid],
                     [D.ulid_text(text), D.ulid_time(text), D.ulid_to_uuid(text), D.ulid_from_text(text)], c["what"]
      else
        %i[ulid_text ulid_time ulid_to_uuid ulid_from_text].each do |fn|
          assert_raises(D::Error, "#{fn}: #{c['what']}") { D.public_send(fn, text) }
        end
      end
    end
  end

  def test_ulid_bits_vectors
    cases("ulid", "bits").each do |c|
      bytes, uuid = hex_bytes(c["bits"]), uuid_of(c["bits"])
      assert_equal [c["text"]] * 4 + [ms_time(c["unix_ms"]), uuid],
                   [D.ulid_text(bytes), D.ulid_text(uuid), D.ulid_text(uuid.upcase), D.uuid_to_ulid(bytes),
                    D.ulid_time(bytes), D.ulid_to_uuid(bytes)], c["what"]
      assert_equal c["text"], D.uuid_to_ulid(uuid), c["what"]
      assert_equal uuid, D.ulid_from_text(c["text"].downcase), c["what"]
    end
  end

  # KSUID, ObjectId and XID: each field decoder on every text and bits case.
  RAW = { "ksuid" => %w[time payload], "objectid" => %w[time process counter], "xid" => %w[time machine pid counter] }.freeze

  def raw_want(family, c)
    RAW[family].map do |f|
      next Time.at(c["unix_s"], in: "UTC") if f == "time"

      c[f].is_a?(String) ? hex_bytes(c[f]) : c[f]
    end
  end

  def raw_got(family, value)
    RAW[family].map { |f| D.public_send("#{family}_#{f}", value) }
  end

  def test_ksuid_objectid_xid_vectors
    RAW.each_key do |family|
      cases(family, "text").each do |c|
        what = "#{family}: #{c['what']}"
        if c["ok"]
          assert_equal raw_want(family, c), raw_got(family, c["text"]), what
        else
          RAW[family].each { |f| assert_raises(D::Error, "#{f} of #{what}") { D.public_send("#{family}_#{f}", c["text"]) } }
        end
      end
      cases(family, "bits").each do |c|
        assert_equal raw_want(family, c), raw_got(family, hex_bytes(c["bits"])), "#{family}: #{c['what']}"
      end
    end
  end

  # Returned bytes are binary Strings, times UTC Times to the second.
  def test_field_values_are_binary_strings_and_utc_times
    values = raw_got("xid", "9m4e2mr0ui3e8a215n4g") + raw_got("ksuid", "0ujtsYcgvSTl8PAuAdqWYSMnLOv") +
             raw_got("objectid", "56e1fc72e0c917e9c4714161")
    values.grep(String).each { |s| assert_equal Encoding::BINARY, s.encoding }
    values.grep(Time).each { |t| assert t.utc? && t.subsec.zero? }
    bytes = hex_bytes("56e1fc72e0c917e9c4714161")
    D.objectid_process(bytes) << "x"
    assert_equal 12, bytes.bytesize, "the caller's bytes are not shared"
  end

  # The server_text cases: look-alikes of uuid and int8 text, refused.
  def test_server_text_look_alikes
    VECTORS["server_text"]["cases"].each do |c|
      if c["family"] == "uuid"
        %i[uuid_v7_time timeflake_time timeflake_random uuid_to_ulid].each do |fn|
          assert_raises(D::Error, "#{fn}: #{c['what']}") { D.public_send(fn, c["text"]) }
        end
      else # a snowflake is an Integer: no text is read
        assert_raises(D::Error, c["what"]) { D.snowflake_time(c["text"]) }
      end
    end
  end

  # Timeflake's README flakes and the push ID prefixes of ../shared/data.
  def test_timeflake_and_push_id_shared_data
    directory = ENV["IDGEN_SHARED_DATA"] || File.expand_path("../../../../shared/data", __dir__)
    skip "no ../shared/data (IDGEN_SHARED_DATA)" unless File.directory?(directory)
    flakes = JSON.parse(File.read(File.join(directory, "timeflake-pushid", "timeflake.json")))
    prefixes = JSON.parse(File.read(File.join(directory, "timeflake-pushid", "pushid_prefix.json")))
    assert_equal prefixes["alphabet"], D::PUSH_ID_ALPHABET
    assert_operator flakes["cases"].size, :>=, 2
    flakes["cases"].each do |c|
      [c["uuid"], hex_bytes(c["hex"])].each do |flake|
        assert_equal [ms_time(c["timestamp_ms"]), Integer(c["random"])], [D.timeflake_time(flake), D.timeflake_random(flake)]
      end
    end
    assert_operator prefixes["cases"].size, :>=, 2
    prefixes["cases"].each do |c|
      text = c["prefix"] + "-" * 12
      assert D.push_id_is_valid(text)
      assert_equal ms_time(c["timestamp_ms"]), D.push_id_time(text)
    end
  end

  # The README's examples, offline.
  def test_readme_examples
    # README gem begins
    k_second = Idgen::Decode.ksuid_time("0ujtsYcgvSTl8PAuAdqWYSMnLOv")          # 2017-10-10 04:00:47 UTC
    payload = Idgen::Decode.ksuid_payload("0ujtsYcgvSTl8PAuAdqWYSMnLOv")        # 16 bytes, a binary String
    o_counter = Idgen::Decode.objectid_counter("56E1FC72E0C917E9C4714161")      # 7422305 (either case)
    machine = Idgen::Decode.xid_machine("9m4e2mr0ui3e8a215n4g").unpack1("H*")   # "60f486"
    x_pid = Idgen::Decode.xid_pid("9m4e2mr0ui3e8a215n4g")                       # 58408
    flake = "016fb420-9023-b444-fd07-590f81b7b0eb"                               # Timeflake's README
    f_time = Idgen::Decode.timeflake_time(flake)                                # 2020-01-17 15:30:30.563 UTC
    f_random = Idgen::Decode.timeflake_random(flake)                            # 851298578153087956398315
    p_time = Idgen::Decode.push_id_time("-Lyo78-Y------------")                 # the same millisecond
    # README gem ends
    assert_equal Time.utc(2017, 10, 10, 4, 0, 47), k_second
    assert_equal "b5a1cd34b5f99d1154fb6853345c9735", payload.unpack1("H*")
    assert_equal [7422305, "60f486", 58408], [o_counter, machine, x_pid]
    assert_equal [Time.utc(2020, 1, 17, 15, 30, Rational("30.563")), 851298578153087956398315], [f_time, f_random]
    assert_equal f_time, p_time

    # README gem begins
    ulid = "01H455VB4PEX5VSKNK084SN02Q"
    uuid = Idgen::Decode.ulid_to_uuid(ulid)            # "01890a5d-ac96-774b-bcce-b302099a8057", as ulid::uuid
    back = Idgen::Decode.uuid_to_ulid(uuid)            # "01H455VB4PEX5VSKNK084SN02Q", as uuid::ulid
    upper = Idgen::Decode.ulid_text(ulid.downcase)     # the server's text of a ULID: uppercase
    millisecond = Idgen::Decode.ulid_time(ulid)        # 2023-06-30 03:34:18.518 UTC
    shard = Idgen::Decode.snowflake_shard(8388608000001263623)                           # 1234
    minted = Idgen::Decode.snowflake_time(8388608000001263623, epoch: Time.utc(2020))   # from the server's epoch
    # README gem ends
    assert_equal ["01890a5d-ac96-774b-bcce-b302099a8057", ulid, ulid], [uuid, back, upper]
    assert_equal [Time.utc(2023, 6, 30, 3, 34, Rational("18.518")), 1234], [millisecond, shard]
    assert_equal Time.utc(2020) + 1_000_000_000, minted

    # README gem begins
    begin
      Idgen::Decode.snowflake_time(5)
    rescue Idgen::Decode::Error => e # an ArgumentError
      e.message # "5 is a snowflake53 id, not a snowflake id (decode it with snowflake53_time, ...)"
    end
    # README gem ends
    assert_match(/\A5 is a snowflake53 id, not a snowflake id \(decode it with snowflake53_time, /, e.message)
  end

  # Every refusal: input of another class, text the server refuses, IDs of
  # the other split or out of range, epochs outside the server's range.
  def test_every_error_path
    assert_operator D::Error, :<, ArgumentError
    refusals = {
      # 128 bits: a uuid's text or 16 bytes
      [:uuid_v7_time, :timeflake_time, :timeflake_random, :uuid_to_ulid] => [
        nil, 5, :sym, "01890a5d-ac96-774b-bcce-b302099a805", "01890a5d-ac96774b-bcce-b302099a8057",
        "{01890a5d-ac96-774b-bcce-b302099a8057}", " 01890a5d-ac96-774b-bcce-b302099a8057", "01890a5dac96774bbcceb302099a805g",
        "\xff" * 36, "x" * 16, hex_bytes("00" * 15), hex_bytes("00" * 17), "01H455VB4PEX5VSKNK084SN02Q"
      ],
      # ULID text (or 16 bytes)
      [:ulid_time, :ulid_to_uuid] => [nil, 5, "01H455VB4PEX5VSKNK084SN02", "01H455VB4PEX5VSKNK084SN02I", "80000000000000000000000000",
                                      "01890a5d-ac96-774b-bcce-b302099a8057", hex_bytes("00" * 15), "\xff" * 26],
      [:ulid_text] => [nil, 5, "01H455VB4PEX5VSKNK084SN02I", "01890a5d-ac96-774b-bcce-b302099a805g", hex_bytes("00" * 12)],
      [:ulid_from_text] => [nil, 5, hex_bytes("00" * 16), "01890a5d-ac96-774b-bcce-b302099a8057", "7ZZZZZZZZZZZZZZZZZZZZZZZZZZ"],
      %i[ksuid_time ksuid_payload] => [nil, 1507608047, "aWgEPTl1tmebfsQzFP4bxwgy80W", "0ujtsYcgvSTl8PAuAdqWYSMnLO",
                                       "0ujtsYcgvSTl8PAuAdqWYSMnLO-", hex_bytes("00" * 19), hex_bytes("00" * 21)],
      %i[objectid_time objectid_process objectid_counter] => [nil, 7, "56e1fc72e0c917e9c471416g", "56e1fc72e0c917e9c471416",
                                                              hex_bytes("00" * 11), hex_bytes("00" * 20)],
      %i[xid_time xid_machine xid_pid xid_counter] => [nil, 7, "9M4E2MR0UI3E8A215N4G", "9m4e2mr0ui3e8a215n4h", "9m4e2mr0ui3e8a215n4",
                                                       hex_bytes("00" * 13), "56e1fc72e0c917e9c4714161"],
      %i[snowflake_time snowflake_shard snowflake_seq] => [nil, "9007199254740992", 9007199254740992.0, 2**53 - 1, 0, -1,
                                                          -2**63, 2**63, 2**64],
      %i[snowflake53_time snowflake53_shard snowflake53_seq] => [nil, "0", 0.0, 2**53, -1, 2**63 - 1, 2**63, -2**63],
      [:push_id_time] => [nil, 5, "", "-Lyo78-Y-----------", "-Lyo78-Y-------------", "-Lyo78-Y-----------.",
                          "-Lyo78-Y-----------\u00e9", "-Lyo78-Y-----------\0", "\xff" * 20,
                          "-Lyo78-Y------------".encode("UTF-16LE")]
    }
    refusals.each do |functions, values|
      functions.each do |fn|
        values.each do |value|
          error = assert_raises(D::Error, "#{fn}(#{value.inspect})") { D.public_send(fn, value) }
          assert_match(/\A[a-z0-9]/, error.message, "#{fn}(#{value.inspect}): a lowercase message")
        end
      end
    end
    # push_id_is_valid answers false instead
    refusals[[:push_id_time]].each { |value| refute D.push_id_is_valid(value), value.inspect }
    # the epoch: a Time from 1970 to before the year 10000, checked before the ID, as the server does
    [nil, "2024-01-01", 1_704_067_200, Time.utc(1969, 12, 31, 23, 59, 59), Time.utc(10_000), Time.at(-1, in: "UTC")].each do |epoch|
      [[:snowflake_time, 2**60], [:snowflake53_time, 5], [:snowflake_time, 5]].each do |fn, id|
        error = assert_raises(D::Error, "#{fn}(#{id}, epoch: #{epoch.inspect})") { D.public_send(fn, id, epoch: epoch) }
        assert_match(/epoch/, error.message)
      end
    end
    # and the edges it takes: 1970 and the last microsecond of 9999 (whose IDs' times pass the year 10000)
    assert_equal UNIX_EPOCH + Rational(2**30, 1000), D.snowflake_time(2**53, epoch: UNIX_EPOCH)
    last = Time.utc(9999, 12, 31, 23, 59, Rational("59.999999"))
    assert_equal last + Rational(2**30, 1000), D.snowflake_time(2**53, epoch: last)
    assert_equal Time.utc(2024) + Rational(1, 1000), D.snowflake53_time(1 << 13, epoch: Time.utc(2024) + Rational(1, 10**9))
  end
end

# The server's answers on N values per family, each fetched in one query.
class DecodeServerTest < Minitest::Test
  D = Idgen::Decode
  RANDOM_BYTES = "substring(decode(md5(random()::text) || md5(random()::text), 'hex') FROM 1 FOR %d)"
  ALPHABET = D::PUSH_ID_ALPHABET

  def setup
    skip "no server: PGDATABASE is not set" unless ENV["PGDATABASE"]
    return if ActiveRecord::Base.connected?

    ActiveRecord::Base.establish_connection(adapter: "postgresql", database: ENV.fetch("PGDATABASE"))
    conn.execute("CREATE EXTENSION IF NOT EXISTS idgen")
  end

  def conn
    ActiveRecord::Base.connection
  end

  # The rows of sql, N of them, as ActiveRecord returns them.
  def rows(sql)
    result = conn.select_rows(sql)
    assert_equal N, result.size
    result
  end

  def bytea(text)
    PG::Connection.unescape_bytea(text)
  end

  # The rows whose decoded values differ from the server's, at most 5 shown.
  def assert_agree(what, rows)
    bad = rows.reject { |row| yield(*row) }
    assert_empty bad.first(5), "#{what}: #{bad.size} of #{rows.size} rows differ"
  end

  def test_uuid_v7_time
    values = rows(<<~SQL)
      SELECT u, uuid_send(u), uuid_v7_time(u) FROM (
        SELECT CASE i % 4 WHEN 0 THEN uuid_v7() WHEN 1 THEN uuid_v7_at(timestamptz '1970-01-01+00' + random() * interval '8000 years')
               WHEN 2 THEN gen_random_uuid() ELSE md5(random()::text)::uuid END AS u FROM generate_series(1, #{N}) i) s
    SQL
    assert_agree("uuid_v7_time", values) do |u, bytes, time|
      D.uuid_v7_time(u) == time && D.uuid_v7_time(bytea(bytes)) == time && D.uuid_v7_time(u.upcase) == time
    end
    nils = values.count { |row| row[2].nil? }
    assert_operator nils, :>, N / 4, "both kinds"
    assert_operator nils, :<, N / 2, "both kinds"
  end

  %w[snowflake snowflake53].each do |family|
    define_method("test_#{family}_fields") do
      random = family == "snowflake" ? "(9007199254740992 + floor(random() * (9223372036854775807 - 9007199254740992)::numeric))::bigint"
                                     : "floor(random() * 9007199254740992)::bigint"
      shards = family == "snowflake" ? 8192 : 16
      values = rows(<<~SQL)
        SELECT id, #{family}_time(id), #{family}_time(id, '2024-01-01+00'), #{family}_time(id, '2010-11-04 01:42:54.657321+00'),
               #{family}_shard(id), #{family}_seq(id)
        FROM (SELECT CASE WHEN i % 2 = 0 THEN #{family}((i / 2) % #{shards}) ELSE #{random} END AS id FROM generate_series(1, #{N}) i) s
      SQL
      time, shard, seq = %w[_time _shard _seq].map { |suffix| D.method("#{family}#{suffix}") }
      assert_agree(family, values) do |id, setting, default, other, s, q|
        got = time.call(id)
        got == setting && got == default && time.call(id, epoch: OTHER_EPOCH) == other && shard.call(id) == s && seq.call(id) == q
      end
    end
  end

  def test_ulid_conversions
    values = rows(<<~SQL)
      SELECT v::text, v::uuid::text, uuid_send(v::uuid), ulid_time(v) FROM (
        SELECT CASE WHEN i % 2 = 0 THEN ulid() ELSE md5(random()::text)::uuid::ulid END AS v FROM generate_series(1, #{N}) i) s
    SQL
    assert_agree("ulid", values) do |text, uuid, bytes, time|
      raw = bytea(bytes)
      D.ulid_time(text) == time && D.ulid_time(text.downcase) == time && D.ulid_time(raw) == time &&
        D.ulid_to_uuid(text) == uuid && D.ulid_to_uuid(raw) == uuid && D.ulid_from_text(text.downcase) == uuid &&
        D.uuid_to_ulid(uuid) == text && D.uuid_to_ulid(raw) == text && D.ulid_text(raw) == text && D.ulid_text(uuid) == text &&
        D.ulid_text(text.downcase) == text
    end
  end

  # (SQL type, what the server mints, size in bytes, fields): a third minted, the rest random bytes
  RAW = {
    "ksuid" => ["ksuid", "i % 3 = 0 THEN ksuid() WHEN i % 3 = 1 THEN ksuid_at(timestamptz '2014-05-13 16:53:20+00' + " \
                         "random() * interval '136 years')", 20, %w[time payload]],
    "objectid" => ["objectid", "i % 3 = 0 THEN objectid()", 12, %w[time process counter]],
    "xid" => ["rsxid", "i % 3 = 0 THEN xid()", 12, %w[time machine pid counter]]
  }.freeze

  RAW.each do |family, (sql_type, minted, size, fields)|
    define_method("test_#{family}_fields") do
      values = rows(<<~SQL)
        SELECT v::text, v::bytea, #{fields.map { |f| "#{family}_#{f}(v)" }.join(', ')} FROM (
          SELECT CASE WHEN #{minted} ELSE #{format(RANDOM_BYTES, size)}::#{sql_type} END AS v
          FROM generate_series(1, #{N}) i) s
      SQL
      decoders = fields.map { |f| D.method("#{family}_#{f}") }
      assert_agree(family, values) do |text, bytes, *want|
        want = want.map { |w| w.is_a?(String) ? bytea(w) : w }
        variants = [text, bytea(bytes)]
        variants << text.upcase if family == "objectid" # read in either case
        variants.all? { |value| decoders.map { |d| d.call(value) } == want }
      end
    end
  end

  def test_timeflake_time_and_random
    values = rows(<<~SQL)
      SELECT f, uuid_send(f), timeflake_time(f), timeflake_random(f)::text, timeflake_random(f) FROM (
        SELECT CASE i % 3 WHEN 0 THEN timeflake() WHEN 1 THEN timeflake_at(timestamptz '1970-01-01+00' + random() * interval '8000 years')
               ELSE md5(random()::text)::uuid END AS f FROM generate_series(1, #{N}) i) s
    SQL
    assert_agree("timeflake", values) do |f, bytes, time, random, numeric|
      got = D.timeflake_random(f)
      D.timeflake_time(f) == time && D.timeflake_time(bytea(bytes)) == time && got.to_s == random &&
        D.timeflake_random(bytea(bytes)) == got && numeric.is_a?(BigDecimal) && numeric == got
    end
  end

  def test_push_id_time_and_is_valid
    values = rows(<<~SQL)
      SELECT p, push_id_is_valid(p), CASE WHEN push_id_is_valid(p) THEN push_id_time(p) END FROM (
        SELECT CASE i % 4 WHEN 0 THEN push_id() WHEN 1 THEN nanoid(20, '#{ALPHABET}')
               WHEN 2 THEN nanoid(19 + i % 3, '#{ALPHABET}.') ELSE nanoid(20, '#{ALPHABET}\u00e9') END AS p
        FROM generate_series(1, #{N}) i) s
    SQL
    invalid = values.count { |_, valid, _| !valid }
    assert_operator invalid, :>, N / 4, "both kinds"
    assert_agree("push_id", values) do |p, valid, time|
      next false unless D.push_id_is_valid(p) == valid
      next D.push_id_time(p) == time if valid

      begin
        D.push_id_time(p)
        false
      rescue D::Error
        true
      end
    end
  end

  # Values minted now decode to the server's own reading of them, near now.
  def test_minted_values_decode_near_now
    u, s, s53, l, k, o, x, f, p = conn.select_rows(<<~SQL).first
      SELECT uuid_v7(), snowflake(3), snowflake53(2), ulid()::text, ksuid()::text, objectid()::text, xid()::text, timeflake(), push_id()
    SQL
    times = [D.uuid_v7_time(u), D.snowflake_time(s), D.snowflake53_time(s53), D.ulid_time(l), D.ksuid_time(k),
             D.objectid_time(o), D.xid_time(x), D.timeflake_time(f), D.push_id_time(p)]
    assert_equal conn.select_rows(<<~SQL).first, times
      SELECT uuid_v7_time('#{u}'), snowflake_time(#{s}), snowflake53_time(#{s53}), ulid_time('#{l}'), ksuid_time('#{k}'),
             objectid_time('#{o}'), xid_time('#{x}'), timeflake_time('#{f}'), push_id_time('#{p}')
    SQL
    times.each { |t| assert_in_delta Time.now, t, 300 }
    assert_equal [3, 2], [D.snowflake_shard(s), D.snowflake53_shard(s53)]
  end

  # What the decoders refuse, the server refuses, with its SQLSTATE.
  SERVER_REFUSALS = [
    ["SELECT snowflake_time(9007199254740991)", "22003", -> { D.snowflake_time(9007199254740991) }],
    ["SELECT snowflake_shard(-1)", "22003", -> { D.snowflake_shard(-1) }],
    ["SELECT snowflake53_seq(9007199254740992)", "22003", -> { D.snowflake53_seq(9007199254740992) }],
    ["SELECT snowflake_time(9007199254740992, '1969-12-31 23:59:59+00')", "22023",
     -> { D.snowflake_time(9007199254740992, epoch: Time.utc(1969, 12, 31, 23, 59, 59)) }],
    ["SELECT snowflake53_time(-1, '10000-01-01+00')", "22023", -> { D.snowflake53_time(-1, epoch: Time.utc(10_000)) }],
    ["SELECT uuid_v7_time('01890a5d-ac96-774b-bcce-b302099a805g')", "22P02", -> { D.uuid_v7_time("01890a5d-ac96-774b-bcce-b302099a805g") }],
    ["SELECT ulid_time('01H455VB4PEX5VSKNK084SN02I')", "22P02", -> { D.ulid_time("01H455VB4PEX5VSKNK084SN02I") }],
    ["SELECT ulid_time('80000000000000000000000000')", "22P02", -> { D.ulid_time("80000000000000000000000000") }],
    ["SELECT ksuid_time('aWgEPTl1tmebfsQzFP4bxwgy80W')", "22P02", -> { D.ksuid_time("aWgEPTl1tmebfsQzFP4bxwgy80W") }],
    ["SELECT objectid_counter('56e1fc72e0c917e9c471416g')", "22P02", -> { D.objectid_counter("56e1fc72e0c917e9c471416g") }],
    ["SELECT xid_pid('9M4E2MR0UI3E8A215N4G')", "22P02", -> { D.xid_pid("9M4E2MR0UI3E8A215N4G") }],
    ["SELECT xid_pid('9m4e2mr0ui3e8a215n4h')", "22P02", -> { D.xid_pid("9m4e2mr0ui3e8a215n4h") }],
    ["SELECT push_id_time('-Lyo78-Y-----------')", "22P02", -> { D.push_id_time("-Lyo78-Y-----------") }],
    ["SELECT push_id_time('-Lyo78-Y-----------\u00e9')", "22P02", -> { D.push_id_time("-Lyo78-Y-----------\u00e9") }]
  ].freeze

  def test_the_server_refuses_what_the_decoders_refuse
    SERVER_REFUSALS.each do |sql, sqlstate, decode|
      error = assert_raises(ActiveRecord::StatementInvalid, sql) { conn.select_value(sql) }
      assert_equal sqlstate, error.cause.result.error_field(PG::Result::PG_DIAG_SQLSTATE), sql
      assert_raises(D::Error, sql) { decode.call }
    end
  end
end

# Idgen::SnowflakeLayout: the predefined layouts and every snowflake_layout
# case of the vectors file, offline; then IDs the server composes with
# snowflake_layout_compose() over random times and fields in each layout of the
# file, decoded as snowflake_layout_decompose() decodes them and composed as
# the server composes them.
class SnowflakeLayoutTest < Minitest::Test
  L = Idgen::SnowflakeLayout
  LAYOUTS = FAMILIES.fetch("snowflake_layout").fetch("layouts")

  # The file's "name:number,..." as [name, number] pairs.
  def pairs(text)
    text.split(",").map { |p| name, _, n = p.rpartition(":"); [name, Integer(n)] }
  end

  # A layout of the file as the gem makes it.
  def layout_of(name)
    l = LAYOUTS.fetch(name)
    return L.predefined(name, instagram_epoch: l["epoch_unix_ms"]) if l["predefined"]

    L.new(l["epoch_unix_ms"], l["time_unit_ms"], l["fields"].map { |f| [f["name"], f["bits"]] })
  end

  def assert_refused(reason, what)
    e = assert_raises(L::Error, what) { yield }
    assert_equal reason, e.reason, what
    assert_kind_of Idgen::Decode::Error, e
  end

  def test_predefined_layouts_are_the_vectors
    predefined = LAYOUTS.select { |_, l| l["predefined"] }
    assert_equal predefined.keys, L::PREDEFINED.keys
    L::PREDEFINED.each do |name, (epoch, unit, fields)|
      l = predefined.fetch(name)
      assert_equal [name == "instagram" ? nil : l["epoch_unix_ms"], l["time_unit_ms"], l["fields"].map { |f| [f["name"], f["bits"]] }],
                   [epoch, unit, fields], name
    end
    assert_equal (Idgen::Decode::DEFAULT_SNOWFLAKE_EPOCH.to_r * 1000).to_i, L.predefined("instagram").epoch_unix_ms
  end

  def test_predefined_and_define_vectors
    cases("snowflake_layout", "predefined").each do |c|
      make = -> { L.predefined(c["name"], instagram_epoch: c["instagram_epoch_ms"]) }
      next assert_refused(c["reason"], c["what"], &make) unless c["ok"]

      l = make.call
      assert_equal [c["epoch_unix_ms"], c["time_unit_ms"], c["fields"], c["total_bits"], c["end_unix_ms"]],
                   [l.epoch_unix_ms, l.time_unit_ms, l.fields.map { |f| f.join(":") }.join(","), l.total_bits, l.end_unix_ms], c["what"]
    end
    cases("snowflake_layout", "define").each do |c|
      make = -> { L.new(c["epoch_unix_ms"], c["time_unit_ms"], pairs(c["fields"])) }
      next assert_refused(c["reason"], c["what"], &make) unless c["ok"]

      assert_equal [c["total_bits"], c["end_unix_ms"]], [make.call.total_bits, make.call.end_unix_ms], c["what"]
    end
  end

  def test_id_compose_boundary_vectors
    cases("snowflake_layout", "id").each do |c|
      l = layout_of(c["layout"])
      what = "#{c['layout']}: #{c['what']}"
      next assert_refused(c["reason"], what) { l.decompose(Integer(c["id"])) } unless c["ok"]

      d = l.decompose(Integer(c["id"]))
      names = LAYOUTS[c["layout"]]["fields"].map { |f| f["name"] } + ["unix_ms"]
      assert_equal names.to_h { |n| [n, c[n]] }, d.reject { |k, _| k == "timestamp" }, what
      assert_equal ms_time(c["unix_ms"]), l.time(Integer(c["id"])), what
    end
    cases("snowflake_layout", "compose").each do |c|
      compose = -> { layout_of(c["layout"]).compose(c["unix_ms"], pairs(c["fields"]).to_h) }
      what = "#{c['layout']}: #{c['what']}"
      next assert_refused(c["reason"], what, &compose) unless c["ok"]

      assert_equal Integer(c["id"]), compose.call, what
    end
    cases("snowflake_layout", "boundary").each do |c|
      l = layout_of(c["layout"])
      what = "#{c['layout']}: #{c['what']}"
      unless c["ok"]
        assert_refused(c["reason"], what) { l.boundary(c["unix_ms"]) }
        next assert_refused(c["reason"], what) { l.boundary(ms_time(c["unix_ms"]), largest: true) }
      end
      assert_equal [Integer(c["smallest"]), Integer(c["largest"])],
                   [l.boundary(ms_time(c["unix_ms"])), l.boundary(c["unix_ms"], largest: true)], what
    end
  end

  def test_readme_example
    # README gem begins
    parts = Idgen::SnowflakeLayout.predefined("discord").decompose(175_928_847_299_117_063)
    # {"time"=>41944705796, "worker"=>1, "process"=>0, "sequence"=>7, "unix_ms"=>1462015105796, "timestamp"=>2016-04-30 11:18:25.796 UTC}
    shop = Idgen::SnowflakeLayout.new(Time.utc(2020), 1, [["time", 42], ["region", 4], ["worker", 6], ["sequence", 11]])
    id = shop.compose(Time.utc(2026, 12, 4, 5, 0, Rational("0.5")), "region" => 15, "worker" => 63, "sequence" => 2047)
    from = shop.boundary(Time.utc(2026, 12, 4)) # WHERE id >= from
    # README gem ends
    assert_equal [1, 0, 7, 1_462_015_105_796, ms_time(1_462_015_105_796)], parts.values_at("worker", "process", "sequence", "unix_ms", "timestamp")
    assert_equal [458_277_205_837_873_151, 458_239_456_051_200_000], [id, from], "docs/reference.md's figures"
  end

  def test_server_composed_ids_in_every_layout
    skip "no server: PGDATABASE is not set" unless ENV["PGDATABASE"]
    ActiveRecord::Base.establish_connection(adapter: "postgresql", database: ENV.fetch("PGDATABASE")) unless ActiveRecord::Base.connected?
    conn = ActiveRecord::Base.connection
    conn.execute("CREATE EXTENSION IF NOT EXISTS idgen")
    n = N / 10
    LAYOUTS.each do |name, layout|
      unless layout["predefined"]
        conn.execute("DELETE FROM snowflake_layouts WHERE name = #{conn.quote(name)}")
        # one that has run out is inserted as a restore would
        conn.execute(<<~SQL)
          INSERT INTO snowflake_layouts (name, epoch, time_unit_ms, field_names, field_bits)
          VALUES (#{conn.quote(name)}, timestamptz 'epoch' + #{layout['epoch_unix_ms']} * interval '1 ms', #{layout['time_unit_ms']},
                  ARRAY[#{layout['fields'].map { |f| conn.quote(f['name']) }.join(', ')}]::text[], ARRAY[#{layout['fields'].map { |f| f['bits'] }.join(', ')}])
        SQL
      end
      l = layout_of(name)
      span = [l.end_unix_ms, 7_258_118_400_000].min - l.epoch_unix_ms
      fields = l.fields.reject { |f, _| f == "time" }.map { |f, bits| "'#{f}', floor(random() * #{1 << bits})::int8" }.join(", ")
      rows = conn.select_rows(<<~SQL)
        WITH given AS (SELECT (#{l.epoch_unix_ms} + floor(random() * #{span}))::int8 AS ms, jsonb_build_object(#{fields}) AS f
                       FROM generate_series(1, #{n})),
             c AS (SELECT ms, f, snowflake_layout_compose(#{conn.quote(name)}, timestamptz 'epoch' + ms * interval '1 ms', f) AS id FROM given)
        SELECT ms, f::text, id, snowflake_layout_decompose(id, #{conn.quote(name)})::text FROM c
      SQL
      assert_equal n, rows.size
      bad = rows.reject do |ms, f, id, server|
        mine = l.decompose(Integer(id))
        mine["timestamp"] = mine["timestamp"].strftime("%Y-%m-%dT%H:%M:%S.%LZ")
        mine == JSON.parse(server) && l.compose(Integer(ms), JSON.parse(f)) == Integer(id)
      end
      assert_empty bad.first(3), "#{name}: #{bad.size} of #{n} differ"
    end
  end
end
