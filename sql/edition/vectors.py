#!/usr/bin/python3
"""Writes test/data/id_vectors.json (issue 52): each ID family's layout,
alphabets and prefix rule, read from the C++ cores' headers as generate.py
reads them for the SQL edition, and its valid and refused cases, answered by
the cores themselves.

Usage: vectors.py write [OUTPUT] | vectors.py check [FILE]

The cases' inputs are listed here (CASES): min, max, one past max, both
cases, wrong lengths, bad characters and non-ASCII look-alikes. Their answers
are not: vectors.py compiles test/unit/vectors_probe.cpp against src/core
into a temporary directory, feeds it every input and records what it prints
(test/unit/vector_answers.hpp, which test/unit/vectors_test.cpp sets against
the file again). Where ../shared/data holds third-party vectors (the TypeID
spec's valid.json and invalid.json, RFC 9562's examples) the cores' answers
are checked against them first; they are not copied into the file. `check`
generates afresh and fails (exit 1) when FILE differs (test/tap/build_checks.pl).
Standard library only.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import generate  # noqa: E402  (the SQL edition's reader of the headers)

DEFAULT_OUTPUT = os.path.join(ROOT, "test", "data", "id_vectors.json")
SHARED_DATA = os.path.normpath(os.path.join(ROOT, "..", "shared", "data"))

# docs/internals.md's binary example, in each family's text
ULID_EXAMPLE = "01H455VB4PEX5VSKNK084SN02Q"
BASE36_EXAMPLE = "039srkj01e44uynszf2f2njh3"
TYPEID_EXAMPLE = "01h455vb4pex5vsknk084sn02q"
BITS_EXAMPLE = "01890a5dac96774bbcceb302099a8057"
# segmentio/ksuid's README example, the BSON corpus's ObjectId and rs/xid's first test ID
KSUID_EXAMPLE = "0ujtsYcgvSTl8PAuAdqWYSMnLOv"
OBJECTID_EXAMPLE = "56e1fc72e0c917e9c4714161"
XID_EXAMPLE = "9m4e2mr0ui3e8a215n4g"
ZERO16 = "00" * 16

# Text the server refuses because a character is not ASCII: a look-alike that
# Unicode case mapping or digit tables turn into a digit or letter of the
# alphabet (issue 51); the cores read bytes, and only ASCII digits and letters
# are digits (src/core/base32.cpp, base36.cpp, prefixed.cpp). (family, text,
# what): the look-alike in a valid ID (docs/internals.md's example bits).
NOT_ASCII = [
    ("ulid", "01H455VB4PEX5VS\u212aNK084SN02Q", "U+212A KELVIN SIGN for K"),
    ("ulid", "01H455VB4PEX5V\u017fKNK084SN02Q", "U+017F LATIN SMALL LETTER LONG S (uppercases to S) for S"),
    ("ulid", "0\u0131H455VB4PEX5VSKNK084SN02Q", "U+0131 LATIN SMALL LETTER DOTLESS I (uppercases to I, an alias of 1) for 1"),
    ("ulid", "0\u0130H455VB4PEX5VSKNK084SN02Q", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE (lowercases to i) for 1"),
    ("ulid", "01H\uff1455VB4PEX5VSKNK084SN02Q", "U+FF14 FULLWIDTH DIGIT FOUR for 4"),
    ("ulid", "01H455VB4PEX5VSKNK084SN02\uff31", "U+FF31 FULLWIDTH LATIN CAPITAL LETTER Q for Q"),
    ("ulid", "01H\u066455VB4PEX5VSKNK084SN02Q", "U+0664 ARABIC-INDIC DIGIT FOUR for 4"),
    ("ulid", "01H455VB4P\u0415X5VSKNK084SN02Q", "U+0415 CYRILLIC CAPITAL LETTER IE for E"),
    ("ulid", "01H455VB4PEX5VSKN\u039a084SN02Q", "U+039A GREEK CAPITAL LETTER KAPPA for K"),
    ("prefixed_id", "acct_039sr\u212aj01e44uynszf2f2njh3", "U+212A KELVIN SIGN for k"),
    ("prefixed_id", "acct_039\u017frkj01e44uynszf2f2njh3", "U+017F LATIN SMALL LETTER LONG S (uppercases to S) for s"),
    ("prefixed_id", "acct_039srkj01e44\u0131ynszf2f2njh3", "U+0131 LATIN SMALL LETTER DOTLESS I (uppercases to I) for u"),
    ("prefixed_id", "acct_039srkj01e44\u0130ynszf2f2njh3", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE (lowercases to i) for u"),
    ("prefixed_id", "acct_\uff1039srkj01e44uynszf2f2njh3", "U+FF10 FULLWIDTH DIGIT ZERO for 0"),
    ("prefixed_id", "acct_039srkj01e44uynszf2f2nj\uff483", "U+FF48 FULLWIDTH LATIN SMALL LETTER H for h"),
    ("prefixed_id", "acct_\u066039srkj01e44uynszf2f2njh3", "U+0660 ARABIC-INDIC DIGIT ZERO for 0"),
    ("prefixed_id", "acct_\u096639srkj01e44uynszf2f2njh3", "U+0966 DEVANAGARI DIGIT ZERO for 0"),
    ("prefixed_id", "acct_039srkj01\u043544uynszf2f2njh3", "U+0435 CYRILLIC SMALL LETTER IE for e"),
    ("prefixed_id", "tas\u212a_039srkj01e44uynszf2f2njh3", "U+212A KELVIN SIGN for k in the prefix"),
    ("prefixed_id", "ta\u017fk_039srkj01e44uynszf2f2njh3", "U+017F LATIN SMALL LETTER LONG S for s in the prefix"),
    ("prefixed_id", "\u0131tem_039srkj01e44uynszf2f2njh3", "U+0131 LATIN SMALL LETTER DOTLESS I for i in the prefix"),
    ("prefixed_id", "\u0130tem_039srkj01e44uynszf2f2njh3", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE for i in the prefix"),
    ("prefixed_id", "\uff41cct_039srkj01e44uynszf2f2njh3", "U+FF41 FULLWIDTH LATIN SMALL LETTER A for a in the prefix"),
    ("prefixed_id", "\u0430cct_039srkj01e44uynszf2f2njh3", "U+0430 CYRILLIC SMALL LETTER A for a in the prefix"),
    ("ksuid", "0ujtsYcgv\u017fTl8PAuAdqWYSMnLOv", "U+017F LATIN SMALL LETTER LONG S (uppercases to S) for S"),
    ("ksuid", "0ujtsYcgvSTl8PAuAdqWYSMnL\uff2fv", "U+FF2F FULLWIDTH LATIN CAPITAL LETTER O for O"),
    ("objectid", "56e1fc72e0c917e9c471416\uff11", "U+FF11 FULLWIDTH DIGIT ONE for 1"),
    ("objectid", "56e1fc72\u04350c917e9c4714161", "U+0435 CYRILLIC SMALL LETTER IE for e"),
    ("xid", "9m4e2mr0ui3e8a215n4\u0261", "U+0261 LATIN SMALL LETTER SCRIPT G for g"),
    ("xid", "9m4\u0435" + "2mr0ui3e8a215n4g", "U+0435 CYRILLIC SMALL LETTER IE for e"),
    ("typeid", "prefix_01h455vb4pex5vs\u212ank084sn02q", "U+212A KELVIN SIGN (lowercases to k) for k"),
    ("typeid", "prefix_01h455vb4pex5v\u017fknk084sn02q", "U+017F LATIN SMALL LETTER LONG S for s"),
    ("typeid", "prefix_0\u0131h455vb4pex5vsknk084sn02q", "U+0131 LATIN SMALL LETTER DOTLESS I (an alias of 1) for 1"),
    ("typeid", "prefix_01h\uff1455vb4pex5vsknk084sn02q", "U+FF14 FULLWIDTH DIGIT FOUR for 4"),
    ("typeid", "prefix_01h455vb4pex5vsknk084sn02\uff51", "U+FF51 FULLWIDTH LATIN SMALL LETTER Q for q"),
    ("typeid", "prefix_01h\u066455vb4pex5vsknk084sn02q", "U+0664 ARABIC-INDIC DIGIT FOUR for 4"),
    ("typeid", "prefix_01h455vb4p\u0435x5vsknk084sn02q", "U+0435 CYRILLIC SMALL LETTER IE for e"),
    ("typeid", "01h455vb4pex5vs\u212ank084sn02q", "U+212A KELVIN SIGN for k without a prefix"),
    ("typeid", "pref\u0131x_01h455vb4pex5vsknk084sn02q", "U+0131 LATIN SMALL LETTER DOTLESS I for i in the prefix"),
    ("typeid", "pref\u0130x_01h455vb4pex5vsknk084sn02q", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE for i in the prefix"),
    ("typeid", "tas\u212a_01h455vb4pex5vsknk084sn02q", "U+212A KELVIN SIGN for k in the prefix"),
    ("typeid", "\u03c1refix_01h455vb4pex5vsknk084sn02q", "U+03C1 GREEK SMALL LETTER RHO for p in the prefix"),
]

# uuid and bigint text is read by PostgreSQL's uuid_in and int8in, not by the
# cores (which take the 16 bytes and the int64): these look-alikes are refused
# there, and are recorded as such, with no answer of the cores.
SERVER_TEXT = [
    ("uuid", "\uff101890a5d-ac96-774b-bcce-b302099a8057", "U+FF10 FULLWIDTH DIGIT ZERO for 0"),
    ("uuid", "01890\uff415d-ac96-774b-bcce-b302099a8057", "U+FF41 FULLWIDTH LATIN SMALL LETTER A for a"),
    ("uuid", "\u06601890a5d-ac96-774b-bcce-b302099a8057", "U+0660 ARABIC-INDIC DIGIT ZERO for 0"),
    ("snowflake", "900719925474099\uff12", "U+FF12 FULLWIDTH DIGIT TWO for 2"),
    ("snowflake", "\u0669007199254740992", "U+0669 ARABIC-INDIC DIGIT NINE for 9"),
]

U128_MAX = "ff" * 16

# Layouts of the user's for the snowflake_layout cases (inputs, not answers):
# epoch (Unix ms), unit (ms) and fields from the most significant bit. shop is
# docs/reference.md's example; baidu is uid-generator's default, which has run
# out; eight_fields has every field a layout may; sequence_first puts the
# time field in the middle.
DEFINED_LAYOUTS = {
    "shop": (1577836800000, 1, [("time", 42), ("region", 4), ("worker", 6), ("sequence", 11)]),
    "baidu": (1463702400000, 1000, [("time", 28), ("worker", 22), ("sequence", 13)]),
    "eight_fields": (0, 86400000, [("time", 20), ("a", 5), ("b", 5), ("c", 5), ("d", 5), ("e", 5), ("f", 5),
                                   ("sequence", 8)]),
    "sequence_first": (1672531200000, 1, [("sequence", 10), ("time", 40), ("shard", 13)]),
}
# Discord's documented example (discord-api-docs, "Snowflakes")
DISCORD_EXAMPLE = 175928847299117063


def layout_names():
    """The predefined snowflake layouts' names, from the core's header."""
    header = generate.read("src/core/snowflake_layout.hpp")
    names = generate.grab(header, r"enum class PredefinedLayout \{([a-z_, ]+)\};", "the predefined layouts")
    return [n.strip() for n in names.split(",")]


def fields_text(fields):
    """Fields as the probe takes them: "name:bits,..."."""
    return ",".join("%s:%d" % f for f in fields)


def snowflake_layouts(probe, sf_epoch_ms):
    """The snowflake_layout family's layouts by name: the predefined ones as the
    core defines them (instagram's epoch the setting's default), then
    DEFINED_LAYOUTS, each with its width and end as the core computes them."""
    names = layout_names()
    answers = ask(probe, [("snowflake_layout.predefined", [name, str(sf_epoch_ms)]) for name in names] +
                  [("snowflake_layout.define", [str(e), str(u), fields_text(f)]) for e, u, f in DEFINED_LAYOUTS.values()])
    out = {}
    for name, a in zip(names, answers):
        if not a["ok"]:
            sys.exit("vectors.py: the core has no predefined layout %s" % name)
        fields = [(f.split(":")[0], int(f.split(":")[1])) for f in a["fields"].split(",")]
        out[name] = {"predefined": True, "epoch_unix_ms": a["epoch_unix_ms"], "time_unit_ms": a["time_unit_ms"],
                     "fields": fields, "total_bits": a["total_bits"], "end_unix_ms": a["end_unix_ms"]}
    for (name, (epoch, unit, fields)), a in zip(DEFINED_LAYOUTS.items(), answers[len(names):]):
        if not a["ok"]:
            sys.exit("vectors.py: the core refuses the case layout %s: %s" % (name, a["reason"]))
        out[name] = {"predefined": False, "epoch_unix_ms": epoch, "time_unit_ms": unit, "fields": fields,
                     "total_bits": a["total_bits"], "end_unix_ms": a["end_unix_ms"]}
    return out


def layout_spec(layout):
    """A case's layout as the probe reads it: epoch/unit/fields/allow_64."""
    return "%d/%d/%s/%d" % (layout["epoch_unix_ms"], layout["time_unit_ms"], fields_text(layout["fields"]),
                            layout["predefined"])


