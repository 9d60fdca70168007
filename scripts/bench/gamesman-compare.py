#!/usr/bin/env python3
"""GamesmanOne's solutions against gamedb's, position by position (value and remoteness).

    gamesman-compare.py mttt GAMESMAN_DB GAMEDB_CSV [--show N]
    gamesman-compare.py mnk-sample GAMESMAN_BIN DATA_DIR VARIANT GAMEDB_BIN TABLE
                        --rows M --cols N --k K [--count C] [--seed S] [--show N]
    gamesman-compare.py quixo-sample GAMESMAN_BIN DATA_DIR VARIANT GAMEDB_BIN TABLE
                        --size N [--count C] [--seed S] [--show N]

mttt: every tic-tac-toe position, from GamesmanOne's database file. GAMESMAN_DB is GamesmanOne's array database of its `mttt` game
(DATA/mttt/0/arraydb/mttt_0.adb.xz, from `gamesman --data-path=DATA solve mttt`);
GAMEDB_CSV is `gamedb export mnk-3-3-3.gtab --format csv`. Python's standard library only.

GamesmanOne's layout, from its source (src/core/db/arraydb, src/games/mttt/mttt.c,
src/core/types/base.h):
  * the file is one xz stream (block-compressed, any xz reader takes it) of 3^9 = 19,683
    records, one per hash, each a native-endian (here little-endian) uint16: the value in the
    top 4 bits, the remoteness in the low 12;
  * values: 0 undecided (no record: an illegal, unreachable or non-canonical hash),
    1 lose, 2 draw, 3 tie, 4 win, all for the player to move;
  * hash = sum over cells i (row-major from the top left, 0..8) of piece(i) * 3^i, with
    blank 0, o 1, x 2; x moves first, so o is to move when x has one more mark;
  * only canonical positions are solved: the smallest hash among the 8 images of the board
    under the square's symmetries (rotations and reflections).

Each gamedb position is turned into GamesmanOne's hash, reduced to its canonical hash and
looked up. Reported: the records GamesmanOne stores; the canonical positions that both store
(compared directly); and every gamedb position compared through its canonical representative
(value and remoteness are invariant under the board's symmetries). Nothing is adjusted: a
remoteness convention that differs shows up as disagreements.

mnk-sample: an m,n,k-game solved by GamesmanOne's `mnktttier` (branch RL_mnkttier, whose
databases are bpdb files, not read here) checked through its own `query` command: the empty
board and C random positions (random play from the empty board for a random number of plies,
seeded), each queried with `GAMESMAN_BIN --data-path=DATA_DIR query mnktttier VARIANT BOARD`
(BOARD: the cells row by row, '-', 'x', 'o'), which answers the position and every child with
value and remoteness; all of them are asked of gamedb in one `gamedb query --json TABLE -`
stream.

quixo-sample: Quixo solved by GamesmanOne's `quixo` (its databases hold one record per class of
boards under the square's symmetries, hashed by its SIMD two-piece hash, not read here),
checked the same way through `GAMESMAN_BIN --data-path=DATA_DIR query quixo VARIANT
T_CELLS` (T: 1 for x to move, 2 for o; CELLS row by row from the top left, '-', 'X', 'O'): the
empty board and C positions of random play (pushes as the rules of src/games/quixo.rs, a
random number of plies, stopping at a line), each with every child GamesmanOne lists.
"""
import argparse
import collections
import csv
import lzma
import json
import random
import re
import subprocess
import struct
import sys

VALUES = {0: "undecided", 1: "lose", 2: "draw", 3: "tie", 4: "win"}
PIECE = {".": 0, "o": 1, "x": 2}
CHAR = {0: ".", 1: "o", 2: "x"}
N = 3


def symmetries():
    """The 8 cell permutations of the 3x3 square: image cell of each cell."""
    def rot(r, c):
        return c, N - 1 - r

    perms = []
    for flip in (False, True):
        for k in range(4):
            perm = []
            for i in range(N * N):
                r, c = divmod(i, N)
                if flip:
                    c = N - 1 - c
                for _ in range(k):
                    r, c = rot(r, c)
                perm.append(r * N + c)
            perms.append(perm)
    return perms


