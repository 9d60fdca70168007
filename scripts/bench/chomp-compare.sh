#!/usr/bin/env bash
# Chomp boxes side by side, each at 2 threads (THREADS=..), in one run on one machine:
#   * this checkout's builder (`gamedb build chomp`: runs, triangles or the transpose),
#   * main's builder (BASE_BIN=/path/to/gamedb, or built from `git archive` of
#     `git merge-base HEAD main` into a temporary folder: the wave solver),
#   * optionally the 2026 OpenMP solver chomp3.c (jaideepsaipadhi/zeilberger-challenges), when
#     CHOMP3C names a binary of it that you built yourself (gcc -O3 -fopenmp chomp3.c -o chomp3);
#     this repository neither holds nor builds it.
# The two gamedb builders alternate which goes first from box to box, so a change of load
# hurts both alike. For each box: wall and CPU time, positions per second, peak memory
# (/usr/bin/time -v), the load before and after, the ratios, whether the two tables are
# byte-identical (cmp) and the P-position count. GRUNDY=1 builds Grundy tables instead
# (--grundy); BASE=0 skips main's builder (for boxes it would take too long on).
#
# Usage: [BASE_BIN=...] [CHOMP3C=...] [GRUNDY=1] scripts/bench/chomp-compare.sh [RxC ...]
#        (default boxes: 16x16 10x30 30x10 8x60; 10x42 is the big one: minutes, 2 GB)
set -euo pipefail
source "$(dirname "$0")/setup.sh"

BOXES=("$@")
[[ ${#BOXES[@]} -eq 0 ]] && BOXES=(16x16 10x30 30x10 8x60)
THREADS=${THREADS:-2}
GRUNDY_ARG=()
[[ "${GRUNDY:-0}" == 1 ]] && GRUNDY_ARG=(--grundy)

cargo build --release --quiet
OUT=$(mktemp -d "${TMPDIR:-/tmp}/bench-chomp-compare.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
# A copy: a rebuild of this checkout while the benchmark runs does not change what it times.
cp target/release/gamedb "$OUT/gamedb"
BIN=$OUT/gamedb

if [[ "${BASE:-1}" == 1 && -z "${BASE_BIN:-}" ]]; then
    base=$(git merge-base HEAD main)
    echo "building main's builder (commit ${base:0:10}) ..."
    mkdir -p "$OUT/base-src"
    git archive "$base" | tar -x -C "$OUT/base-src"
    cargo build --release --quiet --manifest-path "$OUT/base-src/Cargo.toml" \
        --target-dir "$OUT/base-target" --bin gamedb
    BASE_BIN=$OUT/base-target/release/gamedb
fi


# timed LABEL OUTFILE CMD...: runs CMD under /usr/bin/time -v; sets SECS CPU RSS_MB; prints a line.
timed() {
    local label=$1 out=$2
    shift 2
    local before
    before=$(load)
    /usr/bin/time -v "$@" >"$out" 2>"$OUT/time.txt"
    local wall
    wall=$(grep 'Elapsed (wall clock)' "$OUT/time.txt" | awk '{print $NF}')
    SECS=$(awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }' <<<"$wall")
    CPU=$(awk '/User time|System time/ { s += $NF } END { print s }' "$OUT/time.txt")
    RSS_MB=$(grep 'Maximum resident set size' "$OUT/time.txt" | awk '{printf "%.1f", $NF / 1024}')
    printf '  %-8s %8.2f s wall %8.2f s cpu  peak %8s MiB  (load before: %s, after: %s)\n' \
        "$label" "$SECS" "$CPU" "$RSS_MB" "$before" "$(load)"
}

# build LABEL BINARY DIR R C: one build; sets T_<LABEL> and C_<LABEL>.
build() {
    local label=$1 bin=$2 dir=$3 r=$4 c=$5
    timed "$label" "$OUT/$label.txt" "$bin" build chomp --rows "$r" --cols "$c" "${GRUNDY_ARG[@]}" \
        --threads "$THREADS" --out "$dir" -q
    printf -v "T_$label" '%s' "$SECS"
    printf -v "C_$label" '%s' "$CPU"
    local positions
    positions=$(sed -E 's/^wrote [^(]*\(([0-9]+) positions,.*/\1/' "$OUT/$label.txt")
    awk -v p="$positions" -v s="$SECS" 'BEGIN { printf "           %.1f M positions/s\n", p / s / 1e6 }'
}

echo "Chomp boxes side by side on $(nproc) cores, $THREADS threads each${GRUNDY_ARG:+ (Grundy values)}"
echo "this branch: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' + changes'); main's builder: ${BASE_BIN:-skipped}"
first=new
for box in "${BOXES[@]}"; do
    r=${box%x*}
    c=${box#*x}
    echo
    echo "== ${r}x${c} =="
    rm -rf "$OUT/new" "$OUT/main"
    f="chomp-${r}x${c}.gtab"
    [[ ${#GRUNDY_ARG[@]} -gt 0 ]] && f="chomp-${r}x${c}-grundy.gtab"
    if [[ "${BASE:-1}" != 1 ]]; then
        build new "$BIN" "$OUT/new" "$r" "$c"
    elif [[ $first == new ]]; then
        build new "$BIN" "$OUT/new" "$r" "$c"
        build main "$BASE_BIN" "$OUT/main" "$r" "$c"
        first=main
    else
        build main "$BASE_BIN" "$OUT/main" "$r" "$c"
        build new "$BIN" "$OUT/new" "$r" "$c"
        first=new
    fi
    if [[ "${BASE:-1}" == 1 ]]; then
        awk -v a="$T_new" -v b="$T_main" -v ca="$C_new" -v cb="$C_main" \
            'BEGIN { printf "  new / main: %.2fx wall, %.2fx cpu\n", a / b, ca / cb }'
        if cmp -s "$OUT/new/$f" "$OUT/main/$f"; then
            echo "  tables: byte-identical"
        else
            echo "  tables: DIFFER"
            exit 1
        fi
        rm -rf "$OUT/main"
    fi
    INFO=$("$BIN" info "$OUT/new/$f" --json)
    P=$(sed -E 's/.*"p_positions":([0-9]+).*/\1/' <<<"$INFO")
    if [[ ${#GRUNDY_ARG[@]} -gt 0 ]]; then
        echo "  P-positions: $P; largest Grundy value: $(sed -E 's/.*"max_grundy":([0-9]+).*/\1/' <<<"$INFO")"
    elif [[ -n "${CHOMP3C:-}" ]]; then
        timed chomp3.c "$OUT/c.txt" env OMP_NUM_THREADS="$THREADS" "$CHOMP3C" "$r" "$c"
        awk -v a="$T_new" -v b="$SECS" -v ca="$C_new" -v cb="$CPU" \
            'BEGIN { printf "  new / chomp3.c: %.2fx wall, %.2fx cpu\n", a / b, ca / cb }'
        PC=$(sed -nE 's/^P-positions in box: ([0-9]+)/\1/p' "$OUT/c.txt")
        if [[ "$PC" == "$((P + 1))" ]]; then
            echo "  P-positions: $P (chomp3.c: $PC, the empty board included): agree"
        else
            echo "  P-positions: $P, chomp3.c: $PC: DISAGREE"
        fi
    else
        echo "  P-positions: $P"
    fi
    "$BIN" chomp-rectangles "$OUT/new/$f" | tail -1 | sed 's/^/  /'
done
