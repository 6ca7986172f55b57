# The bash that remains beside the test library (docs/development.md, "The test
# library"): what the root-only preparations in test/lib/prepare/ share, and
# test/run-tests.sh's guard of counted checks. No test prints TAP from bash any
# more; checks are Test::More's (IdgenTest.pm).

# idgen_files PG_CONFIG: idgen's installed files and directories under that
# server (library, JIT bitcode, control file and SQL scripts), one a line.
idgen_files() {
    local lib share
    lib=$("$1" --pkglibdir) share=$("$1" --sharedir)/extension
    find "$lib" "$lib/bitcode" "$share" -mindepth 1 -maxdepth 1 -name 'idgen*' 2>/dev/null | sort
}

# save_idgen_files PG_CONFIG TARFILE and restore_idgen_files PG_CONFIG TARFILE:
# a test that installs or removes idgen on a shared server puts back what was
# there (the suite's own `make install`, which later tests need).
save_idgen_files() {
    local files
    mapfile -t files < <(idgen_files "$1")
    if ((${#files[@]})); then tar -cPf "$2" "${files[@]}"; else tar -cPf "$2" -T /dev/null; fi
}
restore_idgen_files() {
    idgen_files "$1" | xargs -r rm -rf --
    tar -xPf "$2"
}

# saved_idgen_digests TARFILE: "saved<TAB>SHA-256<TAB>path" for each file in a
# save_idgen_files TARFILE, for the test that checks the files it put back
# (IdgenTest::idgen_files_digest prints the installed files the same way).
saved_idgen_digests() {
    local dir
    dir=$(mktemp -d /tmp/idgen-saved.XXXXXX) || return 1
    # Without -P the absolute paths land under $dir.
    tar -xf "$1" -C "$dir" 2>/dev/null
    (cd "$dir" && find . -type f -print0 | xargs -0 -r sha256sum) |
        sed -E 's,^([0-9a-f]+)  \./,saved\t\1\t/,' | LC_ALL=C sort -t$'\t' -k3
    rm -rf "$dir"
}

# dpkg_waiting ARGS...: dpkg ARGS, waiting up to 2 minutes for the dpkg lock
# when another apt-get or dpkg holds it (the packaging test's root-only steps).
dpkg_waiting() {
    local try out
    for ((try = 0; try < 60; try++)); do
        out=$(dpkg "$@" 2>&1) && { echo "$out"; return 0; }
        echo "$out"
        grep -qE '(is|was) locked' <<<"$out" || return 1
        sleep 2
    done
    return 1
}

# prepare_needs_debian_15_root WHY_15 WHAT_AS_ROOT: for a root-only preparation
# (test/lib/prepare/) that works on Debian's PostgreSQL 15 as root alone: on
# another server, or as another user, it exits 3 with the reason.
debian_pg_config=/usr/lib/postgresql/15/bin/pg_config
prepare_needs_debian_15_root() {
    if [[ ${PG_CONFIG:-$debian_pg_config} != "$debian_pg_config" ]]; then
        echo "$1; this run uses $PG_CONFIG"
        exit 3
    fi
    if [[ $EUID -ne 0 ]]; then
        echo "needs root ($2)"
        exit 3
    fi
}

# hold_to_inventory INVENTORY MAJOR FILE TAPLOG: holds FILE's TAP output on
# MAJOR to the check inventory (test/inventory.py hold): sets held_missing to
# the number of checks it failed by, each printed as a "not ok" line's reason.
# A guard that cannot tell (no inventory, a malformed one, inventory.py
# failing) fails by one: a broken guard must not pass a run.
hold_to_inventory() {
    local out missing
    held_missing=0
    out=$(python3 "$(dirname "${BASH_SOURCE[0]}")/../inventory.py" hold "$@" 2>&1)
    missing=$(sed -n 's/^missing \([0-9][0-9]*\)$/\1/p' <<<"$out")
    if [[ -z $missing ]]; then
        echo "not ok - $3: the check inventory's guard failed: $(tr '\n' ' ' <<<"$out")"
        held_missing=1
        return
    fi
    grep '^# ' <<<"$out"
    if ((missing > 0)); then
        echo "not ok - $3: $missing of the checks the inventory ($1) holds for it on $2 did not run"
        held_missing=$missing
    fi
}
