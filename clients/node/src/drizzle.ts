// idgen for Drizzle ORM (drizzle-orm/pg-core): column types for the
// extension's types, the SQL of their DEFAULTs, and the statements a
// migration needs before a table can use a prefixed-ID or TypeID domain.
import { customType, PgTable } from "drizzle-orm/pg-core";
import { getTableColumns, is, sql, type SQL } from "drizzle-orm";
import { isObjectIdLike, objectidCanonical, PREFIX_PATTERN, type ObjectIdLike } from "./index.js";
import { int8Parser } from "./pg-int8.js";

const NAME_RE = /^[a-z_][a-z0-9_]{0,62}$/;

function checkPrefix(prefix: string, empty: boolean): string {
  if (!(empty && prefix === "") && !PREFIX_PATTERN.test(prefix)) throw new TypeError(`invalid prefix: "${prefix}"`);
  return prefix;
}

function checkName(name: string): string {
  if (!NAME_RE.test(name)) throw new TypeError(`invalid type name: "${name}" (lowercase letters, digits and underscores)`);
  return name;
}

const ulidType = customType<{ data: string; driverData: string }>({
  dataType: () => "ulid",
});

/** A `ulid` column; its values are the canonical 26-character text. */
export function ulid(name?: string) {
  return name === undefined ? ulidType() : ulidType(name);
}

const ksuidType = customType<{ data: string; driverData: string }>({
  dataType: () => "ksuid",
});

/** A `ksuid` column; its values are the 27-character base62 text. */
export function ksuid(name?: string) {
  return name === undefined ? ksuidType() : ksuidType(name);
}

const xidType = customType<{ data: string; driverData: string }>({
  dataType: () => "rsxid",
});

/** An `rsxid` column (an XID); its values are the 20-character base32hex text. */
export function xid(name?: string) {
  return name === undefined ? xidType() : xidType(name);
}

// An ObjectId written as its text: a string as it is (the server checks
// it), anything with bson's toHexString() as that.
const objectidText = (value: string | ObjectIdLike): string => (isObjectIdLike(value) ? objectidCanonical(value) : value);

const objectidType = customType<{ data: string; driverData: string }>({
  dataType: () => "objectid",
  toDriver: (value) => objectidText(value),
});

/** A constructor of ObjectIds from their hex text: npm `bson`'s `ObjectId`. */
export type ObjectIdConstructor<T extends ObjectIdLike> = new (hex: string) => T;

function objectidClassType<T extends ObjectIdLike>(ObjectId: ObjectIdConstructor<T>) {
  if (typeof ObjectId !== "function" || typeof ObjectId.prototype?.toHexString !== "function")
    throw new TypeError("objectid({ ObjectId }) takes a class with toHexString(), such as bson's ObjectId");
  return customType<{ data: T; driverData: string }>({
    dataType: () => "objectid",
    toDriver: (value) => objectidText(value),
    fromDriver: (value) => new ObjectId(value),
  });
}

/**
 * An `objectid` column. Its values are the 24 lowercase hex digits, and it
 * takes a bson ObjectId (anything with toHexString()) as a value too. Given
 * `{ ObjectId }` (npm `bson`'s class: this package does not depend on it),
 * its values are instances of that class, read and written.
 */
export function objectid(name?: string): ReturnType<typeof objectidType>;
export function objectid<T extends ObjectIdLike>(name: string | undefined, options: { ObjectId: ObjectIdConstructor<T> }): ReturnType<ReturnType<typeof objectidClassType<T>>>;
export function objectid<T extends ObjectIdLike>(name?: string, options?: { ObjectId: ObjectIdConstructor<T> }) {
  if (options === undefined) return name === undefined ? objectidType() : objectidType(name);
  const type = objectidClassType(options.ObjectId);
  return name === undefined ? type() : type(name);
}

// A domain column's config: its type, and what its define needs, read back
// from the schema's tables by schemaDomains() (plain data, so it survives a
// schema loaded through another copy of this module)
interface DomainConfig {
  type: string;
  idgen: "prefixed_id" | "typeid";
  prefix: string;
  token: boolean;
}

const prefixedIdType = customType<{ data: string; driverData: string; config: DomainConfig; configRequired: true }>({
  dataType: (config) => checkName(config.type),
  toDriver: (value) => value,
});

/**
 * A column of the domain `type` that prefixed_id_define(type, prefix)
 * created (see prefixedIdDefine() for the migration), or, with `type`
 * "prefixed_id", of the base type: a column that refers to such a key takes
 * the base type, since the domain's DEFAULT would mint a new, dangling ID
 * wherever an INSERT leaves the column out (the foreign key checks the prefix).
 * `{ token: true }`: the domain was defined with tokens as its DEFAULT.
 */
export function prefixedId(type: string, prefix: string, name?: string, options: { token?: boolean } = {}) {
  checkPrefix(prefix, false);
  const config: DomainConfig = { type, idgen: "prefixed_id", prefix, token: options.token === true };
  checkName(type);
  const col = name === undefined ? prefixedIdType(config) : prefixedIdType(name, config);
  return col;
}

const typeidType = customType<{ data: string; driverData: string; config: DomainConfig; configRequired: true }>({
  dataType: (config) => checkName(config.type),
});

/**
 * A column of the domain `type` that typeid_define(type, prefix) created (see
 * typeidDefine()), or, with `type` "typeid", of the base type: the type of a
 * column that refers to such a key, as with prefixedId().
 */
