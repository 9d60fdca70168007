#!/usr/bin/env bash
# Chess endings with Syzygy's own generator (github syzygy1/tb, C, Ronald de Man): builds
# `rtbgen` (pawnless endings) and `rtbgenp` (endings with pawns) from TB_SRC, then generates
# each ENDING's WDL (.rtbw) and DTZ (.rtbz) table at THREADS threads under /usr/bin/time -v
# and prints per ending the wall time, the peak memory and the sizes of the two files; then
# the total time. A reference for scripts/bench/chess.sh (gamedb's own chess endings).
#
#   TB_SRC=/path/to/tb scripts/bench/syzygy-tb.sh OUT THREADS ENDING...
#
# ENDING is a Syzygy name, white the stronger side: KQvK, KRvKN, KPvKP (KNvKR is read as
# KRvKN). TB_SRC is a checkout of syzygy1/tb (or its src/ folder), or a bare git directory of
# it (this script never downloads). The sources are copied into OUT/build and built with tb's
# own Makefile (needs libzstd-dev; -DBMI2 is replaced by -DMAGIC on a CPU without BMI2).
#
# The generator reads the WDL tables of the endings a capture or a promotion leads to, from
# the folders of $RTBPATH (colon-separated), and stops with "Missing table" when one is not
# there. The script therefore generates those sub-endings first (fewer men first, then fewer
# pawns), all into OUT/tables, with RTBPATH=OUT/tables; a sub-ending whose two files are
# already there is not generated again, an ENDING always is. Each table's log (the
# generator's output, with its statistics: positions per value, longest wins) is
# OUT/NAME.log, its /usr/bin/time -v report OUT/NAME.time. Sub-endings are marked `sub` in
# the summary; SUBS=again generates them again (each timed, in this run), and OUT/NAME.subs
# lists, for each ENDING, the sub-endings it needs (what gamedb solves in the same table, so
# that scripts/bench/syzygy.sh can set tb's time for the whole against gamedb's). TB_FLAGS passes options to the generator: TB_FLAGS=-p stores DTZ exactly (by
# default tb stores most distances halved, which a probe reads as the value or one more).
set -euo pipefail
usage="usage: TB_SRC=/path/to/tb scripts/bench/syzygy-tb.sh OUT THREADS ENDING..."
out=${1:?$usage}
threads=${2:?$usage}
shift 2
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
: "${TB_SRC:?TB_SRC must name a checkout (or git directory) of syzygy1/tb}"
mkdir -p "$out"
OUT=$(cd "$out" && pwd)
TB_SRC=$(cd "$TB_SRC" && pwd)
source "$(dirname "$0")/setup.sh"

# Build rtbgen and rtbgenp in OUT/build/src (make rebuilds nothing on a second run).
build=$OUT/build
if [ ! -f "$build/src/Makefile" ]; then
    rm -rf "$build"
    mkdir -p "$build"
    if [ -f "$TB_SRC/src/Makefile" ]; then
        cp -r "$TB_SRC/src" "$build/"
    elif [ -f "$TB_SRC/Makefile" ] && [ -f "$TB_SRC/rtbgen.c" ]; then
        cp -r "$TB_SRC" "$build/src"
    else
        git --git-dir="$TB_SRC" archive HEAD src | tar -x -C "$build"
    fi
    grep -qw bmi2 /proc/cpuinfo || sed -i 's/^FLAGS = -DBMI2$/FLAGS = -DMAGIC/' "$build/src/Makefile"
fi
make -s -C "$build/src" rtbgen rtbgenp >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 1; }

