// npm bson's ObjectId, the de-facto JavaScript value of an objectid: the
// package takes one as a parameter (node-postgres after sendObjectIds(),
// Postgres.js after registerTypes(), the decoders) without depending on bson,
// and the text it reads back makes an equal ObjectId.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import postgres from 'postgres';
import { ObjectId } from 'bson';
import { registerTypes, sendObjectIds } from 'idgen/pg';
import { registerTypes as registerPostgresJs } from 'idgen/postgres';
import * as idgen from 'idgen';
import { connect, rows } from './helpers.mjs';

let admin;
before(async () => {
  admin = await connect();
  await admin.query('CREATE TABLE IF NOT EXISTS mongo_docs (id objectid PRIMARY KEY DEFAULT objectid(), body text NOT NULL)');
});
after(async () => {
  await admin.end();
});

const hexOf = (bytes) => Buffer.from(bytes).toString('hex');

describe('node-postgres', () => {
  test('without sendObjectIds(), an ObjectId parameter goes as JSON and objectid refuses it (what the package fixes)', async () => {
    assert.equal('toPostgres' in ObjectId.prototype, false, 'run before sendObjectIds()');
    await assert.rejects(admin.query('SELECT $1::objectid', [new ObjectId()]), (e) => e.code === '22P02');
  });

  test('the documented use: sendObjectIds(ObjectId), then ObjectIds in and out', async () => {
    const pool = new pg.Pool({ max: 1 });
    // README package begins
    sendObjectIds(ObjectId);  // once: ObjectIds are then objectid parameters, in arrays too
    await registerTypes(pool);
    const given = new ObjectId();
    const { rows: [row] } = await pool.query(
      'INSERT INTO mongo_docs (id, body) VALUES ($1, $2) RETURNING id', [given, 'imported']);
    const back = ObjectId.createFromHexString(row.id);  // row.id is the hex text
    // README package ends
    const { rows: [many] } = await pool.query('SELECT $1::objectid[] AS ids, $1::objectid[]::bytea[] AS raws', [[given, null, back]]);
    await pool.end();
    assert.ok(back.equals(given));
    assert.equal(row.id, given.toHexString());
    assert.deepEqual(many.ids, [given.toHexString(), null, given.toHexString()]);
    assert.deepEqual(many.raws.map((b) => b && hexOf(b)), [hexOf(given.id), null, hexOf(given.id)]);
  });

  test('ObjectIds as parameters reach the server as their bytes, also createFromTime\'s and uppercase ones', async () => {
    const ids = [new ObjectId(), ObjectId.createFromTime(0), ObjectId.createFromTime(0xffffffff),
      new ObjectId('56E1FC72E0C917E9C4714161'), new ObjectId(new Uint8Array(12).fill(255))];
    for (const id of ids) {
      const [r] = await rows(admin, `SELECT $1::objectid AS v, encode($1::objectid::bytea, 'hex') AS raw,
          extract(epoch FROM objectid_time($1::objectid))::int8 AS unix`, [id]);
      assert.deepEqual([r.v, r.raw, Number(r.unix)], [id.toHexString(), hexOf(id.id), id.getTimestamp().getTime() / 1000]);
    }
  });

  test('sendObjectIds() refuses what is not an ObjectId class, and leaves a class\'s own toPostgres()', () => {
    for (const bad of [undefined, {}, class {}, 'ObjectId']) assert.throws(() => sendObjectIds(bad), TypeError, String(bad));
    class Own { toHexString() { return '00'.repeat(12); } toPostgres() { return 'own'; } }
    sendObjectIds(Own);
    assert.equal(new Own().toPostgres(), 'own');
    assert.equal(sendObjectIds(ObjectId), ObjectId, 'again: the same class, unchanged');
  });
});

describe('Postgres.js', () => {
  test('after registerTypes(), ObjectIds and arrays of them (with a NULL) are objectid parameters', async () => {
    const sql = postgres({ max: 1 });
    try {
      await registerPostgresJs(sql);
      const ids = [new ObjectId(), ObjectId.createFromTime(1)];
      const [r] = await sql`SELECT ${ids[0]}::objectid AS one, array_to_json(${[ids[0], null, ids[1]]}::objectid[])::text AS many,
          encode(${ids[1]}::objectid::bytea, 'hex') AS raw`;
      assert.equal(r.one, ids[0].toHexString());
      assert.deepEqual(JSON.parse(r.many), [ids[0].toHexString(), null, ids[1].toHexString()]);
      assert.equal(r.raw, hexOf(ids[1].id));
      const [ins] = await sql`INSERT INTO mongo_docs (id, body) VALUES (${ids[1]}, 'pjs') RETURNING id`;
      assert.ok(ObjectId.createFromHexString(ins.id).equals(ids[1]));
    } finally {
      await sql.end();
    }
  });
});

test('the decoders take an ObjectId: its bytes, time, process value and counter, as bson reads them', () => {
  for (const id of [new ObjectId(), ObjectId.createFromTime(0xffffffff), new ObjectId('56e1fc72e0c917e9c4714161')]) {
    const raw = hexOf(id.id);
    assert.equal(hexOf(idgen.objectidToBytes(id)), raw);
    assert.equal(idgen.objectidCanonical(id), id.toHexString());
    assert.equal(idgen.objectidTime(id).getTime(), id.getTimestamp().getTime());
    assert.equal(hexOf(idgen.objectidProcess(id)), raw.slice(8, 18));
    assert.equal(idgen.objectidCounter(id), parseInt(raw.slice(18), 16));
    assert.equal(idgen.objectidFromBytes(id.id), id.toHexString());
  }
  assert.throws(() => idgen.objectidTime({ toHexString: () => 'not hex' }), TypeError);
});
