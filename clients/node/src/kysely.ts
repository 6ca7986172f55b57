// idgen for Kysely: column types for a `Database` interface, and the SQL of
// the DEFAULTs for inserts that name them. Values arrive as the driver
// gives them: with the PostgresDialect, call registerTypes() of idgen/pg on
// its pool first so that snowflakes are BigInts.
import { sql, type ColumnType, type Generated, type RawBuilder } from "kysely";
import type { ObjectIdLike } from "./index.js";

/** A `ulid` column: the canonical 26-character text. */
export type Ulid = string;
/** A `prefixed_id` (or domain) column: `acct_…` text. */
export type PrefixedId = string;
/** A `typeid` (or domain) column: `user_…` text. */
export type TypeId = string;
/** A `ksuid` column: its 27-character base62 text. */
export type Ksuid = string;
/**
 * An `objectid` column: its 24 lowercase hex digits when read; the text or a
 * bson ObjectId when written (with the PostgresDialect, after
 * `sendObjectIds(ObjectId)` of idgen/pg).
 */
export type Objectid = ColumnType<string, string | ObjectIdLike, string | ObjectIdLike>;
/** An `rsxid` column (an XID): its 20-character base32hex text. */
export type Xid = string;
/** A `uuid` column filled by uuid_v7(). */
export type UuidV7 = string;
/** A snowflake() `bigint` column: a BigInt when read; a BigInt or its decimal text when written. */
export type Snowflake = ColumnType<bigint, bigint | string, bigint | string>;
/** A snowflake53() `bigint` column: a Number when read (exact, at most 2^53 - 1). */
export type Snowflake53 = ColumnType<number, number | bigint | string, number | bigint | string>;

/** A column with a DEFAULT from the extension, optional on insert. */
export type WithDefault<T> = T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : Generated<T>;

/** The DEFAULTs as SQL, for expressions in queries (`values({ id: defaults.ulid() })`). */
export const defaults = {
  uuidV7: (): RawBuilder<string> => sql<string>`uuid_v7()`,
  ulid: (): RawBuilder<string> => sql<string>`ulid()`,
  ksuid: (): RawBuilder<string> => sql<string>`ksuid()`,
  objectid: (): RawBuilder<string> => sql<string>`objectid()`,
  xid: (): RawBuilder<string> => sql<string>`xid()`,
  snowflake: (shard?: number): RawBuilder<bigint> => (shard === undefined ? sql<bigint>`snowflake()` : sql<bigint>`snowflake(${shard}::int4)`),
  snowflake53: (shard?: number): RawBuilder<number> => (shard === undefined ? sql<number>`snowflake53()` : sql<number>`snowflake53(${shard}::int4)`),
  prefixedId: (prefix: string): RawBuilder<string> => sql<string>`prefixed_id_new(${prefix})`,
  typeid: (prefix: string): RawBuilder<string> => sql<string>`typeid_new(${prefix})`,
};
