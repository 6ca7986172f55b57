//! Types of the idgen PostgreSQL extension for Rust: [`Ulid`], [`PrefixedId`]
//! and [`TypeId`], and [`Ksuid`], [`ObjectId`] and [`Xid`] (the server's
//! `rsxid`), with their text forms; `ToSql`/`FromSql` in binary for
//! tokio-postgres (feature `postgres`, on by default) and sqlx
//! `Type`/`Encode`/`Decode` (feature `sqlx`), both for the domains over the
//! types too; and decoders for the fields of idgen's IDs (time, shard and
//! sequence; a KSUID's payload; an ObjectId's process value and counter; an
//! XID's machine, process id and counter); and other systems' 64-bit
//! snowflakes in a layout ([`SnowflakeLayout`]: Twitter's, Discord's,
//! Sonyflake's, pgEdge's or one's own) decoded, composed and bounded.

mod decode;
mod layout;
mod text;
mod wire;

#[cfg(feature = "postgres")]
mod pg;
#[cfg(feature = "sqlx")]
mod sqlx_impl;

pub use decode::{
    snowflake53_seq, snowflake53_shard, snowflake53_time, snowflake53_time_with_epoch,
    push_id_is_valid, push_id_time, snowflake_seq, snowflake_shard, snowflake_time, snowflake_time_with_epoch,
    timeflake_random, timeflake_time, uuid_v7_time, NotPushId, NotSnowflake, PUSH_ID_ALPHABET, DEFAULT_SNOWFLAKE_EPOCH, KSUID_EPOCH, KSUID_LAYOUT, OBJECTID_LAYOUT, SNOWFLAKE53_LAYOUT,
    SNOWFLAKE_LAYOUT, XID_LAYOUT,
};
pub use layout::{SnowflakeLayout, SnowflakeLayoutError, SnowflakeParts, PREDEFINED_SNOWFLAKE_LAYOUTS};
pub use text::{Ksuid, ObjectId, ParseError, PrefixedId, TypeId, Ulid, Xid};
pub use wire::WireError;

/// The idgen release this crate belongs to.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
