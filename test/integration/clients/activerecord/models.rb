# The models of the test's shop, and the connection: plain ActiveRecord, no
# Rails app, connected through the PG* environment (PGHOST, PGPORT,
# PGDATABASE, PGUSER).
require "active_record"

def idgen_connection_config(database = ENV.fetch("PGDATABASE"))
  { adapter: "postgresql", host: ENV.fetch("PGHOST"), port: ENV.fetch("PGPORT"),
    database: database, username: ENV.fetch("PGUSER") }
end

# README snippet begins
class Account < ActiveRecord::Base   # id: account_id (prefixed_id_define), "acct_..."
  has_many :orders
end

class User < ActiveRecord::Base      # id: user_id (typeid_define), "user_..."
  has_many :orders
end

class Order < ActiveRecord::Base     # id: uuid DEFAULT uuid_v7(), ref: ulid DEFAULT ulid()
  belongs_to :account
  belongs_to :user, optional: true
end

class Event < ActiveRecord::Base     # id: bigint DEFAULT snowflake(7)
end

class Message < ActiveRecord::Base   # id: bigint DEFAULT snowflake53(3)
end
# README snippet ends
