"""Issue 54's text IDs against their reference libraries on PyPI: sqids
(Sqids), shortuuid (base57), cuid2 (its is_cuid check) and timeflake (its
parser); and NanoID's uniformity, by a chi-square test that rejects a planted
modulo bias. What the server makes, the library reads or makes alike; what
the library makes, the server reads alike. IDGEN_DIFFERENTIAL_COUNT (100,000
by default) sets how many values go each way; the NanoID and CUID2 checks take
a hundred times as many characters and IDs (10 M by default)."""
import collections
import os
import random
import uuid

import psycopg
import pytest
import shortuuid
import timeflake
from cuid2 import is_cuid
from sqids import Sqids

COUNT = int(os.environ.get("IDGEN_DIFFERENTIAL_COUNT", "100000"))
rng = random.Random(int(os.environ.get("IDGEN_DIFFERENTIAL_SEED", "20261204")))
MAX_BIGINT = 2**63 - 1
SQIDS_DEFAULT_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
NANOID_DEFAULT_ALPHABET = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"


@pytest.fixture(scope="module")
def conn(dbname):
    with psycopg.connect(dbname=dbname, autocommit=True) as conn:
        yield conn


def chi_square_critical(df, z=4.75):
    """The chi-square value that a uniform draw exceeds with probability about
    1e-6 (z = 4.75 standard deviations), by Wilson and Hilferty's cube-root
    approximation: a correct generator fails the check about once in a
    million runs."""
    h = 2 / (9 * df)
    return df * (1 - h + z * h ** 0.5) ** 3


def chi_square(counts, alphabet):
    n = sum(counts.get(c, 0) for c in alphabet)
    expected = n / len(alphabet)
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in alphabet)


# ---- Sqids ----------------------------------------------------------------------

def random_numbers():
    """1 to 6 numbers, spread over every magnitude up to 2^63 - 1."""
    return [rng.randrange(0, 2 ** rng.randrange(1, 64)) for _ in range(rng.randrange(1, 7))]


def sqids_option_sets():
    """(alphabet, min_length, blocklist) for 20 sets: the defaults, a minimum
    length, no blocklist, and custom alphabets (3 to 94 printable ASCII
    characters, shuffled) with minimum lengths up to 255 and no, the default or
    a custom blocklist (None: the default)."""
    printable = [chr(c) for c in range(33, 127)]
    sets = [(SQIDS_DEFAULT_ALPHABET, 0, None), (SQIDS_DEFAULT_ALPHABET, 10, None), (SQIDS_DEFAULT_ALPHABET, 0, [])]
    for k in range(17):
        alphabet = "".join(rng.sample(printable, rng.choice([3, 5, 10, 16, 36, 62, 94])))
        words = None if k % 3 == 0 else [] if k % 3 == 1 else [
            "".join(rng.choices(alphabet, k=rng.randrange(3, 6))) for _ in range(rng.randrange(1, 30))]
        sets.append((alphabet, rng.choice([0, 0, 1, 5, 12, 40, 255]), words))
    return sets


def library(alphabet, min_length, words):
    options = {"alphabet": alphabet, "min_length": min_length}
    if words is not None:
        options["blocklist"] = words
    return Sqids(**options)


def array_text(numbers):
    return "{%s}" % ",".join(map(str, numbers))


SQIDS_OPTIONS = "alphabet => %(a)s, min_length => %(m)s, blocklist => %(b)s::text[]"


