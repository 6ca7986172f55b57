#!/usr/bin/env bash
# Prints the pg_config of a PostgreSQL major to build and test idgen against,
# building that server first if it is not cached yet.
#
#   bash test/pg-build.sh 18            # -> /var/cache/idgen/pg/18/18.6-3-<flags>/bin/pg_config
#   bash test/pg-build.sh --known       # majors we try, one a line
#   bash test/pg-build.sh --required    # majors that must be tested (the supported ones)
#   bash test/pg-build.sh --info 18     # where the cached build of 18 came from (key=value lines)
#   bash test/pg-build.sh --fetch 18 DIR  # obtains and verifies the source only, into DIR
#   bash test/pg-build.sh --archive     # the Debian archive read from this machine's apt sources
#   bash test/pg-build.sh --cache-key   # the configure flags' part of a cached build's directory name
#   bash test/pg-build.sh --source 15   # a major whose test server is Debian's package, built from
#                                       # source as the others are (pg_upgrade.pl's old cluster)
#   bash test/pg-build.sh --info-source 15   # where that build came from
#   bash test/pg-build.sh --optional    # majors tested when they can be had (see run-tests.sh)
#   bash test/pg-build.sh --root 19     # the root a major's tests run in (exit 1: none)
#   bash test/pg-build.sh --build-deps  # installs the Debian packages a build needs, and debootstrap
#
# Making a server holds a lock of that major ($IDGEN_PG_CACHE/build/.lock-MAJOR)
# until the script exits, and looks in the cache again once it has it: a second
# pg-build.sh for the same major (a pass of test/run-tests.sh while its
# background preparation is making that server) waits, then takes the result.
# 15 is Debian 12's own package. 19 is Debian's binary packages in a root of
# their own (below). Every other major, and 15 under --source, is
# built from a Debian source package, taken from the first of these that has it:
#   1. vendored: a directory of source packages, $IDGEN_PG_SOURCES (default
#      ../shared/vendor/postgresql beside the checkout). Every file is checked
#      against the SHA-256 its .dsc lists before anything is unpacked; a
#      mismatch stops the build and names the file (exit 1), it never falls
#      back. A file absent from the directory does fall back, saying so.
#   2. archive: the version Debian's newer suite lists today, through
#      `apt-get source --download-only` with a private apt configuration under
#      $IDGEN_PG_CACHE (never /etc/apt).
#   3. pinned: a known-good version fetched from the archive's pool by its
#      exact file names, its .dsc checked against a SHA-256 kept below; for
#      the days when the index lists a version whose files are not served yet.
# The archive's address comes from this machine's own apt sources. When no
# source answers, the exit status is 3 and stderr names each source tried and
# what it answered. A failed build names the version, the step and its log.
#
# Builds are cached under $IDGEN_PG_CACHE/pg/MAJOR/VERSION-FLAGS, keyed by the
# package version and the configure flags; each holds idgen-build.env, the
# record that --info prints.
#
# A major served only as binary packages that need a newer C library than
# Debian 12's (19: experimental's postgresql-19 needs libc6 >= 2.43) runs its
# tests in a root of its own: debootstrap of a newer suite (root_suite_of),
# the packages from another one by an apt pin (root_packages_from), and what
# its tests need (root_packages). The root is cached as
# $IDGEN_PG_CACHE/pg/MAJOR/VERSION-ROOTKEY, keyed by the server's package
# version and the root's contents; its idgen-build.env lists the packages'
# SHA-256. test/run-tests.sh runs the major's pass inside it
# (test/lib/pg-root.sh). Inside, pg-build.sh answers for that major from the
# root's own /idgen-build.env. A root that cannot be made (no archive, a
# package not served) is unavailable: exit 3, naming what was tried.
set -euo pipefail

repo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${IDGEN_PG_CACHE:-/var/cache/idgen}
apt_etc=${IDGEN_APT_ETC:-/etc/apt}  # read only; another directory for tests
apt_dir="$cache/apt"
sources_dir=${IDGEN_PG_SOURCES:-$(realpath -m "$repo_dir/../shared/vendor/postgresql")}

