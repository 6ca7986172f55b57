// idgen through Drizzle ORM (drizzle-orm with node-postgres, drizzle-kit),
// pinned in package-lock.json; run by ../drizzle.pl with tsx.
//
// As the database's owner, a plain role (PG* environment): migrate() applies
// drizzle/migrations (0000_idgen.sql, a custom migration that creates the
// extension and two domains; 0001_tables.sql, generated from
// drizzle/schema.ts), drizzle-kit generate finds nothing left to generate,
// then every family is inserted through its DEFAULT, read back with
// RETURNING, filtered, updated and deleted by, and drizzle-kit pull shows
// what introspection makes of the idgen columns. argv[2]: a writable
// directory for drizzle-kit's config files and output.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { accounts, events, pages, users } from './drizzle/schema.ts';
import { attempt, note, ok, plan } from './verdicts.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const tmp = process.argv[2];
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const ACCT = /^acct_[0-9a-z]{25}$/;
const USER = /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/;

// drizzleKit(args, config): drizzle-kit's exit status and output, run in tmp
// with a config file written there (drizzle-kit reads its config from a file).
function drizzleKit(args, name, config) {
  fs.writeFileSync(path.join(tmp, name), `export default ${JSON.stringify(config, null, 2)};\n`);
  const r = spawnSync(path.join(here, 'node_modules/.bin/drizzle-kit'), [...args, '--config', name],
    { cwd: tmp, encoding: 'utf8', env: { ...process.env, HOME: tmp } });
  return { status: r.status, out: `${r.stdout}${r.stderr}`, error: r.error };
}

const credentials = {
  host: process.env.PGHOST, port: Number(process.env.PGPORT),
  user: process.env.PGUSER, database: process.env.PGDATABASE, ssl: false,
};

// errorCode(promise): the SQLSTATE a query fails with (drizzle wraps the
// driver's error in its own, the pg error is its cause), or 'none'.
async function errorCode(query) {
  try { await query; return 'none'; } catch (e) { return (e.cause ?? e).code ?? String(e); }
}

