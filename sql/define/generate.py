#!/usr/bin/python3
"""Renders prefixed_id_define and typeid_define from sql/define/domain_define.sql.in,
and nanoid_define and cuid2_define from sql/define/text_domain_define.sql.in.

Each pair of functions has one body, told apart by the values in FUNCTIONS. The
install and upgrade scripts hold renderings of it: COPIES lists those in
released scripts, which are never edited, so they are checked, not rewritten.
A copy is found by its CREATE [OR REPLACE] FUNCTION NAME( line and runs to the
`$$;` line, then through the COMMENT ON FUNCTION NAME( statement that follows
if there is one. A release that changes the body changes the template; the
released copies keep their bytes, so their checks must then read the template
as it was when they were rendered.

    generate.py render FUNCTION [--create-or-replace] [--no-comment]
        prints the function (and its COMMENT) to paste into a new script
    generate.py copies
        prints the checked copies, "SCRIPT FUNCTION" a line
    generate.py check [SCRIPT FUNCTION]
        exits 1, printing a diff, when a copy (default: every one in COPIES;
        one not in COPIES in the form it has) is not the rendering
    generate.py write SCRIPT FUNCTION
        replaces the copy in an unreleased script with the rendering, in the
        form it has (OR REPLACE or not, COMMENT or not); a released copy is
        only ever left as it is

Standard library only.
"""
import argparse
import difflib
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
TEMPLATE = "sql/define/domain_define.sql.in"

FUNCTIONS = {
    "prefixed_id_define": {
        "BASE": "prefixed_id",
        "TOKEN_PARAMETER": " token boolean DEFAULT false,",
        "TOKEN_IS_NULL": " OR token IS NULL",
        "DEFAULT_FUNCTION": "CASE WHEN token THEN 'prefixed_id_token' ELSE 'prefixed_id_new' END",
        "DOMAIN_KIND": "CASE WHEN token THEN 'prefixed tokens' ELSE 'ordered prefixed IDs' END",
        "TOKEN_VALUE": "token",
        "ARGUMENT_TYPES": "text, text, boolean, name",
        "COMMENT": "creates a domain over prefixed_id (in type_schema, by default the current schema) "
                   "that accepts only the given prefix and defaults to a new ID (or token) of it, and "
                   "records the prefix in prefixed_id_registry",
    },
    "typeid_define": {
        "BASE": "typeid",
        "TOKEN_PARAMETER": "",
        "TOKEN_IS_NULL": "",
        "DEFAULT_FUNCTION": "'typeid_new'",
        "DOMAIN_KIND": "'TypeIDs'",
        "TOKEN_VALUE": "false",
        "ARGUMENT_TYPES": "text, text, name",
        "COMMENT": "creates a domain over typeid (in type_schema, by default the current schema) that "
                   "accepts only the given prefix and defaults to typeid_new(prefix), and records the "
                   "prefix in prefixed_id_registry, shared with prefixed_id_define",
    },
    # nanoid_define and cuid2_define: text_domain_define.sql.in.
    "nanoid_define": {
        "TEMPLATE": "sql/define/text_domain_define.sql.in",
        "PARAMETERS": " size integer DEFAULT 21,\n" + " " * len("CREATE FUNCTION nanoid_define(")
                      + "alphabet text DEFAULT 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict',",
        "NULL_TEST": "size IS NULL OR alphabet IS NULL",
        "GENERATOR": "nanoid",
        "ARGUMENTS": "size, alphabet",
        "PLACEHOLDERS": "$1, $2",
        "FORMATS": "%s, %L",
        "ARGUMENTS_NAMED": "the size and the alphabet",
        "THEM": "them",
        "DOMAIN_COMMENT": "NanoIDs of %s characters over %s",
        "DOMAIN_COMMENT_ARGUMENTS": "size, pg_catalog.quote_literal(alphabet)",
        "ARGUMENT_TYPES": "text, integer, text, name",
        "COMMENT": "creates a domain over text (in type_schema, by default the current schema) that "
                   "accepts only NanoIDs of the given size and alphabet and defaults to a new one",
    },
    "cuid2_define": {
        "TEMPLATE": "sql/define/text_domain_define.sql.in",
        "PARAMETERS": " length integer DEFAULT 24,",
        "NULL_TEST": "length IS NULL",
        "GENERATOR": "cuid2",
        "ARGUMENTS": "length",
        "PLACEHOLDERS": "$1",
        "FORMATS": "%s",
        "ARGUMENTS_NAMED": "the length",
        "THEM": "it",
        "DOMAIN_COMMENT": "CUID2s of %s characters",
        "DOMAIN_COMMENT_ARGUMENTS": "length",
        "ARGUMENT_TYPES": "text, integer, name",
        "COMMENT": "creates a domain over text (in type_schema, by default the current schema) that "
                   "accepts only CUID2s of the given length and defaults to a new one",
    },
}

