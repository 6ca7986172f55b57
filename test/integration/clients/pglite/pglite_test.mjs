// idgen's PGlite extension (clients/node, `idgen/pglite`, installed from the
// package's tarball) in PGlite in Node, against the C++ edition on the
// suite's server (PG* environment: a database with CREATE EXTENSION idgen).
//
//   node pglite_test.mjs TMPDIR          (IDGEN_REPO: the checkout, for test/data and test/lib)
//
// Checks: options refused at once; the SQL edition installed by the extension
// into a schema of the caller's choice, its version; every family mints, and
// the server's C++ edition decodes the minted IDs alike; the function and
// cast lists differ from the C++ edition's only as
// test/data/sql_edition_known_diffs.txt says; the refusals of
// test/data/sql_edition_refusals.tsv alike (SQLSTATE, message, detail, hint);
// every case of test/data/id_vectors.json (one verdict a family);
// deterministic encoders, decoders and boundaries on the same fixed inputs
// (N values per family, default 10,000) alike; persistence: a data directory
// closed and reopened is not installed again, keeps its state, and its
// snowflakes and session-monotonic IDs neither repeat nor go back; another
// version in the schema is refused. Prints its plan, then one verdict a line
// (test/lib/verdicts.mjs), which pglite.pl turns into checks.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { idgen } from 'idgen/pglite';
import { note, ok, plan } from './verdicts.mjs';  // test/lib's, copied beside it

const here = dirname(fileURLToPath(import.meta.url));
const repo = process.env.IDGEN_REPO ?? join(here, '..', '..', '..', '..');  // (run from a copy: IDGEN_REPO)
const tmp = process.argv[2];
const n = Number(process.env.PGLITE_DIFF_N ?? 10000);
const version = process.env.IDGEN_VERSION;

// The vectors file's cases, as test/lib/sql_edition_vectors.py puts them for
// the SQL edition in schema ids and the C++ edition in the server's search_path.
const vectorsScript = join(repo, 'test/lib/sql_edition_vectors.py');
const vectors = JSON.parse(execFileSync('python3', [vectorsScript, 'cases', 'ids', ''], { encoding: 'utf8' }));

// The verdicts, counted before the first: the vectors file's and the differential's families below.
const families = ['uuid', 'ulid text', 'snowflake', 'snowflake53', 'bigint base36', 'prefixed_id text', 'typeid text', 'boundaries', '12 bytes'];
plan(8 + vectors.verdicts + families.length + 8);

// --- options ------------------------------------------------------------------
const refused = (f) => { try { f(); return 'accepted'; } catch (e) { return e.constructor.name; } };
ok(refused(() => idgen({ shard: 8192 })) === 'RangeError' && refused(() => idgen({ shard: 1.5 })) === 'RangeError'
  && refused(() => idgen({ shard: -1 })) === 'RangeError' && refused(() => idgen({ shard: 8191 })) === 'accepted',
  'idgen({ shard }) takes 0 to 8191 and refuses 8192, -1 and 1.5 at once (RangeError)');
ok(refused(() => idgen({ schema: '' })) === 'TypeError' && refused(() => idgen({ schema: 'x'.repeat(64) })) === 'TypeError',
  'idgen({ schema }) refuses an empty name and one over 63 bytes at once (TypeError)');

// --- install, in memory -------------------------------------------------------
const server = new pg.Client();
await server.connect();
await server.query("SET TimeZone = 'UTC'; SET idgen.allowed_shards = '0-8191'");
let started = Date.now();
const db = await PGlite.create({ extensions: { idgen: idgen({ schema: 'ids', shard: 7 }) } });
note(`PGlite with idgen started in ${Date.now() - started} ms (in memory, initdb included)`);
await db.exec("SET TimeZone = 'UTC'");
const one = async (sql, params) => Object.values((await db.query(sql, params)).rows[0] ?? {})[0];
ok(db.idgen.installedNow === true && db.idgen.schema === 'ids' && db.idgen.version === version
  && await one('SELECT ids.idgen_sql_version()') === version,
  `PGlite.create({ extensions: { idgen: idgen({ schema: 'ids' }) } }) installs the SQL edition ${version} into schema ids`);
