#!/usr/bin/env bash
# Benchmark: the 6-heap, heaps 0..63 Nim table (C(69,6) = 119,877,472 positions).
# Prints build time, positions per second and peak memory at 1 and 2 threads, checks the two
# tables are byte-identical, and checks 100,000 random queries against the xor rule (and the
# misère and bounded tables against THEOREMS.md section 2).
# Usage: scripts/bench/nim.sh [OUT_DIR]   (default: a temporary folder, removed at the end)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
cargo build --release --quiet
out_folder "${1:-}"
mkdir -p "$OUT/t1" "$OUT/t2"

run() { # threads dir extra-args...
    local threads=$1 dir=$2; shift 2
    /usr/bin/time -v "$BIN" build nim --heaps 6 --max-heap 63 "$@" --threads "$threads" --out "$dir" -q \
        2>"$OUT/time.txt" >"$OUT/build.txt"
    local wall rss
    wall=$(grep 'Elapsed (wall clock)' "$OUT/time.txt" | awk '{print $NF}')
    rss=$(grep 'Maximum resident set size' "$OUT/time.txt" | awk '{print $NF}')
    echo "threads=$threads $* : $(sed 's/^wrote //' "$OUT/build.txt"); wall $wall, peak RSS $((rss / 1024)) MiB"
}

echo "machine: $(nproc) cores, load: $(uptime | sed 's/.*load average: //')"
run 1 "$OUT/t1"
run 2 "$OUT/t2"
cmp "$OUT/t1/nim-6x63.gtab" "$OUT/t2/nim-6x63.gtab" && echo "1-thread and 2-thread tables are byte-identical"
run 2 "$OUT/t2" --misere
run 2 "$OUT/t2" --max-take 5

python3 - "$BIN" "$OUT/t2" <<'PY'
import random, subprocess, sys, json, functools, operator
bin_, d = sys.argv[1], sys.argv[2]
random.seed(2026)
def check(table, rule, n=100_000):
    qs = [[random.randint(0, 63) for _ in range(6)] for _ in range(n)]
    inp = "".join(",".join(map(str, q)) + "\n" for q in qs)
    out = subprocess.run([bin_, "query", f"{d}/{table}", "-", "--json"], input=inp.encode(),
                         capture_output=True, check=True).stdout.decode().splitlines()
    bad = [(q, o) for q, o in zip(qs, out) if (json.loads(o)["outcome"] == "P") != rule(q)]
    print(f"{table}: {n} random queries, {len(bad)} disagree with THEOREMS.md" + (f": {bad[0]}" if bad else ""))
    return not bad
xor = lambda hs: functools.reduce(operator.xor, hs, 0)
def misere(hs, k=None):
    r = [h % (k + 1) if k else h for h in hs]
    if all(x <= 1 for x in r):
        return sum(r) % 2 == 1
    return xor(r) == 0
ok = check("nim-6x63.gtab", lambda q: xor(q) == 0)
ok &= check("nim-6x63-misere.gtab", misere)
ok &= check("nim-6x63-k5.gtab", lambda q: xor([h % 6 for h in q]) == 0)
sys.exit(0 if ok else 1)
PY
