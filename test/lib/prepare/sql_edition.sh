#!/usr/bin/env bash
# Root-only preparation of test/tap/sql_edition.pl (test/run-tests.sh runs it
# as root just before the test): pg_tle 1.5.2, built from the vendored tarball
# (SHA-256 checked first) into $PG_CONFIG's prefix once, with a stamp
# (pg_tle-build.env) that later runs reuse. Exit status: 0 pg_tle is installed,
# 3 it cannot be here (the reason is the last line), anything else a failure.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source test/lib/lib.sh
repo=$PWD

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
tle_version=1.5.2
tle_sha256=8fb28f2a79d452ebd244a072f5eee7570894abca3112fbb27df033f78003480f
tle_source=${IDGEN_PG_TLE_SOURCE:-$(realpath -m "$repo/../shared/vendor/pg_tle/pg_tle-$tle_version.tar.gz")}

major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
if ((major > 17)); then
    echo "pg_tle $tle_version supports PostgreSQL 12 to 17, not $major"
    exit 3
fi
if [[ ! -f $tle_source ]]; then
    echo "pg_tle source $tle_source not found"
    exit 3
fi
verify_vendored pg_tle "$tle_source" "$tle_sha256" "pg_tle-$tle_version.tar.gz"

prefix=$(dirname "$("$PG_CONFIG" --bindir)")
stamp="$prefix/pg_tle-build.env"
want_stamp="pg_tle_version=$tle_version
pg_tle_sha256=$tle_sha256"
reuse_stamped_build "pg_tle $tle_version" "$stamp" "$want_stamp" "$("$PG_CONFIG" --pkglibdir)/pg_tle.so"
if [[ $EUID -ne 0 ]]; then
    echo "building pg_tle $tle_version into $prefix needs root"
    exit 1
fi
build_dir=$(mktemp -d /tmp/idgen-pg_tle-build.XXXXXX)
build_start=$SECONDS
rm -f "$stamp"
if tar -xzf "$tle_source" -C "$build_dir" && cd "$build_dir"/pg_tle-* &&
    make -j2 PG_CONFIG="$PG_CONFIG" >"$build_dir/make.log" 2>&1 &&
    make install PG_CONFIG="$PG_CONFIG" >"$build_dir/install.log" 2>&1; then
    printf '%s\n' "$want_stamp" >"$stamp"
    rm -rf "$build_dir"
    echo "pg_tle $tle_version built into $prefix in $((SECONDS - build_start)) s"
    exit 0
fi
tail -n 20 "$build_dir"/*.log
echo "pg_tle $tle_version does not build against $PG_CONFIG (logs in $build_dir)"
exit 1
