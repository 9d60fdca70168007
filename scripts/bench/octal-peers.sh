#!/usr/bin/env bash
# Benchmark: octal games against the public solvers, one run, side by side: values per second,
# wall time and peak memory (/usr/bin/time -v), and the same values (checksums).
#
#   scripts/bench/octal-peers.sh [OUT_DIR]
#
# Games and sizes (environment; defaults): CODES="0.6 0.167" and, per code,
# N_0_6 and N_0_167 (the largest heap; default 16777215 = 2^24 - 1). Officers (0.6) is far
# slower than 0.167 at any size: N_0_6=1048575 gives a comparison in a minute or two.
#
# The peers, and how each is had (nothing is fetched at run time but from the package
# registries):
#   * ogsolve (Piotr Beling, `beling/impartial-games`): published on crates.io, so this script
#     installs it with `cargo install ogsolve --locked --root target/peers` (a registry). Its
#     methods rc and rc2 (the rare/common method, rc2 with the heap's parity) are both run; it
#     prints a Fletcher-32 checksum of the values as 16-bit numbers, computed here from the
#     gamedb table the same way.
#   * Rogalski's solver (`rogalski-wmii-uni-lodz-pl/octal`): not on a registry, so it is run
#     only when ROGALSKI_SRC names a checkout of it (`git clone` it beforehand); built with
#     `--features nimber_u8,bits_u128` for 0.167 (its fastest: values below 128) and
#     `nimber_u16` (a bit vector) for codes with larger values. It prints the count of each
#     value, compared here with the table's (`gamedb info --json`, grundy_counts).
#   * Czajka's `tczajka/octal-games`: not built. Its Rust crate has no solver yet (the command
#     line parses and does nothing); its older C++ program needs a googletest submodule and a
#     Makefile of its own, and is not on a registry.
# gamedb is run at --threads 1 and 2 (two threads: the candidates on one, the search for rare
# values on the other; the same bytes).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
cargo build --release --quiet
out_folder "${1:-}"
mkdir -p "$OUT"
CODES=${CODES:-"0.6 0.167"}
PEERS=$(pwd)/target/peers
if [ ! -x "$PEERS/bin/ogsolve" ]; then
    echo "== installing ogsolve from crates.io into $PEERS" >&2
    cargo install ogsolve --quiet --root "$PEERS" >&2
fi

timed() { # label, command...: runs it under /usr/bin/time -v, prints wall and peak RSS
    local label=$1; shift
    /usr/bin/time -v "$@" >"$OUT/out.txt" 2>"$OUT/time.txt" || { cat "$OUT/time.txt" >&2; return 1; }
    WALL=$(grep 'Elapsed (wall clock)' "$OUT/time.txt" | awk '{print $NF}')
    RSS=$(( $(grep 'Maximum resident set size' "$OUT/time.txt" | awk '{print $NF}') / 1024 ))
    SECS=$(python3 -c "import sys; p=sys.argv[1].split(':'); print(sum(float(x)*60**i for i,x in enumerate(reversed(p))))" "$WALL")
}
rate() { python3 -c "import sys; print(f'{(int(sys.argv[1])+1)/float(sys.argv[2])/1e6:.2f}')" "$1" "$2"; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load: $(uptime | sed 's/.*load average: //')"
for code in $CODES; do
    var="N_${code//./_}"
    N=${!var:-16777215}
    echo "== $code to heap $N"
    for t in 1 2; do
        rm -rf "$OUT/g$t"; mkdir -p "$OUT/g$t"
        timed "gamedb" "$BIN" build octal --code "$code" --max-heap "$N" --out "$OUT/g$t" --threads "$t" -q --no-checkpoints
        echo "gamedb   --threads $t: ${SECS} s, $(rate "$N" "$SECS") M values/s, peak RSS ${RSS} MiB"
    done
    table="$OUT/g1/octal-$code-$N.gtab"
    cmp "$table" "$OUT/g2/octal-$code-$N.gtab" && echo "gamedb: 1-thread and 2-thread tables are byte-identical"
    ours=$("$BIN" info "$table" --json | python3 -c "
import json, sys
info = json.load(sys.stdin)
data = open(sys.argv[1], 'rb').read()[4096:]
n = info['entries']
wide = len(data) >= 2 * n
c0 = c1 = 0
for i in range(n):
    v = int.from_bytes(data[2*i:2*i+2], 'little') if wide else data[i]
    c0 = (c0 + v) & 0xFFFF
    c1 = (c1 + c0) & 0xFFFF
print(f'{(c1 << 16) | c0:X}')
" "$table")
    echo "gamedb checksum (Fletcher-32 of the values as 16-bit numbers, as ogsolve computes it): $ours"
    for m in rc rc2; do
        timed "ogsolve" "$PEERS/bin/ogsolve" "$code" -n "$N" -m "$m"
        sum=$(grep -o 'checksum: [0-9A-F]*' "$OUT/out.txt" | awk '{print $2}')
        same=$([ "$sum" = "$ours" ] && echo "equal" || echo "DIFFERENT")
        echo "ogsolve  -m $m: ${SECS} s, $(rate "$N" "$SECS") M values/s, peak RSS ${RSS} MiB, checksum $sum ($same)"
    done
    if [ -n "${ROGALSKI_SRC:-}" ]; then
        features=nimber_u16
        [ "$code" = 0.167 ] && features=nimber_u8,bits_u128
        target="$OUT/rogalski-$features"
        (cd "$ROGALSKI_SRC" && CARGO_TARGET_DIR="$target" cargo build --release --quiet --features "$features" >&2)
        # Its command line: CODE HEAPS (it solves heaps 0..HEAPS-1).
        timed "rogalski" "$target/release/octal" "$code" "$((N + 1))"
        same=$("$BIN" info "$table" --json | python3 -c "
import json, re, sys
info = json.load(sys.stdin)
ours = {int(k): v for k, v in info['grundy_counts'].items()} if isinstance(info['grundy_counts'], dict) else {i: c for i, c in enumerate(info['grundy_counts']) if c}
text = open(sys.argv[1]).read()
# The last frequency dump: objects with nimber and frequency.
found = re.findall(r'\"nimber\": (\d+),\s*\"frequency\": (\d+)', text)
theirs = {}
for v, c in found[-len(found):]:
    theirs[int(v)] = int(c)
# The dumps repeat at each power of two; keep the last complete one (it starts at nimber 0).
starts = [i for i, (v, _) in enumerate(found) if v == '0']
last = found[starts[-1]:]
theirs = {int(v): int(c) for v, c in last if int(c)}
ours = {v: c for v, c in ours.items() if c}
print('equal' if theirs == ours else 'DIFFERENT')
" "$OUT/out.txt")
        echo "rogalski ($features): ${SECS} s, $(rate "$N" "$SECS") M values/s, peak RSS ${RSS} MiB, value counts $same"
    fi
done
