#!/usr/bin/env bash
# Chomp benchmark: builds the 16×16 box (601,080,389 positions) with 1 and 2 threads and prints
# the time, positions per second, peak memory (/usr/bin/time -v), the 1 -> 2 thread scaling,
# whether the two tables are byte-identical, and the P-position total; then the Grundy builds
# of the 12×12 and 14×14 boxes. `--big` also builds the 10×42 box (15,820,024,219 positions,
# about 2 GB of table; minutes). The machine's load is printed beside every timing: the
# figures mean little on a machine busy with other work (the CPU seconds, user + system, say
# how much work was done whatever the load).
#
# Usage: scripts/bench_chomp.sh [--big]      (ROWS=.. COLS=.. change the main box)
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-16}
COLS=${COLS:-16}
BIG=0
[[ "${1:-}" == "--big" ]] && BIG=1

cargo build --release --quiet
BIN=target/release/gamedb
OUT=$(mktemp -d "${TMPDIR:-/tmp}/bench-chomp.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }

# run LABEL THREADS DIR BUILD-ARGS...: prints one line; sets SECS, RSS_KB.
run() {
    local label=$1 threads=$2 dir=$3
    shift 3
    local before
    before=$(load)
    /usr/bin/time -v "$BIN" build chomp "$@" --threads "$threads" --out "$dir" -q \
        >"$OUT/build.txt" 2>"$OUT/time.txt"
    local wall
    wall=$(grep 'Elapsed (wall clock)' "$OUT/time.txt" | awk '{print $NF}')
    SECS=$(awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }' <<<"$wall")
    RSS_KB=$(grep 'Maximum resident set size' "$OUT/time.txt" | awk '{print $NF}')
    local positions
    positions=$(sed -E 's/^wrote [^(]*\(([0-9]+) positions,.*/\1/' "$OUT/build.txt")
    local cpu
    cpu=$(awk '/User time|System time/ { s += $NF } END { print s }' "$OUT/time.txt")
    printf '%-16s threads %s  %8.2f s wall  %8.2f s cpu  %6.1f M positions/s  peak %7.1f MiB  (load before: %s, after: %s)\n' \
        "$label" "$threads" "$SECS" "$cpu" "$(awk -v p="$positions" -v s="$SECS" 'BEGIN { print p / s / 1e6 }')" \
        "$(awk -v k="$RSS_KB" 'BEGIN { print k / 1024 }')" "$before" "$(load)"
}

echo "gamedb Chomp benchmark on $(nproc) cores"
echo
echo "== ${ROWS}x${COLS} box, P/N bits =="
run "${ROWS}x${COLS}" 1 "$OUT/t1" --rows "$ROWS" --cols "$COLS"
T1=$SECS
run "${ROWS}x${COLS}" 2 "$OUT/t2" --rows "$ROWS" --cols "$COLS"
T2=$SECS
awk -v a="$T1" -v b="$T2" 'BEGIN { printf "scaling 1 -> 2 threads: %.2fx\n", a / b }'
FILE="chomp-${ROWS}x${COLS}.gtab"
if cmp -s "$OUT/t1/$FILE" "$OUT/t2/$FILE"; then
    echo "tables at 1 and 2 threads: byte-identical"
else
    echo "tables at 1 and 2 threads: DIFFER"
    exit 1
fi
P=$("$BIN" info "$OUT/t2/$FILE" --json | sed -E 's/.*"p_positions":([0-9]+).*/\1/')
echo "P-positions in the ${ROWS}x${COLS} box: $P (every non-empty diagram counts, the single cell (1) among them; the empty board is not a position)"
if [[ "$ROWS$COLS" == 1616 ]]; then
    if [[ "$P" == 3317972 ]]; then
        echo "  = the published 3,317,972 non-empty P-positions"
    else
        echo "  != the published 3,317,972 non-empty P-positions"
    fi
fi
rm -rf "$OUT/t1" "$OUT/t2"

echo
echo "== Grundy values =="
run "12x12 --grundy" 2 "$OUT/g" --rows 12 --cols 12 --grundy
run "14x14 --grundy" 2 "$OUT/g" --rows 14 --cols 14 --grundy
rm -rf "$OUT/g"

if [[ $BIG == 1 ]]; then
    echo
    echo "== 10x42 box =="
    run "10x42" 2 "$OUT/big" --rows 10 --cols 42
    "$BIN" info "$OUT/big/chomp-10x42.gtab" --json | sed -E 's/.*"p_positions":([0-9]+).*/P-positions in the 10x42 box: \1/'
fi
