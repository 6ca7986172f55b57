// idgen: decoders for the extension's ID formats (docs/internals.md of the
// extension), in plain TypeScript with no dependency, and the list of its
// type names that the driver entry points (idgen/pg, idgen/postgres) look up.

/** `idgen.snowflake_epoch`'s default: 2024-01-01 00:00:00 UTC, in Unix milliseconds. */
export const DEFAULT_SNOWFLAKE_EPOCH = Date.UTC(2024, 0, 1);

/** An epoch: a Date, Unix milliseconds, or text that Date.parse reads ('2024-01-01T00:00:00Z'). */
export type Epoch = Date | number | string;

/**
 * The text forms' alphabets, a digit's value being its position, as the
 * encoders write them (docs/internals.md of the extension): what the
 * encoders and decoders use. The package's tests hold them to the
 * extension's vectors file.
 */
export const TEXT_ALPHABETS = {
  ulid: "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
  typeid: "0123456789abcdefghjkmnpqrstvwxyz",
  prefixed_id: "0123456789abcdefghijklmnopqrstuvwxyz",
  ksuid: "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
  objectid: "0123456789abcdef",
  xid: "0123456789abcdefghijklmnopqrstuv",
} as const;

/** The prefix rule of prefixed IDs and TypeIDs: a-z and _, a letter at each end, at most 63 characters. */
export const PREFIX_PATTERN = /^[a-z]([a-z_]{0,61}[a-z])?$/;

const CROCKFORD = TEXT_ALPHABETS.ulid;
const CROCKFORD_LOWER = TEXT_ALPHABETS.typeid;
const BASE36 = TEXT_ALPHABETS.prefixed_id;
const UUID_RE = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

// digit value per ASCII character code, both cases; -1 for a character
// outside the alphabet. Looked up by code, never through toLowerCase(): that
// maps non-ASCII look-alikes to ASCII ("\u212a", the Kelvin sign, to "k"),
// and the server reads ASCII only.
function digitValues(alphabet: string): Int8Array {
  const t = new Int8Array(128).fill(-1);
  const upper = alphabet.toUpperCase();
  for (let i = 0; i < alphabet.length; i++) {
    t[alphabet.charCodeAt(i)] = i;
    t[upper.charCodeAt(i)] = i;
  }
  return t;
}
const CROCKFORD_VALUE = digitValues(CROCKFORD_LOWER);
const BASE36_VALUE = digitValues(BASE36);

const U128_MAX = (1n << 128n) - 1n;
const INT64_MAX = (1n << 63n) - 1n;
const BASE36_CHUNK = 36n ** 10n;

/**
 * The two snowflake splits' fields, [zero, ms, shard, seq] bits from the most
 * significant (docs/internals.md of the extension): what the decoders shift
 * and mask by. The package's tests hold it to the extension's vectors file.
 */
export const SNOWFLAKE_LAYOUTS = {
  snowflake: [1, 40, 13, 10],
  snowflake53: [11, 40, 4, 9],
} as const;

// A split's shifts and masks, and its range: the 63-bit split starts at 2^53
// (below are snowflake53's IDs), the 53-bit one ends below it.
function splitOf(layout: readonly [number, number, number, number]) {
  const [, , shardBits, seqBits] = layout;
  return {
    msShift: BigInt(shardBits + seqBits),
    shardShift: BigInt(seqBits),
    shardMask: (1n << BigInt(shardBits)) - 1n,
    seqMask: (1n << BigInt(seqBits)) - 1n,
  };
}
const S63 = splitOf(SNOWFLAKE_LAYOUTS.snowflake);
const S53 = splitOf(SNOWFLAKE_LAYOUTS.snowflake53);
const SNOWFLAKE_MIN = 1n << 53n;
const SNOWFLAKE53_MAX = SNOWFLAKE_MIN - 1n;

function epochMs(epoch: Epoch): number {
  const ms = epoch instanceof Date ? epoch.getTime() : typeof epoch === "number" ? epoch : Date.parse(epoch);
  if (!Number.isFinite(ms)) throw new RangeError(`invalid epoch: ${String(epoch)}`);
  return ms;
}

function toBigInt(id: bigint | number | string, what: string): bigint {
  let v: bigint;
  if (typeof id === "bigint") v = id;
  else if (typeof id === "number") {
    if (!Number.isSafeInteger(id)) throw new RangeError(`${what} must be an integer within 2^53 - 1 as a number (pass a bigint): ${id}`);
    v = BigInt(id);
  } else if (/^-?[0-9]+$/.test(id)) v = BigInt(id);
  else throw new TypeError(`invalid ${what}: "${id}"`);
  if (v < 0n || v > INT64_MAX) throw new RangeError(`${what} out of range: ${v}`);
  return v;
}

/** The 128 bits of a uuid's text (with or without hyphens, either case). */
export function uuidToBigInt(uuid: string): bigint {
  if (!UUID_RE.test(uuid)) throw new TypeError(`invalid uuid: "${uuid}"`);
  return BigInt("0x" + uuid.replace(/-/g, ""));
}

