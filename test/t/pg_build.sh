#!/usr/bin/env bash
# test/pg-build.sh without building anything: the archive it reads from apt
# sources of each format, the majors it knows, reuse of a cached server, and
# its refusals (unknown major, bad argument, no archive, not root).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/t/lib.sh

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
    "$(bash test/pg-build.sh --known | tr '\n' ' ')" "15 17 18 19 "
is "15 is Debian's own package" "$(bash test/pg-build.sh 15)" /usr/lib/postgresql/15/bin/pg_config

bash test/pg-build.sh 99 >"$work/out" 2>"$work/err"
is "a major no suite carries: exit status 1" "$?" 1
check "the error names the major" grep -q "PostgreSQL 99: no Debian suite is known to carry it" "$work/err"
bash test/pg-build.sh eighteen >"$work/out" 2>"$work/err"
is "a bad argument: exit status 2" "$?" 2
check "a bad argument prints the usage" grep -q "^usage: .*MAJOR" "$work/err"

# A server already in the cache is reused, not rebuilt (nor fetched).
mkdir -p "$work/cache/pg/17/bin"
for tool in pg_config postgres; do
    printf '#!/bin/sh\nexit 0\n' >"$work/cache/pg/17/bin/$tool"
    chmod 755 "$work/cache/pg/17/bin/$tool"
done
is "a cached major is reused" "$(IDGEN_PG_CACHE=$work/cache bash test/pg-build.sh 17 2>/dev/null)" \
    "$work/cache/pg/17/bin/pg_config"
check "and nothing was fetched or built for it" test ! -e "$work/cache/build"

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
