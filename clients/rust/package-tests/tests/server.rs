//! Against a server named by libpq's environment (PGHOST, PGPORT,
//! PGDATABASE, PGUSER: a database whose owner may create idgen). Without
//! PGDATABASE these tests fail: they are the crate's tests with a server.
use futures_util::{pin_mut, TryStreamExt};
use idgen::*;
use std::sync::Once;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio_postgres::binary_copy::BinaryCopyInWriter;
use tokio_postgres::types::Type;
use tokio_postgres::{Client, NoTls};

const SCHEMA: &str = "
DROP SCHEMA IF EXISTS rusttest CASCADE;
CREATE SCHEMA rusttest;
SET search_path = rusttest, public;
CREATE EXTENSION IF NOT EXISTS idgen SCHEMA public;
SELECT prefixed_id_define('account_id', 'acct');
SELECT typeid_define('user_id', 'user');
CREATE TABLE things (u ulid, p prefixed_id, t typeid, a account_id DEFAULT NULL, us user_id DEFAULT NULL);
CREATE DOMAIN ulid_ref AS ulid;
CREATE DOMAIN ulid_ref_ref AS ulid_ref;
SELECT typeid_define('member_id', 'member');
CREATE TABLE domain_values (r ulid_ref, rr ulid_ref_ref, m member_id DEFAULT typeid_new('member'),
                            rra ulid_ref_ref[], ma member_id[]);
INSERT INTO domain_values (r, rr) SELECT ulid(), ulid() FROM generate_series(1, 3);
UPDATE domain_values SET rra = ARRAY[rr, NULL], ma = ARRAY[m];";

fn config() -> tokio_postgres::Config {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let mut c = tokio_postgres::Config::new();
    c.dbname(&var("PGDATABASE").expect("PGDATABASE names the test database"));
    c.host(&var("PGHOST").unwrap_or_else(|| "localhost".into()));
    if let Some(port) = var("PGPORT") {
        c.port(port.parse().expect("PGPORT"));
    }
    c.user(&var("PGUSER").or_else(|| var("USER")).expect("PGUSER"));
    c.options("-c search_path=rusttest,public");
    c
}

static SETUP: Once = Once::new();

async fn client() -> Client {
    SETUP.call_once(|| {
        std::thread::spawn(|| {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async {
                let (client, conn) = config().connect(NoTls).await.expect("connect");
                tokio::spawn(conn);
                client.batch_execute(SCHEMA).await.expect("the schema");
            })
        })
        .join()
        .expect("setup");
    });
    let (client, conn) = config().connect(NoTls).await.expect("connect");
    tokio::spawn(conn);
    client
}

fn pg_code(e: &tokio_postgres::Error) -> Option<&str> {
    e.code().map(|c| c.code())
}

