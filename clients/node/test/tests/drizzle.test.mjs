// idgen/drizzle: in a project of ../drizzle/schema.ts and
// ../drizzle/drizzle.config.ts, the README's commands (../drizzle/migrate.sh:
// drizzle-kit generate --custom, idgen-drizzle to fill it with the extension
// and the domains, drizzle-kit generate and migrate) migrate a database as
// its owner, a plain role, and every family goes through the ORM; then what
// drizzle-kit pull makes of such a database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { ObjectId } from 'bson';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { prefixedId, prefixedIdDefine, typeid, typeidDefine, defaults, objectid, schemaDomains, idgenMigration } from 'idgen/drizzle';
import { appDb, url } from './helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const project = path.dirname(here);
const kit = path.join(project, 'node_modules/.bin/drizzle-kit');
const schemaFile = path.join(project, 'drizzle/schema.ts');
// the application's project: in the test project, whose node_modules it uses
const tmp = fs.mkdtempSync(path.join(project, 'drizzle-app-'));
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
let pool;
let db;
let schema;

// byKey(table, column, field, value): the one row whose column is value is
// found, updated (its field) and deleted through that column.
async function byKey(table, column, field, value) {
  const label = `${column.name} = ${value}`;
  assert.equal((await db.select().from(table).where(eq(column, value))).length, 1, `select by ${label}`);
  const changed = await db.update(table).set({ [field]: 'changed' }).where(eq(column, value)).returning();
  assert.deepEqual(changed.map((r) => r[field]), ['changed'], `update by ${label}`);
  assert.equal((await db.delete(table).where(eq(column, value)).returning()).length, 1, `delete by ${label}`);
  assert.equal((await db.select().from(table).where(eq(column, value))).length, 0, `nothing left with ${label}`);
}

// the environment of the commands: the application's database, and npm
// offline (npx runs what the project installed or fails)
const env = { ...process.env, HOME: tmp, DATABASE_URL: url(appDb, appDb), npm_config_offline: 'true', npm_config_yes: 'false' };

// run(command, args): a command run in tmp; its status and output
function run(command, args) {
  const r = spawnSync(command, args, { cwd: tmp, encoding: 'utf8', env });
  return { status: r.status, out: `${r.stdout}${r.stderr}${r.error ?? ''}` };
}
const runKit = (args) => run(kit, args);

