// idgen's PGlite extension in a real browser: Debian's chromium, headless,
// driven by playwright-core, against the suite's server (PG* environment: a
// database with CREATE EXTENSION idgen).
//
//   node browser_test.mjs TMPDIR SCREENSHOT.png
//
// Serves page/ and the installed packages (@electric-sql/pglite, idgen) from
// 127.0.0.1, with an endpoint, POST /sync, that inserts a device's rows into
// the server (family and ID are the key: a repeated ID is a conflict, and the
// whole sync fails). Two browser contexts, devices A and B with snowflake
// shards 5 and 12, each load the page (PGlite in IndexedDB, idgen installed,
// every family minted), reload it (not installed again, the IDs kept, every
// family minted again, above the first), and sync. The server must end with
// every row of both, no key conflict, each snowflake on its device's shard and
// each ID decoded by the C++ edition to the time the page showed. A
// screenshot of device A's page after its sync. Then the docs' examples, as
// shown (page/docs.js: docs/browser.md's; page/readme.js: clients/node's
// README's), run in a context of their own through page/snippet.html, whose
// import map gives the bare names they import. Prints its plan, then one
// verdict a line (test/lib/verdicts.mjs).
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import pg from 'pg';
import { note, ok, plan } from './verdicts.mjs';  // test/lib's, copied beside it

const here = dirname(fileURLToPath(import.meta.url));
const [tmp, screenshot] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const roots = {
  '/pglite/': dirname(require.resolve('@electric-sql/pglite')),
  '/idgen/': dirname(require.resolve('idgen/pglite')),
  '/': join(here, 'page'),
};
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.data': 'application/octet-stream', '.map': 'application/json', '.gz': 'application/gzip' };

// (shards both snowflake families take: snowflake53 has 0 to 15)
const devices = [{ device: 'A', shard: 5 }, { device: 'B', shard: 12 }];
plan(1 + devices.length * 3 + 3 + 2);  // chromium; 3 a device; screenshot, refused repeat, server; 2 docs' examples

const server = new pg.Client();
await server.connect();
await server.query(`SET TimeZone = 'UTC';
  DROP TABLE IF EXISTS synced;
  CREATE TABLE synced (family text NOT NULL, id text NOT NULL, device text NOT NULL, shard int NOT NULL, page_time timestamptz,
                       PRIMARY KEY (family, id))`);

// The C++ edition's decoder of each family, for the rows the server holds.
const decode = `CASE family WHEN 'uuid_v7' THEN uuid_v7_time(id::uuid) WHEN 'snowflake' THEN snowflake_time(id::bigint)
  WHEN 'snowflake53' THEN snowflake53_time(id::bigint) WHEN 'ulid' THEN ulid_time(id::ulid)
  WHEN 'prefixed_id' THEN prefixed_id_time(id::prefixed_id) WHEN 'typeid' THEN typeid_time(id::typeid) END`;

// POST /sync: one device's rows, in one transaction.
async function sync(body) {
  const { device, shard, rows } = JSON.parse(body);
  await server.query('BEGIN');
  try {
    const r = await server.query(
      `INSERT INTO synced SELECT family, id, $1, $2, decoded FROM json_to_recordset($3::json) AS r(family text, id text, decoded timestamptz)`,
      [device, shard, JSON.stringify(rows)]);
    await server.query('COMMIT');
    const total = (await server.query(
      `SELECT count(*)::int AS n, count(DISTINCT device)::int AS d,
              count(*) FILTER (WHERE device = $1 AND (${decode}) IS DISTINCT FROM page_time)::int AS m FROM synced`, [device])).rows[0];
    return [200, { inserted: r.rowCount, total: total.n, devices: total.d, decodedOtherwise: total.m }];
  } catch (e) {
    await server.query('ROLLBACK');
    return [409, { error: `${e.code}: ${e.message}` }];
  }
}

const http = createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/sync') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const [status, answer] = await sync(body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      return;
    }
    const path = url.pathname === '/' ? '/index.html' : url.pathname;
    const prefix = Object.keys(roots).find((p) => path.startsWith(p));
    const file = normalize(join(roots[prefix], path.slice(prefix.length)));
    if (!file.startsWith(roots[prefix])) throw new Error('outside');
    const data = await readFile(file);
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(data);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${http.address().port}`;

// Playwright gives each launch a new, empty --user-data-dir of its own.
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
  env: { ...process.env, TMPDIR: tmp, HOME: tmp },
});
ok(browser.version() !== '', `Debian's chromium ${browser.version()} runs headless under playwright-core`);

