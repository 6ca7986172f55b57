//! postgres-types: ToSql and FromSql in binary, for the types and their domains.
use crate::{Ksuid, ObjectId, PrefixedId, TypeId, Ulid, Xid};
use bytes::{BufMut, BytesMut};
use postgres_types::{to_sql_checked, FromSql, IsNull, Kind, ToSql, Type};
use std::error::Error;

type BoxError = Box<dyn Error + Sync + Send>;

/// Whether ty is the base type `name` or a domain over it (at any depth).
fn is(ty: &Type, name: &str) -> bool {
    match ty.kind() {
        Kind::Domain(base) => is(base, name),
        _ => ty.name() == name,
    }
}

macro_rules! pg_type {
    ($t:ty, $name:literal, $write:expr) => {
        impl<'a> FromSql<'a> for $t {
            fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
                Ok(<$t>::from_binary(raw)?)
            }
            fn accepts(ty: &Type) -> bool {
                is(ty, $name)
            }
        }
        impl ToSql for $t {
            fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
                let mut buf = Vec::with_capacity(80);
                $write(self, &mut buf);
                out.put_slice(&buf);
                Ok(IsNull::No)
            }
            fn accepts(ty: &Type) -> bool {
                is(ty, $name)
            }
            to_sql_checked!();
        }
    };
}

pg_type!(Ulid, "ulid", |u: &Ulid, b: &mut Vec<u8>| b.extend_from_slice(&u.0));
pg_type!(PrefixedId, "prefixed_id", |p: &PrefixedId, b: &mut Vec<u8>| p.write_binary(b));
pg_type!(TypeId, "typeid", |t: &TypeId, b: &mut Vec<u8>| t.write_binary(b));
pg_type!(Ksuid, "ksuid", |k: &Ksuid, b: &mut Vec<u8>| k.write_binary(b));
pg_type!(ObjectId, "objectid", |o: &ObjectId, b: &mut Vec<u8>| o.write_binary(b));
pg_type!(Xid, "rsxid", |x: &Xid, b: &mut Vec<u8>| x.write_binary(b));
