// Uses of the package's types that must not compile (tests/build.test.mjs
// expects exactly these errors, one per line marked "error:").
import type { ColumnType } from 'kysely';
import type { Snowflake, Snowflake53 } from 'idgen/kysely';
import { snowflakeTime, ulidToUuid } from 'idgen';
import { registerTypes } from 'idgen/pg';

type Read<T> = T extends ColumnType<infer R, any, any> ? R : never;
export const a: Read<Snowflake53> = 1n;  // error: a snowflake53 ID is a number
export const b: Read<Snowflake> = 1;  // error: a snowflake is a bigint
export const c: string = snowflakeTime(1n);  // error: a Date
export const d: number = ulidToUuid('01ARZ3NDEKTSV4RRFFQ69G5FAV');  // error: a string
export const e = registerTypes({}, { int8: 'float' });  // error: not a mode
