// The decoders of idgen (the package's root module) against the server's own
// answers: 100,000 values of each family, half minted by the generators, half
// built by the server for times and bits spread over the whole range; and
// input the server refuses, which the decoders must refuse too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as idgen from 'idgen';
import { snowflakeTime, snowflakeShard, uuidV7Time, ulidToUuid } from 'idgen';
import { connect, rows } from './helpers.mjs';

const N = 100000;
const HALF = N / 2;
const EPOCH = '2020-05-05 00:00:00+00';
const EPOCH_MS = Date.UTC(2020, 4, 5);
let client;

before(async () => {
  client = await connect();
});
after(async () => {
  await client.end();
});

// ms(date): a Date's milliseconds, or null.
const ms = (d) => (d === null ? null : d.getTime());

// compare(values, fn, what): each row's expected answer against fn(row);
// the first mismatches are named.
function compare(values, fn, what) {
  assert.equal(values.length, N, `${what}: ${N} rows`);
  const bad = [];
  for (const r of values) {
    const got = fn(r);
    if (!got.ok) bad.push(got.why);
  }
  assert.deepEqual(bad.slice(0, 5), [], `${what}: ${bad.length} of ${values.length} differ`);
}

// random 64-bit words, from md5 of the row number, as bigint text
const WORD = (i) => `('x' || substr(md5(${i}::text || 'idgen'), 1, 16))::bit(64)::bigint`;

