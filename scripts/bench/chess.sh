#!/usr/bin/env bash
# Chess endings: builds every 3- and 4-man ending (white the stronger side, KPkp included) one
# after the other at THREADS threads (default 2), each
# under /usr/bin/time -v, and prints per ending the positions (indices of the table, its
# sub-endings included), wall time, peak memory, table size and the longest win with white
# to move in plies (the longest mate), read from `gamedb info --json`; then the total time.
#
#   scripts/bench/chess.sh [THREADS] [OUT_DIR] [MEN...]
#
# MEN, when given, replaces the list (e.g. KQkr KRkr).
set -euo pipefail
threads=${1:-2}
source "$(dirname "$0")/setup.sh"
out_folder "${2:-}"
shift $(($# < 2 ? $# : 2))
cargo build --release --quiet
if [ $# -gt 0 ]; then
    endings=("$@")
else
    endings=(KQk KRk KBk KNk KPk)
    pieces=(Q R B N P)
    for i in 0 1 2 3 4; do
        for j in $(seq "$i" 4); do
            endings+=("K${pieces[$i]}${pieces[$j]}k")
        done
    done
    for i in 0 1 2 3 4; do
        for j in $(seq "$i" 4); do
            lower=$(echo "${pieces[$j]}" | tr 'A-Z' 'a-z')
            endings+=("K${pieces[$i]}k$lower")
        done
    done
fi
echo "load $(load), $threads threads, ${#endings[@]} endings"
printf '%-7s %12s %9s %10s %12s %14s\n' ending indices seconds "peak MiB" "table bytes" "longest mate"
start=$(date +%s.%N)
for men in "${endings[@]}"; do
    file=$OUT/chess-$men.gtab
    rm -f "$file"
    log=$OUT/$men.time
    RAYON_NUM_THREADS=$threads /usr/bin/time -v "$BIN" build chess --men "$men" --out "$OUT" \
        --threads "$threads" >"$OUT/$men.out" 2>"$log"
    secs=$(grep 'Elapsed (wall' "$log" | awk '{print $NF}' | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    rss=$(grep 'Maximum resident' "$log" | awk '{printf "%.0f", $NF/1024}')
    "$BIN" info --json "$file" >"$OUT/$men.json"
    python3 - "$OUT/$men.json" "$men" "$secs" "$rss" "$(stat -c %s "$file")" <<'PY'
import json, sys
info = json.load(open(sys.argv[1]))
w = info["endings"][sys.argv[2]]["white_to_move"]["longest_win"]
print(f"{sys.argv[2]:<7} {info['entries']:>12} {float(sys.argv[3]):>9.2f} {sys.argv[4]:>10} "
      f"{sys.argv[5]:>12} {w:>6} plies ({(w + 1) // 2} moves)")
PY
done
end=$(date +%s.%N)
echo "total $(echo "$end - $start" | bc) s, load $(load)"
