// A Kysely database with the binary families' column types (tests/kysely.test.mjs).
// README package begins
import { Kysely } from 'kysely';
import type { ObjectId } from 'bson';
import { defaults, type Ksuid, type Objectid, type Xid, type WithDefault } from 'idgen/kysely';

interface Documents {
  documents: { id: WithDefault<Objectid>; ref: WithDefault<Ksuid>; trace: WithDefault<Xid>; body: string };
}

// with the PostgresDialect on a pool after registerTypes(pool) and sendObjectIds(ObjectId) of idgen/pg
export async function store(db: Kysely<Documents>, id: ObjectId, body: string) {
  const doc = await db.insertInto('documents').values({ id, body }).returningAll().executeTakeFirstOrThrow();
  const hex: string = doc.id;  // the 24 hex digits
  // a where compares with the type read: the hex text
  const found = await db.selectFrom('documents').select(['ref', 'trace']).where('id', '=', id.toHexString()).executeTakeFirstOrThrow();
  const next = await db.insertInto('documents').values({ id: defaults.objectid(), ref: defaults.ksuid(), body })
    .returning('id').executeTakeFirstOrThrow();
  return { hex, found, next: next.id };
}
// README package ends
