#!/usr/bin/env bash
# Root-only preparation of test/integration/citus.pl (test/run-tests.sh runs
# it as root just before the test): Citus 14.0.1, built from
# IDGEN_CITUS_SOURCE (by default the vendored tarball beside the checkout, its
# SHA-256 checked first) against $PG_CONFIG, once per PostgreSQL build: it is
# installed into that server's prefix with a stamp (citus-build.env) that
# later runs reuse. Exit status: 0 Citus is installed, 3 it cannot be here
# (the reason is the last line), anything else a failure.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source test/lib/lib.sh
repo=$PWD

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
citus_version=14.0.1
citus_sha256=acfa9a77cd84a8e1edab26cca4a71355f39c910c01586da89560e0240d4b05ba
citus_source=${IDGEN_CITUS_SOURCE:-$(realpath -m "$repo/../shared/vendor/citus/citus-$citus_version.tar.gz")}

major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
if ((major < 16 || major > 18)); then
    echo "Citus $citus_version supports PostgreSQL 16 to 18"
    exit 3
fi
if [[ ! -f $citus_source ]]; then
    if [[ ${CI:-} == true ]]; then
        echo "the Citus source $citus_source is not present (required under CI=true)"
        exit 1
    fi
    echo "Citus source $citus_source not found (set IDGEN_CITUS_SOURCE)"
    exit 3
fi
verify_vendored Citus "$citus_source" "$citus_sha256" "citus-$citus_version.tar.gz"

prefix=$(dirname "$("$PG_CONFIG" --bindir)")
stamp="$prefix/citus-build.env"
want_stamp="citus_version=$citus_version
citus_sha256=$citus_sha256"
pkglibdir=$("$PG_CONFIG" --pkglibdir)
reuse_stamped_build "Citus $citus_version" "$stamp" "$want_stamp" "$pkglibdir/citus.so"
if [[ $EUID -ne 0 ]]; then
    echo "building Citus $citus_version into $prefix needs root"
    exit 1
fi
bash test/setup.sh libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev || {
    echo "Citus's build dependencies could not be installed (test/setup.sh)"
    exit 1
}
build_dir=$(mktemp -d /tmp/idgen-citus-build.XXXXXX)
build_start=$SECONDS
rm -f "$stamp"
# --without-libcurl: no usage reports from test servers.
if tar -xzf "$citus_source" -C "$build_dir" &&
    cd "$build_dir"/citus-* &&
    ./configure PG_CONFIG="$PG_CONFIG" --without-libcurl >"$build_dir/configure.log" 2>&1 &&
    make -j"$(nproc)" >"$build_dir/make.log" 2>&1 &&
    make install >"$build_dir/install.log" 2>&1; then
    printf '%s\nbuild_seconds=%d\n' "$want_stamp" $((SECONDS - build_start)) >"$stamp"
    rm -rf "$build_dir"
    echo "Citus $citus_version built into $prefix in $((SECONDS - build_start)) s"
    exit 0
fi
tail -n 20 "$build_dir"/*.log
echo "Citus $citus_version does not build against $PG_CONFIG (logs in $build_dir)"
exit 1
