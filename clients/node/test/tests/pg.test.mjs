// idgen/pg: registerTypes() on node-postgres Clients and Pools, with the
// newest pg the package supports and the oldest (pg-oldest: pg 8.11.0).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import pgOldest from 'pg-oldest';
import { registerTypes, int8Parser } from 'idgen/pg';
import { connect, rows } from './helpers.mjs';

const BIG = 2n ** 53n;
let admin;

before(async () => {
  admin = await connect();
  await admin.query(`DO $$ BEGIN
      IF to_regtype('pkg_account_id') IS NULL THEN PERFORM prefixed_id_define('pkg_account_id', 'acct'); END IF;
      IF to_regtype('pkg_user_id') IS NULL THEN PERFORM typeid_define('pkg_user_id', 'user'); END IF;
    END $$`);
});
after(async () => {
  await admin.end();
});

const SAMPLE = `SELECT snowflake(1) AS sf, snowflake53(1) AS sf53, ulid() AS u, prefixed_id_new('acct') AS p,
    typeid_new('user') AS t, ARRAY[snowflake(1), snowflake(1)] AS sfs, ARRAY[ulid(), ulid()] AS us,
    ARRAY[prefixed_id_new('acct')::pkg_account_id] AS ps, ARRAY[typeid_new('user')::pkg_user_id, NULL] AS ts,
    prefixed_id_new('acct')::pkg_account_id AS pd, 1::int8 AS one`;

// check(row, text): the parsed row against the server's text of the same values
function check(row, text) {
  assert.equal(typeof row.sf, 'bigint', 'a snowflake is a BigInt');
  assert.ok(row.sf >= BIG);
  assert.equal(typeof row.sf53, 'number', 'a snowflake53 ID is a Number');
  assert.ok(Number.isSafeInteger(row.sf53));
  assert.equal(typeof row.one, 'number');
  assert.equal(row.u, text.u);
  assert.equal(row.p, text.p);
  assert.equal(row.t, text.t);
  assert.equal(row.pd, text.pd);
  assert.ok(Array.isArray(row.sfs) && row.sfs.every((v) => typeof v === 'bigint'));
  assert.ok(Array.isArray(row.us) && row.us.length === 2 && row.us.every((v) => /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(v)));
  assert.ok(Array.isArray(row.ps) && /^acct_[0-9a-z]{25}$/.test(row.ps[0]), `array of a domain: ${JSON.stringify(row.ps)}`);
  assert.ok(Array.isArray(row.ts) && /^user_[0-9a-z]{26}$/.test(row.ts[0]) && row.ts[1] === null);
}

// sampled(db): the sample row parsed, and the same values as the server's text
async function sampled(db) {
  await db.query('CREATE TEMP TABLE IF NOT EXISTS sample AS ' + SAMPLE + ' LIMIT 0');
  await db.query('TRUNCATE sample');
  await db.query('INSERT INTO sample ' + SAMPLE);
  const [row] = await rows(db, 'SELECT * FROM sample');
  const [text] = await rows(db, 'SELECT u::text, p::text, t::text, pd::text FROM sample');
  return [row, text];
}

