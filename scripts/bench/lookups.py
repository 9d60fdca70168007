"""Lookups from text and from numbers through the Python package (scripts/python), one
thread: scripts/bench/lookups.sh runs it in a venv with the package installed.

    python scripts/bench/lookups.py TABLE [N]

Draws N (default 200,000) random indices that hold a position, writes each as text
(Table.format of Table.unrank: a FEN for chess), then times Table.query_many on the list of
texts (each parsed, checked and looked up) and on the positions as a 2-D numpy array of
integers when the positions have one length (best of 5 runs each). Checks a sample against value_at.
"""
import os
import sys
import time

import numpy as np

import gamedb

path = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
t = gamedb.open(path, verify=False)
rng = np.random.default_rng(3)
rows, texts, indices = [], [], []
while len(rows) < n:
    for i in rng.integers(0, t.positions, size=4 * n):
        i = int(i)
        pos = t.unrank(i)
        try:
            if t.rank(pos) != i:  # a second representative of a position (symmetries)
                continue
        except Exception:
            continue  # an index that holds no position
        rows.append(pos)
        texts.append(t.format(pos))
        indices.append(i)
        if len(rows) == n:
            break
# Positions of one length make a 2-D array; a game whose positions vary in length (Chomp's
# rows) is timed on its texts alone.
widths = {len(r) for r in rows}
array = np.array(rows, dtype=np.int64) if len(widths) == 1 else None
load = " ".join(open("/proc/loadavg").read().split()[:3]) if os.path.exists("/proc/loadavg") else "?"


def best(f):
    times = []
    for _ in range(5):
        start = time.perf_counter()
        values = f()
        times.append(time.perf_counter() - start)
    return min(times), values


for what, given in [("texts", texts), ("array", array)]:
    if given is None:
        continue
    s, values = best(lambda: t.query_many(given))
    assert len(values) == n
    sample = range(0, n, max(1, n // 1000))
    assert [int(values[k]) for k in sample] == [t.value_at(indices[k]) for k in sample]
    print(f"   Python query_many ({what}): {n:,} positions in {s:.3f} s: {n / s:,.0f} "
          f"lookups/s (best of 5, one thread); e.g. {texts[0]!r} [load: {load}]")
