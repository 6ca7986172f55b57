// The decoders and text parsers without a server, on the extension's vectors
// file (tests/vectors.mjs): each case's answer is the C++ cores', so these
// parsers must give it, and refuse what the cores refuse. Among the refused,
// the non-ASCII look-alikes that Unicode case mapping or digit tables turn
// into a digit or letter of the alphabet (issue 51): the server reads bytes,
// and only ASCII digits and letters are digits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as idgen from 'idgen';
import { FAMILIES, VECTORS, cases, uuidOf, widths } from './vectors.mjs';

// Each family's parsers of text in this package.
const PARSERS = {
  ulid: [idgen.ulidToUuid, idgen.ulidTime, idgen.ulidCanonical],
  prefixed_id: [idgen.prefixedIdParse, idgen.prefixedIdTime],
  typeid: [idgen.typeidParse, idgen.typeidTime],
  uuid: [idgen.uuidToBigInt, idgen.uuidV7Time, idgen.uuidToUlid],
  snowflake: [idgen.snowflakeTime, idgen.snowflakeShard, idgen.snowflakeSeq],
  snowflake53: [idgen.snowflake53Time, idgen.snowflake53Shard, idgen.snowflake53Seq],
  ksuid: [idgen.ksuidToBytes, idgen.ksuidTime, idgen.ksuidPayload],
  objectid: [idgen.objectidToBytes, idgen.objectidCanonical, idgen.objectidTime, idgen.objectidProcess, idgen.objectidCounter],
  xid: [idgen.xidToBytes, idgen.xidTime, idgen.xidMachine, idgen.xidPid, idgen.xidCounter],
};

// Each binary family: its decoders of text or bytes, and the fields the file names for them.
const BINARY = {
  ksuid: { toBytes: idgen.ksuidToBytes, fromBytes: idgen.ksuidFromBytes, time: idgen.ksuidTime, length: 20,
    fields: (id) => ({ payload: hexOf(idgen.ksuidPayload(id)) }) },
  objectid: { toBytes: idgen.objectidToBytes, fromBytes: idgen.objectidFromBytes, time: idgen.objectidTime, length: 12,
    fields: (id) => ({ process: hexOf(idgen.objectidProcess(id)), counter: idgen.objectidCounter(id) }) },
  xid: { toBytes: idgen.xidToBytes, fromBytes: idgen.xidFromBytes, time: idgen.xidTime, length: 12,
    fields: (id) => ({ machine: hexOf(idgen.xidMachine(id)), pid: idgen.xidPid(id), counter: idgen.xidCounter(id) }) },
};
const hexOf = (bytes) => Buffer.from(bytes).toString('hex');
const bytesOf = (hex) => Uint8Array.from(Buffer.from(hex, 'hex'));

// The text with each non-ASCII character as U+XXXX, for messages.
const shown = (text) => text.replace(/[^\x20-\x7e]/g, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);

function refuses(family, text) {
  for (const parse of PARSERS[family]) {
    assert.throws(() => parse(text), (e) => e instanceof TypeError || e instanceof RangeError,
      `${parse.name}("${shown(text)}") must throw`);
  }
}

const ms = (d) => (d === null ? null : d.getTime());

// [family, text, what]: the look-alikes of the file, the cores' own and those
// PostgreSQL's uuid and bigint input refuse
const NOT_ASCII = [
  ...['ulid', 'prefixed_id', 'typeid', 'ksuid', 'objectid', 'xid'].flatMap((f) => cases(f, 'text', { notAscii: true }).map((c) => [f, c.text, c.what])),
  ...VECTORS.server_text.cases.map((c) => [c.family, c.text, c.what]),
];

describe('the text parsers refuse non-ASCII look-alikes, as the server does', () => {
  for (const [family, text, what] of NOT_ASCII) {
    test(`${family}: ${what}`, () => refuses(family, text));
  }
});

