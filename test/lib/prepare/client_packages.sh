#!/usr/bin/env bash
# Called by test/setup.sh (as root): the toolchains and the registries'
# downloads for the client packages' tests (test/integration/clients/
# go_package.pl and rust_package.pl), cached under /var/cache/idgen so that a
# second run downloads nothing. The tests run as postgres, offline: they read
# these caches and write only their build caches, which postgres owns.
#
# Go: pgx v5 needs Go 1.25 here (go.mod), and Debian 12's golang-go is 1.19.
# /var/cache/idgen/go/bin/go is the machine's go when it is new enough, else
# the toolchain the Go module proxy serves as module golang.org/toolchain,
# fetched by the old go itself (`go mod download`, the proxy of `go env`).
# Rust: Debian 12's rustc is 1.63; its security updates carry rustc-web and
# cargo-web (1.96), whose /usr/bin/cargo the test uses (a rustup toolchain
# under /root is out of postgres's reach).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
go_cache=/var/cache/idgen/go
cargo_cache=/var/cache/idgen/cargo
go_toolchain=go1.25.14

# version_at_least HAVE WANT: HAVE >= WANT, both as dotted numbers.
version_at_least() { [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1) == "$2" ]]; }

mkdir -p "$go_cache/bin" "$go_cache/build"
gobin=''
for candidate in $(type -a -p go) /usr/local/go/bin/go; do
    [[ -x $candidate ]] || continue  # (a fresh Debian 12 has no /usr/local/go)
    have=$("$candidate" version 2>/dev/null | sed -n 's/^go version go\([0-9.]*\).*/\1/p')
    if [[ -n $have ]] && version_at_least "$have" 1.25; then gobin=$(readlink -f "$candidate"); break; fi
done
if [[ -z $gobin ]]; then
    old=$(command -v go || echo /usr/lib/go-1.19/bin/go)
    module="golang.org/toolchain@v0.0.1-$go_toolchain.linux-$(dpkg --print-architecture)"
    dir="$go_cache/mod/$module"
    if [[ ! -x $dir/bin/go ]]; then
        echo "setup: $module from the Go module proxy (the machine's go is older than 1.25)"
        work=$(mktemp -d)
        printf 'module tmp\n\ngo 1.19\n' >"$work/go.mod"
        (cd "$work" && env -u GOFLAGS GOMODCACHE="$go_cache/mod" GOTOOLCHAIN=local "$old" mod download "$module")
        rm -rf "$work"
        # module zips keep no modes: the toolchain's programs are made executable
        chmod a+x "$dir"/bin/* "$dir"/pkg/tool/*/*
    fi
    gobin="$dir/bin/go"
fi
ln -sfn "$gobin" "$go_cache/bin/go"
# every module with a go.sum (clients/go itself requires nothing; its pgx and
# test modules require it from the checkout, through their replace lines)
for mod in clients/go/pgx clients/go/test test/lib/gomodzip; do
    (cd "$repo/$mod" && GOMODCACHE="$go_cache/mod" GOFLAGS=-mod=readonly GOTOOLCHAIN=local "$go_cache/bin/go" mod download)
done
chown -R postgres: "$go_cache/build"

if ! [[ -x /usr/bin/cargo && -x /usr/bin/rustc ]]; then
    echo "setup: installing rustc-web cargo-web"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends rustc-web cargo-web >/dev/null ||
        echo "setup: rustc-web and cargo-web cannot be installed; rust_package.pl will skip" >&2
fi
if [[ -x /usr/bin/cargo ]]; then
    # the layout the test builds: the crate, and package-tests beside it with its path dependency
    work=$(mktemp -d)
    mkdir "$work/idgen"
    cp -r "$repo"/clients/rust/{Cargo.toml,Cargo.lock,src,README.md,LICENSE} "$work/idgen/"
    cp -r "$repo/clients/rust/package-tests" "$work/"
    for dir in "$work/idgen" "$work/package-tests"; do
        (cd "$dir" && CARGO_HOME="$cargo_cache/home" RUSTC=/usr/bin/rustc /usr/bin/cargo fetch --locked -q)
    done
    rm -rf "$work"
    mkdir -p "$cargo_cache/target" "$cargo_cache/work"
    chown -R postgres: "$cargo_cache"
fi
