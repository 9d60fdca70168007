#!/usr/bin/env bash
# Lookup speed from other programs, on the 6x63 Nim table (119,877,472 positions, 15 MB) and
# the 16x16 Chomp table (601,080,389 positions, 75 MB):
#   (m) this machine's memory latency: pointer chasing over buffers of the tables' sizes and
#       of 2 GiB (scripts/programs/latency.rs, built as the example `latency`);
#   (a) in-process lookups through the library, one core (scripts/programs/lookups.rs, built as the
#       example `lookups`), on both tables;
#   (b) `gamedb query TABLE - --json` through a pipe, a large input file (Nim);
#   (c) the Python package (scripts/python): Table.query_many on 1 M positions as a numpy array
#       (scripts/bench/python.py, in a venv under WORKDIR with the package installed).
# Targets: (a) one checked lookup at a time >= 10 million/s on Nim, and on Chomp
# at least 1 / (1.5 x the memory latency of (m)); (b) >= 300,000 answers/s; (c) >= 2,000,000
# answers/s. The machine's load is printed beside each figure, and the lookups'
# and the pipe's CPU time beside their wall time: on a shared machine the wall clock counts the
# time spent waiting for a core, the CPU time does not.
#
# usage: scripts/bench/interop.sh [WORKDIR]   (default target/bench-interop; builds the tables
#        there unless intact ones are present; LOOKUPS=N and LINES=N change the sizes,
#        SKIP_PYTHON=1 leaves out (c))
set -euo pipefail
source "$(dirname "$0")/setup.sh"
work=${1:-target/bench-interop}
lookups=${LOOKUPS:-20000000}
lines=${LINES:-1000000}
mkdir -p "$work"

cargo build --release --quiet --bin gamedb --example lookups --example latency
gamedb=target/release/gamedb
table=$work/nim-6x63.gtab
chomp=$work/chomp-16x16.gtab
build() { # table build-arguments...
    local t=$1
    shift
    if ! "$gamedb" verify-table "$t" >/dev/null 2>&1; then
        echo "== building $t   [load: $(cut -d' ' -f1-3 /proc/loadavg)]"
        /usr/bin/time -f "   build: %e s wall, %U s user, peak memory %M KB" \
            "$gamedb" build "$@" --out "$work" --quiet
    fi
}
build "$table" nim --heaps 6 --max-heap 63
build "$chomp" chomp --rows 16 --cols 16

echo
echo "== (m) memory latency, one thread   [load: $(cut -d' ' -f1-3 /proc/loadavg)]"
target/release/examples/latency 16 75 2048

echo
echo "== (a) in-process lookups, one thread, Nim 6x63   [load: $(cut -d' ' -f1-3 /proc/loadavg)]"
target/release/examples/lookups "$table" "$lookups"
echo
echo "== (a) in-process lookups, one thread, Chomp 16x16   [load: $(cut -d' ' -f1-3 /proc/loadavg)]"
target/release/examples/lookups "$chomp" "$lookups"

echo
echo "== (b) gamedb query TABLE - --json through a pipe   [load: $(cut -d' ' -f1-3 /proc/loadavg)]"
input=$work/positions-$lines.txt
if [ ! -s "$input" ]; then
    python3 scripts/bench/positions.py nim "$lines" 6 63 1 >"$input"
fi
start=$(date +%s.%N)
/usr/bin/time -f "   peak memory %M KB, %U s user, %S s system CPU" "$gamedb" query "$table" - --json <"$input" | cat >"$work/answers.jsonl"
end=$(date +%s.%N)
answered=$(wc -l <"$work/answers.jsonl")
python3 -c "import sys; n, s = int(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2]); \
print(f'   {n} answers in {s:.2f} s: {n / s:,.0f} answers/s (includes the payload checksum on open)')" \
    "$answered" "$start" "$end"

echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ -n "${SKIP_PYTHON:-}" ]; then
    exit 0
fi
echo
echo "== (c) the Python package, Table.query_many   [load: $(cut -d' ' -f1-3 /proc/loadavg)]"
venv=$work/venv
if ! "$venv/bin/python" -c 'import gamedb, numpy' >/dev/null 2>&1; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check ./scripts/python
fi
"$venv/bin/python" scripts/bench/python.py "$table" 1000000