/** The canonical (lowercase, hyphenated) text of 128 bits. */
export function bigIntToUuid(value: bigint): string {
  if (value < 0n || value > U128_MAX) throw new RangeError("a uuid holds 128 bits");
  const h = value.toString(16).padStart(32, "0");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The millisecond embedded in a UUIDv7, as `uuid_v7_time()` gives it; `null`
 * when the uuid is not version 7 with the RFC 9562 variant.
 */
export function uuidV7Time(uuid: string): Date | null {
  const v = uuidToBigInt(uuid);
  if (((v >> 76n) & 0xfn) !== 7n || ((v >> 62n) & 0x3n) !== 2n) return null;
  return new Date(Number(v >> 80n));
}

// ---- snowflake (63 bits: 40 of ms, 13 of shard, 10 of sequence) ----

function snowflakeBits(id: bigint | number | string): bigint {
  const v = toBigInt(id, "snowflake");
  if (v < SNOWFLAKE_MIN) throw new RangeError(`snowflake ${v} is below 2^53: a snowflake53 ID, decode it with snowflake53Time()`);
  return v;
}

/** The millisecond in which a `snowflake()` ID was issued, counted from `epoch` (as `snowflake_time(id, epoch)`). */
export function snowflakeTime(id: bigint | number | string, epoch: Epoch = DEFAULT_SNOWFLAKE_EPOCH): Date {
  return new Date(epochMs(epoch) + Number(snowflakeBits(id) >> S63.msShift));
}

/** The shard (0..8191) that issued a `snowflake()` ID, as `snowflake_shard(id)`. */
export function snowflakeShard(id: bigint | number | string): number {
  return Number((snowflakeBits(id) >> S63.shardShift) & S63.shardMask);
}

/** The sequence number (0..1023) of a `snowflake()` ID, as `snowflake_seq(id)`. */
export function snowflakeSeq(id: bigint | number | string): number {
  return Number(snowflakeBits(id) & S63.seqMask);
}

// ---- snowflake53 (53 bits: 40 of ms, 4 of shard, 9 of sequence) ----

function snowflake53Bits(id: bigint | number | string): bigint {
  const v = toBigInt(id, "snowflake53");
  if (v > SNOWFLAKE53_MAX) throw new RangeError(`snowflake53 ${v} is above 2^53 - 1: a snowflake ID, decode it with snowflakeTime()`);
  return v;
}

/** The millisecond in which a `snowflake53()` ID was issued, counted from `epoch` (as `snowflake53_time(id, epoch)`). */
export function snowflake53Time(id: bigint | number | string, epoch: Epoch = DEFAULT_SNOWFLAKE_EPOCH): Date {
  return new Date(epochMs(epoch) + Number(snowflake53Bits(id) >> S53.msShift));
}

/** The shard (0..15) of a `snowflake53()` ID. */
export function snowflake53Shard(id: bigint | number | string): number {
  return Number((snowflake53Bits(id) >> S53.shardShift) & S53.shardMask);
}

/** The sequence number (0..511) of a `snowflake53()` ID. */
export function snowflake53Seq(id: bigint | number | string): number {
  return Number(snowflake53Bits(id) & S53.seqMask);
}

// ---- snowflake layouts: other systems' 64-bit IDs (snowflake_layout_* of the extension) ----

/** A field of a snowflake layout: `time` (units since the epoch), `sequence`, or a node field. */
export interface SnowflakeLayoutField {
  readonly name: string;
  readonly bits: number;
}

/**
 * A snowflake layout: an epoch (Unix ms), the length of one unit of the time
 * field (ms) and the fields from the most significant bit, as
 * `snowflake_layout_define()` takes them. Make one with `snowflakeLayout()`.
 */
export interface SnowflakeLayout {
  readonly epochMs: number;
  readonly timeUnitMs: number;
  readonly fields: readonly SnowflakeLayoutField[];
  /** The bits its fields take: 63 or fewer, 64 for `discord` alone (the sign bit is its time field's). */
  readonly totalBits: number;
  /** The first Unix ms its time field cannot hold (`snowflake_layout_end()`). */
  readonly endMs: number;
}

/**
 * Why a layout, an ID or a field value is refused: the reasons of the
 * extension's core (the vectors file's `reason`), e.g. `"too_wide"`,
 * `"negative"`, `"above_layout"`, `"field_range"`, `"before_epoch"`.
 */
export class SnowflakeLayoutError extends RangeError {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = "SnowflakeLayoutError";
  }
}

/**
 * The predefined layouts of the extension (its `snowflake_layout.hpp`),
 * fields from the most significant bit; `instagram`'s epoch is the setting
 * `idgen.snowflake_epoch` (pass it to `snowflakeLayout("instagram", epoch)`).
 * The package's tests hold them to the extension's vectors file.
 */
export const PREDEFINED_SNOWFLAKE_LAYOUTS = {
  instagram: { epochMs: DEFAULT_SNOWFLAKE_EPOCH, timeUnitMs: 1, fields: [["time", 40], ["shard", 13], ["sequence", 10]] },
  twitter: { epochMs: 1288834974657, timeUnitMs: 1, fields: [["time", 41], ["datacenter", 5], ["worker", 5], ["sequence", 12]] },
  discord: { epochMs: Date.UTC(2015, 0, 1), timeUnitMs: 1, fields: [["time", 42], ["worker", 5], ["process", 5], ["sequence", 12]] },
  sonyflake: { epochMs: Date.UTC(2014, 8, 1), timeUnitMs: 10, fields: [["time", 39], ["sequence", 8], ["machine", 16]] },
  pgedge: { epochMs: Date.UTC(2023, 0, 1), timeUnitMs: 1, fields: [["time", 41], ["node", 10], ["sequence", 12]] },
} as const;
export type PredefinedSnowflakeLayout = keyof typeof PREDEFINED_SNOWFLAKE_LAYOUTS;

