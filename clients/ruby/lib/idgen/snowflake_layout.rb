# frozen_string_literal: true

module Idgen
  # Other systems' 64-bit snowflakes in a layout (Twitter's, Discord's,
  # Sonyflake's, pgEdge's or one's own) decoded, composed and bounded as the
  # server's snowflake_layout_* functions do, in plain Ruby. A layout is an
  # epoch, the length of one unit of the time field (ms) and the fields from
  # the most significant bit, one named "time" and one "sequence", checked as
  # snowflake_layout_define() checks them. Times are UTC Times or Unix ms
  # (Integers). Minting in these layouts is the systems' own libraries'.
  class SnowflakeLayout
    # A refused layout, ID, time or field value: reason is the extension's
    # core's (its vectors file's: "too_wide", "negative", "above_layout",
    # "field_range", "before_epoch", ...), field the field concerned or nil.
    class Error < Decode::Error
      attr_reader :reason, :field

      def initialize(reason, message, field = nil)
        super(message)
        @reason = reason
        @field = field
      end
    end

    # The predefined layouts of the extension (its snowflake_layout.hpp):
    # epoch in Unix ms (instagram's is idgen.snowflake_epoch: nil), unit in
    # ms, [name, bits] from the most significant bit. The tests hold them to
    # the extension's vectors file.
    PREDEFINED = {
      "instagram" => [nil, 1, [["time", 40], ["shard", 13], ["sequence", 10]]],
      "twitter" => [1_288_834_974_657, 1, [["time", 41], ["datacenter", 5], ["worker", 5], ["sequence", 12]]],
      "discord" => [1_420_070_400_000, 1, [["time", 42], ["worker", 5], ["process", 5], ["sequence", 12]]],
      "sonyflake" => [1_409_529_600_000, 10, [["time", 39], ["sequence", 8], ["machine", 16]]],
      "pgedge" => [1_672_531_200_000, 1, [["time", 41], ["node", 10], ["sequence", 12]]]
    }.transform_values { |v| v.map(&:freeze).freeze }.freeze

    NAME = /\A[a-z_][a-z0-9_]{0,62}\z/
    END_OF_TIME_MS = 253_402_300_800_000 # 10000-01-01
    private_constant :NAME, :END_OF_TIME_MS

    attr_reader :epoch_unix_ms, :time_unit_ms, :fields, :total_bits, :end_unix_ms

    # A predefined layout by name; instagram's epoch is the server's idgen.snowflake_epoch.
    def self.predefined(name, instagram_epoch: Decode::DEFAULT_SNOWFLAKE_EPOCH)
      epoch, unit, fields = PREDEFINED.fetch(name) { raise Error.new("unknown_layout", "no predefined snowflake layout #{name.inspect}") }
      new(epoch || instagram_epoch, unit, fields, allow_64: name == "discord")
    end

    # A layout of one's own: epoch (a Time or Unix ms), the unit in ms,
    # fields as [name, bits] pairs from the most significant bit.
    def initialize(epoch, time_unit_ms, fields, allow_64: false)
      @epoch_unix_ms = self.class.unix_ms(epoch)
      @time_unit_ms = time_unit_ms
      @fields = fields.map { |name, bits| [name.to_s.freeze, bits].freeze }.freeze
      @total_bits, @end_unix_ms = check(allow_64)
      shift = 0
      @shifts = {}
      @fields.reverse_each do |name, bits|
        @shifts[name] = shift
        shift += bits
      end
      freeze
    end

    # Unix ms of a Time (floored) or an Integer.
    def self.unix_ms(time)
      return time if time.is_a?(Integer)
      raise Decode::Error, "a time is a Time or Unix milliseconds, not #{time.class}" unless time.is_a?(Time)

      (time.to_r * 1000).floor
    end

    # An ID's fields by name ("time" as the count of units) with "unix_ms" and
    # "timestamp" (a UTC Time), as snowflake_layout_decompose(id, layout).
    def decompose(id)
      raise Error.new("negative", "snowflake id #{id} is negative") if id.negative?
      raise Error.new("above_layout", "snowflake id #{id} is out of range for a layout of #{total_bits} bits") if id >> [total_bits, 63].min != 0

      out = @fields.to_h { |name, bits| [name, (id >> @shifts[name]) & ((1 << bits) - 1)] }
      out["unix_ms"] = epoch_unix_ms + out["time"] * time_unit_ms
      out["timestamp"] = Time.at(Rational(out["unix_ms"], 1000), in: "UTC")
      out
    end

    # The start of the time unit an ID was made in, as snowflake_layout_time().
    def time(id)
      decompose(id)["timestamp"]
    end

    # The ID of the time unit holding time with the node fields and sequence
    # given (missing ones 0), as snowflake_layout_compose(): for backfills and tests.
    def compose(time, fields = {})
      values = { "time" => time_value(time) }
      fields.each do |name, value|
        name = name.to_s
        raise Error.new("unknown_field", "the layout has no field #{name.inspect} to set", name) unless @shifts.key?(name)
        raise Error.new("time_field", "the time field is set by the time argument", name) if name == "time"
        raise Error.new("field_range", "field #{name.inspect} is out of range: #{value} (0 to #{max(name)})", name) unless value.is_a?(Integer) && value.between?(0, max(name))

        values[name] = value
      end
      @fields.sum { |name, _| values.fetch(name, 0) << @shifts[name] }
    end

    # The smallest ID of the time unit holding time, as snowflake_layout_boundary(),
    # for range predicates; with largest: true, the largest ID of that unit.
    def boundary(time, largest: false)
      t = time_value(time)
      @fields.sum { |name, _| (name == "time" ? t : largest ? max(name) : 0) << @shifts[name] }
    end

    private

    # The core's layout_validate, in its order; allow_64 admits discord's 64 bits.
    def check(allow_64)
      raise Error.new("too_many_fields", "a layout has at most 8 fields: time, sequence and 6 node fields") if @fields.size > 8

      @fields.each do |name, bits|
        raise Error.new("bad_name", "field name #{name.inspect} is longer than 63 characters", name) if name.size > 63
        raise Error.new("bad_width", "field #{name.inspect} is #{bits} bits wide: 1 to 63", name) unless bits.is_a?(Integer) && bits.between?(1, 63)
      end
      seen = {}
      @fields.each do |name, _|
        raise Error.new("bad_name", "field name #{name.inspect} is not lowercase letters, digits and underscores", name) unless NAME.match?(name)
        raise Error.new("reserved_name", "a node field cannot be named #{name.inspect}", name) if %w[unix_ms timestamp].include?(name)
        raise Error.new("duplicate_name", "two fields are named #{name.inspect}", name) if seen[name]

        seen[name] = true
      end
      raise Error.new("no_time", 'a layout has one field named "time"') unless seen["time"]
      raise Error.new("no_sequence", 'a layout has one field named "sequence"') unless seen["sequence"]

      total = @fields.sum { |_, bits| bits }
      raise Error.new("too_wide", "the fields take #{total} bits: 63 at most") if total > 64 || (total == 64 && !(allow_64 && @fields[0][0] == "time"))
      raise Error.new("bad_unit", "a time unit of #{time_unit_ms.inspect} ms: 1 ms to a day") unless time_unit_ms.is_a?(Integer) && time_unit_ms.between?(1, 86_400_000)
      raise Error.new("bad_epoch", "an epoch of #{epoch_unix_ms} ms: from 1970 to 9999") unless epoch_unix_ms >= 0 && epoch_unix_ms < END_OF_TIME_MS

      time_bits = @fields.to_h["time"] - (total == 64 ? 1 : 0) # a 64-bit layout's sign bit
      if time_bits > 48 || (1 << time_bits) > (END_OF_TIME_MS - epoch_unix_ms) / time_unit_ms
        raise Error.new("outlasts_year_9999", "the time field would hold times from the year 10000 on", "time")
      end

      [total, epoch_unix_ms + time_unit_ms * (1 << time_bits)]
    end

    def max(name)
      bits = @fields.to_h[name]
      bits -= 1 if name == "time" && total_bits == 64
      (1 << bits) - 1
    end

    def time_value(time)
      ms = self.class.unix_ms(time)
      raise Error.new("before_epoch", "#{time.inspect} is before the layout's epoch", "time") if ms < epoch_unix_ms
      raise Error.new("after_end", "#{time.inspect} is at or after the layout's end", "time") if ms >= end_unix_ms

      (ms - epoch_unix_ms) / time_unit_ms
    end
  end
end
