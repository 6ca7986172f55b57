//! Against a server named by libpq's environment (PGHOST, PGPORT,
//! PGDATABASE, PGUSER: a database whose owner may create idgen). Without
//! PGDATABASE these tests fail: they are the crate's tests with a server.
use futures_util::{pin_mut, TryStreamExt};
use idgen::*;
use std::sync::Once;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio_postgres::binary_copy::{BinaryCopyInWriter, BinaryCopyOutStream};
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
UPDATE domain_values SET rra = ARRAY[rr, NULL], ma = ARRAY[m];
CREATE TABLE documents (id objectid PRIMARY KEY DEFAULT objectid(), event ksuid NOT NULL DEFAULT ksuid(),
                        trace rsxid DEFAULT xid(), related objectid[]);
CREATE DOMAIN ksuid_ref AS ksuid;
CREATE DOMAIN objectid_ref AS objectid;
CREATE DOMAIN xid_ref AS rsxid;
CREATE DOMAIN xid_ref_ref AS xid_ref;
CREATE TABLE other_domain_values (k ksuid_ref, o objectid_ref, xx xid_ref_ref, ka ksuid_ref[], xxa xid_ref_ref[]);
INSERT INTO other_domain_values (k, o, xx) SELECT ksuid(), objectid(), xid() FROM generate_series(1, 3);
UPDATE other_domain_values SET ka = ARRAY[k], xxa = ARRAY[xx, NULL];";

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

// ksuid, objectid and rsxid: read in binary, equal to the server's text and
// bytes, bound as parameters, in arrays and as Option; a value of another of
// the three (ObjectId and Xid are both 12 bytes) is refused both ways.
#[tokio::test]
async fn ksuid_objectid_xid_through_tokio_postgres() -> Result<(), tokio_postgres::Error> {
    let c = client().await;
    // README crate begins
    let id: idgen::ObjectId =
        c.query_one("INSERT INTO documents (related) VALUES (ARRAY[objectid(), NULL]) RETURNING id", &[]).await?.get(0);
    let row = c.query_one("SELECT id, event, trace, related FROM documents WHERE id = $1", &[&id]).await?;
    let (o, k, x): (idgen::ObjectId, idgen::Ksuid, idgen::Xid) = (row.get(0), row.get(1), row.get(2));
    let related: Vec<Option<idgen::ObjectId>> = row.get(3);
    let n: i64 = c.query_one("SELECT count(*) FROM documents WHERE id = ANY($1) AND event = $2 AND trace = $3",
                             &[&vec![o], &k, &x]).await?.get(0);
    // README crate ends
    assert_eq!(n, 1);
    assert_eq!((related.len(), related[1]), (2, None));
    let back = c.query_one("SELECT $1::ksuid::text, $2::objectid::text, $3::rsxid::text, ksuid_send($1), objectid_send($2), rsxid_send($3),
                            $4::objectid[]::text", &[&k, &o, &x, &related]).await?;
    let texts: (String, String, String, Vec<u8>, Vec<u8>, Vec<u8>, String) =
        (back.get(0), back.get(1), back.get(2), back.get(3), back.get(4), back.get(5), back.get(6));
    assert_eq!(texts, (k.to_string(), o.to_string(), x.to_string(), k.as_bytes().to_vec(), o.as_bytes().to_vec(), x.as_bytes().to_vec(),
                       format!("{{{},NULL}}", related[0].unwrap())));
    // arrays, NULL as None, and a NULL into a non-Option refused
    let row = c.query_one("SELECT ARRAY[$1::ksuid, $1], ARRAY[$2::rsxid], NULL::ksuid, NULL::objectid, NULL::rsxid", &[&k, &x]).await?;
    assert_eq!((row.get::<_, Vec<Ksuid>>(0), row.get::<_, Vec<Xid>>(1)), (vec![k, k], vec![x]));
    assert_eq!((row.get::<_, Option<Ksuid>>(2), row.get::<_, Option<ObjectId>>(3), row.get::<_, Option<Xid>>(4)), (None, None, None));
    assert!(row.try_get::<_, Ksuid>(2).is_err() && row.try_get::<_, ObjectId>(3).is_err() && row.try_get::<_, Xid>(4).is_err());
    // the wrong Rust type for a column, and for a parameter, is refused, not misread
    let row = c.query_one("SELECT ksuid(), objectid(), xid()", &[]).await?;
    assert!(row.try_get::<_, ObjectId>(0).is_err() && row.try_get::<_, Ulid>(0).is_err());
    assert!(row.try_get::<_, Xid>(1).is_err() && row.try_get::<_, Ksuid>(1).is_err());
    assert!(row.try_get::<_, ObjectId>(2).is_err() && row.try_get::<_, String>(2).is_err());
    assert!(c.query_one("SELECT $1::rsxid", &[&o]).await.is_err());
    assert!(c.query_one("SELECT $1::objectid", &[&x]).await.is_err());
    assert!(c.query_one("SELECT $1::ksuid", &[&u_of(&k)]).await.is_err());
    // the values the server minted are of now
    let now = SystemTime::now();
    for t in [k.time(), o.time(), x.time()] {
        assert!(t <= now + Duration::from_secs(2) && now.duration_since(t).unwrap_or_default() < Duration::from_secs(600), "{t:?}");
    }
    Ok(())
}

// A Ulid of a KSUID's first 16 bytes: a value of the wrong type for a ksuid parameter.
fn u_of(k: &Ksuid) -> Ulid {
    Ulid::from_bytes(k.as_bytes()[..16].try_into().unwrap())
}

#[tokio::test]
async fn ksuid_objectid_xid_binary_copy() {
    let c = client().await;
    let row = c.query_one("SELECT ksuid(), objectid(), xid()", &[]).await.unwrap();
    let (k, o, x): (Ksuid, ObjectId, Xid) = (row.get(0), row.get(1), row.get(2));
    let stmt = c.prepare("SELECT $1::objectid, $2::ksuid, $3::rsxid, $4::objectid[]").await.unwrap();
    let types: Vec<Type> = stmt.params().to_vec();
    let sink = c.copy_in("COPY documents (id, event, trace, related) FROM STDIN (FORMAT binary)").await.unwrap();
    let writer = BinaryCopyInWriter::new(sink, &types);
    pin_mut!(writer);
    writer.as_mut().write(&[&o, &k, &x, &vec![o, o]]).await.unwrap();
    assert_eq!(writer.finish().await.unwrap(), 1);
    let row = c
        .query_one("SELECT id::text, event::text, trace::text, related::text FROM documents WHERE id = $1", &[&o])
        .await
        .unwrap();
    assert_eq!((row.get::<_, String>(0), row.get::<_, String>(1), row.get::<_, String>(2), row.get::<_, String>(3)),
               (o.to_string(), k.to_string(), x.to_string(), format!("{{{o},{o}}}")));
    // and binary COPY out reads them back
    let stream = c
        .copy_out(&format!("COPY (SELECT id, event, trace, related FROM documents WHERE id = '{o}') TO STDOUT (FORMAT binary)"))
        .await
        .unwrap();
    let rows: Vec<_> = BinaryCopyOutStream::new(stream, &types).try_collect().await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].get::<ObjectId>(0), rows[0].get::<Ksuid>(1), rows[0].get::<Xid>(2), rows[0].get::<Vec<ObjectId>>(3)),
               (o, k, x, vec![o, o]));
}

