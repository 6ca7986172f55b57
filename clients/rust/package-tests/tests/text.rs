//! The text forms, binary forms and decoders, without a server, on the cases
//! of idgen's vectors file, test/data/id_vectors.json (docs/development.md of
//! idgen): each answer is the C++ cores'. IDGEN_VECTORS names the file
//! (rust_package.pl sets it: the tests run from a copy of this crate);
//! without it, ../../../test/data/id_vectors.json from this crate's directory.
use idgen::*;
use serde_json::Value;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

fn vectors() -> Value {
    let path = std::env::var("IDGEN_VECTORS")
        .unwrap_or_else(|_| format!("{}/../../../test/data/id_vectors.json", env!("CARGO_MANIFEST_DIR")));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("the vectors file {path} (set IDGEN_VECTORS): {e}"));
    serde_json::from_str(&text).expect("the vectors file is JSON")
}

/// A family's cases of one form, those with ok as given (a form without refusals: all).
fn cases(v: &Value, family: &str, form: &str, ok: bool) -> Vec<Value> {
    v["families"][family]["cases"][form].as_array().expect("a form of the file").iter()
        .filter(|c| c["ok"].as_bool().unwrap_or(true) == ok).cloned().collect()
}

fn s(c: &Value, key: &str) -> String {
    c[key].as_str().unwrap_or_else(|| panic!("{key} of {c}")).to_string()
}

fn bytes(c: &Value, key: &str) -> Vec<u8> {
    let h = s(c, key);
    (0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap()).collect()
}

fn bits(c: &Value, key: &str) -> [u8; 16] {
    bytes(c, key).try_into().expect("16 bytes")
}

/// The time of a case's unix_ms (None for null).
fn time(c: &Value) -> Option<SystemTime> {
    c["unix_ms"].as_u64().map(|ms| UNIX_EPOCH + Duration::from_millis(ms))
}

fn not_ascii(c: &Value) -> bool {
    c["not_ascii"].as_bool().unwrap_or(false)
}

#[test]
fn text_vectors() {
    let v = vectors();
    let mut ulids = Vec::new();
    for c in cases(&v, "ulid", "text", true) {
        let u: Ulid = s(&c, "text").parse().unwrap_or_else(|e| panic!("{c}: {e}"));
        assert_eq!((*u.as_bytes(), u.to_uuid_bytes(), u.to_string(), Some(u.time())),
            (bits(&c, "bits"), bits(&c, "bits"), s(&c, "canonical"), time(&c)), "{c}");
        assert_eq!((Ulid::from_bytes(bits(&c, "bits")), Ulid::from_uuid_bytes(bits(&c, "bits"))), (u, u), "{c}");
        ulids.push(u);
    }
    for c in cases(&v, "ulid", "bits", true) {
        let u = Ulid::from_bytes(bits(&c, "bits"));
        assert_eq!((u.to_string(), Some(u.time()), s(&c, "text").parse()), (s(&c, "text"), time(&c), Ok(u)), "{c}");
        ulids.push(u);
    }
    // ordered as the bytes and as the text, and equal values hash alike
    ulids.sort();
    ulids.dedup();
    assert!(ulids.len() > 4);
    let mut by_bytes = ulids.clone();
    by_bytes.sort_by_key(|u| *u.as_bytes());
    let mut by_text = ulids.clone();
    by_text.sort_by_key(|u| u.to_string());
    assert_eq!((&by_bytes, &by_text), (&ulids, &ulids));
    let set: std::collections::HashSet<Ulid> = ulids.iter().map(|u| Ulid::from_bytes(*u.as_bytes())).collect();
    assert!(ulids.iter().all(|u| set.contains(u)) && set.len() == ulids.len());
    for c in cases(&v, "prefixed_id", "text", true) {
        let p: PrefixedId = s(&c, "text").parse().unwrap_or_else(|e| panic!("{c}: {e}"));
        assert_eq!((p.prefix().to_string(), p.to_uuid_bytes(), p.to_string(), p.time()),
            (s(&c, "prefix"), bits(&c, "bits"), s(&c, "canonical"), time(&c)), "{c}");
        assert_eq!(PrefixedId::new(&s(&c, "prefix"), bits(&c, "bits")).unwrap(), p, "{c}");
    }
    for c in cases(&v, "typeid", "text", true) {
        let t: TypeId = s(&c, "text").parse().unwrap_or_else(|e| panic!("{c}: {e}"));
        assert_eq!((t.prefix().to_string(), t.to_uuid_bytes(), t.to_string(), t.time()),
            (s(&c, "prefix"), bits(&c, "bits"), s(&c, "canonical"), time(&c)), "{c}");
        assert_eq!(TypeId::new(&s(&c, "prefix"), bits(&c, "bits")).unwrap(), t, "{c}");
    }
}

