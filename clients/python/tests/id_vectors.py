"""The extension's vectors file, test/data/id_vectors.json (docs/development.md
of the extension): every family's layout and its valid and refused cases, as
the C++ cores answer them. The tests run from the checkout (clients/python/tests),
so the file is ../../test/data/id_vectors.json from the package;
IDGEN_VECTORS names another copy."""
import json
import os

PATH = os.environ.get("IDGEN_VECTORS") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "test", "data", "id_vectors.json")

with open(PATH, encoding="utf-8") as _f:
    VECTORS = json.load(_f)

FAMILIES = VECTORS["families"]


def cases(family, form, ok=None, not_ascii=None):
    """The cases of a family's form, those with the given ok and not_ascii (None: either)."""
    return [c for c in FAMILIES[family]["cases"][form]
            if (ok is None or c.get("ok", True) == ok)
            and (not_ascii is None or c.get("not_ascii", False) == not_ascii)]


def ids(listed):
    """pytest ids: each case's what."""
    return [c["what"] for c in listed]


def widths(family):
    """The bit widths of a family's fields, from the most significant."""
    return tuple(f["bits"] for f in FAMILIES[family]["fields"])