ok(await one("SELECT current_setting('idgen.shard_id')") === '7' && await one('SELECT ids.snowflake_shard(ids.snowflake())') === 7
  && await one('SELECT ids.snowflake53_shard(ids.snowflake53())') === 7,
  'the shard option sets idgen.shard_id: snowflake() and snowflake53() mint on shard 7 without an argument');
ok(await one("SELECT count(*)::int FROM pg_proc WHERE pronamespace = 'ids'::regnamespace AND obj_description(oid, 'pg_proc') IS NULL") === 0
  && await one("SELECT count(*)::int FROM pg_proc WHERE pronamespace = 'public'::regnamespace") === 0,
  'every function in ids has a comment, and public got none');

// Every family mints N IDs in PGlite; the server's C++ edition decodes them alike.
const mint = {
  uuid_v7: ['ids.uuid_v7()::text', 'ids.uuid_v7_time(x::uuid)', 'uuid_v7_time(x::uuid)'],
  snowflake: ['ids.snowflake(g % 8192)::text', "concat_ws(' ', ids.snowflake_time(x::bigint), ids.snowflake_shard(x::bigint), ids.snowflake_seq(x::bigint))",
    "concat_ws(' ', snowflake_time(x::bigint), snowflake_shard(x::bigint), snowflake_seq(x::bigint))"],
  snowflake53: ['ids.snowflake53(g % 16)::text', "concat_ws(' ', ids.snowflake53_time(x::bigint), ids.snowflake53_shard(x::bigint), ids.snowflake53_seq(x::bigint))",
    "concat_ws(' ', snowflake53_time(x::bigint), snowflake53_shard(x::bigint), snowflake53_seq(x::bigint))"],
  ulid: ['ids.ulid_to_text(ids.ulid())', "concat_ws(' ', ids.ulid_time(ids.ulid_from_text(x)), ids.ulid_from_text(x))", "concat_ws(' ', ulid_time(x::ulid), x::ulid::uuid)"],
  prefixed_id: ["ids.prefixed_id_new('acct')::text", "concat_ws(' ', ids.prefixed_id_time(x), ids.prefixed_id_uuid(x))", "concat_ws(' ', prefixed_id_time(x::prefixed_id), x::prefixed_id::uuid)"],
  typeid: ["ids.typeid_new('user')::text", "concat_ws(' ', ids.typeid_time(x), ids.typeid_uuid(x))", "concat_ws(' ', typeid_time(x::typeid), x::typeid::uuid)"],
  prefixed_id_token: ["ids.prefixed_id_token('tok')::text", "concat_ws(' ', ids.prefixed_id_time(x), ids.prefixed_id_uuid(x))", "concat_ws(' ', prefixed_id_time(x::prefixed_id), x::prefixed_id::uuid)"],
  uuid_v6: ['ids.uuid_v6()::text', 'ids.uuid_v6_time(x::uuid)', 'uuid_v6_time(x::uuid)'],
  ksuid: ['ids.ksuid_to_text(ids.ksuid())', "concat_ws(' ', ids.ksuid_time(ids.ksuid_from_text(x)), encode(ids.ksuid_payload(ids.ksuid_from_text(x)), 'hex'))",
    "concat_ws(' ', ksuid_time(x::ksuid), encode(ksuid_payload(x::ksuid), 'hex'))"],
  objectid: ['ids.objectid_to_text(ids.objectid())',
    "concat_ws(' ', ids.objectid_time(ids.objectid_from_text(x)), encode(ids.objectid_process(ids.objectid_from_text(x)), 'hex'), ids.objectid_counter(ids.objectid_from_text(x)), encode(ids.objectid_from_text(x), 'hex'))",
    "concat_ws(' ', objectid_time(x::objectid), encode(objectid_process(x::objectid), 'hex'), objectid_counter(x::objectid), encode(x::objectid::bytea, 'hex'))"],
  xid: ['ids.rsxid_to_text(ids.xid())',
    "concat_ws(' ', ids.xid_time(ids.rsxid_from_text(x)), encode(ids.xid_machine(ids.rsxid_from_text(x)), 'hex'), ids.xid_pid(ids.rsxid_from_text(x)), ids.xid_counter(ids.rsxid_from_text(x)), encode(ids.rsxid_from_text(x), 'hex'))",
    "concat_ws(' ', xid_time(x::rsxid), encode(xid_machine(x::rsxid), 'hex'), xid_pid(x::rsxid), xid_counter(x::rsxid), encode(x::rsxid::bytea, 'hex'))"],
};
const over = (expr) => `SELECT string_agg(coalesce((${expr})::text, 'NULL'), E'\\n' ORDER BY n) AS r FROM pg_catalog.string_to_table($1, E'\\n') WITH ORDINALITY AS t(x, n)`;
const bad = [];
for (const [family, [make, sqlDecode, cppDecode]] of Object.entries(mint)) {
  const ids = (await db.query(`SELECT string_agg(id, E'\\n' ORDER BY g) AS r FROM (SELECT g, ${make} AS id FROM generate_series(1, ${n}) g) s`)).rows[0].r;
  const list = ids.split('\n');
  const here = (await db.query(over(sqlDecode), [ids])).rows[0].r;
  const there = (await server.query(over(cppDecode), [ids])).rows[0].r;
  const distinct = new Set(list).size === n;
  const ordered = !['uuid_v7', 'uuid_v6', 'ulid', 'ksuid', 'prefixed_id', 'typeid'].includes(family) || list.every((v, i) => i === 0 || v > list[i - 1]);
  if (!(distinct && ordered && here === there)) {
    bad.push(`${family}: distinct ${distinct}, increasing ${ordered}, decoded alike ${here === there}`);
  }
}
ok(bad.length === 0, `every family mints ${n} distinct IDs in PGlite (uuid_v7, uuid_v6, ulid, ksuid, prefixed_id, typeid increasing), and the C++ edition on the server decodes each as the SQL edition does (time, shard, sequence, bits)`, bad.join('\n'));

