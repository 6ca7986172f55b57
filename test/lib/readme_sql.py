"""The manual's examples: runs a page's SQL in order and checks the results it
shows; hands the examples marked for other tests to those tests; checks the
markers, the links and the source layout (docs/development.md, "The manual's
SQL examples").

    python3 test/lib/readme_sql.py FILE.md                 # runs FILE's unmarked ```sql blocks (PG* variables)
    python3 test/lib/readme_sql.py --marked TEST [--name NAME] [--set OLD=NEW]... [--print] FILE.md
    python3 test/lib/readme_sql.py --markers FILE.md...    # every marker names a test that claims it
    python3 test/lib/readme_sql.py --links FILE.md...      # and no page cites an issue number
    python3 test/lib/readme_sql.py --layout development.md REPO

Every ```sql block of a page is an example. It runs on a fresh database when
readme_sql.pl runs the page (one session, autocommit, TimeZone UTC, statement by
statement, in order), unless the line before its fence is a marker:

    <!-- run by test/integration/citus.pl -->           that test runs it (--marked)
    <!-- run by test/integration/routing.pl: NAME -->   the same, among several: by name
    <!-- not run: REASON -->                           nobody runs it; --markers counts these

A statement's result is checked when comment lines follow it directly (on the
line of its ";" and the lines after, up to a blank or non-comment line):

    -- → VALUE          exact result; one such line per row, columns joined by " | "
    -- e.g. VALUE       the result has VALUE's shape (see shape_matches)
    -- ERROR:  MESSAGE  the statement fails with this message
    -- SQLSTATE XXXXX   the statement fails with this SQLSTATE
    -- (N rows)         the statement returns N rows
    -- plan has: TEXT   a row of the result (EXPLAIN's plan) contains TEXT
    -- a psql-style result table (header, dashes, rows): the same column names and
       number of rows; cells under 8 characters exactly, longer ones by shape

Prints its plan, then verdict lines (test/lib/verdicts.py).
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdicts import note, plan, say  # noqa: E402

MARKER = re.compile(r"^<!-- (?:run by (?P<test>test/[\w./-]+)(?:: (?P<name>[^<>]+?))?|not run: (?P<reason>[^<>]+?)) -->$")
# "issue 33", "Issue #12", also across a line break: an issue number means
# nothing to a reader; a page names the version or the change instead
ISSUE_NUMBER = re.compile(r"\bissue\s*#?\s*\d+", re.I)
SEPARATOR = re.compile(r"^-+(\+-+)*$")
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?[+-]\d\d$")
UUID_V7 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
SQL_START = re.compile(r"^(SELECT|CREATE|ALTER|INSERT|UPDATE|DELETE|DROP|GRANT|REVOKE|CALL|DO|EXPLAIN|"
                       r"PREPARE|EXECUTE|SET|WITH|BEGIN|COMMIT|TRUNCATE|COPY)\b")


class Block:
    """A ```sql block: its first line's number, its lines, and its marker."""

    def __init__(self, start, body, marker):
        self.start, self.body = start, body
        m = MARKER.match(marker.strip())
        self.test = m.group("test") if m else None
        self.name = m.group("name") if m else None
        self.reason = m.group("reason") if m else None
        self.marker = marker.strip() if marker.strip().startswith("<!--") else None


def code_blocks(lines):
    """(language, first line number, lines, the non-blank line before the fence)
    of every fenced block, and (line number, first line) of indented code that
    reads as SQL."""
    fenced, indented = [], []
    inside, start, body, lang, before = None, 0, [], "", ""
    previous, blank_before = "", True
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if inside is None and stripped.startswith("```"):
            inside, start, body, lang, before = line[:len(line) - len(line.lstrip())], number + 1, [], stripped[3:].strip(), previous
        elif inside is not None and stripped == "```":
            fenced.append((lang, start, body, before))
            inside = None
        elif inside is not None:
            body.append(line[len(inside):] if line.startswith(inside) else line)
        elif line.startswith("    ") and blank_before and SQL_START.match(stripped):
            indented.append((number, stripped))
        if inside is None:
            blank_before = not stripped
        if stripped:
            previous = line
    return fenced, indented


