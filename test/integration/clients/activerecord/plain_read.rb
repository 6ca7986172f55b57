# The same models WITHOUT idgen_types.rb: what ActiveRecord 6.1 does out of
# the box with idgen's types. Prints "ref=<class>:<value>" for one order and
# lets ActiveRecord's warnings go to stderr, which run.rb reads.
require_relative "models"

ActiveRecord::Base.establish_connection(idgen_connection_config)
order = Order.find(ARGV.fetch(0))
puts "ref=#{order.ref.class}:#{order.ref}"
puts "account_id=#{order.account_id.class}:#{order.account_id}"
puts "type=#{Order.type_for_attribute("ref").type.inspect}"