SYMS = symmetries()


def board_hash(cells):
    return sum(p * 3**i for i, p in enumerate(cells))


def canonical(cells):
    best = None
    for perm in SYMS:
        img = [0] * (N * N)
        for i, p in enumerate(cells):
            img[perm[i]] = p
        h = board_hash(img)
        best = h if best is None or h < best else best
    return best


def text_of_hash(h):
    cells = []
    for _ in range(N * N):
        cells.append(h % 3)
        h //= 3
    return "/".join("".join(CHAR[p] for p in cells[r * N:(r + 1) * N]) for r in range(N))


def cells_of_text(text):
    return [PIECE[ch] for ch in text.replace("/", "")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    a = sub.add_parser("mttt", help="every tic-tac-toe position, from GamesmanOne's database file")
    a.add_argument("gamesman_db")
    a.add_argument("gamedb_csv")
    a.add_argument("--show", type=int, default=20, help="disagreements listed (default 20)")
    b = sub.add_parser("mnk-sample", help="random m,n,k positions through GamesmanOne's query")
    b.add_argument("gamesman_bin")
    b.add_argument("data_dir")
    b.add_argument("variant")
    b.add_argument("gamedb_bin")
    b.add_argument("table")
    b.add_argument("--rows", type=int, required=True)
    b.add_argument("--cols", type=int, required=True)
    b.add_argument("--k", type=int, required=True)
    b.add_argument("--count", type=int, default=200)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--show", type=int, default=20)
    q = sub.add_parser("quixo-sample", help="random Quixo positions through GamesmanOne's query")
    q.add_argument("gamesman_bin")
    q.add_argument("data_dir")
    q.add_argument("variant")
    q.add_argument("gamedb_bin")
    q.add_argument("table")
    q.add_argument("--size", type=int, required=True)
    q.add_argument("--count", type=int, default=200)
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--show", type=int, default=20)
    argv = sys.argv[1:]
    if argv and argv[0] not in ("mttt", "mnk-sample", "quixo-sample", "-h", "--help"):
        argv = ["mttt"] + argv  # the mode may be left out for mttt
    args = ap.parse_args(argv)
    return {"mttt": mttt, "mnk-sample": mnk_sample, "quixo-sample": quixo_sample}[args.mode](args)


def quixo_pushes(n):
    """Every move's path: the cube taken at path[0] goes in at path[-1], the rest shift."""
    at = lambda r, c: r * n + c
    paths = []
    for r in range(n):
        for c in range(n):
            if 0 < r < n - 1 and 0 < c < n - 1:
                continue
            for er, ec in {(r, 0), (r, n - 1), (0, c), (n - 1, c)} - {(r, c)}:
                if er == r:
                    step = 1 if ec > c else -1
                    paths.append([at(r, k) for k in range(c, ec + step, step)])
                else:
                    step = 1 if er > r else -1
                    paths.append([at(k, c) for k in range(r, er + step, step)])
    return paths


def quixo_sample(args):
    n = args.size
    lines = [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
    lines += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    paths = quixo_pushes(n)
    rng = random.Random(args.seed)
    starts = [("-" * (n * n), "x")]
    for _ in range(args.count):
        board, side = ["-"] * (n * n), "x"
        for _ in range(rng.randrange(4 * n * n)):
            if any(board[ln[0]] != "-" and all(board[i] == board[ln[0]] for i in ln) for ln in lines):
                break
            mine = side.upper()
            path = rng.choice([p for p in paths if board[p[0]] in ("-", mine)])
            for a, b in zip(path, path[1:]):
                board[a] = board[b]
            board[path[-1]] = mine
            side = "o" if side == "x" else "x"
        starts.append(("".join(board), side))

    pat = re.compile(rb'"position": "(\d)_([-XO]+)", "autoguiPosition": "[^"]*", "positionValue": "(\w+)", "remoteness": (-?\d+)')
    theirs = {}
    for board, side in starts:
        asked = ("1_" if side == "x" else "2_") + board
        out = subprocess.run([args.gamesman_bin, f"--data-path={args.data_dir}", "query", "quixo",
                              args.variant, "--", asked], capture_output=True, check=True).stdout
        found = pat.findall(out)
        if not found or (found[0][0] + b"_" + found[0][1]).decode() != asked:
            sys.exit(f"GamesmanOne's query of {asked} answered no record of it: {out[:300]!r}")
        for turn, cells, value, rem in found:
            theirs[(cells.decode(), "x" if turn == b"1" else "o")] = (value.decode(), int(rem))

    def text(key):
        cells, side = key
        rows = "/".join(cells[r * n:(r + 1) * n] for r in range(n))
        return rows.replace("-", ".").lower() + "," + side

    order = sorted(theirs)
    feed = "".join(text(k) + "\n" for k in order)
    out = subprocess.run([args.gamedb_bin, "query", "--json", args.table, "-"], input=feed,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    if len(out) != len(order):
        sys.exit(f"gamedb answered {len(out)} lines to {len(order)} positions")
    agree, bad = 0, []
    for key, line in zip(order, out):
        ans = json.loads(line)
        ours = (ans.get("value"), ans.get("remoteness"))
        th = theirs[key]
        # A draw has no remoteness in gamedb; GamesmanOne writes one (0 or a sentinel).
        same = ours == th or (ours[0] == "draw" and th[0] == "draw")
        if same:
            agree += 1
        else:
            bad.append((text(key), ours, th, ans.get("error")))
    counts = collections.Counter(v for v, _ in theirs.values())
    print(f"Quixo {n}x{n}, the empty board and {len(starts) - 1} positions of random play (seed {args.seed}) and their "
          f"children through GamesmanOne's query: {len(theirs)} distinct positions ("
          + ", ".join(f"{v} {c}" for v, c in sorted(counts.items())) + f"), {agree} agree with gamedb, "
          f"{len(bad)} disagree")
    for t, ours, th, err in bad[: args.show]:
        print(f"  {t}: gamedb {ours[0]} {ours[1]}{' (' + err + ')' if err else ''}, GamesmanOne {th[0]} {th[1]}")
    return 0 if not bad else 1


def mnk_lines(rows, cols, k):
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= y < rows and 0 <= x < cols for y, x in cells):
                    lines.append([y * cols + x for y, x in cells])
    return lines


def mnk_sample(args):
    rows, cols = args.rows, args.cols
    lines = mnk_lines(rows, cols, args.k)
    rng = random.Random(args.seed)
    boards = ["-" * (rows * cols)]  # the start, then the random ones
    for _ in range(args.count):
        board = ["-"] * (rows * cols)
        for ply in range(rng.randrange(rows * cols + 1)):
            if any(board[ln[0]] != "-" and all(board[i] == board[ln[0]] for i in ln) for ln in lines):
                break
            empty = [i for i, ch in enumerate(board) if ch == "-"]
            if not empty:
                break
            board[rng.choice(empty)] = "x" if ply % 2 == 0 else "o"
        boards.append("".join(board))

    pat = re.compile(rb'"autoguiPosition": "\d_([-xo]+)", "value": "(\w+)", "remoteness": (-?\d+)')
    theirs = {}
    for board in boards:
        out = subprocess.run([args.gamesman_bin, f"--data-path={args.data_dir}", "query", "mnktttier",
                              args.variant, "--", board], capture_output=True, check=True).stdout
        found = pat.findall(out)
        if not found or found[0][0].decode() != board:
            sys.exit(f"GamesmanOne's query of {board} answered no record of it: {out[:300]!r}")
        for pos, value, rem in found:
            theirs[pos.decode()] = (value.decode(), int(rem))

    def text(board):
        return "/".join(board[r * cols:(r + 1) * cols] for r in range(rows)).replace("-", ".")

    order = sorted(theirs)
    feed = "".join(text(b) + "\n" for b in order)
    out = subprocess.run([args.gamedb_bin, "query", "--json", args.table, "-"], input=feed,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    if len(out) != len(order):
        sys.exit(f"gamedb answered {len(out)} lines to {len(order)} positions")
    agree = 0
    bad = []
    for board, line in zip(order, out):
        ans = json.loads(line)
        ours = (ans.get("value"), ans.get("remoteness"))
        if ours == theirs[board]:
            agree += 1
        else:
            bad.append((text(board), ours, theirs[board]))
    counts = collections.Counter(v for v, _ in theirs.values())
    print(f"{rows},{cols},{args.k}-game, the empty board and {len(boards) - 1} random positions (seed {args.seed}) and their "
          f"children through GamesmanOne's query: {len(theirs)} distinct positions ("
          + ", ".join(f"{v} {c}" for v, c in sorted(counts.items())) + f"), {agree} agree with gamedb, "
          f"{len(bad)} disagree")
    for t, ours, th in bad[: args.show]:
        print(f"  {t}: gamedb {ours[0]} {ours[1]}, GamesmanOne {th[0]} {th[1]}")
    return 0 if not bad else 1


def mttt(args):
    raw = lzma.decompress(open(args.gamesman_db, "rb").read())
    if len(raw) != 2 * 3**9:
        sys.exit(f"{args.gamesman_db}: {len(raw)} bytes decompressed, expected {2 * 3**9}")
    recs = struct.unpack(f"<{3**9}H", raw)
    theirs = {h: (VALUES.get(r >> 12, f"code{r >> 12}"), r & 0xFFF)
              for h, r in enumerate(recs) if r >> 12}

    ours = {}
    with open(args.gamedb_csv, newline="") as f:
        for row in csv.DictReader(f):
            ours[row["position"]] = (row["value"], int(row["remoteness"]), row["reachable"])

    print(f"GamesmanOne records (decided hashes): {len(theirs)}  values: "
          + ", ".join(f"{v} {c}" for v, c in sorted(collections.Counter(v for v, _ in theirs.values()).items())))
    print(f"gamedb positions: {len(ours)}  values: "
          + ", ".join(f"{v} {c}" for v, c in sorted(collections.Counter(v for v, _, _ in ours.values()).items())))

    # 1. The canonical positions both store, compared directly.
    both = agree = 0
    theirs_only = []
    bad = []
    for h, (v, r) in sorted(theirs.items()):
        text = text_of_hash(h)
        if canonical(cells_of_text(text)) != h:
            theirs_only.append((text, "stored but not canonical"))
            continue
        if text not in ours:
            theirs_only.append((text, "no gamedb position"))
            continue
        both += 1
        ov, orem, _ = ours[text]
        if (ov, orem) == (v, r):
            agree += 1
        else:
            bad.append((text, (ov, orem), (v, r)))
    print(f"stored by both (GamesmanOne's canonical positions that are gamedb positions): {both}, "
          f"agree (value and remoteness): {agree}, disagree: {both - agree}")
    if theirs_only:
        print(f"GamesmanOne records with no counterpart: {len(theirs_only)}; first: {theirs_only[:5]}")

    # 2. Every gamedb position, through its canonical representative.
    seen = agree_all = missing = 0
    missing_reachable = 0
    bad_all = []
    value_only = 0
    for text, (ov, orem, reach) in ours.items():
        h = canonical(cells_of_text(text))
        if h not in theirs:
            missing += 1
            missing_reachable += reach == "true"
            continue
        seen += 1
        v, r = theirs[h]
        if (ov, orem) == (v, r):
            agree_all += 1
        else:
            value_only += ov == v
            bad_all.append((text, (ov, orem), (text_of_hash(h), v, r)))
    print(f"every gamedb position through its canonical representative: {seen} compared, "
          f"{agree_all} agree, {len(bad_all)} disagree ({value_only} of them on remoteness only); "
          f"{missing} have no GamesmanOne record ({missing_reachable} of those reachable in gamedb)")
    for text, (ov, orem), (ct, v, r) in bad_all[: args.show]:
        print(f"  {text}: gamedb {ov} {orem}, GamesmanOne {v} {r} (as {ct})")
    return 0 if not bad and not bad_all else 1


if __name__ == "__main__":
    sys.exit(main())