# Majors we try, the Debian suite whose source package has each, and the
# supported ones, which a CI run may not skip.
declare -A suite_of=([16]="" [17]=trixie [18]=sid)
required_majors=(15 17 18)
# Majors that are not supported but whose tests run and count whenever their
# server can be had; when it cannot, their test files count as skipped, under
# CI=true too (test/matrix.py).
optional_majors=(19)
# Majors tested in a debootstrap root: its suite, the suite the server's
# packages come from (pinned above the root's own), and those packages.
declare -A root_suite_of=([19]=unstable)
declare -A root_packages_from=([19]=experimental)
# What the tests of a root's pass need besides the server: the build (-Werror
# with the root's g++), pg_regress and PostgreSQL::Test::Cluster (which
# postgresql-client-NN ships), the test library's Python helpers (psycopg),
# the moved clocks (libfaketime), the build checks (nm, readelf).
root_packages=(make g++ binutils perl libipc-run-perl python3 python3-psycopg faketime procps)
# Majors tested on Debian's package that --source also builds from source, and
# the suite whose source package has each: Debian 12's 15.20 package stores a
# column option (pg_attver) that upstream 17 and 18 do not know, so pg_upgrade
# from it fails; test/integration/pg_upgrade.pl upgrades from a 15 built from
# the vendored source instead.
declare -A source_suite_of=([15]=bookworm)
# Known-good source packages (source 3), the SHA-256 of each .dsc.
declare -A pinned_version=([17]=17.11-0+deb13u1 [18]=18.6-3)
declare -A pinned_dsc_sha256=(
    [17]=bf148ae423a982707c3f60672c3a072ef62b701bd9f5df847d9f4b8c9b3e3b18
    [18]=a4254c4548ebeea683832de193460ee8a9f1271418e884803b44ded1aead1776
)
# Configure flags: OpenSSL, no ICU (so the tests also cover a server that does
# not load libstdc++ for us), no JIT. Part of the cache key.
# --enable-tap-tests installs PostgreSQL::Test::Cluster under lib/pgxs, which
# the suite's TAP tests drive servers with.
configure_flags=(--with-openssl --without-icu --without-llvm --enable-tap-tests)
# Contrib modules the tests and the benchmark use.
contrib_modules=(pgcrypto pgstattuple pageinspect pg_walinspect test_decoding amcheck)
flags_key=$(printf '%s ' "${configure_flags[@]}" "${contrib_modules[@]}" | sha256sum | cut -c1-8)

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

# refresh_sources URI: writes the private sources list and updates it at most once a day.
refresh_sources() {
    local uri=$1 suite
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    for suite in trixie sid experimental; do
        echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main"
    done >"$apt_dir/sources.list.new"
    if ! cmp -s "$apt_dir/sources.list.new" "$apt_dir/sources.list" ||
        [[ -z $(find "$apt_dir/lists" -maxdepth 1 -name '*Sources*' -mtime -1 -print -quit) ]]; then
        mv "$apt_dir/sources.list.new" "$apt_dir/sources.list"
        say "updating the private source lists"
        # apt-get update exits 0 when an index could not be fetched; its log tells.
        private_apt update >"$apt_dir/update.log" 2>&1 &&
            ! grep -qE '^(E:|W: Failed to fetch)' "$apt_dir/update.log" || {
            rm -f "$apt_dir/sources.list"  # so that the next run tries again
            return 1
        }
    else
        rm -f "$apt_dir/sources.list.new"
    fi
}

# dsc_files DSC: "SHA256 NAME" for each file the .dsc lists.
dsc_files() {
    awk '/^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 } on && NF == 3 { print $1, $3 }' "$1"
}