#[tokio::test]
async fn binary_results_and_parameters() {
    let c = client().await;
    let row = c
        .query_one("SELECT ulid(), prefixed_id_new('acct'), typeid_new('user'), typeid_new(''),
                    prefixed_id_new('acct')::account_id, typeid_new('user')::user_id", &[])
        .await
        .unwrap();
    // README snippet begins
    let (u, p, t, e, a, us): (Ulid, PrefixedId, TypeId, TypeId, PrefixedId, TypeId) =
        (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4), row.get(5));
    // README snippet ends
    assert_eq!((p.prefix(), e.prefix(), a.prefix(), us.prefix()), ("acct", "", "acct", "user"));
    let back = c
        .query_one("SELECT $1::ulid::text, $2::prefixed_id::text, $3::typeid::text, $4::typeid::text,
                    $5::account_id::text, $6::user_id::text", &[&u, &p, &t, &e, &a, &us])
        .await
        .unwrap();
    let texts: Vec<String> = (0..6).map(|i| back.get(i)).collect();
    assert_eq!(texts, [u.to_string(), p.to_string(), t.to_string(), e.to_string(), a.to_string(), us.to_string()]);
    // arrays, and NULL as None
    let row = c.query_one("SELECT ARRAY[$1::ulid, $1], NULL::ulid, NULL::account_id", &[&u]).await.unwrap();
    assert_eq!(row.get::<_, Vec<Ulid>>(0), vec![u, u]);
    assert_eq!(row.get::<_, Option<Ulid>>(1), None);
    assert_eq!(row.get::<_, Option<PrefixedId>>(2), None);
    assert!(row.try_get::<_, Ulid>(1).is_err(), "NULL into a Ulid");
    // the wrong Rust type for a column is refused, not misread
    let row = c.query_one("SELECT ulid(), typeid_new('user')", &[]).await.unwrap();
    assert!(row.try_get::<_, PrefixedId>(0).is_err());
    assert!(row.try_get::<_, String>(0).is_err(), "tokio-postgres reads no ulid into a String");
    assert!(row.try_get::<_, PrefixedId>(1).is_err());
}

#[tokio::test]
async fn domain_check_and_refusals() {
    let c = client().await;
    let other = PrefixedId::new("user", [7; 16]).unwrap();
    let err = c.query_one("SELECT $1::account_id", &[&other]).await.unwrap_err();
    assert_eq!(pg_code(&err), Some("23514"), "{err}");
    // a Ulid is no prefixed_id parameter
    assert!(c.query_one("SELECT $1::prefixed_id", &[&Ulid::from_bytes([0; 16])]).await.is_err());
}

#[tokio::test]
async fn binary_copy() {
    let c = client().await;
    let row = c
        .query_one("SELECT ulid(), prefixed_id_new('ord'), typeid_new(''), prefixed_id_new('acct'), typeid_new('user'),
                    'ulid'::regtype::oid, 'prefixed_id'::regtype::oid, 'typeid'::regtype::oid,
                    'account_id'::regtype::oid, 'user_id'::regtype::oid", &[])
        .await
        .unwrap();
    let (u, p, t, a, us): (Ulid, PrefixedId, TypeId, PrefixedId, TypeId) = (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4));
    // the types as tokio-postgres looks them up (a domain's kind names its base)
    let stmt = c.prepare("SELECT $1::ulid, $2::prefixed_id, $3::typeid, $4::account_id, $5::user_id").await.unwrap();
    let types: Vec<Type> = stmt.params().to_vec();
    c.execute("TRUNCATE things", &[]).await.unwrap();
    let sink = c.copy_in("COPY things (u, p, t, a, us) FROM STDIN (FORMAT binary)").await.unwrap();
    // README snippet begins
    let writer = BinaryCopyInWriter::new(sink, &types);
    pin_mut!(writer);
    // README snippet ends
    for _ in 0..3 {
        writer.as_mut().write(&[&u, &p, &t, &a, &us]).await.unwrap();
    }
    assert_eq!(writer.finish().await.unwrap(), 3);
    let n: i64 = c
        .query_one("SELECT count(*) FROM things WHERE u = $1 AND p = $2 AND t = $3 AND a = $4 AND us = $5", &[&u, &p, &t, &a, &us])
        .await
        .unwrap()
        .get(0);
    assert_eq!(n, 3);
    // the domain's CHECK holds in COPY
    let sink = c.copy_in("COPY things (a) FROM STDIN (FORMAT binary)").await.unwrap();
    let writer = BinaryCopyInWriter::new(sink, &types[3..4]);
    pin_mut!(writer);
    writer.as_mut().write(&[&p]).await.unwrap();
    let err = writer.finish().await.unwrap_err();
    assert_eq!(pg_code(&err), Some("23514"), "{err}");
}

#[tokio::test]
async fn sqlx_types() {
    client().await; // the schema
    use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
    let opts = PgConnectOptions::new().options([("search_path", "rusttest,public")]);
    let pool = PgPoolOptions::new().max_connections(2).connect_with(opts).await.unwrap();
    // README snippet begins
    let (u, p, t, e, a, us): (Ulid, PrefixedId, TypeId, TypeId, PrefixedId, TypeId) = sqlx::query_as(
    // README snippet ends
        "SELECT ulid(), prefixed_id_new('acct'), typeid_new('user'), typeid_new(''),
                prefixed_id_new('acct')::account_id, typeid_new('user')::user_id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    let texts: (String, String, String, String, String, String) = sqlx::query_as(
        "SELECT $1::text, $2::text, $3::text, $4::text, $5::account_id::text, $6::user_id::text",
    )
    .bind(u).bind(&p).bind(&t).bind(&e).bind(&a).bind(&us)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(texts, (u.to_string(), p.to_string(), t.to_string(), e.to_string(), a.to_string(), us.to_string()));
    let (arr, none): (Vec<Ulid>, Option<TypeId>) = sqlx::query_as("SELECT ARRAY[$1::ulid, $1], NULL::user_id")
        .bind(u)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!((arr, none), (vec![u, u], None));
    let err = sqlx::query("SELECT $1::account_id").bind(PrefixedId::new("user", [1; 16]).unwrap()).execute(&pool).await.unwrap_err();
    assert_eq!(err.as_database_error().and_then(|d| d.code()).as_deref(), Some("23514"), "{err}");
    // a column of another type is refused, not misread
    assert!(sqlx::query_scalar::<_, Ulid>("SELECT typeid_new('user')").fetch_one(&pool).await.is_err());
    assert!(sqlx::query_scalar::<_, Ulid>("SELECT NULL::ulid").fetch_one(&pool).await.is_err());
}

const DOMAIN_VALUES: &str = "SELECT r, rr, m, rra, ma, r::text, rr::text, m::text FROM domain_values";

type DomainRow = (Ulid, Ulid, TypeId, Vec<Option<Ulid>>, Vec<TypeId>, String, String, String);

// Each row of domain_values: the domains' values equal the server's text, the arrays their values.
fn check_domain_rows(how: &str, rows: &[DomainRow]) {
    assert_eq!(rows.len(), 3, "{how}");
    for (r, rr, m, rra, ma, rt, rrt, mt) in rows {
        assert_eq!((r.to_string(), rr.to_string(), m.to_string()), (rt.clone(), rrt.clone(), mt.clone()), "{how}");
        assert_eq!(m.prefix(), "member", "{how}");
        assert_eq!((rra.as_slice(), ma.as_slice()), ([Some(*rr), None].as_slice(), [m.clone()].as_slice()), "{how}");
    }
}

// A CREATE DOMAIN over ulid, a domain over that domain and typeid_define()'s
// domain, and arrays of them: tokio-postgres (binary) and sqlx (binary, and
// text through the simple protocol) read them, and take them as parameters.
#[tokio::test]
async fn domains_over_domains() {
    let c = client().await;
    let rows: Vec<DomainRow> = c
        .query(DOMAIN_VALUES, &[])
        .await
        .unwrap()
        .iter()
        .map(|row| (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4), row.get(5), row.get(6), row.get(7)))
        .collect();
    check_domain_rows("tokio-postgres", &rows);
    let (rr, m) = (rows[0].1, rows[0].2.clone());
    let n: i64 = c
        .query_one("SELECT count(*) FROM domain_values WHERE rr = $1::ulid_ref_ref AND rr = ANY($2::ulid_ref_ref[])
                    AND m = $3::member_id", &[&rr, &vec![rr], &m])
        .await
        .unwrap()
        .get(0);
    assert_eq!(n, 1, "tokio-postgres parameters");

    use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
    use sqlx::Row;
    let opts = PgConnectOptions::new().options([("search_path", "rusttest,public")]);
    let pool = PgPoolOptions::new().max_connections(1).connect_with(opts).await.unwrap();
    let rows: Vec<DomainRow> = sqlx::query_as(DOMAIN_VALUES).fetch_all(&pool).await.unwrap();
    check_domain_rows("sqlx", &rows);
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM domain_values WHERE rr = $1::ulid_ref_ref AND rr = ANY($2::ulid_ref_ref[])
                                     AND m = $3::member_id")
        .bind(rr)
        .bind(vec![rr])
        .bind(&m)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(n, 1, "sqlx parameters");
    // the simple protocol: results in text
    let text: Vec<DomainRow> = sqlx::raw_sql(DOMAIN_VALUES)
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|row| {
            (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4), row.get(5), row.get(6), row.get(7))
        })
        .collect();
    check_domain_rows("sqlx, text", &text);
}

