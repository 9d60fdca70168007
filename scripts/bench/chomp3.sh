#!/usr/bin/env bash
# Three-rowed Chomp benchmark: `gamedb build chomp3 --max N` (default
# N = 20,000: f(q, r) for every r ≤ q ≤ N, (N+1)(N+2)/2 pairs) at 1 and 2 threads. Prints wall
# and CPU time, peak memory (/usr/bin/time -v), pairs per second, the load average beside each
# figure, checks that the two tables are byte-identical, then `info` and a few queries of the
# 2-thread table (a first row far past N included) with their time.
#
# Usage: scripts/bench/chomp3.sh [N] [THREADS...]   (default: 20000 1 2)
#        OUT=DIR keeps the tables in DIR (default: a temporary folder, removed at the end)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
N=${1:-20000}
shift || true
THREADS=("$@")
[ ${#THREADS[@]} -gt 0 ] || THREADS=(1 2)
cargo build --release --quiet
if [ -n "${OUT:-}" ]; then mkdir -p "$OUT"; else OUT=$(mktemp -d); trap 'rm -rf "$OUT"' EXIT; fi

pairs=$(( (N + 1) * (N + 2) / 2 ))
echo "gamedb three-rowed Chomp benchmark: N = $N ($pairs pairs), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
"$BIN" build --out "$OUT/t0" chomp3 --max "$N" --memory 1 2>&1 | grep -o 'needs .* working)' | head -1 | sed 's/^/stated: /' || true
for t in "${THREADS[@]}"; do
    mkdir -p "$OUT/t$t"
    before=$(load)
    /usr/bin/time -v "$BIN" build -q --threads "$t" --out "$OUT/t$t" chomp3 --max "$N" \
        >"$OUT/build$t.txt" 2>"$OUT/time$t.txt"
    wall=$(grep 'Elapsed (wall clock)' "$OUT/time$t.txt" | awk '{print $NF}')
    secs=$(grep 'Elapsed (wall clock)' "$OUT/time$t.txt" | awk '{n = split($NF, a, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + a[i]; print s}')
    rss=$(grep 'Maximum resident set size' "$OUT/time$t.txt" | awk '{print $NF}')
    cpu=$(awk '/User time|System time/ { s += $NF } END { print s }' "$OUT/time$t.txt")
    printf 'threads %s: wall %s (%.0f pairs/s), cpu %s s, peak RSS %.0f MiB  (load before: %s, after: %s)\n' \
        "$t" "$wall" "$(awk -v p="$pairs" -v s="$secs" 'BEGIN { print (s > 0 ? p / s : 0) }')" "$cpu" \
        "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$before" "$(load)"
done
first="$OUT/t${THREADS[0]}/chomp3-$N.gtab"
for t in "${THREADS[@]:1}"; do
    cmp "$first" "$OUT/t$t/chomp3-$N.gtab" && echo "tables at ${THREADS[0]} and $t threads: byte-identical"
done
last="$OUT/t${THREADS[-1]}/chomp3-$N.gtab"
"$BIN" info "$last" | sed -n '/P-positions/,$p'
start=$(date +%s.%N)
"$BIN" query "$last" "$N,$N,$N" "$((2 * N)),$N,$((N / 2))" "4000000000,$N,$((N / 3))" "$((N + 1)),$((N / 2)),$((N / 4))"
echo "4 queries (checksum of the whole table included): $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') s  (load $(load))"