def cases(sf_epoch_ms, case_layouts):
    """{operation: [(what, {input: value})]}, in the order the file lists them."""
    c = {}

    def add(op, what, **inputs):
        c.setdefault(op, []).append((what, inputs))

    for what, bits in [("docs/internals.md's example", BITS_EXAMPLE),
                       ("RFC 9562 A.6's UUIDv7 example", "017f22e279b07cc398c4dc0c0c07398f"),
                       ("the smallest UUIDv7 (boundary of 1970-01-01)", "00000000000070008000000000000000"),
                       ("the largest UUIDv7", "ffffffffffff7fffbfffffffffffffff"),
                       ("the nil uuid: version 0", ZERO16),
                       ("a version 4 uuid", "9a7b1d2e3c4f4a5b8c6d7e8f90a1b2c3"),
                       ("version 7 with variant 11 (not RFC 9562's)", "01890a5dac96774bfcceb302099a8057"),
                       ("version 7 with variant 0 (NCS)", "01890a5dac96774b3cceb302099a8057"),
                       ("version 8", "01890a5dac96874bbcceb302099a8057"),
                       ("version 6", "1ec9414c232a6b00b3c89f6bdeced846"),
                       ("all 128 bits set: version 15", U128_MAX)]:
        add("uuid_v7.bits", what, bits=bits)
    for what, ms in [("1970-01-01", 0), ("docs/internals.md's example", 1688096058518),
                     ("the largest 48-bit millisecond", 2**48 - 1), ("one past 48 bits", 2**48),
                     ("before 1970", -1)]:
        add("uuid_v7.boundary", what, unix_ms=ms)
    for what, ms, ns, random in [
            ("the first tick of a millisecond, no random bits", 1688096058518, 0, "0000000000000000"),
            ("half a millisecond in: rand_a 2048", 1688096058518, 500000, "0000000000000000"),
            ("the last nanosecond: rand_a 4095", 1688096058518, 999999, "ffffffffffffffff"),
            ("244 ns, one short of 1/4096 ms: rand_a 0", 0, 244, "3cceb302099a8057"),
            ("245 ns: rand_a 1", 0, 245, "3cceb302099a8057"),
            ("the random word's top 2 bits are the variant's: ignored", 2**48 - 1, 999999, "c000000000000001"),
            ("one past 48 bits", 2**48, 0, "0000000000000000"),
            ("before 1970", -1, 0, "0000000000000000")]:
        add("uuid_v7.make", what, unix_ms=ms, ns=ns, random=random)

    # snowflake: 63 bits from 2^53; snowflake53: 0 to 2^53 - 1
    for fam, lo, hi in [("snowflake", 2**53, 2**63 - 1), ("snowflake53", 0, 2**53 - 1)]:
        other = "snowflake53" if fam == "snowflake" else "snowflake"
        for what, id_ in [("the smallest ID", lo), ("the largest ID", hi),
                          ("one below the smallest: a %s ID" % other if lo else "-1: negative", lo - 1),
                          ("one past the largest" + (": a snowflake ID" if fam == "snowflake53" else ""),
                           hi + 1 if fam == "snowflake53" else None),
                          ("an ID of 2026", 1_000_000_000_000 * 2**23 + 1234 * 2**10 + 7 if fam == "snowflake"
                           else 1_000_000_000_000 * 2**13 + 9 * 2**9 + 7),
                          ("shard 1, seq 1", lo + 2**10 + 1 if fam == "snowflake" else 2**9 + 1),
                          ("alternating bits", 0x5555555555555555 if fam == "snowflake" else 0x15555555555555),
                          ("the other alternating bits", 0x2AAAAAAAAAAAAAAA if fam == "snowflake" else 0xAAAAAAAAAAAAA),
                          ("0", 0), ("-1", -1), ("the most negative int64", -2**63)]:
            if id_ is None or any(case[1]["id"] == str(id_) for case in c.get(fam + ".id", [])):
                continue
            add(fam + ".id", what, id=str(id_))
        max_shard, max_seq = (8191, 1023) if fam == "snowflake" else (15, 511)
        for what, ms, shard, seq in [("the last millisecond, the last shard and seq", 2**40 - 1, max_shard, max_seq),
                                     ("an ID of 2026", 1_000_000_000_000, 3, 7),
                                     ("millisecond 0", 0, 0, 0),
                                     ("the first millisecond of the 63-bit split", 2**30, 0, 0),
                                     ("one past the last millisecond", 2**40, 0, 0),
                                     ("one past the last shard", 5, max_shard + 1, 0),
                                     ("one past the last seq", 5, 0, max_seq + 1)]:
            add(fam + ".make", what, ms=ms, shard=shard, seq=seq)

    for what, text in [("docs/internals.md's example", ULID_EXAMPLE),
                       ("the same in lowercase", ULID_EXAMPLE.lower()),
                       ("the same in mixed case", "01h455vb4pex5vsKNK084SN02Q"),
                       ("the spec's example", "01ARZ3NDEKTSV4RRFFQ69G5FAV"),
                       ("the smallest", "0" * 26), ("the largest", "7" + "Z" * 25),
                       ("the largest in lowercase", "7" + "z" * 25),
                       ("one past the largest", "8" + "0" * 25),
                       ("the first digit at its largest", "Z" * 26),
                       ("25 digits", ULID_EXAMPLE[:-1]), ("27 digits", ULID_EXAMPLE + "0"),
                       ("empty", ""),
                       ("I is not a digit (no Crockford aliases)", ULID_EXAMPLE[:-1] + "I"),
                       ("L is not a digit", ULID_EXAMPLE[:-1] + "L"),
                       ("O is not a digit", "O" + ULID_EXAMPLE[1:]),
                       ("U is not a digit", ULID_EXAMPLE[:-1] + "U"),
                       ("lowercase i is not a digit", ULID_EXAMPLE[:-1] + "i"),
                       ("a hyphen", ULID_EXAMPLE[:12] + "-" + ULID_EXAMPLE[13:]),
                       ("a leading space", " " + ULID_EXAMPLE[1:]),
                       ("a trailing space", ULID_EXAMPLE + " "),
                       ("a NUL byte", ULID_EXAMPLE[:25] + "\0"),
                       ("a bad character in 27 digits: the character is reported first", ULID_EXAMPLE + "U")]:
        add("ulid.text", what, text=text)
    for f, text, what in NOT_ASCII:
        if f == "ulid":
            add("ulid.text", what, text=text)
    for what, bits in [("zero", ZERO16), ("one", "00" * 15 + "01"), ("docs/internals.md's example", BITS_EXAMPLE),
                       ("all 128 bits", U128_MAX)]:
        add("ulid.bits", what, bits=bits)

    k = KSUID_EXAMPLE
    for what, text in [("segmentio's README example", k), ("the nil KSUID", "0" * 27),
                       ("the largest KSUID", "aWgEPTl1tmebfsQzFP4bxwgy80V"),
                       ("one past the largest", "aWgEPTl1tmebfsQzFP4bxwgy80W"),
                       ("every digit z", "z" * 27), ("26 digits", k[:-1]), ("28 digits", k + "0"),
                       ("empty", ""), ("a hyphen: segmentio's parser reads it", "0" * 26 + "-"),
                       ("a space", k[:13] + " " + k[14:]), ("a NUL byte", k[:26] + "\0"),
                       ("the case matters: uppercased", k.upper()),
                       ("a bad character in 28 digits: the character is reported first", k + "-")]:
        add("ksuid.text", what, text=text)
    for f, text, what in NOT_ASCII:
        if f == "ksuid":
            add("ksuid.text", what, text=text)
    for what, bits in [("zero", "00" * 20), ("segmentio's README example", "0669f7efb5a1cd34b5f99d1154fb6853345c9735"),
                       ("all 160 bits", "ff" * 20), ("the largest second, payload zero", "ffffffff" + "00" * 16)]:
        add("ksuid.bits", what, bits=bits)

    o = OBJECTID_EXAMPLE
    for what, text in [("the BSON corpus's ObjectId", o), ("the same in uppercase", o.upper()),
                       ("mixed case", "56E1fc72e0c917e9c4714161"), ("all zero", "0" * 24), ("all f", "f" * 24),
                       ("23 digits", o[:-1]), ("25 digits", o + "0"), ("empty", ""),
                       ("a g", o[:-1] + "g"), ("a space", " " + o[1:]),
                       ("ObjectId(...) around it", 'ObjectId("%s")' % o),
                       ("a bad character in 25 digits: the character is reported first", o + "x")]:
        add("objectid.text", what, text=text)
    for f, text, what in NOT_ASCII:
        if f == "objectid":
            add("objectid.text", what, text=text)
    for what, bits in [("zero", "00" * 12), ("the BSON corpus's ObjectId", o), ("all 96 bits", "ff" * 12)]:
        add("objectid.bits", what, bits=bits)

    x = XID_EXAMPLE
    for what, text in [("rs/xid's first test ID", x), ("the nil XID", "0" * 20),
                       ("the largest XID", "v" * 19 + "g"), ("a last character carrying low bits", x[:-1] + "h"),
                       ("a last character of 1", "0" * 19 + "1"), ("19 characters", x[:-1]),
                       ("21 characters", x + "0"), ("empty", ""), ("uppercase", x.upper()),
                       ("w is beyond base32hex", "w" + x[1:]), ("an ObjectId's 24 hex digits", OBJECTID_EXAMPLE),
                       ("a bad character in 21 characters: the character is reported first", x + "w")]:
        add("xid.text", what, text=text)
    for f, text, what in NOT_ASCII:
        if f == "xid":
            add("xid.text", what, text=text)
    for what, bits in [("zero", "00" * 12), ("rs/xid's first test ID", "4d88e15b60f486e428412dc9"),
                       ("all 96 bits", "ff" * 12)]:
        add("xid.bits", what, bits=bits)

    for what, prefix in [("one letter", "a"), ("a word", "acct"), ("inner underscores", "pre_fix"),
                         ("two inner underscores in a row", "a__b"), ("63 letters", "a" * 63),
                         ("64 letters", "a" * 64), ("empty", ""), ("a leading underscore", "_acct"),
                         ("a trailing underscore", "acct_"), ("an underscore alone", "_"),
                         ("uppercase", "Acct"), ("a digit", "acct1"), ("a hyphen", "ac-ct"),
                         ("a space", "ac ct"), ("63 letters and a digit: the character is reported first", "a" * 63 + "1"),
                         ("U+212A KELVIN SIGN for k", "tas\u212a"), ("U+0131 LATIN SMALL LETTER DOTLESS I for i", "\u0131tem"),
                         ("U+0430 CYRILLIC SMALL LETTER A for a", "\u0430cct")]:
        add("prefix.check", what, prefix=prefix)

    b36 = BASE36_EXAMPLE
    for what, text in [("docs/internals.md's example", "acct_" + b36),
                       ("the digits in uppercase", "task_" + b36.upper()),
                       ("a prefix with underscores: split on the last", "pre_fix_" + b36),
                       ("the smallest body", "z_" + "0" * 25),
                       ("the largest body: 2^128 - 1", "z_f5lxx1zz5pnorynqglhzmsp33"),
                       ("the largest body in uppercase", "z_F5LXX1ZZ5PNORYNQGLHZMSP33"),
                       ("one past the largest body", "z_f5lxx1zz5pnorynqglhzmsp34"),
                       ("the first digit one past the largest's", "acct_g5lxx1zz5pnorynqglhzmsp33"),
                       ("every digit z", "acct_" + "z" * 25),
                       ("the longest: a 63-letter prefix", "a" * 63 + "_" + b36),
                       ("a 64-letter prefix", "a" * 64 + "_" + b36),
                       ("no underscore", "acct" + b36), ("no prefix and no underscore", b36),
                       ("an empty prefix", "_" + b36),
                       ("an uppercase prefix", "Acct_" + b36),
                       ("a leading underscore", "_acct_" + b36),
                       ("the prefix ends with an underscore", "acct__" + b36),
                       ("24 digits", "acct_" + b36[:-1]), ("26 digits", "acct_" + b36 + "0"),
                       ("no digits", "acct_"),
                       ("a hyphen among the digits", "acct_" + b36[:-2] + "-3"),
                       ("a TypeID's text", "user_" + TYPEID_EXAMPLE)]:
        add("prefixed_id.text", what, text=text)
    for f, text, what in NOT_ASCII:
        if f == "prefixed_id":
            add("prefixed_id.text", what, text=text)
    for what, binary in [("docs/internals.md's example", "0461636374" + BITS_EXAMPLE),
                         ("a 63-letter prefix", "3f" + "61" * 63 + U128_MAX),
                         ("empty", ""), ("a zero length byte: no prefix", "00" + "01" * 16),
                         ("one payload byte short", "0461636374" + "01" * 15),
                         ("one byte too many", "0461636374" + "01" * 17),
                         ("a length byte of 64", "40" + "61" * 64 + "01" * 16),
                         ("an uppercase prefix", "0441636374" + "01" * 16),
                         ("a prefix ending with an underscore", "046163635f" + "01" * 16),
                         ("the layout before 0.5.0: no length byte", "61636374" + BITS_EXAMPLE)]:
        add("prefixed_id.binary", what, binary=binary)

    t = TYPEID_EXAMPLE
    for what, text in [("docs/internals.md's example", "prefix_" + t), ("a short prefix", "user_" + t),
                       ("the empty prefix: no underscore", t),
                       ("a prefix with underscores: split on the last", "pre_fix_" + "0" * 26),
                       ("the largest suffix", "prefix_7" + "z" * 25),
                       ("one past the largest suffix", "prefix_8" + "0" * 25),
                       ("the longest: a 63-letter prefix (90 characters)", "a" * 63 + "_" + t),
                       ("a 64-letter prefix", "a" * 64 + "_" + t),
                       ("an uppercase suffix", "prefix_" + t.upper()),
                       ("an uppercase prefix", "Prefix_" + t),
                       ("an underscore and no prefix", "_" + t),
                       ("a leading underscore", "_prefix_" + t),
                       ("the prefix ends with an underscore", "prefix__" + t),
                       ("no underscore and more than 26 characters", "prefix" + t),
                       ("a prefixed_id's text", "user_" + BASE36_EXAMPLE),
                       ("25 digits", "prefix_" + t[:-1]), ("27 digits", "prefix_" + t + "0"),
                       ("i is not a digit", "prefix_" + t[:-2] + "iq"),
                       ("empty", ""), ("an underscore alone", "_"), ("no suffix", "prefix_")]:
        add("typeid.text", what, text=text)
    for f, text, what in NOT_ASCII:
        if f == "typeid":
            add("typeid.text", what, text=text)
    for what, binary in [("docs/internals.md's example", "06707265666978" + BITS_EXAMPLE),
                         ("the empty prefix: a zero length byte", "00" + BITS_EXAMPLE),
                         ("empty", ""), ("one payload byte short", "00" + "01" * 15),
                         ("a length byte of 64", "40" + "61" * 64 + "01" * 16),
                         ("an uppercase prefix", "0441636374" + "01" * 16)]:
        add("typeid.binary", what, binary=binary)

    # snowflake_layout: the predefined layouts (the core's answer is the file's
    # layout), definitions judged as snowflake_layout_check does, and IDs
    # decoded, composed and bounded in each layout
    for name in layout_names():
        add("snowflake_layout.predefined", "the predefined " + name, name=name, instagram_epoch_ms=sf_epoch_ms)
    add("snowflake_layout.predefined", "not a predefined layout", name="flickr", instagram_epoch_ms=sf_epoch_ms)
    add("snowflake_layout.predefined", "case matters", name="Discord", instagram_epoch_ms=sf_epoch_ms)
    for name, (epoch, unit, fields) in DEFINED_LAYOUTS.items():
        add("snowflake_layout.define", "the layout " + name, epoch_unix_ms=epoch, time_unit_ms=unit,
            fields=fields_text(fields))
    for what, epoch, unit, fields in [
            ("63 bits", 0, 1, "time:41,node:10,sequence:12"),
            ("the unit of a day", 0, 86400000, "time:20,sequence:8"),
            ("the latest epoch a 1-bit time field ends by 10000", 253402300799998, 1, "time:1,sequence:1"),
            ("1 ms later: it would hold a time of 10000", 253402300799999, 1, "time:1,sequence:1"),
            ("1 ms from 1970 with 47 time bits (to 6429)", 0, 1, "time:47,sequence:16"),
            ("1 ms from 1970 with 48 time bits: past 9999", 0, 1, "time:48,sequence:15"),
            ("the year 10000 as the epoch", 253402300800000, 1, "time:1,sequence:1"),
            ("an epoch before 1970", -1, 1, "time:41,sequence:12"),
            ("a unit of 0", 0, 0, "time:41,sequence:12"),
            ("a unit of one day and 1 ms", 0, 86400001, "time:20,sequence:8"),
            ("64 bits, the time field first: only discord may", 1420070400000, 1,
             "time:42,worker:5,process:5,sequence:12"),
            ("65 bits", 0, 1, "time:41,node:12,sequence:12"),
            ("a width of 0", 0, 1, "time:41,node:0,sequence:12"),
            ("a width of 64", 0, 1, "time:64,sequence:1"),
            ("nine fields", 0, 1, "time:20,a:2,b:2,c:2,d:2,e:2,f:2,g:2,sequence:8"),
            ("no time field", 0, 1, "clock:41,sequence:12"),
            ("two fields named time: one name twice", 0, 1, "time:20,time:20,sequence:12"),
            ("no sequence field", 0, 1, "time:41,worker:12"),
            ("two fields named sequence: one name twice", 0, 1, "time:41,sequence:6,sequence:6"),
            ("an uppercase name", 0, 1, "time:41,Worker:10,sequence:12"),
            ("a name starting with a digit", 0, 1, "time:41,1worker:10,sequence:12"),
            ("an empty name", 0, 1, "time:41,:10,sequence:12"),
            ("a name of 63 characters", 0, 1, "time:41,%s:10,sequence:12" % ("n" * 63)),
            ("a name of 64 characters", 0, 1, "time:41,%s:10,sequence:12" % ("n" * 64)),
            ("a hyphen in a name", 0, 1, "time:41,work-er:10,sequence:12"),
            ("two fields of one name", 0, 1, "time:41,node:5,node:5,sequence:12"),
            ("a node field named unix_ms", 0, 1, "time:41,unix_ms:10,sequence:12"),
            ("a node field named timestamp", 0, 1, "time:41,timestamp:10,sequence:12")]:
        add("snowflake_layout.define", what, epoch_unix_ms=epoch, time_unit_ms=unit, fields=fields)
    for name, layout in case_layouts.items():
        bits = layout["total_bits"]
        top = 2**min(bits, 63) - 1
        ids = [("0", 0), ("the largest ID", top), ("alternating bits", 0x5555555555555555 & top),
               ("the other alternating bits", 0x2AAAAAAAAAAAAAAA & top), ("-1: negative", -1),
               ("the most negative int64", -2**63)]
        if bits < 63:
            ids.append(("one past the largest: a bit above the layout", top + 1))
            ids.append(("the largest int64", 2**63 - 1))
        if bits == 64:
            ids.append(("the top bit set: a negative bigint", -2**62))
        if name == "discord":
            ids.insert(0, ("Discord's documented example", DISCORD_EXAMPLE))
        for what, id_ in ids:
            add("snowflake_layout.id", what, layout=name, id=str(id_))
    for name, ms, fields, what in [
            ("discord", 1462015105796, "worker:1,sequence:7", "Discord's documented example"),
            ("discord", 1420070400000, "", "the epoch, every field 0"),
            ("discord", 1420070399999, "", "1 ms before the epoch"),
            ("discord", 1420070400000 + 2**41 - 1, "worker:31,process:31,sequence:4095", "the last ms Discord can hold"),
            ("discord", 1420070400000 + 2**41, "", "the end: the sign bit"),
            ("discord", 1462015105796, "worker:32", "a worker of 6 bits"),
            ("discord", 1462015105796, "process:-1", "a negative field"),
            ("discord", 1462015105796, "increment:7", "a field the layout has not"),
            ("discord", 1462015105796, "time:5", "the time field is set by the time"),
            ("twitter", 1288834974658, "datacenter:1,worker:1", "1 ms after the epoch, datacenter 1, worker 1"),
            ("twitter", 1288834974657 + 2**41 - 1, "datacenter:31,worker:31,sequence:4095", "the largest ID"),
            ("sonyflake", 1409529600010, "machine:1", "one unit after the epoch, machine 1"),
            ("sonyflake", 1409529600019, "machine:1", "the last ms of that unit"),
            ("sonyflake", 1672531201000, "sequence:123,machine:456", "2023-01-01 plus 1 s, sequence 123, machine 456"),
            ("sonyflake", 1409529600000, "sequence:256", "a sequence of 9 bits"),
            ("pgedge", 1704067200000, "node:1,sequence:3", "2024-01-01, node 1, sequence 3"),
            ("pgedge", 1704067200000, "node:1024", "a node of 11 bits"),
            ("instagram", sf_epoch_ms + 1_000_000_000_000, "shard:3,sequence:7", "an ID of 2026"),
            ("shop", 1796360400500, "region:15,worker:63,sequence:2047", "docs/reference.md's example"),
            ("baidu", 1463702400000 + 2**28 * 1000 - 1, "worker:1", "the last ms before it ran out"),
            ("baidu", 1463702400000 + 2**28 * 1000, "", "when it ran out"),
            ("eight_fields", 86400000 * 2**20 - 1, "a:31,b:1,f:31,sequence:255", "the last ms, some fields"),
            ("sequence_first", 1672531200000 + 5, "sequence:1023,shard:1", "the time field in the middle")]:
        add("snowflake_layout.compose", what, layout=name, unix_ms=ms, fields=fields)
    for name, ms, what in [("discord", 1462015105796, "Discord's documented example's ms"),
                           ("discord", 1420070400000, "the epoch"), ("discord", 1420070399999, "before the epoch"),
                           ("discord", 1420070400000 + 2**41, "the end"),
                           ("sonyflake", 1409529600015, "within a 10 ms unit: its start"),
                           ("twitter", 1288834974657 + 2**41 - 1, "the last ms"),
                           ("pgedge", 1704067200000, "2024-01-01"),
                           ("instagram", sf_epoch_ms, "the epoch of the setting's default"),
                           ("shop", 1796342400000, "docs/reference.md's example"),
                           ("baidu", 1700000000000, "within a second"),
                           ("eight_fields", 0, "1970-01-01 in days"),
                           ("sequence_first", 1672531200000 + 2**40, "the end")]:
        add("snowflake_layout.boundary", what, layout=name, unix_ms=ms)
    return c