/// The refused text of the three families, look-alikes or not: each a
/// ParseError of its type. How many were run.
fn refused_text(v: &Value, look_alikes: bool) -> usize {
    let mut run = 0;
    for family in ["ulid", "prefixed_id", "typeid"] {
        for c in cases(v, family, "text", false).into_iter().filter(|c| not_ascii(c) == look_alikes) {
            let text = s(&c, "text");
            let refused = match family {
                "ulid" => text.parse::<Ulid>().err(),
                "prefixed_id" => text.parse::<PrefixedId>().err(),
                _ => text.parse::<TypeId>().err(),
            };
            match refused {
                Some(e) => assert_eq!(e.type_name, family, "{family}: {text:?} ({}): {e}", c["what"]),
                None => panic!("{family}: {text:?} ({}) accepted", c["what"]),
            }
            run += 1;
        }
    }
    run
}

#[test]
fn text_errors() {
    let v = vectors();
    assert!(refused_text(&v, false) > 0);
    // the prefix rule: a prefixed ID needs a prefix, a TypeID takes the empty one too
    for c in cases(&v, "prefix", "check", true).iter().chain(&cases(&v, "prefix", "check", false)) {
        let (prefix, ok) = (s(c, "prefix"), c["ok"].as_bool().unwrap());
        assert_eq!(PrefixedId::new(&prefix, [0; 16]).is_ok(), ok, "{c}");
        assert_eq!(TypeId::new(&prefix, [0; 16]).is_ok(), ok || c["reason"] == "empty", "{c}");
    }
}

// A binary form's cases of one family: the decoded value's text and the
// bytes written back, or the refusal.
macro_rules! binary_cases {
    ($v:expr, $ty:ty, $family:expr) => {
        for ok in [true, false] {
            for c in cases($v, $family, "binary", ok) {
                let got = <$ty>::from_binary(&bytes(&c, "binary"));
                assert_eq!(got.is_ok(), ok, "{c}");
                if let Ok(x) = got {
                    let mut wire = Vec::new();
                    x.write_binary(&mut wire);
                    assert_eq!((x.to_string(), wire), (s(&c, "canonical"), bytes(&c, "binary")), "{c}");
                }
            }
        }
    };
}

#[test]
fn wire_refusals() {
    assert!(Ulid::from_binary(&[0; 15]).is_err());
    assert!(Ulid::from_binary(&[0; 17]).is_err());
    let v = vectors();
    binary_cases!(&v, PrefixedId, "prefixed_id");
    binary_cases!(&v, TypeId, "typeid");
}