def sql_blocks(lines):
    """Every ```sql block, as a Block."""
    return [Block(start, body, before) for lang, start, body, before in code_blocks(lines)[0] if lang == "sql"]


def statements(start, body):
    """(line number, SQL, annotation comment lines) of each statement of a block."""
    text = "\n".join(body) + "\n"
    found, i, begin = [], 0, 0
    state, tag = None, ""
    while i < len(text):
        c = text[i]
        if state is None:
            if text.startswith("--", i):
                i = text.index("\n", i)
                continue
            if text.startswith("/*", i):
                i = text.index("*/", i) + 2
                continue
            if c in "'\"":
                state = c
            elif c == "$":
                m = re.match(r"\$[A-Za-z_]*\$", text[i:])
                if m:
                    state, tag = "$", m.group(0)
                    i += len(tag)
                    continue
            elif c == ";":
                sql = text[begin:i + 1]
                line_end = text.index("\n", i)
                notes = []
                rest = text[i + 1:line_end].strip()
                if rest.startswith("--"):
                    notes.append(rest[2:].strip(" "))
                # whole-line comments directly below, up to a blank or other line
                j = line_end + 1
                while j < len(text):
                    k = text.index("\n", j)
                    line = text[j:k]
                    if not line.lstrip().startswith("--"):
                        break
                    notes.append(line.lstrip()[3:] if line.lstrip().startswith("-- ") else line.lstrip()[2:])
                    j = k + 1
                first = begin
                while True:  # past blanks and comments, to the statement's first line
                    m = re.match(r"\s+|--[^\n]*", text[first:i])
                    if not m:
                        break
                    first += m.end()
                found.append((start + text.count("\n", 0, first), text[first:i + 1], notes))
                begin = i + 1
        elif state in "'\"":
            if c == state:
                state = None
        elif state == "$":
            if text.startswith(tag, i):
                state = None
                i += len(tag)
                continue
        i += 1
    if text[begin:].strip() and not all(
            l.strip().startswith("--") or not l.strip() for l in text[begin:].splitlines()):
        found.append((start + len(body), None, []))
    return found


def shape_matches(expected, got):
    """Whether got has expected's shape: a timestamp for a timestamp, a version 7
    UUID for one, digits for digits; otherwise the same characters outside
    letters and digits, runs of letters and digits of the same lengths and case,
    and the same text up to the last "_" (a prefixed ID's or TypeID's prefix)."""
    if TIMESTAMP.match(expected):
        return bool(TIMESTAMP.match(got))
    if UUID_V7.match(expected):
        return bool(UUID_V7.match(got))
    if expected.isdigit():
        return got.isdigit()
    prefix, body = "", expected
    if "_" in expected:
        prefix, body = expected[:expected.rindex("_") + 1], expected[expected.rindex("_") + 1:]
    cls = "[0-9a-z]" if re.search("[a-z]", body) else "[0-9A-Z]" if re.search("[A-Z]", body) else "[0-9]"
    pattern = re.escape(prefix) + "".join(
        cls + "{%d}" % len(run) if run[0].isalnum() else re.escape(run)
        for run in re.findall(r"[0-9A-Za-z]+|[^0-9A-Za-z]+", body))
    return bool(re.fullmatch(pattern, got))


def table(notes):
    """(columns, rows of cells) of a psql-style table in the notes, or None."""
    if len(notes) < 2 or not SEPARATOR.match(notes[1].strip()):
        return None
    columns = [c.strip() for c in notes[0].split("|")]
    rows = [[c.strip() for c in n.split("|")] for n in notes[2:] if n.strip()]
    return columns, rows


