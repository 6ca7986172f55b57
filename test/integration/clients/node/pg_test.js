// Every idgen type through node-postgres (npm `pg`, pinned in package-lock.json).
//
// Text results and parameters, arrays (parsers registered for the array OIDs of
// ulid, prefixed_id, typeid and their domains), snowflakes read without
// precision loss, and snowflake53 IDs read as exact Numbers. Values must round-trip byte for byte: compared with the
// server's own text output and *_send() bytes. Connects with the PG* environment
// variables to a database that already has the extension. Prints its plan,
// then one verdict line per check, in test/lib/verdicts.py's format
// ("plan<TAB>N", "ok<TAB>what", "not ok<TAB>what", "#<TAB>note"), which
// node_pg.pl turns into TAP.
//
// The blocks between the README markers are docs/drivers.md's
// node-postgres snippets, verbatim.
'use strict';
const pg = require('pg');

// note(text): each line of text as a note.
function note(text) {
  for (const line of String(text).split('\n')) console.log(`#\t${line}`);
}

// plan(n): the plan line, before the first verdict: n verdicts follow.
function plan(n) {
  console.log(`plan\t${n}`);
}

// ok(cond, what, extra): one verdict, whitespace in what folded as verdicts.py's
// say() does; on a failure, extra follows it as a note.
function ok(cond, what, extra) {
  console.log(`${cond ? 'ok' : 'not ok'}\t${what.split(/\s+/).filter(Boolean).join(' ')}`);
  if (!cond && extra) note(extra);
}

// README snippet begins (snowflakes)
// A snowflake is about 7.7e17; a JavaScript Number is exact only up to
// Number.MAX_SAFE_INTEGER (2^53 - 1, about 9.0e15), and Number(id) rounds it
// silently (above 2^53 to a multiple of 2, above 2^59 to a multiple of 128).
// node-postgres returns bigint as a string by default: keep it a string, or
// parse it as a BigInt (and JSON.stringify needs it back as a string):
function useBigInt(client) {
  const int8Array = pg.types.getTypeParser(1016, 'text');  // bigint[] -> strings
  client.setTypeParser(20, BigInt);
  client.setTypeParser(1016, (s) => int8Array(s).map((v) => (v === null ? null : BigInt(v))));
}
function losesPrecision(idText) {
  return BigInt(Number(idText)) !== BigInt(idText);
}
// README snippet ends

// README snippet begins (snowflake53)
// snowflake53() IDs never exceed 2^53 - 1, so a Number holds them exactly, in
// JavaScript and in JSON. Parse bigint as a Number only where every bigint the
// connection reads is a snowflake53 or as small, and refuse anything larger
// rather than round it:
function useSafeNumbers(client) {
  client.setTypeParser(20, (text) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value)) throw new RangeError(`bigint ${text} does not fit a Number`);
    return value;
  });
}
// README snippet ends

// README snippet begins (idgen types and their arrays)
// ulid, prefixed_id and typeid (and domains of prefixed_id_define() and
// typeid_define()) arrive as their text, which is what applications use:
// 01ARZ3NDEKTSV4RRFFQ69G5FAV, acct_039srkj01e44uynszf2f2njh3, user_01h455vb4pex5vsknk084sn02q.
// Their arrays have OIDs node-postgres does not know, so it returns '{...}'
// unparsed; parse them as text[] (OID 1009) does:
async function registerIdgenArrays(client) {
  const { rows } = await client.query(
    `SELECT t.typarray FROM pg_type t
       LEFT JOIN pg_type b ON b.oid = t.typbasetype
      WHERE t.typname IN ('ulid', 'prefixed_id', 'typeid')
         OR b.typname IN ('prefixed_id', 'typeid')`);
  const textArray = pg.types.getTypeParser(1009, 'text');
  for (const { typarray } of rows) client.setTypeParser(typarray, textArray);
}
// README snippet ends

