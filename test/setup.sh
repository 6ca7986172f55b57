#!/usr/bin/env bash
# Installs what building, testing and benchmarking idgen need on Debian 12,
# and any further packages named as arguments (test/pg-build.sh names what a
# server build needs). Idempotent: runs apt-get only when a package is missing.
set -euo pipefail

PG_MAJOR="${PG_MAJOR:-15}"
packages=(
    make g++ binutils python3
    "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" "postgresql-client-$PG_MAJOR"
    libgtest-dev faketime gnuplot-nox sqlsmith
    clang libclang-rt-14-dev
    "$@"
)
missing=()
for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
    if [[ $EUID -ne 0 ]]; then
        echo "setup: missing packages: ${missing[*]} (run as root to install them)" >&2
        exit 1
    fi
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
