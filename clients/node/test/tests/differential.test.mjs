// Differential tests against the formats' reference libraries on npm (issue
// 53): bson's ObjectId and uuid's v1, v6, v1ToV6 and v6ToV1. What the server
// mints, the library reads to the same bytes, time and fields; what the
// library mints, the server reads to the same bytes and sorts in the same
// order. IDGEN_DIFFERENTIAL_COUNT overrides how many values go each way.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ObjectId } from 'bson';
import { v1, v1ToV6, v6, v6ToV1, version } from 'uuid';
import { connect, rows } from './helpers.mjs';

const count = Number(process.env.IDGEN_DIFFERENTIAL_COUNT ?? 100_000);
let client;

before(async () => {
  assert.ok(Number.isInteger(count) && count > 0, `IDGEN_DIFFERENTIAL_COUNT=${count}`);
  client = await connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS idgen');
});
after(() => client?.end());

// shared(path): a file of the third-party vectors, in IDGEN_SHARED_DATA
// (../shared/data beside a checkout), or null where it is not set.
function shared(t, path) {
  const dir = process.env.IDGEN_SHARED_DATA;
  if (!dir) {
    t.skip('IDGEN_SHARED_DATA is not set');
    return null;
  }
  return JSON.parse(readFileSync(join(dir, path), 'utf8'));
}

// The bytes the server reads from each text as the type, and the texts'
// positions in the server's order of the values.
async function parseOnServer(type, texts) {
  const [{ raws, order }] = await rows(
    client,
    `SELECT array_agg(encode(t::${type}::bytea, 'hex') ORDER BY i) AS raws,
            (SELECT array_agg(i - 1 ORDER BY t::${type}, i) FROM unnest($1::text[]) WITH ORDINALITY AS v (t, i)) AS order
     FROM unnest($1::text[]) WITH ORDINALITY AS u (t, i)`,
    [texts],
  );
  return { raws, order: order.map(Number) };
}

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const compareBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

test('objectid(): bson reads the server values to the same bytes, time and fields', async () => {
  const minted = await rows(
    client,
    `SELECT o::text AS text, encode(o::bytea, 'hex') AS raw,
            extract(epoch FROM objectid_time(o))::bigint AS unix,
            encode(objectid_process(o), 'hex') AS process, objectid_counter(o) AS counter
     FROM (SELECT objectid() FROM generate_series(1, $1)) s (o)`,
    [count],
  );
  assert.equal(minted.length, count);
  for (const m of minted) {
    assert.ok(ObjectId.isValid(m.text), `${m.text}: bson refuses it`);
    const id = new ObjectId(m.text);
    const raw = hex(id.id);
    const want = {
      raw: m.raw,
      unix: Number(m.unix),
      process: m.process,
      counter: m.counter,
      text: m.text,
    };
    const got = {
      raw,
      unix: id.getTimestamp().getTime() / 1000,
      process: raw.slice(8, 18),
      counter: parseInt(raw.slice(18), 16),
      text: id.toHexString(),
    };
    if (JSON.stringify(got) !== JSON.stringify(want)) assert.deepEqual(got, want, m.text);
  }
});

test('objectid: the server reads bson values to the same bytes, in bson order', async () => {
  const ids = [];
  for (let i = 0; i < count; i++) {
    // new ObjectId() values, and createFromTime's (the time and eight zero bytes)
    ids.push(i % 10 === 9 ? ObjectId.createFromTime(1_000_000_000 + i) : new ObjectId());
  }
  const texts = ids.map((id) => id.toHexString());
  const { raws, order } = await parseOnServer('objectid', texts);
  for (let i = 0; i < count; i++) {
    if (raws[i] !== hex(ids[i].id)) assert.equal(raws[i], hex(ids[i].id), texts[i]);
  }
  for (let j = 1; j < count; j++) {
    const [a, b] = [ids[order[j - 1]], ids[order[j]]];
    if (compareBytes(a.id, b.id) > 0) assert.fail(`the server sorts ${a} before ${b}; bson after`);
  }
});

test('objectid: the uppercase hex that bson accepts, the server reads too, and writes lowercase', async (t) => {
  const valid = shared(t, 'objectid/js_bson_valid.json');
  if (!valid) return;
  const texts = valid.map((c) => c.hex ?? c.text).filter((s) => typeof s === 'string' && /^[0-9a-fA-F]{24}$/.test(s));
  assert.ok(texts.length > 0, 'js_bson_valid.json lists hex values');
  const upper = texts.map((s) => s.toUpperCase());
  const got = await rows(client, 'SELECT t::objectid::text AS text FROM unnest($1::text[]) WITH ORDINALITY u (t, i) ORDER BY i', [upper]);
  assert.deepEqual(got.map((r) => r.text), upper.map((s) => new ObjectId(s).toHexString()));
});

test('uuid_v6(): uuid reads the server values as version 6, and v6ToV1 agrees with uuid_v1_from_v6', async () => {
  const minted = await rows(
    client,
    `SELECT u::text AS v6, uuid_v1_from_v6(u)::text AS v1, uuid_v6_from_v1(uuid_v1_from_v6(u))::text AS back
     FROM (SELECT uuid_v6() FROM generate_series(1, $1)) s (u)`,
    [count],
  );
  assert.equal(minted.length, count);
  for (const m of minted) {
    const got = { version: version(m.v6), v1: v6ToV1(m.v6), v6: v1ToV6(m.v1), back: m.back };
    const want = { version: 6, v1: m.v1, v6: m.v6, back: m.v6 };
    if (JSON.stringify(got) !== JSON.stringify(want)) assert.deepEqual(got, want, m.v6);
  }
});

test('uuid_v6_from_v1 and uuid_v1_from_v6: the same as uuid v1ToV6 and v6ToV1 on uuid values', async () => {
  const v1s = Array.from({ length: count }, (_, i) => (i % 2 ? v1() : v6ToV1(v6())));
  const [{ v6s, back }] = await rows(
    client,
    `SELECT array_agg(uuid_v6_from_v1(u)::text ORDER BY i) AS v6s,
            array_agg(uuid_v1_from_v6(uuid_v6_from_v1(u))::text ORDER BY i) AS back
     FROM unnest($1::uuid[]) WITH ORDINALITY AS t (u, i)`,
    [v1s],
  );
  for (let i = 0; i < count; i++) {
    if (v6s[i] !== v1ToV6(v1s[i]) || back[i] !== v1s[i]) {
      assert.deepEqual([v6s[i], back[i]], [v1ToV6(v1s[i]), v1s[i]], v1s[i]);
    }
  }
});

test("uuid_v6_from_v1: RFC 9562's and uuid's pairs", async (t) => {
  const pairs = shared(t, 'rfc9562/v1_v6_pairs.json');
  if (!pairs) return;
  const list = Array.isArray(pairs) ? pairs : pairs.pairs;
  assert.ok(list.length > 0, 'v1_v6_pairs.json lists pairs');
  for (const p of list) {
    const [{ v6: got6, v1: got1 }] = await rows(
      client,
      'SELECT uuid_v6_from_v1($1::uuid)::text AS v6, uuid_v1_from_v6($2::uuid)::text AS v1',
      [p.v1, p.v6],
    );
    assert.deepEqual([got6, got1], [p.v6, p.v1]);
    assert.deepEqual([v1ToV6(p.v1), v6ToV1(p.v6)], [p.v6, p.v1], 'uuid agrees with the pair');
  }
});
