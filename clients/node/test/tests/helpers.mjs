// Connections for the package's tests: the server and databases of the PG*
// environment (IDGEN_APP_DB: a database owned by a plain role of the same
// name, without the extension, for migrations as an application runs them).
import pg from 'pg';

export const superDb = process.env.PGDATABASE;
export const appDb = process.env.IDGEN_APP_DB;

// connect(options): a connected node-postgres Client (the PG* environment).
export async function connect(options = {}) {
  const client = new pg.Client(options);
  await client.connect();
  return client;
}

// url(db, user): a postgres:// URL for the server of the PG* environment.
export function url(db = superDb, user = process.env.PGUSER ?? process.env.USER) {
  const host = encodeURIComponent(process.env.PGHOST);
  return `postgres://${user}@localhost:${process.env.PGPORT}/${db}?host=${host}`;
}

// rows(client, sql, params): the rows of a query.
export async function rows(client, sql, params = []) {
  return (await client.query(sql, params)).rows;
}