describe('node-postgres registerTypes()', () => {
  test('without it, a snowflake arrives as text and arrays of ulid as one string (what the package fixes)', async () => {
    const c = await connect();
    const [r] = await rows(c, 'SELECT snowflake(1) | 1 AS sf, ARRAY[ulid()] AS us');  // odd: no Number holds it
    await c.end();
    assert.equal(typeof r.sf, 'string');
    assert.notEqual(BigInt(Number(r.sf)), BigInt(r.sf), 'Number() would round it');
    assert.equal(typeof r.us, 'string');
  });

  test('the documented use: a Pool, then exact snowflakes, ID text and ID arrays', async () => {
    // README snippet begins
    const pool = new pg.Pool();  // PGHOST, PGPORT, PGDATABASE, PGUSER
    await registerTypes(pool);   // once; again after creating new domains
    const { rows: [row] } = await pool.query(
      'SELECT snowflake(1) AS id, snowflake53(1) AS small_id, ulid() AS ref, ARRAY[ulid(), ulid()] AS refs');
    // row.id: 770263540232619009n (a BigInt), row.small_id: 96164532224 (a Number),
    // row.ref: '01JQ…' (text), row.refs: ['01JQ…', '01JQ…']
    // README snippet ends
    await pool.end();
    assert.equal(typeof row.id, 'bigint');
    assert.equal(typeof row.small_id, 'number');
    assert.match(row.ref, /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    assert.equal(row.refs.length, 2);
    assert.throws(() => JSON.stringify(row), TypeError, 'JSON.stringify of a BigInt throws, as the README warns');
    // README package begins
    // JSON.stringify(row) throws a TypeError on the BigInt: write snowflakes as strings
    const json = JSON.stringify(row, (key, value) => (typeof value === 'bigint' ? value.toString() : value));
    // README package ends
    assert.deepEqual(JSON.parse(json), { ...row, id: row.id.toString() });
  });

  test('on a Client: snowflakes BigInt, snowflake53 Number, IDs and domains as their text, arrays as arrays', async (t) => {
    const c = await connect();
    t.after(() => c.end());
    const found = await registerTypes(c);
    assert.deepEqual([...new Set(found.map((f) => f.family))].sort(), ['ksuid', 'objectid', 'prefixed_id', 'typeid', 'ulid', 'xid']);
    assert.deepEqual(['pkg_account_id', 'pkg_user_id'].map((n) => found.find((f) => f.name === n)?.family), ['prefixed_id', 'typeid']);
    const [row, text] = await sampled(c);
    check(row, text);
  });

  test('on a Pool: clients it made before and after registerTypes() both parse', async () => {
    const pool = new pg.Pool({ max: 3 });
    const early = await pool.connect();
    early.release();
    await registerTypes(pool);
    const held = [await pool.connect(), await pool.connect(), await pool.connect()];
    for (const c of held) {
      const [row, text] = await sampled(c);
      check(row, text);
    }
    held.forEach((c) => c.release());
    const [r] = await rows(pool, 'SELECT snowflake(2) AS sf');
    assert.equal(typeof r.sf, 'bigint');
    await pool.end();
  });

  test('BigInt parameters go exactly and come back equal', async () => {
    const c = await connect();
    await registerTypes(c);
    const [{ sf }] = await rows(c, 'SELECT snowflake(3) AS sf');
    const [back] = await rows(c, 'SELECT $1::int8 AS sf, $1::int8::text AS text', [sf]);
    assert.equal(back.sf, sf);
    assert.equal(back.text, sf.toString());
    await c.end();
  });

  test('int8 modes: bigint always a BigInt, number refuses 2^53 rather than rounding, string leaves text', async () => {
    for (const [mode, want] of [['bigint', ['bigint', 'bigint']], ['number', ['number', 'error']], ['string', ['string', 'string']]]) {
      const c = await connect();
      await registerTypes(c, { int8: mode });
      const small = (await rows(c, 'SELECT snowflake53(1) AS v'))[0].v;
      assert.equal(typeof small, want[0], mode);
      if (want[1] === 'error') await assert.rejects(c.query('SELECT snowflake(1) AS v'), RangeError);
      else assert.equal(typeof (await rows(c, 'SELECT snowflake(1) AS v'))[0].v, want[1], mode);
      await c.end();
    }
    assert.throws(() => int8Parser('float'), TypeError);
  });

  test('int8 mode split (the default): every value up to 2^53 - 1 a Number, from 2^53 a BigInt, negatives alike', async () => {
    const c = await connect();
    await registerTypes(c);
    const [r] = await rows(c, `SELECT (2::int8 ^ 53 - 1)::int8 AS a, (2::int8 ^ 53)::int8 AS b, -(2::int8 ^ 53)::int8 AS c,
        9223372036854775807::int8 AS d`);
    assert.deepEqual([r.a, r.b, r.c, r.d], [2 ** 53 - 1, 2n ** 53n, -(2n ** 53n), 9223372036854775807n]);
    await c.end();
  });

  test('a domain defined after registerTypes() needs registerTypes() again for its arrays', async (t) => {
    const c = await connect();
    t.after(() => c.end());
    await registerTypes(c);
    const letters = Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
    await c.query(`SELECT prefixed_id_define('pkg_late_${letters}', '${letters}')`);
    const arr = `SELECT ARRAY[prefixed_id_new('${letters}')::pkg_late_${letters}] AS a`;
    assert.equal(typeof (await rows(c, arr))[0].a, 'string');
    await registerTypes(c);
    assert.ok(Array.isArray((await rows(c, arr))[0].a));
  });

  test('a CREATE DOMAIN over ulid and a domain over it (idgen_types()): values and arrays parse', async (t) => {
    const c = await connect();
    t.after(() => c.end());
    await c.query(`DO $$ BEGIN IF to_regtype('pkg_ulid_ref') IS NULL THEN
        CREATE DOMAIN pkg_ulid_ref AS ulid; CREATE DOMAIN pkg_ulid_ref_ref AS pkg_ulid_ref; END IF; END $$`);
    const found = await registerTypes(c);
    assert.deepEqual(['pkg_ulid_ref', 'pkg_ulid_ref_ref'].map((n) => found.find((f) => f.name === n)?.family), ['ulid', 'ulid']);
    const [r] = await rows(c, `SELECT ulid()::pkg_ulid_ref_ref AS rr, ARRAY[ulid()::pkg_ulid_ref_ref, NULL] AS rrs,
        ARRAY[ulid()::pkg_ulid_ref] AS rs, ARRAY[typeid_new('user')::pkg_user_id] AS ts`);
    assert.match(r.rr, /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    assert.ok(Array.isArray(r.rrs) && /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(r.rrs[0]) && r.rrs[1] === null, JSON.stringify(r.rrs));
    assert.ok(Array.isArray(r.rs) && Array.isArray(r.ts) && /^user_/.test(r.ts[0]));
  });

  test('the oldest supported node-postgres (8.11.0) parses the same', async () => {
    const c = new pgOldest.Client();
    await c.connect();
    await registerTypes(c);
    const [row, text] = await sampled(c);
    check(row, text);
    await c.end();
  });

  test('a database without the extension: registerTypes() fails with a message naming it', async () => {
    const c = await connect({ database: 'postgres' });
    await assert.rejects(registerTypes(c), /extension is not installed/);
    await c.end();
  });

  test('something that is not a Client or Pool is refused', async () => {
    const fake = { query: async () => ({ rows: [{ name: 'ulid', oid: 1, array_oid: 2 }] }) };
    await assert.rejects(registerTypes(fake), TypeError);
  });
});
