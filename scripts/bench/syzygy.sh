#!/usr/bin/env bash
# Chess endings: gamedb's distance-to-zeroing tables (`--values dtz`) against Syzygy's
# generator (github syzygy1/tb, Ronald de Man), side by side at the same thread count, and
# position by position, with pawns or without.
#
#   TB_SRC=/path/to/tb scripts/bench/syzygy.sh OUT THREADS ENDING...
#
# ENDING is a Syzygy name as tb writes it, the stronger side first (KQvKR, KBNvKN). First `syzygy-tb.sh` builds tb and generates each
# ending's WDL and DTZ tables (after the sub-endings tb needs, which are not timed: tb reads
# them from files), each under /usr/bin/time -v, with TB_FLAGS (default -p: every DTZ stored
# exactly, so that the comparison is exact). Then, one ending at a time, gamedb builds its
# table (`gamedb build chess --men KQkr --values dtz --threads THREADS`, which solves the
# sub-endings too, in the same table) under /usr/bin/time -v, and `syzygy-compare` compares
# every position of it with Syzygy's (WDL and DTZ; see src/syzygy.rs). Prints per
# ending the wall time and peak memory of each program, gamedb's time over tb's, and the
# comparison's count of positions and of disagreements; exits 1 when a position disagrees.
# gamedb's table holds the sub-endings too: the columns "tb+subs s" and "like" set it against
# tb's time for the ending and every sub-ending it needs (OUT/tb/NAME.subs), each timed as
# tb generated it; with SUBS=again tb generates them all in this run, else a sub-ending
# generated in an earlier run counts with that run's time and the ratio is marked `*`.
# EVERY=N compares one index in N (a five-man table's every position takes minutes).
set -euo pipefail
usage="usage: TB_SRC=/path/to/tb scripts/bench/syzygy.sh OUT THREADS ENDING..."
out=${1:?$usage}
threads=${2:?$usage}
shift 2
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
mkdir -p "$out"
OUT=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
cargo build --release -q
cargo build --release -q --example syzygy-compare
compare=$PWD/target/release/examples/syzygy-compare

touch "$OUT/.start"
TB_FLAGS=${TB_FLAGS--p} "$here/syzygy-tb.sh" "$OUT/tb" "$threads" "$@" | tee "$OUT/tb.txt"

seconds() {
    grep 'Elapsed (wall' "$1" | awk '{print $NF}' |
        awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }'
}
peak() { grep 'Maximum resident' "$1" | awk '{print $NF}'; }
# A over B, or 0 where B is: a three-man table takes tb under the clock's hundredth.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > 0 ? a / b : 0) }'; }

mkdir -p "$OUT/gamedb"
echo
echo "gamedb against tb, $threads threads, load $(load)"
printf '%-8s %9s %12s %10s %9s %12s %7s %8s %12s %7s\n' ending "tb s" "tb KiB" "tb+subs s" \
    "gamedb s" "gamedb KiB" ratio like positions differ
bad=0
for e in "$@"; do
    # gamedb's men for Syzygy's name: KQvKR -> KQkr.
    name=$e
    men="${name%%v*}$(echo "${name#*v}" | tr 'A-Z' 'a-z')"
    values=dtz file=chess-$men-dtz.gtab
    rm -f "$OUT/gamedb/$file"
    /usr/bin/time -v -o "$OUT/gamedb/$men.time" "$BIN" build chess --men "$men" --values "$values" \
        --threads "$threads" --out "$OUT/gamedb" >"$OUT/gamedb/$men.log" 2>&1
    "$compare" "$OUT/gamedb/$file" "$OUT/tb/tables" --every "${EVERY:-1}" \
        >"$OUT/gamedb/$men.compare" || bad=1
    all=$(grep '^all ' "$OUT/gamedb/$men.compare")
    tb_s=$(seconds "$OUT/tb/$name.time")
    db_s=$(seconds "$OUT/gamedb/$men.time")
    # tb's time for the ending and its sub-endings; `*` where one was timed in an earlier run.
    all_s=$tb_s mark=
    while read -r s; do
        all_s=$(echo "$all_s + $(seconds "$OUT/tb/$s.time")" | bc -l)
        [ "$OUT/tb/$s.time" -nt "$OUT/.start" ] || mark='*'
    done <"$OUT/tb/$name.subs"
    printf '%-8s %9.2f %12s %10.2f %9.2f %12s %7.2f %7.2f%1s %12s %7s\n' "$name" "$tb_s" \
        "$(peak "$OUT/tb/$name.time")" "$all_s" "$db_s" "$(peak "$OUT/gamedb/$men.time")" \
        "$(ratio "$db_s" "$tb_s")" "$(ratio "$db_s" "$all_s")" "$mark" \
        "$(echo "$all" | awk '{print $2}')" "$(echo "$all" | awk '{print $NF}')"
done
echo "load $(load); comparisons in $OUT/gamedb/*.compare"
exit $bad
