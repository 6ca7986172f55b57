// idgen/kysely: column types checked by tsc against the package's
// declarations, then queries through Kysely's PostgresDialect on a pool that
// idgen/pg's registerTypes() set up.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { connect as pgConnect } from './helpers.mjs';

const project = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
let mod;
let db;

before(async () => {
  const c = await pgConnect();
  await c.query(`CREATE TABLE IF NOT EXISTS orders (id bigint PRIMARY KEY DEFAULT snowflake(5), ref ulid NOT NULL DEFAULT ulid(),
      owner typeid NOT NULL, note text NOT NULL);
    CREATE TABLE IF NOT EXISTS items (id bigint PRIMARY KEY DEFAULT snowflake53(1), name text NOT NULL)`);
  await c.end();
  mod = await import(pathToFileURL(path.join(project, '.build/kysely/db.js')).href);  // compiled by build.test.mjs
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
});
