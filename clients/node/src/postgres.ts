// idgen for Postgres.js: the `types` option that reads bigint (so
// snowflakes) exactly, and registerTypes() for the extension's types.
// Postgres.js already returns ulid, prefixed_id and typeid as their text,
// and (with its default fetch_types) their arrays as arrays of strings.
import type { Sql, PostgresType } from "postgres";
import { int8Parser, type Int8Mode } from "./pg-int8.js";
import { parseIdArray, TYPES_FUNCTION_SQL, typesSql, type TypeOid } from "./index.js";

export type { Int8Mode } from "./pg-int8.js";

/**
 * The `types` option of postgres(): `postgres(url, { types: idgenTypes() })`.
 * bigint arrives as `int8` says (by default "split": a Number up to
 * 2^53 - 1, every snowflake53 ID; a BigInt above, every snowflake ID);
 * BigInt and Number parameters go as their exact decimal text.
 */
export function idgenTypes(options: { int8?: Int8Mode } = {}): Record<string, PostgresType> {
  const parse = int8Parser(options.int8 ?? "split");
  if (!parse) return {};
  return {
    idgenInt8: {
      to: 20,
      from: [20],
      serialize: (value: unknown) => String(value),
      // Postgres.js hands an array's unquoted NULL to the element parser as text
      parse: (raw: string) => (raw === "NULL" ? null : parse(raw)),
    },
  };
}

/**
 * Checks that the extension is installed and gives its types and their
 * domains text parsers (arrays too, also with fetch_types: false). Returns
 * the OIDs it found. Call it again after creating new domains.
 */
export async function registerTypes(sql: Sql<any>): Promise<TypeOid[]> {
  const found = (await sql.unsafe(TYPES_FUNCTION_SQL)) as unknown as { fn: string | null; version: string }[];
  const rows = (await sql.unsafe(typesSql(found))) as unknown as TypeOid[];
  const parsers = sql.options.parsers as Record<number, (raw: string) => unknown>;
  for (const t of rows) {
    parsers[t.oid] = (raw: string) => raw;
    if (t.array_oid) parsers[t.array_oid] = parseIdArray;
  }
  return rows.map((r) => ({ name: r.name, oid: r.oid, array_oid: r.array_oid, family: r.family }));
}
