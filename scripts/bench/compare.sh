#!/usr/bin/env bash
# Two builds of gamedb side by side: the same benchmarks run alternately with each (A B A B ...),
# so that a busy machine slows both alike, and the best time of each is compared. For "is this
# change slower?" questions (a refactor that must not cost time, say) on a shared machine.
#
# Usage: scripts/bench/compare.sh OLD_DIR NEW_DIR [ROUNDS]
#   OLD_DIR, NEW_DIR: cargo target profile folders holding `gamedb` and `examples/lookups`
#   (e.g. /work/base/target/release and target/release). ROUNDS (default 3) runs of each.
# Measures: Nim 6x63, Chomp 16x16 and slide 3x4 builds at 2 threads; the two-player engine
# (Five Men's Morris, remoteness; KQkr, distances to zeroing), the octal engine (0.137, a heap
# of 100,000) and the retrograde solver (Wythoff 5000) at 2 threads; 100 random 15-puzzle
# positions solved with the 7-8 tables (SOLVE_PARTITION=6-6-3 for a quicker run); in-process
# lookups (scripts/programs/lookups.rs) on the 6x63 Nim and 16x16 Chomp tables, and `query - --json`
# through a pipe on the Nim table.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
OLD=${1:?usage: scripts/bench/compare.sh OLD_DIR NEW_DIR [ROUNDS]}
NEW=${2:?usage: scripts/bench/compare.sh OLD_DIR NEW_DIR [ROUNDS]}
ROUNDS=${3:-3}
PARTITION=${SOLVE_PARTITION:-7-8}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-compare.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

secs() { # command...: wall seconds of one run, output discarded
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
declare -A BEST
best() { # key value: keeps the smallest
    local k=$1 v=$2
    if [[ -z "${BEST[$k]:-}" ]] || awk -v a="$v" -v b="${BEST[$k]}" 'BEGIN { exit !(a < b) }'; then
        BEST[$k]=$v
    fi
}

echo "gamedb side by side: OLD=$OLD NEW=$NEW, $ROUNDS rounds, $(nproc) cores, load before: $(load)"

# The inputs, built by each binary for itself (two builds may write different format versions).
for side in OLD NEW; do
    dir=${!side}
    "$dir/gamedb" build nim --heaps 6 --max-heap 63 --out "$WORK/t-$side" -q >/dev/null
    "$dir/gamedb" build fifteen --partition "$PARTITION" --out "$WORK/t-$side" -q >/dev/null
    "$dir/gamedb" build chomp --rows 16 --cols 16 --out "$WORK/t-$side" -q >/dev/null
done
python3 scripts/bench/positions.py nim 1000000 6 63 1 >"$WORK/nim.txt"
python3 scripts/bench/positions.py solvable 100 4 4 2026 >"$WORK/fifteen.txt"

# Each benchmark runs with one build, then at once with the other (the first of the two
# alternating by round), so a load that comes and goes within a round slows both alike.
run_one() { # side benchmark
    local side=$1 bench=$2 dir=${!1} out="$WORK/$1"
    case $bench in
    nim) rm -rf "$out"; best "$side nim" "$(secs "$dir/gamedb" build nim --heaps 6 --max-heap 63 --threads 2 --out "$out" -q)" ;;
    chomp) rm -rf "$out"; best "$side chomp" "$(secs "$dir/gamedb" build chomp --rows 16 --cols 16 --threads 2 --out "$out" -q)" ;;
    slide) rm -rf "$out"; best "$side slide" "$(secs "$dir/gamedb" build slide --rows 3 --cols 4 --threads 2 --out "$out" -q)" ;;
    mill) rm -rf "$out"; best "$side mill" "$(secs "$dir/gamedb" build mill --men 5 --threads 2 --out "$out" -q)" ;;
    chess) rm -rf "$out"; best "$side chess" "$(secs "$dir/gamedb" build chess --men KQkr --values dtz --threads 2 --out "$out" -q)" ;;
    octal) rm -rf "$out"; best "$side octal" "$(secs "$dir/gamedb" build octal --code 0.137 --max-heap 100000 --threads 2 --out "$out" -q)" ;;
    wythoff) rm -rf "$out"; best "$side wythoff" "$(secs "$dir/gamedb" build wythoff --max-heap 5000 --threads 2 --out "$out" -q)" ;;
    solve) best "$side solve" "$(secs "$dir/gamedb" solve --tables "$WORK/t-$side" --partition "$PARTITION" --json - <"$WORK/fifteen.txt")" ;;
    pipe) best "$side pipe" "$(secs "$dir/gamedb" query "$WORK/t-$side/nim-6x63.gtab" - --json <"$WORK/nim.txt")" ;;
    lookups | lookups-chomp)
        # The best "million lookups/s" of each loop (higher is better: kept as 1/x).
        local table=nim-6x63 key=lookups
        [[ $bench == lookups-chomp ]] && table=chomp-16x16 key="lookups chomp"
        while read -r name rate; do
            best "$side $key $name" "$(awk -v r="$rate" 'BEGIN { printf "%.6f", 1 / r }')"
        done < <("$dir/examples/lookups" "$WORK/t-$side/$table.gtab" 20000000 |
            sed -nE 's/^([a-z]+)[^:]*: +[0-9.]+ s +([0-9.]+) million.*/\1 \2/p') ;;
    esac
}

for round in $(seq "$ROUNDS"); do
    if ((round % 2)); then order="OLD NEW"; else order="NEW OLD"; fi
    for bench in nim chomp slide mill chess octal wythoff solve pipe lookups lookups-chomp; do
        for side in $order; do
            run_one "$side" "$bench"
        done
    done
    echo "round $round done (load $(load))"
done

printf '\n%-28s %12s %12s %8s\n' "benchmark (best of $ROUNDS)" "old" "new" "new/old"
for k in nim chomp slide mill chess octal wythoff solve pipe; do
    o=${BEST["OLD $k"]}; n=${BEST["NEW $k"]}
    printf '%-28s %11.2fs %11.2fs %8.3f\n' "$k" "$o" "$n" "$(awk -v a="$o" -v b="$n" 'BEGIN { print b / a }')"
done
for k in "lookups checked" "lookups ranked" "lookups batch" "lookups chomp checked" \
    "lookups chomp ranked" "lookups chomp batch"; do
    o=${BEST["OLD $k"]:-}; n=${BEST["NEW $k"]:-}
    [[ -n "$o" && -n "$n" ]] || continue
    printf '%-28s %10.2fM/s %10.2fM/s %8.3f\n' "$k" "$(awk -v a="$o" 'BEGIN { print 1 / a }')" \
        "$(awk -v a="$n" 'BEGIN { print 1 / a }')" "$(awk -v a="$o" -v b="$n" 'BEGIN { print a / b }')"
done
echo "(times: new/old below 1 is faster; lookups: new/old above 1 is faster)  load after: $(load)"