def constants():
    """The layouts, alphabets and prefix rule, from the headers (generate.py's reader)."""
    v = generate.constants("-")
    uuidv7 = generate.read("src/core/uuidv7.hpp")
    ulid = generate.read("src/core/ulid.hpp")
    base36 = generate.read("src/core/base36.hpp")
    typeid = generate.read("src/core/typeid.hpp")
    ms_bits = int(generate.grab(uuidv7, r"kUuidv7MaxUnixMs = \(std::int64_t\{1\} << (\d+)\) - 1;", "the UUIDv7 ms bits"))
    subms = int(generate.grab(uuidv7, r"kUuidv7SubmsBits = (\d+);", "the UUIDv7 sub-ms bits"))
    ulid_ms = int(generate.grab(ulid, r"kUlidMaxUnixMs = \(std::int64_t\{1\} << (\d+)\) - 1;", "the ULID ms bits"))
    ulid_random = int(generate.grab(ulid, r"kUlidRandomBits = (\d+);", "the ULID random bits"))
    b36_digits = int(generate.grab(base36, r"kBase36Digits128 = (\d+);", "the base36 digits of 128 bits"))
    b32_digits = int(generate.grab(generate.read("src/core/base32.hpp"), r"kBase32Digits128 = (\d+);", "the base32 digits"))
    if "kPrefixMaxLength + 1 + kBase32Digits128" not in typeid:
        sys.exit("vectors.py: the longest TypeID is no longer prefix + '_' + suffix")
    prefix_max = int(v["PREFIX_MAX"])
    ksuid = generate.read("src/core/ksuid.hpp")
    xid = generate.read("src/core/xid.hpp")
    formats = {
        "ksuid_epoch": int(generate.grab(ksuid, r"kKsuidEpochUnixSeconds = ([0-9']+);", "the KSUID epoch").replace("'", "")),
        "ksuid_alphabet": generate.grab(generate.read("src/core/words.hpp"), r'kBase62Alphabet\[\] =\s*"([^"]+)";',
                                        "the base62 alphabet, KSUID's"),
        "ksuid_max": generate.grab(ksuid, r'kKsuidMaxText\[\] = "([^"]+)";', "the largest KSUID"),
        "ksuid_digits": int(generate.grab(ksuid, r"kKsuidTextLength = (\d+);", "the KSUID text length")),
        "objectid_digits": int(generate.grab(generate.read("src/core/objectid.hpp"), r"kObjectIdTextLength = (\d+);",
                                             "the ObjectId text length")),
        "xid_alphabet": generate.grab(xid, r'kXidAlphabet = "([^"]+)";', "the XID alphabet"),
        "xid_digits": int(generate.grab(xid, r"kXidTextLength = (\d+);", "the XID text length")),
    }
    return v, {**formats, "ms_bits": ms_bits, "subms": subms, "ulid_ms": ulid_ms, "ulid_random": ulid_random,
               "b36_digits": b36_digits, "b32_digits": b32_digits, "prefix_max": prefix_max}