# The endings to generate: the closure of the ENDINGs under captures and promotions, named as
# tb names them (more men first; with as many, the side whose pieces, strongest first in the
# order Q R B N P, come first), fewer men first, then fewer pawns. One line each: NAME ROLE.
plan=$(python3 - "$OUT" "$@" <<'PY'
import sys
ORDER = "QRBNP"

def name(w, b):
    w, b = (sorted(s, key=ORDER.index) for s in (w, b))
    key = lambda s: (-len(s), [ORDER.index(c) for c in s])
    if key(b) < key(w):
        w, b = b, w
    return "K" + "".join(w) + "vK" + "".join(b)

def parse(e):
    sides = e.split("v")
    if len(sides) != 2 or not all(s.startswith("K") for s in sides) \
            or any(c not in ORDER for s in sides for c in s[1:]) or e == "KvK":
        sys.exit(f"not a Syzygy ending: {e}")
    return sides[0][1:], sides[1][1:]

def successors(w, b):
    for i in range(len(w)):
        yield w[:i] + w[i + 1:], b
        if w[i] == "P":
            for p in "QRBN":
                yield w[:i] + p + w[i + 1:], b
    for i in range(len(b)):
        yield w, b[:i] + b[i + 1:]
        if b[i] == "P":
            for p in "QRBN":
                yield w, b[:i] + p + b[i + 1:]

def closure(n):
    found, todo = {}, [n]
    while todo:
        m = todo.pop()
        if m in found:
            continue
        found[m] = parse(m)
        for w, b in successors(*found[m]):
            if w or b:
                todo.append(name(w, b))
    return found

out = sys.argv[1]
asked, seen = [], {}
for e in sys.argv[2:]:
    n = name(*parse(e))
    if n != e:
        print(f"{e} is {n} in Syzygy's naming", file=sys.stderr)
    if n not in asked:
        asked.append(n)
order = lambda n: (len(n), n.count("P"), n)
for n in asked:
    needs = closure(n)
    seen.update(needs)
    with open(f"{out}/{n}.subs", "w") as f:
        f.writelines(f"{m}\n" for m in sorted(needs, key=order) if m != n)
for n in sorted(seen, key=order):
    print(n, "asked" if n in asked else "sub")
PY
)

tables=$OUT/tables
mkdir -p "$tables"
echo "load $(load), $threads threads, $(echo "$plan" | grep -c ' asked$') endings" \
    "($(echo "$plan" | grep -c ' sub$') sub-endings), tb $(git --git-dir="$TB_SRC" rev-parse --short HEAD 2>/dev/null || git -C "$TB_SRC" rev-parse --short HEAD 2>/dev/null || echo checkout)"
printf '%-8s %-5s %9s %14s %12s %12s\n' ending role seconds "peak RSS KiB" "rtbw bytes" "rtbz bytes"
start=$(date +%s.%N)
while read -r e role; do
    if [ "$role" = sub ] && [ "${SUBS:-}" != again ] && [ -f "$tables/$e.rtbw" ] &&
        [ -f "$tables/$e.rtbz" ]; then
        printf '%-8s %-5s %9s %14s %12s %12s\n' "$e" "$role" - - \
            "$(stat -c %s "$tables/$e.rtbw")" "$(stat -c %s "$tables/$e.rtbz")"
        continue
    fi
    case $e in *P*) gen=$build/src/rtbgenp ;; *) gen=$build/src/rtbgen ;; esac
    rm -f "$tables/$e.rtbw" "$tables/$e.rtbz"
    log=$OUT/$e.time
    (cd "$tables" && RTBPATH=$tables /usr/bin/time -v -o "$log" "$gen" -t "$threads" ${TB_FLAGS:-} "$e") \
        >"$OUT/$e.log" 2>&1 || { echo "$e failed:" >&2; tail -5 "$OUT/$e.log" >&2; exit 1; }
    secs=$(grep 'Elapsed (wall' "$log" | awk '{print $NF}' | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    rss=$(grep 'Maximum resident' "$log" | awk '{print $NF}')
    printf '%-8s %-5s %9.2f %14s %12s %12s\n' "$e" "$role" "$secs" "$rss" \
        "$(stat -c %s "$tables/$e.rtbw")" "$(stat -c %s "$tables/$e.rtbz")"
done <<<"$plan"
end=$(date +%s.%N)
printf "total %.2f s, load %s\n" "$(echo "$end - $start" | bc)" "$(load)"