describe('ulid: the cores\' cases', () => {
  for (const c of cases('ulid', 'text', { notAscii: false })) {
    test(`text: ${c.what}`, () => {
      if (!c.ok) return refuses('ulid', c.text);
      assert.equal(idgen.ulidToBigInt(c.text), BigInt(`0x${c.bits}`));
      assert.equal(idgen.ulidToUuid(c.text), uuidOf(c.bits));
      assert.equal(idgen.ulidCanonical(c.text), c.canonical);
      assert.equal(ms(idgen.ulidTime(c.text)), c.unix_ms);
    });
  }
  for (const c of cases('ulid', 'bits')) {
    test(`bits: ${c.what}`, () => {
      assert.equal(idgen.ulidFromBigInt(BigInt(`0x${c.bits}`)), c.text);
      assert.equal(idgen.uuidToUlid(uuidOf(c.bits)), c.text);
    });
  }
});

// The file's answer fields of a case of a binary family, and this package's.
const wantFields = (family, c) => Object.fromEntries(Object.keys(BINARY[family].fields(new Uint8Array(BINARY[family].length)))
  .map((k) => [k, c[k]]));

for (const family of Object.keys(BINARY)) {
  const { toBytes, fromBytes, time, length, fields } = BINARY[family];
  describe(`${family}: the cores' cases`, () => {
    for (const c of cases(family, 'text', { notAscii: false })) {
      test(`text: ${c.what}`, () => {
        if (!c.ok) return refuses(family, c.text);
        assert.equal(hexOf(toBytes(c.text)), c.bits);
        assert.equal(fromBytes(toBytes(c.text)), c.canonical);
        assert.equal(ms(time(c.text)), c.unix_s * 1000);
        assert.deepEqual(fields(c.text), wantFields(family, c));
      });
    }
    for (const c of cases(family, 'bits')) {
      test(`bits: ${c.what}`, () => {
        const bytes = bytesOf(c.bits);
        assert.equal(fromBytes(bytes), c.canonical);
        assert.equal(ms(time(bytes)), c.unix_s * 1000);
        assert.deepEqual(fields(bytes), wantFields(family, c));
        assert.equal(hexOf(toBytes(c.canonical)), c.bits);
      });
    }
    test('bytes of another length, or neither text nor bytes, are refused', () => {
      for (const n of [0, length - 1, length + 1]) {
        assert.throws(() => fromBytes(new Uint8Array(n)), RangeError, `${n} bytes`);
        assert.throws(() => time(new Uint8Array(n)), RangeError, `${n} bytes`);
      }
      assert.throws(() => fromBytes('00'), TypeError);
      assert.throws(() => time(12), TypeError);
    });
  });
}

test('the documented use: the binary families\' decoders, offline', () => {
  const { ksuidTime, ksuidPayload, objectidCounter, objectidTime, xidPid, xidToBytes, xidFromBytes } = idgen;
  // README package begins
  // import { ksuidTime, ksuidPayload, objectidCounter, objectidTime, xidPid, xidToBytes, xidFromBytes } from 'idgen';
  const minted = ksuidTime('0ujtsYcgvSTl8PAuAdqWYSMnLOv');       // 2017-10-10T04:00:47.000Z
  const payload = ksuidPayload('0ujtsYcgvSTl8PAuAdqWYSMnLOv');    // its last 16 bytes, a Uint8Array
  const counter = objectidCounter('56e1fc72e0c917e9c4714161');    // 7422305
  const at = objectidTime('56e1fc72e0c917e9c4714161');            // 2016-03-10T23:00:02.000Z
  const pid = xidPid('9m4e2mr0ui3e8a215n4g');                     // 58408
  const bytes = xidToBytes('9m4e2mr0ui3e8a215n4g');               // the 12 bytes of rsxid_send()
  const text = xidFromBytes(bytes);                               // '9m4e2mr0ui3e8a215n4g'
  // README package ends
  assert.equal(minted.toISOString(), '2017-10-10T04:00:47.000Z');
  assert.equal(hexOf(payload), 'b5a1cd34b5f99d1154fb6853345c9735');
  assert.equal(counter, 7422305);
  assert.equal(at.toISOString(), '2016-03-10T23:00:02.000Z');
  assert.equal(pid, 58408);
  assert.equal(hexOf(bytes), '4d88e15b60f486e428412dc9');
  assert.equal(text, '9m4e2mr0ui3e8a215n4g');
});

