// idgen through Prisma 7 without a package (prisma, @prisma/client with the
// prisma-client generator and @prisma/adapter-pg, no Rust engine) and
// node-pg-migrate for the migrations, pinned in package-lock.json; run by
// ../prisma.pl with `node --import tsx --test`, each test one check.
//
// As the database's owner, a plain role (PG* environment): node-pg-migrate
// applies prisma/migrations (the extension, two domains and the tables, in one
// transaction), `prisma generate` writes the client offline, then every
// family is inserted through its DEFAULT, read back, filtered, updated and
// deleted by; the ulid column, Unsupported("ulid") to Prisma, through
// $queryRaw and $executeRaw. IDGEN_PRISMA_TMP: a writable directory for the
// generated client. The tests run in order, each on what the last left.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';

const here = path.dirname(fileURLToPath(import.meta.url));
const tmp = process.env.IDGEN_PRISMA_TMP!;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const ACCT = /^acct_[0-9a-z]{25}$/;
const USER = /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
const { PGHOST, PGPORT, PGUSER, PGDATABASE } = process.env;

// run(command, args, env): exit status and output of a tool run in tmp.
function run(command: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(command, args, { cwd: tmp, encoding: 'utf8', env: { ...process.env, HOME: tmp, ...env } });
  return { status: r.status, out: `${r.stdout}${r.stderr}${r.error ?? ''}` };
}

// failure(promise): the message a query fails with, or 'none'.
async function failure(query: PromiseLike<unknown>) {
  try { await query; return 'none'; } catch (e: any) { return `${e.code ?? ''} ${e.message}`; }
}

const show = (v: unknown) => JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `${x}n` : x));
// what the client test leaves for the tests after it: the client and the rows it made
const made: any = {};

before(() => {
  assert.ok(tmp, 'IDGEN_PRISMA_TMP names a writable directory');
});
after(async () => {
  await made.prisma?.$disconnect();
});

test('node-pg-migrate up applies the migration as the database owner', () => {
  // node-pg-migrate, as the owner over the server's Unix socket.
  const url = `postgresql://${PGUSER}@localhost/${PGDATABASE}?host=${encodeURIComponent(PGHOST!)}&port=${PGPORT}`;
  const up = run(path.join(here, 'node_modules/.bin/node-pg-migrate'),
    ['up', '--migrations-dir', path.join(here, 'prisma/migrations')], { DATABASE_URL: url });
  assert.equal(up.status, 0, up.out);
});

