#!/usr/bin/env bash
# Benchmark: 15-puzzle pattern databases and optimal solving.
# 1. Builds the 7-8 tables with 2 threads (wall time and peak memory by /usr/bin/time -v),
#    then the 6-6-3 and 5-5-5 tables; builds tiles 1-7 at 1 and 2 threads (scaling) and checks
#    the two files are byte-identical.
# 2. Solves POSITIONS (default 100) uniformly drawn solvable 4x4 positions (random permutation,
#    parity fixed by swapping two tiles; seed 2026) with 7-8 + reflection, and with 6-6-3 +
#    reflection; prints average and worst time and nodes; replays every solution.
# 3. 3x4 board: builds the 1-5 / 6-11 tables and the complete distance table of the slide BFS
#    (game 4, an independent search), and checks that the solver's lengths equal the table's
#    distances for CHECKS (default 3000) random arrangements.
# Usage: scripts/bench/fifteen.sh [OUT_DIR]   (default: a temporary folder, removed at the end)
# Needs about 5 GB of memory free while the largest tables build.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
cargo build --release --quiet
out_folder "${1:-}"
POSITIONS=${POSITIONS:-100}
CHECKS=${CHECKS:-3000}
mkdir -p "$OUT/t1" "$OUT/t2" "$OUT/3x4"

load() { uptime | sed 's/.*load average: //'; }