export function typeid(type: string, prefix: string, name?: string) {
  checkPrefix(prefix, true);
  const config: DomainConfig = { type, idgen: "typeid", prefix, token: false };
  checkName(type);
  return name === undefined ? typeidType(config) : typeidType(name, config);
}

const toBigInt = int8Parser("bigint")!;
const toNumber = int8Parser("number")!;

const snowflakeType = customType<{ data: bigint; driverData: string | number | bigint }>({
  dataType: () => "bigint",
  toDriver: (value) => value.toString(),
  fromDriver: (value) => (typeof value === "bigint" ? value : toBigInt(String(value)) as bigint),
});

/** A `bigint` column of snowflake() IDs, read as a BigInt (exact above 2^53). */
export function snowflake(name?: string) {
  return name === undefined ? snowflakeType() : snowflakeType(name);
}

const snowflake53Type = customType<{ data: number; driverData: string | number | bigint }>({
  dataType: () => "bigint",
  toDriver: (value) => {
    if (!Number.isSafeInteger(value)) throw new RangeError(`snowflake53 ${value} is not an integer within 2^53 - 1`);
    return value.toString();
  },
  fromDriver: (value) => toNumber(String(value)) as number,
});

/** A `bigint` column of snowflake53() IDs, read as a Number (exact: at most 2^53 - 1; a larger value throws). */
export function snowflake53(name?: string) {
  return name === undefined ? snowflake53Type() : snowflake53Type(name);
}

function shardSql(fn: string, shard?: number): SQL {
  if (shard === undefined) return sql.raw(`${fn}()`);
  if (!Number.isInteger(shard) || shard < 0) throw new RangeError(`invalid shard: ${shard}`);
  return sql.raw(`${fn}(${shard})`);
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The SQL DEFAULTs, for `.default(...)`: written as they are into the
 * migrations of drizzle-kit generate and evaluated by the server.
 */
export const defaults = {
  uuidV7: (): SQL => sql.raw("uuid_v7()"),
  ulid: (): SQL => sql.raw("ulid()"),
  ksuid: (): SQL => sql.raw("ksuid()"),
  objectid: (): SQL => sql.raw("objectid()"),
  xid: (): SQL => sql.raw("xid()"),
  snowflake: (shard?: number): SQL => shardSql("snowflake", shard),
  snowflake53: (shard?: number): SQL => shardSql("snowflake53", shard),
  prefixedId: (prefix: string): SQL => sql.raw(`prefixed_id_new(${literal(checkPrefix(prefix, false))})`),
  prefixedIdToken: (prefix: string): SQL => sql.raw(`prefixed_id_token(${literal(checkPrefix(prefix, false))})`),
  typeid: (prefix: string): SQL => sql.raw(`typeid_new(${literal(checkPrefix(prefix, true))})`),
};

/**
 * The statement that creates a prefixed-ID domain, for a custom migration
 * (`drizzle-kit generate --custom`) placed before the tables that use it.
 */
export function prefixedIdDefine(type: string, prefix: string, options: { token?: boolean } = {}): string {
  return `SELECT prefixed_id_define(${literal(checkName(type))}, ${literal(checkPrefix(prefix, false))}${options.token ? ", true" : ""});`;
}

/** The statement that creates a TypeID domain, for a custom migration. */
export function typeidDefine(type: string, prefix: string): string {
  return `SELECT typeid_define(${literal(checkName(type))}, ${literal(checkPrefix(prefix, true))});`;
}

/** A domain that a schema's columns use, as prefixed_id_define() or typeid_define() makes it. */
export interface Domain {
  family: "prefixed_id" | "typeid";
  type: string;
  prefix: string;
  token: boolean;
}

function domainOf(column: unknown): Domain | undefined {
  const config = (column as { config?: { fieldConfig?: Partial<DomainConfig> } }).config?.fieldConfig;
  if (config === undefined || (config.idgen !== "prefixed_id" && config.idgen !== "typeid")) return undefined;
  if (typeof config.type !== "string" || typeof config.prefix !== "string" || config.type === config.idgen) return undefined;
  return { family: config.idgen, type: config.type, prefix: config.prefix, token: config.token === true };
}

/**
 * The domains that the prefixedId() and typeid() columns of a schema's
 * tables use (the values of its modules' exports), by type name; a column
 * of a base type is none. A type declared with two prefixes is an error.
 */
export function schemaDomains(...modules: Record<string, unknown>[]): Domain[] {
  const found = new Map<string, Domain>();
  for (const module of modules)
    for (const table of Object.values(module)) {
      if (!is(table, PgTable)) continue;
      for (const column of Object.values(getTableColumns(table))) {
        const domain = domainOf(column);
        if (domain === undefined) continue;
        const seen = found.get(domain.type);
        if (seen && (seen.family !== domain.family || seen.prefix !== domain.prefix || seen.token !== domain.token))
          throw new TypeError(`type "${domain.type}" is declared as ${seen.family} "${seen.prefix}" and as ${domain.family} "${domain.prefix}"`);
        found.set(domain.type, domain);
      }
    }
  return [...found.values()].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/**
 * The SQL of a custom migration that creates the extension and these
 * domains, its statements separated as drizzle-kit's migrator splits them.
 */
export function idgenMigration(domains: Domain[]): string {
  const statements = ["CREATE EXTENSION IF NOT EXISTS idgen;"];
  for (const d of domains)
    statements.push(d.family === "prefixed_id" ? prefixedIdDefine(d.type, d.prefix, { token: d.token }) : typeidDefine(d.type, d.prefix));
  return statements.join("\n--> statement-breakpoint\n") + "\n";
}
