# frozen_string_literal: true

module Idgen
  module ActiveRecord
    # The extension's version (make -s print-version), which is this gem's.
    VERSION = "0.8.0"
  end
end
