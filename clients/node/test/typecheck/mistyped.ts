// Uses of the package's types that must not compile (tests/build.test.mjs
// expects exactly these errors, one per line marked "error:").
import type { ColumnType } from 'kysely';
import type { Objectid, Snowflake, Snowflake53 } from 'idgen/kysely';
import { ksuidPayload, objectidTime, snowflakeTime, ulidToUuid, xidPid } from 'idgen';
import { registerTypes, sendObjectIds } from 'idgen/pg';

type Read<T> = T extends ColumnType<infer R, any, any> ? R : never;
export const a: Read<Snowflake53> = 1n;  // error: a snowflake53 ID is a number
export const b: Read<Snowflake> = 1;  // error: a snowflake is a bigint
export const c: string = snowflakeTime(1n);  // error: a Date
export const d: number = ulidToUuid('01ARZ3NDEKTSV4RRFFQ69G5FAV');  // error: a string
export const e = registerTypes({}, { int8: 'float' });  // error: not a mode
export const f: string = ksuidPayload('0ujtsYcgvSTl8PAuAdqWYSMnLOv');  // error: a Uint8Array
export const g = objectidTime(1457650802);  // error: text, bytes or an ObjectId
export const h: Read<Objectid> = new Uint8Array(12);  // error: read as the hex text
export const i: string = xidPid('9m4e2mr0ui3e8a215n4g');  // error: a number
export const j = sendObjectIds(String);  // error: no toHexString()
