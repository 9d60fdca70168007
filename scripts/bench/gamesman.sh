#!/usr/bin/env bash
# Benchmark: two-player games against GamesmanOne (GamesCrafters, UC Berkeley; C, OpenMP), one
# run, side by side: wall time, peak memory (/usr/bin/time -v) and database size, with the load
# beside each figure; then tic-tac-toe position by position (value and remoteness).
#
#   GAMESMAN_SRC=/path/to/GamesmanOne [GAMESMAN_MNK_SRC=...] scripts/bench/gamesman.sh [OUT_DIR]
#
# What it runs, each at THREADS (default "1 2"; GamesmanOne through OMP_NUM_THREADS, gamedb
# through --threads):
#   * tic-tac-toe: `gamedb build mnk --rows 3 --cols 3 --k 3` and GamesmanOne's `mttt`
#     (its regular solver: one array of 3^9 records, only the positions reachable from the
#     empty board, one per symmetry class);
#   * Quixo 3×3 (GamesmanOne's `quixo` variant 2; QUIXO_4X4=1 adds 4×4, variant 1: 51 s at one
#     thread and 1 to 3 minutes at two on a loaded 2-core machine, 258 MiB) beside gamedb's
#     `quixo --size N`, then compared through GamesmanOne's query (QUIXO_SAMPLE random
#     positions of play, default 200, with all their children; its databases hold one record
#     per symmetry class under a SIMD hash, which this script does not read);
#   * the 4,4,4-game, when GAMESMAN_MNK_SRC names a checkout of GamesmanOne's branch
#     RL_mnkttier (`git worktree add ../GamesmanOne-mnk origin/RL_mnkttier` in a clone; its
#     `mnktttier`, M,N,K each 2..5, variant id 16(M-2)+4(N-2)+(K-2); an older GamesmanOne,
#     0.6.1, built with autotools; main has no m,n,k game): gamedb's `mnk 4 4 4` beside it;
#   * the comparison: scripts/bench/gamesman-compare.py reads GamesmanOne's tic-tac-toe
#     database (an xz stream of 16-bit records, value in the top 4 bits, remoteness in the low
#     12; the layout is described there) and compares every position with `gamedb export`.
#     With GAMESMAN_MNK_SRC, the 4,4,4-game is checked through mnktttier's `query` command
#     (its databases are bpdb files): the empty board and MNK_SAMPLE (default 1000) random
#     positions with all their children. A disagreement makes this script exit non-zero.
#
# How the peer is had: GamesmanOne is not on a package registry and this script never
# downloads. GAMESMAN_SRC names a checkout of it (`git clone` GamesCrafters/GamesmanOne
# beforehand; branch main, 1.3.0 when this was written). Its installer builds json-c, xz and
# lz4 from git submodules; this script instead copies the checkout's committed files (git
# archive HEAD; CMake writes src/config.h and bin/ into the source tree) under OUT and builds
# it in Release against Debian's packages. Debian's liblzma-dev and liblz4-dev ship no CMake package
# files, so two small ones are written under OUT that wrap the system libraries; its CMake
# asks for lz4 1.10.0 and bookworm has 1.9.4, which has every LZ4F call it makes.
# Debian packages needed (installed with apt-get when missing and run as root): cmake, gcc,
# make, liblzma-dev, liblz4-dev, libjson-c-dev, zlib1g-dev; with GAMESMAN_MNK_SRC also
# autoconf and automake. GamesmanOne's CMake adds -march=native.
#
# gamedb: the release build of this checkout (cargo build --release), or GAMEDB_BIN when set.
# GamesmanOne's headless command line, as used here: `gamesman --data-path=DIR solve GAME
# [VARIANT]` (the short -d takes no argument in its getopt string; an absolute DIR fails, see
# below) and `gamesman --data-path=DIR query GAME VARIANT -- POSITION`.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
: "${GAMESMAN_SRC:?GAMESMAN_SRC must name a checkout of GamesmanOne (this script never downloads)}"
GAMESMAN_SRC=$(cd "$GAMESMAN_SRC" && pwd)
[ -n "${GAMESMAN_MNK_SRC:-}" ] && GAMESMAN_MNK_SRC=$(cd "$GAMESMAN_MNK_SRC" && pwd)
ROOT=$PWD
if [ -n "${GAMEDB_BIN:-}" ]; then
    BIN=$(cd "$(dirname "$GAMEDB_BIN")" && pwd)/$(basename "$GAMEDB_BIN")