# verify_dsc DSC: every file the .dsc lists is beside it with that SHA-256.
# Prints the first file that is absent or differs, with what was found.
verify_dsc() {
    local dsc=$1 dir sum name got
    dir=$(dirname "$dsc")
    [[ -n $(dsc_files "$dsc") ]] || { echo "$dsc lists no SHA-256 checksums"; return 1; }
    while read -r sum name; do
        [[ -f $dir/$name ]] || { echo "absent: $dir/$name"; return 2; }
        got=$(sha256sum "$dir/$name" | cut -d' ' -f1)
        [[ $got == "$sum" ]] || { echo "SHA-256 mismatch: $dir/$name is $got, its .dsc says $sum"; return 1; }
    done < <(dsc_files "$dsc")
}

# newest_dsc DIR MAJOR: the highest-versioned postgresql-MAJOR .dsc in DIR.
newest_dsc() {
    local found
    found=$(compgen -G "$1/postgresql-$2_*.dsc" | sort -V | tail -n 1) || true
    [[ -n $found ]] && echo "$found"
}

# version_of DSC: the Debian version a .dsc file name carries.
version_of() {
    local name
    name=$(basename "$1" .dsc)
    echo "${name#*_}"
}

# record SRC_DIR SOURCE WHERE: the facts --info prints about a fetched source, as key=value lines.
record() {
    local dsc orig
    dsc=$(newest_dsc "$1" "$major")
    orig=$(compgen -G "$1/postgresql-${major}_*.orig.tar.*" | head -n 1)
    echo "major=$major"
    echo "version=$(version_of "$dsc")"
    echo "source=$2"
    echo "from=$3"
    echo "orig=$(basename "$orig")"
    echo "orig_sha256=$(sha256sum "$orig" | cut -d' ' -f1)"
    echo "configure=${configure_flags[*]}"
    echo "contrib=${contrib_modules[*]}"
}

# tried ANSWER: what one source answered, said now and kept for the closing list.
tried() {
    answers+=("$1")
    say "PostgreSQL $major: $1"
}

# fetch MAJOR DIR: puts a verified source package of MAJOR into DIR and writes
# DIR/record.env. Tries the sources in order; exit 3 when none answers.
fetch() {
    major=$1
    local dir=$2 answers=() dsc status answer uri suite version name sum log
    mkdir -p "$dir"
    log="$dir/fetch.log"
    : >"$log"

    # 1. vendored
    dsc=$(newest_dsc "$sources_dir" "$major") || true
    if [[ -z $dsc ]]; then
        tried "vendored ($sources_dir): no postgresql-${major}_*.dsc there"
    else
        status=0
        answer=$(verify_dsc "$dsc") || status=$?
        if ((status == 1)); then
            say "PostgreSQL $major: the vendored source package is not what its .dsc says: $answer"
            exit 1
        elif ((status == 2)); then
            tried "vendored ($dsc): $answer"
        else
            while read -r sum name; do cp "$(dirname "$dsc")/$name" "$dir/"; done < <(dsc_files "$dsc")
            cp "$dsc" "$dir/"
            say "PostgreSQL $major: vendored source package $(basename "$dsc"), checksums verified"
            record "$dir" vendored "$dsc" >"$dir/record.env"
            return 0
        fi
    fi

    if ! uri=$(archive_uri); then
        tried "archive: no Debian archive found in the apt sources under $apt_etc"
        tried "pinned: no Debian archive found in the apt sources under $apt_etc"
    else
        # 2. archive
        suite=${suite_of[$major]-${source_suite_of[$major]-}}
        if ! refresh_sources "$uri"; then
            tried "archive: apt-get update of the private source lists failed: $(grep -E '^(E:|W: Failed)' "$apt_dir/update.log" | head -n 1)"
        elif (cd "$dir" && private_apt source --download-only "postgresql-$major${suite:+/$suite}") >>"$log" 2>&1; then
            dsc=$(newest_dsc "$dir" "$major")
            answer=$(verify_dsc "$dsc") || fail "$major" "checking the archive's source package ($answer)"
            say "PostgreSQL $major: source package $(basename "$dsc") from the archive${suite:+ ($suite)}"
            record "$dir" archive "postgresql-$major${suite:+/$suite}" >"$dir/record.env"
            return 0
        else
            tried "archive: apt-get source postgresql-$major${suite:+/$suite}: $(grep -E '^E:' "$log" | head -n 1)"
        fi
        rm -f "$dir"/postgresql-"$major"_*

        # 3. pinned
        version=${pinned_version[$major]:-}
        if [[ -z $version ]]; then
            tried "pinned: no known-good version of $major is pinned"
        else
            dsc="$dir/postgresql-${major}_$version.dsc"
            if pool_get_package "$uri" "$dsc" >>"$log" 2>&1; then
                say "PostgreSQL $major: pinned source package $(basename "$dsc") from the archive's pool"
                record "$dir" pinned "pool/main/p/postgresql-$major/$(basename "$dsc")" >"$dir/record.env"
                return 0
            fi
            tried "pinned: postgresql-${major}_$version from the pool: $(grep -E '^E:|^  ' "$log" | grep -v 'Download Failed' | tail -n 1 | sed 's/^ *//')"
        fi
    fi

    say "PostgreSQL $major is unavailable; sources tried:"
    printf '  %s\n' "${answers[@]}" >&2
    exit 3
}

