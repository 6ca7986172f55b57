//! The types and their text (docs/reference.md of idgen): the three 128-bit
//! ones (ulid, prefixed_id, typeid), and the ID formats of other systems
//! (ksuid, objectid, rsxid).
use std::fmt;
use std::str::FromStr;
use std::time::SystemTime;

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CROCKFORD_LOWER: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
const BASE36: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// Text that is no value of the type, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// the server's type: "ulid", "prefixed_id", "typeid", "ksuid", "objectid" or "rsxid"
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

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";
const BASE32HEX_LOWER: &[u8; 32] = b"0123456789abcdefghijklmnopqrstuv";

/// Segment's KSUID, the server's `ksuid`: 20 bytes, most significant first, a
/// 32-bit second since [`KSUID_EPOCH`](crate::KSUID_EPOCH) then a 128-bit
/// payload. Ordered as its bytes, which is its text's order (and its second's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ksuid(pub(crate) [u8; 20]);

/// MongoDB's ObjectId, the server's `objectid`: 12 bytes, most significant
/// first, a 32-bit Unix second, a 5-byte process value and a 24-bit counter.
/// Ordered as its bytes, which is its text's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ObjectId(pub(crate) [u8; 12]);

/// rs/xid's XID, the server's `rsxid`: 12 bytes, most significant first, a
/// 32-bit Unix second, a 3-byte machine id, a 16-bit process id and a 24-bit
/// counter. Ordered as its bytes, which is its text's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Xid(pub(crate) [u8; 12]);

/// The byte offset of the first byte of `s` that is not a digit of
/// `alphabet` (`fold`: read ASCII uppercase as lowercase), as the server
/// reports a bad character before a wrong length.
fn first_bad(s: &[u8], alphabet: &[u8], fold: bool) -> Option<usize> {
    s.iter().position(|&c| {
        let c = if fold { c.to_ascii_lowercase() } else { c };
        !alphabet.contains(&c)
    })
}

fn digit(alphabet: &[u8], c: u8) -> u32 {
    alphabet.iter().position(|&a| a == c).expect("checked") as u32
}

macro_rules! bytes_type {
    ($ty:ident, $n:literal) => {
        impl $ty {
            #[doc = concat!("The value of these ", $n, " bytes, most significant first (its binary form).")]
            pub fn from_bytes(bytes: [u8; $n]) -> Self {
                $ty(bytes)
            }
            #[doc = concat!("The ", $n, " bytes, most significant first.")]
            pub fn as_bytes(&self) -> &[u8; $n] {
                &self.0
            }
        }
    };
}

bytes_type!(Ksuid, 20);
bytes_type!(ObjectId, 12);
bytes_type!(Xid, 12);

impl fmt::Display for Ksuid {
    /// 27 base62 digits (`0-9A-Za-z`), left-padded with `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // long division of the 160-bit number by 62, one digit per pass
        let mut n = self.0;
        let mut buf = [0u8; 27];
        for slot in buf.iter_mut().rev() {
            let mut rem = 0u32;
            for b in n.iter_mut() {
                let v = rem << 8 | *b as u32;
                *b = (v / 62) as u8;
                rem = v % 62;
            }
            *slot = BASE62[rem as usize];
        }
        f.write_str(std::str::from_utf8(&buf).expect("ascii"))
    }
}

impl FromStr for Ksuid {
    type Err = ParseError;
    /// 27 base62 digits, case significant, at most `aWgEPTl1tmebfsQzFP4bxwgy80V`
    /// (2^160 - 1); a character outside the alphabet is refused (segmentio's
    /// parser reads any byte).
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let s = s.as_bytes();
        if first_bad(s, BASE62, false).is_some() {
            return Err(err("ksuid", "a character outside the base62 alphabet"));
        }
        if s.len() != 27 {
            return Err(err("ksuid", "not 27 characters"));
        }
        let mut n = [0u8; 20];
        for &c in s {
            let mut carry = digit(BASE62, c);
            for b in n.iter_mut().rev() {
                let v = *b as u32 * 62 + carry;
                *b = v as u8;
                carry = v >> 8;
            }
            if carry != 0 {
                return Err(err("ksuid", "above aWgEPTl1tmebfsQzFP4bxwgy80V (more than 160 bits)"));
            }
        }
        Ok(Ksuid(n))
    }
}

impl fmt::Display for ObjectId {
    /// 24 lowercase hexadecimal digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 24];
        for (i, b) in self.0.iter().enumerate() {
            buf[2 * i] = HEX_LOWER[(b >> 4) as usize];
            buf[2 * i + 1] = HEX_LOWER[(b & 15) as usize];
        }
        f.write_str(std::str::from_utf8(&buf).expect("ascii"))
    }
}

impl FromStr for ObjectId {
    type Err = ParseError;
    /// 24 hexadecimal digits, either case, as the server reads them.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let s = s.as_bytes();
        if first_bad(s, HEX_LOWER, true).is_some() {
            return Err(err("objectid", "a character that is not a hexadecimal digit"));
        }
        if s.len() != 24 {
            return Err(err("objectid", "not 24 characters"));
        }
        let mut n = [0u8; 12];
        for (i, b) in n.iter_mut().enumerate() {
            let d = |c: u8| digit(HEX_LOWER, c.to_ascii_lowercase()) as u8;
            *b = d(s[2 * i]) << 4 | d(s[2 * i + 1]);
        }
        Ok(ObjectId(n))
    }
}

impl fmt::Display for Xid {
    /// 20 lowercase base32hex characters (`0-9a-v`): the 96 bits and 4 zero bits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = u128::from_be_bytes({
            let mut w = [0u8; 16];
            w[..12].copy_from_slice(&self.0);
            w
        }) >> 28; // the 100 bits at the bottom
        let mut buf = [0u8; 20];
        for (i, slot) in buf.iter_mut().enumerate() {
            *slot = BASE32HEX_LOWER[(v >> (5 * (19 - i)) & 31) as usize];
        }
        f.write_str(std::str::from_utf8(&buf).expect("ascii"))
    }
}

impl FromStr for Xid {
    type Err = ParseError;
    /// 20 base32hex characters, lowercase only, the last one `0` or `g` (it
    /// carries one bit and the 4 zero bits), as rs/xid and the server read them.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let s = s.as_bytes();
        if first_bad(s, BASE32HEX_LOWER, false).is_some() {
            return Err(err("rsxid", "a character outside lowercase base32hex (0-9a-v)"));
        }
        if s.len() != 20 {
            return Err(err("rsxid", "not 20 characters"));
        }
        let v = s.iter().fold(0u128, |v, &c| v << 5 | digit(BASE32HEX_LOWER, c) as u128);
        if v & 15 != 0 {
            return Err(err("rsxid", "the last character is not 0 or g (it carries bits beyond the 96)"));
        }
        let mut n = [0u8; 12];
        n.copy_from_slice(&(v << 28).to_be_bytes()[..12]);
        Ok(Xid(n))
    }
}