def field(name, bits, value=None):
    f = {"name": name, "bits": bits}
    if value is not None:
        f["value"] = value
    return f


def layouts(v, k):
    """Each family's layout: fields from the most significant bit."""
    sf = lambda shard, seq, pad: {  # noqa: E731
        "bits": 64, "id_bits": 64 - pad,
        "fields": [field("zero", pad, 0), field("ms", int(v["SF_TIME_BITS"])), field("shard", shard), field("seq", seq)],
        "time_unit": "ms", "epoch": v["SF_EPOCH"], "epoch_unix_ms": int(v["SF_EPOCH_MS"]),
        "epoch_note": "the default of the setting idgen.snowflake_epoch; decoders take the epoch as an argument",
        "max_shard": 2**shard - 1, "max_seq": 2**seq - 1}
    s63 = sf(int(v["SF_SHARD_BITS"]), int(v["SF_SEQ_BITS"]), 1)
    s63.update(min_id=v["SF_MIN_ID"], max_id=v["SF_MAX_ID"], min_ms=int(v["SF_MIN_MS"]),
               note="the first min_ms milliseconds are unused: IDs below 2^53 are snowflake53's, and each "
                    "split's decoders refuse the other's")
    s53 = sf(int(v["S53_SHARD_BITS"]), int(v["S53_SEQ_BITS"]), 64 - 53)
    s53.update(min_id="0", max_id=v["S53_MAX_ID"], min_ms=0)
    prefix_max = k["prefix_max"]
    prefix = {"max_length": prefix_max, "characters": "lowercase ASCII letters a-z and underscores",
              "pattern": "^[a-z]([a-z_]{0,%d}[a-z])?$" % (prefix_max - 2),
              "rule": "starts and ends with a letter; the text splits on its last underscore"}
    wire = [{"name": "length", "bytes": 1}, {"name": "prefix", "bytes": "length"}, {"name": "payload", "bytes": 16}]
    return {
        "uuid_v7": {"bits": 128, "fields": [field("unix_ts_ms", k["ms_bits"]), field("ver", 4, 7),
                                             field("rand_a", k["subms"]), field("var", 2, 2),
                                             field("rand_b", 128 - k["ms_bits"] - 4 - k["subms"] - 2)],
                    "time_unit": "ms", "epoch_unix_ms": 0,
                    "rand_a": "floor(ns_within_ms * 2^%d / 1e6) (RFC 9562 section 6.2, method 3)" % k["subms"],
                    "binary": "16 bytes, most significant first", "text": "PostgreSQL's uuid text"},
        "snowflake": s63,
        "snowflake53": s53,
        "ulid": {"bits": 128, "fields": [field("unix_ms", k["ulid_ms"]), field("random", k["ulid_random"])],
                 "time_unit": "ms", "epoch_unix_ms": 0, "binary": "16 bytes, most significant first",
                 "alphabet": v["CROCKFORD_UPPER"], "digits": k["b32_digits"], "max_first_digit": "7",
                 "text": "input in either case, output uppercase; no Crockford aliases (I, L, O, U refused)"},
        "prefix": prefix,
        "prefixed_id": {"payload_bits": 128, "alphabet": "0123456789abcdefghijklmnopqrstuvwxyz",
                        "digits": k["b36_digits"], "max_body": v["BASE36_MAX128"],
                        "text": "prefix, '_', the digits zero-padded; input in either case, output lowercase",
                        "max_length": prefix_max + 1 + k["b36_digits"], "binary": wire,
                        "binary_length": "1 to %d" % prefix_max},
        "ksuid": {"bits": 160, "fields": [field("timestamp", 32), field("payload", 128)],
                  "time_unit": "s", "epoch_unix_s": k["ksuid_epoch"], "binary": "20 bytes, most significant first",
                  "alphabet": k["ksuid_alphabet"], "digits": k["ksuid_digits"], "max_text": k["ksuid_max"],
                  "text": "base62, left-padded with 0; case matters; nothing outside the alphabet (segmentio's "
                          "parser reads any byte)", "sql_type": "ksuid"},
        "objectid": {"bits": 96, "fields": [field("unix_s", 32), field("process", 40), field("counter", 24)],
                     "time_unit": "s", "epoch_unix_s": 0, "binary": "12 bytes, most significant first",
                     "alphabet": "0123456789abcdef", "digits": k["objectid_digits"],
                     "text": "hex, input in either case, output lowercase", "sql_type": "objectid"},
        "xid": {"bits": 96, "fields": [field("unix_s", 32), field("machine", 24), field("pid", 16),
                                        field("counter", 24)],
                "time_unit": "s", "epoch_unix_s": 0, "binary": "12 bytes, most significant first",
                "alphabet": k["xid_alphabet"], "digits": k["xid_digits"], "last_digits": "0g",
                "text": "base32hex of the 96 bits and 4 zero bits, lowercase only; the last character is 0 or g",
                "sql_type": "rsxid"},
        "typeid": {"payload_bits": 128, "alphabet": v["CROCKFORD_LOWER"], "digits": k["b32_digits"],
                   "max_first_digit": "7",
                   "text": "prefix, '_', the suffix; the empty prefix has no '_'; lowercase only",
                   "max_length": prefix_max + 1 + k["b32_digits"], "binary": wire,
                   "binary_length": "0 to %d" % prefix_max},
    }


