# The benchmark's registry peer, sourced by bench.sh: pg_uuidv7's
# uuid_generate_v7(), from Debian's binary package postgresql-18-pg-uuidv7.
# Its pg_uuidv7.so is built against Debian unstable's PostgreSQL 18 but needs
# only an old C library, so it loads into the suite's own PostgreSQL 18 (the
# one test/pg-build.sh builds). peer_pg_uuidv7_prepare, run by bench.sh as
# root before the server starts (like the memory cgroup of part 6), fetches
# the package once through a private apt configuration under the suite's
# cache (never /etc/apt; the archive's address is the one test/pg-build.sh
# --archive reads from this machine's apt sources), checks its SHA-256 against
# the archive's Packages index, checks the GLIBC versions its .so needs
# against the host's, and copies the .so, the control file and the SQL
# scripts into the benchmarked server's pkglibdir and extension directory.
# Whatever stops it (no archive, no network, not in the index, a wrong
# checksum, a newer GLIBC, not root) makes the peer a counted skip naming the
# package; the run goes on without it. Sets:
#   PEER_PG_UUIDV7  "ready", "absent" (not part of this major's run) or "skipped"
#   PEER_PG_UUIDV7_NOTE  the package, version and SHA-256, or the reason
# shellcheck shell=bash

PEER_PG_UUIDV7_MAJOR=18
PEER_PG_UUIDV7_PACKAGE=postgresql-18-pg-uuidv7
PEER_PG_UUIDV7_VERSION=1.7.0-1   # pinned: a newer one in the index is a skip until this line moves
PEER_PG_UUIDV7=absent
PEER_PG_UUIDV7_NOTE=""

# peer_apt ARGS...: apt-get (or apt-cache, with PEER_APT_TOOL) with sources,
# lists and caches of our own under the cache directory.
peer_apt() {
    "${PEER_APT_TOOL:-apt-get}" -q \
        -o Dir::Etc::SourceList="$PEER_APT_DIR/sources.list" \
        -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists="$PEER_APT_DIR/lists" \
        -o Dir::State::Status=/var/lib/dpkg/status \
        -o Dir::Cache="$PEER_APT_DIR/cache" \
        -o APT::Sandbox::User=root \
        "$@"
}

# peer_skip REASON: the peer is a counted skip; returns 0 so the run goes on.
peer_skip() {
    PEER_PG_UUIDV7=skipped
    PEER_PG_UUIDV7_NOTE="$PEER_PG_UUIDV7_PACKAGE $PEER_PG_UUIDV7_VERSION: $1"
    echo "bench: SKIP 1 peer: $PEER_PG_UUIDV7_NOTE; uuid_generate_v7() is not measured" >&2
    return 0
}

