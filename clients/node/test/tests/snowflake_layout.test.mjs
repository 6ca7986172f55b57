// The snowflake layout decoders of idgen (snowflakeLayout, snowflakeLayoutDecompose,
// snowflakeLayoutCompose, snowflakeLayoutBoundary): the package's predefined layouts
// and every case of the extension's vectors file (the snowflake_layout family:
// layouts, definitions, IDs, compositions, boundaries, as the cores answer
// them), then against the server: IDs the server composes with
// snowflake_layout_compose() over random times and fields in every layout of
// the file, decoded by the package as snowflake_layout_decompose() decodes
// them, and composed by the package as the server composes them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as idgen from 'idgen';
import { snowflakeLayout, snowflakeLayoutBoundary, snowflakeLayoutCompose, snowflakeLayoutDecompose } from 'idgen';
import { FAMILIES, cases } from './vectors.mjs';
import { connect, rows } from './helpers.mjs';

const LAYOUTS = FAMILIES.snowflake_layout.layouts;

// "name:number,..." of the file as [name, number] pairs
const pairs = (text) => (text === '' ? [] : text.split(',').map((p) => {
  const at = p.lastIndexOf(':');
  return [p.slice(0, at), Number(p.slice(at + 1))];
}));

// A layout of the file as the package makes it: a predefined one by name
// (instagram from the file's epoch), another from its definition.
const layoutOf = (name) => {
  const l = LAYOUTS[name];
  return l.predefined ? idgen.snowflakeLayout(name, l.epoch_unix_ms)
    : idgen.snowflakeLayout(l.epoch_unix_ms, l.time_unit_ms, l.fields.map((f) => [f.name, f.bits]));
};

// refusedWith(fn, reason): fn throws a SnowflakeLayoutError of the file's reason.
const refusedWith = (fn, reason, what) => assert.throws(fn, (e) => e instanceof idgen.SnowflakeLayoutError && e.reason === reason,
  `${what}: refused as ${reason}`);

describe('snowflake layouts: the extension\'s vectors file', () => {
  test('PREDEFINED_SNOWFLAKE_LAYOUTS are the file\'s predefined layouts, field by field', () => {
    const predefined = Object.entries(LAYOUTS).filter(([, l]) => l.predefined);
    assert.deepEqual(Object.keys(idgen.PREDEFINED_SNOWFLAKE_LAYOUTS), predefined.map(([name]) => name));
    for (const [name, l] of predefined) {
      const p = idgen.PREDEFINED_SNOWFLAKE_LAYOUTS[name];
      assert.deepEqual([p.epochMs, p.timeUnitMs, p.fields.map(([n, b]) => `${n}:${b}`).join(',')],
        [l.epoch_unix_ms, l.time_unit_ms, l.fields.map((f) => `${f.name}:${f.bits}`).join(',')], name);
    }
  });
  for (const c of cases('snowflake_layout', 'predefined')) {
    test(`predefined: ${c.what}`, () => {
      if (!c.ok) return refusedWith(() => idgen.snowflakeLayout(c.name, c.instagram_epoch_ms), c.reason, c.name);
      const l = idgen.snowflakeLayout(c.name, c.instagram_epoch_ms);
      assert.deepEqual([l.epochMs, l.timeUnitMs, l.fields.map((f) => `${f.name}:${f.bits}`).join(','), l.totalBits, l.endMs],
        [c.epoch_unix_ms, c.time_unit_ms, c.fields, c.total_bits, c.end_unix_ms]);
    });
  }
  for (const c of cases('snowflake_layout', 'define')) {
    test(`define: ${c.what}`, () => {
      const make = () => idgen.snowflakeLayout(c.epoch_unix_ms, c.time_unit_ms, pairs(c.fields));
      if (!c.ok) return refusedWith(make, c.reason, c.fields);
      const l = make();
      assert.deepEqual([l.totalBits, l.endMs], [c.total_bits, c.end_unix_ms]);
    });
  }
  for (const c of cases('snowflake_layout', 'id')) {
    test(`id in ${c.layout}: ${c.what}`, () => {
      const l = layoutOf(c.layout);
      if (!c.ok) return refusedWith(() => idgen.snowflakeLayoutDecompose(BigInt(c.id), l), c.reason, c.id);
      const d = idgen.snowflakeLayoutDecompose(c.id, l);
      for (const f of LAYOUTS[c.layout].fields) assert.equal(d[f.name], c[f.name], f.name);
      assert.equal(d.unix_ms, c.unix_ms);
      assert.equal(d.timestamp.getTime(), c.unix_ms);
      assert.equal(idgen.snowflakeLayoutTime(BigInt(c.id), l).getTime(), c.unix_ms);
    });
  }
  for (const c of cases('snowflake_layout', 'compose')) {
    test(`compose in ${c.layout}: ${c.what}`, () => {
      const compose = () => idgen.snowflakeLayoutCompose(layoutOf(c.layout), c.unix_ms, Object.fromEntries(pairs(c.fields)));
      if (!c.ok) return refusedWith(compose, c.reason, c.fields);
      assert.equal(compose(), BigInt(c.id));
    });
  }
  for (const c of cases('snowflake_layout', 'boundary')) {
    test(`boundary in ${c.layout}: ${c.what}`, () => {
      const l = layoutOf(c.layout);
      if (!c.ok) return refusedWith(() => idgen.snowflakeLayoutBoundary(l, new Date(c.unix_ms)), c.reason, c.unix_ms);
      assert.deepEqual([idgen.snowflakeLayoutBoundary(l, new Date(c.unix_ms)), idgen.snowflakeLayoutBoundary(l, c.unix_ms, { largest: true })],
        [BigInt(c.smallest), BigInt(c.largest)]);
    });
  }
  test('the README\'s example: Discord\'s documented ID, a layout of one\'s own, its boundary', () => {
    // README package begins
    const parts = snowflakeLayoutDecompose(175928847299117063n, 'discord');
    // { time: 41944705796, worker: 1, process: 0, sequence: 7, unix_ms: 1462015105796, timestamp: 2016-04-30T11:18:25.796Z }
    const shop = snowflakeLayout('2020-01-01T00:00:00Z', 1, [['time', 42], ['region', 4], ['worker', 6], ['sequence', 11]]);
    const id = snowflakeLayoutCompose(shop, '2026-12-04T05:00:00.500Z', { region: 15, worker: 63, sequence: 2047 });
    const from = snowflakeLayoutBoundary(shop, new Date('2026-12-04T00:00:00Z'));  // WHERE id >= from
    // README package ends
    assert.deepEqual([parts.time, parts.worker, parts.process, parts.sequence, parts.unix_ms, parts.timestamp.toISOString()],
      [41944705796, 1, 0, 7, 1462015105796, '2016-04-30T11:18:25.796Z']);
    assert.deepEqual([id, from], [458277205837873151n, 458239456051200000n], 'docs/reference.md\'s figures');
  });
  test('a predefined layout by name alone: instagram from idgen.snowflake_epoch\'s default', () => {
    assert.equal(idgen.snowflakeLayout('instagram').epochMs, idgen.DEFAULT_SNOWFLAKE_EPOCH);
    assert.equal(idgen.snowflakeLayoutDecompose(175928847299117063n, 'discord').worker, 1);
  });
});

