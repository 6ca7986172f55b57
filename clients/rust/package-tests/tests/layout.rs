//! The snowflake layouts ([`SnowflakeLayout`]) without a server, on the
//! snowflake_layout cases of idgen's vectors file (test/data/id_vectors.json:
//! the predefined layouts, definitions, IDs, compositions and boundaries as
//! the C++ cores answer them). IDGEN_VECTORS names the file, as for tests/text.rs.
use idgen::*;
use serde_json::Value;
use std::time::Duration;

fn vectors() -> Value {
    let path = std::env::var("IDGEN_VECTORS")
        .unwrap_or_else(|_| format!("{}/../../../test/data/id_vectors.json", env!("CARGO_MANIFEST_DIR")));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("the vectors file {path} (set IDGEN_VECTORS): {e}"));
    serde_json::from_str(&text).expect("the vectors file is JSON")
}

fn family(v: &Value) -> &Value {
    &v["families"]["snowflake_layout"]
}

fn cases<'a>(v: &'a Value, form: &str) -> &'a Vec<Value> {
    family(v)["cases"][form].as_array().expect("a form of the file")
}

fn int(c: &Value, key: &str) -> i64 {
    c[key].as_i64().or_else(|| c[key].as_str().and_then(|s| s.parse().ok())).unwrap_or_else(|| panic!("{key} of {c}"))
}

/// The file's "name:number,..." as pairs.
fn pairs(text: &str) -> Vec<(String, i64)> {
    text.split(',').filter(|p| !p.is_empty())
        .map(|p| { let (n, b) = p.rsplit_once(':').unwrap(); (n.to_string(), b.parse().unwrap()) }).collect()
}

fn fields_text(l: &SnowflakeLayout) -> String {
    l.fields().iter().map(|(n, b)| format!("{n}:{b}")).collect::<Vec<_>>().join(",")
}

/// A layout of the file as the crate makes it.
fn layout_of(v: &Value, name: &str) -> SnowflakeLayout {
    let l = &family(v)["layouts"][name];
    if l["predefined"].as_bool().unwrap() {
        return SnowflakeLayout::predefined_with_epoch(name, Duration::from_millis(int(l, "epoch_unix_ms") as u64)).unwrap();
    }
    let fields: Vec<(String, u32)> = l["fields"].as_array().unwrap().iter()
        .map(|f| (f["name"].as_str().unwrap().to_string(), f["bits"].as_u64().unwrap() as u32)).collect();
    let borrowed: Vec<(&str, u32)> = fields.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    SnowflakeLayout::new(int(l, "epoch_unix_ms"), int(l, "time_unit_ms"), &borrowed).unwrap()
}

fn refused<T: std::fmt::Debug>(got: Result<T, SnowflakeLayoutError>, c: &Value) {
    assert_eq!(got.err().map(|e| e.reason), Some(c["reason"].as_str().unwrap()), "{c}");
}

#[test]
fn predefined_layouts_are_the_files() {
    let v = vectors();
    // serde_json's map is sorted: the names as sets
    let file: std::collections::BTreeSet<&str> = family(&v)["layouts"].as_object().unwrap().iter()
        .filter(|(_, l)| l["predefined"].as_bool().unwrap()).map(|(n, _)| n.as_str()).collect();
    let ours: std::collections::BTreeSet<&str> = PREDEFINED_SNOWFLAKE_LAYOUTS.iter().map(|p| p.0).collect();
    assert_eq!(file, ours);
    for c in cases(&v, "predefined") {
        let got = SnowflakeLayout::predefined_with_epoch(c["name"].as_str().unwrap(), Duration::from_millis(int(c, "instagram_epoch_ms") as u64));
        if !c["ok"].as_bool().unwrap() {
            refused(got, c);
            continue;
        }
        let l = got.unwrap();
        assert_eq!((l.epoch_unix_ms(), l.time_unit_ms(), fields_text(&l), l.total_bits() as i64, l.end_unix_ms()),
            (int(c, "epoch_unix_ms"), int(c, "time_unit_ms"), c["fields"].as_str().unwrap().to_string(), int(c, "total_bits"), int(c, "end_unix_ms")), "{c}");
    }
    assert_eq!(SnowflakeLayout::predefined("instagram").unwrap().epoch_unix_ms(), DEFAULT_SNOWFLAKE_EPOCH.as_millis() as i64);
}

