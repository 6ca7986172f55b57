// Building the package in a checkout, as its README says, before and after
// `npm ci`: without the development dependencies, one line saying to run
// `npm ci` (it was a raw ENOENT from scripts/pglite-sql.mjs); with them,
// the same `npm pack` makes the tarball. The checkout is a copy of the
// package's sources under clients/node of a directory whose other entries
// link to the checkout's (the build reads sql/, src/ and the Makefile), so
// nothing is written in the real one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const source = process.env.IDGEN_NODE_PACKAGE;
const repo = source && path.resolve(source, '..', '..');

function checkout() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'idgen-checkout-'));
  const pkg = path.join(root, 'clients', 'node');
  fs.mkdirSync(pkg, { recursive: true });
  for (const f of ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'LICENSE', 'scripts', 'src']) {
    fs.cpSync(path.join(source, f), path.join(pkg, f), { recursive: true });
  }
  for (const f of fs.readdirSync(repo)) {
    if (f !== 'clients' && f !== '.git') fs.symlinkSync(path.join(repo, f), path.join(root, f));
  }
  return { root, pkg };
}

function npmPack(cwd) {
  return spawnSync('npm', ['pack', '--pack-destination', cwd], {
    cwd, encoding: 'utf8',
    env: { ...process.env, npm_config_cache: path.join(cwd, '.npm-cache'), npm_config_update_notifier: 'false' },
  });
}

test('npm pack in a checkout without npm ci: exit 1 and one line saying to run npm ci', { skip: !source && 'IDGEN_NODE_PACKAGE is unset (run by test/run.sh)' }, () => {
  const { root, pkg } = checkout();
  try {
    const r = npmPack(pkg);
    assert.notEqual(r.status, 0, r.stdout);
    assert.match(r.stderr, /pglite-sql: the development dependencies are not installed: run `npm ci` in this directory first/);
    assert.doesNotMatch(r.stderr, /ENOENT|at .*\.mjs:\d+/, r.stderr);
    assert.deepEqual(fs.readdirSync(pkg).filter((f) => f.endsWith('.tgz')), []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('npm pack in a checkout with the development dependencies: the tarball', { skip: !source && 'IDGEN_NODE_PACKAGE is unset (run by test/run.sh)' }, () => {
  const { root, pkg } = checkout();
  try {
    // what `npm ci` installs, as test/setup.sh installed it in the package
    fs.symlinkSync(path.join(source, 'node_modules'), path.join(pkg, 'node_modules'));
    const r = npmPack(pkg);
    assert.equal(r.status, 0, r.stderr);
    const version = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
    assert.ok(fs.existsSync(path.join(pkg, `idgen-${version}.tgz`)), r.stdout + r.stderr);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
