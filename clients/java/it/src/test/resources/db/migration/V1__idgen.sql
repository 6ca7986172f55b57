-- Run by Flyway as the database's owner, who is not a superuser: idgen is a trusted extension.
-- README java begins
CREATE EXTENSION IF NOT EXISTS idgen;
SELECT prefixed_id_define('account_id', 'acct');
SELECT typeid_define('user_id', 'user');

CREATE TABLE accounts (id account_id PRIMARY KEY, name text NOT NULL);
CREATE TABLE users (id user_id PRIMARY KEY, email text NOT NULL);
CREATE TABLE orders (
    id uuid PRIMARY KEY DEFAULT uuid_v7(),
    ref ulid NOT NULL DEFAULT ulid(),
    account_id account_id NOT NULL DEFAULT NULL REFERENCES accounts,
    user_id user_id DEFAULT NULL REFERENCES users,
    note text
);
-- README java ends
CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake(7), kind text NOT NULL);
CREATE TABLE messages (id bigint PRIMARY KEY DEFAULT snowflake53(3), body text NOT NULL);
