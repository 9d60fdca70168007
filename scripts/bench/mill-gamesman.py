#!/usr/bin/env python3
"""Five and Six Men's Morris, GamesmanOne's `mills` against gamedb's `mill`, position by position.

GamesmanOne keeps a mill game in one xz file of 16-bit records per tier, indexed by its own
hash of the board (`X86SimdTwoPieceHash`, over an 8x8 grid and with the board's symmetries
folded into canonical positions); rather than re-implement that hash here, this script asks
its `query` command, which hashes, canonicalises and reads the record itself and answers the
position's value and remoteness and those of every child. Random walks from the empty board
(WALKS walks of PLIES plies, seeded) pick the positions; every position a walk stands on and
every child shown there is then asked of gamedb in one `gamedb query --json TABLE -` stream.
Values and remoteness must agree on all of them (a draw has no remoteness in gamedb and 0 in
GamesmanOne). Exit status 1 on any disagreement.

GamesmanOne's formal position: `T_BOARD` then the men in hand of the first and second player
(`--` when both are 0): T is 1 for the first player (W, gamedb's x) and 2 for the second (B,
o); BOARD the 16 points in the order gamedb writes them, `W`, `B` or `-`.

    mill-gamesman.py GAMESMAN_BIN DATA_DIR VARIANT GAMEDB_BIN TABLE [--walks W] [--plies P] [--seed S]
"""
import argparse
import json
import random
import subprocess
import sys

ROWS = [3, 3, 4, 3, 3]


def to_gamedb(formal):
    turn, rest = formal.split("_", 1)
    board, hands = rest[:16], rest[16:]
    pts = board.replace("W", "x").replace("B", "o").replace("-", ".")
    rows, at = [], 0
    for r in ROWS:
        rows.append(pts[at:at + r])
        at += r
    hx, ho = (0, 0) if hands.startswith("-") else (int(hands[0]), int(hands[1]))
    side = "x" if turn == "1" else "o"
    return f"{'/'.join(rows)},{side},{hx},{ho}"


def value_of(v, r):
    return (v, None if v == "draw" else r)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gamesman_bin")
    ap.add_argument("data_dir")
    ap.add_argument("variant")
    ap.add_argument("gamedb_bin")
    ap.add_argument("table")
    ap.add_argument("--men", type=int, required=True)
    ap.add_argument("--walks", type=int, default=40)
    ap.add_argument("--plies", type=int, default=25)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    theirs = {}  # formal position -> (value, remoteness)
    queries = 0

    def ask(formal):
        nonlocal queries
        queries += 1
        out = subprocess.run([a.gamesman_bin, f"--data-path={a.data_dir}", "query", "mills",
                              a.variant, "--", formal], capture_output=True, text=True).stdout
        start = out.find("{")
        if start < 0:
            sys.exit(f"GamesmanOne's query of {formal} answered no record: {out[:300]!r}")
        ans = json.loads(out[start:])
        theirs[formal] = value_of(ans["positionValue"], ans["remoteness"])
        kids = []
        for m in ans["moves"]:
            theirs[m["position"]] = value_of(m["positionValue"], m["remoteness"])
            kids.append(m["position"])
        return kids

    start = f"1_{'-' * 16}{a.men}{a.men}"
    for _ in range(a.walks):
        pos = start
        for _ in range(a.plies):
            kids = ask(pos)
            if not kids:
                break
            pos = rng.choice(kids)
    order = sorted(theirs)
    feed = "".join(to_gamedb(p) + "\n" for p in order)
    out = subprocess.run([a.gamedb_bin, "query", "--json", a.table, "-"], input=feed,
                         capture_output=True, text=True, check=True).stdout
    bad = 0
    by_value = {}
    for p, line in zip(order, out.splitlines()):
        ans = json.loads(line)
        ours = (ans.get("value"), ans.get("remoteness"))
        by_value[ours[0]] = by_value.get(ours[0], 0) + 1
        if ours != theirs[p]:
            bad += 1
            if bad <= 10:
                print(f"DIFFER {p} ({to_gamedb(p)}): GamesmanOne {theirs[p]}, gamedb {ours}")
    print(f"{len(order)} positions compared ({queries} GamesmanOne queries, {a.walks} walks of "
          f"{a.plies} plies, seed {a.seed}; by gamedb's value {by_value}): {bad} disagree")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
