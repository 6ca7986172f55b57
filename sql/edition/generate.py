#!/usr/bin/python3
"""Builds the SQL edition's one install script (issue 25) from sql/edition/*.sql.

Usage: generate.py VERSION OUTPUT [PG_TLE_DIRECTORY]. The family files are
concatenated in the order of FAMILIES into OUTPUT (the psql install), and, with
PG_TLE_DIRECTORY, in the pieces of PG_TLE_PIECES into that directory (the
pg_tle install: a base version and its updates, named as pg_tle names them); each {{NAME}} in them is replaced by a constant read from
the C++ edition's sources (src/core/*.hpp, src/pg/module.cpp), so that the two
editions cannot disagree on bit layouts, alphabets, the epoch or prefix rules,
or by an expression unrolled here (the digit-by-digit encoders and decoders).
A block between {{#SNOWFLAKE_FAMILIES}} and {{/SNOWFLAKE_FAMILIES}} is written
once per snowflake family, its {{FAMILY...}} placeholders naming that family.
A placeholder left unreplaced, or a constant that cannot be found, stops the
build. Standard library only.
"""
import datetime
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
FAMILIES = ["header", "uuid_v7", "uuid_v6", "snowflake", "ulid", "ksuid", "prefixed", "typeid", "objectid", "xid", "snowflake_layout",
            "short_text", "nanoid", "timeflake", "push_id", "cuid2", "sqids", "types"]
# The pg_tle install (docs/managed-postgresql.md) passes each piece as one
# argument of psql (-v content=...), which holds at most 128 KiB: the script
# in pieces, each a run of FAMILIES (in their order), the first installed by
# pgtle.install_extension() as version VERSION-part1, each next one by
# pgtle.install_update_path() as the update to the next version, the last
# one's being VERSION. Joined by newlines they are the one script of the
# psql route. test/tap/sql_edition.pl checks each piece's size: cut where
# each has room to grow (93, 82 and 77 kB in 0.8.0); a piece that outgrows the
# limit is cut in two here.
PG_TLE_PIECES = [FAMILIES[:FAMILIES.index("ksuid")], FAMILIES[FAMILIES.index("ksuid"):FAMILIES.index("short_text")],
                 FAMILIES[FAMILIES.index("short_text"):]]
# The schema that the mints name until idgen_sql_snowflake_bind() writes the
# install's in: no role may create a schema named pg_*, so it never resolves
# (test/lib/sql_qualified.py takes it as the edition's own).
UNBOUND_SCHEMA = "pg_idgen_sql_unbound"


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def grab(text, pattern, what):
    m = re.search(pattern, text)
    if not m:
        sys.exit(f"generate.py: cannot find {what} (pattern {pattern!r})")
    return m.group(1)