#[tokio::test]
async fn ksuid_objectid_xid_through_sqlx() -> Result<(), sqlx::Error> {
    client().await; // the schema
    use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
    let opts = PgConnectOptions::new().options([("search_path", "rusttest,public")]);
    let pool = PgPoolOptions::new().max_connections(2).connect_with(opts).await.unwrap();
    // README crate begins
    let (k, o, x): (idgen::Ksuid, idgen::ObjectId, idgen::Xid) =
        sqlx::query_as("SELECT ksuid(), objectid(), xid()").fetch_one(&pool).await?;
    // README crate ends
    let texts: (String, String, String, String) = sqlx::query_as("SELECT $1::text, $2::text, $3::text, $4::text")
        .bind(k).bind(o).bind(x).bind(vec![x, x])
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(texts, (k.to_string(), o.to_string(), x.to_string(), format!("{{{x},{x}}}")));
    let (ks, os, none): (Vec<Ksuid>, Vec<Option<ObjectId>>, Option<Xid>) =
        sqlx::query_as("SELECT ARRAY[$1::ksuid], ARRAY[$2::objectid, NULL], NULL::rsxid")
            .bind(k).bind(o)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((ks, os, none), (vec![k], vec![Some(o), None], None));
    // a column or parameter of another type is refused, not misread
    assert!(sqlx::query_scalar::<_, ObjectId>("SELECT xid()").fetch_one(&pool).await.is_err());
    assert!(sqlx::query_scalar::<_, Xid>("SELECT objectid()").fetch_one(&pool).await.is_err());
    assert!(sqlx::query_scalar::<_, Ksuid>("SELECT ulid()").fetch_one(&pool).await.is_err());
    assert!(sqlx::query_scalar::<_, Ksuid>("SELECT NULL::ksuid").fetch_one(&pool).await.is_err());
    assert!(sqlx::query("SELECT $1::objectid").bind(x).execute(&pool).await.is_err());
    // the simple protocol: results in text, read by FromStr
    let row = sqlx::raw_sql("SELECT ksuid(), objectid(), xid()").fetch_one(&pool).await.unwrap();
    use sqlx::Row;
    let (k2, o2, x2): (Ksuid, ObjectId, Xid) = (row.get(0), row.get(1), row.get(2));
    assert!(k2 != k && o2 != o && x2 != x, "new values");
    Ok(())
}