describe('decoders against the server, 100,000 values per family', () => {
  test('uuidV7Time equals uuid_v7_time() (uuid_v7(), uuid_v7_at() over 1970-2100, non-v7 uuids null)', async () => {
    const values = await rows(client, `
      WITH ids AS (
        SELECT uuid_v7() AS id FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT uuid_v7_at(timestamptz '1970-01-01+00' + random() * interval '130 years') FROM generate_series(1, ${HALF})
        UNION ALL SELECT gen_random_uuid() FROM generate_series(1, ${HALF / 2}))
      SELECT id::text, (extract(epoch FROM uuid_v7_time(id)) * 1000)::int8::text AS ms FROM ids`);
    compare(values, (r) => {
      const got = ms(idgen.uuidV7Time(r.id));
      const want = r.ms === null ? null : Number(r.ms);
      return { ok: got === want, why: `${r.id}: ${got} != ${want}` };
    }, 'uuid_v7_time');
  });

  test('snowflakeTime (explicit epoch), snowflakeShard, snowflakeSeq equal the server (snowflake(shard) and IDs over the whole range)', async () => {
    const values = await rows(client, `
      WITH ids AS (
        SELECT snowflake((i % 8192)::int) AS id FROM generate_series(1, ${HALF}) i
        UNION ALL SELECT greatest(${WORD('i')} & x'7fffffffffffffff'::bigint, (2::int8 ^ 53)::int8) FROM generate_series(1, ${HALF}) i)
      SELECT id::text, (extract(epoch FROM snowflake_time(id, '${EPOCH}')) * 1000)::int8::text AS ms,
             (extract(epoch FROM snowflake_time(id, '2024-01-01+00')) * 1000)::int8::text AS ms_default,
             snowflake_shard(id) AS shard, snowflake_seq(id) AS seq FROM ids`);
    compare(values, (r) => {
      const id = BigInt(r.id);
      const got = [ms(idgen.snowflakeTime(id, EPOCH_MS)), ms(idgen.snowflakeTime(r.id)), idgen.snowflakeShard(id), idgen.snowflakeSeq(id)];
      const want = [Number(r.ms), Number(r.ms_default), r.shard, r.seq];
      return { ok: got.every((v, i) => v === want[i]), why: `${r.id}: ${got} != ${want}` };
    }, 'snowflake');
  });

  test('snowflake53Time (explicit epoch), snowflake53Shard, snowflake53Seq equal the server (snowflake53(shard) and IDs up to 2^53 - 1)', async () => {
    const values = await rows(client, `
      WITH ids AS (
        SELECT snowflake53((i % 16)::int) AS id FROM generate_series(1, ${HALF}) i
        UNION ALL SELECT ${WORD('i')} & x'001fffffffffffff'::bigint FROM generate_series(1, ${HALF}) i)
      SELECT id::text, (extract(epoch FROM snowflake53_time(id, '${EPOCH}')) * 1000)::int8::text AS ms,
             snowflake53_shard(id) AS shard, snowflake53_seq(id) AS seq FROM ids`);
    compare(values, (r) => {
      const id = Number(r.id);
      const got = [ms(idgen.snowflake53Time(id, new Date(EPOCH_MS))), idgen.snowflake53Shard(id), idgen.snowflake53Seq(BigInt(r.id))];
      const want = [Number(r.ms), r.shard, r.seq];
      return { ok: Number.isSafeInteger(id) && got.every((v, i) => v === want[i]), why: `${r.id}: ${got} != ${want}` };
    }, 'snowflake53');
  });

  test('ULID <-> uuid <-> text and ulidTime equal the server (ulid(), ulid_at() and random bits)', async () => {
    const values = await rows(client, `
      WITH ids AS (
        SELECT ulid() AS id FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT ulid_at(timestamptz '1970-01-01+00' + random() * interval '500 years') FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT gen_random_uuid()::ulid FROM generate_series(1, ${HALF}))
      SELECT id::text, id::uuid::text AS uuid, (extract(epoch FROM ulid_time(id)) * 1000)::int8::text AS ms FROM ids`);
    compare(values, (r) => {
      const got = [idgen.ulidToUuid(r.id), idgen.uuidToUlid(r.uuid), idgen.ulidToUuid(r.id.toLowerCase()), ms(idgen.ulidTime(r.id))];
      const want = [r.uuid, r.id, r.uuid, Number(r.ms)];
      return { ok: got.every((v, i) => v === want[i]), why: `${r.id}: ${got} != ${want}` };
    }, 'ulid');
  });

  test('prefixed IDs: prefix, uuid, time and the ID from (prefix, uuid) equal the server (prefixed_id_new, prefixed_id_token)', async () => {
    const values = await rows(client, `
      WITH ids AS (
        SELECT prefixed_id_new('acct') AS id FROM generate_series(1, ${HALF})
        UNION ALL SELECT prefixed_id_token('api_key') FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT prefixed_id_from_uuid('x', md5(i::text)::uuid) FROM generate_series(1, ${HALF / 2}) i)
      SELECT id::text, prefixed_id_prefix(id) AS prefix, prefixed_id_uuid(id)::text AS uuid,
             (extract(epoch FROM prefixed_id_time(id)) * 1000)::int8::text AS ms FROM ids`);
    compare(values, (r) => {
      const p = idgen.prefixedIdParse(r.id);
      const got = [p.prefix, p.uuid, idgen.prefixedIdFromUuid(r.prefix, r.uuid), ms(idgen.prefixedIdTime(r.id))];
      const want = [r.prefix, r.uuid, r.id, r.ms === null ? null : Number(r.ms)];
      return { ok: got.every((v, i) => v === want[i]), why: `${r.id}: ${got} != ${want}` };
    }, 'prefixed_id');
  });

  test('TypeIDs: prefix, uuid, time and the ID from (prefix, uuid) equal the server (typeid_new with and without a prefix, random bits)', async () => {
    const values = await rows(client, `
      WITH ids AS (
        SELECT typeid_new('user') AS id FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT typeid_new('') FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT typeid_from_uuid('org_unit', gen_random_uuid()) FROM generate_series(1, ${HALF}))
      SELECT id::text, typeid_prefix(id) AS prefix, typeid_uuid(id)::text AS uuid,
             (extract(epoch FROM typeid_time(id)) * 1000)::int8::text AS ms FROM ids`);
    compare(values, (r) => {
      const p = idgen.typeidParse(r.id);
      const got = [p.prefix, p.uuid, idgen.typeidFromUuid(r.prefix, r.uuid), ms(idgen.typeidTime(r.id))];
      const want = [r.prefix, r.uuid, r.id, r.ms === null ? null : Number(r.ms)];
      return { ok: got.every((v, i) => v === want[i]), why: `${r.id}: ${got} != ${want}` };
    }, 'typeid');
  });

  // random bytes of a row: n bytes from md5 of its number (n at most 32), and the second one with a random time
  const BYTES = (i, n) => `decode(substr(md5(${i}::text || 'idgen') || md5(${i}::text || 'gen'), 1, ${2 * n}), 'hex')`;
  const hexOf = (bytes) => Buffer.from(bytes).toString('hex');

  test('ksuid: bytes <-> text, ksuidTime and ksuidPayload equal the server (ksuid(), ksuid_at() over 2014-2150, random bytes)', async () => {
    const values = await rows(client, `
      WITH ids AS (
        SELECT ksuid() AS id FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT ksuid_at(timestamptz '2014-05-13 16:53:20+00' + random() * interval '136 years') FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT ${BYTES('i', 20)}::ksuid FROM generate_series(1, ${HALF}) i)
      SELECT id::text, encode(id::bytea, 'hex') AS raw, extract(epoch FROM ksuid_time(id))::int8::text AS unix,
             encode(ksuid_payload(id), 'hex') AS payload FROM ids`);
    compare(values, (r) => {
      const got = [hexOf(idgen.ksuidToBytes(r.id)), idgen.ksuidFromBytes(Buffer.from(r.raw, 'hex')), ms(idgen.ksuidTime(r.id)),
        ms(idgen.ksuidTime(Buffer.from(r.raw, 'hex'))), hexOf(idgen.ksuidPayload(r.id))];
      const want = [r.raw, r.id, Number(r.unix) * 1000, Number(r.unix) * 1000, r.payload];
      return { ok: got.every((v, i) => v === want[i]), why: `${r.id}: ${got} != ${want}` };
    }, 'ksuid');
  });

  test('objectid: bytes <-> text, objectidTime, objectidProcess and objectidCounter equal the server (objectid(), boundaries, random bytes)', async () => {
    const values = await rows(client, `
      WITH ids AS (
        SELECT objectid() AS id FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT objectid_boundary(timestamptz '1970-01-01+00' + random() * interval '136 years') FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT ${BYTES('i', 12)}::objectid FROM generate_series(1, ${HALF}) i)
      SELECT id::text, upper(id::text) AS upper, encode(id::bytea, 'hex') AS raw, extract(epoch FROM objectid_time(id))::int8::text AS unix,
             encode(objectid_process(id), 'hex') AS process, objectid_counter(id) AS counter FROM ids`);
    compare(values, (r) => {
      const got = [hexOf(idgen.objectidToBytes(r.upper)), idgen.objectidFromBytes(Buffer.from(r.raw, 'hex')), idgen.objectidCanonical(r.upper),
        ms(idgen.objectidTime(r.id)), hexOf(idgen.objectidProcess(r.id)), idgen.objectidCounter(Buffer.from(r.raw, 'hex'))];
      const want = [r.raw, r.id, r.id, Number(r.unix) * 1000, r.process, r.counter];
      return { ok: got.every((v, i) => v === want[i]), why: `${r.id}: ${got} != ${want}` };
    }, 'objectid');
  });

  test('timeflakeTime and timeflakeRandom equal the server (timeflake(), timeflake_at() over 1970-2100, any uuid)', async () => {
    const values = await rows(client, `
      WITH ids AS (
        SELECT timeflake() AS id FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT timeflake_at(timestamptz '1970-01-01+00' + random() * interval '130 years') FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT gen_random_uuid() FROM generate_series(1, ${HALF}))
      SELECT id::text, (extract(epoch FROM timeflake_time(id)) * 1000)::int8::text AS ms, timeflake_random(id)::text AS random FROM ids`);
    compare(values, (r) => {
      const got = [idgen.timeflakeTime(r.id).getTime(), String(idgen.timeflakeRandom(r.id))];
      return { ok: got[0] === Number(r.ms) && got[1] === r.random, why: `${r.id}: ${got} != ${r.ms},${r.random}` };
    }, 'timeflake_time, timeflake_random');
  });

  test('pushIdTime and pushIdIsValid equal the server (push_id(), any 20 characters of the alphabet, other lengths and characters)', async () => {
    const alphabet = idgen.PUSH_ID_ALPHABET;
    const values = await rows(client, `
      WITH ids AS (
        SELECT push_id() AS t FROM generate_series(1, ${HALF})
        UNION ALL SELECT nanoid(20, '${alphabet}') FROM generate_series(1, ${(HALF * 4) / 5})
        UNION ALL SELECT nanoid(19 + i % 3, '${alphabet}.+ ') FROM generate_series(1, ${HALF / 5}) i)
      SELECT t, push_id_is_valid(t) AS valid,
             CASE WHEN push_id_is_valid(t) THEN (extract(epoch FROM push_id_time(t)) * 1000)::int8::text END AS ms FROM ids`);
    assert.ok(values.filter((r) => !r.valid).length > N / 20, 'texts that are no push ID were there');
    compare(values, (r) => {
      const valid = idgen.pushIdIsValid(r.t);
      if (valid !== r.valid) return { ok: false, why: `${r.t}: valid ${valid} != ${r.valid}` };
      if (!valid) {
        try { idgen.pushIdTime(r.t); } catch (e) { return { ok: e instanceof TypeError, why: `${r.t}: ${e}` }; }
        return { ok: false, why: `${r.t}: pushIdTime did not throw` };
      }
      const got = idgen.pushIdTime(r.t).getTime();
      return { ok: got === Number(r.ms), why: `${r.t}: ${got} != ${r.ms}` };
    }, 'push_id_time, push_id_is_valid');
  });

  test('xid: bytes <-> text, xidTime, xidMachine, xidPid and xidCounter equal the server (xid(), boundaries, random bytes)', async () => {
    const values = await rows(client, `
      WITH ids AS (
        SELECT xid() AS id FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT xid_boundary(timestamptz '1970-01-01+00' + random() * interval '136 years') FROM generate_series(1, ${HALF / 2})
        UNION ALL SELECT ${BYTES('i', 12)}::rsxid FROM generate_series(1, ${HALF}) i)
      SELECT id::text, encode(id::bytea, 'hex') AS raw, extract(epoch FROM xid_time(id))::int8::text AS unix,
             encode(xid_machine(id), 'hex') AS machine, xid_pid(id) AS pid, xid_counter(id) AS counter FROM ids`);
    compare(values, (r) => {
      const got = [hexOf(idgen.xidToBytes(r.id)), idgen.xidFromBytes(Buffer.from(r.raw, 'hex')), ms(idgen.xidTime(r.id)),
        hexOf(idgen.xidMachine(r.id)), idgen.xidPid(r.id), idgen.xidCounter(Buffer.from(r.raw, 'hex'))];
      const want = [r.raw, r.id, Number(r.unix) * 1000, r.machine, r.pid, r.counter];
      return { ok: got.every((v, i) => v === want[i]), why: `${r.id}: ${got} != ${want}` };
    }, 'xid');
  });
});

