#!/usr/bin/python3
"""Keeps the upgrade script's copy of each family a release adds equal to the install script's.

A family new in the unreleased version is written once, in the install script
(sql/idgen--VERSION.sql), between the lines `-- begin family: NAME` and
`-- end family: NAME`. The upgrade script into that version
(sql/idgen--PREVIOUS--VERSION.sql) must create the same objects; an extension
script cannot include another file, so it holds a copy of the block, which this
script writes and checks. VERSION is the Makefile's EXTVERSION, PREVIOUS the
newest script's version before it.

    family_blocks.py check   exits 1, printing a diff, when the upgrade script's
                             blocks are not the install script's, in its order
    family_blocks.py write   rewrites the upgrade script's blocks from the install
                             script's; a block it lacks is appended at its end

Standard library only.
"""
import difflib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
BLOCK = re.compile(r"^-- begin family: (\S+)\n.*?^-- end family: \1\n", re.M | re.S)


def version_key(version):
    return tuple(int(part) for part in version.split("."))


def scripts():
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as makefile:
        version = re.search(r"^EXTVERSION = (\S+)$", makefile.read(), re.M).group(1)
    names = os.listdir(HERE)
    upgrades = [n for n in names if re.fullmatch(rf"idgen--[0-9.]+--{re.escape(version)}\.sql", n)]
    if len(upgrades) != 1:
        sys.exit(f"family_blocks.py: expected one upgrade script into {version}, found {upgrades}")
    return os.path.join(HERE, f"idgen--{version}.sql"), os.path.join(HERE, upgrades[0])


def blocks(text):
    return {m.group(1): m.group(0) for m in BLOCK.finditer(text)}


def rendered(install_text, upgrade_text):
    """The upgrade script with every install block in it, existing ones replaced in place."""
    wanted = blocks(install_text)
    result = BLOCK.sub(lambda m: wanted.get(m.group(1), m.group(0)), upgrade_text)
    present = blocks(upgrade_text)
    for name, block in wanted.items():
        if name not in present:
            result = result.rstrip("\n") + "\n\n" + block
    return result


def main(argv):
    if len(argv) != 2 or argv[1] not in ("check", "write"):
        sys.exit(__doc__)
    install, upgrade = scripts()
    with open(install, encoding="utf-8") as f:
        install_text = f.read()
    with open(upgrade, encoding="utf-8") as f:
        upgrade_text = f.read()
    stale = set(blocks(upgrade_text)) - set(blocks(install_text))
    if stale:
        sys.exit(f"family_blocks.py: {os.path.basename(upgrade)} has blocks the install script "
                 f"lacks: {', '.join(sorted(stale))}")
    want = rendered(install_text, upgrade_text)
    if argv[1] == "write":
        if want != upgrade_text:
            with open(upgrade, "w", encoding="utf-8") as f:
                f.write(want)
        return 0
    if want == upgrade_text:
        print(f"{len(blocks(install_text))} family blocks, the same in both scripts")
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        upgrade_text.splitlines(True), want.splitlines(True),
        os.path.relpath(upgrade, ROOT), "from " + os.path.relpath(install, ROOT)))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