#[test]
fn definitions() {
    let v = vectors();
    for c in cases(&v, "define") {
        let fields = pairs(c["fields"].as_str().unwrap());
        let borrowed: Vec<(&str, u32)> = fields.iter().map(|(n, b)| (n.as_str(), *b as u32)).collect();
        let got = SnowflakeLayout::new(int(c, "epoch_unix_ms"), int(c, "time_unit_ms"), &borrowed);
        if !c["ok"].as_bool().unwrap() {
            refused(got, c);
            continue;
        }
        let l = got.unwrap();
        assert_eq!((l.total_bits() as i64, l.end_unix_ms()), (int(c, "total_bits"), int(c, "end_unix_ms")), "{c}");
    }
}

#[test]
fn ids_compositions_boundaries() {
    let v = vectors();
    for c in cases(&v, "id") {
        let name = c["layout"].as_str().unwrap();
        let got = layout_of(&v, name).decompose(int(c, "id"));
        if !c["ok"].as_bool().unwrap() {
            refused(got, c);
            continue;
        }
        let p = got.unwrap();
        let want: Vec<(String, i64)> = family(&v)["layouts"][name]["fields"].as_array().unwrap().iter()
            .map(|f| { let n = f["name"].as_str().unwrap(); (n.to_string(), int(c, n)) }).collect();
        assert_eq!((p.fields.clone(), p.unix_ms), (want, int(c, "unix_ms")), "{c}");
        assert_eq!(p.get("time"), Some(int(c, "time")));
    }
    for c in cases(&v, "compose") {
        let fields = pairs(c["fields"].as_str().unwrap());
        let borrowed: Vec<(&str, i64)> = fields.iter().map(|(n, x)| (n.as_str(), *x)).collect();
        let got = layout_of(&v, c["layout"].as_str().unwrap()).compose(int(c, "unix_ms"), &borrowed);
        if c["ok"].as_bool().unwrap() {
            assert_eq!(got, Ok(int(c, "id")), "{c}");
        } else {
            refused(got, c);
        }
    }
    for c in cases(&v, "boundary") {
        let l = layout_of(&v, c["layout"].as_str().unwrap());
        let (smallest, largest) = (l.boundary(int(c, "unix_ms")), l.boundary_largest(int(c, "unix_ms")));
        if c["ok"].as_bool().unwrap() {
            assert_eq!((smallest, largest), (Ok(int(c, "smallest")), Ok(int(c, "largest"))), "{c}");
        } else {
            refused(smallest, c);
            refused(largest, c);
        }
    }
}

#[test]
fn readme_example() -> Result<(), SnowflakeLayoutError> {
    // README crate begins
    let parts = idgen::SnowflakeLayout::predefined("discord")?.decompose(175928847299117063)?;
    // parts.get("worker") == Some(1), parts.get("sequence") == Some(7), parts.unix_ms == 1462015105796
    let shop = idgen::SnowflakeLayout::new(1_577_836_800_000, 1, &[("time", 42), ("region", 4), ("worker", 6), ("sequence", 11)])?;
    let id = shop.compose(1_796_360_400_500, &[("region", 15), ("worker", 63), ("sequence", 2047)])?;
    let from = shop.boundary(1_796_342_400_000)?; // WHERE id >= from
    // README crate ends
    assert_eq!((parts.get("worker"), parts.get("process"), parts.get("sequence"), parts.unix_ms), (Some(1), Some(0), Some(7), 1462015105796));
    assert_eq!((id, from), (458277205837873151, 458239456051200000), "docs/reference.md's figures");
    Ok(())
}