def connect():
    import psycopg
    from psycopg.types.string import TextLoader

    conn = psycopg.connect(autocommit=True, options="-c TimeZone=UTC")
    # every value as the server's text, as psql shows it
    for (oid,) in conn.execute("SELECT oid FROM pg_type").fetchall():
        conn.adapters.register_loader(oid, TextLoader)
    return conn


def expectations(notes):
    """What a statement's comment lines show: (error message, SQLSTATE, row
    count, plan texts, exact rows, shaped rows, result table), each None or
    empty when not shown."""
    error = next((n[len("ERROR:"):].strip() for n in notes if n.startswith("ERROR:")), None)
    state = next((n.split()[1] for n in notes if re.match(r"^SQLSTATE [0-9A-Z]{5}$", n.strip())), None)
    count = next((int(m.group(1)) for m in (re.match(r"^\((\d+) rows?\)$", n.strip()) for n in notes) if m), None)
    plan_has = [n[len("plan has:"):].strip() for n in notes if n.startswith("plan has:")]
    exact = [n[1:].strip() for n in notes if n.startswith("→")]
    shaped = [n[len("e.g."):].strip() for n in notes if n.startswith("e.g.")]
    return error, state, count, plan_has, exact, shaped, table(notes)


def blocks_verdicts(blocks, replace=()):
    """How many verdicts run_blocks prints for the blocks when every statement
    does what its comments show (its plan)."""
    total = 0
    for block in blocks:
        body = "\n".join(block.body)
        for old, new in replace:
            body = body.replace(old, new)
        for line, sql, notes in statements(block.start, body.split("\n")):
            if sql is None:
                total += 1
                continue
            error, state, count, plan_has, exact, shaped, shown = expectations(notes)
            if error is not None or state is not None:
                total += (error is not None) + (state is not None)
            else:
                total += max(1, (count is not None) + len(plan_has) + bool(exact or shaped or shown))
    return total


def run_blocks(conn, name, blocks, replace=()):
    """Runs the blocks' statements in order and checks what their comments show."""
    import psycopg

    for block in blocks:
        body = "\n".join(block.body)
        for old, new in replace:
            if old not in body:
                say(False, f"{name}:{block.start}: the block holds {old!r}, which the test replaces")
            body = body.replace(old, new)
        for line, sql, notes in statements(block.start, body.split("\n")):
            where = f"{name}:{line}"
            if sql is None:
                say(False, f"{where}: the block's last statement ends with a semicolon")
                continue
            first = " ".join(sql.split())[:70]
            error, state, count, plan_has, exact, shaped, shown = expectations(notes)
            try:
                cur = conn.execute(sql)
                columns = [d.name for d in cur.description] if cur.description else []
                rows = [["" if v is None else str(v) for v in r] for r in cur.fetchall()] if columns else []
            except psycopg.Error as e:
                got = e.diag.message_primary or str(e)
                if error is None and state is None:
                    say(False, f"{where} runs: {first}")
                    note(f"ERROR: {got} ({e.sqlstate})")
                if error is not None:
                    say(got == error, f"{where} fails with \"{error}\"")
                    if got != error:
                        note(f"it failed with: {got}")
                if state is not None:
                    say(e.sqlstate == state, f"{where} fails with SQLSTATE {state}")
                    if e.sqlstate != state:
                        note(f"it failed with SQLSTATE {e.sqlstate}: {got}")
                continue
            checked = False
            if error is not None or state is not None:
                say(False, f"{where} fails with {error or state} (it succeeded)")
                continue
            got = [" | ".join(r) for r in rows]
            if count is not None:
                checked = True
                say(len(rows) == count, f"{where} returns {count} rows")
                if len(rows) != count:
                    note(f"got: {got}")
            for text in plan_has:
                checked = True
                ok = any(text in g for g in got)
                say(ok, f"{where}: the plan has {text}")
                if not ok:
                    note("got:\n" + "\n".join(got))
            if exact:
                checked = True
                say(got == exact, f"{where} gives {' / '.join(exact)}")
                if got != exact:
                    note(f"got: {got}")
            elif shaped:
                checked = True
                ok = len(got) == len(shaped) and all(
                    len(g.split(" | ")) == len(s.split(" | ")) and
                    all(shape_matches(a, b) for a, b in zip(s.split(" | "), g.split(" | ")))
                    for s, g in zip(shaped, got))
                say(ok, f"{where} gives a value shaped like {' / '.join(shaped)}")
                if not ok:
                    note(f"got: {got}")
            elif shown:
                checked = True
                want_columns, want_rows = shown
                ok = columns == want_columns and len(rows) == len(want_rows) and all(
                    len(w) == len(g) and all(
                        (a == b) if len(a) < 8 else shape_matches(a, b) for a, b in zip(w, g))
                    for w, g in zip(want_rows, rows))
                say(ok, f"{where} gives a table shaped like the one shown ({', '.join(want_columns)})")
                if not ok:
                    note(f"got columns {columns}, rows {rows}")
            if not checked:
                say(True, f"{where} runs: {first}")


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def run(path):
    """Runs the page's unmarked blocks; a page with none says so."""
    name = os.path.relpath(path)
    blocks = sql_blocks(read_lines(path))
    mine = [b for b in blocks if b.marker is None]
    plan(1 + blocks_verdicts(mine))
    say(True, f"{name}: {len(mine)} of its {len(blocks)} SQL blocks run here, "
        f"{sum(1 for b in blocks if b.test)} in other tests, {sum(1 for b in blocks if b.reason)} not run")
    if mine:
        conn = connect()
        run_blocks(conn, name, mine)
        conn.close()