# pool_get URI NAME SHA256 DIR: one file of a postgresql source package from the
# archive's pool, refused unless it has that SHA-256.
pool_get() {
    local encoded=${2//+/%2b}
    /usr/lib/apt/apt-helper -o Acquire::Retries=0 download-file \
        "$1/pool/main/p/postgresql-$major/$encoded" "$4/$2" "SHA256:$3"
}

# pool_get_package URI DSC: the pinned .dsc of $major, then every file it lists.
pool_get_package() {
    local sum name dir
    dir=$(dirname "$2")
    pool_get "$1" "$(basename "$2")" "${pinned_dsc_sha256[$major]}" "$dir" || return 1
    while read -r sum name; do
        pool_get "$1" "$name" "$sum" "$dir" || return 1
    done < <(dsc_files "$2")
}

# install_build_deps: the Debian 12 packages a server build needs.
install_build_deps() {
    bash "$repo_dir/test/setup.sh" --only gcc make perl bison flex pkg-config libssl-dev \
        zlib1g-dev libreadline-dev dpkg-dev xz-utils bzip2 libipc-run-perl >&2
}

# build MAJOR: fetches, verifies, configures, builds and installs one major,
# then prints its prefix.
build() {
    local major=$1 work="$cache/build/$1" log orig src prefix started=$SECONDS
    [[ -v suite_of[$major] || -v source_suite_of[$major] ]] || { say "PostgreSQL $major: no Debian suite is known to carry it"; exit 1; }
    [[ $EUID -eq 0 ]] || { say "PostgreSQL $major is not built yet; run as root to build it"; exit 1; }
    rm -rf "$work" && mkdir -p "$work"
    fetch "$major" "$work/source"
    install_build_deps
    prefix="$cache/pg/$major/$(sed -n 's/^version=//p' "$work/source/record.env")-$flags_key"
    orig=$(compgen -G "$work/source/postgresql-${major}_*.orig.tar.*" | head -n 1)
    log="$work/unpack.log"
    tar -xf "$orig" -C "$work" >"$log" 2>&1 || fail "$major" "unpacking $orig" "$log"
    src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'postgresql-*' | head -n 1)
    log="$work/configure.log"
    say "PostgreSQL $major: configuring $(basename "$src") (${configure_flags[*]})"
    (cd "$src" && ./configure --prefix="$prefix" "${configure_flags[@]}") >"$log" 2>&1 ||
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
    { cat "$work/source/record.env"; echo "build_seconds=$((SECONDS - started))"; } >"$prefix/idgen-build.env"
    # The unprivileged test user installs nothing, but reads and runs all of it.
    chmod -R a+rX "$prefix"
    rm -rf "$work"
    say "PostgreSQL $major: installed in $prefix ($((SECONDS - started)) s)"
    echo "$prefix"
}

