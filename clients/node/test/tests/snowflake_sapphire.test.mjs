// npm @sapphire/snowflake, what Discord bots and Twitter clients in
// JavaScript decode snowflakes with: its DiscordSnowflake.deconstruct() and
// TwitterSnowflake.deconstruct() against the server's snowflake_layout_decompose()
// and the package's snowflakeLayoutDecompose() on 100,000 IDs of each layout,
// which the server composes (snowflake_layout_compose() over random times and
// fields: idgen does not mint in these layouts), and on Discord's documented
// example. Sapphire reads both layouts with one split, 42 bits of time and
// 5 + 5 + 12: its workerId and processId are Twitter's datacenter and worker.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DiscordSnowflake, TwitterSnowflake } from '@sapphire/snowflake';
import * as idgen from 'idgen';
import { connect, rows } from './helpers.mjs';
import { FAMILIES } from './vectors.mjs';

const N = 100000;
let client;
before(async () => {
  client = await connect();
});
after(async () => {
  await client.end();
});

// Sapphire's names for each layout's fields, in idgen's names
const THEIRS = {
  discord: { reference: DiscordSnowflake, fields: { worker: 'workerId', process: 'processId', sequence: 'increment' } },
  twitter: { reference: TwitterSnowflake, fields: { datacenter: 'workerId', worker: 'processId', sequence: 'increment' } },
};

describe('@sapphire/snowflake against idgen', () => {
  for (const [name, { reference, fields }] of Object.entries(THEIRS)) {
    test(`${name}: ${N} server-composed IDs: ${reference === DiscordSnowflake ? 'DiscordSnowflake' : 'TwitterSnowflake'}.deconstruct() = snowflake_layout_decompose() = snowflakeLayoutDecompose()`, async () => {
      const l = FAMILIES.snowflake_layout.layouts[name];
      const end = Math.min(l.end_unix_ms, Date.UTC(2200, 0, 1));
      const values = await rows(client, `WITH given AS (
          SELECT (${l.epoch_unix_ms} + floor(random() * ${end - l.epoch_unix_ms}))::int8 AS ms,
                 jsonb_build_object(${Object.keys(fields).map((f) => `'${f}', floor(random() * ${2 ** l.fields.find((x) => x.name === f).bits})::int8`).join(', ')}) AS fields
          FROM generate_series(1, ${N}))
        SELECT id::text, snowflake_layout_decompose(id, '${name}')::text AS server
        FROM (SELECT snowflake_layout_compose('${name}', timestamptz 'epoch' + ms * interval '1 ms', fields) AS id FROM given) c`);
      assert.equal(values.length, N);
      assert.equal(reference.epoch, BigInt(l.epoch_unix_ms), 'the reference\'s epoch is the layout\'s');
      const bad = [];
      for (const r of values) {
        const server = JSON.parse(r.server);
        const theirs = reference.deconstruct(r.id);
        const ours = idgen.snowflakeLayoutDecompose(BigInt(r.id), name);
        const want = [server.unix_ms, ...Object.keys(fields).map((f) => server[f])];
        const gotTheirs = [Number(theirs.timestamp), ...Object.values(fields).map((f) => Number(theirs[f]))];
        const gotOurs = [ours.unix_ms, ...Object.keys(fields).map((f) => ours[f])];
        if (JSON.stringify(gotTheirs) !== JSON.stringify(want) || JSON.stringify(gotOurs) !== JSON.stringify(want)
            || theirs.id !== BigInt(r.id))
          bad.push(`${r.id}: server ${want}, sapphire ${gotTheirs}, idgen ${gotOurs}`);
      }
      assert.deepEqual(bad.slice(0, 5), [], `${bad.length} of ${N} differ`);
    });
  }

  test('Discord\'s documented example 175928847299117063: 1462015105796 ms, worker 1, process 0, increment 7, by all three', async () => {
    const id = '175928847299117063';
    const [r] = await rows(client, `SELECT snowflake_layout_decompose($1::int8, 'discord')::text AS server`, [id]);
    const server = JSON.parse(r.server);
    const theirs = DiscordSnowflake.deconstruct(id);
    const ours = idgen.snowflakeLayoutDecompose(id, 'discord');
    const documented = [1462015105796, 1, 0, 7];
    assert.deepEqual([server.unix_ms, server.worker, server.process, server.sequence], documented, 'the server');
    assert.deepEqual([theirs.timestamp, theirs.workerId, theirs.processId, theirs.increment].map(Number), documented, '@sapphire/snowflake');
    assert.deepEqual([ours.unix_ms, ours.worker, ours.process, ours.sequence], documented, 'idgen');
    assert.equal(server.timestamp, '2016-04-30T11:18:25.796Z');
  });

  test('an ID Sapphire mints (DiscordSnowflake.generate) decodes in idgen\'s discord layout as Sapphire made it', () => {
    const timestamp = Date.UTC(2026, 11, 4, 5, 0, 0, 123);
    const id = DiscordSnowflake.generate({ timestamp, workerId: 17n, processId: 3n, increment: 4000n });
    const ours = idgen.snowflakeLayoutDecompose(id, 'discord');
    assert.deepEqual([ours.unix_ms, ours.worker, ours.process, ours.sequence], [timestamp, 17, 3, 4000]);
    assert.equal(idgen.snowflakeLayoutCompose('discord', timestamp, { worker: 17, process: 3, sequence: 4000 }), id);
  });
});