def marked(test, path, name=None, replace=(), show=False):
    """Runs (or prints) the blocks of the page marked "run by TEST[: NAME]"."""
    page = os.path.relpath(path)
    blocks = [b for b in sql_blocks(read_lines(path)) if b.test == test and (name is None or b.name == name)]
    if show:
        if not blocks:
            sys.exit(f"{page} has no block marked <!-- run by {test}" + (f": {name}" if name else "") + " -->")
        text = "\n".join("\n".join(b.body) for b in blocks)
        for old, new in replace:
            text = text.replace(old, new)
        sys.stdout.write(text + "\n")
        return
    plan(1 + blocks_verdicts(blocks, replace))
    if not say(bool(blocks), f"{page} has blocks marked for {test}" + (f" ({name})" if name else "")):
        return
    conn = connect()
    run_blocks(conn, page, blocks, replace)
    conn.close()


def markers(paths, repo):
    """Every "run by" marker names a test file that exists and names the page
    (and the block's name); SQL examples outside ```sql blocks are errors; the
    "not run" markers are counted and listed."""
    not_run = []
    plan(len(paths) + 1)  # one a page, then the count of examples not run
    for path in paths:
        page = os.path.relpath(path, repo)
        lines = read_lines(path)
        fenced, indented = code_blocks(lines)
        bad = []
        for lang, start, body, before in fenced:
            first = next((l.strip() for l in body if l.strip() and not l.strip().startswith("--")), "")
            if lang != "sql" and lang in ("", "psql", "pgsql", "postgresql") and SQL_START.match(first):
                bad.append(f"{page}:{start}: SQL in a ``` block without the sql language: {first[:60]}")
            if lang != "sql" and MARKER.match(before.strip()):
                bad.append(f"{page}:{start}: a marker before a {lang or 'plain'} block (markers are for ```sql blocks)")
        for number, first in indented:
            bad.append(f"{page}:{number}: SQL as indented code (make it a ```sql block): {first[:60]}")
        blocks = sql_blocks(lines)
        for b in blocks:
            if b.marker and not (b.test or b.reason):
                bad.append(f"{page}:{b.start}: unknown marker {b.marker}")
            elif b.test:
                source = os.path.join(repo, b.test)
                text = open(source, encoding="utf-8").read() if os.path.isfile(source) else None
                if text is None:
                    bad.append(f"{page}:{b.start}: {b.test} does not exist")
                elif page not in text or "readme_sql" not in text and "doc_block" not in text:
                    bad.append(f"{page}:{b.start}: {b.test} does not take its blocks from {page}")
                elif b.name and b.name not in text:
                    bad.append(f"{page}:{b.start}: {b.test} names no block {b.name!r}")
            elif b.reason:
                not_run.append(f"{page}:{b.start} ({b.reason})")
        say(not bad, f"{page}: its {len(blocks)} SQL blocks run here or carry a marker that holds")
        for b in bad:
            note(b)
    say(True, f"{len(not_run)} examples not run" + (": " + "; ".join(not_run) if not_run else ""))


