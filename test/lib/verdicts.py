"""The verdict lines that the suite's Python helpers print and
IdgenTest::verdicts turns into TAP checks: first "plan<TAB>N", the number of
verdicts to come, then "ok<TAB>what", "not ok<TAB>what" and "#<TAB>note".
Exactly one plan line, before the first verdict (notes may precede it): a
helper that prints fewer verdicts than planned fails once for each missing one,
one with no plan or more verdicts than planned fails once."""


def plan(n):
    """Prints the plan line: n verdicts will follow."""
    print("plan\t%d" % n, flush=True)


def say(ok, what):
    """Prints one verdict; returns ok so that callers can chain on it."""
    print(("ok" if ok else "not ok") + "\t" + " ".join(what.split()), flush=True)
    return ok


def note(text):
    """Prints text as notes, one a line."""
    for line in str(text).splitlines():
        print("#\t" + line, flush=True)