const LAYOUT_MAX_FIELDS = 8;
const LAYOUT_MAX_UNIT_MS = 86_400_000;
const LAYOUT_END_OF_TIME_MS = Date.UTC(10000, 0, 1);
const LAYOUT_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const RESERVED_NODE_NAMES = new Set(["time", "sequence", "unix_ms", "timestamp"]);

function refuse(reason: string, message: string): never {
  throw new SnowflakeLayoutError(reason, message);
}

// The core's checks of a layout, in its order (layout_validate); allow64 for discord.
function checkLayout(epochMs: number, unitMs: number, fields: readonly SnowflakeLayoutField[], allow64: boolean): SnowflakeLayout {
  if (fields.length > LAYOUT_MAX_FIELDS) refuse("too_many_fields", "a layout has at most 8 fields: time, sequence and up to 6 node fields");
  for (const f of fields) {
    if (f.name.length > 63) refuse("bad_name", `field name "${f.name}" is longer than 63 characters`);
    if (!Number.isInteger(f.bits) || f.bits < 1 || f.bits > 63) refuse("bad_width", `field "${f.name}" is ${f.bits} bits wide: 1 to 63`);
  }
  const seen = new Set<string>();
  for (const f of fields) {
    if (!LAYOUT_NAME.test(f.name)) refuse("bad_name", `field name "${f.name}" is not lowercase letters, digits and underscores`);
    if (f.name !== "time" && f.name !== "sequence" && RESERVED_NODE_NAMES.has(f.name)) refuse("reserved_name", `a node field cannot be named "${f.name}"`);
    if (seen.has(f.name)) refuse("duplicate_name", `two fields are named "${f.name}"`);
    seen.add(f.name);
  }
  const time = fields.find((f) => f.name === "time");
  if (!time) refuse("no_time", 'a layout has one field named "time"');
  if (!seen.has("sequence")) refuse("no_sequence", 'a layout has one field named "sequence"');
  const totalBits = fields.reduce((n, f) => n + f.bits, 0);
  if (totalBits > 64 || (totalBits === 64 && !(allow64 && fields[0] === time))) refuse("too_wide", `the fields take ${totalBits} bits: 63 at most`);
  if (!Number.isInteger(unitMs) || unitMs < 1 || unitMs > LAYOUT_MAX_UNIT_MS) refuse("bad_unit", `a time unit of ${unitMs} ms: 1 ms to a day`);
  if (!Number.isInteger(epochMs) || epochMs < 0 || epochMs >= LAYOUT_END_OF_TIME_MS) refuse("bad_epoch", `an epoch of ${epochMs} ms: a whole ms from 1970 to 9999`);
  // the usable time bits: one less in a 64-bit layout (its sign bit)
  const timeBits = totalBits === 64 ? time.bits - 1 : time.bits;
  if (timeBits > 48 || 2 ** timeBits > Math.floor((LAYOUT_END_OF_TIME_MS - epochMs) / unitMs))
    refuse("outlasts_year_9999", "the time field would hold times from the year 10000 on");
  return Object.freeze({ epochMs, timeUnitMs: unitMs, fields: Object.freeze(fields.map((f) => Object.freeze({ ...f }))), totalBits, endMs: epochMs + unitMs * 2 ** timeBits });
}

/**
 * A snowflake layout: a predefined one by name (`instagram` from `epoch`,
 * `idgen.snowflake_epoch`'s default unless given), or one of your own from
 * its epoch, time unit and fields from the most significant bit, one named
 * `time` and one `sequence` (as `snowflake_layout_define()` takes them;
 * refused with a SnowflakeLayoutError where it refuses them).
 */
export function snowflakeLayout(name: PredefinedSnowflakeLayout, epoch?: Epoch): SnowflakeLayout;
export function snowflakeLayout(epoch: Epoch, timeUnitMs: number, fields: readonly (readonly [string, number])[]): SnowflakeLayout;
export function snowflakeLayout(a: Epoch, b?: number | Epoch, c?: readonly (readonly [string, number])[]): SnowflakeLayout {
  if (c === undefined) {
    const p = typeof a === "string" ? PREDEFINED_SNOWFLAKE_LAYOUTS[a as PredefinedSnowflakeLayout] : undefined;
    if (!p || !Object.hasOwn(PREDEFINED_SNOWFLAKE_LAYOUTS, a as string)) refuse("unknown_layout", `no predefined snowflake layout "${String(a)}"`);
    const epochMsOf = a === "instagram" && b !== undefined ? epochMs(b as Epoch) : p.epochMs;
    return checkLayout(epochMsOf, p.timeUnitMs, p.fields.map(([name, bits]) => ({ name, bits })), true);
  }
  return checkLayout(epochMs(a), b as number, c.map(([name, bits]) => ({ name, bits })), false);
}

