-- Custom SQL migration file, put your code below! --
-- README snippet begins (custom migration)
-- drizzle-kit generate --custom --name idgen wrote this file empty; it runs
-- first, as the database owner, inside migrate()'s transaction.
CREATE EXTENSION IF NOT EXISTS idgen;
--> statement-breakpoint
SELECT prefixed_id_define('account_id', 'acct');
--> statement-breakpoint
SELECT typeid_define('user_id', 'user');
-- README snippet ends
