//! The text forms and decoders, without a server.
use idgen::*;
use std::time::{Duration, UNIX_EPOCH};

// The bits of docs/internals.md's binary example, and the TypeID specification's example.
const BITS: [u8; 16] = [0x01, 0x89, 0x0a, 0x5d, 0xac, 0x96, 0x77, 0x4b, 0xbc, 0xce, 0xb3, 0x02, 0x09, 0x9a, 0x80, 0x57];

#[test]
fn text_vectors() {
    assert_eq!(Ulid(BITS).to_string(), "01H455VB4PEX5VSKNK084SN02Q");
    assert_eq!("01h455vb4pex5vsknk084sn02q".parse::<Ulid>().unwrap(), Ulid(BITS));
    let p = PrefixedId::new("acct", BITS).unwrap();
    assert_eq!(p.to_string(), "acct_039srkj01e44uynszf2f2njh3");
    let q: PrefixedId = "user_session_039SRKJ01E44UYNSZF2F2NJH3".parse().unwrap();
    assert_eq!((q.prefix(), q.to_uuid_bytes()), ("user_session", BITS));
    assert_eq!("a_f5lxx1zz5pnorynqglhzmsp33".parse::<PrefixedId>().unwrap().to_uuid_bytes(), [255; 16]);
    let t: TypeId = "prefix_01h455vb4pex5vsknk084sn02q".parse().unwrap();
    assert_eq!((t.prefix(), t.to_uuid_bytes()), ("prefix", BITS));
    assert_eq!(TypeId::new("", BITS).unwrap().to_string(), "01h455vb4pex5vsknk084sn02q");
    assert_eq!(t.time(), Some(UNIX_EPOCH + Duration::from_millis(0x01890a5dac96)));
    let mut wire = Vec::new();
    p.write_binary(&mut wire);
    assert_eq!(wire[..5], [4, b'a', b'c', b'c', b't']);
    assert_eq!(PrefixedId::from_binary(&wire).unwrap(), p);
}

#[test]
fn text_errors() {
    for s in ["", "01H455VB4PEX5VSKNK084SN02", "81H455VB4PEX5VSKNK084SN02Q", "01H455VB4PEX5VSKNK084SN0IL", "01H455VB4PEX5VSKNK084SN0-Q"] {
        assert!(s.parse::<Ulid>().is_err(), "{s}");
    }
    let long = format!("{}_039srkj01e44uynszf2f2njh3", "a".repeat(64));
    for s in ["acct039srkj01e44uynszf2f2njh3", "_039srkj01e44uynszf2f2njh3", "Acct_039srkj01e44uynszf2f2njh3",
        "acct__039srkj01e44uynszf2f2njh3", "acct_039srkj01e44uynszf2f2njh", "acct_f5lxx1zz5pnorynqglhzmsp34", long.as_str()] {
        assert!(s.parse::<PrefixedId>().is_err(), "{s}");
    }
    for s in ["prefix_01H455VB4PEX5VSKNK084SN02Q", "prefix_81h455vb4pex5vsknk084sn02q", "_01h455vb4pex5vsknk084sn02q",
        "prefix_01h455vb4pex5vsknk084sn0iq", "prefix_", "Prefix_01h455vb4pex5vsknk084sn02q"] {
        assert!(s.parse::<TypeId>().is_err(), "{s}");
    }
    assert!(PrefixedId::new("", BITS).is_err());
}

#[test]
fn wire_refusals() {
    assert!(Ulid::from_binary(&[0; 15]).is_err());
    assert!(Ulid::from_binary(&[0; 17]).is_err());
    let mut good = vec![4u8];
    good.extend_from_slice(b"acct0123456789abcdef");
    assert!(PrefixedId::from_binary(&good).is_ok());
    assert!(PrefixedId::from_binary(&good[..20]).is_err());
    assert!(PrefixedId::from_binary(&[&good[..], &[0]].concat()).is_err());
    assert!(PrefixedId::from_binary(&[0u8; 17]).is_err(), "no prefix");
    assert!(PrefixedId::from_binary(&[&[4u8][..], b"Acct0123456789abcdef"].concat()).is_err());
    assert!(PrefixedId::from_binary(&[&[0x61u8][..], b"cct0123456789abcdef"].concat()).is_err(), "the form before 0.5.0");
    assert!(TypeId::from_binary(&[0u8; 17]).is_ok());
    assert!(TypeId::from_binary(&[64u8; 81]).is_err());
    assert!(TypeId::from_binary(&[]).is_err());
}

#[test]
fn decoder_ranges() {
    assert_eq!(snowflake_time((1 << 53) - 1, DEFAULT_SNOWFLAKE_EPOCH_MS), Err(NotSnowflake((1 << 53) - 1)));
    assert!(snowflake_shard(-1).is_err() && snowflake_seq(5).is_err());
    for id in [-1, 1 << 53] {
        assert!(snowflake53_time(id, 0).is_err() && snowflake53_shard(id).is_err() && snowflake53_seq(id).is_err());
    }
    let mut v4 = [0u8; 16];
    v4[6] = 0x40;
    v4[8] = 0x80;
    assert_eq!(uuid_v7_time(&v4), None);
    v4[6] = 0x70;
    v4[8] = 0xc0;
    assert_eq!(uuid_v7_time(&v4), None, "wrong variant");
}