const layoutOf = (layout: SnowflakeLayout | PredefinedSnowflakeLayout) => typeof layout === "string" ? snowflakeLayout(layout) : layout;

function shiftsOf(layout: SnowflakeLayout): bigint[] {
  let shift = 0;
  const out = new Array<bigint>(layout.fields.length);
  for (let i = layout.fields.length - 1; i >= 0; i--) {
    out[i] = BigInt(shift);
    shift += layout.fields[i]!.bits;
  }
  return out;
}

// The largest value of a field (the time field's usable bits in a 64-bit layout).
function fieldMax(layout: SnowflakeLayout, f: SnowflakeLayoutField): bigint {
  const bits = f.name === "time" && layout.totalBits === 64 ? f.bits - 1 : f.bits;
  return (1n << BigInt(bits)) - 1n;
}

/**
 * A snowflake's fields in a layout, as `snowflake_layout_decompose(id, layout)`
 * gives them: each field by name (`time` as the count of units; a field wider
 * than 53 bits as a bigint), `unix_ms` and `timestamp` (the start of its unit).
 * A negative ID, or one with bits above the layout, is a SnowflakeLayoutError.
 */
export function snowflakeLayoutDecompose(id: bigint | number | string, layout: SnowflakeLayout | PredefinedSnowflakeLayout):
    Record<string, number | bigint> & { unix_ms: number; timestamp: Date } {
  const l = layoutOf(layout);
  let v: bigint;
  if (typeof id === "string" && /^-?[0-9]+$/.test(id)) v = BigInt(id);
  else if (typeof id === "string") throw new TypeError(`invalid snowflake: "${id}"`);
  else if (typeof id === "number" && !Number.isSafeInteger(id)) throw new RangeError(`snowflake must be an integer within 2^53 - 1 as a number (pass a bigint): ${id}`);
  else v = BigInt(id);
  if (v < 0n) refuse("negative", `snowflake id ${v} is negative`);
  if (v >= 1n << 63n || (l.totalBits < 63 && v >> BigInt(l.totalBits) !== 0n)) refuse("above_layout", `snowflake id ${v} is out of range for the layout (${l.totalBits} bits)`);
  const shifts = shiftsOf(l);
  const out: Record<string, number | bigint> = {};
  l.fields.forEach((f, i) => {
    const value = (v >> shifts[i]!) & ((1n << BigInt(f.bits)) - 1n);
    out[f.name] = f.bits > 53 ? value : Number(value);
  });
  const unixMs = l.epochMs + (out.time as number) * l.timeUnitMs;
  return Object.assign(out, { unix_ms: unixMs, timestamp: new Date(unixMs) });
}

/** The start of the time unit a snowflake was made in, in a layout, as `snowflake_layout_time(id, layout)`. */
export function snowflakeLayoutTime(id: bigint | number | string, layout: SnowflakeLayout | PredefinedSnowflakeLayout): Date {
  return snowflakeLayoutDecompose(id, layout).timestamp;
}

// The time field's value of the unit holding a time.
function timeValue(l: SnowflakeLayout, time: Epoch): bigint {
  const ms = epochMs(time);
  if (ms < l.epochMs) refuse("before_epoch", `${new Date(ms).toISOString()} is before the layout's epoch`);
  if (ms >= l.endMs) refuse("after_end", `${new Date(ms).toISOString()} is at or after the layout's end`);
  return BigInt(Math.floor((ms - l.epochMs) / l.timeUnitMs));
}

/**
 * The snowflake of the time unit holding `time` with the node fields and
 * sequence of `fields` (missing ones 0), as `snowflake_layout_compose()`: for
 * backfills and tests. Mint IDs in these layouts with the systems' own
 * libraries (@sapphire/snowflake for Discord's and Twitter's).
 */
export function snowflakeLayoutCompose(layout: SnowflakeLayout | PredefinedSnowflakeLayout, time: Epoch,
    fields: Readonly<Record<string, number | bigint>> = {}): bigint {
  const l = layoutOf(layout);
  const values = new Map<string, bigint>([["time", timeValue(l, time)]]);
  for (const [name, value] of Object.entries(fields)) {
    const f = l.fields.find((x) => x.name === name);
    if (!f) refuse("unknown_field", `the layout has no field "${name}" to set`);
    if (name === "time") refuse("time_field", "the time field is set by the time argument");
    if (typeof value === "number" && !Number.isSafeInteger(value)) refuse("field_range", `field "${name}" is not an integer: ${value}`);
    const v = BigInt(value);
    if (v < 0n || v > fieldMax(l, f)) refuse("field_range", `field "${name}" is out of range: ${v} (its ${f.bits} bits hold 0 to ${fieldMax(l, f)})`);
    values.set(name, v);
  }
  const shifts = shiftsOf(l);
  return l.fields.reduce((id, f, i) => id | ((values.get(f.name) ?? 0n) << shifts[i]!), 0n);
}

/**
 * The smallest snowflake of the time unit holding `time` in a layout, as
 * `snowflake_layout_boundary()`, for range predicates (`id >= boundary(t1)
 * AND id < boundary(t2)`); with `{ largest: true }` the largest of that unit.
 */