def build_probe(tmp):
    """test/unit/vectors_probe.cpp and src/core/*.cpp, compiled into tmp."""
    cxx = os.environ.get("CXX") or "c++"
    probe = os.path.join(tmp, "vectors_probe")
    sources = [os.path.join(ROOT, "test", "unit", "vectors_probe.cpp")] + sorted(glob.glob(os.path.join(ROOT, "src", "core", "*.cpp")))
    cmd = [cxx, "-std=c++17", "-O1", "-Wall", "-Wextra", "-I" + os.path.join(ROOT, "src"), "-o", probe] + sources
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("vectors.py: building the probe failed:\n" + r.stderr)
    return probe


def ask(probe, queries):
    """The probe's answers to [(op, [input strings])], in order."""
    lines = ["\t".join([op] + [s.encode("utf-8", "surrogatepass").hex() for s in inputs]) for op, inputs in queries]
    r = subprocess.run([probe], input="".join(line + "\n" for line in lines), capture_output=True, text=True)
    out = r.stdout.splitlines()
    if r.returncode != 0 or len(out) != len(lines):
        sys.exit("vectors.py: the probe failed (status %d, %d answers for %d cases)\n%s"
                 % (r.returncode, len(out), len(lines), r.stderr))
    answers = [json.loads(line) for line in out]
    for (op, inputs), a in zip(queries, answers):
        if "error" in a:
            sys.exit("vectors.py: %s %r: %s" % (op, inputs, a["error"]))
    return answers