#[test]
fn decoder_ranges() {
    let v = vectors();
    for c in cases(&v, "uuid_v7", "bits", true) {
        assert_eq!(uuid_v7_time(&bits(&c, "bits")), time(&c), "{c}");
    }
    type Decoders = (fn(i64) -> Result<SystemTime, NotSnowflake>, fn(i64, Duration) -> Result<SystemTime, NotSnowflake>,
        fn(i64) -> Result<i32, NotSnowflake>, fn(i64) -> Result<i32, NotSnowflake>);
    let families: [(&str, [u32; 4], Decoders); 2] = [
        ("snowflake", SNOWFLAKE_LAYOUT, (snowflake_time, snowflake_time_with_epoch, snowflake_shard, snowflake_seq)),
        ("snowflake53", SNOWFLAKE53_LAYOUT,
            (snowflake53_time, snowflake53_time_with_epoch, snowflake53_shard, snowflake53_seq)),
    ];
    for (family, layout, (time_of, time_from, shard, seq)) in families {
        let f = &v["families"][family];
        let widths: Vec<u64> = f["fields"].as_array().unwrap().iter().map(|x| x["bits"].as_u64().unwrap()).collect();
        assert_eq!(widths, layout.map(u64::from).to_vec(), "{family}: the crate's layout is the file's");
        assert_eq!(f["epoch_unix_ms"].as_u64().map(Duration::from_millis), Some(DEFAULT_SNOWFLAKE_EPOCH),
            "{family}: the default epoch");
        for ok in [true, false] {
            for c in cases(&v, family, "id", ok) {
                let id: i64 = s(&c, "id").parse().unwrap();
                if ok {
                    let ms = Duration::from_millis(c["ms"].as_u64().unwrap());
                    // without an epoch, the default; with one, counted from it
                    assert_eq!((time_of(id), time_from(id, Duration::ZERO), shard(id), seq(id)),
                        (Ok(UNIX_EPOCH + DEFAULT_SNOWFLAKE_EPOCH + ms), Ok(UNIX_EPOCH + ms),
                            Ok(c["shard"].as_i64().unwrap() as i32), Ok(c["seq"].as_i64().unwrap() as i32)),
                        "{family}: {c}");
                } else {
                    assert_eq!((time_of(id).err(), time_from(id, Duration::ZERO).err(), shard(id).err(), seq(id).err()),
                        (Some(NotSnowflake(id)), Some(NotSnowflake(id)), Some(NotSnowflake(id)), Some(NotSnowflake(id))),
                        "{family}: {c}");
                }
            }
        }
    }
}

/// The time of a case's unix_s.
fn second(c: &Value) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(c["unix_s"].as_u64().unwrap_or_else(|| panic!("unix_s of {c}")))
}

/// What the crate's ParseError says for each of the file's refusal reasons:
/// the server reports a bad character before a wrong length, and either
/// before a value out of range, and so must the crate.
fn reason_of(family: &str, code: &str) -> &'static str {
    match (family, code) {
        ("ksuid", "bad_character") => "a character outside the base62 alphabet",
        ("ksuid", "wrong_length") => "not 27 characters",
        ("ksuid", "too_large") => "above aWgEPTl1tmebfsQzFP4bxwgy80V (more than 160 bits)",
        ("objectid", "bad_character") => "a character that is not a hexadecimal digit",
        ("objectid", "wrong_length") => "not 24 characters",
        ("xid", "bad_character") => "a character outside lowercase base32hex (0-9a-v)",
        ("xid", "wrong_length") => "not 20 characters",
        ("xid", "bad_last_character") => "the last character is not 0 or g (it carries bits beyond the 96)",
        _ => panic!("{family}: a refusal the crate does not know: {code}"),
    }
}

