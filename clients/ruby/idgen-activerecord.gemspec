# frozen_string_literal: true

require_relative "lib/idgen/active_record/version"

Gem::Specification.new do |spec|
  spec.name = "idgen-activerecord"
  spec.version = Idgen::ActiveRecord::VERSION
  spec.summary = "ActiveRecord support for the idgen PostgreSQL extension"
  spec.description = "Registers idgen's ulid, prefixed_id, typeid, ksuid, objectid and rsxid types (and " \
                     "their domains) with ActiveRecord's PostgreSQL adapter, adds t.ulid, t.prefixed_id, " \
                     "t.typeid, t.ksuid, t.objectid and t.rsxid to migrations, and makes schema.rb dump " \
                     "and load tables that use them."
  spec.authors = ["the idgen developers"]
  spec.license = "PostgreSQL"
  spec.homepage = "https://pgxn.org/dist/idgen/"
  spec.metadata = { "source_code_uri" => "https://pgxn.org/dist/idgen/" }
  spec.files = ["LICENSE", "README.md", "lib/idgen/active_record.rb", "lib/idgen/active_record/version.rb",
                "lib/idgen/decode.rb", "lib/idgen/snowflake_layout.rb"]
  spec.require_paths = ["lib"]
  spec.required_ruby_version = ">= 2.7"
  spec.add_dependency "activerecord", ">= 6.1", "< 7.1"
  spec.add_dependency "pg", "~> 1.1"
end
