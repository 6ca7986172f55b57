// idgen for Postgres.js: the `types` option that reads bigint (so
// snowflakes) exactly, and registerTypes() for the extension's types.
// Postgres.js already returns the ID types as their text, and (with its
// default fetch_types) their arrays as arrays of strings; registerTypes()
// adds parsers for fetch_types: false and serializers that take a KSUID,
// ObjectId or XID as its bytes too, and a bson ObjectId.
import type { Sql, PostgresType } from "postgres";
import { int8Parser, type Int8Mode } from "./pg-int8.js";
import { binaryFamilyText, parseIdArray, TYPES_FUNCTION_SQL, typesSql, type IdgenFamily, type TypeOid } from "./index.js";

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

// The text of one parameter of a type of `family`: text as it is (the
// server checks it), and for ksuid, objectid and rsxid the raw bytes (a
// Uint8Array, given with sql.typed(bytes, oid)) and, for objectid, a bson
// ObjectId (anything with toHexString()), which Postgres.js would otherwise
// send as its String().
function serializer(family: IdgenFamily): (value: unknown) => string {
  return (value) => binaryFamilyText(family, value) ?? String(value);
}

// An array literal of the elements' text, each quoted (the text of a
// refused element reaches the server whole, to be refused there).
function arraySerializer(element: (value: unknown) => string): (values: unknown) => string {
  const literal = (values: unknown): string => {
    if (!Array.isArray(values)) return element(values);
    return "{" + values.map((v) => (v === null || v === undefined ? "NULL" : Array.isArray(v) ? literal(v)
      : '"' + element(v).replace(/[\\"]/g, (c) => "\\" + c) + '"')).join(",") + "}";
  };
  return literal;
}

/**
 * Checks that the extension is installed and gives its types and their
 * domains text parsers (arrays too, also with fetch_types: false) and
 * serializers (a KSUID, ObjectId or XID as its text or its bytes, an ObjectId
 * as a bson ObjectId too). Returns the OIDs it found. Call it again after
 * creating new domains.
 */
export async function registerTypes(sql: Sql<any>): Promise<TypeOid[]> {
  const found = (await sql.unsafe(TYPES_FUNCTION_SQL)) as unknown as { fn: string | null; version: string }[];
  const rows = (await sql.unsafe(typesSql(found))) as unknown as TypeOid[];
  const parsers = sql.options.parsers as Record<number, (raw: string) => unknown>;
  const serializers = sql.options.serializers as Record<number, (value: unknown) => string>;
  for (const t of rows) {
    const element = serializer(t.family);
    parsers[t.oid] = (raw: string) => raw;
    serializers[t.oid] = element;
    if (t.array_oid) {
      parsers[t.array_oid] = parseIdArray;
      serializers[t.array_oid] = arraySerializer(element);
    }
  }
  return rows.map((r) => ({ name: r.name, oid: r.oid, array_oid: r.array_oid, family: r.family }));
}
