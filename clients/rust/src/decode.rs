//! Decoders for what idgen's IDs carry (docs/internals.md of idgen).
use std::fmt;
use crate::{Ksuid, ObjectId, Xid};
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

/// The millisecond in the high 48 bits of a Timeflake (a uuid's 16 bytes),
/// as the server's `timeflake_time()`.
pub fn timeflake_time(u: &[u8; 16]) -> SystemTime {
    ms_time(u)
}

/// A Timeflake's low 80 bits, as the server's `timeflake_random()`.
pub fn timeflake_random(u: &[u8; 16]) -> u128 {
    u[6..].iter().fold(0u128, |acc, &x| acc << 8 | x as u128)
}

/// The 64 characters of Firebase push IDs in ASCII order: a character's value
/// is its position.
pub const PUSH_ID_ALPHABET: &str = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

/// Text that is not 20 characters of [`PUSH_ID_ALPHABET`], which the
/// server's `push_id_time()` refuses (22P02).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotPushId(pub String);

impl fmt::Display for NotPushId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a push ID (20 characters of -, 0-9, A-Z, _ and a-z)", self.0)
    }
}

impl std::error::Error for NotPushId {}

fn push_id_digit(c: u8) -> Option<u64> {
    PUSH_ID_ALPHABET.bytes().position(|a| a == c).map(|p| p as u64)
}

/// Whether `s` is exactly 20 characters of [`PUSH_ID_ALPHABET`], as the
/// server's `push_id_is_valid()`.
pub fn push_id_is_valid(s: &str) -> bool {
    s.len() == 20 && s.bytes().all(|c| push_id_digit(c).is_some())
}

/// The millisecond in a push ID's first 8 characters, as the server's
/// `push_id_time()`.
pub fn push_id_time(s: &str) -> Result<SystemTime, NotPushId> {
    if !push_id_is_valid(s) {
        return Err(NotPushId(s.to_string()));
    }
    let ms = s.bytes().take(8).fold(0u64, |acc, c| acc << 6 | push_id_digit(c).unwrap_or(0));
    Ok(UNIX_EPOCH + Duration::from_millis(ms))
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

/// The KSUID's epoch, 2014-05-13 16:53:20 UTC (Unix second 1,400,000,000),
/// as the time since the Unix epoch: a KSUID's first 32 bits count seconds from it.
pub const KSUID_EPOCH: Duration = Duration::from_secs(1_400_000_000);

/// The KSUID's fields from the most significant bit, `[seconds, payload]`
/// bits: what its decoders split by. The crate's tests hold the three layouts
/// to idgen's vectors file.
pub const KSUID_LAYOUT: [u32; 2] = [32, 128];
/// The ObjectId's fields, `[seconds, process, counter]` bits.
pub const OBJECTID_LAYOUT: [u32; 3] = [32, 40, 24];
/// The XID's fields, `[seconds, machine, pid, counter]` bits.
pub const XID_LAYOUT: [u32; 4] = [32, 24, 16, 24];

// The byte range of field `i` of a layout of whole bytes.
const fn field(layout: &[u32], i: usize) -> std::ops::Range<usize> {
    let mut start = 0;
    let mut j = 0;
    while j < i {
        start += layout[j] as usize / 8;
        j += 1;
    }
    start..start + layout[i] as usize / 8
}

// The big-endian unsigned number in bytes (at most 8).
fn be(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |acc, &x| acc << 8 | x as u64)
}

fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    bytes.try_into().expect("the layout's width")
}

impl Ksuid {
    /// The second it carries (the server's `ksuid_time`): [`KSUID_EPOCH`]
    /// and its first 32 bits, up to 2150-06-19 23:21:35 UTC.
    pub fn time(&self) -> SystemTime {
        UNIX_EPOCH + KSUID_EPOCH + Duration::from_secs(be(&self.0[field(&KSUID_LAYOUT, 0)]))
    }
    /// The 16-byte payload (the server's `ksuid_payload`).
    pub fn payload(&self) -> [u8; 16] {
        array(&self.0[field(&KSUID_LAYOUT, 1)])
    }
}

impl ObjectId {
    /// The Unix second it carries (the server's `objectid_time`).
    pub fn time(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(be(&self.0[field(&OBJECTID_LAYOUT, 0)]))
    }
    /// The 5-byte process value (the server's `objectid_process`).
    pub fn process(&self) -> [u8; 5] {
        array(&self.0[field(&OBJECTID_LAYOUT, 1)])
    }
    /// The 24-bit counter, 0 to 16,777,215 (the server's `objectid_counter`).
    pub fn counter(&self) -> u32 {
        be(&self.0[field(&OBJECTID_LAYOUT, 2)]) as u32
    }
}

impl Xid {
    /// The Unix second it carries (the server's `xid_time`).
    pub fn time(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(be(&self.0[field(&XID_LAYOUT, 0)]))
    }
    /// The 3-byte machine id (the server's `xid_machine`).
    pub fn machine(&self) -> [u8; 3] {
        array(&self.0[field(&XID_LAYOUT, 1)])
    }
    /// The 16-bit process id, 0 to 65,535 (the server's `xid_pid`).
    pub fn pid(&self) -> u16 {
        be(&self.0[field(&XID_LAYOUT, 2)]) as u16
    }
    /// The 24-bit counter, 0 to 16,777,215 (the server's `xid_counter`).
    pub fn counter(&self) -> u32 {
        be(&self.0[field(&XID_LAYOUT, 3)]) as u32
    }
}
