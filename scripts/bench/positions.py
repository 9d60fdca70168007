#!/usr/bin/env python3
"""Random positions for the benchmarks, one per line, reproducible by seed.

    positions.py solvable N ROWS COLS SEED   uniformly drawn solvable arrangements of a board
    positions.py nim N HEAPS MAX SEED        Nim positions, each heap uniform in 0..=MAX
"""
import random
import sys


def solvable(t, rows, cols):
    """The parity invariant (Johnson & Story 1879): the permutation parity of the cells (blank
    included) plus the blank's taxicab distance to its goal cell is even."""
    n = rows * cols
    target = [(x - 1 if x else n - 1) for x in t]
    seen, cycles = [False] * n, 0
    for s in range(n):
        if not seen[s]:
            cycles += 1
            c = s
            while not seen[c]:
                seen[c] = True
                c = target[c]
    b = t.index(0)
    return (n - cycles + abs(b // cols - rows + 1) + abs(b % cols - cols + 1)) % 2 == 0


def main(argv):
    kind, args = argv[0], [int(a) for a in argv[1:]]
    out = sys.stdout
    if kind == "solvable":
        count, rows, cols, seed = args
        random.seed(seed)
        for _ in range(count):
            t = list(range(rows * cols))
            random.shuffle(t)
            if not solvable(t, rows, cols):
                # Swapping two tiles flips the permutation parity and keeps the blank.
                i, j = [k for k in range(len(t)) if t[k]][:2]
                t[i], t[j] = t[j], t[i]
            out.write(",".join(map(str, t)) + "\n")
    elif kind == "nim":
        count, heaps, most, seed = args
        r = random.Random(seed)
        for _ in range(count):
            out.write(",".join(str(r.randint(0, most)) for _ in range(heaps)) + "\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