async function main() {
  // 5 of the migrations, 8 of the defaults and keys, 2 (select, update) for
  // each of the 6 keys, 3 of given and refused values, 5 + 1 deletes, then
  // drizzle-kit pull's 2 + 3 columns + 1
  plan(5 + 8 + 2 * 6 + 3 + 5 + 1 + 2 + 3 + 1);
  // README snippet begins (migrate)
  // node-postgres reads PGHOST, PGPORT, PGDATABASE and PGUSER; the user is the
  // database's owner, not a superuser. migrate() runs every pending migration
  // in one transaction and records it in drizzle.__drizzle_migrations.
  const pool = new pg.Pool();
  const db = drizzle(pool);
  await migrate(db, { migrationsFolder: path.join(here, 'drizzle/migrations') });
  // README snippet ends

  const who = (await db.execute(sql`
      SELECT r.rolsuper, d.datdba = r.oid AS owns,
             (SELECT extowner = r.oid FROM pg_extension WHERE extname = 'idgen') AS ext_owner
        FROM pg_roles r, pg_database d
       WHERE r.rolname = current_user AND d.datname = current_database()`)).rows[0];
  ok(who.rolsuper === false && who.owns === true,
    'drizzle: migrate() ran as the database owner, who is not a superuser', JSON.stringify(who));
  ok(who.ext_owner === true, 'drizzle: the custom migration created idgen, owned by that role',
    JSON.stringify(who));
  const applied = (await db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)).rows[0].n;
  ok(applied === 2, 'drizzle: migrate() recorded both migrations', `${applied}`);
  // One transaction: the extension, the domains, the tables and the migration
  // records were all written by the same transaction id.
  const xids = (await db.execute(sql`
      SELECT count(DISTINCT x::text)::int AS n FROM (
        SELECT xmin AS x FROM pg_extension WHERE extname = 'idgen'
        UNION ALL SELECT xmin FROM pg_type WHERE typname IN ('account_id', 'user_id')
        UNION ALL SELECT xmin FROM pg_class WHERE relname IN ('accounts', 'users', 'events', 'pages')
        UNION ALL SELECT xmin FROM drizzle.__drizzle_migrations) s`)).rows[0].n;
  ok(xids === 1, 'drizzle: both migrations ran in one transaction (one xmin for all they wrote)', `${xids}`);

  // The committed migrations are what drizzle-kit generates from schema.ts.
  fs.cpSync(path.join(here, 'drizzle/migrations'), path.join(tmp, 'migrations'), { recursive: true });
  const gen = drizzleKit(['generate'], 'generate.config.mjs',
    { dialect: 'postgresql', schema: path.join(here, 'drizzle/schema.ts'), out: './migrations' });
  const files = fs.readdirSync(path.join(tmp, 'migrations')).filter((f) => f.endsWith('.sql'));
  ok(gen.status === 0 && /No schema changes/.test(gen.out) && files.length === 2,
    'drizzle-kit generate: the committed migrations match drizzle/schema.ts (nothing to generate)',
    `${gen.status} ${gen.error ?? ''} ${files}\n${gen.out}`);

  // uuid_v7() and prefixed_id: the DEFAULTs fire, RETURNING brings them back.
  // README snippet begins (queries)
  const [acme] = await db.insert(accounts).values({ name: 'Acme' }).returning();
  const [user] = await db.insert(users).values({ accountId: acme.id, email: 'ada@example.com' }).returning();
  const [event] = await db.insert(events).values({ kind: 'signup' }).returning();
  const [page] = await db.insert(pages).values({ title: 'Home' }).returning();
  // acme.id: '019a…' (uuid as a string), acme.publicId: 'acct_…',
  // user.id: 'user_01…', event.id: a BigInt, event.ref: '01…' (ulid),
  // page.id: a Number
  const found = await db.select().from(events).where(eq(events.ref, event.ref));
  await db.update(users).set({ email: 'ada@example.org' }).where(eq(users.id, user.id));
  // README snippet ends
  note(`returned: ${JSON.stringify({ acme, user, event: { ...event, id: String(event.id) }, page })}`);

  const text = (await db.execute(sql`
      SELECT (SELECT id::text FROM accounts) AS account, (SELECT public_id::text FROM accounts) AS public_id,
             (SELECT id::text FROM users) AS user, (SELECT id::text FROM events) AS event,
             (SELECT ref::text FROM events) AS ref, (SELECT id::text FROM pages) AS page`)).rows[0];
  ok(typeof acme.id === 'string' && UUID_V7.test(acme.id) && acme.id === text.account,
    'uuid_v7(): the DEFAULT fires and RETURNING gives the server\'s UUIDv7 as a string', acme.id);
  ok(typeof acme.publicId === 'string' && ACCT.test(acme.publicId) && acme.publicId === text.public_id,
    'prefixed_id domain: the DEFAULT fires and RETURNING gives the server\'s text', acme.publicId);
  ok(typeof user.id === 'string' && USER.test(user.id) && user.id === text.user,
    'typeid domain: the DEFAULT fires and RETURNING gives the server\'s text', user.id);
  ok(typeof event.id === 'bigint' && event.id > BigInt(Number.MAX_SAFE_INTEGER) && String(event.id) === text.event,
    'snowflake(): the DEFAULT fires and RETURNING gives the exact BigInt', String(event.id));
  ok(typeof event.ref === 'string' && ULID.test(event.ref) && event.ref === text.ref,
    'ulid(): the DEFAULT fires and RETURNING gives the server\'s text', event.ref);
  ok(typeof page.id === 'number' && Number.isSafeInteger(page.id) && String(page.id) === text.page,
    'snowflake53(): the DEFAULT fires and RETURNING gives an exact Number', String(page.id));
  ok(found.length === 1 && found[0].id === event.id, 'ulid: select by it finds the row');
  const [ada] = await db.select().from(users).where(eq(users.id, user.id));
  ok(ada?.email === 'ada@example.org', 'typeid domain: update by it changes the row', JSON.stringify(ada));

  // Each key: select, update and delete by it, with the tool's own values.
  const keys = [
    ['uuid', accounts, accounts.id, acme.id, { name: 'Acme Ltd' }, 'name'],
    ['prefixed_id domain', accounts, accounts.publicId, acme.publicId, { name: 'Acme plc' }, 'name'],
    ['typeid domain', users, users.id, user.id, { email: 'ada@example.net' }, 'email'],
    ['snowflake', events, events.id, event.id, { kind: 'login' }, 'kind'],
    ['ulid', events, events.ref, event.ref, { kind: 'logout' }, 'kind'],
    ['snowflake53', pages, pages.id, page.id, { title: 'Start' }, 'title'],
  ];
  for (const [label, table, column, value, change, field] of keys) {
    await attempt(`${label}: select and update by it`, async () => {
      const rows = await db.select().from(table).where(eq(column, value));
      ok(rows.length === 1, `${label}: select by it finds the row`, `${rows.length}`);
      const changed = await db.update(table).set(change).where(eq(column, value)).returning();
      ok(changed.length === 1 && changed[0][field] === change[field],
        `${label}: update by it changes the row (RETURNING)`, JSON.stringify(changed, (k, v) => (typeof v === 'bigint' ? String(v) : v)));
    });
  }
  // Client-supplied values: a ulid minted by the server as text, and a wrong
  // prefix or bad text, which the types refuse.
  const minted = (await db.execute(sql`SELECT ulid()::text AS u`)).rows[0].u;
  const [given] = await db.insert(events).values({ ref: minted, kind: 'import' }).returning();
  ok(given.ref === minted && typeof given.id === 'bigint', 'ulid: a value given as a string is stored as is',
    JSON.stringify(given.ref));
  const order = (await db.execute(sql`SELECT typeid_new('order')::text AS t`)).rows[0].t;
  ok(await errorCode(db.insert(users).values({ id: order, accountId: acme.id, email: 'x' })) === '23514',
    'typeid domain: a value of another prefix is refused (23514)');
  ok(await errorCode(db.insert(events).values({ ref: 'not-a-ulid', kind: 'x' })) === '22P02',
    'ulid: bad text is refused (22P02)');

  // Deletes, children first.
  for (const [label, table, column, value] of [
    ['typeid domain', users, users.id, user.id], ['prefixed_id domain', accounts, accounts.publicId, acme.publicId],
    ['snowflake', events, events.id, event.id], ['ulid', events, events.ref, given.ref],
    ['snowflake53', pages, pages.id, page.id]]) {
    await attempt(`${label}: delete by it`, async () => {
      const gone = await db.delete(table).where(eq(column, value)).returning();
      const left = await db.select().from(table).where(eq(column, value));
      ok(gone.length === 1 && left.length === 0, `${label}: delete by it removes the row (RETURNING)`,
        `${gone.length} ${left.length}`);
    });
  }
  const [second] = await db.insert(accounts).values({ name: 'Beta' }).returning();
  const goneById = await db.delete(accounts).where(eq(accounts.id, second.id)).returning({ id: accounts.id });
  ok(goneById.length === 1 && goneById[0].id === second.id, 'uuid: delete by it removes the row (RETURNING)');
  await pool.end();

  // drizzle-kit pull (introspect): what it makes of the idgen columns.
  const pull = drizzleKit(['pull'], 'pull.config.mjs',
    { dialect: 'postgresql', out: './pull', dbCredentials: credentials, schemaFilter: ['public'],
      tablesFilter: ['!prefixed_id_registry', '!idgen_*'] });
  const pulledPath = path.join(tmp, 'pull/schema.ts');
  const pulled = fs.existsSync(pulledPath) ? fs.readFileSync(pulledPath, 'utf8') : '';
  ok(pull.status === 0 && pulled !== '', 'drizzle-kit pull writes a schema for the database', pull.out);
  note(`drizzle-kit pull wrote:\n${pulled}`);
  // Not idgen's own table and views (the extension's, not the application's):
  const own = ['prefixed_id_registry', 'idgen_stats', 'idgen_snowflake_shards'].filter((t) => pulled.includes(`"${t}"`));
  ok(own.length === 0, 'drizzle-kit pull: tablesFilter keeps idgen\'s own table and views out', `${own}`);
  // Known drizzle-kit limitation: an extension type becomes unknown() (a domain
  // under its base type's name) and its DEFAULT is dropped; put the customType
  // and the .default() of drizzle/schema.ts back by hand.
  for (const [column, type] of [['public_id', 'prefixed_id'], ['id', 'typeid'], ['ref', 'ulid']]) {
    const lines = pulled.split('\n');
    const at = lines.findIndex((l) => new RegExp(`^\\s*\\w+: unknown\\("${column}"\\)`).test(l));
    ok(at > 0 && lines[at - 1].includes(`// TODO: failed to parse database type '${type}'`) && !lines[at].includes('default'),
      `drizzle-kit pull: the ${type} column ${column} comes back as unknown("${column}") with a TODO and without its DEFAULT`,
      at > 0 ? `${lines[at - 1]}\n${lines[at]}` : '(no such line)');
  }
  ok(/id: uuid\(\)\.default\(sql`uuid_v7\(\)`\)\.primaryKey\(\)/.test(pulled)
    && /id: bigint\(\{ mode: "number" \}\)\.default\(sql`snowflake\(1\)`\)\.primaryKey\(\)/.test(pulled)
    && /id: bigint\(\{ mode: "number" \}\)\.default\(sql`snowflake53\(1\)`\)\.primaryKey\(\)/.test(pulled),
  'drizzle-kit pull: uuid and bigint keys keep their DEFAULTs, but bigint comes back as mode "number" (make snowflake columns mode "bigint")');
}

main().catch((e) => {
  ok(false, 'drizzle_test.ts runs to the end', e && e.stack ? e.stack : String(e));
  process.exit(1);
});
