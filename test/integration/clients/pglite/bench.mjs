// Cost per call of idgen's generators in PGlite (in Node), next to
// gen_random_uuid() in the same run: for docs/browser.md's figures.
//
//   node bench.mjs [CALLS] [ROUNDS]      (defaults 100000 and 5)
//
// Each round runs every generator once, in a new order, as
// SELECT count(f) FROM generate_series(1, CALLS) in one in-memory PGlite with
// the edition installed by the idgen extension; prints, per generator, the
// median time per call and the median of its per-round ratio to
// gen_random_uuid(), as a Markdown table.
import { PGlite } from '@electric-sql/pglite';
import { idgen } from 'idgen/pglite';

const calls = Number(process.argv[2] ?? 100000);
const rounds = Number(process.argv[3] ?? 5);
const generators = ['gen_random_uuid()', 'uuid_v7()', 'snowflake(1)', 'snowflake53(1)', 'ulid()', "prefixed_id_new('acct')", "typeid_new('user')"];
const db = await PGlite.create({ extensions: { idgen } });
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const times = Object.fromEntries(generators.map((g) => [g, []]));
for (const g of generators) await db.query(`SELECT count(${g}) FROM generate_series(1, 1000)`);  // warm-up
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? [...generators].reverse() : generators;
  for (const g of order) {
    const t0 = process.hrtime.bigint();
    await db.query(`SELECT count(${g}) FROM generate_series(1, ${calls})`);
    times[g].push(Number(process.hrtime.bigint() - t0) / 1e3 / calls);
  }
}
const version = (await db.query('SHOW server_version')).rows[0].server_version;
console.log(`PGlite (PostgreSQL ${version}) in Node ${process.version}, ${rounds} rounds of ${calls} calls, load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
console.log('\n| call | µs per call (median) | × gen_random_uuid() |\n|---|---|---|');
for (const g of generators) {
  const ratio = median(times[g].map((t, i) => t / times['gen_random_uuid()'][i]));
  console.log(`| \`${g}\` | ${median(times[g]).toFixed(2)} | ${ratio.toFixed(2)} |`);
}
await db.close();
