# idgen's types for ActiveRecord 6.1's PostgreSQL adapter: without this, a
# ulid, prefixed_id or typeid column (or a domain of prefixed_id_define or
# typeid_define) reads as a String after an "unknown OID ... It will be
# treated as String" warning; with it, each reads and writes as a String
# under a type of its own (:ulid, :prefixed_id, :typeid), without warnings.
require "active_record"
require "active_record/connection_adapters/postgresql_adapter"

# README snippet begins
module IdgenTypes
  class IdString < ActiveRecord::Type::ImmutableString
    attr_reader :type

    def initialize(type)
      super()
      @type = type
    end
  end

  private

  def initialize_type_map(m = type_map)   # by name: OIDs and domains follow, also after enable_extension
    %w[ulid prefixed_id typeid].each { |name| m.register_type(name, IdString.new(name.to_sym)) }
    super
  end
end

ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(IdgenTypes)
# README snippet ends
