#!/usr/bin/env bash
# The unsolved octal games, as far as a time budget allows: for each code, builds its table at
# heaps 2^16 - 1, 2^17 - 1, ... while a build takes under BUDGET seconds (default 40, so the
# whole list takes about an hour on one core), and reports the largest heap reached, values
# per second, the largest value, the rare heaps (count and the last one) and what `gamedb info`
# says of periodicity. A code proved periodic gets its certificate (period, preperiod); it is
# a new result only if Flammenkamp's tables do not have it.
#
#   scripts/research/octal-unsolved.sh [OUT_DIR]        (BUDGET=SECONDS, CODES="0.6 0.14 ..." to choose)
#
# The list: Tomasz Czajka's `tczajka/octal-games`, UnsolvedGames.md (commit 57e893a, April
# 2025), which lists Grundy's game and 82 octal games of up to three digits (0.ddd, 4.ddd)
# that his program has not solved yet (his README: "work in progress"; Achim Flammenkamp's
# tables, https://wwwhomes.uni-bielefeld.de/achim/octal.html, cover every 4.ddd code). Output:
# a Markdown table on stdout; the tables are kept in OUT_DIR when given.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
BIN=$(pwd)/target/release/gamedb
OUT=${1:-$(mktemp -d)}
[ -n "${1:-}" ] || trap 'rm -rf "$OUT"' EXIT
mkdir -p "$OUT"
BUDGET=${BUDGET:-40}
LIST="grundy 0.6 0.04 0.06 0.14 0.36 0.64 0.74 0.76 0.004 0.005 0.006 0.014 0.015 0.016 0.024
0.026 0.034 0.054 0.064 0.104 0.106 0.114 0.125 0.126 0.135 0.136 0.142 0.143 0.146 0.161 0.162
0.163 0.164 0.166 0.167 0.172 0.174 0.204 0.205 0.206 0.207 0.224 0.244 0.245 0.264 0.314 0.324
0.334 0.336 0.342 0.344 0.346 0.362 0.364 0.366 0.371 0.374 0.404 0.414 0.416 0.444 0.454 0.564
0.604 0.606 0.744 0.764 0.774 0.776 4.004 4.007 4.026 4.044 4.045 4.064 4.324 4.327 4.344 4.364
4.367 4.404 4.406"
CODES=${CODES:-$LIST}

echo "machine: $(nproc) cores, load: $(uptime | sed 's/.*load average: //'); budget ${BUDGET} s a build"
echo
echo "| code | heap reached | seconds | values/s | largest value | rare heaps | last rare heap | periodicity |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for code in $CODES; do
    bits=16 reached="" secs="" stop=""
    while [ $bits -le 32 ]; do
        n=$(( (1 << bits) - 1 ))
        [ $n -gt 4294967294 ] && n=4294967294
        rm -f "$OUT"/*.gtab
        start=$(date +%s.%N)
        if ! timeout "$((BUDGET * 3))" "$BIN" build octal --code "$code" --max-heap "$n" --out "$OUT" -q --no-checkpoints >/dev/null 2>"$OUT/err.txt"; then
            stop=$(head -c 160 "$OUT/err.txt" | tr '\n|' '  ')
            [ -z "$stop" ] && stop="over $((BUDGET * 3)) s at heap $n"
            break
        fi
        end=$(date +%s.%N)
        reached=$n
        secs=$(python3 -c "print(f'{$end - $start:.1f}')")
        "$BIN" info "$OUT"/octal-*.gtab --json >"$OUT/info-$code.json"
        python3 -c "import sys; sys.exit(0 if $end - $start < $BUDGET / 2.2 else 1)" || break
        bits=$((bits + 1))
    done
    if [ -z "$reached" ]; then
        echo "| $code | — | | | | | | not reached 2^16: $stop |"
        continue
    fi
    python3 - "$OUT/info-$code.json" "$code" "$reached" "$secs" "$stop" <<'PY'
import json, sys
info = json.load(open(sys.argv[1]))
code, n, secs, stop = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
rare = info.get("rare_heaps", {}).get("count", "")
last = max((v["last_heap"] for v in info.get("rare_values", [])), default="")
if info.get("proved"):
    what = f"**PROVED periodic: period {info['period']}, preperiod {info['preperiod']}** (to check against Flammenkamp's tables)"
elif info.get("period") is not None:
    what = f"not proved; longest run: period {info['period']} from heap {info['preperiod']}"
else:
    what = "not proved; no period repeats twice"
if stop:
    what += f"; next size stopped: {stop}"
rate = (n + 1) / secs if secs > 0 else 0
rate = f"{rate/1e6:.2f} M" if rate >= 1e6 else f"{rate/1e3:.1f} k"
print(f"| {code} | {n} | {secs} | {rate} | {info.get('max_grundy')} | {rare} | {last} | {what} |")
PY
done