else
    cargo build --release --quiet
fi
out_folder "${1:-}"
OUT=$(cd "$OUT" && pwd)
THREADS=${THREADS:-"1 2"}

# --- Debian packages ---
pkgs=(cmake gcc make liblzma-dev liblz4-dev libjson-c-dev zlib1g-dev)
[ -n "${GAMESMAN_MNK_SRC:-}" ] && pkgs+=(autoconf automake)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "== installing with apt-get: ${missing[*]}" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
    else
        echo "missing Debian packages: ${missing[*]} (apt-get install them)" >&2
        exit 1
    fi
fi

timed() { # command...: runs it under /usr/bin/time -v; sets WALL (s), RSS (MiB), CPU, LOAD
    LOAD=$(load)
    /usr/bin/time -v "$@" >"$OUT/out.txt" 2>"$OUT/time.txt" || { tail -n 20 "$OUT/out.txt" "$OUT/time.txt" >&2; return 1; }
    local w
    w=$(grep 'Elapsed (wall clock)' "$OUT/time.txt" | awk '{print $NF}')
    WALL=$(python3 -c "import sys; p=sys.argv[1].split(':'); print(f'{sum(float(x)*60**i for i,x in enumerate(reversed(p))):.2f}')" "$w")
    RSS=$(python3 -c "import sys; print(f'{int(sys.argv[1])/1024:.1f}')" "$(grep 'Maximum resident set size' "$OUT/time.txt" | awk '{print $NF}')")
    CPU=$(grep 'Percent of CPU' "$OUT/time.txt" | awk '{print $NF}')
}
ROWS=()
# GamesmanOne at T threads: OMP_NUM_THREADS=T, and for T > 1 once more with
# OMP_WAIT_POLICY=passive: on a loaded machine libgomp's default (threads spin at barriers)
# made Quixo 3×3 take 4 to 36 s at 2 threads against 1.3 s passive and 0.3 s at 1 thread.
gamesman_rows() { # game, label, threads, data dir (relative to OUT), binary; its arguments in GM_ARGS
    local game=$1 label=$2 t=$3 dir=$4 policy; shift 4 # "$@": the binary
    for policy in default passive; do
        [ "$policy" = passive ] && [ "$t" = 1 ] && continue
        rm -rf "$dir"
        if [ "$policy" = passive ]; then
            OMP_WAIT_POLICY=passive OMP_NUM_THREADS=$t timed "$@" --data-path="$dir" "${GM_ARGS[@]}"
            row "$game" "$label passive" "$t" "$(bytes "$dir")"
        else
            OMP_NUM_THREADS=$t timed "$@" --data-path="$dir" "${GM_ARGS[@]}"
            row "$game" "$label" "$t" "$(bytes "$dir")"
        fi
    done
}
row() { # game, program, threads, disk bytes
    ROWS+=("$(printf '%-11s %-30s %2s %9s s %7s MiB %5s %10s B   %s' "$1" "$2" "$3" "$WALL" "$RSS" "$CPU" "$4" "$LOAD")")
    echo "${ROWS[-1]}"
}
bytes() { find "$1" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}'; } # files only

