package test

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	idgen "github.com/idgen/idgen/clients/go"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The decoders against the server's answers, 100,000 values per family:
// values the server mints and random ones across the whole range.
const perFamily = 100000

// each runs query (one row per value) and calls check for each row.
func each(t *testing.T, conn *pgx.Conn, query string, check func(pgx.Rows) error) {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n, bad := 0, 0
	for rows.Next() {
		n++
		if err := check(rows); err != nil {
			if bad++; bad <= 5 {
				t.Error(err)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != perFamily || bad > 0 {
		t.Errorf("%d rows, %d differ", n, bad)
	}
}

func TestDecodersUUIDv7(t *testing.T) {
	conn := registered(t)
	each(t, conn, `SELECT u, uuid_v7_time(u) FROM (
	    SELECT CASE i % 3 WHEN 0 THEN uuid_v7() WHEN 1 THEN uuid_v7_at(timestamptz '1970-01-01+00' + random() * interval '8000 years')
	           ELSE gen_random_uuid() END AS u FROM generate_series(1, 100000) i) s`,
		func(r pgx.Rows) error {
			var u [16]byte
			var want *time.Time
			if err := r.Scan(&u, &want); err != nil {
				return err
			}
			got, ok := idgen.UUIDv7Time(u)
			if ok != (want != nil) || ok && !got.Equal(*want) {
				return errorf("UUIDv7Time(%x) = %v %v, the server says %v", u, got, ok, want)
			}
			return nil
		})
}

func snowflakeCheck(family string) func(pgx.Rows) error {
	epoch := time.Date(2010, 11, 4, 1, 42, 54, 657000000, time.UTC)
	return func(r pgx.Rows) error {
		var id int64
		var want, wantOwn time.Time
		var shard, seq int
		if err := r.Scan(&id, &want, &wantOwn, &shard, &seq); err != nil {
			return err
		}
		var got, gotOwn time.Time
		var gotShard, gotSeq int
		var errs [4]error
		if family == "snowflake" {
			// README snippet begins
			// README module begins
			got, errs[0] = idgen.SnowflakeTime(id)
			gotOwn, errs[1] = idgen.SnowflakeTimeWithEpoch(id, epoch)
			gotShard, errs[2] = idgen.SnowflakeShard(id)
			gotSeq, errs[3] = idgen.SnowflakeSeq(id)
			// README module ends
			// README snippet ends
		} else {
			got, errs[0] = idgen.Snowflake53Time(id)
			gotOwn, errs[1] = idgen.Snowflake53TimeWithEpoch(id, epoch)
			gotShard, errs[2] = idgen.Snowflake53Shard(id)
			gotSeq, errs[3] = idgen.Snowflake53Seq(id)
		}
		if errors.Join(errs[:]...) != nil || !got.Equal(want) || !gotOwn.Equal(wantOwn) || gotShard != shard || gotSeq != seq {
			return errorf("%s %d: %v %v %d %d %v, the server says %v %v %d %d", family, id, got, gotOwn, gotShard, gotSeq, errs, want, wantOwn, shard, seq)
		}
		return nil
	}
}

func TestDecodersSnowflake(t *testing.T) {
	conn := registered(t)
	each(t, conn, `SELECT id, snowflake_time(id, '2024-01-01+00'), snowflake_time(id, '2010-11-04 01:42:54.657+00'),
	        snowflake_shard(id), snowflake_seq(id) FROM (
	    SELECT CASE WHEN i % 2 = 0 THEN snowflake((i / 2) % 8192)
	           ELSE (9007199254740992 + floor(random() * (9223372036854775807 - 9007199254740992)::numeric))::bigint END AS id
	    FROM generate_series(1, 100000) i) s`, snowflakeCheck("snowflake"))
	// the server refuses the other family's range with 22003, as the decoder does
	_, err := conn.Exec(context.Background(), `SELECT snowflake_time(9007199254740991)`)
	var pgErr *pgconn.PgError
	if _, derr := idgen.SnowflakeTime(9007199254740991); !errors.As(err, &pgErr) || pgErr.Code != "22003" || derr == nil {
		t.Errorf("2^53 - 1: the server %v, the decoder %v", err, derr)
	}
}

func TestDecodersSnowflake53(t *testing.T) {
	conn := registered(t)
	each(t, conn, `SELECT id, snowflake53_time(id, '2024-01-01+00'), snowflake53_time(id, '2010-11-04 01:42:54.657+00'),
	        snowflake53_shard(id), snowflake53_seq(id) FROM (
	    SELECT CASE WHEN i % 2 = 0 THEN snowflake53((i / 2) % 16)
	           ELSE floor(random() * 9007199254740992)::bigint END AS id
	    FROM generate_series(1, 100000) i) s`, snowflakeCheck("snowflake53"))
	_, err := conn.Exec(context.Background(), `SELECT snowflake53_time(9007199254740992)`)
	var pgErr *pgconn.PgError
	if _, derr := idgen.Snowflake53Time(1 << 53); !errors.As(err, &pgErr) || pgErr.Code != "22003" || derr == nil {
		t.Errorf("2^53: the server %v, the decoder %v", err, derr)
	}
}

// ULID <-> UUID <-> text: binary and text both ways, and ulid_time.
func TestDecodersULID(t *testing.T) {
	conn := registered(t)
	each(t, conn, `SELECT v, v::text, v::uuid, ulid_time(v) FROM (
	    SELECT CASE WHEN i % 2 = 0 THEN ulid() ELSE gen_random_uuid()::ulid END AS v FROM generate_series(1, 100000) i) s`,
		func(r pgx.Rows) error {
			var v idgen.ULID
			var text string
			var u [16]byte
			var tm time.Time
			if err := r.Scan(&v, &text, &u, &tm); err != nil {
				return err
			}
			parsed, err := idgen.ParseULID(text)
			if v.String() != text || v.UUID() != u || idgen.ULIDFromUUID(u) != v || err != nil || parsed != v || !v.Time().Equal(tm) {
				return errorf("ulid %s: %s %x %v, the server says %x %v", text, v, v.UUID(), v.Time(), u, tm)
			}
			return nil
		})
}

func TestDecodersPrefixedID(t *testing.T) {
	conn := registered(t)
	each(t, conn, `SELECT v, v::text, prefixed_id_uuid(v), prefixed_id_time(v) FROM (
	    SELECT CASE i % 3 WHEN 0 THEN prefixed_id_new('acct') WHEN 1 THEN prefixed_id_token('session_key')
	           ELSE prefixed_id_from_uuid(repeat('z', 1 + i % 63), gen_random_uuid()) END AS v FROM generate_series(1, 100000) i) s`,
		func(r pgx.Rows) error {
			var v idgen.PrefixedID
			var text string
			var u [16]byte
			var tm *time.Time
			if err := r.Scan(&v, &text, &u, &tm); err != nil {
				return err
			}
			parsed, err := idgen.ParsePrefixedID(text)
			got, ok := v.Time()
			if v.String() != text || v.UUID() != u || err != nil || parsed != v || ok != (tm != nil) || ok && !got.Equal(*tm) {
				return errorf("prefixed_id %s: %s %x %v, the server says %x %v", text, v, v.UUID(), got, u, tm)
			}
			return nil
		})
}

func TestDecodersTypeID(t *testing.T) {
	conn := registered(t)
	each(t, conn, `SELECT v, v::text, typeid_uuid(v), typeid_time(v) FROM (
	    SELECT CASE i % 3 WHEN 0 THEN typeid_new('user') WHEN 1 THEN typeid_new('')
	           ELSE typeid_from_uuid(repeat('q', i % 64), gen_random_uuid()) END AS v FROM generate_series(1, 100000) i) s`,
		func(r pgx.Rows) error {
			var v idgen.TypeID
			var text string
			var u [16]byte
			var tm *time.Time
			if err := r.Scan(&v, &text, &u, &tm); err != nil {
				return err
			}
			parsed, err := idgen.ParseTypeID(text)
			got, ok := v.Time()
			if v.String() != text || v.UUID() != u || err != nil || parsed != v || ok != (tm != nil) || ok && !got.Equal(*tm) {
				return errorf("typeid %s: %s %x %v, the server says %x %v", text, v, v.UUID(), got, u, tm)
			}
			return nil
		})
}

func TestDecodersTimeflakeAndPushID(t *testing.T) {
	conn := registered(t)
	each(t, conn, `SELECT f, timeflake_time(f), timeflake_random(f)::text FROM (
	    SELECT CASE i % 3 WHEN 0 THEN timeflake() WHEN 1 THEN timeflake_at(timestamptz '1970-01-01+00' + random() * interval '8000 years')
	           ELSE gen_random_uuid() END AS f FROM generate_series(1, 100000) i) s`,
		func(r pgx.Rows) error {
			var f [16]byte
			var want time.Time
			var random string
			if err := r.Scan(&f, &want, &random); err != nil {
				return err
			}
			hi, lo := idgen.TimeflakeRandom(f)
			got := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(int64(hi)), 64), new(big.Int).SetUint64(lo))
			if !idgen.TimeflakeTime(f).Equal(want) || got.String() != random {
				return errorf("Timeflake %x: %v %v, the server says %v %s", f, idgen.TimeflakeTime(f), got, want, random)
			}
			return nil
		})
	// push IDs the server mints, any 20 characters of the alphabet, and texts
	// of other lengths or characters
	each(t, conn, `SELECT p, push_id_is_valid(p), CASE WHEN push_id_is_valid(p) THEN push_id_time(p) END FROM (
	    SELECT CASE i % 3 WHEN 0 THEN push_id() WHEN 1 THEN nanoid(20, '`+idgen.PushIDAlphabet+`')
	           ELSE nanoid(19 + i % 3, '`+idgen.PushIDAlphabet+`.') END AS p FROM generate_series(1, 100000) i) s`,
		func(r pgx.Rows) error {
			var p string
			var valid bool
			var want *time.Time
			if err := r.Scan(&p, &valid, &want); err != nil {
				return err
			}
			got, err := idgen.PushIDTime(p)
			if idgen.PushIDIsValid(p) != valid || valid && (err != nil || !got.Equal(*want)) || !valid && !errors.Is(err, idgen.ErrNotPushID) {
				return errorf("push ID %q: %v %v, the server says %v %v", p, got, err, valid, want)
			}
			return nil
		})
}
