// Issue 54's text IDs against their reference libraries on npm: nanoid's
// customAlphabet, @paralleldrive/cuid2's isCuid, sqids, short-uuid, bs58 and
// base-x. What the server makes, the library reads or makes alike; what the
// library makes, the server reads alike. IDGEN_DIFFERENTIAL_COUNT (100,000 by
// default) sets how many values go each way (ten times as many CUID2s).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { customAlphabet } from 'nanoid';
import { isCuid } from '@paralleldrive/cuid2';
import Sqids from 'sqids';
import shortUuid from 'short-uuid';
import bs58 from 'bs58';
import baseX from 'base-x';
import { connect, rows } from './helpers.mjs';

const count = Number(process.env.IDGEN_DIFFERENTIAL_COUNT ?? 100_000);
const SQIDS_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
let client;

before(async () => {
  assert.ok(Number.isInteger(count) && count > 0, `IDGEN_DIFFERENTIAL_COUNT=${count}`);
  client = await connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS idgen');
});
after(() => client?.end());

// a deterministic generator of the test's choices (xorshift32), so that a
// failure repeats
let seed = 20261204;
function rand(n) {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed % n;
}
const pick = (s, k) => Array.from({ length: k }, () => s[rand(s.length)]).join('');


test('nanoid: for customAlphabet\'s options, the server\'s IDs have the exact length and only the alphabet\'s characters, and it accepts nanoid\'s IDs', async () => {
  const options = [
    ['useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict', 21],
    ['0123456789', 12], ['01', 30], ['abcdef', 8], ['ABCDEFGHJKMNPQRSTVWXYZ23456789', 16], ['αβγδ', 5],
  ];
  for (const [alphabet, size] of options) {
    const n = Math.ceil(count / options.length);
    const theirs = Array.from({ length: n }, customAlphabet(alphabet, size));
    const [{ ours, bad }] = await rows(client, `
      SELECT (SELECT array_agg(nanoid($2, $1)) FROM generate_series(1, $3)) AS ours,
             (SELECT count(*) FROM unnest($4::text[]) t WHERE NOT nanoid_is_valid(t, $2, $1))::int AS bad`,
    [alphabet, size, n, theirs]);
    assert.equal(bad, 0, `${alphabet}: the server refuses none of nanoid's ${n} IDs`);
    const chars = new Set(alphabet);
    const wrong = ours.filter((id) => [...id].length !== size || ![...id].every((c) => chars.has(c)));
    assert.deepEqual(wrong.slice(0, 3), [], `${alphabet}, ${size}: every ID of the server's ${n}`);
  }
});

test('cuid2: ten times IDGEN_DIFFERENTIAL_COUNT cuid2() values pass isCuid', async () => {
  const ids = (await rows(client, 'SELECT cuid2() AS c FROM generate_series(1, $1)', [10 * count])).map((r) => r.c);
  assert.equal(ids.length, 10 * count);
  assert.deepEqual(ids.filter((c) => !isCuid(c)).slice(0, 3), []);
  const short = (await rows(client, 'SELECT cuid2(10) AS c FROM generate_series(1, 1000)')).map((r) => r.c);
  assert.ok(short.every((c) => c.length === 10 && isCuid(c, { minLength: 10, maxLength: 10 })));
});

