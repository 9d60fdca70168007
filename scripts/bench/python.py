"""query_many through the Python package (scripts/python, a release build) on the 6x63 Nim
table: 1 M random positions as a 2-D numpy array, one thread.

    python scripts/bench/python.py TABLE [N]      # TABLE: nim-6x63.gtab (gamedb build nim
                                                  # --heaps 6 --max-heap 63)
Prints answers per second (best of 5 runs) and checks the P/N counts against value_at.
"""
import os
import sys
import time

import numpy as np

import gamedb

path = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
t = gamedb.open(path, verify=False)
rng = np.random.default_rng(2)
positions = rng.integers(0, 64, size=(n, 6), dtype=np.int64)
best = None
for _ in range(5):
    start = time.perf_counter()
    values = t.query_many(positions)
    s = time.perf_counter() - start
    best = s if best is None else min(best, s)
assert len(values) == n
# A sample checked one by one against the table's index (outcome tables: 0 = P, 1 = N).
sample = positions[:1000]
assert list(t.query_many(sample)) == [t.value_at(t.rank(list(map(int, p)))) for p in sample]
load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else "?"
print(f"query_many: {n:,} positions in {best:.3f} s: {n / best:,.0f} answers/s "
      f"(best of 5, one thread; {int((values == 0).sum()):,} P) [load: {' '.join(load)}]")