# --- build GamesmanOne (main) ---
G1=$OUT/gamesman-main
rm -rf "$G1"; mkdir -p "$G1/src" "$G1/shim/liblzma" "$G1/shim/lz4"
copy_source() { # checkout, destination: its committed files (git archive), else the folder
    if git -C "$1" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$1" archive --format=tar HEAD | tar -C "$2" -xf -
    else
        tar -C "$1" --exclude=./.git --exclude=./build --exclude=./bin --exclude=./lib-build \
            --exclude=./res -cf - . | tar -C "$2" -xf -
    fi
}
copy_source "$GAMESMAN_SRC" "$G1/src"
shim() { # cmake package name, library, header, target, Debian package
    local dir=$G1/shim/$1 version
    version=$(dpkg-query -W -f='${Version}' "$5" | sed 's/^[0-9]*://; s/-.*//')
    cat >"$dir/$1-config.cmake" <<EOF
# Written by gamedb's scripts/bench/gamesman.sh: Debian's $5 ships no CMake package.
if(NOT TARGET $4)
  find_library(SHIM_$1_LIB $2 REQUIRED)
  find_path(SHIM_$1_INC $3 REQUIRED)
  add_library($4 UNKNOWN IMPORTED)
  set_target_properties($4 PROPERTIES IMPORTED_LOCATION "\${SHIM_$1_LIB}" INTERFACE_INCLUDE_DIRECTORIES "\${SHIM_$1_INC}")
endif()
EOF
    printf 'set(PACKAGE_VERSION "%s")\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n' "$version" >"$dir/$1-config-version.cmake"
}
shim liblzma lzma lzma.h liblzma::liblzma liblzma-dev
shim lz4 lz4 lz4frame.h lz4::lz4 liblz4-dev
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load: $(load)"
echo "== building GamesmanOne $(git -C "$GAMESMAN_SRC" describe --always --tags 2>/dev/null || echo '?') from $GAMESMAN_SRC"
start=$(date +%s.%N)
cmake -S "$G1/src" -B "$G1/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$G1/shim" >"$G1/cmake.log" 2>&1 \
    || { tail -n 30 "$G1/cmake.log" >&2; exit 1; }
nice -n 5 cmake --build "$G1/build" -j "$(nproc)" --target gamesman >"$G1/build.log" 2>&1 \
    || { tail -n 30 "$G1/build.log" >&2; exit 1; }
GAMESMAN=$G1/src/bin/gamesman
echo "built $GAMESMAN in $(python3 -c "import time,sys; print(f'{time.time()-float(sys.argv[1]):.0f}')" "$start") s (load $(load))"

if [ -n "${GAMESMAN_MNK_SRC:-}" ]; then
    G2=$OUT/gamesman-mnk
    rm -rf "$G2"; mkdir -p "$G2"
    copy_source "$GAMESMAN_MNK_SRC" "$G2"
    echo "== building GamesmanOne's mnktttier ($(git -C "$GAMESMAN_MNK_SRC" describe --always --tags 2>/dev/null || echo '?')) from $GAMESMAN_MNK_SRC"
    (cd "$G2" && autoreconf --install && ./configure 'CFLAGS=-Wall -Wextra -g -O3 -DNDEBUG' \
        && nice -n 5 make -j "$(nproc)") >"$G2/build.log" 2>&1 || { tail -n 30 "$G2/build.log" >&2; exit 1; }
    GAMESMAN_MNK=$G2/bin/gamesman
fi

# GamesmanOne fails on an absolute --data-path (its MkdirRecursive tries to make "" for the
# leading "/", then it crashes), so it runs in OUT with relative ones.
cd "$OUT"
echo
printf '%-11s %-30s %2s %11s %11s %5s %12s   %s\n' game program T wall "peak RSS" CPU database "load before (1, 5, 15 min)"
# --- tic-tac-toe ---
for t in $THREADS; do
    rm -rf "$OUT/gamedb-333-$t"; mkdir -p "$OUT/gamedb-333-$t"
    timed "$BIN" build mnk --rows 3 --cols 3 --k 3 --threads "$t" -q --out "$OUT/gamedb-333-$t"
    row tic-tac-toe "gamedb mnk 3,3,3" "$t" "$(bytes "$OUT/gamedb-333-$t/mnk-3-3-3.gtab")"
    GM_ARGS=(solve mttt)
    gamesman_rows tic-tac-toe "GamesmanOne mttt" "$t" "gm-mttt-$t" "$GAMESMAN"
