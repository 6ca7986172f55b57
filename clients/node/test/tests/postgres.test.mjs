// idgen/postgres: the `types` option and registerTypes() for Postgres.js,
// with the newest version the package supports and the oldest
// (postgres-oldest: postgres 3.4.0).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import postgres from 'postgres';
import postgresOldest from 'postgres-oldest';
import { idgenTypes, registerTypes } from 'idgen/postgres';
import * as idgen from 'idgen';
import { cases } from './vectors.mjs';

const BIG = 2n ** 53n;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

async function sample(sql) {
  await sql`DO $$ BEGIN IF to_regtype('pkg_account_id') IS NULL THEN PERFORM prefixed_id_define('pkg_account_id', 'acct'); END IF; END $$`;
  const [row] = await sql`SELECT snowflake(1) AS sf, snowflake53(1) AS sf53, ulid() AS u, typeid_new('user') AS t,
      ARRAY[snowflake(1), NULL] AS sfs, ARRAY[ulid(), ulid()] AS us, ARRAY[prefixed_id_new('acct')::pkg_account_id] AS ps`;
  return row;
}

function check(row) {
  assert.equal(typeof row.sf, 'bigint');
  assert.ok(row.sf >= BIG);
  assert.equal(typeof row.sf53, 'number');
  assert.match(row.u, ULID);
  assert.match(row.t, /^user_[0-9a-z]{26}$/);
  assert.ok(row.sfs.length === 2 && typeof row.sfs[0] === 'bigint' && row.sfs[1] === null, `bigint[]: ${row.sfs}`);
  assert.ok(Array.isArray(row.us) && row.us.every((v) => ULID.test(v)));
  assert.ok(Array.isArray(row.ps) && /^acct_[0-9a-z]{25}$/.test(row.ps[0]), `array of a domain: ${JSON.stringify(row.ps)}`);
}