export function snowflakeLayoutBoundary(layout: SnowflakeLayout | PredefinedSnowflakeLayout, time: Epoch,
    { largest = false }: { largest?: boolean } = {}): bigint {
  const l = layoutOf(layout);
  const t = timeValue(l, time);
  const shifts = shiftsOf(l);
  return l.fields.reduce((id, f, i) => id | ((f.name === "time" ? t : largest ? fieldMax(l, f) : 0n) << shifts[i]!), 0n);
}

// ---- ULID ----

function base32Decode(text: string, lowerOnly: boolean, what: string): bigint {
  if (text.length !== 26) throw new TypeError(`invalid ${what}: "${text}" (26 characters expected)`);
  // 26 digits in chunks of 6, 10 and 10 (at most 50 bits each: exact as Numbers)
  let v = 0n;
  let chunk = 0;
  for (let i = 0; i < 26; i++) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? CROCKFORD_VALUE[c]! : -1;
    if (d < 0 || (lowerOnly && c >= 65 && c <= 90)) throw new TypeError(`invalid ${what}: "${text}" (bad character at ${i + 1})`);
    if (i === 0 && d > 7) throw new RangeError(`invalid ${what}: "${text}" (above 128 bits)`);
    chunk = chunk * 32 + d;
    if (i === 5 || i === 15 || i === 25) {
      v = (v << (i === 5 ? 30n : 50n)) | BigInt(chunk);
      chunk = 0;
    }
  }
  return v;
}

function base32Encode(value: bigint, alphabet: string): string {
  let s = "";
  for (const bits of [50n, 50n, 30n]) {
    let chunk = Number(value & ((1n << bits) - 1n));
    value >>= bits;
    for (let i = Number(bits) / 5; i > 0; i--) {
      s = alphabet[chunk % 32]! + s;
      chunk = Math.floor(chunk / 32);
    }
  }
  return s;
}

/** The 128 bits of a ULID's text (26 Crockford base32 digits, either case; I, L, O, U refused). */
export function ulidToBigInt(ulid: string): bigint {
  return base32Decode(ulid, false, "ulid");
}

/** A ULID's canonical (uppercase) text, as the server writes it. */
export function ulidFromBigInt(value: bigint): string {
  if (value < 0n || value > U128_MAX) throw new RangeError("a ulid holds 128 bits");
  return base32Encode(value, CROCKFORD);
}

/** The uuid with a ULID's bytes, as `id::uuid`. */
export function ulidToUuid(ulid: string): string {
  return bigIntToUuid(ulidToBigInt(ulid));
}

/** The ULID with a uuid's bytes, as `id::ulid`. */
export function uuidToUlid(uuid: string): string {
  return ulidFromBigInt(uuidToBigInt(uuid));
}

/** A ULID's canonical text (uppercase), or a TypeError for text the server refuses. */
export function ulidCanonical(ulid: string): string {
  return ulidFromBigInt(ulidToBigInt(ulid));
}

/** The millisecond a ULID carries, as `ulid_time(id)`. */
export function ulidTime(ulid: string): Date {
  return new Date(Number(ulidToBigInt(ulid) >> 80n));
}

// ---- prefixed IDs (prefix_ + 25 base36 digits) and TypeID (prefix_ + 26 lowercase base32) ----

function split(id: string, what: string): [string, string] {
  const at = id.lastIndexOf("_");
  if (at < 0) return ["", id];
  const prefix = id.slice(0, at);
  if (!PREFIX_PATTERN.test(prefix)) throw new TypeError(`invalid ${what}: "${id}" (bad prefix)`);
  return [prefix, id.slice(at + 1)];
}

/** The prefix and the 128 bits (as a uuid) of a prefixed ID (digits in either case, as the server reads them), as `prefixed_id_prefix()` and `prefixed_id_uuid()`. */
export function prefixedIdParse(id: string): { prefix: string; uuid: string } {
  const [prefix, body] = split(id, "prefixed_id");
  if (prefix === "") throw new TypeError(`invalid prefixed_id: "${id}" (no prefix)`);
  if (body.length !== 25) throw new TypeError(`invalid prefixed_id: "${id}" (25 base36 digits expected)`);
  // 25 digits in chunks of 5, 10 and 10 (36^10 < 2^53: exact as Numbers)
  let v = 0n;
  let chunk = 0;
  for (let i = 0; i < 25; i++) {
    const c = body.charCodeAt(i);
    const d = c < 128 ? BASE36_VALUE[c]! : -1;
    if (d < 0) throw new TypeError(`invalid prefixed_id: "${id}" (bad character in the digits)`);
    chunk = chunk * 36 + d;
    if (i === 4 || i === 14 || i === 24) {
      v = v * (i === 4 ? 1n : BASE36_CHUNK) + BigInt(chunk);
      chunk = 0;
    }
  }
  if (v > U128_MAX) throw new RangeError(`invalid prefixed_id: "${id}" (above 128 bits)`);
  return { prefix, uuid: bigIntToUuid(v) };
}

/** A prefixed ID from a prefix and 128 bits, as `prefixed_id_from_uuid(prefix, uuid)`. */
export function prefixedIdFromUuid(prefix: string, uuid: string): string {
  if (!PREFIX_PATTERN.test(prefix)) throw new TypeError(`invalid prefix: "${prefix}"`);
  let v = uuidToBigInt(uuid);
  let s = "";
  for (const digits of [10, 10, 5]) {
    let chunk = Number(v % BASE36_CHUNK);
    v /= BASE36_CHUNK;
    for (let i = 0; i < digits; i++) {
      s = BASE36[chunk % 36]! + s;
      chunk = Math.floor(chunk / 36);
    }
  }
  return `${prefix}_${s}`;
}

