# frozen_string_literal: true

# Runs the gem's minitest tests and prints one verdict line per test
# (test/lib/verdicts.py of the idgen repository: "plan<TAB>N" first, then
# "ok<TAB>name" or "not ok<TAB>name", notes as "#<TAB>text"), which the suite's
# test/integration/clients/ruby_package.pl counts. Minitest has no JUnit
# reporter without further gems, and none is installed here.
#
#   ruby test/run.rb   (with the gem installed, PGHOST, PGPORT, PGUSER,
#                       PGDATABASE and IDGEN_COPY_DATABASE set)
require "minitest"

# The verdict lines as a minitest reporter.
class VerdictReporter < Minitest::AbstractReporter
  def initialize(io)
    super()
    @io = io
  end

  def start
    count = Minitest::Runnable.runnables.sum { |klass| klass.runnable_methods.size }
    @io.puts "plan\t#{count}"
  end

  def record(result)
    unless result.passed? || result.skipped?
      result.failures.each do |failure|
        failure.message.to_s.each_line.first(12).each { |line| @io.puts "#\t#{line.chomp[0, 300]}" }
        (failure.backtrace || []).first(3).each { |line| @io.puts "#\t  #{line}" }
      end
    end
    @io.puts "#{result.passed? ? 'ok' : 'not ok'}\truby: #{result.klass} #{result.name.sub(/\Atest_\d+_/, '')}"
    @io.flush
  end

  def passed?
    true
  end
end

module Minitest
  def self.plugin_verdicts_init(_options)
    reporter.reporters.clear
    reporter << VerdictReporter.new($stdout)
  end
end
Minitest.extensions << "verdicts"

require_relative "test_idgen_active_record"
exit(Minitest.run(%w[--seed 1]) ? 0 : 1)
