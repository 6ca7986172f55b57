#!/usr/bin/env bash
# Prints the pg_config of a PostgreSQL major to build and test idgen against,
# building that server first if it is not cached yet.
#
#   bash test/pg-build.sh 18          # -> /var/cache/idgen/pg/18/bin/pg_config
#   bash test/pg-build.sh --known     # majors we know where to find, one a line
#   bash test/pg-build.sh --archive   # the Debian archive read from this machine's apt sources
#
# Exits 3 when the archive lists a major's source package but cannot serve it.
#
# 15 is Debian 12's own package. Other majors come from the source packages of
# Debian's newer suites, fetched with `apt-get source --download-only` through
# a private apt configuration under $IDGEN_PG_CACHE (never /etc/apt), and built
# once with OpenSSL and without ICU, so that the tests also cover a server that
# does not load libstdc++ for us. The archive's address comes from this
# machine's own apt sources. Progress goes to stderr; a failure names the
# version, the step and the tail of its log.
set -euo pipefail

cache=${IDGEN_PG_CACHE:-/var/cache/idgen}
apt_etc=${IDGEN_APT_ETC:-/etc/apt}  # read only; another directory for tests
apt_dir="$cache/apt"
# Majors we know of, and the suite whose source package has each one.
declare -A suite_of=([17]=trixie [18]=sid [19]=experimental)
# Contrib modules the tests and the benchmark use.
contrib_modules=(pgcrypto pgstattuple pageinspect)

say() { echo "pg-build: $*" >&2; }

# fail MAJOR STEP LOG: reports which step of which version failed, with the log's tail.
fail() {
    say "PostgreSQL $1: $2 failed"
    if [[ -n ${3:-} && -f $3 ]]; then
        say "last lines of $3:"
        tail -n 30 "$3" >&2
    fi
    exit 1
}

