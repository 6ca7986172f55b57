// idgen for node-postgres 8: registerTypes() finds the OIDs of the
// extension's types in the connected database and installs text parsers:
// bigint (so snowflakes) exact, the ID types' and their domains' arrays as
// arrays of strings. Parameters need nothing: node-postgres sends text as
// text and a Buffer or Uint8Array in binary, which the types' *_recv read as
// the raw bytes; sendObjectIds() lets bson's ObjectIds go as objectids.
import pg from "pg";
import { objectidCanonical, parseIdArray, TYPES_FUNCTION_SQL, typesSql, type ObjectIdLike, type TypeOid } from "./index.js";

import { int8Parser, type Int8Mode } from "./pg-int8.js";

export { int8Parser, type Int8Mode } from "./pg-int8.js";

export interface RegisterOptions {
  int8?: Int8Mode;
}

type Parser = (text: string) => unknown;

/** Something with node-postgres' query(). */
interface Queryable {
  query(text: string): Promise<{ rows: unknown[] }>;
}

/** The extension's types and their domains, with their array OIDs, in the database `db` is connected to. */
export async function fetchTypeOids(db: Queryable): Promise<TypeOid[]> {
  const found = await db.query(TYPES_FUNCTION_SQL);
  const { rows } = await db.query(typesSql(found.rows as { fn: string | null; version: string }[]));
  return rows as TypeOid[];
}

/** The parsers registerTypes() installs, by OID (text format). */
export function parsersFor(oids: TypeOid[], options: RegisterOptions = {}): Map<number, Parser> {
  const parsers = new Map<number, Parser>();
  const int8 = int8Parser(options.int8 ?? "split");
  if (int8) {
    parsers.set(20, int8);
    parsers.set(1016, (text) => parseIdArray(text).map((v) => (v === null ? null : int8(v))));
  }
  for (const t of oids) {
    parsers.set(t.oid, (text) => text);
    if (t.array_oid) parsers.set(t.array_oid, parseIdArray);
  }
  return parsers;
}

interface ClientLike extends Queryable {
  setTypeParser(oid: number, format: "text", parse: Parser): void;
}

interface PoolLike extends Queryable {
  options: { types?: unknown };
}

/** A `types` object for node-postgres (Client/Pool config `types`) that puts `parsers` before `fallback`. */
export function typeOverrides(parsers: Map<number, Parser>, fallback?: unknown): pg.CustomTypesConfig {
  const base = (fallback ?? pg.types) as pg.CustomTypesConfig;
  return {
    getTypeParser: ((oid: number, format?: "text" | "binary") => {
      if ((format ?? "text") === "text") {
        const p = parsers.get(oid);
        if (p) return p;
      }
      return base.getTypeParser(oid, format as "text");
    }) as pg.CustomTypesConfig["getTypeParser"],
  };
}

/**
 * Installs idgen's parsers on a node-postgres Client or Pool. For a Pool,
 * clients it creates from now on get them, and so do its idle clients.
 * Call it again after creating new domains with prefixed_id_define() or
 * typeid_define() (an array of a domain has the domain's own OID).
 */
export async function registerTypes(db: pg.Client | pg.Pool | pg.PoolClient, options: RegisterOptions = {}): Promise<TypeOid[]> {
  const isClient = typeof (db as unknown as ClientLike).setTypeParser === "function";
  if (!isClient && !(db as unknown as PoolLike).options)
    throw new TypeError("registerTypes() takes a node-postgres Client, PoolClient or Pool");
  const oids = await fetchTypeOids(db as unknown as Queryable);
  const parsers = parsersFor(oids, options);
  if (isClient) {
    for (const [oid, p] of parsers) (db as unknown as ClientLike).setTypeParser(oid, "text", p);
  } else {
    const pool = db as unknown as PoolLike & { _clients?: ClientLike[] };
    pool.options.types = typeOverrides(parsers, pool.options.types);
    // clients the pool already made (node-postgres 8 keeps them in _clients)
    for (const c of pool._clients ?? []) for (const [oid, p] of parsers) c.setTypeParser(oid, "text", p);
  }
  return oids;
}

/** A class whose instances have bson's `toHexString()`: npm `bson`'s `ObjectId` (or mongodb's re-export of it). */
export interface ObjectIdClass {
  prototype: ObjectIdLike;
}

/**
 * Lets instances of `ObjectId` (npm `bson`'s class, passed in: this package
 * does not depend on bson) be node-postgres parameters, alone or in arrays,
 * for objectid columns: it gives the class a `toPostgres()`, which
 * node-postgres calls for an object parameter, returning the hex text.
 * Without it node-postgres sends an ObjectId as JSON (the hex in double
 * quotes), which objectid refuses. Process-wide (the class's prototype);
 * a class with its own toPostgres() is left as it is. Returns the class.
 */
export function sendObjectIds<C extends ObjectIdClass>(ObjectId: C): C {
  const proto = ObjectId?.prototype as (ObjectIdLike & { toPostgres?: unknown }) | undefined;
  if (!proto || typeof proto.toHexString !== "function")
    throw new TypeError("sendObjectIds() takes a class with toHexString(), such as bson's ObjectId");
  if (!("toPostgres" in proto)) {
    Object.defineProperty(proto, "toPostgres", {
      value: function toPostgres(this: ObjectIdLike): string {
        return objectidCanonical(this);
      },
      configurable: true,
      writable: true,
    });
  }
  return ObjectId;
}