test('the documented use: decoders on IDs from the server, offline', async () => {
  const [r] = await rows(client, `SELECT snowflake(3)::text AS id, ulid()::text AS ref,
      (extract(epoch FROM snowflake_time(snowflake(3), '2024-01-01+00')) * 1000)::int8::text AS ms`);
  // README snippet begins
  // import { snowflakeTime, snowflakeShard, uuidV7Time, ulidToUuid, uuidToUlid } from 'idgen';
  const minted = snowflakeTime(BigInt(r.id));  // from DEFAULT_SNOWFLAKE_EPOCH, or pass the server's
  const shard = snowflakeShard(BigInt(r.id));                         // 3
  const at = uuidV7Time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');      // 2022-02-22T19:22:22.000Z
  const asUuid = ulidToUuid(r.ref);                                   // the bytes of r.ref::uuid
  // README snippet ends
  assert.ok(Math.abs(minted.getTime() - Number(r.ms)) < 60000);
  assert.equal(shard, 3);
  assert.equal(at.toISOString(), '2022-02-22T19:22:22.000Z');
  assert.equal(idgen.uuidToUlid(asUuid), r.ref);
  const [s] = await rows(client, 'SELECT $1::ulid::uuid::text AS u', [r.ref]);
  assert.equal(asUuid, s.u);
});

