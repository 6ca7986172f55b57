// docs/browser.md's example, as the page shows it (between the markers,
// which readme_snippets.pl compares with the page), run by browser_test.mjs
// through snippet.html?run=docs in a browser context of its own; then what
// it did, for the test to check.
// README browser begins
import { PGlite } from '@electric-sql/pglite';
import { idgen } from 'idgen/pglite';

// the edition in schema public, no snowflake shard
const db = await PGlite.create({ extensions: { idgen } });

// or: a schema of your choice, and this device's snowflake shard
const local = await PGlite.create('idb://my-app', {
  extensions: { idgen: idgen({ schema: 'ids', shard: 12 }) },
});
await local.exec(`CREATE TABLE IF NOT EXISTS notes (
  id uuid PRIMARY KEY DEFAULT ids.uuid_v7(),
  body text NOT NULL)`);
// README browser ends

const one = async (p, sql) => Object.values((await p.query(sql)).rows[0])[0];
const note = (await local.query("INSERT INTO notes (body) VALUES ('first') RETURNING id::text AS id, ids.uuid_v7_time(id)::text AS t")).rows[0];
window.idgenSnippet = {
  ready: true,
  db: { schema: db.idgen.schema, installedNow: db.idgen.installedNow, version: db.idgen.version,
    shard: await one(db, "SELECT current_setting('idgen.shard_id', true)"), uuid: await one(db, 'SELECT public.uuid_v7()::text') },
  local: { schema: local.idgen.schema, installedNow: local.idgen.installedNow, version: local.idgen.version,
    shard: await one(local, 'SELECT ids.snowflake_shard(ids.snowflake())'), note },
};
document.getElementById('status').textContent = JSON.stringify(window.idgenSnippet);
