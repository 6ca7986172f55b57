// idgen through Prisma 7 (prisma, @prisma/client with the prisma-client
// generator and @prisma/adapter-pg, no Rust engine) and node-pg-migrate for
// the migrations, pinned in package-lock.json; run by ../prisma.pl with tsx.
//
// As the database's owner, a plain role (PG* environment): node-pg-migrate
// applies prisma/migrations (the extension, two domains and the tables, in one
// transaction), `prisma generate` writes the client offline, then every
// family is inserted through its DEFAULT, read back, filtered, updated and
// deleted by; the ulid column, Unsupported("ulid") to Prisma, through
// $queryRaw and $executeRaw. argv[2]: a writable directory for the generated
// client.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import { attempt, note, ok, plan } from './verdicts.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const tmp = process.argv[2];
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const ACCT = /^acct_[0-9a-z]{25}$/;
const USER = /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
const { PGHOST, PGPORT, PGUSER, PGDATABASE } = process.env;

// run(command, args, env): exit status and output of a tool run in tmp.
function run(command, args, env = {}) {
  const r = spawnSync(command, args, { cwd: tmp, encoding: 'utf8', env: { ...process.env, HOME: tmp, ...env } });
  return { status: r.status, out: `${r.stdout}${r.stderr}${r.error ?? ''}` };
}

// failure(promise): the message a query fails with, or 'none'.
async function failure(query) {
  try { await query; return 'none'; } catch (e) { return `${e.code ?? ''} ${e.message}`; }
}