# peer_glibc_ok SO: succeeds when every GLIBC_x.y version SO needs is at most
# the host's; prints the highest it needs.
peer_glibc_ok() {
    local needs host
    needs=$(objdump -T "$1" | grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' | sed 's/^GLIBC_//' | sort -uV | tail -n 1)
    host=$(getconf GNU_LIBC_VERSION | awk '{ print $2 }')
    echo "${needs:-none}"
    [[ -n $needs && -n $host ]] || return 1
    [[ $(printf '%s\n%s\n' "$needs" "$host" | sort -V | tail -n 1) == "$host" ]]
}

# peer_pg_uuidv7_prepare MAJOR PG_CONFIG: see the top of this file.
peer_pg_uuidv7_prepare() {
    local major=$1 pg_config=$2 cache uri arch deb sum index_sum glibc pkglib share x
    if ((major != PEER_PG_UUIDV7_MAJOR)); then
        PEER_PG_UUIDV7=absent
        PEER_PG_UUIDV7_NOTE="$PEER_PG_UUIDV7_PACKAGE is built for PostgreSQL $PEER_PG_UUIDV7_MAJOR; not part of a run on $major"
        echo "bench: peer pg_uuidv7: $PEER_PG_UUIDV7_NOTE" >&2
        return 0
    fi
    if [[ ${IDGEN_BENCH_EXISTING:-0} == 1 ]]; then
        # A server of the user's: measured if pg_uuidv7 is installed there
        # (setup_database looks), never installed into by the script.
        PEER_PG_UUIDV7=existing
        return 0
    fi
    ((EUID == 0)) || { peer_skip "fetching and installing it needs root"; return 0; }
    pkglib=$("$pg_config" --pkglibdir) share=$("$pg_config" --sharedir)
    [[ $pkglib != /usr/lib/postgresql/* ]] ||
        { peer_skip "the server is Debian's own ($pkglib): the bench installs only into the suite's builds"; return 0; }
    cache=${IDGEN_PG_CACHE:-/var/cache/idgen}
    PEER_APT_DIR="$cache/apt-peers"
    arch=$(dpkg --print-architecture)
    mkdir -p "$PEER_APT_DIR/lists/partial" "$PEER_APT_DIR/cache/archives/partial" "$cache/peers"
    deb="$cache/peers/${PEER_PG_UUIDV7_PACKAGE}_${PEER_PG_UUIDV7_VERSION//:/%3a}_$arch.deb"
    uri=$(bash "$REPO_DIR/test/pg-build.sh" --archive 2>/dev/null) ||
        { peer_skip "no Debian archive in this machine's apt sources"; return 0; }
    echo "deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri sid main" \
        >"$PEER_APT_DIR/sources.list.new"
    # The index is read again at most once a day; a failed update with an
    # earlier index at hand goes on with that one (the .deb is checked
    # against it either way).
    if ! cmp -s "$PEER_APT_DIR/sources.list.new" "$PEER_APT_DIR/sources.list" ||
        [[ -z $(find "$PEER_APT_DIR/lists" -maxdepth 1 -name '*_Packages*' -mtime -1 -print -quit) ]]; then
        mv "$PEER_APT_DIR/sources.list.new" "$PEER_APT_DIR/sources.list"
        echo "bench: peer pg_uuidv7: updating the private package list (sid, $arch)" >&2
        if ! peer_apt update >"$PEER_APT_DIR/update.log" 2>&1 ||
            grep -qE '^(E:|W: Failed to fetch)' "$PEER_APT_DIR/update.log"; then
            [[ -n $(find "$PEER_APT_DIR/lists" -maxdepth 1 -name '*_Packages*' -print -quit) ]] ||
                { peer_skip "the archive's package list could not be fetched: $(grep -E '^(E:|W: Failed)' "$PEER_APT_DIR/update.log" | head -n 1)"; return 0; }
            echo "bench: peer pg_uuidv7: update failed, using the earlier package list" >&2
        fi
    else
        rm -f "$PEER_APT_DIR/sources.list.new"
    fi
    index_sum=$(PEER_APT_TOOL=apt-cache peer_apt show "$PEER_PG_UUIDV7_PACKAGE=$PEER_PG_UUIDV7_VERSION" 2>/dev/null |
        sed -n 's/^SHA256: //p' | head -n 1)
    [[ -n $index_sum ]] ||
        { peer_skip "not in the archive's sid package index for $arch"; return 0; }
    if [[ ! -f $deb ]]; then
        echo "bench: peer pg_uuidv7: downloading $PEER_PG_UUIDV7_PACKAGE $PEER_PG_UUIDV7_VERSION" >&2
        (cd "$cache/peers" && peer_apt download "$PEER_PG_UUIDV7_PACKAGE=$PEER_PG_UUIDV7_VERSION") \
            >"$cache/peers/download.log" 2>&1 ||
            { rm -f "$deb"; peer_skip "download failed: $(grep -E '^(E:|W:)' "$cache/peers/download.log" | head -n 1)"; return 0; }
    fi
    sum=$(sha256sum "$deb" | cut -d' ' -f1)
    if [[ $sum != "$index_sum" ]]; then
        rm -f "$deb"
        peer_skip "SHA-256 $sum of the downloaded package is not the index's $index_sum (removed)"
        return 0
    fi
    x=$(mktemp -d)
    dpkg-deb -x "$deb" "$x" || { rm -rf "$x"; peer_skip "dpkg-deb could not extract $deb"; return 0; }
    local so="$x/usr/lib/postgresql/$major/lib/pg_uuidv7.so" ext="$x/usr/share/postgresql/$major/extension"
    if [[ ! -f $so || ! -f $ext/pg_uuidv7.control ]] || ! compgen -G "$ext/pg_uuidv7--*.sql" >/dev/null; then
        rm -rf "$x"; peer_skip "the package lacks pg_uuidv7.so, pg_uuidv7.control or its SQL scripts"; return 0
    fi
    if ! glibc=$(peer_glibc_ok "$so"); then
        rm -rf "$x"
        peer_skip "pg_uuidv7.so needs GLIBC_$glibc, more than this host's $(getconf GNU_LIBC_VERSION); not loaded"
        return 0
    fi
    install -m 755 "$so" "$pkglib/pg_uuidv7.so" &&
        install -m 644 "$ext/pg_uuidv7.control" "$ext"/pg_uuidv7--*.sql "$share/extension/" ||
        { rm -rf "$x"; peer_skip "installing into $pkglib and $share/extension failed"; return 0; }
    rm -rf "$x"
    PEER_PG_UUIDV7=ready
    PEER_PG_UUIDV7_NOTE="$PEER_PG_UUIDV7_PACKAGE $PEER_PG_UUIDV7_VERSION ($(basename "$deb"), SHA-256 $sum, as the archive's index lists it; pg_uuidv7.so needs GLIBC_$glibc, the host has $(getconf GNU_LIBC_VERSION))"
    echo "bench: peer pg_uuidv7: installed into $pkglib: $PEER_PG_UUIDV7_NOTE" >&2
}
