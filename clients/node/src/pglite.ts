// idgen for PGlite (PostgreSQL in WebAssembly, in the browser, Node and Bun):
// a PGlite extension that installs idgen's SQL edition (sql/edition, the
// script `make sql-edition` writes) into a schema of the caller's choice when
// the database starts, once: a persisted database (a directory, idb://) that
// already holds this version is left as it is; another version is refused.
//
//   import { PGlite } from '@electric-sql/pglite';
//   import { idgen } from 'idgen/pglite';
//   const pg = await PGlite.create({ extensions: { idgen } });                      // schema public
//   const pg = await PGlite.create('idb://app', { extensions: { idgen: idgen({ schema: 'ids', shard: 12 }) } });
//
// The script comes from ./idgen-sql.js, generated at build time
// (scripts/pglite-sql.mjs) and imported only when a database starts: no file
// system read, no fetch, so it works alike in Node, workers and bundlers.
import type { Extension, PGliteInterface, Transaction } from '@electric-sql/pglite';

/** Options of idgen({ ... }). */
export interface IdgenOptions {
  /** The schema the SQL edition goes into, created if missing (default `public`). */
  schema?: string;
  /**
   * This device's snowflake shard (0 to 8191; snowflake53 takes 0 to 15): set
   * as `idgen.shard_id` for the session at every start, so that `snowflake()`
   * and `snowflake53()` need no argument. Give each device its own.
   */
  shard?: number;
}

/** What `pg.idgen` holds once the database has started. */
export interface IdgenNamespace {
  /** The schema that holds the SQL edition. */
  readonly schema: string;
  /** The SQL edition's version (the package's). */
  readonly version: string;
  /** The shard set as `idgen.shard_id`, if any. */
  readonly shard: number | undefined;
  /** True when this start installed the edition, false when the database already held it. */
  readonly installedNow: boolean;
}

/** `idgen` is an extension itself (schema public, no shard) and makes others: `idgen({ schema, shard })`. */
export type IdgenExtension = Extension<IdgenNamespace> & ((options?: IdgenOptions) => Extension<IdgenNamespace>);

const maxShard = 8191;

// quoteIdent: NAME as an SQL identifier, quoted.
function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}

// check: the options, refused at once (before any database starts) when wrong.
function check(options: IdgenOptions): { schema: string; shard: number | undefined } {
  const schema = options.schema ?? 'public';
  if (typeof schema !== 'string' || schema === '' || schema.includes('\0') || new TextEncoder().encode(schema).length > 63) {
    throw new TypeError(`idgen: schema must be a name of 1 to 63 bytes, got ${JSON.stringify(schema)}`);
  }
  const shard = options.shard;
  if (shard !== undefined && !(Number.isInteger(shard) && shard >= 0 && shard <= maxShard)) {
    throw new RangeError(`idgen: shard must be an integer from 0 to ${maxShard}, got ${String(shard)}`);
  }
  return { schema, shard };
}

// install: in one transaction, the SQL edition into SCHEMA unless it holds it
// already; returns whether it installed. A schema holding another version, or
// idgen's functions without a version, is refused (nothing is changed).
async function install(tx: Transaction, schema: string, version: string, script: string): Promise<boolean> {
  const q = quoteIdent(schema);
  const found = await tx.query<{ has_version: boolean; has_edition: boolean }>(
    'SELECT pg_catalog.to_regprocedure($1) IS NOT NULL AS has_version, pg_catalog.to_regprocedure($2) IS NOT NULL AS has_edition',
    [`${q}.idgen_sql_version()`, `${q}.uuid_v7()`],
  );
  const row = found.rows[0];
  if (row?.has_version) {
    const installed = (await tx.query<{ v: string }>(`SELECT ${q}.idgen_sql_version() AS v`)).rows[0]?.v;
    if (installed === version) return false;
    throw new Error(
      `idgen: schema ${q} holds the SQL edition ${String(installed)}, and this package installs ${version}; ` +
        'the SQL edition has no upgrade script: keep the package that installed it, or move the data to a new database',
    );
  }
  if (row?.has_edition) {
    throw new Error(`idgen: schema ${q} holds a uuid_v7() that is not the SQL edition ${version} (no idgen_sql_version()); choose another schema`);
  }
  await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${q}`);
  await tx.query("SELECT pg_catalog.set_config('search_path', $1, true)", [q]);
  await tx.exec(script);
  await tx.exec('RESET search_path');
  const after = (await tx.query<{ v: string }>(`SELECT ${q}.idgen_sql_version() AS v`)).rows[0]?.v;
  if (after !== version) throw new Error(`idgen: the installed SQL edition reports version ${String(after)}, expected ${version}`);
  return true;
}

// configure: the extension object for OPTIONS.
function configure(options: IdgenOptions = {}): Extension<IdgenNamespace> {
  const { schema, shard } = check(options);
  return {
    name: 'idgen',
    setup: async (pg: PGliteInterface, _emscriptenOpts: unknown, clientOnly?: boolean) => {
      const state = { schema, version: '', shard, installedNow: false };
      const namespaceObj: IdgenNamespace = {
        schema,
        shard,
        get version() { return state.version; },
        get installedNow() { return state.installedNow; },
      };
      // A PGliteWorker's client side: the worker installs.
      if (clientOnly) return { namespaceObj };
      return {
        namespaceObj,
        init: async () => {
          const edition = await import('./idgen-sql.js');
          state.version = edition.version;
          state.installedNow = await pg.transaction((tx) => install(tx, schema, edition.version, edition.script));
          if (shard !== undefined) {
            await pg.query("SELECT pg_catalog.set_config('idgen.shard_id', $1, false)", [String(shard)]);
          }
        },
      };
    },
  };
}

/** The PGlite extension: `extensions: { idgen }`, or `extensions: { idgen: idgen({ schema: 'ids', shard: 3 }) }`. */
function idgenFactory(options?: IdgenOptions): Extension<IdgenNamespace> {
  return configure(options);
}
// name is a function's own read-only property: defined, not assigned
Object.defineProperty(idgenFactory, 'name', { value: 'idgen' });
Object.defineProperty(idgenFactory, 'setup', { value: configure().setup, enumerable: true });
export const idgen = idgenFactory as unknown as IdgenExtension;

export default idgen;