# Each operation's inputs in the order the probe takes them.
INPUTS = {"uuid_v7.bits": ["bits"], "uuid_v7.boundary": ["unix_ms"], "uuid_v7.make": ["unix_ms", "ns", "random"],
          "snowflake.id": ["id"], "snowflake.make": ["ms", "shard", "seq"],
          "snowflake53.id": ["id"], "snowflake53.make": ["ms", "shard", "seq"],
          "ulid.text": ["text"], "ulid.bits": ["bits"], "prefix.check": ["prefix"],
          "prefixed_id.text": ["text"], "prefixed_id.binary": ["binary"],
          "typeid.text": ["text"], "typeid.binary": ["binary"],
          "ksuid.text": ["text"], "ksuid.bits": ["bits"], "objectid.text": ["text"], "objectid.bits": ["bits"],
          "xid.text": ["text"], "xid.bits": ["bits"],
          "snowflake_layout.predefined": ["name", "instagram_epoch_ms"],
          "snowflake_layout.define": ["epoch_unix_ms", "time_unit_ms", "fields"],
          "snowflake_layout.id": ["layout", "id"], "snowflake_layout.compose": ["layout", "unix_ms", "fields"],
          "snowflake_layout.boundary": ["layout", "unix_ms"]}


def cross_check(probe):
    """The cores against third-party vectors in ../shared/data, where they are."""
    notes = []
    spec = os.path.join(SHARED_DATA, "typeid-spec")
    if os.path.isfile(os.path.join(spec, "valid.json")):
        with open(os.path.join(spec, "valid.json"), encoding="utf-8") as f:
            valid = json.load(f)
        with open(os.path.join(spec, "invalid.json"), encoding="utf-8") as f:
            invalid = json.load(f)
        answers = ask(probe, [("typeid.text", [c["typeid"]]) for c in valid + invalid])
        for c, a in zip(valid, answers):
            if not a["ok"] or a["prefix"] != c["prefix"] or a["bits"] != c["uuid"].replace("-", "") or a["canonical"] != c["typeid"]:
                sys.exit("vectors.py: the TypeID spec's valid case %s: the core answers %s" % (c["name"], a))
        for c, a in zip(invalid, answers[len(valid):]):
            if a["ok"]:
                sys.exit("vectors.py: the TypeID spec's invalid case %s: the core accepts it" % c["name"])
    else:
        notes.append("no TypeID spec vectors at %s: not cross-checked" % spec)
    rfc = os.path.join(SHARED_DATA, "rfc9562", "examples.json")
    if os.path.isfile(rfc):
        with open(rfc, encoding="utf-8") as f:
            examples = json.load(f)
        answers = ask(probe, [("uuid_v7.bits", [e["uuid"].replace("-", "")]) for e in examples])
        for e, a in zip(examples, answers):
            want = e["timestamp"]["unix_ts_ms"] if e["version"] == 7 else None
            if a["unix_ms"] != want:
                sys.exit("vectors.py: RFC 9562 %s: the core reads %s, the RFC %s" % (e["name"], a["unix_ms"], want))
    else:
        notes.append("no RFC 9562 examples at %s: not cross-checked" % rfc)
    for family, path, text_key in [("ksuid", "ksuid/valid.json", "text"), ("xid", "xid/valid.json", "text"),
                                   ("objectid", "objectid/spec_valid.json", "hex")]:
        full = os.path.join(SHARED_DATA, path)
        if not os.path.isfile(full):
            notes.append("no %s vectors at %s: not cross-checked" % (family, full))
            continue
        with open(full, encoding="utf-8") as f:
            valid = json.load(f)
        for c, a in zip(valid, ask(probe, [(family + ".text", [c[text_key]]) for c in valid])):
            raw = c.get("raw_hex", c[text_key]).lower()
            canonical = c[text_key] if family == "ksuid" else c[text_key].lower()  # base62 keeps its case
            if not a["ok"] or a["bits"] != raw or a["canonical"] != canonical:
                sys.exit("vectors.py: %s %s: the core answers %s" % (path, c["name"], a))
    for family, path in [("ksuid", "ksuid/invalid.json"), ("xid", "xid/invalid.json")]:
        full = os.path.join(SHARED_DATA, path)
        if os.path.isfile(full):
            with open(full, encoding="utf-8") as f:
                invalid = json.load(f)
            for c, a in zip(invalid, ask(probe, [(family + ".text", [c["text"]]) for c in invalid])):
                if a["ok"]:
                    sys.exit("vectors.py: %s %s: the core accepts it" % (path, c["name"]))
    return notes