/** The millisecond of an ordered prefixed ID, as `prefixed_id_time()`; `null` for a token. */
export function prefixedIdTime(id: string): Date | null {
  return uuidV7Time(prefixedIdParse(id).uuid);
}

/** The prefix ('' for none) and the 128 bits (as a uuid) of a TypeID, as `typeid_prefix()` and `typeid_uuid()`. */
export function typeidParse(id: string): { prefix: string; uuid: string } {
  const [prefix, suffix] = split(id, "typeid");
  if (prefix === "" && id.startsWith("_")) throw new TypeError(`invalid typeid: "${id}" (an empty prefix has no underscore)`);
  return { prefix, uuid: bigIntToUuid(base32Decode(suffix, true, "typeid")) };
}

/** A TypeID from a prefix ('' for none) and 128 bits, as `typeid_from_uuid(prefix, uuid)`. */
export function typeidFromUuid(prefix: string, uuid: string): string {
  if (prefix !== "" && !PREFIX_PATTERN.test(prefix)) throw new TypeError(`invalid prefix: "${prefix}"`);
  const suffix = base32Encode(uuidToBigInt(uuid), CROCKFORD_LOWER);
  return prefix === "" ? suffix : `${prefix}_${suffix}`;
}

/** The millisecond of a TypeID with UUIDv7 bits, as `typeid_time()`; `null` for other bits. */
export function typeidTime(id: string): Date | null {
  return uuidV7Time(typeidParse(id).uuid);
}

// ---- the binary families: KSUID (20 bytes), ObjectId and XID (12 bytes) ----
//
// Their binary form (the types' send/recv, and their casts to and from bytea)
// is the raw bytes, most significant first; their text is computed from
// those bytes. The *ToBytes functions read text as the server's *_in does and
// refuse what it refuses; the *FromBytes functions write the server's output.

/** An ID's binary form: its raw bytes (a Buffer is one). */
export type IdBytes = Uint8Array;

/**
 * What this package takes as an ObjectId besides its text and its 12 bytes:
 * anything with bson's `toHexString()`, such as npm `bson`'s `ObjectId`
 * (which the package does not depend on).
 */
export interface ObjectIdLike {
  toHexString(): string;
}

const KSUID_ALPHABET = TEXT_ALPHABETS.ksuid;
const XID_ALPHABET = TEXT_ALPHABETS.xid;
// digit value per ASCII code, exactly the alphabet (no case folding): KSUID's
// base62 is case-sensitive, XID's base32hex lowercase only
function exactValues(alphabet: string): Int8Array {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}
const KSUID_VALUE = exactValues(KSUID_ALPHABET);
const XID_VALUE = exactValues(XID_ALPHABET);
const HEX_VALUE = digitValues(TEXT_ALPHABETS.objectid);
const KSUID_EPOCH_S = 1400000000;
const U160_MAX = (1n << 160n) - 1n;

