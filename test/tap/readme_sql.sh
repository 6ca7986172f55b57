#!/usr/bin/env bash
# The manual's SQL examples run as shown (test/lib/readme_sql.py): every ```sql
# block of README.md, in order, on a fresh database "app" with idgen installed,
# then those of the docs/ files listed below, each on a fresh database of its
# own; results shown with "-- →", "-- e.g.", "-- ERROR:" or a result table are
# compared (docs/development.md, "The manual's SQL examples"). Also checks that
# every relative link of README.md and docs/*.md reaches a file and heading.
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/lib.sh
source test/lib/cluster.sh

# The files whose examples run; a docs/ file left out holds examples that need
# several servers, roles or a moved clock, which the tests named in it run.
files=(README.md docs/reference.md docs/security.md)

dir=$(mktemp -d /tmp/idgen-readme-sql.XXXXXX)
chmod 755 "$dir"
trap 'cluster_stop "$dir/c"; rm -rf "$dir"' EXIT
cluster_start "$dir/c" "shared_preload_libraries = 'idgen'" "fsync = off" "timezone = 'UTC'" || exit 1

for file in "${files[@]}"; do
    dropdb --if-exists app 2>/dev/null
    if ! createdb app; then
        check "create the database app for $file" false
        continue
    fi
    tap_verdicts "readme_sql.py $file" env PGDATABASE=app /usr/bin/python3 test/lib/readme_sql.py "$file"
    # what the examples left behind must not reach the next file's database
    q "DROP DATABASE app" >/dev/null || check "drop the database app after $file" false
done

tap_verdicts "readme_sql.py --links" /usr/bin/python3 test/lib/readme_sql.py --links README.md docs/*.md
tap_done