async function main() {
  // 4 of the migration and client, 9 of the defaults and ulid, 3 (find,
  // update, findMany) for each of the 5 keys, 4 of given and refused values,
  // 4 + 2 deletes
  plan(4 + 9 + 3 * 5 + 4 + 4 + 2);
  // node-pg-migrate, as the owner over the server's Unix socket.
  const url = `postgresql://${PGUSER}@localhost/${PGDATABASE}?host=${encodeURIComponent(PGHOST)}&port=${PGPORT}`;
  const up = run(path.join(here, 'node_modules/.bin/node-pg-migrate'),
    ['up', '--migrations-dir', path.join(here, 'prisma/migrations')], { DATABASE_URL: url });
  ok(up.status === 0, 'node-pg-migrate up applies the migration as the database owner', up.out);

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
  ok(gen.status === 0 && fs.existsSync(clientFile), 'prisma generate writes the client offline (prisma-client generator)', gen.out);
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
  note(`returned: ${JSON.stringify({ acme, user, event, page, ref }, (k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`);

  const [owner] = await prisma.$queryRaw`
      SELECT r.rolsuper, d.datdba = r.oid AS owns,
             (SELECT extowner = r.oid FROM pg_extension WHERE extname = 'idgen') AS ext_owner
        FROM pg_roles r, pg_database d
       WHERE r.rolname = current_user AND d.datname = current_database()`;
  ok(owner.rolsuper === false && owner.owns === true && owner.ext_owner === true,
    'node-pg-migrate: the migration created idgen as the database owner, who is not a superuser', JSON.stringify(owner));
  const [tx] = await prisma.$queryRaw`
      SELECT count(DISTINCT x::text)::int AS n, (SELECT count(*)::int FROM pgmigrations) AS applied FROM (
        SELECT xmin AS x FROM pg_extension WHERE extname = 'idgen'
        UNION ALL SELECT xmin FROM pg_type WHERE typname IN ('account_id', 'user_id')
        UNION ALL SELECT xmin FROM pg_class WHERE relname IN ('accounts', 'users', 'events', 'pages')
        UNION ALL SELECT xmin FROM pgmigrations) s`;
  ok(tx.n === 1 && tx.applied === 1, 'node-pg-migrate: the migration ran in one transaction (one xmin for all it wrote)', JSON.stringify(tx));

  const [text] = await prisma.$queryRaw`
      SELECT (SELECT id::text FROM accounts) AS account, (SELECT public_id::text FROM accounts) AS public_id,
             (SELECT id::text FROM users) AS "user", (SELECT id::text FROM events) AS event,
             (SELECT id::text FROM pages) AS page`;
  ok(typeof acme.id === 'string' && UUID_V7.test(acme.id) && acme.id === text.account,
    'uuid_v7(): dbgenerated DEFAULT fires and create() returns the server\'s UUIDv7 as a string', acme.id);
  ok(typeof acme.publicId === 'string' && ACCT.test(acme.publicId) && acme.publicId === text.public_id,
    'prefixed_id domain as String: the DEFAULT fires and create() returns the server\'s text', acme.publicId);
  ok(typeof user.id === 'string' && USER.test(user.id) && user.id === text.user,
    'typeid domain as String: the DEFAULT fires and create() returns the server\'s text', user.id);
  ok(typeof event.id === 'bigint' && event.id > BigInt(Number.MAX_SAFE_INTEGER) && String(event.id) === text.event,
    'snowflake(): the DEFAULT fires and create() returns the exact BigInt', String(event.id));
  ok(typeof page.id === 'bigint' && page.id <= BigInt(Number.MAX_SAFE_INTEGER) && String(page.id) === text.page,
    'snowflake53(): the DEFAULT fires and create() returns a BigInt that fits a Number', String(page.id));
  ok(!('ref' in event), 'Unsupported("ulid"): the field is not in the client\'s result', Object.keys(event).join(','));
  ok(typeof ref === 'string' && ULID.test(ref), 'ulid(): the DEFAULT fires, $queryRaw reads it as a string', ref);
  ok(byRef?.id === event.id, 'ulid: $queryRaw filters by it (a string parameter, no cast), id as a BigInt');
  const seen = await prisma.event.findUnique({ where: { id: event.id } });
  ok(seen?.kind === 'seen', 'ulid: $executeRaw updates by it (a string parameter, no cast)', JSON.stringify(seen?.kind));

  // Each key through the client: find, update, delete.
  const keys = [
    ['uuid', prisma.account, { id: acme.id }, { name: 'Acme Ltd' }],
    ['prefixed_id domain', prisma.account, { publicId: acme.publicId }, { name: 'Acme plc' }],
    ['typeid domain', prisma.user, { id: user.id }, { email: 'ada@example.org' }],
    ['snowflake', prisma.event, { id: event.id }, { kind: 'login' }],
    ['snowflake53', prisma.page, { id: page.id }, { title: 'Start' }],
  ];
  for (const [label, model, where, data] of keys) {
    await attempt(`${label}: find and update by it`, async () => {
      const found = await model.findUnique({ where });
      ok(found !== null && Object.entries(where).every(([k, v]) => found[k] === v), `${label}: findUnique by it finds the row`);
      const changed = await model.update({ where, data });
      ok(Object.entries(data).every(([k, v]) => changed[k] === v), `${label}: update by it changes the row`);
      const many = await model.findMany({ where });
      ok(many.length === 1, `${label}: findMany filters by it`, `${many.length}`);
    });
  }

  // ulid through raw SQL: a new value given as a string, then delete by it.
  const [{ fresh }] = await prisma.$queryRaw`SELECT ulid()::text AS fresh`;
  const changed = await prisma.$executeRaw`UPDATE events SET ref = ${fresh} WHERE id = ${event.id}`;
  const [{ now }] = await prisma.$queryRaw`SELECT ref::text AS now FROM events WHERE id = ${event.id}`;
  ok(changed === 1 && now === fresh, 'ulid: $executeRaw stores a new value given as a string (no cast)', `${changed} ${now}`);
  // A parameter typed text (an explicit ::text, as some query builders send)
  // needs the cast to the column's type until 0.7.0's assignment casts.
  const typed = await failure(prisma.$executeRaw`UPDATE events SET ref = ${fresh}::text::ulid WHERE id = ${event.id}`);
  ok(typed === 'none', 'ulid: a text value with ::ulid is stored', typed);
  const bad = await failure(prisma.$executeRaw`UPDATE events SET ref = ${'not-a-ulid'} WHERE id = ${event.id}`);
  ok(/22P02|invalid input syntax/.test(bad), 'ulid: bad text is refused (22P02)', bad);

  // Values the types refuse, through the client.
  const [{ order }] = await prisma.$queryRaw`SELECT typeid_new('order')::text AS "order"`;
  const wrong = await failure(prisma.user.create({ data: { id: order, accountId: acme.id, email: 'x' } }));
  ok(/user_id_prefix|check constraint/.test(wrong), 'typeid domain: a value of another prefix is refused', wrong);

  const deletes = [
    ['typeid domain', prisma.user, { id: user.id }], ['prefixed_id domain', prisma.account, { publicId: acme.publicId }],
    ['snowflake', prisma.event, { id: event.id }], ['snowflake53', prisma.page, { id: page.id }]];
  for (const [label, model, where] of deletes) {
    await attempt(`${label}: delete by it`, async () => {
      await model.delete({ where });
      ok(await model.findUnique({ where }) === null, `${label}: delete by it removes the row`);
    });
  }
  const second = await prisma.account.create({ data: { name: 'Beta' } });
  await prisma.account.delete({ where: { id: second.id } });
  ok(await prisma.account.count() === 0, 'uuid: delete by it removes the row');
  const another = await prisma.event.create({ data: { kind: 'x' } });
  const [{ r2 }] = await prisma.$queryRaw`SELECT ref::text AS r2 FROM events WHERE id = ${another.id}`;
  const gone = await prisma.$executeRaw`DELETE FROM events WHERE ref = ${r2}`;
  ok(gone === 1 && await prisma.event.count() === 0, 'ulid: $executeRaw deletes by it');
  await prisma.$disconnect();
}

main().catch((e) => {
  ok(false, 'prisma_test.ts runs to the end', e && e.stack ? e.stack : String(e));
  process.exit(1);
});
