"""The verdict lines that test/t's Python helpers print and lib.sh's
tap_verdicts turns into TAP: "ok<TAB>what", "not ok<TAB>what", "#<TAB>note"."""


def say(ok, what):
    """Prints one verdict; returns ok so that callers can chain on it."""
    print(("ok" if ok else "not ok") + "\t" + " ".join(what.split()), flush=True)
    return ok


def note(text):
    """Prints text as notes, one a line."""
    for line in str(text).splitlines():
        print("#\t" + line, flush=True)
