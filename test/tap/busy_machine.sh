#!/usr/bin/env bash
# The timing-sensitive pg_regress files pass on a busy machine: one busy loop
# per core competes with the server while prefixed, uuid_v7, ulid, typeid,
# snowflake, snowflake53 and stats run, each reported ok or not ok. Their time
# checks allow exactly the lead docs/internals.md documents (a burst runs ahead of the
# clock by one 1/4096 ms step per call at most), so a green suite must not
# depend on how busy the machine is. The loops are killed at exit and stop by
# themselves after BUSY_SECONDS anyway. Needs a preloaded server (PG* env);
# results go to a temporary directory, not to the tree's results/ and
# regression.diffs, in a database of its own.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source test/lib/lib.sh
source test/lib/cluster.sh

FILES=${BUSY_FILES:-"prefixed uuid_v7 ulid typeid snowflake snowflake53 stats"}
BUSY_SECONDS=${BUSY_SECONDS:-100}
DB=idgen_busy_machine

out=$(mktemp -d /tmp/idgen-busy.XXXXXX)
busy=()
cleanup() {
    local pid
    for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null; done
    wait "${busy[@]}" 2>/dev/null
    dropdb --if-exists "$DB" 2>/dev/null
    rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cores=$(nproc)
for _ in $(seq 1 "$cores"); do
    timeout "$BUSY_SECONDS" bash -c 'while :; do :; done' &
    busy+=($!)
done
sleep 0.5
running=0
for pid in "${busy[@]}"; do kill -0 "$pid" 2>/dev/null && running=$((running + 1)); done
is "$cores busy loops run, one per core" "$running" "$cores"

start=${EPOCHREALTIME/./}
# As test/run-tests.sh runs pg_regress (make installcheck: --load-extension,
# --inputdir), with --outputdir and the database moved out of the main run's way.
timeout $((BUSY_SECONDS - 5)) make -s installcheck REGRESS="$FILES" CONTRIB_TESTDB="$DB" \
    EXTRA_REGRESS_OPTS="--outputdir=$out" >"$out/regress.log" 2>&1
us=$((${EPOCHREALTIME/./} - start))
printf '# pg_regress under load took %d.%03d s; load average %s\n' $((us / 1000000)) $((us / 1000 % 1000)) \
    "$(cut -d' ' -f1-3 /proc/loadavg)"

for file in $FILES; do
    # PostgreSQL 15 prints "test NAME ... ok", 16 and later "ok N - NAME".
    if grep -qE "^(test $file +\.\.\. ok|ok +[0-9]+ +[-+] $file )" "$out/regress.log"; then
        echo "ok $((TAP_N += 1)) - pg_regress $file passes with $cores busy loops beside it"
    else
        echo "not ok $((TAP_N += 1)) - pg_regress $file passes with $cores busy loops beside it"
        TAP_FAILED=$((TAP_FAILED + 1))
        if [[ -s $out/regression.diffs ]]; then
            awk -v f="$file" '/^diff /{keep = index($0, "/" f ".out") > 0} keep' "$out/regression.diffs" |
                head -n 40 | sed 's/^/# /'
        else
            tail -n 20 "$out/regress.log" | sed 's/^/# /'
        fi
    fi
done
tap_done
