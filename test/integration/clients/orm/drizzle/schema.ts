// The Drizzle schema of idgen's Drizzle test (../drizzle_test.ts): one table
// per ID family, the IDs minted by the server's DEFAULTs. drizzle-kit
// generate wrote migrations/0001_*.sql from it; migrations/0000_idgen.sql,
// a custom migration, creates the extension and the domains first.
import { sql } from 'drizzle-orm';
import { bigint, customType, pgTable, text, uuid } from 'drizzle-orm/pg-core';

// README snippet begins (schema)
// idgen's own types are custom types to Drizzle: their text is the JS value.
// account_id and user_id are the domains that migrations/0000_idgen.sql
// defines with prefixed_id_define() and typeid_define().
const ulid = customType<{ data: string }>({ dataType: () => 'ulid' });
const accountId = customType<{ data: string }>({ dataType: () => 'account_id' });
const userId = customType<{ data: string }>({ dataType: () => 'user_id' });

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().default(sql`uuid_v7()`),
  publicId: accountId('public_id').notNull().unique().default(sql`prefixed_id_new('acct')`),
  name: text('name').notNull(),
});

export const users = pgTable('users', {
  id: userId('id').primaryKey().default(sql`typeid_new('user')`),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  email: text('email').notNull(),
});

export const events = pgTable('events', {
  // a snowflake is above 2^53: a BigInt, never a Number
  id: bigint('id', { mode: 'bigint' }).primaryKey().default(sql`snowflake(1)`),
  ref: ulid('ref').notNull().unique().default(sql`ulid()`),
  kind: text('kind').notNull(),
});

export const pages = pgTable('pages', {
  // snowflake53() stays below 2^53: a Number holds it exactly
  id: bigint('id', { mode: 'number' }).primaryKey().default(sql`snowflake53(1)`),
  title: text('title').notNull(),
});
// README snippet ends