test('sqids: the server encodes and strictly decodes as the sqids package does, under 20 option sets', async () => {
  const printable = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i));
  const sets = [[undefined, 0, undefined], [undefined, 10, undefined], [undefined, 0, []]];
  for (let k = 0; k < 17; k++) {
    const shuffled = [...printable].sort(() => rand(3) - 1);
    const alphabet = shuffled.slice(0, [3, 5, 10, 16, 36, 62, 94][rand(7)]).join('');
    const words = k % 3 === 0 ? undefined : k % 3 === 1 ? [] : Array.from({ length: 1 + rand(29) }, () => pick(alphabet, 3 + rand(3)));
    sets.push([alphabet, [0, 0, 1, 5, 12, 40, 255][rand(7)], words]);
  }
  let checked = 0;
  for (const [alphabet, minLength, blocklist] of sets) {
    const reference = new Sqids({ alphabet, minLength, blocklist });
    const arrays = [];
    const codes = [];
    for (let i = 0; i < Math.floor(count / sets.length); i++) {
      // 1 to 6 numbers up to 2^53 - 1, JavaScript's exact integers, which the package takes
      const numbers = Array.from({ length: 1 + rand(6) },
        () => Number((BigInt(`0x${randomBytes(7).toString('hex')}`) & ((1n << 53n) - 1n)) >> BigInt(rand(53))));
      try {
        codes.push(reference.encode(numbers));
        arrays.push(numbers);
      } catch (e) {
        // the blocklist exhausted the attempts: the server refuses too
        assert.match(e.message, /max attempts/, String(numbers));
        await assert.rejects(client.query('SELECT sqids_encode($1::bigint[], $2, $3, $4::text[])',
          [numbers, alphabet ?? SQIDS_ALPHABET, minLength, blocklist ?? null]), (e) => e.code === '22023');
      }
    }
    const got = await rows(client, `
      SELECT sqids_encode(n::bigint[], $3, $4, $5::text[]) AS code,
             sqids_decode(c, $3, $4, $5::text[])::text AS numbers
      FROM unnest($1::text[], $2::text[]) WITH ORDINALITY u(n, c, i) ORDER BY i`,
    [arrays.map((a) => `{${a.join(',')}}`), codes, alphabet ?? SQIDS_ALPHABET, minLength, blocklist ?? null]);
    const bad = got.filter((r, i) => r.code !== codes[i] || r.numbers !== `{${arrays[i].join(',')}}`);
    assert.deepEqual(bad.slice(0, 3), [], `alphabet ${alphabet}, minLength ${minLength}, blocklist ${blocklist}`);
    checked += got.length;
  }
  assert.ok(checked > count / 2);
});

// uuids of random bytes, a tenth with leading zero bytes
const uuids = (n) => Array.from({ length: n }, (_, i) => {
  const b = randomBytes(16);
  if (i % 10 === 0) b.fill(0, 0, 1 + (i % 4));
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
});
const bytesOf = (u) => Buffer.from(u.replace(/-/g, ''), 'hex');
const valueOf = (bytes) => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);

test('short-uuid: uuid_encode(u, \'flickr\') is short-uuid\'s default translator (Flickr base58), both ways', async () => {
  const translator = shortUuid.createTranslator();
  const values = uuids(count);
  const theirs = values.map((u) => translator.fromUUID(u));
  const got = await rows(client, `
    SELECT uuid_encode(u, 'flickr') AS ours, uuid_decode(t, 'flickr')::text AS back
    FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY x(u, t, i) ORDER BY i`, [values, theirs]);
  const bad = got.filter((r, i) => r.ours !== theirs[i] || r.back !== values[i] || translator.toUUID(r.ours) !== values[i]);
  assert.deepEqual(bad.slice(0, 3), []);
});

test('bs58 and base-x: base58, base62 and base57 texts are their encodings of the 16 bytes, left-padded to 22', async () => {
  const forms = [
    ['base58', bs58, '1'],
    ['base62', baseX('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'), '0'],
    ['base57', baseX('23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'), '2'],
  ];
  const values = uuids(count);
  for (const [form, codec, zero] of forms) {
    const got = await rows(client, `SELECT uuid_encode(u, $2) AS t FROM unnest($1::uuid[]) WITH ORDINALITY x(u, i) ORDER BY i`, [values, form]);
    // the library writes each leading zero byte as its zero digit, then the
    // rest of the value: padded to 22 with that digit, the server's text
    const bad = got.filter((r, i) => r.t !== codec.encode(bytesOf(values[i])).padStart(22, zero)
      || valueOf(codec.decode(r.t)) !== valueOf(bytesOf(values[i])));
    assert.deepEqual(bad.slice(0, 3), [], form);
    // and the library's texts, padded, decode on the server to the uuid
    const theirs = values.map((u) => codec.encode(bytesOf(u)).padStart(22, zero));
    const [{ wrong }] = await rows(client, `
      SELECT count(*) FILTER (WHERE uuid_decode(t, $3) <> u)::int AS wrong
      FROM unnest($1::uuid[], $2::text[]) x(u, t)`, [values, theirs, form]);
    assert.equal(wrong, 0, form);
  }
});