async function main() {
  // 15 snowflake checks, 4 for each of the 7 cases, then the unregistered array
  plan(15 + 4 * 7 + 1);
  const plain = new pg.Client();
  await plain.connect();
  await plain.query("SELECT prefixed_id_define('acct_id', 'acct'), typeid_define('user_id', 'user')");

  // Snowflakes: the default int8 parser returns a string, exactly the server's text.
  const sf = await plain.query(
    'SELECT id, id::text AS t FROM (SELECT snowflake(1) AS id FROM generate_series(1, 100)) s');
  ok(sf.rows.every((r) => typeof r.id === 'string' && r.id === r.t),
    'snowflake: the default int8 parser returns the exact server text as a string',
    JSON.stringify(sf.rows[0]));
  ok(sf.rows.every((r) => BigInt(r.id) > BigInt(Number.MAX_SAFE_INTEGER)),
    'snowflake: real snowflakes are above Number.MAX_SAFE_INTEGER');
  const odd = sf.rows.find((r) => BigInt(r.id) % 2n === 1n);
  ok(odd !== undefined && losesPrecision(odd.id),
    'snowflake: Number(id) loses precision for a real (odd) snowflake, and losesPrecision() detects it',
    odd && `${odd.id} -> ${Number(odd.id)}`);
  ok(new Set(sf.rows.map((r) => Number(r.id))).size < sf.rows.length,
    'snowflake: as Numbers, 100 distinct snowflakes of one statement collide');
  ok(!losesPrecision(String(Number.MAX_SAFE_INTEGER)) && losesPrecision('9007199254740993'),
    'losesPrecision(): false at 2^53 - 1, true at 2^53 + 1 (the check can fail both ways)');

  const big = new pg.Client();
  await big.connect();
  useBigInt(big);
  const b = await big.query(
    `SELECT id, id::text AS t, int8send(id) AS send, arr, arr::text[] AS arr_text
       FROM (SELECT snowflake(1) AS id) s,
            (SELECT array_agg(snowflake(2)) AS arr FROM generate_series(1, 5)) a`);
  const r = b.rows[0];
  ok(typeof r.id === 'bigint' && r.id === BigInt(r.t) && r.id.toString() === r.t,
    'snowflake: with setTypeParser(20, BigInt) it is a BigInt equal to the server text', `${r.id}`);
  const sendHex = r.id.toString(16).padStart(16, '0');
  ok(r.send.toString('hex') === sendHex,
    'snowflake: the BigInt has the bytes of int8send', `${r.send.toString('hex')} vs ${sendHex}`);
  ok(r.arr.length === 5 && r.arr.every((v, i) => typeof v === 'bigint' && v.toString() === r.arr_text[i]),
    'snowflake[]: an int8[] parser to BigInt keeps every element exact');
  const edge = await big.query("SELECT '{}'::bigint[] AS e, ARRAY[NULL, 9223372036854775807]::bigint[] AS m");
  ok(edge.rows[0].e.length === 0 && edge.rows[0].m[0] === null && edge.rows[0].m[1] === 9223372036854775807n,
    'bigint[] to BigInt: empty array, NULL element and the int8 maximum', String(edge.rows[0].m));
  const back = await big.query('SELECT $1::bigint::text AS t, $1::bigint = $2::text::bigint AS same',
    [r.id, r.t]);
  ok(back.rows[0].t === r.t && back.rows[0].same === true,
    'snowflake: a BigInt parameter reaches the server unchanged', JSON.stringify(back.rows[0]));
  await big.end();

  // snowflake53: Numbers, exact, through JSON and back as parameters.
  const js = new pg.Client();
  await js.connect();
  useSafeNumbers(js);
  const s53 = await js.query(
    `SELECT id, id::text AS t FROM (SELECT snowflake53(1) AS id FROM generate_series(1, 1000)) s
     UNION ALL SELECT 9007199254740991, '9007199254740991'`);
  ok(s53.rows.every((row) => typeof row.id === 'number' && String(row.id) === row.t),
    'snowflake53: parsed as Numbers, every ID equals the server text, 2^53 - 1 included',
    JSON.stringify(s53.rows[0]));
  ok(new Set(s53.rows.map((row) => row.id)).size === s53.rows.length,
    'snowflake53: 1000 IDs of one statement stay distinct as Numbers');
  const viaJson = JSON.parse(JSON.stringify(s53.rows));
  ok(viaJson.every((row, i) => row.id === s53.rows[i].id && String(row.id) === row.t),
    'snowflake53: JSON.stringify then JSON.parse keeps every ID exact');
  const echo = await js.query('SELECT $1::bigint::text AS t', [s53.rows[0].id]);
  ok(echo.rows[0].t === s53.rows[0].t, 'snowflake53: a Number parameter reaches the server unchanged',
    echo.rows[0].t);
  let refused = null;
  try {
    await js.query('SELECT snowflake(1) AS id');
  } catch (err) {
    refused = err;
  }
  ok(refused instanceof RangeError, 'useSafeNumbers(): a 63-bit snowflake is refused, not rounded',
    refused && refused.message);
  await js.end();

  // Text results and parameters of every type, and arrays.
  await registerIdgenArrays(plain);
  const cases = [
    ['uuid_v7()', 'uuid', 'uuid_v7()', 'uuid_send'],
    ['ulid', 'ulid', 'ulid()', 'ulid_send'],
    ['prefixed_id', 'prefixed_id', "prefixed_id_new('acct')", 'prefixed_id_send'],
    ['typeid', 'typeid', "typeid_new('user')", 'typeid_send'],
    ['typeid, empty prefix', 'typeid', "typeid_new('')", 'typeid_send'],
    ['prefixed_id_define domain', 'acct_id', "prefixed_id_new('acct')::acct_id", 'prefixed_id_send'],
    ['typeid_define domain', 'user_id', "typeid_new('user')::user_id", 'typeid_send'],
  ];
  for (const [label, type, gen, send] of cases) {
    const res = await plain.query(`SELECT x, x::text AS t, ${send}(x) AS send FROM (SELECT ${gen} AS x) s`);
    const row = res.rows[0];
    ok(typeof row.x === 'string' && row.x === row.t,
      `${label}: text result is the server's text output`, JSON.stringify(row.x));
    const p = await plain.query(`SELECT $1::${type}::text AS t, ${send}($1::${type}) AS send`, [row.x]);
    ok(p.rows[0].t === row.t && p.rows[0].send.equals(row.send),
      `${label}: as a parameter it round-trips byte for byte (text and send bytes)`,
      `${p.rows[0].t} ${p.rows[0].send.toString('hex')} vs ${row.send.toString('hex')}`);

    const arr = await plain.query(
      `SELECT array_agg(x ORDER BY i) AS a, array_agg(x::text ORDER BY i) AS t
         FROM (SELECT i, ${gen} AS x FROM generate_series(1, 3) i) s`);
    const a = arr.rows[0];
    ok(Array.isArray(a.a) && a.a.length === 3 && a.a.every((v, i) => v === a.t[i]),
      `${label}[]: array result parsed into the elements' text`, JSON.stringify(a.a));
    const ap = await plain.query(
      `SELECT array(SELECT e::text FROM unnest($1::${type}[]) WITH ORDINALITY u(e, i) ORDER BY i) AS t`,
      [a.a]);
    ok(JSON.stringify(ap.rows[0].t) === JSON.stringify(a.t),
      `${label}[]: a JavaScript array parameter round-trips`, JSON.stringify(ap.rows[0].t));
  }

  // Without the registration an idgen array is not parsed: shows the parser is what did it.
  const raw = new pg.Client();
  await raw.connect();
  const u = await raw.query('SELECT ARRAY[ulid(), ulid()] AS a');
  ok(typeof u.rows[0].a === 'string' && u.rows[0].a.startsWith('{'),
    'ulid[]: unregistered, node-postgres returns the array literal as one string', typeof u.rows[0].a);
  await raw.end();

  await plain.end();
  return 0;
}

main().then((code) => { process.exitCode = code; }, (err) => {
  ok(false, 'the test stopped', (err && err.stack) || String(err));
  process.exit(1);  // open connections would keep node alive
});
