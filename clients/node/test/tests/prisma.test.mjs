// Prisma 7's pg adapter (@prisma/adapter-pg, without a generated client):
// what reaches Prisma from a pool that idgen/pg's registerTypes() set up.
// The adapter passes its own type parsers with every query, so the pool's
// are not used: a bigint arrives as its text typed Int64 (Prisma makes a
// BigInt of it), an extension type as Text, its array as the '{…}' literal.
// The decoders read those values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { registerTypes } from 'idgen/pg';
import { snowflakeShard, ulidToUuid } from 'idgen';

test('Prisma\'s pg adapter ignores the pool\'s parsers: snowflake as Int64 text, ulid as Text, ulid[] as one string', async (t) => {
  const pool = new pg.Pool({ max: 1 });
  t.after(() => pool.end());
  await registerTypes(pool);
  const viaPool = (await pool.query('SELECT snowflake(4) AS s, ARRAY[ulid()] AS a')).rows[0];
  assert.deepEqual([typeof viaPool.s, Array.isArray(viaPool.a)], ['bigint', true], 'the pool itself parses');
  const adapter = await new PrismaPg(pool).connect();
  const r = await adapter.queryRaw({ sql: 'SELECT snowflake(4) AS s, ARRAY[ulid()] AS a, ulid() AS u, ulid()::uuid::text AS uu', args: [], argTypes: [] });
  const [s, a, u] = r.rows[0];
  assert.equal(typeof s, 'string', 'a bigint reaches Prisma as text');
  assert.equal(typeof a, 'string', 'an array of ulid reaches Prisma as its literal');
  assert.match(a, /^\{[0-7][0-9A-HJKMNP-TV-Z]{25}\}$/);
  assert.match(u, /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
  assert.equal(snowflakeShard(BigInt(s)), 4, 'the decoders read what the adapter gives');
  assert.match(ulidToUuid(u), /^[0-9a-f]{8}-/);
});