# (script, function, CREATE OR REPLACE, with its COMMENT) of each released copy.
# The 0.6.0--0.7.0 and 0.7.0--0.8.0 upgrades leave both functions as they are.
# The 0.5.0--0.6.0 upgrade leaves prefixed_id_define's 0.5.0 COMMENT (the same
# text) in place and restates typeid_define's.
COPIES = [
    ("sql/idgen--0.5.0--0.6.0.sql", "prefixed_id_define", True, False),
    ("sql/idgen--0.5.0--0.6.0.sql", "typeid_define", True, True),
    ("sql/idgen--0.8.0.sql", "prefixed_id_define", False, True),
    ("sql/idgen--0.8.0.sql", "typeid_define", False, True),
    ("sql/idgen--0.8.0.sql", "nanoid_define", False, True),
    ("sql/idgen--0.8.0.sql", "cuid2_define", False, True),
    ("sql/idgen--0.7.0--0.8.0.sql", "nanoid_define", False, True),
    ("sql/idgen--0.7.0--0.8.0.sql", "cuid2_define", False, True),
]


def fail(message):
    sys.exit(f"generate.py: {message}")


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8", newline="") as f:
        return f.read()


def render(function, create_or_replace, comment):
    """The function's CREATE statement, and its COMMENT if asked, as the scripts hold them."""
    if function not in FUNCTIONS:
        fail(f"no function {function!r} (known: {', '.join(FUNCTIONS)})")
    template = FUNCTIONS[function].get("TEMPLATE", TEMPLATE)
    text = read(template)
    header_end = text.find("\n\n")
    if header_end < 0:
        fail(f"{template}: no blank line ends the header")
    text = text[header_end + 2:]
    values = {k: v for k, v in FUNCTIONS[function].items() if k != "TEMPLATE"}
    if "'" in values["COMMENT"]:
        fail(f"{function}'s COMMENT has a quote; write it doubled in FUNCTIONS and drop this check")
    values["FUNCTION"] = function
    values["CREATE_FUNCTION"] = "CREATE OR REPLACE FUNCTION" if create_or_replace else "CREATE FUNCTION"
    values["ALIGN"] = " " * len(f"CREATE FUNCTION {function}(")
    text = re.sub(r"\{\{([A-Z_]+)\}\}", lambda m: values.get(m.group(1), m.group(0)), text)
    left = re.findall(r"\{\{[^}]*\}\}", text)
    if left:
        fail(f"{template}: unknown placeholders {sorted(set(left))}")
    end = text.split("\n$$;\n")
    if len(end) != 2 or not end[1].startswith(f"COMMENT ON FUNCTION {function}("):
        fail(f"{template}: expected one '$$;' line followed by the COMMENT ON FUNCTION")
    return text if comment else end[0] + "\n$$;\n"


def locate(script, function):
    """(start, end, OR REPLACE?, COMMENT?) of the function's one copy in script's text."""
    starts = [m.start() for m in re.finditer(
        rf"^CREATE (?:OR REPLACE )?FUNCTION {re.escape(function)}\(", script, re.M)]
    if len(starts) != 1:
        return None, f"{len(starts)} CREATE [OR REPLACE] FUNCTION {function}( lines, expected 1"
    start = starts[0]
    body_end = script.find("\n$$;\n", start)
    if body_end < 0:
        return None, f"no '$$;' line after CREATE FUNCTION {function}("
    end = body_end + len("\n$$;\n")
    comment = script.startswith(f"COMMENT ON FUNCTION {function}(", end)
    if comment:
        m = re.compile(r"';\n").search(script, end)
        if not m:
            return None, f"COMMENT ON FUNCTION {function} does not end with a ';' line"
        end = m.end()
    or_replace = script.startswith("CREATE OR REPLACE", start)
    return (start, end, or_replace, comment), None


