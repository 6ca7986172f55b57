//! Snowflake layouts: other systems' 64-bit IDs (Twitter's, Discord's,
//! Sonyflake's, pgEdge's, one's own) decoded, composed and bounded as idgen's
//! `snowflake_layout_*` functions do. Minting in these layouts is the
//! systems' own libraries'.
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::decode::DEFAULT_SNOWFLAKE_EPOCH;

/// The predefined layouts of idgen (its `snowflake_layout.hpp`): name, epoch
/// in Unix ms (`None` for instagram's, which is idgen.snowflake_epoch), the
/// time unit in ms and the fields from the most significant bit, `(name,
/// bits)`. The crate's tests hold them to idgen's vectors file.
pub const PREDEFINED_SNOWFLAKE_LAYOUTS: [(&str, Option<i64>, i64, &[(&str, u32)]); 5] = [
    ("instagram", None, 1, &[("time", 40), ("shard", 13), ("sequence", 10)]),
    ("twitter", Some(1_288_834_974_657), 1, &[("time", 41), ("datacenter", 5), ("worker", 5), ("sequence", 12)]),
    ("discord", Some(1_420_070_400_000), 1, &[("time", 42), ("worker", 5), ("process", 5), ("sequence", 12)]),
    ("sonyflake", Some(1_409_529_600_000), 10, &[("time", 39), ("sequence", 8), ("machine", 16)]),
    ("pgedge", Some(1_672_531_200_000), 1, &[("time", 41), ("node", 10), ("sequence", 12)]),
];

const END_OF_TIME_MS: i64 = 253_402_300_800_000; // 10000-01-01

/// A refused layout, ID, time or field value: `reason` is idgen's core's (its
/// vectors file's: "too_wide", "negative", "above_layout", "field_range",
/// "before_epoch", ...), `field` the field concerned where there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnowflakeLayoutError {
    pub reason: &'static str,
    pub field: Option<String>,
    pub detail: String,
}

impl fmt::Display for SnowflakeLayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "snowflake layout: {}", self.detail)
    }
}

impl std::error::Error for SnowflakeLayoutError {}

fn refuse<T>(reason: &'static str, field: Option<&str>, detail: String) -> Result<T, SnowflakeLayoutError> {
    Err(SnowflakeLayoutError { reason, field: field.map(str::to_owned), detail })
}

/// A snowflake layout: an epoch, the length of one unit of the time field and
/// the fields from the most significant bit, one named "time" and one
/// "sequence", checked as `snowflake_layout_define()` checks them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnowflakeLayout {
    epoch_ms: i64,
    unit_ms: i64,
    fields: Vec<(String, u32)>,
    total_bits: u32,
    end_ms: i64,
}

/// An ID's fields in its layout's order (`time` as the count of units) and
/// the Unix ms of the start of its time unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnowflakeParts {
    pub fields: Vec<(String, i64)>,
    pub unix_ms: i64,
}

impl SnowflakeParts {
    /// The value of the field named `name`.
    pub fn get(&self, name: &str) -> Option<i64> {
        self.fields.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }

    /// The start of the ID's time unit.
    pub fn time(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.unix_ms as u64)
    }
}

fn name_valid(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b.iter().enumerate().all(|(i, &c)| c.is_ascii_lowercase() || c == b'_' || (i > 0 && c.is_ascii_digit()))
}

impl SnowflakeLayout {
    /// A layout of one's own: the epoch and the unit in ms, the fields from
    /// the most significant bit; refused where `snowflake_layout_define()`
    /// refuses it.
    pub fn new(epoch_unix_ms: i64, time_unit_ms: i64, fields: &[(&str, u32)]) -> Result<Self, SnowflakeLayoutError> {
        Self::checked(epoch_unix_ms, time_unit_ms, fields, false)
    }

    /// A predefined layout by name (instagram from [`DEFAULT_SNOWFLAKE_EPOCH`]).
    pub fn predefined(name: &str) -> Result<Self, SnowflakeLayoutError> {
        Self::predefined_with_epoch(name, DEFAULT_SNOWFLAKE_EPOCH)
    }

