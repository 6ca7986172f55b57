-- Up Migration
-- README snippet begins (node-pg-migrate migration)
-- node-pg-migrate runs each migration in a transaction, as whoever DATABASE_URL names:
-- here the database's owner, who may create idgen (a trusted extension).
CREATE EXTENSION IF NOT EXISTS idgen;
SELECT prefixed_id_define('account_id', 'acct');
SELECT typeid_define('user_id', 'user');

CREATE TABLE accounts (
  id        uuid PRIMARY KEY DEFAULT uuid_v7(),
  public_id account_id NOT NULL UNIQUE,  -- the domain's DEFAULT: prefixed_id_new('acct')
  name      text NOT NULL
);
CREATE TABLE users (
  id         user_id PRIMARY KEY,        -- the domain's DEFAULT: typeid_new('user')
  account_id uuid NOT NULL REFERENCES accounts (id),
  email      text NOT NULL
);
CREATE TABLE events (
  id   bigint PRIMARY KEY DEFAULT snowflake(1),
  ref  ulid NOT NULL UNIQUE DEFAULT ulid(),
  kind text NOT NULL
);
CREATE TABLE pages (
  id    bigint PRIMARY KEY DEFAULT snowflake53(1),
  title text NOT NULL
);
-- README snippet ends

-- Down Migration
DROP TABLE pages, events, users, accounts;
DROP DOMAIN user_id, account_id;
DROP EXTENSION idgen;
