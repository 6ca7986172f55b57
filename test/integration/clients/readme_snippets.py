"""Checks that the client snippets docs/drivers.md shows are the code the client tests run.

Each block between "README KIND begins" and "README KIND ends" in a test
file must appear in its page (docs/drivers.md, or the one --page names) as
consecutive lines, once comment-only lines are left out of both and both
sides are compared without their common indentation. KIND is "snippet" or "usage" (psycopg's whole adapter
helper is a "snippet" the page only points to, so its lines there are "usage").
The markers still say README: the snippets were in README.md before the manual
moved to docs/.
Prints its plan, then one verdict line per test file and one per block
(test/lib/verdicts.py), which readme_snippets.pl turns into TAP.

    python3 test/integration/clients/readme_snippets.py [--page PAGE] TEST_FILE:KIND...

PAGE (docs/drivers.md unless given) applies to the TEST_FILE arguments after it.
"""
import os
import re
import sys
import textwrap

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(REPO, "test", "lib"))
from verdicts import note, plan, say  # noqa: E402

COMMENT = re.compile(r"^\s*(//|#|--)")


def blocks(path, kind):
    """(first line number, lines) of each marked block, comment-only lines left out."""
    begin = re.compile(r"^\s*(//|#|--) README %s begins" % kind)
    end = re.compile(r"^\s*(//|#|--) README %s ends" % kind)
    found, current, start = [], None, 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if begin.match(line):
                current, start = [], number
            elif end.match(line):
                found.append((start, current))
                current = None
            elif current is not None and not COMMENT.match(line):
                current.append(line.rstrip("\n"))
    return found


def dedented(lines):
    return textwrap.dedent("\n".join(lines)).strip("\n").split("\n")


def page_lines(page):
    with open(os.path.join(REPO, page), encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: readme_snippets.py [--page PAGE] TEST_FILE:KIND...")
    page = "docs/drivers.md"
    args = sys.argv[1:]
    # (page, test file, kind, its blocks) of each argument, all read first for the plan
    wanted = []
    while args:
        arg = args.pop(0)
        if arg == "--page":
            page = args.pop(0)
            continue
        path, kind = arg.rsplit(":", 1)
        wanted.append((page, path, kind, blocks(path, kind)))
    plan(sum(1 + len(found_blocks) for *_, found_blocks in wanted))
    for page, path, kind, found_blocks in wanted:
        # Comment-only lines are prose on both sides: the page may keep the
        # test's comments or not.
        lines_of_page = [line for line in page_lines(page) if not COMMENT.match(line)]
        # A test whose markers went missing would otherwise pass by checking nothing.
        say(bool(found_blocks), f"{os.path.basename(path)} marks {kind} blocks for {page}")
        for start, lines in found_blocks:
            want = dedented(lines)
            # Compare against the page's lines dedented by the block's own first line.
            found = False
            for i in range(len(lines_of_page) - len(want) + 1):
                window = dedented(lines_of_page[i:i + len(want)])
                if window == want:
                    found = True
                    break
            name = f"{os.path.basename(path)}:{start}"
            if not say(found, f"{page} shows the snippet at {name} verbatim"):
                note(f"its first line: {want[0]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
