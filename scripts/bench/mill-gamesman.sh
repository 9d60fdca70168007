#!/usr/bin/env bash
# Benchmark: Five and Six Men's Morris against GamesmanOne's mill games (GamesCrafters, UC
# Berkeley; C, OpenMP), one run, side by side: wall time, peak memory (/usr/bin/time -v) and
# database size with the load beside each figure; then the two compared position by position.
#
#   GAMESMAN_REPO=/path/to/GamesmanOne.git scripts/bench/mill-gamesman.sh [OUT_DIR]
#
# GamesmanOne's mill games (`mills`: Five, Six, Seven, Nine Men's Morris and others as
# variants) are on its development branch `rs/mills` (MILLS_REF, default rs/mills), not on
# main. GAMESMAN_REPO names a git repository that has that branch (a clone, or the mirror's
# bare repository); its committed files at MILLS_REF are copied (git archive) under
# OUT/gamesman-mills and built in Release against Debian's packages as
# scripts/bench/gamesman.sh builds main (the same small CMake package files for xz and lz4,
# Debian's shipping none; the branch links LZ4::lz4 where main links lz4::lz4, so the lz4 one
# defines both). GAMESMAN_MILLS_BIN skips the build and uses that binary. This script never
# downloads.
#
# What it runs, at each of THREADS (default "1 2"; GamesmanOne through OMP_NUM_THREADS with
# OMP_WAIT_POLICY=passive, gamedb through --threads), for MEN (default "5 6"):
#   * gamedb: `gamedb build mill --men N` (the whole game: every index of every tier the start
#     reaches; one board of each class under the board's 16 symmetries solved, its value
#     copied to the rest, so the table still holds every index);
#   * GamesmanOne: `gamesman solve mills V`, V = 0 (Five Men's Morris) or 72 (Six), its
#     standard options: no flying, no Lasker rule, standard removal, not misère (the rules
#     gamedb's `mill` has without --flying); it stores one record per position of each tier
#     (symmetric ones folded onto a canonical one, 16 symmetries of the board).
#   * the comparison, scripts/bench/mill-gamesman.py: random walks from the empty board
#     through GamesmanOne's `query` (WALKS walks of PLIES plies, default 40 and 25), every
#     position seen and every child listed there asked of gamedb; value and remoteness must
#     agree. Its databases are xz streams of 16-bit records (value in the top 4 bits,
#     remoteness in the low 12) indexed by its own SIMD hash of the board, which this script
#     does not re-implement; hence the query command.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
ROOT=$PWD
if [ -n "${GAMEDB_BIN:-}" ]; then
    BIN=$(cd "$(dirname "$GAMEDB_BIN")" && pwd)/$(basename "$GAMEDB_BIN")
else
    cargo build --release --quiet
fi
out_folder "${1:-}"
OUT=$(cd "$OUT" && pwd)
THREADS=${THREADS:-"1 2"}
MEN=${MEN:-"5 6"}
MILLS_REF=${MILLS_REF:-rs/mills}

timed() { # command...: runs it under /usr/bin/time -v; sets WALL (s), RSS (MiB), LOAD
    LOAD=$(load)
    /usr/bin/time -v "$@" >"$OUT/out.txt" 2>"$OUT/time.txt" || { tail -n 20 "$OUT/out.txt" "$OUT/time.txt" >&2; return 1; }
    local w
    w=$(grep 'Elapsed (wall clock)' "$OUT/time.txt" | awk '{print $NF}')
    WALL=$(python3 -c "import sys; p=sys.argv[1].split(':'); print(f'{sum(float(x)*60**i for i,x in enumerate(reversed(p))):.2f}')" "$w")
    RSS=$(python3 -c "import sys; print(f'{int(sys.argv[1])/1024:.1f}')" "$(grep 'Maximum resident set size' "$OUT/time.txt" | awk '{print $NF}')")
}
bytes() { find "$1" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}'; }
row() { printf '%-18s %-26s %2s %9s s %8s MiB %11s B   %s\n' "$1" "$2" "$3" "$WALL" "$RSS" "$4" "$LOAD"; }

if [ -n "${GAMESMAN_MILLS_BIN:-}" ]; then
    GAMESMAN=$GAMESMAN_MILLS_BIN
