# README snippet begins
class EnableIdgen < ActiveRecord::Migration[6.1]
  def change
    enable_extension "idgen"
  end
end
# README snippet ends