# root_key MAJOR: the part of a root's directory name that its contents make:
# its suites, the server's packages and the tests' packages.
root_key() {
    printf '%s ' "${root_suite_of[$1]}" "${root_packages_from[$1]}" "postgresql-$1" \
        "postgresql-server-dev-$1" "${root_packages[@]}" | sha256sum | cut -c1-8
}

# in_root MAJOR: true inside the root that pg-build.sh made for MAJOR.
in_root() {
    [[ -f /idgen-build.env ]] && grep -qx "major=$1" /idgen-build.env
}

# cached_root MAJOR: the root of MAJOR to use, if one is made: the newest
# with these contents.
cached_root() {
    local root
    root=$(compgen -G "$cache/pg/$1/*-$(root_key "$1")" | sort -V | tail -n 1) || true
    [[ -n $root && -f $root/idgen-build.env && -x $root/usr/lib/postgresql/$1/bin/postgres ]] && echo "$root"
}

# root_unavailable MAJOR ANSWER: the root cannot be made; says what was tried
# (the lines test/run-tests.sh records) and exits 3.
root_unavailable() {
    say "PostgreSQL $1 is unavailable; sources tried:"
    printf '  %s\n' "$2" >&2
    exit 3
}

# build_root MAJOR: makes MAJOR's root (debootstrap of its suite, the server's
# packages from the pinned suite, the tests' packages), records where each
# came from, and prints the root's directory.
build_root() {
    local major=$1 work="$cache/build/$1" started=$SECONDS uri staging root version log deb sum index
    local suite=${root_suite_of[$1]} from=${root_packages_from[$1]}
    local server=("postgresql-$1" "postgresql-server-dev-$1")
    [[ $EUID -eq 0 ]] || { say "PostgreSQL $major's root is not made yet; run as root to make it"; exit 1; }
    uri=$(archive_uri) ||
        root_unavailable "$major" "root: no Debian archive found in the apt sources under $apt_etc"
    bash "$repo_dir/test/setup.sh" --only debootstrap >&2
    rm -rf --one-file-system "$work" && mkdir -p "$work"
    staging="$work/root"
    log="$work/debootstrap.log"
    say "PostgreSQL $major: debootstrap --variant=minbase $suite, for $from's ${server[*]}"
    debootstrap --variant=minbase "$suite" "$staging" "$uri" >"$log" 2>&1 ||
        root_unavailable "$major" "root: debootstrap of $suite failed: $(grep -E '^[EW]:' "$log" | tail -n 1) (log: $log)"
    # The root's apt: its suite, and the other one for the server's source
    # package alone (a pin above the suite's own); the machine's acquire
    # settings (a snapshot archive's old Release dates, a proxy), read with
    # apt-config; no service started while installing.
    echo "deb $uri $from main" >"$staging/etc/apt/sources.list.d/$from.list"
    printf 'Package: src:postgresql-%s\nPin: release a=%s\nPin-Priority: 990\n' "$major" "$from" \
        >"$staging/etc/apt/preferences.d/idgen-postgresql-$major"
    apt-config dump | grep -iE '^Acquire::(Check-Valid-Until|Check-Date|https?::Proxy|Retries) ' \
        >"$staging/etc/apt/apt.conf.d/90idgen-machine" || true
    cp /etc/resolv.conf "$staging/etc/resolv.conf"
    printf '#!/bin/sh\nexit 101\n' >"$staging/usr/sbin/policy-rc.d"
    chmod 755 "$staging/usr/sbin/policy-rc.d"
    log="$work/install.log"
    say "PostgreSQL $major: installing ${server[*]} ($from) and ${root_packages[*]} ($suite)"
    bash "$repo_dir/test/lib/pg-root.sh" "$staging" -- sh -c \
        "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ${server[*]} ${root_packages[*]}" \
        >"$log" 2>&1 ||
        root_unavailable "$major" "root: apt-get install of ${server[*]} from $from in a root of $suite failed: $(grep -E '^E:' "$log" | head -n 1) (log: $log)"
    version=$(chroot "$staging" dpkg-query -W -f='${Version}' "postgresql-$major")
    root="$cache/pg/$major/$version-$(root_key "$major")"
    {
        echo "major=$major"
        echo "version=$version"
        echo "source=$from"
        echo "from=Debian $from's binary packages in a debootstrap root of Debian $suite (libc6 $(chroot "$staging" dpkg-query -W -f='${Version}' libc6))"
        # Each server package as apt fetched it, its SHA-256 checked against the index's.
        for deb in "${server[@]}" "postgresql-client-$major"; do
            deb=$(compgen -G "$staging/var/cache/apt/archives/${deb}_*.deb" | head -n 1) ||
                fail "$major" "finding the fetched $deb package" "$log"
            sum=$(sha256sum "$deb" | cut -d' ' -f1)
            # (Not a pipe into grep -q: under pipefail its early exit can fail the pipe.)
            index=$(chroot "$staging" apt-cache show "$(basename "$deb" | cut -d_ -f1)=$version")
            [[ $'\n'$index$'\n' == *$'\n'"SHA256: $sum"$'\n'* ]] ||
                fail "$major" "checking $(basename "$deb") against the index's SHA-256" "$log"
            echo "deb=$(basename "$deb") $sum"
        done
        echo "configure=Debian's own (ICU, OpenSSL, LLVM; no JIT package installed)"
        echo "root=$root"
        echo "build_seconds=$((SECONDS - started))"
    } >"$staging/idgen-build.env.new"
    mv "$staging/idgen-build.env.new" "$staging/idgen-build.env"
    bash "$repo_dir/test/lib/pg-root.sh" "$staging" -- apt-get clean >>"$log" 2>&1
    rm -rf --one-file-system "$root"
    mkdir -p "$(dirname "$root")"
    mv "$staging" "$root"
    rm -rf "$work"
    say "PostgreSQL $major: root made in $root ($((SECONDS - started)) s)"
    echo "$root"
}

