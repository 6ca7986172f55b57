// A Drizzle schema with every idgen family (tests/drizzle.test.mjs).
// README snippet begins (drizzle schema)
// README package begins
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { defaults, prefixedId, snowflake, snowflake53, typeid, ulid } from 'idgen/drizzle';

export const accounts = pgTable('accounts', {
  id: prefixedId('account_id', 'acct').primaryKey().default(defaults.prefixedId('acct')),
  name: text('name').notNull(),
});

export const users = pgTable('users', {
  id: typeid('user_id', 'user').primaryKey().default(defaults.typeid('user')),
  // a reference: the base type (the foreign key checks the prefix), no DEFAULT
  accountId: prefixedId('prefixed_id', 'acct', 'account_id').notNull().references(() => accounts.id),
  email: text('email').notNull(),
});

export const events = pgTable('events', {
  id: snowflake().primaryKey().default(defaults.snowflake(7)),
  ref: ulid().notNull().default(defaults.ulid()),
  // a nullable reference: NULL when left out
  userId: typeid('typeid', 'user', 'user_id').references(() => users.id),
  kind: text('kind').notNull(),
});

export const pages = pgTable('pages', {
  id: snowflake53().primaryKey().default(defaults.snowflake53(3)),
  key: uuid('key').notNull().default(defaults.uuidV7()),
  title: text('title').notNull(),
});
// README package ends
// README snippet ends

// The binary families (tests/drizzle.test.mjs), for the package's README.
// README package begins
import { ObjectId } from 'bson';
import { ksuid, objectid, xid } from 'idgen/drizzle';

export const documents = pgTable('documents', {
  id: objectid().primaryKey().default(defaults.objectid()),          // hex text; takes an ObjectId too
  source: objectid('source', { ObjectId }),                          // read and written as bson ObjectIds
  ref: ksuid('ref').notNull().default(defaults.ksuid()),
  trace: xid('trace').notNull().default(defaults.xid()),             // an rsxid column
  body: text('body').notNull(),
});
// README package ends
