"""The verdict lines that the suite's Python helpers print and
IdgenTest::verdicts turns into TAP checks: first "plan<TAB>N", the number of
verdicts to come, then "ok<TAB>what", "not ok<TAB>what" and "#<TAB>note".
Exactly one plan line, before the first verdict (notes may precede it): a
helper that prints fewer verdicts than planned fails once for each missing one,
one with no plan or more verdicts than planned fails once. verdicts.mjs
prints the same lines for the Node helpers."""


def plan(n):
    """Prints the plan line: n verdicts will follow."""
    print("plan\t%d" % n, flush=True)


def say(ok, what, fold=True):
    """Prints one verdict, its runs of whitespace folded to one blank unless
    fold is false (for a description that quotes text holding them); returns
    ok so that callers can chain on it."""
    if fold:
        what = " ".join(what.split())
    print(("ok" if ok else "not ok") + "\t" + what, flush=True)
    return ok


def note(text):
    """Prints text as notes, one a line."""
    for line in str(text).splitlines():
        print("#\t" + line, flush=True)
