// How a bigint's text becomes a JavaScript value, shared by idgen/pg and idgen/postgres.

/**
 * How `bigint` values arrive:
 * - "split" (default): a Number up to 2^53 - 1 (every snowflake53 ID), a
 *   BigInt above (every snowflake ID, which is at least 2^53); never rounded.
 * - "bigint": always a BigInt.
 * - "number": always a Number; a value above 2^53 - 1 throws a RangeError
 *   instead of being rounded (for schemas that use snowflake53 only).
 * - "string": node-postgres' default, the decimal text.
 */
export type Int8Mode = "split" | "bigint" | "number" | "string";

type Parser = (text: string) => unknown;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The parser of one bigint's text for a mode; undefined for "string". */
export function int8Parser(mode: Int8Mode): Parser | undefined {
  switch (mode) {
    case "bigint":
      return (text) => BigInt(text);
    case "number":
      return (text) => {
        const value = Number(text);
        if (!Number.isSafeInteger(value)) throw new RangeError(`bigint ${text} does not fit a Number exactly (above 2^53 - 1)`);
        return value;
      };
    case "split":
      return (text) => {
        const big = BigInt(text);
        return big > MAX_SAFE || big < -MAX_SAFE ? big : Number(text);
      };
    case "string":
      return undefined;
    default:
      throw new TypeError(`unknown int8 mode: ${String(mode)}`);
  }
}