done
# --- Quixo ---
QUIXO=("3x3:2")
[ "${QUIXO_4X4:-0}" = 1 ] && QUIXO+=("4x4:1")
for q in "${QUIXO[@]}"; do
    for t in $THREADS; do
        n=${q:0:1}
        rm -rf "$OUT/gamedb-quixo-$n-$t"; mkdir -p "$OUT/gamedb-quixo-$n-$t"
        timed "$BIN" build quixo --size "$n" --threads "$t" -q --out "$OUT/gamedb-quixo-$n-$t"
        row "quixo ${q%%:*}" "gamedb quixo $n" "$t" "$(bytes "$OUT/gamedb-quixo-$n-$t/quixo-$n.gtab")"
        GM_ARGS=(solve quixo "${q#*:}")
        gamesman_rows "quixo ${q%%:*}" "GamesmanOne quixo ${q#*:}" "$t" "gm-quixo-${q%%:*}-$t" "$GAMESMAN"
    done
done
# --- the 4,4,4-game ---
if [ -n "${GAMESMAN_MNK_SRC:-}" ]; then
    for t in $THREADS; do
        rm -rf "$OUT/gamedb-444-$t"; mkdir -p "$OUT/gamedb-444-$t"
        timed "$BIN" build mnk --rows 4 --cols 4 --k 4 --threads "$t" -q --out "$OUT/gamedb-444-$t"
        row "mnk 4,4,4" "gamedb mnk 4,4,4" "$t" "$(bytes "$OUT/gamedb-444-$t/mnk-4-4-4.gtab")"
        GM_ARGS=(solve mnktttier 42)
        gamesman_rows "mnk 4,4,4" "GamesmanOne mnktttier" "$t" "gm-mnk444-$t" "$GAMESMAN_MNK"
    done
fi

# --- tic-tac-toe position by position ---
echo
echo "== tic-tac-toe, position by position (GamesmanOne mttt against gamedb mnk 3,3,3)"
t1=${THREADS%% *}
"$BIN" export "$OUT/gamedb-333-$t1/mnk-3-3-3.gtab" --format csv >"$OUT/mnk-3-3-3.csv"
status=0
python3 "$ROOT/scripts/bench/gamesman-compare.py" mttt "$OUT/gm-mttt-$t1/mttt/0/arraydb/mttt_0.adb.xz" "$OUT/mnk-3-3-3.csv" || status=1
for q in "${QUIXO[@]}"; do
    n=${q:0:1}
    echo
    echo "== Quixo ${q%%:*}, sampled (GamesmanOne quixo's query against gamedb quixo $n)"
    python3 "$ROOT/scripts/bench/gamesman-compare.py" quixo-sample "$GAMESMAN" "gm-quixo-${q%%:*}-$t1" "${q#*:}" \
        "$BIN" "$OUT/gamedb-quixo-$n-$t1/quixo-$n.gtab" --size "$n" --count "${QUIXO_SAMPLE:-200}" || status=1
done
if [ -n "${GAMESMAN_MNK_SRC:-}" ]; then
    echo
    echo "== the 4,4,4-game, sampled (GamesmanOne mnktttier's query against gamedb mnk 4,4,4)"
    python3 "$ROOT/scripts/bench/gamesman-compare.py" mnk-sample "$GAMESMAN_MNK" "gm-mnk444-$t1" 42 \
        "$BIN" "$OUT/gamedb-444-$t1/mnk-4-4-4.gtab" --rows 4 --cols 4 --k 4 --count "${MNK_SAMPLE:-1000}" || status=1
fi
exit $status