const PER_FAMILY: usize = 100_000;

fn ms(t: SystemTime) -> i128 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_millis() as i128,
        Err(e) => -(e.duration().as_millis() as i128),
    }
}

/// The server's timestamptz as Unix ms (extract(epoch) * 1000 as bigint).
async fn rows(c: &Client, sql: &str) -> Vec<tokio_postgres::Row> {
    let rows = c.query(sql, &[]).await.unwrap();
    assert_eq!(rows.len(), PER_FAMILY);
    rows
}

#[tokio::test]
async fn decoders_uuid_v7() {
    let c = client().await;
    let mut bad = 0;
    for r in rows(&c, "SELECT uuid_send(u), (extract(epoch FROM uuid_v7_time(u)) * 1000)::bigint FROM (
        SELECT CASE i % 3 WHEN 0 THEN uuid_v7() WHEN 1 THEN uuid_v7_at(timestamptz '1970-01-01+00' + random() * interval '8000 years')
               ELSE gen_random_uuid() END AS u FROM generate_series(1, 100000) i) s").await {
        let u: [u8; 16] = r.get::<_, &[u8]>(0).try_into().unwrap();
        let want: Option<i64> = r.get(1);
        if uuid_v7_time(&u).map(ms) != want.map(|w| w as i128) {
            bad += 1;
        }
    }
    assert_eq!(bad, 0);
}