// [decoder, server expression with $1, text]: input the server refuses
const REFUSED = [
  [idgen.ulidToUuid, '$1::ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAI'],   // I is not a digit
  [idgen.ulidToUuid, '$1::ulid', '01ARZ3NDEKTSV4RRFFQ69G5FA'],    // 25 digits
  [idgen.ulidToUuid, '$1::ulid', '81ARZ3NDEKTSV4RRFFQ69G5FAV'],   // above 128 bits
  [idgen.prefixedIdParse, '$1::prefixed_id', 'acct_039srkj01e44uynszf2f2njh'],   // 24 digits
  [idgen.prefixedIdParse, '$1::prefixed_id', 'Acct_039srkj01e44uynszf2f2njh3'],  // uppercase prefix
  [idgen.prefixedIdParse, '$1::prefixed_id', 'acct_039srkj01e44uynszf2f2nj-3'],  // not a base36 digit
  [idgen.prefixedIdParse, '$1::prefixed_id', '039srkj01e44uynszf2f2njh3'],       // no prefix
  [idgen.prefixedIdParse, '$1::prefixed_id', 'acct_zzzzzzzzzzzzzzzzzzzzzzzzz'],  // above 128 bits
  [idgen.typeidParse, '$1::typeid', 'user_01H455VB4PEX5VSKNK084SN02Q'],  // uppercase suffix
  [idgen.typeidParse, '$1::typeid', 'user_81h455vb4pex5vsknk084sn02q'],  // above 128 bits
  [idgen.typeidParse, '$1::typeid', '_01h455vb4pex5vsknk084sn02q'],      // empty prefix with _
  [idgen.typeidParse, '$1::typeid', 'User_01h455vb4pex5vsknk084sn02q'],  // uppercase prefix
  [idgen.snowflakeTime, 'snowflake_time($1::int8)', String(2n ** 53n - 1n)],  // a snowflake53 ID
  [idgen.snowflake53Time, 'snowflake53_time($1::int8)', String(2n ** 53n)],   // a snowflake ID
  [idgen.uuidV7Time, 'uuid_v7_time($1::uuid)', '017f22e2-79b0-7cc3-98c4-dc0c0c07398'],  // 31 digits
  [idgen.ksuidTime, 'ksuid_time($1::ksuid)', 'aWgEPTl1tmebfsQzFP4bxwgy80W'],   // above 160 bits
  [idgen.ksuidPayload, 'ksuid_payload($1::ksuid)', '0ujtsYcgvSTl8PAuAdqWYSMnLO'],  // 26 characters
  [idgen.ksuidToBytes, '$1::ksuid', '0ujtsYcgvSTl8PAuAdqWYSMnLO_'],             // not base62
  [idgen.objectidTime, 'objectid_time($1::objectid)', '56e1fc72e0c917e9c471416'],  // 23 digits
  [idgen.objectidCounter, 'objectid_counter($1::objectid)', '56e1fc72e0c917e9c471416g'],  // not hex
  [idgen.xidTime, 'xid_time($1::rsxid)', '9m4e2mr0ui3e8a215n4h'],    // the last character carries bits
  [idgen.xidPid, 'xid_pid($1::rsxid)', '9M4E2MR0UI3E8A215N4G'],      // uppercase
  [idgen.xidCounter, 'xid_counter($1::rsxid)', '9m4e2mr0ui3e8a215n4'],  // 19 characters
];

describe('decoders refuse what the server refuses', () => {
  for (const [fn, expr, text] of REFUSED) {
    test(`${fn.name}(${text}) throws, and ${expr.replace('$1', 'it')} fails`, async () => {
      assert.throws(() => fn(text), (e) => e instanceof TypeError || e instanceof RangeError);
      await assert.rejects(client.query(`SELECT ${expr}`, [text]), (e) => /^22/.test(e.code));
    });
  }
  test('snowflakeTime refuses a negative or non-integer epoch input', () => {
    assert.throws(() => idgen.snowflakeTime(-1n), RangeError);
    assert.throws(() => idgen.snowflakeTime(2 ** 60), RangeError);
    assert.throws(() => idgen.snowflakeTime(2n ** 60n, 'not a date'), RangeError);
  });
});