STOP = set("about above after also before below from here into over same section than that the their them "
           "then there these this those what when where which while with".split())


def heading_text(text):
    """A heading's words as one compares them: no markup, lowercase, no
    leading article."""
    return re.sub(r"^(the|a|an) ", "", " ".join(re.sub(r"[^\w\s]", " ", text.replace("`", "").lower()).split()))


def sections(path):
    """anchor → (heading text, the section's text up to the next heading of
    its level or above), in GitHub's way, and the duplicate headings."""
    result, seen, duplicates, fence = {}, {}, [], False
    current, parents, placed = None, {}, {}
    for line in read_lines(path):
        if line.strip().startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^(#{1,6}) (.*)$", line)
        if m:
            level = len(m.group(1))
            parents = {k: v for k, v in parents.items() if k < level}
            parent = parents[max(parents)] if parents else None
            parents[level] = m.group(2)
            a = re.sub(r"[^\w\- ]", "", m.group(2).lower()).replace(" ", "-")
            n = seen.get(a, 0)
            seen[a] = n + 1
            # the same name under different parents at one level (each family's
            # "Functions") is a page's structure; at another level or under the
            # same parent, a link cannot tell them apart
            if n and any(l != level or p == parent for l, p in placed[a]):
                duplicates.append(m.group(2))
            placed.setdefault(a, []).append((level, parent))
            a = a if n == 0 else f"{a}-{n}"
            for other in result.values():
                if other[3] and other[0] >= len(m.group(1)):
                    other[3] = False
            current = result[a] = [len(m.group(1)), m.group(2), [], True]
            for other in result.values():
                if other is not current and other[3]:
                    other[2].append(line)
            continue
        for other in result.values():
            if other[3]:
                other[2].append(line)
    return {a: (v[1], "\n".join(v[2])) for a, v in result.items()}, duplicates


def links(paths):
    """Every relative link names an existing file and, after "#", a heading of
    it. Link words of two or more words starting with a capital name a section:
    they must be the heading they land on (case and punctuation aside); other
    words must be about the section: each of their words of four letters or
    more (but a few such as "below") occurs in it (its first five letters).
    Then issue_numbers."""
    plan(len(paths) + 1)  # one a page, then issue_numbers' one
    for path in paths:
        base = os.path.dirname(path)
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        bad, count = [], 0
        own, duplicates = sections(path)
        for d in duplicates:
            bad.append(f"two headings \"{d}\": the second's anchor is not its name")
        for words, target, after in re.findall(r"\[([^\]]+)\]\(([^)\s]+)\)([^\n]{0,80})", re.sub(r"\s*\n\s*", " ", text)):
            if re.match(r"^[a-z]+:", target):
                continue
            count += 1
            file, _, anchor = target.partition("#")
            file = os.path.normpath(os.path.join(base, file)) if file else path
            if not os.path.exists(file):
                bad.append(f"[{words}]({target}): no such file")
                continue
            if not anchor or not file.endswith(".md"):
                continue
            found = (own if file == path else sections(file)[0]).get(anchor)
            if found is None:
                bad.append(f"[{words}]({target}): no such heading")
                continue
            heading, body = found
            row = re.match(r"^ table \(`([^`]+)`\)", after)
            if row and not re.search(r"^\| `?%s`? \|" % re.escape(row.group(1)), body, re.M):
                bad.append(f"[{words}]({target}) table (`{row.group(1)}`): \"{heading}\" has no such row")
            plain = words.replace("`", "")
            stem = os.path.splitext(os.path.basename(file))[0].lower()
            if ".md" in plain or plain.lower() in (stem, os.path.basename(file).lower()):
                continue  # the words name the file
            if len(plain.split()) >= 2 and plain[0].isupper():
                if heading_text(plain) != heading_text(heading):
                    bad.append(f"[{words}]({target}): the words name a section, but the link lands on \"{heading}\"")
            else:
                where = heading_text(heading + "\n" + body)
                missing = [w for w in heading_text(plain).split() if len(w) >= 4 and w not in STOP and w[:5] not in where]
                if missing:
                    bad.append(f"[{words}]({target}): \"{heading}\" never mentions {', '.join(missing)}")
        say(not bad, f"{os.path.relpath(path)}: its {count} relative links land on existing files and headings that match their words")
        for b in bad:
            note(b)

    issue_numbers(paths)


def issue_numbers(paths):
    """No page cites an internal issue number ("issue 33", "issue #12"): one
    verdict for all the pages, which names the file and line of each."""
    bad = []
    for path in paths:
        text = open(path, encoding="utf-8").read()
        for m in ISSUE_NUMBER.finditer(text):
            bad.append(f"{os.path.relpath(path)}:{text.count(chr(10), 0, m.start()) + 1} "
                       f"\"{' '.join(m.group(0).split())}\"")
    say(not bad, f"{len(paths)} pages cite no issue number" +
        (f" (name the version or the change instead): {'; '.join(bad)}" if bad else ""))


def layout(development, repo):
    """Every source file under src/ and sql/edition/ is in the source layout of
    docs/development.md: by its name, or its stem with ".*" (uuidv7.* for
    uuidv7.cpp and uuidv7.hpp), in the entry of its directory."""
    plan(1)
    lines = read_lines(development)
    fenced, _ = code_blocks(lines)
    heading = next(i for i, l in enumerate(lines) if l.strip() == "## Source layout")
    block = next(body for lang, start, body, before in fenced if start > heading)
    entries, key = {}, None
    for line in block:
        m = re.match(r"^(\S+)\s*(.*)$", line)
        if m:
            key = m.group(1)
            entries[key] = m.group(2)
        elif key:
            entries[key] += " " + line.strip()
    missing = []
    for directory in ("src/core/", "src/pg/", "sql/edition/"):
        described = entries.get(directory)
        for file in sorted(os.listdir(os.path.join(repo, directory))):
            stem, ext = os.path.splitext(file)
            if ext not in (".cpp", ".hpp", ".h", ".c", ".sql", ".py", ".in"):
                continue
            if described is None or not re.search(
                    r"(?<![\w.])(%s|%s\.\*|%s\.sql)(?![\w])" % (re.escape(file), re.escape(stem), re.escape(stem)),
                    described):
                if not (directory == "sql/edition/" and described and ext == ".sql" and "one file per family" in described
                        and stem not in ("header",)):
                    missing.append(directory + file)
    say(not missing, f"{os.path.relpath(development)}: its source layout names every file of src/core, src/pg and sql/edition")
    for m in missing:
        note(f"not in the layout: {m}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--marked")
    parser.add_argument("--name")
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--print", action="store_true")
    parser.add_argument("--markers", action="store_true")
    parser.add_argument("--links", action="store_true")
    parser.add_argument("--layout", action="store_true")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    repo = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    if args.links:
        links(args.files)
    elif args.markers:
        markers(args.files, repo)
    elif args.layout:
        layout(args.files[0], args.files[1] if len(args.files) > 1 else repo)
    elif args.marked:
        marked(args.marked, args.files[0], args.name, [tuple(s.split("=", 1)) for s in args.set], args.print)
    else:
        run(args.files[0])
