"""Runs the SQL examples of a manual page in order and checks the results it shows.

    python3 test/lib/readme_sql.py FILE.md      # connects with the PG* variables
    python3 test/lib/readme_sql.py --links FILE.md...

Every ```sql block of FILE runs, in order, in one session (autocommit, TimeZone
UTC), statement by statement, except a block whose preceding line is
"<!-- readme_sql: not run (reason) -->". A statement's result is checked when
comment lines follow it directly (on the line of its ";" and the lines after,
up to a blank or non-comment line); docs/development.md, "The manual's SQL
examples", describes the conventions:

    -- → VALUE          exact result; one such line per row, columns joined by " | "
    -- e.g. VALUE       the result has VALUE's shape (see shape_matches)
    -- ERROR:  MESSAGE  the statement fails with this message
    -- a psql-style result table (header, dashes, rows): the same column names and
       number of rows; cells under 8 characters exactly, longer ones by shape

--links checks that every relative link of the files names an existing file
and, after "#", a heading of it. Prints verdict lines (test/lib/verdicts.py).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdicts import note, say  # noqa: E402

NOT_RUN = re.compile(r"^<!-- readme_sql: not run\b.*-->$")
SEPARATOR = re.compile(r"^-+(\+-+)*$")
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?[+-]\d\d$")
UUID_V7 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def sql_blocks(lines):
    """(first line number, text) of every ```sql block that runs."""
    blocks, inside, start, body, skip = [], False, 0, [], False
    previous = ""
    for number, line in enumerate(lines, 1):
        if not inside and line.strip() == "```sql":
            inside, start, body = True, number + 1, []
            skip = bool(NOT_RUN.match(previous.strip()))
        elif inside and line.strip() == "```":
            inside = False
            if not skip:
                blocks.append((start, body))
        elif inside:
            body.append(line)
        if line.strip():
            previous = line
    return blocks


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


def run(path):
    import psycopg
    from psycopg.types.string import TextLoader

    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    conn = psycopg.connect(autocommit=True, options="-c TimeZone=UTC")
    # every value as the server's text, as psql shows it
    for (oid,) in conn.execute("SELECT oid FROM pg_type").fetchall():
        conn.adapters.register_loader(oid, TextLoader)
    name = os.path.relpath(path)
    blocks = sql_blocks(lines)
    say(bool(blocks), f"{name} has SQL examples to run ({len(blocks)} blocks)")
    for start, body in blocks:
        for line, sql, notes in statements(start, body):
            where = f"{name}:{line}"
            if sql is None:
                say(False, f"{where}: the block's last statement ends with a semicolon")
                continue
            first = " ".join(sql.split())[:70]
            error = next((n[len("ERROR:"):].strip() for n in notes if n.startswith("ERROR:")), None)
            exact = [n[1:].strip() for n in notes if n.startswith("→")]
            shaped = [n[len("e.g."):].strip() for n in notes if n.startswith("e.g.")]
            shown = table(notes)
            try:
                cur = conn.execute(sql)
                columns = [d.name for d in cur.description] if cur.description else []
                rows = [["" if v is None else str(v) for v in r] for r in cur.fetchall()] if columns else []
            except psycopg.Error as e:
                got = e.diag.message_primary or str(e)
                if error is not None:
                    say(got == error, f"{where} fails with \"{error}\"")
                    if got != error:
                        note(f"it failed with: {got}")
                else:
                    say(False, f"{where} runs: {first}")
                    note(f"ERROR: {got}")
                continue
            if error is not None:
                say(False, f"{where} fails with \"{error}\" (it succeeded)")
            elif exact:
                got = [" | ".join(r) for r in rows]
                say(got == exact, f"{where} gives {' / '.join(exact)}")
                if got != exact:
                    note(f"got: {got}")
            elif shaped:
                got = [" | ".join(r) for r in rows]
                ok = len(got) == len(shaped) and all(
                    len(g.split(" | ")) == len(s.split(" | ")) and
                    all(shape_matches(a, b) for a, b in zip(s.split(" | "), g.split(" | ")))
                    for s, g in zip(shaped, got))
                say(ok, f"{where} gives a value shaped like {' / '.join(shaped)}")
                if not ok:
                    note(f"got: {got}")
            elif shown:
                want_columns, want_rows = shown
                ok = columns == want_columns and len(rows) == len(want_rows) and all(
                    len(w) == len(g) and all(
                        (a == b) if len(a) < 8 else shape_matches(a, b) for a, b in zip(w, g))
                    for w, g in zip(want_rows, rows))
                say(ok, f"{where} gives a table shaped like the one shown ({', '.join(want_columns)})")
                if not ok:
                    note(f"got columns {columns}, rows {rows}")
            else:
                say(True, f"{where} runs: {first}")
    conn.close()


def anchors(path):
    """The anchors GitHub makes for the headings of a markdown file."""
    seen, result, fence = {}, set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            m = None if fence else re.match(r"^#{1,6} (.*)$", line.rstrip("\n"))
            if not m:
                continue
            a = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            n = seen.get(a, 0)
            seen[a] = n + 1
            result.add(a if n == 0 else f"{a}-{n}")
    return result


def links(paths):
    for path in paths:
        base = os.path.dirname(path)
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        bad = []
        count = 0
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+:", target):
                continue
            count += 1
            file, _, anchor = target.partition("#")
            file = os.path.normpath(os.path.join(base, file)) if file else path
            if not os.path.exists(file):
                bad.append(target)
            elif anchor and file.endswith(".md") and anchor not in anchors(file):
                bad.append(target)
        say(not bad, f"{os.path.relpath(path)}: its {count} relative links name existing files and headings")
        for b in bad:
            note(f"broken link: {b}")


if __name__ == "__main__":
    if sys.argv[1] == "--links":
        links(sys.argv[2:])
    else:
        run(sys.argv[1])