before(async () => {
  pool = new pg.Pool({ database: appDb, user: appDb, max: 2 });
  db = drizzle(pool);
  schema = await import(pathToFileURL(path.join(project, '.build/drizzle/schema.js')).href);  // compiled by build.test.mjs
});
after(async () => {
  await pool.end();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('Drizzle', () => {
  test('the README\'s commands: a custom migration filled with the extension and the domains, then the tables, migrated', () => {
    fs.mkdirSync(path.join(tmp, 'src'));
    fs.copyFileSync(schemaFile, path.join(tmp, 'src/schema.ts'));
    fs.copyFileSync(path.join(project, 'drizzle/drizzle.config.ts'), path.join(tmp, 'drizzle.config.ts'));
    const commands = run('sh', [path.join(project, 'drizzle/migrate.sh')]);
    assert.equal(commands.status, 0, commands.out);
    const journal = JSON.parse(fs.readFileSync(path.join(tmp, 'drizzle/meta/_journal.json'), 'utf8'));
    const tags = journal.entries.map((e) => e.tag);
    assert.ok(tags.length === 2 && tags[0] === '0000_idgen' && tags[1].startsWith('0001_'), tags.join(', '));
    const migration = (i) => fs.readFileSync(path.join(tmp, `drizzle/${journal.entries[i].tag}.sql`), 'utf8');
    assert.equal(migration(0), ['CREATE EXTENSION IF NOT EXISTS idgen;', "SELECT prefixed_id_define('account_id', 'acct');",
      "SELECT typeid_define('user_id', 'user');"].join('\n--> statement-breakpoint\n') + '\n');
    const sql = migration(1);
    for (const want of ['"id" "account_id" PRIMARY KEY DEFAULT prefixed_id_new(\'acct\')', '"id" "user_id" PRIMARY KEY DEFAULT typeid_new(\'user\')',
      '"id" bigint PRIMARY KEY DEFAULT snowflake(7)', '"ref" "ulid" DEFAULT ulid()', '"id" bigint PRIMARY KEY DEFAULT snowflake53(3)',
      '"key" uuid DEFAULT uuid_v7()', '"id" "objectid" PRIMARY KEY DEFAULT objectid()', '"source" "objectid"',
      '"ref" "ksuid" DEFAULT ksuid() NOT NULL', '"trace" "rsxid" DEFAULT xid() NOT NULL',
      '"account_id" "prefixed_id" NOT NULL', '"user_id" "typeid",'])
      assert.ok(sql.includes(want), `${want} in\n${sql}`);
    // idgen-drizzle again: the newest migration is the tables', which it leaves alone
    const again = run(path.join(project, 'node_modules/.bin/idgen-drizzle'), []);
    assert.equal(again.status, 1, again.out);
    assert.match(again.out, /is not an empty custom one/);
    assert.equal(migration(1), sql);
  });

  test('the migrations applied as the database owner, a plain role, in one transaction: the extension, the domains, their columns', async () => {
    const { rows: [r] } = await pool.query(`SELECT r.rolsuper, d.datdba = r.oid AS owns,
        (SELECT extowner = r.oid FROM pg_extension WHERE extname = 'idgen') AS ext_owner,
        (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS applied
        FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()`);
    assert.deepEqual(r, { rolsuper: false, owns: true, ext_owner: true, applied: 2 });
    // one transaction: the extension, the domains, the tables and the
    // migration records were all written by the same transaction id
    const { rows: [x] } = await pool.query(`SELECT count(DISTINCT x::text)::int AS n FROM (
        SELECT xmin AS x FROM pg_extension WHERE extname = 'idgen'
        UNION ALL SELECT xmin FROM pg_type WHERE typname IN ('account_id', 'user_id')
        UNION ALL SELECT xmin FROM pg_class WHERE relname IN ('accounts', 'users', 'events', 'pages', 'documents')
        UNION ALL SELECT xmin FROM drizzle.__drizzle_migrations) s`);
    assert.equal(x.n, 1);
    // the domains over the base types, with their DEFAULTs, and the key columns of them
    const { rows: domains } = await pool.query(`SELECT typname AS name, format_type(typbasetype, NULL) AS base, typdefault AS default
        FROM pg_type WHERE typtype = 'd' AND typname IN ('account_id', 'user_id') ORDER BY 1`);
    assert.deepEqual(domains.map((d) => [d.name, d.base]), [['account_id', 'prefixed_id'], ['user_id', 'typeid']]);
    assert.match(domains[0].default, /prefixed_id_new\('acct'/);
    assert.match(domains[1].default, /typeid_new\('user'/);
    const { rows: keys } = await pool.query(`SELECT attrelid::regclass::text AS t, format_type(atttypid, atttypmod) AS type,
        pg_get_expr(d.adbin, d.adrelid) AS default FROM pg_attribute a JOIN pg_attrdef d ON (d.adrelid, d.adnum) = (a.attrelid, a.attnum)
        WHERE (attrelid, attname) IN (('accounts'::regclass, 'id'), ('users'::regclass, 'id')) ORDER BY 1`);
    assert.deepEqual(keys.map((k) => [k.t, k.type]), [['accounts', 'account_id'], ['users', 'user_id']]);
    assert.match(keys[0].default, /^prefixed_id_new\('acct'/);
    assert.match(keys[1].default, /^typeid_new\('user'/);
    const again = runKit(['generate']);
    assert.equal(again.status, 0, again.out);
    assert.match(again.out, /No schema changes/);
  });

  test('schemaDomains(): the domains of a schema\'s columns, a token one too, base types aside; one type with two prefixes throws', () => {
    const a = pgTable('a', { id: prefixedId('org_id', 'org', 'id', { token: true }), ref: prefixedId('prefixed_id', 'acct', 'ref') });
    const b = pgTable('b', { id: typeid('item_id', 'item'), org: prefixedId('org_id', 'org', 'org', { token: true }), note: text('note') });
    const domains = schemaDomains({ a, b, other: 'not a table' });
    assert.deepEqual(domains, [{ family: 'typeid', type: 'item_id', prefix: 'item', token: false },
      { family: 'prefixed_id', type: 'org_id', prefix: 'org', token: true }]);
    assert.equal(idgenMigration(domains), ['CREATE EXTENSION IF NOT EXISTS idgen;', "SELECT typeid_define('item_id', 'item');",
      "SELECT prefixed_id_define('org_id', 'org', true);"].join('\n--> statement-breakpoint\n') + '\n');
    const c = pgTable('c', { id: prefixedId('org_id', 'acct') });
    assert.throws(() => schemaDomains({ a }, { c }), TypeError);
  });

  test('inserts fill every key from its SQL DEFAULT, typed: snowflake BigInt, snowflake53 Number, IDs strings', async () => {
    const { accounts, users, events, pages } = schema;
    // README snippet begins (drizzle use)
    const [acme] = await db.insert(accounts).values({ name: 'Acme' }).returning();
    const [ada] = await db.insert(users).values({ accountId: acme.id, email: 'ada@example.com' }).returning();
    const [signup] = await db.insert(events).values({ kind: 'signup' }).returning();
    const [home] = await db.insert(pages).values({ title: 'Home' }).returning();
    // acme.id 'acct_…', ada.id 'user_…', signup.id a BigInt, signup.ref '01…', home.id a Number
    const found = await db.select().from(events).where(eq(events.id, signup.id));
    // README snippet ends
    assert.match(acme.id, /^acct_[0-9a-z]{25}$/);
    assert.match(ada.id, /^user_[0-9a-z]{26}$/);
    assert.equal(ada.accountId, acme.id);
    assert.equal(typeof signup.id, 'bigint');
    assert.ok(signup.id >= 2n ** 53n);
    assert.match(signup.ref, ULID);
    assert.equal(typeof home.id, 'number');
    assert.ok(Number.isSafeInteger(home.id));
    assert.match(home.key, /^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    assert.deepEqual(found, [signup]);
    const { rows: [shard] } = await pool.query('SELECT snowflake_shard($1::int8) AS s, snowflake53_shard($2::int8) AS s53', [signup.id, home.id]);
    assert.deepEqual(shard, { s: 7, s53: 3 });
  });

  test('a reference takes the base type and no DEFAULT: left out, NOT NULL fires (23502), a nullable one is NULL', async () => {
    const { users, events } = schema;
    const { rows: cols } = await pool.query(`SELECT attrelid::regclass::text || '.' || attname AS name, format_type(atttypid, atttypmod) AS type,
        attnotnull AS "notNull", pg_get_expr(d.adbin, d.adrelid) AS default
        FROM pg_attribute a LEFT JOIN pg_attrdef d ON (d.adrelid, d.adnum) = (a.attrelid, a.attnum)
        WHERE (attrelid, attname) IN (('users'::regclass, 'account_id'), ('events'::regclass, 'user_id')) ORDER BY 1`);
    assert.deepEqual(cols, [{ name: 'events.user_id', type: 'typeid', notNull: false, default: null },
      { name: 'users.account_id', type: 'prefixed_id', notNull: true, default: null }]);
    // a domain column would take the domain's DEFAULT here: a new acct_… that no account has
    await assert.rejects(db.insert(users).values({ email: 'nobody@example.com' }), (e) => (e.cause ?? e).code === '23502');
    const [e] = await db.insert(events).values({ kind: 'anonymous' }).returning();
    assert.equal(e.userId, null);
    // the foreign key checks the prefix: no account has a user_ ID
    await assert.rejects(db.insert(users).values({ accountId: 'user_039srkj01e44uynszf2f2njh3', email: 'x@example.com' }),
      (e) => (e.cause ?? e).code === '23503');
  });

  test('filters, updates and deletes by each kind of key', async () => {
    const { accounts, users, events, pages } = schema;
    const [a] = await db.insert(accounts).values({ name: 'B' }).returning();
    const [u] = await db.insert(users).values({ accountId: a.id, email: 'b@example.com' }).returning();
    assert.equal((await db.select().from(users).where(eq(users.accountId, a.id)))[0].email, 'b@example.com');
    // each key: select, update (RETURNING) and delete (RETURNING) by it, children first
    for (const [table, column, field, value] of [[users, users.id, 'email', u.id], [accounts, accounts.id, 'name', a.id]])
      await byKey(table, column, field, value);
    for (const column of ['id', 'ref']) {
      const [e] = await db.insert(events).values({ kind: 'x' }).returning();
      await byKey(events, events[column], 'kind', e[column]);
    }
    for (const column of ['id', 'key']) {
      const [p] = await db.insert(pages).values({ title: 'P' }).returning();
      await byKey(pages, pages[column], 'title', p[column]);
    }
  });

  test('the binary families in the database: column types and DEFAULTs as migrated, values typed as declared', async () => {
    const { rows: cols } = await pool.query(`SELECT attname AS name, format_type(atttypid, atttypmod) AS type,
        pg_get_expr(d.adbin, d.adrelid) AS default FROM pg_attribute a LEFT JOIN pg_attrdef d ON (d.adrelid, d.adnum) = (a.attrelid, a.attnum)
        WHERE attrelid = 'documents'::regclass AND attnum > 0 ORDER BY attnum`);
    assert.deepEqual(cols, [{ name: 'id', type: 'objectid', default: 'objectid()' }, { name: 'source', type: 'objectid', default: null },
      { name: 'ref', type: 'ksuid', default: 'ksuid()' }, { name: 'trace', type: 'rsxid', default: 'xid()' },
      { name: 'body', type: 'text', default: null }]);
    const { documents } = schema;
    // README package begins
    const source = new ObjectId();
    const [doc] = await db.insert(documents).values({ source, body: 'imported' }).returning();
    // doc.id '…' (24 hex digits), doc.source an ObjectId, doc.ref a KSUID's text, doc.trace an XID's
    const same = await db.select().from(documents).where(eq(documents.source, source));
    // README package ends
    assert.match(doc.id, /^[0-9a-f]{24}$/);
    assert.ok(doc.source instanceof ObjectId && doc.source.equals(source), 'an ObjectId back');
    assert.match(doc.ref, /^[0-9A-Za-z]{27}$/);
    assert.match(doc.trace, /^[0-9a-v]{19}[0g]$/);
    assert.deepEqual(same.map((r) => r.id), [doc.id]);
    // an ObjectId where the column reads text: stored as its bytes, found by it
    const given = new ObjectId();
    const [other] = await db.insert(documents).values({ id: given, body: 'given' }).returning();
    assert.equal(other.id, given.toHexString());
    assert.equal(other.source, null);
    assert.deepEqual((await db.select().from(documents).where(eq(documents.id, given))).map((r) => r.body), ['given']);
    const { rows: [raw] } = await pool.query("SELECT encode(id::bytea, 'hex') AS id, encode(source::bytea, 'hex') AS source FROM documents WHERE body = 'imported'");
    assert.deepEqual(raw, { id: Buffer.from(doc.id, 'hex').toString('hex'), source: Buffer.from(source.id).toString('hex') });
    await byKey(documents, documents.ref, 'body', doc.ref);
    await byKey(documents, documents.trace, 'body', other.trace);
  });

  test('the binary families refuse bad values on the server (22P02), and objectid({ ObjectId }) a class without toHexString()', async () => {
    const { documents } = schema;
    for (const values of [{ id: 'not hex', body: 'x' }, { ref: 'not a ksuid', body: 'x' }, { trace: 'NOT AN XID', body: 'x' }])
      await assert.rejects(db.insert(documents).values(values), (e) => (e.cause ?? e).code === '22P02', JSON.stringify(values));
    assert.throws(() => objectid('x', { ObjectId: class {} }), TypeError);
  });

  test('a ulid given as a string is stored as is', async () => {
    const { events } = schema;
    const { rows: [{ u }] } = await pool.query('SELECT ulid()::text AS u');
    const [given] = await db.insert(events).values({ ref: u, kind: 'import' }).returning();
    assert.equal(given.ref, u);
    assert.equal(typeof given.id, 'bigint');
  });

  test('a value with the wrong prefix is refused by the domain (23514), a bad ulid by the type (22P02)', async () => {
    const { accounts, events } = schema;
    await assert.rejects(db.insert(accounts).values({ id: 'user_039srkj01e44uynszf2f2njh3', name: 'x' }), (e) => (e.cause ?? e).code === '23514');
    await assert.rejects(db.insert(events).values({ ref: 'not a ulid', kind: 'x' }), (e) => (e.cause ?? e).code === '22P02');
  });

  test('a snowflake53 value that is not an exact Number is refused before the query', async () => {
    const { pages } = schema;
    await assert.rejects(db.insert(pages).values({ id: 2 ** 53, title: 'x' }), RangeError);
  });

  test('the helpers refuse a bad prefix or type name', () => {
    assert.throws(() => prefixedId('account_id', 'Acct'), TypeError);
    assert.throws(() => prefixedIdDefine('Account id', 'acct'), TypeError);
    assert.throws(() => defaults.snowflake(-1), RangeError);
    assert.throws(() => typeidDefine('user_id', 'user_'), TypeError);
  });

  test('drizzle-kit pull: it cannot map the extension types (ulid and the domains come back as unknown, without their DEFAULTs)', () => {
    const config = { dialect: 'postgresql', out: './pulled', schemaFilter: ['public'],
      tablesFilter: ['!prefixed_id_registry', '!idgen_*'],
      dbCredentials: { host: process.env.PGHOST, port: Number(process.env.PGPORT), user: appDb, database: appDb, ssl: false } };
    fs.writeFileSync(path.join(tmp, 'pull.config.mjs'), `export default ${JSON.stringify(config)};\n`);
    const pulled = runKit(['pull', '--config', 'pull.config.mjs']);
    assert.equal(pulled.status, 0, pulled.out);
    const text = fs.readFileSync(path.join(tmp, 'pulled/schema.ts'), 'utf8');
    assert.ok(!text.includes('idgen/drizzle'), 'pull writes no idgen column types');
    // a ulid or domain column: unknown("…") under a TODO naming its (base) type, its DEFAULT dropped
    const lines = text.split('\n');
    for (const [column, type] of [['ref', 'ulid'], ['id', 'prefixed_id'], ['id', 'typeid'], ['id', 'objectid'], ['ref', 'ksuid'],
      ['trace', 'rsxid']]) {
      const at = lines.findIndex((l, i) => new RegExp(`^\\s*\\w+: unknown\\("${column}"\\)`).test(l)
        && lines[i - 1].includes(`// TODO: failed to parse database type '${type}'`));
      assert.ok(at > 0 && !lines[at].includes('default'), `${type} column ${column} as unknown() without its DEFAULT in\n${text}`);
    }
    // bigint keys keep their DEFAULTs but come back as mode "number" (make snowflake columns snowflake()),
    // a uuid column its uuid_v7() DEFAULT
    for (const want of [/id: bigint\(\{ mode: "number" \}\)\.default\(sql`snowflake\(7\)`\)\.primaryKey\(\)/,
      /id: bigint\(\{ mode: "number" \}\)\.default\(sql`snowflake53\(3\)`\)\.primaryKey\(\)/,
      /key: uuid\(\)\.default\(sql`uuid_v7\(\)`\)/])
      assert.match(text, want);
    // the tablesFilter keeps idgen's own table and views out
    for (const own of ['prefixed_id_registry', 'idgen_stats', 'idgen_snowflake_shards'])
      assert.ok(!text.includes(`"${own}"`), `${own} pulled`);
  });
});
