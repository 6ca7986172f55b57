#!/usr/bin/env node
// idgen-drizzle [--config FILE]: fills the newest migration of a drizzle-kit
// project, an empty one from `drizzle-kit generate --custom`, with
// CREATE EXTENSION and the define of each domain that the schema's
// prefixedId() and typeid() columns use and no earlier migration defined.
// It reads the schema and the migrations folder from the drizzle config, as
// drizzle-kit does; TypeScript files load through tsx, drizzle-kit's own
// dependency, found from the current directory.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { idgenMigration, schemaDomains } from "./drizzle.js";

const CONFIGS = ["drizzle.config.ts", "drizzle.config.mts", "drizzle.config.cts", "drizzle.config.js", "drizzle.config.mjs", "drizzle.config.cjs"];
const MODULE = /\.[mc]?[jt]s$/;
const DEFINED = /\b(?:prefixed_id|typeid)_define\('([a-z_][a-z0-9_]*)'/g;

function fail(message: string): never {
  throw new Error(message);
}

// load(file): the module's exports, a TypeScript one's through tsx
async function load(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  if (!/\.[mc]?ts$/.test(file)) return import(url);
  // tsx's ESM entry point, as its package.json exports it (import.meta.resolve
  // takes no parent before Node 20.18 without a flag)
  let api: string;
  try {
    const manifest = createRequire(path.join(process.cwd(), "package.json")).resolve("tsx/package.json");
    const entry = JSON.parse(fs.readFileSync(manifest, "utf8")).exports["./esm/api"].import.default;
    api = path.join(path.dirname(manifest), entry);
  } catch {
    fail(`${file} is TypeScript and tsx (which drizzle-kit installs) is not found from ${process.cwd()}: install tsx`);
  }
  const { tsImport } = await import(pathToFileURL(api).href);
  return tsImport(url, { parentURL: import.meta.url });
}

// schemaFiles(schema): the files of the config's schema (files or folders)
function schemaFiles(schema: unknown): string[] {
  const entries = typeof schema === "string" ? [schema] : Array.isArray(schema) ? schema : fail("the drizzle config has no schema");
  const files: string[] = [];
  for (const entry of entries) {
    if (typeof entry !== "string") fail("the drizzle config's schema is not a path or a list of paths");
    if (/[*?{[]/.test(entry)) fail(`the schema path ${entry} is a glob: list its files or its folder instead`);
    const full = path.resolve(entry);
    if (!fs.existsSync(full)) fail(`the schema ${entry} does not exist`);
    if (fs.statSync(full).isDirectory())
      for (const name of (fs.readdirSync(full, { recursive: true }) as string[]).sort())
        if (MODULE.test(name) && !/\.d\.[mc]?ts$/.test(name)) files.push(path.join(full, name));
    if (fs.statSync(full).isFile()) files.push(full);
  }
  return files;
}

async function main(args: string[]): Promise<void> {
  if (args.length > 2 || (args.length > 0 && args[0] !== "--config") || args.length === 1)
    fail("usage: idgen-drizzle [--config FILE]");
  const configFile = args[1] ?? CONFIGS.find((name) => fs.existsSync(name)) ?? fail(`no ${CONFIGS.join(", ")} here: give --config FILE`);
  const loaded = await load(path.resolve(configFile));
  const config = (loaded.default ?? loaded) as { schema?: unknown; out?: unknown };
  const modules = [];
  for (const file of schemaFiles(config.schema)) modules.push(await load(file));
  const out = typeof config.out === "string" ? config.out : "drizzle";
  const journalFile = path.join(out, "meta", "_journal.json");
  if (!fs.existsSync(journalFile)) fail(`${journalFile} does not exist: run drizzle-kit generate --custom --name idgen first`);
  const entries = (JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries?: { tag: string }[] }).entries ?? [];
  const last = entries.at(-1) ?? fail(`${journalFile} has no migration: run drizzle-kit generate --custom --name idgen first`);
  const target = path.join(out, `${last.tag}.sql`);
  const text = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
  if (text.split("\n").some((line) => line.trim() !== "" && !line.trim().startsWith("--")))
    fail(`${target}, the newest migration, is not an empty custom one: run drizzle-kit generate --custom --name idgen first`);
  // the domains that earlier migrations define are left out
  const defined = new Set<string>();
  for (const entry of entries.slice(0, -1)) {
    const file = path.join(out, `${entry.tag}.sql`);
    if (fs.existsSync(file)) for (const m of fs.readFileSync(file, "utf8").matchAll(DEFINED)) defined.add(m[1]!);
  }
  const domains = schemaDomains(...modules).filter((d) => !defined.has(d.type));
  fs.writeFileSync(target, idgenMigration(domains));
  const names = domains.map((d) => d.type).join(", ");
  console.log(`idgen-drizzle: ${target}: the extension and ${domains.length} domain(s)${names ? `: ${names}` : ""}`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`idgen-drizzle: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