// The server's IDs: N composed by snowflake_layout_compose() in each layout of
// the file (the defined ones defined first), at random times from the epoch
// to the end or 2200 and random values of every field.
const N = 20000;
let client;
before(async () => {
  client = await connect();
  for (const [name, l] of Object.entries(LAYOUTS)) {
    if (l.predefined) continue;
    await client.query(`DELETE FROM snowflake_layouts WHERE name = $1`, [name]);
    await client.query(`SELECT snowflake_layout_define($1, timestamptz 'epoch' + $2 * interval '1 ms', $3, $4, $5)`,
      [name, l.epoch_unix_ms, l.time_unit_ms, l.fields.map((f) => f.name), l.fields.map((f) => f.bits)])
      .catch(async (e) => {
        // a layout that has run out is refused by define: a row as pg_dump restores it
        if (e.code !== '22008') throw e;
        await client.query(`INSERT INTO snowflake_layouts (name, epoch, time_unit_ms, field_names, field_bits)
          VALUES ($1, timestamptz 'epoch' + $2 * interval '1 ms', $3, $4, $5)`,
        [name, l.epoch_unix_ms, l.time_unit_ms, l.fields.map((f) => f.name), l.fields.map((f) => f.bits)]);
      });
  }
});
after(async () => {
  await client?.end();
});

// The SQL of N composed IDs in a layout: id, the ms and fields given, and the
// server's decomposition (jsonb as text).
function composedSql(name, n) {
  const l = LAYOUTS[name];
  const end = Math.min(l.end_unix_ms, Date.UTC(2200, 0, 1));
  const fields = l.fields.filter((f) => f.name !== 'time')
    .map((f) => `'${f.name}', floor(random() * ${2 ** f.bits})::int8`).join(', ');
  return `WITH given AS (
      SELECT (${l.epoch_unix_ms} + floor(random() * ${end - l.epoch_unix_ms}))::int8 AS ms,
             jsonb_build_object(${fields}) AS fields FROM generate_series(1, ${n}))
    SELECT ms::text, fields::text, id::text, snowflake_layout_decompose(id, '${name}')::text AS server
    FROM (SELECT ms, fields, snowflake_layout_compose('${name}', timestamptz 'epoch' + ms * interval '1 ms', fields) AS id FROM given) c`;
}

describe(`snowflake layouts against the server, ${N} composed IDs per layout`, () => {
  for (const name of Object.keys(LAYOUTS)) {
    test(`${name}: snowflakeLayoutDecompose is snowflake_layout_decompose, snowflakeLayoutCompose is snowflake_layout_compose`, async () => {
      const values = await rows(client, composedSql(name, N));
      assert.equal(values.length, N);
      const l = layoutOf(name);
      const bad = [];
      for (const r of values) {
        const server = JSON.parse(r.server);
        const d = idgen.snowflakeLayoutDecompose(r.id, l);
        const mine = Object.fromEntries([...l.fields.map((f) => [f.name, d[f.name]]), ['unix_ms', d.unix_ms], ['timestamp', d.timestamp.toISOString()]]);
        const composed = idgen.snowflakeLayoutCompose(l, Number(r.ms), JSON.parse(r.fields));
        if (JSON.stringify(mine) !== JSON.stringify(Object.fromEntries(Object.keys(mine).map((k) => [k, server[k]])))
            || Object.keys(server).length !== Object.keys(mine).length || composed !== BigInt(r.id))
          bad.push(`${r.id}: ${JSON.stringify(mine)} / ${composed} != ${r.server}`);
      }
      assert.deepEqual(bad.slice(0, 5), [], `${bad.length} of ${N} differ`);
    });
  }
  test('a negative ID and one above a layout are refused by both', async () => {
    for (const [id, layout] of [[-1n, 'discord'], [2n ** 58n, 'eight_fields']]) {
      await assert.rejects(client.query('SELECT snowflake_layout_decompose($1, $2)', [String(id), layout]), (e) => e.code === '22003');
      refusedWith(() => idgen.snowflakeLayoutDecompose(id, layoutOf(layout)), id < 0n ? 'negative' : 'above_layout', String(id));
    }
  });
});
