#!/usr/bin/env bash
# Runs the cargo-fuzz targets of tests/fuzz/ one after another, each for SECONDS (default 60),
# and prints per target: executions, corpus size, and whether it found a crash, a hang or a
# leak (libFuzzer stops at the first one and leaves it in tests/fuzz/artifacts/TARGET/).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: position table catalog stream http (default all)
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). A run longer than
# -timeout (10 s) on one input counts as a hang; -rss_limit_mb=2048 as a memory blow-up.
# Exit status: 0 when every target ran clean, 1 otherwise.
set -u
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(position table catalog stream http)
cargo +nightly fuzz build --fuzz-dir tests/fuzz -O || exit 1
status=0
for t in "${targets[@]}"; do
    mkdir -p "tests/fuzz/corpus/$t" "tests/fuzz/artifacts/$t"
    log=$(mktemp)
    echo "== $t: ${secs} s (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
    cargo +nightly fuzz run --fuzz-dir tests/fuzz -O "$t" -- \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        >"$log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    corpus=$(ls "tests/fuzz/corpus/$t" | wc -l)
    found=$(grep -E 'ERROR: libFuzzer|panicked at|deadly signal|==ERROR' "$log" | head -3)
    printf '%-10s executions %12s  corpus %6s  exit %s  %s\n' "$t" "${execs:-?}" "$corpus" "$rc" \
        "${found:-no crash, no hang}"
    if [ "$rc" -ne 0 ]; then
        status=1
        tail -40 "$log"
        ls -1 "tests/fuzz/artifacts/$t"
    fi
    rm -f "$log"
done
exit $status