describe('Postgres.js', () => {
  test('without the types option a snowflake arrives as text', async () => {
    const sql = postgres({ max: 1 });
    const [r] = await sql`SELECT snowflake(1) AS sf`;
    await sql.end();
    assert.equal(typeof r.sf, 'string');
  });

  test('types: idgenTypes(): snowflakes BigInt, snowflake53 Number, IDs text, arrays arrays', async () => {
    const sql = postgres({ max: 1, types: idgenTypes() });
    try {
      check(await sample(sql));
    } finally {
      await sql.end();
    }
  });

  test('the documented use: the types option, then exact snowflakes and ID arrays', async () => {
    // README snippet begins
    const sql = postgres({ types: idgenTypes() });  // PGHOST, PGPORT, PGDATABASE, PGUSER
    const [row] = await sql`SELECT snowflake(1) AS id, snowflake53(1) AS small_id, ARRAY[ulid()] AS refs`;
    // row.id: a BigInt, row.small_id: a Number, row.refs: ['01JQ…']
    // README snippet ends
    await sql.end();
    assert.deepEqual([typeof row.id, typeof row.small_id, row.refs.length], ['bigint', 'number', 1]);
  });

  test('BigInt and Number parameters go exactly', async () => {
    const sql = postgres({ max: 1, types: idgenTypes() });
    try {
      const [{ sf, sf53 }] = await sql`SELECT snowflake(1) | 1 AS sf, snowflake53(1) AS sf53`;
      const [back] = await sql`SELECT ${sf}::int8 AS sf, ${sf}::int8::text AS text, ${sf53}::int8 AS sf53`;
      assert.equal(back.sf, sf);
      assert.equal(back.text, sf.toString());
      assert.equal(back.sf53, sf53);
    } finally {
      await sql.end();
    }
  });

  test('int8 mode number refuses a snowflake rather than rounding it', async () => {
    const sql = postgres({ max: 1, types: idgenTypes({ int8: 'number' }) });
    try {
      assert.equal(typeof (await sql`SELECT snowflake53(1) AS v`)[0].v, 'number');
      await assert.rejects(sql`SELECT snowflake(1) AS v`, RangeError);
    } finally {
      await sql.end();
    }
  });

  test('registerTypes() with fetch_types off: arrays of the ID types still parse', async () => {
    const sql = postgres({ max: 1, fetch_types: false, types: idgenTypes() });
    try {
      const [before] = await sql`SELECT ARRAY[ulid()] AS us`;
      assert.equal(typeof before.us, 'string');
      const found = await registerTypes(sql);
      assert.ok(found.some((t) => t.name === 'ulid'));
      const [row] = await sql`SELECT ARRAY[ulid(), ulid()] AS us`;
      assert.ok(Array.isArray(row.us) && row.us.every((v) => ULID.test(v)));
    } finally {
      await sql.end();
    }
  });

  test('registerTypes(): a CREATE DOMAIN over ulid and a domain over it (idgen_types()), their arrays too', async () => {
    const sql = postgres({ max: 1, fetch_types: false, types: idgenTypes() });
    try {
      await sql`DO $$ BEGIN IF to_regtype('pkg_ulid_ref') IS NULL THEN
          CREATE DOMAIN pkg_ulid_ref AS ulid; CREATE DOMAIN pkg_ulid_ref_ref AS pkg_ulid_ref; END IF; END $$`;
      const found = await registerTypes(sql);
      assert.equal(found.find((f) => f.name === 'pkg_ulid_ref_ref')?.family, 'ulid');
      const [row] = await sql`SELECT ulid()::pkg_ulid_ref_ref AS rr, ARRAY[ulid()::pkg_ulid_ref_ref, ulid()::pkg_ulid_ref_ref] AS rrs`;
      assert.match(row.rr, ULID);
      assert.ok(Array.isArray(row.rrs) && row.rrs.every((v) => ULID.test(v)), JSON.stringify(row.rrs));
    } finally {
      await sql.end();
    }
  });

  // [family, SQL type, generator, the codec's text -> bytes]
  for (const [family, type, generator, toBytes] of [['ksuid', 'ksuid', 'ksuid()', idgen.ksuidToBytes],
    ['objectid', 'objectid', 'objectid()', idgen.objectidToBytes], ['xid', 'rsxid', 'xid()', idgen.xidToBytes]]) {
    for (const fetchTypes of [true, false]) {
      test(`${type} (fetch_types ${fetchTypes}, registerTypes()): values and arrays as text, text and bytes as parameters`, async () => {
        const sql = postgres({ max: 1, fetch_types: fetchTypes, types: idgenTypes() });
        try {
          const found = await registerTypes(sql);
          const { oid } = found.find((t) => t.name === type);
          assert.equal(found.find((t) => t.name === type).family, family);
          const [r] = await sql.unsafe(`SELECT ${generator} AS x, ARRAY[${generator}, NULL, ${generator}] AS xs,
              ARRAY[${generator}]::text[] AS texts`);
          assert.equal(typeof r.x, 'string');
          assert.ok(Array.isArray(r.xs) && r.xs.length === 3 && r.xs[1] === null, JSON.stringify(r.xs));
          // (as JSON text: Postgres.js reads an unquoted NULL of a text[] as the string 'NULL')
          const [t] = await sql`SELECT ${r.x}::${sql.unsafe(type)}::text AS x, array_to_json(${r.xs}::${sql.unsafe(type)}[])::text AS xs`;
          assert.deepEqual([t.x, JSON.parse(t.xs)], [r.x, r.xs], 'text and arrays of text as parameters');
          // the raw bytes: a Uint8Array is bytea to Postgres.js; typed with the type's OID it goes as the text of those bytes
          for (const v of cases(family, 'text', { ok: true })) {
            const bytes = toBytes(v.text);
            const [b] = await sql`SELECT ${sql.typed(bytes, oid)}::text AS typed, ${bytes}::${sql.unsafe(type)}::text AS cast`;
            assert.deepEqual([b.typed, b.cast], [v.canonical, v.canonical], v.what);
          }
          await assert.rejects(sql`SELECT ${'not an id'}::${sql.unsafe(type)}`, (e) => e.code === '22P02');
          await assert.rejects(sql`SELECT ${['not an id', 'a "quoted", one']}::${sql.unsafe(type)}[]`, (e) => e.code === '22P02',
            'each element reaches the server whole, quoted');
        } finally {
          await sql.end();
        }
      });
    }
  }

  test('registerTypes() in a database without the extension fails with a message naming it', async () => {
    const sql = postgres({ max: 1, database: 'postgres' });
    try {
      await assert.rejects(registerTypes(sql), /extension is not installed/);
    } finally {
      await sql.end();
    }
  });

  test('the oldest supported Postgres.js (3.4.0) parses the same', async () => {
    const sql = postgresOldest({ max: 1, types: idgenTypes() });
    try {
      check(await sample(sql));
    } finally {
      await sql.end();
    }
  });
});