/// A value of one of the byte-string types and what the vectors file says of it.
trait Bytes: Sized + std::fmt::Debug + std::str::FromStr<Err = ParseError> + std::fmt::Display + Ord + Copy + std::hash::Hash {
    fn from_file(bytes: &[u8]) -> Self;
    fn bytes(&self) -> Vec<u8>;
    /// The decoders' answers as the file's fields: (time, {field: value}).
    fn fields(&self) -> (SystemTime, Vec<(&'static str, Value)>);
    fn from_binary(raw: &[u8]) -> Result<Self, WireError>;
    fn write_binary(&self, out: &mut Vec<u8>);
}

fn hex(b: &[u8]) -> Value {
    Value::String(b.iter().map(|x| format!("{x:02x}")).collect())
}

impl Bytes for Ksuid {
    fn from_file(bytes: &[u8]) -> Self { Ksuid::from_bytes(bytes.try_into().expect("20 bytes")) }
    fn bytes(&self) -> Vec<u8> { self.as_bytes().to_vec() }
    fn fields(&self) -> (SystemTime, Vec<(&'static str, Value)>) { (self.time(), vec![("payload", hex(&self.payload()))]) }
    fn from_binary(raw: &[u8]) -> Result<Self, WireError> { Ksuid::from_binary(raw) }
    fn write_binary(&self, out: &mut Vec<u8>) { Ksuid::write_binary(self, out) }
}

impl Bytes for ObjectId {
    fn from_file(bytes: &[u8]) -> Self { ObjectId::from_bytes(bytes.try_into().expect("12 bytes")) }
    fn bytes(&self) -> Vec<u8> { self.as_bytes().to_vec() }
    fn fields(&self) -> (SystemTime, Vec<(&'static str, Value)>) {
        (self.time(), vec![("process", hex(&self.process())), ("counter", self.counter().into())])
    }
    fn from_binary(raw: &[u8]) -> Result<Self, WireError> { ObjectId::from_binary(raw) }
    fn write_binary(&self, out: &mut Vec<u8>) { ObjectId::write_binary(self, out) }
}

impl Bytes for Xid {
    fn from_file(bytes: &[u8]) -> Self { Xid::from_bytes(bytes.try_into().expect("12 bytes")) }
    fn bytes(&self) -> Vec<u8> { self.as_bytes().to_vec() }
    fn fields(&self) -> (SystemTime, Vec<(&'static str, Value)>) {
        (self.time(), vec![("machine", hex(&self.machine())), ("pid", self.pid().into()), ("counter", self.counter().into())])
    }
    fn from_binary(raw: &[u8]) -> Result<Self, WireError> { Xid::from_binary(raw) }
    fn write_binary(&self, out: &mut Vec<u8>) { Xid::write_binary(self, out) }
}

/// One family of ksuid, objectid, xid: every text and bits case of the file
/// (accepted: bytes, canonical text, decoders; refused: the reason, and the
/// server's type in the error), the binary form (the bytes, and no other
/// length), and the order of the values (bytes, text). How many cases were run.
fn byte_family<T: Bytes>(v: &Value, family: &str, width: usize) -> usize {
    let f = &v["families"][family];
    let sql_type = f["sql_type"].as_str().unwrap();
    assert_eq!(f["bits"].as_u64(), Some(8 * width as u64), "{family}: the width");
    let check = |x: &T, c: &Value| {
        let (t, fields) = x.fields();
        assert_eq!((x.bytes(), x.to_string(), t), (bytes(c, "bits"), s(c, "canonical"), second(c)), "{family}: {c}");
        for (name, got) in fields {
            assert_eq!(got, c[name], "{family}: {name} of {c}");
        }
        let mut wire = Vec::new();
        x.write_binary(&mut wire);
        assert_eq!((T::from_binary(&wire), wire), (Ok(*x), bytes(c, "bits")), "{family}: the binary form of {c}");
        assert_eq!(x.to_string().parse::<T>(), Ok(*x), "{family}: {c}");
    };
    let (mut values, mut run) = (Vec::new(), 0);
    for c in cases(v, family, "text", true) {
        let x: T = s(&c, "text").parse().unwrap_or_else(|e| panic!("{family}: {c}: {e}"));
        check(&x, &c);
        values.push(x);
        run += 1;
    }
    for c in cases(v, family, "bits", true) {
        let x = T::from_file(&bytes(&c, "bits"));
        check(&x, &c);
        values.push(x);
        run += 1;
    }
    for c in cases(v, family, "text", false) {
        let text = s(&c, "text");
        match text.parse::<T>() {
            Ok(x) => panic!("{family}: {text:?} ({}) accepted as {x}", c["what"]),
            Err(e) => assert_eq!((e.type_name, e.reason), (sql_type, reason_of(family, &s(&c, "reason"))), "{family}: {c}"),
        }
        run += 1;
    }
    for n in [0, width - 1, width + 1] {
        assert_eq!(T::from_binary(&vec![0; n]).map_err(|e| e.type_name), Err(sql_type), "{family}: {n} bytes");
    }
    // ordered as the bytes and as the text, and equal values hash alike
    values.sort();
    values.dedup();
    assert!(values.len() >= 3, "{family}");
    let mut by_bytes = values.clone();
    by_bytes.sort_by_key(|x| x.bytes());
    let mut by_text = values.clone();
    by_text.sort_by_key(|x| x.to_string());
    assert_eq!((&by_bytes, &by_text), (&values, &values), "{family}");
    let set: std::collections::HashSet<T> = values.iter().map(|x| T::from_file(&x.bytes())).collect();
    assert!(set.len() == values.len() && values.iter().all(|x| set.contains(x)), "{family}");
    run
}

#[test]
fn ksuid_objectid_xid_vectors() {
    let v = vectors();
    for (family, width, run) in [("ksuid", 20, byte_family::<Ksuid>(&v, "ksuid", 20)),
        ("objectid", 12, byte_family::<ObjectId>(&v, "objectid", 12)), ("xid", 12, byte_family::<Xid>(&v, "xid", 12))] {
        assert!(run > 10, "{family} ({width} bytes): {run} cases");
    }
}

#[test]
fn ksuid_objectid_xid_layouts() {
    let v = vectors();
    let widths = |family: &str| -> Vec<u64> {
        v["families"][family]["fields"].as_array().unwrap().iter().map(|x| x["bits"].as_u64().unwrap()).collect()
    };
    assert_eq!(widths("ksuid"), KSUID_LAYOUT.map(u64::from).to_vec(), "ksuid: the crate's layout is the file's");
    assert_eq!(widths("objectid"), OBJECTID_LAYOUT.map(u64::from).to_vec(), "objectid: the crate's layout is the file's");
    assert_eq!(widths("xid"), XID_LAYOUT.map(u64::from).to_vec(), "xid: the crate's layout is the file's");
    assert_eq!(v["families"]["ksuid"]["epoch_unix_s"].as_u64().map(Duration::from_secs), Some(KSUID_EPOCH));
    for family in ["objectid", "xid"] {
        assert_eq!(v["families"][family]["epoch_unix_s"].as_u64(), Some(0), "{family}: Unix seconds");
    }
    // the largest second a KSUID carries, as the crate's docs give it
    let last = Ksuid::from_bytes([0xff; 20]).time().duration_since(UNIX_EPOCH).unwrap().as_secs();
    assert_eq!(last, 5_694_967_295); // 2150-06-19 23:21:35 UTC
}

/// The file's accepted text case of a family for this text.
fn case_of(v: &Value, family: &str, text: &str) -> Value {
    cases(v, family, "text", true).into_iter().find(|c| c["text"] == text).unwrap_or_else(|| panic!("{family}: no case {text}"))
}

// The README's decoders, on the file's example IDs of segmentio, the BSON
// corpus and rs/xid: their answers are the file's.
#[test]
fn readme_decoders() -> Result<(), ParseError> {
    let v = vectors();
    // README crate begins
    let k: idgen::Ksuid = "0ujtsYcgvSTl8PAuAdqWYSMnLOv".parse()?;
    let (k_second, payload) = (k.time(), k.payload());
    let o: idgen::ObjectId = "56E1FC72E0C917E9C4714161".parse()?; // either case; written in lower case
    let (o_second, process, o_counter) = (o.time(), o.process(), o.counter());
    let x: idgen::Xid = "9m4e2mr0ui3e8a215n4g".parse()?;
    let (x_second, machine, pid, x_counter) = (x.time(), x.machine(), x.pid(), x.counter());
    // README crate ends
    let (kc, oc, xc) = (case_of(&v, "ksuid", &k.to_string()), case_of(&v, "objectid", "56E1FC72E0C917E9C4714161"),
        case_of(&v, "xid", &x.to_string()));
    assert_eq!((k_second, hex(&payload)), (second(&kc), kc["payload"].clone()));
    assert_eq!((o.to_string(), o_second, hex(&process), Value::from(o_counter)),
        (s(&oc, "canonical"), second(&oc), oc["process"].clone(), oc["counter"].clone()));
    assert_eq!((x_second, hex(&machine), Value::from(pid), Value::from(x_counter)),
        (second(&xc), xc["machine"].clone(), xc["pid"].clone(), xc["counter"].clone()));
    Ok(())
}

// Text the server refuses because a character is not ASCII: a look-alike that
// Unicode case mapping or digit tables turn into a digit or letter of the
// alphabet (issue 51); the server reads bytes, and only ASCII digits and
// letters are digits. The crate parses no uuid or snowflake text (it takes
// [u8; 16] and i64): the file's server_text cases are not run here.
#[test]
fn not_ascii_refused() {
    assert!(refused_text(&vectors(), true) > 0);
}
