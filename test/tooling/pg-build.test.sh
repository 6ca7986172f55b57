#!/usr/bin/env bash
# test/pg-build.sh without building anything: the archive it reads from apt
# sources of each format, the majors it knows, reuse of a cached server, and
# its refusals (unknown major, bad argument, no archive, not root).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh

work=$(mktemp -d /tmp/idgen-pg-build.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

# apt_dir NAME: an empty stand-in for /etc/apt.
apt_dir() {
    mkdir -p "$work/$1/sources.list.d"
    echo "$work/$1"
}

# deb822: the security stanza comes first and must be passed over.
etc=$(apt_dir deb822)
cat >"$etc/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://security.example/debian-security
Suites: bookworm-security
Components: main

Types: deb
URIs: http://mirror.example/debian/
Suites: bookworm bookworm-updates
Components: main
EOF
is "deb822 sources: the first non-security Debian archive, without a trailing slash" \
    "$(IDGEN_APT_ETC=$etc bash test/pg-build.sh --archive)" "http://mirror.example/debian"

# one-line format, next to a deb822 file that has only other archives.
etc=$(apt_dir oneline)
cat >"$etc/sources.list.d/other.sources" <<'EOF'
Types: deb
URIs: http://packages.example/node_20.x
Suites: nodistro
Components: main
EOF
cat >"$etc/sources.list" <<'EOF'
# a comment
deb http://security.example/debian-security bookworm-security main
deb [arch=amd64] http://oneline.example/debian bookworm main
EOF
is "one-line sources.list: the Debian archive, options and security lines passed over" \
    "$(IDGEN_APT_ETC=$etc bash test/pg-build.sh --archive)" "http://oneline.example/debian"

etc=$(apt_dir none)
cp "$work/oneline/sources.list.d/other.sources" "$etc/sources.list.d/"
IDGEN_APT_ETC=$etc bash test/pg-build.sh --archive >"$work/out" 2>"$work/err"
is "no Debian archive in the sources: exit status 1" "$?" 1
check "the error names the directory it read" grep -q "no Debian archive found in the apt sources under $etc" "$work/err"

is "--known lists 15 and the majors of Debian's newer suites, oldest first" \
    "$(bash test/pg-build.sh --known | tr '\n' ' ')" "15 16 17 18 19 "
is "--required lists the supported majors" "$(bash test/pg-build.sh --required | tr '\n' ' ')" "15 17 18 "
is "15 is Debian's own package" "$(bash test/pg-build.sh 15)" /usr/lib/postgresql/15/bin/pg_config
check "--info 15 names Debian's package and its version" \
    bash -c "bash test/pg-build.sh --info 15 | grep -qx 'version=$(dpkg-query -W -f='${Version}' postgresql-15)'"

bash test/pg-build.sh 99 >"$work/out" 2>"$work/err"
is "a major no suite carries: exit status 1" "$?" 1
check "the error names the major" grep -q "PostgreSQL 99: no Debian suite is known to carry it" "$work/err"
bash test/pg-build.sh eighteen >"$work/out" 2>"$work/err"
is "a bad argument: exit status 2" "$?" 2
check "a bad argument prints the usage" grep -q "^usage: .*MAJOR" "$work/err"

# A server already in the cache is reused, not rebuilt (nor fetched): the
# vendored version when the source directory has one, else the newest build.
key=$(bash test/pg-build.sh --cache-key)
for version in 17.1-1 17.2-1; do
    mkdir -p "$work/cache/pg/17/$version-$key/bin"
    for tool in pg_config postgres; do
        printf '#!/bin/sh\nexit 0\n' >"$work/cache/pg/17/$version-$key/bin/$tool"
        chmod 755 "$work/cache/pg/17/$version-$key/bin/$tool"
    done
done
mkdir -p "$work/no-sources" "$work/sources-17.1"
touch "$work/sources-17.1/postgresql-17_17.1-1.dsc"
is "a cached major is reused, the newest version when nothing is vendored" \
    "$(IDGEN_PG_SOURCES=$work/no-sources IDGEN_PG_CACHE=$work/cache bash test/pg-build.sh 17 2>/dev/null)" \
    "$work/cache/pg/17/17.2-1-$key/bin/pg_config"
is "the vendored version's build when the source directory has one" \
    "$(IDGEN_PG_SOURCES=$work/sources-17.1 IDGEN_PG_CACHE=$work/cache bash test/pg-build.sh 17 2>/dev/null)" \
    "$work/cache/pg/17/17.1-1-$key/bin/pg_config"
check "and nothing was fetched or built for it" test ! -e "$work/cache/build"

# An apt configuration whose only archive refuses every connection.
etc=$(apt_dir blocked)
echo "deb http://127.0.0.1:1/debian bookworm main" >"$etc/sources.list"

# A vendored source package with one byte changed is refused, naming the file,
# and nothing else is tried. The real vendored 17 when it is there, else one
# made here the same way (a .dsc listing its files' SHA-256).
tampered="$work/tampered"
mkdir -p "$tampered"
vendored=$(realpath -m ../shared/vendor/postgresql)
if compgen -G "$vendored/postgresql-17_*.dsc" >/dev/null; then
    cp "$vendored"/postgresql-17_* "$tampered/"
else
    mkdir -p "$work/made/postgresql-17.0"
    echo 'a PostgreSQL source stand-in' >"$work/made/postgresql-17.0/README"
    tar -cjf "$tampered/postgresql-17_17.0.orig.tar.bz2" -C "$work/made" postgresql-17.0
    {
        echo "Format: 3.0 (quilt)"
        echo "Source: postgresql-17"
        echo "Version: 17.0-1"
        echo "Checksums-Sha256:"
        echo " $(sha256sum "$tampered/postgresql-17_17.0.orig.tar.bz2" | cut -d' ' -f1) 1 postgresql-17_17.0.orig.tar.bz2"
    } >"$tampered/postgresql-17_17.0-1.dsc"
fi
orig=$(compgen -G "$tampered/postgresql-17_*.orig.tar.bz2")
IDGEN_PG_SOURCES=$tampered IDGEN_PG_CACHE=$work/cache-good IDGEN_APT_ETC=$etc \
    bash test/pg-build.sh --fetch 17 "$work/fetched-good" >"$work/out" 2>"$work/err"
is "an intact vendored source package is taken: exit status 0" "$?" 0
check "and recorded as vendored, with the tarball's SHA-256" \
    grep -qx "orig_sha256=$(sha256sum "$orig" | cut -d' ' -f1)" "$work/out"
check "source=vendored" grep -qx "source=vendored" "$work/out"
byte=$(od -An -tu1 -j 100 -N 1 "$orig")
# shellcheck disable=SC2059 # the format is the escaped byte
printf "\\x$(printf %02x $(((byte + 1) % 256)))" | dd of="$orig" bs=1 seek=100 count=1 conv=notrunc status=none
check "one byte of the tarball is changed" test "$(od -An -tu1 -j 100 -N 1 "$orig")" -ne "$byte"
IDGEN_PG_SOURCES=$tampered IDGEN_PG_CACHE=$work/cache-tampered IDGEN_APT_ETC=$etc \
    bash test/pg-build.sh 17 >"$work/out" 2>"$work/err"
is "a vendored tarball with one byte changed: exit status 1" "$?" 1
check "the error names the file and both checksums" \
    grep -q "SHA-256 mismatch: $orig is [0-9a-f]\{64\}, its .dsc says [0-9a-f]\{64\}" "$work/err"
check "and no other source was tried" bash -c "! grep -q 'archive\|pinned' '$work/err'"
check "nor anything built or installed" test ! -e "$work/cache-tampered/pg"

# No vendored source and an archive that does not answer: unavailable (exit 3),
# naming each source tried and what it answered.
IDGEN_PG_SOURCES=$work/no-sources IDGEN_PG_CACHE=$work/cache-blocked IDGEN_APT_ETC=$etc \
    bash test/pg-build.sh 17 >"$work/out" 2>"$work/err"
is "no source answers: exit status 3" "$?" 3
check "the vendored directory is named as tried" \
    grep -qx "  vendored ($work/no-sources): no postgresql-17_\*.dsc there" "$work/err"
check "the archive is named as tried, with its answer" \
    grep -q "^  archive: apt-get update of the private source lists failed: .*127.0.0.1:1" "$work/err"
check "the pinned version is named as tried, with its answer" \
    grep -q "^  pinned: postgresql-17_17.11-0+deb13u1 from the pool: .*Could not connect" "$work/err"
check "a major with nothing pinned says so" bash -c \
    "IDGEN_PG_SOURCES=$work/no-sources IDGEN_PG_CACHE=$work/cache-blocked IDGEN_APT_ETC=$etc \
         bash test/pg-build.sh 19 2>&1 >/dev/null | grep -q '^  pinned: no known-good version of 19 is pinned'"

# Building needs root; anyone else is told so before anything is fetched.
if [[ $EUID -eq 0 ]]; then
    mkdir -p "$work/empty-cache" && chown postgres: "$work/empty-cache"
    runuser -u postgres -- env IDGEN_PG_CACHE="$work/empty-cache" bash test/pg-build.sh 18 \
        >"$work/out" 2>"$work/err"
    is "an unbuilt major asked for by a non-root user: exit status 1" "$?" 1
    check "the error says to run as root" grep -q "PostgreSQL 18 is not built yet; run as root to build it" "$work/err"
    check "and nothing was fetched" test -z "$(ls -A "$work/empty-cache")"
fi
tap_done