// The function and cast lists, against the known differences.
const labelsSql = `SELECT format('%s(%s) %s%s%s%s', p.proname, replace(replace(pg_get_function_identity_arguments(p.oid), '$1.', ''), '$2.', ''),
       CASE p.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
       CASE WHEN p.proisstrict THEN ' STRICT' ELSE '' END,
       CASE p.proparallel WHEN 's' THEN ' SAFE' WHEN 'r' THEN ' RESTRICTED' ELSE ' UNSAFE' END,
       CASE WHEN obj_description(p.oid, 'pg_proc') IS NULL THEN ' NO-COMMENT' ELSE '' END) AS l
FROM pg_proc p WHERE p.pronamespace = $1::regnamespace AND p.prokind = 'f' AND p.proname !~ '^idgen_sql_'
UNION ALL
SELECT replace(format('cast %s -> %s %s', format_type(castsource, NULL), format_type(casttarget, NULL),
       CASE castcontext WHEN 'i' THEN 'IMPLICIT' WHEN 'a' THEN 'ASSIGNMENT' ELSE 'EXPLICIT' END), $1 || '.', '')
FROM pg_cast WHERE EXISTS (SELECT 1 FROM pg_type t WHERE t.oid IN (castsource, casttarget) AND t.typnamespace = $1::regnamespace)`;
const cppSchema = await server.query("SELECT extnamespace::regnamespace::text AS s FROM pg_extension WHERE extname = 'idgen'");
await db.exec('SET search_path = ids');
const sqlList = new Set((await db.query(labelsSql, ['ids'])).rows.map((r) => r.l));
await db.exec('RESET search_path');
await server.query(`SET search_path = ${cppSchema.rows[0].s}`);
const cppList = new Set((await server.query(labelsSql, [cppSchema.rows[0].s])).rows.map((r) => r.l));
const diffs = new Set([...[...cppList].filter((l) => !sqlList.has(l)).map((l) => `only C++: ${l}`),
  ...[...sqlList].filter((l) => !cppList.has(l)).map((l) => `only SQL: ${l}`)]);