    /// A predefined layout by name, instagram's epoch the server's
    /// idgen.snowflake_epoch (the other layouts have their own).
    pub fn predefined_with_epoch(name: &str, instagram_epoch: Duration) -> Result<Self, SnowflakeLayoutError> {
        match PREDEFINED_SNOWFLAKE_LAYOUTS.iter().find(|p| p.0 == name) {
            Some(&(_, epoch, unit, fields)) => {
                Self::checked(epoch.unwrap_or(instagram_epoch.as_millis() as i64), unit, fields, true)
            }
            None => refuse("unknown_layout", None, format!("no predefined layout {name:?}")),
        }
    }

    // The core's layout_validate, in its order; allow_64 admits discord's 64 bits.
    fn checked(epoch: i64, unit: i64, fields: &[(&str, u32)], allow_64: bool) -> Result<Self, SnowflakeLayoutError> {
        if fields.len() > 8 {
            return refuse("too_many_fields", None, format!("{} fields: time, sequence and up to 6 node fields", fields.len()));
        }
        for &(name, bits) in fields {
            if name.len() > 63 {
                return refuse("bad_name", Some(name), format!("field name {name:?} is longer than 63 bytes"));
            }
            if !(1..=63).contains(&bits) {
                return refuse("bad_width", Some(name), format!("field {name:?} is {bits} bits wide: 1 to 63"));
            }
        }
        for (i, &(name, _)) in fields.iter().enumerate() {
            if !name_valid(name) {
                return refuse("bad_name", Some(name), format!("field name {name:?} is not lowercase letters, digits and underscores"));
            }
            if name == "unix_ms" || name == "timestamp" {
                return refuse("reserved_name", Some(name), format!("a node field cannot be named {name:?}"));
            }
            if fields[..i].iter().any(|&(n, _)| n == name) {
                return refuse("duplicate_name", Some(name), format!("two fields are named {name:?}"));
            }
        }
        let Some(time_index) = fields.iter().position(|&(n, _)| n == "time") else {
            return refuse("no_time", None, "a layout has one field named \"time\"".into());
        };
        if !fields.iter().any(|&(n, _)| n == "sequence") {
            return refuse("no_sequence", None, "a layout has one field named \"sequence\"".into());
        }
        let total: u32 = fields.iter().map(|&(_, b)| b).sum();
        if total > 64 || (total == 64 && !(allow_64 && time_index == 0)) {
            return refuse("too_wide", None, format!("the fields take {total} bits: 63 at most"));
        }
        if !(1..=86_400_000).contains(&unit) {
            return refuse("bad_unit", None, format!("a time unit of {unit} ms: 1 ms to a day"));
        }
        if !(0..END_OF_TIME_MS).contains(&epoch) {
            return refuse("bad_epoch", None, format!("an epoch of {epoch} ms: from 1970 to 9999"));
        }
        // a 64-bit layout's sign bit is its time field's
        let bits = fields[time_index].1 - u32::from(total == 64);
        if bits > 48 || 1i64 << bits > (END_OF_TIME_MS - epoch) / unit {
            return refuse("outlasts_year_9999", Some("time"), "the time field would hold times from the year 10000 on".into());
        }
        Ok(SnowflakeLayout {
            epoch_ms: epoch,
            unit_ms: unit,
            fields: fields.iter().map(|&(n, b)| (n.to_owned(), b)).collect(),
            total_bits: total,
            end_ms: epoch + unit * (1i64 << bits),
        })
    }

    /// The epoch in Unix ms.
    pub fn epoch_unix_ms(&self) -> i64 {
        self.epoch_ms
    }

    /// The length of one unit of the time field, in ms.
    pub fn time_unit_ms(&self) -> i64 {
        self.unit_ms
    }

    /// The fields from the most significant bit.
    pub fn fields(&self) -> &[(String, u32)] {
        &self.fields
    }

    /// The bits the fields take (63 or fewer; discord's 64).
    pub fn total_bits(&self) -> u32 {
        self.total_bits
    }

    /// The first Unix ms the time field cannot hold (`snowflake_layout_end()`).
    pub fn end_unix_ms(&self) -> i64 {
        self.end_ms
    }