// loaded PAGE: waits for the page's state (its start includes PGlite's).
const loaded = async (page) => {
  await page.waitForFunction(() => window.idgenPage?.ready === true, null, { timeout: 300000 });
  return page.evaluate(() => ({ ...window.idgenPage, sync: undefined }));
};
const familyNames = ['uuid_v7', 'snowflake', 'snowflake53', 'ulid', 'prefixed_id', 'typeid'];
const numeric = new Set(['snowflake', 'snowflake53']);
const above = (f, a, b) => (numeric.has(f) ? BigInt(a) > BigInt(b) : a > b);
const expected = devices.length * 24;
const contexts = [];
// device DEVICE on SHARD in a context of its own: first load, reload, sync;
// its verdicts in order, returned (the devices run at once, one renderer each).
async function run({ device, shard }) {
  const verdicts = [];
  const say = (cond, what, extra) => verdicts.push([cond, what, extra]);
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const started = Date.now();
  await page.goto(`${base}/?device=${device}&shard=${shard}`);
  const first = await loaded(page);
  const firstMs = Date.now() - started;
  const firstRows = first.rows ?? [];
  say(!first.error && first.installedNow === true && firstRows.length === 12 && familyNames.every((f) => firstRows.filter((r) => r.family === f).length === 2),
    `device ${device}: the page installs idgen in PGlite (idb://) and mints 2 IDs of each of the 6 families`, first.error ?? JSON.stringify(first));
  const reloadStarted = Date.now();
  await page.reload();
  const second = await loaded(page);
  const reloadMs = Date.now() - reloadStarted;
  const rows = second.rows ?? [];
  const newer = rows.filter((r) => r.load === 2);
  const behind = newer.filter((r) => !firstRows.filter((o) => o.family === r.family).every((o) => above(r.family, r.id, o.id)));
  say(!second.error && second.installedNow === false && second.load === 2 && rows.length === 24 && newer.length === 12 && behind.length === 0
    && rows.slice(0, 12).every((r, i) => r.id === firstRows[i].id),
    `device ${device}: after a reload the database in IndexedDB holds the edition (not installed again) and the 12 IDs; the 12 new ones are each above its family's earlier ones`,
    second.error ?? JSON.stringify({ installedNow: second.installedNow, load: second.load, rows: rows.length, behind }));
  const answer = await page.evaluate(() => window.idgenPage.sync());
  say(answer.status === 200 && answer.inserted === 24 && answer.total >= 24 && answer.total <= expected && answer.decodedOtherwise === 0 && errors.length === 0,
    `device ${device}: its 24 rows sync to the server's PostgreSQL through the endpoint on 127.0.0.1, no key conflict, no page error`,
    JSON.stringify(answer) + ' ' + errors.join(' '));
  return { device, page, verdicts, firstMs, reloadMs };
}
const runs = await Promise.all(devices.map(run));
for (const r of runs) {
  note(`device ${r.device}: first load ${r.firstMs} ms, reload ${r.reloadMs} ms`);
  for (const [cond, what, extra] of r.verdicts) ok(cond, what, extra);
}
// device A's page after its sync, as a person would read it
const screenshotPage = runs[0].page;
{
  const text = await screenshotPage.evaluate(() => document.body.innerText);
  await screenshotPage.screenshot({ path: screenshot, fullPage: true });
  note(`screenshot: ${screenshot}`);
  ok(existsSync(screenshot) && /idgen SQL edition/.test(text) && /synced: 24 rows/.test(text)
    && (text.match(/\b20\d\d-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\b/g) ?? []).length === 24,
    "device A's page shows its 24 IDs with their decoded times and the sync's result, and a screenshot of it is taken",
    text.slice(0, 600));
}

// A repeated sync is refused whole: the endpoint's key is the ID.
const again = await screenshotPage.evaluate(() => window.idgenPage.sync());
ok(again.status === 409 && /^23505:/.test(again.error ?? ''),
  'a second sync of device A\'s rows is refused by the server\'s key (23505): the key would catch a repeated ID', JSON.stringify(again));
const check = (await server.query(
  `SELECT count(*)::int AS n, count(DISTINCT (family, id))::int AS d,
          count(*) FILTER (WHERE family IN ('snowflake', 'snowflake53')
                             AND (CASE family WHEN 'snowflake' THEN snowflake_shard(id::bigint) ELSE snowflake53_shard(id::bigint) END) <> shard)::int AS wrong_shard,
          count(*) FILTER (WHERE (${decode}) IS DISTINCT FROM page_time)::int AS wrong_time
     FROM synced`)).rows[0];
ok(check.n === expected && check.d === expected && check.wrong_shard === 0 && check.wrong_time === 0,
  `the server holds all ${expected} rows of devices A and B, no two alike; each snowflake is on its device's shard and the C++ edition decodes every ID to the time the page showed`,
  JSON.stringify(check));

// The docs' examples as shown: docs/browser.md's, then clients/node's README's
// on the same idb://my-app (one context, one page, one after the other).
{
  const version = process.env.IDGEN_VERSION;
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const ran = async (name) => {
    await page.goto(`${base}/snippet.html?run=${name}`);
    await page.waitForFunction(() => window.idgenSnippet?.ready === true, null, { timeout: 300000 });
    return page.evaluate(() => window.idgenSnippet);
  };
  const v7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const docs = await ran('docs');
  ok(!docs.error && docs.db.schema === 'public' && docs.db.installedNow === true && docs.db.version === version && (docs.db.shard ?? '') === ''
    && v7.test(docs.db.uuid) && docs.local.schema === 'ids' && docs.local.installedNow === true && docs.local.version === version
    && docs.local.shard === 12 && v7.test(docs.local.note?.id ?? '') && /^20\d\d-/.test(docs.local.note?.t ?? '') && errors.length === 0,
    `docs/browser.md's example runs as shown in chromium: { idgen } installs the edition ${version} into public (no shard), `
    + "idgen({ schema: 'ids', shard: 12 }) into ids of idb://my-app, minting on shard 12, and its notes table takes a uuid_v7() key",
    docs.error ?? JSON.stringify(docs) + ' ' + errors.join(' '));
  const readme = await ran('readme');
  ok(!readme.error && readme.schema === 'ids' && readme.installedNow === false && readme.version === version && v7.test(readme.id ?? '')
    && readme.id > (docs.local.note?.id ?? 'z') && JSON.stringify(readme.notes) === '["first"]' && errors.length === 0,
    "clients/node/README.md's PGlite example runs as shown in chromium: idb://my-app, reopened, holds the edition (not installed again) "
    + 'and the note docs/browser.md\'s example wrote, and ids.uuid_v7() mints a UUIDv7 above that note\'s',
    readme.error ?? JSON.stringify(readme) + ' ' + errors.join(' '));
}
for (const c of contexts) await c.close();
await browser.close();
http.close();
await server.end();
