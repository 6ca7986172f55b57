//! Decoders for what idgen's IDs carry (docs/internals.md of idgen).
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// idgen.snowflake_epoch's default, 2024-01-01 00:00:00 UTC, as the time
/// since the Unix epoch (a `Duration`, so that it can be a constant).
pub const DEFAULT_SNOWFLAKE_EPOCH: Duration = Duration::from_millis(1_704_067_200_000);

/// A bigint outside the family's range (snowflake: 2^53 and above;
/// snowflake53: 0 to 2^53 - 1), which the server's decoders refuse (22003).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotSnowflake(pub i64);

impl fmt::Display for NotSnowflake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is outside the family's range", self.0)
    }
}

impl std::error::Error for NotSnowflake {}

const LIMIT53: i64 = 1 << 53;

/// The `snowflake()` split's fields from the most significant bit, `[zero,
/// ms, shard, seq]` bits (docs/internals.md of idgen): what its decoders shift
/// and mask by. The crate's tests hold both splits to idgen's vectors file.
pub const SNOWFLAKE_LAYOUT: [u32; 4] = [1, 40, 13, 10];
/// The `snowflake53()` split's fields, as [`SNOWFLAKE_LAYOUT`].
pub const SNOWFLAKE53_LAYOUT: [u32; 4] = [11, 40, 4, 9];

// A split's shift to the ms, shift to the shard, shard mask and seq mask.
const fn split(layout: [u32; 4]) -> (u32, u32, i64, i64) {
    (layout[2] + layout[3], layout[3], (1 << layout[2]) - 1, (1 << layout[3]) - 1)
}
const S63: (u32, u32, i64, i64) = split(SNOWFLAKE_LAYOUT);
const S53: (u32, u32, i64, i64) = split(SNOWFLAKE53_LAYOUT);

pub(crate) fn ms_time(b: &[u8; 16]) -> SystemTime {
    let ms = b[..6].iter().fold(0u64, |acc, &x| acc << 8 | x as u64);
    UNIX_EPOCH + Duration::from_millis(ms)
}

// The millisecond `ms` counted from `epoch` (the time since the Unix epoch).
fn from_epoch(epoch: Duration, ms: i64) -> SystemTime {
    UNIX_EPOCH + epoch + Duration::from_millis(ms as u64)
}

/// The millisecond a UUIDv7 carries, as the server's `uuid_v7_time()`:
/// `None` unless the version is 7 and the variant RFC 9562's.
pub fn uuid_v7_time(u: &[u8; 16]) -> Option<SystemTime> {
    (u[6] >> 4 == 7 && u[8] >> 6 == 2).then(|| ms_time(u))
}

fn check(id: i64, wide: bool) -> Result<i64, NotSnowflake> {
    let ok = if wide { id >= LIMIT53 } else { (0..LIMIT53).contains(&id) };
    if ok {
        Ok(id)
    } else {
        Err(NotSnowflake(id))
    }
}

/// The millisecond a `snowflake()` ID was minted in, counted from
/// [`DEFAULT_SNOWFLAKE_EPOCH`] (the server's `snowflake_time(id)` with the
/// default idgen.snowflake_epoch).
pub fn snowflake_time(id: i64) -> Result<SystemTime, NotSnowflake> {
    snowflake_time_with_epoch(id, DEFAULT_SNOWFLAKE_EPOCH)
}

/// The millisecond a `snowflake()` ID was minted in, counted from `epoch`,
/// the server's idgen.snowflake_epoch as the time since the Unix epoch (an ID
/// does not carry it).
pub fn snowflake_time_with_epoch(id: i64, epoch: Duration) -> Result<SystemTime, NotSnowflake> {
    check(id, true).map(|id| from_epoch(epoch, id >> S63.0))
}

/// The shard (0 to 8191) of a `snowflake()` ID.
pub fn snowflake_shard(id: i64) -> Result<i32, NotSnowflake> {
    check(id, true).map(|id| (id >> S63.1 & S63.2) as i32)
}

/// The sequence (0 to 1023) of a `snowflake()` ID.
pub fn snowflake_seq(id: i64) -> Result<i32, NotSnowflake> {
    check(id, true).map(|id| (id & S63.3) as i32)
}

/// The millisecond a `snowflake53()` ID was minted in, counted from
/// [`DEFAULT_SNOWFLAKE_EPOCH`].
pub fn snowflake53_time(id: i64) -> Result<SystemTime, NotSnowflake> {
    snowflake53_time_with_epoch(id, DEFAULT_SNOWFLAKE_EPOCH)
}

/// The millisecond a `snowflake53()` ID was minted in, counted from `epoch`,
/// as [`snowflake_time_with_epoch`].
pub fn snowflake53_time_with_epoch(id: i64, epoch: Duration) -> Result<SystemTime, NotSnowflake> {
    check(id, false).map(|id| from_epoch(epoch, id >> S53.0))
}

/// The shard (0 to 15) of a `snowflake53()` ID.
pub fn snowflake53_shard(id: i64) -> Result<i32, NotSnowflake> {
    check(id, false).map(|id| (id >> S53.1 & S53.2) as i32)
}

/// The sequence (0 to 511) of a `snowflake53()` ID.
pub fn snowflake53_seq(id: i64) -> Result<i32, NotSnowflake> {
    check(id, false).map(|id| (id & S53.3) as i32)
}