def cross_check_layouts(probe, case_layouts):
    """The predefined layouts' decoding against ../shared/data/snowflake-layouts'
    decomposed examples (Discord's, pgEdge's by its code's layout, Twitter's,
    Sonyflake's with the default start), where they are."""
    path = os.path.join(SHARED_DATA, "snowflake-layouts", "examples.json")
    if not os.path.isfile(path):
        return ["no snowflake layout examples at %s: not cross-checked" % path]
    with open(path, encoding="utf-8") as f:
        examples = json.load(f)
    # their scheme and field names for ours, in the layout's order
    schemes = {"discord": ("discord", ["timestamp", "internal_worker_id", "internal_process_id", "increment"]),
               "pgedge-snowflake": ("pgedge", ["msec", "node", "count"]),
               "twitter-snowflake-2010": ("twitter", ["timestamp", "datacenter_id", "worker_id", "sequence"]),
               "sonyflake-v1": ("sonyflake", ["elapsed_time", "sequence", "machine_id"])}
    chosen = [e for e in examples if e["scheme"] in schemes and "settings" not in e]
    answers = ask(probe, [("snowflake_layout.id", [layout_spec(case_layouts[schemes[e["scheme"]][0]]), e["id"]])
                          for e in chosen])
    for e, a in zip(chosen, answers):
        name, theirs = schemes[e["scheme"]]
        ours = [n for n, _ in case_layouts[name]["fields"]]
        got = [a.get(n) for n in ours] + [a.get("unix_ms")]
        want = [e["fields"][n] for n in theirs] + [e["unix_ms"]]
        if not a["ok"] or got != want:
            sys.exit("vectors.py: %s %s in %s: the core reads %s, %s %s" % (e["scheme"], e["id"], name, got, path, want))
    return []


