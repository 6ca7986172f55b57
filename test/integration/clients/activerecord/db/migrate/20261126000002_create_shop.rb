# README snippet begins
class CreateShop < ActiveRecord::Migration[6.1]
  def up
    execute "SELECT prefixed_id_define('account_id', 'acct')"   # a DOMAIN whose DEFAULT mints acct_...
    execute "SELECT typeid_define('user_id', 'user')"

    create_table :accounts, id: :account_id do |t|
      t.string :name, null: false
    end
    create_table :users, id: :user_id do |t|
      t.string :email, null: false
    end
    create_table :orders, id: :uuid, default: -> { "uuid_v7()" } do |t|
      t.column :ref, :ulid, null: false, default: -> { "ulid()" }
      t.column :account_id, :account_id, null: false
      t.column :user_id, :user_id, default: nil   # else the domain's DEFAULT mints a new one
      t.string :note
    end
    add_foreign_key :orders, :accounts
    add_foreign_key :orders, :users
    create_table :events, id: :bigint, default: -> { "snowflake(7)" } do |t|
      t.string :kind
    end
    create_table :messages, id: :bigint, default: -> { "snowflake53(3)" } do |t|
      t.text :body
    end
  end

  def down
    drop_table :messages
    drop_table :events
    drop_table :orders
    drop_table :users
    drop_table :accounts
    execute "DROP DOMAIN user_id"
    execute "DROP DOMAIN account_id"
  end
end
# README snippet ends
