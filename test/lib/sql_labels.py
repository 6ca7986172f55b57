#!/usr/bin/env python3
"""Reads an install script and prints, one per line, each CREATE FUNCTION that
does not state all of its labels in the text: a volatility (IMMUTABLE, STABLE
or VOLATILE), its null handling (STRICT, RETURNS NULL ON NULL INPUT or CALLED
ON NULL INPUT) and a PARALLEL label, and each function without a COMMENT ON
FUNCTION. pg_proc cannot tell a default from an explicit CALLED ON NULL INPUT,
so the text is what is checked. The first line is "functions=N", the number of
CREATE FUNCTION statements read. Usage: sql_labels.py SCRIPT"""
import re
import sys


def statements(text):
    """Yields the script's statements, with dollar-quoted bodies and comments removed."""
    text = re.sub(r"\$\$.*?\$\$", "$$ $$", text, flags=re.S)
    text = re.sub(r"--[^\n]*", "", text)
    text = re.sub(r"^\\[^\n]*", "", text, flags=re.M)  # psql meta-commands (the guard)
    for statement in text.split(";"):
        statement = " ".join(statement.split())
        if statement:
            yield statement


def signature(head):
    """'name(type, type)' of a CREATE FUNCTION head, argument names and defaults dropped."""
    name, args = re.match(r"CREATE FUNCTION (\w+)\s*\((.*?)\)\s*RETURNS", head, flags=re.S | re.I).groups()
    types = []
    for arg in filter(None, (a.strip() for a in args.split(","))):
        arg = re.split(r"\s+DEFAULT\s+", arg, flags=re.I)[0].split()
        if arg[0].upper() == "OUT":
            continue
        # "name type" or just "type" (types here are one word, or "double precision"-free)
        types.append(arg[-1] if len(arg) > 1 else arg[0])
    return f"{name}({', '.join(types)})"


def main(path):
    text = open(path, encoding="utf-8").read()
    created, commented = [], set()
    problems = []
    for st in statements(text):
        if re.match(r"CREATE FUNCTION ", st, flags=re.I):
            sig = signature(st)
            created.append(sig)
            # the labels come after RETURNS ...: look at the whole statement
            upper = st.upper()
            if not re.search(r"\b(IMMUTABLE|STABLE|VOLATILE)\b", upper):
                problems.append(f"{sig}: no volatility")
            if not re.search(r"\b(STRICT|RETURNS NULL ON NULL INPUT|CALLED ON NULL INPUT)\b", upper):
                problems.append(f"{sig}: no null handling (STRICT or CALLED ON NULL INPUT)")
            if not re.search(r"\bPARALLEL (SAFE|RESTRICTED|UNSAFE)\b", upper):
                problems.append(f"{sig}: no PARALLEL label")
        m = re.match(r"COMMENT ON FUNCTION (\w+)\s*\((.*?)\)\s+IS", st, flags=re.I)
        if m:
            commented.add(f"{m.group(1)}({', '.join(a.strip() for a in m.group(2).split(',') if a.strip())})")
    for sig in created:
        if sig not in commented:
            problems.append(f"{sig}: no COMMENT ON FUNCTION")
    print(f"functions={len(created)}")
    for p in problems:
        print(p)


if __name__ == "__main__":
    main(sys.argv[1])