async fn snowflakes(c: &Client, family: &str, sql: &str) {
    let other_epoch = Duration::from_millis(1_288_834_974_657); // 2010-11-04 01:42:54.657 UTC
    let mut bad = 0;
    for r in rows(c, sql).await {
        let (id, t, own, shard, seq): (i64, i64, i64, i32, i32) = (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
        let got = if family == "snowflake" {
            (snowflake_time(id), snowflake_time_with_epoch(id, other_epoch), snowflake_shard(id), snowflake_seq(id))
        } else {
            (snowflake53_time(id), snowflake53_time_with_epoch(id, other_epoch), snowflake53_shard(id), snowflake53_seq(id))
        };
        if (got.0.map(ms), got.1.map(ms), got.2, got.3) != (Ok(t as i128), Ok(own as i128), Ok(shard), Ok(seq)) {
            bad += 1;
        }
    }
    assert_eq!(bad, 0, "{family}");
}

#[tokio::test]
async fn decoders_snowflake() {
    let c = client().await;
    snowflakes(&c, "snowflake", "SELECT id, (extract(epoch FROM snowflake_time(id, '2024-01-01+00')) * 1000)::bigint,
        (extract(epoch FROM snowflake_time(id, '2010-11-04 01:42:54.657+00')) * 1000)::bigint, snowflake_shard(id), snowflake_seq(id) FROM (
        SELECT CASE WHEN i % 2 = 0 THEN snowflake((i / 2) % 8192)
               ELSE (9007199254740992 + floor(random() * (9223372036854775807 - 9007199254740992)::numeric))::bigint END AS id
        FROM generate_series(1, 100000) i) s").await;
    let err = c.query_one("SELECT snowflake_time(9007199254740991)", &[]).await.unwrap_err();
    assert_eq!(pg_code(&err), Some("22003"));
    assert!(snowflake_time(9007199254740991).is_err());
}

#[tokio::test]
async fn decoders_snowflake53() {
    let c = client().await;
    snowflakes(&c, "snowflake53", "SELECT id, (extract(epoch FROM snowflake53_time(id, '2024-01-01+00')) * 1000)::bigint,
        (extract(epoch FROM snowflake53_time(id, '2010-11-04 01:42:54.657+00')) * 1000)::bigint, snowflake53_shard(id), snowflake53_seq(id) FROM (
        SELECT CASE WHEN i % 2 = 0 THEN snowflake53((i / 2) % 16) ELSE floor(random() * 9007199254740992)::bigint END AS id
        FROM generate_series(1, 100000) i) s").await;
    let err = c.query_one("SELECT snowflake53_time(9007199254740992)", &[]).await.unwrap_err();
    assert_eq!(pg_code(&err), Some("22003"));
    assert!(snowflake53_time(1 << 53).is_err());
}

#[tokio::test]
async fn decoders_ulid() {
    let c = client().await;
    let mut bad = 0;
    for r in rows(&c, "SELECT v, v::text, uuid_send(v::uuid), (extract(epoch FROM ulid_time(v)) * 1000)::bigint FROM (
        SELECT CASE WHEN i % 2 = 0 THEN ulid() ELSE gen_random_uuid()::ulid END AS v FROM generate_series(1, 100000) i) s").await {
        let (v, text, u, t): (Ulid, String, &[u8], i64) = (r.get(0), r.get(1), r.get(2), r.get(3));
        if v.to_string() != text || text.parse::<Ulid>() != Ok(v) || v.to_uuid_bytes()[..] != *u || v.as_bytes()[..] != *u
            || Ulid::from_uuid_bytes(u.try_into().unwrap()) != v || Ulid::from_bytes(u.try_into().unwrap()) != v || ms(v.time()) != t as i128 {
            bad += 1;
        }
    }
    assert_eq!(bad, 0);
}

#[tokio::test]
async fn decoders_prefixed_id() {
    let c = client().await;
    let mut bad = 0;
    for r in rows(&c, "SELECT v, v::text, uuid_send(prefixed_id_uuid(v)), (extract(epoch FROM prefixed_id_time(v)) * 1000)::bigint FROM (
        SELECT CASE i % 3 WHEN 0 THEN prefixed_id_new('acct') WHEN 1 THEN prefixed_id_token('session_key')
               ELSE prefixed_id_from_uuid(repeat('z', 1 + i % 63), gen_random_uuid()) END AS v FROM generate_series(1, 100000) i) s").await {
        let (v, text, u, t): (PrefixedId, String, &[u8], Option<i64>) = (r.get(0), r.get(1), r.get(2), r.get(3));
        if v.to_string() != text || text.parse::<PrefixedId>().as_ref() != Ok(&v) || v.to_uuid_bytes()[..] != *u
            || v.time().map(ms) != t.map(|t| t as i128) {
            bad += 1;
        }
    }
    assert_eq!(bad, 0);
}

#[tokio::test]
async fn decoders_typeid() {
    let c = client().await;
    let mut bad = 0;
    for r in rows(&c, "SELECT v, v::text, uuid_send(typeid_uuid(v)), (extract(epoch FROM typeid_time(v)) * 1000)::bigint FROM (
        SELECT CASE i % 3 WHEN 0 THEN typeid_new('user') WHEN 1 THEN typeid_new('')
               ELSE typeid_from_uuid(repeat('q', i % 64), gen_random_uuid()) END AS v FROM generate_series(1, 100000) i) s").await {
        let (v, text, u, t): (TypeId, String, &[u8], Option<i64>) = (r.get(0), r.get(1), r.get(2), r.get(3));
        if v.to_string() != text || text.parse::<TypeId>().as_ref() != Ok(&v) || v.to_uuid_bytes()[..] != *u
            || v.time().map(ms) != t.map(|t| t as i128) {
            bad += 1;
        }
    }
    assert_eq!(bad, 0);
}