const OTHER_DOMAINS: &str = "SELECT k, o, xx, ka, xxa, k::text, o::text, xx::text FROM other_domain_values ORDER BY 2";

type OtherDomainRow = (Ksuid, ObjectId, Xid, Vec<Ksuid>, Vec<Option<Xid>>, String, String, String);

fn check_other_domain_rows(how: &str, rows: &[OtherDomainRow]) {
    assert_eq!(rows.len(), 3, "{how}");
    for (k, o, xx, ka, xxa, kt, ot, xxt) in rows {
        assert_eq!((k.to_string(), o.to_string(), xx.to_string()), (kt.clone(), ot.clone(), xxt.clone()), "{how}");
        assert_eq!((ka.as_slice(), xxa.as_slice()), ([*k].as_slice(), [Some(*xx), None].as_slice()), "{how}");
    }
}

// Domains over ksuid, objectid and rsxid (a domain over a domain over rsxid)
// and arrays of them, through tokio-postgres and sqlx (binary and text), read
// and bound as parameters.
#[tokio::test]
async fn ksuid_objectid_xid_domains() {
    let c = client().await;
    let rows: Vec<OtherDomainRow> = c
        .query(OTHER_DOMAINS, &[])
        .await
        .unwrap()
        .iter()
        .map(|row| (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4), row.get(5), row.get(6), row.get(7)))
        .collect();
    check_other_domain_rows("tokio-postgres", &rows);
    let (k, o, xx) = (rows[0].0, rows[0].1, rows[0].2);
    let sql = "SELECT count(*) FROM other_domain_values WHERE k = $1::ksuid_ref AND o = $2::objectid_ref
               AND xx = $3::xid_ref_ref AND xx = ANY($4::xid_ref_ref[])";
    let n: i64 = c.query_one(sql, &[&k, &o, &xx, &vec![xx]]).await.unwrap().get(0);
    assert_eq!(n, 1, "tokio-postgres parameters");

    use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
    use sqlx::Row;
    let opts = PgConnectOptions::new().options([("search_path", "rusttest,public")]);
    let pool = PgPoolOptions::new().max_connections(1).connect_with(opts).await.unwrap();
    let rows: Vec<OtherDomainRow> = sqlx::query_as(OTHER_DOMAINS).fetch_all(&pool).await.unwrap();
    check_other_domain_rows("sqlx", &rows);
    let n: i64 = sqlx::query_scalar(sql).bind(k).bind(o).bind(xx).bind(vec![xx]).fetch_one(&pool).await.unwrap();
    assert_eq!(n, 1, "sqlx parameters");
    let text: Vec<OtherDomainRow> = sqlx::raw_sql(OTHER_DOMAINS)
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|row| (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4), row.get(5), row.get(6), row.get(7)))
        .collect();
    check_other_domain_rows("sqlx, text", &text);
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

