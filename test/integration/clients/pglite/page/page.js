// The browser test's page (browser_test.mjs serves it): PGlite with idgen,
// its data in IndexedDB, mints every family at each load, shows the IDs and
// their decoded times, and sends its rows to the server on sync().
import { PGlite } from '/pglite/index.js';
import { idgen } from '/idgen/pglite.js';

const params = new URLSearchParams(location.search);
const device = params.get('device');
const shard = Number(params.get('shard'));
const $ = (id) => document.getElementById(id);

// Each family: the SQL that mints one ID (as text) and the one that decodes it.
const families = [
  ['uuid_v7', 'ids.uuid_v7()::text', 'ids.uuid_v7_time(id::uuid)'],
  ['snowflake', 'ids.snowflake()::text', 'ids.snowflake_time(id::bigint)'],
  ['snowflake53', 'ids.snowflake53()::text', 'ids.snowflake53_time(id::bigint)'],
  ['ulid', 'ids.ulid_to_text(ids.ulid())', 'ids.ulid_time(ids.ulid_from_text(id))'],
  ['prefixed_id', "ids.prefixed_id_new('acct')::text", 'ids.prefixed_id_time(id)'],
  ['typeid', "ids.typeid_new('user')::text", 'ids.typeid_time(id)'],
];

async function main() {
  $('device').textContent = `— device ${device}, snowflake shard ${shard}`;
  const started = performance.now();
  const db = await PGlite.create(`idb://idgen-${device}`, { extensions: { idgen: idgen({ schema: 'ids', shard }) } });
  const startMs = Math.round(performance.now() - started);
  await db.exec(`SET TimeZone = 'UTC';
    CREATE TABLE IF NOT EXISTS minted (n serial, load int NOT NULL, family text NOT NULL, id text NOT NULL, decoded timestamptz,
                                       PRIMARY KEY (family, id))`);
  const load = (await db.query('SELECT coalesce(max(load), 0) + 1 AS l FROM minted')).rows[0].l;
  for (const [family, mint, decode] of families) {
    await db.query(`INSERT INTO minted (load, family, id, decoded)
                    SELECT $1, $2, id, ${decode} FROM (SELECT ${mint} AS id FROM generate_series(1, 2)) s`, [load, family]);
  }
  const rows = (await db.query(
    `SELECT load, family, id, to_char(decoded, 'YYYY-MM-DD HH24:MI:SS.MS') AS decoded FROM minted ORDER BY n`)).rows;
  $('rows').innerHTML = rows.map((r) =>
    `<tr class="load${r.load}"><td>${r.load}</td><td>${r.family}</td><td class="id">${r.id}</td><td>${r.decoded}</td></tr>`).join('');
  $('status').textContent = `PGlite ${(await db.query('SHOW server_version')).rows[0].server_version}, idgen SQL edition ${db.idgen.version} in schema ${db.idgen.schema}, `
    + `${db.idgen.installedNow ? 'installed at this start' : 'found installed (IndexedDB)'}; load ${load}, started in ${startMs} ms; ${rows.length} IDs kept in idb://idgen-${device}`;
  window.idgenPage = {
    ready: true, installedNow: db.idgen.installedNow, version: db.idgen.version, load, rows,
    // sync: every row to the server's endpoint; shows and returns its answer.
    async sync() {
      const response = await fetch('/sync', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ device, shard, rows: (await db.query('SELECT family, id, decoded FROM minted ORDER BY n')).rows }) });
      const answer = await response.json();
      $('sync').className = response.ok ? 'ok' : 'failed';
      $('sync').textContent = response.ok
        ? `synced: ${answer.inserted} rows sent to the server's PostgreSQL, no key conflict; the server now holds ${answer.total} rows `
          + `from ${answer.devices} device${answer.devices === 1 ? '' : 's'}; its C++ edition decodes `
          + (answer.decodedOtherwise === 0 ? `all ${answer.inserted} IDs to the times shown here` : `${answer.decodedOtherwise} IDs to other times`)
        : `sync failed: ${answer.error}`;
      return { status: response.status, ...answer };
    },
  };
}
main().catch((e) => {
  $('status').textContent = `failed: ${e.message}`;
  window.idgenPage = { ready: true, error: String(e.message) };
});
