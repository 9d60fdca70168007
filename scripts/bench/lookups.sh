#!/usr/bin/env bash
# Lookups from text on one thread, through the C ABI and the Python package, on small tables
# (in the caches: the figures are the cost of reading a position, not of memory):
#   chess  KRk and KQk (gamedb build chess --men ...): a FEN parsed, the position checked
#          (legal, one of the table's endings), its index found, its entry read;
#   win/lose/tie/draw  tic-tac-toe (mnk 3,3,3) and Connect Four 4x4, as remoteness tables and
#          as 2-bit wlt tables (--values wlt);
#   outcome  Nim 4 heaps of 0..15 and Chomp 4x7, today's outcome lookups to compare with.
# C: scripts/programs/lookups.c compiled against target/release/libgamedb.so, gamedb_value
# over 100,000 texts 10 times; Python: scripts/bench/lookups.py, Table.query_many on a list of
# texts and on a 2-D integer array (in a venv under WORKDIR with the package installed by pip,
# as README says). Each run under /usr/bin/time (peak memory), with the load beside it.
# Targets: chess from FEN >= 1,000,000 lookups/s in C and in Python; the win/lose/tie/draw
# tables at least as fast as the outcome tables.
#
# usage: scripts/bench/lookups.sh [WORKDIR]   (default target/bench-lookups; SKIP_PYTHON=1
#        leaves out Python; BEFORE=path/to/libgamedb.so also times the C program linked
#        against that build, e.g. another worktree's, on the same tables, one after the other)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
work=${1:-target/bench-lookups}
mkdir -p "$work"
cargo build --release --quiet --bin gamedb --lib
lib=$PWD/target/release/libgamedb.so
${CC:-cc} -O2 -std=c99 -Wall -Wextra -Werror -I src -o "$work/lookups" \
    scripts/programs/lookups.c "$lib" "-Wl,-rpath,$(dirname "$lib")"

if [ -n "${BEFORE:-}" ]; then
    ${CC:-cc} -O2 -std=c99 -Wall -Wextra -Werror -I src -o "$work/lookups-before" \
        scripts/programs/lookups.c "$BEFORE" "-Wl,-rpath,$(dirname "$BEFORE")"
fi

tables=()
build() { # name build-arguments...
    local t=$work/$1
    shift
    if ! "$BIN" verify-table "$t" >/dev/null 2>&1; then
        local out
        out=$("$BIN" build "$@" --out "$work" --quiet --json)
        local file
        file=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["file"])')
        [ "$file" -ef "$t" ] || mv "$file" "$t"
    fi
    tables+=("$t")
}
build chess-KRk.gtab chess --men KRk
build chess-KQk.gtab chess --men KQk
build tictactoe.gtab mnk --rows 3 --cols 3 --k 3
build connect4-4x4.gtab connect4 --cols 4 --rows 4
build tictactoe-wlt.gtab mnk --rows 3 --cols 3 --k 3 --values wlt
build connect4-4x4-wlt.gtab connect4 --cols 4 --rows 4 --values wlt
build nim-4x15.gtab nim --heaps 4 --max-heap 15
build chomp-4x7.gtab chomp --rows 4 --cols 7

timed() { /usr/bin/time -f "   (peak memory %M KB, %e s wall, %U s user)" "$@"; }
for t in "${tables[@]}"; do
    echo "== $(basename "$t" .gtab): $("$BIN" info "$t" --json | python3 -c \
        'import json,sys; h=json.load(sys.stdin); print(h["entries"], "entries,", h["values"], "values")')   [load: $(load)]"
    timed "$work/lookups" "$t" 100000 10
    if [ -n "${BEFORE:-}" ]; then
        echo "   before ($BEFORE):"
        timed "$work/lookups-before" "$t" 100000 10
    fi
done

if [ -n "${SKIP_PYTHON:-}" ]; then
    exit 0
fi
venv=$work/venv
if ! "$venv/bin/python" -c 'import gamedb, numpy' >/dev/null 2>&1 || [ -n "${REINSTALL:-}" ]; then
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall ./scripts/python
fi
for t in "${tables[@]}"; do
    echo "== $(basename "$t" .gtab), Python   [load: $(load)]"
    timed "$venv/bin/python" scripts/bench/lookups.py "$t" 200000
done
