//! sqlx: Type, Encode and Decode for PostgreSQL, binary (text read too).
use crate::{Ksuid, ObjectId, PrefixedId, TypeId, Ulid, Xid};
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgTypeInfo, PgTypeKind, PgValueFormat, PgValueRef, Postgres};
use sqlx::{Decode, Encode, Type, TypeInfo};

/// Whether ty is the base type `name` or a domain over it (at any depth).
fn is(ty: &PgTypeInfo, name: &str) -> bool {
    match ty.kind() {
        PgTypeKind::Domain(base) => is(base, name),
        _ => ty.name() == name,
    }
}

/// Whether ty, a column's or parameter's type, is `declared` (a type sqlx
/// compares itself, also one it has not resolved, which has no kind to read),
/// or else the base type `name` or a domain over it.
fn compatible(ty: &PgTypeInfo, declared: PgTypeInfo, name: &str) -> bool {
    *ty == declared || is(ty, name)
}

/// Whether ty is `declared` (`_name`) or an array of `name` or of a domain over
/// it: sqlx's own check compares the element's name, which a domain's lacks.
fn array_compatible(ty: &PgTypeInfo, declared: PgTypeInfo, name: &str) -> bool {
    *ty == declared || matches!(ty.kind(), PgTypeKind::Array(element) if is(element, name))
}

macro_rules! sqlx_type {
    ($t:ty, $name:literal, $write:expr) => {
        impl Type<Postgres> for $t {
            fn type_info() -> PgTypeInfo {
                PgTypeInfo::with_name($name)
            }
            fn compatible(ty: &PgTypeInfo) -> bool {
                compatible(ty, Self::type_info(), $name)
            }
        }
        impl sqlx::postgres::PgHasArrayType for $t {
            fn array_type_info() -> PgTypeInfo {
                PgTypeInfo::with_name(concat!("_", $name))
            }
            fn array_compatible(ty: &PgTypeInfo) -> bool {
                array_compatible(ty, Self::array_type_info(), $name)
            }
        }
        impl Encode<'_, Postgres> for $t {
            fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
                let mut out = Vec::with_capacity(80);
                $write(self, &mut out);
                buf.extend_from_slice(&out);
                Ok(IsNull::No)
            }
        }
        impl<'r> Decode<'r, Postgres> for $t {
            fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
                Ok(match value.format() {
                    PgValueFormat::Binary => <$t>::from_binary(value.as_bytes()?)?,
                    PgValueFormat::Text => value.as_str()?.parse::<$t>()?,
                })
            }
        }
    };
}

sqlx_type!(Ulid, "ulid", |u: &Ulid, b: &mut Vec<u8>| b.extend_from_slice(&u.0));
sqlx_type!(PrefixedId, "prefixed_id", |p: &PrefixedId, b: &mut Vec<u8>| p.write_binary(b));
sqlx_type!(TypeId, "typeid", |t: &TypeId, b: &mut Vec<u8>| t.write_binary(b));
sqlx_type!(Ksuid, "ksuid", |k: &Ksuid, b: &mut Vec<u8>| k.write_binary(b));
sqlx_type!(ObjectId, "objectid", |o: &ObjectId, b: &mut Vec<u8>| o.write_binary(b));
sqlx_type!(Xid, "rsxid", |x: &Xid, b: &mut Vec<u8>| x.write_binary(b));