# archive_uri: the first non-security Debian archive in this machine's apt sources.
archive_uri() {
    local uri
    uri=$(
        {
            # deb822 .sources files: the URIs of stanzas whose suites are not -security.
            for f in "$apt_etc"/sources.list.d/*.sources; do
                [[ -f $f ]] || continue
                awk 'BEGIN { RS = ""; FS = "\n" }
                     { uris = ""; suites = ""; types = ""
                       for (i = 1; i <= NF; i++) {
                         if ($i ~ /^URIs:/) { uris = $i; sub(/^URIs:[ \t]*/, "", uris) }
                         if ($i ~ /^Suites:/) { suites = $i }
                         if ($i ~ /^Types:/) { types = $i } }
                       if (types ~ /deb/ && suites ~ /bookworm|trixie|sid|stable/ && suites !~ /-security/ && uris != "")
                         { split(uris, u, /[ \t]+/); print u[1] } }' "$f"
            done
            # one-line sources.list entries.
            for f in "$apt_etc"/sources.list "$apt_etc"/sources.list.d/*.list; do
                [[ -f $f ]] || continue
                awk '$1 ~ /^deb(-src)?$/ && $0 !~ /-security/ && $0 ~ /debian/ {
                       for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }' "$f"
            done
        } | grep -i debian | head -n 1
    )
    [[ -n $uri ]] || return 1
    echo "${uri%/}"
}

# private_apt ARGS...: apt-get with sources, lists and caches of our own.
private_apt() {
    apt-get -q \
        -o Dir::Etc::SourceList="$apt_dir/sources.list" \
        -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists="$apt_dir/lists" \
        -o Dir::State::Status=/var/lib/dpkg/status \
        -o Dir::Cache="$apt_dir/cache" \
        -o APT::Sandbox::User=root \
        "$@"
}

# refresh_sources: writes the private sources list and updates it at most once a day.
refresh_sources() {
    local uri suite
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    uri=$(archive_uri) || { say "no Debian archive found in the apt sources under $apt_etc"; exit 1; }
    {
        for suite in trixie sid experimental; do
            echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main"
        done
    } >"$apt_dir/sources.list.new"
    if ! cmp -s "$apt_dir/sources.list.new" "$apt_dir/sources.list" ||
        [[ -z $(find "$apt_dir/lists" -maxdepth 1 -name '*Sources*' -mtime -1 -print -quit) ]]; then
        mv "$apt_dir/sources.list.new" "$apt_dir/sources.list"
        say "updating the private source lists"
        private_apt update >"$apt_dir/update.log" 2>&1 || fail all "apt-get update (private sources)" "$apt_dir/update.log"
    else
        rm -f "$apt_dir/sources.list.new"
    fi
}

# install_build_deps: the Debian 12 packages a server build needs.
install_build_deps() {
    bash "$(dirname "${BASH_SOURCE[0]}")/setup.sh" gcc make perl bison flex pkg-config libssl-dev \
        zlib1g-dev libreadline-dev dpkg-dev xz-utils bzip2 >&2
}

# build MAJOR: fetches, configures, builds and installs one major into $cache/pg/MAJOR.
build() {
    local major=$1 prefix="$cache/pg/$1" work="$cache/build/$1" log orig
    local suite=${suite_of[$major]:-}
    [[ -n $suite ]] || { say "PostgreSQL $major: no Debian suite is known to carry it"; exit 1; }
    [[ $EUID -eq 0 ]] || { say "PostgreSQL $major is not built yet; run as root to build it"; exit 1; }
    install_build_deps
    refresh_sources
    rm -rf "$work" && mkdir -p "$work"
    log="$work/fetch.log"
    say "PostgreSQL $major: fetching the source package from $suite"
    # A package the archive lists but cannot serve is unavailable (exit 3), not a fault.
    if ! (cd "$work" && private_apt source --download-only "postgresql-$major/$suite") >"$log" 2>&1; then
        say "PostgreSQL $major is unavailable: apt-get source postgresql-$major ($suite) failed"
        tail -n 5 "$log" >&2
        exit 3
    fi
    orig=$(ls "$work"/postgresql-"$major"_*.orig.tar.* 2>/dev/null | head -n 1)
    [[ -n $orig ]] || fail "$major" "finding the upstream tarball in the source package" "$log"
    tar -xf "$orig" -C "$work" >"$log" 2>&1 || fail "$major" "unpacking $orig" "$log"
    local src
    src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'postgresql-*' | head -n 1)
    log="$work/configure.log"
    say "PostgreSQL $major: configuring $(basename "$src") (OpenSSL, no ICU)"
    (cd "$src" && ./configure --prefix="$prefix" --with-openssl --without-icu --without-llvm) >"$log" 2>&1 ||
        fail "$major" "configure" "$log"
    log="$work/build.log"
    say "PostgreSQL $major: building (several minutes)"
    make -C "$src" -j"$(nproc)" -s >"$log" 2>&1 || fail "$major" "make" "$log"
    local m
    for m in "${contrib_modules[@]}"; do
        make -C "$src/contrib/$m" -j"$(nproc)" -s >>"$log" 2>&1 || fail "$major" "make contrib/$m" "$log"
    done
    log="$work/install.log"
    rm -rf "$prefix"
    make -C "$src" install -s >"$log" 2>&1 || fail "$major" "make install" "$log"
    for m in "${contrib_modules[@]}"; do
        make -C "$src/contrib/$m" install -s >>"$log" 2>&1 || fail "$major" "make install contrib/$m" "$log"
    done
    # The unprivileged test user installs nothing, but reads and runs all of it.
    chmod -R a+rX "$prefix"
    rm -rf "$work"
    say "PostgreSQL $major: installed in $prefix"
}

# pg_config_of MAJOR: the pg_config for that major, building the server if needed.
pg_config_of() {
    local major=$1
    if [[ $major == 15 ]]; then
        echo /usr/lib/postgresql/15/bin/pg_config
        return
    fi
    [[ -x "$cache/pg/$major/bin/pg_config" && -x "$cache/pg/$major/bin/postgres" ]] || build "$major" >&2
    echo "$cache/pg/$major/bin/pg_config"
}

# known: every major we know where to find, oldest first.
known() {
    { echo 15; printf '%s\n' "${!suite_of[@]}"; } | sort -n
}

case "${1:-}" in
    --known) known ;;
    --archive) archive_uri || { say "no Debian archive found in the apt sources under $apt_etc"; exit 1; } ;;
    [0-9][0-9]) pg_config_of "$1" ;;
    *) echo "usage: $0 MAJOR | --known | --archive" >&2; exit 2 ;;
esac
