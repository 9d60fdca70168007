#!/usr/bin/env bash
# Benchmark: the ball-weighing puzzle. Builds the tables of n balls (with and without telling
# heavier or lighter) for growing n, then fixed plans of 10^4 and 10^6 balls, each built and
# checked by simulating every case; prints wall time and peak memory beside the load.
# Usage: scripts/bench/weighing.sh [OUT_DIR] [LARGEST_N]   (default: a temporary folder; 5000)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
cargo build --release --quiet
out_folder "${1:-}"
largest=${2:-5000}

timed() { # label command...
    local label=$1; shift
    /usr/bin/time -v "$@" >"$OUT/out.txt" 2>"$OUT/time.txt"
    local wall rss
    wall=$(grep 'Elapsed (wall clock)' "$OUT/time.txt" | awk '{print $NF}')
    rss=$(grep 'Maximum resident set size' "$OUT/time.txt" | awk '{print $NF}')
    echo "$label: wall $wall, peak RSS $((rss / 1024)) MiB (load $(load))"
}

echo "machine: $(nproc) cores"
for n in 200 1000 2000 $largest; do
    timed "build --balls $n" "$BIN" build weighing --balls "$n" --out "$OUT" -q
    timed "build --balls $n --tell" "$BIN" build weighing --balls "$n" --tell --out "$OUT" -q
    "$BIN" info "$OUT/weighing-$n-tell.gtab" | tail -1
done
timed "verify weighing-iii.1-find weighing-iii.1-tell (every n to 200)" \
    "$BIN" verify weighing-iii.1-find weighing-iii.1-tell
for n in 10000 1000000; do
    timed "weighing-plan --balls $n --tell" "$BIN" weighing-plan --balls "$n" --tell
    tail -1 "$OUT/out.txt"
done