def check_copy(rel, function, or_replace, comment):
    """None when the copy is the rendering, else a report and a diff."""
    script = read(rel)
    where, error = locate(script, function)
    if error:
        return f"{rel}: {error}\n"
    start, end, _, _ = where
    got = script[start:end]
    want = render(function, or_replace, comment)
    if got == want:
        return None
    got_lines, want_lines = got.splitlines(True), want.splitlines(True)
    first = next((i for i, (g, w) in enumerate(zip(got_lines, want_lines)) if g != w),
                 min(len(got_lines), len(want_lines)))
    line = script.count("\n", 0, start) + 1 + first
    diff = difflib.unified_diff(want_lines, got_lines, f"{FUNCTIONS[function].get('TEMPLATE', TEMPLATE)} rendered",
                                f"{rel} ({function})", n=1)
    return f"{rel}:{line}: {function} differs from the template's rendering\n" + "".join(diff)


def main():
    parser = argparse.ArgumentParser(description="the define functions from their templates")
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("render", help="print a function to paste into a script")
    p.add_argument("function", choices=sorted(FUNCTIONS))
    p.add_argument("--create-or-replace", action="store_true", help="as an upgrade script has it")
    p.add_argument("--no-comment", action="store_true", help="without its COMMENT ON FUNCTION")
    sub.add_parser("copies", help="list the checked copies, SCRIPT FUNCTION a line")
    p = sub.add_parser("check", help="compare the copies with the rendering")
    p.add_argument("script", nargs="?")
    p.add_argument("function", nargs="?", choices=sorted(FUNCTIONS))
    p = sub.add_parser("write", help="rewrite a copy in an unreleased script")
    p.add_argument("script")
    p.add_argument("function", choices=sorted(FUNCTIONS))
    args = parser.parse_args()

    if args.mode == "render":
        sys.stdout.write(render(args.function, args.create_or_replace, not args.no_comment))
    elif args.mode == "copies":
        for rel, function, _, _ in COPIES:
            print(rel, function)
    elif args.mode == "check":
        if (args.script is None) != (args.function is None):
            parser.error("check takes SCRIPT and FUNCTION, or neither")
        copies = [c for c in COPIES if args.script is None
                  or (os.path.normpath(c[0]), c[1]) == (os.path.normpath(args.script), args.function)]
        if not copies:
            # a script not (yet) in COPIES: in the form its copy has
            rel = os.path.relpath(os.path.abspath(args.script), ROOT)
            where, error = locate(read(rel), args.function)
            if error:
                fail(f"{rel}: {error}")
            copies = [(rel, args.function, where[2], where[3])]
        reports = [r for r in (check_copy(*c) for c in copies) if r]
        sys.stdout.write("".join(reports))
        sys.exit(1 if reports else 0)
    elif args.mode == "write":
        rel = os.path.relpath(os.path.abspath(args.script), ROOT)
        script = read(rel)
        where, error = locate(script, args.function)
        if error:
            fail(f"{rel}: {error}; paste `generate.py render {args.function}` in first")
        start, end, or_replace, comment = where
        new = script[:start] + render(args.function, or_replace, comment) + script[end:]
        if new == script:
            return
        if any(os.path.normpath(c[0]) == rel for c in COPIES):
            fail(f"{rel} is released and never edited; its {args.function} is not the rendering "
                 f"(generate.py check {rel} {args.function})")
        tmp = os.path.join(ROOT, rel) + ".tmp"
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(new)
        shutil.copymode(os.path.join(ROOT, rel), tmp)
        os.replace(tmp, os.path.join(ROOT, rel))


if __name__ == "__main__":
    main()
