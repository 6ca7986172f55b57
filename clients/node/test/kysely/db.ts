// A Kysely database with idgen's column types (tests/kysely.test.mjs).
// README snippet begins (kysely)
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { registerTypes } from 'idgen/pg';
import { defaults, type Snowflake, type Snowflake53, type Ulid, type TypeId, type WithDefault } from 'idgen/kysely';

interface Database {
  orders: { id: WithDefault<Snowflake>; ref: WithDefault<Ulid>; owner: TypeId; note: string };
  items: { id: WithDefault<Snowflake53>; name: string };
}

export async function connect(config: pg.PoolConfig): Promise<Kysely<Database>> {
  const pool = new pg.Pool(config);
  await registerTypes(pool);  // snowflakes as BigInt, snowflake53 IDs as Number
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export async function placeOrder(db: Kysely<Database>, owner: TypeId) {
  const order = await db.insertInto('orders').values({ owner, note: 'first' }).returningAll().executeTakeFirstOrThrow();
  const id: bigint = order.id;  // exact
  const again = await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const item = await db.insertInto('items').values({ id: defaults.snowflake53(2), name: 'x' }).returning('id').executeTakeFirstOrThrow();
  const itemId: number = item.id;
  return { order, again, itemId };
}
// README snippet ends
