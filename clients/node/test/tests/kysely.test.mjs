// idgen/kysely: column types checked by tsc against the package's
// declarations, then queries through Kysely's PostgresDialect on a pool that
// idgen/pg's registerTypes() set up.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sendObjectIds } from 'idgen/pg';
import { connect as pgConnect } from './helpers.mjs';

const project = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
let mod;
let documents;
let db;

// An ObjectId as the package sees one (anything with toHexString()): bson
// itself needs Node 20.19, and these tests run on 20.11 too.
class HexId {
  constructor(hex) { this.hex = hex; }
  toHexString() { return this.hex; }
}

before(async () => {
  const c = await pgConnect();
  await c.query(`CREATE TABLE IF NOT EXISTS orders (id bigint PRIMARY KEY DEFAULT snowflake(5), ref ulid NOT NULL DEFAULT ulid(),
      owner typeid NOT NULL, note text NOT NULL);
    CREATE TABLE IF NOT EXISTS items (id bigint PRIMARY KEY DEFAULT snowflake53(1), name text NOT NULL);
    CREATE TABLE IF NOT EXISTS documents (id objectid PRIMARY KEY DEFAULT objectid(), ref ksuid NOT NULL DEFAULT ksuid(),
      trace rsxid NOT NULL DEFAULT xid(), body text NOT NULL)`);
  await c.end();
  mod = await import(pathToFileURL(path.join(project, '.build/kysely/db.js')).href);  // compiled by build.test.mjs
  documents = await import(pathToFileURL(path.join(project, '.build/kysely/documents.js')).href);
});
after(async () => {
  await db?.destroy();
});

describe('Kysely', () => {
  test('queries: snowflake keys BigInt and exact, snowflake53 Number, ulid text, DEFAULTs from the server', async () => {
    db = await mod.connect({ max: 2 });
    const { order, again, itemId } = await mod.placeOrder(db, 'user_01h455vb4pex5vsknk084sn02q');
    assert.equal(typeof order.id, 'bigint');
    assert.ok(order.id >= 2n ** 53n);
    assert.deepEqual(again, order);
    assert.match(order.ref, /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    assert.equal(typeof itemId, 'number');
    const c = await pgConnect();
    const { rows: [r] } = await c.query('SELECT snowflake_shard($1::int8) AS s, snowflake53_shard($2::int8) AS s53', [order.id, itemId]);
    await c.end();
    assert.deepEqual(r, { s: 5, s53: 2 });
  });

  test('ksuid, objectid and rsxid columns: an ObjectId-like key in and the hex text out, DEFAULTs from the server', async () => {
    sendObjectIds(HexId);
    const c = await pgConnect();
    const { rows: [{ hex }] } = await c.query('SELECT objectid()::text AS hex');
    const { hex: back, found, next } = await documents.store(db, new HexId(hex), 'kysely');
    const { rows: [r] } = await c.query('SELECT ref::text, trace::text FROM documents WHERE id = $1', [hex]);
    await c.end();
    assert.equal(back, hex);
    assert.deepEqual(found, r);
    assert.match(found.ref, /^[0-9A-Za-z]{27}$/);
    assert.match(found.trace, /^[0-9a-v]{19}[0g]$/);
    assert.match(next, /^[0-9a-f]{24}$/);
    assert.notEqual(next, hex);
  });
});
