#!/usr/bin/env bash
# Old against new by CPU time (user + system, /usr/bin/time), one thread each, for the builds,
# the pipe and the lookups of scripts/bench/compare.sh, ROUNDS rounds alternating old and new,
# the least of each kept. On a shared machine wall times mostly measure the other processes;
# the CPU time of the same single-threaded work varies far less (cache sharing still moves it
# by some per cent: compare ratios, and rerun when they are close to 1).
#
# usage: scripts/bench/cpu.sh OLD_DIR NEW_DIR [ROUNDS]   (each with gamedb and examples/lookups)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
OLD=${1:?usage: scripts/bench/cpu.sh OLD_DIR NEW_DIR [ROUNDS]}
NEW=${2:?usage: scripts/bench/cpu.sh OLD_DIR NEW_DIR [ROUNDS]}
ROUNDS=${3:-3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-cpu.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

"$NEW/gamedb" build nim --heaps 6 --max-heap 63 --out "$WORK/t" -q >/dev/null
python3 scripts/bench/positions.py nim 1000000 6 63 1 >"$WORK/nim.txt"

# count LABEL CMD...: CPU seconds (user + system) of one run, output discarded.
count() {
    local label=$1
    shift
    /usr/bin/time -f "%U %S" -o "$WORK/time" "$@" >/dev/null 2>&1 </dev/null
    awk -v l="$label" '{ printf "%s %.3f\n", l, $1 + $2 }' "$WORK/time"
}

echo "CPU time, old=$OLD new=$NEW, 1 thread, least of $ROUNDS rounds, load before: $(load)"
for round in $(seq "$ROUNDS"); do
for side in OLD NEW; do
    dir=${!side}
    rm -rf "$WORK/$side"
    count "$side nim" "$dir/gamedb" build nim --heaps 6 --max-heap 63 --threads 1 --out "$WORK/$side" -q
    count "$side chomp" "$dir/gamedb" build chomp --rows 16 --cols 16 --threads 1 --out "$WORK/$side" -q
    count "$side slide" "$dir/gamedb" build slide --rows 3 --cols 4 --threads 1 --out "$WORK/$side" -q
    count "$side pipe" sh -c "\"$dir/gamedb\" query \"$WORK/t/nim-6x63.gtab\" - --json <\"$WORK/nim.txt\""
    count "$side lookups" "$dir/examples/lookups" "$WORK/t/nim-6x63.gtab" 20000000
done
echo "round $round done (load $(load))" >&2
done >"$WORK/counts"
least() { awk -v k="$1 $2" '$1 " " $2 == k && (m == "" || $3 < m) { m = $3 } END { print m }' "$WORK/counts"; }
printf '%-10s %10s %10s %8s\n' work "old CPU s" "new CPU s" new/old
for k in nim chomp slide pipe lookups; do
    o=$(least OLD "$k")
    n=$(least NEW "$k")
    printf '%-10s %10s %10s %8.3f\n' "$k" "$o" "$n" "$(awk -v a="$o" -v b="$n" 'BEGIN { print b / a }')"
done
for f in "$WORK"/OLD/*.gtab; do
    n=$WORK/NEW/$(basename "$f")
    if cmp -s "$f" "$n"; then echo "$(basename "$f"): old and new tables byte-identical"; else echo "$(basename "$f"): TABLES DIFFER"; fi
done
echo "load after: $(load)"
