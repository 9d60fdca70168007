#!/usr/bin/env bash
# Benchmarks of `gamedb enumerate`: release build (with the `mpi` feature when Open
# MPI is installed), time and peak memory from /usr/bin/time -v, the load average beside every
# figure.
#
#   scripts/bench/enumerate.sh          small sizes (about 10 minutes, at most 1.5 GiB): 3x4 side by
#                                       side with `build slide`; 2x6 at 1 and 2 threads (and 2 MPI
#                                       processes), tables compared byte for byte, per-level rates;
#                                       the cost of a table in main memory and of the 2x7 board's
#                                       moves (scripts/programs/enumerate-costs.rs); the projected 2x7 run;
#                                       4x4 / 3x5 / 2x8 early levels (sparse store)
#   scripts/bench/enumerate.sh --scale  MPI scaling over loopback (about 10 minutes on
#                                       two cores, at most 1 GiB): the 2x6 complete table and the
#                                       4x4 to depth DEPTH_SCALE at 1, 2, 4 and 8 processes of one
#                                       thread each (oversubscribed), counts and tables compared
#                                       with one process, the exchange bytes of each run per
#                                       position expanded (the fraction of moves that leave a
#                                       process), the rates per CPU-second
#   scripts/bench/enumerate.sh --big    the long runs for an idle machine (about 16 GiB of memory,
#                                       25 GB of disk, one to two hours): the 2x7 complete table at
#                                       2 threads (counts against OEIS A346736, queries checked by
#                                       replaying their paths), the same as 2 MPI processes (table
#                                       compared byte for byte), 4x4 to depth DEPTH_4X4 at 1 and 2
#                                       processes, 3x5 and 2x8 to depth 30
#
# Variables: OUT (work folder, default /tmp/gamedb-bench-enumerate), DEPTH_4X4 (default 30),
# SKIP_2X7 (set: --big without the two 2x7 runs), DEPTH_SCALE (--scale, default 24), PROCS
# (--scale, default "1 2 4 8").
set -euo pipefail
source "$(dirname "$0")/setup.sh"

BIG=0
[ "${1:-}" = "--big" ] && BIG=1
SCALE=0
[ "${1:-}" = "--scale" ] && SCALE=1
OUT=${OUT:-/tmp/gamedb-bench-enumerate}
mkdir -p "$OUT"

FEATURES=()
if command -v mpirun >/dev/null 2>&1; then FEATURES=(--features mpi); fi
cargo build --release --quiet "${FEATURES[@]}" --bin gamedb --example enumerate-costs
COSTS=target/release/examples/enumerate-costs
MPIRUN=(mpirun --oversubscribe --allow-run-as-root --mca btl self,vader,tcp)


# run LABEL CMD...: runs CMD under /usr/bin/time -v; prints wall time, CPU time, peak memory and
# the load; keeps the JSON summary in $OUT/LABEL.json.
run() {
    local label=$1
    shift
    local before
    before=$(load)
    /usr/bin/time -v "$@" >"$OUT/$label.json" 2>"$OUT/$label.time"
    local wall user peak
    wall=$(grep 'Elapsed (wall clock)' "$OUT/$label.time" | awk '{print $NF}')
    user=$(grep 'User time' "$OUT/$label.time" | awk '{print $NF}')
    peak=$(grep 'Maximum resident' "$OUT/$label.time" | awk '{print $NF}')
    printf '%-26s %9s wall %8s s CPU  peak %8.1f MiB (per process)  load %s -> %s\n' \
        "$label" "$wall" "$user" "$(echo "$peak / 1024" | bc -l)" "$before" "$(load)"
    python3 - "$OUT/$label.json" <<'EOF'
import json, sys
try:
    j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
except Exception:
    sys.exit(0)
print("%26s %s store, %d process(es) x %d thread(s), %d positions to depth %d%s, %.1f M positions/s"
      % ("", j["store"], j["processes"], j["threads"], j["reached"], j["max_depth"],
         " (complete)" if j["complete"] else "", j["positions_per_second"] / 1e6))
EOF
}

