#!/usr/bin/env bash
# Benchmark: the 12-cell sliding puzzles (12!/2 = 239,500,800 positions each).
# Builds 3×4 at 1 and 2 threads (time, positions per second, 1→2 scaling, peak memory, byte
# identity), builds 2×6 and the transposes 4×3 and 6×2, prints the 3×4 and 2×6 distance
# distributions (maxima 53 and 80) and checks transposes agree, then times `--path` queries on
# the 3×4 table end to end.
# Usage: scripts/bench/slide.sh [OUT_DIR]   (default: a temporary folder, removed at the end)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
cargo build --release --quiet
out_folder "${1:-}"
mkdir -p "$OUT/t1" "$OUT/t2"

load() { uptime | sed 's/.*load average: //'; }

declare -A WALL
build() { # threads dir rows cols
    local threads=$1 dir=$2 rows=$3 cols=$4
    /usr/bin/time -v "$BIN" build slide --rows "$rows" --cols "$cols" --threads "$threads" --out "$dir" -q \
        2>"$OUT/time.txt" >"$OUT/build.txt"
    local wall user rss
    wall=$(grep 'Elapsed (wall clock)' "$OUT/time.txt" | awk '{print $NF}')
    user=$(grep 'User time' "$OUT/time.txt" | awk '{print $NF}')
    rss=$(grep 'Maximum resident set size' "$OUT/time.txt" | awk '{print $NF}')
    WALL[$threads-$rows-$cols]=$wall
    echo "${rows}×${cols} threads=$threads: $(sed 's/^wrote //' "$OUT/build.txt")"
    echo "    wall $wall, user ${user} s, peak RSS $((rss / 1024)) MiB, load before: $LOAD"
}

echo "machine: $(nproc) cores, load: $(load)"
LOAD=$(load); build 1 "$OUT/t1" 3 4
LOAD=$(load); build 2 "$OUT/t2" 3 4
cmp "$OUT/t1/slide-3x4.gtab" "$OUT/t2/slide-3x4.gtab" && echo "1-thread and 2-thread 3×4 tables are byte-identical"
python3 - "${WALL[1-3-4]}" "${WALL[2-3-4]}" <<'PY'
import sys
def secs(t):
    parts = [float(p) for p in t.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
one, two = secs(sys.argv[1]), secs(sys.argv[2])
print(f"3×4: {239500800 / one / 1e6:.1f} M positions/s at 1 thread, {239500800 / two / 1e6:.1f} M at 2; "
      f"1→2 thread scaling {one / two:.2f}×")
PY
LOAD=$(load); build 2 "$OUT/t2" 2 6
LOAD=$(load); build 2 "$OUT/t2" 4 3
LOAD=$(load); build 2 "$OUT/t2" 6 2

python3 - "$BIN" "$OUT/t2" <<'PY'
import json, subprocess, sys, time, statistics
bin_, d = sys.argv[1], sys.argv[2]
def info(name):
    return json.loads(subprocess.run([bin_, "info", f"{d}/{name}", "--json"], capture_output=True,
                                     check=True).stdout)
ok = True
dist = {}
for name, want in [("slide-3x4.gtab", 53), ("slide-2x6.gtab", 80), ("slide-4x3.gtab", 53), ("slide-6x2.gtab", 80)]:
    i = info(name)
    dist[name] = i["distance_counts"]
    total = sum(i["distance_counts"])
    good = i["max_distance"] == want and total == 239500800
    ok &= good
    print(f"{name}: max distance {i['max_distance']} (expected {want}), {i['antipode_count']} antipodes, "
          f"{total} positions {'OK' if good else 'WRONG'}")
    if name in ("slide-3x4.gtab", "slide-2x6.gtab"):
        print("  distances: " + " ".join(str(c) for c in i["distance_counts"]))
        if "antipodes" in i:
            print("  antipodes: " + "  ".join(i["antipodes"]))
for a, b in [("slide-3x4.gtab", "slide-4x3.gtab"), ("slide-2x6.gtab", "slide-6x2.gtab")]:
    same = dist[a] == dist[b]
    ok &= same
    print(f"{a} and {b}: distributions {'equal' if same else 'DIFFER'}")

# End-to-end `query --path` on the 3×4 table (checksum verified on open, as by default).
table = f"{d}/slide-3x4.gtab"
antipode = info("slide-3x4.gtab")["antipodes"][0]
for pos in [antipode, "1,2,3,4,5,6,7,8,9,10,11,0"]:
    times = []
    for _ in range(20):
        t = time.perf_counter()
        out = subprocess.run([bin_, "query", table, pos, "--path", "--json"], capture_output=True, check=True)
        times.append(time.perf_counter() - t)
    ans = json.loads(out.stdout)
    ms = sorted(x * 1000 for x in times)
    print(f"query --path {pos} (distance {ans['distance']}, path of {len(ans.get('path', []))} moves): "
          f"min {ms[0]:.1f} ms, median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms over 20 runs")
sys.exit(0 if ok else 1)
PY
echo "load after: $(load)"
