//! The three 128-bit types and their text (docs/reference.md of idgen).
use std::fmt;
use std::str::FromStr;
use std::time::SystemTime;

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CROCKFORD_LOWER: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
const BASE36: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// Text that is no value of the type, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// "ulid", "prefixed_id" or "typeid"
    pub type_name: &'static str,
    /// what is wrong
    pub reason: &'static str,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {}: {}", self.type_name, self.reason)
    }
}

impl std::error::Error for ParseError {}

fn err(type_name: &'static str, reason: &'static str) -> ParseError {
    ParseError { type_name, reason }
}

/// idgen's ulid: 128 bits, most significant byte first (the bytes of the
/// server's `ulid::uuid` cast). Ordered as its bytes, which is its text's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ulid(pub(crate) [u8; 16]);

/// idgen's prefixed_id: a prefix (1 to 63 of `a-z` and `_`, starting and
/// ending with a letter) and 128 bits, written `acct_` and 25 base36 digits.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PrefixedId {
    prefix: String,
    bits: [u8; 16],
}

/// idgen's typeid (TypeID specification 0.3.0): a prefix, which may be
/// empty, and 128 bits, written `user_` and 26 lowercase Crockford base32
/// characters.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeId {
    prefix: String,
    bits: [u8; 16],
}

pub(crate) fn valid_prefix(p: &[u8]) -> bool {
    !p.is_empty()
        && p.len() <= 63
        && p[0] != b'_'
        && p[p.len() - 1] != b'_'
        && p.iter().all(|&c| c.is_ascii_lowercase() || c == b'_')
}

fn base32_encode(bits: &[u8; 16], alphabet: &[u8; 32], out: &mut String) {
    let mut v = u128::from_be_bytes(*bits);
    let mut buf = [0u8; 26];
    for slot in buf.iter_mut().rev() {
        *slot = alphabet[(v & 31) as usize];
        v >>= 5;
    }
    out.extend(buf.iter().map(|&c| c as char));
}

fn base32_decode(s: &[u8], lower_only: bool) -> Result<[u8; 16], &'static str> {
    if s.len() != 26 {
        return Err("not 26 characters");
    }
    let mut v: u128 = 0;
    for (i, &c) in s.iter().enumerate() {
        let d = match c {
            b'A'..=b'Z' if lower_only => return Err("an uppercase character"),
            _ => CROCKFORD
                .iter()
                .position(|&a| a == c.to_ascii_uppercase())
                .ok_or("a character outside the alphabet")?,
        };
        if i == 0 && d > 7 {
            return Err("the first character is above 7 (more than 128 bits)");
        }
        v = v << 5 | d as u128;
    }
    Ok(v.to_be_bytes())
}

impl Ulid {
    /// The ULID of these 16 bytes, most significant first (its binary form).
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        Ulid(bytes)
    }
    /// The 16 bytes, most significant first.
    pub fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }
    /// The same 16 bytes as a UUID (the server's `ulid::uuid`).
    pub fn to_uuid_bytes(&self) -> [u8; 16] {
        self.0
    }
    /// The ULID of a UUID's 16 bytes (the server's `uuid::ulid`).
    pub fn from_uuid_bytes(bytes: [u8; 16]) -> Self {
        Ulid(bytes)
    }
    /// The millisecond in the first 48 bits (the server's `ulid_time`).
    pub fn time(&self) -> SystemTime {
        crate::decode::ms_time(&self.0)
    }
}

impl fmt::Display for Ulid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(26);
        base32_encode(&self.0, CROCKFORD, &mut s);
        f.write_str(&s)
    }
}

impl FromStr for Ulid {
    type Err = ParseError;
    /// 26 Crockford base32 characters, either case, as the server reads them.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        base32_decode(s.as_bytes(), false).map(Ulid).map_err(|r| err("ulid", r))
    }
}