def generate_vectors():
    v, k = constants()
    tmp = tempfile.mkdtemp(prefix="idgen-vectors-")
    try:
        probe = build_probe(tmp)
        notes = cross_check(probe)
        sf_epoch_ms = int(v["SF_EPOCH_MS"])
        case_layouts = snowflake_layouts(probe, sf_epoch_ms)
        notes += cross_check_layouts(probe, case_layouts)
        listed = cases(sf_epoch_ms, case_layouts)
        queries = [(op, [layout_spec(case_layouts[inputs[name]]) if name == "layout" else str(inputs[name])
                         for name in INPUTS[op]]) for op, group in listed.items() for _, inputs in group]
        answers = iter(ask(probe, queries))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    families = layouts(v, k)
    families["snowflake_layout"] = {
        "layouts": {name: {**layout, "fields": [{"name": n, "kind": n if n in ("time", "sequence") else "node",
                                                 "bits": b} for n, b in layout["fields"]]}
                    for name, layout in case_layouts.items()},
        "about": "64-bit IDs in a layout: an epoch (Unix ms), a time unit (ms) and fields from the most "
                 "significant bit, a field named time (the count of units since the epoch), one named "
                 "sequence and node fields; the predefined layouts are the core's (src/core/snowflake_layout.*), "
                 "the others the cases' own; an ID is read while it is a non-negative bigint below 2^total_bits; "
                 "end_unix_ms is the first instant the time field cannot hold (epoch + unit * 2^usable time bits, "
                 "one less than its width in a 64-bit layout)",
        "epoch_note": "instagram's epoch is the setting idgen.snowflake_epoch; epoch_unix_ms is its default",
        "inputs": "fields of define and compose are name:number pairs joined by commas; compose leaves "
                  "missing fields 0; an id answer names each field, then unix_ms = epoch + time * unit"}
    for name in families:
        families[name]["case_inputs"] = {}
        families[name]["cases"] = {}
    for op, group in listed.items():
        family, form = op.split(".")
        families[family]["case_inputs"][form] = INPUTS[op]
        out = families[family]["cases"].setdefault(form, [])
        for what, inputs in group:
            case = {"what": what, **inputs}
            if any(ord(ch) > 127 for value in inputs.values() if isinstance(value, str) for ch in value):
                case["not_ascii"] = True
            case.update(next(answers))
            out.append(case)
    server = []
    for family, text, what in SERVER_TEXT:
        if all(ord(ch) < 128 for ch in text):
            sys.exit("vectors.py: SERVER_TEXT holds only non-ASCII look-alikes: %r" % text)
        server.append({"family": family, "what": what, "text": text, "not_ascii": True, "ok": False,
                       "reason": "not_ascii"})
    doc = {
        "about": "Written by sql/edition/vectors.py from src/core (make vectors); do not edit. Layouts, "
                 "alphabets and the prefix rule are read from the cores' headers; every case's answer is "
                 "the cores' own (test/unit/vector_answers.hpp). Bits and binary forms are hex, most "
                 "significant byte first; 64-bit IDs are decimal strings; position is the byte offset of "
                 "the offending character in the part that cause names (the prefix, the body or suffix), "
                 "or in the text where there is no cause. A family's case_inputs name each form's "
                 "inputs; a case's other fields (but what and not_ascii) are the answer.",
        "families": families,
        "server_text": {"about": "text that PostgreSQL's uuid_in and int8in read (the cores take 16 bytes "
                                 "and the int64): these look-alikes are refused there, as any character "
                                 "that is not an ASCII digit or letter is",
                        "cases": server},
    }
    return json.dumps(doc, indent=1, ensure_ascii=True) + "\n", notes


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in ("write", "check"):
        sys.exit("usage: vectors.py write [OUTPUT] | vectors.py check [FILE]")
    path = sys.argv[2] if len(sys.argv) == 3 else DEFAULT_OUTPUT
    text, notes = generate_vectors()
    for note in notes:
        print("vectors.py: " + note, file=sys.stderr)
    if sys.argv[1] == "write":
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
        return
    try:
        with open(path, encoding="utf-8") as f:
            committed = f.read()
    except OSError as e:
        sys.exit("vectors.py: %s" % e)
    if committed != text:
        import difflib
        diff = difflib.unified_diff(committed.splitlines(), text.splitlines(), path, "fresh generation", lineterm="", n=1)
        print("\n".join(list(diff)[:40]))
        sys.exit("vectors.py: %s differs from what the cores answer now (make vectors writes it)" % path)


if __name__ == "__main__":
    main()
