# frozen_string_literal: true

require "active_record"
require "active_record/connection_adapters/postgresql_adapter"
require "idgen/active_record/version"

module Idgen
  # ActiveRecord support for the idgen PostgreSQL extension: its types in the
  # PostgreSQL adapter's type map (no "unknown OID" warning), in migrations
  # (t.ulid, t.prefixed_id, t.typeid, t.ksuid, t.objectid, t.rsxid) and in
  # schema.rb, which then dumps the domains of prefixed_id_define()/
  # typeid_define() and every table using them in a form that loads back.
  module ActiveRecord
    # idgen's base types, by their SQL names (rsxid is the XID: PostgreSQL's
    # own xid is the transaction ID); values are Strings in Ruby.
    TYPES = %w[ulid prefixed_id typeid ksuid objectid rsxid].freeze

    # A String-valued type that reports idgen's type name as its type.
    class IdString < ::ActiveRecord::Type::ImmutableString
      attr_reader :type

      def initialize(type)
        super()
        @type = type
      end
    end

    # Prepended to the PostgreSQL adapter.
    module Adapter
      # The base types as native types, so that migrations and the schema
      # dumper know them.
      def native_database_types
        super.merge(TYPES.to_h { |name| [name.to_sym, { name: name }] })
      end

      # The domains of prefixed_id_define() and typeid_define() in the current
      # schema, as [name, prefix, token, base], by name.
      def idgen_domains
        return [] unless extension_enabled?("idgen")

        select_rows(<<~SQL, "SCHEMA")
          SELECT t.typname::text, r.prefix, r.token::text, format_type(t.typbasetype, NULL)
          FROM prefixed_id_registry r JOIN pg_type t ON t.oid = r.type
          WHERE t.typnamespace = to_regnamespace(current_schema())
          ORDER BY t.typname
        SQL
      end

      # The tables that belong to an extension (idgen's own tables, which
      # CREATE EXTENSION makes): schema.rb must not create or drop them.
      def extension_tables
        select_values(<<~SQL, "SCHEMA")
          SELECT c.relname::text FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
          WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'e' AND c.relkind IN ('r', 'p')
        SQL
      end

      # The columns of a table whose type is a domain and whose own DEFAULT is
      # NULL, which overrides the domain's DEFAULT (a reference to a domain key).
      def idgen_null_default_columns(table)
        select_values(<<~SQL, "SCHEMA")
          SELECT a.attname::text FROM pg_attribute a
          JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          JOIN pg_type t ON t.oid = a.atttypid
          WHERE a.attrelid = #{quote(quote_table_name(table))}::regclass AND t.typtype = 'd'
            AND pg_get_expr(d.adbin, d.adrelid) LIKE 'NULL::%'
        SQL
      end

      # Finds the extension's idgen_types() (docs/reference.md) in whatever
      # schema idgen lives: the name to call it by (NULL before idgen 0.8.0,
      # which added it) and the extension's version; no row without idgen.
      IDGEN_TYPES_FUNCTION_SQL = <<~SQL
        SELECT pg_catalog.to_regprocedure(e.extnamespace::pg_catalog.regnamespace::pg_catalog.text
                                          OPERATOR(pg_catalog.||) '.idgen_types()')::pg_catalog.text,
               e.extversion
        FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'
      SQL

      # The domains over idgen's types (domains over domains too), as
      # [oid, array_oid, base type's name], from idgen_types(); [] without idgen,
      # and with an idgen older than 0.8.0 (a warning in the log: ALTER
      # EXTENSION idgen UPDATE). The base's name, not the family's: the xid
      # family's type is rsxid, and "xid" is PostgreSQL's transaction ID.
      def idgen_domain_oids
        function, version = select_rows(IDGEN_TYPES_FUNCTION_SQL, "SCHEMA").first
        return [] unless version
        unless function
          @idgen_warned ||= logger&.warn("idgen #{version} is installed, and idgen-activerecord needs idgen 0.8.0 or later, whose " \
                       "idgen_types() lists the types (ALTER EXTENSION idgen UPDATE): domains over domains of " \
                       "idgen's types are left to ActiveRecord's type map") || true
          return []
        end
        select_rows(<<~SQL, "SCHEMA").map { |oid, array_oid, base| [oid.to_i, array_oid.to_i, base] }
          SELECT t.oid, t.array_oid, b.typname::pg_catalog.text FROM #{function} t
          JOIN pg_catalog.pg_type b ON b.oid OPERATOR(pg_catalog.=) t.base
          WHERE t.oid OPERATOR(pg_catalog.<>) t.base
        SQL
      end

      private

      # By name: the OIDs follow, also of the domains, also after enable_extension
      # (which reloads the type map).
      def initialize_type_map(m = type_map)
        TYPES.each { |name| m.register_type(name, IdString.new(name.to_sym)) }
        super
      end

      # Then every domain idgen_types() lists and its array, as its base
      # type: ActiveRecord maps a domain to whatever its base type maps to when
      # it meets the domain, a typeless Value for a domain over a domain that
      # pg_type lists after it (its row rewritten by ALTER DOMAIN, say).
      def load_additional_types(oids = nil)
        super
        idgen_domain_oids.each do |oid, array_oid, base_name|
          base = type_map.lookup(base_name)
          type_map.register_type(oid, base)
          type_map.register_type(array_oid) { |*| ::ActiveRecord::ConnectionAdapters::PostgreSQL::OID::Array.new(base, ",") }
        end
      end
    end

    # Column methods of migrations: t.ulid :ref, t.prefixed_id :key, t.typeid :key,
    # t.ksuid :key, t.objectid :key, t.rsxid :key.
    module ColumnMethods
      TYPES.each do |name|
        define_method(name) { |*names, **options| names.each { |n| column(n, name.to_sym, **options) } }
      end
    end

    # Prepended to the PostgreSQL schema dumper.
    module SchemaDumper
      private

      # After enable_extension: each domain, as the call that defines it.
      def extensions(stream)
        super
        domains = @connection.idgen_domains
        return if domains.empty?

        stream.puts "  # The domains of idgen's prefixed_id_define() and typeid_define()"
        domains.each do |name, prefix, token, base|
          call = if base == "typeid"
            "typeid_define('#{name}', '#{prefix}')"
          else
            "prefixed_id_define('#{name}', '#{prefix}'#{token == 'true' ? ', true' : ''})"
          end
          stream.puts "  execute #{"SELECT #{call}".inspect}"
        end
        stream.puts
      end

      # A column of a domain keeps the domain's name (its DEFAULT and CHECK come with it).
      def schema_type(column)
        domain = idgen_domain_names.include?(column.sql_type)
        domain ? column.sql_type : super
      end

      # default: nil where a domain column's own DEFAULT NULL overrides the domain's.
      def prepare_column_options(column)
        spec = super
        if idgen_domain_names.include?(column.sql_type) &&
           @connection.idgen_null_default_columns(table_name).include?(column.name)
          spec[:default] = "nil"
        end
        spec
      end

      def idgen_domain_names
        @idgen_domain_names ||= @connection.idgen_domains.map(&:first)
      end

      def ignored?(table_name)
        super || (@idgen_extension_tables ||= @connection.extension_tables).include?(table_name)
      end
    end
  end
end

ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(Idgen::ActiveRecord::Adapter)
ActiveRecord::ConnectionAdapters::PostgreSQL::SchemaDumper.prepend(Idgen::ActiveRecord::SchemaDumper)
ActiveRecord::ConnectionAdapters::PostgreSQL::TableDefinition.include(Idgen::ActiveRecord::ColumnMethods)
ActiveRecord::ConnectionAdapters::PostgreSQL::Table.include(Idgen::ActiveRecord::ColumnMethods)
