// idgen/pg on the wire: every value registerTypes() parses is what the
// server sent, and every value given back as a parameter is what the server
// reads, compared with the server's own text output and *_send() bytes; with
// the newest node-postgres the package supports and the oldest (pg-oldest:
// pg 8.11.0), whose parameter encoding differs in age.
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import pgOldest from 'pg-oldest';
import { registerTypes } from 'idgen/pg';
import * as idgen from 'idgen';
import { connect, rows } from './helpers.mjs';
import { cases } from './vectors.mjs';

const INT8_MAX = 9223372036854775807n;
const INT8_MIN = -9223372036854775808n;

before(async () => {
  const admin = await connect();
  await admin.query(`DO $$ BEGIN
      IF to_regtype('pkg_account_id') IS NULL THEN PERFORM prefixed_id_define('pkg_account_id', 'acct'); END IF;
      IF to_regtype('pkg_user_id') IS NULL THEN PERFORM typeid_define('pkg_user_id', 'user'); END IF;
    END $$`);
  await admin.end();
});

// int8Hex(value): the 8 bytes int8send() gives for value, in hex (two's complement).
const int8Hex = (value) => BigInt.asUintN(64, BigInt(value)).toString(16).padStart(16, '0');

// Each family, the base types and the domains alike: [label, SQL type, a generator, its send function].
const CASES = [
  ['uuid', 'uuid', 'uuid_v7()', 'uuid_send'],
  ['ulid', 'ulid', 'ulid()', 'ulid_send'],
  ['prefixed_id', 'prefixed_id', "prefixed_id_new('acct')", 'prefixed_id_send'],
  ['typeid', 'typeid', "typeid_new('user')", 'typeid_send'],
  ['typeid with the empty prefix', 'typeid', "typeid_new('')", 'typeid_send'],
  ['a prefixed_id_define() domain', 'pkg_account_id', "prefixed_id_new('acct')::pkg_account_id", 'prefixed_id_send'],
  ['a typeid_define() domain', 'pkg_user_id', "typeid_new('user')::pkg_user_id", 'typeid_send'],
  ['ksuid', 'ksuid', 'ksuid()', 'ksuid_send'],
  ['objectid', 'objectid', 'objectid()', 'objectid_send'],
  ['rsxid (an XID)', 'rsxid', 'xid()', 'rsxid_send'],
];

// The binary families: [family, SQL type, the package's bytes -> text and text -> bytes, their length].
const BINARY = [
  ['ksuid', 'ksuid', idgen.ksuidFromBytes, idgen.ksuidToBytes, 20],
  ['objectid', 'objectid', idgen.objectidFromBytes, idgen.objectidToBytes, 12],
  ['xid', 'rsxid', idgen.xidFromBytes, idgen.xidToBytes, 12],
];
const hexOf = (bytes) => Buffer.from(bytes).toString('hex');

test('without registerTypes(): each snowflake is its exact text, and as Numbers those of one statement collide', async () => {
  const c = await connect();
  const sf = await rows(c, 'SELECT id, id::text AS text FROM (SELECT snowflake(1) AS id FROM generate_series(1, 100)) s');
  await c.end();
  assert.ok(sf.every((r) => typeof r.id === 'string' && r.id === r.text), JSON.stringify(sf[0]));
  assert.equal(new Set(sf.map((r) => r.id)).size, 100);
  assert.ok(new Set(sf.map((r) => Number(r.id))).size < 100, 'Number() rounds distinct snowflakes to equal values');
});