const known = new Set(readFileSync(join(repo, 'test/data/sql_edition_known_diffs.txt'), 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#')));
const unexpected = [...diffs].filter((d) => !known.has(d)).sort();
const gone = [...known].filter((d) => !diffs.has(d)).sort();
ok(unexpected.length === 0 && gone.length === 0 && sqlList.size > 40,
  `the function and cast lists in PGlite differ from the C++ edition's only as test/data/sql_edition_known_diffs.txt says (${known.size} lines, ${sqlList.size} SQL-edition entries)`,
  [...unexpected.map((d) => `new difference: ${d}`), ...gone.map((d) => `listed difference no longer seen: ${d}`)].join('\n'));

// The refusals: SQLSTATE, message, detail and hint alike.
const errSql = `CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE st text; m text; d text; h text;
BEGIN EXECUTE q; RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
    RETURN concat_ws(' | ', st, m, d, h); END $$`;
await db.exec(errSql);
await server.query(errSql);
// PGlite is PostgreSQL 18: before 17 the server reads no 'infinity' interval
// (22007 before either edition is called), so those refusals are compared
// from 17 on only.
const serverMajor = Math.floor(Number((await server.query('SHOW server_version_num')).rows[0].server_version_num) / 10000);
const allRefusals = readFileSync(join(repo, 'test/data/sql_edition_refusals.tsv'), 'utf8').split('\n')
  .filter((l) => /^[0-9]+\t/.test(l)).map((l) => l.split('\t').slice(1).join('\t'));
const refusals = allRefusals.filter((q) => serverMajor >= 17 || !q.includes("'infinity'::interval"));
if (refusals.length < allRefusals.length) note(`${allRefusals.length - refusals.length} refusals with an infinite interval not compared: the server is PostgreSQL ${serverMajor}`);
const refusedDiff = [];
const states = [];
for (const q of refusals) {
  const s = await one('SELECT pg_temp.err($1)', [q.replaceAll('@', 'ids.')]);
  const c = (await server.query('SELECT pg_temp.err($1) AS r', [q.replaceAll('@', '')])).rows[0].r;
  states.push(s.slice(0, 5));
  if (s !== c) refusedDiff.push(`${q}\n  C++: ${c}\n  PGlite: ${s}`);
}
ok(refusals.length >= 30 && refusedDiff.length === 0 && !states.includes('accep'),
  `${refusals.length} refusals of test/data/sql_edition_refusals.tsv: the same SQLSTATE, message, detail and hint in PGlite as in the C++ edition`,
  refusedDiff.join('\n'));
// Every case of test/data/id_vectors.json, read now, through the entry points
// each family has (test/lib/sql_edition_vectors.py, which judges the answers):
// the file's answers in PGlite, and its refused inputs refused as the C++
// edition on the server refuses them.
await db.exec(vectors.answer_function);
await server.query(vectors.answer_function);
const sqlAnswers = JSON.parse(await one(vectors.answers, [JSON.stringify(vectors.sql)]));
const cppAnswers = JSON.parse((await server.query(vectors.answers, [JSON.stringify(vectors.cpp)])).rows[0].answers);
process.stdout.write(execFileSync('python3', [vectorsScript, 'judge'],
  { input: JSON.stringify({ sql: sqlAnswers, cpp: cppAnswers }), encoding: 'utf8' }));

// --- differential: fixed inputs, both editions -------------------------------
// A fixed generator (SplitMix64), so that every run checks the same inputs.
let seed = 0x1d9e1a5e5eedn;
const mask64 = (1n << 64n) - 1n;
function next64() {
  seed = (seed + 0x9e3779b97f4a7c15n) & mask64;
  let z = seed;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask64;
  return z ^ (z >> 31n);
}
const hex = (v, digits) => v.toString(16).padStart(digits, '0');
const uuidOf = (hi, lo) => { const h = hex(hi, 16) + hex(lo, 16); return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`; };
const uuids = [];
for (let i = 0; i < n; i++) {
  let hi = next64(), lo = next64();
  if (i % 2 === 0) { hi = (hi & ~0xf000n) | 0x7000n; lo = (lo & ~(3n << 62n)) | (2n << 62n); }  // half of them UUIDv7
  if (i % 5 === 0) hi = (hi & 0xffffn) | (BigInt(i) << 16n);                                   // early and small times too
  uuids.push(uuidOf(hi, lo));
}
uuids.push('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '01890a5d-ac96-774b-bcce-b302099a8057');
const sf = [9007199254740992n, 9223372036854775807n];      // snowflake: 2^53 .. 2^63 - 1
const sf53 = [0n, 9007199254740991n];                      // snowflake53: 0 .. 2^53 - 1
const big = [0n, 9223372036854775807n];
for (let i = 0; i < n; i++) {
  const r = next64() >> 1n;
  sf.push(r < 9007199254740992n ? r + 9007199254740992n : r);
  sf53.push(next64() >> 11n);
  big.push(r >> BigInt(i % 63));
}
// 12-byte values (objectid, rsxid), in hex: random, then the edges
const bytes12 = ['000000000000000000000000', 'ffffffffffffffffffffffff'];
for (let i = 0; i < n; i++) bytes12.push(hex(next64(), 16) + hex(next64() >> 32n, 8));
const epochMs = 1704067200000;
const times = [];
for (let i = 0; i < n; i++) {
  // instants of 2024-01-14 .. 2053, to the microsecond, some on millisecond edges (snowflake53 from
  // 2020 ends in 2054, snowflake from 2024 in 2058)
  const us = BigInt(epochMs + 2 ** 30 + 1000) * 1000n + (next64() % 914161375176000n);
  const t = i % 4 === 0 ? (us / 1000n) * 1000n - BigInt(i % 3) : us;
  times.push(new Date(Number(t / 1000n)).toISOString().replace('Z', '') + String(t % 1000n).padStart(3, '0') + '+00');
}
const cases = {
  uuid: [uuids, 'x::uuid',
    "concat_ws(' ', ids.uuid_v7_time(v), ids.ulid_to_text(v), ids.ulid_time(v), ids.base36_encode(v), ids.prefixed_id_from_uuid('acct', v), ids.typeid_from_uuid('user', v), ids.typeid_from_uuid('', v))",
    "concat_ws(' ', uuid_v7_time(v), v::ulid, ulid_time(v::ulid), base36_encode(v), prefixed_id_from_uuid('acct', v), typeid_from_uuid('user', v), typeid_from_uuid('', v))"],
  'ulid text': [null, 'x', "concat_ws(' ', ids.ulid_from_text(v), ids.ulid_from_text(lower(v)), ids.ulid_to_text(ids.ulid_from_text(v)))",
    "concat_ws(' ', v::ulid::uuid, lower(v)::ulid::uuid, v::ulid)"],
  snowflake: [sf, 'x::bigint',
    "concat_ws(' ', ids.snowflake_time(v), ids.snowflake_shard(v), ids.snowflake_seq(v), ids.snowflake_time(v, '2020-01-01+00'), ids.base36_encode(v))",
    "concat_ws(' ', snowflake_time(v), snowflake_shard(v), snowflake_seq(v), snowflake_time(v, '2020-01-01+00'), base36_encode(v))"],
  snowflake53: [sf53, 'x::bigint',
    "concat_ws(' ', ids.snowflake53_time(v), ids.snowflake53_shard(v), ids.snowflake53_seq(v), ids.snowflake53_time(v, '2020-01-01+00'))",
    "concat_ws(' ', snowflake53_time(v), snowflake53_shard(v), snowflake53_seq(v), snowflake53_time(v, '2020-01-01+00'))"],
  'bigint base36': [big, 'x::bigint', "concat_ws(' ', ids.base36_encode(v), ids.base36_decode_bigint(ids.base36_encode(v)))",
    "concat_ws(' ', base36_encode(v), base36_decode_bigint(base36_encode(v)))"],
  'prefixed_id text': [null, 'x', "concat_ws(' ', ids.prefixed_id_uuid(v), ids.prefixed_id_prefix(v), ids.prefixed_id_time(v), ids.base36_decode(substring(v from '[^_]*$')))",
    "concat_ws(' ', v::prefixed_id::uuid, prefixed_id_prefix(v::prefixed_id), prefixed_id_time(v::prefixed_id), base36_decode(substring(v from '[^_]*$')))"],
  'typeid text': [null, 'x', "concat_ws(' ', ids.typeid_uuid(v), ids.typeid_prefix(v), ids.typeid_time(v), CASE WHEN ids.typeid_prefix(v) <> '' THEN ids.typeid_to_prefixed_id(v) END)",
    "concat_ws(' ', v::typeid::uuid, typeid_prefix(v::typeid), typeid_time(v::typeid), CASE WHEN typeid_prefix(v::typeid) <> '' THEN (v::typeid::prefixed_id)::text END)"],
  boundaries: [times, 'x::timestamptz',
    "concat_ws(' ', ids.uuid_v7_boundary(v), ids.ulid_boundary(v), ids.snowflake_boundary(v, 77), ids.snowflake_boundary(v), ids.snowflake53_boundary(v, 3, '2020-01-01+00'), ids.prefixed_id_boundary('acct', v), ids.typeid_boundary('user', v))",
    "concat_ws(' ', uuid_v7_boundary(v), ulid_boundary(v)::uuid, snowflake_boundary(v, 77), snowflake_boundary(v), snowflake53_boundary(v, 3, '2020-01-01+00'), prefixed_id_boundary('acct', v), typeid_boundary('user', v))"],
  '12 bytes': [bytes12, "decode(x, 'hex')",
    "concat_ws(' ', ids.objectid_to_text(v), ids.objectid_from_text(upper(ids.objectid_to_text(v))), ids.objectid_time(v), encode(ids.objectid_process(v), 'hex'), ids.objectid_counter(v), "
      + "ids.rsxid_to_text(v), ids.rsxid_from_text(ids.rsxid_to_text(v)), ids.xid_time(v), encode(ids.xid_machine(v), 'hex'), ids.xid_pid(v), ids.xid_counter(v), "
      + "ids.objectid_boundary(ids.xid_time(v)), ids.xid_boundary(ids.objectid_time(v)))",
    "concat_ws(' ', objectid_from_bytea(v), upper(objectid_from_bytea(v)::text)::objectid::bytea, objectid_time(objectid_from_bytea(v)), encode(objectid_process(objectid_from_bytea(v)), 'hex'), objectid_counter(objectid_from_bytea(v)), "
      + "rsxid_from_bytea(v), rsxid_from_bytea(v)::text::rsxid::bytea, xid_time(rsxid_from_bytea(v)), encode(xid_machine(rsxid_from_bytea(v)), 'hex'), xid_pid(rsxid_from_bytea(v)), xid_counter(rsxid_from_bytea(v)), "
      + "objectid_boundary(xid_time(rsxid_from_bytea(v)))::bytea, xid_boundary(objectid_time(objectid_from_bytea(v)))::bytea)"],
};
// Text inputs: the C++ edition's text of the fixed uuids, read back by both.
const cppText = async (expr) => (await server.query(over(expr.replaceAll('v', 'x::uuid')), [uuids.join('\n')])).rows[0].r.split('\n');
cases['ulid text'][0] = await cppText('v::ulid::text');
cases['prefixed_id text'][0] = [...await cppText("prefixed_id_from_uuid('acct', v)::text"), ...(await cppText("prefixed_id_from_uuid('user_session', v)::text")).slice(0, n / 10)];
cases['typeid text'][0] = [...await cppText("typeid_from_uuid('user', v)::text"), ...(await cppText("typeid_from_uuid('', v)::text")).slice(0, n / 10)];
await db.exec("SET idgen.shard_id = '7'");
await server.query("SET idgen.shard_id = '7'");
for (const family of families) {
  const [inputs, cast, sqlExpr, cppExpr] = cases[family];
  const text = inputs.map(String).join('\n');
  const wrap = (e) => over(`(SELECT ${e} FROM (SELECT ${cast} AS v) i)`);
  started = Date.now();
  const here = (await db.query(wrap(sqlExpr), [text])).rows[0].r.split('\n');
  const ms = Date.now() - started;
  const there = (await server.query(wrap(cppExpr), [text])).rows[0].r.split('\n');
  const differ = here.map((v, i) => (v === there[i] ? null : `${inputs[i]}\n  C++:    ${there[i]}\n  PGlite: ${v}`)).filter((d) => d !== null);
  ok(here.length === inputs.length && here.length >= n && differ.length === 0 && !here.includes('NULL'),
    `differential ${family}: ${inputs.length} fixed inputs encoded and decoded alike in PGlite (SQL edition) and the C++ edition`,
    `PGlite took ${ms} ms; ${differ.length} differ:\n` + differ.slice(0, 5).join('\n'));
}
await db.close();
await server.end();

// --- persistence: a data directory, closed and reopened -----------------------
const dataDir = join(tmp, 'pglite-data');
const families6 = { snowflake: 'ids.snowflake()::text', snowflake53: 'ids.snowflake53()::text', uuid_v7: 'ids.uuid_v7()::text',
  ulid: 'ids.ulid_to_text(ids.ulid())', prefixed_id: "ids.prefixed_id_new('acct')::text", typeid: "ids.typeid_new('user')::text" };
const numeric = new Set(['snowflake', 'snowflake53']);
const mintAll = async (p) => {
  const out = {};
  for (const [f, expr] of Object.entries(families6)) {
    out[f] = (await p.query(`SELECT ${expr} AS id FROM generate_series(1, 1000) ORDER BY 1`)).rows.map((r) => r.id);
  }
  await p.exec('INSERT INTO kept SELECT ids.snowflake() FROM generate_series(1, 10)');
  return out;
};
started = Date.now();
let p1 = await PGlite.create(dataDir, { extensions: { idgen: idgen({ schema: 'ids', shard: 9 }) } });
await p1.exec('CREATE TABLE kept (id bigint PRIMARY KEY)');
const first = await mintAll(p1);
const objects = await p1.query("SELECT count(*)::int AS c FROM pg_proc WHERE pronamespace = 'ids'::regnamespace");
const installedFirst = p1.idgen.installedNow;
await p1.close();
const p2 = await PGlite.create(dataDir, { extensions: { idgen: idgen({ schema: 'ids', shard: 9 }) } });
ok(installedFirst === true && p2.idgen.installedNow === false && p2.idgen.version === version
  && (await p2.query("SELECT count(*)::int AS c FROM pg_proc WHERE pronamespace = 'ids'::regnamespace")).rows[0].c === objects.rows[0].c,
  'reopened, the data directory keeps the edition: not installed again (installedNow false), the same functions, the version checked');
const second = await mintAll(p2);
const regress = [];
for (const f of Object.keys(families6)) {
  const cmp = numeric.has(f) ? (a, b) => BigInt(a) > BigInt(b) : (a, b) => a > b;
  const lastBefore = first[f].reduce((m, v) => (cmp(v, m) ? v : m));
  const all = new Set([...first[f], ...second[f]]);
  const behind = second[f].filter((v) => !cmp(v, lastBefore));
  if (all.size !== 2000 || behind.length) regress.push(`${f}: ${2000 - all.size} repeated, ${behind.length} not above ${lastBefore}`);
}
ok(regress.length === 0,
  'after close and reopen of the data directory, snowflake, snowflake53, uuid_v7, ulid, prefixed_id and typeid: 1,000 IDs each, none repeats one of the 1,000 before, none is below them',
  regress.join('\n'));
ok((await p2.query('SELECT count(*)::int AS c FROM kept')).rows[0].c === 20,
  'a table keyed by snowflake() took 10 rows before and 10 after the reopen (no key conflict)');
// Another version in the schema: the next start refuses, and changes nothing.
await p2.exec("CREATE OR REPLACE FUNCTION ids.idgen_sql_version() RETURNS text LANGUAGE sql IMMUTABLE RETURN '0.0.1'");
await p2.close();
let refusal = '';
try { const p3 = await PGlite.create(dataDir, { extensions: { idgen: idgen({ schema: 'ids' }) } }); await p3.close(); } catch (e) { refusal = String(e.message); }
ok(/schema "ids" holds the SQL edition 0\.0\.1, and this package installs/.test(refusal),
  'a data directory whose schema holds another version of the edition is refused at start, naming both versions', refusal);
// A schema with a uuid_v7() of its own is refused; public (the default) takes the edition.
const p4 = await PGlite.create(dataDir, { extensions: { idgen: idgen({ schema: 'other' }) } }).catch((e) => e);
ok(p4 instanceof PGlite && p4.idgen.installedNow && (await p4.query("SELECT other.snowflake_shard(other.snowflake(3)) AS s")).rows[0].s === 3,
  'the same data directory takes a second install in another schema (other), minting on its own state', String(p4?.message ?? ''));
if (p4 instanceof PGlite) {
  await p4.exec("DROP SCHEMA other CASCADE; CREATE SCHEMA other; CREATE FUNCTION other.uuid_v7() RETURNS uuid LANGUAGE sql RETURN gen_random_uuid()");
  await p4.close();
}
const p5 = await PGlite.create(dataDir, { extensions: { idgen: idgen({ schema: 'other' }) } }).catch((e) => e);
ok(p5 instanceof Error && /holds a uuid_v7\(\) that is not the SQL edition/.test(p5.message),
  'a schema holding a uuid_v7() that is not the edition is refused at start', String(p5?.message ?? p5));
note(`persistence part took ${Date.now() - started} ms`);

// --- docs/browser.md's Node example, as shown: a directory, and ulid's text ----
process.chdir(tmp);
// README browser begins
// in Node: a directory, created if missing
const app = await PGlite.create('./my-app-data', {
  extensions: { idgen: idgen({ schema: 'ids', shard: 12 }) },
});
const { rows } = await app.query(`SELECT ids.ulid_to_text(ids.ulid()) AS ulid,
  ids.ulid()::text AS ulid_as_uuid`);
// README browser ends
const installedInDir = app.idgen.installedNow;
await app.close();
const reopened = await PGlite.create('./my-app-data', { extensions: { idgen: idgen({ schema: 'ids', shard: 12 }) } });
ok(installedInDir === true && existsSync(join(tmp, 'my-app-data', 'PG_VERSION')) && reopened.idgen.installedNow === false
  && (await reopened.query('SELECT ids.snowflake_shard(ids.snowflake()) AS s')).rows[0].s === 12,
  "docs/browser.md's Node example runs as shown: PGlite.create('./my-app-data') keeps the database in that directory, the edition installed once (not again when reopened), minting on shard 12");
await reopened.close();
ok(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(rows[0]?.ulid ?? '')
  && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(rows[0]?.ulid_as_uuid ?? ''),
  "as docs/browser.md says: in the SQL edition a ulid's own text is uuid text, ulid_to_text() gives its 26-character ULID text",
  JSON.stringify(rows));