counts() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])["counts"])' "$1"; }

# same A B: the two summaries have the same counts.
same() {
    if [ "$(counts "$OUT/$1.json")" = "$(counts "$OUT/$2.json")" ]; then
        echo "  counts of $1 and $2: identical"
    else
        echo "  counts of $1 and $2: DIFFER"
        exit 1
    fi
}

# published BOARD LABEL: the counts equal the published ones (tests/data/slide-distances.txt,
# boards written WIDTHxHEIGHT there).
published() {
    python3 - "$1" "$OUT/$2.json" <<'EOF'
import json, os, sys
board, path = sys.argv[1], sys.argv[2]
got = json.loads(open(path).read().strip().splitlines()[-1])["counts"]
for cand in ("tests/data/slide-distances.txt",):
    if os.path.exists(cand):
        for line in open(cand):
            if line.startswith(board + " "):
                want = [int(x) for x in line.split(":")[1].split()]
                ok = want[: len(got)] == got
                print("  %s counts at depths 0..%d equal the published ones (OEIS): %s" % (board, len(got) - 1, "yes" if ok else "NO"))
                sys.exit(0 if ok else 1)
print("  (no published counts for %s here)" % board)
EOF
}

E=(enumerate slide --json --quiet --out "$OUT" --no-checkpoints)

# exchanged LABEL: what the run's exchange carried (`level_sent_bytes`), per position expanded:
# each remote neighbour is 8 bytes, so bytes / 8 / positions expanded is the number of moves a
# position sends away, and that over the board's mean number of moves is the fraction of moves
# that cross to another process.
exchanged() {
    python3 - "$OUT/$1.json" <<'EOF'
import json, sys
j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
c, sent, recv = j["counts"], j["level_sent_bytes"], j["level_received_bytes"]
total = sum(map(sum, sent))
assert total == sum(map(sum, recv)), "sent and received differ"
expanded = sum(c[d] for d in range(len(sent)))
r, k = j["rows"], j["cols"]
# The blank's moves over its cells: 2 for each pair of neighbouring cells.
moves = 2 * (r * (k - 1) + k * (r - 1)) / (r * k)
per = total / max(expanded, 1)
by_proc = [sum(l[p] for l in sent) for p in range(j["processes"])]
print("%26s exchange: %d bytes sent in all (%.2f MB), %.2f bytes a position expanded = %.3f of its %.2f moves remote; per process %s MB"
      % ("", total, total / 1e6, per, per / 8 / moves, moves, " ".join("%.1f" % (b / 1e6) for b in by_proc)))
EOF
}

