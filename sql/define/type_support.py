#!/usr/bin/python3
"""Renders the type support of ksuid, objectid and rsxid from sql/define/type_support.sql.in.

The three types are held as a fixed number of bytes in their own order, so
their operators, operator classes and min()/max() are one text, told apart by
the values in TYPES. The install script (sql/idgen--VERSION.sql) holds each
rendering between `-- begin type support: TYPE` and `-- end type support: TYPE`,
inside the type's family block, which sql/family_blocks.py copies into the
upgrade script.

    type_support.py render TYPE   prints the rendering
    type_support.py check         exits 1, printing a diff, when a copy in the
                                  install script is not the rendering, or a
                                  type has no copy
    type_support.py write         rewrites the copies in the install script

Standard library only.
"""
import difflib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
TEMPLATE = os.path.join(HERE, "type_support.sql.in")

# C: the prefix of the C functions (objectid and rsxid share idgen_id96_*);
# GENERATOR: the function that mints the type.
TYPES = {
    "ksuid": {"C": "ksuid", "NOUN": "KSUID", "NOUNS": "KSUIDs", "A_NOUN": "a KSUID",
              "GENERATOR": "ksuid"},
    "objectid": {"C": "id96", "NOUN": "ObjectId", "NOUNS": "ObjectIds", "A_NOUN": "an ObjectId",
                 "GENERATOR": "objectid"},
    "rsxid": {"C": "id96", "NOUN": "XID", "NOUNS": "XIDs", "A_NOUN": "an XID",
              "GENERATOR": "xid"},
}
RULE_WIDTH = 79  # a section's heading line, dashes included
COPY = re.compile(r"^-- begin type support: (\S+)\n(.*?)^-- end type support: \1\n", re.M | re.S)


def install_script():
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as makefile:
        version = re.search(r"^EXTVERSION = (\S+)$", makefile.read(), re.M).group(1)
    return os.path.join(ROOT, "sql", f"idgen--{version}.sql")


def render(type_name):
    with open(TEMPLATE, encoding="utf-8") as f:
        text = f.read()
    text = text[text.index("\n\n") + 2:]  # the header comment is the template's own
    values = dict(TYPES[type_name], TYPE=type_name)
    heading = f"-- {type_name} comparison "
    values["RULE"] = "-" * (RULE_WIDTH - len(heading))
    text = re.sub(r"\{\{([A-Z_]+)\}\}", lambda m: values.get(m.group(1), m.group(0)), text)
    left = re.findall(r"\{\{[^}]*\}\}", text)
    if left:
        sys.exit(f"type_support.py: {TEMPLATE}: unknown placeholders {sorted(set(left))}")
    return text


def main(argv):
    if len(argv) == 3 and argv[1] == "render" and argv[2] in TYPES:
        sys.stdout.write(render(argv[2]))
        return 0
    if len(argv) != 2 or argv[1] not in ("check", "write"):
        sys.exit(__doc__)
    path = install_script()
    with open(path, encoding="utf-8") as f:
        script = f.read()
    found = [m.group(1) for m in COPY.finditer(script)]
    if sorted(found) != sorted(TYPES):
        sys.exit(f"type_support.py: {os.path.relpath(path, ROOT)} has type support copies for "
                 f"{found}, expected one each for {sorted(TYPES)}")
    want = COPY.sub(lambda m: f"-- begin type support: {m.group(1)}\n{render(m.group(1))}"
                              f"-- end type support: {m.group(1)}\n", script)
    if argv[1] == "write":
        if want != script:
            with open(path, "w", encoding="utf-8") as f:
                f.write(want)
        return 0
    if want == script:
        print(f"{len(found)} type support copies, each its rendering")
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        want.splitlines(True), script.splitlines(True), "rendered", os.path.relpath(path, ROOT)))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
