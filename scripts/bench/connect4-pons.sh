#!/usr/bin/env bash
# Connect Four: gamedb's table against Pascal Pons' search solver (github PascalPons/connect4,
# C++, alpha-beta with a transposition table; its exact score of a position says who wins and
# with which disc), position by position, on sampled positions of one board.
#
#   PONS_SRC=/path/to/connect4 [VALUES=wlt] [TABLE=file] scripts/bench/connect4-pons.sh COLS ROWS [COUNT] [SEED]
#
# VALUES=wlt compares a two-bit table (`--values wlt`: win, lose or tie, no remoteness) with
# the sign of Pons' score; TABLE names a table already built (its header must say this board).
# PONS_SRC is a checkout of Pons' solver, or a bare git directory of it (this script never
# downloads). Its board size is a constant of Position.hpp (7×6); the script copies the
# committed files into target/bench/pons-COLSxROWS, sets WIDTH and HEIGHT there, and builds
# `c4solver` with its Makefile (no opening book: the book is for 7×6 only, and the solver runs
# without one). The gamedb table is built in target/bench/ if it is not there yet.
#
# The positions: the empty board and COUNT (default 1000) positions of random play from it
# (seed SEED, default 1), each a random number of moves long and stopped before any move that
# ends the game (Pons' solver reads only positions where play goes on). Both programs read the
# same move sequences: `gamedb query --json TABLE -` and `c4solver`, one per line.
#
# Pons' score of a position with m discs: 0 for a draw; for a win of the player to move,
# (W·H + 1 − k) / 2 (integer division), k the discs on the board before the winning disc; the
# negative of the opponent's for a loss. gamedb's `win in r` (plies, the winning disc the r-th)
# is therefore the score (W·H + 2 − m − r) / 2, `lose in r` its negative, a tie 0. Every
# position whose score differs is printed; the script exits non-zero when one does.
set -euo pipefail
cols=${1:?COLS}
rows=${2:?ROWS}
count=${3:-1000}
seed=${4:-1}
: "${PONS_SRC:?PONS_SRC must name a checkout (or git directory) of PascalPons/connect4}"
source "$(dirname "$0")/setup.sh"
here=$PWD
work="$here/target/bench/pons-${cols}x${rows}"
mkdir -p "$work"
if [ -f "$PONS_SRC/Position.hpp" ]; then
  cp "$PONS_SRC"/*.hpp "$PONS_SRC"/*.cpp "$PONS_SRC"/Makefile "$work"/
else
  git --git-dir="$PONS_SRC" archive HEAD | tar -x -C "$work"
fi
sed -i "s/static constexpr int WIDTH = [0-9]*;/static constexpr int WIDTH = $cols;/; s/static constexpr int HEIGHT = [0-9]*;/static constexpr int HEIGHT = $rows;/" "$work/Position.hpp"
grep -q "WIDTH = $cols;" "$work/Position.hpp" && grep -q "HEIGHT = $rows;" "$work/Position.hpp"
make -s -C "$work" c4solver

gamedb=$BIN
cargo build --release -q
values=${VALUES:-remoteness}
case $values in
  remoteness) suffix="" ;;
  wlt) suffix="-wlt" ;;
  *) echo "VALUES must be remoteness or wlt, not $values" >&2; exit 2 ;;
esac
table=${TABLE:-"$here/target/bench/connect4-$cols-$rows$suffix.gtab"}
[ -f "$table" ] || nice -n 10 "$gamedb" build --out "$here/target/bench" connect4 --cols "$cols" --rows "$rows" --values "$values"

python3 - "$cols" "$rows" "$count" "$seed" > "$work/positions.txt" <<'EOF'
import random, sys
cols, rows, count, seed = map(int, sys.argv[1:])
rng = random.Random(seed)

def four(grid, side):
    at = lambda c, r: 0 <= c < cols and 0 <= r < rows and grid[c][r] == side
    return any(all(at(c + dc * i, r + dr * i) for i in range(4))
               for c in range(cols) for r in range(rows)
               for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)))

print("")
for _ in range(count):
    grid = [[0] * rows for _ in range(cols)]
    heights = [0] * cols
    seq = ""
    for ply in range(rng.randrange(cols * rows)):
        side = 1 + ply % 2
        c = rng.choice([c for c in range(cols) if heights[c] < rows])
        grid[c][heights[c]] = side
        if four(grid, side) or ply + 1 == cols * rows:
            break
        heights[c] += 1
        seq += str(c + 1)
    print(seq)
EOF

# The stream passes over empty lines: gamedb reads the empty board as `start`.
sed 's/^$/start/' "$work/positions.txt" > "$work/gamedb-positions.txt"
echo "load $(load)"
/usr/bin/time -f "gamedb: %e s, %M KB" "$gamedb" query --json "$table" - < "$work/gamedb-positions.txt" > "$work/gamedb.jsonl"
/usr/bin/time -f "c4solver: %e s, %M KB" "$work/c4solver" -b none < "$work/positions.txt" > "$work/pons.txt" 2> "$work/pons.err" || true
grep -v "opening book" "$work/pons.err" >&2 || true

python3 - "$cols" "$rows" "$work/positions.txt" "$work/gamedb.jsonl" "$work/pons.txt" "$values" <<'EOF'
import json, sys
cols, rows = int(sys.argv[1]), int(sys.argv[2])
wlt = sys.argv[6] == "wlt"
seqs = open(sys.argv[3]).read().split("\n")[:-1]
ours = [json.loads(l) for l in open(sys.argv[4])]
pons = [l.split() for l in open(sys.argv[5])]
assert len(ours) == len(seqs), (len(ours), len(seqs))
# c4solver echoes each sequence (nothing for the empty one) and its score.
pons = [(p[0] if len(p) == 2 else "", int(p[-1])) for p in pons]
assert len(pons) == len(seqs), (len(pons), len(seqs))
bad = 0
tally = {}
for seq, a, (pseq, score) in zip(seqs, ours, pons):
    assert pseq == seq, (pseq, seq)
    m, v = len(seq), a["value"]
    tally[v] = tally.get(v, 0) + 1
    if wlt:
        # Only who wins: the sign of the score.
        want = {"win": 1, "lose": -1, "tie-or-draw": 0}[v]
        if want != (score > 0) - (score < 0):
            bad += 1
            print(f"{seq or 'start'}: gamedb {v}, Pons {score}")
        continue
    r = a["remoteness"]
    want = 0 if v == "tie" else (cols * rows + 2 - m - r) // 2 * (1 if v == "win" else -1)
    if want != score:
        bad += 1
        print(f"{seq or 'start'}: gamedb {v} in {r} (score {want}), Pons {score}")
print(f"{cols}x{rows}: {len(seqs)} positions ({', '.join(f'{k} {n}' for k, n in sorted(tally.items()))}), "
      f"{len(seqs) - bad} agree, {bad} differ")
sys.exit(1 if bad else 0)
EOF