test('prisma generate writes the client offline (prisma-client generator)', async () => {
  // prisma generate, offline: the CLI insists that a schema engine binary
  // exists before it generates, and downloads one if not; generating does
  // not run it, so point it at a program that fails if it ever ran.
  fs.cpSync(path.join(here, 'prisma'), path.join(tmp, 'prisma'), { recursive: true });
  fs.symlinkSync(path.join(here, 'node_modules'), path.join(tmp, 'node_modules'));
  const engine = path.join(tmp, 'no-schema-engine');
  fs.writeFileSync(engine, '#!/bin/sh\necho "no schema engine offline" >&2\nexit 1\n', { mode: 0o755 });
  const gen = run(path.join(here, 'node_modules/.bin/prisma'), ['generate', '--schema', 'prisma/schema.prisma'],
    { PRISMA_SCHEMA_ENGINE_BINARY: engine, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' });
  const clientFile = path.join(tmp, 'generated/client.ts');
  assert.ok(gen.status === 0 && fs.existsSync(clientFile), gen.out);
  const { PrismaClient } = await import(pathToFileURL(clientFile).href);

  // README snippet begins (client)
  // node-postgres under the adapter reads PGHOST, PGPORT, PGDATABASE and PGUSER.
  const prisma = new PrismaClient({ adapter: new PrismaPg({}) });
  const acme = await prisma.account.create({ data: { name: 'Acme' } });
  const user = await prisma.user.create({ data: { accountId: acme.id, email: 'ada@example.com' } });
  const event = await prisma.event.create({ data: { kind: 'signup' } });
  const page = await prisma.page.create({ data: { title: 'Home' } });
  // acme.id: '019a…' (uuid as a string), acme.publicId: 'acct_…',
  // user.id: 'user_01…', event.id and page.id: BigInts
  // event has no ref: Unsupported("ulid") fields are left out of the client
  const [{ ref }] = await prisma.$queryRaw`SELECT ref::text FROM events WHERE id = ${event.id}`;
  // parameters go untyped: the server gives them the column's type
  const [byRef] = await prisma.$queryRaw`SELECT id FROM events WHERE ref = ${ref}`;
  await prisma.$executeRaw`UPDATE events SET kind = 'seen' WHERE ref = ${ref}`;
  // README snippet ends
  Object.assign(made, { prisma, acme, user, event, page, ref, byRef });
});

test('node-pg-migrate: the migration created idgen as the database owner, who is not a superuser', async () => {
  const { prisma } = made;
  const [owner] = await prisma.$queryRaw`
      SELECT r.rolsuper, d.datdba = r.oid AS owns,
             (SELECT extowner = r.oid FROM pg_extension WHERE extname = 'idgen') AS ext_owner
        FROM pg_roles r, pg_database d
       WHERE r.rolname = current_user AND d.datname = current_database()`;
  assert.deepEqual(owner, { rolsuper: false, owns: true, ext_owner: true });
});

test('node-pg-migrate: the migration ran in one transaction (one xmin for all it wrote)', async () => {
  const { prisma } = made;
  const [tx] = await prisma.$queryRaw`
      SELECT count(DISTINCT x::text)::int AS n, (SELECT count(*)::int FROM pgmigrations) AS applied FROM (
        SELECT xmin AS x FROM pg_extension WHERE extname = 'idgen'
        UNION ALL SELECT xmin FROM pg_type WHERE typname IN ('account_id', 'user_id')
        UNION ALL SELECT xmin FROM pg_class WHERE relname IN ('accounts', 'users', 'events', 'pages')
        UNION ALL SELECT xmin FROM pgmigrations) s`;
  assert.deepEqual(tx, { n: 1, applied: 1 });
});

test('each DEFAULT fires and create() returns the server\'s exact text: uuid_v7() and the domains as strings, the snowflakes as BigInts', async (t) => {
  const { prisma, acme, user, event, page, ref } = made;
  const [text] = await prisma.$queryRaw`
      SELECT (SELECT id::text FROM accounts) AS account, (SELECT public_id::text FROM accounts) AS public_id,
             (SELECT id::text FROM users) AS "user", (SELECT id::text FROM events) AS event,
             (SELECT id::text FROM pages) AS page`;
  t.diagnostic(`returned: ${show({ acme, user, event, page, ref })}`);
  assert.match(acme.id, UUID_V7, 'uuid_v7(), a dbgenerated DEFAULT');
  assert.equal(acme.id, text.account);
  assert.match(acme.publicId, ACCT, 'the prefixed_id domain as String');
  assert.equal(acme.publicId, text.public_id);
  assert.match(user.id, USER, 'the typeid domain as String');
  assert.equal(user.id, text.user);
  assert.equal(typeof event.id, 'bigint', 'snowflake(): an exact BigInt');
  assert.ok(event.id > BigInt(Number.MAX_SAFE_INTEGER));
  assert.equal(String(event.id), text.event);
  assert.equal(typeof page.id, 'bigint', 'snowflake53(): a BigInt that fits a Number');
  assert.ok(page.id <= BigInt(Number.MAX_SAFE_INTEGER));
  assert.equal(String(page.id), text.page);
});

test('Unsupported(ulid): the field is not in the client\'s result; $queryRaw reads the DEFAULT\'s value as a string', () => {
  const { event, ref } = made;
  assert.ok(!('ref' in event), Object.keys(event).join(','));
  assert.match(ref, ULID);
});

test('ulid: $queryRaw filters and $executeRaw updates by it (a string parameter, no cast)', async () => {
  const { prisma, event, byRef } = made;
  assert.equal(byRef?.id, event.id, 'the row found, its id a BigInt');
  const seen = await prisma.event.findUnique({ where: { id: event.id } });
  assert.equal(seen?.kind, 'seen');
});

// Each key through the client: find, update, findMany.
for (const [label, model, key, data] of [
  ['uuid', 'account', () => ({ id: made.acme.id }), { name: 'Acme Ltd' }],
  ['prefixed_id domain', 'account', () => ({ publicId: made.acme.publicId }), { name: 'Acme plc' }],
  ['typeid domain', 'user', () => ({ id: made.user.id }), { email: 'ada@example.org' }],
  ['snowflake', 'event', () => ({ id: made.event.id }), { kind: 'login' }],
  ['snowflake53', 'page', () => ({ id: made.page.id }), { title: 'Start' }],
] as const) {
  test(`${label}: findUnique, update and findMany by it`, async () => {
    const { prisma } = made;
    const where = key();
    const found = await prisma[model].findUnique({ where });
    assert.ok(found !== null && Object.entries(where).every(([k, v]) => found[k] === v), 'findUnique finds the row');
    const changed = await prisma[model].update({ where, data });
    assert.ok(Object.entries(data).every(([k, v]) => changed[k] === v), 'update changes the row');
    assert.equal((await prisma[model].findMany({ where })).length, 1, 'findMany filters by it');
  });
}

test('ulid: $executeRaw stores a new value given as a string (no cast), and one with ::ulid', async () => {
  const { prisma, event } = made;
  const [{ fresh }] = await prisma.$queryRaw`SELECT ulid()::text AS fresh`;
  const changed = await prisma.$executeRaw`UPDATE events SET ref = ${fresh} WHERE id = ${event.id}`;
  const [{ now }] = await prisma.$queryRaw`SELECT ref::text AS now FROM events WHERE id = ${event.id}`;
  assert.deepEqual([changed, now], [1, fresh]);
  // A parameter typed text (an explicit ::text, as some query builders send)
  // needs the cast to the column's type until 0.7.0's assignment casts.
  assert.equal(await failure(prisma.$executeRaw`UPDATE events SET ref = ${fresh}::text::ulid WHERE id = ${event.id}`), 'none');
});

test('bad ulid text (22P02) and a typeid of another prefix are refused', async () => {
  const { prisma, acme, event } = made;
  const bad = await failure(prisma.$executeRaw`UPDATE events SET ref = ${'not-a-ulid'} WHERE id = ${event.id}`);
  assert.match(bad, /22P02|invalid input syntax/);
  const [{ order }] = await prisma.$queryRaw`SELECT typeid_new('order')::text AS "order"`;
  const wrong = await failure(prisma.user.create({ data: { id: order, accountId: acme.id, email: 'x' } }));
  assert.match(wrong, /user_id_prefix|check constraint/);
});

for (const [label, model, key] of [
  ['typeid domain', 'user', () => ({ id: made.user.id })], ['prefixed_id domain', 'account', () => ({ publicId: made.acme.publicId })],
  ['snowflake', 'event', () => ({ id: made.event.id })], ['snowflake53', 'page', () => ({ id: made.page.id })],
] as const) {
  test(`${label}: delete by it removes the row`, async () => {
    const { prisma } = made;
    await prisma[model].delete({ where: key() });
    assert.equal(await prisma[model].findUnique({ where: key() }), null);
  });
}

test('uuid: delete by it removes the row', async () => {
  const { prisma } = made;
  const second = await prisma.account.create({ data: { name: 'Beta' } });
  await prisma.account.delete({ where: { id: second.id } });
  assert.equal(await prisma.account.count(), 0);
});

test('ulid: $executeRaw deletes by it', async () => {
  const { prisma } = made;
  const another = await prisma.event.create({ data: { kind: 'x' } });
  const [{ r2 }] = await prisma.$queryRaw`SELECT ref::text AS r2 FROM events WHERE id = ${another.id}`;
  assert.equal(await prisma.$executeRaw`DELETE FROM events WHERE ref = ${r2}`, 1);
  assert.equal(await prisma.event.count(), 0);
});
