#!/usr/bin/env bash
# Chomp benchmark: builds the 16×16 box (601,080,389 positions) with 1 and 2 threads and prints
# the time, positions per second, peak memory (/usr/bin/time -v), the 1 -> 2 thread scaling,
# whether the two tables are byte-identical, and the P-position total; then the Grundy builds
# of the 12×12 and 14×14 boxes. `--big` also builds the 10×42 box (15,820,024,219 positions,
# about 2 GB of table; minutes). The machine's load is printed beside every timing: the
# figures mean little on a machine busy with other work (the CPU seconds, user + system, say
# how much work was done whatever the load).
#
# `--research` runs the Chomp figures of src/guide/research.md instead, one after the other (an idle machine, about an
# hour and a half, up to 7 GiB): the 16×16, 10×30, 30×10, 8×60 and 4×300 boxes side by side with
# the 2026 OpenMP solver chomp3.c when CHOMP3C names a binary of it you built yourself (this
# repository neither holds nor builds it); the 10×42 box side by side with an earlier gamedb
# (BASE_BIN); the 16×16 Grundy box; three-rowed Chomp to N = 20,000; the census of the 11×40
# box and of the 12×B box (B = TWELVE, default 34), every bar with more than one winning bite;
# Nivasch's census of periods (Brouwer's page, r ≤ 10000) against a table of q ≤ 30,000.
#
# Usage: scripts/bench/chomp.sh [--big | --research]      (ROWS=.. COLS=.. change the main box)
set -euo pipefail
source "$(dirname "$0")/setup.sh"

ROWS=${ROWS:-16}
COLS=${COLS:-16}
BIG=0
[[ "${1:-}" == "--big" ]] && BIG=1
if [[ "${1:-}" == "--research" ]]; then
    echo "== boxes side by side with chomp3.c (2 threads each)"
    if [[ -n "${CHOMP3C:-}" ]]; then
        BASE=0 CHOMP3C=$CHOMP3C scripts/bench/chomp-compare.sh 16x16 10x30 30x10 8x60 4x300
    else
        echo "  (CHOMP3C not set: skipped)"
    fi
    echo "== 10x42 side by side with BASE_BIN (2 threads each)"
    if [[ -n "${BASE_BIN:-}" ]]; then
        BASE_BIN=$BASE_BIN scripts/bench/chomp-compare.sh 10x42
    else
        echo "  (BASE_BIN not set: skipped)"
    fi
    echo "== 16x16 Grundy box, 2 threads"
    GRUNDY=1 BASE=0 scripts/bench/chomp-compare.sh 16x16
    echo "== three-rowed Chomp to N = 20,000, 2 threads"
    scripts/bench/chomp3.sh 20000 2
    echo "== Nivasch's census of periods (r <= 10000, Brouwer's page) against a table of q <= 30000"
    cargo build --release --quiet --example chomp3-patterns
    C3=$(mktemp -d)
    /usr/bin/time -f "  build chomp3 --max 30000: %e s wall, %M KB peak" "$BIN" build chomp3 --max 30000 --out "$C3" -q
    target/release/examples/chomp3-patterns "$C3/chomp3-30000.gtab" 10000 >"$C3/patterns.txt"
    grep '^r ≤' "$C3/patterns.txt" | sed 's/^/  /'
    python3 - "$C3/patterns.txt" src/verify/data/nivasch-periods.txt <<'EOF2'
import re, sys
listed = {}
for line in open(sys.argv[2]):
    if not line.startswith("#") and line.strip():
        period, rs = line.split(":")
        listed.update((int(r), int(period)) for r in rs.split())
found = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\d+) periodic preperiod \d+ period (\d+)", line)
    if m and m.group(2) != "1":
        found[int(m.group(1))] = int(m.group(2))
diff = [r for r in sorted(set(listed) | set(found)) if listed.get(r) != found.get(r)]
print("  %d columns of period other than 1 found, %d in the census; differences: %s"
      % (len(found), len(listed), diff[:20] if diff else "none"))
EOF2
    rm -rf "$C3"
    for box in 11x40 "12x${TWELVE:-34}"; do
        echo "== census of the $box box (every bar with more than one winning bite), 2 threads"
        before=$(load)
        /usr/bin/time -v "$BIN" chomp-census --boxes "$box" --threads 2 --json \
            >"/tmp/census-$box.json" 2>"/tmp/census-$box.time"
        grep -E 'Elapsed|Maximum resident' "/tmp/census-$box.time" | sed 's/^\s*/  /'
        echo "  load $before -> $(load)"
        python3 -c 'import json,sys; print("  " + json.dumps(json.load(open(sys.argv[1]))))' "/tmp/census-$box.json"
    done
    exit 0
fi

cargo build --release --quiet
OUT=$(mktemp -d "${TMPDIR:-/tmp}/bench-chomp.XXXXXX")
trap 'rm -rf "$OUT"' EXIT


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