else
    : "${GAMESMAN_REPO:?GAMESMAN_REPO must name a git repository of GamesmanOne with branch $MILLS_REF (this script never downloads)}"
    for p in cmake gcc make liblzma-dev liblz4-dev libjson-c-dev zlib1g-dev; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || { echo "missing Debian package: $p (apt-get install it)" >&2; exit 1; }
    done
    G=$OUT/gamesman-mills
    rm -rf "$G"; mkdir -p "$G/src" "$G/shim/liblzma" "$G/shim/lz4"
    git -C "$GAMESMAN_REPO" archive --format=tar "$MILLS_REF" | tar -C "$G/src" -xf -
    shim() { # cmake package name, library, header, Debian package, targets...
        local name=$1 lib=$2 inc=$3 deb=$4 version t
        local dir=$G/shim/$name
        shift 4
        version=$(dpkg-query -W -f='${Version}' "$deb" | sed 's/^[0-9]*://; s/-.*//')
        {
            echo "# Written by gamedb's scripts/bench/mill-gamesman.sh: Debian's $deb ships no CMake package."
            echo "find_library(SHIM_${name}_LIB $lib REQUIRED)"
            echo "find_path(SHIM_${name}_INC $inc REQUIRED)"
            for t in "$@"; do
                echo "if(NOT TARGET $t)"
                echo "  add_library($t UNKNOWN IMPORTED)"
                echo "  set_target_properties($t PROPERTIES IMPORTED_LOCATION \"\${SHIM_${name}_LIB}\" INTERFACE_INCLUDE_DIRECTORIES \"\${SHIM_${name}_INC}\")"
                echo "endif()"
            done
        } >"$dir/$name-config.cmake"
        printf 'set(PACKAGE_VERSION "%s")\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n' "$version" >"$dir/$name-config-version.cmake"
    }
    shim liblzma lzma lzma.h liblzma-dev liblzma::liblzma
    shim lz4 lz4 lz4frame.h liblz4-dev lz4::lz4 LZ4::lz4
    echo "== building GamesmanOne $MILLS_REF ($(git -C "$GAMESMAN_REPO" rev-parse --short "$MILLS_REF")) from $GAMESMAN_REPO"
    cmake -S "$G/src" -B "$G/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$G/shim" >"$G/cmake.log" 2>&1 \
        || { tail -n 30 "$G/cmake.log" >&2; exit 1; }
    nice -n 5 cmake --build "$G/build" -j "$(nproc)" --target gamesman >"$G/build.log" 2>&1 \
        || { tail -n 30 "$G/build.log" >&2; exit 1; }
    GAMESMAN=$G/src/bin/gamesman
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load: $(load)"

# GamesmanOne fails on an absolute --data-path (see gamesman.sh): it runs in OUT, relative.
cd "$OUT"
printf '%-18s %-26s %2s %11s %12s %13s   %s\n' game program T wall "peak RSS" database "load before (1, 5, 15 min)"
status=0
for n in $MEN; do
    case $n in
        5) variant=0; name="Five Men's" ;;
        6) variant=72; name="Six Men's" ;;
        *) echo "MEN: 5 or 6, not $n" >&2; exit 2 ;;
    esac
    for t in $THREADS; do
        rm -rf "gamedb-$n-$t"; mkdir -p "gamedb-$n-$t"
        timed "$BIN" build mill --men "$n" --threads "$t" -q --no-checkpoints --out "gamedb-$n-$t"
        row "$name" "gamedb mill --men $n" "$t" "$(bytes "gamedb-$n-$t/mill-$n.gtab")"
        rm -rf "gm-$n-$t"
        OMP_WAIT_POLICY=passive OMP_NUM_THREADS=$t timed "$GAMESMAN" --data-path="gm-$n-$t" solve mills "$variant"
        row "$name" "GamesmanOne mills $variant" "$t" "$(bytes "gm-$n-$t")"
    done
    t1=${THREADS%% *}
    "$BIN" info "gamedb-$n-$t1/mill-$n.gtab" | grep -E '^(positions|reachable|start|max remoteness):'
    python3 "$ROOT/scripts/bench/mill-gamesman.py" "$GAMESMAN" "gm-$n-$t1" "$variant" "$BIN" \
        "gamedb-$n-$t1/mill-$n.gtab" --men "$n" --walks "${WALKS:-40}" --plies "${PLIES:-25}" || status=1
done
exit $status