// the bytes of an ID given as bytes: a copy, of the family's length
function ownBytes(bytes: Uint8Array, length: number, what: string): Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${what}: text or a Uint8Array expected, got ${typeof bytes}`);
  if (bytes.length !== length) throw new RangeError(`${what} has ${length} bytes, got ${bytes.length}`);
  return Uint8Array.from(bytes);
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

function bigIntToBytes(value: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return out;
}

// bytes [at, at + n) as an unsigned big-endian Number (n at most 4)
function uintAt(bytes: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) v = v * 256 + bytes[i]!;
  return v;
}

// every character of text in the alphabet (the server reports a character
// before a length), then the length
function checkDigits(text: string, values: Int8Array, digits: number, what: string): void {
  if (typeof text !== "string") throw new TypeError(`${what}: text or a Uint8Array expected, got ${typeof text}`);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || values[c]! < 0) throw new TypeError(`invalid ${what}: "${text}" (bad character at ${i + 1})`);
  }
  if (text.length !== digits) throw new TypeError(`invalid ${what}: "${text}" (${digits} characters expected)`);
}

/** A KSUID's 20 bytes from its text (27 base62 characters, case-sensitive, at most `aWgEPTl1tmebfsQzFP4bxwgy80V`), as `id::ksuid::bytea`. */
export function ksuidToBytes(ksuid: string): Uint8Array {
  checkDigits(ksuid, KSUID_VALUE, 27, "ksuid");
  let v = 0n;
  for (let i = 0; i < 27; i++) v = v * 62n + BigInt(KSUID_VALUE[ksuid.charCodeAt(i)]!);
  if (v > U160_MAX) throw new RangeError(`invalid ksuid: "${ksuid}" (above 160 bits)`);
  return bigIntToBytes(v, 20);
}

/** A KSUID's text (27 base62 characters, left-padded with 0) from its 20 bytes, as the server writes it. */
export function ksuidFromBytes(bytes: Uint8Array): string {
  let v = bytesToBigInt(ownBytes(bytes, 20, "a ksuid"));
  let s = "";
  for (let i = 0; i < 27; i++) {
    s = KSUID_ALPHABET[Number(v % 62n)]! + s;
    v /= 62n;
  }
  return s;
}

function ksuidBytes(id: string | Uint8Array): Uint8Array {
  return typeof id === "string" ? ksuidToBytes(id) : ownBytes(id, 20, "a ksuid");
}

/** The second a KSUID carries (its first 4 bytes, from 2014-05-13 16:53:20 UTC), as `ksuid_time(id)`. */
export function ksuidTime(id: string | Uint8Array): Date {
  return new Date((uintAt(ksuidBytes(id), 0, 4) + KSUID_EPOCH_S) * 1000);
}

/** A KSUID's 16-byte payload (its last 16 bytes), as `ksuid_payload(id)`. */
export function ksuidPayload(id: string | Uint8Array): Uint8Array {
  return ksuidBytes(id).slice(4);
}

/** An ObjectId's 12 bytes from its text (24 hex digits, either case) or a bson ObjectId, as `id::objectid::bytea`. */
export function objectidToBytes(objectid: string | ObjectIdLike): Uint8Array {
  const text = typeof objectid === "object" && objectid !== null && typeof objectid.toHexString === "function"
    ? objectid.toHexString() : (objectid as string);
  checkDigits(text, HEX_VALUE, 24, "objectid");
  const out = new Uint8Array(12);
  for (let i = 0; i < 12; i++) out[i] = HEX_VALUE[text.charCodeAt(2 * i)]! * 16 + HEX_VALUE[text.charCodeAt(2 * i + 1)]!;
  return out;
}

/** An ObjectId's text (24 lowercase hex digits) from its 12 bytes, as the server writes it. */
export function objectidFromBytes(bytes: Uint8Array): string {
  let s = "";
  for (const b of ownBytes(bytes, 12, "an objectid")) s += b.toString(16).padStart(2, "0");
  return s;
}

/** An ObjectId's canonical text (lowercase), or a TypeError for text the server refuses. */
export function objectidCanonical(objectid: string | ObjectIdLike): string {
  return objectidFromBytes(objectidToBytes(objectid));
}

function objectidBytes(id: string | Uint8Array | ObjectIdLike): Uint8Array {
  return id instanceof Uint8Array ? ownBytes(id, 12, "an objectid") : objectidToBytes(id);
}

/** The second an ObjectId carries (its first 4 bytes, unsigned), as `objectid_time(id)`. */
export function objectidTime(id: string | Uint8Array | ObjectIdLike): Date {
  return new Date(uintAt(objectidBytes(id), 0, 4) * 1000);
}

/** An ObjectId's 5-byte process value (bytes 5 to 9), as `objectid_process(id)`. */
export function objectidProcess(id: string | Uint8Array | ObjectIdLike): Uint8Array {
  return objectidBytes(id).slice(4, 9);
}

/** An ObjectId's 24-bit counter (its last 3 bytes), 0 to 16777215, as `objectid_counter(id)`. */
export function objectidCounter(id: string | Uint8Array | ObjectIdLike): number {
  return uintAt(objectidBytes(id), 9, 3);
}

/**
 * An XID's 12 bytes from its text (20 characters of lowercase base32hex,
 * the last 0 or g: the 4 bits past the 96 are zero), as `id::rsxid::bytea`.
 */
export function xidToBytes(xid: string): Uint8Array {
  checkDigits(xid, XID_VALUE, 20, "xid");
  let v = 0n;
  for (let i = 0; i < 20; i++) v = (v << 5n) | BigInt(XID_VALUE[xid.charCodeAt(i)]!);
  if ((v & 0xfn) !== 0n) throw new TypeError(`invalid xid: "${xid}" (the last character must be 0 or g)`);
  return bigIntToBytes(v >> 4n, 12);
}

/** An XID's text (20 lowercase base32hex characters) from its 12 bytes, as the server writes it. */
export function xidFromBytes(bytes: Uint8Array): string {
  let v = bytesToBigInt(ownBytes(bytes, 12, "an xid")) << 4n;
  let s = "";
  for (let i = 0; i < 20; i++) {
    s = XID_ALPHABET[Number(v & 31n)]! + s;
    v >>= 5n;
  }
  return s;
}

function xidBytes(id: string | Uint8Array): Uint8Array {
  return typeof id === "string" ? xidToBytes(id) : ownBytes(id, 12, "an xid");
}

/** The second an XID carries (its first 4 bytes, unsigned), as `xid_time(id)`. */
export function xidTime(id: string | Uint8Array): Date {
  return new Date(uintAt(xidBytes(id), 0, 4) * 1000);
}

/** An XID's 3-byte machine id (bytes 5 to 7), as `xid_machine(id)`. */
export function xidMachine(id: string | Uint8Array): Uint8Array {
  return xidBytes(id).slice(4, 7);
}

/** An XID's 16-bit process id (bytes 8 and 9), 0 to 65535, as `xid_pid(id)`. */
export function xidPid(id: string | Uint8Array): number {
  return uintAt(xidBytes(id), 7, 2);
}

/** An XID's 24-bit counter (its last 3 bytes), 0 to 16777215, as `xid_counter(id)`. */
export function xidCounter(id: string | Uint8Array): number {
  return uintAt(xidBytes(id), 9, 3);
}

// ---- Timeflake (a uuid: 48-bit Unix ms, 80 random bits) and Firebase push IDs ----

/** The millisecond in the high 48 bits of a Timeflake's uuid text, as `timeflake_time(id)`. */
export function timeflakeTime(uuid: string): Date {
  return new Date(Number(uuidToBigInt(uuid) >> 80n));
}

/** A Timeflake's low 80 bits, as `timeflake_random(id)` (0 to 2^80 - 1). */
export function timeflakeRandom(uuid: string): bigint {
  return uuidToBigInt(uuid) & ((1n << 80n) - 1n);
}

/** The 64 characters of push IDs, in ASCII order: a digit's value is its position. */
export const PUSH_ID_ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";
const PUSH_ID_RE = /^[-0-9A-Z_a-z]{20}$/;

/** Whether text is exactly 20 characters of `-0-9A-Z_a-z`, as `push_id_is_valid(id)`. */
export function pushIdIsValid(text: string): boolean {
  return typeof text === "string" && PUSH_ID_RE.test(text);
}

/** The millisecond in a push ID's first 8 characters, as `push_id_time(id)`; a `TypeError` for text that is no push ID. */
export function pushIdTime(text: string): Date {
  if (!pushIdIsValid(text)) throw new TypeError(`invalid push ID: "${text}" (20 characters of -, 0-9, A-Z, _ and a-z)`);
  let ms = 0;
  for (let i = 0; i < 8; i++) ms = ms * 64 + PUSH_ID_ALPHABET.indexOf(text.charAt(i));
  return new Date(ms);
}

/**
 * The text of a binary family's ID given as its bytes, its text (checked),
 * or for objectid a bson ObjectId: what the drivers send as a parameter.
 * Undefined for the other families.
 */
export function binaryFamilyText(family: IdgenFamily, value: unknown): string | undefined {
  switch (family) {
    case "ksuid":
      return value instanceof Uint8Array ? ksuidFromBytes(value) : typeof value === "string" ? value : undefined;
    case "xid":
      return value instanceof Uint8Array ? xidFromBytes(value) : typeof value === "string" ? value : undefined;
    case "objectid":
      if (value instanceof Uint8Array) return objectidFromBytes(value);
      if (isObjectIdLike(value)) return value.toHexString();
      return typeof value === "string" ? value : undefined;
    default:
      return undefined;
  }
}

/** Whether value has bson's ObjectId's `toHexString()` (and is not text or bytes). */
export function isObjectIdLike(value: unknown): value is ObjectIdLike {
  return typeof value === "object" && value !== null && !(value instanceof Uint8Array)
    && typeof (value as ObjectIdLike).toHexString === "function";
}

/**
 * The extension's base types that the driver entry points give parsers to.
 * Domains made by `prefixed_id_define()` and `typeid_define()` arrive with
 * their base type's OID, so these cover them.
 */
export const TEXT_TYPES = ["ulid", "prefixed_id", "typeid", "ksuid", "objectid", "rsxid"] as const;
export type IdgenTextType = (typeof TEXT_TYPES)[number];

/** The families of `idgen_types()`: a type's name but for `rsxid`, whose family is `xid`. */
export type IdgenFamily = "ulid" | "prefixed_id" | "typeid" | "ksuid" | "objectid" | "xid";

/**
 * SQL that finds the extension's `idgen_types()` (docs/reference.md), in
 * whatever schema idgen lives: one row, `fn` the name to call it by
 * (qualified when its schema is not on the search_path; null before idgen
 * 0.8.0, which added it) and `version` the extension's; no row without idgen.
 */
export const TYPES_FUNCTION_SQL =
  "SELECT pg_catalog.to_regprocedure(e.extnamespace::pg_catalog.regnamespace::pg_catalog.text " +
  "OPERATOR(pg_catalog.||) '.idgen_types()')::pg_catalog.text AS fn, e.extversion AS version " +
  "FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'";

/**
 * The statement that lists the extension's types and every domain over them
 * (TypeOid rows), for the rows of TYPES_FUNCTION_SQL; throws where idgen is
 * not installed or older than 0.8.0.
 */
export function typesSql(found: readonly { fn: string | null; version: string }[]): string {
  const [row] = found;
  if (!row) throw new Error("idgen: the extension is not installed in this database (CREATE EXTENSION idgen)");
  if (!row.fn)
    throw new Error(
      `idgen: the extension is version ${row.version}, and this package needs 0.8.0 or later, ` +
        "whose idgen_types() lists the types (ALTER EXTENSION idgen UPDATE)",
    );
  return `SELECT t.name::text AS name, t.oid, t.array_oid, t.family FROM ${row.fn} t`;
}

/** One row of typesSql(): a type or domain, its array type, and its family. */
export interface TypeOid {
  name: string;
  oid: number;
  array_oid: number;
  family: IdgenFamily;
}

/** Parses a PostgreSQL array literal of IDs ('{a,b,NULL}'): the IDs' text never needs quoting. */
export function parseIdArray(text: string): (string | null)[] {
  if (text === "{}") return [];
  return text
    .slice(1, -1)
    .split(",")
    .map((s) => (s === "NULL" ? null : s));
}
