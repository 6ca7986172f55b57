// The package's declarations as an application's TypeScript meets them: one
// tsc --strict run over the Drizzle schema, the Kysely database (both then
// used by drizzle.test.mjs and kysely.test.mjs from .build/) and a file of
// mistyped uses, which must fail exactly where marked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const project = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const files = ['drizzle/schema.ts', 'drizzle/drizzle.config.ts', 'kysely/db.ts', 'kysely/documents.ts', 'typecheck/mistyped.ts'];

test('tsc --strict: the schema and database compile against the package\'s types; each marked mistyped use fails', () => {
  fs.rmSync(path.join(project, '.build'), { recursive: true, force: true });
  const r = spawnSync(path.join(project, 'node_modules/.bin/tsc'), ['--strict', '--noUncheckedIndexedAccess', '--target', 'ES2022',
    '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--skipLibCheck', '--rootDir', project,
    '--outDir', path.join(project, '.build'), ...files.map((f) => path.join(project, f))], { cwd: project, encoding: 'utf8' });
  const errors = r.stdout.split('\n').filter((l) => /error TS/.test(l));
  const lines = fs.readFileSync(path.join(project, 'typecheck/mistyped.ts'), 'utf8').split('\n');
  const marked = lines.map((l, i) => (/\/\/ error:/.test(l) ? i + 1 : 0)).filter(Boolean);
  const got = errors.map((l) => {
    const m = /^typecheck\/mistyped\.ts\((\d+),/.exec(l);
    return m ? Number(m[1]) : l;
  });
  assert.deepEqual(got, marked, r.stdout + r.stderr);
  for (const f of ['drizzle/schema.js', 'kysely/db.js', 'kysely/documents.js']) assert.ok(fs.existsSync(path.join(project, '.build', f)), f);
});
