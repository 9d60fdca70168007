#!/usr/bin/env bash
# Lookup speed from other programs, on the 6x63 Nim table (119,877,472 positions):
#   (a) in-process lookups through the library, one core (scripts/lookups.rs, built as the example `lookups`);
#   (b) `gamedb query TABLE - --json` through a pipe, a large input file;
#   (c) the Python package (scripts/python): Table.query_many on 1 M positions as a numpy array
#       (scripts/bench_python.py, in a venv under WORKDIR with the package installed).
# Targets (issue 6): (a) >= 10 million lookups/s, (b) >= 200,000 answers/s,
# (c) >= 2,000,000 answers/s (issue 22; the retired pure-Python reader did about 0.14 M/s
# on the same machine). The machine's load is printed beside each figure.
#
# usage: scripts/bench-interop.sh [WORKDIR]   (default target/bench-interop; builds the table
#        there unless an intact one is present; LOOKUPS=N and LINES=N change the sizes)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-target/bench-interop}
lookups=${LOOKUPS:-20000000}
lines=${LINES:-1000000}
mkdir -p "$work"

cargo build --release --quiet --bin gamedb --example lookups
gamedb=target/release/gamedb
table=$work/nim-6x63.gtab
if ! "$gamedb" verify-table "$table" >/dev/null 2>&1; then
    echo "== building $table"
    /usr/bin/time -f "   build: %e s wall, peak memory %M KB" \
        "$gamedb" build nim --heaps 6 --max-heap 63 --out "$work" --quiet
fi

echo
echo "== (a) in-process lookups, one thread   [load: $(cut -d' ' -f1-3 /proc/loadavg)]"
target/release/examples/lookups "$table" "$lookups"

echo
echo "== (b) gamedb query TABLE - --json through a pipe   [load: $(cut -d' ' -f1-3 /proc/loadavg)]"
input=$work/positions-$lines.txt
if [ ! -s "$input" ]; then
    python3 scripts/positions.py nim "$lines" 6 63 1 >"$input"
fi
start=$(date +%s.%N)
/usr/bin/time -f "   peak memory %M KB" "$gamedb" query "$table" - --json <"$input" | cat >"$work/answers.jsonl"
end=$(date +%s.%N)
answered=$(wc -l <"$work/answers.jsonl")
python3 -c "import sys; n, s = int(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2]); \
print(f'   {n} answers in {s:.2f} s: {n / s:,.0f} answers/s (includes the payload checksum on open)')" \
    "$answered" "$start" "$end"

echo
echo "== (c) the Python package, Table.query_many   [load: $(cut -d' ' -f1-3 /proc/loadavg)]"
venv=$work/venv
if ! "$venv/bin/python" -c 'import gamedb, numpy' >/dev/null 2>&1; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check ./scripts/python
fi
"$venv/bin/python" scripts/bench_python.py "$table" 1000000