for (const [driver, Client] of [['pg', pg.Client], ['pg-oldest', pgOldest.Client]]) {
  describe(`node-postgres (${driver}) with registerTypes(), against the server's text and send bytes`, () => {
    let c;
    before(async () => {
      c = new Client();
      await c.connect();
      await registerTypes(c);
    });
    after(async () => {
      await c.end();
    });

    test('bigint: each value parsed has the bytes of int8send(), and as a parameter reaches the server unchanged', async () => {
      const [{ snowflake, small }] = await rows(c, 'SELECT snowflake(1)::text AS snowflake, snowflake53(1)::text AS small');
      for (const text of [snowflake, small, '9007199254740991', '9007199254740992', '-9007199254740992', String(INT8_MAX), String(INT8_MIN)]) {
        const [got] = await rows(c, 'SELECT v, int8send(v) AS send FROM (SELECT $1::int8 AS v) s', [text]);
        assert.equal(String(got.v), text, `parsed: ${text}`);
        assert.equal(int8Hex(got.v), got.send.toString('hex'), `the bytes of ${text}`);
        const [back] = await rows(c, 'SELECT $1::int8::text AS text, int8send($1::int8) AS send', [got.v]);
        assert.equal(back.text, text, `${typeof got.v} parameter ${text}`);
        assert.ok(back.send.equals(got.send));
      }
    });

    test('bigint[]: the empty array, NULL elements and the int8 extremes, in every int8 mode', async () => {
      const sql = `SELECT '{}'::int8[] AS empty, ARRAY[NULL, 9223372036854775807, -9223372036854775808, 1, NULL]::int8[] AS edges,
          ARRAY[NULL, 1]::int8[] AS small`;
      const want = {
        split: [null, INT8_MAX, INT8_MIN, 1, null],
        bigint: [null, INT8_MAX, INT8_MIN, 1n, null],
        string: [null, '9223372036854775807', '-9223372036854775808', '1', null],
      };
      for (const [mode, edges] of Object.entries(want)) {
        const m = new Client();
        await m.connect();
        await registerTypes(m, { int8: mode });
        const [r] = await rows(m, sql);
        await m.end();
        assert.deepEqual(r.empty, [], mode);
        assert.deepEqual(r.edges, edges, mode);
      }
      const m = new Client();
      await m.connect();
      await registerTypes(m, { int8: 'number' });
      await assert.rejects(m.query(sql), RangeError, 'number: the maximum is refused, not rounded');
      const [r] = await rows(m, "SELECT '{}'::int8[] AS empty, ARRAY[NULL, 1]::int8[] AS small");
      await m.end();
      assert.deepEqual([r.empty, r.small], [[], [null, 1]]);
    });

    test('snowflake53: 1000 IDs of one statement and 2^53 - 1 are exact, distinct Numbers through JSON and back', async () => {
      const ids = await rows(c, `SELECT id, id::text AS text FROM (SELECT snowflake53(1) AS id FROM generate_series(1, 1000)) s
          UNION ALL SELECT 9007199254740991, '9007199254740991'`);
      assert.ok(ids.every((r) => typeof r.id === 'number' && String(r.id) === r.text), JSON.stringify(ids[0]));
      assert.equal(new Set(ids.map((r) => r.id)).size, ids.length);
      const viaJson = JSON.parse(JSON.stringify(ids));
      assert.deepEqual(viaJson, ids);
      const [back] = await rows(c, 'SELECT $1::int8::text AS one, array(SELECT v::text FROM unnest($2::int8[]) WITH ORDINALITY u(v, i) ORDER BY i) AS all',
        [viaJson[0].id, viaJson.map((r) => r.id)]);
      assert.equal(back.one, ids[0].text);
      assert.deepEqual(back.all, ids.map((r) => r.text));
    });

    for (const [family, type, fromBytes, toBytes, length] of BINARY) {
      test(`${type}: the vectors file's text through the server, as text and as the codec's bytes (binary parameters)`, async () => {
        for (const v of cases(family, 'text', {})) {
          if (!v.ok) {
            await assert.rejects(c.query(`SELECT $1::${type}`, [v.text]), (e) => /^22/.test(e.code), `the server refuses ${v.what}`);
            assert.throws(() => toBytes(v.text), (e) => e instanceof TypeError || e instanceof RangeError, `the codec refuses ${v.what}`);
            continue;
          }
          const [r] = await rows(c, `SELECT $1::${type} AS v, ${type}_send($1::${type}) AS send`, [v.text]);
          assert.equal(r.v, v.canonical, v.what);
          assert.equal(r.send.toString('hex'), v.bits, `${v.what}: the send bytes`);
          const bytes = toBytes(v.text);
          assert.equal(hexOf(bytes), v.bits, `${v.what}: the codec's bytes`);
          // a Buffer (and a Uint8Array) goes in binary: the type's recv reads the raw bytes
          for (const param of [Buffer.from(bytes), bytes]) {
            const [b] = await rows(c, `SELECT $1::${type} AS v, ${type}_send($1::${type}) AS send`, [param]);
            assert.deepEqual([b.v, b.send.toString('hex')], [v.canonical, v.bits], `${v.what}: bytes as a ${param.constructor.name}`);
          }
        }
      });

      test(`${type}: the vectors file's bits as binary parameters, and ${length} bytes only`, async () => {
        for (const v of cases(family, 'bits')) {
          const [r] = await rows(c, `SELECT $1::${type} AS v, $1::${type}::text AS text`, [Buffer.from(v.bits, 'hex')]);
          assert.deepEqual([r.v, r.text], [v.canonical, v.canonical], v.what);
          assert.equal(fromBytes(Buffer.from(v.bits, 'hex')), v.canonical);
        }
        for (const n of [length - 1, length + 1]) {
          await assert.rejects(c.query(`SELECT $1::${type}`, [Buffer.alloc(n)]), (e) => /^(22P03|08P01)$/.test(e.code),
            `${n} bytes refused by the binary input`);
          assert.throws(() => fromBytes(Buffer.alloc(n)), RangeError);
        }
        // in an array, node-postgres writes a Buffer as \\x… text, which the type's text input refuses
        await assert.rejects(c.query(`SELECT $1::${type}[]`, [[Buffer.alloc(length)]]), (e) => e.code === '22P02', 'bytes in an array');
      });

      test(`${type}: minted values' bytes are their send bytes, and the server's text of the codec's text`, async () => {
        const got = await rows(c, `SELECT x, ${type}_send(x) AS send FROM (SELECT ${type === 'rsxid' ? 'xid' : type}() AS x
            FROM generate_series(1, 200)) s`);
        for (const r of got) {
          assert.equal(hexOf(toBytes(r.x)), r.send.toString('hex'), r.x);
          assert.equal(fromBytes(r.send), r.x);
        }
      });
    }

    for (const [label, type, generator, send] of CASES) {
      test(`${label}: results are the server's text, parameters go back byte for byte, arrays both ways`, async () => {
        const [r] = await rows(c, `SELECT x, x::text AS text, ${send}(x) AS send FROM (SELECT ${generator} AS x) s`);
        assert.equal(typeof r.x, 'string');
        assert.equal(r.x, r.text);
        const [back] = await rows(c, `SELECT $1::${type}::text AS text, ${send}($1::${type}) AS send`, [r.x]);
        assert.equal(back.text, r.text);
        assert.equal(back.send.toString('hex'), r.send.toString('hex'), 'the *_send() bytes');

        const [a] = await rows(c, `SELECT array_agg(x ORDER BY i) AS parsed, array_agg(x::text ORDER BY i) AS texts
            FROM (SELECT i, CASE WHEN i = 2 THEN NULL ELSE ${generator} END AS x FROM generate_series(1, 3) i) s`);
        assert.deepEqual(a.parsed, a.texts, `${type}[] parsed into the elements' text, NULL kept`);
        assert.equal(a.parsed[1], null);
        const [aback] = await rows(c,
          `SELECT array(SELECT e::text FROM unnest($1::${type}[]) WITH ORDINALITY u(e, i) ORDER BY i) AS texts`, [a.parsed]);
        assert.deepEqual(aback.texts, a.texts, `a JavaScript array as a ${type}[] parameter`);
      });
    }
  });
}