/// Decoding 1,000,000 rows per family with the binary FromSql and from text
/// (`v::text` parsed by FromStr: the server's output function and the
/// crate's parser), in one run. Prints each ratio; asserts only that both
/// decode every row to the same values.
#[tokio::test]
async fn speed_binary_vs_text() {
    let c = client().await;
    c.batch_execute("SET synchronize_seqscans = off").await.unwrap();
    for (family, mint) in [("ulid", "ulid()"), ("prefixed_id", "prefixed_id_new('acct')"), ("typeid", "typeid_new('user')")] {
        c.batch_execute(&format!("CREATE TEMP TABLE speed AS SELECT {mint} AS v FROM generate_series(1, 1000000)")).await.unwrap();
        c.query_one("SELECT count(*) FROM speed", &[]).await.unwrap(); // the table read once before the timed runs
        let start = std::time::Instant::now();
        let binary: Vec<String> = match family {
            "ulid" => c.query("SELECT v FROM speed", &[]).await.unwrap().iter().map(|r| r.get::<_, Ulid>(0).to_string()).collect(),
            "prefixed_id" => c.query("SELECT v FROM speed", &[]).await.unwrap().iter().map(|r| r.get::<_, PrefixedId>(0).to_string()).collect(),
            _ => c.query("SELECT v FROM speed", &[]).await.unwrap().iter().map(|r| r.get::<_, TypeId>(0).to_string()).collect(),
        };
        let binary_time = start.elapsed();
        let start = std::time::Instant::now();
        let text: Vec<String> = match family {
            "ulid" => c.query("SELECT v::text FROM speed", &[]).await.unwrap().iter().map(|r| r.get::<_, &str>(0).parse::<Ulid>().unwrap().to_string()).collect(),
            "prefixed_id" => c.query("SELECT v::text FROM speed", &[]).await.unwrap().iter().map(|r| r.get::<_, &str>(0).parse::<PrefixedId>().unwrap().to_string()).collect(),
            _ => c.query("SELECT v::text FROM speed", &[]).await.unwrap().iter().map(|r| r.get::<_, &str>(0).parse::<TypeId>().unwrap().to_string()).collect(),
        };
        let text_time = start.elapsed();
        assert_eq!(binary.len(), 1_000_000);
        assert!(binary == text, "{family}: binary and text decode differently");
        println!("speed: tokio-postgres {family}, 1000000 rows: binary {binary_time:?}, text {text_time:?}, text/binary {:.2}",
            text_time.as_secs_f64() / binary_time.as_secs_f64());
        c.batch_execute("DROP TABLE speed").await.unwrap();
    }
}
