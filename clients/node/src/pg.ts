// idgen for node-postgres 8: registerTypes() finds the OIDs of the
// extension's types in the connected database and installs text parsers:
// bigint (so snowflakes) exact, ulid/prefixed_id/typeid and their domains'
// arrays as arrays of strings.
import pg from "pg";
import { parseIdArray, TYPES_FUNCTION_SQL, typesSql, type TypeOid } from "./index.js";

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