def test_sqids_like_the_library(conn):
    """COUNT arrays under 20 option sets: the server's code is the library's,
    and the server decodes the library's code to the same numbers, strictly;
    where the library runs out of attempts to avoid the blocklist, the server
    refuses too (22023)."""
    sets = sqids_option_sets()
    per_set = COUNT // len(sets)
    checked = exhausted = 0
    for alphabet, min_length, words in sets:
        reference = library(alphabet, min_length, words)
        arrays, codes = [], []
        for numbers in (random_numbers() for _ in range(per_set)):
            try:
                codes.append(reference.encode(numbers))
                arrays.append(numbers)
            except ValueError:  # "Reached max attempts to re-generate the ID"
                exhausted += 1
                with pytest.raises(psycopg.errors.InvalidParameterValue):
                    conn.execute(f"SELECT sqids_encode(%(n)s::bigint[], {SQIDS_OPTIONS})",
                                 {"n": numbers, "a": alphabet, "m": min_length, "b": words})
        rows = conn.execute(
            f"""SELECT sqids_encode(n::bigint[], {SQIDS_OPTIONS}), sqids_decode(c, {SQIDS_OPTIONS})
                FROM unnest(%(n)s::text[], %(c)s::text[]) WITH ORDINALITY u(n, c, i) ORDER BY i""",
            {"n": [array_text(a) for a in arrays], "c": codes, "a": alphabet, "m": min_length, "b": words}).fetchall()
        bad = [(a, c, r) for a, c, r in zip(arrays, codes, rows) if r != (c, a)]
        assert bad[:3] == [], "alphabet %r, min_length %d, blocklist %r" % (alphabet, min_length, words)
        checked += len(rows)
    assert checked + exhausted == per_set * len(sets) and checked > exhausted


def test_sqids_decoders_like_the_library(conn):
    """COUNT texts of each option set's alphabet, most of them not canonical:
    sqids_decode_lenient() returns what the library's decode() returns, and
    sqids_decode() returns it only for a text that the library encodes back to
    itself, refusing every other one (22P02). A text whose numbers the library
    reads above 2^63 - 1 the server refuses (22003), where JavaScript's
    reference would lose the digits."""
    sets = sqids_option_sets()
    per_set = COUNT // len(sets)
    refused = too_large = 0
    for alphabet, min_length, words in sets:
        reference = library(alphabet, min_length, words)
        texts = []
        for text in ("".join(rng.choices(alphabet, k=rng.randrange(1, 12))) for _ in range(per_set)):
            if all(n <= MAX_BIGINT for n in reference.decode(text)):
                texts.append(text)
            elif too_large < 20:
                too_large += 1
                with pytest.raises(psycopg.errors.NumericValueOutOfRange):
                    conn.execute(f"SELECT sqids_decode_lenient(%(t)s, {SQIDS_OPTIONS})",
                                 {"t": text, "a": alphabet, "m": min_length, "b": words})
        rows = conn.execute(
            f"""SELECT sqids_decode_lenient(t, {SQIDS_OPTIONS}),
                       CASE WHEN sqids_encode(sqids_decode_lenient(t, {SQIDS_OPTIONS}), {SQIDS_OPTIONS}) = t
                            THEN sqids_decode(t, {SQIDS_OPTIONS}) END
                FROM unnest(%(t)s::text[]) WITH ORDINALITY u(t, i) ORDER BY i""",
            {"t": texts, "a": alphabet, "m": min_length, "b": words}).fetchall()
        for text, (lenient, strict) in zip(texts, rows):
            numbers = reference.decode(text)
            assert lenient == numbers, (text, alphabet)
            canonical = bool(numbers) and reference.encode(numbers) == text
            assert strict == (numbers if canonical else None), (text, alphabet)
            refused += not canonical
    assert refused > COUNT // 10 and too_large > 0
    # the strict decoder's refusal itself, for one non-canonical text
    text = next(t for t in ("".join(rng.choices(SQIDS_DEFAULT_ALPHABET, k=8)) for _ in range(1000))
                if Sqids().encode(Sqids().decode(t)) != t)
    with pytest.raises(psycopg.errors.InvalidTextRepresentation):
        conn.execute("SELECT sqids_decode(%s)", (text,))


# ---- shortuuid's base57 -------------------------------------------------------------

def test_base57_like_shortuuid(conn):
    """COUNT uuids each way: uuid_encode(u, 'base57') is shortuuid.encode(u),
    and uuid_decode() reads shortuuid's text back to the uuid."""
    values = [uuid.UUID(bytes=rng.randbytes(16)) for _ in range(COUNT)]
    texts = [shortuuid.encode(u) for u in values]
    rows = conn.execute("""SELECT uuid_encode(u, 'base57'), uuid_decode(t, 'base57')
                           FROM unnest(%s::uuid[], %s::text[]) WITH ORDINALITY x(u, t, i) ORDER BY i""",
                        (values, texts)).fetchall()
    assert [(u, t) for u, t, r in zip(values, texts, rows) if r != (t, u)][:3] == []
    minted = [r[0] for r in conn.execute("SELECT uuid_encode(gen_random_uuid(), 'base57') FROM generate_series(1, 1000)")]
    decoded = conn.execute("SELECT array_agg(uuid_decode(t, 'base57') ORDER BY i) FROM unnest(%s::text[]) WITH ORDINALITY x(t, i)",
                           (minted,)).fetchone()[0]
    assert [shortuuid.decode(t) for t in minted] == decoded


