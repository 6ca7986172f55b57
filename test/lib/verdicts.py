"""The verdict lines that the suite's Python helpers print and
IdgenTest::verdicts turns into TAP checks: "ok<TAB>what", "not ok<TAB>what",
"#<TAB>note"."""


def say(ok, what):
    """Prints one verdict; returns ok so that callers can chain on it."""
    print(("ok" if ok else "not ok") + "\t" + " ".join(what.split()), flush=True)
    return ok


def note(text):
    """Prints text as notes, one a line."""
    for line in str(text).splitlines():
        print("#\t" + line, flush=True)
