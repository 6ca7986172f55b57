// The PGlite example of clients/node/README.md, as the package's README shows
// it (between the markers, which readme_snippets.pl compares with the README),
// run by browser_test.mjs through snippet.html?run=readme in the context where
// docs.js ran first, so that idb://my-app already holds the edition and a note.
// README package begins
import { PGlite } from '@electric-sql/pglite';
import { idgen } from 'idgen/pglite';

const db = await PGlite.create('idb://my-app', {
  extensions: { idgen: idgen({ schema: 'ids', shard: 12 }) },  // or just { idgen }: schema public
});
const { rows } = await db.query('SELECT ids.uuid_v7() AS id');
// README package ends

window.idgenSnippet = {
  ready: true, schema: db.idgen.schema, installedNow: db.idgen.installedNow, version: db.idgen.version,
  id: rows[0].id, notes: (await db.query('SELECT body FROM notes')).rows.map((r) => r.body),
};
document.getElementById('status').textContent = JSON.stringify(window.idgenSnippet);