timed() { # label, then the gamedb arguments
    local label=$1; shift
    local before; before=$(load)
    /usr/bin/time -v "$BIN" "$@" -q 2>"$OUT/time.txt" >"$OUT/build.txt"
    local wall rss
    wall=$(grep 'Elapsed (wall clock)' "$OUT/time.txt" | awk '{print $NF}')
    rss=$(grep 'Maximum resident set size' "$OUT/time.txt" | awk '{print $NF}')
    sed 's/^/    /' "$OUT/build.txt"
    echo "  $label: wall $wall, peak RSS $((rss / 1024)) MiB, user $(grep 'User time' "$OUT/time.txt" | awk '{print $NF}') s, sys $(grep 'System time' "$OUT/time.txt" | awk '{print $NF}') s (load before: $before)"
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, load: $(load)"
echo "== building pattern tables"
timed "7-8 partition, 2 threads" build fifteen --partition 7-8 --threads 2 --out "$OUT/t2"
timed "6-6-3 partition, 2 threads" build fifteen --partition 6-6-3 --threads 2 --out "$OUT/t2"
timed "5-5-5 partition, 2 threads" build fifteen --partition 5-5-5 --threads 2 --out "$OUT/t2"
timed "tiles 1-7, 1 thread" build pdb --rows 4 --cols 4 --pattern 1,2,3,4,5,6,7 --threads 1 --out "$OUT/t1"
cmp "$OUT/t1/pdb-4x4-1-7.gtab" "$OUT/t2/pdb-4x4-1-7.gtab" \
    && echo "  tiles 1-7: the 1-thread and 2-thread tables are byte-identical"

echo "== solving $POSITIONS random solvable 4x4 positions"
python3 scripts/bench/positions.py solvable "$POSITIONS" 4 4 2026 >"$OUT/positions.txt"
report() { # label, solve options...
    local label=$1; shift
    local before; before=$(load)
    "$BIN" solve --tables "$OUT/t2" --json "$@" - <"$OUT/positions.txt" >"$OUT/solutions.json"
    python3 - "$OUT/positions.txt" "$OUT/solutions.json" "$label" "$before" <<'PY'
import json, sys
pos = [list(map(int, l.split(","))) for l in open(sys.argv[1])]
sol = [json.loads(l) for l in open(sys.argv[2])]
label, load = sys.argv[3], sys.argv[4]
assert len(pos) == len(sol)
N, C = 16, 4
for p, s in zip(pos, sol):
    t = p[:]
    for m in s["moves"]:
        tile, d = m.split()[-2:]  # labels read "slide 12 up"
        a, b = t.index(int(tile)), t.index(0)
        assert b - a == {"up": -C, "down": C, "left": -1, "right": 1}[d] and \
            (d in ("up", "down") or a // C == b // C), (p, m)
        t[a], t[b] = t[b], t[a]
    assert t == list(range(1, N)) + [0], p
    man = sum(abs(c // C - (v - 1) // C) + abs(c % C - (v - 1) % C) for c, v in enumerate(p) if v)
    b = p.index(0)
    assert s["distance"] >= man and s["distance"] % 2 == (abs(b // C - 3) + abs(b % C - 3)) % 2
secs = [s["seconds"] for s in sol]
gen = [s["nodes_generated"] for s in sol]
exp = [s["nodes_expanded"] for s in sol]
lens = [s["distance"] for s in sol]
worst = max(range(len(sol)), key=lambda i: secs[i])
print(f"  {label}: {len(sol)} positions, mean length {sum(lens)/len(lens):.2f}, "
      f"time mean {1e3*sum(secs)/len(secs):.2f} ms, worst {1e3*secs[worst]:.1f} ms "
      f"({sol[worst]['position']}, {lens[worst]} moves); nodes expanded mean "
      f"{sum(exp)/len(exp):,.0f} worst {max(exp):,}; generated mean {sum(gen)/len(gen):,.0f} "
      f"worst {max(gen):,}; every solution replayed to the goal, >= Manhattan, right parity "
      f"(load before: {load})")
PY
}
report "7-8 + reflection" --partition 7-8
report "7-8 + reflection, tables copied to huge pages" --partition 7-8 --huge-pages
report "6-6-3 + reflection" --partition 6-6-3

echo "== 3x4 board: solver lengths against the complete table"
timed "3x4 tiles 1-5" build pdb --rows 3 --cols 4 --pattern 1,2,3,4,5 --out "$OUT/3x4"
timed "3x4 tiles 6-11" build pdb --rows 3 --cols 4 --pattern 6,7,8,9,10,11 --out "$OUT/3x4"
timed "3x4 complete distance table (slide)" build slide --rows 3 --cols 4 --out "$OUT/3x4/complete"
python3 - "$CHECKS" 3 4 12 >"$OUT/positions34.txt" <<'PY'
import random, sys
n, rows, cols, seed = map(int, sys.argv[1:])
random.seed(seed)
for _ in range(n):
    t = list(range(rows * cols))
    random.shuffle(t)
    print(",".join(map(str, t)))
PY
"$BIN" solve --rows 3 --cols 4 --tables "$OUT/3x4" --json - <"$OUT/positions34.txt" >"$OUT/solutions34.json"
# The independent answer: the complete table of the slide BFS (game 4), not a pattern table.
"$BIN" query "$OUT/3x4/complete/slide-3x4.gtab" --json - <"$OUT/positions34.txt" >"$OUT/table34.json"
python3 - "$OUT/positions34.txt" "$OUT/solutions34.json" "$OUT/table34.json" <<'PY'
import json, sys
pos = [l.strip() for l in open(sys.argv[1])]
sol = [json.loads(l) for l in open(sys.argv[2])]
tab = [json.loads(l) for l in open(sys.argv[3])]
bad, solvable, total_nodes = 0, 0, 0
for p, s, t in zip(pos, sol, tab):
    if s["distance"] != t["distance"]:
        bad += 1
        if bad <= 3:
            print("  MISMATCH", p, s["distance"], t["distance"])
    if t["distance"] is not None:
        solvable += 1
        total_nodes += s["nodes_generated"]
assert len(pos) == len(sol) == len(tab)
print(f"  3x4: {len(pos)} random arrangements ({solvable} solvable), solver (1-5 + 6-11) "
      f"against the complete slide table: {len(pos) - bad} agree, {bad} disagree; "
      f"mean nodes generated {total_nodes / max(solvable, 1):,.0f}")
sys.exit(1 if bad else 0)
PY
