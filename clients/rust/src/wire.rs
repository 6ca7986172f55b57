//! The binary forms (docs/internals.md of idgen, "Binary formats"): ulid is
//! its 16 bytes, ksuid its 20, objectid and rsxid their 12; prefixed_id and typeid one byte L (the prefix's length: 1 to
//! 63, typeid also 0), the L characters, then the 16 bytes.
use crate::text::valid_prefix;
use crate::{Ksuid, ObjectId, PrefixedId, TypeId, Ulid, Xid};
use std::fmt;

/// A binary field that does not frame as the type's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    /// the server's type: "ulid", "prefixed_id", "typeid", "ksuid", "objectid" or "rsxid"
    pub type_name: &'static str,
    /// what is wrong
    pub reason: &'static str,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "incorrect binary data for type {}: {}", self.type_name, self.reason)
    }
}

impl std::error::Error for WireError {}

impl Ulid {
    /// Reads the binary form: exactly 16 bytes.
    pub fn from_binary(raw: &[u8]) -> Result<Self, WireError> {
        raw.try_into()
            .map(Ulid)
            .map_err(|_| WireError { type_name: "ulid", reason: "not 16 bytes" })
    }
}

// The types whose binary form is their bytes, exactly so many.
macro_rules! raw_bytes {
    ($ty:ident, $name:literal, $n:literal, $reason:literal) => {
        impl $ty {
            #[doc = concat!("Reads the binary form: exactly ", $n, " bytes.")]
            pub fn from_binary(raw: &[u8]) -> Result<Self, WireError> {
                raw.try_into().map($ty).map_err(|_| WireError { type_name: $name, reason: $reason })
            }
            #[doc = concat!("Appends the binary form, the ", $n, " bytes.")]
            pub fn write_binary(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.0);
            }
        }
    };
}

raw_bytes!(Ksuid, "ksuid", 20, "not 20 bytes");
raw_bytes!(ObjectId, "objectid", 12, "not 12 bytes");
raw_bytes!(Xid, "rsxid", 12, "not 12 bytes");

fn framed(raw: &[u8], type_name: &'static str, empty_ok: bool) -> Result<(String, [u8; 16]), WireError> {
    let e = |reason| WireError { type_name, reason };
    let n = *raw.first().ok_or(e("no length byte"))? as usize;
    if raw.len() != 1 + n + 16 {
        return Err(e("not 1 + the prefix's length + 16 bytes"));
    }
    let prefix = &raw[1..1 + n];
    if (n > 0 || !empty_ok) && !valid_prefix(prefix) {
        return Err(e("an invalid prefix"));
    }
    let bits: [u8; 16] = raw[1 + n..].try_into().expect("16 bytes");
    Ok((String::from_utf8(prefix.to_vec()).expect("ascii"), bits))
}

impl PrefixedId {
    /// Reads the binary form.
    pub fn from_binary(raw: &[u8]) -> Result<Self, WireError> {
        let (prefix, bits) = framed(raw, "prefixed_id", false)?;
        Ok(PrefixedId::new(&prefix, bits).expect("checked"))
    }
    /// Appends the binary form.
    pub fn write_binary(&self, out: &mut Vec<u8>) {
        out.push(self.prefix().len() as u8);
        out.extend_from_slice(self.prefix().as_bytes());
        out.extend_from_slice(&self.to_uuid_bytes());
    }
}

impl TypeId {
    /// Reads the binary form.
    pub fn from_binary(raw: &[u8]) -> Result<Self, WireError> {
        let (prefix, bits) = framed(raw, "typeid", true)?;
        Ok(TypeId::new(&prefix, bits).expect("checked"))
    }
    /// Appends the binary form.
    pub fn write_binary(&self, out: &mut Vec<u8>) {
        out.push(self.prefix().len() as u8);
        out.extend_from_slice(self.prefix().as_bytes());
        out.extend_from_slice(&self.to_uuid_bytes());
    }
}
