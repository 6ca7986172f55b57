#!/usr/bin/env bash
# Installs what building, testing and benchmarking idgen need on Debian 12,
# and any further packages named as arguments (test/pg-build.sh names what a
# server build needs). Idempotent: runs apt-get only when a package is missing.
set -euo pipefail

PG_MAJOR="${PG_MAJOR:-15}"
packages=(
    make g++ binutils python3
    git procps curl  # make dist and the packaging tests (git), test/lib/prepare/ha_patroni.sh (pgrep), curl
    libipc-run-perl  # PostgreSQL::Test::Cluster, and configure --enable-tap-tests
    build-essential  # dpkg-buildpackage's check of build dependencies (test/lib/prepare/packaging.sh)
    flex bison libkrb5-dev  # pg_tle's build against Debian's 15 (sql_edition.pl): flex, and libpq-be.h includes gssapi.h
    "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" "postgresql-client-$PG_MAJOR"
    libgtest-dev faketime gnuplot-nox sqlsmith
    clang libclang-rt-14-dev
    python3-psycopg  # test/integration/clients/psycopg.pl
    # the application tools of test/integration/clients (docs/frameworks.md)
    python3-django python3-psycopg2  # django.pl
    alembic python3-alembic python3-sqlalchemy  # alembic.pl (alembic is the package with /usr/bin/alembic)
    python3-asyncpg  # asyncpg.pl
    openjdk-17-jdk-headless libpostgresql-jdbc-java  # jdbc.pl
    ruby-activerecord ruby-pg  # activerecord.pl
    golang-go golang-github-jackc-pgx-v4-dev golang-github-lib-pq-dev  # go.pl
    postgresql-15-plproxy postgresql-15-partman  # multi-server tests, on Debian's 15
    patroni etcd-server  # test/integration/ha_patroni.pl (it disables their system services)
    postgresql-server-dev-all debhelper pgxnclient zip unzip  # test/integration/packaging*.pl, test/integration/pgxn_dist*.pl
    "$@"
)
# test/integration/clients/node_pg.pl needs node and npm: Debian's packages unless the
# machine already has them (from NodeSource, nvm, ...).
command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
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

# The npm projects of test/integration/clients: node-postgres (node/, for
# node_pg.pl) and the ORMs (orm/, for drizzle.pl and prisma.pl), exactly as
# pinned in their package-lock.json, from the npm registry; again only when a
# lockfile changed. @prisma/engines' install tries to download a schema engine
# and, offline, fails quietly: prisma.pl needs none (docs/frameworks.md).
clients="$(cd "$(dirname "$0")" && pwd)/integration/clients"
for node_dir in "$clients/node" "$clients/orm"; do
    if ! cmp -s "$node_dir/package-lock.json" "$node_dir/node_modules/.idgen-installed-lock"; then
        echo "setup: npm ci in $node_dir"
        (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error) >&2
        cp "$node_dir/package-lock.json" "$node_dir/node_modules/.idgen-installed-lock"
    fi
done