# build_lock NAME: holds the lock NAME (a major, or 15-source) until the
# shell that took it exits; returns once no other pg-build.sh is making that server. Only
# root builds, so only root locks: another user is refused by build(), and
# writes nothing in the cache.
build_lock() {
    [[ $EUID -eq 0 ]] || return 0
    mkdir -p "$cache/build"
    exec 8>"$cache/build/.lock-$1"
    flock 8
}

# cached_or_made LOCK CACHED MAKE MAJOR: the server CACHED finds for MAJOR;
# else, under the lock LOCK, the one another pg-build.sh made meanwhile, or
# else a new one from MAKE.
cached_or_made() {
    local lock=$1 cached=$2 make=$3 major=$4
    "$cached" "$major" && return
    build_lock "$lock"
    "$cached" "$major" || "$make" "$major"
}

# cached_prefix MAJOR: the cached build to use, if there is one: the vendored
# version when the directory has one, else the newest built with these flags.
cached_prefix() {
    local dsc want="*" prefix
    dsc=$(newest_dsc "$sources_dir" "$1") && want=$(version_of "$dsc")
    prefix=$(compgen -G "$cache/pg/$1/$want-$flags_key" | sort -V | tail -n 1) || true
    [[ -n $prefix && -x $prefix/bin/pg_config && -x $prefix/bin/postgres ]] && echo "$prefix"
}

