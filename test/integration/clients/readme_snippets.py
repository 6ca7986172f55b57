"""Checks that the client snippets docs/drivers.md shows are the code the client tests run.

Each block between "README KIND begins" and "README KIND ends" in a test
file must appear in its page (docs/drivers.md, or the one --page names) as
consecutive lines, once comment-only lines are left out of both and both
sides are compared without their common indentation. KIND is the word of the markers:
"snippet", "browser" or "package" (the PGlite test's pages, for docs/browser.md
and clients/node/README.md), "module", "python", "java", "crate" or "gem" (the Go,
Python, Java, Rust and Ruby packages' READMEs).
The markers still say README: the snippets were in README.md before the manual
moved to docs/.
Prints its plan, then one verdict line per test file and one per block
(test/lib/verdicts.py), which readme_snippets.pl turns into TAP.

    python3 test/integration/clients/readme_snippets.py [--page|--whole PAGE] TEST_FILE:KIND...

PAGE (docs/drivers.md unless given) applies to the TEST_FILE arguments after it.
--whole PAGE also checks that every line of every code block of PAGE (comment
and blank lines aside) is a line of one of those blocks: a page all of whose
examples are tested, where an untested block would otherwise go unnoticed.
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


def code_lines(lines):
    """Indexes of the lines inside the page's fenced code blocks, comment and blank lines aside."""
    inside, found = False, []
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            inside = not inside
        elif inside and line.strip() and not COMMENT.match(line):
            found.append(i)
    return found


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: readme_snippets.py [--page|--whole PAGE] TEST_FILE:KIND...")
    page = "docs/drivers.md"
    whole = []
    args = sys.argv[1:]
    # (page, test file, kind, its blocks) of each argument, all read first for the plan
    wanted = []
    while args:
        arg = args.pop(0)
        if arg in ("--page", "--whole"):
            page = args.pop(0)
            if arg == "--whole":
                whole.append(page)
            continue
        path, kind = arg.rsplit(":", 1)
        wanted.append((page, path, kind, blocks(path, kind)))
    plan(sum(1 + len(found_blocks) for *_, found_blocks in wanted) + len(whole))
    # each page's lines that a block matched (indexes into the page)
    covered = {page: set() for page in whole}
    for page, path, kind, found_blocks in wanted:
        # Comment-only lines are prose on both sides: the page may keep the
        # test's comments or not.
        all_lines = page_lines(page)
        kept = [i for i, line in enumerate(all_lines) if not COMMENT.match(line)]
        lines_of_page = [all_lines[i] for i in kept]
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
                    covered.setdefault(page, set()).update(kept[i:i + len(want)])
                    break
            name = f"{os.path.basename(path)}:{start}"
            if not say(found, f"{page} shows the snippet at {name} verbatim"):
                note(f"its first line: {want[0]!r}")
    for page in whole:
        all_lines = page_lines(page)
        untested = [i for i in code_lines(all_lines) if i not in covered[page]]
        if not say(bool(code_lines(all_lines)) and not untested,
                   f"every code block of {page} is marked blocks' lines (none untested)"):
            for i in untested[:5]:
                note(f"untested: line {i + 1}: {all_lines[i]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