if [ $SCALE -eq 1 ]; then
    if [ ${#FEATURES[@]} -eq 0 ]; then
        echo "--scale needs Open MPI (mpirun) and the mpi feature" >&2
        exit 2
    fi
    DEPTH_SCALE=${DEPTH_SCALE:-24}
    PROCS=${PROCS:-1 2 4 8}
    echo "== 2x6 complete table at $PROCS processes x 1 thread (oversubscribed beyond the cores)"
    for np in $PROCS; do
        if [ "$np" = 1 ]; then
            run scale-2x6-np1 "$BIN" "${E[@]}" --rows 2 --cols 6 --table --threads 1
            cp "$OUT/slide-2x6-mod3.gtab" "$OUT/scale-np1.gtab"
        else
            run "scale-2x6-np$np" "${MPIRUN[@]}" -np "$np" "$BIN" "${E[@]}" --rows 2 --cols 6 --table --threads 1
            same scale-2x6-np1 "scale-2x6-np$np"
            cmp "$OUT/scale-np1.gtab" "$OUT/slide-2x6-mod3.gtab" && echo "  tables of 1 and $np processes: byte-identical"
        fi
        exchanged "scale-2x6-np$np"
    done
    rm -f "$OUT"/*.gtab
    echo "== 4x4 to depth $DEPTH_SCALE (sparse store) at $PROCS processes x 1 thread"
    for np in $PROCS; do
        if [ "$np" = 1 ]; then
            run scale-4x4-np1 "$BIN" "${E[@]}" --rows 4 --cols 4 --max-depth "$DEPTH_SCALE" --threads 1
            published "4x4" scale-4x4-np1
        else
            run "scale-4x4-np$np" "${MPIRUN[@]}" -np "$np" "$BIN" "${E[@]}" --rows 4 --cols 4 --max-depth "$DEPTH_SCALE" --threads 1
            same scale-4x4-np1 "scale-4x4-np$np"
        fi
        exchanged "scale-4x4-np$np"
    done
    exit 0
fi

if [ $BIG -eq 0 ]; then
    echo "== 3x4 complete: the engine beside the byte-table builder, 2 threads, alternately"
    for round in 1 2; do
        run "build-slide-3x4-$round" "$BIN" build slide --rows 3 --cols 4 --out "$OUT" --quiet --threads 2
        run "enumerate-3x4-$round" "$BIN" "${E[@]}" --rows 3 --cols 4 --table --threads 2
    done
    python3 - "$OUT" <<'EOF'
import re, sys
def t(label, what):
    text = open("%s/%s.time" % (sys.argv[1], label)).read()
    if what == "wall":
        v = re.search(r"Elapsed \(wall clock\).*: (\S+)", text).group(1).split(":")
        return sum(float(x) * 60 ** i for i, x in enumerate(reversed(v)))
    return float(re.search(r"User time \(seconds\): (\S+)", text).group(1))
for what in ("wall", "user"):
    b = min(t("build-slide-3x4-%d" % r, what) for r in (1, 2))
    e = min(t("enumerate-3x4-%d" % r, what) for r in (1, 2))
    print("  enumerate / build slide, %s time (best of 2 each): %.2f s / %.2f s = %.2f" % ("CPU" if what == "user" else what, e, b, e / b))
EOF

    echo "== 2x6 complete table: 1 and 2 threads (and 2 MPI processes), byte for byte"
    run enumerate-2x6-t1 "$BIN" "${E[@]}" --rows 2 --cols 6 --table --threads 1
    cp "$OUT/slide-2x6-mod3.gtab" "$OUT/t1.gtab"
    run enumerate-2x6-t2 "$BIN" "${E[@]}" --rows 2 --cols 6 --table --threads 2
    same enumerate-2x6-t1 enumerate-2x6-t2
    cmp "$OUT/t1.gtab" "$OUT/slide-2x6-mod3.gtab" && echo "  tables at 1 and 2 threads: byte-identical"
    if [ ${#FEATURES[@]} -gt 0 ]; then
        run enumerate-2x6-np2 "${MPIRUN[@]}" -np 2 "$BIN" "${E[@]}" --rows 2 --cols 6 --table --threads 1
        same enumerate-2x6-t1 enumerate-2x6-np2
        cmp "$OUT/t1.gtab" "$OUT/slide-2x6-mod3.gtab" && echo "  tables of 1 and 2 processes: byte-identical"
    fi
    rm -f "$OUT"/*.gtab
    echo "   2x6 per level at 2 threads (levels over 1 M positions): positions/s"
    python3 - "$OUT/enumerate-2x6-t2.json" <<'EOF'
import json, sys
j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
c, s = j["counts"], j["level_seconds"]
rows = ["d%d %.1fM" % (d + 1, c[d + 1] / max(s[d], 1e-9) / 1e6) for d in range(len(s)) if c[d + 1] > 1e6]
for k in range(0, len(rows), 8):
    print("     " + "  ".join(rows[k : k + 8]))
EOF

    echo "== the costs the 2x7 run cannot be timed by here (scripts/programs/enumerate-costs.rs, 1 thread)"
    before=$(load)
    RAYON_NUM_THREADS=1 "$COSTS" memory 20 28 | tee "$OUT/memory.txt"
    "$COSTS" moves 2 6 | tee "$OUT/moves.txt"
    "$COSTS" moves 2 7 | tee -a "$OUT/moves.txt"
    echo "   load $before -> $(load)"

    echo "== projected 2x7 complete table (43,589,145,600 positions) at 2 threads on an idle machine"
    python3 - "$OUT" <<'EOF'
import json, re, sys
out = sys.argv[1]
def cpu(label):
    return float(re.search(r"User time \(seconds\): (\S+)", open("%s/%s.time" % (out, label)).read()).group(1))
j = json.loads(open("%s/enumerate-2x6-t1.json" % out).read().strip().splitlines()[-1])
per_2x6 = cpu("enumerate-2x6-t1") / j["reached"] * 1e9
mem = [float(x) for x in re.findall(r"([0-9.]+) ns CPU a position", open("%s/memory.txt" % out).read())]
moves = dict(re.findall(r"moves (\S+) at density \S+: ([0-9.]+) ns", open("%s/moves.txt" % out).read()))
dram = mem[1] - mem[0]
board = float(moves["2x7"]) - float(moves["2x6"])
per_2x7 = per_2x6 + board + dram
positions = 43589145600
for threads, eff in ((2, 1.0), (2, 0.9)):
    secs = positions * per_2x7 * 1e-9 / threads / eff
    print("  %.1f ns CPU a position (2x6 %.1f + 2x7 moves %+.1f + main memory %+.1f) -> %.0f min at %d threads, %d%% parallel efficiency"
          % (per_2x7, per_2x6, board, dram, secs / 60, threads, eff * 100))
EOF

    echo "== 4x4, 3x5, 2x8 early levels (sparse store)"
    run enumerate-4x4-d24 "$BIN" "${E[@]}" --rows 4 --cols 4 --max-depth 24 --threads 2
    published "4x4" enumerate-4x4-d24
    if [ ${#FEATURES[@]} -gt 0 ]; then
        run enumerate-4x4-d24-np2 "${MPIRUN[@]}" -np 2 "$BIN" "${E[@]}" --rows 4 --cols 4 --max-depth 24 --threads 1
        same enumerate-4x4-d24 enumerate-4x4-d24-np2
    fi
    run enumerate-3x5-d24 "$BIN" "${E[@]}" --rows 3 --cols 5 --max-depth 24 --threads 2
    run enumerate-2x8-d28 "$BIN" "${E[@]}" --rows 2 --cols 8 --max-depth 28 --threads 2
    exit 0
fi

DEPTH_4X4=${DEPTH_4X4:-30}
if [ -z "${SKIP_2X7:-}" ]; then
echo "== 2x7 complete 2-bit table, 2 threads (targets: under 45 min, at most 16 GiB)"
run enumerate-2x7-t2 "$BIN" enumerate slide --json --out "$OUT" --rows 2 --cols 7 --table --threads 2 \
    --checkpoint-every 1800
python3 - "$OUT/enumerate-2x7-t2.json" <<'EOF'
import json, sys
j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
c = j["counts"]
# OEIS A346736 as its entry prints it (depths 0..38), the deepest level and the total.
a346736 = [1, 2, 3, 6, 11, 20, 37, 67, 117, 198, 329, 557, 942, 1575, 2597, 4241, 6724, 10535,
           16396, 25515, 39362, 60532, 92089, 138969, 207274, 307725, 453000, 664240, 964874,
           1392975, 1992353, 2832063, 3988528, 5586275, 7756511, 10698721, 14621717, 19840724,
           26676629]
ok = (len(c) - 1, c[-1], sum(c)) == (108, 1, 43589145600) and c[:39] == a346736
print("  %d levels, deepest %d with %d position(s), %d positions in all; depths 0..38, the deepest level and the total equal OEIS A346736: %s"
      % (len(c), len(c) - 1, c[-1], sum(c), "yes" if ok else "NO"))
s = j["level_seconds"]
print("  enumeration %.0f s, table written in %.0f s; slowest levels: %s"
      % (j["seconds"], j["write_seconds"], ", ".join("d%d %.0f s" % (d + 1, s[d]) for d in sorted(range(len(s)), key=lambda d: -s[d])[:5])))
EOF
mv "$OUT/slide-2x7-mod3.gtab" "$OUT/slide-2x7-mod3.t2.gtab"
echo "   queries on the finished table: exact distance by descent, each path replayed"
python3 - "$OUT/slide-2x7-mod3.t2.gtab" "$BIN" <<'EOF'
import json, random, subprocess, sys, time
random.seed(7)
def solvable(p):
    # 2x7 (7 columns, odd): solvable exactly when the tiles' inversions are even.
    t = [x for x in p if x]
    return sum(1 for i in range(len(t)) for k in range(i + 1, len(t)) if t[i] > t[k]) % 2 == 0
positions = []
while len(positions) < 50:
    p = list(range(14)); random.shuffle(p)
    if solvable(p):
        positions.append(p)
text = [",".join(map(str, p)) for p in positions]
t = time.time()
out = subprocess.run([sys.argv[2], "query", sys.argv[1], "--path", "--json", *text], capture_output=True, text=True, check=True)
dt = time.time() - t
goal = list(range(1, 14)) + [0]
def one_move(a, b):
    """b is a with one tile slid into the blank next to it (2x7 board)."""
    za, zb = a.index(0), b.index(0)
    if abs(za // 7 - zb // 7) + abs(za % 7 - zb % 7) != 1:
        return False
    c = list(a)
    c[za], c[zb] = c[zb], c[za]
    return c == b
bad = 0
for p, line in zip(positions, out.stdout.splitlines()):
    a = json.loads(line)
    here, ok = list(p), True
    for step in a["path"]:
        nxt = [int(x) for x in step["leaves"].split(",")]
        ok = ok and one_move(here, nxt)
        here = nxt
    first = a["path"][0]["leaves"] if a["path"] else None
    optimal = [m["leaves"] for m in a["optimal_moves"]]
    if not ok or here != goal or len(a["path"]) != a["distance"] or (first and first not in optimal):
        bad += 1
print("  50 random solvable arrangements answered in %.2f s (%.1f ms each), distances %d..%d, paths replayed to the goal: %s"
      % (dt, dt * 20, min(json.loads(l)["distance"] for l in out.stdout.splitlines()),
         max(json.loads(l)["distance"] for l in out.stdout.splitlines()), "all" if bad == 0 else "%d FAILED" % bad))
EOF
if [ ${#FEATURES[@]} -gt 0 ]; then
    echo "== the same as 2 MPI processes over loopback (1 thread each)"
    run enumerate-2x7-np2 "${MPIRUN[@]}" -np 2 "$BIN" enumerate slide --json --out "$OUT" --rows 2 --cols 7 \
        --table --threads 1 --checkpoint-every 1800
    same enumerate-2x7-t2 enumerate-2x7-np2
    cmp "$OUT/slide-2x7-mod3.t2.gtab" "$OUT/slide-2x7-mod3.gtab" && echo "  tables of 1 and 2 processes: byte-identical"
fi
rm -f "$OUT"/slide-2x7-mod3*.gtab
fi

echo "== 4x4 to depth $DEPTH_4X4 (sparse store), 1 process and 2 MPI processes"
run enumerate-4x4 "$BIN" "${E[@]}" --rows 4 --cols 4 --max-depth "$DEPTH_4X4" --threads 2
published "4x4" enumerate-4x4
if [ ${#FEATURES[@]} -gt 0 ]; then
    run enumerate-4x4-np2 "${MPIRUN[@]}" -np 2 "$BIN" "${E[@]}" --rows 4 --cols 4 --max-depth "$DEPTH_4X4" --threads 1
    same enumerate-4x4 enumerate-4x4-np2
fi
echo "== 3x5 and 2x8 to depth 30"
run enumerate-3x5 "$BIN" "${E[@]}" --rows 3 --cols 5 --max-depth 30 --threads 2
run enumerate-2x8 "$BIN" "${E[@]}" --rows 2 --cols 8 --max-depth 30 --threads 2