# pg_config_of MAJOR: the pg_config for that major, building the server if needed.
pg_config_of() {
    local major=$1 prefix
    if [[ $major == 15 ]]; then
        echo /usr/lib/postgresql/15/bin/pg_config
        return
    fi
    if [[ -v root_suite_of[$major] ]]; then
        if in_root "$major"; then
            echo "/usr/lib/postgresql/$major/bin/pg_config"
            return
        fi
        # Runs only inside the root: test/run-tests.sh enters it (--root).
        prefix=$(cached_or_made "$major" cached_root build_root "$major")
        echo "$prefix/usr/lib/postgresql/$major/bin/pg_config"
        return
    fi
    prefix=$(cached_or_made "$major" cached_prefix build "$major")
    echo "$prefix/bin/pg_config"
}

# info MAJOR: the record of the server that MAJOR's tests use.
info() {
    local prefix version
    if [[ $1 == 15 ]]; then
        version=$(dpkg-query -W -f='${Version}' postgresql-15 2>/dev/null) || { say "postgresql-15 is not installed"; exit 1; }
        echo "major=15"
        echo "version=$version"
        echo "source=debian-12"
        echo "from=Debian 12 package postgresql-15"
        echo "deb_sha256=$(apt-cache show "postgresql-15=$version" 2>/dev/null | sed -n 's/^SHA256: //p' | head -n 1)"
        echo "configure=Debian's own (ICU, OpenSSL, LLVM JIT)"
        return
    fi
    if in_root "$1"; then
        cat /idgen-build.env
        return
    fi
    if [[ -v root_suite_of[$1] ]]; then
        prefix=$(cached_root "$1") || { say "PostgreSQL $1's root is not made"; exit 1; }
        cat "$prefix/idgen-build.env"
        return
    fi
    prefix=$(cached_prefix "$1") || { say "PostgreSQL $1 is not built"; exit 1; }
    cat "$prefix/idgen-build.env"
}

# known: every major we try, oldest first.
known() {
    { echo 15; printf '%s\n' "${!suite_of[@]}" "${!root_suite_of[@]}"; } | sort -n
}

case "${1:-}" in
    --known) known ;;
    --source) [[ -v source_suite_of[${2:-x}] ]] || { echo "usage: $0 --source MAJOR (one of: ${!source_suite_of[*]})" >&2; exit 2; }
              prefix=$(cached_or_made "$2-source" cached_prefix build "$2")
              echo "$prefix/bin/pg_config" ;;
    --info-source) [[ -v source_suite_of[${2:-x}] ]] || { echo "usage: $0 --info-source MAJOR" >&2; exit 2; }
                   prefix=$(cached_prefix "$2") || { say "PostgreSQL $2 is not built from source"; exit 1; }
                   cat "$prefix/idgen-build.env" ;;
    --required) printf '%s\n' "${required_majors[@]}" ;;
    --optional) printf '%s\n' "${optional_majors[@]}" ;;
    --root) [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "usage: $0 --root MAJOR" >&2; exit 2; }
            # Outside the root only: inside it, the major's server is this system's.
            [[ -v root_suite_of[$2] ]] && ! in_root "$2" && cached_root "$2" ;;
    --cache-key) echo "$flags_key" ;;
    --build-deps) install_build_deps; bash "$repo_dir/test/setup.sh" --only debootstrap >&2 ;;
    --archive) archive_uri || { say "no Debian archive found in the apt sources under $apt_etc"; exit 1; } ;;
    --info) [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "usage: $0 --info MAJOR" >&2; exit 2; }
            info "$2" ;;
    --fetch) [[ ${2:-} =~ ^[0-9]+$ && -n ${3:-} ]] || { echo "usage: $0 --fetch MAJOR DIR" >&2; exit 2; }
             [[ -v suite_of[$2] ]] || { say "PostgreSQL $2: no Debian suite is known to carry it"; exit 1; }
             fetch "$2" "$3"; cat "$3/record.env" ;;
    [0-9][0-9]) pg_config_of "$1" ;;
    *) echo "usage: $0 MAJOR | --known | --required | --optional | --root MAJOR | --info MAJOR | --source MAJOR | --info-source MAJOR | --fetch MAJOR DIR | --archive | --cache-key | --build-deps" >&2; exit 2 ;;
esac
