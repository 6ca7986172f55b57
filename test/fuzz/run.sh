#!/usr/bin/env bash
# Runs the libFuzzer targets that `make fuzz-build` put in test/fuzz/build/bin,
# each for SECONDS (0: no time limit), starting from its committed seed corpus
# test/fuzz/corpus/NAME. Prints one TAP line per target. Arguments starting
# with '-' go to every target (e.g. -runs=10000000); the rest name targets
# (default: every built one).
#
#   bash test/fuzz/run.sh 20
#   nice -n 10 bash test/fuzz/run.sh 0 -runs=10000000 ulid_text
#
# What a run finds is kept under test/fuzz/build: inputs that reached new code
# in corpus/NAME (read again by the next run), an input that broke a property
# or crashed in crashes/NAME-*, and the fuzzer's output in logs/NAME.log.
set -uo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:?usage: bash test/fuzz/run.sh SECONDS [-FLAG...] [TARGET...]}
shift
flags=()
targets=()
for arg in "$@"; do
    if [[ $arg == -* ]]; then flags+=("$arg"); else targets+=("$arg"); fi
done
if ((${#targets[@]} == 0)); then
    for bin in test/fuzz/build/bin/*; do [[ -x $bin ]] && targets+=("${bin##*/}"); done
fi
if ((${#targets[@]} == 0)); then
    echo "not ok - no fuzz target is built (make fuzz-build)"
    exit 1
fi

build=test/fuzz/build
mkdir -p "$build/crashes" "$build/logs"
status=0
for t in "${targets[@]}"; do
    seeds=test/fuzz/corpus/$t
    log=$build/logs/$t.log
    mkdir -p "$build/corpus/$t"
    if [[ ! -x $build/bin/$t || ! -d $seeds ]]; then
        echo "not ok - fuzz $t: no binary $build/bin/$t or no seed corpus $seeds"
        status=1
        continue
    fi
    # The first directory collects new inputs; the committed seeds are only read.
    if "$build/bin/$t" -max_total_time="$seconds" -max_len=128 -timeout=10 \
        -artifact_prefix="$build/crashes/$t-" "${flags[@]}" "$build/corpus/$t" "$seeds" \
        >"$log" 2>&1; then
        done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -n 1)
        echo "ok - fuzz $t: ${done_line#Done }"
    else
        echo "not ok - fuzz $t (log: $log)"
        grep -E 'property violated|ERROR: |SUMMARY: |runtime error|Test unit written to|^Base64: ' "$log" | head -n 20
        status=1
    fi
done
exit $status