# ---- Timeflake --------------------------------------------------------------------------

def test_timeflakes_like_the_library(conn):
    """COUNT Timeflakes each way: the server's parse in timeflake to the same
    millisecond, random bits and base62 text; timeflake's parse on the server
    to the same millisecond and random bits, and their base62 text to the same
    uuid."""
    rows = conn.execute("""SELECT f, (extract(epoch FROM timeflake_time(f)) * 1000)::bigint,
                                  timeflake_random(f)::text, uuid_encode(f, 'base62')
                           FROM (SELECT timeflake() FROM generate_series(1, %s)) s(f)""", (COUNT,)).fetchall()
    assert len(rows) == COUNT
    for flake, ms, random_bits, base62 in rows:
        parsed = timeflake.parse(from_bytes=flake.bytes)
        assert (parsed.timestamp, parsed.random, parsed.base62) == (ms, int(random_bits), base62), flake
    theirs = [timeflake.random() for _ in range(COUNT)]
    rows = conn.execute("""SELECT (extract(epoch FROM timeflake_time(u)) * 1000)::bigint, timeflake_random(u)::text,
                                  uuid_decode(t, 'base62') = u
                           FROM unnest(%s::uuid[], %s::text[]) WITH ORDINALITY x(u, t, i) ORDER BY i""",
                        ([f.uuid for f in theirs], [f.base62 for f in theirs])).fetchall()
    assert [(f, r) for f, r in zip(theirs, rows) if r != (f.timestamp, str(f.random), True)][:3] == []


# ---- CUID2 and NanoID ----------------------------------------------------------------------

def test_cuid2_passes_is_cuid(conn):
    """10 COUNT cuid2() values pass cuid2's is_cuid, 100 COUNT never repeat, and
    their first letters are uniform over a-z."""
    ids = [r[0] for r in conn.execute("SELECT cuid2() FROM generate_series(1, %s)", (10 * COUNT,))]
    assert len(ids) == 10 * COUNT and all(map(is_cuid, ids))
    letters = collections.Counter(i[0] for i in ids)
    assert chi_square(letters, "abcdefghijklmnopqrstuvwxyz") < chi_square_critical(25)
    total, distinct = conn.execute("SELECT count(*), count(DISTINCT c) FROM (SELECT cuid2() FROM generate_series(1, %s)) s(c)",
                                   (100 * COUNT,)).fetchone()
    assert total == distinct == 100 * COUNT


def test_nanoid_uniform_and_unique(conn):
    """100 COUNT characters of nanoid() for alphabets of 64, 62 and 10
    characters pass the chi-square check, which a planted modulo bias (a
    random byte % 62, as NanoID's authors warn against) fails; 100 COUNT
    default IDs never repeat."""
    for alphabet in (NANOID_DEFAULT_ALPHABET, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "0123456789"):
        counts = dict(conn.execute(
            """SELECT c, count(*) FROM (SELECT regexp_split_to_table(nanoid(50, %(a)s), '') FROM generate_series(1, %(n)s)) s(c)
               GROUP BY c""", {"a": alphabet, "n": 2 * COUNT}).fetchall())
        assert set(counts) == set(alphabet) and sum(counts.values()) == 100 * COUNT
        assert chi_square(counts, alphabet) < chi_square_critical(len(alphabet) - 1), alphabet
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    biased = collections.Counter(alphabet[b % 62] for b in os.urandom(100 * COUNT))
    assert chi_square(biased, alphabet) > chi_square_critical(61)
    total, distinct = conn.execute("SELECT count(*), count(DISTINCT n) FROM (SELECT nanoid() FROM generate_series(1, %s)) s(n)",
                                   (100 * COUNT,)).fetchone()
    assert total == distinct == 100 * COUNT
