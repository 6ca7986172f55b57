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

// Text the server refuses because a character is not ASCII: a look-alike that
// Unicode case mapping or digit tables turn into a digit or letter of the
// alphabet (issue 51); the server reads bytes, and only ASCII digits and
// letters are digits (src/core/base32.cpp, base36.cpp, prefixed.cpp). The same
// cases, in the same order and spelling, are in every client's offline tests
// until the shared vectors file holds them (test/data/id_vectors.json, issue
// 52). (family, text, what): the look-alike in a valid ID (BITS).
const NOT_ASCII: &[(&str, &str, &str)] = &[
    ("ulid", "01H455VB4PEX5VS\u{212a}NK084SN02Q", "U+212A KELVIN SIGN for K"),
    ("ulid", "01H455VB4PEX5V\u{017f}KNK084SN02Q", "U+017F LATIN SMALL LETTER LONG S (uppercases to S) for S"),
    ("ulid", "0\u{0131}H455VB4PEX5VSKNK084SN02Q", "U+0131 LATIN SMALL LETTER DOTLESS I (uppercases to I, an alias of 1) for 1"),
    ("ulid", "0\u{0130}H455VB4PEX5VSKNK084SN02Q", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE (lowercases to i) for 1"),
    ("ulid", "01H\u{ff14}55VB4PEX5VSKNK084SN02Q", "U+FF14 FULLWIDTH DIGIT FOUR for 4"),
    ("ulid", "01H455VB4PEX5VSKNK084SN02\u{ff31}", "U+FF31 FULLWIDTH LATIN CAPITAL LETTER Q for Q"),
    ("ulid", "01H\u{0664}55VB4PEX5VSKNK084SN02Q", "U+0664 ARABIC-INDIC DIGIT FOUR for 4"),
    ("prefixed_id", "acct_039sr\u{212a}j01e44uynszf2f2njh3", "U+212A KELVIN SIGN for k"),
    ("prefixed_id", "acct_039\u{017f}rkj01e44uynszf2f2njh3", "U+017F LATIN SMALL LETTER LONG S (uppercases to S) for s"),
    ("prefixed_id", "acct_039srkj01e44\u{0131}ynszf2f2njh3", "U+0131 LATIN SMALL LETTER DOTLESS I (uppercases to I) for u"),
    ("prefixed_id", "acct_039srkj01e44\u{0130}ynszf2f2njh3", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE (lowercases to i) for u"),
    ("prefixed_id", "acct_\u{ff10}39srkj01e44uynszf2f2njh3", "U+FF10 FULLWIDTH DIGIT ZERO for 0"),
    ("prefixed_id", "acct_039srkj01e44uynszf2f2nj\u{ff48}3", "U+FF48 FULLWIDTH LATIN SMALL LETTER H for h"),
    ("prefixed_id", "acct_\u{0660}39srkj01e44uynszf2f2njh3", "U+0660 ARABIC-INDIC DIGIT ZERO for 0"),
    ("prefixed_id", "acct_\u{0966}39srkj01e44uynszf2f2njh3", "U+0966 DEVANAGARI DIGIT ZERO for 0"),
    ("prefixed_id", "tas\u{212a}_039srkj01e44uynszf2f2njh3", "U+212A KELVIN SIGN for k in the prefix"),
    ("prefixed_id", "ta\u{017f}k_039srkj01e44uynszf2f2njh3", "U+017F LATIN SMALL LETTER LONG S for s in the prefix"),
    ("prefixed_id", "\u{0131}tem_039srkj01e44uynszf2f2njh3", "U+0131 LATIN SMALL LETTER DOTLESS I for i in the prefix"),
    ("prefixed_id", "\u{0130}tem_039srkj01e44uynszf2f2njh3", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE for i in the prefix"),
    ("prefixed_id", "\u{ff41}cct_039srkj01e44uynszf2f2njh3", "U+FF41 FULLWIDTH LATIN SMALL LETTER A for a in the prefix"),
    ("typeid", "prefix_01h455vb4pex5vs\u{212a}nk084sn02q", "U+212A KELVIN SIGN (lowercases to k) for k"),
    ("typeid", "prefix_01h455vb4pex5v\u{017f}knk084sn02q", "U+017F LATIN SMALL LETTER LONG S for s"),
    ("typeid", "prefix_0\u{0131}h455vb4pex5vsknk084sn02q", "U+0131 LATIN SMALL LETTER DOTLESS I (an alias of 1) for 1"),
    ("typeid", "prefix_01h\u{ff14}55vb4pex5vsknk084sn02q", "U+FF14 FULLWIDTH DIGIT FOUR for 4"),
    ("typeid", "prefix_01h455vb4pex5vsknk084sn02\u{ff51}", "U+FF51 FULLWIDTH LATIN SMALL LETTER Q for q"),
    ("typeid", "prefix_01h\u{0664}55vb4pex5vsknk084sn02q", "U+0664 ARABIC-INDIC DIGIT FOUR for 4"),
    ("typeid", "01h455vb4pex5vs\u{212a}nk084sn02q", "U+212A KELVIN SIGN for k without a prefix"),
    ("typeid", "pref\u{0131}x_01h455vb4pex5vsknk084sn02q", "U+0131 LATIN SMALL LETTER DOTLESS I for i in the prefix"),
    ("typeid", "pref\u{0130}x_01h455vb4pex5vsknk084sn02q", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE for i in the prefix"),
    ("typeid", "tas\u{212a}_01h455vb4pex5vsknk084sn02q", "U+212A KELVIN SIGN for k in the prefix"),
    ("uuid", "\u{ff10}1890a5d-ac96-774b-bcce-b302099a8057", "U+FF10 FULLWIDTH DIGIT ZERO for 0"),
    ("uuid", "01890\u{ff41}5d-ac96-774b-bcce-b302099a8057", "U+FF41 FULLWIDTH LATIN SMALL LETTER A for a"),
    ("uuid", "\u{0660}1890a5d-ac96-774b-bcce-b302099a8057", "U+0660 ARABIC-INDIC DIGIT ZERO for 0"),
    ("snowflake", "900719925474099\u{ff12}", "U+FF12 FULLWIDTH DIGIT TWO for 2"),
    ("snowflake", "\u{0669}007199254740992", "U+0669 ARABIC-INDIC DIGIT NINE for 9"),
];

// Each text parser refuses every non-ASCII look-alike, with a ParseError of its
// type, as the server does. The crate parses no uuid or snowflake text (it
// takes [u8; 16] and i64): those cases are not run here.
#[test]
fn not_ascii_refused() {
    let mut run = 0;
    for &(family, text, what) in NOT_ASCII {
        let refused = match family {
            "ulid" => text.parse::<Ulid>().err(),
            "prefixed_id" => text.parse::<PrefixedId>().err(),
            "typeid" => text.parse::<TypeId>().err(),
            _ => continue,
        };
        run += 1;
        match refused {
            Some(e) => assert_eq!(e.type_name, family, "{family}: {text:?} ({what}): {e}"),
            None => panic!("{family}: {text:?} ({what}) accepted"),
        }
    }
    assert_eq!(run, 30);
    // each case differs from one of these by its look-alike
    assert_eq!("01H455VB4PEX5VSKNK084SN02Q".parse::<Ulid>().unwrap(), Ulid(BITS));
    assert_eq!("task_039SRKJ01E44UYNSZF2F2NJH3".parse::<PrefixedId>().unwrap().to_uuid_bytes(), BITS);
    assert_eq!("prefix_01h455vb4pex5vsknk084sn02q".parse::<TypeId>().unwrap().to_uuid_bytes(), BITS);
}