test('the documented use: Timeflake and push ID times, offline', () => {
  const { pushIdIsValid, pushIdTime, timeflakeRandom, timeflakeTime } = idgen;
  // README package begins
  // import { pushIdIsValid, pushIdTime, timeflakeRandom, timeflakeTime } from 'idgen';
  const flake = '016fb420-9023-b444-fd07-590f81b7b0eb';   // Timeflake's README flake, a uuid column's text
  const minted = timeflakeTime(flake);                     // 2020-01-17T15:30:30.563Z
  const random = timeflakeRandom(flake);                   // 851298578153087956398315n
  const pushed = pushIdTime('-Lyo78-Y------------');       // 2020-01-17T15:30:30.563Z
  const valid = pushIdIsValid('-Lyo78-Y');                 // false: 8 characters, not 20
  // README package ends
  assert.equal(minted.toISOString(), '2020-01-17T15:30:30.563Z');
  assert.equal(random, 851298578153087956398315n);
  assert.equal(pushed.getTime(), minted.getTime());
  assert.equal(valid, false);
  assert.throws(() => pushIdTime('-Lyo78-Y'), TypeError);
});

describe('prefixed IDs and TypeIDs: the cores\' cases', () => {
  for (const [family, parse, time, make] of [
    ['prefixed_id', idgen.prefixedIdParse, idgen.prefixedIdTime, idgen.prefixedIdFromUuid],
    ['typeid', idgen.typeidParse, idgen.typeidTime, idgen.typeidFromUuid]]) {
    for (const c of cases(family, 'text', { notAscii: false })) {
      test(`${family} text: ${c.what}`, () => {
        if (!c.ok) return refuses(family, c.text);
        assert.deepEqual(parse(c.text), { prefix: c.prefix, uuid: uuidOf(c.bits) });
        assert.equal(make(c.prefix, uuidOf(c.bits)), c.canonical);
        assert.equal(ms(time(c.text)), c.unix_ms);
      });
    }
  }
  for (const c of cases('prefix', 'check')) {
    test(`prefix: ${c.what}`, () => {
      // a prefixed ID needs a prefix; a TypeID takes the empty one too
      const nil = '00000000-0000-0000-0000-000000000000';
      for (const [make, emptyOk] of [[idgen.prefixedIdFromUuid, false], [idgen.typeidFromUuid, true]]) {
        if (c.ok || (emptyOk && c.reason === 'empty')) assert.ok(make(c.prefix, nil).startsWith(c.prefix));
        else assert.throws(() => make(c.prefix, nil), TypeError, `${make.name}("${shown(c.prefix)}")`);
      }
    });
  }
});

describe('uuid_v7 and the snowflakes: the cores\' cases', () => {
  for (const c of cases('uuid_v7', 'bits')) {
    test(`uuid_v7: ${c.what}`, () => assert.equal(ms(idgen.uuidV7Time(uuidOf(c.bits))), c.unix_ms));
  }
  for (const family of ['snowflake', 'snowflake53']) {
    const [time, shard, seq] = PARSERS[family];
    for (const c of cases(family, 'id')) {
      test(`${family}: ${c.what}`, () => {
        if (!c.ok) return refuses(family, c.id);
        assert.deepEqual([ms(time(BigInt(c.id), 0)), shard(BigInt(c.id)), seq(c.id)], [c.ms, c.shard, c.seq]);
      });
    }
    test(`${family}: the package's layout and default epoch are the file's`, () => {
      assert.deepEqual(idgen.SNOWFLAKE_LAYOUTS[family], widths(family));
      assert.equal(idgen.DEFAULT_SNOWFLAKE_EPOCH, FAMILIES[family].epoch_unix_ms);
    });
  }
});

describe('the text forms: the package\'s alphabets and prefix rule are the file\'s', () => {
  for (const family of ['ulid', 'typeid', 'prefixed_id', 'ksuid', 'objectid', 'xid']) {
    test(`${family}: TEXT_ALPHABETS.${family}`, () => assert.equal(idgen.TEXT_ALPHABETS[family], FAMILIES[family].alphabet));
  }
  test('PREFIX_PATTERN', () => assert.equal(idgen.PREFIX_PATTERN.source, FAMILIES.prefix.pattern));
});
