#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers (fuzz/fuzz_targets): the protocol, position strings
# and moves, the results and PGN that --resume and merge read, and the GUI's request bodies.
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET]...    (default 15 s, every target)
#
# cargo-fuzz (libFuzzer) is installed from crates.io when missing. It needs the compiler's
# unstable sanitizer flags: RUSTC_BOOTSTRAP=1 lets the stable toolchain take them. Each run
# starts from the corpus kept in fuzz/corpus/TARGET and writes what it finds to
# target/fuzz-corpus/TARGET, so the committed corpus changes only by hand. A crash fails the
# script, and its input is in target/fuzz-artifacts/TARGET: add it to the corpus with a test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(protocol position records gui_request)
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "Installing cargo-fuzz for the fuzz targets..."
    cargo install --locked cargo-fuzz
fi
export RUSTC_BOOTSTRAP=1
for target in "${targets[@]}"; do
    mkdir -p "target/fuzz-corpus/$target" "target/fuzz-artifacts/$target"
    log="target/fuzz-artifacts/$target/run.log"
    if ! cargo fuzz run --fuzz-dir fuzz --target-dir target/fuzz "$target" \
        "target/fuzz-corpus/$target" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -artifact_prefix="target/fuzz-artifacts/$target/" \
        -print_final_stats=1 >"$log" 2>&1; then
        tail -40 "$log"
        if compgen -G "target/fuzz-artifacts/$target/[a-z]*-*" >/dev/null; then
            echo "fuzz $target failed: the input is in target/fuzz-artifacts/$target/" >&2
        else
            echo "fuzz $target failed before any input (see the log above, $log)" >&2
        fi
        exit 1
    fi
    runs=$(grep -m1 '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz $target: $runs inputs in $seconds s, no failure"
done