#[tokio::test]
async fn decoders_timeflake_and_push_id() {
    let c = client().await;
    let mut bad = 0;
    for r in rows(&c, "SELECT uuid_send(f), (extract(epoch FROM timeflake_time(f)) * 1000)::bigint, timeflake_random(f)::text FROM (
        SELECT CASE i % 3 WHEN 0 THEN timeflake() WHEN 1 THEN timeflake_at(timestamptz '1970-01-01+00' + random() * interval '8000 years')
               ELSE gen_random_uuid() END AS f FROM generate_series(1, 100000) i) s").await {
        let f: [u8; 16] = r.get::<_, &[u8]>(0).try_into().unwrap();
        let (t, random): (i64, &str) = (r.get(1), r.get(2));
        if ms(timeflake_time(&f)) != t as i128 || timeflake_random(&f).to_string() != random {
            bad += 1;
        }
    }
    assert_eq!(bad, 0, "timeflake");
    // push IDs the server mints, any 20 characters of the alphabet, and texts
    // of other lengths or characters
    let sql = format!("SELECT p, push_id_is_valid(p), CASE WHEN push_id_is_valid(p) THEN (extract(epoch FROM push_id_time(p)) * 1000)::bigint END FROM (
        SELECT CASE i % 3 WHEN 0 THEN push_id() WHEN 1 THEN nanoid(20, '{PUSH_ID_ALPHABET}')
               ELSE nanoid(19 + i % 3, '{PUSH_ID_ALPHABET}.') END AS p FROM generate_series(1, 100000) i) s");
    for r in rows(&c, &sql).await {
        let (p, valid, t): (&str, bool, Option<i64>) = (r.get(0), r.get(1), r.get(2));
        let got = push_id_time(p);
        if push_id_is_valid(p) != valid || got.clone().ok().map(ms) != t.map(|t| t as i128) || got.is_err() == valid {
            bad += 1;
        }
    }
    assert_eq!(bad, 0, "push_id");
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

// Random bytes of a given length: md5 of random() strings (uuid_send of
// gen_random_uuid() would fix its version and variant bits).
fn random_bytes(n: usize) -> String {
    format!("substring(decode(md5(random()::text) || md5(random()::text), 'hex') FROM 1 FOR {n})")
}

/// The server's timestamptz as Unix seconds.
fn secs(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH).expect("after 1970").as_secs() as i64
}

#[tokio::test]
async fn decoders_ksuid() {
    let c = client().await;
    let mut bad = 0;
    for r in rows(&c, &format!("SELECT v, v::text, ksuid_send(v), extract(epoch FROM ksuid_time(v))::bigint, ksuid_payload(v) FROM (
        SELECT CASE i % 3 WHEN 0 THEN ksuid() WHEN 1 THEN ksuid_at(timestamptz '2014-05-13 16:53:20+00' + random() * interval '136 years')
               ELSE {}::ksuid END AS v FROM generate_series(1, 100000) i) s", random_bytes(20))).await {
        let (v, text, b, t, payload): (Ksuid, String, &[u8], i64, &[u8]) = (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
        if v.to_string() != text || text.parse::<Ksuid>() != Ok(v) || v.as_bytes()[..] != *b || Ksuid::from_binary(b) != Ok(v)
            || secs(v.time()) != t || v.payload()[..] != *payload {
            bad += 1;
        }
    }
    assert_eq!(bad, 0);
}

#[tokio::test]
async fn decoders_objectid() {
    let c = client().await;
    let mut bad = 0;
    for r in rows(&c, &format!("SELECT v, v::text, objectid_send(v), extract(epoch FROM objectid_time(v))::bigint, objectid_process(v),
        objectid_counter(v) FROM (SELECT CASE WHEN i % 2 = 0 THEN objectid() ELSE {}::objectid END AS v FROM generate_series(1, 100000) i) s",
        random_bytes(12))).await {
        let (v, text, b, t, process, counter): (ObjectId, String, &[u8], i64, &[u8], i32) =
            (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5));
        if v.to_string() != text || text.parse::<ObjectId>() != Ok(v) || text.to_uppercase().parse::<ObjectId>() != Ok(v)
            || v.as_bytes()[..] != *b || secs(v.time()) != t || v.process()[..] != *process || v.counter() as i32 != counter {
            bad += 1;
        }
    }
    assert_eq!(bad, 0);
}

#[tokio::test]
async fn decoders_xid() {
    let c = client().await;
    let mut bad = 0;
    for r in rows(&c, &format!("SELECT v, v::text, rsxid_send(v), extract(epoch FROM xid_time(v))::bigint, xid_machine(v), xid_pid(v),
        xid_counter(v) FROM (SELECT CASE WHEN i % 2 = 0 THEN xid() ELSE {}::rsxid END AS v FROM generate_series(1, 100000) i) s",
        random_bytes(12))).await {
        let (v, text, b, t, machine, pid, counter): (Xid, String, &[u8], i64, &[u8], i32, i32) =
            (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(6));
        if v.to_string() != text || text.parse::<Xid>() != Ok(v) || v.as_bytes()[..] != *b || secs(v.time()) != t
            || v.machine()[..] != *machine || v.pid() as i32 != pid || v.counter() as i32 != counter {
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