/// The constructor and accessors of a prefix and 128 bits, which PrefixedId
/// and TypeId share: `$name` is the server's type, `$empty` whether `""` is a
/// prefix, `$none` what the docs say of it.
macro_rules! prefix_and_bits {
    ($ty:ident, $name:literal, $empty:literal, $none:literal) => {
        impl $ty {
            #[doc = concat!("A value from a prefix", $none, " and 128 bits (the server's `", $name, "_from_uuid`).")]
            pub fn new(prefix: &str, bits: [u8; 16]) -> Result<Self, ParseError> {
                if !($empty && prefix.is_empty()) && !valid_prefix(prefix.as_bytes()) {
                    return Err(err($name, "the prefix is not 1 to 63 of a-z and _, starting and ending with a letter"));
                }
                Ok($ty { prefix: prefix.to_owned(), bits })
            }
            #[doc = concat!("The prefix", $none, ".")]
            pub fn prefix(&self) -> &str {
                &self.prefix
            }
            #[doc = concat!("The 128 bits as a UUID's bytes (the server's `", $name, "_uuid`).")]
            pub fn to_uuid_bytes(&self) -> [u8; 16] {
                self.bits
            }
            /// The millisecond of UUIDv7 bits; `None` for other bits (a token's).
            pub fn time(&self) -> Option<SystemTime> {
                crate::uuid_v7_time(&self.bits)
            }
        }
    };
}

prefix_and_bits!(PrefixedId, "prefixed_id", false, "");

impl fmt::Display for PrefixedId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut v = u128::from_be_bytes(self.bits);
        let mut buf = [0u8; 25];
        for slot in buf.iter_mut().rev() {
            *slot = BASE36[(v % 36) as usize];
            v /= 36;
        }
        f.write_str(&self.prefix)?;
        f.write_str("_")?;
        f.write_str(std::str::from_utf8(&buf).expect("ascii"))
    }
}

impl FromStr for PrefixedId {
    type Err = ParseError;
    /// `<prefix>_<25 base36 digits>`, split on the last underscore, either case in the body.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let at = s.rfind('_').ok_or(err("prefixed_id", "no underscore between prefix and body"))?;
        let body = &s.as_bytes()[at + 1..];
        if body.len() != 25 {
            return Err(err("prefixed_id", "the body is not 25 base36 digits"));
        }
        let mut v: u128 = 0;
        for &c in body {
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'z' => c - b'a' + 10,
                b'A'..=b'Z' => c - b'A' + 10,
                _ => return Err(err("prefixed_id", "the body holds a character that is not a base36 digit")),
            };
            v = v
                .checked_mul(36)
                .and_then(|v| v.checked_add(d as u128))
                .ok_or(err("prefixed_id", "the body is above 2^128 - 1"))?;
        }
        PrefixedId::new(&s[..at], v.to_be_bytes())
    }
}

prefix_and_bits!(TypeId, "typeid", true, " (`\"\"` for none)");

impl fmt::Display for TypeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(self.prefix.len() + 27);
        if !self.prefix.is_empty() {
            s.push_str(&self.prefix);
            s.push('_');
        }
        base32_encode(&self.bits, CROCKFORD_LOWER, &mut s);
        f.write_str(&s)
    }
}

impl FromStr for TypeId {
    type Err = ParseError;
    /// `<prefix>_<26 lowercase base32>` or the suffix alone, strictly.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let (prefix, suffix) = match s.rfind('_') {
            Some(at) => {
                if !valid_prefix(&s.as_bytes()[..at]) {
                    return Err(err("typeid", "the prefix is not 1 to 63 of a-z and _, starting and ending with a letter"));
                }
                (&s[..at], &s[at + 1..])
            }
            None => ("", s),
        };
        let bits = base32_decode(suffix.as_bytes(), true).map_err(|r| err("typeid", r))?;
        Ok(TypeId { prefix: prefix.to_owned(), bits })
    }
}