    fn shift(&self, i: usize) -> u32 {
        self.fields[i + 1..].iter().map(|&(_, b)| b).sum()
    }

    fn max(&self, i: usize) -> i64 {
        let (ref name, bits) = self.fields[i];
        let bits = if name == "time" && self.total_bits == 64 { bits - 1 } else { bits };
        ((1u64 << bits) - 1) as i64
    }

    /// An ID's fields, as `snowflake_layout_decompose(id, layout)`; a negative
    /// ID ("negative") or one with bits above the layout ("above_layout") is refused.
    pub fn decompose(&self, id: i64) -> Result<SnowflakeParts, SnowflakeLayoutError> {
        if id < 0 {
            return refuse("negative", None, format!("snowflake id {id} is negative"));
        }
        if self.total_bits < 63 && (id as u64) >> self.total_bits != 0 {
            return refuse("above_layout", None, format!("snowflake id {id} is out of range for a layout of {} bits", self.total_bits));
        }
        let fields: Vec<(String, i64)> = self
            .fields
            .iter()
            .enumerate()
            .map(|(i, (n, b))| (n.clone(), ((id as u64) >> self.shift(i) & ((1u64 << b) - 1)) as i64))
            .collect();
        let time = fields.iter().find(|(n, _)| n == "time").map_or(0, |&(_, v)| v);
        Ok(SnowflakeParts { fields, unix_ms: self.epoch_ms + time * self.unit_ms })
    }

    fn time_value(&self, unix_ms: i64) -> Result<i64, SnowflakeLayoutError> {
        if unix_ms < self.epoch_ms {
            return refuse("before_epoch", Some("time"), format!("{unix_ms} ms is before the layout's epoch"));
        }
        if unix_ms >= self.end_ms {
            return refuse("after_end", Some("time"), format!("{unix_ms} ms is at or after the layout's end"));
        }
        Ok((unix_ms - self.epoch_ms) / self.unit_ms)
    }

    /// The ID of the time unit holding `unix_ms` with the node fields and
    /// sequence given (missing ones 0), as `snowflake_layout_compose()`: for
    /// backfills and tests.
    pub fn compose(&self, unix_ms: i64, fields: &[(&str, i64)]) -> Result<i64, SnowflakeLayoutError> {
        let t = self.time_value(unix_ms)?;
        let mut values: Vec<i64> = self.fields.iter().map(|(n, _)| if n == "time" { t } else { 0 }).collect();
        for &(name, value) in fields {
            let Some(i) = self.fields.iter().position(|(n, _)| n == name) else {
                return refuse("unknown_field", Some(name), format!("the layout has no field {name:?} to set"));
            };
            if name == "time" {
                return refuse("time_field", Some(name), "the time field is set by the time argument".into());
            }
            if value < 0 || value > self.max(i) {
                return refuse("field_range", Some(name), format!("field {name:?} is out of range: {value} (0 to {})", self.max(i)));
            }
            values[i] = value;
        }
        Ok(values.iter().enumerate().fold(0u64, |id, (i, &v)| id | (v as u64) << self.shift(i)) as i64)
    }

    /// The smallest ID of the time unit holding `unix_ms`, as
    /// `snowflake_layout_boundary()`, for range predicates.
    pub fn boundary(&self, unix_ms: i64) -> Result<i64, SnowflakeLayoutError> {
        self.bound(unix_ms, false)
    }

    /// The largest ID of the time unit holding `unix_ms`.
    pub fn boundary_largest(&self, unix_ms: i64) -> Result<i64, SnowflakeLayoutError> {
        self.bound(unix_ms, true)
    }

    fn bound(&self, unix_ms: i64, largest: bool) -> Result<i64, SnowflakeLayoutError> {
        let t = self.time_value(unix_ms)?;
        Ok(self.fields.iter().enumerate().fold(0u64, |id, (i, (n, _))| {
            let v = if n == "time" { t } else if largest { self.max(i) } else { 0 };
            id | (v as u64) << self.shift(i)
        }) as i64)
    }
}