def constants(version):
    base32 = read("src/core/base32.hpp")
    snowflake = read("src/core/snowflake.hpp")
    prefixed = read("src/core/prefixed.hpp")
    uuidv7 = read("src/core/uuidv7.hpp")
    ulid = read("src/core/ulid.hpp")
    ksuid = read("src/core/ksuid.hpp")
    uuidv6 = read("src/core/uuidv6.hpp")
    id96 = read("src/core/second_counter.hpp")
    objectid = read("src/core/objectid.hpp")
    xid = read("src/core/xid.hpp")
    module = read("src/pg/module.cpp")
    upper = grab(base32, r'kBase32Alphabet\[\] = "([0-9A-Z]{32})"', "the Crockford alphabet")
    lower = grab(base32, r'kBase32LowerAlphabet\[\] = "([0-9a-z]{32})"', "the lowercase Crockford alphabet")
    if upper.lower() != lower:
        sys.exit("generate.py: the two Crockford alphabets disagree")
    sf_seq, sf_shard = map(int, grab(snowflake, r"kSnowflake63\{(\d+, \d+)\}", "the snowflake layout").split(", "))
    s53_seq, s53_shard = map(int, grab(snowflake, r"kSnowflake53\{(\d+, \d+)\}", "the snowflake53 layout").split(", "))
    time_bits = int(grab(snowflake, r"kSnowflakeTimeBits = (\d+);", "the snowflake time bits"))
    small_bits = int(grab(snowflake, r"kSnowflakeSmallIdBits = (\d+);", "the bits of the small split's IDs"))
    if 1 + time_bits + sf_shard + sf_seq != 64 or time_bits + s53_shard + s53_seq != 53:
        sys.exit("generate.py: the snowflake layouts do not add up to 63 and 53 bits")
    epoch = grab(module, r'&snowflake_epoch_text, "(\d{4}-\d{2}-\d{2})"', "the default idgen.snowflake_epoch")
    epoch_ms = int(datetime.datetime.strptime(epoch, "%Y-%m-%d").replace(
        tzinfo=datetime.timezone.utc).timestamp()) * 1000
    max_regression = int(grab(module, r"int max_clock_regression_ms = ([\d']+);",
                              "the default idgen.max_clock_regression").replace("'", ""))
    prefix_max = int(grab(prefixed, r"kPrefixMaxLength = (\d+);", "the longest prefix"))
    subms = int(grab(uuidv7, r"kUuidv7SubmsBits = (\d+);", "the UUIDv7 sub-millisecond bits"))
    ulid_random = int(grab(ulid, r"kUlidRandomBits = (\d+);", "the ULID random bits"))
    if subms != 12 or ulid_random != 80:
        sys.exit("generate.py: the UUIDv7 or ULID layout changed; the SQL edition must follow by hand")
    # KSUID's digits are base62's (src/core/words.hpp, the one text of the alphabet).
    if "kKsuidAlphabet)[sizeof kBase62Alphabet] = kBase62Alphabet;" not in ksuid:
        sys.exit("generate.py: the KSUID alphabet is no longer base62's; the SQL edition must follow by hand")
    ksuid_alphabet = grab(read("src/core/words.hpp"), r'kBase62Alphabet\[\] =\s*"([0-9A-Za-z]{62})"',
                          "the base62 alphabet")
    ksuid_max_text = grab(ksuid, r'kKsuidMaxText\[\] = "([0-9A-Za-z]+)"', "the largest KSUID text")
    ksuid_epoch = int(grab(ksuid, r"kKsuidEpochUnixSeconds = ([\d']+);", "the KSUID epoch").replace("'", ""))
    ksuid_bytes = int(grab(ksuid, r"kKsuidBytes = (\d+);", "the KSUID bytes"))
    ksuid_text_length = int(grab(ksuid, r"kKsuidTextLength = (\d+);", "the KSUID text length"))
    ksuid_max_ts = int(grab(ksuid, r"kKsuidMaxTimestamp = (0x[0-9A-Fa-f]+);", "the largest KSUID timestamp"), 16)
    if (ksuid_bytes, ksuid_max_ts, len(ksuid_max_text)) != (20, 2**32 - 1, ksuid_text_length) or base62(2**160 - 1, ksuid_alphabet) != ksuid_max_text:
        sys.exit("generate.py: the KSUID layout changed; the SQL edition must follow by hand")
    v6_epoch_tick = int(grab(uuidv6, r"kUuidv6UnixEpochTick = ([\d']+);", "the UUIDv6 tick of the Unix epoch").replace("'", ""))
    v6_max_tick = 2**60 - 1
    if "kUuidv6MaxTick = (Uuidv6Tick{1} << 60) - 1;" not in uuidv6 or v6_epoch_tick % 10:
        sys.exit("generate.py: the UUIDv6 layout changed; the SQL edition must follow by hand")
    v6_min_us, v6_max_us = -v6_epoch_tick // 10, (v6_max_tick - v6_epoch_tick) // 10
    id96_bytes = int(grab(id96, r"kId96Bytes = (\d+);", "the bytes of an ObjectId and an XID"))
    id96_counter_bits = int(grab(id96, r"kId96CounterBits = (\d+);", "the bits of their counter"))
    id96_max_s = int(grab(id96, r"kId96MaxUnixSeconds = (0x[0-9A-Fa-f]+);", "their largest second"), 16)
    objectid_text = int(grab(objectid, r"kObjectIdTextLength = (\d+);", "the ObjectId text length"))
    objectid_process_offset = int(grab(objectid, r"kObjectIdProcessOffset = (\d+);", "the ObjectId process offset"))
    objectid_process_bytes = int(grab(objectid, r"kObjectIdProcessBytes = (\d+);", "the ObjectId process bytes"))
    xid_text = int(grab(xid, r"kXidTextLength = (\d+);", "the XID text length"))
    xid_alphabet = grab(xid, r'kXidAlphabet = "([0-9a-v]{32})";', "the XID alphabet")
    xid_machine_offset = int(grab(xid, r"kXidMachineOffset = (\d+);", "the XID machine offset"))
    xid_machine_bytes = int(grab(xid, r"kXidMachineBytes = (\d+);", "the XID machine bytes"))
    xid_pid_offset = int(grab(xid, r"kXidPidOffset = (\d+);", "the XID pid offset"))
    xid_process_bytes = int(grab(xid, r"kXidProcessBytes = (\d+);", "the XID process bytes"))
    # the SQL below cuts the 12 bytes as 4 | 5 | 3 (state, text) and XID text as 8 + 8 + 4 digits
    if ((id96_bytes, id96_counter_bits, id96_max_s, objectid_text, objectid_process_offset, objectid_process_bytes)
            != (12, 24, 2**32 - 1, 24, 4, 5)
            or (xid_text, xid_machine_offset, xid_machine_bytes, xid_pid_offset, xid_process_bytes) != (20, 4, 3, 7, 5)
            or xid_text * 5 != id96_bytes * 8 + 4):
        sys.exit("generate.py: the ObjectId or XID layout changed; the SQL edition must follow by hand")
    short = short_text_forms(read("src/core/short_text.hpp"), ksuid_alphabet, upper)
    nanoid = read("src/core/nanoid.hpp")
    nanoid_values = {f"NANOID_{name}": grab(nanoid, rf"kNanoid{const} = (\d+);", f"the NanoID {const}")
                     for name, const in (("DEFAULT_SIZE", "DefaultSize"), ("MIN_SIZE", "MinSize"), ("MAX_SIZE", "MaxSize"),
                                         ("MIN_ALPHABET", "MinAlphabet"), ("MAX_ALPHABET", "MaxAlphabet"))}
    nanoid_values["NANOID_DEFAULT_ALPHABET"] = grab(nanoid, r'kNanoidDefaultAlphabet\[\] =\s*"([0-9A-Za-z_-]{64})"',
                                                    "the default NanoID alphabet")
    sqids = read("src/core/sqids.hpp")
    words = re.findall(r'"([^"]*)"', grab(read("src/core/sqids_blocklist.hpp"),
                                          r"kSqidsDefaultBlocklist\[kSqidsDefaultBlocklistSize\] = \{([^}]*)\}",
                                          "the Sqids default blocklist"))
    if len(words) != int(grab(read("src/core/sqids_blocklist.hpp"), r"kSqidsDefaultBlocklistSize = (\d+);", "its size")) \
            or any(not re.fullmatch(r"[0-9a-z]+", w) for w in words):
        sys.exit("generate.py: the Sqids blocklist is no longer lowercase words of letters and digits; the SQL edition must follow by hand")
    sqids_values = {
        "SQIDS_DEFAULT_ALPHABET": grab(sqids, r'kSqidsDefaultAlphabet\[\] = "([0-9A-Za-z]+)"', "the default Sqids alphabet"),
        "SQIDS_MIN_ALPHABET": grab(sqids, r"kSqidsMinAlphabet = (\d+);", "the shortest Sqids alphabet"),
        "SQIDS_MAX_MIN_LENGTH": grab(sqids, r"kSqidsMaxMinLength = (\d+);", "the largest Sqids minimum length"),
        "SQIDS_MIN_WORD_LENGTH": grab(sqids, r"kSqidsMinWordLength = (\d+);", "the shortest blocklist word"),
        "SQIDS_MAX_VALUE": str(int(grab(sqids, r"kSqidsMaxValue = (0x[0-9A-Fa-f]+)ull;", "the largest Sqids number"), 16)),
        "SQIDS_DEFAULT_BLOCKLIST": "{" + ",".join(words) + "}",
        "SQIDS_SHUFFLE": sqids_shuffle,
        "SQIDS_SHUFFLE_VARIABLES": "sh_c pg_catalog.text[]; sh_n integer; sh_i integer; sh_j integer; sh_r integer; sh_t pg_catalog.text;",
        "ASCII_UPPER": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "ASCII_LOWER": "abcdefghijklmnopqrstuvwxyz",
    }
    cuid2 = read("src/core/cuid2.hpp")
    cuid2_values = {f"CUID2_{name}": grab(cuid2, rf"kCuid2{const} = (\d+);", f"the CUID2 {const}")
                    for name, const in (("DEFAULT_LENGTH", "DefaultLength"), ("MIN_LENGTH", "MinLength"),
                                        ("MAX_LENGTH", "MaxLength"), ("FINGERPRINT_LENGTH", "FingerprintLength"),
                                        ("FINGERPRINT_ENTROPY", "FingerprintEntropy"),
                                        ("INITIAL_COUNT_MAX", "InitialCountMax"))}
    cuid2_values["CUID2_MAX_LENGTH_LESS_ONE"] = str(int(cuid2_values["CUID2_MAX_LENGTH"]) - 1)
    push = read("src/core/push_id.hpp")
    push_alphabet = grab(push, r'kPushIdAlphabet\[\] = "([-0-9A-Z_a-z]{64})"', "the push ID alphabet")
    push_length = int(grab(push, r"kPushIdLength = (\d+);", "the push ID length"))
    push_time_chars = int(grab(push, r"kPushIdTimeChars = (\d+);", "the push ID time characters"))
    if (sorted(push_alphabet) != list(push_alphabet) or "kPushIdBitsPerChar = 6;" not in push
            or crockford_class(push_alphabet)[0] != "-"):
        sys.exit("generate.py: the push ID alphabet is no longer 64 characters in ASCII order; the SQL edition must follow by hand")
    push_values = {
        "PUSH_ID_ALPHABET": push_alphabet,
        # '-' first in a bracket expression is itself
        "PUSH_ID_CLASS": crockford_class(push_alphabet),
        "PUSH_ID_REGEX": f"^[{crockford_class(push_alphabet)}]{{{push_length}}}$",
        "PUSH_ID_LENGTH": str(push_length),
        "PUSH_ID_TIME_CHARS": str(push_time_chars),
        "PUSH_ID_TIME_CHARS_LESS_ONE": str(push_time_chars - 1),
        "PUSH_ID_MAX_MS": str(2**(6 * push_time_chars) - 1),
        "PUSH_ID_LARGEST": push_alphabet[-1] * push_length,
    }
    layout_values = snowflake_layouts(read("src/core/snowflake_layout.hpp"), read("src/core/snowflake_layout.cpp"),
                                      epoch_ms, time_bits, sf_shard, sf_seq)
    digits36 = "0123456789abcdefghijklmnopqrstuvwxyz"
    max36 = ""
    n = 2**128 - 1
    while n:
        max36 = digits36[n % 36] + max36
        n //= 36
    return {
        "VERSION": version,
        **short,
        **layout_values,
        **nanoid_values,
        **push_values,
        **cuid2_values,
        **sqids_values,
        **keccak(read("src/core/sha3.cpp")),
        "ID96_BYTES": str(id96_bytes),
        "ID96_MAX_SECONDS": str(id96_max_s),
        "ID96_COUNTER_MASK": str(2**id96_counter_bits - 1),
        "ID96_FIRST": utc_text(0),
        "ID96_LAST": utc_text(id96_max_s * 10**6),
        "OBJECTID_TEXT_LENGTH": str(objectid_text),
        "OBJECTID_PROCESS_OFFSET": str(objectid_process_offset),
        "OBJECTID_PROCESS_BYTES": str(objectid_process_bytes),
        "XID_TEXT_LENGTH": str(xid_text),
        "XID_TEXT_LENGTH_LESS_ONE": str(xid_text - 1),
        "XID_ALPHABET": xid_alphabet,
        "XID_CLASS": crockford_class(xid_alphabet),
        # the digits whose low 4 bits are zero, which end an XID's text
        "XID_LAST_0": xid_alphabet[0],
        "XID_LAST_1": xid_alphabet[16],
        "XID_MACHINE_OFFSET": str(xid_machine_offset),
        "XID_MACHINE_BYTES": str(xid_machine_bytes),
        "XID_PID_OFFSET": str(xid_pid_offset),
        "XID_ENCODE": xid_encode(),
        "BAD_CHARACTER_DETAIL": bad_character_detail,
        "XID_DECODE_HI": xid_decode(1, 8),
        "XID_DECODE_MID": xid_decode(9, 8),
        "XID_DECODE_LO": xid_decode(17, 4),
        "KSUID_ALPHABET": ksuid_alphabet,
        "KSUID_CLASS": crockford_class(ksuid_alphabet),
        "KSUID_MAX_TEXT": ksuid_max_text,
        "KSUID_EPOCH": str(ksuid_epoch),
        "KSUID_BYTES": str(ksuid_bytes),
        "KSUID_TEXT_LENGTH": str(ksuid_text_length),
        "KSUID_FIRST": utc_text(ksuid_epoch * 10**6),
        "KSUID_LAST": utc_text((ksuid_epoch + ksuid_max_ts) * 10**6),
        "UUIDV6_EPOCH_TICK": str(v6_epoch_tick),
        "UUIDV6_EPOCH_US": str(v6_epoch_tick // 10),
        "UUIDV6_MIN_US": str(v6_min_us),
        "UUIDV6_MAX_US": str(v6_max_us),
        "UUIDV6_FIRST": utc_text(v6_min_us),
        "UUIDV6_LAST": utc_text(v6_max_us),
        # uuid_v6()'s next tick: max(the clock's, microseconds * 10, the last + 1)
        "UUID_V6_NEXT_TICK": f"""pg_catalog.set_config('idgen_sql.uuid_v6_tick',
                          GREATEST({unix_us("pg_catalog.clock_timestamp()")} {op('*')} 10 {op('+')} {v6_epoch_tick},
                                   ('0' {op('||')} pg_catalog.current_setting('idgen_sql.uuid_v6_tick', true))::bigint {op('+')} 1)::pg_catalog.text,
                          false)""",
        # a version 4 uuid's last 8 bytes with the multicast bit of the node set
        # (in SQL-standard bodies, bound when the script runs)
        "UUIDV6_RANDOM_LOW": "pg_catalog.int8send(('x' || pg_catalog.encode(pg_catalog.substr(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()), 9), 'hex'))"
                             f"::bit(64)::bigint | {1 << 40})",
        "CROCKFORD_UPPER": upper,
        "CROCKFORD_LOWER": lower,
        # regular expression classes of the alphabet, either case and lowercase
        "CROCKFORD_CLASS": crockford_class(upper) + crockford_class(lower),
        "CROCKFORD_CLASS_LOWER": crockford_class(lower),
        "SF_SEQ_BITS": str(sf_seq),
        "SF_SHARD_BITS": str(sf_shard),
        "SF_MAX_SHARD": str(2**sf_shard - 1),
        "SF_MAX_SEQ": str(2**sf_seq - 1),
        "SF_MAX_ID": str(2**(time_bits + sf_shard + sf_seq) - 1),
        # snowflake() leaves its first 2^(53 - 23) ms unused: its IDs start at 2^53
        "SF_MIN_MS": str(2**(small_bits - sf_shard - sf_seq)),
        "SF_MIN_ID": str(2**small_bits),
        "S53_SEQ_BITS": str(s53_seq),
        "S53_SHARD_BITS": str(s53_shard),
        "S53_MAX_SHARD": str(2**s53_shard - 1),
        "S53_MAX_SEQ": str(2**s53_seq - 1),
        "S53_MAX_ID": str(2**(time_bits + s53_shard + s53_seq) - 1),
        "SF_TIME_BITS": str(time_bits),
        "SF_MAX_MS": str(2**time_bits - 1),
        "SF_MAX_MS_PLUS_ONE": str(2**time_bits),
        # ms since the epoch (snowflake minting), floored exactly in float8
        "SF_NOW_MS": f"pg_catalog.floor(({unix_us('pg_catalog.clock_timestamp()')} OPERATOR(pg_catalog.-) {epoch_ms * 1000})"
                     "::double precision OPERATOR(pg_catalog./) 1000)::bigint",
        # a mint's attributes, as idgen_sql_snowflake_bind_mints() replaces it
        "SNOWFLAKE_MINT_ATTRIBUTES": "RETURNS bigint\n    LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY DEFINER",
        "SF_EPOCH": epoch,
        "SF_EPOCH_MS": str(epoch_ms),
        "MAX_CLOCK_REGRESSION_MS": str(max_regression),
        "PREFIX_MAX": str(prefix_max),
        "PREFIX_MAX_INNER": str(prefix_max - 2),
        # the longest prefixed_id (prefix, "_", 25 digits) and typeid (prefix, "_", 26 digits)
        "PREFIXED_ID_MAX_LENGTH": str(prefix_max + 26),
        "TYPEID_MAX_LENGTH": str(prefix_max + 27),
        "BASE36_MAX128": max36,
        "CROCKFORD_DECODE": crockford_decode(),
        "BASE36_ENCODE12": base36_encode12,
        # the 128 bits from bigint halves hi and lo (a uuid's)
        "BASE36_128_DECLARE_HI": base36_128_declare(f"(hi {op('>>')} 29) {op('&')} 34359738367", f"hi {op('&')} 536870911"),
        # from uuid_v7()'s tick (48 bits of ms, 12 of rand_a) and lo: the ms,
        # version 7 and rand_a without a statement to put them together
        "BASE36_128_DECLARE_TICK": base36_128_declare(f"(tick {op('>>')} 25) {op('&')} 34359738367",
                                                      f"(((tick {op('>>')} 12) {op('&')} 8191) {op('<<')} 16) {op('|')} 28672 {op('|')} (tick {op('&')} 4095)"),
        "BASE36_128_DIGITS": base36_128_digits(),
        "UUID_V7_NEXT_TICK": UUID_V7_NEXT_TICK,
        "UUID_V7_TICK_AND_LO": UUID_V7_TICK_AND_LO,
        "UUID_HALVES": uuid_halves,
        "PREFIX_DETAIL": prefix_detail,
        "UNIX_US": unix_us,
        "UNIX_MS_NOW": UNIX_MS_NOW,
        "UUID_V7_RANGE_RAISE": UUID_V7_RANGE_RAISE,
        "CROCKFORD_ENCODE_PAIRS": crockford_encode_pairs(),
        # the tables of digit pairs: literals once, in functions the callers inline
        "CROCKFORD_PAIRS_UPPER_LITERAL": pairs_literal(upper),
        "CROCKFORD_PAIRS_LOWER_LITERAL": pairs_literal(lower),
        "BASE36_PAIRS_LITERAL": pairs_literal(digits36),
        "CROCKFORD_PAIRS_UPPER": "idgen_sql_crockford_pairs_upper()",
        "CROCKFORD_PAIRS_LOWER": "idgen_sql_crockford_pairs_lower()",
        "BASE36_PAIRS": "idgen_sql_base36_pairs()",
        "BASE36_DECODE12": base36_decode12,
    }


def snowflake_layouts(header, source, instagram_epoch_ms, time_bits, shard_bits, seq_bits):
    """The predefined snowflake layouts of src/core/snowflake_layout.cpp, in its
    order (instagram's epoch the default idgen.snowflake_epoch, its widths
    snowflake()'s), and the limits of src/core/snowflake_layout.hpp: the CASE
    arms of idgen_sql_snowflake_layout_numbers() and _names(), the list the
    messages give and a comment table."""
    epochs = {name: int(value.replace("'", "")) for name, value in
              re.findall(r"constexpr std::int64_t (k\w+Epoch) = ([\d']+);", source)}
    table = grab(source, r"kPredefined\[kPredefinedLayoutCount\] = \{([\s\S]*?)\n\};", "the predefined layouts")
    layouts = []
    for name, epoch, unit, count, body in re.findall(r'\{"(\w+)",\s*\{(\w+), (\d+), (\d+),\s*\{(.*?)\}\}\}', table, re.S):
        fields = []
        for kind, args in re.findall(r"(time_field|seq_field|node_field)\(([^)]*)\)", body):
            args = [a.strip() for a in args.split(",")]
            width = {"kSnowflakeTimeBits": time_bits, "kSnowflake63.shard_bits": shard_bits,
                     "kSnowflake63.seq_bits": seq_bits}.get(args[-1])
            width = width if width is not None else int(args[-1])
            field_name = {"time_field": "time", "seq_field": "sequence"}.get(kind) or args[0].strip('"')
            fields.append((field_name, width))
        if len(fields) != int(count):
            sys.exit(f"generate.py: the predefined layout {name} has {len(fields)} fields, not {count}")
        epoch_ms = instagram_epoch_ms if name == "instagram" else epochs.get(epoch)
        if epoch_ms is None or (name == "instagram") != (epoch == "0"):
            sys.exit(f"generate.py: cannot read the epoch of the predefined layout {name}")
        if sum(w for _, w in fields) < 63:
            # the edition's decoders have no range check for a narrower layout
            sys.exit(f"generate.py: the predefined layout {name} is narrower than 63 bits; the SQL edition must follow by hand")
        # the end: epoch + unit * 2^(the time field's width, less the sign bit in a 64-bit layout)
        time_bits_usable = dict(fields)["time"] - (1 if sum(w for _, w in fields) == 64 else 0)
        layouts.append((name, epoch_ms, int(unit), epoch_ms + int(unit) * 2**time_bits_usable, fields))
    count = int(grab(header, r"kPredefinedLayoutCount = (\d+);", "the count of predefined layouts"))
    names = [layout[0] for layout in layouts]
    if len(layouts) != count or names[0] != "instagram" or names != list(dict.fromkeys(names)):
        sys.exit("generate.py: cannot read the predefined snowflake layouts")
    max_fields = int(grab(header, r"kLayoutMaxFields = (\d+);", "the most fields of a layout"))
    listed = ", ".join(names[:-1]) + " and " + names[-1]

    def instant(v):
        """The instant of a Unix millisecond variable, exactly (header.sql's
        idgen_sql_time_of_ms(), which PL/pgSQL cannot call), in PL/pgSQL."""
        return (f"(pg_catalog.to_timestamp(0) {op('+')} (({v} {op('/')} 1000) {op('*')} interval '1 second')"
                f" {op('+')} (({v} {op('%')} 1000) {op('*')} interval '1 millisecond'))")
    return {
        "SNOWFLAKE_LAYOUT_TABLE": "\n".join(
            f"--   {name:<10} epoch {epoch} ms, unit {unit} ms: " + ", ".join(f"{f}:{w}" for f, w in fields)
            for name, epoch, unit, _, fields in layouts),
        "SNOWFLAKE_LAYOUT_NUMBERS": " ".join(
            f"WHEN layout = '{name}' THEN '{{{epoch},{unit},{end},{','.join(str(w) for _, w in fields)}}}'::bigint[]"
            for name, epoch, unit, end, fields in layouts),
        "SNOWFLAKE_LAYOUT_NAMES": " ".join(
            f"WHEN layout = '{name}' THEN '{{{','.join(f for f, _ in fields)}}}'::text[]"
            for name, _, _, _, fields in layouts),
        "SNOWFLAKE_LAYOUT_LIST": listed,
        # what a layout name that is no predefined layout raises (42704), in PL/pgSQL
        "SNOWFLAKE_LAYOUT_UNKNOWN": f"""IF nums IS NULL THEN
        RAISE EXCEPTION 'snowflake layout "%" does not exist', layout
            USING ERRCODE = 'undefined_object',
                  HINT = 'The predefined layouts are {listed}; the SQL edition defines no others.';
    END IF;""",
        # "YYYY-MM-DD HH:MM:SS.mmm" (UTC) of a Unix millisecond variable, as the C++ edition writes
        # a layout's epoch and end in its messages, in PL/pgSQL
        "LAYOUT_MS_TEXT": lambda v: f"pg_catalog.to_char({instant(v)} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')",
        # the decomposition's "timestamp": the same instant as ISO 8601 UTC text
        "LAYOUT_MS_ISO": lambda v: f"pg_catalog.to_char({instant(v)} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')",
        "LAYOUT_MAX_FIELDS": str(max_fields),
        "LAYOUT_MAX_NODE_FIELDS": str(max_fields - 2),
        "LAYOUT_MAX_NAME": grab(header, r"kLayoutMaxName = (\d+);", "the longest layout or field name"),
        "LAYOUT_MAX_UNIT_MS": grab(header, r"kLayoutMaxUnitMs = ([\d']+);", "the longest layout unit").replace("'", ""),
        "LAYOUT_END_OF_TIME_MS": grab(header, r"kLayoutEndOfTimeMs = ([\d']+);", "the end of a layout's time").replace("'", ""),
    }


def short_text_forms(header, base62_alphabet, crockford):
    """The short text forms of src/core/short_text.hpp, in its order, as SQL
    array literals of their names, alphabets, lengths, bracket expressions
    matching a character outside each alphabet (base32 in either case) and
    largest texts, and the numbers of base64url and base32 in that order."""
    names = re.findall(r'"([a-z0-9]+)"', grab(header, r"kShortTextFormNames\[kShortTextFormCount\] = \{([^}]*)\}",
                                             "the short text forms"))
    alphabet = {"base62": base62_alphabet, "base32": crockford}
    for name, const in (("base58", "kBase58Alphabet"), ("flickr", "kFlickrAlphabet"), ("base57", "kBase57Alphabet"),
                        ("base64url", "kBase64UrlAlphabet")):
        alphabet[name] = grab(header, const + r'\[\] =\s*"([0-9A-Za-z_-]+)"', f"the {name} alphabet")
    length = int(grab(header, r"kShortTextLength = (\d+);", "the short text length"))
    if (names != ["base62", "base58", "flickr", "base57", "base64url", "base32"]
            or [len(alphabet[n]) for n in names] != [62, 58, 58, 57, 64, 32]
            or "kShortTextMaxLength = 26;" not in header or length != 22):
        sys.exit("generate.py: the short text forms changed; the SQL edition must follow by hand")
    lengths = [26 if n == "base32" else length for n in names]

    def text(n, k):
        a, v = alphabet[names[k]], (n << 4 if names[k] == "base64url" else n)
        return "".join(a[v // len(a) ** i % len(a)] for i in reversed(range(lengths[k])))

    def outside(a):
        both = a + a.lower() if a == crockford else a
        return "[^" + crockford_class(both.replace("-", "")) + ("-" if "-" in a else "") + "]"

    def array(items):
        return "'{" + ",".join(items) + "}'"
    return {
        "SHORT_FORM_NAMES": array(names),
        "SHORT_FORM_LIST": ", ".join(names[:-1]) + " and " + names[-1],
        "SHORT_ALPHABETS": array(alphabet[n] for n in names),
        "SHORT_LENGTHS": array(str(n) for n in lengths),
        "SHORT_CLASSES": array(outside(alphabet[n]) for n in names),
        "SHORT_LARGEST": array(text(2**128 - 1, k) for k in range(len(names))),
        "SHORT_BASE64URL": str(names.index("base64url") + 1),
        "SHORT_BASE32": str(names.index("base32") + 1),
    }


def bad_character_detail(what):
    """The C++ edition's detail for the first character outside an alphabet,
    in PL/pgSQL: text variable bad (that character) of variable input, a
    control character as its code, at its position in characters; text
    variable what names the alphabet ("hexadecimal digit")."""
    return (f"pg_catalog.format('%s at position %s is not a %s.', CASE WHEN pg_catalog.ascii(bad) {op('<')} 32 OR pg_catalog.ascii(bad) {op('=')} 127\n"
            f"    THEN 'Control character 0x' {op('||')} pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.ascii(bad)), 2, '0'))\n"
            f"    ELSE pg_catalog.format('Character \"%s\"', bad) END, pg_catalog.strpos(input, bad), {what})")


def xid_encode():
    """The 20 digits of bigint variables hi and mid (40 bits each) and lo (16
    bits and 4 zero bits), from alphabet a."""
    def digit(var, shift):
        return f"pg_catalog.substr(a, ((({var} {op('>>')} {shift}) {op('&')} 31)::integer {op('+')} 1), 1)"
    parts = [digit(v, 35 - 5 * k) for v in ("hi", "mid") for k in range(8)] + [digit("lo", 15 - 5 * k) for k in range(4)]
    return f"\n        {op('||')} ".join(parts)


def xid_decode(first, count):
    """The bigint of count digits of text variable t from position first, alphabet a."""
    return f"\n        {op('|')} ".join(
        f"(((pg_catalog.strpos(a, pg_catalog.substr(t, {first + k}, 1)) {op('-')} 1)::bigint) {op('<<')} {5 * (count - 1 - k)})"
        for k in range(count))


def keccak(sha3):
    """The PL/pgSQL of Keccak-f[1600] and SHA3-512's sponge, unrolled from the
    C++ edition's constants (src/core/sha3.cpp): lanes in bigint variables
    a0..a24 (b0..b24, c0..c4, d0..d4 the steps' temporaries), each lane
    little-endian as FIPS 202 reads bytes."""
    rcs = [int(v, 16) for v in re.findall(r"0x([0-9A-Fa-f]{16})ull", grab(
        sha3, r"kRoundConstants\[24\] = \{([^}]*)\}", "the Keccak round constants"))]
    rho = [int(v) for v in grab(sha3, r"kRhoOffsets\[25\] = \{([^}]*)\}", "the Keccak rho offsets").replace(",", " ").split()]
    rate = int(grab(read("src/core/sha3.hpp"), r"kSha3_512RateBytes = (\d+);", "the SHA3-512 rate"))
    digest = int(grab(read("src/core/sha3.hpp"), r"kSha3_512DigestBytes = (\d+);", "the SHA3-512 digest bytes"))
    if len(rcs) != 24 or len(rho) != 25 or rate % 8 or digest % 8 or "lane / 5 + 5 * ((2 * (lane % 5) + 3 * (lane / 5)) % 5)" not in sha3:
        sys.exit("generate.py: Keccak's constants or pi changed shape; the SQL edition must follow by hand")
    signed = [v - 2**64 if v >= 2**63 else v for v in rcs]
    x, o = op("#"), op("|")

    def rotl(var, n):
        if n == 0:
            return var
        return (f"(({var} {op('<<')} {n}) {o} (({var} {op('>>')} {64 - n}) {op('&')} {2**n - 1}))")

    steps = []
    for i in range(5):
        steps.append(f"c{i} := a{i} {x} a{i + 5} {x} a{i + 10} {x} a{i + 15} {x} a{i + 20};")
    for i in range(5):
        steps.append(f"d{i} := c{(i + 4) % 5} {x} {rotl(f'c{(i + 1) % 5}', 1)};")
    for lane in range(25):
        target = lane // 5 + 5 * ((2 * (lane % 5) + 3 * (lane // 5)) % 5)
        steps.append(f"t := a{lane} {x} d{lane % 5}; b{target} := {rotl('t', rho[lane])};")
    for y in range(0, 25, 5):
        for i in range(5):
            steps.append(f"a{y + i} := b{y + i} {x} (({op('~')} b{y + (i + 1) % 5}) {op('&')} b{y + (i + 2) % 5});")
    indent = "\n            "

    def lane_of(offset):
        return f" {o} ".join(f"(pg_catalog.get_byte(padded, at {op('+')} {offset + k})::bigint {op('<<')} {8 * k})"
                             for k in range(8))

    absorb = indent.join(f"a{lane} := a{lane} {x} ({lane_of(8 * lane)});" for lane in range(rate // 8))
    digest_hex = f"\n        {op('||')} ".join(
        f"pg_catalog.lpad(pg_catalog.to_hex((a{lane} {op('>>')} {8 * k}) {op('&')} 255), 2, '0')"
        for lane in range(digest // 8) for k in range(8))
    return {
        "SHA3_512_RATE": str(rate),
        "KECCAK_ROUND_CONSTANTS": "{" + ",".join(str(v) for v in signed) + "}",
        # one declaration a variable, as PL/pgSQL takes them
        "KECCAK_VARIABLES": " ".join([f"a{i} bigint := 0;" for i in range(25)] + [f"b{i} bigint;" for i in range(25)]
                                     + [f"c{i} bigint;" for i in range(5)] + [f"d{i} bigint;" for i in range(5)]
                                     + ["t bigint;"]),
        "KECCAK_ROUND": indent.join(steps),
        "SHA3_512_ABSORB": absorb,
        "SHA3_512_DIGEST_HEX": digest_hex,
    }


def sqids_shuffle(var):
    """PL/pgSQL statements that shuffle text variable var in place as the Sqids
    spec's shuffle does: for i from the start and j from the end, swap
    characters i and (i * j + code(i) + code(j)) mod length (0-based), with the
    variables of SQIDS_SHUFFLE_VARIABLES."""
    def at(k):
        return f"sh_c[{k} {op('+')} 1]"
    return (f"sh_c := pg_catalog.regexp_split_to_array({var}, ''); sh_n := pg_catalog.array_length(sh_c, 1); "
            f"sh_i := 0; sh_j := sh_n {op('-')} 1;\n"
            f"    WHILE sh_j {op('>')} 0 LOOP\n"
            f"        sh_r := ((sh_i {op('*')} sh_j) {op('+')} pg_catalog.ascii({at('sh_i')}) {op('+')} pg_catalog.ascii({at('sh_j')})) {op('%')} sh_n;\n"
            f"        sh_t := {at('sh_i')}; {at('sh_i')} := {at('sh_r')}; {at('sh_r')} := sh_t;\n"
            f"        sh_i := sh_i {op('+')} 1; sh_j := sh_j {op('-')} 1;\n"
            f"    END LOOP;\n"
            f"    {var} := pg_catalog.array_to_string(sh_c, '');")


def base62(n, alphabet):
    out = ""
    while n:
        out = alphabet[n % 62] + out
        n //= 62
    return out


def utc_text(unix_us):
    """An instant as the C++ edition's details write it: seconds, and the
    microseconds when there are any."""
    t = datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=unix_us)
    return t.strftime("%Y-%m-%d %H:%M:%S") + (f".{t.microsecond:06d}" if t.microsecond else "")


def idgen_types_function(version, edition_types):
    """idgen_types() and its COMMENT as the C++ edition's install script has
    them, less the VALUES rows of the types the SQL edition does not create
    (edition_types: the names its family files create as domains), which
    would stop its script."""
    script = read(f"sql/idgen--{version}.sql")
    m = re.search(r"^CREATE FUNCTION idgen_types\(.*?^END;\nCOMMENT ON FUNCTION idgen_types\(\) IS\n    '(?:[^']|'')*';\n",
                  script, re.M | re.S)
    if not m:
        sys.exit(f"generate.py: cannot find idgen_types() in sql/idgen--{version}.sql")
    rows = re.compile(r"\(('([a-z_]+)'::pg_catalog\.regtype::pg_catalog\.oid, '[a-z_]+'::pg_catalog\.text)\)")
    kept = [r.group(1) for r in rows.finditer(m.group(0)) if r.group(2) in edition_types]
    if not kept:
        sys.exit("generate.py: idgen_types() names no type the SQL edition creates")
    first, last = next(rows.finditer(m.group(0))), list(rows.finditer(m.group(0)))[-1]
    values = ",\n                     ".join(f"({row})" for row in kept)
    return (m.group(0)[:first.start()] + values + m.group(0)[last.end():]).rstrip("\n")


def op(name):
    """A pg_catalog operator, named so that no caller's search_path can supply
    it: PL/pgSQL bodies are parsed with the caller's search_path.
    OPERATOR() binds as any operator other than * / % + - and comparisons do,
    so the callers parenthesize."""
    return f"OPERATOR(pg_catalog.{name})"


def crockford_class(alphabet):
    """The alphabet as a bracket expression body, in runs (0-9A-HJKMNP-TV-Z)."""
    out, i = "", 0
    while i < len(alphabet):
        j = i
        while j + 1 < len(alphabet) and ord(alphabet[j + 1]) == ord(alphabet[j]) + 1:
            j += 1
        out += alphabet[i] if i == j else (alphabet[i] + alphabet[j] if j == i + 1 else alphabet[i] + "-" + alphabet[j])
        i = j + 1
    return out


# Microseconds since 1970 of a timestamptz, in bigint (issue 33: EXTRACT's
# numeric cost 0.1 us more a call): through float8 seconds counted from 2020,
# whose rounding (about 0.01 us now) the cast to bigint undoes; exact until
# about 2090 (2^51 us after 2020), a microsecond off at worst after that.
# idgen_sql_unix_us(ts) is this expression; the mints inline it.
def unix_us(ts):
    return (f"((pg_catalog.date_part('epoch', {ts} OPERATOR(pg_catalog.-) '2020-01-01 00:00:00+00'::pg_catalog.timestamptz)"
            " OPERATOR(pg_catalog.*) 1000000)::bigint OPERATOR(pg_catalog.+) 1577836800000000)")


# The clock's Unix milliseconds, floored exactly in float8 (ulid minting).
UNIX_MS_NOW = f"pg_catalog.floor({unix_us('pg_catalog.clock_timestamp()')}::double precision {op('/')} 1000)::bigint"


# uuid_v7()'s next tick (unix_ts_ms << 12 | rand_a), stored in the session's
# setting and returned as text: max(the clock's, the last + 1). Shared by
# uuid_v7() and the PL/pgSQL mints of prefixed_id_new() and typeid_new().
# The clock's tick is its microseconds * 4096 / 1000, floored: floor(ms * 4096
# + the sub-ms fraction * 4096). The last tick is read as '0' and the setting
# ('' when a transaction that first set it rolled back: 0, below any clock's
# tick; NULL before: ignored by GREATEST), as NULLIF(..., '') would, whose =
# no PL/pgSQL body may take from the caller's search_path.
UUID_V7_NEXT_TICK = f"""pg_catalog.set_config('idgen_sql.uuid_v7_tick',
                          GREATEST(({unix_us("pg_catalog.clock_timestamp()")} {op('*')} 512) {op('/')} 125,
                                   ('0' {op('||')} pg_catalog.current_setting('idgen_sql.uuid_v7_tick', true))::bigint {op('+')} 1)::pg_catalog.text,
                          false)"""

# Why a prefix (text variable p) is no prefix, for the DETAIL of the errors of
# a prefix argument (22023) and of prefixed_id and typeid text (22P02), which
# are the C++ edition's. (typeid text refuses an empty prefix before, with a
# detail of its own.)
def prefix_detail(p):
    return f"""CASE
                      WHEN {p} {op('=')} '' THEN 'The prefix is empty.'
                      WHEN pg_catalog.length({p}) {op('>')} {{{{PREFIX_MAX}}}} THEN
                          pg_catalog.format('The prefix has %s characters; at most {{{{PREFIX_MAX}}}} are allowed.', pg_catalog.length({p}))
                      WHEN {p} {op('~')} '^[a-z_]*$' THEN 'The prefix must start and end with a letter.'
                      ELSE pg_catalog.format('The prefix may only hold lowercase letters a-z and underscores; character %s is not one.',
                                             pg_catalog.strpos({p}, substring({p} FROM '[^a-z_]')))
                  END"""


# The bigint of the 8 bytes of a bytea expression, most significant first.
def bigint_of_bytes(expr):
    return f"('x' {op('||')} pg_catalog.encode({expr}, 'hex'))::bit(64)::bigint"


# The halves of uuid variable u as bigint variables hi and lo (PL/pgSQL
# declarations), cut from its bytes: substr() of its hex text counts
# characters (issue 33).
def uuid_halves(u):
    return (f"hi bigint := {bigint_of_bytes(f'pg_catalog.substr(pg_catalog.uuid_send({u}), 1, 8)')};\n"
            f"    lo bigint := {bigint_of_bytes(f'pg_catalog.substr(pg_catalog.uuid_send({u}), 9)')};")


# The PL/pgSQL mints of prefixed_id_new() and typeid_new(): uuid_v7()'s next
# tick, and as lo the low half of a version 4 uuid (62 random bits and the
# variant, as uuid_v7()'s rand_b).
UUID_V7_TICK_AND_LO = (f"tick bigint := {UUID_V7_NEXT_TICK}::bigint;\n"
                       f"    lo bigint := {bigint_of_bytes('pg_catalog.substr(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()), 9)')};")

# What a tick outside 60 bits raises (22008), in PL/pgSQL.
UUID_V7_RANGE_RAISE = f"""IF pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()) {op('*')} 1000) {op('<')} 0
           OR pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()) {op('*')} 1000) {op('>')} 281474976710655 THEN
            RAISE EXCEPTION 'system clock is outside the range of uuid_v7' USING ERRCODE = 'datetime_field_overflow';
        END IF;
        RAISE EXCEPTION 'uuid_v7 timestamps are exhausted' USING ERRCODE = 'datetime_field_overflow';"""


def pairs_literal(alphabet):
    """A bytea literal (escape format: the characters themselves) of every
    two-digit string of alphabet, in numeric order."""
    n = len(alphabet)
    text = "".join(alphabet[i // n] + alphabet[i % n] for i in range(n * n))
    if not re.fullmatch(r"[0-9A-Za-z]+", text):
        sys.exit("generate.py: an alphabet of digit pairs must be letters and digits")
    return "'" + text + "'::bytea"


def crockford_encode_pairs():
    """The 13 digit pairs (10 bits each) of bigint halves hi and lo of a uuid, from table pairs."""
    def pair(expr):
        return f"pg_catalog.substr(pairs, (({expr}) {op('<<')} 1)::integer {op('+')} 1, 2)"
    parts = [pair(f"(hi {op('>>')} 56) {op('&')} 255")]
    parts += [pair(f"(hi {op('>>')} {46 - 10 * k}) {op('&')} 1023") for k in range(5)]
    parts.append(pair(f"((hi {op('&')} 63) {op('<<')} 4) {op('|')} ((lo {op('>>')} 60) {op('&')} 15)"))
    parts += [pair(f"(lo {op('>>')} {50 - 10 * k}) {op('&')} 1023") for k in range(6)]
    return f"\n        {op('||')} ".join(parts)


BASE36_D6 = 36 ** 6


# base36 of 128 bits in bigint arithmetic (issue 33: numeric cost about 1.2 us
# a value, this 0.3): the bits as five limbs of 31 bits (the top one 4 bits),
# divided by 36^6 by long division, whose remainder (below 36^6 < 2^31.02)
# shifted by 31 bits stays below 2^63; four divisions leave four groups of six
# digits and one digit above them, in the PL/pgSQL variables t4, u3, v2 and
# w1. The digits come from the table of the 1296 two-digit strings: one of the
# 46656 three-digit strings saved 0.15 us a call, but its 140 kB literal took
# the script past the 128 kB that one argument of a command may hold, and the
# pg_tle install passes each piece of the script as one (psql -v content="$(cat ...)").
def base36_128_declare(top35, mid29):
    """The DECLARE part, from expressions of the 128 bits' top 35 bits (two
    limbs, 4 and 31 bits) and next 29 bits, and the bigint variable lo (the
    low 64 bits)."""
    d = BASE36_D6
    sl, bo, bn, rs, md, dv = op('<<'), op('|'), op('&'), op('>>'), op('%'), op('/')
    return f"""t1 bigint := {top35};
    t2 bigint := ((t1 {md} {d}) {sl} 31) {bo} (({mid29}) {sl} 2) {bo} ((lo {rs} 62) {bn} 3);
    t3 bigint := ((t2 {md} {d}) {sl} 31) {bo} ((lo {rs} 31) {bn} 2147483647);
    t4 bigint := ((t3 {md} {d}) {sl} 31) {bo} (lo {bn} 2147483647);
    u1 bigint := ((t1 {dv} {d}) {sl} 31) {bo} (t2 {dv} {d});
    u2 bigint := ((u1 {md} {d}) {sl} 31) {bo} (t3 {dv} {d});
    u3 bigint := ((u2 {md} {d}) {sl} 31) {bo} (t4 {dv} {d});
    v1 bigint := ((u1 {dv} {d}) {sl} 31) {bo} (u2 {dv} {d});
    v2 bigint := ((v1 {md} {d}) {sl} 31) {bo} (u3 {dv} {d});
    w1 bigint := ((v1 {dv} {d}) {sl} 31) {bo} (v2 {dv} {d});"""


def base36_128_digits():
    """The 25 digits of base36_128_declare's groups, from table pairs: the top
    digit, then three pairs per group."""
    sl, pl, md, dv = op('<<'), op('+'), op('%'), op('/')
    parts = [f"pg_catalog.substr(pairs, ((w1 {dv} {BASE36_D6}) {sl} 1)::integer {pl} 2, 1)"]
    for g in (f"w1 {md} {BASE36_D6}", f"v2 {md} {BASE36_D6}", f"u3 {md} {BASE36_D6}", f"t4 {md} {BASE36_D6}"):
        parts += [f"pg_catalog.substr(pairs, ((({g}) {dv} 1679616) {sl} 1)::integer {pl} 1, 2)",
                  f"pg_catalog.substr(pairs, (((({g}) {dv} 1296) {md} 1296) {sl} 1)::integer {pl} 1, 2)",
                  f"pg_catalog.substr(pairs, ((({g}) {md} 1296) {sl} 1)::integer {pl} 1, 2)"]
    return "pg_catalog.encode(" + f"\n        {op('||')} ".join(parts) + ", 'escape')"


def crockford_decode():
    """The 130 bits of 26 uppercase Crockford digits in t (checked before)."""
    return f"\n        {op('||')} ".join(
        f"(pg_catalog.strpos(a, pg_catalog.substr(t, {i + 1}, 1)) {op('-')} 1)::bit(5)" for i in range(26))


def base36_encode12(x):
    """12 base36 digits (alphabet a) of a bigint variable x below 36^12."""
    return f"\n        {op('||')} ".join(
        f"pg_catalog.substr(a, (({x} {op('/')} {36 ** (11 - i)}) {op('%')} 36)::integer {op('+')} 1, 1)" for i in range(12))


def base36_decode12(t):
    """The bigint of 12 lowercase base36 digits (alphabet a) in text variable t."""
    return f"\n        {op('+')} ".join(
        f"((pg_catalog.strpos(a, pg_catalog.substr({t}, {i + 1}, 1)) {op('-')} 1)::bigint {op('*')} {36 ** (11 - i)})" for i in range(12))


def snowflake_families(values):
    """The values of each snowflake family, for the blocks between
    {{#SNOWFLAKE_FAMILIES}} and {{/SNOWFLAKE_FAMILIES}}: one copy per family,
    whose {{FAMILY...}} placeholders name that family's layout."""
    families = [
        {"FAMILY": "snowflake", "FAMILY_SEQ_BITS": values["SF_SEQ_BITS"], "FAMILY_SHARD_BITS": values["SF_SHARD_BITS"],
         "FAMILY_MAX_SHARD": values["SF_MAX_SHARD"], "FAMILY_MIN_MS": values["SF_MIN_MS"]},
        {"FAMILY": "snowflake53", "FAMILY_SEQ_BITS": values["S53_SEQ_BITS"], "FAMILY_SHARD_BITS": values["S53_SHARD_BITS"],
         "FAMILY_MAX_SHARD": values["S53_MAX_SHARD"], "FAMILY_MIN_MS": "0"},
    ]
    for family in families:
        # the family's state sequence and lock table, as the mint names them
        # until idgen_sql_snowflake_bind() writes the install's schema and the
        # objects' OIDs in (in these forms, which it finds again): no schema
        # may be named pg_* by a role, so they never resolve before
        state = f"E'{UNBOUND_SCHEMA}.idgen_sql_{family['FAMILY']}_state'"
        lock = f"E'{UNBOUND_SCHEMA}.idgen_sql_{family['FAMILY']}_lock'"
        family["FAMILY_STATE"] = f"{state}::pg_catalog.regclass"
        family["FAMILY_LOCK_NAME"] = f"{lock}::pg_catalog.regclass"
        family["FAMILY_LOCK"] = f'U&"{UNBOUND_SCHEMA}".idgen_sql_{family["FAMILY"]}_lock'
        family["FAMILY_BOUND"] = (f"0::pg_catalog.oid {op('=')} {state}::pg_catalog.regclass::pg_catalog.oid"
                                  f" AND 0::pg_catalog.oid {op('=')} {lock}::pg_catalog.regclass::pg_catalog.oid")
    return families


def repeat_per_family(values, text):
    """Each {{#SNOWFLAKE_FAMILIES}} ... {{/SNOWFLAKE_FAMILIES}} block, once per family."""
    def copies(m):
        return "".join(re.sub(r"\{\{(FAMILY[A-Z0-9_]*)\}\}", lambda p: family[p.group(1)], m.group(1))
                       for family in snowflake_families(values))
    return re.sub(r"\{\{#SNOWFLAKE_FAMILIES\}\}\n(.*?)\{\{/SNOWFLAKE_FAMILIES\}\}\n", copies, text, flags=re.S)


def drop_comments(text, keep_first_block):
    """text without its comment lines outside dollar-quoted bodies (the
    sources keep them; each piece of the pg_tle install holds at most 128 kB), but for the
    opening block of comments when keep_first_block; a body's comments stay."""
    out, tag, opening = [], None, keep_first_block
    for line in text.split("\n"):
        comment = line.lstrip().startswith("--")
        opening = opening and (comment or not out)
        if comment and tag is None and not opening:
            continue
        if not comment:
            for t in re.findall(r"\$[A-Za-z_]*\$", line):
                tag = t if tag is None else (None if t == tag else tag)
        out.append(line)
    if tag is not None:
        sys.exit(f"generate.py: unterminated dollar quote {tag}")
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out))


def drop_indentation(text):
    """text without the spaces that start its lines (the pg_tle install holds
    at most 128 kB a piece; PostgreSQL reads a statement and a PL/pgSQL body the same
    without them), but for a line that continues a string literal, whose
    spaces are the literal's: single quotes are counted ('' as none)."""
    out, in_literal = [], False
    for line in text.split("\n"):
        out.append(line if in_literal else line.lstrip(" "))
        if not line.lstrip().startswith("--") and line.replace("''", "").count("'") % 2:
            in_literal = not in_literal
    if in_literal:
        sys.exit("generate.py: a string literal runs to the end of a family file")
    return "\n".join(out)


def expand(values, m):
    """{{NAME}} is a constant; {{NAME:var}} an unrolled expression over variable var."""
    name, var = m.group(1), m.group(2)
    if name not in values:
        return m.group(0)
    value = values[name]
    return value(var) if callable(value) else value


def pg_tle_versions(version):
    """The version each piece of PG_TLE_PIECES brings the extension to."""
    return [f"{version}-part{k + 1}" for k in range(len(PG_TLE_PIECES) - 1)] + [version]


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: generate.py VERSION OUTPUT [PG_TLE_DIRECTORY]")
    version, output = sys.argv[1], sys.argv[2]
    if [f for piece in PG_TLE_PIECES for f in piece] != FAMILIES or not all(PG_TLE_PIECES):
        sys.exit("generate.py: PG_TLE_PIECES must cut FAMILIES into runs, in order")
    values = constants(version)
    # Not a fact of the headers: the function's text in the C++ edition's script.
    created = set()
    for family in FAMILIES:
        created |= set(re.findall(r"^\s*CREATE DOMAIN ([a-z_]+)", read(f"sql/edition/{family}.sql"), re.M))
    values["IDGEN_TYPES_FUNCTION"] = idgen_types_function(version, created)
    parts = {}
    for family in FAMILIES:
        text = repeat_per_family(values, read(f"sql/edition/{family}.sql"))
        for _ in range(2):  # a value may hold placeholders of its own
            text = re.sub(r"\{\{([A-Z0-9_]+)(?::([a-z][a-z0-9_]*))?\}\}", lambda m: expand(values, m), text)
        left = re.findall(r"\{\{[^}]*\}\}", text)
        if left:
            sys.exit(f"generate.py: sql/edition/{family}.sql: unknown placeholders {sorted(set(left))}")
        parts[family] = drop_indentation(drop_comments(text, family == "header"))
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    write(output, "\n".join(parts[f] for f in FAMILIES))
    if len(sys.argv) == 4:
        # pg_tle's names: idgen_sql--V.sql installs V, idgen_sql--V--W.sql updates V to W
        directory = sys.argv[3]
        os.makedirs(directory, exist_ok=True)
        for old in os.listdir(directory):
            if re.fullmatch(r"idgen_sql--.*\.sql", old):
                os.remove(os.path.join(directory, old))
        versions = pg_tle_versions(version)
        for k, piece in enumerate(PG_TLE_PIECES):
            name = f"idgen_sql--{versions[0]}.sql" if k == 0 else f"idgen_sql--{versions[k - 1]}--{versions[k]}.sql"
            write(os.path.join(directory, name), "\n".join(parts[f] for f in piece))


if __name__ == "__main__":
    main()
