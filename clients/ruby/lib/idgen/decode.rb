# frozen_string_literal: true

module Idgen
  # The server's decoders in plain Ruby, with no dependency (ActiveRecord not
  # needed): the same answers as uuid_v7_time(), snowflake_time(id[, epoch]),
  # snowflake_shard(), snowflake_seq() and their snowflake53 forms,
  # ulid_time() and the ULID <-> uuid <-> text conversions, the fields of
  # KSUIDs, ObjectIds and XIDs, and the times of Timeflakes and Firebase push
  # IDs. They take the values as ActiveRecord returns them: the server's text
  # (a String) or, for a 128-bit, KSUID, ObjectId or XID value, its raw bytes
  # (a binary String: 16, 20 or 12 bytes); snowflakes are Integers. Times are
  # UTC Times, to the millisecond (to the second for KSUIDs, ObjectIds and
  # XIDs), as the server gives them. Input the server refuses raises
  # Idgen::Decode::Error. Bit layouts: docs/internals.md of idgen.
  module Decode
    extend self

    # What every decoder raises for input the server would refuse (and for a
    # value of the wrong class): an ArgumentError.
    class Error < ArgumentError; end

    # idgen.snowflake_epoch's default, 2024-01-01 00:00:00 UTC.
    DEFAULT_SNOWFLAKE_EPOCH = Time.utc(2024, 1, 1).freeze

    # Each family's fields from the most significant bit, in bits, as the
    # extension's vectors file states them (the tests hold this table to it):
    # the snowflake splits' [zero, ms, shard, seq], KSUID's [seconds,
    # payload], ObjectId's [seconds, process, counter], XID's [seconds,
    # machine, pid, counter]. The decoders shift, mask and slice by them.
    LAYOUTS = {
      snowflake: [1, 40, 13, 10].freeze,
      snowflake53: [11, 40, 4, 9].freeze,
      ksuid: [32, 128].freeze,
      objectid: [32, 40, 24].freeze,
      xid: [32, 24, 16, 24].freeze
    }.freeze

    # The text forms' alphabets, a digit's value being its position.
    ULID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    KSUID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    XID_ALPHABET = "0123456789abcdefghijklmnopqrstuv"
    # The 64 characters of push IDs, in ASCII order.
    PUSH_ID_ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"

    # A KSUID's first 32 bits count seconds from 2014-05-13 16:53:20 UTC (Unix second 1,400,000,000).
    KSUID_EPOCH = Time.at(1_400_000_000, in: "UTC").freeze

    # snowflake() IDs start at 2^53; below are snowflake53() IDs.
    SNOWFLAKE_MIN = 1 << 53
    INT64_LIMIT = 1 << 63
    # An epoch is from 1970 and before the year 10000, as the server takes it (microseconds).
    EPOCH_LIMIT_US = 253_402_300_800_000_000

    # (ms shift, shard shift, shard mask, seq mask) of each split.
    SPLITS = LAYOUTS.slice(:snowflake, :snowflake53).transform_values do |(_, _, shard_bits, seq_bits)|
      [shard_bits + seq_bits, seq_bits, (1 << shard_bits) - 1, (1 << seq_bits) - 1].freeze
    end.freeze
    private_constant :SNOWFLAKE_MIN, :INT64_LIMIT, :EPOCH_LIMIT_US, :SPLITS

    # A digit's value per byte; nil for a byte outside the alphabet.
    # both_cases reads lowercase letters too: ULID and ObjectId text is read
    # in either case, KSUID and XID text exactly.
    def self.digit_table(alphabet, both_cases)
      table = Array.new(256)
      alphabet.each_char.with_index do |c, i|
        table[c.ord] = i
        table[c.downcase.ord] = i if both_cases
      end
      table.freeze
    end
    private_class_method :digit_table

    ULID_VALUE = digit_table(ULID_ALPHABET, true)
    KSUID_VALUE = digit_table(KSUID_ALPHABET, false)
    XID_VALUE = digit_table(XID_ALPHABET, false)
    HEX_VALUE = digit_table("0123456789ABCDEF", true)
    PUSH_ID_VALUE = digit_table(PUSH_ID_ALPHABET, false)
    private_constant :ULID_VALUE, :KSUID_VALUE, :XID_VALUE, :HEX_VALUE, :PUSH_ID_VALUE

    # The texts the server reads, matched against a String's bytes (so no
    # non-ASCII look-alike passes): a uuid hyphenated 8-4-4-4-12 or not, in
    # either case; 26 ULID digits, either case, the first at most 7 (128
    # bits); 27 KSUID digits; 24 hexadecimal digits, either case; 20 XID
    # digits, the last holding 1 bit and 4 zero bits (a value of 0 or 16).
    UUID_TEXT = /\A[0-9a-fA-F]{8}(-?)[0-9a-fA-F]{4}\1[0-9a-fA-F]{4}\1[0-9a-fA-F]{4}\1[0-9a-fA-F]{12}\z/.freeze
    ULID_TEXT = /\A[#{ULID_ALPHABET[0, 8]}][#{ULID_ALPHABET}#{ULID_ALPHABET.downcase}]{25}\z/.freeze
    KSUID_TEXT = /\A[#{KSUID_ALPHABET}]{27}\z/.freeze
    OBJECTID_TEXT = /\A[0-9A-Fa-f]{24}\z/.freeze
    XID_TEXT = /\A[#{XID_ALPHABET}]{19}[#{XID_ALPHABET[0]}#{XID_ALPHABET[16]}]\z/.freeze
    # String#to_i(32)'s and #to_s(32)'s digits: XID's base32hex alphabet.
    BASE32_DIGITS = XID_ALPHABET
    KSUID_MAX = (1 << 160) - 1
    # The byte offset and length of each field of KSUIDs, ObjectIds and XIDs.
    FIELDS = LAYOUTS.slice(:ksuid, :objectid, :xid).transform_values do |widths|
      widths.each_index.map { |i| [widths.first(i).sum / 8, widths[i] / 8].freeze }.freeze
    end.freeze
    private_constant :UUID_TEXT, :ULID_TEXT, :KSUID_TEXT, :OBJECTID_TEXT, :XID_TEXT, :BASE32_DIGITS, :KSUID_MAX, :FIELDS

    # --- UUIDv7 -------------------------------------------------------------

    # The millisecond of a UUIDv7 (its text, or its 16 bytes) as a UTC Time,
    # as uuid_v7_time(); nil unless it is version 7 with RFC 9562's variant.
    def uuid_v7_time(uuid)
      n = uuid_bits(uuid)
      return nil unless (n >> 76) & 0xF == 7 && (n >> 62) & 0x3 == 2

      ms_time(n >> 80)
    end

    # --- snowflake and snowflake53 ------------------------------------------

    # The millisecond in which a snowflake() ID (an Integer, 2^53 to 2^63 - 1)
    # was issued, counted from epoch: the server's idgen.snowflake_epoch,
    # which an ID does not carry (a Time, taken to the microsecond).
    def snowflake_time(id, epoch: DEFAULT_SNOWFLAKE_EPOCH)
      split_time(:snowflake, id, epoch)
    end

    # The shard (0 to 8191) of a snowflake() ID.
    def snowflake_shard(id)
      split_shard(:snowflake, id)
    end

    # The sequence (0 to 1023) of a snowflake() ID within its millisecond and shard.
    def snowflake_seq(id)
      split_seq(:snowflake, id)
    end

    # The millisecond in which a snowflake53() ID (0 to 2^53 - 1) was issued, counted from epoch.
    def snowflake53_time(id, epoch: DEFAULT_SNOWFLAKE_EPOCH)
      split_time(:snowflake53, id, epoch)
    end

    # The shard (0 to 15) of a snowflake53() ID.
    def snowflake53_shard(id)
      split_shard(:snowflake53, id)
    end

    # The sequence (0 to 511) of a snowflake53() ID.
    def snowflake53_seq(id)
      split_seq(:snowflake53, id)
    end

    # --- ULID ---------------------------------------------------------------

    # The millisecond a ULID (its text, either case, or its 16 bytes) carries, as ulid_time().
    def ulid_time(ulid)
      ms_time(ulid_bits(ulid) >> 80)
    end

    # The uuid text (lowercase, hyphenated) of a ULID's 128 bits, as id::uuid.
    def ulid_to_uuid(ulid)
      uuid_text(ulid_bits(ulid))
    end

    # The ULID text (uppercase) of a uuid's 128 bits, as id::ulid.
    def uuid_to_ulid(uuid)
      ulid_string(uuid_bits(uuid))
    end

    # The ULID text (26 uppercase characters, as the server writes it) of 16
    # bytes, of a uuid's text, or of a ULID's text in either case.
    def ulid_text(value)
      if value.is_a?(String) && [32, 36].include?(value.bytesize)
        ulid_string(uuid_bits(value))
      else
        ulid_string(ulid_bits(value))
      end
    end

    # The uuid text of a ULID's text (either case), as (text)::ulid::uuid.
    def ulid_from_text(text)
      raise Error, "a ulid's text is a String, not #{text.class}" unless text.is_a?(String)

      uuid_text(parse_ulid(text))
    end

    # --- KSUID, ObjectId and XID: their text or their raw bytes -------------

    # The second a KSUID carries, as ksuid_time().
    def ksuid_time(ksuid)
      bytes = ksuid_bytes(ksuid)
      Time.at(KSUID_EPOCH.to_i + field(bytes, :ksuid, 0).unpack1("N")).utc
    end

    # The 16-byte payload of a KSUID (a binary String), as ksuid_payload().
    def ksuid_payload(ksuid)
      field(ksuid_bytes(ksuid), :ksuid, 1)
    end

    # The second an ObjectId carries, as objectid_time().
    def objectid_time(objectid)
      Time.at(field(objectid_bytes(objectid), :objectid, 0).unpack1("N")).utc
    end

    # The 5-byte process value of an ObjectId (a binary String), as objectid_process().
    def objectid_process(objectid)
      field(objectid_bytes(objectid), :objectid, 1)
    end

    # The 24-bit counter of an ObjectId, 0 to 16777215, as objectid_counter().
    def objectid_counter(objectid)
      big_endian(field(objectid_bytes(objectid), :objectid, 2))
    end

    # The second an XID carries, as xid_time().
    def xid_time(xid)
      Time.at(field(xid_bytes(xid), :xid, 0).unpack1("N")).utc
    end

    # The 3-byte machine id of an XID (a binary String), as xid_machine().
    def xid_machine(xid)
      field(xid_bytes(xid), :xid, 1)
    end

    # The 16-bit process id of an XID, 0 to 65535, as xid_pid().
    def xid_pid(xid)
      big_endian(field(xid_bytes(xid), :xid, 2))
    end

    # The 24-bit counter of an XID, 0 to 16777215, as xid_counter().
    def xid_counter(xid)
      big_endian(field(xid_bytes(xid), :xid, 3))
    end

    # --- Timeflake (a uuid: 48 bits of Unix ms, 80 random) and push IDs -----

    # The millisecond in the high 48 bits of a Timeflake (its uuid text or 16 bytes), as timeflake_time().
    def timeflake_time(uuid)
      ms_time(uuid_bits(uuid) >> 80)
    end

    # The low 80 bits of a Timeflake as an Integer (0 to 2^80 - 1), as
    # timeflake_random() (whose numeric ActiveRecord returns as a BigDecimal).
    def timeflake_random(uuid)
      uuid_bits(uuid) & ((1 << 80) - 1)
    end

    # Whether text is exactly 20 characters of -, 0-9, A-Z, _ and a-z, as push_id_is_valid().
    def push_id_is_valid(text)
      return false unless text.is_a?(String) && text.bytesize == 20

      text.b.each_byte.all? { |b| PUSH_ID_VALUE[b] }
    end

    # The millisecond in a push ID's first 8 characters, as push_id_time();
    # Error for text that is no push ID (the server's 22P02).
    def push_id_time(text)
      unless push_id_is_valid(text)
        raise Error, "invalid input syntax for push ID: #{text.inspect} (a push ID is 20 characters of -, 0-9, A-Z, _ and a-z)"
      end

      ms_time(text.b.each_byte.first(8).reduce(0) { |ms, b| (ms << 6) | PUSH_ID_VALUE[b] })
    end

    private

    def ms_time(ms)
      Time.at(ms / 1000, ms % 1000, :millisecond).utc
    end

    # Whether value is raw bytes: a binary String of that many bytes.
    def raw?(value, size)
      value.is_a?(String) && value.encoding == Encoding::BINARY && value.bytesize == size
    end

    def big_endian(bytes)
      bytes.unpack1("H*").to_i(16)
    end

    def to_bytes(n, size)
      [n.to_s(16).rjust(size * 2, "0")].pack("H*")
    end

    # The bytes of field index of a family's layout (whole bytes, most significant first).
    def field(bytes, family, index)
      bytes.byteslice(*FIELDS[family][index])
    end

    def uuid_bits(value)
      return big_endian(value) if raw?(value, 16)
      raise Error, "a uuid is its text (a String) or its 16 bytes (a binary String), not #{value.class}" unless value.is_a?(String)
      unless value.b.match?(UUID_TEXT)
        raise Error, "invalid input syntax for type uuid: #{value.inspect} (32 hexadecimal digits, hyphenated 8-4-4-4-12 or not)"
      end

      value.delete("-").to_i(16)
    end

    def uuid_text(n)
      hex = n.to_s(16).rjust(32, "0")
      "#{hex[0, 8]}-#{hex[8, 4]}-#{hex[12, 4]}-#{hex[16, 4]}-#{hex[20, 12]}"
    end

    def ulid_bits(value)
      return big_endian(value) if raw?(value, 16)
      raise Error, "a ulid is its text (a String) or its 16 bytes (a binary String), not #{value.class}" unless value.is_a?(String)

      parse_ulid(value)
    end

    # 26 Crockford base32 digits, either case, the first at most 7 (128 bits);
    # no aliases (I, L, O and U are refused), as the server's ulid_in.
    def parse_ulid(text)
      raw = text.b
      return raw.upcase.tr(ULID_ALPHABET, BASE32_DIGITS).to_i(32) if raw.match?(ULID_TEXT)

      refuse(text, ULID_VALUE, 26, "ulid")
      raise Error, "#{syntax('ulid', text)} (above 128 bits: the first digit is at most 7)"
    end

    def ulid_string(n)
      n.to_s(32).rjust(26, "0").tr(BASE32_DIGITS, ULID_ALPHABET)
    end

    # Raises Error for text with a character outside the alphabet (reported
    # first, as the server does) or of another length; returns otherwise.
    def refuse(text, table, length, type)
      raw = text.b
      bad = raw.each_byte.find_index { |b| table[b].nil? }
      raise Error, "#{syntax(type, text)} (the character at position #{position(text, bad)} is not a digit)" if bad
      raise Error, "#{syntax(type, text)} (#{length} characters, not #{raw.bytesize})" unless raw.bytesize == length
    end

    def syntax(type, text)
      "invalid input syntax for type #{type}: #{text.inspect}"
    end

    # The 1-based character position of a byte offset of text (the byte's, where the encoding is broken).
    def position(text, offset)
      text.valid_encoding? ? text.byteslice(0, offset).length + 1 : offset + 1
    end

    # The raw bytes of value: a binary String of size bytes, or its text read by the block.
    def own_bytes(value, size, what)
      return value if raw?(value, size)
      return yield(value) if value.is_a?(String)

      raise Error, "#{what} is its text (a String) or its #{size} bytes (a binary String), not #{value.class}"
    end

    # 27 base62 characters, case-sensitive, at most aWgEPTl1tmebfsQzFP4bxwgy80V (2^160 - 1).
    def ksuid_bytes(value)
      own_bytes(value, 20, "a ksuid") do |text|
        raw = text.b
        refuse(text, KSUID_VALUE, 27, "ksuid") unless raw.match?(KSUID_TEXT)
        n = raw.each_byte.reduce(0) { |acc, b| acc * 62 + KSUID_VALUE[b] }
        raise Error, "#{syntax('ksuid', text)} (above 160 bits: at most aWgEPTl1tmebfsQzFP4bxwgy80V)" if n > KSUID_MAX

        to_bytes(n, 20)
      end
    end

    # 24 hexadecimal digits, either case.
    def objectid_bytes(value)
      own_bytes(value, 12, "an objectid") do |text|
        raw = text.b
        refuse(text, HEX_VALUE, 24, "objectid") unless raw.match?(OBJECTID_TEXT)
        [raw].pack("H*")
      end
    end

    # 20 lowercase base32hex characters of the 96 bits and 4 zero bits: the last is 0 or g.
    def xid_bytes(value)
      own_bytes(value, 12, "an xid") do |text|
        raw = text.b
        unless raw.match?(XID_TEXT)
          refuse(text, XID_VALUE, 20, "rsxid")
          raise Error, "#{syntax('rsxid', text)} (the last character must be 0 or g)"
        end
        to_bytes(raw.to_i(32) >> 4, 12)
      end
    end

    # The id, checked as the server checks it (22003): the other split's ids are named as such.
    def snowflake_id(family, id)
      raise Error, "a #{family}() id is an Integer, not #{id.class}" unless id.is_a?(Integer)

      wide = family == :snowflake
      low, high = wide ? [SNOWFLAKE_MIN, INT64_LIMIT] : [0, SNOWFLAKE_MIN]
      return id if id >= low && id < high

      other = wide ? :snowflake53 : :snowflake
      if id >= 0 && id < INT64_LIMIT
        raise Error, "#{id} is a #{other} id, not a #{family} id (decode it with #{other}_time, #{other}_shard and #{other}_seq)"
      end

      raise Error, "#{family} id #{id} is #{id.negative? ? 'negative' : 'out of range'} (ids of #{family}() are #{low} to #{high - 1})"
    end

    # The epoch in microseconds since 1970, checked as the server checks its epoch argument (22023).
    def epoch_us(family, epoch)
      raise Error, "the epoch of #{family}_time is a Time, not #{epoch.class}" unless epoch.is_a?(Time)

      us = epoch.to_i * 1_000_000 + epoch.usec
      return us if us >= 0 && us < EPOCH_LIMIT_US

      raise Error, "invalid epoch for #{family}: #{epoch.inspect} (an epoch is from 1970-01-01 00:00:00 UTC and before the year 10000)"
    end

    def split_time(family, id, epoch)
      us = epoch_us(family, epoch) + (snowflake_id(family, id) >> SPLITS[family][0]) * 1000
      Time.at(us / 1_000_000, us % 1_000_000, :usec).utc
    end

    def split_shard(family, id)
      _, shift, mask, = SPLITS[family]
      (snowflake_id(family, id) >> shift) & mask
    end

    def split_seq(family, id)
      snowflake_id(family, id) & SPLITS[family][3]
    end
  end
end
require_relative "snowflake_layout"
